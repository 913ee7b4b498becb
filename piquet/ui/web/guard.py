"""The server's guards at the socket: limits that keep one client from stalling the others (``docs/security.md``).

``piquet serve`` runs uvicorn with the two protocol classes made here:

- :func:`guarded_protocols` gives an HTTP protocol that refuses connections beyond
  :data:`MAX_CONNECTIONS` (in all) and :data:`MAX_CONNECTIONS_PER_ADDRESS` (from one address) and
  new ones beyond :data:`CONNECTIONS_PER_SECOND_PER_ADDRESS`, and closes a connection whose request
  is not complete :data:`REQUEST_TIMEOUT` seconds after the connection or the previous answer (an
  unfinished request holds a file descriptor: "slowloris"); and a WebSocket protocol that reads
  each frame's header before the WebSocket library parses it, so that

  - a frame over :data:`MAX_FRAME` bytes is never buffered: its payload is skipped as it arrives and
    the client is answered with the protocol's ``too_large`` error, the socket kept open;
  - every frame costs a token from the connection's bucket (:data:`MESSAGES_PER_SECOND`, burst
    :data:`MESSAGE_BURST`) and from its address's (:data:`MESSAGES_PER_SECOND_PER_ADDRESS`, burst
    :data:`MESSAGE_BURST_PER_ADDRESS`); a client out of tokens is closed with code
    :data:`CLOSE_FLOOD` and the rest of what it sent is never parsed, so a burst of 100,000 tiny frames
    costs the server a few hundred of them.

- The application may drop a client that does not read (``scope["piquet.abort"]``): the socket is
  aborted, with no closing handshake to wait for.

Every limit is a named constant here (their values are in ``docs/security.md``). The guards count
connections by the address of the socket's peer: behind a reverse proxy every connection comes from
the proxy, which should then do the limiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import resource
import socket
import time
from collections.abc import Callable
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from piquet.ui.web.protocol import MAX_MESSAGE, ProtocolError

__all__ = [
    "CLOSE_FLOOD",
    "ConnectionLedger",
    "TokenBucket",
    "guarded_protocols",
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
#: The close code of a connection that sent more than its buckets allow (4429: as HTTP's 429, too many requests).
CLOSE_FLOOD = 4429
#: Seconds a connection closed for flooding is read (and what it sends thrown away) before it is cut.
FLOOD_LINGER = 2.0
#: Connections open at once, in all and from one address.
MAX_CONNECTIONS = 4096
MAX_CONNECTIONS_PER_ADDRESS = 32
#: New connections one address may open a second, on average, and in a burst.
CONNECTIONS_PER_SECOND_PER_ADDRESS = 10.0
CONNECTION_BURST_PER_ADDRESS = 60.0
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


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved; :meth:`take` spends them."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = now

    def take(self, now: float, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens if there are that many; whether there were."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.stamp) * self.rate >= self.burst


class _Address:
    __slots__ = ("connections", "messages", "opened")

    def __init__(self, now: float) -> None:
        self.connections = 0
        self.opened = TokenBucket(CONNECTIONS_PER_SECOND_PER_ADDRESS, CONNECTION_BURST_PER_ADDRESS, now)
        self.messages = TokenBucket(MESSAGES_PER_SECOND_PER_ADDRESS, MESSAGE_BURST_PER_ADDRESS, now)


class ConnectionLedger:
    """The server's open connections, counted in all and by address, and each address's buckets."""

    def __init__(self, max_connections: int | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.max_connections = max_connections if max_connections is not None else connection_limit()
        self.clock = clock
        self.open: dict[int, str] = {}  # id(transport) -> address
        self._addresses: dict[str, _Address] = {}

    def address(self, host: str) -> _Address:
        entry = self._addresses.get(host)
        if entry is None:
            if len(self._addresses) > 4 * self.max_connections:
                self._forget_idle()
            entry = self._addresses[host] = _Address(self.clock())
        return entry

    def _forget_idle(self) -> None:
        now = self.clock()
        for host, entry in list(self._addresses.items()):
            if entry.connections == 0 and entry.opened.full(now) and entry.messages.full(now):
                del self._addresses[host]

    def admit(self, key: int, host: str) -> str | None:
        """Count a new connection; the reason it is refused (``None``: admitted)."""
        if len(self.open) >= self.max_connections:
            return f"the server holds its most connections ({self.max_connections})"
        entry = self.address(host)
        if entry.connections >= MAX_CONNECTIONS_PER_ADDRESS:
            return f"at most {MAX_CONNECTIONS_PER_ADDRESS} connections from one address"
        if not entry.opened.take(self.clock()):
            return f"at most {CONNECTIONS_PER_SECOND_PER_ADDRESS:g} new connections a second from one address"
        entry.connections += 1
        self.open[key] = host
        return None

    def release(self, key: int) -> None:
        host = self.open.pop(key, None)
        if host is not None:
            self._addresses[host].connections -= 1

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


_TOO_LARGE = ProtocolError("too_large", f"a message may be at most {MAX_MESSAGE} characters; this frame held more "
                                        f"than {MAX_FRAME} bytes and was not read")
_TOO_LARGE_TEXT = json.dumps(_TOO_LARGE.to_data(), separators=(",", ":")).encode()


def guarded_protocols(ledger: ConnectionLedger) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """The HTTP and WebSocket protocol classes for uvicorn, counting connections in ``ledger``."""

    class GuardedH11Protocol(H11Protocol):
        _request_timer: asyncio.TimerHandle | None = None
        _upgraded = False
        _admitted = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            refusal = ledger.admit(id(transport), _host(transport))
            if refusal is not None:
                log.warning("refused a connection from %s: %s", _host(transport), refusal)
                body = f"{refusal}; try again later\n".encode()
                transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                                b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
                transport.close()
                return
            self._admitted = True
            self._arm()

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

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            if self._request_timer is not None:
                self._request_timer.cancel()
                self._request_timer = None
            self._upgraded = True
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._request_timer is not None:
                self._request_timer.cancel()
                self._request_timer = None
            if not self._upgraded:
                ledger.release(id(self.transport))
            super().connection_lost(exc)

    class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._handshake_read = False
            self._head = b""  # a frame header split between two reads
            self._left = 0  # payload bytes of the current frame still to come
            self._skipping = False  # whether the current frame is being skipped (too large)
            self._flooded = False
            self._messages: TokenBucket | None = None
            self._host = "unknown"

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self._host = _host(transport)
            self._messages = TokenBucket(MESSAGES_PER_SECOND, MESSAGE_BURST, ledger.clock())

        def connection_lost(self, exc: Exception | None) -> None:
            ledger.release(id(self.transport))
            super().connection_lost(exc)

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:
                scope["piquet.abort"] = self.transport.abort

        def data_received(self, data: bytes) -> None:
            if self._flooded:
                return
            if not self._handshake_read:  # the upgrade request, handed over whole by the HTTP protocol
                self._handshake_read = True
                super().data_received(data)
                return
            if self._head:
                data = self._head + data
                self._head = b""
            runs = self._scan(data)
            for start, end in runs:
                if self.transport.is_closing():
                    return
                super().data_received(data[start:end])
            if self._flooded:
                self._close_flood()

        def _scan(self, data: bytes) -> list[tuple[int, int]]:
            """The spans of ``data`` to hand to the WebSocket library: whole frames within the buckets, none of a
            frame too large; sets ``_flooded`` at the first frame over the buckets."""
            runs: list[tuple[int, int]] = []
            start = pos = 0
            n = len(data)
            bucket = self._messages
            assert bucket is not None
            address = ledger.address(self._host).messages
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
                if not (bucket.take(now) and address.take(now)):
                    self._flooded = True
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
            return runs

        def _answer_too_large(self) -> None:
            if self.conn.state is State.OPEN and not self.close_sent:
                self.conn.send_text(_TOO_LARGE_TEXT)
                self.transport.write(b"".join(self.conn.data_to_send()))

        def _close_flood(self) -> None:
            log.warning("closed a WebSocket from %s: more than %g messages a second (code %d)", self._host,
                        MESSAGES_PER_SECOND, CLOSE_FLOOD)
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


#: The most log records of one kind (one logger, one message template) written in :data:`LOG_WINDOW` seconds; the
#: rest are counted, and the count is told with the next one written.
LOG_BURST = 20
LOG_WINDOW = 60.0


class LogLimit(logging.Filter):
    """Rate-limits log records by logger and message template (a client cannot flood the log), and drops the
    traceback of a record below ERROR unless the logger is at DEBUG."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self._seen: dict[tuple[str, str], list[float]] = {}  # [window start, written, suppressed]

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = self.clock()
        entry = self._seen.get(key)
        if entry is None or now - entry[0] >= LOG_WINDOW:
            if len(self._seen) > 1000:
                self._seen.clear()
            suppressed = entry[2] if entry is not None else 0
            entry = self._seen[key] = [now, 0, 0]
            if suppressed:
                record.msg = f"{record.msg} ({int(suppressed)} more like this in the last {LOG_WINDOW:g} s not logged)"
        if entry[1] >= LOG_BURST:
            entry[2] += 1
            return False
        entry[1] += 1
        if record.exc_info and record.levelno < logging.ERROR and not logging.getLogger(record.name).isEnabledFor(
                logging.DEBUG):
            record.exc_info = None
            record.exc_text = None
        return True


