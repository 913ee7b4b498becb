"""Luck, as backgammon reviews reckon it (piquet.coach.luck): the luck of the deal against the seat's average, the
luck of the draw against the talons that could have come given the discard made, zero-sum between the players,
and the result adjusted for it, in the partie's review and its JSON."""

from __future__ import annotations

import functools
import random
from itertools import combinations
from pathlib import Path
from typing import Any, cast

import pytest
from helpers import ANN, BILL, cs, dealt, make_deal, run

from piquet.ai.agent import play_partie
from piquet.ai.books import SimpleAgent
from piquet.ai.exchange import estimate
from piquet.coach.luck import (
    SEAT_AVERAGES,
    DealLuck,
    average_deal,
    deal_luck,
    partie_luck,
    seat_average,
    summarise,
    world_value,
)
from piquet.coach.review import Lens, review_partie
from piquet.engine import record
from piquet.engine.actions import Deal
from piquet.engine.partie import Partie
from piquet.engine.variants import make_rules

RULES = make_rules("rubicon")
RECORDS = Path(__file__).parent / "records"

# Bill holds a quint major in hearts and the four aces; Ann the rest of the court cards.
STRONG = "AH KH QH JH TH AS AD AC 7S 8S 7D 7C"
WEAK = "KS QS JS TS 9S KD QD JD KC QC JC 9C"
TALON = "9H 8H 7H TD 9D 8D TC 8C"


def test_a_quint_major_and_four_aces_dealt_is_large_positive_deal_luck_for_either_seat() -> None:
    as_elder = partie_luck(dealt(WEAK, STRONG, TALON))[0]  # Ann deals: Bill is elder
    assert as_elder.elder == BILL
    assert as_elder.deal_luck(BILL) > 40 and as_elder.deal_luck(ANN) == -as_elder.deal_luck(BILL)
    as_younger = partie_luck(dealt(STRONG, WEAK, TALON))[0]
    assert as_younger.elder == BILL
    assert as_younger.deal_luck(ANN) > 40 and as_younger.deal_luck(BILL) < -40
    # Against the seat's average, not against nothing: the same hands, elder's edge taken off.
    assert as_elder.dealt - as_elder.average == as_elder.deal_luck(BILL)
    assert as_elder.average == SEAT_AVERAGES["rubicon"][0] > 0


# Bill, elder, holds three aces and throws five low cards; the fourth ace is in the talon.
THREE_ACES = "AS AD AC KS QS 7H 8H 7D 8D 7C 8C 9C"
ANNS = "JS KH QH JH TH KD QD JD TD KC QC JC"
BILLS_DISCARD = "7H 8H 7D 8D 7C"


def _fourth_ace(talon: str) -> DealLuck:
    partie = run(dealt(ANNS, THREE_ACES, talon), [f"Bill: x {BILLS_DISCARD}", "Ann: x JS KD JD"])
    return partie_luck(partie)[0]


def test_a_draw_that_brings_the_fourth_ace_is_positive_draw_luck() -> None:
    lucky = _fourth_ace("AH 9S 8S 7S 9H TS 9D TC")  # the ace among the five Bill draws
    unlucky = _fourth_ace("9S 8S 7S 9H TS 9D TC AH")  # the ace below them: Ann's
    assert lucky.draw_luck(BILL) > 5
    assert unlucky.draw_luck(BILL) < 0
    # The same deal and the same discard: only the draw differs.
    assert lucky.dealt == unlucky.dealt and lucky.elder_discarded == unlucky.elder_discarded
    # Bill's good draw is Ann's bad luck; Ann takes the three cards left and has no luck of her own.
    assert lucky.draw_luck(ANN) == 0 and lucky.luck(ANN) == -lucky.luck(BILL)


def test_the_draw_luck_averages_nothing_over_the_talons_given_the_discard_made() -> None:
    """The discard's skill is not luck: whatever the discard, its draws' luck is nothing on average (elder's over
    every set of five he could draw, younger's over every pair she could draw of the three he left)."""
    talon = cs("AH 9S 8S 7S 9H TS 9D TC")
    elder_discards = {BILL: cs(BILLS_DISCARD)}
    elder_luck = [deal_luck(RULES, make_deal(ANNS, THREE_ACES, " ".join(str(c) for c in (*top, *rest))), BILL,
                            elder_discards).draw_luck(BILL)
                  for top in combinations(talon, 5) for rest in [[c for c in talon if c not in top]]]
    assert len(elder_luck) == 56 and max(elder_luck) > 5 and min(elder_luck) < -5
    assert sum(elder_luck) / len(elder_luck) == pytest.approx(0, abs=1e-9)
    # Bill takes three; Ann throws two of her hearts for two of the five left.
    top, left = "AH 9S 8S", ["7S", "9H", "TS", "9D", "TC"]
    both = {BILL: cs("7H 8H 7D"), ANN: cs("KH JH")}
    younger_luck = [deal_luck(RULES, make_deal(ANNS, THREE_ACES, " ".join([top, *pair, *rest])), BILL,
                              both).draw_luck(ANN)
                    for pair in combinations(left, 2) for rest in [[c for c in left if c not in pair]]]
    assert len(younger_luck) == 10 and max(younger_luck) > 0 > min(younger_luck)
    assert sum(younger_luck) / len(younger_luck) == pytest.approx(0, abs=1e-9)


