"""A real PostgreSQL server for the tests, started by them as the benchmarks start theirs (``tools/servers.py``:
Debian's server programs, a cluster made by ``initdb`` in a temporary folder, on a unix socket only), stopped and
removed at the end of the session.

Where PostgreSQL (or psycopg) is not installed the tests that need it are skipped, unless
``PIQUET_REQUIRE_POSTGRES=1`` (CI sets it), where they fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.append(str(Path(__file__).resolve().parent.parent / "tools"))
from servers import CADDYFILE, Cluster, Unavailable, caddy_environment, start_caddy  # tools/ is not a package

__all__ = ["CADDYFILE", "Cluster", "caddy_environment", "postgres_cluster", "postgres_url", "start_caddy"]

REQUIRED = os.environ.get("PIQUET_REQUIRE_POSTGRES") == "1"


def unavailable(why: str) -> None:
    """Skip the test for want of PostgreSQL, or fail it where CI requires PostgreSQL."""
    if REQUIRED:
        pytest.fail(f"PIQUET_REQUIRE_POSTGRES=1 but {why}")
    pytest.skip(why)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    try:
        cluster = Cluster.create()
    except Unavailable as e:
        unavailable(str(e))
        raise
    try:
        cluster.start()
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        cluster.remove()
        pytest.fail(f"the tests' PostgreSQL server did not start: {e}")
    try:
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> Iterator[str]:
    """An empty database on the tests' PostgreSQL server, given back emptied once the test is done."""
    url = postgres_cluster.new_database()
    yield url
    postgres_cluster.give_back(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def sql_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """An empty store of each kind the server runs on: SQLite, and PostgreSQL (skipped, or failed where required,
    without psycopg or a server)."""
    from piquet.ui.web.store import SQLiteStore, SQLStore

    if request.param == "sqlite":
        opened: SQLStore = SQLiteStore(str(tmp_path / "db.sqlite3"))
    else:
        url = request.getfixturevalue("postgres_url")  # first: it skips where psycopg is not installed
        from piquet.ui.web.postgres import PostgresStore

        opened = PostgresStore(url)
    yield opened
    opened.close()
