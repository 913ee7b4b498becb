"""A throwaway PostgreSQL server and Caddy in front of ``piquet serve`` processes, for the tests
(``tests/postgres_helpers.py``, ``tests/test_deploy_processes.py``) and the benchmarks (``benchmarks/load.py
--compare-processes``), which start them the same way.

PostgreSQL: Debian's server programs (``pg_config --bindir``, or the newest ``/usr/lib/postgresql/<version>/bin``), a
cluster made by ``initdb`` in a temporary folder, listening on a unix socket in that folder only (no TCP port),
``fsync`` off (nothing here survives a machine's crash). PostgreSQL refuses to run as root: run as root, the cluster
belongs to ``nobody``. Caddy: ``deploy/Caddyfile`` as it is, its settings in the environment.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
CADDYFILE = ROOT / "deploy" / "Caddyfile"


class Unavailable(RuntimeError):
    """A program (PostgreSQL's, psycopg, Caddy) is not installed: what is missing, and how to install it."""


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


@dataclass
class Cluster:
    """A running PostgreSQL server: its folder (data and socket), the programs, the user it runs as."""

    folder: Path
    binaries: Path
    user: str | None
    port: int = 5432
    _databases: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _emptied: list[str] = field(default_factory=list)

    @classmethod
    def create(cls) -> Cluster:
        """A new cluster in a new temporary folder, not started; :class:`Unavailable` if PostgreSQL or psycopg is
        not installed."""
        try:
            import psycopg  # noqa: F401
            import psycopg_pool  # noqa: F401
        except ImportError as e:
            raise Unavailable(f"psycopg is not installed ({e.name}): pip install 'piquet[postgres]'") from None
        binaries = server_binaries()
        if binaries is None:
            raise Unavailable("PostgreSQL's server programs are not installed (Debian: apt install postgresql)")
        user = None
        if os.geteuid() == 0:  # postgres refuses root
            user = "nobody"
        folder = Path(tempfile.mkdtemp(prefix="piquet-pg-"))
        if user is not None:
            entry = pwd.getpwnam(user)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        return cls(folder, binaries, user)

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
        # The socket in the cluster's folder, no TCP; fsync off: a throwaway server never survives a machine's crash.
        options = f"-k {self.folder} -c listen_addresses='' -p {self.port} -c fsync=off -c full_page_writes=off"
        # -w: pg_ctl returns once the server accepts connections (it asks it, as pg_isready does).
        self._run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "server.log"),
                  "-o", options, "-w", "-t", "60", "start")

    def stop(self) -> None:
        self._run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        """Stop the server if it runs, and remove its folder."""
        try:
            if (self.data / "postmaster.pid").exists():
                self.stop()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://piquet@/{database}?host={self.folder}&port={self.port}"

    def new_database(self) -> str:
        """An empty database's URL: one given back emptied (:meth:`give_back`), or else a new one. ``CREATE
        DATABASE`` copies the template's 7 MB, some 140 ms of the server's CPU; emptying one takes a few ms."""
        import psycopg

        if self._emptied:
            return self.url(self._emptied.pop())
        name = f"piquet_test_{next(self._databases)}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def give_back(self, url: str) -> None:
        """The database at ``url`` (one of :meth:`new_database`'s), no longer used: emptied (every schema dropped,
        ``public`` made anew) for :meth:`new_database` to give out again. One that a session is still connected to
        (what it holds, an advisory lock or a ``LISTEN``, is the database's), or that cannot be reached, is left
        as it is and never given out again."""
        import psycopg
        from psycopg import sql

        name = urlsplit(url).path.lstrip("/")
        try:
            with psycopg.connect(self.url(name), autocommit=True) as connection:
                others = connection.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                                            " AND pid <> pg_backend_pid()").fetchone()
                if others is None or others[0]:
                    return
                schemas = connection.execute("SELECT nspname FROM pg_namespace WHERE nspname <> 'information_schema'"
                                             " AND nspname NOT LIKE 'pg\\_%'").fetchall()
                for (schema,) in schemas:
                    connection.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
                connection.execute("CREATE SCHEMA public")
        except psycopg.Error:
            return
        self._emptied.append(name)


def caddy_environment(folder: Path, listen: int, upstream: int) -> dict[str, str]:
    """The Caddyfile's settings for a site on loopback (plain HTTP) in front of ``upstream``; Caddy's files in
    ``folder``, and no admin endpoint (a port other servers of the machine may hold)."""
    return {**os.environ, "PIQUET_SITE": f"http://127.0.0.1:{listen}", "PIQUET_UPSTREAM": f"127.0.0.1:{upstream}",
            "PIQUET_CADDY_ADMIN": "off", "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
            "XDG_CONFIG_HOME": str(folder / "config")}


def start_caddy(folder: Path, listen: int, upstreams: list[int], timeout: float = 30.0) -> subprocess.Popen[bytes]:
    """Caddy with ``deploy/Caddyfile`` on ``listen`` in front of the processes on ``upstreams`` (routing by table
    id), its log in ``folder``; returned once it accepts connections. :class:`Unavailable` if Caddy is not
    installed; ``RuntimeError`` (with its words) if it does not start."""
    caddy = shutil.which("caddy")
    if caddy is None:
        raise Unavailable("caddy is not installed (Debian: apt install caddy)")
    env = caddy_environment(folder, listen, 0)
    env["PIQUET_UPSTREAM"] = " ".join(f"127.0.0.1:{port}" for port in upstreams)
    with (folder / "caddy.log").open("wb") as log:
        proxy = subprocess.Popen([caddy, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"], env=env,
                                 stdout=log, stderr=subprocess.PIPE)
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", listen), timeout=1).close()
            return proxy
        except OSError:
            if proxy.poll() is not None:
                out = proxy.stderr.read() if proxy.stderr else b""
                raise RuntimeError(f"caddy did not start: {out.decode(errors='replace')}") from None
            if time.monotonic() > deadline:
                proxy.kill()
                raise RuntimeError(f"caddy did not accept connections within {timeout:.0f} s") from None
            time.sleep(0.05)
