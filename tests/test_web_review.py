"""The review in the browser, on the server's side (``docs/protocol.md``, "Reviews"): a finished deal queued,
its progress and its result; only finished deals, only what each seat may see; never another table's; bad input
refused with a reason; the limits; and the tables answering while a review runs."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import FOUR_DEALS, Client, State, create, db, play_room, query, room, seed_tables

from piquet.coach.review import Lens, decisions_in
from piquet.engine import record
from piquet.engine.actions import Deal
from piquet.ui.web import reviews as reviews_module
from piquet.ui.web.app import create_app

#: The longest a review may take here before the test fails (seconds by the wall clock).
WAIT = 300.0


@pytest.fixture(autouse=True)
def _seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    seed_tables(monkeypatch, 5)


def scored(deals: int) -> Any:
    """A stop for :func:`play_room`: ``deals`` deals have been scored."""
    return lambda state: len(state["view"]["sheet"]) >= deals


def ask(http: TestClient, table_id: str, token: str, **body: Any) -> Any:
    return http.post(f"/api/tables/{table_id}/reviews", params={"token": token}, json=body)


def progress(http: TestClient, table_id: str, token: str, review: str) -> Any:
    return http.get(f"/api/tables/{table_id}/reviews/{review}", params={"token": token})


def finished(http: TestClient, table_id: str, token: str, review: str) -> tuple[dict[str, Any], list[tuple[int, int]]]:
    """Ask for a review's progress until it is done: its last answer, and every (done, total) seen on the way."""
    seen: list[tuple[int, int]] = []
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        answer = progress(http, table_id, token, review)
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        seen.append((data["done"], data["total"]))
        if data["status"] in ("done", "failed"):
            return data, seen
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


def partie_of(http: TestClient, table_id: str) -> Any:
    partie = http.app.state.tables.get(table_id).partie  # type: ignore[attr-defined]
    assert partie is not None
    return partie


@pytest.fixture(scope="module")
def first_deal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, dict[str, Any], list[Client]]]:
    """A room of four deals whose first deal has ended (the second is dealt), with the real review worker."""
    with pytest.MonkeyPatch.context() as mp:
        seed_tables(mp, 21)
        with TestClient(create_app(db(tmp_path_factory.mktemp("review")), workers=0)) as http, ExitStack() as stack:
            table, ann, bill = room(http, stack, options=FOUR_DEALS)
            play_room([ann, bill], random.Random(4), stop=scored(1))
            yield http, table, [ann, bill]


def test_a_finished_deal_is_reviewed_in_a_worker_with_its_progress_and_each_player_sees_his_own_decisions(
        first_deal: tuple[TestClient, dict[str, Any], list[Client]]) -> None:
    http, table, _players = first_deal
    ann, bill = table["token"], table["guest"]
    asked = ask(http, table["id"], ann, deal=1)
    assert asked.status_code == 202, asked.text
    job = asked.json()
    partie = partie_of(http, table["id"])
    assert job["status"] in ("queued", "running") and job["deal"] == 1 and job["lens"] == "fair"
    data, seen = finished(http, table["id"], ann, job["id"])
    assert data["status"] == "done", data
    total = decisions_in(partie, 1)
    assert seen[-1] == (total, total)
    assert all(t == total for _, t in seen) and [d for d, _ in seen] == sorted(d for d, _ in seen)

    # Bill asks for the same review: the one made, at once.
    again = ask(http, table["id"], bill, deal=1)
    assert again.status_code == 200 and again.json()["id"] == job["id"] and again.json()["status"] == "done"

    ended = partie.view(0).deal_scores[0].totals
    for seat, token in ((0, ann), (1, bill)):
        result = progress(http, table["id"], token, job["id"]).json()["result"]
        mine = result["review"]["players"][seat]
        decisions = result["decisions"]
        assert decisions and all(d["seat"] == seat and d["deal"] == 1 for d in decisions)
        assert all(p["player"] == mine for p in result["review"]["plays"])  # his own cards, none of the other's
        assert all(e["player"] == mine for e in result["review"]["exchanges"])
        assert result["review"]["luck"] == [] and list(result["review"]["summary"]) == [mine]
        assert result["scores"] == {"1": list(ended)}
        for d in decisions:
            # The opponent's cards shown are those he went on to play in the deal, no other.
            assert set(d["hands"][1 - seat]) <= set(d["played_after"][1 - seat])
            if "open" in d:
                assert d["hidden"] == 0 and set(d["open"]) <= set(d["hands"][seat])
        plays = [d for d in decisions if d["text"].startswith(mine + " plays")]
        assert len(plays) == 12
        reviewed = {(p["deal"], p["action"]) for p in result["review"]["plays"] if not p["forced"]}
        assert {(d["deal"], d["action"]) for d in decisions if "expected" in d} == reviewed


