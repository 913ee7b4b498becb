"""The server against many hands (``docs/security.md``): limits by network as well as by address, a budget of frames
all connections share with the seated players' frames first, room made for a new visitor when slow connections fill
the server, a trusted proxy's clients told apart, every message sent at once (``TCP_NODELAY``), tables read from the
store only for a secret that holds a place there, off the event loop and so many an address, hint allowances kept
per seat, and a store whose files vanish refusing to acknowledge. Everything on 127.0.0.0/8."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import random
import select
import socket
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient
from guard_helpers import WAIT, RawSocket, frame, get_status, post, serving, serving_server
from web_helpers import Client, choose, create, play_computer, seed_tables

from piquet.ui.web import advice as advice_module
from piquet.ui.web import guard
from piquet.ui.web import tables as tables_module
from piquet.ui.web.app import create_app
from piquet.ui.web.guard import ConnectionLedger, Forwarded, listen, prefix_of
from piquet.ui.web.store import SQLiteStore, StoreError, StoreUnavailable, TableInfo
from piquet.ui.web.tables import NOT_SAVED, Table, Tables


def db(path: Path) -> str:
    return str(path / "db.sqlite3")


def wait_until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"not in {WAIT:g} s: {what}"
        time.sleep(0.01)


# ---------------------------------------------------------------- TCP_NODELAY
def test_every_connection_sends_at_once_with_tcp_nodelay(tmp_path: Path) -> None:
    """The server's own socket is made as asyncio sets TCP_NODELAY on (IPPROTO_TCP), and every connection the
    guarded protocols serve has it, a WebSocket's included."""
    with listen("127.0.0.1", 0) as sock:
        assert sock.proto == socket.IPPROTO_TCP
    with serving_server(create_app(db(tmp_path))) as (server, port):
        status, table = post(port, "/api/tables", {"kind": "room", "name": "Ann"})
        assert status == 200
        ws = RawSocket(port, f"/ws/{table['id']}?token={table['token']}")
        assert ws.next_message()["type"] == "state"
        with socket.create_connection(("127.0.0.1", port)) as plain:
            plain.sendall(b"GET /api/setup HTTP/1.1\r\nHost: x\r\n\r\n")
            plain.settimeout(WAIT)
            assert plain.recv(12).startswith(b"HTTP/1.1 200")
            connections = list(server.server_state.connections)
            assert len(connections) >= 2
            for protocol in connections:
                held = protocol.transport.get_extra_info("socket")
                assert held.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1, protocol
        ws.close()


# ---------------------------------------------------------------- limits by network
def test_the_networks_are_an_ipv4_slash_24_and_an_ipv6_slash_64() -> None:
    assert prefix_of("127.5.6.7") == prefix_of("127.5.6.200") == "127.5.6.0/24" != prefix_of("127.5.7.1")
    assert prefix_of("2001:db8::1") == prefix_of("2001:db8::ffff:1:2") == "2001:db8::/64"
    assert prefix_of("2001:db8:0:1::1") != "2001:db8::/64"
    assert prefix_of("::ffff:10.1.2.3") == "10.1.2.0/24" and prefix_of("unix") == "unix"


