"""Views leak nothing: what each player may know, computed independently from the actions."""

from __future__ import annotations

import pytest
from helpers import cards_in_text
from hypothesis import given, settings
from hypothesis import strategies as st
from test_invariants import OPTION_SETS, drive

from piquet.actions import CarteBlanche, Cut, Deal, Declare, Exchange, Play
from piquet.cards import CardSet
from piquet.combinations import Category, key
from piquet.game import Partie
from piquet.scoring import ScoreEvent
from piquet.view import Speech


def knowledge(p: Partie) -> tuple[CardSet, CardSet, CardSet]:
    """What Ann, Bill and a spectator may know of the current deal, from the actions alone."""
    actions = p.actions
    deals = [i for i, a in enumerate(actions) if isinstance(a, Deal)]
    if not deals:  # only the cut so far: the cut cards are public
        cut = CardSet([c for a in actions if isinstance(a, Cut) for c in a.cards])
        return cut, cut, cut
    deal = actions[deals[-1]]
    assert isinstance(deal, Deal)
    elder = 1 - deal.player
    younger = deal.player
    know = [deal.hands[0].mask, deal.hands[1].mask, 0]
    cb = [False, False]
    will = None
    elder_n = None
    show_rest = False
    taken = 0
    calls: list[Declare] = []
    led = False

    def tell(seats, mask):  # type: ignore[no-untyped-def]
        for s in seats:
            know[s] |= mask

    for a in actions[deals[-1] + 1:]:
        if isinstance(a, CarteBlanche):
            if a.announce:
                cb[a.player] = True
                if a.will_exchange is not None:
                    will = a.will_exchange
        elif isinstance(a, Exchange):
            n = len(a.discards)
            if a.player == elder:
                at, elder_n = 0, n
                if n < 5:  # Law 33: elder may look at what he left of the top five
                    tell([elder], CardSet(deal.talon[n:5]).mask)
            else:
                at = will if will is not None else elder_n
                show_rest = a.show_rest
            taken += n
            tell([a.player], CardSet(deal.talon[at:at + n]).mask)
            other = 1 - a.player
            if cb[other]:  # the proof, once the opponent has discarded
                tell([a.player, 2], deal.hands[other].mask)
        elif isinstance(a, Declare):
            calls.append(a)
            if a.player == elder and a.category is Category.SETS and a.called is not None \
                    and len(a.called) == 4:
                tell([younger, 2], a.called.mask)  # "fourteen aces" names every card
        elif isinstance(a, Play):
            if not led:
                led = True
                for i in range(0, len(calls), 2):
                    e, y = calls[i], calls[i + 1]
                    ec, yc = e.called, y.called
                    if ec is None and yc is None:
                        continue
                    if ec is not None and yc is not None and key(e.category, ec) == key(e.category, yc):
                        tell([0, 1, 2], ec.mask | yc.mask)
                        continue
                    win = e if yc is None or (ec is not None and key(e.category, ec) > key(e.category, yc)) else y
                    for combo in win.combinations:
                        tell([0, 1, 2], combo.mask)
                if show_rest:
                    tell([0, 1, 2], CardSet(deal.talon[taken:]).mask)
            tell([0, 1, 2], a.card.mask)
    return CardSet(know[0]), CardSet(know[1]), CardSet(know[2])


def check_no_leak(p: Partie) -> None:
    allowed = knowledge(p)
    for seat, may in ((0, allowed[0]), (1, allowed[1]), (None, allowed[2])):
        v = p.view(seat)
        known = v.known_cards()
        assert known.issubset(may), (seat, str(known - may))
        named = CardSet()
        for entry in v.log:
            if isinstance(entry, Speech):
                named = named | cards_in_text(entry.text)
            elif isinstance(entry, ScoreEvent):
                named = named | cards_in_text(entry.reason)
        for e in v.events:
            named = named | cards_in_text(e.reason)
        assert named.issubset(may), (seat, str(named - may))
        if seat is not None:
            hidden = p.hand(1 - seat) - may
            for field in (v.hand, v.dealt, v.discards, v.peeked, v.rest, v.played, *v.shown_dealt, *v.revealed):
                assert not (field & hidden)
            for c in v.own_calls:
                assert c.player == seat


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), opt=st.sampled_from(OPTION_SETS))
def test_views_leak_nothing_during_random_play(seed: int, opt: dict[str, object] | None) -> None:
    drive(seed, opt, after=check_no_leak, max_deals=3)


def test_views_leak_nothing_with_carte_blanche() -> None:
    from helpers import CB_ANN, CB_BILL, CB_TALON, dealt, run
    from test_invariants import agents

    for who in ("Bill", "Ann"):
        for seed in range(6):
            p = dealt(CB_ANN, CB_BILL, CB_TALON) if who == "Bill" else dealt(CB_BILL, CB_ANN, CB_TALON)
            run(p, [f"{who} carte_blanche yes" + (" 3" if who == "Bill" else "")])
            check_no_leak(p)
            ag = agents(seed)
            number = p.deal_number
            while p.deal_number == number and p.phase.value not in ("deal", "over"):
                seat = p.to_act
                p.push(ag[seat].choose(p.view(seat), p.legal_actions(seat)))  # type: ignore[index]
                if p.phase.value != "deal":
                    check_no_leak(p)


def test_views_spectator_sees_no_hand() -> None:
    from helpers import base
    p = base()
    v = p.view(None)
    assert v.hand == CardSet() and v.dealt == CardSet() and v.discards == CardSet() and v.peeked == CardSet()
    assert v.own_calls == ()


@pytest.mark.parametrize("seat", [0, 1])
def test_views_own_hand_and_discards(seat: int) -> None:
    from helpers import base
    p = base()
    v = p.view(seat)
    assert v.hand == p.hand(seat) and v.seat == seat and v.opponent == 1 - seat
    assert len(v.discards) == 1


def test_views_card_names_are_found_in_log_texts() -> None:
    assert cards_in_text("My carte blanche: AS TS 9H.") == CardSet.parse("AS TS 9H")
    assert cards_in_text("Bill plays 10♠, wins the 7C with the QC") == CardSet.parse("TS 7C QC")
    assert cards_in_text("Point of six. Making sixty. AS KS") == CardSet.parse("AS KS")


def test_views_leak_check_detects_a_leak() -> None:
    from helpers import base
    p = base()
    allowed = knowledge(p)
    assert not (p.hand(1) - allowed[0]).issubset(allowed[0]) or not p.hand(1) - allowed[0]
    assert p.hand(1) - allowed[0]  # Ann may not know Bill's hand
