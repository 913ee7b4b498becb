"""The count of a deal (``DealScore.count``): the one home of the breakdown the terminal prints and the server
sends with each row of the score sheet (``SheetRow.count``), in the order of reckoning of Law 67."""

from __future__ import annotations

import random

import pytest

from piquet.ai.agent import RandomAgent
from piquet.engine.cards import Card, Rank
from piquet.engine.combinations import Category
from piquet.engine.partie import Partie, Phase
from piquet.engine.scoring import (
    CATEGORY_ORDER,
    CombinationReason,
    DealScore,
    LeadReason,
    PlainReason,
    ScoreCategory,
    ScoreEvent,
)
from piquet.ui.web.protocol import sheet_rows


def _partie(variant: str, seed: int, deals: int = 3) -> Partie:
    """A partie of random moves, ``deals`` deals scored (or over before)."""
    rng = random.Random(seed)
    agent = RandomAgent(rng)
    partie = Partie(("Ann", "Bill"), variant)
    while not partie.is_over and len(partie.deal_scores) < deals:
        if partie.phase is Phase.CUT:
            partie.push(partie.random_cut(rng))
        elif partie.phase is Phase.DEAL:
            partie.push(partie.random_deal(rng))
        else:
            seat = partie.to_act
            assert seat is not None
            partie.push(agent.choose(partie.view(seat), partie.legal_actions(seat)))
    return partie


def test_the_count_lists_only_the_categories_scored_in_the_order_of_reckoning() -> None:
    events = (ScoreEvent(1, 3, ScoreCategory.SETS, CombinationReason(Category.SETS, 3, Rank.KING)),
              ScoreEvent(0, 10, ScoreCategory.CARDS, PlainReason.CARDS),
              ScoreEvent(0, 5, ScoreCategory.POINT, CombinationReason(Category.POINT, 5)),
              ScoreEvent(1, 1, ScoreCategory.PLAY, LeadReason(Card.parse("AS"))),
              ScoreEvent(0, 1, ScoreCategory.PLAY, PlainReason.WINS_A_TRICK))
    deal = DealScore.from_events(events, elder=0)
    assert [(c.label, points) for c, points in deal.count()] == [
        ("point", (5, 0)), ("sets", (0, 3)), ("play", (1, 1)), ("cards", (10, 0))]
    assert ScoreCategory.CARTE_BLANCHE.label == "carte blanche"


def test_an_empty_deal_has_an_empty_count() -> None:
    assert DealScore.from_events((), elder=1).count() == ()


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_deal_s_count_adds_up_to_its_totals_and_follows_law_67(variant: str, seed: int) -> None:
    partie = _partie(variant, seed)
    assert partie.deal_scores
    for deal in partie.deal_scores:
        count = deal.count()
        assert [sum(points[seat] for _, points in count) for seat in (0, 1)] == list(deal.totals)
        order = [CATEGORY_ORDER.index(c) for c, _ in count]
        assert order == sorted(order)
        assert all(points != (0, 0) for _, points in count)


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_each_score_sheet_row_carries_the_deal_s_count_for_the_page(variant: str) -> None:
    partie = _partie(variant, 7)
    for seat in (0, 1):
        rows = sheet_rows(partie.view(seat))
        assert len(rows) == len(partie.deal_scores)
        for row, deal in zip(rows, partie.deal_scores, strict=True):
            assert row["count"] == [{"category": c.value, "label": c.label, "points": list(points)}
                                    for c, points in deal.count()]
            if not row["annulled"]:
                assert [sum(line["points"][s] for line in row["count"]) for s in (0, 1)] == row["points"]
            else:
                assert row["count"] == []
