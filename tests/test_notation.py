"""The text notation of actions (``piquet.engine.actions.action_text`` and ``parse_action``): every legal
action of random parties, in every variant, is written and read back to the same action."""

from __future__ import annotations

import random

import pytest
from helpers import agents

from piquet.engine.actions import Deal, NotationError, Play, action_text, parse_action
from piquet.engine.partie import Partie, Phase


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_every_legal_action_reads_back_from_its_text(variant: str) -> None:
    rng = random.Random(11)
    ag = agents(11)
    p = Partie(("Ann", "Bill"), variant, {"concession_may_be_declined": True} if variant == "rubicon" else None)
    seen = set()
    while not p.is_over and len(p.deal_scores) < 3:
        if p.phase is Phase.CUT:
            p.push(p.random_cut(rng))
            continue
        if p.phase is Phase.DEAL:
            p.push(p.random_deal(rng))
            continue
        seat = p.to_act
        assert seat is not None
        legal = p.legal_actions(seat).list()
        for action in legal[:200]:
            text = action_text(action)
            assert parse_action(text, seat) == action, text
            named = action_text(action, p.players)
            assert named == f"{p.players[seat]}: {text}" and parse_action(named, names=p.players) == action
            assert parse_action(f"{seat}: {text}") == action
            seen.add(type(action).__name__)
        p.push(ag[seat].choose(p.view(seat), p.legal_actions(seat)))
    assert {"Exchange", "Declare", "Play"} <= seen


@pytest.mark.parametrize("text", ["", "QZ", "x QZ", "bid", "cb maybe", "dealer 2", "sets AS | QZ"])
def test_text_that_is_no_action_is_refused_saying_why(text: str) -> None:
    with pytest.raises(ValueError):
        parse_action(text, 0)


def test_a_deal_has_no_text_form() -> None:
    p = Partie(("Ann", "Bill"), first_dealer=0)
    deal = p.random_deal(random.Random(1))
    assert isinstance(deal, Deal)
    with pytest.raises(NotationError, match="no text form"):
        action_text(deal)
    assert parse_action("10s", 0) == Play(0, parse_action("TS", 0).card)  # type: ignore[union-attr]


def test_a_line_names_its_player_by_name_or_seat_or_says_whose_it_is_not() -> None:
    names = ("Ann", "Bill")
    assert parse_action("Bill: x 7C 8C show", names=names) == parse_action("x 7C 8C show", 1)
    assert parse_action("  Ann :  sets AS AH AD | KS KH KD", names=names) == parse_action(
        "sets AS AH AD | KS KH KD", 0)
    with pytest.raises(NotationError, match="not a player: 'Carl'"):
        parse_action("Carl: QS", names=names)
    with pytest.raises(NotationError, match="whose action is 'QS'"):
        parse_action("QS")
    assert parse_action("Ann: QS", 1, names) == Play(0, parse_action("QS", 0).card)  # type: ignore[union-attr]
