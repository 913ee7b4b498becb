"""Measure elder's average deal, the yardstick of the luck of the deal (``piquet.coach.luck.SEAT_AVERAGES``).

Random deals of each variant with its defaults are dealt, exchanged as the books do (elder the most he may,
younger every card left) and valued as the review values a world (``piquet.coach.luck.world_value``: elder's
points of the deal less younger's). In Auction Piquet the auction is bid first, as the books bid it
(``piquet.coach.luck.books_contract``), the contract's holder exchanges as elder, the deal is valued in the
contract, an annulled deal is worth nothing, and the average is that of the seat that bids first (elder before
the auction). It prints, by variant, the mean, its standard error and the 95% interval, to paste into
``piquet/coach/luck.py``; younger's average is the opposite of elder's.

    python3 tools/luck_average.py --deals 200000 --variants rubicon au-cent
    python3 tools/luck_average.py --deals 400000 --variants auction

With ``--players A B``, it checks the measure instead: ``--parties`` parties of A against B, and for A, per
deal, the spread of the result, of the luck and of the result adjusted for it, how closely the luck follows
the result, and the mean result with and without the luck, each with its standard error (a luck that measures
chance leaves the mean much the same and its error smaller).

    python3 tools/luck_average.py --players level3 simple --parties 100
    python3 tools/luck_average.py --players simple simple --parties 200 --variant auction
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import statistics
import time

from piquet.ai.agent import play_partie
from piquet.ai.levels import make_agent
from piquet.coach.luck import SEAT_AVERAGES, average_deal, partie_luck
from piquet.engine.variants import VARIANTS, make_rules


def check(players: tuple[str, str], parties: int, seed: int, variant: str = "rubicon") -> None:
    """The luck of the first player against the result, over ``parties`` parties of ``variant``."""
    results: list[float] = []
    lucks: list[float] = []
    for i in range(parties):
        partie = play_partie([make_agent(players[0], seed + 2 * i), make_agent(players[1], seed + 2 * i + 1)],
                             random.Random(seed + i), variant=variant)
        for deal in partie_luck(partie):
            result = deal.result(0)
            if result is not None:
                results.append(result)
                lucks.append(deal.luck(0))
    adjusted = [r - luck for r, luck in zip(results, lucks, strict=True)]

    def error(xs: list[float]) -> float:
        return statistics.pstdev(xs) / math.sqrt(len(xs))

    print(f"{players[0]} against {players[1]}, {len(results)} deals of {parties} parties: per deal, the result's "
          f"spread (standard deviation) {statistics.pstdev(results):.1f}, the luck's {statistics.pstdev(lucks):.1f}, "
          f"the adjusted result's {statistics.pstdev(adjusted):.1f}; correlation of the luck with the result "
          f"{statistics.correlation(results, lucks):.2f}")
    print(f"mean result {statistics.mean(results):+.2f} (standard error {error(results):.2f}); adjusted for luck "
          f"{statistics.mean(adjusted):+.2f} (standard error {error(adjusted):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", nargs="+", default=list(SEAT_AVERAGES), choices=list(VARIANTS))
    parser.add_argument("--players", nargs=2, metavar=("A", "B"), help="check the measure on parties of A against B")
    parser.add_argument("--parties", type=int, default=100)
    parser.add_argument("--variant", default="rubicon", choices=list(VARIANTS), help="the check's variant")
    args = parser.parse_args()
    if args.players:
        check((args.players[0], args.players[1]), args.parties, args.seed, args.variant)
        return
    for i, name in enumerate(args.variants):
        start = time.process_time()
        mean, error = average_deal(make_rules(name), args.deals, random.Random(args.seed + i))
        seconds = time.process_time() - start
        print(f"{name}: elder's average deal {mean:+.2f} points (standard error {error:.2f}; 95% interval "
              f"{mean - 1.96 * error:+.2f} to {mean + 1.96 * error:+.2f}) on {args.deals} deals, "
              f"{seconds:.0f} s of CPU", flush=True)
        print(f'    "{name}": ({mean:.2f}, {1.96 * error:.2f}),')
    print(f"({platform.machine()}, {platform.python_implementation()} {platform.python_version()}, seed {args.seed})")


if __name__ == "__main__":
    main()
