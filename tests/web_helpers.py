"""Helpers for the web server's tests: seeded tables, a WebSocket client whose every wait is bounded, scripted
players answering the prompts, and the knowledge oracle of ``test_variant_invariants`` applied to every message."""

from __future__ import annotations

import json
import queue
import random
import re
import secrets
import threading
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from drivers import knowledge
from fastapi import FastAPI
from fastapi.testclient import TestClient
from helpers import cards_in_text
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from piquet.engine import record
from piquet.engine.actions import Deal
from piquet.engine.cards import CardSet
from piquet.ui.web import phases as phases_module
from piquet.ui.web import tables as tables_module

#: The longest wait for one message (a failsafe: the computer's levels 1 and 2 answer at once).
WAIT = 20.0
#: The most messages any loop here reads before it gives up.
LIMIT = 20_000

State = dict[str, Any]
_ESCAPE = re.compile(r"\\.")


class _SeededSecrets:
    """``secrets`` for ``piquet.ui.web.tables`` with seeded shuffles and computer seeds (tokens stay random)."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self.token_urlsafe = secrets.token_urlsafe

    def randbits(self, k: int) -> int:
        return self._rng.getrandbits(k)


def seed_tables(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Make the server's chance (cut, shuffles, the computer's seed) follow ``seed``."""
    monkeypatch.setattr(tables_module, "secrets", _SeededSecrets(seed))


#: The server's own review by phase (kept here: the tests below put :func:`review_phases_lightly` in its place).
REVIEW_PHASES = phases_module.review_phases


def review_phases_lightly(text: str, seat: int, deal: int) -> dict[str, Any]:
    """:func:`piquet.ui.web.phases.review_phases` over few worlds (four for a card, eight talons for an exchange, not
    the strongest level's 24 and 1,000): the same review, some five times quicker, for the tests of where, when and
    how often the server reviews a partie by phase, and of the answers it makes of the reviews. The review itself is
    checked at its full worlds in ``tests/test_web_progress_phases.py``."""
    return REVIEW_PHASES(text, seat, deal, worlds=4, exchange_worlds=8, call_worlds=8)


def review_phases_lightly_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the server's reviews by phase :func:`review_phases_lightly` (in its thread: ``review_workers=0``)."""
    monkeypatch.setattr(phases_module, "review_phases", review_phases_lightly)


# ---------------------------------------------------------------- HTTP
def create(client: TestClient, kind: str = "computer", **body: Any) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"kind": kind, **({"level": 1} if kind == "computer" else {}), **body})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def query(link: str) -> str:
    """The ``token=...``, ``invite=...``, ``move=...`` or ``spectate=...`` of a page link (after its ``#``, where the
    server puts the secrets: the page passes it to the WebSocket's query)."""
    return link.split("#", 1)[1]


