"""Where the server keeps its tables: every game as its record's actions, one row per action.

:class:`Store` is the interface a store implements; :class:`SQLiteStore` is the
default, an embedded SQLite file (nothing to install or start), and
:class:`~piquet.ui.web.postgres.PostgresStore` keeps them in a PostgreSQL database
(``piquet serve --db postgresql://...``, the ``postgres`` extra). Both are a :class:`SQLStore`:
the same statements, on the layout the numbered migrations of :mod:`piquet.ui.web.migrations`
make (one home for both). Every call
that changes something is committed before it returns, so the server
acknowledges an action only once it is on disk, and a server killed and
restarted resumes every game where it was.

The server never calls a store on its event loop: it awaits an :class:`AsyncStore`, the one seam
between the tables and their storage. :class:`InThread` makes one of a :class:`Store`, each call
made in a thread of the store's own, as many at once as the store takes (one for SQLite, which has one
writer; a pool's size for PostgreSQL, where writes to different tables commit concurrently); a store with
an asynchronous driver would implement :class:`AsyncStore` itself.

A store knows tables and their actions, not which server process holds a table: that ownership is the
server's to keep (in memory today, one process per store), so that one may be taken by a lease later
without the store's calls changing.

Each table keeps a **version**, a counter that every change of its game (an action, a takeback)
moves on by one, written in the same transaction as the change: it never goes back and never
recurs, so a message that answers a state the table has left (before a takeback, above all) is
told from one that answers the state it is in.

>>> store = SQLiteStore(":memory:")
>>> store.create(TableInfo("t1", "computer", "rubicon", {}, 3, ["Ann", "Computer"], ["a", None], "s", 1))
>>> store.append("t1", 0, {"player": "Ann", "cut": ["7S", "AD"]}, version=1)
>>> store.load("t1").actions, store.load("t1").version
([{'player': 'Ann', 'cut': ['7S', 'AD']}], 1)
"""

from __future__ import annotations

import asyncio
import hmac
import json
import os
import secrets
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from piquet.ui.takebacks import Takeback, Takebacks
from piquet.ui.web.migrations import MIGRATIONS, SQLITE, Dialect, Execute, Migration, SchemaTooNew, migrate

if TYPE_CHECKING:
    from piquet.ui.web.protocol import TableKind

__all__ = ["MAX_PLAYED", "AsyncStore", "Fence", "InThread", "Listed", "NotOwner", "Played", "SQLStore", "SQLiteStore",
           "Store", "StoreError", "StoreUnavailable", "TableInfo", "Takeback", "is_postgres_url", "open_store",
           "redacted"]

T = TypeVar("T")

#: Seconds a write waits for a database locked by another process before it gives up.
BUSY_TIMEOUT = 2.0


class StoreError(RuntimeError):
    """The store could not do what was asked (the table is unknown, or an action is out of order)."""


class StoreUnavailable(StoreError):
    """The store could not save now (its database is locked by another process, the disk is full...): nothing
    was written, and the same call may succeed later."""


class NotOwner(StoreUnavailable):
    """This process no longer holds the table it would change (several processes on one PostgreSQL database:
    :mod:`piquet.ui.web.owners`): nothing was written; the table's process is another one now."""


class Fence(Protocol):
    """What a store asks, in a write's transaction, before it changes a table: whether this process holds it
    (:class:`piquet.ui.web.owners.Owners`). ``lost`` is told a table found not held (it is given up)."""

    def held_by_me(self, execute: Execute, table_id: str) -> bool: ...

    def lost(self, table_id: str) -> None: ...


@dataclass
class TableInfo:
    """A table as stored: what it is, who sits at it, and its actions so far (record action form).

    ``players`` holds ``None`` for a room's seat not yet taken; ``tokens`` the secret of each
    seat (``None`` for the computer's seat, and for a room's second seat until its guest joins);
    ``computer`` the computer's seat, if any. ``invite`` is a room's invitation secret until
    its guest joins (then ``None``: an invite admits one person once); ``moves`` each seat's
    one-time link to another device, ``[secret, expiry time]`` or ``None``. ``seed`` fixes
    every deal's cards (the cards of the n-th deal are the same whatever is taken back);
    ``takebacks`` is ``off``, ``fair`` or ``free`` and ``taken_back`` lists, in order, the
    takebacks made (``{"player", "deal", "action", "undone"}``: see ``docs/record-format.md``).
    """

    id: str
    kind: TableKind
    variant: str
    options: dict[str, Any]
    level: int | None
    players: list[str | None]
    tokens: list[str | None]
    spectate: str
    computer: int | None
    created: float = field(default_factory=time.time)
    actions: list[dict[str, Any]] = field(default_factory=list)
    invite: str | None = None
    moves: list[list[Any] | None] = field(default_factory=lambda: [None, None])
    seed: int = field(default_factory=lambda: secrets.randbits(63))
    takebacks: Takebacks = "fair"
    taken_back: list[Takeback] = field(default_factory=list)
    budget: float | None = None
    #: The tutor's threshold in points of the deal (``None``: no tutor).
    tutor: float | None = None
    #: The table's version: moved on by one at each change of its game (an action, a takeback), never back.
    version: int = 0
    #: A room listed in the lobby for anyone to join or watch (``docs/playing.md``, "Public rooms").
    public: bool = False


