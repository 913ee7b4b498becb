"""Public rooms (``docs/playing.md``, "Public rooms"; ``docs/protocol.md``, "GET /api/lobby"): a room its creator
lists is in the lobby for anyone to join or watch, on a server whose administrator allows it (``piquet serve
--public-rooms``); the list shows no seat's secret; joining gives the joiner his own seat secret; a room full, ended
or abandoned is said so, or leaves the list. On SQLite and on PostgreSQL, where the list crosses processes by
``NOTIFY``."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_message_types import mismatch
from web_helpers import FOUR_DEALS, WAIT, connect, create, db, play_room, query

from piquet.ui.web import lobby as lobby_module
from piquet.ui.web.api_types import CreatedTable, LobbyPage
from piquet.ui.web.app import create_app
from piquet.ui.web.lobby import LISTED_SECONDS, MAX_LISTED, PAGE_SIZE, REFRESH_SECONDS, Lobby
from piquet.ui.web.store import InThread, SQLiteStore, TableInfo

Json = dict[str, Any]


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return db(tmp_path)
    return str(request.getfixturevalue("postgres_url"))  # skips (or fails where required) without a server


@pytest.fixture
def http(url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """A server listing public rooms, which reads its list again at the first request after a change (not once a
    second at most): a test sees a change at once, and stays within the lobby's limit of requests."""
    monkeypatch.setattr(lobby_module, "REFRESH_SECONDS", 0.0)
    with TestClient(create_app(url, workers=0, review_workers=0, public_rooms=True)) as client:
        yield client


def lobby(http: TestClient, page: int = 0) -> Json:
    answer = http.get(f"/api/lobby?page={page}")
    assert answer.status_code == 200, answer.text
    data: Json = answer.json()
    return data


def listed(http: TestClient, table_id: str) -> Json | None:
    """The room ``table_id`` as the lobby lists it (``None``: not listed)."""
    return next((r for r in lobby(http)["rooms"] if r["id"] == table_id), None)


def settled(http: TestClient, table_id: str, check: Any) -> Json | None:
    """The room as listed once ``check(room)`` holds (the list read again after a change, within a second)."""
    deadline = time.monotonic() + WAIT
    while True:
        found = next((r for r in lobby(http)["rooms"] if r["id"] == table_id), None)
        if check(found):
            return found
        assert time.monotonic() < deadline, f"the lobby still lists {found}"
        time.sleep(0.1)  # another process's NOTIFY on its way


def test_a_public_room_is_listed_joined_and_watched_without_its_secrets(http: TestClient) -> None:
    table = create(http, "room", name="Ann", variant="rubicon", options=FOUR_DEALS, public=True)
    room = settled(http, table["id"], lambda r: r is not None)
    assert room == {"id": table["id"], "variant": "rubicon", "options": FOUR_DEALS, "players": ["Ann", None],
                    "status": "waiting", "created": room["created"] if room else None,
                    "watch": table["links"]["spectate"]}
    assert mismatch(lobby(http), LobbyPage) is None  # the answer is of its type, as the page reads it
    text = http.get("/api/lobby").text
    assert table["token"] not in text and query(table["links"]["invite"]).split("=")[1] not in text
    with ExitStack() as stack:
        ann = connect(http, stack, table, f"token={table['token']}", "Ann")
        assert ann.state is not None and ann.state["table"]["public"] is True
        joined = http.post(f"/api/tables/{table['id']}/join", json={"name": "Bill"})
        assert joined.status_code == 200, joined.text
        seat = joined.json()
        assert mismatch(seat, CreatedTable) is None
        assert seat["id"] == table["id"] and seat["token"] not in (table["token"], query(table["links"]["invite"]))
        assert seat["links"] == {"play": f"/t/{table['id']}#token={seat['token']}", "invite": None,
                                 "spectate": table["links"]["spectate"]}
        bill = connect(http, stack, table, query(seat["links"]["play"]), "Bill")
        assert bill.state is not None and bill.state["seat"] == 1 and bill.state["players"] == ["Ann", "Bill"]
        assert ann.recv_state()["table"]["status"] == "playing"
        carl = connect(http, stack, table, query(room["watch"] if room else ""), "Carl")
        assert carl.state is not None and carl.state["seat"] is None
        playing = settled(http, table["id"], lambda r: r is not None and r["status"] == "playing")
        assert playing is not None and playing["players"] == ["Ann", "Bill"]
        full = http.post(f"/api/tables/{table['id']}/join", json={"name": "Dora"})
        assert full.status_code == 409 and full.json()["detail"].startswith("room full")
        play_room([ann, bill], random.Random(5))
        settled(http, table["id"], lambda r: r is None)  # ended: it leaves the list
        gone = http.post(f"/api/tables/{table['id']}/join", json={"name": "Dora"})
        assert gone.status_code == 410 and gone.json()["detail"].startswith("room gone")


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"name": "Ann"}, 422, "name: 'Ann' looks like the other player's name"),
    ({"name": ""}, 422, "name"),
    ({"name": "x" * 41}, 422, "name"),
    ({}, 422, "name"),
])
def test_a_name_a_joiner_cannot_take_is_refused_and_the_seat_stays_free(http: TestClient, body: Json, status: int,
                                                                        words: str) -> None:
    table = create(http, "room", name="Ann", public=True)
    answer = http.post(f"/api/tables/{table['id']}/join", json=body)
    assert answer.status_code == status and words in answer.json()["detail"], answer.text
    assert settled(http, table["id"], lambda r: r is not None and r["status"] == "waiting") is not None