@pytest.mark.parametrize("address", ["10.9.9.{i}", "2001:db8::{i}:1"], ids=["IPv4 /24", "IPv6 /64"])
def test_one_network_holds_at_most_its_share_of_connections_whatever_its_addresses(address: str) -> None:
    now = [0.0]
    ledger = ConnectionLedger(max_connections=100_000, clock=lambda: now[0])
    admitted = 0
    for i in range(1, 250):
        for _ in range(guard.MAX_CONNECTIONS_PER_ADDRESS // 2):
            now[0] += 1.0  # no limit a second in the way
            refusal = ledger.admit(admitted + 1, address.format(i=i))
            if refusal is not None:
                assert "one network" in refusal and admitted == guard.MAX_CONNECTIONS_PER_PREFIX
                other = "10.9.10.1" if "." in address else "2001:db8:0:1::1"
                assert ledger.admit(-1, other) is None  # another network is served
                ledger.release(1)
                assert ledger.admit(-2, address.format(i=i)) is None  # and a freed connection counts again
                return
            admitted += 1
    raise AssertionError("a network opened connections without limit")


def test_new_connections_of_one_network_are_limited_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [0.0]
    ledger = ConnectionLedger(max_connections=100_000, clock=lambda: now[0])
    opened = 0
    for i in range(1, 250):
        for _ in range(5):
            if ledger.admit(opened + 1, f"10.1.1.{i}") is not None:
                assert opened == guard.CONNECTION_BURST_PER_PREFIX
                now[0] += 1 / guard.CONNECTIONS_PER_SECOND_PER_PREFIX
                assert ledger.admit(-1, f"10.1.1.{i}") is None
                return
            opened += 1
    raise AssertionError("no limit on new connections by network")


# ---------------------------------------------------------------- room for a new visitor
def test_slow_connections_that_fill_the_server_make_room_for_a_new_visitor(tmp_path: Path) -> None:
    """The server full of connections that never finish a request: a new visitor gets the page, the oldest of them
    is closed to make room, and a WebSocket (a finished handshake) is never closed for it."""
    ledger = ConnectionLedger(max_connections=12)
    with serving(create_app(db(tmp_path)), ledger) as port, ExitStack() as stack:
        _status, table = post(port, "/api/tables", {"kind": "room", "name": "Ann"})
        player = RawSocket(port, f"/ws/{table['id']}?token={table['token']}")
        assert player.next_message()["type"] == "state"
        slow = []
        for i in range(11):
            sock = stack.enter_context(socket.create_connection(("127.0.0.1", port),
                                                                source_address=(f"127.7.{i}.1", 0)))
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # never finished
            slow.append(sock)
        wait_until(lambda: len(ledger.open) >= guard.EVICT_AT * 12, "the slow connections counted")
        for _ in range(3):  # new visitors, each given the page
            assert get_status(port, f"/t/{table['id']}") == 200
        for sock in slow[:ledger.evicted]:  # the oldest, closed to make room
            sock.settimeout(WAIT)
            with contextlib.suppress(ConnectionResetError):  # reset: closed with its request unread
                assert sock.recv(100) == b""
        assert ledger.evicted >= 2  # one for the last slow connection, one for the first visitor at least
        player.send_json({"type": "hint"})
        assert player.next_message()["code"] == "not_allowed"  # the seated player's socket is open


def test_near_the_cap_a_network_holding_many_unfinished_connections_waits_and_a_new_visitor_does_not(
        tmp_path: Path) -> None:
    """Slow connections from one network near the cap: its next connection is refused rather than closing another's,
    and a visitor from another network is served (an unfinished connection of the slow network makes room)."""
    ledger = ConnectionLedger(max_connections=20)
    with serving(create_app(db(tmp_path)), ledger) as port, ExitStack() as stack:
        for i in range(18):  # 18 of 20: past EVICT_AT, and more than UNFINISHED_NEAR_CAP from one network
            sock = stack.enter_context(socket.create_connection(("127.0.0.1", port),
                                                                source_address=(f"127.13.0.{i + 1}", 0)))
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        wait_until(lambda: len(ledger.open) >= guard.EVICT_AT * 20, "the slow connections counted")
        evicted = ledger.evicted
        with socket.create_connection(("127.0.0.1", port), source_address=("127.13.0.99", 0)) as refused:
            refused.settimeout(WAIT)
            assert refused.recv(1024).startswith(b"HTTP/1.1 503")
        assert ledger.evicted == evicted  # it closed none of its network's to make room
        with socket.create_connection(("127.0.0.1", port), source_address=("127.14.0.1", 0)) as visitor:
            visitor.settimeout(WAIT)
            visitor.sendall(b"GET /api/setup HTTP/1.1\r\nHost: x\r\n\r\n")
            assert visitor.recv(12) == b"HTTP/1.1 200"
        assert ledger.evicted > evicted


def test_a_network_whose_connection_was_closed_to_make_room_waits_before_it_makes_room_in_turn() -> None:
    """Near the cap, slow networks would close one another's connections without end (each opened again at once, as
    the load benchmark's slow connections do): a network one of whose connections was just closed to make room is
    refused for a while; a new visitor still makes room, and the network makes room again once the while is over."""
    now = [0.0]
    ledger = ConnectionLedger(max_connections=20, clock=lambda: now[0])
    closed: list[int] = []
    key = 0
    for network in range(6):  # 18 of 20, three unfinished in each of six networks
        for _ in range(3):
            key += 1
            now[0] += 1.0
            assert ledger.admit(key, f"10.0.{network}.1") is None
            ledger.unfinished_from(key, functools.partial(closed.append, key))
    assert ledger.admit(100, "10.1.0.1") is None and closed == [1]  # a visitor: the fullest network's oldest closed
    refusal = ledger.admit(101, "10.0.0.1")  # that network again, at once
    assert refusal is not None and "closed to make room" in refusal and closed == [1]
    assert ledger.admit(102, "10.1.1.1") is None and closed == [1, 4]  # another visitor is served
    now[0] += guard.EVICTED_WAIT
    assert ledger.admit(103, "10.0.0.1") is None and len(closed) == 3  # later, it makes room in turn


def test_connections_just_accepted_count_for_their_network_and_a_visitors_is_not_closed_for_them() -> None:
    """A burst of one network's connections, accepted but their protocols not made yet, counts for that network: near
    the cap a visitor's unfinished connection is not the one closed to make room for the next visitor, and once the
    burst's protocols are made, the burst's oldest is."""
    ledger = ConnectionLedger(max_connections=20)
    closed: list[int] = []
    assert ledger.made(1, "10.2.0.1") is None  # a visitor, its request not finished
    ledger.unfinished_from(1, functools.partial(closed.append, 1))
    for key in range(2, 19):  # 18 of 20: a burst of slow connections from one network, just accepted
        assert ledger.accept(key, f"10.3.0.{key}") is None
    assert ledger.admit(19, "10.4.0.1") is None and closed == []  # the burst's cannot be closed yet; nor the visitor's
    for key in range(2, 19):  # their protocols made
        assert ledger.made(key, f"10.3.0.{key}") is None
        ledger.unfinished_from(key, functools.partial(closed.append, key))
    assert ledger.admit(20, "10.5.0.1") is None and closed == [2]


def test_the_listening_socket_answers_a_connection_refused_503_before_anything_is_made_for_it() -> None:
    """The listening socket admits each connection by the ledger as it accepts it; one refused is answered 503 and
    closed there (the event loop never sees it); one admitted is not counted again when its protocol is made; and
    what the ledger held under a descriptor is of a connection since closed when a new one is accepted as it."""
    ledger = ConnectionLedger(max_connections=1)
    with listen("127.0.0.1", 0, ledger) as listener:
        listener.setblocking(False)  # as the event loop has it
        port = listener.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), source_address=("127.15.0.1", 0)):
            _wait_readable(listener)
            conn, _address = listener.accept()
            with conn:
                assert ledger.open == {conn.fileno(): "127.15.0.1"}
                assert ledger.made(conn.fileno(), "127.15.0.1") is None  # its protocol: counted once
                assert ledger.connections_from("127.15.0.1") == 1
                with socket.create_connection(("127.0.0.1", port), source_address=("127.15.1.1", 0)) as refused:
                    refused.settimeout(WAIT)
                    _wait_readable(listener)
                    with pytest.raises(BlockingIOError):  # refused, and none other waiting
                        listener.accept()
                    assert refused.recv(1024).startswith(b"HTTP/1.1 503 Service Unavailable")
                    assert refused.recv(1024) == b""  # closed
                assert ledger.open == {conn.fileno(): "127.15.0.1"}
                # Its descriptor closed without the ledger told (a transport that failed to be made), then taken by
                # a new connection:
                assert ledger.accept(conn.fileno(), "127.15.2.1") is None
                assert ledger.open == {conn.fileno(): "127.15.2.1"} and ledger.connections_from("127.15.0.1") == 0


