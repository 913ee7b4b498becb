"""Computer players against each other on mirrored deals: ``piquet arena``.

Every pair of agents plays the same seeded deals (or, with ``parties=True``, whole parties) twice,
the seats swapped, so that the luck of the cards cancels; the results depend on the seed alone, not
on the number of worker processes. How to read them: docs/players.md, "Measuring".

>>> result = run_arena(["random", "simple"], count=4, seed=3, jobs=1)
>>> pair = result.pairs[0]
>>> pair.first, pair.second, len(pair.samples), pair.summary.games
('random', 'simple', 4, 8)
>>> [r.agent for r in result.ratings]
['simple', 'random']
"""

from __future__ import annotations

import importlib
import math
import os
import random
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, TextIO, cast

from piquet.ai.agent import Agent, RandomAgent, play_deal
from piquet.ai.books import SimpleAgent
from piquet.ai.levels import AGENT_NAMES
from piquet.ai.levels import make_agent as make_level
from piquet.engine.actions import Deal
from piquet.engine.cards import shuffled_pack
from piquet.engine.partie import Partie
from piquet.engine.scoring import counted_deals
from piquet.engine.variants import make_rules, parse_options
from piquet.measure.sprt import Sprt, SprtState, SprtStream

__all__ = [
    "AGENTS",
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
    "format_result",
    "load_result",
    "make_agent",
    "merge_results",
    "mirrored_deal",
    "parse_options",
    "parse_shard",
    "play_mirror",
    "ratings",
    "run_arena",
    "run_task",
    "shard_indices",
    "summarize",
]

#: The seat that deals a single deal (and the first deal of a partie): the first agent listed
#: sits in the other, seat 0, and is elder (or bids first) in the first game of each mirrored pair.
DEALER = 1
#: Rating given to the anchor agent ("simple" if it plays, else the first agent).
ANCHOR_RATING = 1500.0
#: Two-sided 95% normal quantile.
Z95 = 1.96
#: No partie may run longer than this many deals (the laws end every partie much sooner).
MAX_DEALS = 1000


class WorkerDiedError(RuntimeError):
    """A process playing the arena's games died (the operating system killed it, say)."""


class UnknownAgentError(ValueError):
    """An agent name the arena does not know; the message lists the known ones."""


class MergeError(ValueError):
    """Results files that do not add up to one run: another match, a deal played twice, deals missing."""


def _random_agent(seed: int) -> Agent:
    return RandomAgent(random.Random(seed))


def _simple_agent(seed: int) -> Agent:
    return SimpleAgent(random.Random(seed))


def _level_agent(name: str) -> Callable[[int], Agent]:
    def make(seed: int) -> Agent:
        return make_level(name, seed)

    return make


#: Agent factories by name, each taking a seed: the two plain agents and the computer levels.
AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": _random_agent, "simple": _simple_agent,
    **{name: _level_agent(name) for name in AGENT_NAMES if name not in ("random", "simple")},
}


def agent_names() -> list[str]:
    """The names the arena knows."""
    return list(AGENTS)


def _factory(name: str) -> Callable[[int], Agent]:
    if name in AGENTS:
        return AGENTS[name]
    base = name.partition(":")[0]
    if ":" in name and base in AGENTS:
        # A level with settings (``level5:play=48``): piquet.ai.levels parses and checks them.
        try:
            make_level(name)
        except ValueError as e:
            raise UnknownAgentError(str(e)) from None
        return lambda seed: make_level(name, seed)
    if ":" in name and "." in base:
        return _loaded_factory(name)
    raise UnknownAgentError(f"unknown agent {name!r} (known agents: {', '.join(AGENTS)}, or MODULE:CALLABLE)")