def test_a_deal_in_progress_and_bad_requests_are_refused_with_a_reason(
        first_deal: tuple[TestClient, dict[str, Any], list[Client]]) -> None:
    http, table, _players = first_deal
    ann = table["token"]
    spectator = query(table["links"]["spectate"]).split("=", 1)[1]
    cases: list[tuple[tuple[str, dict[str, Any]], int, str]] = [
        ((ann, {"deal": 2}), 409, "has not ended"),
        ((ann, {}), 409, "once it is over"),
        ((ann, {"deal": 0}), 422, "counted from 1"),
        ((ann, {"deal": "1"}), 422, "deal"),
        ((ann, {"deal": 1, "lens": "sideways"}), 422, "lens"),
        ((ann, {"deal": 1, "lens": "open-hands"}), 403, "opponent's discards"),
        ((spectator, {"deal": 1}), 403, "spectator"),
        (("not-a-token", {"deal": 1}), 403, "no seat"),
    ]
    for (token, body), status, said in cases:
        answer = ask(http, table["id"], token, **body)
        assert answer.status_code == status and said in answer.json()["detail"], (body, answer.text)
    assert ask(http, "no-such-table", ann, deal=1).status_code == 404
    assert progress(http, table["id"], ann, "no-such-review").status_code == 404


def test_a_review_is_never_given_through_another_table(
        first_deal: tuple[TestClient, dict[str, Any], list[Client]]) -> None:
    http, table, _players = first_deal
    job = ask(http, table["id"], table["token"], deal=1).json()
    other = create(http, "computer", name="Zoe")
    # Zoe's token at her own table does not reach the review of Ann's, nor Ann's token through Zoe's table.
    assert progress(http, other["id"], other["token"], job["id"]).status_code == 404
    assert progress(http, table["id"], other["token"], job["id"]).status_code == 403
    assert progress(http, other["id"], table["token"], job["id"]).status_code == 403