def _wait_readable(sock: socket.socket) -> None:
    assert select.select([sock], [], [], WAIT)[0], "no connection to accept"


# ---------------------------------------------------------------- a budget all connections share
def test_a_seated_player_is_served_while_the_busy_networks_wait_for_the_shared_budget(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget of frames all connections share spent by spectators' frames (each connection within its own
    limits), their network busy: their frames wait unread, and a seated player's action is answered at once."""
    monkeypatch.setattr(guard, "FRAMES_PER_SECOND", 1.0)
    monkeypatch.setattr(guard, "FRAME_BURST", 5.0)
    monkeypatch.setattr(guard, "MESSAGE_BURST_PER_PREFIX", 300.0)  # busy after a quarter of it
    with serving_server(create_app(db(tmp_path), workers=0)) as (server, port):
        status, table = post(port, "/api/tables", {"kind": "computer", "name": "Ann", "level": 1})
        assert status == 200
        spectate = table["links"]["spectate"].split("#")[1]
        ann = RawSocket(port, f"/ws/{table['id']}?token={table['token']}", source="127.8.0.1")
        state = ann.next_message()
        while state["prompt"] is None:
            state = ann.next_message()
        watchers = [RawSocket(port, f"/ws/{table['id']}?{spectate}", source="127.9.0.1") for _ in range(4)]
        for watcher in watchers:
            assert watcher.next_message()["type"] == "state"
            watcher.send(frame(b'{"type": "hint"}') * 50)  # within a connection's burst; the network's is 960
        wait_until(lambda: any(getattr(p, "_held", b"") for p in server.server_state.connections),
                   "the spectators' frames waiting")
        ann.send_json({"type": "action", "action": choose(state, random.Random(1)), "version": state["version"]})
        answer = ann.next_message()
        assert answer["type"] == "state" and answer["version"] > state["version"]
        held = [p for p in server.server_state.connections if getattr(p, "_held", b"")]
        assert held, "the spectators' frames were all read before the seated player's"
        for watcher in watchers:
            watcher.close()
        ann.close()


