"""The arena's sequential test (``piquet arena --sprt``) on simulated matches: how often it
accepts H1, and after how many mirrored deals, when the true edge is each of several values.

Each simulated match draws the mirrored samples from a normal law with the true mean and the
standard deviation given (some 10 points a deal in the arena's Rubicon runs) and runs the test
of ``piquet.measure.sprt`` on them, as the arena does, until it decides. The report also gives, for
comparison, the number of samples a test of fixed size would need for the same two error rates.

    python3 tools/sprt_oc.py --sprt 0,2 --sd 10 --means=-1,0,1,2,3 --runs 2000
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from piquet.measure.sprt import MIN_SAMPLES, Sprt, SprtStream, parse_bounds

#: No simulated match plays longer than this (the test has always decided well before).
CAP = 1_000_000


@dataclass(frozen=True)
class Point:
    """The test at one true mean: the share of runs that accepted H1 and the samples taken."""

    mean: float
    h1: float
    samples_mean: float
    samples_median: float
    samples_p90: float


def simulate(test: Sprt, mean: float, sd: float, runs: int, seed: int = 0, min_samples: int = MIN_SAMPLES) -> Point:
    """``runs`` simulated matches at this true mean, the test deciding from ``min_samples`` on."""
    accepted = 0
    taken: list[int] = []
    for run in range(runs):
        rng = random.Random(f"sprt-oc:{seed}:{mean}:{run}")
        stream = SprtStream(test, min_samples)
        n = 0
        decision = None
        while decision is None and n < CAP:
            decision = stream.add(rng.gauss(mean, sd))
            n += 1
        accepted += decision == "H1"
        taken.append(n)
    taken.sort()
    return Point(mean, accepted / runs, statistics.fmean(taken), statistics.median(taken),
                 taken[min(len(taken) - 1, int(0.9 * len(taken)))])


def fixed_size(test: Sprt, sd: float) -> int:
    """The samples a one-sided test of fixed size needs to tell ``mu0`` from ``mu1`` with the same
    two error rates: ((z(1-alpha) + z(1-beta)) · sd / (mu1 - mu0))²."""
    z = statistics.NormalDist().inv_cdf
    mu0, mu1 = test.means
    return round(((z(1 - test.alpha) + z(1 - test.beta)) * sd / (mu1 - mu0)) ** 2)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sprt", default="0,2", metavar="MU0,MU1", help="the hypotheses (default 0,2)")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--sd", type=float, default=10.0, help="the samples' standard deviation (default 10)")
    parser.add_argument("--means", default="-1,0,1,2,3", help="the true means to try (default -1,0,1,2,3)")
    parser.add_argument("--runs", type=int, default=2000, help="simulated matches at each mean (default 2000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-samples", type=int, default=MIN_SAMPLES,
                        help=f"the samples before the test may decide (default {MIN_SAMPLES}, the arena's)")
    args = parser.parse_args(argv)
    test = Sprt(*parse_bounds(args.sprt), alpha=args.alpha, beta=args.beta)
    means = [float(m) for m in args.means.split(",")]
    print(f"H0 {test.mu0:g} vs H1 {test.mu1:g}, alpha {test.alpha:g}, beta {test.beta:g}, sd {args.sd:g}, "
          f"deciding from {args.min_samples} samples, {args.runs} runs each; a fixed-size test would need "
          f"{fixed_size(test, args.sd)} samples")
    print("true mean  accepts H1  samples: mean  median  90%")
    for mean in means:
        p = simulate(test, mean, args.sd, args.runs, args.seed, args.min_samples)
        print(f"{p.mean:9g}  {100 * p.h1:9.1f}%  {p.samples_mean:13.0f}  {p.samples_median:6.0f}  {p.samples_p90:4.0f}")


if __name__ == "__main__":
    main()