def _loaded_factory(name: str) -> Callable[[int], Agent]:
    """An agent of another package named ``package.module:callable``: the callable takes a seed and returns
    an agent (``piquet.research.examples.ismcts:agent``). Imported when named, so the arena itself needs no
    more than the engine and the levels."""
    module_name, _, attribute = name.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise UnknownAgentError(f"agent {name!r}: cannot import {module_name} ({e})") from None
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise UnknownAgentError(f"agent {name!r}: {module_name} has no callable {attribute!r}")
    return cast(Callable[[int], Agent], factory)


def make_agent(name: str, seed: int) -> Agent:
    """A fresh agent by name, seeded."""
    return _factory(name)(seed)


def check_agents(names: Sequence[str]) -> None:
    """Raise :class:`UnknownAgentError` for the first unknown name."""
    for name in names:
        _factory(name)




# ---------------------------------------------------------------- tasks
@dataclass(frozen=True, slots=True)
class Task:
    """One mirrored sample: deal (or partie) ``index`` between a pair, played twice."""

    pair: int
    index: int
    first: str
    second: str
    variant: str = "rubicon"
    options: tuple[tuple[str, object], ...] = ()
    seed: int = 0
    parties: bool = False


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a mirrored pair, from the pair's side: ``points`` are the first agent's
    and the second's (deal totals, or for a partie what the settlement gives the winner);
    ``winner`` is 0 (the first agent), 1 (the second) or ``None`` (a tie or draw)."""

    first_seat: int
    points: tuple[int, int]
    winner: int | None
    elder: int
    deals: int = 1
    totals: tuple[int, int] = (0, 0)
    annulled: bool = False

    @property
    def diff(self) -> int:
        return self.points[0] - self.points[1]


@dataclass(frozen=True, slots=True)
class Sample:
    """A mirrored pair of games: the first agent in seat 0, then in seat 1."""

    pair: int
    index: int
    games: tuple[Game, Game]

    @property
    def diff(self) -> float:
        """The first agent's points less the second's, averaged over the two games."""
        return (self.games[0].diff + self.games[1].diff) / 2

    @property
    def score(self) -> float:
        """The first agent's score over the two games, a game won counting 1 and a tie 1/2:
        0, 1/4, 1/2, 3/4 or 1 (the "pentanomial" outcome of a mirrored pair)."""
        return sum(1.0 if g.winner == 0 else 0.5 if g.winner is None else 0.0 for g in self.games) / 2


def _seed(*parts: object) -> random.Random:
    """A generator seeded from the parts (a string seed: the same in every process and run)."""
    return random.Random("piquet-arena:" + ":".join(str(p) for p in parts))


def _agent_seed(task: Task, which: int) -> int:
    return _seed(task.seed, "agent", task.pair, task.index, which).getrandbits(63)


def mirrored_deal(seed: int, index: int, variant: str = "rubicon",
                  options: Mapping[str, object] | None = None, dealer: int = DEALER) -> Deal:
    """Deal ``index`` of an arena: a seeded shuffle and packet size, the same for every pair."""
    rng = _seed(seed, "deal", index)
    pack = shuffled_pack(rng)
    packets = rng.choice(make_rules(variant, options).packet_sizes())
    return Deal.from_pack(dealer, pack, packets)


def _names(task: Task) -> tuple[str, str]:
    if task.first != task.second:
        return task.first, task.second
    return f"{task.first} (A)", f"{task.second} (B)"


def _partie_deal(partie: Partie, task: Task, number: int) -> Deal:
    """The ``number``-th deal of a mirrored partie: its shuffle and packet size come from the seed,
    the partie's index and the deal's number, so both games of the pair see the same cards."""
    rng = _seed(task.seed, "partie", task.index, "deal", number)
    pack = shuffled_pack(rng)
    sizes = partie.legal_packets()
    packets = rng.choice(sizes)
    assert partie.dealer is not None
    return Deal.from_pack(partie.dealer, pack, packets)


def play_mirror(task: Task) -> tuple[Partie, Partie]:
    """The two games of a mirrored sample, as played: in the first the task's first agent sits in
    seat 0, in the second the seats are swapped. Agents are made afresh for each game with the same
    seeds."""
    first_name, second_name = _names(task)
    options = dict(task.options)
    out: list[Partie] = []
    for first_seat in (0, 1):
        agents = [make_agent(task.first, _agent_seed(task, 0)), make_agent(task.second, _agent_seed(task, 1))]
        if first_seat == 1:
            agents.reverse()
        names = (first_name, second_name) if first_seat == 0 else (second_name, first_name)
        partie = Partie(names, task.variant, options, first_dealer=DEALER)
        chance = _seed(task.seed, "chance", task.pair, task.index)  # unused when every deal is given
        if task.parties:
            number = 0
            while not partie.is_over:
                if number >= MAX_DEALS:
                    raise RuntimeError(f"partie {task.index} ran past {MAX_DEALS} deals")
                play_deal(partie, agents, chance, _partie_deal(partie, task, number))
                number += 1
        else:
            play_deal(partie, agents, chance, mirrored_deal(task.seed, task.index, task.variant, options))
        out.append(partie)
    return out[0], out[1]


def _game(partie: Partie, first_seat: int, parties: bool) -> Game:
    """A finished game seen from the pair's side (index 0: the first agent)."""

    def ours(pair: tuple[int, int]) -> tuple[int, int]:
        return (pair[0], pair[1]) if first_seat == 0 else (pair[1], pair[0])

    def side(seat: int | None) -> int | None:
        return None if seat is None else (0 if seat == first_seat else 1)

    if parties:
        result = partie.result
        assert result is not None
        winner = side(result.winner)
        points = (0, 0) if winner is None else ((result.points, 0) if winner == 0 else (0, result.points))
        deals = counted_deals(partie.deal_scores)
        first_elder = side(partie.deal_scores[0].elder if partie.deal_scores else partie.elder)
        return Game(first_seat, points, winner, first_elder or 0, deals, ours(partie.totals))
    score = partie.deal_scores[0]
    totals = ours(score.totals)
    winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    return Game(first_seat, totals, winner, side(score.elder) or 0, 1, totals, score.annulled)