@dataclass(frozen=True)
class Played:
    """A table where a seat secret holds a seat, as History lists it: what the table is, the seat (0 or 1), and
    once the partie is over, when it ended and its result (``None`` for a table not known to be finished)."""

    id: str
    kind: TableKind
    variant: str
    options: dict[str, Any]
    level: int | None
    players: list[str | None]
    computer: int | None
    seat: int
    created: float
    finished: float | None
    result: dict[str, Any] | None


@dataclass(frozen=True)
class Listed:
    """A public room as the lobby lists it: what it is, who sits at it (``None``: the seat is free), when it was
    made and last changed, and its spectators' secret (the lobby's watch link: a public room is watched by anyone).
    No seat's secret, nor the invite, is read."""

    id: str
    variant: str
    options: dict[str, Any]
    players: list[str | None]
    spectate: str
    created: float
    changed: float


#: The most tables one History request may name (a browser holds one secret a table it sat at).
MAX_PLAYED = 2000
#: Tables read by one statement (under SQLite's least limit of 999 parameters).
_PLAYED_CHUNK = 400


class Store(Protocol):
    """A store as it is written: each call returns once it is done (committed, for a change). The server reaches
    it only through an :class:`AsyncStore` (:class:`InThread` for this one). ``where`` names it in messages and
    logs (a path; a URL without its password); ``threads``: how many calls it takes at once."""

    where: str
    threads: int

    def ping(self) -> None: ...

    def create(self, info: TableInfo) -> None: ...

    def load(self, table_id: str) -> TableInfo | None: ...

    def exists(self, table_id: str) -> bool: ...

    def set_player(self, table_id: str, seat: int, name: str) -> None: ...

    def join(self, table_id: str, seat: int, name: str, token: str) -> None: ...

    def set_token(self, table_id: str, seat: int, token: str) -> None: ...

    def set_move(self, table_id: str, seat: int, move: list[Any] | None) -> None: ...

    def take_back(self, table_id: str, length: int, takeback: Takeback | None, version: int) -> None: ...

    def append(self, table_id: str, index: int, action: dict[str, Any], version: int) -> None: ...

    def finish(self, table_id: str, finished: float, result: dict[str, Any]) -> None: ...

    def played(self, seats: Sequence[tuple[str, str]]) -> list[Played]: ...

    def reviewed(self, seats: Sequence[tuple[str, int]], method: str) -> dict[tuple[str, int], dict[str, Any]]: ...

    def keep_review(self, table_id: str, seat: int, method: str, reviewed: float, summary: dict[str, Any]) -> None: ...

    def listed(self, since: float, limit: int) -> list[Listed]: ...

    def close(self) -> None: ...


class AsyncStore(Protocol):
    """The store as the server awaits it: the calls of :class:`Store`, none of them made on the event loop.
    :class:`StoreUnavailable` says the store could not do it now (nothing was written). :meth:`ping` answers
    whether the store is reachable now (the server's readiness), raising :class:`StoreUnavailable` if not."""

    async def ping(self) -> None: ...

    async def create(self, info: TableInfo) -> None: ...

    async def load(self, table_id: str) -> TableInfo | None: ...

    async def exists(self, table_id: str) -> bool: ...

    async def join(self, table_id: str, seat: int, name: str, token: str) -> None: ...

    async def set_token(self, table_id: str, seat: int, token: str) -> None: ...

    async def set_move(self, table_id: str, seat: int, move: list[Any] | None) -> None: ...

    async def take_back(self, table_id: str, length: int, takeback: Takeback | None, version: int) -> None: ...

    async def append(self, table_id: str, index: int, action: dict[str, Any], version: int) -> None: ...

    async def finish(self, table_id: str, finished: float, result: dict[str, Any]) -> None: ...

    async def played(self, seats: Sequence[tuple[str, str]]) -> list[Played]: ...

    async def reviewed(self, seats: Sequence[tuple[str, int]],
                       method: str) -> dict[tuple[str, int], dict[str, Any]]: ...

    async def keep_review(self, table_id: str, seat: int, method: str, reviewed: float,
                          summary: dict[str, Any]) -> None: ...

    async def listed(self, since: float, limit: int) -> list[Listed]: ...

    def close(self) -> None: ...


