"""The lobby's list of public rooms (``GET /api/lobby``): the rooms a club's players chose to list, for anyone to join
or watch (``docs/playing.md``, "Public rooms"; ``docs/protocol.md``).

A room is listed while its partie has not ended and it has changed (been made, joined, played) within
:data:`LISTED_SECONDS`: a room ended or abandoned leaves the list. The list comes from the store, so that every
process serving one database lists the same rooms; each process keeps the list it read and reads it again when a
public room opens, fills or ends (told here, or by another process over PostgreSQL's ``NOTIFY``:
:meth:`piquet.ui.web.owners.Owners.announce`), or after :data:`STALE_SECONDS` (a room abandoned leaves it).

The work a client can make the server do is bounded whatever it asks: the list holds at most :data:`MAX_LISTED`
rooms, in pages of :data:`PAGE_SIZE`, read from the store at most once in :data:`REFRESH_SECONDS` however many ask
and however often rooms change; each page's answer and its ``ETag`` are made once a reading, and a client that
holds the page already is answered ``304 Not Modified``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from piquet.ui.web.api_types import LobbyPage, PublicRoom
from piquet.ui.web.store import AsyncStore, Listed

__all__ = ["LISTED_SECONDS", "MAX_LISTED", "PAGE_SIZE", "REFRESH_SECONDS", "STALE_SECONDS", "Lobby", "LobbyAnswer",
           "public_room"]

#: Rooms a page of the list holds.
PAGE_SIZE = 20
#: The most rooms the list holds (the newest): beyond, a room is not listed until others leave.
MAX_LISTED = 200
#: Seconds a public room stays listed with no change (nobody joined, nothing played): it is abandoned then.
LISTED_SECONDS = 3600.0
#: The fewest seconds between two readings of the list from the store, however often rooms change.
REFRESH_SECONDS = 1.0
#: The most seconds a process answers with the list it read without reading it again.
STALE_SECONDS = 30.0


def public_room(row: Listed) -> PublicRoom:
    """A listed room as the lobby shows it: never a seat's secret nor the invite; its watch link, since anyone may
    watch a public room."""
    return {"id": row.id, "variant": row.variant, "options": row.options, "players": list(row.players),
            "status": "waiting" if row.players[1] is None else "playing", "created": row.created,
            "watch": f"/t/{row.id}#spectate={row.spectate}"}


@dataclass(frozen=True)
class LobbyAnswer:
    """One page of the list as it is sent: its body (JSON) and its ``ETag``."""

    body: bytes
    etag: str


class Lobby:
    """The list of public rooms of one process: read from ``store``, at most once a :data:`REFRESH_SECONDS`, and
    kept until a room changes (:meth:`changed`, :meth:`heard`) or :data:`STALE_SECONDS` pass. ``announce`` tells
    the other processes a public room that changed here (``None``: this process is the only one)."""

    def __init__(self, store: AsyncStore, announce: Callable[[str], object] | None = None,
                 clock: Callable[[], float] = time.monotonic, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.announce = announce
        self.clock = clock
        self.now = now
        #: Moved on by one at each change heard of: the list read at an older one is read again.
        self.generation = 0
        self._read_at: float | None = None  # when the list was last read (the clock's time)
        self._read_generation = -1
        self._pages: list[LobbyAnswer] = []
        self._lock: asyncio.Lock | None = None
        #: Readings of the store so far (the bound on the work is tested by it).
        self.readings = 0

    def changed(self, table_id: str) -> None:
        """A public room opened, filled or ended in this process: read the list again, and tell the others."""
        self.generation += 1
        if self.announce is not None:
            self.announce(table_id)

    def heard(self, _table_id: str = "") -> None:
        """A public room changed in another process (its ``NOTIFY``): read the list again."""
        self.generation += 1

    def _fresh(self) -> bool:
        if self._read_at is None:
            return False
        age = self.clock() - self._read_at
        return age < REFRESH_SECONDS or (self._read_generation == self.generation and age < STALE_SECONDS)

    async def page(self, number: int) -> LobbyAnswer:
        """The page ``number`` (from 0) of the list: ``ValueError`` for one past :data:`MAX_LISTED` rooms; an empty
        page past the rooms listed now."""
        if not 0 <= number < MAX_LISTED // PAGE_SIZE:
            raise ValueError(f"page: the list's pages are 0 to {MAX_LISTED // PAGE_SIZE - 1}, not {number}")
        if not self._fresh():
            if self._lock is None:
                self._lock = asyncio.Lock()
            async with self._lock:  # one reading at a time: those who wait take the list it read
                if not self._fresh():
                    await self._read()
        if number < len(self._pages):
            return self._pages[number]
        return self._answer([], number, len(self._pages))

    async def _read(self) -> None:
        generation = self.generation
        rows = await self.store.listed(self.now() - LISTED_SECONDS, MAX_LISTED)
        self.readings += 1
        rooms = [public_room(row) for row in rows]
        chunks = [rooms[i:i + PAGE_SIZE] for i in range(0, len(rooms), PAGE_SIZE)] or [[]]
        self._pages = [self._answer(chunk, n, len(chunks)) for n, chunk in enumerate(chunks)]
        self._read_at, self._read_generation = self.clock(), generation

    @staticmethod
    def _answer(rooms: list[PublicRoom], number: int, pages: int) -> LobbyAnswer:
        page: LobbyPage = {"rooms": rooms, "page": number, "pages": pages, "page_size": PAGE_SIZE}
        body = json.dumps(page, separators=(",", ":")).encode()
        return LobbyAnswer(body, '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"')
