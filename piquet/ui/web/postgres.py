"""The PostgreSQL store: ``piquet serve --db postgresql://user:password@host/dbname`` (the ``postgres`` extra).

The same statements as SQLite's (:class:`~piquet.ui.web.store.SQLStore`) on the same layout (the numbered
migrations of :mod:`piquet.ui.web.migrations`, applied at start), with the same promise: a call returns once
its transaction is committed (PostgreSQL's ``synchronous_commit``, on by default, makes that a commit on
disk), so the server acknowledges an action only once it is stored.

The connections are a pool (psycopg 3's ``psycopg_pool``): :class:`~piquet.ui.web.store.InThread` makes as many
threads as the pool has connections, so writes to different tables commit at the same time (one writer would
cap the server at the commits one connection makes a second). The server changes one table one call at a time;
a change that reads a row and writes it back holds the row (``FOR UPDATE``) all the same.

The URL is any libpq connection URI (its query may carry ``sslmode``, ``connect_timeout``...); it is never
shown with its password (:func:`~piquet.ui.web.store.redacted`).
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.types.string import TextLoader
from psycopg_pool import ConnectionPool, PoolTimeout

from piquet.ui.web.migrations import MIGRATIONS, POSTGRES, Execute, Migration, SchemaTooNew, migrate
from piquet.ui.web.store import SQLStore, StoreError, StoreUnavailable, redacted

__all__ = ["POOL_SIZE", "PostgresStore"]

#: Connections in the pool: as many calls of the store at once (and threads that make them).
POOL_SIZE = 8
#: Seconds to reach the database at start before the server says it cannot.
CONNECT_TIMEOUT = 5.0
#: Seconds a call waits for a connection of the pool (all busy, or the database unreachable) before it gives up:
#: the same as SQLite's wait for a lock (:data:`piquet.ui.web.store.BUSY_TIMEOUT`), and nothing is written.
POOL_TIMEOUT = 2.0


def _password(url: str) -> str | None:
    parts = urllib.parse.urlsplit(url)
    found = parts.password or dict(urllib.parse.parse_qsl(parts.query)).get("password")
    return urllib.parse.unquote(found) if found else None


def _configure(connection: psycopg.Connection[Any]) -> None:
    """Each connection of the pool: JSON columns read as their text (parsed by the store, as SQLite's are)."""
    for name in ("json", "jsonb"):
        connection.adapters.register_loader(name, TextLoader)


class PostgresStore(SQLStore):
    """Tables and their actions in a PostgreSQL database, through a pool of ``pool_size`` connections.

    :class:`~piquet.ui.web.store.StoreError` at once if the database cannot be reached or brought to the layout
    (naming the URL, without its password); afterwards, a call that cannot reach it raises
    :class:`~piquet.ui.web.store.StoreUnavailable` (nothing is written, and the same call may succeed later: the
    pool checks each connection before lending it and makes new ones when the database is back)."""

    dialect = POSTGRES
    _constraint_errors = (psycopg.IntegrityError,)

    def __init__(self, url: str, pool_size: int = POOL_SIZE, migrations: Sequence[Migration] = MIGRATIONS,
                 connect_timeout: float = CONNECT_TIMEOUT) -> None:
        self.where = redacted(url)
        self.threads = pool_size
        secret = _password(url)

        def clean(error: BaseException) -> str:
            text = str(error).strip() or type(error).__name__
            return text.replace(secret, "[redacted]") if secret else text

        # One connection first, for the reason it cannot be had (the pool would only time out).
        try:
            with psycopg.connect(url, connect_timeout=max(1, round(connect_timeout))) as probe:
                probe.execute("SELECT 1")
        except psycopg.Error as e:
            raise StoreError(f"the store {self.where} cannot be reached: {clean(e)}") from None
        self._pool = ConnectionPool(url, min_size=1, max_size=pool_size, open=False, configure=_configure,
                                    check=ConnectionPool.check_connection, timeout=POOL_TIMEOUT,
                                    name="piquet-store", kwargs={"connect_timeout": max(1, round(connect_timeout))})
        try:
            self._pool.open(wait=True, timeout=connect_timeout)
            with self._writing() as execute:
                migrate(execute, POSTGRES, migrations)
        except SchemaTooNew as e:
            self._pool.close()
            raise StoreError(f"the store {self.where} cannot be opened: {e}") from None
        except (psycopg.Error, PoolTimeout, StoreUnavailable) as e:
            self._pool.close()
            raise StoreError(f"the store {self.where} cannot be prepared: {clean(e)}") from None

    @staticmethod
    def _executor(connection: psycopg.Connection[Any]) -> Execute:
        def execute(statement: str, parameters: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
            return connection.execute(statement.replace("?", "%s"), parameters)

        return execute

    @contextmanager
    def _transaction(self) -> Iterator[Execute]:
        try:
            with self._pool.connection() as connection, connection.transaction():
                yield self._executor(connection)
        except (psycopg.OperationalError, PoolTimeout) as e:  # unreachable, restarting, the pool exhausted...
            raise StoreUnavailable(f"{self.where}: {str(e).strip() or type(e).__name__}") from None

    def _writing(self) -> Any:
        """One write: committed when the block ends, or rolled back whole."""
        return self._transaction()

    def _reading(self, snapshot: bool = False) -> Any:
        # A read's statements see one moment of the database: REPEATABLE READ for the transaction (set first).
        return self._snapshot() if snapshot else self._transaction()

    def _locked_read(self) -> Any:
        # READ COMMITTED with the table's row locked first (FOR UPDATE): every change of a table locks its row, so
        # the actions read next are the row's; a snapshot (REPEATABLE READ) would fail instead of waiting when a
        # change commits while the lock is awaited.
        return self._transaction()

    @contextmanager
    def _snapshot(self) -> Iterator[Execute]:
        with self._transaction() as execute:
            execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            yield execute

    def close(self) -> None:
        self._pool.close()