# ---------------------------------------------------------------- behind a proxy
def test_a_trusted_proxy_names_its_clients_and_any_other_peer_is_not_believed() -> None:
    forwarded = Forwarded(["127.0.0.1", "10.0.0.0/8"])
    headers = [(b"x-forwarded-for", b"198.51.100.1, 203.0.113.9, 10.1.2.3")]
    assert forwarded.client("127.0.0.1", headers) == "203.0.113.9"  # the last hop not a trusted proxy
    assert forwarded.client("192.0.2.1", headers) == "192.0.2.1"  # not a trusted peer: the header is ignored
    assert forwarded.client("127.0.0.1", [(b"x-forwarded-for", b"not an address")]) == "127.0.0.1"
    assert forwarded.client("127.0.0.1", []) == "127.0.0.1"
    assert forwarded.client("127.0.0.1", [(b"X-Forwarded-For", b"[2001:db8::7]:443")]) == "2001:db8::7"
    assert not Forwarded() and not Forwarded().trusted("127.0.0.1")


def test_behind_a_trusted_proxy_the_limits_by_address_are_the_clients(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard, "MAX_CONNECTIONS_PER_ADDRESS", 2)
    ledger = ConnectionLedger(forwarded=Forwarded(["127.0.0.1"]))
    with serving(create_app(db(tmp_path)), ledger) as port:
        _status, table = post(port, "/api/tables", {"kind": "room", "name": "Ann"})
        path = f"/ws/{table['id']}?token={table['token']}"
        clients = [RawSocket(port, path, headers=f"X-Forwarded-For: 203.0.113.{i}\r\n") for i in (1, 1, 2, 3)]
        for client in clients:
            assert client.status == 101 and client.next_message()["type"] == "state"
        assert sorted(ledger.open.values()) == ["203.0.113.1", "203.0.113.1", "203.0.113.2", "203.0.113.3"]
        with pytest.raises(ConnectionError):  # the client's third: refused
            RawSocket(port, path, headers="X-Forwarded-For: 203.0.113.1\r\n").next_message()
    untrusted = ConnectionLedger()
    with serving(create_app(db(tmp_path)), untrusted) as port:
        client = RawSocket(port, path, headers="X-Forwarded-For: 203.0.113.1\r\n")
        assert client.status == 101 and list(untrusted.open.values()) == ["127.0.0.1"]


