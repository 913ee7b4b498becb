"""The computer's thinking, away from the server's event loop: bounded lanes of worker processes.

The searching levels take from a few milliseconds to seconds for one decision (level 5's exchange
some 1.5 s) and fill their solver's caches as they go. Run in the server's own process they hold
the interpreter lock from every other table and make the server grow, so a :class:`Thinker`
sends them to worker processes, in three lanes: level 3 in the *quick* lane, levels 4-5 in the
*deep* one, and the hints and the tutor's checks in the *hints* lane, so that the default level
never waits behind the strongest and the computer's own moves never wait behind a hint. Levels
1 and 2 decide at once in the server (well under a millisecond: a worker would only add the
trip there and back).

**What crosses to a worker** is pickled on the event loop (never by a thread while the loop
changes what it reads) and is exactly:

- for the computer's decision: the player's view (:class:`~piquet.engine.view.PlayerView`), the
  legal actions (:class:`Legal`: the engine's list, without the partie behind it, which holds the
  hidden cards) and the agent itself, with its settings (the table's thinking budget among them),
  whose state (its random streams) comes back with the decision and replaces the table's copy.
  Play is therefore the same, decision for decision, as if the agent had decided in the server;
- for a hint or a tutor's check (:mod:`piquet.coach.hints`): the player's view and legal actions
  again, the seed of the review's worlds and its budget (and for a check, the choice and the
  threshold). The review is asked of a :class:`SeatDecision`, which answers what the review's fair
  lens asks of a partie from the view and the legal actions alone. What comes back is the hint or
  the warning alone.

Never the partie: neither its hidden cards nor the memo of leads and tricks that every partie with
the same rules shares in the server's process.

**Queues.** Each lane has its own workers and serves its waiting tasks fairly: by turns among the
groups waiting (the asking client's address for a hint, the table for the computer's moves), and
within a group by turns among its tables, so one table, or one address with many tables, never
holds the others back. A task is given to a worker only when one is free.

**Failures and limits.** A task has a hard limit by the wall clock (its budget's
:data:`~piquet.ai.budget.WALL_FACTOR` times, and :data:`JOB_GRACE` seconds more): a worker still
at it then is killed, and that task alone fails. A worker that dies (killed, out of memory) fails
only the task it was running, which is asked once more of a fresh worker; should that one die too,
:class:`ThinkingFailed` says so (the table tells its players, never hangs). A worker is replaced
by a fresh one after :data:`RECYCLE_AFTER` tasks, which bounds the memory its caches hold, and all
run at a lower priority than the server (:data:`WORKER_NICENESS`, the hints lower still), so the
server's own answers come first on a busy machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
import pickle
import signal
import sys
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Literal, cast

from piquet.ai.agent import Agent
from piquet.ai.budget import WALL_FACTOR
from piquet.coach import hints
from piquet.engine.actions import Action, Concede, Cut, Deal, Exchange
from piquet.engine.cards import CardSet
from piquet.engine.listings import decision_key
from piquet.engine.partie import LegalActions, Partie, Phase
from piquet.engine.variants import Rules
from piquet.engine.view import PlayerView

__all__ = ["DEEP_WORKERS", "HINT_QUEUE", "HINT_WORKERS", "QUICK_WORKERS", "RECYCLE_AFTER", "Legal", "SeatDecision",
           "Thinker", "ThinkingFailed", "reviewed"]

Lane = Literal["here", "quick", "deep", "hints"]

#: The levels that decide in the server itself (levels 1 and 2: the longest of 390,000 decisions
#: measured took 10 ms, the 99th percentile 0.2 ms).
HERE_LEVELS = (1, 2)
#: The levels of the quick lane (level 3: a median of 1 ms a decision, the longest 0.9 s).
QUICK_LEVELS = (3,)
#: Worker processes of the deep lane (levels 4 and 5): one per core but one, left to the server and
#: the other lanes.
DEEP_WORKERS = max(1, (os.cpu_count() or 2) - 1)
#: Worker processes of the quick lane.
QUICK_WORKERS = 1
#: Worker processes of the hints lane (hints and the tutor's checks), by default: as many as the deep lane's.
HINT_WORKERS = DEEP_WORKERS
#: Tasks a worker does before it is replaced by a fresh one.
RECYCLE_AFTER = 500
#: Hints wait for the hints lane only while fewer than this many wait there; past it a hint is refused (``busy``).
HINT_QUEUE = 8
#: Hints of one address that may wait at once (beyond it, ``busy``): many tables of one address wait by turns with
#: the others, and never fill the queue.
HINT_QUEUE_PER_ADDRESS = 2
#: How much lower the workers' priority is than the server's (``nice``), and the hints lane's.
WORKER_NICENESS = 10
HINT_NICENESS = 15
#: Seconds a task may take by the wall clock beyond its budget's wall cap before its worker is killed: generous, for
#: a worker at a low priority on a loaded machine (its first task also loads what the review needs); the limit is for
#: a task that would never end.
JOB_GRACE = 30.0
#: The hard limit of a task with no budget (a table without a limit, on a server without a cap).
NO_BUDGET_LIMIT = 600.0


class ThinkingFailed(Exception):
    """The computer could not decide: its worker died twice on this decision, it took longer than its hard limit, or
    the agent failed."""


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


class SeatDecision:
    """The decision of the seat to act as that seat knows it: its view and its legal actions, and nothing else.

    What the review's fair lens asks of a partie (:mod:`piquet.coach.hints`: the phase, the seat to act, the names,
    the rules, the seat's view and legal actions, whether a choice is legal) it asks of this, typed as what it
    stands for; what only the partie knows (a hand, the talon, a copy to play on) is not here, and asking for it
    raises ``TypeError``. The carte blanche's review plays the opponent's replies with her hand, so it is not asked
    of this (:func:`reviewed`)."""

    def __init__(self, view: PlayerView, legal: Legal) -> None:
        if view.seat is None or view.seat != view.to_act or legal.player != view.seat:
            raise ValueError("a seat's decision is the view and the legal actions of the seat to act")
        self._view = view
        self._legal = legal
        self.players = view.players
        self.phase = view.phase
        self.to_act = view.to_act
        self.elder = view.elder
        self.is_over = view.phase is Phase.OVER

    @property
    def rules(self) -> Rules:
        return self._view.rules

    def _mine(self, seat: int | None) -> None:
        if seat != self._view.seat:
            raise TypeError("only the seat to act's view and legal actions are here")

    def view(self, seat: int | None = None) -> PlayerView:
        self._mine(seat)
        return self._view

    def legal_actions(self, seat: int | None = None) -> LegalActions:
        self._mine(seat)
        return cast(LegalActions, self._legal)

    def can(self, action: Action) -> bool:
        return action in self._legal

    def why_not(self, action: Action) -> str | None:
        if action in self._legal:
            return None
        if isinstance(action, Concede):
            return "a concession is not one of the legal actions here"
        return "not one of the legal actions here"

    def __getattr__(self, name: str) -> Any:
        raise TypeError(f"a seat's decision holds no {name!r}: only the player's view and legal actions cross to "
                        "a worker")


def reviewed(phase: Phase) -> bool:
    """Whether a hint or a tutor's check at ``phase`` is the review's (:func:`piquet.coach.hints.valued`), made from the
    seat's view alone: not the carte blanche, whose review plays the opponent's replies with her own hand (its hint
    is the strongest level's choice, and the tutor does not check it)."""
    return hints.valued(phase) and phase is not Phase.CARTE_BLANCHE


def _start_worker(niceness: int = WORKER_NICENESS) -> None:
    """In each worker: a lower priority than the server's, and Ctrl-C left to the server, which ends the workers."""
    with contextlib.suppress(AttributeError, OSError):  # not on this system, or not allowed: the same priority
        os.nice(niceness)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _serve(connection: Connection, niceness: int) -> None:
    """A worker's life: tasks in (pickled), answers out (``("ok", result)`` or ``("error", why)``), one at a time,
    until the server closes the connection."""
    _start_worker(niceness)
    while True:
        try:
            data = connection.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            task, args = pickle.loads(data)
            answer = pickle.dumps(("ok", task(*args)))
        except Exception as e:  # the task failed: its reason goes back, the worker serves on
            answer = pickle.dumps(("error", f"{type(e).__name__}: {e}"))
        try:
            connection.send_bytes(answer)
        except (EOFError, OSError):
            return


def _choose(agent: Agent, view: PlayerView, legal: LegalActions) -> tuple[Action, Agent]:
    """In a worker: the agent's decision, and the agent as the decision left it."""
    return agent.choose(view, legal), agent


def _hint(view: PlayerView, legal: Legal, seed: int, budget: float, lang: str = "en",
          names: tuple[str, str] | None = None) -> hints.Hint | None:
    """In a worker: the review's hint for the seat to act, from its view and legal actions, in ``lang``."""
    return hints.hint(cast(Partie, SeatDecision(view, legal)), seed, budget, lang=lang, names=names)


def _check(view: PlayerView, legal: Legal, action: Action, threshold: float, seed: int,
           budget: float, lang: str = "en", names: tuple[str, str] | None = None) -> hints.TutorWarning | None:
    """In a worker: the tutor's check of the seat to act's choice, from its view and legal actions, in ``lang``."""
    return hints.check(cast(Partie, SeatDecision(view, legal)), action, threshold, seed, budget, lang=lang,
                       names=names)


def _context() -> multiprocessing.context.ForkServerContext | multiprocessing.context.SpawnContext:
    """Forkserver where there is one (a fresh worker is forked from a process that has imported the
    players already), spawn elsewhere; never a fork of the server with its threads and sockets."""
    if sys.platform != "win32" and "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["piquet.ai.levels", "piquet.coach.hints", "piquet.ui.web.thinking"])
        return context
    return multiprocessing.get_context("spawn")


class _Died(Exception):
    """The worker ended while it had a task: killed, out of memory."""


class _Worker:
    """One worker process and the server's end of its connection."""

    def __init__(self, niceness: int) -> None:
        ours, theirs = multiprocessing.Pipe(duplex=True)
        self.process = _context().Process(target=_serve, args=(theirs, niceness), daemon=True,
                                          name="piquet-worker")
        self.process.start()
        theirs.close()  # the worker's end is the worker's alone: its death is the end of our stream
        self.connection = ours
        self.tasks = 0

    def exchange(self, payload: bytes) -> tuple[str, Any]:
        """Send a task and wait for its answer (in a thread: never on the event loop); :class:`_Died` if the worker
        ended first."""
        try:
            self.connection.send_bytes(payload)
            data = self.connection.recv_bytes()
        except (EOFError, OSError):
            raise _Died from None
        answer: tuple[str, Any] = pickle.loads(data)
        return answer

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.process.kill()

    def end(self) -> None:
        """Close the connection: an idle worker ends; one still thinking ends once it is done."""
        with contextlib.suppress(OSError):
            self.connection.close()


@dataclass
class _Task:
    payload: bytes
    limit: float | None
    group: Hashable
    table: Hashable
    future: asyncio.Future[Any] = field(repr=False)


class _Lane:
    """One lane: its workers, started when first needed, and its tasks waiting their turn by group and table."""

    def __init__(self, name: Lane, workers: int, niceness: int, threads: ThreadPoolExecutor) -> None:
        self.name = name
        self.workers = workers
        self.niceness = niceness
        self.threads = threads
        self.idle: list[_Worker] = []
        self.running = 0
        self.started: set[_Worker] = set()
        # group -> table -> tasks, oldest first; each level in the order its turns come
        self.waiting: OrderedDict[Hashable, OrderedDict[Hashable, deque[_Task]]] = OrderedDict()
        self.queued = 0
        self.closed = False

    @property
    def pending(self) -> int:
        """Tasks in the lane: being thought about and waiting."""
        return self.running + self.queued

    def waiting_from(self, group: Hashable) -> int:
        return sum(len(tasks) for tasks in self.waiting.get(group, {}).values())

    def submit(self, task: _Task) -> None:
        self.waiting.setdefault(task.group, OrderedDict()).setdefault(task.table, deque()).append(task)
        self.queued += 1
        self._dispatch()

    def _next(self) -> _Task:
        """The next task by turns: the first group's first table's oldest task; both then go to the back."""
        group, tables = next(iter(self.waiting.items()))
        table, tasks = next(iter(tables.items()))
        task = tasks.popleft()
        self.queued -= 1
        if tasks:
            tables.move_to_end(table)
        else:
            del tables[table]
        if tables:
            self.waiting.move_to_end(group)
        else:
            del self.waiting[group]
        return task

    def _dispatch(self) -> None:
        while self.queued and self.running < self.workers and not self.closed:
            task = self._next()
            if task.future.done():  # cancelled while it waited
                continue
            self.running += 1
            asyncio.get_running_loop().create_task(self._run(task))

    async def _run(self, task: _Task) -> None:
        loop = asyncio.get_running_loop()
        try:
            for attempt in (1, 2):
                worker = self.idle.pop() if self.idle else None
                if worker is None:
                    worker = await loop.run_in_executor(self.threads, _Worker, self.niceness)
                    self.started.add(worker)
                exchange = loop.run_in_executor(self.threads, worker.exchange, task.payload)
                exchange.add_done_callback(_consume)  # its end is read here, or after a timeout, by no one
                try:
                    if task.limit is None:
                        kind, value = await exchange
                    else:
                        kind, value = await asyncio.wait_for(asyncio.shield(exchange), task.limit)
                except TimeoutError:
                    worker.kill()  # its thread sees the end of the stream and returns
                    self._retire(worker)
                    raise ThinkingFailed(f"the computer took longer than its limit ({task.limit:.0f} s by the "
                                         "clock) and was stopped") from None
                except _Died:
                    self._retire(worker)
                    if attempt == 2 or self.closed:
                        raise ThinkingFailed("the computer's worker process died twice on this decision") from None
                    continue
                worker.tasks += 1
                if worker.tasks >= RECYCLE_AFTER or self.closed:
                    self._retire(worker)
                else:
                    self.idle.append(worker)
                if kind == "error":
                    raise ThinkingFailed(f"the computer could not decide ({value})")
                if not task.future.done():
                    task.future.set_result(value)
                return
        except Exception as e:
            if not task.future.done():
                task.future.set_exception(e if isinstance(e, ThinkingFailed) else
                                          ThinkingFailed(f"the computer could not decide ({type(e).__name__}: {e})"))
        finally:
            self.running -= 1
            if not self.closed:
                self._dispatch()

    def _retire(self, worker: _Worker) -> None:
        worker.end()
        self.started.discard(worker)
        with contextlib.suppress(ValueError):
            self.idle.remove(worker)

    def close(self) -> None:
        """Cancel the waiting tasks and end the workers (those thinking are stopped)."""
        self.closed = True
        for tables in self.waiting.values():
            for tasks in tables.values():
                for task in tasks:
                    if not task.future.done():
                        task.future.set_exception(ThinkingFailed("the server is stopping: the computer thinks "
                                                                 "no more"))
        self.waiting.clear()
        self.queued = 0
        for worker in list(self.started):
            worker.end()
            worker.kill()
            with contextlib.suppress(Exception):
                worker.process.join(2)
        self.started.clear()
        self.idle.clear()


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


def limit_for(budget: float | None) -> float | None:
    """The hard limit of a task with ``budget`` CPU seconds (``None``: the level's own, unknown here; 0: none): by the
    wall clock, the budget's cap and :data:`JOB_GRACE` more."""
    if budget is None:
        return None
    if budget <= 0 or not math.isfinite(budget):
        return NO_BUDGET_LIMIT
    return WALL_FACTOR * budget + JOB_GRACE


class Thinker:
    """Where the computer's decisions are made: at once in the server (levels 1-2), or in the quick,
    deep or hints lane of worker processes. ``workers`` is the deep lane's processes and the hints
    lane's (``None``: one per core but one), ``quick_workers`` the quick lane's. ``workers=0``: every
    decision in a thread of the server (for comparing, and for tests that need no process: no hard
    limit, and not for a public server); what it is given is pickled all the same."""

    def __init__(self, workers: int | None = None, quick_workers: int = QUICK_WORKERS,
                 hint_workers: int | None = None) -> None:
        if (workers is not None and workers < 0) or quick_workers < 1 or (hint_workers is not None
                                                                           and hint_workers < 1):
            raise ValueError(f"the computer needs at least one worker in each lane, or workers=0 for none "
                             f"(got workers={workers}, quick_workers={quick_workers}, hint_workers={hint_workers})")
        self.in_threads = workers == 0
        deep = workers or DEEP_WORKERS
        hinting = hint_workers or (workers or HINT_WORKERS)
        self._threads = ThreadPoolExecutor(2 * (deep + quick_workers + hinting) + 2,
                                           thread_name_prefix="piquet-thinking")
        self.lanes: dict[Lane, _Lane] = {
            "quick": _Lane("quick", quick_workers, WORKER_NICENESS, self._threads),
            "deep": _Lane("deep", deep, WORKER_NICENESS, self._threads),
            "hints": _Lane("hints", hinting, HINT_NICENESS, self._threads)}
        self.closed = False

    @staticmethod
    def lane_of(level: int) -> Lane:
        if level in HERE_LEVELS:
            return "here"
        return "quick" if level in QUICK_LEVELS else "deep"

    def busy(self, address: Hashable = "") -> bool:
        """Whether a hint from ``address`` would wait behind more than :data:`HINT_QUEUE` tasks, or behind
        :data:`HINT_QUEUE_PER_ADDRESS` of its own."""
        if self.in_threads:
            return False
        lane = self.lanes["hints"]
        return lane.queued >= HINT_QUEUE or lane.waiting_from(("address", address)) >= HINT_QUEUE_PER_ADDRESS

    async def choose(self, agent: Agent, view: PlayerView, legal: LegalActions, level: int, *,
                     table: Hashable = "", budget: float | None = None,
                     hint_for: Hashable | None = None) -> tuple[Action, Agent]:
        """The agent's decision and the agent as it left it (its state moved on by the decision);
        raises :class:`ThinkingFailed` if it cannot be had. ``table``: whose turn it is (the lanes serve the
        tables by turns); ``budget``: the agent's CPU seconds (its hard limit follows from it). ``hint_for``: the
        decision is a hint asked from that address, thought in the hints lane."""
        lane: Lane = self.lane_of(level) if hint_for is None else "hints"
        if lane == "here":
            try:
                return _choose(agent, view, legal)
            except Exception as e:
                raise ThinkingFailed(f"the computer could not decide ({type(e).__name__}: {e})") from e
        # What the agent asks of its legal actions it asks of this list (typed as what it stands for).
        listed = cast(LegalActions, Legal(legal))
        group = ("table", table) if hint_for is None else ("address", hint_for)
        result: tuple[Action, Agent] = await self._run(lane, group, table, limit_for(budget), _choose, agent, view,
                                                       listed)
        return result

    async def hint(self, view: PlayerView, legal: LegalActions, seed: int, budget: float, *,
                   table: Hashable = "", address: Hashable = "", lang: str = "en",
                   names: tuple[str, str] | None = None) -> hints.Hint | None:
        """The review's hint for the seat of ``view`` (:func:`piquet.coach.hints.hint`), from its view and legal
        actions, thought in the hints lane, its reasons in ``lang`` naming the players ``names``; raises
        :class:`ThinkingFailed` if it cannot be had."""
        result: hints.Hint | None = await self._run("hints", ("address", address), table, limit_for(budget),
                                                    _hint, view, Legal(legal), seed, budget, lang, names)
        return result

    async def check(self, view: PlayerView, legal: LegalActions, action: Action, threshold: float, seed: int,
                    budget: float, *, table: Hashable = "", address: Hashable = "", lang: str = "en",
                    names: tuple[str, str] | None = None) -> hints.TutorWarning | None:
        """The tutor's check of ``action`` (:func:`piquet.coach.hints.check`), from the seat's view and legal actions,
        thought in the hints lane, its reason in ``lang`` naming the players ``names``; raises
        :class:`ThinkingFailed` if it cannot be had."""
        result: hints.TutorWarning | None = await self._run("hints", ("address", address), table, limit_for(budget),
                                                            _check, view, Legal(legal), action, threshold, seed,
                                                            budget, lang, names)
        return result

    async def _run(self, lane: Lane, group: Hashable, table: Hashable, limit: float | None,
                   task: Callable[..., Any], *args: Any) -> Any:
        """``task(*args)`` in ``lane``, pickled here, on the event loop; raises :class:`ThinkingFailed` if it cannot
        be had."""
        if self.closed:
            raise ThinkingFailed("the server is stopping: the computer thinks no more")
        if self.in_threads:  # the arguments copied here all the same: the thread shares nothing with the loop
            try:
                copied = pickle.loads(pickle.dumps(args))
                return await asyncio.to_thread(task, *copied)
            except Exception as e:
                raise ThinkingFailed(f"the computer could not decide ({type(e).__name__}: {e})") from e
        try:
            payload = pickle.dumps((task, args))
        except Exception as e:
            raise ThinkingFailed(f"the computer could not be asked ({type(e).__name__}: {e})") from e
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.lanes[lane].submit(_Task(payload, limit, group, ("table", table), future))
        return await future

    def close(self) -> None:
        """End the workers (the decisions waiting are cancelled, those being thought about stopped)."""
        self.closed = True
        for lane in self.lanes.values():
            lane.close()
        self._threads.shutdown(wait=False, cancel_futures=True)

