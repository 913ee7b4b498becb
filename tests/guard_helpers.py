"""Helpers for the tests of the server's guards: ``piquet serve``'s server (uvicorn with the guarded protocols) in a
thread on 127.0.0.1, and a WebSocket client over a raw socket that sends exactly the bytes a test wants and reads
the server's frames itself. Every wait is bounded."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from piquet.ui.web.guard import ConnectionLedger, listen, server_config

#: The longest any read here waits.
WAIT = 10.0
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@contextmanager
def serving(app: Any, ledger: ConnectionLedger | None = None) -> Iterator[int]:
    """The app served as ``piquet serve`` serves it, on a free port of 127.0.0.1; the port."""
    with serving_server(app, ledger) as (_server, port):
        yield port


@contextmanager
def serving_server(app: Any, ledger: ConnectionLedger | None = None) -> Iterator[tuple[uvicorn.Server, int]]:
    """:func:`serving`, and the server itself (its ``server_state.connections`` are the protocols of its
    connections). As ``piquet serve``, it serves the listening socket :func:`listen` makes, which admits each
    connection by the ledger as it accepts it."""
    ledger = ledger if ledger is not None else ConnectionLedger()
    sock = listen("127.0.0.1", 0, ledger)
    server = uvicorn.Server(server_config(app, host="127.0.0.1", port=0, log_level="warning", ledger=ledger))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="piquet-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    port: int = sock.getsockname()[1]
    try:
        yield server, port
    finally:
        server.should_exit = True
        server.force_exit = True
        thread.join(WAIT)
        sock.close()


def post(port: int, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with _OPENER.open(request, timeout=WAIT) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def get_status(port: int, path: str) -> int:
    try:
        with _OPENER.open(f"http://127.0.0.1:{port}{path}", timeout=WAIT) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as e:
        return e.code


def frame(payload: bytes, opcode: int = 1) -> bytes:
    """A masked client frame."""
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = bytes([0x80 | opcode, 0x80 | n])
    elif n < 65536:
        head = bytes([0x80 | opcode, 0x80 | 126]) + struct.pack("!H", n)
    else:
        head = bytes([0x80 | opcode, 0x80 | 127]) + struct.pack("!Q", n)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload)) if n < 4096 else _mask(payload, mask)
    return head + mask + masked


def _mask(payload: bytes, mask: bytes) -> bytes:
    whole = (mask * (len(payload) // 4 + 1))[:len(payload)]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(whole, "big")).to_bytes(len(payload), "big")


class RawSocket:
    """A WebSocket client on a plain socket: the handshake, then frames in and out as the test says."""

    def __init__(self, port: int, path: str, receive_buffer: int | None = None, source: str = "127.0.0.1",
                 headers: str = "") -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(WAIT)
        self.sock.bind((source, 0))
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{headers}\r\n".encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self._read()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        self.status = int(head.split(b" ", 2)[1])
        self.close_code: int | None = None

    def _read(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("the server closed the connection")
        self.buffer += data

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def send_json(self, message: object) -> None:
        self.send(frame(json.dumps(message).encode()))

    def next_frame(self) -> tuple[int, bytes]:
        """The server's next frame (opcode, payload); raises ``ConnectionError`` at the end of the stream."""
        while True:
            if len(self.buffer) >= 2:
                n = self.buffer[1] & 0x7F
                start = 2 + (2 if n == 126 else 8 if n == 127 else 0)
                if len(self.buffer) >= start:
                    if n == 126:
                        n = struct.unpack("!H", self.buffer[2:4])[0]
                    elif n == 127:
                        n = struct.unpack("!Q", self.buffer[2:10])[0]
                    if len(self.buffer) >= start + n:
                        opcode = self.buffer[0] & 0x0F
                        payload = self.buffer[start:start + n]
                        self.buffer = self.buffer[start + n:]
                        if opcode == 0x8:
                            self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                        return opcode, payload
            self._read()

    def next_message(self) -> dict[str, Any]:
        """The next text message, as JSON (pings skipped); ``ConnectionError`` at a close."""
        for _ in range(10_000):
            opcode, payload = self.next_frame()
            if opcode == 0x1:
                data: dict[str, Any] = json.loads(payload)
                return data
            if opcode == 0x8:
                raise ConnectionError(f"closed with code {self.close_code}")
        raise AssertionError("no message")

    def until_closed(self, limit: int = 200_000) -> list[dict[str, Any]]:
        """Every message until the server closes the connection (a close frame, the end of the stream or a reset)."""
        messages = []
        for _ in range(limit):
            try:
                messages.append(self.next_message())
            except TimeoutError:
                raise AssertionError(f"the connection is still open after {WAIT:g} s of silence") from None
            except (ConnectionError, OSError):
                return messages
        raise AssertionError(f"still open after {limit} messages")

    def close(self) -> None:
        self.sock.close()
