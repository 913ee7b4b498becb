"""The computer's thinking, away from the server's event loop: a bounded pool of worker processes.

The searching levels take from a few milliseconds to seconds for one decision (level 5's exchange
some 1.5 s) and fill their solver's caches as they go. Run in the server's own process they hold
the interpreter lock from every other table and make the server grow, so a :class:`Thinker`
sends them to worker processes, in two lanes: level 3 in the *quick* lane and levels 4-5 and
the hints in the *deep* one, so that the default level never waits behind the strongest. Levels
1 and 2 decide at once in the server (well under a millisecond: a worker would only add the
trip there and back).

What goes to a worker is what the agent would see in the server: the player's view, the legal
actions (:class:`Legal`: the engine's list, without the partie behind it, which holds the hidden
cards) and the agent itself, with its settings (the table's thinking budget among them), whose
state (its random streams) comes back with the decision and replaces the table's copy. Play is
therefore the same, decision for decision, as if the agent had decided in the server, and any
worker may serve any table.

A hint and a tutor's check (:mod:`piquet.ai.hints`) go to the deep lane too, with the partie: the
review asks the engine for the seat's view and legal choices and values nothing else (the hidden
cards change no hint: ``tests/test_hints.py``); what comes back is the hint or the warning alone.

A worker that dies (killed, out of memory) breaks its pool: the lane starts a new one and the
decision is asked again, once; should it fail again, :class:`ThinkingFailed` says so (the
table tells its players, never hangs). Each lane's workers are replaced by fresh ones after
:data:`RECYCLE_AFTER` decisions each, which bounds the memory their caches hold, and they run
at a lower priority than the server (:data:`WORKER_NICENESS`), so the server's own answers come
first on a busy machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Literal, ParamSpec, TypeVar, cast

from piquet.ai import hints
from piquet.ai.agent import Agent
from piquet.engine.actions import Action, Cut, Deal, Exchange
from piquet.engine.cards import CardSet
from piquet.engine.listings import decision_key
from piquet.engine.partie import LegalActions, Partie
from piquet.engine.view import PlayerView

__all__ = ["DEEP_WORKERS", "HINT_QUEUE", "QUICK_WORKERS", "RECYCLE_AFTER", "Legal", "Thinker", "ThinkingFailed"]

Lane = Literal["here", "quick", "deep"]
P = ParamSpec("P")
T = TypeVar("T")

#: The levels that decide in the server itself (levels 1 and 2: the longest of 390,000 decisions
#: measured took 10 ms, the 99th percentile 0.2 ms).
HERE_LEVELS = (1, 2)
#: The levels of the quick lane (level 3: a median of 1 ms a decision, the longest 0.9 s).
QUICK_LEVELS = (3,)
#: Worker processes of the deep lane (levels 4 and 5 and the hints): one per core but one, left
#: to the server and the quick lane.
DEEP_WORKERS = max(1, (os.cpu_count() or 2) - 1)
#: Worker processes of the quick lane.
QUICK_WORKERS = 1
#: Decisions a worker makes before its lane's pool is replaced by a fresh one. (The whole pool, not
#: each worker with ``max_tasks_per_child``: from Python 3.11 to 3.15's betas that stops an executor
#: with tasks queued, CPython issue 115634.)
RECYCLE_AFTER = 500
#: Hints wait for the deep lane only while fewer than this many tasks wait there beyond those
#: being thought about; past it a hint is refused (``busy``). The computer's own moves always wait
#: their turn: a table asks for one at a time, so they are as many as the tables waiting.
HINT_QUEUE = 4
#: How much lower the workers' priority is than the server's (``nice``).
WORKER_NICENESS = 10


class ThinkingFailed(Exception):
    """The computer could not decide: its worker died twice on this decision, or the agent failed."""


class Legal:
    """A player's legal actions as a worker gets them: the engine's list in the engine's order, and ``in`` answering
    as :meth:`piquet.engine.partie.Partie.can` does, with no partie behind them (a
    :class:`~piquet.engine.partie.LegalActions` holds the whole partie, the cards its player may not see included):
    an action is in if it is one decision with a listed one (:func:`~piquet.engine.listings.decision_key`: a
    declaration's combinations shown in another order may be)."""

    def __init__(self, legal: LegalActions) -> None:
        self.player = legal.player
        self.elder = legal.partie.elder
        self._actions = list(legal)
        self._keys: set[object] | None = None  # made when first asked, in the worker

    def __getstate__(self) -> tuple[int | None, int, list[Action | tuple[int, bool]]]:
        # The exchanges (some 1,600 for elder) go as numbers: a third of the time to pickle and unpickle.
        return self.player, self.elder, [(a.discards.mask, a.show_rest) if isinstance(a, Exchange) else a
                                         for a in self._actions]

    def __setstate__(self, state: tuple[int | None, int, list[Action | tuple[int, bool]]]) -> None:
        self.player, self.elder, actions = state
        player = self.player if self.player is not None else 0
        self._actions = [Exchange(player, CardSet(a[0]), a[1]) if isinstance(a, tuple) else a for a in actions]
        self._keys = None

    def __iter__(self) -> Iterator[Action]:
        return iter(self._actions)

    def __contains__(self, action: object) -> bool:
        if self._keys is None:
            self._keys = {decision_key(a, self.elder) for a in self._actions}
        return (isinstance(action, Action) and action.player == self.player and not isinstance(action, (Cut, Deal))
                and decision_key(action, self.elder) in self._keys)

    def list(self) -> list[Action]:
        return self._actions

    def __len__(self) -> int:
        return len(self._actions)

    def __bool__(self) -> bool:
        return bool(self._actions)


def _start_worker() -> None:
    """In each worker: a lower priority than the server's, and Ctrl-C left to the server, which ends the pool."""
    with contextlib.suppress(AttributeError, OSError):  # not on this system, or not allowed: the same priority
        os.nice(WORKER_NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _choose(agent: Agent, view: PlayerView, legal: LegalActions) -> tuple[Action, Agent]:
    """In a worker: the agent's decision, and the agent as the decision left it."""
    return agent.choose(view, legal), agent


def _hint(partie: Partie, seed: int, budget: float) -> hints.Hint | None:
    """In a worker: the review's hint for the seat to act."""
    return hints.hint(partie, seed, budget)


def _check(partie: Partie, action: Action, threshold: float, seed: int, budget: float) -> hints.TutorWarning | None:
    """In a worker: the tutor's check of the seat to act's choice."""
    return hints.check(partie, action, threshold, seed, budget)


def _context() -> multiprocessing.context.BaseContext:
    """Forkserver where there is one (a fresh worker is forked from a process that has imported the
    players already), spawn elsewhere; never a fork of the server with its threads and sockets."""
    if sys.platform != "win32" and "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["piquet.ai.levels", "piquet.ui.web.thinking"])
        return context
    return multiprocessing.get_context("spawn")


class _Lane:
    """One pool of workers, started when first needed and replaced when broken or worn."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None
        self.submitted = 0  # to the present pool
        self.pending = 0  # submitted and not done, over every pool

    def executor(self) -> ProcessPoolExecutor:
        if self.pool is not None and self.submitted >= RECYCLE_AFTER * self.workers:
            self.pool.shutdown(wait=False)  # what it is thinking about is finished, then its workers end
            self.pool = None
        if self.pool is None:
            self.pool = ProcessPoolExecutor(self.workers, mp_context=_context(), initializer=_start_worker)
            self.submitted = 0
        self.submitted += 1
        return self.pool

    def discard(self, pool: ProcessPoolExecutor) -> None:
        """Forget a broken pool (if no other decision has replaced it already)."""
        if self.pool is pool:
            self.pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None


class Thinker:
    """Where the computer's decisions are made: at once in the server (levels 1-2), or in the quick
    or deep lane of worker processes. ``workers=0``: every decision in a thread of the server, as
    before the workers (for comparing, and for tests that need no process)."""

    def __init__(self, workers: int | None = None, quick_workers: int = QUICK_WORKERS) -> None:
        if (workers is not None and workers < 0) or quick_workers < 1:
            raise ValueError(f"the computer needs at least one worker in each lane, or workers=0 for none "
                             f"(got workers={workers}, quick_workers={quick_workers})")
        self.in_threads = workers == 0
        self.lanes = {"quick": _Lane(quick_workers), "deep": _Lane(workers or DEEP_WORKERS)}
        self.closed = False

    @staticmethod
    def lane_of(level: int) -> Lane:
        if level in HERE_LEVELS:
            return "here"
        return "quick" if level in QUICK_LEVELS else "deep"

    def busy(self, level: int) -> bool:
        """Whether a hint at ``level`` would wait behind more than :data:`HINT_QUEUE` tasks."""
        lane = self.lane_of(level)
        if lane == "here" or self.in_threads:
            return False
        queue = self.lanes[lane]
        return queue.pending >= queue.workers + HINT_QUEUE

    async def choose(self, agent: Agent, view: PlayerView, legal: LegalActions, level: int) -> tuple[Action, Agent]:
        """The agent's decision and the agent as it left it (its state moved on by the decision);
        raises :class:`ThinkingFailed` if it cannot be had."""
        # What the agent asks of its legal actions it asks of this list (typed as what it stands for).
        listed = legal if self.lane_of(level) == "here" or self.in_threads else cast(LegalActions, Legal(legal))
        return await self._run(self.lane_of(level), _choose, agent, view, listed)

    async def hint(self, partie: Partie, seed: int, budget: float) -> hints.Hint | None:
        """The review's hint for the seat to act (:func:`piquet.ai.hints.hint`), thought in the deep lane;
        raises :class:`ThinkingFailed` if it cannot be had."""
        return await self._run("deep", _hint, partie, seed, budget)

    async def check(self, partie: Partie, action: Action, threshold: float, seed: int,
                    budget: float) -> hints.TutorWarning | None:
        """The tutor's check of ``action`` (:func:`piquet.ai.hints.check`), thought in the deep lane; raises
        :class:`ThinkingFailed` if it cannot be had."""
        return await self._run("deep", _check, partie, action, threshold, seed, budget)

    async def _run(self, lane: Lane, task: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``task(*args)`` in ``lane`` (at once here, in a thread without workers, else in a worker process, asked
        again once if its worker dies); raises :class:`ThinkingFailed` if it cannot be had."""
        if self.closed:
            raise ThinkingFailed("the server is stopping: the computer thinks no more")
        if lane == "here" or self.in_threads:
            try:
                return task(*args, **kwargs) if lane == "here" else await asyncio.to_thread(task, *args, **kwargs)
            except Exception as e:
                raise ThinkingFailed(f"the computer could not decide ({type(e).__name__}: {e})") from e
        queue = self.lanes[lane]
        queue.pending += 1
        try:
            for attempt in (1, 2):
                pool = queue.executor()
                try:
                    return await asyncio.wrap_future(pool.submit(task, *args, **kwargs))
                except BrokenProcessPool:
                    queue.discard(pool)
                    if attempt == 2 or self.closed:
                        raise ThinkingFailed("the computer's worker process died twice on this decision") from None
                except Exception as e:  # the task failed, or the pool was closed meanwhile
                    raise ThinkingFailed(f"the computer could not decide ({type(e).__name__}: {e})") from e
            raise AssertionError("unreachable")
        finally:
            queue.pending -= 1

    def close(self) -> None:
        """End the workers (those thinking finish first; the decisions waiting are cancelled)."""
        self.closed = True
        for lane in self.lanes.values():
            lane.close()
