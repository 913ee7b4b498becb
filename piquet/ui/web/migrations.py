"""The store's layout, as numbered migrations that every store applies (SQLite and PostgreSQL alike).

The layout has one home: :data:`MIGRATIONS`, in order. A store opening a database brings it to the last
migration, in one transaction: it reads the highest number in the ``schema_version`` table, applies each
later migration and writes its number there. A database is thus at one numbered version, whichever store
wrote it, and a release that adds a migration upgrades a database at its first start. A database written
by a newer release (a number this one does not know) is refused, never written to.

The statements are SQL that both databases read, with a few words each spells its own way (``{json}``,
``{float}``, ``{bigint}``), filled in by :meth:`Dialect.render`. A new migration is appended, never an old one
changed: a database that has applied it will not apply it again.

>>> print(SQLITE.render("CREATE TABLE t (a {json}, b {float})"))
CREATE TABLE t (a TEXT, b REAL)
>>> print(POSTGRES.render("CREATE TABLE t (a {json}, b {float})"))
CREATE TABLE t (a JSON, b DOUBLE PRECISION)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["MIGRATIONS", "POSTGRES", "SQLITE", "Dialect", "Migration", "SchemaTooNew", "migrate"]


@dataclass(frozen=True)
class Dialect:
    """How one database spells what the migrations leave open: its types, and the statement that makes one
    migrating store wait for another (``None``: the transaction itself does)."""

    name: str
    types: dict[str, str]
    lock: str | None = None
    #: What a ``SELECT`` ends with to hold its rows until the transaction ends (SQLite: its write lock does).
    row_lock: str = ""

    def render(self, statement: str) -> str:
        return statement.format(**self.types)


SQLITE = Dialect("sqlite", {"json": "TEXT", "float": "REAL", "bigint": "INTEGER"})
#: JSON (not JSONB) keeps each value's text as written, its keys in their order. Two servers starting at once on one
#: database migrate one after the other (a transaction-scoped advisory lock; its key spells "piquet" in ASCII).
POSTGRES = Dialect("postgresql", {"json": "JSON", "float": "DOUBLE PRECISION", "bigint": "BIGINT"},
                   lock="SELECT pg_advisory_xact_lock(112105113117101116)", row_lock=" FOR UPDATE")


@dataclass(frozen=True)
class Migration:
    """One step of the layout: its number (one more than the last), what it does in a few words, its statements."""

    number: int
    title: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "tables and their actions", (
        """CREATE TABLE IF NOT EXISTS tables (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            variant TEXT NOT NULL,
            options {json} NOT NULL,
            level INTEGER,
            players {json} NOT NULL,
            tokens {json} NOT NULL,
            spectate TEXT NOT NULL,
            computer INTEGER,
            created {float} NOT NULL,
            invite TEXT,
            moves {json} NOT NULL DEFAULT '[null, null]',
            seed {bigint},
            takebacks TEXT NOT NULL DEFAULT 'fair',
            taken_back {json} NOT NULL DEFAULT '[]',
            budget {float},
            tutor {float},
            version {bigint} NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE IF NOT EXISTS actions (
            table_id TEXT NOT NULL REFERENCES tables(id),
            idx INTEGER NOT NULL,
            action {json} NOT NULL,
            PRIMARY KEY (table_id, idx)
        )""",
    )),
    Migration(2, "finished parties", (
        # One row a finished partie, written when it ends: its History line without replaying its actions.
        """CREATE TABLE IF NOT EXISTS results (
            table_id TEXT PRIMARY KEY REFERENCES tables(id),
            finished {float} NOT NULL,
            result {json} NOT NULL
        )""",
    )),
    Migration(3, "finished parties reviewed by phase", (
        # One row a seat of a finished partie, written once its review is made (in the server's worker processes):
        # what the player lost in each phase of the deal, for the Progress plots. ``method`` names how it was
        # reviewed; a row of another method is made again.
        """CREATE TABLE IF NOT EXISTS phase_reviews (
            table_id TEXT NOT NULL REFERENCES tables(id),
            seat INTEGER NOT NULL,
            method TEXT NOT NULL,
            reviewed {float} NOT NULL,
            summary {json} NOT NULL,
            PRIMARY KEY (table_id, seat)
        )""",
    )),
    Migration(4, "public rooms", (
        # Whether a room is listed in the lobby (0 or 1: both databases read it), and when its table last changed
        # (made, joined, an action, a takeback): a listed room with no change for a while is abandoned.
        "ALTER TABLE tables ADD COLUMN public INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE tables ADD COLUMN changed {float}",
        # The lobby reads the public rooms changed lately, and no other table.
        "CREATE INDEX IF NOT EXISTS tables_public ON tables (changed) WHERE public = 1",
    )),
)

#: Which migrations a database has applied, and when.
SCHEMA_VERSION = """CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    applied {float} NOT NULL
)"""


class SchemaTooNew(Exception):
    """The database was brought to a migration this release does not know (a newer release wrote it)."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(f"its layout is at migration {found}, and this release of piquet knows migrations up to "
                         f"{known} only: a newer release wrote it; run that release (or newer)")
        self.found = found
        self.known = known


class Cursor(Protocol):
    """What a statement gives back (sqlite3's cursor, psycopg's)."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


#: Runs one statement (``?`` for each parameter) in the caller's transaction.
Execute = Callable[..., Cursor]


def check_order(migrations: Sequence[Migration]) -> None:
    """Migrations are numbered 1, 2, 3... in order, with no gap."""
    numbers = [m.number for m in migrations]
    if numbers != list(range(1, len(numbers) + 1)):
        raise ValueError(f"migrations are numbered from 1 without a gap, not {numbers}")


def migrate(execute: Execute, dialect: Dialect, migrations: Sequence[Migration] = MIGRATIONS) -> list[int]:
    """Bring the database to the last of ``migrations``, in the caller's transaction (which commits them all with
    their numbers, or none); the numbers applied. :class:`SchemaTooNew` if the database is past them."""
    check_order(migrations)
    if dialect.lock is not None:
        execute(dialect.lock)
    execute(dialect.render(SCHEMA_VERSION))
    row = execute("SELECT MAX(version) FROM schema_version").fetchone()
    current = int(row[0]) if row is not None and row[0] is not None else 0
    if current > len(migrations):
        raise SchemaTooNew(current, len(migrations))
    applied = []
    for migration in migrations[current:]:
        for statement in migration.statements:
            execute(dialect.render(statement))
        execute("INSERT INTO schema_version (version, title, applied) VALUES (?, ?, ?)",
                (migration.number, migration.title, time.time()))
        applied.append(migration.number)
    return applied