def test_a_private_room_is_neither_listed_nor_joined_from_the_lobby(http: TestClient) -> None:
    private = create(http, "room", name="Ann")
    public = create(http, "room", name="Eve", public=True)
    assert listed(http, public["id"]) is not None and listed(http, private["id"]) is None
    refused = http.post(f"/api/tables/{private['id']}/join", json={"name": "Bill"})
    assert refused.status_code == 403 and "not a public room" in refused.json()["detail"]
    unknown = http.post("/api/tables/nosuchtable/join", json={"name": "Bill"})
    assert unknown.status_code == 404 and unknown.json()["detail"].startswith("room gone")
    computer = http.post("/api/tables", json={"kind": "computer", "name": "Ann", "public": True})
    assert computer.status_code == 422 and "public: only a room for two" in computer.json()["detail"]


def test_the_list_is_sent_again_only_when_it_changed(http: TestClient) -> None:
    first = http.get("/api/lobby")
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "no-cache"
    assert http.get("/api/lobby", headers={"If-None-Match": etag}).status_code == 304
    table = create(http, "room", name="Ann", public=True)
    settled(http, table["id"], lambda r: r is not None)
    again = http.get("/api/lobby", headers={"If-None-Match": etag})
    assert again.status_code == 200 and again.headers["etag"] != etag


def test_the_list_is_paged_and_a_page_past_its_cap_is_refused(http: TestClient) -> None:
    assert lobby(http) == {"rooms": [], "page": 0, "pages": 1, "page_size": PAGE_SIZE}
    assert lobby(http, 3)["rooms"] == []
    for page in (-1, MAX_LISTED // PAGE_SIZE, 10**12):
        answer = http.get(f"/api/lobby?page={page}")
        assert answer.status_code == 422 and answer.json()["detail"].startswith("page: the list's pages are 0 to")
    assert http.get("/api/lobby?page=x").status_code == 422


def test_public_rooms_are_off_unless_the_administrator_turns_them_on(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path), workers=0, review_workers=0)) as http:
        assert http.get("/api/setup").json()["public_rooms"] is False
        refused = http.post("/api/tables", json={"kind": "room", "name": "Ann", "public": True})
        assert refused.status_code == 422 and refused.json()["detail"].startswith("public: this server lists no")
        assert http.get("/api/lobby").status_code == 404
        table = create(http, "room", name="Ann")
        assert http.post(f"/api/tables/{table['id']}/join", json={"name": "Bill"}).status_code == 404
    with TestClient(create_app(db(tmp_path), workers=0, review_workers=0, public_rooms=True)) as http:
        assert http.get("/api/setup").json()["public_rooms"] is True


