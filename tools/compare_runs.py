"""Did a change help? Two arena runs on the same deals compared deal by deal.

Run the arena twice with the same seed, deals and opponent, once with each version of an agent,
saving the raw results (``--json``); this reports each run's points per deal and the difference
between them over the deals both played, with its 95% confidence interval. Pairing the deals
takes out most of the luck of the cards that two separate intervals would carry.

    piquet arena level5 simple --variant auction --deals 200 --seed 31 --json before.json
    # ... change the agent ...
    piquet arena level5 simple --variant auction --deals 200 --seed 31 --json after.json
    python3 tools/compare_runs.py before.json after.json

With more than one pair in a run, ``--pair FIRST,SECOND`` picks the pair (the first by default).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any


def samples(run: dict[str, Any], pair: str | None, where: str) -> dict[int, float]:
    """The run's points per mirrored deal by deal index, for the chosen pair."""
    pairs = run.get("pairs") or []
    if pair is not None:
        first, _, second = pair.partition(",")
        pairs = [p for p in pairs if p["first"] == first and p["second"] == second]
    if not pairs:
        raise SystemExit(f"{where}: no pair {pair!r} in this run" if pair else f"{where}: the run has no pairs")
    return {int(s["index"]): float(s["diff"]) for s in pairs[0]["samples"]}


def compare(before: dict[int, float], after: dict[int, float]) -> tuple[int, float, float, float, float]:
    """Over the deals both runs played: how many, each run's mean, and the mean of after less
    before with the half-width of its 95% interval."""
    common = sorted(set(before) & set(after))
    if len(common) < 2:
        raise SystemExit("the runs share fewer than two deals: were they made with the same seed?")
    diffs = [after[i] - before[i] for i in common]
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    return (len(common), statistics.mean(before[i] for i in common), statistics.mean(after[i] for i in common),
            statistics.mean(diffs), half)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path, help="the arena's --json file for the first version")
    parser.add_argument("after", type=Path, help="the same for the second version")
    parser.add_argument("--pair", help="FIRST,SECOND: which pair of agents to compare")
    args = parser.parse_args(argv)
    runs = []
    for path in (args.before, args.after):
        try:
            runs.append(json.loads(path.read_text()))
        except (OSError, ValueError) as error:
            raise SystemExit(f"{path}: cannot read an arena run ({error})") from None
    for key in ("variant", "seed", "mode"):
        if runs[0].get(key) != runs[1].get(key):
            raise SystemExit(f"the runs differ in {key} ({runs[0].get(key)!r} and {runs[1].get(key)!r}): "
                             "they did not play the same deals")
    n, a, b, diff, half = compare(samples(runs[0], args.pair, str(args.before)),
                                  samples(runs[1], args.pair, str(args.after)))
    print(f"{n} deals in common: before {a:+.2f}, after {b:+.2f} per deal; "
          f"after less before {diff:+.2f} [{diff - half:+.2f}, {diff + half:+.2f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
