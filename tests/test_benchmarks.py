"""The load-independent benchmark: bytecodes counted per deal are exact, the same on every run of one tree."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from postgres_helpers import unavailable
from servers import server_binaries
from test_deploy import CADDY, require

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


def test_the_load_s_players_wait_before_connecting_again_as_the_page_does() -> None:
    """benchmarks/load.py reconnects as the page does: its delays are transport.js's (the page's in ms)."""
    import re

    script = (ROOT / "piquet" / "ui" / "web" / "static" / "table" / "transport.js").read_text(encoding="utf-8")
    found = re.search(r"const delays = \[([0-9, ]+)\];", script)
    assert found is not None
    page = tuple(int(d) / 1000 for d in found.group(1).split(","))
    load = (ROOT / "benchmarks" / "load.py").read_text(encoding="utf-8")
    mirrored = re.search(r"^RECONNECT_DELAYS = \(([0-9., ]+)\)$", load, re.MULTILINE)
    assert mirrored is not None and tuple(float(d) for d in mirrored.group(1).split(",")) == page
    assert page[0] <= 0.1  # the first try at once, or nearly: a restart or a takeover is back in a moment


@pytest.mark.slow
def test_the_load_on_one_process_on_two_and_with_one_killed_runs_end_to_end(tmp_path: Path) -> None:
    """``benchmarks/load.py --compare-processes``, tiny: four rooms of one deal and a level-5 table on SQLite, on one
    process on PostgreSQL, on two behind Caddy, and with the busier process killed partway; its players connect again
    through the proxy and no action a client saw acknowledged is missing from the store."""
    pytest.importorskip("psycopg")
    if server_binaries() is None:
        unavailable("PostgreSQL's server programs are not installed (Debian: apt install postgresql)")
    require(CADDY, "caddy", "PIQUET_REQUIRE_CADDY")
    out = tmp_path / "load.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "benchmarks/load.py", "--compare-processes", "--games", "4", "--deals", "1",
                           "--think", "0.05", "--computer-tables", "5:1", "--json", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    single, alone, club, killed = json.loads(out.read_text())
    assert [r["label"] for r in (single, alone, club, killed)] == ["1 process, SQLite", "1 process, PostgreSQL",
                                                                   "2 processes, PostgreSQL, Caddy",
                                                            "the same, one killed"]
    for run in (single, alone, club, killed):
        assert run["errors"] == 0 and run["lost"] == [] and run["actions"] > 0, run
        assert run["computer"]["by_level"]["5"]["replies"]["count"] > 0
    assert "takeover" not in club and club["reconnections"] == 0
    # The killed process held rooms still playing: their four sockets at least were opened again.
    assert killed["reconnections"] >= 2 and killed["outages"]["count"] == killed["reconnections"]
    assert killed["takeover"]["count"] > 0
    assert "| the same, one killed |" in done.stdout and "acknowledged actions lost: 0" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("script, args, said", [
    ("history.py", ["--parties", "3", "--others", "4", "--rounds", "1"], "replayed / stored:"),
    ("progress.py", ["--parties", "2", "--distinct", "1", "--others", "3", "--rounds", "1"], "kept / none kept, CPU:"),
    ("lobby.py", ["--rooms", "25", "--others", "5", "--requests", "2"], "read again / kept:"),
])
def test_the_web_store_benchmarks_run_to_their_figures(script: str, args: list[str], said: str) -> None:
    """The History, Progress and lobby benchmarks (docs/performance.md) run at a small size on SQLite and print
    their last figure: a change to the store or the requests they drive is caught here, not by their next reader."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, f"benchmarks/{script}", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("machine: ") and said in done.stdout.splitlines()[-1], done.stdout
