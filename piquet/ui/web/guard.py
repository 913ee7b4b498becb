"""The server's guards at the socket: limits that keep clients, one or many, from stalling the others
(``docs/security.md``).

``piquet serve`` runs uvicorn with the two protocol classes made here (:func:`guarded_protocols`), every socket with
``TCP_NODELAY`` (a message is sent at once, never held back waiting for the client's acknowledgement of the one
before).

- Connections are counted in all (:data:`MAX_CONNECTIONS`), by address (:data:`MAX_CONNECTIONS_PER_ADDRESS`) and by
  network (:func:`prefix_of`: an IPv4 /24, an IPv6 /64; :data:`MAX_CONNECTIONS_PER_PREFIX`), and new ones by address
  and by network a second, as the listening socket accepts them (:class:`Listener`); past a limit a new connection is
  answered 503 and closed there, before anything is made for it. When the connections near the cap
  (:data:`EVICT_AT`), a new connection makes room: the oldest connection that has not finished a request (nor
  become a WebSocket) of the network holding the most such is closed, and a network that holds
  :data:`UNFINISHED_NEAR_CAP` such already, or one of whose was closed to make room lately (:data:`EVICTED_WAIT`), is
  refused instead: a flood of slow connections cannot keep a new visitor out, nor make the server close and accept
  its connections without end. A connection whose request is not
  complete :data:`REQUEST_TIMEOUT` seconds after the connection or the previous answer is closed ("slowloris").
- A WebSocket's frames are read by their header before the WebSocket library parses them:

  - a frame over :data:`MAX_FRAME` bytes is never buffered: its payload is skipped as it arrives and the client is
    answered with the protocol's ``too_large`` error, the socket kept open;
  - every frame costs a token from the connection's bucket (:data:`MESSAGES_PER_SECOND`), its address's and its
    network's; a client out of tokens is closed with :data:`CLOSE_FLOOD` and the rest of what it sent is never
    parsed, so a burst of 100,000 tiny frames costs the server a few hundred of them;
  - the frames of all the connections together have a budget a second (:data:`FRAMES_PER_SECOND`, and
    :data:`BYTES_PER_SECOND` of their bytes): the seated players' frames, at a household's pace
    (:data:`SEATED_FRAMES_PER_SECOND_PER_ADDRESS`, and by network), never wait for it; once it is spent, every other
    connection waits, unread (TCP holds back its sender), and the waiting connections are read by turns, a few
    frames each, as it refills. So many addresses, each within its own limits, cannot take the server's time from
    the game.

- The application may drop a client that does not read (``scope["piquet.abort"]``): the socket is aborted, with no
  closing handshake to wait for; and marks a seated player's connection (``scope["piquet.seated"]``).

Behind a reverse proxy every connection comes from the proxy: a proxy named as trusted (``piquet serve
--trust-proxy``) is exempt from the limits by address, and the client's address is taken from the
``X-Forwarded-For`` header it sets (the last address in it that is not itself a trusted proxy), for the
application's limits and for each WebSocket's; from any other peer that header is ignored. Every limit is a named
constant here (their values are in ``docs/security.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import json
import logging
import math
import resource
import socket
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import parse_qs

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from piquet.engine.language import LANGUAGES
from piquet.ui.web import logs
from piquet.ui.web.limits import TokenBucket, prefix_of
from piquet.ui.web.protocol import MAX_MESSAGE, ProtocolError

__all__ = [
    "CLOSE_FLOOD",
    "ConnectionLedger",
    "Forwarded",
    "TokenBucket",
    "guarded_protocols",
    "prefix_of",
    "server_config",
]

log = logging.getLogger("piquet.ui.web")

#: The most bytes a WebSocket frame may carry (a message of :data:`MAX_MESSAGE` characters is at most four
#: bytes a character); larger frames are skipped unread and answered with ``too_large``.
MAX_FRAME = 4 * MAX_MESSAGE
#: Frames (messages, pings, anything) one connection may send a second, on average, and in a burst.
MESSAGES_PER_SECOND = 30.0
MESSAGE_BURST = 60.0
#: Frames all the connections of one address may send a second, on average, and in a burst.
MESSAGES_PER_SECOND_PER_ADDRESS = 120.0
MESSAGE_BURST_PER_ADDRESS = 240.0
#: Frames all the connections of one network (:func:`prefix_of`) may send a second, on average, and in a burst.
MESSAGES_PER_SECOND_PER_PREFIX = 480.0
MESSAGE_BURST_PER_PREFIX = 960.0
#: Frames, and their bytes, all the connections together are read a second (beyond a seated player's own), on
#: average and in a burst: the server's time for anything but the game. Past them, the busiest networks wait.
FRAMES_PER_SECOND = 1000.0
FRAME_BURST = 2000.0
BYTES_PER_SECOND = 4 * 1024 * 1024.0
BYTE_BURST = 8 * 1024 * 1024.0
#: The seated players' frames that pass before anything else, a second and at once, of one address and of one
#: network (the players of a household, at a person's pace; beyond, their frames are read as any other's).
SEATED_FRAMES_PER_SECOND_PER_ADDRESS = 10.0
SEATED_FRAME_BURST_PER_ADDRESS = 30.0
SEATED_FRAMES_PER_SECOND_PER_PREFIX = 40.0
SEATED_FRAME_BURST_PER_PREFIX = 120.0
#: Frames a waiting connection is read at its turn, once the shared budget has refilled: the waiting connections
#: are read by turns, a few frames each, every TURN_SECONDS.
FRAMES_A_TURN = 4
TURN_SECONDS = 0.02
#: Bytes of a waiting connection held unread at most; past them it is closed as a flood.
MAX_HELD = 1024 * 1024
#: The close code of a connection that sent more than its buckets allow (4429: as HTTP's 429, too many requests).
CLOSE_FLOOD = 4429
#: Seconds a connection closed for flooding is read (and what it sends thrown away) before it is cut.
FLOOD_LINGER = 2.0
#: Connections open at once, in all, from one address and from one network.
MAX_CONNECTIONS = 4096
MAX_CONNECTIONS_PER_ADDRESS = 32
MAX_CONNECTIONS_PER_PREFIX = 256
#: The share of :data:`MAX_CONNECTIONS` from which a new connection makes room by closing the oldest connection
#: that has not finished a request; but a network that holds this many such already is refused instead (a browser
#: opens a few at once).
EVICT_AT = 0.9
UNFINISHED_NEAR_CAP = 8
#: Seconds a network one of whose connections was closed to make room is refused near the cap, rather than make room
#: in turn: slow networks would otherwise close one another's connections, each opened again at once, without end.
EVICTED_WAIT = 10.0
#: New connections one address may open a second, on average, and in a burst; and one network.
CONNECTIONS_PER_SECOND_PER_ADDRESS = 10.0
CONNECTION_BURST_PER_ADDRESS = 60.0
CONNECTIONS_PER_SECOND_PER_PREFIX = 40.0
CONNECTION_BURST_PER_PREFIX = 240.0
#: Seconds a client has to send a whole HTTP request (headers and body), from its connection or the
#: previous answer.
REQUEST_TIMEOUT = 10.0
#: Seconds an HTTP connection may stay open between requests (uvicorn's ``timeout_keep_alive``).
KEEP_ALIVE_TIMEOUT = 5
#: The server pings each WebSocket this often, and closes it if the pong is not back in this time.
PING_INTERVAL = 20.0
PING_TIMEOUT = 20.0
#: File descriptors kept free for the store, the logs and the server's own files (below ``RLIMIT_NOFILE``).
RESERVED_FILES = 128


class _Address:
    """An address's or a network's count of connections and its buckets."""

    __slots__ = ("connections", "evicted", "messages", "opened", "seated")

    def __init__(self, now: float, network: bool = False) -> None:
        self.connections = 0
        self.evicted = -math.inf  # when a connection of its (a network's) was last closed to make room
        if network:
            self.opened = TokenBucket(CONNECTIONS_PER_SECOND_PER_PREFIX, CONNECTION_BURST_PER_PREFIX, now)
            self.messages = TokenBucket(MESSAGES_PER_SECOND_PER_PREFIX, MESSAGE_BURST_PER_PREFIX, now)
            self.seated = TokenBucket(SEATED_FRAMES_PER_SECOND_PER_PREFIX, SEATED_FRAME_BURST_PER_PREFIX, now)
        else:
            self.opened = TokenBucket(CONNECTIONS_PER_SECOND_PER_ADDRESS, CONNECTION_BURST_PER_ADDRESS, now)
            self.messages = TokenBucket(MESSAGES_PER_SECOND_PER_ADDRESS, MESSAGE_BURST_PER_ADDRESS, now)
            self.seated = TokenBucket(SEATED_FRAMES_PER_SECOND_PER_ADDRESS, SEATED_FRAME_BURST_PER_ADDRESS, now)

    def idle(self, now: float) -> bool:
        return (self.connections == 0 and self.opened.full(now) and self.messages.full(now)
                and self.seated.full(now) and now - self.evicted >= EVICTED_WAIT)


class Forwarded:
    """The reverse proxies trusted to say who their client is (addresses or networks, ``"127.0.0.1"``,
    ``"10.0.0.0/8"``), and how the client's address is read from what one of them forwards."""

    def __init__(self, proxies: Iterable[str] = ()) -> None:
        self.networks = [ipaddress.ip_network(p.strip(), strict=False) for p in proxies if p.strip()]

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusted(self, host: str | None) -> bool:
        if not self.networks or host is None:
            return False
        try:
            address = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return False
        return any(address in network for network in self.networks)

    def client(self, peer: str, headers: Iterable[tuple[bytes, bytes]]) -> str:
        """The client's address: ``peer``'s own, unless ``peer`` is a trusted proxy and its ``X-Forwarded-For``
        header names one (the last address in it that is not a trusted proxy: the one the trusted proxies saw)."""
        if not self.trusted(peer):
            return peer
        forwarded = [value.decode("latin-1") for name, value in headers if name.lower() == b"x-forwarded-for"]
        hops = [hop.strip() for hop in ",".join(forwarded).split(",") if hop.strip()]
        for hop in reversed(hops):
            host = hop[1:hop.index("]")] if hop.startswith("[") and "]" in hop else (
                hop.rsplit(":", 1)[0] if hop.count(":") == 1 else hop)
            try:
                ipaddress.ip_address(host)
            except ValueError:
                return peer  # not an address: the header is not to be believed
            if not self.trusted(host):
                return host
        return peer