def run_task(task: Task) -> Sample:
    """Play one mirrored sample (the worker's job: agents are made here, by name)."""
    one, two = play_mirror(task)
    return Sample(task.pair, task.index, (_game(one, 0, task.parties), _game(two, 1, task.parties)))


# ---------------------------------------------------------------- statistics
@dataclass(frozen=True, slots=True)
class PairSummary:
    """A pair's results, from the first agent's side.

    ``mean`` is the first agent's points less the second's per game (per deal, or per partie in
    settlement points), each mirrored pair one sample; ``low`` and ``high`` its 95% confidence
    interval (mean ± 1.96·sd/√n; ``None`` with fewer than two samples).
    """

    samples: int
    games: int
    mean: float
    sd: float
    low: float | None
    high: float | None
    won: int
    lost: int
    tied: int
    mean_first: float
    mean_second: float


@dataclass(frozen=True, slots=True)
class PairResult:
    first: str
    second: str
    samples: list[Sample]
    summary: PairSummary


@dataclass(frozen=True, slots=True)
class Rating:
    agent: str
    rating: float
    games: int
    won: int
    lost: int
    tied: int
    points: float  # the agent's mean points less its opponents', per game

    @property
    def score(self) -> float:
        return (self.won + self.tied / 2) / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class ArenaResult:
    agents: list[str]
    count: int
    variant: str
    options: dict[str, object]
    seed: int
    parties: bool
    pairs: list[PairResult]
    ratings: list[Rating]
    anchor: str
    command: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
    #: The part of the run played: deals whose index is ``shard[0]`` modulo ``shard[1]``.
    shard: tuple[int, int] = (0, 1)
    #: Where the sequential test stood when the run stopped (``--sprt``), else ``None``.
    sprt: SprtState | None = None

    def to_json(self) -> dict[str, Any]:
        """Everything, the raw samples included (``--json``): also the results file that
        :func:`merge_results` adds up, each sample addressed by the seed and its index."""
        from piquet import __version__

        out: dict[str, Any] = {
            "command": self.command,
            "version": __version__,
            "shard": list(self.shard),
            "agents": self.agents,
            "mode": "parties" if self.parties else "deals",
            "count": self.count,
            "variant": self.variant,
            "options": self.options,
            "seed": self.seed,
            "anchor": self.anchor,
            "pairs": [
                {
                    "first": p.first,
                    "second": p.second,
                    "summary": asdict(p.summary),
                    "samples": [
                        {"index": s.index, "diff": s.diff, "games": [asdict(g) for g in s.games]}
                        for s in p.samples
                    ],
                }
                for p in self.pairs
            ],
            "ratings": [{**asdict(r), "score": r.score} for r in self.ratings],
        }
        if self.sprt is not None:
            t = self.sprt.test
            out["sprt"] = {
                "unit": "elo" if t.elo else "points", "mu0": t.mu0, "mu1": t.mu1, "alpha": t.alpha, "beta": t.beta,
                "lower": t.lower, "upper": t.upper, "samples": self.sprt.samples, "mean": self.sprt.mean,
                "llr": self.sprt.llr, "decision": self.sprt.decision,
            }
        return out


