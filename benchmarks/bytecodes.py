"""Bytecodes the interpreter executes per deal of random self-play: a count the machine's load does not move.

Usage (from the root of the tree to measure, which supplies both the engine and ``benchmarks/selfplay.py``)::

    PYTHONPATH=. python3 benchmarks/bytecodes.py                      # Rubicon, 300 deals after 1,500
    PYTHONPATH=. python3 path/to/benchmarks/bytecodes.py --top 20     # another tree, by function

Random self-play (``selfplay.run`` without checks) is played for ``--warm`` deals, so that the engine's memos
fill as in a long run, then for ``--deals`` more under a trace that counts every bytecode executed in Python
code (``sys.settrace`` with ``f_trace_opcodes``; code in C, the interpreter's own, is not counted). The count
is exact and the same on every run of one tree; it is what the interpreter's dispatch pays for, step by step,
and it follows the CPU time of two engines more closely than the machine instructions do (see
``docs/notes/engine-speed.md``). The trace makes the run some fifty times slower: a few hundred deals are enough.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from types import FrameType
from typing import Any


def count(deals: int, warm: int, variant: str) -> tuple[int, Counter[tuple[str, str]]]:
    """Play ``warm`` deals, then ``deals`` more under the trace: the deals played and the bytecodes executed,
    by file and function."""
    sys.path.insert(0, os.path.join(os.getcwd(), "benchmarks"))  # the measured tree's own benchmark
    import selfplay

    def played(result: Any) -> int:
        return int(result[0]) if isinstance(result, tuple) else deals

    def run(n: int, seed: int) -> Any:
        # (An older benchmark's run takes no variant: Rubicon is asked for without one.)
        return selfplay.run(n, seed, False) if variant == "rubicon" else selfplay.run(n, seed, False, variant)

    if warm:
        run(warm, 5)
    counts: Counter[tuple[str, str]] = Counter()

    def trace(frame: FrameType, event: str, arg: object) -> Any:
        if event == "call":
            frame.f_trace_opcodes = True
            frame.f_trace_lines = False
        elif event == "opcode":
            code = frame.f_code
            counts[os.path.basename(code.co_filename), code.co_name] += 1
        return trace

    sys.settrace(trace)
    try:
        n = played(run(deals, 11))
    finally:
        sys.settrace(None)
    return n, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300, help="deals counted (default 300)")
    parser.add_argument("--warm", type=int, default=1500, help="deals played first, not counted (default 1,500)")
    parser.add_argument("--variant", default="rubicon")
    parser.add_argument("--top", type=int, default=0, help="also list the functions that execute the most")
    args = parser.parse_args()
    n, counts = count(args.deals, args.warm, args.variant)
    total = sum(counts.values())
    print(f"{total / n:,.0f} bytecodes a deal of random {args.variant} self-play ({n} deals counted after "
          f"{args.warm} played)")
    for (name, function), k in counts.most_common(args.top):
        print(f"{k / n:10,.0f}  {100 * k / total:5.1f}%  {name}: {function}")


if __name__ == "__main__":
    main()
