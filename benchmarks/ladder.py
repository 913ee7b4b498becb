"""The levels' own losses, as the review grades them: the ladder "played like level N" is placed on, and the
yardstick the marks' thresholds are calibrated against.

Usage::

    python3 benchmarks/ladder.py                         # levels 1-5, 4 parties each, Rubicon
    python3 benchmarks/ladder.py --parties 2 --levels 1 5 --variant auction
    python3 benchmarks/ladder.py --json ladder.json      # every loss, for a closer look
    python3 benchmarks/ladder.py --levels 1 --json l1.json   # a level at a time, in parallel processes, then:
    python3 benchmarks/ladder.py --merge l1.json l2.json l3.json l4.json l5.json

Each level plays ``--parties`` whole parties against the simple player (the books), seats alternating, on the
same seeds for every level; each partie is reviewed through the fair lens at the review's defaults (what
``piquet analyse`` does); the level's decisions with a choice are collected by kind (the calls in Auction, the
exchange, the declarations, the play). Printed for each level and kind: the decisions, the mean loss per
decision with its 95% interval (normal approximation over the decisions), the share of decisions with a loss
of at least 2, 5 and 10 points (the marks' thresholds), and the loss at the 90th, 95th and 99th percentiles;
then each level's points lost a deal, all its decisions together, with a 95% interval (the decisions taken as
independent). CPU time and the machine are stated. ``--merge`` prints the same table from the ``--json`` files
of separate runs (each level's runs are independent, so levels may be measured in parallel processes).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import statistics
import time
from collections import defaultdict

from piquet.ai.agent import play_partie
from piquet.ai.levels import make_agent
from piquet.ai.solver import SOLVER
from piquet.coach.review import Lens, review_partie
from piquet.engine.variants import VARIANTS

KINDS = ("call", "exchange", "declaration", "play")


def losses(level: int, parties: int, variant: str, seed: int) -> tuple[dict[str, list[float]], int]:
    """The losses of ``level``'s decisions with a choice, by kind, over ``parties`` parties against the books,
    and the deals they played."""
    found: dict[str, list[float]] = defaultdict(list)
    deals = 0
    for i in range(parties):
        seat = i % 2
        players = [make_agent("simple", seed + i), make_agent("simple", seed + i)]
        players[seat] = make_agent(f"level{level}", seed + i)
        partie = play_partie(players, random.Random(seed + i), ("A", "B"), variant)
        deals += len(partie.deal_scores)
        review = review_partie(partie, Lens.FAIR, seed=seed + i)
        for r in review.actions:
            graded = r.review
            if r.seat == seat and graded is not None:
                found[r.kind].append(graded.loss)
    return found, deals


def _percentile(xs: list[float], q: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(table: dict[int, dict[str, list[float]]], deals: dict[int, int]) -> None:
    """Print the losses by level and kind, then each level's points lost a deal with its 95% interval."""
    print(f"{'level':<6} {'kind':<12} {'n':>5} {'loss/decision':>14} {'95% interval':>16} "
          f"{'>=2':>6} {'>=5':>6} {'>=10':>6} {'p90':>6} {'p95':>6} {'p99':>6}")
    for level in sorted(table):
        for kind in KINDS:
            xs = table[level].get(kind, [])
            if not xs:
                continue
            mean = statistics.fmean(xs)
            half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
            shares = [sum(x >= t - 1e-9 for x in xs) / len(xs) for t in (2, 5, 10)]
            print(f"{level:<6} {kind:<12} {len(xs):>5} {mean:>14.2f} {f'[{mean - half:.2f}, {mean + half:.2f}]':>16} "
                  + " ".join(f"{s:>6.1%}" for s in shares) + " "
                  + " ".join(f"{_percentile(xs, q):>6.1f}" for q in (0.9, 0.95, 0.99)), flush=True)
    print("points lost a deal, all decisions (95% interval, the decisions taken as independent):")
    for level in sorted(table):
        xs = [x for kind in table[level].values() for x in kind]
        per_deal = sum(xs) / deals[level]
        half = 1.96 * math.sqrt(len(xs) * statistics.pvariance(xs)) / deals[level] if len(xs) > 1 else float("nan")
        print(f"  level {level}: {per_deal:.2f} [{per_deal - half:.2f}, {per_deal + half:.2f}] over "
              f"{deals[level]} deals, {len(xs)} decisions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--parties", type=int, default=4)
    parser.add_argument("--variant", default="rubicon", choices=sorted(VARIANTS))
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--json", help="write every loss to this file")
    parser.add_argument("--merge", nargs="+", metavar="JSON", help="print the table of earlier runs' --json files")
    args = parser.parse_args()
    table: dict[int, dict[str, list[float]]] = {}
    deals: dict[int, int] = {}
    if args.merge:
        for name in args.merge:
            with open(name) as f:
                for level, data in json.load(f).items():
                    if int(level) in table:
                        raise SystemExit(f"{name}: level {level} is in two of the files")
                    table[int(level)], deals[int(level)] = data["losses"], data["deals"]
        report(table, deals)
        return
    start = time.process_time()
    for level in args.levels:
        table[level], deals[level] = losses(level, args.parties, args.variant, args.seed)
    report(table, deals)
    cpu = time.process_time() - start
    print(f"{args.parties} parties a level against the simple player, {args.variant}, seeds from {args.seed}; "
          f"the fair lens at the review's defaults; {cpu:.0f} s of CPU")
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
          f"solver: {SOLVER}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({str(level): {"losses": kinds, "deals": deals[level],
                                    "per_deal": sum(sum(xs) for xs in kinds.values()) / deals[level]}
                       for level, kinds in table.items()}, f)


if __name__ == "__main__":
    main()