# ---------------------------------------------------------------- opening a table
def test_a_table_is_replayed_only_for_a_secret_that_holds_a_place_and_off_the_event_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    replays: list[str] = []
    start = Table._start

    def slow_start(self: Table) -> None:
        replays.append(threading.current_thread().name)
        time.sleep(0.3)  # a long record
        start(self)

    monkeypatch.setattr(Table, "_start", slow_start)

    async def scenario() -> None:
        tables = Tables(SQLiteStore(db(tmp_path)))
        table, token = await tables.create("computer", name="Ann", level=1)
        spectate = table.info.spectate
        replays.clear()
        fresh = Tables(SQLiteStore(db(tmp_path)))  # a restarted server: nothing in memory
        for kind, secret in (("token", "x" * 22), ("spectate", token), ("invite", spectate)):
            with pytest.raises(tables_module.SeatRefused):
                await fresh.open(table.id, kind, secret)  # type: ignore[arg-type]
        assert replays == [] and fresh.get(table.id) is None
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        tick = asyncio.get_running_loop().create_task(ticker())
        both = await asyncio.gather(fresh.open(table.id, "spectate", spectate), fresh.open(table.id, "token", token))
        tick.cancel()
        assert both[0] is both[1] and len(replays) == 1 and replays[0].startswith("piquet-replay")
        assert ticks >= 10  # the loop ran while the record was replayed

    asyncio.run(asyncio.wait_for(scenario(), 20.0))


def test_the_tables_one_address_opens_from_the_store_are_limited(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables_module, "OPEN_BURST_PER_ADDRESS", 2.0)
    with TestClient(create_app(db(tmp_path))) as http:
        made = [create(http, "room", name="Ann") for _ in range(3)]
        http.app.state.tables._tables.clear()  # type: ignore[attr-defined]  # as after a restart
        codes = []
        for table in made:
            answer = http.get(f"/api/tables/{table['id']}/record?token={table['token']}")
            codes.append(answer.status_code)
        assert codes[:2] == [403, 403]  # read (the record is refused: the partie has not begun)
        assert codes[2] == 429
        with http.websocket_connect(f"/ws/{made[2]['id']}?token={made[2]['token']}") as ws:
            with pytest.raises(Exception) as closed:
                ws.receive_text()
            assert "1013" in repr(closed.value) or getattr(closed.value, "code", None) == 1013
        assert http.get(f"/t/{made[2]['id']}").status_code == 200  # the page is given: nothing is replayed for it