def summarize(samples: Sequence[Sample]) -> PairSummary:
    """Mean difference per mirrored sample with its 95% interval, and the games won, lost and tied."""
    n = len(samples)
    diffs = [s.diff for s in samples]
    mean = sum(diffs) / n if n else 0.0
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n) if n > 1 else None
    games = [g for s in samples for g in s.games]
    won = sum(1 for g in games if g.winner == 0)
    lost = sum(1 for g in games if g.winner == 1)
    mean_first = sum(g.points[0] for g in games) / len(games) if games else 0.0
    mean_second = sum(g.points[1] for g in games) / len(games) if games else 0.0
    return PairSummary(
        n, len(games), mean, sd,
        None if half is None else mean - half, None if half is None else mean + half,
        won, lost, len(games) - won - lost, mean_first, mean_second,
    )


def ratings(agents: Sequence[str], pairs: Sequence[PairResult], anchor: str | None = None) -> list[Rating]:
    """Elo-scale ratings from the games won (a tie half each way) by Bradley-Terry, fitted by
    minorization-maximization with one drawn game of prior between each pair (so a clean sweep
    gives a finite rating); ``anchor`` (default "simple" if it plays, else the first agent) is 1500.
    Sorted best first."""
    names = list(dict.fromkeys(agents))
    anchor = anchor if anchor in names else ("simple" if "simple" in names else names[0])
    idx = {a: i for i, a in enumerate(names)}
    k = len(names)
    wins = [[0.0] * k for _ in range(k)]
    played = [[0.0] * k for _ in range(k)]
    stats = {a: [0, 0, 0, 0, 0.0] for a in names}  # games, won, lost, tied, point difference
    for p in pairs:
        i, j = idx[p.first], idx[p.second]
        s = p.summary
        if i == j:
            continue
        wins[i][j] += s.won + s.tied / 2 + 0.5
        wins[j][i] += s.lost + s.tied / 2 + 0.5
        played[i][j] += s.games + 1
        played[j][i] += s.games + 1
        for name, w, lo, sign in ((p.first, s.won, s.lost, 1), (p.second, s.lost, s.won, -1)):
            st = stats[name]
            st[0] += s.games
            st[1] += w
            st[2] += lo
            st[3] += s.tied
            st[4] += sign * s.mean * s.games
    gamma = [1.0] * k
    for _ in range(10000):
        new = []
        for i in range(k):
            total = sum(wins[i])
            denom = sum(played[i][j] / (gamma[i] + gamma[j]) for j in range(k) if j != i and played[i][j])
            new.append(total / denom if denom else gamma[i])
        norm = math.exp(sum(math.log(g) for g in new) / k)
        new = [g / norm for g in new]
        done = max(abs(math.log(a / b)) for a, b in zip(new, gamma, strict=True)) < 1e-10
        gamma = new
        if done:
            break
    base = gamma[idx[anchor]]
    out = []
    for name in names:
        games, won, lost, tied, diff = stats[name]
        rating = ANCHOR_RATING + 400 * math.log10(gamma[idx[name]] / base)
        out.append(Rating(name, rating, int(games), int(won), int(lost), int(tied), diff / games if games else 0.0))
    out.sort(key=lambda r: (-r.rating, names.index(r.agent)))
    return out


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
    return _assemble(agents, count, variant, opts, seed, parties, results, command, shard,
                     None if stream is None else stream.state())