def test_piquet_serve_lists_public_rooms_when_told_to(monkeypatch: pytest.MonkeyPatch) -> None:
    from piquet.ui.cli import build_parser

    monkeypatch.delenv("PIQUET_PUBLIC_ROOMS", raising=False)
    assert build_parser().parse_args(["serve"]).public_rooms is False
    assert build_parser().parse_args(["serve", "--public-rooms"]).public_rooms is True
    monkeypatch.setenv("PIQUET_PUBLIC_ROOMS", "1")
    assert build_parser().parse_args(["serve"]).public_rooms is True
    assert build_parser().parse_args(["serve", "--no-public-rooms"]).public_rooms is False


# ---------------------------------------------------------------- the list kept by a process, and its bounds
def _room(store: SQLiteStore, table_id: str, created: float) -> None:
    store.create(TableInfo(table_id, "room", "rubicon", {}, None, ["Ann", None], ["a", None], "s-" + table_id, None,
                           created=created, invite="i", public=True))


def test_a_room_with_no_change_for_an_hour_is_abandoned_and_leaves_the_list() -> None:
    store = SQLiteStore(":memory:")
    _room(store, "old", time.time() - LISTED_SECONDS - 1)
    _room(store, "new", time.time())
    lobby = Lobby(InThread(store))

    async def ids() -> list[str]:
        return [room["id"] for room in json.loads((await lobby.page(0)).body)["rooms"]]

    assert asyncio.run(ids()) == ["new"]


def test_a_room_joined_or_played_lately_is_listed_however_old() -> None:
    store = SQLiteStore(":memory:")
    since = time.time() - LISTED_SECONDS
    for table_id in ("joined", "played"):
        _room(store, table_id, since - 10)
    assert store.listed(since, MAX_LISTED) == []
    store.join("joined", 1, "Bill", "b")
    store.append("played", 0, {"player": "Ann", "cut": ["7S", "AD"]}, version=1)
    assert sorted(r.id for r in store.listed(since, MAX_LISTED)) == ["joined", "played"]
    assert next(r for r in store.listed(since, 10) if r.id == "joined").players == ["Ann", "Bill"]


def test_the_store_is_read_at_most_once_a_refresh_however_often_rooms_change_or_clients_ask() -> None:
    store = SQLiteStore(":memory:")
    now = [1000.0]
    lobby = Lobby(InThread(store), clock=lambda: now[0])

    async def flood() -> None:
        for n in range(300):
            _room(store, f"t{n}", time.time())
            lobby.changed(f"t{n}")
            await asyncio.gather(*(lobby.page(n % (MAX_LISTED // PAGE_SIZE)) for _ in range(5)))
        assert lobby.readings == 1
        now[0] += REFRESH_SECONDS
        answer = await lobby.page(0)
        assert lobby.readings == 2 and b'"pages":10' in answer.body  # 300 rooms, the newest 200 listed

    asyncio.run(flood())


# ---------------------------------------------------------------- across processes (PostgreSQL)
def test_every_process_lists_a_room_opened_filled_or_ended_in_another(postgres_url: str) -> None:
    """Two applications on one database are two processes here (each its own lock and listening connections):
    a room opened in A is listed by B, which heard A's ``NOTIFY``; joined through B, A lists it as playing."""
    with ExitStack() as stack:
        a, b = (create_app(postgres_url, workers=0, review_workers=0, public_rooms=True) for _ in range(2))
        http_a, http_b = (stack.enter_context(TestClient(app)) for app in (a, b))
        assert a.state.tables.owners.listening.wait(WAIT) and b.state.tables.owners.listening.wait(WAIT)
        assert lobby(http_b)["rooms"] == []  # B has read the list: it reads it again when told of a change
        heard = b.state.tables.lobby.generation
        table = create(http_a, "room", name="Ann", public=True)
        deadline = time.monotonic() + WAIT
        while b.state.tables.lobby.generation == heard:
            assert time.monotonic() < deadline, "B was not told"
            time.sleep(0.02)
        assert settled(http_b, table["id"], lambda r: r is not None and r["players"] == ["Ann", None])
        joined = http_b.post(f"/api/tables/{table['id']}/join", json={"name": "Bill"})
        assert joined.status_code == 200, joined.text
        assert settled(http_a, table["id"], lambda r: r is not None and r["status"] == "playing")
