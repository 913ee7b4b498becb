"""One connection at a table, and how the table writes to it without ever waiting for it.

A :class:`Client` is a WebSocket's seat (or a spectator) at one table. The table queues a message for it and
goes on; the client's own writer task sends its messages in order. States are complete, so a client behind is
sent only the newest; a client that cannot keep up is dropped, never waited for (``docs/security.md``).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable

__all__ = ["CLIENT_QUEUE", "SEND_TIMEOUT", "Client"]

log = logging.getLogger("piquet.ui.web")

#: Seconds a client's connection may take to accept one message before the client is dropped.
SEND_TIMEOUT = 10.0
#: Messages other than states (errors, hints) that may wait for one client; a client further behind is dropped.
CLIENT_QUEUE = 32


class Client:
    """One connection at a table: the seat its token holds (``None``: a spectator) and how to send it text.

    Nothing the table does waits on a client: :meth:`post` queues a message and returns, and the client's own
    writer task sends them in order, each within :data:`SEND_TIMEOUT` seconds. States are complete, so a client
    behind is sent only the latest one; of the other messages (errors, hints) at most :data:`CLIENT_QUEUE` may
    wait. A client that cannot keep up is dropped (``on_drop`` is called: the server closes its socket), never
    waited for.

    ``invite`` is the invite a room's guest came with, until he joins; ``hang_up`` ends the connection with a
    code and a reason (when an invite is spent by someone else, or the seat moved to another device).
    """

    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]],
                 on_drop: Callable[[Client, str], None] | None = None,
                 hang_up: Callable[[int, str], Awaitable[None]] | None = None, invite: str | None = None,
                 lang: str = "en", address: str = "") -> None:
        self.seat = seat
        self.lang = lang
        #: The client's address (its network's, for the fair turns of the hints).
        self.address = address
        self.send = send
        self.on_drop = on_drop
        self.hang_up = hang_up
        self.invite = invite
        self.dropped = False
        self._queue: deque[tuple[int | None, str]] = deque()  # (a state's deal, None else; text), oldest first
        self._ready = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None

    def post(self, text: str, state: bool = False, deal: int = 0) -> None:
        """Queue ``text`` for the client; never waits. A ``state`` (of the deal numbered ``deal``) replaces a state of
        the same deal still waiting: a slow reader is sent the latest, but never misses a deal's last state, the
        one that holds the deal's whole talk (the page keeps it when the next deal begins)."""
        if self.dropped:
            return
        queue = self._queue
        if state:
            for i, (of_deal, _) in enumerate(queue):
                if of_deal == deal:
                    del queue[i]
                    break
        elif sum(1 for of_deal, _ in queue if of_deal is None) >= CLIENT_QUEUE:
            self.drop(f"more than {CLIENT_QUEUE} messages waiting for it")
            return
        queue.append((deal if state else None, text))
        self._ready.set()
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        while not self.dropped:
            if not self._queue:
                self._ready.clear()
                await self._ready.wait()
                continue
            _, text = self._queue.popleft()
            try:
                async with asyncio.timeout(SEND_TIMEOUT):  # no task of its own a message, as wait_for makes one
                    await self.send(text)
            except TimeoutError:
                self.drop(f"a message not taken in {SEND_TIMEOUT:g} s")
            except Exception:  # the connection is gone
                self.drop("its connection closed")

    def drop(self, reason: str) -> None:
        """Stop sending to the client and tell the server (which closes its socket)."""
        if self.dropped:
            return
        self.dropped = True
        self._queue.clear()
        self._ready.set()
        log.info("dropped a client: %s", reason)
        if self.on_drop is not None:
            self.on_drop(self, reason)

    def close(self) -> None:
        """The connection ended: stop the writer."""
        self.dropped = True
        self._queue.clear()
        if self._writer is not None and self._writer is not asyncio.current_task():
            self._writer.cancel()

