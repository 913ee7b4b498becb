"""History (issue 36): the finished parties a browser's seats played, found in the store by the seat secrets the
browser sends, each with its variant, opponent or level, date, result and rubicon, and its links; a secret that
holds no seat (another player's, a spectator's, made up) shows nothing, and a malformed request is refused saying
where and why. The store's half (results written when a partie ends, looked up by table id) runs on SQLite and, where
a PostgreSQL server is installed, on PostgreSQL too."""

from __future__ import annotations

import asyncio
import random
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from helpers import played_by_chance
from web_helpers import FOUR_DEALS, connect, create, db, play_computer, play_room, query, review_phases_lightly_in, room

from piquet.engine.partie import Partie
from piquet.engine.record import action_to_data
from piquet.ui.web.app import HISTORY_BURST, create_app
from piquet.ui.web.history import summary
from piquet.ui.web.offline import BrowserStore
from piquet.ui.web.store import MAX_PLAYED, SQLiteStore, SQLStore, StoreError, TableInfo

Json = dict[str, Any]


@pytest.fixture(autouse=True)
def _light_phase_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    """A History request has the server review each finished partie by phase, in its thread, as the test goes on:
    over few worlds here, where History's own answers are checked (``tests/test_web_progress_phases.py`` checks the
    reviews by phase)."""
    review_phases_lightly_in(monkeypatch)


def finished_table(http: TestClient, stack: ExitStack, rng: random.Random, **body: Any) -> tuple[Json, Json]:
    """A table against the computer played to its end by ``rng``'s choices (four deals, except au Cent): the
    table as created, and its last state."""
    shorter = {"options": FOUR_DEALS} if body.get("variant") != "au-cent" else {}
    table = create(http, "computer", name="Ann", **shorter, **body)
    end = play_computer(connect(http, stack, table, query(table["links"]["play"])), rng)
    return table, end


def ask(http: TestClient, seats: list[tuple[str, str]], lang: str = "en") -> Any:
    return http.post("/api/history", json={"seats": [{"table": t, "token": s} for t, s in seats], "lang": lang})


def test_a_seats_secret_lists_its_finished_parties_newest_first(tmp_path: Path) -> None:
    rng = random.Random(36)
    with TestClient(create_app(db(tmp_path), workers=0, review_workers=0)) as http, ExitStack() as stack:
        first, end1 = finished_table(http, stack, rng, level=1)
        second, end2 = finished_table(http, stack, rng, level=2, variant="au-cent")
        playing = create(http, "computer", name="Ann", level=1)  # begun, not over: not in History
        connect(http, stack, playing, query(playing["links"]["play"]))
        answer = ask(http, [(t["id"], t["token"]) for t in (first, second, playing)])
        assert answer.status_code == 200, answer.text
        parties = answer.json()["parties"]
        assert [p["id"] for p in parties] == [second["id"], first["id"]]
        newest, oldest = parties
        assert (oldest["variant"], oldest["title"], oldest["kind"], oldest["level"]) == (
            "rubicon", "Rubicon Piquet", "computer", 1)
        assert (newest["variant"], newest["level"], oldest["seat"], oldest["opponent"]) == ("au-cent", 2, 0, "Computer")
        result = end1["view"]["result"]
        assert oldest["result"]["winner"] == result["winner"] and oldest["result"]["points"] == result["points"]
        assert oldest["result"]["rubiconed"] == result["rubiconed"] and oldest["won"] == (result["winner"] == 0)
        assert oldest["result"]["totals"] == end1["view"]["totals"]
        assert newest["result"]["rubiconed"] is None  # au Cent has no rubicon: it plays games
        assert newest["result"]["games"] == end2["view"]["result"]["games"]
        assert oldest["finished"] >= oldest["created"]
        links = oldest["links"]
        assert links["review"].startswith(f"/t/{first['id']}/review?deal=1&deals=")
        assert "lens=open-hands" in links["replay"]
        record = http.get(links["record"])
        assert record.status_code == 200 and record.json()["players"][0] == "Ann"
        assert http.get(links["review"].split("?")[0]).status_code == 200
        # Progress: one row a variant and level, its parties won, lost or drawn and its averages from Ann's side.
        progress = answer.json()["progress"]
        rows = {(g["variant"], g["opponent"]): g for g in progress["groups"]}
        assert set(rows) == {("rubicon", "1, beginner"), ("au-cent", "2, casual")}
        rubicon = rows["rubicon", "1, beginner"]
        assert (rubicon["parties"], rubicon["won"] + rubicon["lost"] + rubicon["drawn"]) == (1, 1)
        won = oldest["won"]
        assert rubicon["points_a_partie"] == (0 if won is None else result["points"] * (1 if won else -1))
        totals = end1["view"]["totals"]
        assert rubicon["points_a_deal"] == round((totals[0] - totals[1]) / oldest["result"]["deals"], 1)
        assert progress["svg"].count('data-testid="progress-row"') == 2 and "Rubicon Piquet · 1, beginner" in progress[
            "svg"]
        # In French, the titles and the computer's name in French.
        french = ask(http, [(first["id"], first["token"])], "fr").json()["parties"][0]
        assert (french["title"], french["opponent"]) == ("Piquet rubicon", "l'ordinateur")


