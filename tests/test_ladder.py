"""Where a player's points lost a deal place him on the levels' ladder ("played like level N", issue 20)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from piquet.ai.ladder import LADDER, describe, played_like


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
