"""Views leak nothing: what each player may know, computed independently from the actions."""

from __future__ import annotations

import copy
import pickle
from dataclasses import fields

import pytest
from drivers import Drawn, check_no_leak, drive, knowledge, options
from helpers import CB_ANN, CB_BILL, CB_TALON, base, cards_in_text, dealt, examples, run
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.engine.cards import CardSet
from piquet.engine.partie import Partie, Phase
from piquet.engine.view import PlayerView


@settings(max_examples=examples(10), deadline=None)
@given(data=st.data(), opt=options())
def test_views_leak_nothing_during_random_play(data: st.DataObject, opt: dict[str, object]) -> None:
    drive(Drawn(data), options=opt, after=check_no_leak, max_deals=3)


@pytest.mark.parametrize("who", ["Bill", "Ann"])
@settings(max_examples=examples(6), deadline=None)
@given(data=st.data())
def test_views_leak_nothing_with_carte_blanche(who: str, data: st.DataObject) -> None:
    p = dealt(CB_ANN, CB_BILL, CB_TALON) if who == "Bill" else dealt(CB_BILL, CB_ANN, CB_TALON)
    run(p, [f"{who}: cb" + (" 3" if who == "Bill" else "")])
    check_no_leak(p)
    drive(Drawn(data), partie=p, max_deals=1, after=lambda q: None if q.phase is Phase.DEAL else check_no_leak(q))
    assert p.deal_scores


def test_views_spectator_sees_no_hand() -> None:
    p = base()
    v = p.view(None)
    assert v.hand == CardSet() and v.dealt == CardSet() and v.discards == CardSet() and v.peeked == CardSet()
    assert v.own_calls == ()


@pytest.mark.parametrize("seat", [0, 1])
def test_views_own_hand_and_discards(seat: int) -> None:
    p = base()
    v = p.view(seat)
    assert v.hand == p.hand(seat) and v.seat == seat and v.opponent == 1 - seat
    assert len(v.discards) == 1


def test_views_card_names_are_found_in_log_texts() -> None:
    assert cards_in_text("My carte blanche: AS TS 9H.") == CardSet.parse("AS TS 9H")
    assert cards_in_text("Bill plays 10♠, wins the 7C with the QC") == CardSet.parse("TS 7C QC")
    assert cards_in_text("Point of six. Making sixty. AS KS") == CardSet.parse("AS KS")


def test_views_leak_check_detects_a_leak() -> None:
    p = base()
    allowed = knowledge(p)
    assert not (p.hand(1) - allowed[0]).issubset(allowed[0]) or not p.hand(1) - allowed[0]
    assert p.hand(1) - allowed[0]  # Ann may not know Bill's hand


@settings(max_examples=examples(8), deadline=None)
@given(data=st.data())
def test_views_read_later_say_what_they_said_when_made(data: st.DataObject) -> None:
    """A view read after the partie has moved on (a card is played in place, Partie.push) still says what the
    player knew when it was made (its copy, pickled at once, is the yardstick)."""
    kept: list[tuple[PlayerView, PlayerView]] = []

    def keep(p: Partie) -> None:
        for seat in (0, 1, None):
            kept.append((p.view(seat), pickle.loads(pickle.dumps(p.view(seat)))))

    drive(Drawn(data), after=keep, max_deals=2)
    assert kept
    for late, made in kept:
        assert late == made
        assert {f.name: getattr(late, f.name) for f in fields(late)} == {f.name: getattr(made, f.name)
                                                                         for f in fields(made)}


def test_views_pickled_hold_their_fields_and_nothing_of_the_deal() -> None:
    p = base()
    view = p.view(0)
    copied = pickle.loads(pickle.dumps(view))
    assert [f.name for f in fields(copied)] == [f.name for f in fields(PlayerView)]
    assert copied == view and copy.copy(view) == view
    with pytest.raises(AttributeError, match="no attribute 'hands'"):
        getattr(view, "hands")  # noqa: B009 (not a field: the deal's record has it, a view does not)
