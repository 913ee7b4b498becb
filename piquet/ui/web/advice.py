"""The advice a table against the computer gives a person: hints on asking, and the tutor's warnings.

A hint is the review's (:mod:`piquet.coach.hints`): the best choice, why, the next best and the margin; where the
review values nothing (who deals, a carte blanche, a concession), the strongest level's choice. A seat may ask
:data:`HINT_BURST` hints at once and one more every :data:`HINT_INTERVAL` seconds, an allowance the server keeps
whether or not the table is in memory; one hint at a time a table.

A table against the computer may have the tutor (chosen when it is created): before a person's choice that loses
the tutor's threshold or more, the table answers the ``tutor`` warning instead of applying it, and applies it when
the player sends it again confirmed. A room has no tutor, and between two people the computer gives no hints.
"""

from __future__ import annotations

import logging
import math
import time
from typing import TYPE_CHECKING

from piquet.ai.agent import Agent
from piquet.coach import hints
from piquet.engine.actions import Action
from piquet.engine.partie import Partie, Phase
from piquet.ui.web.advice_messages import hint_message
from piquet.ui.web.limits import TokenBucket, prefix_of
from piquet.ui.web.protocol import HintMessage, ProtocolError
from piquet.ui.web.thinking import ThinkingFailed, reviewed

if TYPE_CHECKING:
    from piquet.ui.web.tables import Table

__all__ = ["HINT_BURST", "HINT_INTERVAL", "HINT_LEVEL", "MAX_TUTOR", "Advice", "check_tutor"]

_log = logging.getLogger(__name__)

#: The level whose advice the hint gives.
HINT_LEVEL = 5
#: Hints a seat may ask at once; then one more every :data:`HINT_INTERVAL` seconds (a level-5 hint
#: costs a worker up to the table's budget of CPU time, a second by default). The allowance is the seat's, kept by
#: the server (:class:`~piquet.ui.web.tables.Tables`) whether or not the table is in memory: a new connection does
#: not refill it.
HINT_BURST = 5
HINT_INTERVAL = 6.0
#: The highest tutor's threshold a table may ask for, in points of the deal (beyond it a choice would lose more than
#: most deals are worth: no warning would ever come).
MAX_TUTOR = 100.0


def check_tutor(tutor: object) -> float | None:
    """A table's tutor as its creator asked for it: ``None`` or ``False`` (no tutor), ``True`` (the review's "?"
    mark, :data:`piquet.coach.hints.TUTOR_THRESHOLD`) or a threshold in points; a ``ValueError`` naming the field
    and the reason otherwise.

    >>> check_tutor(True), check_tutor(None), check_tutor(2)
    (5.0, None, 2.0)
    >>> check_tutor("yes")
    Traceback (most recent call last):
    ...
    ValueError: tutor: 'yes' is not true, false or a number of points
    """
    if tutor is None or tutor is False:
        return None
    if tutor is True:
        return float(hints.TUTOR_THRESHOLD)
    if not isinstance(tutor, (int, float)) or not math.isfinite(tutor):
        raise ValueError(f"tutor: {tutor!r} is not true, false or a number of points")
    if not 0 < tutor <= MAX_TUTOR:
        raise ValueError(f"tutor: {tutor:g} points is out of range: the threshold is more than 0 and at most "
                         f"{MAX_TUTOR:g} points")
    return float(tutor)


