"""The server of ``piquet serve`` through its HTTP API and WebSockets (``docs/protocol.md``): whole parties against
the computer and in rooms, no card leaked to any client, reconnecting, restarting on the same store, undo, and
every forged or out-of-turn message refused without changing the game."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import (
    FOUR_DEALS,
    Client,
    State,
    cards_in_message,
    catch_up,
    choose,
    close_code,
    connect,
    create,
    db,
    error,
    join,
    knowledge_by_version,
    leaks,
    over,
    play_computer,
    play_room,
    query,
    record_now,
    room,
    seed_tables,
)

from piquet.ai.levels import LEVEL_NAMES
from piquet.engine import record
from piquet.engine.cards import CARDS, CardSet
from piquet.ui.web.app import create_app
from piquet.ui.web.protocol import MAX_MESSAGE


@pytest.fixture(autouse=True)
def _seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    seed_tables(monkeypatch, 7)


def secret(link: str) -> str:
    """The token or spectator secret of a page link."""
    return query(link).split("=", 1)[1]


def record_of(http: TestClient, table: dict[str, Any], token: str) -> str:
    answer = http.get(f"/api/tables/{table['id']}/record", params={"token": token})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    return answer.text


def in_play(state: State) -> bool:
    """A few tricks into a deal."""
    return bool(state["view"]["phase"] == "play" and len(state["view"]["tricks"]) >= 3)


def to_play(state: State) -> bool:
    """The client's player is to play a card, a few tricks into a deal."""
    return state["prompt"] is not None and state["prompt"]["kind"] == "play" and in_play(state)


def check_record(text: str, end: State) -> None:
    """The record re-plays to the end the clients were shown."""
    partie = record.loads(text)
    assert partie.is_over and partie.result is not None
    assert len(partie.actions) == end["version"]
    assert list(partie.totals) == end["view"]["totals"]
    result = end["view"]["result"]
    assert (partie.result.winner, partie.result.points) == (result["winner"], result["points"])


def check_no_leak(text: str, players: list[Client], spectator: Client) -> None:
    assert leaks(text, [*players, spectator]) == []
    # Not vacuous: the players were shown their hands, the spectator the cards played.
    for client in players:
        assert max(len(cards_in_message(s)) for s in client.states()) >= 12
    assert max(len(cards_in_message(s)) for s in spectator.states()) >= 2


@dataclass
class Played:
    """A game played through the sockets, every message each client got kept."""

    table: dict[str, Any]
    players: list[Client]
    spectator: Client
    end: State
    record: str
    http_codes: dict[str, int] = field(default_factory=dict)


# ---------------------------------------------------------------- a whole partie against the computer
@pytest.fixture(scope="module")
def computer_game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """Ann plays a whole partie against the level-2 computer, watched by a spectator."""
    codes = {}
    with pytest.MonkeyPatch.context() as mp:
        seed_tables(mp, 11)
        with TestClient(create_app(db(tmp_path_factory.mktemp("computer")))) as http, ExitStack() as stack:
            table = create(http, "computer", name="Ann", level=2)
            token = table["token"]
            ann = connect(http, stack, table, f"token={token}", "Ann")
            spectator = connect(http, stack, table, query(table["links"]["spectate"]), "spectator")
            rng = random.Random(1)
            play_computer(ann, rng, stop=to_play)
            codes["before the end"] = http.get(f"/api/tables/{table['id']}/record", params={"token": token}).status_code
            end = play_computer(ann, rng)
            catch_up(spectator, end["version"])
            text = record_of(http, table, token)
            assert record_of(http, table, secret(table["links"]["spectate"])) == text
            codes["wrong token"] = http.get(f"/api/tables/{table['id']}/record", params={"token": "x"}).status_code
            codes["no table"] = http.get("/api/tables/nope/record", params={"token": token}).status_code
    return Played(table, [ann], spectator, end, text, codes)


def test_partie_against_the_computer_played_to_the_end_gives_a_result_and_a_record_that_replays(
        computer_game: Played) -> None:
    game = computer_game
    assert game.table["links"]["invite"] is None
    first = game.players[0].states()[0]
    assert first["seat"] == 0 and first["players"] == ["Ann", "Computer"] and first["computer"] == 1
    assert first["table"]["kind"] == "computer" and first["table"]["level"] == 2
    end = game.end
    assert end["table"]["status"] == "over" and end["prompt"] is None and end["view"]["phase"] == "over"
    assert end["can_undo"] is False  # the partie is over: its record is final
    assert end["view"]["result"]["text"] and end["view"]["result"]["winner"] in (0, 1)
    assert game.spectator.current["view"]["result"] == end["view"]["result"]
    assert game.http_codes == {"before the end": 403, "wrong token": 403, "no table": 404}
    check_record(game.record, end)
    # She was prompted at least for each card she played: twelve a deal, six deals.
    states = game.players[0].states()
    assert sum(1 for s in states if s["prompt"] is not None) >= 12 * 6


