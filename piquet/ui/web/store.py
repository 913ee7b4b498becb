"""Where the server keeps its tables: every game as its record's actions, one row per action.

:class:`Store` is the interface the server uses; :class:`SQLiteStore` is the
default, an embedded SQLite file (nothing to install or start). Every call
that changes something is committed before it returns, so the server
acknowledges an action only once it is on disk, and a server killed and
restarted resumes every game where it was.

>>> store = SQLiteStore(":memory:")
>>> store.create(TableInfo("t1", "computer", "rubicon", {}, 3, ["Ann", "Computer"], ["a", None], "s", 1))
>>> store.append("t1", 0, {"player": "Ann", "cut": ["7S", "AD"]})
>>> store.load("t1").actions
[{'player': 'Ann', 'cut': ['7S', 'AD']}]
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from piquet.ui.takebacks import Takeback, Takebacks

if TYPE_CHECKING:
    from piquet.ui.web.protocol import TableKind

__all__ = ["SQLiteStore", "Store", "StoreError", "StoreUnavailable", "TableInfo", "Takeback"]

#: Seconds a write waits for a database locked by another process before it gives up.
BUSY_TIMEOUT = 2.0


class StoreError(RuntimeError):
    """The store could not do what was asked (the table is unknown, or an action is out of order)."""


class StoreUnavailable(StoreError):
    """The store could not save now (its database is locked by another process, the disk is full...): nothing
    was written, and the same call may succeed later."""


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


class Store(Protocol):
    """The server's store: a SQLite file by default; a server database may replace it."""

    def create(self, info: TableInfo) -> None: ...

    def load(self, table_id: str) -> TableInfo | None: ...

    def set_player(self, table_id: str, seat: int, name: str) -> None: ...

    def join(self, table_id: str, seat: int, name: str, token: str) -> None: ...

    def set_token(self, table_id: str, seat: int, token: str) -> None: ...

    def set_move(self, table_id: str, seat: int, move: list[Any] | None) -> None: ...

    def take_back(self, table_id: str, length: int, takeback: Takeback | None) -> None: ...

    def append(self, table_id: str, index: int, action: dict[str, Any]) -> None: ...

    def truncate(self, table_id: str, length: int) -> None: ...

    def close(self) -> None: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    level INTEGER,
    players TEXT NOT NULL,
    tokens TEXT NOT NULL,
    spectate TEXT NOT NULL,
    computer INTEGER,
    created REAL NOT NULL,
    invite TEXT,
    moves TEXT NOT NULL DEFAULT '[null, null]',
    seed INTEGER,
    takebacks TEXT NOT NULL DEFAULT 'fair',
    taken_back TEXT NOT NULL DEFAULT '[]',
    budget REAL,
    tutor REAL
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
"""


class SQLiteStore:
    """The default store: one SQLite file (``":memory:"`` for a throwaway one), in WAL mode.

    Safe to call from several threads (one connection, behind a lock).
    """

    def __init__(self, path: str) -> None:
        self.path = path
        # A new store is a file that does not exist yet (SQLite creates it, empty, then writes the schema). A file
        # that exists and is empty, or that SQLite cannot read, is something else: the server stops rather than
        # start an empty store over it.
        existed = path != ":memory:" and os.path.exists(path)
        if existed and os.path.isfile(path) and os.path.getsize(path) == 0:
            raise StoreError(f"the store {path} is an empty file (0 bytes), not a piquet store: move it away, or "
                             "name another file")
        self._lock = threading.Lock()
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
            self._db.executescript(_SCHEMA)
            self._migrate()
        except sqlite3.Error as e:
            self._db.close()
            raise StoreError(f"the store {path} is damaged or not a SQLite database ({e}): move it away, or "
                             "name another file") from None
        except StoreError:
            self._db.close()
            raise

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
    def _writing(self) -> Iterator[None]:
        """One write, committed or rolled back whole; :class:`StoreUnavailable` if SQLite could not do it now."""
        try:
            with self._lock, self._db:
                yield
        except sqlite3.OperationalError as e:  # locked by another process, disk full, read-only...
            raise StoreUnavailable(f"{self.path}: {e}") from None

    @contextmanager
    def _reading(self) -> Iterator[None]:
        try:
            with self._lock:
                yield
        except sqlite3.OperationalError as e:
            raise StoreUnavailable(f"{self.path}: {e}") from None

    def _migrate(self) -> None:
        """Bring a file written by an earlier release to this layout (in one transaction, so a file is
        either migrated whole or left as it was).

        The columns added since the first layout are added; a room still waiting for its guest had
        its guest's seat secret in ``tokens[1]``, which was also its invite link: it becomes the
        room's ``invite`` (spent when the guest joins) and the seat has no secret until then. A
        room already joined keeps the guest's secret (his browser holds it). Tables without a
        ``seed`` get one (their deals so far are in their actions). Tables without a ``budget`` think
        as their level does by default (``NULL``), and have no tutor (``NULL``)."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        added = [(name, sql) for name, sql in (
            ("invite", "invite TEXT"), ("moves", "moves TEXT NOT NULL DEFAULT '[null, null]'"),
            ("seed", "seed INTEGER"), ("takebacks", "takebacks TEXT NOT NULL DEFAULT 'fair'"),
            ("taken_back", "taken_back TEXT NOT NULL DEFAULT '[]'"), ("budget", "budget REAL"),
            ("tutor", "tutor REAL")) if name not in columns]
        with self._lock, self._db:
            self._db.execute("BEGIN")
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

    def create(self, info: TableInfo) -> None:
        with self._writing():
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO tables (id, kind, variant, options, level, players, tokens, spectate, computer, created, "
                "invite, moves, seed, takebacks, taken_back, budget, tutor) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (info.id, info.kind, info.variant, json.dumps(info.options), info.level, json.dumps(info.players),
                 json.dumps(info.tokens), info.spectate, info.computer, info.created, info.invite,
                 json.dumps(info.moves), info.seed, info.takebacks, json.dumps(info.taken_back), info.budget,
                 info.tutor),
            )
            for i, action in enumerate(info.actions):
                self._db.execute("INSERT INTO actions VALUES (?, ?, ?)", (info.id, i, json.dumps(action)))

    def load(self, table_id: str) -> TableInfo | None:
        with self._reading():
            row = self._db.execute(
                "SELECT id, kind, variant, options, level, players, tokens, spectate, computer, created, invite, "
                "moves, seed, takebacks, taken_back, budget, tutor FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return None
            actions = [json.loads(a) for (a,) in self._db.execute(
                "SELECT action FROM actions WHERE table_id = ? ORDER BY idx", (table_id,))]
        return TableInfo(row[0], row[1], row[2], json.loads(row[3]), row[4], json.loads(row[5]), json.loads(row[6]),
                         row[7], row[8], row[9], actions, row[10], json.loads(row[11]), row[12], row[13],
                         json.loads(row[14]), row[15], row[16])

    def _set_seat(self, table_id: str, seat: int, values: dict[str, Any], also: str = "") -> None:
        """Set ``seat``'s entry in each of the per-seat JSON columns named in ``values``, in one transaction
        (``also``: further assignments of the same ``UPDATE``)."""
        columns = list(values)
        with self._writing():
            self._db.execute("BEGIN")
            row = self._db.execute(f"SELECT {', '.join(columns)} FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                raise StoreError(f"no table {table_id!r}")
            lists = [json.loads(text) for text in row]
            for pair, column in zip(lists, columns, strict=True):
                pair[seat] = values[column]
            assignments = ", ".join([*(f"{column} = ?" for column in columns), *([also] if also else [])])
            self._db.execute(f"UPDATE tables SET {assignments} WHERE id = ?",
                             (*(json.dumps(pair) for pair in lists), table_id))

    def set_player(self, table_id: str, seat: int, name: str) -> None:
        self._set_seat(table_id, seat, {"players": name})

    def join(self, table_id: str, seat: int, name: str, token: str) -> None:
        """A room's guest takes his seat: his name and his own seat secret; the invite is spent."""
        self._set_seat(table_id, seat, {"players": name, "tokens": token}, also="invite = NULL")

    def set_token(self, table_id: str, seat: int, token: str) -> None:
        """A seat's new secret (the player moved to another device); its one-time link is spent."""
        self._set_seat(table_id, seat, {"tokens": token, "moves": None})

    def set_move(self, table_id: str, seat: int, move: list[Any] | None) -> None:
        self._set_seat(table_id, seat, {"moves": move})

    def append(self, table_id: str, index: int, action: dict[str, Any]) -> None:
        # The primary key refuses a second action at the same index; the server appends in order.
        try:
            with self._writing():
                self._db.execute("INSERT INTO actions VALUES (?, ?, ?)", (table_id, index, json.dumps(action)))
        except sqlite3.IntegrityError:
            raise StoreError(f"table {table_id!r} already has an action {index} stored") from None

    def truncate(self, table_id: str, length: int) -> None:
        with self._writing():
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM actions WHERE table_id = ? AND idx >= ?", (table_id, length))

    def take_back(self, table_id: str, length: int, takeback: Takeback | None) -> None:
        """Keep the first ``length`` actions and, in the same transaction, note the takeback (``None``: a
        takeback the table does not write down)."""
        with self._writing():
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM actions WHERE table_id = ? AND idx >= ?", (table_id, length))
            if takeback is not None:
                row = self._db.execute("SELECT taken_back FROM tables WHERE id = ?", (table_id,)).fetchone()
                if row is None:
                    raise StoreError(f"no table {table_id!r}")
                self._db.execute("UPDATE tables SET taken_back = ? WHERE id = ?",
                                 (json.dumps([*json.loads(row[0]), takeback]), table_id))

    def close(self) -> None:
        with self._lock:
            self._db.close()