def _assemble(agents: Sequence[str], count: int, variant: str, opts: dict[str, object], seed: int, parties: bool,
              samples: Sequence[Sample], command: str, shard: tuple[int, int] = (0, 1),
              sprt: SprtState | None = None) -> ArenaResult:
    """The result of a run from its samples, in whatever order they came."""
    pairs = [(i, j) for i in range(len(agents)) for j in range(i + 1, len(agents))]
    by_pair: list[list[Sample]] = [[] for _ in pairs]
    for sample in sorted(samples, key=lambda s: (s.pair, s.index)):
        by_pair[sample.pair].append(sample)
    pair_results = [
        PairResult(agents[i], agents[j], by_pair[p], summarize(by_pair[p])) for p, (i, j) in enumerate(pairs)
    ]
    table = ratings(agents, pair_results)
    anchor = "simple" if "simple" in agents else agents[0]
    return ArenaResult(list(agents), count, variant, opts, seed, parties, pair_results, table, anchor, command,
                       shard=shard, sprt=sprt)


# ---------------------------------------------------------------- results files
def load_result(data: Mapping[str, Any], name: str = "results") -> ArenaResult:
    """An arena's result read back from its JSON (``--json FILE``); ``name`` (the file's)
    names it in the error a malformed one raises."""
    try:
        agents = [str(a) for a in data["agents"]]
        pairs = [(i, j) for i in range(len(agents)) for j in range(i + 1, len(agents))]
        if len(data["pairs"]) != len(pairs):
            raise ValueError(f"{len(data['pairs'])} pairs for {len(agents)} agents")
        samples = []
        for p, ((i, j), pair) in enumerate(zip(pairs, data["pairs"], strict=True)):
            if (pair["first"], pair["second"]) != (agents[i], agents[j]):
                raise ValueError(f"pair {p} is {pair['first']} vs {pair['second']}, not {agents[i]} vs {agents[j]}")
            for s in pair["samples"]:
                games = tuple(
                    Game(int(g["first_seat"]), (int(g["points"][0]), int(g["points"][1])),
                         None if g["winner"] is None else int(g["winner"]), int(g["elder"]), int(g["deals"]),
                         (int(g["totals"][0]), int(g["totals"][1])), bool(g["annulled"]))
                    for g in s["games"]
                )
                if len(games) != 2:
                    raise ValueError(f"sample {s['index']} of pair {p} has {len(games)} games, not 2")
                if not 0 <= int(s["index"]) < int(data["count"]):
                    raise ValueError(f"sample {s['index']} of pair {p} is outside the run's {data['count']} deals")
                samples.append(Sample(p, int(s["index"]), (games[0], games[1])))
        if data["mode"] not in ("deals", "parties"):
            raise ValueError(f"mode {data['mode']!r}")
        shard = data.get("shard", [0, 1])
        return _assemble(agents, int(data["count"]), str(data["variant"]), dict(data["options"]), int(data["seed"]),
                         data["mode"] == "parties", samples, str(data.get("command", "")),
                         (int(shard[0]), int(shard[1])))
    except (KeyError, TypeError, ValueError, IndexError) as e:
        what = f"no {e}" if isinstance(e, KeyError) else str(e)
        raise MergeError(f"{name} is not an arena's results file ({what})") from None


