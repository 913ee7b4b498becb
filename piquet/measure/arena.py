"""Computer players against each other on mirrored deals: ``piquet arena``.

Every pair of agents plays the same seeded deals (or, with ``parties=True``, whole parties) twice,
the seats swapped, so that the luck of the cards cancels; the results depend on the seed alone, not
on the number of worker processes. How to read them: docs/players.md, "Measuring".

This module runs a match (in this process, on a pool of processes, or on a Ray cluster) and keeps its shards
and its command line; the games themselves are :mod:`piquet.measure.mirror`'s, the statistics, the results
files and their printing :mod:`piquet.measure.results`'. Their public names are all here too.

>>> result = run_arena(["random", "simple"], count=4, seed=3, jobs=1)
>>> pair = result.pairs[0]
>>> pair.first, pair.second, len(pair.samples), pair.summary.games
('random', 'simple', 4, 8)
>>> [r.agent for r in result.ratings]
['simple', 'random']
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Protocol, TextIO

from piquet.engine.variants import make_rules, parse_options
from piquet.measure.mirror import (
    AGENTS,
    DEALER,
    MAX_DEALS,
    Game,
    Sample,
    Task,
    UnknownAgentError,
    agent_names,
    check_agents,
    make_agent,
    mirrored_deal,
    play_mirror,
    run_task,
)
from piquet.measure.results import (
    ANCHOR_RATING,
    ArenaResult,
    MergeError,
    PairResult,
    PairSummary,
    Rating,
    assemble,
    format_result,
    load_result,
    merge_results,
    print_result,
    ratings,
    summarize,
)
from piquet.measure.sprt import Sprt, SprtStream

__all__ = [
    "AGENTS",
    "ANCHOR_RATING",
    "DEALER",
    "MAX_DEALS",
    "ArenaResult",
    "Game",
    "MergeError",
    "PairResult",
    "PairSummary",
    "Pool",
    "Rating",
    "Sample",
    "Task",
    "UnknownAgentError",
    "WorkerDiedError",
    "agent_names",
    "check_agents",
    "command_line",
    "format_result",
    "load_result",
    "make_agent",
    "merge_results",
    "mirrored_deal",
    "parse_options",
    "parse_shard",
    "play_mirror",
    "print_result",
    "ratings",
    "run_arena",
    "run_task",
    "shard_indices",
    "summarize",
]


class WorkerDiedError(RuntimeError):
    """A process playing the arena's games died (the operating system killed it, say)."""


# ---------------------------------------------------------------- progress
@contextmanager
def _progress(total: int, label: str, stream: TextIO | None) -> Iterator[Callable[[], None]]:
    """An ``advance()`` for a bar on ``stream`` (rich when it is importable and a terminal; else a
    line of text), or a silent one when ``stream`` is ``None``."""
    if stream is None:
        yield lambda: None
        return
    if stream.isatty():
        try:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        except ImportError:
            pass
        else:
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeRemainingColumn(), console=Console(file=stream), transient=True) as bar:
                handle = bar.add_task(label, total=total)
                yield lambda: bar.advance(handle)
            return
    tty = stream.isatty()
    done = 0
    shown = -1

    def advance() -> None:
        # On a terminal the line is redrawn in place; elsewhere a line is written at every tenth.
        nonlocal done, shown
        done += 1
        step = done * (100 if tty else 10) // total
        if step != shown:
            shown = step
            text = f"{label}: {done}/{total} ({100 * done // total}%)"
            stream.write(f"\r{text}" + ("\n" if done == total else "") if tty else text + "\n")
            stream.flush()

    yield advance
    if tty and 0 < done < total:  # stopped early (by the sequential test): end the line redrawn
        stream.write("\n")
        stream.flush()


