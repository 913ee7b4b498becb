"""Where a player's losses place him on the computer levels' ladder: "played like level N".

The review (:mod:`piquet.coach.review`) grades each decision by the points it lost against the best choice, through
the fair lens. The levels were reviewed the same way (``benchmarks/ladder.py``: each level playing whole parties
against the books, every decision of its reviewed): :data:`LADDER` holds the points each level lost a deal, all its
decisions together. A player's points lost a deal is placed on that ladder by :func:`played_like`, between the
two levels it falls between (linearly), below level 1 or above level 5.

>>> ladder = ((1, 8.0), (2, 6.0), (3, 4.0), (4, 3.0), (5, 2.0))
>>> played_like(4.0, ladder), played_like(3.5, ladder), played_like(1.0, ladder), played_like(9.0, ladder)
(3.0, 3.5, 5.0, 1.0)
>>> describe(3.5, ladder), describe(1.0, ladder), describe(9.0, ladder)
('like level 3 or 4 (3.5)', 'at least as well as level 5', 'below level 1')
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Final

from piquet.engine.language import words_in

__all__ = ["LADDER", "describe", "played_like"]

#: The points each level lost a deal to its own decisions (exchanges, declarations and cards played), reviewed
#: through the fair lens at the review's defaults, each level playing 34 whole Rubicon parties (204 deals) against
#: the books, seeds 100-133 (``python3 benchmarks/ladder.py --parties 34``; docs/review.md, "Played like level N",
#: gives the intervals: each level is told apart from the next, levels 2 and 3 only just).
LADDER: Final[tuple[tuple[int, float], ...]] = ((1, 13.06), (2, 11.71), (3, 8.16), (4, 1.10), (5, 0.28))


def played_like(lost_a_deal: float, ladder: Sequence[tuple[int, float]] = LADDER) -> float:
    """The level a player who lost ``lost_a_deal`` points a deal played like: a level of the ladder, or between
    two (linearly), 1 at worst and the top level at best. The ladder's losses must fall as the levels rise."""
    if not ladder:
        raise ValueError("no ladder to place a player on")
    steps = sorted(ladder)
    if any(later[1] >= earlier[1] for earlier, later in pairwise(steps)):
        raise ValueError(f"a ladder's losses must fall as its levels rise: {steps}")
    if lost_a_deal >= steps[0][1]:
        return float(steps[0][0])
    for (low, worse), (high, better) in pairwise(steps):
        if lost_a_deal >= better:
            return low + (worse - lost_a_deal) / (worse - better) * (high - low)
    return float(steps[-1][0])


def describe(lost_a_deal: float, ladder: Sequence[tuple[int, float]] = LADDER, lang: str = "en") -> str:
    """:func:`played_like` in words, in ``lang``: "like level 3", "like level 3 or 4 (3.4)", "at least as well as
    level 5", "below level 1".

    >>> describe(9.0), describe(9.0, lang="fr")
    ('like level 2 or 3 (2.8)', 'comme le niveau 2 ou 3 (2,8)')
    """
    played_like(lost_a_deal, ladder)  # checks the ladder
    w = words_in(lang)
    steps = sorted(ladder)
    if lost_a_deal > steps[0][1]:
        return w("below level {level}", level=steps[0][0])
    if lost_a_deal <= steps[-1][1]:
        return w("at least as well as level {level}", level=steps[-1][0])
    level = played_like(lost_a_deal, ladder)
    if abs(level - round(level)) < 0.05:
        return w("like level {level}", level=round(level))
    between = f"{level:.1f}".replace(".", ",") if lang == "fr" else f"{level:.1f}"
    return w("like level {level} or {next} ({between})", level=int(level), next=int(level) + 1, between=between)
