"""The lobby's list of public rooms: what ``GET /api/lobby`` costs the server, answered from the list a process keeps
and read again from the store.

Usage::

    python benchmarks/lobby.py                            # 1,000 public rooms among 10,000 tables, SQLite
    python benchmarks/lobby.py --rooms 1000 --others 10000 --requests 200
    python benchmarks/lobby.py --postgres postgresql://piquet@/piquet_bench?host=/run/postgresql

The store holds ``--rooms`` public rooms changed lately (more than the list's cap: the newest 200 are listed) and
``--others`` tables the list must pass over (private rooms, tables against the computer, public rooms abandoned).
Requests are sent to the application (FastAPI's test client: the request, the list's page, the answer) and their
CPU time measured (``time.process_time``: every thread of the process), three ways side by side: **kept**, the page
answered from the list the process read; **not modified**, the same with the page's ``ETag`` sent back (a ``304``
with no body, what a polling lobby asks most often); **read again**, each request after a public room changed (the
list read from the store once for it: the most a process does, once a second). Reported: the median CPU time of
``--requests`` requests each way, and their ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from fastapi.testclient import TestClient
from web_stores import add_store_argument, machine

from piquet.ui.web import app as web_app
from piquet.ui.web.app import create_app
from piquet.ui.web.lobby import LISTED_SECONDS, REFRESH_SECONDS
from piquet.ui.web.protocol import TableKind
from piquet.ui.web.store import SQLStore, TableInfo, open_store


def fill(store: SQLStore, rooms: int, others: int) -> None:
    """``rooms`` public rooms made in the last hour, and ``others`` tables the list passes over."""
    now = time.time()
    run = uuid.uuid4().hex[:8]
    for n in range(rooms + others):
        listed = n < rooms
        kind: TableKind = "room" if listed or n % 2 else "computer"
        created = now - n if listed else now - LISTED_SECONDS * (1 + n % 3)
        store.create(TableInfo(f"l-{run}-{n}", kind, "rubicon", {"four_deal_partie": True}, None,
                               ["Ann", None if n % 3 else "Bill"], [uuid.uuid4().hex, None], uuid.uuid4().hex, None,
                               created=created, invite=uuid.uuid4().hex, public=listed or n % 5 == 0))


def measure(where: str, requests: int) -> tuple[list[float], list[float], list[float]]:
    """CPU seconds of each request, kept, not modified and read again, to a server on the store ``where``."""
    kept: list[float] = []
    unchanged: list[float] = []
    read: list[float] = []
    # One client asks here far more than one address may (the limit is counted all the same, its cost measured).
    for limit in ("LOBBY_PER_MINUTE_PER_ADDRESS", "LOBBY_BURST", "LOBBY_PER_MINUTE_PER_PREFIX",
                  "LOBBY_BURST_PER_PREFIX"):
        setattr(web_app, limit, 1e9)
    with TestClient(create_app(where, workers=0, review_workers=0, public_rooms=True)) as http:
        lobby = http.app.state.tables.lobby  # type: ignore[attr-defined]
        moment = [0.0]
        lobby.clock = lambda: moment[0]  # the list's clock, moved on by hand: no waiting out its refresh
        first = http.get("/api/lobby")  # the application's first request, apart
        assert first.status_code == 200 and len(first.json()["rooms"]) == first.json()["page_size"], first.text[:200]
        etag = first.headers["etag"]
        for times, headers, change in ((kept, {}, False), (unchanged, {"If-None-Match": etag}, False),
                                       (read, {}, True)):
            for _ in range(requests):
                if change:
                    lobby.heard("a room")
                    moment[0] += REFRESH_SECONDS
                began = time.process_time()
                answer = http.get("/api/lobby", headers=headers)
                times.append(time.process_time() - began)
                assert answer.status_code == (304 if headers else 200), answer.status_code
    return kept, unchanged, read


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=1000, help="public rooms changed lately (default 1000)")
    parser.add_argument("--others", type=int, default=10000, help="other tables in the store (default 10000)")
    parser.add_argument("--requests", type=int, default=200, help="requests measured each way (default 200)")
    add_store_argument(parser)
    args = parser.parse_args()
    print(f"{machine()}; {args.rooms} public rooms among {args.others} other tables")
    with tempfile.TemporaryDirectory() as folder:
        where = args.postgres or os.path.join(folder, "lobby.sqlite3")
        store = open_store(where)
        try:
            fill(store, args.rooms, args.others)
        finally:
            store.close()
        kept, unchanged, read = (statistics.median(times) for times in measure(where, args.requests))
    print(f"{'way':<14}{'median CPU ms':>15}{'requests':>10}")
    for name, value in (("kept", kept), ("not modified", unchanged), ("read again", read)):
        print(f"{name:<14}{value * 1000:>15.2f}{args.requests:>10}")
    print(f"read again / kept: {read / kept:.1f}; kept / not modified: {kept / unchanged:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
