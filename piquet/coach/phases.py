"""What a player lost in each phase of the deal: the exchange, the declarations, the play.

The review (:mod:`piquet.coach.review`) grades each decision by the points it lost against the best choice. For a
player's progress, his decisions are put in three phases (:data:`PHASES`), and for each are kept how many were
choices (more than one legal) and the points lost in them: :class:`PhaseLosses`, one partie's (:meth:`of_review`)
or many added together (``+``). From it, the points lost a decision in each phase, and the points lost a deal, all
phases together (what places a player on the levels' ladder, :mod:`piquet.coach.ladder`).

>>> a = PhaseLosses(deals=6, decisions={"exchange": 4, "declarations": 2, "play": 40},
...                 lost={"exchange": 6.0, "declarations": 0.5, "play": 30.0})
>>> b = PhaseLosses(deals=4, decisions={"exchange": 4, "declarations": 0, "play": 30},
...                 lost={"exchange": 2.0, "declarations": 0.0, "play": 10.0})
>>> both = a + b
>>> both.per_decision("exchange"), both.per_decision("declarations"), both.lost_a_deal
(1.0, 0.25, 4.85)
>>> PhaseLosses.from_json(both.to_json()) == both
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from piquet.coach.review.partie import PartieReview

__all__ = ["PHASES", "PhaseLosses"]

#: The phases, in the deal's order, and the kinds of decision of the review (:meth:`PartieReview.summary`) each
#: holds: Auction Piquet's calls are made over the hand before the exchange, as the discards are; carte blanche is
#: declared; a concession (or an answer to one) is made over the cards still to play.
PHASES: Final[dict[str, tuple[str, ...]]] = {
    "exchange": ("exchange", "call"),
    "declarations": ("declaration", "carte blanche"),
    "play": ("play", "concession"),
}


def _zeros() -> dict[str, Any]:
    return dict.fromkeys(PHASES, 0)


@dataclass(frozen=True)
class PhaseLosses:
    """A player's decisions that were choices, and the points he lost in them, by phase, over ``deals`` deals."""

    deals: int = 0
    decisions: Mapping[str, int] = field(default_factory=_zeros)
    lost: Mapping[str, float] = field(default_factory=_zeros)

    def __post_init__(self) -> None:
        for name, counts in (("decisions", self.decisions), ("lost", self.lost)):
            if set(counts) != set(PHASES):
                raise ValueError(f"{name}: one figure for each phase ({', '.join(PHASES)}), not {sorted(counts)}")
        if self.deals < 0 or any(n < 0 for n in self.decisions.values()):
            raise ValueError(f"deals and decisions are counted from 0, not {self.deals}, {dict(self.decisions)}")

    @classmethod
    def of_review(cls, review: PartieReview, seat: int) -> PhaseLosses:
        """``seat``'s decisions in ``review``, by phase, over the deals it reviewed."""
        decisions, lost = _zeros(), _zeros()
        for phase, kinds in PHASES.items():
            for kind in kinds:
                summary = review.summary(seat, kind)
                decisions[phase] += summary.choices
                lost[phase] += summary.loss
        return cls(len({r.deal for r in review.actions}), decisions, lost)

    def __add__(self, other: PhaseLosses) -> PhaseLosses:
        return PhaseLosses(self.deals + other.deals,
                           {p: self.decisions[p] + other.decisions[p] for p in PHASES},
                           {p: self.lost[p] + other.lost[p] for p in PHASES})

    def per_decision(self, phase: str) -> float | None:
        """The points lost a decision in ``phase`` (``None``: no decision there was a choice)."""
        if phase not in PHASES:
            raise ValueError(f"phase: one of {', '.join(PHASES)}, not {phase!r}")
        n = self.decisions[phase]
        return round(self.lost[phase] / n, 4) if n else None

    @property
    def lost_a_deal(self) -> float:
        """The points lost a deal, every phase together (0 for no deal)."""
        return round(sum(self.lost.values()) / self.deals, 4) if self.deals else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"deals": self.deals, "decisions": dict(self.decisions), "lost": dict(self.lost)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PhaseLosses:
        """The figures :meth:`to_json` wrote; ``ValueError`` naming what is wrong in any other."""
        try:
            return cls(int(data["deals"]), {p: int(data["decisions"][p]) for p in PHASES},
                       {p: float(data["lost"][p]) for p in PHASES})
        except (KeyError, TypeError) as e:
            raise ValueError(f"a phase summary needs deals, and decisions and lost for each phase: {e!r}") from None
