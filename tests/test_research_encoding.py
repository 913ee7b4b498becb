"""The research adapters' action encoding: every legal engine action is one sequence of ids, each id is
legal exactly when a legal action extends the selection with it, and a bad id changes nothing."""

from __future__ import annotations

import random

import pytest
from helpers import agents
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.engine.actions import Deal
from piquet.engine.cards import CARDS
from piquet.engine.partie import Partie, Phase
from piquet.research.encoding import (
    EMPTY,
    NUM_ACTIONS,
    EncodingError,
    action_name,
    apply_id,
    encode,
    legal_ids,
)


def _positions(variant: str, seed: int, count: int) -> list[Partie]:
    """Copies of a partie at each decision of a few deals played by the books' players."""
    rng = random.Random(seed)
    ag = agents(seed)
    p = Partie(("Ann", "Bill"), variant, first_dealer=seed % 2)
    found = []
    while len(found) < count and not p.is_over:
        if p.phase is Phase.DEAL:
            p.push(p.random_deal(rng))
            continue
        seat = p.to_act
        assert seat is not None
        found.append(p.copy())
        p.push(ag[seat].choose(p.view(seat), p.legal_actions(seat)))
    return found


def _reach(partie: Partie, ids: list[int]) -> object:
    selection, done = EMPTY, None
    for i in ids:
        assert done is None, "an action completed before its last id"
        assert i in legal_ids(partie, selection)
        selection, done = apply_id(partie, selection, i)
    return done


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_every_legal_action_is_reached_by_its_ids_and_only_by_them(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    for partie in _positions(variant, seed, 30)[::5]:
        legal = partie.legal_actions().list()
        for action in rng.sample(legal, min(len(legal), 8)):
            assert _reach(partie, encode(action)) == action


def test_the_first_ids_offered_are_exactly_the_starts_of_the_legal_actions() -> None:
    for partie in _positions("rubicon", 3, 60):
        starts = {encode(a)[0] for a in partie.legal_actions().list()}
        assert set(legal_ids(partie, EMPTY)) == starts


def test_the_ids_are_one_vocabulary_for_every_variant() -> None:
    assert NUM_ACTIONS == 65
    assert [action_name(i) for i in (0, 7, 31, 32, 36, 39, 44, 48, 50, 64)] == [
        "7S", "AS", "AC", "x done", "sink", "cb 0", "cb 5", "dealer me", "bid pass", "bid 12-"]
    with pytest.raises(EncodingError, match="no action has id 65"):
        action_name(65)


def test_an_illegal_id_is_refused_naming_the_player_and_changes_nothing() -> None:
    p = Partie(("Ann", "Bill"), first_dealer=0)
    p.push(Deal.from_pack(0, CARDS, 3, in_packets=False))
    before = p.ply
    with pytest.raises(EncodingError, match="Bill cannot choose bid pass now"):
        apply_id(p, EMPTY, 50)
    assert p.ply == before


def test_a_chance_action_has_no_ids() -> None:
    with pytest.raises(EncodingError, match="chance"):
        encode(Deal.from_pack(0, CARDS, 3))