# ---------------------------------------------------------------- a room
@pytest.fixture(scope="module")
def room_game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """Ann's room: Bill's refused joins, then his join; refused undos and spectator moves; a whole partie."""
    with pytest.MonkeyPatch.context() as mp:
        seed_tables(mp, 12)
        with TestClient(create_app(db(tmp_path_factory.mktemp("room")))) as http, ExitStack() as stack:
            table = create(http, "room", name="Ann", options=FOUR_DEALS)
            invite = table["links"]["invite"]
            ann = connect(http, stack, table, f"token={table['token']}", "Ann")
            spectator = connect(http, stack, table, query(table["links"]["spectate"]), "spectator")
            bill = connect(http, stack, table, query(invite), "Bill")
            for client, name in ((bill, "Ann"), (bill, "  Ann "), (ann, "Zoe"), (spectator, "Zoe")):
                client.send({"type": "join", "name": name})
                error(client, "not_allowed")  # the creator's name; the creator; a spectator
            bill.act({"choose_dealer": 1})
            error(bill, "not_allowed")  # no partie before he joins
            assert len(ann.states()) == len(bill.states()) == len(spectator.states()) == 1

            join(bill, " Bill ")
            for client in (ann, spectator):
                client.recv_state()
            bill.send({"type": "join", "name": "Bill"})
            error(bill, "not_allowed")  # once
            for client in (bill, ann):
                client.undo()
                error(client, "not_allowed")  # no taking back in a room

            rng = random.Random(3)
            players = [ann, bill]
            state = play_room(players, rng, stop=in_play)
            mover = players[state["view"]["to_act"]]
            catch_up(mover, state["version"])
            spectator.act(choose(mover.current, rng))
            error(spectator, "not_allowed")
            codes = {"before the end": http.get(f"/api/tables/{table['id']}/record",
                                                params={"token": table["token"]}).status_code}
            end = play_room(players, rng)
            for client in (ann, bill, spectator):
                catch_up(client, end["version"])
            text = record_of(http, table, secret(table["links"]["spectate"]))
    return Played(table, players, spectator, end, text, codes)


def test_room_waits_for_its_guest_who_joins_once_under_another_name_and_spectators_only_watch(
        room_game: Played) -> None:
    game = room_game
    ann, bill = game.players
    invite = game.table["links"]["invite"]
    assert invite.startswith(f"/t/{game.table['id']}#invite=") and invite != game.table["links"]["play"]
    first = ann.states()[0]
    assert first["table"]["status"] == "waiting" and first["table"]["invite"] == invite
    assert first["players"] == ["Ann", None] and first["view"] is None and first["prompt"] is None
    assert bill.states()[0]["seat"] == 1 and bill.states()[0]["table"]["invite"] is None
    joined = [c.states()[1] for c in (ann, bill, game.spectator)]
    for state in joined:
        assert state["players"] == ["Ann", "Bill"] and state["table"]["status"] == "playing"
        assert state["table"]["invite"] is None
    assert [e["code"] for e in ann.errors()] == ["not_allowed"] * 2
    assert [e["code"] for e in bill.errors()] == ["not_allowed"] * 5
    assert [e["code"] for e in game.spectator.errors()] == ["not_allowed"] * 2
    assert game.http_codes == {"before the end": 403}
    check_record(game.record, game.end)
    for client in game.players:
        assert over(client.current) and client.current["view"]["result"]["text"]
        assert client.current["view"]["totals"] == game.end["view"]["totals"]
    watched = game.spectator.states()
    assert over(watched[-1]) and len(watched) > 100
    assert all(s["seat"] is None and s["prompt"] is None and s["can_undo"] is False for s in watched)
    assert all(s["view"]["hand"] == [] for s in watched if s["view"] is not None)


# ---------------------------------------------------------------- no leak
def test_no_state_sent_at_a_computer_table_names_a_card_its_client_may_not_see(computer_game: Played) -> None:
    """Every card in every state the human and a spectator got during a whole partie is one they may know at
    that version, by the independent oracle re-played from the record."""
    check_no_leak(computer_game.record, computer_game.players, computer_game.spectator)