def test_another_players_secret_shows_nothing_of_his(tmp_path: Path) -> None:
    rng = random.Random(7)
    with TestClient(create_app(db(tmp_path), workers=0, review_workers=0)) as http, ExitStack() as stack:
        mine, _ = finished_table(http, stack, rng, level=1)
        theirs, _ = finished_table(http, stack, rng, level=1)
        # A room: the guest's secret holds a seat there (but the partie is not over: nothing to list); its spectator
        # secret and its invitation hold no seat, and list nothing either.
        rt, _ann, _bill = room(http, stack)
        spectate = query(rt["links"]["spectate"]).split("=", 1)[1]
        answer = ask(http, [(mine["id"], mine["token"]), (theirs["id"], mine["token"]), (theirs["id"], "made-up"),
                            ("no-such-table", theirs["token"]), (rt["id"], spectate), (rt["id"], rt["guest"])])
        assert [p["id"] for p in answer.json()["parties"]] == [mine["id"]]
        # The same answer whether a table exists or not: nothing says which secrets were wrong.
        nothing = {"parties": [], "progress": {"groups": [], "svg": ""},
                   "phases": {"reviewed": 0, "waiting": 0, "failed": 0, "variants": []}}
        assert ask(http, [(theirs["id"], "x")]).json() == ask(http, [("nope", "x")]).json() == nothing


def test_a_rooms_guest_sees_the_partie_from_his_own_seat(tmp_path: Path) -> None:
    """In a room each player's secret lists the partie from his side: his seat, his opponent's name, whether he won;
    and the result was written to the store when the partie ended, before any History request."""
    rng = random.Random(5)
    with TestClient(create_app(db(tmp_path), workers=0, review_workers=0)) as http, ExitStack() as stack:
        rt, ann, bill = room(http, stack, options=FOUR_DEALS)
        end = play_room([ann, bill], rng)
        store = SQLiteStore(db(tmp_path))
        [stored] = store.played([(rt["id"], rt["guest"])])
        store.close()
        assert stored.seat == 1 and stored.result is not None and stored.finished is not None
        winner = end["view"]["result"]["winner"]
        [hers] = ask(http, [(rt["id"], rt["token"])]).json()["parties"]
        [his] = ask(http, [(rt["id"], rt["guest"])]).json()["parties"]
        assert (hers["seat"], hers["opponent"], his["seat"], his["opponent"]) == (0, "Bill", 1, "Ann")
        assert (hers["won"], his["won"]) == ((None, None) if winner is None else (winner == 0, winner == 1))
        [group] = ask(http, [(rt["id"], rt["guest"])]).json()["progress"]["groups"]
        totals = end["view"]["totals"]
        assert group["opponent"] == "Ann" and group["points_a_deal"] == round(
            (totals[1] - totals[0]) / his["result"]["deals"], 1)


@pytest.mark.parametrize(("body", "where"), [
    ({"seats": "all"}, "seats: Input should be a valid list"),
    ({"seats": [{"table": "t"}]}, "seats.0.token: Field required"),
    ({"seats": [{"table": "t", "token": 5}]}, "seats.0.token: Input should be a valid string"),
    ({"seats": [{"table": "", "token": "s"}]}, "seats.0.table: String should have at least 1 character"),
    ({"seats": [{"table": "t", "token": "s" * 200}]}, "seats.0.token: String should have at most 128 characters"),
    ({"seats": [{"table": "t", "token": "s"}] * (MAX_PLAYED + 1)}, f"seats: List should have at most {MAX_PLAYED}"),
    ({"seats": [], "lang": "xx"}, "lang: 'xx' is not a language the server speaks"),
])
def test_a_malformed_request_is_refused_saying_where_and_why(tmp_path: Path, body: dict[str, Any],
                                                           where: str) -> None:
    with TestClient(create_app(db(tmp_path), workers=0, review_workers=0)) as http:
        answer = http.post("/api/history", json=body)
        assert answer.status_code == 422
        assert answer.json()["detail"].startswith(where), answer.json()


def test_history_requests_are_rate_limited_per_address_with_a_clear_429(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path), workers=0, review_workers=0)) as http:
        burst = int(HISTORY_BURST)
        assert [ask(http, [("t", "s")]).status_code for _ in range(burst)] == [200] * burst
        refused = ask(http, [("t", "s")])
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert refused.json()["detail"].startswith("at most 30 History requests a minute from one address")


