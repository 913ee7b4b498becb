"""Measure elder's average deal, the yardstick of the luck of the deal (``piquet.ai.luck.SEAT_AVERAGES``).

Random deals of each variant with its defaults (not Auction Piquet, where luck is not reckoned) are dealt,
exchanged as the books do (elder the most he may, younger every card left) and valued as the review values a
world (``piquet.ai.luck.world_value``: elder's points of the deal less younger's). It prints, by variant, the
mean, its standard error and the 95% interval, to paste into ``piquet/ai/luck.py``; younger's average is the
opposite of elder's.

    python3 tools/luck_average.py --deals 200000
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from piquet.ai.luck import SEAT_AVERAGES, average_deal
from piquet.engine.variants import make_rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", nargs="+", default=list(SEAT_AVERAGES))
    args = parser.parse_args()
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
