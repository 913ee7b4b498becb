"""A real PostgreSQL server for the tests, started by them: Debian's server binaries (``pg_config --bindir``, or the
newest ``/usr/lib/postgresql/<version>/bin``), a cluster made by ``initdb`` in a temporary folder, listening on a
unix socket in that folder only (no TCP port), stopped and removed at the end of the session. PostgreSQL refuses to
run as root: run as root, the cluster belongs to ``nobody``.

Where PostgreSQL (or psycopg) is not installed the tests that need it are skipped, unless
``PIQUET_REQUIRE_POSTGRES=1`` (CI sets it), where they fail.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

REQUIRED = os.environ.get("PIQUET_REQUIRE_POSTGRES") == "1"


def server_binaries() -> Path | None:
    """The folder of PostgreSQL's server programs (``initdb``, ``pg_ctl``), or ``None``."""
    candidates = []
    pg_config = shutil.which("pg_config")
    if pg_config is not None:
        found = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
        if found.returncode == 0:
            candidates.append(Path(found.stdout.strip()))

    def version(path: str) -> int:
        number = Path(path).parent.parent.name
        return int(number) if number.isdigit() else 0

    candidates += [Path(p).parent for p in sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version,
                                                  reverse=True)]
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def unavailable(why: str) -> None:
    """Skip the test for want of PostgreSQL, or fail it where CI requires PostgreSQL."""
    if REQUIRED:
        pytest.fail(f"PIQUET_REQUIRE_POSTGRES=1 but {why}")
    pytest.skip(why)


@dataclass
class Cluster:
    """A running PostgreSQL server of the tests: its folder (data and socket), the programs, the user it runs as."""

    folder: Path
    binaries: Path
    user: str | None
    port: int = 5432
    _databases: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def _run(self, *command: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(list(command), capture_output=True, text=True, user=self.user, check=False,
                              cwd=self.folder, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stdout}{done.stderr}")
        return done

    def start(self) -> None:
        self._run(str(self.binaries / "initdb"), "-D", str(self.data), "-U", "piquet", "--auth=trust",
                  "--encoding=UTF8", "--no-locale", "--no-sync")
        # The socket in the cluster's folder, no TCP; fsync off: the tests never survive a machine's crash.
        options = f"-k {self.folder} -c listen_addresses='' -p {self.port} -c fsync=off -c full_page_writes=off"
        # -w: pg_ctl returns once the server accepts connections (it asks it, as pg_isready does).
        self._run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "server.log"),
                  "-o", options, "-w", "-t", "60", "start")

    def stop(self) -> None:
        self._run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://piquet@/{database}?host={self.folder}&port={self.port}"

    def new_database(self) -> str:
        """A new, empty database's URL."""
        import psycopg

        name = f"piquet_test_{next(self._databases)}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url(name)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError as e:
        unavailable(f"psycopg is not installed ({e.name}): pip install 'piquet[postgres]'")
    binaries = server_binaries()
    if binaries is None:
        unavailable("PostgreSQL's server programs are not installed (Debian: apt install postgresql)")
    assert binaries is not None
    user = None
    if os.geteuid() == 0:  # postgres refuses root
        user = "nobody"
        pwd.getpwnam(user)
    folder = Path(tempfile.mkdtemp(prefix="piquet-pg-"))
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    cluster = Cluster(folder, binaries, user)
    try:
        cluster.start()
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"the tests' PostgreSQL server did not start: {e}")
    try:
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> str:
    """A new, empty database on the tests' PostgreSQL server."""
    return postgres_cluster.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def sql_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """An empty store of each kind the server runs on: SQLite, and PostgreSQL (skipped, or failed where required,
    without psycopg or a server)."""
    from piquet.ui.web.store import SQLiteStore, SQLStore

    if request.param == "sqlite":
        opened: SQLStore = SQLiteStore(str(tmp_path / "db.sqlite3"))
    else:
        from piquet.ui.web.postgres import PostgresStore

        opened = PostgresStore(request.getfixturevalue("postgres_url"))
    yield opened
    opened.close()
