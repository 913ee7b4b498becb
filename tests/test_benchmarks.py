"""The load-independent benchmark: bytecodes counted per deal are exact, the same on every run of one tree."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _count() -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "benchmarks/bytecodes.py", "--deals", "3", "--warm", "2", "--top", "40"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=True)
    return done.stdout


def test_bytecodes_a_deal_are_counted_the_same_on_every_run() -> None:
    first, second = _count(), _count()
    assert first == second
    total, *functions = first.splitlines()
    assert "bytecodes a deal of random rubicon self-play" in total and "deals counted after 2 played" in total
    # A deal takes thousands of bytecodes, and the engine's push is among the functions that execute the most.
    assert int(total.split()[0].replace(",", "")) > 1_000
    assert any(line.endswith("partie.py: push") for line in functions)