def test_the_page_of_a_stored_table_is_given_without_reading_its_actions(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http:
        table = create(http, "room", name="Ann")
        tables = http.app.state.tables  # type: ignore[attr-defined]
        tables._tables.clear()
        assert http.get(f"/t/{table['id']}").status_code == 200
        assert http.get("/t/no-such-table").status_code == 404
        assert tables.get(table["id"]) is None


# ---------------------------------------------------------------- hints
def test_a_seats_hint_allowance_is_not_refilled_by_a_new_connection(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    seed_tables(monkeypatch, 3)
    monkeypatch.setattr(advice_module, "HINT_LEVEL", 1)  # an instant adviser: the allowance is what is tested
    # The clock of the allowance stands still: a slow run (a loaded machine) refills nothing while it plays.
    monkeypatch.setattr(advice_module, "time", SimpleNamespace(monotonic=lambda: 1000.0))
    with TestClient(create_app(db(tmp_path), workers=0)) as http:
        table = create(http, "computer", name="Ann", level=1)
        asked = 0
        for _ in range(3):  # three connections, one after the other
            with http.websocket_connect(f"/ws/{table['id']}?token={table['token']}") as ws:
                ann = Client(ws, "Ann")
                play_computer(ann, random.Random(2),
                              stop=lambda s: s["prompt"] is not None and s["prompt"]["kind"] != "packets")
                for _ in range(advice_module.HINT_BURST):
                    ann.send({"type": "hint"})
                    answer = ann.recv()
                    if answer["type"] == "hint":
                        asked += 1
                    else:
                        assert answer["code"] == "busy"
            http.app.state.tables._tables.clear()  # type: ignore[attr-defined]  # forgotten, as when no one is there
        assert asked <= advice_module.HINT_BURST + 1


# ---------------------------------------------------------------- the store
def test_a_store_whose_file_is_deleted_while_serving_refuses_to_acknowledge(tmp_path: Path) -> None:
    path = db(tmp_path)
    store = SQLiteStore(path)
    store.create(TableInfo("t1", "room", "rubicon", {}, None, ["Ann", None], ["a", None], "s", None))
    store.append("t1", 0, {"player": "Ann", "cut": ["7S", "AD"]}, version=1)
    os.remove(path)
    with pytest.raises(StoreUnavailable, match="deleted or replaced"):
        store.append("t1", 1, {"player": "Ann", "cut": ["8S", "AD"]}, version=2)
    with pytest.raises(StoreUnavailable, match="deleted or replaced"):
        store.load("t1")
    with TestClient(create_app(path)) as http:
        table = create(http, "room", name="Ann")
        os.remove(path + "-wal")
        answer = http.post("/api/tables", json={"kind": "room", "name": "Zoe"})
        assert answer.status_code == 503 and answer.json() == {"detail": NOT_SAVED}
        with http.websocket_connect(f"/ws/{table['id']}?{table['links']['invite'].split('#')[1]}") as ws:
            bill = Client(ws)
            bill.recv_state()
            bill.send({"type": "join", "name": "Bill"})
            assert bill.recv() == {"type": "error", "code": "not_saved", "message": NOT_SAVED}


@pytest.mark.parametrize("unwritable", ["file", "folder"])
def test_a_read_only_store_is_said_to_be_read_only_not_damaged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               unwritable: str) -> None:
    path = db(tmp_path)
    SQLiteStore(path).close()
    denied = path if unwritable == "file" else str(tmp_path)
    real = os.access
    monkeypatch.setattr(os, "access", lambda name, mode: False if str(name) == denied else real(name, mode))
    with pytest.raises(StoreError, match=f"cannot be written \\({'the file' if unwritable == 'file' else 'its folder'}"
                       ) as refused:
        SQLiteStore(path)
    assert "damaged" not in str(refused.value)


def test_the_version_is_stored_with_the_table_and_a_store_written_before_it_starts_it_past_its_actions(
        tmp_path: Path) -> None:
    path = db(tmp_path)
    store = SQLiteStore(path)
    store.create(TableInfo("t1", "room", "rubicon", {}, None, ["Ann", "Bill"], ["a", "b"], "s", None))
    for i in range(3):
        store.append("t1", i, {"player": "Ann", "cut": ["7S", "AD"]}, version=i + 1)
    store.take_back("t1", 1, None, version=4)
    assert store.load("t1").version == 4  # type: ignore[union-attr]
    store._db.execute("ALTER TABLE tables DROP COLUMN version")  # as an earlier release wrote it (its migrations
    store._db.execute("DROP TABLE schema_version")  # not yet numbered)
    for statement in ("DROP INDEX tables_public", "ALTER TABLE tables DROP COLUMN public",
                      "ALTER TABLE tables DROP COLUMN changed"):  # and without what later migrations add
        store._db.execute(statement)
    store.close()
    again = SQLiteStore(path).load("t1")
    assert again is not None and again.version > 3 + len(again.actions)


# ---------------------------------------------------------------- what clients cause in the log
def test_a_long_language_and_a_text_frame_not_utf8_are_answered_and_log_no_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Two client-caused tracebacks: a close reason longer than a close frame holds (a language of multi-byte
    characters quoted in it), and a text frame that is not UTF-8 (the WebSocket library logged it with its traceback
    and closed the socket). Both are answered now, and nothing is logged with a traceback."""
    with serving(create_app(db(tmp_path))) as port, caplog.at_level(logging.INFO):
        _status, table = post(port, "/api/tables", {"kind": "room", "name": "Ann"})
        path = f"/ws/{table['id']}?token={table['token']}"
        client = RawSocket(port, path + "&lang=" + "%F0%9F%98%80" * 40)
        with pytest.raises(ConnectionError):
            client.next_message()
        assert client.close_code == 4400
        client = RawSocket(port, path)
        assert client.next_message()["type"] == "state"
        client.send(frame(b'\xff\xfe{"type": "hint"}'))
        error = client.next_message()
        assert error["code"] == "malformed" and "UTF-8" in error["message"]
        client.send_json({"type": "hint"})
        assert client.next_message()["code"] == "not_allowed"  # still open
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]


# ---------------------------------------------------------------- the store, off the event loop
class WatchedStore(SQLiteStore):
    """A store that notes every call made on a thread running an event loop (the server's)."""

    on_loop: ClassVar[list[str]] = []

    def __getattribute__(self, name: str) -> Any:
        value = super().__getattribute__(name)
        if name not in ("create", "load", "exists", "join", "set_token", "set_move", "take_back", "append"):
            return value

        def watched(*args: Any) -> Any:
            try:
                asyncio.get_running_loop()
                WatchedStore.on_loop.append(name)
            except RuntimeError:  # no loop runs in this thread: the store's own
                pass
            return value(*args)

        return watched


def test_no_store_call_is_made_on_the_event_loop(tmp_path: Path) -> None:
    """A table created, a room joined, a partie against the computer played with a takeback, a table reopened after
    a restart, its page and its record asked for: every call of the store is made off the event loop."""
    WatchedStore.on_loop = []
    with TestClient(create_app(WatchedStore(db(tmp_path)), workers=0)) as http, ExitStack() as stack:
        room = create(http, "room", name="Ann")
        guest = Client(stack.enter_context(http.websocket_connect(
            f"/ws/{room['id']}?{room['links']['invite'].split('#')[1]}")))
        guest.recv_state()
        guest.send({"type": "join", "name": "Bill"})
        guest.until(lambda m: m["type"] == "state" and m["players"] == ["Ann", "Bill"])
        table = create(http, "computer", name="Zoe", level=1, takebacks="free")
        zoe = Client(stack.enter_context(http.websocket_connect(f"/ws/{table['id']}?token={table['token']}")), "Zoe")
        state = play_computer(zoe, random.Random(3), stop=lambda s: s["can_undo"] and s["prompt"] is not None)
        zoe.undo()
        assert zoe.recv_state()["version"] > state["version"]
        zoe.send({"type": "move"})
        assert zoe.until(lambda m: m["type"] == "move")["link"]
        http.app.state.tables._tables.clear()  # type: ignore[attr-defined]
        assert http.get(f"/t/{table['id']}").status_code == 200
        assert http.get(f"/api/tables/{table['id']}/record?token={table['token']}").status_code == 403
    assert WatchedStore.on_loop == []


def test_serve_refuses_a_trusted_proxy_that_is_no_address(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from piquet.ui.cli import main

    assert main(["serve", "--db", db(tmp_path), "--port", "1", "--trust-proxy", "the proxy"]) == 2
    err = capsys.readouterr().err
    assert "--trust-proxy" in err and "Traceback" not in err


def test_frames_that_waited_for_the_shared_budget_are_read_in_turn_and_a_backlog_past_its_bound_is_closed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A spectator within its limits whose frames waited (the shared budget spent) has every one answered at the
    server's pace, never taken for a flood; one holding more than MAX_HELD waiting is closed with 4429, and the log
    says which limit it overdrew."""
    monkeypatch.setattr(guard, "FRAMES_PER_SECOND", 200.0)
    monkeypatch.setattr(guard, "FRAME_BURST", 1.0)
    with serving(create_app(db(tmp_path))) as port, caplog.at_level(logging.WARNING, logger="piquet.ui.web"):
        _status, table = post(port, "/api/tables", {"kind": "room", "name": "Ann"})
        spectate = table["links"]["spectate"].split("#")[1]
        patient = RawSocket(port, f"/ws/{table['id']}?{spectate}", source="127.10.0.1")
        assert patient.next_message()["type"] == "state"
        patient.send(frame(b'{"type": "hint"}') * 55)  # within its burst (60), more than the budget's at once
        answers = [patient.next_message() for _ in range(55)]
        assert all(a["code"] == "not_allowed" for a in answers)
        monkeypatch.setattr(guard, "MAX_HELD", 4096)  # less than the 50 frames below wait
        hoarder = RawSocket(port, f"/ws/{table['id']}?{spectate}", source="127.10.1.1")
        assert hoarder.next_message()["type"] == "state"
        hoarder.send(frame(b'{"type": "hint"}' + b" " * 100) * 50)
        hoarder.until_closed()
        assert hoarder.close_code == guard.CLOSE_FLOOD
    assert any("KiB waiting to be read" in r.getMessage() for r in caplog.records)


def test_new_tables_are_limited_by_network_as_well_as_by_address(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from piquet.ui.web import app as app_module

    monkeypatch.setattr(app_module, "TABLE_BURST_PER_ADDRESS", 2.0)
    monkeypatch.setattr(app_module, "TABLE_BURST_PER_PREFIX", 5.0)

    def create_from(source: str) -> int:
        import http.client as client
        connection = client.HTTPConnection("127.0.0.1", port, timeout=WAIT, source_address=(source, 0))
        connection.request("POST", "/api/tables", json.dumps({"kind": "room", "name": "Ann"}),
                           {"Content-Type": "application/json"})
        status = connection.getresponse().status
        connection.close()
        return status

    with serving(create_app(db(tmp_path))) as port:
        codes = [create_from(f"127.11.0.{i}") for i in (1, 1, 1, 2, 2, 3, 3)]
        assert codes == [200, 200, 429, 200, 200, 200, 429]  # the third address: its network's fifth, then refused
        assert create_from("127.11.1.1") == 200  # another network


def test_behind_a_trusted_proxy_new_tables_are_limited_by_the_client_it_names(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from piquet.ui.web import app as app_module

    monkeypatch.setattr(app_module, "TABLE_BURST_PER_ADDRESS", 2.0)

    def create_as(client: str | None, port: int) -> int:
        import http.client as http_client
        connection = http_client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        headers = {"Content-Type": "application/json", **({"X-Forwarded-For": client} if client else {})}
        connection.request("POST", "/api/tables", json.dumps({"kind": "room", "name": "Ann"}), headers)
        status = connection.getresponse().status
        connection.close()
        return status

    trusted = ConnectionLedger(forwarded=Forwarded(["127.0.0.1"]))
    with serving(create_app(db(tmp_path)), trusted) as port:
        assert [create_as("198.51.100.1", port) for _ in range(3)] == [200, 200, 429]
        assert create_as("198.51.101.1", port) == 200  # another client, through the same proxy
    with serving(create_app(str(tmp_path / "other.sqlite3"))) as port:  # no proxy trusted: the header is not read
        assert [create_as(f"198.51.{i}.1", port) for i in range(3)] == [200, 200, 429]
