"""Who may sit at a table, and what a player may take back (``docs/security.md``, ``docs/protocol.md``).

An invite admits one person once, who gets a seat secret of his own; a seat moves to another device with a
one-time link; no secret reaches the server's log at any level; a database of the earlier layout opens. Takebacks
against the computer are off, fair (never past something the player had not seen) or free (written down), and no
takeback deals a hand anew or stops at a forced card. Every action names the state version it answers: a stale
one is refused and changes nothing."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import uvicorn
import websockets.sync.client
from fastapi.testclient import TestClient
from schema_helpers import validate_record
from starlette.websockets import WebSocketDisconnect
from web_helpers import (
    FOUR_DEALS,
    LIMIT,
    Client,
    State,
    choose,
    close_code,
    connect,
    create,
    db,
    error,
    join,
    knowledge_by_version,
    play_computer,
    play_room,
    query,
    record_now,
    room,
    seed_tables,
)

from piquet.engine import record
from piquet.ui.cli import main
from piquet.ui.web import seats as seats_module
from piquet.ui.web.app import create_app


@pytest.fixture(autouse=True)
def _seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    seed_tables(monkeypatch, 21)


def secret(link: str) -> str:
    return query(link).split("=", 1)[1]


# ---------------------------------------------------------------- an invite admits one person once
def test_an_invite_admits_one_person_once_who_gets_a_seat_secret_of_his_own(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, "room", name="Ann")
        invite = secret(table["links"]["invite"])
        assert table["links"]["invite"] == f"/t/{table['id']}#invite={invite}" and len(invite) >= 22  # 128 bits
        ann = connect(http, stack, table, f"token={table['token']}", "Ann")
        bill = connect(http, stack, table, f"invite={invite}", "Bill")
        assert bill.current["seat"] == 1 and bill.current["table"]["status"] == "waiting"
        assert close_code(http, f"/ws/{table['id']}?token={invite}") == 4403  # an invite is no seat secret
        token = join(bill)
        assert token != invite and len(token) >= 22
        assert ann.recv_state()["players"] == ["Ann", "Bill"]
        # The invite is spent: whoever opens it now (the creator, or anyone it reached) sits nowhere.
        assert close_code(http, f"/ws/{table['id']}?invite={invite}") == 4410
        assert close_code(http, f"/ws/{table['id']}?token={invite}") == 4403
        again = connect(http, stack, table, f"token={token}")
        assert again.current["seat"] == 1 and again.current["view"]["hand"] == bill.current["view"]["hand"]
        # The download of the record knows Bill's secret, not the invite's.
        assert http.get(f"/api/tables/{table['id']}/record", params={"token": invite}).status_code == 403


def test_two_people_who_open_the_same_invite_only_the_first_to_join_sits(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, "room", name="Ann")
        q = query(table["links"]["invite"])
        bill = connect(http, stack, table, q, "Bill")
        eve = connect(http, stack, table, q, "Eve")
        join(bill)
        with pytest.raises(WebSocketDisconnect) as closed:
            eve.until(lambda m: False)
        assert closed.value.code == 4410


def test_a_seat_moves_to_another_device_with_a_one_time_link_and_leaves_the_old_one(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table, _ann, bill = room(http, stack)
        spectator = connect(http, stack, table, query(table["links"]["spectate"]))
        spectator.send({"type": "move"})
        error(spectator, "not_allowed")
        bill.send({"type": "move"})
        moved = bill.until(lambda m: m["type"] != "state")
        assert moved["type"] == "move" and moved["expires_in"] == seats_module.MOVE_SECONDS
        assert moved["link"].startswith(f"/t/{table['id']}#move=")
        with http.websocket_connect(f"/ws/{table['id']}?{query(moved['link'])}") as ws:
            phone = Client(ws, "Bill's phone")
            seat = phone.recv()
            assert seat["type"] == "seat" and seat["seat"] == 1 and seat["token"] != table["guest"]
            assert phone.recv_state()["view"]["hand"] == bill.current["view"]["hand"]
            with pytest.raises(WebSocketDisconnect) as closed:
                bill.until(lambda m: False)
            assert closed.value.code == 4401  # the old device is told, and leaves the seat
            assert close_code(http, f"/ws/{table['id']}?token={table['guest']}") == 4403
            assert close_code(http, f"/ws/{table['id']}?{query(moved['link'])}") == 4410  # once
            assert connect(http, stack, table, f"token={seat['token']}").current["seat"] == 1


def test_a_link_to_move_a_seat_expires(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seats_module, "MOVE_SECONDS", -1)
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, "computer", name="Ann")
        ann = connect(http, stack, table, f"token={table['token']}")
        ann.send({"type": "move"})
        link = ann.until(lambda m: m["type"] == "move")["link"]
        assert close_code(http, f"/ws/{table['id']}?{query(link)}") == 4410
        assert connect(http, stack, table, f"token={table['token']}").current["seat"] == 0  # still hers


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_no_secret_reaches_the_server_log_at_any_level(tmp_path: Path) -> None:
    """uvicorn at its most verbose (trace: every request's path and query, every WebSocket's, every ASGI scope
    and frame): the seat secrets, invite, one-time link and spectator secret are blanked out."""
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    port = _free_port()
    config = uvicorn.Config(create_app(str(tmp_path / "games.sqlite3")), host="127.0.0.1", port=port,
                            log_level="trace")
    names = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")
    levels = {name: logging.getLogger(name).level for name in names}
    keep = Keep(level=1)
    for name in names:
        logging.getLogger(name).addHandler(keep)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    ws_url = f"ws://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
            time.sleep(0.02)
        request = urllib.request.Request(f"{url}/api/tables", data=json.dumps({"kind": "room", "name": "Ann"}).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(request) as answer:
            table = json.loads(answer.read())
        tid, token = table["id"], table["token"]
        invite, spectate = secret(table["links"]["invite"]), secret(table["links"]["spectate"])
        for path in (f"/t/{tid}?token={token}", f"/t/{tid}?spectate={spectate}"):  # links of the earlier form
            with urllib.request.urlopen(url + path) as answer:
                assert answer.status == 200
        with pytest.raises(urllib.error.HTTPError):  # the record is refused before the end, and logged
            urllib.request.urlopen(f"{url}/api/tables/{tid}/record?token={token}")
        with websockets.sync.client.connect(f"{ws_url}/ws/{tid}?token={token}") as ann, \
                websockets.sync.client.connect(f"{ws_url}/ws/{tid}?invite={invite}") as bill:
            json.loads(ann.recv(10))
            json.loads(bill.recv(10))
            bill.send(json.dumps({"type": "join", "name": "Bill"}))
            guest = json.loads(bill.recv(10))["token"]
            bill.send(json.dumps({"type": "move"}))
            move = next(m for m in (json.loads(bill.recv(10)) for _ in range(20)) if m["type"] == "move")["link"]
            with websockets.sync.client.connect(f"{ws_url}/ws/{tid}?{query(move)}") as phone:
                moved = json.loads(phone.recv(10))["token"]
            with websockets.sync.client.connect(f"{ws_url}/ws/{tid}?spectate={spectate}") as watcher:
                json.loads(watcher.recv(10))
    finally:
        server.should_exit = True
        thread.join(20)
        for name in names:
            logging.getLogger(name).removeHandler(keep)
            logging.getLogger(name).setLevel(levels[name])
    text = "\n".join(lines)
    # Not vacuous: the log has every request, socket and frame, with the secrets' places blanked.
    assert f"/t/{tid}?token=[redacted]" in text and f"/ws/{tid}?invite=[redacted]" in text
    assert "/record?token=[redacted]" in text and '"token":"[redacted]"' in text.replace(" ", "")
    for name, value in {"token": token, "invite": invite, "spectate": spectate, "guest": guest, "move": secret(move),
                        "moved": moved}.items():
        assert value not in text, f"the {name} secret is in the log"


OLD_LAYOUT = """
CREATE TABLE tables (id TEXT PRIMARY KEY, kind TEXT NOT NULL, variant TEXT NOT NULL, options TEXT NOT NULL,
    level INTEGER, players TEXT NOT NULL, tokens TEXT NOT NULL, spectate TEXT NOT NULL, computer INTEGER,
    created REAL NOT NULL);
CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES tables(id), idx INTEGER NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (table_id, idx));
INSERT INTO tables VALUES ('waiting', 'room', 'rubicon', '{}', NULL, '["Ann", null]', '["ann-0", "inv-1"]', 's1',
    NULL, 0);
INSERT INTO tables VALUES ('joined', 'room', 'rubicon', '{}', NULL, '["Ann", "Bill"]', '["ann-2", "bill-2"]', 's2',
    NULL, 0);
INSERT INTO tables VALUES ('computer', 'computer', 'rubicon', '{}', 1, '["Zoe", "Computer"]', '["zoe-3", null]',
    's3', 1, 0);
INSERT INTO actions VALUES ('computer', 0, '{"player": "Zoe", "cut": ["7S", "AD"]}');
"""


def test_a_database_of_the_earlier_layout_opens_and_its_waiting_rooms_invite_is_spent_on_joining(
        tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(OLD_LAYOUT)
    old.close()
    with TestClient(create_app(str(path))) as http, ExitStack() as stack:
        joined = connect(http, stack, {"id": "joined"}, "token=bill-2").current
        assert joined["players"] == ["Ann", "Bill"] and joined["table"]["takebacks"] == "off"
        zoe = connect(http, stack, {"id": "computer"}, "token=zoe-3")
        assert zoe.current["version"] >= 1 and zoe.current["table"]["takebacks"] == "fair"
        assert close_code(http, "/ws/waiting?token=inv-1") == 4403  # the old invite is no seat secret...
        token = join(connect(http, stack, {"id": "waiting"}, "invite=inv-1"))  # ...but admits one person, once
        assert token != "inv-1"
    with TestClient(create_app(str(path))) as http, ExitStack() as stack:  # migrated once: opening again is fine
        assert close_code(http, "/ws/waiting?invite=inv-1") == 4410
        assert connect(http, stack, {"id": "waiting"}, f"token={token}").current["players"] == ["Ann", "Bill"]
        assert connect(http, stack, {"id": "joined"}, "token=bill-2").current["seat"] == 1


# ---------------------------------------------------------------- actions carry a version
def test_the_same_bid_sent_twice_is_applied_once_and_the_second_is_refused_as_stale(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table, ann, bill = room(http, stack, "auction")
        players = [ann, bill]
        def bidding(s: dict[str, Any]) -> bool:
            return s["prompt"] is not None and s["prompt"]["kind"] == "bid"

        state = play_room(players, random.Random(2), stop=lambda s: any(bidding(c.current) for c in players))
        mover = next(c for c in players if bidding(c.current))
        other = bill if mover is ann else ann
        version = mover.current["version"]
        mover.act({"bid": "pass"}, version)
        time.sleep(0.05)
        mover.act({"bid": "pass"}, version)
        assert mover.recv_state()["version"] == version + 1
        stale = mover.recv()
        assert stale["type"] == "error" and stale["code"] == "stale", stale
        assert mover.recv_state()["version"] == version + 1  # the table's state now follows the refusal
        assert other.recv_state()["version"] == version + 1
        partie = record.loads(record_now(http.app, table))  # type: ignore[arg-type]
        assert len(partie.actions) == version + 1 == state["version"] + 1


def test_a_stale_action_or_undo_changes_nothing_and_the_client_gets_the_current_state(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, "computer", name="Ann", takebacks="free")
        ann = connect(http, stack, table, f"token={table['token']}")
        state = play_computer(ann, random.Random(3), stop=lambda s: s["prompt"] is not None and s["can_undo"])
        sends: tuple[Callable[[], None], ...] = (
            lambda: ann.act(choose(state, random.Random(3)), state["version"] - 1),
            lambda: ann.undo(state["version"] + 1))
        for send in sends:
            send()
            assert ann.recv()["code"] == "stale"
            assert ann.recv_state() == state


# ---------------------------------------------------------------- takebacks
def _forced(state: State) -> bool:
    prompt = state["prompt"]
    return bool(prompt and prompt["kind"] == "play" and len(prompt["cards"]) == 1 and not prompt["concede"])


def test_takebacks_off_offer_none_and_refuse_an_undo(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, "computer", name="Ann", takebacks="off", options=FOUR_DEALS)
        ann = connect(http, stack, table, f"token={table['token']}")
        state = play_computer(ann, random.Random(4), stop=lambda s: s["view"]["deal_number"] >= 2)
        assert all(not s["can_undo"] for s in ann.states()) and state["table"]["takebacks"] == "off"
        play_computer(ann, random.Random(4), stop=lambda s: s["prompt"] is not None)
        ann.undo()
        assert "no takebacks" in error(ann, "not_allowed")["message"]


def test_a_fair_takeback_never_goes_back_past_a_card_drawn(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, "computer", name="Ann")
        ann = connect(http, stack, table, f"token={table['token']}")
        rng = random.Random(5)
        exchange = play_computer(ann, rng, stop=lambda s: s["prompt"] is not None and s["prompt"]["kind"] == "exchange")
        ann.acted = exchange["version"]
        ann.act(choose(exchange, rng))
        after = play_computer(ann, rng, stop=lambda s: s["prompt"] is not None and s["version"] > exchange["version"])
        assert not after["can_undo"]
        ann.undo()
        assert "something new" in error(ann, "not_allowed")["message"]
        assert ann.current["version"] == after["version"]


def test_a_fair_takeback_is_offered_only_when_the_player_has_seen_nothing_new_since_that_decision(
        tmp_path: Path) -> None:
    """Each time a fair takeback is offered in a partie, what the player may know (the independent oracle of the
    leak check, re-played from the record) is the same at the decision it goes back to as now."""
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, "computer", name="Ann", options=FOUR_DEALS)
        ann = connect(http, stack, table, f"token={table['token']}")
        rng = random.Random(6)
        checked = 0
        while checked < 6:
            state = play_computer(ann, rng, stop=lambda s: s["prompt"] is not None and s["can_undo"])
            assert state["table"]["status"] != "over", f"only {checked} fair takebacks were offered in a partie"
            text = record_now(http.app, table)  # type: ignore[arg-type]
            at = http.app.state.tables.get(table["id"]).partie.ply  # type: ignore[attr-defined]
            ann.undo()
            back = ann.recv_state()
            went_back = http.app.state.tables.get(table["id"]).partie.ply  # type: ignore[attr-defined]
            assert went_back < at and back["version"] > state["version"] and back["prompt"] is not None
            known = knowledge_by_version(text, {went_back, at})  # by the number of actions applied
            assert known[went_back][0] == known[at][0]
            checked += 1
            ann.acted = back["version"]
            ann.act(choose(back, rng))
            ann.recv_state()


def test_a_free_takeback_deals_the_next_hand_again_with_the_same_cards_and_is_written_down(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, "computer", name="Ann", takebacks="free", options=FOUR_DEALS)
        ann = connect(http, stack, table, f"token={table['token']}")
        second = lambda s: s["view"]["deal_number"] == 2 and s["prompt"] is not None  # noqa: E731
        first = play_computer(ann, random.Random(7), stop=second)
        assert first["can_undo"]
        ann.undo()
        back = ann.recv_state()
        assert back["view"]["deal_number"] == 1 and back["table"]["taken_back"] == 1
        again = play_computer(ann, random.Random(8), stop=second)
        assert again["view"]["dealt"] == first["view"]["dealt"]  # no fishing for a better hand
        assert again["view"]["sheet"][0]["notes"].endswith("1 takeback by Ann")
        taken = http.app.state.tables.get(table["id"]).info.taken_back  # type: ignore[attr-defined]
        assert len(taken) == 1 and taken[0]["player"] == "Ann" and taken[0]["deal"] == 1 and taken[0]["undone"] >= 2
        partie = http.app.state.tables.get(table["id"]).partie  # type: ignore[attr-defined]
        text = record.dumps(partie, takebacks=taken)
        validate_record(json.loads(text))
        assert json.loads(text)["takebacks"] == taken and record.loads(text).actions == partie.actions
        path = tmp_path / "record.json"
        path.write_text(text)
        assert main(["replay", str(path)]) == 0  # piquet replay reads it


@pytest.mark.parametrize("takebacks, says", [
    ({"player": "Ann"}, "a takeback is"),
    ([{"player": "Zoe", "deal": 1, "action": 0, "undone": 1}], "not one of the players"),
    ([{"player": "Ann", "deal": 0, "action": 0, "undone": 1}], "deal"),
    ([{"player": "Ann", "deal": 1, "action": 0, "undone": True}], "undone"),
])
def test_a_record_with_malformed_takebacks_is_refused_naming_them(takebacks: object, says: str) -> None:
    data = json.loads((Path(__file__).parent / "records" / "rubicon-deal.json").read_text())
    data["takebacks"] = takebacks if isinstance(takebacks, list) else [takebacks]
    with pytest.raises(record.RecordError) as exc:
        record.from_data(data)
    assert "takebacks" in str(exc.value) and says in str(exc.value)


def test_a_takeback_never_stops_at_a_forced_card(tmp_path: Path) -> None:
    """After a forced card (the only one she may play), the takeback goes back to her decision before it: a page
    waiting on a forced card it already played would hang."""
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, "computer", name="Ann", takebacks="free")
        ann = connect(http, stack, table, f"token={table['token']}")
        rng = random.Random(9)
        forced_at = None
        for _ in range(LIMIT):
            state = ann.current
            if state["prompt"] is not None and state["version"] != ann.acted:
                ply = http.app.state.tables.get(table["id"]).partie.ply  # type: ignore[attr-defined]
                if forced_at is not None and state["can_undo"]:
                    ann.undo()
                    back = ann.recv_state()
                    went_back = http.app.state.tables.get(table["id"]).partie.ply  # type: ignore[attr-defined]
                    assert went_back < forced_at and back["prompt"] is not None and not _forced(back)
                    return
                forced_at = ply if _forced(state) else None
                ann.acted = state["version"]
                ann.act(choose(state, rng))
            ann.recv_state()
        raise AssertionError("no forced card came")


def test_creating_a_table_with_unknown_takebacks_is_refused(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http:
        answer = http.post("/api/tables", json={"kind": "computer", "takebacks": "sometimes"})
        assert answer.status_code == 422 and "takebacks" in answer.text

