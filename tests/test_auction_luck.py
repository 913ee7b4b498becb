"""Luck in Auction Piquet (piquet.coach.luck): the luck of the deal against the average deal of the seat that bids
first, the auction bid and the hands exchanged as the books do; the luck of the draws in the contract as bid,
given the discards made; zero-sum between the players, with the result adjusted for it."""

from __future__ import annotations

import functools
import random
from itertools import combinations

import pytest
from helpers import ANN, BILL, agents, cs, dealt, examples, make_deal, run
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.ai.agent import play_partie
from piquet.ai.books import SimpleAgent
from piquet.coach.luck import (
    SEAT_AVERAGES,
    DealLuck,
    auction_deal_luck,
    books_contract,
    deal_luck,
    partie_luck,
    seat_average,
    summarise,
)
from piquet.engine.actions import Bid, Deal
from piquet.engine.cards import CARDS, Card
from piquet.engine.partie import Partie
from piquet.engine.variants import Contract, make_rules

AUCTION = make_rules("auction")

# Bill holds the top cards, Ann a middling hand: the books give Bill a plus contract.
TOP = "AS KS QS JS TS AH KH QH AD KD AC KC"
MIDDLING = "9S 8S JH TH 9H QD JD 7D QC JC TC 7C"
TALON = "7S 7H 8H 8D 9D TD 9C 8C"


def test_a_top_hand_dealt_is_large_positive_auction_deal_luck_for_either_seat() -> None:
    bidding_first = partie_luck(dealt(MIDDLING, TOP, TALON, variant="auction"))[0]  # Ann deals: Bill bids first
    assert bidding_first.deal_luck(BILL) > 40 and bidding_first.deal_luck(ANN) == -bidding_first.deal_luck(BILL)
    dealing = partie_luck(dealt(TOP, MIDDLING, TALON, variant="auction"))[0]
    assert dealing.deal_luck(ANN) > 40 and dealing.deal_luck(BILL) < -40
    # Against the seat's average, not against nothing.
    assert bidding_first.average == seat_average(AUCTION) == SEAT_AVERAGES["auction"][0]
    assert bidding_first.deal_luck(BILL) == bidding_first.dealt - bidding_first.average
    # The model of the auction: the books' calls, here a plus contract held by the top hand.
    assert bidding_first.contracts is not None and bidding_first.contracts[0] == Contract(BILL, 7, False)


def _deal_played(deal: Deal, seed: int) -> Partie:
    """An Auction partie in which ``deal`` is dealt and played to its end by players choosing at random."""
    partie = Partie(("Ann", "Bill"), "auction", first_dealer=deal.player)
    partie.push(deal)
    players = agents(seed)
    while not partie.deal_scores:
        who = partie.to_act
        assert who is not None
        partie.push(players[who].choose(partie.view(who), partie.legal_actions(who)))
    return partie


@settings(max_examples=examples(40), deadline=None)
@given(st.permutations(list(CARDS)), st.integers(0, 1), st.integers(0, 10_000))
def test_auction_luck_of_the_deal_sums_to_nothing_between_players(pack: list[Card], dealer: int, seed: int) -> None:
    """Whatever the deal and whatever the calls and discards (here at random), one player's luck is the other's
    bad luck, and a deal's luck and its result adjusted for it add up to the result."""
    deal = Deal(dealer, (cs(" ".join(map(str, pack[:12]))), cs(" ".join(map(str, pack[12:24])))), tuple(pack[24:]))
    partie = _deal_played(deal, seed)
    [luck] = partie_luck(partie)
    score = partie.deal_scores[0]
    assert luck.elder == score.elder  # the holder of the contract, or where both passed the seat bidding first
    assert luck.contracts is not None and luck.contracts[1] == score.contract
    assert luck.deal_luck(0) + luck.deal_luck(1) == pytest.approx(0, abs=1e-9)
    assert luck.luck(0) + luck.luck(1) == pytest.approx(0, abs=1e-9)
    for seat in (0, 1):
        summary = summarise([luck], seat)
        assert summary.result == score.totals[seat] - score.totals[1 - seat]
        assert summary.luck + summary.adjusted == pytest.approx(summary.result)


@functools.cache
def _books_partie(seed: int) -> Partie:
    return play_partie([SimpleAgent(), SimpleAgent()], random.Random(seed), ("Ann", "Bill"), variant="auction")


def test_calls_and_discards_made_as_the_books_make_them_count_as_no_skill() -> None:
    """The luck of the deal models the auction and the exchange by the books: where both players bid and
    exchange as the books do, the value before each draw is the value the deal was dealt with, so what is not
    luck (the calls' and the discards' skill) is nothing."""
    lucks = [d for seed in (0, 1) for d in partie_luck(_books_partie(seed))]
    played = [d for d in lucks if d.elder_discarded is not None]
    assert len(played) >= 8 and any(d.contracts and d.contracts[1] and d.contracts[1].minus for d in played)
    for d in lucks:
        assert d.contracts is not None and d.contracts[0] == d.contracts[1]
    for d in played:
        assert d.elder_discarded == pytest.approx(d.dealt, abs=1e-9)
        assert d.younger_discarded == pytest.approx(d.elder_drew, abs=1e-9)


