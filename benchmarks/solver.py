"""How fast the exact play solver is: full 12-trick deals and endgames.

Usage::

    python benchmarks/solver.py                # 200 full deals and 200 six-trick endgames
    python benchmarks/solver.py --deals 50 --all-values

The positions are real: each deal is dealt at random, then the simple computer
opponent exchanges and declares for both players, so the hands are shaped as
in play; the solver then solves from elder's first lead (full deal) and from
the position after six tricks played by the simple opponent (endgame). Every
solve starts with an empty transposition table.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from piquet.ai.books import SimpleAgent
from piquet.ai.solver import _MODELS, PlayPosition, Solution, position_from_partie, solve
from piquet.engine.partie import Partie, Phase


def positions(count: int, seed: int, tricks_played: int) -> list[tuple[Partie, PlayPosition]]:
    rng = random.Random(seed)
    agent = SimpleAgent()
    out: list[tuple[Partie, PlayPosition]] = []
    while len(out) < count:
        partie = Partie(("North", "South"), first_dealer=rng.randint(0, 1))
        partie.push(partie.random_deal(rng, packets=3))
        while partie.phase is not Phase.PLAY or len(partie.view(0).tricks) < tricks_played or partie.view(0).trick:
            seat = partie.to_act
            if partie.phase not in (Phase.CARTE_BLANCHE, Phase.EXCHANGE, Phase.DECLARE, Phase.PLAY) or seat is None:
                break
            partie.push(agent.choose(partie.view(seat), partie.legal_actions(seat)))
        if partie.phase is Phase.PLAY:
            out.append((partie, position_from_partie(partie)))
    return out


def measure(items: list[tuple[Partie, PlayPosition]], all_values: bool) -> tuple[list[float], list[int]]:
    times, nodes = [], []
    for partie, position in items:
        _MODELS.clear()  # no move lists kept from an earlier solve
        start = time.perf_counter()
        result: Solution = solve(position, partie.rules, all_values=all_values, all_best=False)
        times.append(time.perf_counter() - start)
        nodes.append(result.nodes)
    return times, nodes


def report(name: str, times: list[float], nodes: list[int]) -> None:
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    rate = sum(nodes) / sum(times)
    print(f"{name}: {len(times)} solves, median {1000 * statistics.median(times):.1f} ms, "
          f"90th percentile {1000 * p90:.1f} ms, max {1000 * ordered[-1]:.1f} ms; "
          f"median {statistics.median(nodes):.0f} nodes, {rate:,.0f} nodes per second")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--all-values", action="store_true", help="the exact value of every card, not only the best")
    args = parser.parse_args()
    what = "every card's value" if args.all_values else "value and a best card"
    report(f"full deals ({what})", *measure(positions(args.deals, args.seed, 0), args.all_values))
    report(f"six-trick endgames ({what})", *measure(positions(args.deals, args.seed + 1, 6), args.all_values))
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")


if __name__ == "__main__":
    main()
