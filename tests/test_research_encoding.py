"""The research adapters' action encoding: every legal engine action is one sequence of ids, each id is
legal exactly when a legal action extends the selection with it, and a bad id changes nothing."""

from __future__ import annotations

import random

import pytest
from helpers import ANN, BILL, CB_ANN, CB_BILL, CB_TALON, agents, dealt, examples
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.engine.actions import CarteBlanche, Deal, Exchange
from piquet.engine.cards import CARDS, CardSet
from piquet.engine.partie import Partie, Phase
from piquet.research.encoding import (
    CARTE_BLANCHE,
    COMBINATION_DONE,
    EMPTY,
    EXCHANGE_DONE,
    NO_CARTE_BLANCHE,
    NUM_ACTIONS,
    Decision,
    EncodingError,
    Selection,
    action_name,
    apply_id,
    encode,
    legal_ids,
)

pytestmark = pytest.mark.research


def _positions(variant: str, seed: int, count: int) -> list[Partie]:
    """Copies of a partie at each decision of a few deals played by the books' players."""
    rng = random.Random(seed)
    ag = agents(seed)
    p = Partie(("Ann", "Bill"), variant, first_dealer=seed % 2)
    found: list[Partie] = []
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
@settings(max_examples=examples(4), deadline=None)
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


# ---------------------------------------------------------------- the ids against the engine's listing
def _prefix(selection: Selection) -> list[int]:
    """The ids that made ``selection``: each finished combination's cards and its separator, then the cards
    chosen, each combination in increasing id order."""
    ids: list[int] = []
    for mask in selection.done:
        ids += [c for c in range(32) if mask >> c & 1] + [COMBINATION_DONE]
    return ids + [c for c in range(32) if selection.cards >> c & 1]


def _by_listing(partie: Partie, selection: Selection) -> list[int]:
    """The ids by their definition: the next id of every legal engine action, listed by the engine, whose ids
    start with the selection's."""
    start = _prefix(selection)
    k = len(start)
    found = set()
    for action in partie.legal_actions().list():
        ids = encode(action)
        if len(ids) > k and ids[:k] == start:
            found.add(ids[k])
    return sorted(found)


def _walk_and_compare(partie: Partie, rng: random.Random, decisions: int) -> int:
    """Play random ids from ``partie``, comparing at every id the ids offered with the listing's; the number
    compared."""
    compared = 0
    selection = EMPTY
    while decisions and partie.to_act is not None and partie.phase not in (Phase.CUT, Phase.DEAL, Phase.OVER):
        offered = legal_ids(partie, selection)
        assert offered == _by_listing(partie, selection), (partie.phase, selection)
        compared += 1
        selection, done = apply_id(partie, selection, rng.choice(offered))
        if done is not None:
            partie.push(done)
            decisions -= 1
    return compared


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_the_ids_offered_are_those_of_the_engine_s_listing_without_listing_the_exchanges(variant: str) -> None:
    """Every id, every selection: the exchange's ids come from the view's range and the hand, the others from
    the listing; both equal what the listing of every legal action gives."""
    compared = 0
    for seed in range(6):
        rng = random.Random(seed)
        p = Partie(("Ann", "Bill"), variant, first_dealer=seed % 2)
        while not p.deal_scores:
            if p.phase is Phase.DEAL:
                p.push(p.random_deal(rng))
                continue
            compared += _walk_and_compare(p, rng, 1)
    assert compared > 6 * 40


def test_law_20_elder_with_carte_blanche_is_offered_exactly_the_count_he_said() -> None:
    p = dealt(CB_ANN, CB_BILL, CB_TALON)
    p.push(CarteBlanche(BILL, True, 3))
    p.push(p.legal_actions().list()[0])  # younger's exchange: Bill, elder, is to exchange his three
    assert p.to_act == BILL and p.phase is Phase.EXCHANGE
    rng = random.Random(1)
    assert _walk_and_compare(p.copy(), rng, 1) == 4  # three cards, then done
    assert EXCHANGE_DONE not in legal_ids(p, Selection(cards=0b11))


def test_an_elder_who_may_stand_pat_is_offered_done_at_once() -> None:
    p = dealt("AS KS QS JS TS 9S 8S 7S AH KH QH JH", "TH 9H 8H 7H AD KD QD JD TD 9D 8D 7D",
              "AC KC QC JC TC 9C 8C 7C", options={"elder_may_stand_pat": True})
    assert p.to_act == BILL and p.phase is Phase.EXCHANGE
    assert legal_ids(p, EMPTY) == _by_listing(p, EMPTY) and EXCHANGE_DONE in legal_ids(p, EMPTY)
    assert _walk_and_compare(p, random.Random(2), 2) >= 2


def test_au_cent_younger_s_carte_blanche_waits_for_her_turn_as_the_listing_has_it() -> None:
    """Cavendish's au Cent: younger may announce her carte blanche until elder has discarded; the adapter
    offers it at her own turn (docs/research.md), and elder's exchange ids are his alone."""
    p = dealt(CB_BILL, CB_ANN, CB_TALON, packets=2, variant="au-cent")  # Ann, younger, holds no court card
    assert p.to_act == BILL and CarteBlanche(ANN, True) in p.legal_actions(ANN).list()
    assert not {CARTE_BLANCHE, NO_CARTE_BLANCHE} & set(legal_ids(p, EMPTY))
    selection = EMPTY
    for i in encode(Exchange(BILL, CardSet.parse("KS QS JS KH QH"))):  # five cards and done, compared at each
        assert legal_ids(p, selection) == _by_listing(p, selection)
        selection, done = apply_id(p, selection, i)
    assert done is not None
    p.push(done)
    assert p.to_act == ANN and legal_ids(p, EMPTY) == _by_listing(p, EMPTY) == [CARTE_BLANCHE, NO_CARTE_BLANCHE]
    assert _walk_and_compare(p, random.Random(3), 3) >= 3


def test_a_decision_is_made_once_and_answers_every_selection_of_it() -> None:
    p = Partie(("Ann", "Bill"), first_dealer=0)
    p.push(p.random_deal(random.Random(5)))
    decision = Decision(p)
    first = decision.ids(EMPTY)
    assert decision.ids(EMPTY) is first and first == legal_ids(p, EMPTY)
    grown, done = decision.apply(EMPTY, first[0])
    assert done is None and decision.ids(grown) == legal_ids(p, grown)
    with pytest.raises(EncodingError, match="Bill cannot choose bid pass now"):
        decision.apply(EMPTY, 50)