class ConnectionLedger:
    """The server's open connections, counted in all, by address and by network, each address's and network's
    buckets, the connections that may be closed to make room, and the budget of frames all the connections share.
    ``forwarded``: the trusted proxies (their connections are not limited by address; their clients are)."""

    def __init__(self, max_connections: int | None = None, clock: Callable[[], float] = time.monotonic,
                 forwarded: Forwarded | None = None) -> None:
        self.max_connections = max_connections if max_connections is not None else connection_limit()
        self.clock = clock
        self.forwarded = forwarded or Forwarded()
        self.open: dict[int, str] = {}  # the connection's descriptor -> its address
        self._addresses: dict[str, _Address] = {}
        self._networks: dict[str, _Address] = {}
        #: Connections that have not finished a request: key -> how to close it; and by network, oldest first.
        self.unfinished: dict[int, Callable[[], None] | None] = {}  # (None: accepted, its protocol not made yet)
        self._unfinished_by_network: dict[str, OrderedDict[int, None]] = {}
        self._unfinished_network: dict[int, str] = {}
        now = clock()
        self.frames = TokenBucket(FRAMES_PER_SECOND, FRAME_BURST, now)
        self.bytes = TokenBucket(BYTES_PER_SECOND, BYTE_BURST, now)
        self.evicted = 0
        #: The connections admitted as they were accepted (:meth:`accept`) whose protocol is not made yet.
        self._accepted: set[int] = set()
        #: The connections waiting for the shared budget, in turn (each is read a few frames, then goes to the back).
        self.waiting: deque[Any] = deque()
        self._turns: asyncio.TimerHandle | None = None

    def wait_turn(self, connection: Any, loop: asyncio.AbstractEventLoop) -> None:
        """``connection`` holds frames the shared budget could not read: it is read at its turn (its ``_turn()``)."""
        self.waiting.append(connection)
        if self._turns is None:
            self._turns = loop.call_later(TURN_SECONDS, self._give_turns, loop)

    def _give_turns(self, loop: asyncio.AbstractEventLoop) -> None:
        """Give the waiting connections their turns, in order, while the shared budget has frames to read."""
        for _ in range(len(self.waiting)):  # (a connection that still holds frames goes to the back: not this time)
            if self.frames.available(self.clock()) < 1:
                break
            self.waiting.popleft()._turn_now()
        self._turns = loop.call_later(TURN_SECONDS, self._give_turns, loop) if self.waiting else None

    def _entry(self, table: dict[str, _Address], key: str, network: bool) -> _Address:
        entry = table.get(key)
        if entry is None:
            if len(table) > 4 * self.max_connections:
                now = self.clock()
                for k in [k for k, e in table.items() if e.idle(now)]:
                    del table[k]
            entry = table[key] = _Address(self.clock(), network)
        return entry

    def address(self, host: str) -> _Address:
        return self._entry(self._addresses, host, False)

    def network(self, host: str) -> _Address:
        return self._entry(self._networks, prefix_of(host), True)

    def admit(self, key: int, host: str) -> str | None:
        """Count a new connection; the reason it is refused (``None``: admitted). A trusted proxy's connection is
        counted in all only (its clients are counted by :meth:`reassign`). Near the cap, a connection from a network
        that already holds :data:`UNFINISHED_NEAR_CAP` connections not finished is refused (let it finish those
        first), and so is one from a network one of whose connections was closed to make room less than
        :data:`EVICTED_WAIT` seconds ago; any other makes room by closing the oldest connection that has not finished
        a request of the network that holds the most such."""
        if len(self.open) >= EVICT_AT * self.max_connections:
            if not self.forwarded.trusted(host):
                held = len(self._unfinished_by_network.get(prefix_of(host), ()))
                if held >= UNFINISHED_NEAR_CAP:
                    return (f"the server is nearly full, and this network holds {UNFINISHED_NEAR_CAP} or more "
                            "connections that have not finished a request")
                network = self._networks.get(prefix_of(host))
                if network is not None and self.clock() - network.evicted < EVICTED_WAIT:
                    return (f"the server is nearly full, and a connection of this network was closed to make room "
                            f"less than {EVICTED_WAIT:g} s ago")
            self._make_room()
        if len(self.open) >= self.max_connections:
            return f"the server holds its most connections ({self.max_connections})"
        if not self.forwarded.trusted(host):
            refusal = self._count(host)
            if refusal is not None:
                return refusal
        self.open[key] = host
        return None

    def accept(self, key: int, host: str) -> str | None:
        """A connection just accepted, its descriptor ``key``, before anything is made for it: admitted as by
        :meth:`admit`; the reason it is refused (``None``: admitted). What the ledger held under ``key`` was of a
        connection closed since (the descriptor is the new one's now)."""
        self.release(key)
        refusal = self.admit(key, host)
        if refusal is None:
            self._accepted.add(key)
            self.unfinished_from(key, None)
        return refusal

    def made(self, key: int, host: str) -> str | None:
        """The protocol of connection ``key`` (its descriptor) is made: admitted as it was accepted (:meth:`accept`),
        or now; the reason it is refused (``None``: admitted)."""
        if key in self._accepted:
            self._accepted.discard(key)
            return None
        self.release(key)  # (a connection closed since under the same descriptor)
        return self.admit(key, host)

    def _count(self, host: str) -> str | None:
        entry, network = self.address(host), self.network(host)
        if entry.connections >= MAX_CONNECTIONS_PER_ADDRESS:
            return f"at most {MAX_CONNECTIONS_PER_ADDRESS} connections from one address"
        if network.connections >= MAX_CONNECTIONS_PER_PREFIX:
            return f"at most {MAX_CONNECTIONS_PER_PREFIX} connections from one network"
        now = self.clock()
        if entry.opened.available(now) < 1:
            return f"at most {CONNECTIONS_PER_SECOND_PER_ADDRESS:g} new connections a second from one address"
        if network.opened.available(now) < 1:
            return f"at most {CONNECTIONS_PER_SECOND_PER_PREFIX:g} new connections a second from one network"
        entry.opened.take(now)
        network.opened.take(now)
        entry.connections += 1
        network.connections += 1
        return None

    def _uncount(self, host: str) -> None:
        if self.forwarded.trusted(host):
            return
        for table, key in ((self._addresses, host), (self._networks, prefix_of(host))):
            entry = table.get(key)
            if entry is not None:
                entry.connections -= 1

    def reassign(self, key: int, host: str) -> str | None:
        """A connection of a trusted proxy is a client's (``host``, from the header the proxy set): count it as his;
        the reason it is refused (``None``: counted)."""
        previous = self.open.get(key)
        if previous is None or previous == host:
            return None
        refusal = self._count(host)
        if refusal is None:
            self._uncount(previous)
            self.open[key] = host
        return refusal

    def _make_room(self) -> None:
        """Close the oldest connection that has not finished a request of the network that holds the most such, if
        there is one (a new visitor's own is never the one closed while slow connections hold more)."""
        while self._unfinished_by_network:
            keys = max(self._unfinished_by_network.values(), key=len)
            key = next((k for k in keys if self.unfinished[k] is not None), None)
            if key is None:  # all just accepted (a burst of them): none can be closed yet
                return
            close, network = self.unfinished[key], self._unfinished_network[key]
            assert close is not None
            self.finished(key)
            if key in self.open:
                self._entry(self._networks, network, True).evicted = self.clock()
                self.evicted += 1
                log.info("closed a connection from %s that had not finished its request, to make room",
                         self.open.get(key))
                self.release(key)  # its room is free now, not once the loop has seen it close
                close()
                return

    def unfinished_from(self, key: int, close: Callable[[], None] | None) -> None:
        """The connection ``key`` has no request finished (just made, or between two requests): it may be closed to
        make room, by ``close`` (``None``: just accepted, it counts for its network but cannot be closed yet)."""
        if key not in self.unfinished:
            network = prefix_of(self.open.get(key, ""))
            self._unfinished_network[key] = network
            self._unfinished_by_network.setdefault(network, OrderedDict())[key] = None
        self.unfinished[key] = close

    def finished(self, key: int) -> None:
        """The connection ``key`` finished a request, or became a WebSocket: it is not closed to make room."""
        if key in self.unfinished:
            del self.unfinished[key]
            network = self._unfinished_network.pop(key)
            keys = self._unfinished_by_network[network]
            del keys[key]
            if not keys:
                del self._unfinished_by_network[network]

    def release(self, key: int) -> None:
        self.finished(key)
        self._accepted.discard(key)
        host = self.open.pop(key, None)
        if host is not None:
            self._uncount(host)

    def connections_from(self, host: str) -> int:
        entry = self._addresses.get(host)
        return entry.connections if entry is not None else 0


