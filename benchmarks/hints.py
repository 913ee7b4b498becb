"""What a hint costs (piquet.coach.hints), by phase, in CPU seconds.

Usage::

    python benchmarks/hints.py                       # 4 deals of each variant, the hints' budget of 1 s
    python benchmarks/hints.py --deals 10 --budget 0 # no budget: every world the review draws valued
    python benchmarks/hints.py --variant auction --budget 0.3

The simple player plays both seats of whole deals; before each of its decisions that the review values (a card
with more than one legal, an exchange, a declaration with a choice, an Auction call) a hint is asked for the
seat to act, and its CPU time (time.process_time) and the worlds the review valued are noted. Reports, for each
phase, the number of hints, the median, 90th percentile and maximum CPU seconds, and the median worlds valued
(fewer than drawn when the budget stopped it). The tutor's check of a choice values the same worlds for the
same decision: it costs what a hint costs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from piquet.ai.books import SimpleAgent
from piquet.coach.hints import HINT_BUDGET, hint, valued
from piquet.engine.actions import Deal
from piquet.engine.cards import shuffled_pack
from piquet.engine.partie import Partie, Phase

PHASES = {Phase.BID: "call", Phase.EXCHANGE: "exchange", Phase.DECLARE: "declaration", Phase.PLAY: "play"}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(variant: str, deals: int, budget: float, seed: int) -> dict[str, list[tuple[float, int]]]:
    """Each hint's CPU seconds and worlds, by phase, over ``deals`` deals of ``variant``."""
    found: dict[str, list[tuple[float, int]]] = {}
    agent = SimpleAgent(random.Random(seed))
    for number in range(deals):
        rng = random.Random(seed * 1000 + number)
        partie = Partie(("Ann", "Bill"), variant, first_dealer=number % 2)
        partie.push(Deal.from_pack(number % 2, shuffled_pack(rng), partie.legal_packets()[-1]))
        while not partie.deal_scores and not partie.is_over:
            seat = partie.to_act
            assert seat is not None
            legal = partie.legal_actions(seat)
            if valued(partie.phase) and len(list(legal)) > 1:
                start = time.process_time()
                advice = hint(partie, seed=number, budget=budget)
                spent = time.process_time() - start
                if advice is not None:
                    found.setdefault(PHASES[partie.phase], []).append((spent, advice.worlds))
            partie.push(agent.choose(partie.view(seat), legal))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--variant", action="append", help="rubicon, auction or au-cent (default: all three)")
    parser.add_argument("--deals", type=int, default=4, help="deals of each variant (default 4)")
    parser.add_argument("--budget", type=float, default=HINT_BUDGET,
                        help=f"the hint's CPU seconds (default {HINT_BUDGET:g}; 0: no limit)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    by_phase: dict[str, list[tuple[float, int]]] = {}
    for variant in args.variant or ["rubicon", "auction", "au-cent"]:
        for phase, found in measure(variant, args.deals, args.budget, args.seed).items():
            by_phase.setdefault(phase, []).extend(found)
    print(f"budget {args.budget:g} s, {args.deals} deals of each variant")
    print(f"{'phase':<12} {'hints':>5} {'median s':>9} {'p90 s':>7} {'max s':>7} {'worlds (median)':>16}")
    for phase in ("call", "exchange", "declaration", "play"):
        rows = by_phase.get(phase)
        if not rows:
            continue
        seconds = [s for s, _ in rows]
        worlds = statistics.median(w for _, w in rows)
        print(f"{phase:<12} {len(rows):>5} {statistics.median(seconds):>9.3f} {_percentile(seconds, 0.9):>7.3f} "
              f"{max(seconds):>7.3f} {worlds:>16g}")


if __name__ == "__main__":
    main()