def test_no_state_sent_in_a_room_names_a_card_its_client_may_not_see(room_game: Played) -> None:
    check_no_leak(room_game.record, room_game.players, room_game.spectator)


@pytest.mark.parametrize("kind, variant", [("room", "auction"), ("room", "au-cent"), ("computer", "auction")])
def test_no_state_sent_in_auction_and_au_cent_names_a_card_its_client_may_not_see(
        tmp_path: Path, kind: str, variant: str) -> None:
    """The other variants, two deals each (their parties are long)."""
    app = create_app(db(tmp_path))
    rng = random.Random(len(variant))
    with TestClient(app) as http, ExitStack() as stack:
        if kind == "room":
            table, ann, bill = room(http, stack, variant)
            players = [ann, bill]
        else:
            table = create(http, "computer", variant=variant, name="Ann")
            players = [connect(http, stack, table, f"token={table['token']}", "Ann")]
        spectator = connect(http, stack, table, query(table["links"]["spectate"]), "spectator")
        def third(s: dict[str, Any]) -> bool:
            return bool(s["view"]["deal_number"] >= 3 and s["prompt"] is not None)

        if kind == "room":
            state = play_room(players, rng, stop=lambda s: any(third(c.current) for c in players))
        else:
            state = play_computer(players[0], rng, stop=third)
        for client in (*players, spectator):
            catch_up(client, state["version"])
        text = record_now(app, table)
    check_no_leak(text, players, spectator)


def test_the_leak_check_catches_a_card_a_client_may_not_see(room_game: Played) -> None:
    ann = room_game.players[0]
    state = next(s for s in reversed(ann.states()) if s["view"]["phase"] == "play")
    may = knowledge_by_version(room_game.record, {state["version"]})[state["version"]][0]
    hidden = next(iter(CardSet.parse([str(c) for c in CARDS]) - may))
    forged = json.loads(json.dumps(state))
    forged["view"]["log"].append({"kind": "note", "speaker": None, "text": f"Bill holds the {hidden}."})
    spy = Client(ann.ws, "spy")
    spy.messages = [state, forged]
    assert [(name, version) for name, version, _ in leaks(room_game.record, [spy])] == [("spy", state["version"])]