def connection_limit() -> int:
    """:data:`MAX_CONNECTIONS`, lowered to keep :data:`RESERVED_FILES` descriptors under the soft ``RLIMIT_NOFILE``."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(1, min(MAX_CONNECTIONS, soft - RESERVED_FILES))


def raise_file_limit() -> None:
    """Lift the soft limit on open files to the hard one (the server counts its connections below it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def _host(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    if isinstance(peer, tuple) and peer:
        return str(peer[0])
    return "unix" if peer else "unknown"


def _key(transport: asyncio.BaseTransport) -> int:
    """The ledger's key of a connection: its socket's descriptor (the one it was accepted as, :class:`Listener`)."""
    sock = transport.get_extra_info("socket")
    return sock.fileno() if sock is not None else id(transport)


def no_delay(transport: asyncio.BaseTransport) -> None:
    """Send each write at once (``TCP_NODELAY``): a message is not held back until the client acknowledges the one
    before (some 40 ms of delayed acknowledgement, for the second of two messages)."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def refusal_answer(refusal: str) -> bytes:
    """The answer to a connection refused by a limit: ``503``, the reason, and the connection closed."""
    body = f"{refusal}; try again later\n".encode()
    return (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


_TOO_LARGE = ProtocolError("too_large", "a message may be at most {most} characters; this frame held more than "
                                        "{frame} bytes and was not read", most=MAX_MESSAGE, frame=MAX_FRAME)
#: The answer to a frame too large to read, in each language (the page's, as its WebSocket's query names it).
_TOO_LARGE_TEXT = {lang: json.dumps(_TOO_LARGE.to_data(lang), separators=(",", ":")).encode() for lang in LANGUAGES}


def _language(scope: Mapping[str, Any]) -> str:
    """The language a WebSocket's query names (``lang``, its last value as the application reads it), if the
    server speaks it; else English."""
    asked = parse_qs(bytes(scope.get("query_string", b"")).decode("latin-1")).get("lang", ["en"])[-1]
    return asked if asked in LANGUAGES else "en"


def guarded_protocols(ledger: ConnectionLedger) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """The HTTP and WebSocket protocol classes for uvicorn, counting connections in ``ledger``."""

    class GuardedH11Protocol(H11Protocol):
        _request_timer: asyncio.TimerHandle | None = None
        _upgraded = False
        _admitted = False
        _key = -1

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            no_delay(transport)
            self._key = _key(transport)
            refusal = ledger.made(self._key, _host(transport))  # (admitted already if the Listener accepted it)
            if refusal is not None:
                logs.warning(log, "refused a connection from %s: %s", _host(transport), refusal)
                transport.write(refusal_answer(refusal))
                transport.close()
                return
            self._admitted = True
            ledger.unfinished_from(self._key, self._evict)
            self._arm()

        def _evict(self) -> None:
            self.transport.close()

        def _arm(self) -> None:
            if self._request_timer is not None:
                self._request_timer.cancel()
            self._request_timer = self.loop.call_later(REQUEST_TIMEOUT, self._request_timeout)

        def _request_timeout(self) -> None:
            self._request_timer = None
            # IDLE: no request, or only part of its headers; SEND_BODY: part of its body. A request read whole
            # (DONE) is the application's to answer.
            if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
                log.info("closed a connection from %s: no whole request in %g s", _host(self.transport),
                         REQUEST_TIMEOUT)
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            if not self._admitted:
                return
            super().data_received(data)
            if self.conn.their_state is h11.DONE and not self._upgraded:
                ledger.finished(self._key)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                ledger.unfinished_from(self._key, self._evict)  # between two requests
                self._arm()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            if self._request_timer is not None:
                self._request_timer.cancel()
                self._request_timer = None
            self._upgraded = True
            ledger.finished(self._key)
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._request_timer is not None:
                self._request_timer.cancel()
                self._request_timer = None
            if not self._upgraded:
                ledger.release(self._key)
            super().connection_lost(exc)

    class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._handshake_read = False
            self._head = b""  # a frame header split between two reads
            self._left = 0  # payload bytes of the current frame still to come
            self._skipping = False  # whether the current frame is being skipped (too large)
            self._flooded = False
            self._flood_reason = ""
            self._messages: TokenBucket | None = None
            self._seated = False  # a seated player's connection: its frames pass first, at a person's pace
            self._held = b""  # what was read while the shared budget was spent, not yet parsed
            self._waiting = False  # in the ledger's queue of connections waiting for the shared budget
            self._turn = 0  # frames still to read at this turn (while ``_rationed``: reading what waited)
            self._rationed = False
            self._host = "unknown"
            self._lang = "en"  # the page's language (its WebSocket's query): what the guard says is said in it
            self._key = -1

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self._host = _host(transport)
            self._key = _key(transport)
            self._messages = TokenBucket(MESSAGES_PER_SECOND, MESSAGE_BURST, ledger.clock())
            self._entries = (ledger.address(self._host), ledger.network(self._host))

        def connection_lost(self, exc: Exception | None) -> None:
            ledger.release(self._key)
            super().connection_lost(exc)

        def handle_connect(self, event: Any) -> None:
            if ledger.forwarded.trusted(self._host):  # a proxy's connection: its client is named in the request
                client = ledger.forwarded.client(self._host, ((k.encode("latin-1"), v.encode("latin-1"))
                                                              for k, v in event.headers.raw_items()))
                refusal = ledger.reassign(self._key, client)
                if refusal is not None:
                    logs.warning(log, "refused a connection from %s (through %s): %s", client, self._host, refusal)
                    self.transport.close()
                    return
                self._host = client
                self._entries = (ledger.address(client), ledger.network(client))
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:
                self._lang = _language(scope)
                scope["piquet.abort"] = self.transport.abort
                scope["piquet.seated"] = self._seat

        def send_receive_event_to_app(self) -> None:
            # A text message that is not UTF-8 is handed on as bytes, which the application answers as it answers
            # any bytes that are not UTF-8 text (``malformed``), the socket kept open; the library would log a
            # traceback for it and close the connection.
            data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
            self.frames = []
            if self.close_sent:
                return
            text: str | None = None
            if self.curr_msg_data_type == "text":
                with contextlib.suppress(UnicodeDecodeError):
                    text = data.decode()
            if text is not None:
                self.queue.put_nowait({"type": "websocket.receive", "text": text})
            else:
                self.queue.put_nowait({"type": "websocket.receive", "bytes": data})
            if not self.read_paused:
                self.read_paused = True
                self.transport.pause_reading()

        async def receive(self) -> Any:
            # uvicorn's, but reading is not resumed while frames wait for the shared budget (their turn resumes it).
            message = await self.queue.get()
            if self.read_paused and self.queue.empty() and not self._held:
                self.read_paused = False
                self.transport.resume_reading()
            return message

        def _seat(self) -> None:
            self._seated = True

        def data_received(self, data: bytes) -> None:
            if self._flooded:
                return
            if not self._handshake_read:  # the upgrade request, handed over whole by the HTTP protocol
                self._handshake_read = True
                super().data_received(data)
                return
            if self._held:  # waiting for the shared budget: held, unread
                self._hold(data)
                return
            self._parse(data)

        def _parse(self, data: bytes) -> None:
            if self._head:
                data = self._head + data
                self._head = b""
            runs, rest = self._scan(data)
            for start, end in runs:
                if self.transport.is_closing():
                    return
                super().data_received(data[start:end])
            if self._flooded:
                self._close_flood()
            elif rest:
                self._hold(rest)

        def _hold(self, data: bytes) -> None:
            """Keep ``data`` unread and stop reading until this connection's turn (the shared budget spent)."""
            self._held += data
            if len(self._held) > MAX_HELD:
                self._held = b""
                self._flooded = True
                self._flood_reason = f"more than {MAX_HELD // 1024} KiB waiting to be read"
                self._close_flood()
                return
            if not self.read_paused:
                self.read_paused = True
                self.transport.pause_reading()
            if not self._waiting:
                self._waiting = True
                ledger.wait_turn(self, self.loop)

        def _turn_now(self) -> None:
            """This connection's turn: a few of the frames it holds are read."""
            self._waiting = False
            if self.transport.is_closing() or not self._held:
                return
            held, self._held = self._held, b""
            self._turn = FRAMES_A_TURN
            self._rationed = True
            try:
                self._parse(held)
            finally:
                self._rationed = False
            if not self._held and self.read_paused and self.queue.empty():
                self.read_paused = False
                self.transport.resume_reading()

        def _scan(self, data: bytes) -> tuple[list[tuple[int, int]], bytes]:
            """The spans of ``data`` to hand to the WebSocket library (whole frames within the buckets, none of a
            frame too large), and what must wait for the shared budget; sets ``_flooded`` at the first frame over
            the connection's, address's or network's bucket."""
            runs: list[tuple[int, int]] = []
            start = pos = 0
            n = len(data)
            bucket = self._messages
            assert bucket is not None
            address, network = self._entries
            rest = b""
            while pos < n:
                if self._left:
                    take = min(self._left, n - pos)
                    self._left -= take
                    pos += take
                    if self._skipping:
                        start = pos
                        if not self._left:
                            self._skipping = False
                    continue
                if n - pos < 2:
                    self._head = data[pos:]
                    n = pos
                    break
                second = data[pos + 1]
                length = second & 0x7F
                size = 2 + (4 if second & 0x80 else 0) + (2 if length == 126 else 8 if length == 127 else 0)
                if n - pos < size:
                    self._head = data[pos:]
                    n = pos
                    break
                if length == 126:
                    length = int.from_bytes(data[pos + 2:pos + 4], "big")
                elif length == 127:
                    length = int.from_bytes(data[pos + 2:pos + 10], "big")
                now = ledger.clock()
                first = self._seated and address.seated.take(now) and network.seated.take(now)
                if not first and not self._shared(now, size + min(length, MAX_FRAME)):
                    rest = data[pos:]
                    n = pos
                    break
                if self._rationed and min(bucket.available(now), address.messages.available(now),
                                          network.messages.available(now)) < 1:
                    # What waited was sent within its limits (it is read at our pace, not its sender's): it waits
                    # for its buckets too, rather than be taken for a flood.
                    ledger.frames.tokens += 1
                    ledger.bytes.tokens += size + min(length, MAX_FRAME)
                    rest = data[pos:]
                    n = pos
                    break
                over = ("one connection" if not bucket.take(now) else "one address" if not address.messages.take(now)
                        else "one network" if not network.messages.take(now) else None)
                if over is not None:
                    self._flooded = True
                    self._flood_reason = over
                    n = pos
                    break
                if length > MAX_FRAME and data[pos] & 0x0F in (0x0, 0x1, 0x2):
                    if pos > start:
                        runs.append((start, pos))
                    self._skipping = True
                    self._left = length
                    pos += size
                    start = pos
                    self._answer_too_large()
                    continue
                self._left = length
                pos += size
            end = n if not self._skipping else start
            if end > start:
                runs.append((start, end))
            return runs, rest

        def _shared(self, now: float, size: int) -> bool:
            """Whether a frame of ``size`` bytes may be read now within the budget all connections share (spent if
            so); a connection that waited for it is read a few frames at its turn (:data:`FRAMES_A_TURN`), so that
            the waiting connections are read by turns, whatever each one holds."""
            if self._rationed and self._turn <= 0:
                return False
            if ledger.frames.available(now) >= 1 and ledger.bytes.available(now) >= size:
                ledger.frames.take(now)
                ledger.bytes.take(now, size)
                self._turn -= 1
                return True
            return False

        def _answer_too_large(self) -> None:
            if self.conn.state is State.OPEN and not self.close_sent:
                self.conn.send_text(_TOO_LARGE_TEXT[self._lang])
                self.transport.write(b"".join(self.conn.data_to_send()))

        def _close_flood(self) -> None:
            logs.warning(log, "closed a WebSocket from %s: too many messages (%s; code %d)", self._host,
                         self._flood_reason, CLOSE_FLOOD)
            if self.conn.state is State.OPEN and not self.close_sent:
                self.conn.send_close(CLOSE_FLOOD, "too many messages: slow down")
                self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.queue.put_nowait({"type": "websocket.disconnect", "code": CLOSE_FLOOD, "reason": "too many messages"})
            # The close frame goes out, then the end of our stream; what the client still sends is read and thrown
            # away (closing with it unread would reset the connection, and the close frame could be lost), for
            # FLOOD_LINGER seconds at most.
            if self.transport.can_write_eof():
                self.transport.write_eof()
                if self.read_paused:
                    self.read_paused = False
                    self.transport.resume_reading()
                self.loop.call_later(FLOOD_LINGER, self.transport.abort)
            else:
                self.transport.close()

    return GuardedH11Protocol, GuardedWebSocketProtocol


#: Connections the listening socket refuses at most in one call of its ``accept`` (then the event loop runs others
#: before it is called again).
REFUSED_A_TURN = 64


class Listener(socket.socket):
    """The server's listening socket (:func:`listen`): each connection is admitted by :attr:`ledger` as it is
    accepted, and one refused is answered 503 and closed there and then, before the event loop makes anything for it
    (a transport, a protocol, an HTTP parser, a task): a flood of connections costs the server a few system calls
    each. (``accept`` is what asyncio's event loop calls; uvicorn serves the socket it is given.)"""

    ledger: ConnectionLedger | None = None

    def accept(self) -> tuple[socket.socket, Any]:
        for _ in range(REFUSED_A_TURN):
            conn, address = super().accept()  # BlockingIOError: none is waiting
            if self.ledger is None:
                return conn, address
            host = str(address[0]) if isinstance(address, tuple) and address else "unix"
            try:
                refusal = self.ledger.accept(conn.fileno(), host)
            except BaseException:
                conn.close()
                raise
            if refusal is None:
                return conn, address
            logs.warning(log, "refused a connection from %s: %s", host, refusal)
            with contextlib.suppress(OSError):
                conn.setblocking(False)
                conn.send(refusal_answer(refusal))
                conn.recv(65536)  # what it sent already, read: the close is then no reset, which could lose the 503
            conn.close()
        raise BlockingIOError(errno.EAGAIN, f"{REFUSED_A_TURN} connections refused: the others wait their turn")


def listen(host: str, port: int, ledger: ConnectionLedger | None = None) -> Listener:
    """The server's socket, listening on ``host`` and ``port`` before anything is announced, each connection admitted
    by ``ledger`` as it is accepted (:class:`Listener`; it may be given later, before serving).

    As uvicorn binds its own (an IPv6 socket for an address with a colon, else IPv4, the address reusable
    at once after a restart), and listening already: a browser that comes as soon as the address is
    announced waits in the queue until the server accepts. An :class:`OSError` says why it cannot be had,
    the port busy above all.
    """
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets made so (the accepted ones take the listening
    # socket's protocol); the guarded protocols set it on every connection all the same.
    sock = Listener(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.ledger = ledger
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)  # uvicorn's backlog
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


class ForwardedFor:
    """The application as a trusted proxy's clients reach it: the request's client is the one the proxy names
    (:meth:`Forwarded.client`); from any other peer, the peer."""

    def __init__(self, app: Any, forwarded: Forwarded) -> None:
        self.app = app
        self.forwarded = forwarded

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        client = scope.get("client")
        if scope["type"] in ("http", "websocket") and client and self.forwarded.trusted(client[0]):
            scope = {**scope, "client": (self.forwarded.client(client[0], scope.get("headers", ())), 0)}
        await self.app(scope, receive, send)


def server_config(app: Any, host: str = "127.0.0.1", port: int = 8000, log_level: str = "warning",
                  ledger: ConnectionLedger | None = None) -> Config:
    """uvicorn's configuration for ``piquet serve``: the guarded protocols and the timeouts above, and the clients of
    the ledger's trusted proxies (if any) named by them."""
    ledger = ledger or ConnectionLedger()
    http, ws = guarded_protocols(ledger)
    if ledger.forwarded:
        app = ForwardedFor(app, ledger.forwarded)
    # A state is a few KiB: compressing it costs the server more (a fifth of its time, measured with
    # benchmarks/load.py) than it saves on any network a game is played over. asyncio's event loop: the one that
    # calls the Listener's accept (uvloop, if installed, would not).
    return Config(app, host=host, port=port, log_level=log_level, http=http, ws=ws, loop="asyncio",
                  ws_max_size=MAX_FRAME, ws_per_message_deflate=False, ws_ping_interval=PING_INTERVAL,
                  ws_ping_timeout=PING_TIMEOUT, timeout_keep_alive=KEEP_ALIVE_TIMEOUT, server_header=False,
                  proxy_headers=False)
