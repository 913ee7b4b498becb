"""Progress by phase: each finished partie of a player's seat reviewed once, in the reviews' worker processes, and
what he lost in each phase of the deal kept in the store.

When the History page asks (``POST /api/history``), :meth:`PhaseReviews.progress` reads from the store the reviews
by phase (:class:`piquet.coach.phases.PhaseLosses`) already made for the parties it lists, and queues the others;
the answer draws what is ready (:func:`piquet.ui.web.progress.phase_rows`) and says how many are still being
reviewed (the page asks again until none is). A queued partie is reviewed a deal at a time through the fair lens,
the player's seat only (:func:`review_phases`), in the worker processes of the reviews
(:meth:`piquet.ui.web.reviews.Reviews.in_worker`, in turn with the reviews players ask for, which wait for one
deal at most), never on the event loop; its summary is written to the store once all its deals are done
(:meth:`~piquet.ui.web.store.SQLStore.keep_review`, under :data:`METHOD`), and never made again.

One partie is reviewed at a time in the whole server, newest first as the page lists them; at most
:data:`MAX_WAITING` wait. A partie whose review failed is not queued again by this process while it is among the
:data:`MAX_FAILED` failures it remembers last.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final

from piquet.coach.phases import PhaseLosses
from piquet.coach.review import CALL_WORLDS, DEFAULT_WORLDS, EXCHANGE_WORLDS, Lens, review_partie
from piquet.engine import record
from piquet.engine.actions import Deal
from piquet.ui.web import progress
from piquet.ui.web.history import Party, replayed
from piquet.ui.web.store import AsyncStore, StoreError, StoreUnavailable, TableInfo

__all__ = ["MAX_FAILED", "MAX_WAITING", "METHOD", "PhaseReviews", "review_phases"]

log = logging.getLogger("piquet.ui.web")

#: How the reviews by phase are made: a summary made another way is made again.
METHOD: Final = f"fair lens, {DEFAULT_WORLDS} worlds, {EXCHANGE_WORLDS} exchange worlds, player's seat"
#: Parties waiting for their review by phase in the whole server; past it, a page's others wait for a later request.
MAX_WAITING: Final = 5000
#: The failed reviews a process remembers (not to queue them again); past it the oldest may be tried once more.
MAX_FAILED: Final = 5000

#: Runs a function in a worker process (:meth:`piquet.ui.web.reviews.Reviews.in_worker`).
RunInWorker = Callable[..., Awaitable[Any]]


def review_phases(text: str, seat: int, deal: int, worlds: int = DEFAULT_WORLDS,
                  exchange_worlds: int = EXCHANGE_WORLDS, call_worlds: int = CALL_WORLDS) -> dict[str, Any]:
    """In a worker: ``seat``'s decisions in deal ``deal`` of the record ``text``, reviewed through the fair lens
    (the ladder's way), summed up by phase (:meth:`PhaseLosses.to_json`). The worlds are :func:`review_partie`'s,
    the server's :data:`METHOD` by default (the tests of when and how often it reviews take fewer)."""
    review = review_partie(record.loads(text), Lens.FAIR, worlds=worlds, deal=deal, luck=False, seat=seat,
                           exchange_worlds=exchange_worlds, call_worlds=call_worlds)
    return PhaseLosses.of_review(review, seat).to_json()


def _record(info: TableInfo) -> tuple[str, int]:
    """The table's finished partie as a record's text, and how many deals it has (off the event loop)."""
    partie = replayed(info)
    if partie is None or not partie.is_over:
        raise StoreError(f"table {info.id!r}: its partie is not over")
    return record.dumps(partie), sum(1 for a in partie.actions if isinstance(a, Deal))


class PhaseReviews:
    """The reviews by phase of the server: ``store``, where they are kept; ``run``, how a function is run in a worker
    process. ``made``: how many this process has made (and written)."""

    def __init__(self, store: AsyncStore, run: RunInWorker) -> None:
        self.store = store
        self.run = run
        #: The ``(table id, seat)`` waiting, the one under review first.
        self.waiting: OrderedDict[tuple[str, int], None] = OrderedDict()
        #: The ``(table id, seat)`` whose review failed, the latest last (at most :data:`MAX_FAILED`).
        self.failed: OrderedDict[tuple[str, int], None] = OrderedDict()
        self.made = 0
        self.closed = False
        self._task: asyncio.Task[None] | None = None

    async def kept(self, seats: Sequence[tuple[str, int]]) -> tuple[dict[tuple[str, int], PhaseLosses], int]:
        """The reviews by phase kept for ``seats`` (``(table id, seat)`` of finished parties), and how many of the
        others are waiting for theirs (those not yet waiting are queued)."""
        found: dict[tuple[str, int], PhaseLosses] = {}
        for key, data in (await self.store.reviewed(seats, METHOD)).items():
            try:
                found[key] = PhaseLosses.from_json(data)
            except ValueError as e:  # made again
                log.warning("table %s, seat %d: its review by phase cannot be read (%s)", key[0], key[1], e)
        waiting = 0
        for key in seats:
            if key in found or key in self.failed:
                continue
            if key not in self.waiting and len(self.waiting) < MAX_WAITING and not self.closed:
                self.waiting[key] = None
            waiting += key in self.waiting
        if self.waiting and (self._task is None or self._task.done()) and not self.closed:
            self._task = asyncio.get_running_loop().create_task(self._work(), name="piquet-phase-reviews")
        return found, waiting

    async def progress(self, parties: Sequence[Party], lang: str = "en") -> dict[str, Any]:
        """What the History answer says of the progress by phase of ``parties``: a plot for each variant
        (:func:`~piquet.ui.web.progress.phase_rows`, its picture ``svg``), how many parties were reviewed and how
        many are still ``waiting``."""
        found, waiting = await self.kept([(p["id"], p["seat"]) for p in parties])
        rows = progress.phase_rows(parties, found, lang)
        return {"reviewed": len(found), "waiting": waiting, "failed": sum(
                    (p["id"], p["seat"]) in self.failed for p in parties),
                "variants": [{**row, "svg": progress.phases_svg(row, lang)} for row in rows]}

    async def idle(self) -> None:
        """Return once no partie is waiting for its review by phase (at once if none is)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    async def _work(self) -> None:
        while self.waiting and not self.closed:
            key = next(iter(self.waiting))
            try:
                await self._review(*key)
                self.made += 1
            except asyncio.CancelledError:
                raise
            except (StoreUnavailable, StoreError) as e:
                log.warning("table %s, seat %d: no review by phase (%s)", key[0], key[1], e)
                self._failed(key)
            except Exception as e:
                log.error("table %s, seat %d: its review by phase failed (%s)", key[0], key[1], type(e).__name__)
                log.debug("the review's traceback", exc_info=True)
                self._failed(key)
            finally:
                self.waiting.pop(key, None)

    def _failed(self, key: tuple[str, int]) -> None:
        self.failed[key] = None
        self.failed.move_to_end(key)
        while len(self.failed) > MAX_FAILED:
            self.failed.popitem(last=False)

    async def _review(self, table_id: str, seat: int) -> None:
        info = await self.store.load(table_id)
        if info is None:
            raise StoreError(f"no table {table_id!r}")
        text, deals = await asyncio.to_thread(_record, info)
        total = PhaseLosses()
        for deal in range(1, deals + 1):
            total += PhaseLosses.from_json(await self.run(review_phases, text, seat, deal))
        await self.store.keep_review(table_id, seat, METHOD, time.time(), total.to_json())

    def close(self) -> None:
        """Stop: the partie under review is left (made again by the next process), the others forgotten."""
        self.closed = True
        self.waiting.clear()
        if self._task is not None:
            self._task.cancel()