# ---------------------------------------------------------------- reconnect and restart
def test_reconnecting_mid_deal_gives_the_whole_current_state_and_the_prompt_again(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http:
        table = create(http, "computer", name="Ann")
        with ExitStack() as stack:
            before = play_computer(connect(http, stack, table, f"token={table['token']}"), random.Random(4),
                                   stop=to_play)
        with ExitStack() as stack:
            again = connect(http, stack, table, f"token={table['token']}")
            assert again.current == before
            again.act({"play": before["prompt"]["cards"][0]})
            assert again.recv_state()["version"] == before["version"] + 1


@pytest.mark.parametrize("kind", ["computer", "room"])
def test_restart_on_the_same_store_resumes_every_state_exactly_and_the_game_plays_on(tmp_path: Path,
                                                                                   kind: str) -> None:
    rng = random.Random(5)
    def mid_deal(s: dict[str, Any]) -> bool:
        return bool(s["view"]["deal_number"] >= 2 and in_play(s))

    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        if kind == "room":
            table, ann, bill = room(http, stack, options=FOUR_DEALS)
            players = [ann, bill]
            state = play_room(players, rng, stop=mid_deal)
            for client in players:
                catch_up(client, state["version"])
            links = [f"token={table['token']}", f"token={table['guest']}"]
        else:
            table = create(http, "computer", name="Ann", options=FOUR_DEALS)
            players = [connect(http, stack, table, f"token={table['token']}", "Ann")]
            play_computer(players[0], rng, stop=lambda s: mid_deal(s) and s["prompt"] is not None)
            links = [f"token={table['token']}"]
        before = [c.current for c in players]
    assert any(s["prompt"] is not None for s in before)

    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        again = [connect(http, stack, table, q) for q in links]
        for old, new in zip(before, again, strict=True):
            assert new.current == old
        end = play_room(again, rng) if kind == "room" else play_computer(again[0], rng)
        check_record(record_of(http, table, table["token"]), end)


# ---------------------------------------------------------------- forged and out of turn
def refuse_everything_forged(http: TestClient, table: dict[str, Any], mover: Client, waiter: Client,
                             spectator: Client, rng: random.Random) -> None:
    """Out of turn, forged, spectator and garbage messages at the mover's decision: each gets an error, none
    changes the game; then the mover's legal action is the next state every client gets."""
    names = ["Ann", "Bill"]
    seat = mover.current["seat"]
    action = choose(mover.current, rng)
    before = [c.current for c in (mover, waiter, spectator)]

    waiter.act(action)
    error(waiter, "not_your_turn")
    waiter.act({**action, "player": names[seat]})
    error(waiter, "malformed")
    for name in names:
        mover.act({**action, "player": name})
        error(mover, "malformed")
    spectator.act(action)
    error(spectator, "not_allowed")
    room = table["links"]["invite"] is not None
    waiter.send({"type": "hint"})
    error(waiter, "not_allowed" if room else "not_your_turn")
    if "packets" in action:
        mover.send({"type": "hint"})  # the strongest level's advice, among the prompt's options
        if room:
            error(mover, "not_allowed")  # two people play on their own
        else:
            hint = mover.until(lambda m: m["type"] != "state")
            assert hint["type"] == "hint" and hint["text"] and hint["action"]["packets"] in (2, 3)
        cards = [str(c) for c in CARDS]
        stacked = {"hands": {names[seat]: cards[:12], names[1 - seat]: cards[12:24]}, "talon": cards[24:]}
        mover.act({"deal": stacked})
        error(mover, "malformed")
        mover.act({"packets": 4})
        error(mover, "illegal")
    else:
        mover.act({"play": waiter.current["view"]["hand"][0]})
        error(mover, "illegal")
        mover.act({"play": "XX"})
        error(mover, "malformed")
    for garbage in ("hello", "[1]", '{"type": []}', "[" * 6000 + "]" * 6000, '{"type": "undo", "x": 1}'):
        mover.ws.send_text(garbage)
        error(mover, "malformed")
    mover.ws.send_bytes(b"\xff")
    error(mover, "malformed")
    mover.send({"type": "join", "name": "A" * MAX_MESSAGE})
    error(mover, "too_large")

    for q in ("token=not-a-token", "", "spectate=nope", f"spectate={table['token']}"):
        assert close_code(http, f"/ws/{table['id']}?{q}") == 4403
    assert close_code(http, f"/ws/nope?token={table['token']}") == 4404

    # Nothing changed: a new connection gets the same state, and the next state each client gets is the one
    # after the legal action.
    with ExitStack() as fresh:
        assert connect(http, fresh, table, f"token={table['token']}").current == before[0 if seat == 0 else 1]
    mover.act(action)
    for client, old in zip((mover, waiter, spectator), before, strict=True):
        assert client.recv_state()["version"] == old["version"] + 1


def test_forged_out_of_turn_and_garbage_messages_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        other = create(http, "computer", name="Zoe", options=FOUR_DEALS)  # another game, served all along
        zoe = connect(http, stack, other, f"token={other['token']}", "Zoe")
        rng = random.Random(6)
        play_computer(zoe, rng, stop=to_play)

        table, ann, bill = room(http, stack, options=FOUR_DEALS)
        spectator = connect(http, stack, table, query(table["links"]["spectate"]), "spectator")
        players = [ann, bill]
        packets = lambda s: s["prompt"] is not None and s["prompt"]["kind"] == "packets"  # noqa: E731
        for wanted in (packets, to_play):
            state = play_room(players, rng, stop=lambda s, w=wanted: any(w(c.current) for c in players))  # type: ignore[misc]
            for client in (*players, spectator):
                catch_up(client, state["version"])
            mover = next(c for c in players if c.current["prompt"] is not None)
            waiter = bill if mover is ann else ann
            refuse_everything_forged(http, table, mover, waiter, spectator, rng)
        # the room refuses the mover's hint at the packets prompt: one error more
        assert len(ann.errors()) + len(bill.errors()) == 2 * 14 + 1 and len(spectator.errors()) == 2

        deal = ann.current["view"]["deal_number"]
        state = play_room(players, rng, stop=lambda s: s["view"]["deal_number"] > deal)  # the room plays on
        assert state["view"]["deal_number"] == deal + 1 and state["table"]["status"] == "playing"
        assert over(play_computer(zoe, rng))


# ---------------------------------------------------------------- undo
def test_undo_against_the_computer_returns_to_the_players_decision_and_the_store_agrees(tmp_path: Path) -> None:
    rng = random.Random(8)
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, "computer", name="Ann", level=2, takebacks="free")
        ann = Client(stack.enter_context(http.websocket_connect(f"/ws/{table['id']}?token={table['token']}")))
        play_computer(ann, rng, stop=lambda s: s["prompt"] is not None)
        ann.undo()
        error(ann, "not_allowed")  # nothing of hers to take back yet
        # She leads a trick: the computer follows before her next decision.
        decision = play_computer(ann, rng, stop=lambda s: to_play(s) and s["can_undo"] and not s["view"]["trick"])
        ann.acted = decision["version"]
        ann.act(choose(decision, rng))
        later = play_computer(ann, rng, stop=lambda s: s["prompt"] is not None and s["version"] > decision["version"])
        assert later["can_undo"] and later["version"] > decision["version"] + 1
        ann.undo()
        back = ann.recv_state()
        assert back["table"]["taken_back"] == 1  # free takebacks are written down
        # The same state as at the decision, but for its version, which moves on (it never recurs): what was sent
        # at the decision answers a state the table has left.
        assert {**back, "table": {**back["table"], "taken_back": 0}, "version": decision["version"]} == decision
        assert back["version"] == later["version"] + 1
        assert (back["prompt"], back["view"]["hand"]) == (decision["prompt"], decision["view"]["hand"])
        ann.send({"type": "action", "action": choose(decision, rng), "version": decision["version"]})
        error(ann, "stale")
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        again = connect(http, stack, table, f"token={table['token']}")
        assert again.current == back  # the version is kept with the table
        again.act(choose(decision, rng))
        assert again.recv_state()["version"] == back["version"] + 1