class Advice:
    """The hints and the tutor of one ``table``. ``allowances``: each seat's allowance of hints, by (table, seat),
    kept by the server."""

    def __init__(self, table: Table, allowances: dict[tuple[str, int], TokenBucket]) -> None:
        self.table = table
        self.allowances = allowances
        #: The strongest level's player, which advises where the review values nothing (made on the first hint).
        self.adviser: Agent | None = None
        self._hinting = False
        self._advised: dict[int, tuple[int, Action]] = {}  # seat: (the version, the review's hint's best choice)

    def can_hint(self, seat: int | None) -> bool:
        """Whether ``seat`` may ask for hints (and the page offers them): a player's seat at a table against the
        computer. Between two people the computer gives none, and a spectator asks for nothing."""
        computer = self.table.info.computer
        return computer is not None and seat is not None and seat != computer

    def _seed(self) -> int:
        """The seed of a hint's and a tutor's check's worlds: the table's and the decision's place."""
        partie = self.table.partie
        return self.table.info.seed * 1_000_003 + (partie.ply if partie is not None else 0)

    # ------------------------------------------------------------ the tutor
    def _tutors(self, seat: int) -> bool:
        """Whether the tutor checks ``seat``'s choices: a table against the computer with the tutor, a person's seat."""
        info = self.table.info
        return info.tutor is not None and info.computer is not None and seat != info.computer

    def _was_advised(self, seat: int, action: Action) -> bool:
        """Whether ``action`` is the choice the review's hint gave ``seat`` for this decision (the tutor does not
        question it: :func:`piquet.coach.hints.follows`)."""
        advised = self._advised.get(seat)
        return advised is not None and advised[0] == self.table.version and hints.follows(action, advised[1])

    async def warning(self, partie: Partie, seat: int, action: Action, address: str = "",
                      lang: str = "en") -> hints.TutorWarning | None:
        """The tutor's warning on ``seat``'s ``action``, or ``None`` where it has none: no tutor at the table, a
        decision the review does not value or does not question, the choice the hint gave. The check runs in a
        worker within the hints' budget, from the seat's view and legal actions (``computer_failed`` if it cannot
        be had: nothing is applied). Its reason is in ``lang``, the players named as that language names them."""
        if (not self._tutors(seat) or not reviewed(partie.phase) or not hints.questioned(partie, seat)
                or self._was_advised(seat, action)):
            return None
        table = self.table
        assert table.info.tutor is not None
        try:
            return await table.thinker.check(partie.view(seat), partie.legal_actions(seat), action, table.info.tutor,
                                             self._seed(), table.budget_for(HINT_LEVEL), table=table.id,
                                             address=prefix_of(address), lang=lang, names=self._names(lang))
        except ThinkingFailed as e:
            _log.warning("table %s, tutor: %s", table.id, e)
            raise ProtocolError("computer_failed", "the tutor could not check your choice: send it again") from None

    def _names(self, lang: str) -> tuple[str, str]:
        """The players as the review's sentences name them for a connection speaking ``lang`` (the computer's seat
        in that language)."""
        a, b = self.table.shown_players(lang)
        return (a or "", b or "")

    # ------------------------------------------------------------ hints
    def _count_hint(self, seat: int) -> None:
        """Count a hint against the seat's allowance (:data:`HINT_BURST`, one more every :data:`HINT_INTERVAL`
        seconds); raises ``busy`` if none is left."""
        now = time.monotonic()
        key = (self.table.id, seat)
        bucket = self.allowances.get(key)
        if bucket is None:
            bucket = self.allowances[key] = TokenBucket(1 / HINT_INTERVAL, HINT_BURST, now)
        if not bucket.take(now):
            wait = (1 - bucket.tokens) * HINT_INTERVAL
            raise ProtocolError("busy", "hints are limited to {most} at once and one every {interval} s: ask again "
                                        "in {wait} s", most=HINT_BURST, interval=f"{HINT_INTERVAL:g}",
                                wait=f"{wait:.0f}")

    async def hint(self, seat: int | None, lang: str = "en", address: str = "") -> HintMessage:
        """The review's hint for ``seat``'s decision (where the review values nothing, the strongest level's
        choice). One hint at a time per table: another asked while the computer thinks about one is refused
        (``busy``), as is a hint past the seat's allowance or while the computer's workers are loaded.
        ``address``: the asking client's (the hints lane serves addresses by turns)."""
        table = self.table
        if table.info.computer is None:
            raise ProtocolError("not_allowed", "between two people the computer gives no hints")
        if self._hinting:
            raise ProtocolError("busy", "the computer is still thinking about your last hint")
        async with table.lock:
            partie = table.require_playing(seat)
            assert seat is not None
            if partie.to_act != seat or partie.is_over:
                raise ProtocolError("not_your_turn", "a hint is for a decision of yours, and it is not your turn")
            network = prefix_of(address)  # the hints lane serves networks by turns
            if table.thinker.busy(network):
                raise ProtocolError("busy", "the computer is busy with other tables: ask for a hint again shortly")
            self._count_hint(seat)
            if self.adviser is None:
                self.adviser = table.new_agent(HINT_LEVEL)
            adviser = self.adviser
            view = partie.view(seat)
            if partie.phase is Phase.DEAL:
                return hint_message(adviser.choose_packets(view, partie.legal_packets()), table.names, lang)
            legal = partie.legal_actions(seat)
            budget = table.budget_for(HINT_LEVEL)
            self._hinting = True
            try:
                if reviewed(partie.phase):
                    advice = await table.thinker.hint(view, legal, self._seed(), budget, table=table.id,
                                                      address=network, lang=lang, names=self._names(lang))
                    if advice is not None:
                        self._advised[seat] = (table.version, advice.best)
                        return hint_message(advice, table.names, lang)
                action, self.adviser = await table.thinker.choose(adviser, view, legal, HINT_LEVEL, table=table.id,
                                                                  budget=budget, hint_for=network)
            except ThinkingFailed as e:
                _log.warning("table %s, hint: %s", table.id, e)
                raise ProtocolError("computer_failed", "the computer could not think of a hint: ask again") from None
            finally:
                self._hinting = False
            return hint_message(action, table.names, lang)