# ---------------------------------------------------------------- the arena
class Pool(Protocol):
    """Where the tasks run: a pool of processes on this machine, or a Ray cluster
    (:class:`piquet.measure.arena_ray.RayPool`)."""

    def submit(self, fn: Callable[[Task], Sample], task: Task, /) -> Future[Sample]: ...

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None: ...


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` (``0 <= K < N``) as ``(K, N)``, or a :class:`ValueError` naming the text.

    >>> parse_shard("2/5")
    (2, 5)
    """
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not match or not int(match[1]) < int(match[2]):
        raise ValueError(f"--shard takes K/N with 0 <= K < N (shard K plays the deals whose index is K "
                         f"modulo N), not {text!r}")
    return int(match[1]), int(match[2])


def shard_indices(count: int, shard: tuple[int, int] = (0, 1)) -> range:
    """The deal indices a shard plays: every ``N``-th from ``K``, so that each shard has its share
    of early and late indices and ``N`` shards on ``N`` machines make up the whole run.

    >>> list(shard_indices(10, (1, 3)))
    [1, 4, 7]
    """
    k, n = shard
    return range(k, count, n)


def _run_tasks(tasks: Sequence[Task], pool: Pool | None, window: int, advance: Callable[[], None],
               stop: Callable[[Sample], bool] | None, died: tuple[type[BaseException], ...]) -> list[Sample]:
    """Play the tasks (in this process when ``pool`` is ``None``), at most ``window`` at a time.

    With ``stop``, the samples are given to it in the tasks' order, whatever order they finish
    in, and the run ends at the first for which it answers true: the samples kept are those up to
    it, so that where a run stops depends on the seed alone, not on the workers."""
    results: list[Sample] = []
    if pool is None:
        for task in tasks:
            results.append(run_task(task))
            advance()
            if stop is not None and stop(results[-1]):
                break
        return results
    finished: dict[int, Sample] = {}
    pending: dict[Future[Sample], int] = {}
    submitted = 0
    try:
        while submitted < len(tasks) or pending:
            while submitted < len(tasks) and len(pending) < window:
                pending[pool.submit(run_task, tasks[submitted])] = submitted
                submitted += 1
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                finished[pending.pop(future)] = future.result()
                advance()
            while len(results) in finished:
                results.append(finished.pop(len(results)))
                if stop is not None and stop(results[-1]):
                    return results
    except died as e:
        raise WorkerDiedError(
            "a worker process died before it finished its games (out of memory?); no results were kept") from e
    return results


def run_arena(
    agents: Sequence[str],
    count: int = 100,
    variant: str = "rubicon",
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    jobs: int | None = 1,
    parties: bool = False,
    progress: TextIO | None = None,
    command: str = "",
    shard: tuple[int, int] = (0, 1),
    sprt: Sprt | None = None,
    ray: str | None = None,
) -> ArenaResult:
    """Every pair of ``agents`` (in the order listed) plays ``count`` mirrored deals (or parties).

    ``jobs`` worker processes (``None``: one per core; 1: in this process) share the tasks; the
    results are the same whatever their number. ``shard=(K, N)`` plays only the deals whose index
    is ``K`` modulo ``N`` (:func:`merge_results` adds the shards up). With ``sprt`` (two agents
    only) the run stops once the test accepts a hypothesis, ``count`` deals at most. ``ray``
    plays the tasks on a Ray cluster instead: ``"local"`` starts one on this machine (or uses
    the one this process has already started), ``"auto"`` or an address joins one.
    """
    if len(agents) < 2:
        raise ValueError("the arena needs at least two agents")
    if count < 1:
        raise ValueError("the arena needs at least one deal")
    if not 0 <= shard[0] < shard[1]:
        raise ValueError(f"shard {shard[0]}/{shard[1]}: K/N needs 0 <= K < N")
    if sprt is not None and len(agents) != 2:
        raise ValueError(f"the sequential test judges one pair: name two agents, not {len(agents)}")
    if sprt is not None and shard != (0, 1):
        raise ValueError("the sequential test needs the whole run in order: it cannot play a shard")
    check_agents(agents)
    opts = dict(options or {})
    make_rules(variant, opts)  # an unknown variant or a bad option fails here, not in a worker
    pairs = [(i, j) for i in range(len(agents)) for j in range(i + 1, len(agents))]
    tasks = [
        Task(p, index, agents[i], agents[j], variant, tuple(sorted(opts.items())), seed, parties)
        for index in shard_indices(count, shard)
        for p, (i, j) in enumerate(pairs)
    ]
    if not tasks:
        raise ValueError(f"shard {shard[0]}/{shard[1]} of {count} deals has no deal to play")
    stream = None if sprt is None else SprtStream(sprt)

    def stop(sample: Sample) -> bool:
        assert stream is not None
        return stream.add(sample.score if stream.test.elo else sample.diff) is not None

    unit = "parties" if parties else "deals"
    label = f"arena: {len(tasks)} mirrored {unit}"
    pool: Pool | None = None
    died: tuple[type[BaseException], ...] = (BrokenProcessPool,)
    if ray is not None:
        from piquet.measure.arena_ray import RayPool

        ray_pool = RayPool(ray)
        pool, workers, died = ray_pool, ray_pool.cpus, ray_pool.died
    else:
        workers = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
        # A pool of processes that fails, rather than waits for ever, when a worker dies
        # (killed for want of memory, say): the task it held would never be answered.
        pool = ProcessPoolExecutor(workers) if workers > 1 else None
    # Without a test every task is handed out at once; with one, a few per worker, so that little
    # is played in vain once it decides.
    window = len(tasks) if stream is None else 2 * workers
    try:
        with _progress(len(tasks), label, progress) as advance:
            results = _run_tasks(tasks, pool, window, advance, None if stream is None else stop, died)
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    return assemble(agents, count, variant, opts, seed, parties, results, command, shard,
                     None if stream is None else stream.state())


def _quote(word: str) -> str:
    return word if re.fullmatch(r"[\w.,=:+/@-]+", word) else "'" + word.replace("'", "'\\''") + "'"


def command_line(agents: Sequence[str], count: int, variant: str, seed: int, parties: bool,
                 option_items: Sequence[str] = (), shard: tuple[int, int] = (0, 1), sprt: Sprt | None = None) -> str:
    """The ``piquet arena`` command that reproduces a result (``--jobs`` and ``--ray`` do not change it).

    >>> command_line(["level1", "level3"], 200, "rubicon", 5, False, sprt=Sprt(0, 2))
    'piquet arena level1 level3 --deals 200 --variant rubicon --seed 5 --sprt 0,2 --alpha 0.05 --beta 0.05'
    """
    words = ["piquet", "arena", *agents, "--deals", str(count), "--variant", variant, "--seed", str(seed)]
    for item in option_items:
        words += ["--option", item]
    if parties:
        words.append("--parties")
    if shard != (0, 1):
        words += ["--shard", f"{shard[0]}/{shard[1]}"]
    if sprt is not None:
        words += ["--sprt-elo" if sprt.elo else "--sprt", f"{sprt.mu0:g},{sprt.mu1:g}",
                  "--alpha", f"{sprt.alpha:g}", "--beta", f"{sprt.beta:g}"]
    return " ".join(_quote(w) for w in words)