def install_log_limit(names: tuple[str, ...] = ("piquet.ui.web", "uvicorn.error", "asyncio")) -> LogLimit:
    """Put one :class:`LogLimit` on the server's loggers."""
    limit = LogLimit()
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, LogLimit) for f in logger.filters):
            logger.addFilter(limit)
    return limit


def listen(host: str, port: int) -> socket.socket:
    """The server's socket, listening on ``host`` and ``port`` before anything is announced.

    As uvicorn binds its own (an IPv6 socket for an address with a colon, else IPv4, the address reusable
    at once after a restart), and listening already: a browser that comes as soon as the address is
    announced waits in the queue until the server accepts. An :class:`OSError` says why it cannot be had,
    the port busy above all.
    """
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)  # uvicorn's backlog
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def server_config(app: Any, host: str = "127.0.0.1", port: int = 8000, log_level: str = "warning",
                  ledger: ConnectionLedger | None = None) -> Config:
    """uvicorn's configuration for ``piquet serve``: the guarded protocols and the timeouts above."""
    http, ws = guarded_protocols(ledger or ConnectionLedger())
    # A state is a few KiB: compressing it costs the server more (a fifth of its time, measured with
    # benchmarks/load.py) than it saves on any network a game is played over.
    return Config(app, host=host, port=port, log_level=log_level, http=http, ws=ws, ws_max_size=MAX_FRAME,
                  ws_per_message_deflate=False, ws_ping_interval=PING_INTERVAL, ws_ping_timeout=PING_TIMEOUT,
                  timeout_keep_alive=KEEP_ALIVE_TIMEOUT, server_header=False, proxy_headers=False)