# ---------------------------------------------------------------- HTTP
@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(db(tmp_path_factory.mktemp("http")))) as client:
        yield client


@pytest.mark.parametrize("body, says", [
    ({"kind": "computer", "variant": "whist"}, "whist"),
    ({"kind": "computer", "options": {"no_such_rule": True}}, "no_such_rule"),
    ({"kind": "room", "variant": "auction", "options": {"four_deal_partie": True}}, "four_deal_partie"),
    ({"kind": "computer", "options": {"minimum_point": 99}}, "minimum_point"),
    ({"kind": "computer", "options": {"four_deal_partie": 1}}, "four_deal_partie"),
    ({"kind": "computer", "options": {"minimum_point": [3]}}, "minimum_point"),
    ({"kind": "computer", "options": {"elder_may_stand_pat": "yes"}}, "elder_may_stand_pat"),
    ({"kind": "computer", "options": {"minimum_point": "3"}}, "minimum_point"),
    ({"kind": "computer", "level": 9}, "level"),
    ({"kind": "computer", "level": 0}, "level"),
    ({"kind": "computer", "level": None}, "level"),
    ({"kind": "computer", "level": "strong"}, "level"),
    ({"kind": "table"}, "kind"),
    ({"kind": "room", "name": "A" * 41}, "name"),
])
def test_creating_a_table_with_a_bad_variant_option_or_level_is_refused_with_a_message(
        http: TestClient, body: dict[str, Any], says: str) -> None:
    answer = http.post("/api/tables", json=body)
    assert answer.status_code == 422, answer.text
    assert says in json.dumps(answer.json()["detail"])


def test_table_pages_setup_and_rules_over_http(http: TestClient) -> None:
    assert http.get("/t/no-such-table").status_code == 404
    table = create(http, "room", name="Ann", variant="au-cent", options={"minimum_point": 3})
    assert table["links"]["play"] == f"/t/{table['id']}#token={table['token']}"
    assert http.get("/t/no-such-table", params={"token": table["token"]}).status_code == 404
    with ExitStack() as stack:
        state = connect(http, stack, table, f"token={table['token']}").current
        assert state["table"]["variant"] == "au-cent" and state["table"]["options"] == {"minimum_point": 3}
    setup = http.get("/api/setup").json()
    variants = {v["name"]: v for v in setup["variants"]}
    assert set(variants) == {"rubicon", "auction", "au-cent"}
    for variant in variants.values():
        assert variant["title"] and variant["options"]
        for option in variant["options"]:
            assert option["name"] and option["description"] and "default" in option
    assert "four_deal_partie" in {o["name"] for o in variants["rubicon"]["options"]}
    assert "four_deal_partie" not in {o["name"] for o in variants["auction"]["options"]}
    assert [level["level"] for level in setup["levels"]] == [1, 2, 3, 4, 5]
    rules = http.get("/rules/auction")
    assert rules.status_code == 200 and rules.headers["content-type"].startswith("text/html")
    assert "Auction Piquet" in rules.text
    assert http.get("/rules/whist").status_code == 404


