"""Commits a second of the store, one writer against several: what the PostgreSQL store's pool buys.

Usage::

    python benchmarks/store_writes.py                                   # SQLite (a throwaway file) alone
    python benchmarks/store_writes.py --postgres postgresql://piquet@/piquet_bench?host=/run/postgresql
    python benchmarks/store_writes.py --postgres URL --writers 1 8 --seconds 5

Each writer is a thread that appends actions to a table of its own, one committed transaction each (the
server's ``append``: the action and the table's version), for ``--seconds``; reported for each store and each
number of writers: the commits a second (all writers together) and the median and 99th percentile of one
commit's time. The stores are called as the server calls them: through :class:`~piquet.ui.web.store.InThread`,
whose threads are the store's (one for SQLite, the pool's size for PostgreSQL), so SQLite's writers wait for one
another in its one thread, and PostgreSQL's commit side by side. Commits are disk writes: the figures are the
machine's and its disk's (state them), and a PostgreSQL with ``fsync`` off is not measured. The database given
to ``--postgres`` gets the store's tables (named ``bench-...``), and keeps them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from piquet.ui.web.store import InThread, SQLStore, TableInfo, open_store

ACTION = {"player": "Ann", "play": "AS"}


async def measure(store: SQLStore, writers: int, seconds: float) -> tuple[float, float, float]:
    """Commits a second, and the median and 99th percentile of one commit's time (ms), of ``writers`` at once."""
    awaited = InThread(store)
    run = uuid.uuid4().hex[:8]
    tables = [f"bench-{run}-{i}" for i in range(writers)]
    for table in tables:
        await awaited.create(TableInfo(table, "room", "rubicon", {}, None, ["Ann", "Bill"], ["a", "b"], "s", None))
    times: list[float] = []
    end = time.perf_counter() + seconds

    async def writer(table: str) -> None:
        index = 0
        while time.perf_counter() < end:
            began = time.perf_counter()
            await awaited.append(table, index, ACTION, version=index + 1)
            times.append(time.perf_counter() - began)
            index += 1

    began = time.perf_counter()
    await asyncio.gather(*(writer(t) for t in tables))
    elapsed = time.perf_counter() - began
    awaited._thread.shutdown(wait=True)
    cuts = statistics.quantiles(times, n=100)
    return len(times) / elapsed, cuts[49] * 1000, cuts[98] * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL database to measure beside SQLite")
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 8], help="writers at once (default 1 8)")
    parser.add_argument("--seconds", type=float, default=5.0, help="each measurement's length (default 5)")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
          f"{args.seconds:g} s each")
    with tempfile.TemporaryDirectory() as folder:
        stores = [("sqlite", os.path.join(folder, "bench.sqlite3"))]
        if args.postgres:
            stores.append(("postgresql", args.postgres))
        print(f"{'store':<12}{'writers':>8}{'commits/s':>12}{'median ms':>11}{'p99 ms':>9}")
        for name, where in stores:
            store = open_store(where)
            try:
                for writers in args.writers:
                    rate, median, p99 = asyncio.run(measure(store, writers, args.seconds))
                    print(f"{name:<12}{writers:>8}{rate:>12,.0f}{median:>11.2f}{p99:>9.2f}", flush=True)
            finally:
                store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