def test_a_deal_is_valued_as_the_exchange_review_values_a_world() -> None:
    e, y = cs(STRONG).mask, cs(WEAK).mask
    assert world_value(e, y, RULES) == estimate(e, y, RULES)
    # A carte blanche already scored counts for its holder, toward his repique.
    assert world_value(e, y, RULES, (10, 0)) >= estimate(e, y, RULES) + 10


@functools.cache
def _partie(seed: int) -> Partie:
    return play_partie([SimpleAgent(), SimpleAgent()], random.Random(seed), ("Ann", "Bill"))


def test_the_two_players_luck_sums_to_nothing_in_every_deal() -> None:
    lucks = partie_luck(_partie(3))
    assert len(lucks) == len(_partie(3).deal_scores) >= 6
    assert any(abs(d.luck(0)) > 5 for d in lucks)
    for d in lucks:
        assert d.luck(0) + d.luck(1) == pytest.approx(0, abs=1e-9)
        assert d.deal_luck(0) + d.deal_luck(1) == pytest.approx(0, abs=1e-9)
    assert summarise(lucks, 0).luck == pytest.approx(-summarise(lucks, 1).luck)


def test_the_adjusted_result_is_the_result_less_the_luck() -> None:
    partie = _partie(4)
    lucks = partie_luck(partie)
    for seat in (0, 1):
        s = summarise(lucks, seat)
        scored = sum(d.totals[seat] - d.totals[1 - seat] for d in partie.deal_scores)
        assert s.result == scored
        assert s.luck == pytest.approx(sum(d.luck(seat) for d in lucks))
        assert s.luck == pytest.approx(s.deal + s.draws)
        assert s.adjusted == pytest.approx(s.result - s.luck)
        assert s.deals == len(lucks)


def test_the_json_has_the_luck_per_deal_and_player_and_in_the_summary() -> None:
    partie = _partie(3)
    review = review_partie(partie, Lens.OPEN, deal=2)
    data = review.to_json()
    [entry] = cast(list[dict[str, Any]], data["luck"])
    expected = partie_luck(partie, 2)[0]
    assert entry["deal"] == 2 and entry["elder"] == ("Ann", "Bill")[expected.elder]
    assert entry["values"]["dealt"] == expected.dealt and entry["average"] == expected.average
    for seat, name in enumerate(("Ann", "Bill")):
        player = entry["players"][name]
        assert player == {"deal": expected.deal_luck(seat), "draw": expected.draw_luck(seat),
                          "luck": expected.luck(seat), "result": expected.result(seat)}
        summary = data["summary"][name]["luck"]  # type: ignore[index]
        assert summary["luck"] == player["luck"] and summary["adjusted"] == player["result"] - player["luck"]


def test_auction_luck_is_in_the_review_and_its_json() -> None:
    partie = record.loads((RECORDS / "auction-plus.json").read_text(encoding="utf-8"))
    lucks = partie_luck(partie)
    assert [d.deal for d in lucks] == [1, 2]  # the first deal annulled, the second played in 9+
    data = review_partie(partie, Lens.OPEN, deal=2).to_json()
    [entry] = cast(list[dict[str, Any]], data["luck"])
    assert entry["contracts"]["played"] == "9+" and entry["elder"] == "Bill"
    for seat, name in enumerate(("Ann", "Bill")):
        assert entry["players"][name]["luck"] == lucks[1].luck(seat)
        assert data["summary"][name]["luck"]["luck"] == lucks[1].luck(seat)  # type: ignore[index]
    with pytest.raises(ValueError, match="Auction"):
        deal_luck(partie.rules, next(a for a in partie.actions if isinstance(a, Deal)), 0, {})


def test_the_seat_average_in_use_agrees_with_a_fresh_sample() -> None:
    for name, (average, _) in SEAT_AVERAGES.items():
        mean, error = average_deal(make_rules(name), 1000, random.Random(11))
        assert abs(mean - average) < 4 * error
    # Rules other than a variant's defaults: measured, seeded, the same each time.
    other = make_rules("rubicon", {"minimum_point": 4})
    assert seat_average(other) == seat_average(make_rules("rubicon", {"minimum_point": 4}))
    assert seat_average(other) != seat_average(RULES)