# ---------------------------------------------------------------- WebSocket clients
class Client:
    """One WebSocket at a table: every message it got, in order, and its latest state."""

    def __init__(self, ws: WebSocketTestSession, name: str = "") -> None:
        self.ws = ws
        self.name = name
        self.messages: list[dict[str, Any]] = []
        self.state: State | None = None
        self.acted = -1  # the version of the last prompt answered
        self._pending: queue.Queue[tuple[str | None, BaseException | None]] | None = None

    def recv(self, seconds: float = WAIT) -> dict[str, Any]:
        """The next message, within ``seconds`` (``TimeoutError`` else). The test session's ``receive_text`` has no
        timeout: it is read in a thread of its own (a daemon, its read kept for the next call if it times out),
        through the session's public methods only, the same in every Starlette the project supports."""
        if self._pending is None:
            box: queue.Queue[tuple[str | None, BaseException | None]] = queue.Queue(1)

            def read() -> None:
                try:
                    box.put((self.ws.receive_text(), None))
                except BaseException as e:  # a disconnect, raised here for the test to see
                    box.put((None, e))

            threading.Thread(target=read, daemon=True).start()
            self._pending = box
        try:
            text, error = self._pending.get(timeout=seconds)
        except queue.Empty:
            raise TimeoutError(f"{self.name or 'the client'} got no message in {seconds:g} s") from None
        self._pending = None
        if error is not None:
            raise error
        assert text is not None
        data: dict[str, Any] = json.loads(text)
        self.messages.append(data)
        if data["type"] == "state":
            self.state = data
        return data

    def recv_state(self) -> State:
        """The next message, a state: the finished deals' talk a joining client is sent after its first state is
        kept with the messages, and the state after it read."""
        data = self.recv()
        while data["type"] == "talk":
            data = self.recv()
        assert data["type"] == "state", data
        return data

    def joined(self) -> State:
        """The first state a client is sent as it joins, and the finished deals' talk after it once a deal has been
        dealt (docs/protocol.md, ``talk``): read both, so that the next message read is the table's next."""
        state = self.recv_state()
        if state["view"] is not None and state["view"]["deal_number"] >= 1:
            talk = self.recv()
            assert talk["type"] == "talk", talk
        return state

    def until(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Read until a message is ``wanted``; return it."""
        for _ in range(LIMIT):
            data = self.recv()
            if wanted(data):
                return data
        raise AssertionError("the wanted message never came")

    def send(self, data: object) -> None:
        self.ws.send_text(json.dumps(data))

    def act(self, action: dict[str, Any], version: int | None = None) -> None:
        """Send an action, naming the version of the state it answers (by default the latest state's)."""
        self.send({"type": "action", "action": action,
                   "version": self.current["version"] if version is None else version})

    def undo(self, version: int | None = None) -> None:
        self.send({"type": "undo", "version": self.current["version"] if version is None else version})

    @property
    def current(self) -> State:
        assert self.state is not None
        return self.state

    def states(self) -> list[State]:
        return [m for m in self.messages if m["type"] == "state"]

    def errors(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "error"]


# ---------------------------------------------------------------- at a table
#: The shorter partie, where a test needs a whole one but not the usual six deals.
FOUR_DEALS = {"four_deal_partie": True}


def db(path: Path) -> str:
    return str(path / "db.sqlite3")


def connect(http: TestClient, stack: ExitStack, table: dict[str, Any], q: str, name: str = "") -> Client:
    """A client at the table (``q``: ``token=...`` or ``spectate=...``), its first state read."""
    client = Client(stack.enter_context(http.websocket_connect(f"/ws/{table['id']}?{q}")), name)
    client.joined()
    return client


def record_now(app: FastAPI, table: dict[str, Any]) -> str:
    """The record of a game not yet over, from the server's own table (the download is refused before the end)."""
    partie = app.state.tables.get(table["id"]).partie
    assert partie is not None
    return record.dumps(partie)


def error(client: Client, code: str) -> dict[str, Any]:
    """The client's next message that is not a state is an error with ``code``."""
    message = client.until(lambda m: m["type"] != "state")
    assert message["type"] == "error" and message["code"] == code, message
    assert message["message"]
    return message


def join(bill: Client, name: str = "Bill") -> str:
    """The guest joins under ``name``: the seat secret he is sent first (his own, not the invite's)."""
    bill.send({"type": "join", "name": name})
    seat = bill.recv()
    assert seat["type"] == "seat" and seat["seat"] == 1, seat
    token: str = seat["token"]
    bill.recv_state()
    return token


def room(http: TestClient, stack: ExitStack, variant: str = "rubicon",
         options: dict[str, Any] | None = None) -> tuple[dict[str, Any], Client, Client]:
    """A room whose guest has joined: the creator Ann (seat 0) and Bill (seat 1); ``table["guest"]`` is Bill's
    seat secret."""
    table = create(http, "room", variant=variant, name="Ann", options=options or {})
    ann = connect(http, stack, table, f"token={table['token']}", "Ann")
    bill = connect(http, stack, table, query(table["links"]["invite"]), "Bill")
    table["guest"] = join(bill)
    ann.recv_state()
    return table, ann, bill


def close_code(http: TestClient, path: str) -> int:
    """The code the server closes a socket with, once accepted (a socket closed during the handshake fails with
    HTTP 403 in a browser, which never sees the code)."""
    with http.websocket_connect(path) as ws, pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_text()
    return closed.value.code


def over(state: State) -> bool:
    return bool(state["table"]["status"] == "over")


# ---------------------------------------------------------------- scripted players
def choose(state: State, rng: random.Random) -> dict[str, Any]:
    """An answer to the state's prompt, always one the prompt offers (or, for an exchange, cards of the hand)."""
    prompt = state["prompt"]
    kind = prompt["kind"]
    if kind in ("choose_dealer", "packets", "bid"):
        return {kind: rng.choice(prompt["options"])}
    if kind == "carte_blanche":
        return dict(rng.choice(prompt["options"]))
    if kind == "exchange":
        if prompt["advice"] is not None and rng.random() < 0.5:  # advice is given against the computer only
            discards = list(prompt["advice"])
        else:
            discards = rng.sample(state["view"]["hand"], rng.randint(prompt["min"], prompt["max"]))
        # Younger may have the rest of the talon shown, if she leaves any.
        assert prompt["may_show_rest"] == (prompt["younger"] and prompt["min"] < prompt["max"])
        show = prompt["may_show_rest"] and len(discards) < prompt["max"] and rng.random() < 0.4
        return {"exchange": discards, "show_rest": bool(show)}
    if kind == "declare":
        return dict(rng.choice(prompt["options"])["action"])
    assert kind == "play", prompt
    return {"play": rng.choice(prompt["cards"])}


def play_computer(client: Client, rng: random.Random, stop: Callable[[State], bool] = over) -> State:
    """Answer every prompt of the human at a computer table until ``stop`` (the end, by default)."""
    if client.state is None:
        client.joined()
    for _ in range(LIMIT):
        state = client.current
        if stop(state) or over(state):
            return state
        if state["prompt"] is not None and state["version"] != client.acted:
            client.acted = state["version"]
            client.act(choose(state, rng))
        client.recv_state()
    raise AssertionError("the partie did not end")


def latest(clients: list[Client]) -> State:
    return max((c.current for c in clients), key=lambda s: s["version"])


def play_room(players: list[Client], rng: random.Random, stop: Callable[[State], bool] = over) -> State:
    """Both players of a room answer their prompts until ``stop``; each wait is on the player the game waits for
    (every client gets every state, so that one's next state always comes)."""
    for _ in range(LIMIT):
        state = latest(players)
        if stop(state) or over(state):
            return state
        to_act = state["view"]["to_act"]
        client = players[to_act if to_act is not None else 0]
        mine = client.current
        if mine["version"] == state["version"] and mine["prompt"] is not None and mine["version"] != client.acted:
            client.acted = mine["version"]
            client.act(choose(mine, rng))
        client.recv_state()
    raise AssertionError("the partie did not end")


def catch_up(client: Client, version: int) -> State:
    """Read the client's states until it has the one of ``version`` (or a later one)."""
    if client.state is not None and client.state["version"] >= version:
        return client.state
    return client.until(lambda m: m["type"] == "state" and m["version"] >= version)


# ---------------------------------------------------------------- what a client may know
def cards_in_message(message: dict[str, Any]) -> CardSet:
    """Every card a message names, as a card string or in a text (the table's id, secrets and secret links left
    out: random letters may spell a card). One pass over the JSON text, each escape read as a space."""
    body = {k: v for k, v in message.items() if k not in ("table", "token", "link")}
    return cards_in_text(_ESCAPE.sub(" ", json.dumps(body, ensure_ascii=False)))


def knowledge_by_version(record_text: str, versions: set[int]) -> dict[int, tuple[CardSet, CardSet, CardSet]]:
    """What seat 0, seat 1 and a spectator may know after each of ``versions`` actions, from the finished
    game's record re-played (the oracle of ``test_variant_invariants``, not the views')."""
    partie = record.loads(record_text)
    assert max(versions) <= len(partie.actions)
    out = {}
    for version in sorted(versions, reverse=True):
        while len(partie.actions) > version:
            partie.pop()
        out[version] = knowledge(partie)
    return out


def deal_ends(record_text: str) -> list[int]:
    """The version at which each deal was over, the cut's (deal 0) first: the actions before the next deal's."""
    actions = record.loads(record_text).actions
    return [i for i, action in enumerate(actions) if isinstance(action, Deal)]


def leaks(record_text: str, clients: list[Client]) -> list[tuple[str, int, str]]:
    """(client, version, cards it may not know) for every message a client got that names a card its player may
    not see: every state, and every other message (an error, a hint, a seat's secret...) judged at the version of
    the state before it; a ``talk`` (the finished deals' talk), each deal judged at the version its deal was over."""
    ends = deal_ends(record_text)
    versions = {m["version"] for c in clients for m in c.states()} | set(ends)
    allowed = knowledge_by_version(record_text, versions)
    found = []
    for client in clients:
        seat: int | None = None
        version: int | None = None
        for message in client.messages:
            if message["type"] == "state":
                seat, version = message["seat"], message["version"]
            if version is None:
                assert not cards_in_message(message), message  # nothing about cards before the first state
                continue
            viewer = 2 if seat is None else seat
            if message["type"] == "talk":
                for deal in message["deals"]:
                    assert ends[deal["deal"]] <= version, (deal["deal"], version)  # a deal over, not one in play
                    extra = cards_in_message(deal) - allowed[ends[deal["deal"]]][viewer]
                    if extra:
                        found.append((client.name, ends[deal["deal"]], str(extra)))
                continue
            extra = cards_in_message(message) - allowed[version][viewer]
            if extra:
                found.append((client.name, version, str(extra)))
    return found
