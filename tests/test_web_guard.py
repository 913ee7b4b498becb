"""The server under hostile clients (``docs/security.md``): no client can stall the others. Floods are closed, large
frames refused unread, slow readers dropped, idle and unfinished connections timed out, creation rate-limited, the
store written off the event loop, and no error shows the server's internals. Everything on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import logging
import resource
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from guard_helpers import WAIT, RawSocket, frame, get_status, post, serving
from web_helpers import Client, create

from piquet.ui.cli import main
from piquet.ui.web import clients as clients_module
from piquet.ui.web import guard, logs
from piquet.ui.web import store as store_module
from piquet.ui.web import tables as tables_module
from piquet.ui.web.app import TABLE_BURST_PER_ADDRESS, create_app
from piquet.ui.web.guard import MAX_FRAME, MESSAGE_BURST, ConnectionLedger
from piquet.ui.web.logs import LOG_BURST, LOG_WINDOW, LogLimit
from piquet.ui.web.store import SQLiteStore, StoreError, TableInfo
from piquet.ui.web.tables import NOT_SAVED, Table, Tables


def db(path: Path) -> str:
    return str(path / "db.sqlite3")


def room_path(port: int) -> str:
    status, table = post(port, "/api/tables", {"kind": "room", "name": "Ann"})
    assert status == 200, table
    return f"/ws/{table['id']}?token={table['token']}"


# ---------------------------------------------------------------- item 2: floods and large frames
def test_a_burst_of_tiny_frames_is_closed_with_4429_after_a_few_replies_and_the_server_serves_others(
        tmp_path: Path) -> None:
    """820 KiB of 8-byte frames in one write (some 100,000 messages): the connection is closed with the documented
    code after at most its burst of replies, never answered frame by frame; a new client is served after."""
    with serving(create_app(db(tmp_path))) as port:
        flooder = RawSocket(port, room_path(port))
        assert flooder.status == 101
        flooder.send(frame(b"{}") * (820 * 1024 // 8))
        replies = flooder.until_closed()
        assert flooder.close_code == guard.CLOSE_FLOOD
        assert len(replies) <= MESSAGE_BURST + 1  # the state on connecting, and an error per frame within the burst
        other = RawSocket(port, room_path(port))
        assert other.next_message()["type"] == "state"
        other.send_json({"type": "hint"})
        assert other.next_message()["code"] == "not_allowed"


def test_connections_of_one_address_share_a_bucket_and_the_one_that_overdraws_it_is_closed(tmp_path: Path) -> None:
    """Connections from one address, one after the other, each within its own burst (55 frames): the first four
    are answered in full, and one of the next overdraws the address's bucket (240) and is closed."""
    per_socket = 55
    assert per_socket < MESSAGE_BURST and 4 * per_socket < guard.MESSAGE_BURST_PER_ADDRESS
    with serving(create_app(db(tmp_path))) as port:
        path = room_path(port)
        codes: list[int | None] = []
        for _ in range(16):  # 880 frames: more than the address's burst and what it refills in a few seconds
            client = RawSocket(port, path)
            client.send(frame(b'{"type": "hint"}') * per_socket)
            try:
                replies = [client.next_message() for _ in range(per_socket + 1)]  # the state, then an error each
                assert replies[-1]["code"] == "not_allowed"
                codes.append(None)
            except ConnectionError:
                codes.append(client.close_code)
            client.close()
        assert codes[:4] == [None] * 4 and guard.CLOSE_FLOOD in codes[4:]


def test_a_frame_over_the_limit_is_answered_too_large_unread_and_the_socket_stays_open(tmp_path: Path) -> None:
    with serving(create_app(db(tmp_path))) as port:
        client = RawSocket(port, room_path(port))
        assert client.next_message()["type"] == "state"
        for size in (MAX_FRAME + 1, 820 * 1024):
            client.send(frame(b'{"type": "join", "name": "' + b"A" * size + b'"}'))
            answer = client.next_message()
            assert answer["type"] == "error" and answer["code"] == "too_large", answer
        # A message of 16 KiB characters (just over the protocol's limit, within a frame's) is refused by the reader.
        client.send(frame(json.dumps({"type": "join", "name": "A" * 16 * 1024}).encode()))
        assert client.next_message()["code"] == "too_large"
        client.send_json({"type": "hint"})  # still open, and read from the frame's end on
        assert client.next_message()["code"] == "not_allowed"


# ---------------------------------------------------------------- item 4: a client that never reads
class Stalled:
    """A connection that never takes a message (its send never returns), and one that takes them slowly."""

    def __init__(self, delay: float | None) -> None:
        self.delay = delay
        self.sent: list[str] = []

    async def send(self, text: str) -> None:
        if self.delay is None:
            await asyncio.Event().wait()
        else:
            await asyncio.sleep(self.delay)
        self.sent.append(text)