class InThread:
    """A :class:`Store` awaited as an :class:`AsyncStore`: each call made in one of the store's own threads (as many
    as it takes calls at once: ``store.threads``), never on the event loop (a store that is slow, or locked by
    another process, holds up the tables that wait for it, never the server). ``store`` is the store itself."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._thread = ThreadPoolExecutor(max(1, getattr(store, "threads", 1)), thread_name_prefix="piquet-store")

    async def _call(self, call: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, call, *args)

    async def ping(self) -> None:
        await self._call(self.store.ping)

    async def create(self, info: TableInfo) -> None:
        await self._call(self.store.create, info)

    async def load(self, table_id: str) -> TableInfo | None:
        return await self._call(self.store.load, table_id)

    async def exists(self, table_id: str) -> bool:
        return await self._call(self.store.exists, table_id)

    async def join(self, table_id: str, seat: int, name: str, token: str) -> None:
        await self._call(self.store.join, table_id, seat, name, token)

    async def set_token(self, table_id: str, seat: int, token: str) -> None:
        await self._call(self.store.set_token, table_id, seat, token)

    async def set_move(self, table_id: str, seat: int, move: list[Any] | None) -> None:
        await self._call(self.store.set_move, table_id, seat, move)

    async def take_back(self, table_id: str, length: int, takeback: Takeback | None, version: int) -> None:
        await self._call(self.store.take_back, table_id, length, takeback, version)

    async def append(self, table_id: str, index: int, action: dict[str, Any], version: int) -> None:
        await self._call(self.store.append, table_id, index, action, version)

    async def finish(self, table_id: str, finished: float, result: dict[str, Any]) -> None:
        await self._call(self.store.finish, table_id, finished, result)

    async def played(self, seats: Sequence[tuple[str, str]]) -> list[Played]:
        return await self._call(self.store.played, seats)

    async def reviewed(self, seats: Sequence[tuple[str, int]], method: str) -> dict[tuple[str, int], dict[str, Any]]:
        return await self._call(self.store.reviewed, seats, method)

    async def keep_review(self, table_id: str, seat: int, method: str, reviewed: float,
                          summary: dict[str, Any]) -> None:
        await self._call(self.store.keep_review, table_id, seat, method, reviewed, summary)

    async def listed(self, since: float, limit: int) -> list[Listed]:
        return await self._call(self.store.listed, since, limit)

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        self.store.close()


#: How far past its actions (stored and written-down takebacks) a table stored before the version counter starts it.
_MIGRATED_MARGIN = 1000

_COLUMNS = ("id, kind, variant, options, level, players, tokens, spectate, computer, created, invite, moves, seed, "
            "takebacks, taken_back, budget, tutor, version, public")


def _read_only(error: sqlite3.Error) -> bool:
    """Whether SQLite refused because it may not write (the file or its folder read-only), rather than damage."""
    text = str(error).lower()
    return "readonly" in text or "read-only" in text or getattr(error, "sqlite_errorcode", None) in (
        8, 264, 520, 776, 1032, 1288)  # SQLITE_READONLY and its extended codes


class SQLStore:
    """What every SQL store does the same way: its statements, on the layout :mod:`piquet.ui.web.migrations`
    makes. A store gives each call its connection, in a transaction (:meth:`_writing`, :meth:`_reading`: each
    yields how to run a statement, ``?`` for each parameter), and says which errors of its driver are a
    broken constraint. ``where`` names the store in messages (never with a password); ``threads`` is how
    many calls it takes at once (:class:`InThread` makes as many threads)."""

    where: str
    threads: int = 1
    dialect: Dialect
    _constraint_errors: tuple[type[Exception], ...]
    #: Asked before each change of a table whether this process holds it (``None``: one process, nothing asked).
    fence: Fence | None = None

    def _fenced(self, execute: Execute, table_id: str) -> None:
        """Raise :class:`NotOwner` (and the transaction writes nothing) if this process does not hold the table: called
        once the table's row is locked, so that no other process takes the table over until the commit."""
        if self.fence is not None and not self.fence.held_by_me(execute, table_id):
            self.fence.lost(table_id)
            raise NotOwner(f"table {table_id!r} is no longer held by this process: another one serves it")

    def _writing(self) -> AbstractContextManager[Execute]:
        raise NotImplementedError

    def _reading(self, snapshot: bool = False) -> AbstractContextManager[Execute]:
        """A read; ``snapshot``: its statements see one moment of the database (a transaction)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def ping(self) -> None:
        """Nothing if the store answers now, else :class:`StoreUnavailable` (the server's readiness)."""
        with self._reading() as execute:
            execute("SELECT 1").fetchone()

    def create(self, info: TableInfo) -> None:
        try:
            with self._writing() as execute:
                execute(f"INSERT INTO tables ({_COLUMNS}, changed) VALUES ({', '.join(['?'] * 20)})",
                        (info.id, info.kind, info.variant, json.dumps(info.options), info.level,
                         json.dumps(info.players), json.dumps(info.tokens), info.spectate, info.computer, info.created,
                         info.invite, json.dumps(info.moves), info.seed, info.takebacks, json.dumps(info.taken_back),
                         info.budget, info.tutor, info.version, int(info.public), info.created))
                for i, action in enumerate(info.actions):
                    execute("INSERT INTO actions (table_id, idx, action) VALUES (?, ?, ?)",
                            (info.id, i, json.dumps(action)))
        except self._constraint_errors:
            raise StoreError(f"a table {info.id!r} is already stored") from None

    def _locked_read(self) -> AbstractContextManager[Execute]:
        """The transaction of :meth:`load`: its statements see one moment of the table (the table's version and its
        actions agree)."""
        return self._reading(snapshot=True)

    def load(self, table_id: str) -> TableInfo | None:
        with self._locked_read() as execute:
            # The row locked where the dialect says how: a change still in flight (of another process, which held
            # the table until a moment ago) is committed before the table is read, and none comes while it is.
            row = execute(f"SELECT {_COLUMNS} FROM tables WHERE id = ?{self.dialect.row_lock}", (table_id,)).fetchone()
            if row is None:
                return None
            actions = [json.loads(a) for (a,) in execute(
                "SELECT action FROM actions WHERE table_id = ? ORDER BY idx", (table_id,)).fetchall()]
        return TableInfo(row[0], row[1], row[2], json.loads(row[3]), row[4], json.loads(row[5]), json.loads(row[6]),
                         row[7], row[8], row[9], actions, row[10], json.loads(row[11]), row[12], row[13],
                         json.loads(row[14]), row[15], row[16], row[17], bool(row[18]))

    def exists(self, table_id: str) -> bool:
        """Whether the store holds the table ``table_id`` (its row alone is read, not its actions)."""
        with self._reading() as execute:
            return execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is not None

    def _set_seat(self, table_id: str, seat: int, values: dict[str, Any], also: str = "",
                  changed: float | None = None) -> None:
        """Set ``seat``'s entry in each of the per-seat JSON columns named in ``values``, in one transaction
        (``also``: further assignments of the same ``UPDATE``; ``changed``: the table's time of change, if set)."""
        columns = list(values)
        with self._writing() as execute:
            row = execute(f"SELECT {', '.join(columns)} FROM tables WHERE id = ?{self.dialect.row_lock}",
                          (table_id,)).fetchone()
            if row is None:
                raise StoreError(f"no table {table_id!r}")
            self._fenced(execute, table_id)
            lists = [json.loads(text) for text in row]
            for pair, column in zip(lists, columns, strict=True):
                pair[seat] = values[column]
            assignments = ", ".join([*(f"{column} = ?" for column in columns), *([also] if also else []),
                                     *(["changed = ?"] if changed is not None else [])])
            execute(f"UPDATE tables SET {assignments} WHERE id = ?",
                    (*(json.dumps(pair) for pair in lists), *([changed] if changed is not None else []), table_id))

    def set_player(self, table_id: str, seat: int, name: str) -> None:
        self._set_seat(table_id, seat, {"players": name})

    def join(self, table_id: str, seat: int, name: str, token: str) -> None:
        """A room's guest takes his seat: his name and his own seat secret; the invite is spent."""
        self._set_seat(table_id, seat, {"players": name, "tokens": token}, also="invite = NULL",
                       changed=time.time())

    def set_token(self, table_id: str, seat: int, token: str) -> None:
        """A seat's new secret (the player moved to another device); its one-time link is spent."""
        self._set_seat(table_id, seat, {"tokens": token, "moves": None})

    def set_move(self, table_id: str, seat: int, move: list[Any] | None) -> None:
        self._set_seat(table_id, seat, {"moves": move})

    def append(self, table_id: str, index: int, action: dict[str, Any], version: int) -> None:
        """Store the action ``index`` of the table and, in the same transaction, its new ``version``."""
        # The table's row first (an unknown table is said so, and its row held until the commit); then the action,
        # which the primary key refuses at an index already taken (the server appends in order).
        try:
            with self._writing() as execute:
                _set_version(execute, table_id, version)
                self._fenced(execute, table_id)
                execute("INSERT INTO actions (table_id, idx, action) VALUES (?, ?, ?)",
                        (table_id, index, json.dumps(action)))
        except self._constraint_errors:
            raise StoreError(f"table {table_id!r} already has an action {index} stored") from None

    def take_back(self, table_id: str, length: int, takeback: Takeback | None, version: int) -> None:
        """Keep the first ``length`` actions and, in the same transaction, note the takeback (``None``: a
        takeback the table does not write down) and the table's new ``version``."""
        with self._writing() as execute:
            _set_version(execute, table_id, version)
            self._fenced(execute, table_id)
            execute("DELETE FROM actions WHERE table_id = ? AND idx >= ?", (table_id, length))
            if takeback is not None:
                row = execute("SELECT taken_back FROM tables WHERE id = ?", (table_id,)).fetchone()
                execute("UPDATE tables SET taken_back = ? WHERE id = ?",
                        (json.dumps([*json.loads(row[0]), takeback]), table_id))


    def finish(self, table_id: str, finished: float, result: dict[str, Any]) -> None:
        """Note that the table's partie ended at ``finished`` (seconds since the epoch) with ``result`` (its History
        line's figures). A partie ends once: a second call for the same table changes nothing."""
        with self._writing() as execute:
            if execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is None:
                raise StoreError(f"no table {table_id!r}")
            execute("INSERT INTO results (table_id, finished, result) VALUES (?, ?, ?) "
                    "ON CONFLICT (table_id) DO NOTHING", (table_id, finished, json.dumps(result)))

    def played(self, seats: Sequence[tuple[str, str]]) -> list[Played]:
        """The tables where each ``(table id, seat secret)`` holds a seat, with their results where known, newest
        first. Each table is found by its id (the primary key: one indexed look-up a pair); a secret that holds no
        seat there (another seat's, a spectator's, an old one, an unknown table) gives nothing, and which it was is
        not said. At most :data:`MAX_PLAYED` pairs (``ValueError``)."""
        if len(seats) > MAX_PLAYED:
            raise ValueError(f"seats: at most {MAX_PLAYED} tables at once, not {len(seats)}")
        wanted: dict[str, list[str]] = {}
        for table_id, secret in seats:
            wanted.setdefault(table_id, []).append(secret)
        ids = list(wanted)
        found: list[Played] = []
        with self._reading(snapshot=True) as execute:
            for start in range(0, len(ids), _PLAYED_CHUNK):
                chunk = ids[start:start + _PLAYED_CHUNK]
                rows = execute("SELECT t.id, t.kind, t.variant, t.options, t.level, t.players, t.tokens, t.computer, "
                               "t.created, r.finished, r.result FROM tables t LEFT JOIN results r ON r.table_id = t.id "
                               f"WHERE t.id IN ({', '.join(['?'] * len(chunk))})", chunk).fetchall()
                for row in rows:
                    tokens = json.loads(row[6])
                    seat = next((i for i, token in enumerate(tokens) if token is not None and any(
                        hmac.compare_digest(token.encode(), s.encode()) for s in wanted[row[0]])), None)
                    if seat is not None:
                        found.append(Played(row[0], row[1], row[2], json.loads(row[3]), row[4], json.loads(row[5]),
                                            row[7], seat, row[8], row[9],
                                            None if row[10] is None else json.loads(row[10])))
        found.sort(key=lambda p: (p.finished or p.created), reverse=True)
        return found

    def reviewed(self, seats: Sequence[tuple[str, int]], method: str) -> dict[tuple[str, int], dict[str, Any]]:
        """The reviews by phase kept for each ``(table id, seat)`` (:meth:`keep_review`) made by ``method``, by their
        table and seat; a seat with none (or one made another way) is left out. At most :data:`MAX_PLAYED` seats."""
        if len(seats) > MAX_PLAYED:
            raise ValueError(f"seats: at most {MAX_PLAYED} at once, not {len(seats)}")
        wanted = set(seats)
        ids = sorted({table_id for table_id, _ in wanted})
        found: dict[tuple[str, int], dict[str, Any]] = {}
        with self._reading(snapshot=True) as execute:
            for start in range(0, len(ids), _PLAYED_CHUNK):
                chunk = ids[start:start + _PLAYED_CHUNK]
                rows = execute("SELECT table_id, seat, summary FROM phase_reviews WHERE method = ? AND "
                               f"table_id IN ({', '.join(['?'] * len(chunk))})", (method, *chunk)).fetchall()
                for table_id, seat, summary in rows:
                    if (table_id, seat) in wanted:
                        found[table_id, seat] = json.loads(summary)
        return found

    def keep_review(self, table_id: str, seat: int, method: str, reviewed: float, summary: dict[str, Any]) -> None:
        """Keep ``seat``'s review by phase of the table's finished partie, made by ``method`` at ``reviewed``
        (seconds since the epoch); one made another way before is replaced."""
        if seat not in (0, 1):
            raise ValueError(f"seat: 0 or 1, not {seat!r}")
        with self._writing() as execute:
            if execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is None:
                raise StoreError(f"no table {table_id!r}")
            execute("INSERT INTO phase_reviews (table_id, seat, method, reviewed, summary) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (table_id, seat) DO UPDATE SET method = excluded.method, "
                    "reviewed = excluded.reviewed, summary = excluded.summary",
                    (table_id, seat, method, reviewed, json.dumps(summary)))

    def listed(self, since: float, limit: int) -> list[Listed]:
        """The public rooms changed since ``since`` (seconds since the epoch) whose partie has not ended, newest
        first, at most ``limit`` (one range of the ``tables_public`` index: the rooms older, or private, are not
        read)."""
        with self._reading() as execute:
            rows = execute("SELECT t.id, t.variant, t.options, t.players, t.spectate, t.created, t.changed "
                           "FROM tables t WHERE t.public = 1 AND t.changed >= ? AND t.kind = 'room' AND NOT EXISTS "
                           "(SELECT 1 FROM results r WHERE r.table_id = t.id) ORDER BY t.created DESC, t.id LIMIT ?",
                           (since, limit)).fetchall()
        return [Listed(row[0], row[1], json.loads(row[2]), json.loads(row[3]), row[4], row[5], row[6]) for row in rows]


def _set_version(execute: Execute, table_id: str, version: int) -> None:
    row = execute("UPDATE tables SET version = ?, changed = ? WHERE id = ?", (version, time.time(), table_id))
    if row.rowcount != 1:
        raise StoreError(f"no table {table_id!r}")


class SQLiteStore(SQLStore):
    """The default store: one SQLite file (``":memory:"`` for a throwaway one), in WAL mode.

    Safe to call from several threads (one connection, behind a lock). The file (and its write-ahead log) are
    watched: if either is deleted or replaced while the server runs (SQLite would go on writing to a file no one
    can open again, and lose it at the next start), every later call raises :class:`StoreUnavailable` and nothing
    more is acknowledged. ``migrations``: the layout the file is brought to (:mod:`piquet.ui.web.migrations`).
    """

    dialect = SQLITE
    _constraint_errors = (sqlite3.IntegrityError,)

    def __init__(self, path: str, migrations: Sequence[Migration] = MIGRATIONS) -> None:
        self.path = self.where = path
        # A new store is a file that does not exist yet (SQLite creates it, empty, then writes the schema). A file
        # that exists and is empty, or that SQLite cannot read, is something else: the server stops rather than
        # start an empty store over it.
        existed = path != ":memory:" and os.path.exists(path)
        if existed and os.path.isfile(path) and os.path.getsize(path) == 0:
            raise StoreError(f"the store {path} is an empty file (0 bytes), not a piquet store: move it away, or "
                             "name another file")
        if existed:
            self._refuse_read_only()
        self._lock = threading.Lock()
        self._files: dict[str, tuple[int, int]] = {}  # path: (device, inode) of the store's files when opened
        self._lost: str | None = None  # why the store's files can no longer be trusted
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT)
        except sqlite3.Error as e:
            raise StoreError(f"the store {path} cannot be opened: {e}") from None
        try:
            if existed:
                self._check()
            if path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            # WAL with synchronous=NORMAL survives the server process being killed at any moment.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._migrate(migrations)
        except sqlite3.Error as e:
            self._db.close()
            if _read_only(e):
                raise StoreError(f"the store {path} cannot be written ({e}): piquet serve writes every action to "
                                 "it; make the file and its folder writable, or name another file") from None
            raise StoreError(f"the store {path} is damaged or not a SQLite database ({e}): move it away, or "
                             "name another file") from None
        except SchemaTooNew as e:
            self._db.close()
            raise StoreError(f"the store {path} cannot be opened: {e}") from None
        except StoreError:
            self._db.close()
            raise
        if path != ":memory:":
            for name in (path, path + "-wal"):
                self._note(name)

    def _refuse_read_only(self) -> None:
        """A file the server may not write, or in a folder where SQLite may not make its log: a clear refusal (it is
        not damaged)."""
        folder = os.path.dirname(os.path.abspath(self.path))
        for name, what in ((self.path, "the file"), (folder, "its folder")):
            if not os.access(name, os.W_OK):
                raise StoreError(f"the store {self.path} cannot be written ({what} is read-only to this user): piquet "
                                 "serve writes every action to it; make the file and its folder writable, or name "
                                 "another file")

    def _note(self, name: str) -> None:
        """Remember which file ``name`` is (its device and inode), if it exists."""
        try:
            found = os.stat(name)
        except FileNotFoundError:
            return
        self._files[name] = (found.st_dev, found.st_ino)

    def _watch(self) -> None:
        """Raise :class:`StoreUnavailable` if the store's files are gone or replaced since they were opened (then and
        from then on: what SQLite writes now would be lost)."""
        if self._lost is None and self.path != ":memory:":
            if self.path + "-wal" not in self._files:
                self._note(self.path + "-wal")  # made by SQLite at the first write
            for name, known in self._files.items():
                try:
                    found = os.stat(name)
                    same = (found.st_dev, found.st_ino) == known
                except OSError:
                    same = False
                if not same:
                    self._lost = (f"{name} was deleted or replaced while the server ran: nothing more is saved or "
                                  "acknowledged (restart the server to open the store again)")
        if self._lost is not None:
            raise StoreUnavailable(f"{self.path}: {self._lost}")

    def _check(self) -> None:
        """An existing file: SQLite reads it whole without finding damage, and any tables in it are the store's."""
        problems = [row[0] for row in self._db.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise StoreError(f"the store {self.path} is damaged ({'; '.join(map(str, problems))}): move it away "
                             "(or repair it with the sqlite3 tool's .recover), or name another file")
        names = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if names and not {"tables", "actions"} <= names:
            raise StoreError(f"the store {self.path} is a SQLite database of something else (tables: "
                             f"{', '.join(sorted(names))}): name another file")

    @contextmanager
    def _writing(self) -> Iterator[Execute]:
        """One write, committed or rolled back whole; :class:`StoreUnavailable` if SQLite could not do it now, or the
        store's files are no longer the ones it opened (checked before and after: an action committed to a deleted
        file is not acknowledged)."""
        try:
            with self._lock:
                self._watch()
                with self._db:
                    self._db.execute("BEGIN IMMEDIATE")
                    yield self._db.execute
                self._watch()
        except sqlite3.OperationalError as e:  # locked by another process, disk full, read-only...
            raise StoreUnavailable(f"{self.path}: {e}") from None

    @contextmanager
    def _reading(self, snapshot: bool = False) -> Iterator[Execute]:
        try:
            with self._lock:
                self._watch()
                if not snapshot:
                    yield self._db.execute
                    return
                with self._db:
                    self._db.execute("BEGIN")
                    yield self._db.execute
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"{self.path}: {e}") from None

    def _migrate(self, migrations: Sequence[Migration]) -> None:
        """Bring the file to the last migration (:func:`piquet.ui.web.migrations.migrate`), in one transaction: a
        file is either migrated whole or left as it was. A file written before the migrations were numbered (it has
        tables but no ``schema_version``) is first brought to the layout of migration 1 (:meth:`_adopt`)."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            names = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "tables" in names and "schema_version" not in names:
                self._adopt()
            migrate(self._db.execute, SQLITE, migrations)

    def _adopt(self) -> None:
        """Bring a file written before the numbered migrations to the layout of migration 1 (in the caller's
        transaction).

        The columns added since the first layout are added; a room still waiting for its guest had
        its guest's seat secret in ``tokens[1]``, which was also its invite link: it becomes the
        room's ``invite`` (spent when the guest joins) and the seat has no secret until then. A
        room already joined keeps the guest's secret (his browser holds it). Tables without a
        ``seed`` get one (their deals so far are in their actions). Tables without a ``budget`` think
        as their level does by default (``NULL``), and have no tutor (``NULL``). Tables without a ``version``
        start their counter past every version they may have shown (see the code)."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        added = [(name, sql) for name, sql in (
            ("invite", "invite TEXT"), ("moves", "moves TEXT NOT NULL DEFAULT '[null, null]'"),
            ("seed", "seed INTEGER"), ("takebacks", "takebacks TEXT NOT NULL DEFAULT 'fair'"),
            ("taken_back", "taken_back TEXT NOT NULL DEFAULT '[]'"), ("budget", "budget REAL"),
            ("tutor", "tutor REAL"), ("version", "version INTEGER NOT NULL DEFAULT 0")) if name not in columns]
        for _, sql in added:
            self._db.execute(f"ALTER TABLE tables ADD COLUMN {sql}")
        if any(name == "takebacks" for name, _ in added):  # two people take nothing back
            self._db.execute("UPDATE tables SET takebacks = 'off' WHERE kind = 'room'")
        if any(name == "invite" for name, _ in added):
            rows = self._db.execute("SELECT id, players, tokens FROM tables WHERE kind = 'room'").fetchall()
            for table_id, players, tokens in rows:
                seats, secrets_ = json.loads(players), json.loads(tokens)
                if seats[1] is None and secrets_[1] is not None:
                    self._db.execute("UPDATE tables SET invite = ?, tokens = ? WHERE id = ?",
                                     (secrets_[1], json.dumps([secrets_[0], None]), table_id))
        for (table_id,) in self._db.execute("SELECT id FROM tables WHERE seed IS NULL").fetchall():
            self._db.execute("UPDATE tables SET seed = ? WHERE id = ?", (secrets.randbits(63), table_id))
        if any(name == "version" for name, _ in added):
            # Before the counter, a table's version was its number of actions, which a takeback brought down:
            # the counter starts past any number of actions the table has had (the actions stored and those
            # taken back and written down), and a takeback not written down is one of the last few at most.
            rows = self._db.execute("SELECT id, taken_back, (SELECT COUNT(*) FROM actions WHERE table_id = id) "
                                    "FROM tables").fetchall()
            for table_id, taken_back, count in rows:
                undone = sum(int(t.get("undone", 0)) for t in json.loads(taken_back))
                self._db.execute("UPDATE tables SET version = ? WHERE id = ?",
                                 (count + undone + _MIGRATED_MARGIN, table_id))

    def close(self) -> None:
        with self._lock:
            self._db.close()