class Gate:
    """:func:`piquet.ui.web.reviews.review_data` held until the test opens the gate (in the server's thread mode),
    then made with open hands, a few times cheaper than the fair lens: what these tests check is when reviews run."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.open = threading.Event()
        self.started = threading.Event()
        real = reviews_module.review_data

        def held(partie: Any, deal: int | None, _lens: Lens, progress: Any = None, lang: str = "en",
                 names: tuple[str, str] | None = None) -> dict[str, Any]:
            self.started.set()
            assert self.open.wait(WAIT)
            return real(partie, deal, Lens.OPEN, progress, lang, names)

        monkeypatch.setattr(reviews_module, "review_data", held)


def test_the_table_plays_on_while_its_review_runs_and_reviews_wait_their_turn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate(monkeypatch)
    monkeypatch.setattr(reviews_module, "PER_CLIENT", 1)
    with TestClient(create_app(db(tmp_path), workers=0, review_workers=0)) as http, ExitStack() as stack:
        table, ann, bill = room(http, stack, options=FOUR_DEALS)
        rng = random.Random(9)
        play_room([ann, bill], rng, stop=scored(2))
        first = ask(http, table["id"], table["token"], deal=1).json()
        assert gate.started.wait(WAIT)
        refused = ask(http, table["id"], table["token"], deal=2)
        assert refused.status_code == 429 and "at most 1 review" in refused.json()["detail"]
        # Bill may still ask: the limit is each seat's; his review waits for Ann's, one at a time at a table.
        asked = ask(http, table["id"], table["guest"], deal=2)
        assert asked.status_code == 202
        second = asked.json()

        version = max(ann.current["version"], bill.current["version"])
        state: State = play_room([ann, bill], rng, stop=lambda s: s["version"] >= version + 6)
        assert state["version"] >= version + 6  # six moves played and acknowledged while the review is held
        assert progress(http, table["id"], table["token"], first["id"]).json()["status"] == "running"
        assert progress(http, table["id"], table["token"], second["id"]).json()["status"] == "queued"
        assert http.get("/api/setup").status_code == 200
        gate.open.set()
        assert finished(http, table["id"], table["token"], first["id"])[0]["status"] == "done"
        assert finished(http, table["id"], table["guest"], second["id"])[0]["status"] == "done"


def test_after_the_partie_both_players_and_the_spectators_see_the_whole_review_with_open_hands(
        tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path), workers=0, review_workers=0)) as http, ExitStack() as stack:
        table, ann, bill = room(http, stack, options=FOUR_DEALS)
        play_room([ann, bill], random.Random(2))
        spectator = query(table["links"]["spectate"]).split("=", 1)[1]
        job = ask(http, table["id"], spectator, deal=1, lens="open-hands").json()
        data, _ = finished(http, table["id"], spectator, job["id"])
        partie = record.loads(http.get(f"/api/tables/{table['id']}/record", params={"token": spectator}).text)
        deals = [i for i, a in enumerate(partie.actions) if isinstance(a, Deal)]
        answers = [progress(http, table["id"], t, job["id"]).json()["result"]
                   for t in (table["token"], table["guest"], spectator)]
        assert answers[0] == answers[1] == answers[2] == data["result"]
        result = data["result"]
        assert len(result["decisions"]) == deals[1] - deals[0] - 1  # every decision of the deal, both players'
        assert {d["seat"] for d in result["decisions"]} == {0, 1}
        # The whole partie too, once it is over: every deal's decisions, and each deal's score.
        whole = ask(http, table["id"], table["guest"], lens="open-hands")
        assert whole.status_code == 202 and whole.json()["deal"] is None
        everything = finished(http, table["id"], table["guest"], whole.json()["id"])[0]["result"]
        # ... and a loser's playing on where he might have conceded, a decision that is no action of the record.
        played_on = [c for c in everything["review"]["concessions"] if c["choice"] == "play on"]
        assert [(d["deal"], d["action"], d["text"]) for d in everything["decisions"] if d.get("decision")] == [
            (c["deal"], c["action"], c["text"]) for c in played_on]
        assert len(everything["decisions"]) == decisions_in(partie) + len(played_on)
        assert len(everything["scores"]) == len(deals)
        forced = {(p["deal"], p["action"]) for p in result["review"]["plays"] if p["forced"]}
        for d in result["decisions"]:
            if d["text"].split(" ")[1] == "plays" and (d["deal"], d["action"]) not in forced:
                assert "open" in d and len(d["open"]) > 1 and set(d["open"]) <= set(d["hands"][d["seat"]])


RECORDS = Path(__file__).parent / "records"


@pytest.mark.parametrize("name", [
    "au-cent-game", "auction-minus-doubled-down", "auction-plus", "drawn-after-eight", "rubicon-deal",
    "tie-after-six", "auction-pique-in-order",
])
def test_with_open_hands_the_expected_score_is_the_deal_s_score_once_every_later_choice_is_the_best(
        name: str) -> None:
    partie = record.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    data = reviews_module.review_data(partie, None, Lens.OPEN)
    losses = {(p["deal"], p["action"]): p["loss"] for p in data["review"]["plays"]}
    checked = 0
    for deal, (mine, theirs) in data["scores"].items():
        decisions = [d for d in data["decisions"] if d["deal"] == int(deal)]
        # From the last choice that lost points (or the deal's start), every card kept the position's value.
        tail = []
        for d in reversed(decisions):
            if losses.get((d["deal"], d["action"]), 0.0) > 1e-9:
                break
            tail.append(d)
        expected = [d["expected"] for d in tail if "expected" in d]
        assert all(e == mine - theirs for e in expected), (deal, expected, mine - theirs)
        checked += len(expected)
    assert checked


def test_a_review_whose_worker_dies_is_made_again_in_a_fresh_one() -> None:
    partie = record.loads((RECORDS / "rubicon-deal.json").read_text(encoding="utf-8"))
    reviews = reviews_module.Reviews(workers=1)

    async def run() -> reviews_module.ReviewJob:
        job = reviews.request("table", "secret", partie, 1, "fair")
        deadline = time.monotonic() + WAIT
        while job.done < 1:  # the worker's progress has come back: it is reviewing
            assert time.monotonic() < deadline and job.status in ("queued", "running"), job.progress()
            await asyncio.sleep(0.02)
        pool = reviews._pool
        assert pool is not None
        for process in list(pool._processes.values()):  # the worker killed in the middle of the review
            process.kill()
        while job.status in ("queued", "running"):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        assert reviews._pool is not pool  # a fresh pool made it
        return job

    try:
        job = asyncio.run(run())
    finally:
        reviews.close()
    assert job.status == "done" and job.result is not None, job.progress()
    assert job.result == reviews_module.review_data(partie, 1, Lens.FAIR)  # the same review, decision for decision