def test_the_adjusted_auction_result_is_the_result_less_the_luck_over_a_partie() -> None:
    partie = _books_partie(2)
    lucks = partie_luck(partie)
    assert len(lucks) == len(partie.deal_scores)  # an annulled deal is a deal, scoring nothing
    for seat in (0, 1):
        s = summarise(lucks, seat)
        assert s.result == sum(d.totals[seat] - d.totals[1 - seat] for d in partie.deal_scores)
        assert s.luck == pytest.approx(sum(d.luck(seat) for d in lucks))
        assert s.adjusted == pytest.approx(s.result - s.luck)


# Ann, the dealer, bids 8- doubled over Bill's 7+ and holds the contract: she is the deal's elder.
MINUS_BIDS = [Bid(BILL, "7+"), Bid(ANN, "8-"), Bid(BILL, "double"), Bid(ANN, "pass")]
LOW = "7S 8S 9S 7H 8H 9H 7D 8D TD 7C 8C QC"
HIGH = "AS KS QS AH KH QH AD KD QD AC KC JC"
LOW_TALON = "JS TS JH TH 9D JD 9C TC"


def test_the_contract_s_holder_is_elder_and_the_values_are_his_side_s() -> None:
    deal = make_deal(LOW, HIGH, LOW_TALON)
    luck = auction_deal_luck(AUCTION, deal, MINUS_BIDS, {})
    assert luck.contracts is not None and luck.contracts[1] == Contract(ANN, 8, True, 1)
    assert luck.elder == ANN
    # Bill bids first: the average is his seat's, seen from Ann's side.
    assert luck.average == -seat_average(AUCTION)
    assert luck.deal_luck(ANN) == luck.dealt - luck.average == -luck.deal_luck(BILL)
    before = auction_deal_luck(AUCTION, deal, MINUS_BIDS[:2], {})  # the auction not over: Bill is elder yet
    assert before.elder == BILL and before.contracts is not None and before.contracts[1] is None
    assert before.deal_luck(ANN) == pytest.approx(luck.deal_luck(ANN))  # the deal's luck is the cards'
    with pytest.raises(ValueError, match="auction_deal_luck"):
        deal_luck(AUCTION, deal, BILL, {})


def test_the_draw_luck_in_a_minus_contract_averages_nothing_over_the_talons_given_the_discards() -> None:
    """Elder's over every set of cards he could draw, younger's (who takes fewer than are left her) over every
    set she could draw of those he left."""
    talon = cs(LOW_TALON)
    held = cs(LOW)
    his = cs("TD QC")  # Ann, holding 8- doubled, throws her two high cards
    hers = cs("AS AH")  # Bill takes two of the six left
    elder_lucks, younger_lucks = [], []
    for drew in combinations(talon, len(his)):
        rest = [c for c in talon if c not in drew]
        for second in combinations(rest, len(hers)):
            order = [*drew, *second, *(c for c in rest if c not in second)]
            deal = Deal(ANN, (held, cs(HIGH)), tuple(order))
            luck = auction_deal_luck(AUCTION, deal, MINUS_BIDS, {ANN: his, BILL: hers}, average=0.0)
            elder_lucks.append(luck.draw_luck(ANN))
            younger_lucks.append(luck.draw_luck(BILL))
    assert sum(elder_lucks) / len(elder_lucks) == pytest.approx(0, abs=1e-9)
    assert sum(younger_lucks) / len(younger_lucks) == pytest.approx(0, abs=1e-9)
    assert max(map(abs, elder_lucks)) > 1 and max(map(abs, younger_lucks)) > 1


def test_an_annulled_deal_has_the_luck_of_its_cards_and_no_draw() -> None:
    partie = run(dealt(MIDDLING, TOP, TALON, variant="auction"), [Bid(BILL, "pass"), Bid(ANN, "pass")])
    [luck] = partie_luck(partie)
    assert partie.deal_scores[0].annulled
    assert luck.contracts == (books_contract(AUCTION, make_deal(MIDDLING, TOP, TALON)), None)
    assert luck.elder == BILL and luck.result(BILL) == 0
    assert luck.draw_luck(ANN) == luck.draw_luck(BILL) == 0
    # Bill passed a deal the books would have bid and played: he has the luck and gave up the points.
    assert luck.luck(BILL) > 40 and summarise([luck], BILL).adjusted < -40


def test_the_auction_seat_average_in_use_agrees_with_a_fresh_sample() -> None:
    from piquet.coach.luck import average_deal

    average, _ = SEAT_AVERAGES["auction"]
    mean, error = average_deal(AUCTION, 1000, random.Random(11))
    assert abs(mean - average) < 4 * error


def test_the_json_of_an_auction_deal_s_luck_names_the_contracts() -> None:
    luck = auction_deal_luck(AUCTION, make_deal(LOW, HIGH, LOW_TALON), MINUS_BIDS, {})
    data = luck.to_json(("Ann", "Bill"))
    assert luck.contracts is not None
    assert data["contracts"] == {"books": str(luck.contracts[0]), "played": "8- doubled"}
    assert data["elder"] == "Ann"
    assert "contracts" not in DealLuck(1, 0, 0.0, 0.0).to_json(("Ann", "Bill"))
