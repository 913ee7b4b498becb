"""What a new table may ask of the computer: its level, and its thinking time per decision within the server's
bounds (``GET /api/setup``'s ``budget``, ``piquet serve --max-budget``); checked where a table is made, by the server
and by the offline site's worker alike."""

from __future__ import annotations

import math

from piquet.ai.levels import LEVELS as LEVEL_SETTINGS
from piquet.ui.web.advice import HINT_LEVEL

__all__ = ["DEFAULT_BUDGET", "LEVELS", "MAX_BUDGET", "MIN_BUDGET", "check_budget"]

LEVELS = (1, 2, 3, 4, 5)
#: The CPU seconds a table may give the computer for one decision, at most, unless the server is started with
#: another cap (``piquet serve --max-budget``; 0 there: no cap, and a table may ask for no limit). A decision may
#: take up to three times its budget by the wall clock (:data:`piquet.ai.budget.WALL_FACTOR`).
MAX_BUDGET = 5.0
#: The least a table may give the computer for one decision (with less, level 5 would solve hardly more than the one
#: sampled deal it always solves for each card).
MIN_BUDGET = 0.1
#: The budget of a table that sets none, where its level does not search (levels 1 and 2: only its hints think).
DEFAULT_BUDGET = LEVEL_SETTINGS[HINT_LEVEL].budget


def check_budget(budget: object, cap: float = MAX_BUDGET) -> float | None:
    """A table's thinking budget as its creator asked for it (``None``: the level's own), or a ``ValueError``
    naming the field and the reason: not a number, under :data:`MIN_BUDGET`, over the server's ``cap``, or 0 (no
    limit) on a server with a cap (``cap`` 0: none).

    >>> check_budget(2), check_budget(None), check_budget(0, cap=0)
    (2.0, None, 0.0)
    >>> check_budget(9)
    Traceback (most recent call last):
    ...
    ValueError: budget: 9 s is out of range: the computer may think 0.1 to 5 s a decision on this server
    """
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not math.isfinite(budget):
        raise ValueError(f"budget: {budget!r} is not a number of seconds")
    seconds = float(budget)
    if seconds == 0:
        if cap > 0:
            raise ValueError(f"budget: 0 (no limit) is not allowed on this server: the computer may think at most "
                             f"{cap:g} s a decision")
        return seconds
    if seconds < MIN_BUDGET or (cap > 0 and seconds > cap):
        allowed = (f"{MIN_BUDGET:g} to {cap:g} s a decision" if cap > 0
                   else f"{MIN_BUDGET:g} s or more a decision, or 0 for no limit,")
        raise ValueError(f"budget: {seconds:g} s is out of range: the computer may think {allowed} on this server")
    return seconds