async def waiting_room(tmp_path: Path) -> tuple[Tables, Table]:
    tables = Tables(SQLiteStore(db(tmp_path)))
    table, _ = await tables.create("room", name="Ann")
    return tables, table


def test_a_spectator_who_never_reads_is_dropped_and_the_room_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clients_module, "SEND_TIMEOUT", 0.2)

    async def scenario() -> None:
        _, table = await waiting_room(tmp_path)
        stalled, reader = Stalled(None), Stalled(0.0)
        dropped: list[str] = []
        spectator = clients_module.Client(None, stalled.send, on_drop=lambda _c, reason: dropped.append(reason))
        player = clients_module.Client(0, reader.send)
        table.clients |= {spectator, player}
        for _ in range(3):  # a broadcast never waits on a socket
            await asyncio.wait_for(table.broadcast(), 1.0)
        await asyncio.wait_for(table.join(1, "Bill"), 5.0)  # the partie starts with the spectator stalled
        for _ in range(100):
            if dropped and reader.sent and json.loads(reader.sent[-1])["players"] == ["Ann", "Bill"]:
                break
            await asyncio.sleep(0.05)
        assert dropped and "0.2 s" in dropped[0]
        await asyncio.wait_for(table.broadcast(), 1.0)  # the next broadcast leaves the dropped client out
        assert spectator.dropped and spectator not in table.clients and player in table.clients
        assert json.loads(reader.sent[-1])["players"] == ["Ann", "Bill"]
        for client in (spectator, player):
            client.close()

    asyncio.run(asyncio.wait_for(scenario(), 10.0))


def test_a_slow_reader_is_sent_the_latest_state_and_each_deal_s_last_and_a_client_far_behind_is_dropped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clients_module, "CLIENT_QUEUE", 4)

    async def scenario() -> None:
        slow = Stalled(0.05)
        client = clients_module.Client(0, slow.send)
        client.post(json.dumps({"type": "state", "version": 0}), state=True)
        await asyncio.sleep(0)  # the writer takes it: on its way
        for version in range(1, 20):
            client.post(json.dumps({"type": "state", "version": version}), state=True)
        for _ in range(100):
            if slow.sent and json.loads(slow.sent[-1])["version"] == 19:
                break
            await asyncio.sleep(0.02)
        assert [json.loads(t)["version"] for t in slow.sent] == [0, 19]  # what was on its way, then the latest
        for version in range(20, 30):  # a new deal from version 25: the last state of deal 0 is kept for it
            client.post(json.dumps({"type": "state", "version": version}), state=True, deal=0 if version < 25 else 1)
        for _ in range(100):
            if json.loads(slow.sent[-1])["version"] == 29:
                break
            await asyncio.sleep(0.02)
        assert [json.loads(t)["version"] for t in slow.sent][2:] in ([24, 29], [20, 24, 29])
        for n in range(5):  # errors are not replaced: a client with more than CLIENT_QUEUE waiting is dropped
            client.post(json.dumps({"type": "error", "n": n}))
        assert client.dropped
        client.close()

    asyncio.run(asyncio.wait_for(scenario(), 10.0))