def test_every_page_names_its_icon_so_no_browser_asks_for_one_that_is_not_there(http: TestClient) -> None:
    """The guides and the laws (issue 32, item 11) as every page: the site's icon named in the page, and there."""
    table = create(http, "computer", name="Ann", level=1)
    pages = ["/", f"/t/{table['id']}", f"/t/{table['id']}/review", "/guide", "/guide/rubicon", "/guide/whist",
             "/rules", "/rules/rubicon", "/t/no-such-table"]
    for path in pages:
        page = http.get(path)
        assert page.headers["content-type"].startswith("text/html"), path
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page.text, path
    assert http.get("/static/favicon.svg").status_code == 200


def test_the_lobby_names_the_levels_by_how_they_play_not_by_their_method(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path), workers=0)) as http:
        levels = http.get("/api/setup").json()["levels"]
    assert [(lv["level"], lv["name"]) for lv in levels] == [(n, LEVEL_NAMES[n]) for n in sorted(LEVEL_NAMES)]
    assert not any(word in lv["name"] for lv in levels for word in ("sampling", "simple", "search"))


# ---------------------------------------------------------------- a rematch (issue 21, item 9)
def _rematch(http: TestClient, table: dict[str, Any], token: str) -> Any:
    return http.post(f"/api/tables/{table['id']}/rematch", params={"token": token})


@pytest.mark.slow  # a whole partie (or several): the inner loop leaves it to CI
def test_a_rematch_against_the_computer_is_a_new_table_with_the_same_settings_once_the_partie_is_over(
        tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path), workers=0)) as http, ExitStack() as stack:
        table = create(http, "computer", name="Ann", level=1, options=FOUR_DEALS, takebacks="free", budget=0.5,
                       tutor=100)  # a tutor that never warns: a choice never loses a hundred points
        ann = connect(http, stack, table, f"token={table['token']}", "Ann")
        assert _rematch(http, table, table["token"]).status_code == 409  # not before the end
        play_computer(ann, random.Random(4))
        spectator = query(table["links"]["spectate"]).split("=", 1)[1]
        assert _rematch(http, table, spectator).status_code == 403
        assert _rematch(http, table, "nobody").status_code == 403
        answer = _rematch(http, table, table["token"])
        assert answer.status_code == 200
        new = answer.json()
        assert new["id"] != table["id"] and new["link"].startswith(f"/t/{new['id']}#token=")
        again = {"id": new["id"], "token": new["link"].split("#token=", 1)[1], "links": {}}
        first = connect(http, stack, again, f"token={again['token']}", "Ann").current
        old, fresh = ann.recv_state()["table"], first["table"]
        assert old["rematch"] is True and fresh["rematch"] is False
        for key in ("kind", "variant", "options", "level", "budget", "tutor", "takebacks"):
            assert fresh[key] == old[key], key
        assert first["players"] == ["Ann", "Computer"] and fresh["status"] == "playing"


@pytest.mark.slow  # a whole partie: the inner loop leaves it to CI
def test_a_rematch_in_a_room_opens_a_room_for_the_asker_and_invites_the_other(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path), workers=0)) as http, ExitStack() as stack:
        table, ann, bill = room(http, stack, options=FOUR_DEALS)
        play_room([ann, bill], random.Random(6))
        asked = _rematch(http, table, table["guest"]).json()  # Bill asks first: the new room is his
        assert asked["link"].startswith(f"/t/{asked['id']}#token=")
        assert ann.until(lambda m: m["type"] == "state" and m["table"]["rematch"])["table"]["rematch"] is True
        invited = _rematch(http, table, table["token"]).json()
        assert invited["id"] == asked["id"] and "#invite=" in invited["link"]
        assert _rematch(http, table, table["guest"]).json() == asked  # asked again: the same seat
        new = {"id": asked["id"], "token": asked["link"].split("#token=", 1)[1], "links": {}}
        bill2 = connect(http, stack, new, f"token={new['token']}", "Bill")
        ann2 = connect(http, stack, new, query(invited["link"]), "Ann")
        join(ann2, "Ann")
        assert bill2.until(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")["players"] == [
            "Bill", "Ann"]
        assert _rematch(http, table, table["token"]).status_code == 409  # the rematch's room is full
