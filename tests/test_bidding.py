"""Auction Piquet bidding by sampled deals (piquet.bidding): the contract's points follow Lunn's
scoring of the play, the solver's trick count is exact where it is plain, and the calls are legal
and sensible, and the holder's exchange is hers and legal."""

from __future__ import annotations

import random

import pytest
from helpers import cs

from piquet.actions import Bid, Deal, Exchange
from piquet.agents import play_deal
from piquet.bidding import (
    choose_call,
    choose_holder_exchange,
    contract_points,
    estimate_tricks,
    holder_discards,
    holder_tricks,
)
from piquet.game import Partie, Phase
from piquet.players import make_agent
from piquet.scoring import ScoreCategory
from piquet.simple import SimpleAgent, minus_discards
from piquet.variant import make_rules

TOP = cs("AS KS QS JS AH KH QH JH AD KD QD JD")
LOW = cs("7S 8S 9S TS 7H 8H 9H TH 7D 8D 9D TD")
PLAY_CATEGORIES = (ScoreCategory.PLAY, ScoreCategory.CARDS, ScoreCategory.CONTRACT)


@pytest.mark.parametrize("seed", range(12))
def test_lunn_contract_points_are_what_the_engine_scores_in_the_play(seed: int) -> None:
    """A trick each (won in plus, lost in minus), the cards or capot, over- and undertricks at
    ten a trick times the doubling, and the bonus of a doubled contract made: as the engine
    scores a deal played out, whatever the contract and the tricks."""
    partie = Partie(("Ann", "Bill"), "auction", first_dealer=seed % 2)
    books = [SimpleAgent(random.Random(seed)), SimpleAgent(random.Random(seed + 1))]
    play_deal(partie, books, random.Random(seed))
    contract = partie.deal_scores[-1].contract
    if contract is None:  # both passed
        return
    by = partie.deal_scores[-1].by_category
    if by[0][ScoreCategory.PIQUE.value] or by[1][ScoreCategory.PIQUE.value]:
        return  # a pique in the play is scored outside the contract's points
    played = [sum(by[seat][c.value] for c in PLAY_CATEGORIES) for seat in (0, 1)]
    tricks = partie.deal_scores[-1].tricks[contract.holder]
    holder, other = contract_points(make_rules("auction"), contract, tricks)
    assert (holder, other) == (played[contract.holder], played[1 - contract.holder])


def test_holder_of_every_top_card_takes_every_trick_and_of_every_low_one_none() -> None:
    assert holder_tricks((TOP.mask, LOW.mask), 0, False) == 12
    assert holder_tricks((TOP.mask, LOW.mask), 1, True) == 0
    assert holder_tricks((TOP.mask, LOW.mask), 1, False) == 0


def test_trick_estimate_prefers_the_stronger_hand_and_stays_in_range() -> None:
    strong = estimate_tricks(TOP.mask, LOW.mask, False)
    weak = estimate_tricks(LOW.mask, TOP.mask, False)
    assert 0 <= weak < 4 < 9 < strong <= 12
    # In a minus contract the low hand is the strong one: it wins few tricks.
    assert estimate_tricks(LOW.mask, TOP.mask, True) < estimate_tricks(TOP.mask, LOW.mask, True)


def test_a_hand_of_top_cards_opens_a_plus_contract() -> None:
    partie = Partie(("Ann", "Bill"), "auction", first_dealer=0)
    partie.push(Deal(0, (LOW, TOP), tuple(cs("AC KC QC JC TC 9C 8C 7C"))))
    call = choose_call(partie.view(1), partie.legal_actions(1), random.Random(1), 16)
    assert call is not None and call.tricks is not None and not call.minus


def test_a_hand_of_low_cards_opens_a_minus_contract() -> None:
    partie = Partie(("Ann", "Bill"), "auction", first_dealer=0)
    partie.push(Deal(0, (TOP, LOW), tuple(cs("AC KC QC JC TC 9C 8C 7C"))))
    call = choose_call(partie.view(1), partie.legal_actions(1), random.Random(1), 16)
    assert call is not None and call.tricks is not None and call.minus


def test_sampled_calls_are_legal_and_repeatable() -> None:
    for seed in range(6):
        partie = Partie(("Ann", "Bill"), "auction", first_dealer=seed % 2)
        partie.push(partie.random_deal(random.Random(seed)))
        while partie.phase is Phase.BID:
            seat = partie.to_act
            assert seat is not None
            view, legal = partie.view(seat), partie.legal_actions(seat)
            call = choose_call(view, legal, random.Random(seed), 8)
            assert call is not None and call in legal
            assert choose_call(view, legal, random.Random(seed), 8) == call
            partie.push(call)


def test_sampled_bidding_does_not_apply_outside_an_auction() -> None:
    partie = Partie(("Ann", "Bill"), "rubicon", first_dealer=0)
    partie.push(partie.random_deal(random.Random(2)))
    seat = partie.to_act
    assert seat is not None
    assert choose_call(partie.view(seat), partie.legal_actions(seat), random.Random(1), 8) is None


def test_levels_bid_by_sampling_unless_told_to_bid_as_the_books() -> None:
    partie = Partie(("Ann", "Bill"), "auction", first_dealer=0)
    partie.push(Deal(0, (TOP, LOW), tuple(cs("AC KC QC JC TC 9C 8C 7C"))))
    partie.push(Bid(1, "pass"))
    view, legal = partie.view(0), partie.legal_actions(0)
    sampled = make_agent("level4", 3).choose(view, legal)
    books = make_agent("level4:bids=0", 3).choose(view, legal)
    assert isinstance(sampled, Bid) and sampled in legal and isinstance(books, Bid)
    assert books == SimpleAgent(random.Random(3)).choose(view, legal)


def _holding(call: str, seed: int = 3) -> Partie:
    """Bill (seat 1) opens with ``call`` and Ann passes: Bill holds the contract and exchanges."""
    partie = Partie(("Ann", "Bill"), "auction", first_dealer=0)
    partie.push(partie.random_deal(random.Random(seed)))
    partie.push(Bid(1, call))
    partie.push(Bid(0, "pass"))
    assert partie.phase is Phase.EXCHANGE and partie.to_act == 1
    return partie


@pytest.mark.parametrize("call", ["7+", "7-"])
def test_holder_exchange_is_legal_and_among_its_candidates(call: str) -> None:
    partie = _holding(call)
    view, legal = partie.view(1), partie.legal_actions(1)
    options = holder_discards(view, 12)
    assert 2 <= len(options) <= 12 and len(set(options)) == len(options)
    assert all(Exchange(1, d) in legal for d in options)
    chosen = choose_holder_exchange(view, random.Random(1), 60, 12)
    assert chosen is not None and chosen in legal and chosen.discards in options


def test_minus_candidates_start_from_the_books_high_cards_for_every_number_taken() -> None:
    partie = _holding("7-")
    view = partie.view(1)
    assert view.exchange_range is not None
    lo, hi = view.exchange_range
    options = holder_discards(view, 30)
    for n in range(lo, hi + 1):
        assert minus_discards(view.hand, n, n) in options


def test_holder_exchange_is_only_the_holders() -> None:
    partie = _holding("7+")
    books = SimpleAgent(random.Random(0))
    partie.push(books.choose(partie.view(1), partie.legal_actions(1)))
    assert partie.to_act == 0  # younger, not the holder
    assert choose_holder_exchange(partie.view(0), random.Random(1), 20, 8) is None
