"""The time a searching player may take for one decision, and when its sampling may stop early.

A :class:`Deadline` measures the CPU time of the deciding process (:func:`time.process_time`): the
decision rule, so that a level decides alike on a quiet machine and a busy one; and a wall-clock cap
(:data:`WALL_FACTOR` times the budget) so that a player on a busy server is never kept waiting past
it. The CPU budget is weighed between pieces of work (a sampled deal solved, a round of talons); the
wall-clock cap is also checked inside the long ones (drawing the worlds, the solver's search, the
exchange's talons, :meth:`Deadline.overdue` and :meth:`Deadline.check`), so that however little of
a core the process gets, a decision ends within a fraction of a second of its cap. The clocks are
injected, for tests. :func:`settled` is the rule that stops the sampling of the play when the worlds
not yet solved can no longer change the best card. Why and how well: docs/players.md, "The time
budget".

>>> ticks = iter([0.0, 0.4, 0.9, 1.2])
>>> deadline = Deadline(1.0, clock=lambda: next(ticks), wall=lambda: 0.0)
>>> deadline.spent(), deadline.spent(), deadline.spent()
(False, False, True)
>>> walls = iter([0.0, 2.0, 3.5])
>>> capped = Deadline(1.0, clock=lambda: 0.0, wall=lambda: next(walls))
>>> capped.overdue(), capped.overdue()
(False, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TypeVar

__all__ = ["WALL_FACTOR", "Deadline", "OutOfTime", "settled"]

#: How many times the CPU budget a decision may take by the wall clock before it stops anyway
#: (a busy server gives the process less than a core).
WALL_FACTOR = 3.0

K = TypeVar("K")


class OutOfTime(Exception):
    """Raised by :meth:`Deadline.check` inside a long piece of work (the solver's search) whose
    decision has reached its wall-clock cap: the work stops where it is and the decision makes do
    with what it has."""


class Deadline:
    """A budget of ``seconds`` of CPU time (0: none) started now. ``clock`` is the CPU clock,
    ``wall`` the wall clock; the wall cap is :data:`WALL_FACTOR` times the budget."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.process_time,
                 wall: Callable[[], float] = time.perf_counter) -> None:
        self.seconds = seconds
        self._clock = clock
        self._wall = wall
        self._start = clock() if seconds > 0 else 0.0
        self._wall_start = wall() if seconds > 0 else 0.0
        self.binding = False  #: whether the budget stopped some work

    def elapsed(self) -> float:
        """CPU seconds since the start (0 without a budget)."""
        return self._clock() - self._start if self.seconds > 0 else 0.0

    def spent(self, ahead: float = 0.0) -> bool:
        """Whether the budget is spent, or would be after ``ahead`` more CPU seconds (the cost of
        the next piece of work, as far as it can be foreseen); also when the wall-clock cap is
        reached. Marks the deadline :attr:`binding` when it says yes."""
        if self.seconds <= 0:
            return False
        if (self._clock() - self._start + ahead > self.seconds
                or self._wall() - self._wall_start > WALL_FACTOR * self.seconds):
            self.binding = True
        return self.binding


    @property
    def cap(self) -> float:
        """The wall-clock seconds the decision may take (0 without a budget)."""
        return WALL_FACTOR * self.seconds

    def overdue(self) -> bool:
        """Whether the wall-clock cap is reached: what a long piece of work asks inside, every few
        steps, to stop where it is (a clock read, not the CPU clock's system call). Marks the
        deadline :attr:`binding` when it says yes."""
        if self.seconds <= 0:
            return False
        if self._wall() - self._wall_start > WALL_FACTOR * self.seconds:
            self.binding = True
            return True
        return False

    def check(self) -> None:
        """Raise :class:`OutOfTime` when :meth:`overdue`: for work that stops by unwinding (the
        solver's search calls it every few thousand positions)."""
        if self.overdue():
            raise OutOfTime(f"past the wall-clock cap of {self.cap:g} s")


def settled(totals: Mapping[K, float], remaining: float, spread: float) -> bool:
    """Whether the key with the greatest total stays strictly the greatest whatever is added: each
    total may yet gain anything in ``[0, remaining * spread]`` relative to the others, that is when
    every value still to come for one key lies within ``spread`` of the value for any other key in
    the same world and the worlds to come weigh ``remaining`` in all. A single key, or none, is
    settled.

    >>> settled({"a": 10.0, "b": 4.0}, remaining=2.0, spread=3.0)  # a leads by 6, 2 x 3 may close 6
    False
    >>> settled({"a": 10.0, "b": 3.0}, remaining=2.0, spread=3.0)
    True
    """
    if len(totals) < 2:
        return True
    ordered = sorted(totals.values(), reverse=True)
    return ordered[0] - ordered[1] > remaining * spread
