"""How long each computer level takes to decide.

Usage::

    python benchmarks/decisions.py                  # levels 1-5, 6 deals each
    python benchmarks/decisions.py --players level5 --deals 20
    python benchmarks/decisions.py --players simple --deals 200 --variant auction

Each player plays whole deals against the simple opponent;
every decision it makes is timed (cut, deal and forced single-choice plays
included as they come). Reports the median, 90th percentile and maximum.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from piquet.actions import Action
from piquet.agents import Agent, play_deal
from piquet.game import LegalActions, Partie
from piquet.players import AGENT_NAMES, make_agent
from piquet.variant import VARIANTS
from piquet.view import PlayerView


class Timed:
    """Wraps an agent and records how long each decision takes."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.times: list[float] = []

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        start = time.perf_counter()
        action = self.agent.choose(view, legal)
        self.times.append(time.perf_counter() - start)
        return action

    def choose_packets(self, view: PlayerView, sizes: tuple[int, ...]) -> int:
        return self.agent.choose_packets(view, sizes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", nargs="+", default=["level1", "level2", "level3", "level4", "level5"],
                        choices=AGENT_NAMES)
    parser.add_argument("--variant", default="rubicon", choices=sorted(VARIANTS))
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    for name in args.players:
        timed = Timed(make_agent(name, args.seed))
        for i in range(args.deals):
            partie = Partie(("Computer", "Simple"), variant=args.variant, first_dealer=i % 2)
            play_deal(partie, [timed, make_agent("simple", i)], random.Random(args.seed + i))
        t = sorted(timed.times)
        print(f"{name} ({args.variant}): {len(t)} decisions, median {1000 * statistics.median(t):.1f} ms, "
              f"90th percentile {1000 * t[int(0.9 * (len(t) - 1))]:.1f} ms, max {1000 * t[-1]:.0f} ms")
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")


if __name__ == "__main__":
    main()