def _ranges(indices: Sequence[int]) -> str:
    """Indices as runs of consecutive ones.

    >>> _ranges([7, 0, 1, 2, 5, 8])
    '0-2, 5, 7-8'
    """
    runs: list[list[int]] = []
    for index in sorted(indices):
        if runs and index == runs[-1][1] + 1:
            runs[-1][1] = index
        else:
            runs.append([index, index])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


#: What two results files must share to be parts of the same run.
_SAME_MATCH = ("version", "agents", "mode", "count", "variant", "options", "seed")


def merge_results(files: Sequence[tuple[str, Mapping[str, Any]]]) -> ArenaResult:
    """The run that results files (each a name and its JSON) make up together: they must be
    parts of the same match (the same version, agents, mode, number of deals, variant, options and
    seed), no deal may be in two of them, and none may be missing; else a :class:`MergeError`
    that says which file differs and how, or which deals. The result is the one the whole run
    gives, sample for sample."""
    if not files:
        raise MergeError("no results files to merge")
    for name, data in files:
        if not isinstance(data, Mapping):
            raise MergeError(f"{name} is not an arena's results file (not a JSON object)")
    first_name, first = files[0]
    for name, data in files:
        if "sprt" in data:
            raise MergeError(f"{name} is a run the sequential test stopped, not a shard of a fixed run")
        for field_name in _SAME_MATCH:
            if data.get(field_name) != first.get(field_name):
                raise MergeError(f"{name} is another match: its {field_name} is {data.get(field_name)!r}, "
                                 f"{first_name}'s {first.get(field_name)!r}")
    results = [(name, load_result(data, name)) for name, data in files]
    seen: dict[tuple[int, int], str] = {}
    samples: list[Sample] = []
    for name, result in results:
        for pair in result.pairs:
            for sample in pair.samples:
                key = (sample.pair, sample.index)
                if key in seen:
                    raise MergeError(f"deal {sample.index} of {pair.first} vs {pair.second} is in both "
                                     f"{seen[key]} and {name}")
                seen[key] = name
                samples.append(sample)
    base = results[0][1]
    for p, pair in enumerate(base.pairs):
        missing = [i for i in range(base.count) if (p, i) not in seen]
        if missing:
            raise MergeError(f"{len(missing)} of the {base.count} deals of {pair.first} vs {pair.second} are in "
                             f"none of the files: {_ranges(missing)}")
    command = re.sub(r" --shard \d+/\d+", "", base.command)
    return _assemble(base.agents, base.count, base.variant, base.options, base.seed, base.parties, samples, command)


# ---------------------------------------------------------------- output
def _signed(x: float | None, places: int = 2) -> str:
    return "-" if x is None else f"{x:+.{places}f}"


def _ci(s: PairSummary) -> str:
    return "n/a" if s.low is None or s.high is None else f"[{s.low:+.2f}, {s.high:+.2f}]"


