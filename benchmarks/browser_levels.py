"""How long each computer level takes to decide in the browser (Pyodide) and in CPython, side by side.

Usage::

    python3 benchmarks/browser_levels.py --deals 2        # CPython (pure Python: no compiled kernel in Pyodide)
    node benchmarks/browser_levels.mjs --deals 2          # the same in Pyodide, the offline site's runtime (npm ci)

Each level plays whole deals against the simple opponent, on the same seeds in both runtimes; every decision is
timed by the wall clock (in Pyodide ``time.process_time()`` is the wall clock too). For the searching levels, how
many decisions their budget cut short: in Pyodide the interpreter is about half as fast, so a level whose budget
binds searches about half as much (docs/offline.md, "The computer's time"). Standard library only, so that it runs
in Pyodide (``benchmarks/decisions.py`` needs ``resource``, which Pyodide lacks).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from piquet.ai.agent import Agent, play_deal
from piquet.ai.levels import SearchAgent, make_agent
from piquet.engine.actions import Action
from piquet.engine.partie import LegalActions, Partie
from piquet.engine.view import PlayerView


class Timed:
    """Wraps an agent and records the wall time of each decision."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.wall: list[float] = []

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        start = time.perf_counter()
        action = self.agent.choose(view, legal)
        self.wall.append(time.perf_counter() - start)
        return action

    def choose_packets(self, view: PlayerView, sizes: tuple[int, ...]) -> int:
        return self.agent.choose_packets(view, sizes)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="*", type=int, default=[1, 2, 3, 4, 5])
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    where = "Pyodide" if sys.platform == "emscripten" else platform.python_implementation()
    print(f"{where} {platform.python_version()}")
    for level in args.levels:
        agent = make_agent(f"level{level}", args.seed)
        timed = Timed(agent)
        for i in range(args.deals):
            partie = Partie(("Computer", "Simple"), first_dealer=i % 2)
            play_deal(partie, [timed, make_agent("simple", i)], random.Random(args.seed + i))
        wall = sorted(timed.wall)
        line = (f"level {level}: {len(wall)} decisions, median {1000 * statistics.median(wall):.1f} ms, "
                f"max {1000 * wall[-1]:.1f} ms, total {sum(wall):.1f} s")
        if isinstance(agent, SearchAgent):
            line += f"; cut short by the budget: {agent.budget_stops}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
