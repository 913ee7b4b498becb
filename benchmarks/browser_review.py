"""How long the review of a record's deal takes in the browser (Pyodide, the offline site's worker) and in CPython.

Usage::

    PIQUET_PURE_SOLVER=1 python3 benchmarks/browser_review.py --deals 6        # CPython, pure Python (as Pyodide)
    python3 benchmarks/browser_review.py --deals 6                             # CPython, compiled kernel (a server)
    node benchmarks/browser_levels.mjs benchmarks/browser_review.py --deals 6  # Pyodide (npm ci)

Each deal of the test records (``tests/records``, every variant) is reviewed as a record file opened in the page is
(:func:`piquet.ui.web.records.review_of_record`, the fair lens, then with open hands), timed in CPU seconds (in
Pyodide ``time.process_time()`` is the wall clock). ``--deals`` takes the first deals only. Standard library only, so
that it runs in Pyodide.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

from piquet.ui.web.records import deals_ended, read_record, review_of_record

RECORDS = Path(__file__).resolve().parent.parent / "tests" / "records"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=Path, default=RECORDS, help="the directory of records to review")
    parser.add_argument("--deals", type=int, default=6, help="the deals reviewed, at most (the records' first)")
    args = parser.parse_args(argv)
    runtime = "Pyodide" if sys.platform == "emscripten" else platform.python_implementation()
    for lens in ("fair", "open-hands"):
        times: list[float] = []
        for path in sorted(args.records.glob("*.json")):
            if path.name.endswith(".scores.json"):
                continue
            text = path.read_text(encoding="utf-8")
            for deal in range(1, deals_ended(read_record(text)) + 1):
                if len(times) == args.deals:
                    break
                start = time.process_time()
                review_of_record(text, deal, lens)
                times.append(time.process_time() - start)
        print(f"{runtime} {lens}: {len(times)} deals, median {statistics.median(times):.2f} s, "
              f"max {max(times):.2f} s, total {sum(times):.1f} s")


if __name__ == "__main__":
    main()