# ---------------------------------------------------------------- item 5: creation, idle tables, idle connections
def test_creating_tables_is_rate_limited_per_address_with_a_clear_429(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http:
        codes = [http.post("/api/tables", json={"kind": "room", "name": "Ann"}).status_code
                 for _ in range(int(TABLE_BURST_PER_ADDRESS) + 5)]
        assert codes[:int(TABLE_BURST_PER_ADDRESS)] == [200] * int(TABLE_BURST_PER_ADDRESS)
        refused = http.post("/api/tables", json={"kind": "room", "name": "Ann"})
        assert refused.status_code == 429 and "a minute" in refused.json()["detail"]
        assert int(refused.headers["Retry-After"]) >= 1


def test_a_table_never_opened_leaves_memory_after_the_idle_time_and_its_link_still_loads_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        now = [1000.0]
        tables = Tables(SQLiteStore(db(tmp_path)), clock=lambda: now[0])
        table, token = await tables.create("room", name="Ann")
        now[0] += tables_module.IDLE_TABLE_SECONDS - 1
        tables.sweep(force=True)
        assert len(tables) == 1
        now[0] += 2
        tables.sweep(force=True)
        assert len(tables) == 0 and tables.get(table.id) is None
        again = await tables.open(table.id, "token", token)  # the store kept it
        assert again.id == table.id and again is not table
        for _ in range(3):  # and creating tables sweeps by itself, once a minute
            now[0] += tables_module.IDLE_TABLE_SECONDS
            await tables.create("room", name="Ann")
        assert len(tables) == 1

    asyncio.run(scenario())


@pytest.mark.parametrize("sent", [b"", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ",
                                  b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{"],
                         ids=["silent", "headers unfinished", "body unfinished"])
def test_a_connection_that_sends_no_whole_request_is_closed_after_the_request_timeout(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sent: bytes) -> None:
    monkeypatch.setattr(guard, "REQUEST_TIMEOUT", 0.3)
    with serving(create_app(db(tmp_path))) as port, socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(WAIT)
        sock.sendall(sent)
        assert sock.recv(1024) == b""  # closed, without an answer


def test_connections_beyond_the_limits_are_refused_and_freed_connections_count_again(tmp_path: Path) -> None:
    """The server full of connections that finished their handshake (WebSockets: none is closed to make room): a
    new connection is answered 503; once one is freed, connections are served again."""
    ledger = ConnectionLedger(max_connections=4)
    with serving(create_app(db(tmp_path)), ledger) as port:
        path = room_path(port)
        held = [RawSocket(port, path) for _ in range(4)]
        for client in held:
            assert client.next_message()["type"] == "state"
        assert len(ledger.open) == 4 and not ledger.unfinished
        with socket.create_connection(("127.0.0.1", port)) as refused:
            refused.settimeout(WAIT)
            assert refused.recv(1024).startswith(b"HTTP/1.1 503")
        held[0].close()
        for _ in range(50):
            if len(ledger.open) < 4:
                break
            time.sleep(0.02)
        assert get_status(port, "/api/setup") == 200
        for client in held[1:]:
            client.close()


def test_one_address_holds_at_most_its_share_of_connections() -> None:
    ledger = ConnectionLedger(max_connections=1000)
    for key in range(guard.MAX_CONNECTIONS_PER_ADDRESS):
        assert ledger.admit(key, "10.0.0.1") is None
    assert "from one address" in (ledger.admit(-1, "10.0.0.1") or "")
    assert ledger.admit(-1, "10.0.0.2") is None
    ledger.release(0)
    assert ledger.admit(-2, "10.0.0.1") is None


def test_the_connection_limit_stays_below_the_open_file_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resource, "getrlimit", lambda _which: (1024, 4096))
    assert guard.connection_limit() == 1024 - guard.RESERVED_FILES


# ---------------------------------------------------------------- item 6: the store
@pytest.fixture
def locked(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A way to lock a store's file from another connection (as another process would)."""
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.1)

    def lock(path: str) -> sqlite3.Connection:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        return other

    return lock


def test_an_action_the_locked_store_cannot_save_is_refused_with_a_message_and_not_applied(
        tmp_path: Path, locked: Any) -> None:
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, "room", name="Ann")
        ann = Client(stack.enter_context(http.websocket_connect(f"/ws/{table['id']}?token={table['token']}")))
        invite = table["links"]["invite"].split("#")[1]
        bill = Client(stack.enter_context(http.websocket_connect(f"/ws/{table['id']}?{invite}")))
        ann.recv_state()
        before = bill.recv_state()
        other = locked(db(tmp_path))
        bill.send({"type": "join", "name": "Bill"})
        refused = bill.recv()
        assert refused == {"type": "error", "code": "not_saved", "message": NOT_SAVED}
        answer = http.post("/api/tables", json={"kind": "room", "name": "Zoe"})
        assert answer.status_code == 503 and answer.json() == {"detail": NOT_SAVED}
        other.rollback()
        other.close()
        bill.send({"type": "hint"})  # the socket is open, and nothing changed
        assert bill.recv()["code"] == "not_allowed"
        with http.websocket_connect(f"/ws/{table['id']}?token={table['token']}") as ws:
            assert json.loads(ws.receive_text()) == {**before, "seat": 0, "table": ann.current["table"]}
        bill.send({"type": "join", "name": "Bill"})
        assert bill.until(lambda m: m["type"] == "state")["players"] == ["Ann", "Bill"]


def test_the_store_writes_off_the_event_loop(tmp_path: Path) -> None:
    """While a write waits on a slow store, the loop runs other work; the action is applied once it is saved."""

    class SlowStore(SQLiteStore):
        def join(self, table_id: str, seat: int, name: str, token: str) -> None:
            time.sleep(0.5)
            super().join(table_id, seat, name, token)

    async def scenario() -> None:
        tables = Tables(SlowStore(db(tmp_path)))
        table, _ = await tables.create("room", name="Ann")
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        tick = asyncio.get_running_loop().create_task(ticker())
        await table.join(1, "Bill")
        tick.cancel()
        assert ticks >= 10 and table.partie is not None

    asyncio.run(asyncio.wait_for(scenario(), 10.0))


@pytest.mark.parametrize("content", [b"", b"this is not a database" * 100, b"SQLite format 3\x00" + b"\x07" * 2000],
                         ids=["empty", "text", "damaged header"])
def test_an_empty_or_damaged_store_stops_the_server_with_a_message_naming_it(
        tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.sqlite3"
    path.write_bytes(content)
    with pytest.raises(StoreError, match="games.sqlite3"):
        SQLiteStore(str(path))
    assert main(["serve", "--db", str(path), "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert "games.sqlite3" in err and "Traceback" not in err
    assert path.read_bytes() == content  # left as it was


def test_a_new_store_file_is_created_and_reopened(tmp_path: Path) -> None:
    path = db(tmp_path)
    store = SQLiteStore(path)
    store.create(TableInfo("t1", "room", "rubicon", {}, None, ["Ann", None], ["a", "b"], "s", None))
    store.close()
    assert SQLiteStore(path).load("t1") is not None


# ---------------------------------------------------------------- item 9: smaller
def test_a_number_of_thousands_of_digits_is_refused_with_an_error_and_the_socket_stays_open(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http:
        table = create(http, "room", name="Ann")
        with http.websocket_connect(f"/ws/{table['id']}?token={table['token']}") as ws:
            client = Client(ws)
            client.recv_state()
            ws.send_text('{"type": "join", "name": ' + "9" * 5000 + "}")
            error = client.recv()
            assert error["code"] == "malformed" and "digits" in error["message"]
            assert "sys." not in error["message"] and "int" not in error["message"]
            client.send({"type": "hint"})
            assert client.recv()["code"] == "not_allowed"


def test_the_api_documentation_pages_are_closed_and_validation_errors_show_no_internals(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http:
        for path in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"):
            assert http.get(path).status_code == 404, path
        answer = http.post("/api/tables", json={"kind": "table", "level": "x"})
        assert answer.status_code == 422
        detail = answer.json()["detail"]
        assert isinstance(detail, str) and "kind" in detail and "level" in detail
        assert "pydantic" not in detail and "http" not in detail and "input" not in answer.text


@pytest.mark.parametrize("name, code", [
    ("Bi\u200bll", "malformed"),      # a zero-width space
    ("\u202eAnn", "malformed"),       # a right-to-left override
    ("Bill\u0000", "malformed"),
    ("\u0410nn", "not_allowed"),      # a Cyrillic A
    ("ANN", "not_allowed"),
    ("Ａｎｎ", "not_allowed"),          # full-width letters
    ("A\u0301nn", "not_allowed"),     # an accent added
    ("Cоmputer", "not_allowed"),      # a Cyrillic o
    ("computer", "not_allowed"),
])
def test_a_guest_name_that_hides_characters_or_imitates_the_other_player_or_the_computer_is_refused(
        tmp_path: Path, name: str, code: str) -> None:
    with TestClient(create_app(db(tmp_path))) as http:
        table = create(http, "room", name="Ann")
        with http.websocket_connect(f"/ws/{table['id']}?{table['links']['invite'].split('#')[1]}") as ws:
            bill = Client(ws)
            bill.recv_state()
            bill.send({"type": "join", "name": name})
            assert bill.recv()["code"] == code
            bill.send({"type": "join", "name": "Ｂｉｌｌ"})
            joined = bill.until(lambda m: m["type"] == "state")  # after his own seat secret
            assert joined["players"] == ["Ann", "Bill"]  # NFKC: the plain letters


@pytest.mark.parametrize("name", ["Computer", "C0MPUTER", "Ann\u200d"])
def test_a_creator_name_that_imitates_the_computer_or_hides_characters_is_refused(tmp_path: Path, name: str) -> None:
    with TestClient(create_app(db(tmp_path))) as http:
        for kind in ("computer", "room"):
            answer = http.post("/api/tables", json={"kind": kind, "name": name, "level": 1})
            assert answer.status_code == 422 and "name" in answer.json()["detail"], answer.text


@pytest.mark.parametrize("content, says", [
    (b"[" * 100_000, "nested"),
    (b'{"format": "piquet-record", "players": ' + b"1" * 5000 + b"}", "digits"),
    (b'{"format": "\xff\xfe"}', "not UTF-8"),
    (b" " * (4 * 1024 * 1024 + 1), "larger than 4 MiB"),
], ids=["deep nesting", "huge integer", "not UTF-8", "too large"])
def test_replay_refuses_hostile_files_with_a_message_and_no_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, says: str) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(content)
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert says in err and "record.json" in err and "Traceback" not in err


def test_the_log_limit_writes_a_kind_of_record_at_most_its_burst_a_minute_and_drops_tracebacks_of_warnings() -> None:
    now = [0.0]
    limit = LogLimit(clock=lambda: now[0])
    logger = logging.getLogger("piquet.test-guard")
    logger.setLevel(logging.INFO)

    def record(msg: str, exc: bool = False) -> logging.LogRecord:
        info = None
        if exc:
            try:
                raise ValueError("from a client")
            except ValueError:
                import sys
                info = sys.exc_info()
        return logger.makeRecord(logger.name, logging.WARNING, __file__, 1, msg, (), info)

    written = [limit.filter(record("closed a flood from %s")) for _ in range(100)]
    assert sum(written) == LOG_BURST
    assert limit.filter(record("another kind"))
    now[0] += LOG_WINDOW
    again = record("closed a flood from %s")
    assert limit.filter(again) and "80 more" in str(again.msg)
    with_traceback = record("a client's message failed", exc=True)
    assert limit.filter(with_traceback) and with_traceback.exc_info is None


def test_a_record_the_log_limit_would_drop_is_not_made_and_is_counted(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    logger = logging.getLogger("piquet.test-guard-spent")
    limit = LogLimit(clock=lambda: now[0])
    logger.addFilter(limit)
    made = []
    try:
        with caplog.at_level(logging.WARNING, logger=logger.name):
            original = logger.makeRecord

            def counted(*args: Any, **kwargs: Any) -> logging.LogRecord:
                made.append(args[4])
                return original(*args, **kwargs)

            logger.makeRecord = counted  # type: ignore[method-assign]
            for n in range(100):
                logs.warning(logger, "refused a connection from %s: %s", f"10.0.0.{n}", "too many")
            assert len(made) == LOG_BURST == len(caplog.records)  # the other 80: no record made
            now[0] += LOG_WINDOW
            logs.warning(logger, "refused a connection from %s: %s", "10.0.0.1", "too many")
        assert "80 more like this" in caplog.records[-1].getMessage() and "10.0.0.1" in caplog.records[-1].getMessage()
    finally:
        logger.removeFilter(limit)


def test_a_fault_of_the_server_is_one_line_in_the_log_and_tells_the_client_nothing_of_its_internals(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def broken(self: Table, seat: int | None, lang: str = "en", address: str = "") -> dict[str, Any]:
        raise RuntimeError("secret internals /some/path line 42")

    monkeypatch.setattr(Table, "hint", broken)
    with TestClient(create_app(db(tmp_path))) as http, caplog.at_level(logging.INFO, logger="piquet.ui.web"):
        table = create(http, "computer", name="Ann")
        with http.websocket_connect(f"/ws/{table['id']}?token={table['token']}") as ws:
            client = Client(ws)
            client.recv_state()
            client.send({"type": "hint"})
            error = client.until(lambda m: m["type"] == "error")
            assert error["code"] == "internal"
            assert "secret" not in error["message"] and "Runtime" not in error["message"]
            client.send({"type": "undo", "version": 999_999})  # the socket is still open: it answers
            assert client.until(lambda m: m["type"] == "error")["code"] == "stale"
    faults = [r for r in caplog.records if "could not be handled" in r.getMessage()]
    assert len(faults) == 1 and faults[0].exc_info is None and "RuntimeError" in faults[0].getMessage()


def test_a_websocket_that_never_answers_the_servers_ping_is_closed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard, "PING_INTERVAL", 0.2)
    monkeypatch.setattr(guard, "PING_TIMEOUT", 0.2)
    with serving(create_app(db(tmp_path))) as port:
        client = RawSocket(port, room_path(port))  # a raw socket: it answers no ping
        opcodes = []
        for _ in range(100):
            try:
                opcodes.append(client.next_frame()[0])
            except ConnectionError:
                break
        assert 0x9 in opcodes and client.close_code == 1011


def test_serve_on_a_busy_port_says_so_and_never_that_it_serves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        assert main(["serve", "--db", db(tmp_path), "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert "served at" not in out
    assert f"port {port}" in err and "--port" in err and "Traceback" not in err


def test_serve_announces_its_address_once_the_port_is_its_own_and_serves_there(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "piquet", "serve", "--db", db(tmp_path), "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert f"served at http://localhost:{port}/" in line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=WAIT) as page:
            assert page.status == 200 and b"Piquet" in page.read()
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=WAIT)
    assert server.returncode == 0