def format_result(result: ArenaResult) -> list[str]:
    """The summary as plain lines: the pairs, then the rating table."""
    unit = "partie" if result.parties else "deal"
    what = "settlement points per partie" if result.parties else "points per deal"
    opts = "".join(f", {k}={v}" for k, v in result.options.items())
    lines = []
    if result.command:
        lines.append(f"$ {result.command}")
    played = len(result.pairs[0].samples) if result.pairs else 0
    how_many = str(result.count) if played == result.count else f"{played} of {result.count}"
    lines.append(f"{result.variant}{opts}: {how_many} mirrored {unit}s per pair, each played twice with the "
                 f"seats swapped (seed {result.seed})")
    k, n = result.shard
    if n > 1:
        lines.append(f"shard {k}/{n}: the {unit}s whose index is {k} modulo {n} (piquet arena merge adds them up)")
    if result.sprt is not None:
        lines.append(result.sprt.describe())
    lines.append("")
    rows: list[tuple[str, ...]] = [
        ("pair (A vs B)", f"A-B {what}", "95% CI", "A won", "lost", "tied", "A avg", "B avg"),
    ]
    for p in result.pairs:
        s = p.summary
        rows.append((f"{p.first} vs {p.second}", _signed(s.mean), _ci(s), str(s.won), str(s.lost), str(s.tied),
                     f"{s.mean_first:.1f}", f"{s.mean_second:.1f}"))
    lines += _columns(rows, left=1)
    lines.append("")
    basis = "parties" if result.parties else "deals"
    lines.append(f"Ratings (Bradley-Terry on {basis} won, a tie half; {result.anchor} = {ANCHOR_RATING:.0f})")
    rows = [("#", "agent", "rating", "games", "won", "lost", "tied", "score", f"pts/{unit}")]
    for rank, r in enumerate(result.ratings, start=1):
        rows.append((str(rank), r.agent, f"{r.rating:.0f}", str(r.games), str(r.won), str(r.lost), str(r.tied),
                     f"{100 * r.score:.1f}%", _signed(r.points)))
    lines += _columns(rows, left=2)
    return lines


def _columns(rows: Sequence[Sequence[str]], left: int) -> list[str]:
    """Rows as aligned text: the first ``left`` columns to the left, the rest to the right."""
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [cell.ljust(w) if c < left else cell.rjust(w) for c, (cell, w) in enumerate(zip(row, widths,
                                                                                               strict=True))]
        out.append("  ".join(cells).rstrip())
    return out


def print_result(result: ArenaResult, stream: TextIO | None = None) -> None:
    """The summary on ``stream``: rich tables on a terminal when rich is importable, plain lines else."""
    out = stream or sys.stdout
    if out.isatty():
        try:
            from rich.console import Console
            from rich.table import Table
        except ImportError:
            pass
        else:
            _print_rich(result, Console(file=out), Table)
            return
    for line in format_result(result):
        print(line, file=out)


def _print_rich(result: ArenaResult, console: Any, table_type: Any) -> None:
    lines = format_result(result)
    for line in lines[:lines.index("")]:  # the command and the match, up to the tables
        console.print(line, markup=False, highlight=False)
    unit = "partie" if result.parties else "deal"
    what = "settlement/partie" if result.parties else "points/deal"
    pairs = table_type(title="Pairs (A vs B)")
    for name, justify in (("pair", "left"), (f"A-B {what}", "right"), ("95% CI", "right"), ("A won", "right"),
                          ("lost", "right"), ("tied", "right"), ("A avg", "right"), ("B avg", "right")):
        pairs.add_column(name, justify=justify)
    for p in result.pairs:
        s = p.summary
        pairs.add_row(f"{p.first} vs {p.second}", _signed(s.mean), _ci(s), str(s.won), str(s.lost), str(s.tied),
                      f"{s.mean_first:.1f}", f"{s.mean_second:.1f}")
    console.print(pairs)
    basis = "parties" if result.parties else "deals"
    table = table_type(title=f"Ratings (Bradley-Terry on {basis} won; {result.anchor} = {ANCHOR_RATING:.0f})")
    for name in ("#", "agent", "rating", "games", "won", "lost", "tied", "score", f"pts/{unit}"):
        table.add_column(name, justify="left" if name == "agent" else "right")
    for rank, r in enumerate(result.ratings, start=1):
        table.add_row(str(rank), r.agent, f"{r.rating:.0f}", str(r.games), str(r.won), str(r.lost), str(r.tied),
                      f"{100 * r.score:.1f}%", _signed(r.points))
    console.print(table)


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
