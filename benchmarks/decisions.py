"""How long each computer level takes to decide.

Usage::

    python benchmarks/decisions.py                  # levels 1-5, 6 deals each
    python benchmarks/decisions.py --players level5 --deals 20
    python benchmarks/decisions.py --players simple --deals 200 --variant auction
    python benchmarks/decisions.py --players level5:budget=0 --deals 100   # level 5 without its time budget
    python benchmarks/decisions.py --players level5 --deals 2 --hog        # under busy processes on every core

Each player plays whole deals against the simple opponent;
every decision it makes is timed, by CPU time and by wall time (cut, deal and forced
single-choice plays included as they come). Reports the median, 90th and 99th percentiles and
the maximum, and the same for the exchange decisions alone (one a deal, and the slowest for the
levels that sample talons), and in Auction Piquet the calls of the auction alone; then the
process's peak resident memory (RSS) after all the deals, which shows what the players' caches
grow to. On a shared machine the CPU figures are the ones to compare. For the searching levels,
how many decisions their time budget cut short and how many the stopping rule settled early
(docs/players.md, "The time budget").

With ``--hog [N]``, N busy processes (one per core by default) spin beside the players for the
whole run, and the deciding process may be given a lower priority (``--nice``): the wall-clock
cap (:data:`piquet.ai.budget.WALL_FACTOR` times the budget) is then what bounds a decision, and
the report adds by how much each decision's wall time overran it (the largest overrun is the
figure to watch). The hogs are ended when the run ends, however it ends.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import math
import os
import platform
import random
import resource
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator

from piquet.ai.agent import Agent, play_deal
from piquet.ai.budget import WALL_FACTOR
from piquet.ai.levels import SearchAgent, make_agent
from piquet.engine.actions import Action
from piquet.engine.partie import LegalActions, Partie, Phase
from piquet.engine.variants import VARIANTS
from piquet.engine.view import PlayerView


class Timed:
    """Wraps an agent and records how long each decision takes."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.times: list[float] = []  # CPU seconds per decision
        self.wall: list[float] = []
        self.exchange_times: list[float] = []
        self.bid_times: list[float] = []

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        start, cpu = time.perf_counter(), time.process_time()
        action = self.agent.choose(view, legal)
        self.times.append(time.process_time() - cpu)
        self.wall.append(time.perf_counter() - start)
        if view.phase is Phase.EXCHANGE:
            self.exchange_times.append(self.times[-1])
        elif view.phase is Phase.BID:
            self.bid_times.append(self.times[-1])
        return action

    def choose_packets(self, view: PlayerView, sizes: tuple[int, ...]) -> int:
        return self.agent.choose_packets(view, sizes)


def _percentile(t: list[float], q: float) -> float:
    """The nearest-rank percentile of sorted times."""
    return t[max(0, math.ceil(q * len(t)) - 1)]


def _summary(times: list[float], what: str) -> str:
    if not times:
        return f"no {what}"
    t = sorted(times)
    return (f"{len(t)} {what}, median {1000 * statistics.median(t):.1f} ms, "
            f"p90 {1000 * _percentile(t, 0.9):.1f} ms, p99 {1000 * _percentile(t, 0.99):.1f} ms, "
            f"max {1000 * t[-1]:.1f} ms")


def _peak_rss_mb() -> float:
    """The process's peak resident memory in MB (Linux reports KB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def _die_with_parent() -> None:
    """In a hog, before it spins: ask Linux to end it when the benchmark's process ends, however that
    ends (elsewhere the ``finally`` of :func:`hogs` is the only guard)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


#: A hog: it says it is spinning, then spins.
_SPIN = "import sys\nsys.stdout.write('spinning\\n')\nsys.stdout.flush()\nwhile True: pass"


@contextlib.contextmanager
def hogs(count: int) -> Iterator[list[int]]:
    """``count`` processes that spin on a core each until the block ends; yields their ids once every one
    has said it is spinning (a line on its standard output)."""
    started: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(count):
            started.append(subprocess.Popen(
                [sys.executable, "-c", _SPIN],
                stdout=subprocess.PIPE, preexec_fn=_die_with_parent))
        for hog in started:
            assert hog.stdout is not None
            if hog.stdout.readline() != b"spinning\n":
                raise RuntimeError(f"hog {hog.pid} did not start")
        yield [hog.pid for hog in started]
    finally:
        for hog in started:
            hog.kill()
        for hog in started:
            hog.wait()


def _overruns(walls: list[float], cap: float) -> str:
    """How the decisions' wall times stand against the wall-clock cap."""
    over = sorted(max(0.0, w - cap) for w in walls)
    return (f"wall cap {cap:g} s: {sum(1 for w in walls if w > cap)} of {len(walls)} decisions over it, "
            f"the largest overrun {1000 * over[-1]:.0f} ms, p99 {1000 * _percentile(over, 0.99):.0f} ms; "
            f"longest decision {max(walls):.2f} s of wall time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", nargs="+", default=["level1", "level2", "level3", "level4", "level5"],
                        help="agents by name or spec, as in level5:budget=0.5")
    parser.add_argument("--variant", default="rubicon", choices=sorted(VARIANTS))
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--hog", type=int, nargs="?", const=os.cpu_count() or 1, default=0, metavar="N",
                        help="N busy processes beside the players (default: one per core)")
    parser.add_argument("--nice", type=int, default=0, metavar="N",
                        help="lower the deciding process's priority by N (with --hog: a small share of a core)")
    args = parser.parse_args()
    with hogs(args.hog) as pids:
        if pids:
            print(f"{len(pids)} busy processes spinning beside the players")
        if args.nice:
            os.nice(args.nice)
        _run(parser, args)
    print(f"peak RSS after {args.deals} deals per player: {_peak_rss_mb():.0f} MB")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, "
          f"{platform.python_implementation()} {platform.python_version()}")


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    for name in args.players:
        try:
            agent = make_agent(name, args.seed)
        except ValueError as e:
            parser.error(str(e))
        timed = Timed(agent)
        for i in range(args.deals):
            partie = Partie(("Computer", "Simple"), variant=args.variant, first_dealer=i % 2)
            play_deal(partie, [timed, make_agent("simple", i)], random.Random(args.seed + i))
        calls = f"; {_summary(timed.bid_times, 'calls in the auction')}" if VARIANTS[args.variant].uses_bidding else ""
        print(f"{name} ({args.variant}), CPU: {_summary(timed.times, 'decisions')}; "
              f"{_summary(timed.exchange_times, 'exchanges')}{calls}")
        print(f"{name} ({args.variant}), wall: {_summary(timed.wall, 'decisions')}")
        if isinstance(agent, SearchAgent):
            budget = f"{agent.settings.budget:g} s" if agent.settings.budget else "none"
            print(f"{name}: budget {budget} of CPU a decision; cut short by it: {agent.budget_stops}; "
                  f"play settled before all its worlds: {agent.settled_early}")
            if agent.settings.budget:
                print(f"{name}: {_overruns(timed.wall, WALL_FACTOR * agent.settings.budget)}")


if __name__ == "__main__":
    main()