def test_the_history_page_is_served_and_the_lobby_links_to_it(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path), workers=0, review_workers=0)) as http:
        page = http.get("/history")
        assert page.status_code == 200 and "/static/history/main.js" in page.text
        assert 'href="/history"' in http.get("/").text  # the offline site's builder makes it history.html


# ---------------------------------------------------------------- the store's half, on each store
def _table(table_id: str, tokens: list[str | None]) -> TableInfo:
    return TableInfo(table_id, "computer", "rubicon", {}, 3, ["Ann", "Computer"], tokens, "sp", 1,
                     created=1_700_000_000.0)


def _over() -> Partie:
    """A partie played to its end by random choices."""
    return played_by_chance(Partie(("Ann", "Computer")), random.Random(1))


def test_the_store_finds_a_seats_finished_parties_by_table_and_secret(store: SQLStore) -> None:
    line = summary(_over())
    for n in range(5):
        store.create(_table(f"t{n}", [f"s{n}", None]))
    for n in (0, 1, 2):
        store.finish(f"t{n}", 1_700_000_100.0 + n, line)
    store.finish("t0", 1_800_000_000.0, {"other": True})  # a partie ends once: the first line is kept
    found = store.played([("t0", "s0"), ("t1", "s1"), ("t2", "wrong"), ("t3", "s3"), ("t9", "s0"), ("t4", "s0")])
    assert [(p.id, p.seat, p.finished) for p in found] == [("t1", 0, 1_700_000_101.0), ("t0", 0, 1_700_000_100.0),
                                                            ("t3", 0, None)]
    assert found[0].result == line and found[2].result is None
    with pytest.raises(StoreError, match="no table 'nope'"):
        store.finish("nope", 1.0, line)
    with pytest.raises(ValueError, match=f"at most {MAX_PLAYED}"):
        store.played([("t0", "s0")] * (MAX_PLAYED + 1))


def test_many_tables_are_found_across_statements(store: SQLStore) -> None:
    for n in range(450):  # more than one statement's worth of ids
        store.create(_table(f"t{n}", [f"s{n}", None]))
        store.finish(f"t{n}", 1_700_000_000.0 + n, {"winner": 0})
    found = store.played([(f"t{n}", f"s{n}") for n in range(450)])
    assert len(found) == 450 and found[0].id == "t449"


@pytest.fixture
def store(sql_store: SQLStore) -> SQLStore:
    """An empty store of each kind (SQLite, PostgreSQL): ``sql_store``."""
    return sql_store


def test_a_partie_that_ended_before_results_were_kept_is_found_by_replaying_it(tmp_path: Path) -> None:
    """A table stored without its result (it ended before the store kept results) is replayed once, listed, and its
    result written, so the next request reads it."""
    partie = _over()
    store = SQLiteStore(db(tmp_path))
    store.create(_table("old", ["s-old", None]))
    for i, action in enumerate(partie.actions):
        store.append("old", i, action_to_data(action, partie.players), version=i + 1)
    assert store.played([("old", "s-old")])[0].result is None
    store.close()
    with TestClient(create_app(db(tmp_path), workers=0, review_workers=0)) as http:
        [party] = ask(http, [("old", "s-old")]).json()["parties"]
        assert party["result"] == summary(partie) and party["opponent"] == "Computer"
        assert party["finished"] == party["created"] == 1_700_000_000.0  # when it ended is not known: its start
    store = SQLiteStore(db(tmp_path))
    assert store.played([("old", "s-old")])[0].result == summary(partie)
    store.close()


def test_the_offline_store_keeps_a_finished_partie_s_line_beside_its_table() -> None:
    """The offline site's store (the browser's IndexedDB, here a dict) answers History's calls as the SQL stores do."""
    kept: dict[str, str] = {}
    store = BrowserStore(kept.get, kept.__setitem__)
    line = summary(_over())

    async def scenario() -> None:
        await store.create(_table("t0", ["s0", None]))
        await store.create(_table("t1", ["s1", None]))
        await store.finish("t0", 1_700_000_100.0, line)
        await store.finish("t0", 1_800_000_000.0, {"other": True})  # a partie ends once
        found = await store.played([("t0", "s0"), ("t1", "s1"), ("t1", "wrong"), ("t9", "s0")])
        assert [(p.id, p.seat, p.finished, p.result) for p in found] == [
            ("t0", 0, 1_700_000_100.0, line), ("t1", 0, None, None)]
        with pytest.raises(StoreError, match="no table 'nope'"):
            await store.finish("nope", 1.0, line)

    asyncio.run(scenario())
    assert set(kept) == {"t0", "t1", "result:t0"}