def redacted(url: str) -> str:
    """``url`` without its password (in its user part, or as a ``password`` parameter of its query); a SQLite file's
    path as it is.

    >>> redacted("postgresql://piquet:s3cret@db.example.org:5432/piquet?sslmode=require&password=x")
    'postgresql://piquet@db.example.org:5432/piquet?sslmode=require'
    >>> redacted("postgresql:///piquet?host=/run/postgresql")
    'postgresql:///piquet?host=/run/postgresql'
    """
    if not is_postgres_url(url):
        return url
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.partition(':')[0]}@{host}"
    query = urllib.parse.urlencode([(k, v) for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
                                    if k.lower() != "password"], safe="/")
    return f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "")


def is_postgres_url(db: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database (a ``postgresql://`` or ``postgres://`` URL), not a file."""
    return db.startswith(("postgresql://", "postgres://"))


def open_store(db: str) -> SQLStore:
    """The store ``--db`` names: a PostgreSQL URL (:class:`~piquet.ui.web.postgres.PostgresStore`, the ``postgres``
    extra), else a SQLite file's path (:class:`SQLiteStore`). :class:`StoreError` if it cannot be opened."""
    if is_postgres_url(db):
        try:
            from piquet.ui.web.postgres import PostgresStore
        except ImportError as e:
            raise StoreError(f"a PostgreSQL store needs the postgres extra ({e.name} is missing): python3 -m pip "
                             "install 'piquet[postgres]'") from None
        return PostgresStore(db)
    return SQLiteStore(db)
