"""Which ``piquet serve`` process holds a table, when several serve one PostgreSQL database (``docs/deploy.md``).

A table is played in the memory of one process at a time: the process that holds its **ownership**, a
PostgreSQL session-level advisory lock on the table (:func:`lock_key` of its id), taken on a connection of its
own that the process keeps open for nothing else (:class:`Owners`). A process loads a table only once it holds its
lock, and gives the lock back when it forgets the table (nobody at it, nothing moving).

Why a session's advisory lock rather than a lease row: PostgreSQL releases a session's locks the moment the session
ends, so when a process dies (killed, its machine gone: the server's TCP keepalives end the session) its tables
are free at once, with no expiry to wait for and no clock to trust; a lease would have to be renewed by every
owner continually and would leave a dead owner's tables unplayable until it expired. The lock is on a connection
of its own because the store's connections are a pool, lent to one call after another: a session lock taken on
one would be held by whichever call borrowed it next.

Holding the lock is checked again where it matters: every write that changes a table (an action, a takeback, a
seat) first locks the table's row, then checks in the same transaction that this process's lock session still
holds the table's lock (:meth:`Owners.held_by_me`, run by the store), or writes nothing; and a process taking a
table over reads it with its row locked (a write of the old owner still in flight is committed, or refused,
before it is read). A process whose lock connection fails (:meth:`Owners.check`, every
:data:`HEARTBEAT` seconds) can no longer prove it owns anything: it drops every table (closing their
connections with the close code :data:`CLOSE_ELSEWHERE`, after which a client reconnects) and opens a new lock
connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import socket
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when a lock connection is made (the postgres extra): SQLite needs none of it
    import psycopg

__all__ = ["CLOSE_ELSEWHERE", "HEARTBEAT", "TAKEOVER_WAIT", "Owners", "OwnershipLost", "lock_key"]

#: The WebSocket close code (and, over HTTP, a 503 with ``Retry-After``) of a table another process holds: the
#: client reconnects (through the proxy, which routes it to the table's process).
CLOSE_ELSEWHERE = 4409
#: Seconds between two checks that the lock connection still answers.
HEARTBEAT = 1.0
#: Seconds the lock connection waits for the database (a connection attempt, an answer) before it is given up.
LOCK_TIMEOUT = 5
#: Seconds a process asking for a table another holds tries again before it says so: long enough for PostgreSQL to
#: end the session of a process that has just died (its locks then free), short enough for a client to wait.
TAKEOVER_WAIT = 3.0
#: Seconds between two tries.
TAKEOVER_STEP = 0.1
#: The channel (LISTEN/NOTIFY) of what crosses processes: ``give <table id>`` (a process asks the holder of a table
#: for it), ``ended <table id>`` (a table's partie ended: every process's History finds its line in the store) and
#: ``lobby <table id>`` (a public room opened, filled or ended: every process's lobby reads its list again).
CHANNEL = "piquet_tables"

#: The key space of the tables' locks: the high half of the 64-bit key, so that no other advisory lock of the
#: database (the migrations' key spells "piquet") is mistaken for a table's.
_SPACE = 0x7069  # "pi"


def lock_key(table_id: str) -> int:
    """The advisory lock's key of the table ``table_id``: a signed 64-bit integer, the same in every process.

    >>> lock_key("abc") == lock_key("abc"), lock_key("abc") == lock_key("abd")
    (True, False)
    """
    digest = int.from_bytes(hashlib.blake2b(table_id.encode(), digest_size=6).digest(), "big")
    return (_SPACE << 48) | digest


def halves(key: int) -> tuple[int, int]:
    """``key`` as ``pg_locks`` shows an advisory lock on one bigint: ``classid`` (high 32 bits), ``objid`` (low)."""
    return (key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF


class OwnershipLost(RuntimeError):
    """The lock connection failed: this process holds no table any more."""


class Owners:
    """The tables this process holds, as advisory locks on a connection of its own to ``url``.

    Calls are made one at a time (a lock), each a short statement; the server makes them off its event loop.
    ``name``: how the connection shows in ``pg_stat_activity`` (its ``application_name``), with the process's
    host and id, so that an administrator can see which process holds which table (``docs/deploy.md``).
    ``on_lost(table_ids)`` is told the tables given up when the lock connection fails (from the calling thread)."""

    def __init__(self, url: str, name: str | None = None) -> None:
        self.url = url
        self.name = name or f"piquet serve {socket.gethostname()} {os.getpid()}"
        self._lock = threading.Lock()
        self.held: set[str] = set()
        self.on_lost: Callable[[set[str]], None] | None = None
        self._connection: psycopg.Connection[Any] | None = None
        self.backend: int | None = None  # the lock session's server process (pg_locks.pid)
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="piquet-owners")
        #: Seconds :meth:`take` tries a table another process holds before it gives up.
        self.takeover_wait = TAKEOVER_WAIT
        self._closed = False
        #: Told (from the listening thread) a table this process holds that another process asks for.
        self.on_give: Callable[[str], None] | None = None
        #: Told (from the listening thread) a table whose partie ended in any process (:meth:`announce_end`).
        self.on_ended: Callable[[str], None] | None = None
        #: Told (from the listening thread) a public room that changed in any process (:meth:`announce`).
        self.on_lobby: Callable[[str], None] | None = None
        self._listener: threading.Thread | None = None
        self.listening = threading.Event()
        self._connect()

    def _connect(self) -> None:
        import psycopg

        connection = psycopg.connect(self.url, autocommit=True, application_name=self.name[:63],
                                     connect_timeout=LOCK_TIMEOUT, keepalives=1, keepalives_idle=5,
                                     keepalives_interval=2, keepalives_count=3)
        connection.execute(f"SET statement_timeout = {LOCK_TIMEOUT * 1000}")
        # And the server's side of the same: a process whose machine vanishes (no connection closed) has its session
        # ended, and its tables freed, within about 11 s (over TCP; a local socket's end is seen at once).
        for setting, value in (("idle", 5), ("interval", 2), ("count", 3)):
            connection.execute(f"SET tcp_keepalives_{setting} = {value}")
        self._connection, self.backend = connection, connection.info.backend_pid

    def _lose(self) -> set[str]:
        """Forget the lock connection and every table: the ones that were held."""
        lost, self.held = self.held, set()
        if self._connection is not None:
            self._connection.close()
        self._connection = self.backend = None
        return lost

    def _call(self, statement: str, parameters: tuple[Any, ...]) -> Any:
        """One statement on the lock connection (connected again if it was lost); :class:`OwnershipLost` if it
        fails, every table given up."""
        import psycopg

        try:
            if self._connection is None:
                self._connect()
            assert self._connection is not None
            row = self._connection.execute(statement, parameters).fetchone()
            return None if row is None else row[0]
        except psycopg.Error as e:
            lost = self._lose()
            if lost and self.on_lost is not None:
                self.on_lost(lost)
            raise OwnershipLost(f"the lock connection failed: {str(e).strip() or type(e).__name__}") from None

    def acquire(self, table_id: str) -> bool:
        """Take the table's lock if no other process holds it; whether this process holds it now."""
        with self._lock:
            if table_id in self.held:
                return True
            if self._call("SELECT pg_try_advisory_lock(%s)", (lock_key(table_id),)):
                self.held.add(table_id)
                return True
            return False

    def release(self, table_id: str) -> None:
        """Give the table's lock back (it is forgotten here); nothing if it was not held."""
        with self._lock:
            if table_id not in self.held:
                return
            self.held.discard(table_id)
            with contextlib.suppress(OwnershipLost):  # the session is gone, and its locks with it
                self._call("SELECT pg_advisory_unlock(%s)", (lock_key(table_id),))

    def check(self) -> None:
        """Nothing if the lock connection answers; else :class:`OwnershipLost` (every table given up, ``on_lost``
        told them), and the next call connects again."""
        with self._lock:
            if self._connection is not None or self.held:
                self._call("SELECT 1", ())

    def ask(self, table_id: str) -> None:
        """Ask the process that holds the table to give it back (a ``NOTIFY`` on :data:`CHANNEL`): the proxy
        routes the table's requests here now (this process is back, or the other one was passed over)."""
        with self._lock:
            self._call("SELECT pg_notify(%s, %s)", (CHANNEL, f"give {table_id}"))

    def tell_end(self, table_id: str) -> None:
        """Tell every process (this one too) that the table's partie ended: a ``NOTIFY`` on :data:`CHANNEL`."""
        self.tell("ended", table_id)

    def tell(self, kind: str, table_id: str) -> None:
        """Tell every process (this one too) ``kind`` (``ended``, ``lobby``) of the table: a ``NOTIFY`` on
        :data:`CHANNEL`."""
        with self._lock:
            self._call("SELECT pg_notify(%s, %s)", (CHANNEL, f"{kind} {table_id}"))

    def announce_end(self, table_id: str) -> asyncio.Future[None]:
        """:meth:`tell_end`, off the event loop (queued at once); a lock connection that fails is told nothing."""
        return self.announce("ended", table_id)

    def announce(self, kind: str, table_id: str) -> asyncio.Future[None]:
        """:meth:`tell`, off the event loop (queued at once); a lock connection that fails is told nothing."""
        loop = asyncio.get_running_loop()

        def tell() -> None:
            with contextlib.suppress(OwnershipLost):
                self.tell(kind, table_id)

        if self._closed:
            done: asyncio.Future[None] = loop.create_future()
            done.set_result(None)
            return done
        return loop.run_in_executor(self._thread, tell)

    def listen(self) -> None:
        """Hear, on a connection of its own, the other processes asking for tables (:meth:`ask`): a table held
        here is told to ``on_give``. Until :meth:`close`; the connection made again if it fails."""
        self._listener = threading.Thread(target=self._listen, name="piquet-owners-listen", daemon=True)
        self._listener.start()

    def _listen(self) -> None:
        import psycopg

        while not self._closed:
            try:
                with psycopg.connect(self.url, autocommit=True, application_name=f"{self.name} listen"[:63],
                                     connect_timeout=LOCK_TIMEOUT) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    while not self._closed:
                        for note in connection.notifies(timeout=HEARTBEAT):
                            kind, _, table_id = note.payload.partition(" ")
                            if kind == "give" and table_id in self.held and self.on_give is not None:
                                self.on_give(table_id)
                            elif kind == "ended" and self.on_ended is not None:
                                self.on_ended(table_id)
                            elif kind == "lobby" and self.on_lobby is not None:
                                self.on_lobby(table_id)
            except psycopg.Error:
                self.listening.clear()
                if not self._closed:
                    threading.Event().wait(HEARTBEAT)  # the database is away: ask again in a moment

    def held_by_me(self, execute: Callable[..., Any], table_id: str) -> bool:
        """Whether this process's lock session holds the table's lock, asked in the caller's transaction
        (``execute``: a store's, on any of its connections)."""
        backend = self.backend
        if backend is None or table_id not in self.held:
            return False
        high, low = halves(lock_key(table_id))
        row = execute("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = ? AND classid = ? "
                      "AND objid = ? AND objsubid = 1", (backend, high, low)).fetchone()
        return row is not None

    def lost(self, table_id: str) -> None:
        """The table was found not held by this process (:meth:`held_by_me`): it is given up here (``on_lost``)."""
        with self._lock:
            self.held.discard(table_id)
        if self.on_lost is not None:
            self.on_lost({table_id})

    # ------------------------------------------------------------ as the server awaits them (off its event loop)
    async def take(self, table_id: str) -> bool:
        """:meth:`acquire`, tried again for up to :attr:`takeover_wait` seconds while another process holds the
        table (a process that has just died holds it until PostgreSQL ends its session); whether it is held now.
        :class:`OwnershipLost` if the lock connection fails."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.takeover_wait
        asked = False
        while not await loop.run_in_executor(self._thread, self.acquire, table_id):
            if not asked:  # a live holder gives it back (its clients connect again, and come here)
                await loop.run_in_executor(self._thread, self.ask, table_id)
                asked = True
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(TAKEOVER_STEP)
        return True

    def give_back(self, table_id: str) -> asyncio.Future[None]:
        """:meth:`release`, off the event loop, queued at once: the calls on the lock connection are made in the
        order they are asked for (a table given back, then taken again, is held)."""
        loop = asyncio.get_running_loop()
        if self._closed:  # the server is stopping: its session ends, and its locks with it
            done: asyncio.Future[None] = loop.create_future()
            done.set_result(None)
            return done
        return loop.run_in_executor(self._thread, self.release, table_id)

    async def watch(self) -> None:
        """:meth:`check` every :data:`HEARTBEAT` seconds, until cancelled (a failure tells ``on_lost``, and the next
        check connects again)."""
        loop = asyncio.get_running_loop()
        while True:
            with contextlib.suppress(OwnershipLost):  # told on_lost; the next check connects again
                await loop.run_in_executor(self._thread, self.check)
            await asyncio.sleep(HEARTBEAT)

    def close(self) -> None:
        self._closed = True
        if self._listener is not None:
            self._listener.join(HEARTBEAT + LOCK_TIMEOUT)
        self._thread.shutdown(wait=True)
        with self._lock:
            self._lose()
