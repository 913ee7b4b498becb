"""Where a player's points lost a deal place him on the levels' ladder ("played like level N", issue 20)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from piquet.coach.ladder import LADDER, describe, played_like


def test_the_measured_ladder_falls_as_the_levels_rise() -> None:
    assert [level for level, _ in LADDER] == [1, 2, 3, 4, 5]
    assert all(later < earlier for (_, earlier), (_, later) in pairwise(LADDER))


@given(st.floats(0, 30), st.floats(0, 30))
def test_losing_more_never_places_a_player_higher(a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert played_like(high) <= played_like(low)
    assert 1 <= played_like(high) <= 5


def test_a_level_s_own_loss_places_it_at_its_level() -> None:
    for level, lost in LADDER:
        assert played_like(lost) == pytest.approx(level)
        assert describe(lost) in (f"like level {level}", f"at least as well as level {level}")


def test_a_ladder_that_does_not_fall_is_refused() -> None:
    with pytest.raises(ValueError, match="must fall"):
        played_like(3.0, ((1, 5.0), (2, 6.0)))
    with pytest.raises(ValueError, match="no ladder"):
        played_like(3.0, ())


def test_the_review_places_each_player_by_his_points_lost_a_deal_through_the_fair_lens_only() -> None:
    import random

    from piquet.ai.agent import play_deal
    from piquet.ai.levels import make_agent
    from piquet.coach.review import Lens, review_partie
    from piquet.engine.partie import Partie

    partie = Partie(("Ann", "Bill"), first_dealer=0)
    play_deal(partie, [make_agent("level1", 1), make_agent("level2", 2)], random.Random(4))
    fair = review_partie(partie, Lens.FAIR, exchange_worlds=50)
    summary = fair.to_json()["summary"]
    assert isinstance(summary, dict)
    for seat, name in enumerate(partie.players):
        lost = sum(g.loss for r in fair.actions if r.seat == seat and (g := r.review) is not None)
        assert fair.lost_a_deal(seat) == pytest.approx(lost)  # one deal reviewed
        assert summary[name]["played_like"] == pytest.approx(played_like(lost))
        assert summary[name]["played_like_words"] == describe(lost)
    opened = review_partie(partie, Lens.OPEN).to_json()["summary"]
    assert isinstance(opened, dict) and "played_like" not in opened["Ann"]
    few = review_partie(partie, Lens.FAIR, worlds=2, exchange_worlds=50).to_json()["summary"]
    assert isinstance(few, dict) and "played_like" not in few["Ann"]  # the ladder was measured at 24 hands
    low, high = fair.lost_a_deal_interval(0)
    assert low <= fair.lost_a_deal(0) <= high
