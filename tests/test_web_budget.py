"""The computer's thinking time per table: its creator sets the CPU seconds a decision (``budget``), within the
server's cap (``piquet serve --max-budget``); it is stored with the table, kept over a restart, shown to every client
at the table, and it is what the computer and its hints think with in the worker processes."""

from __future__ import annotations

import os
import random
import sqlite3
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import Client, connect, create, db, play_computer, query, room, seed_tables

from piquet.ai.levels import LEVELS, SearchAgent, make_agent
from piquet.engine.actions import Action
from piquet.engine.partie import LegalActions
from piquet.engine.view import PlayerView
from piquet.ui.cli import build_parser
from piquet.ui.web import budgets, thinking
from piquet.ui.web import tables as tables_module
from piquet.ui.web.app import create_app
from piquet.ui.web.store import SQLiteStore
from piquet.ui.web.thinking import Thinker


@pytest.fixture(autouse=True)
def _seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    seed_tables(monkeypatch, 11)


def tables_in(path: str) -> int:
    with sqlite3.connect(path) as con:
        count: int = con.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
    con.close()
    return count


def refusal(http: TestClient, **body: Any) -> str:
    answer = http.post("/api/tables", json={"kind": "computer", "level": 5, "name": "Ann", **body})
    assert answer.status_code == 422, answer.text
    detail: str = answer.json()["detail"]
    return detail


# ---------------------------------------------------------------- set, refused, stored, shown
def test_a_tables_budget_is_shown_to_its_player_and_spectator_and_kept_over_a_restart(tmp_path: Path) -> None:
    path = db(tmp_path)
    with TestClient(create_app(path, workers=0)) as http, ExitStack() as stack:
        table = create(http, "computer", name="Ann", level=1, budget=2.5)
        plain = create(http, "computer", name="Ann", level=1)
        ann = connect(http, stack, table, f"token={table['token']}")
        spectator = connect(http, stack, table, query(table["links"]["spectate"]))
        assert ann.current["table"]["budget"] == spectator.current["table"]["budget"] == 2.5
        assert connect(http, stack, plain, f"token={plain['token']}").current["table"]["budget"] == LEVELS[5].budget
        _, host, guest = room(http, stack)  # no computer, no hints: no thinking time
        assert host.current["table"]["budget"] is None and guest.current["table"]["budget"] is None
    with TestClient(create_app(path, workers=0)) as http, ExitStack() as stack:  # the server restarted
        assert connect(http, stack, table, f"token={table['token']}").current["table"]["budget"] == 2.5


@pytest.mark.parametrize(("budget", "why"), [
    ("2", "valid number"), (True, "valid number"), ([1], "valid number"), (9, "out of range"), (5.01, "out of range"),
    (-1, "out of range"), (0.01, "out of range"), (0, "no limit) is not allowed"),
])
def test_a_budget_out_of_range_or_not_a_number_is_refused_naming_the_field_and_nothing_is_created(
        tmp_path: Path, budget: object, why: str) -> None:
    path = db(tmp_path)
    with TestClient(create_app(path, workers=0)) as http:
        detail = refusal(http, budget=budget)
        assert detail.startswith("budget: ") and why in detail, detail
        assert tables_in(path) == 0
        create(http, "computer", budget=5)  # the cap itself is allowed
        assert tables_in(path) == 1


def test_a_budget_that_is_not_finite_is_refused(tmp_path: Path) -> None:
    path = db(tmp_path)
    with TestClient(create_app(path, workers=0)) as http:
        answer = http.post("/api/tables", content='{"kind": "computer", "budget": NaN}',
                           headers={"Content-Type": "application/json"})
        assert answer.status_code == 422 and answer.json()["detail"].startswith("budget: ")
        assert tables_in(path) == 0


def test_the_servers_cap_is_its_option_and_without_one_a_table_may_think_without_a_limit(tmp_path: Path) -> None:
    assert build_parser().parse_args(["serve"]).max_budget == budgets.MAX_BUDGET
    assert build_parser().parse_args(["serve", "--max-budget", "0"]).max_budget == 0
    with TestClient(create_app(db(tmp_path), workers=0, max_budget=2)) as http:
        assert http.get("/api/setup").json()["budget"] == {"default": 1.0, "minimum": 0.1, "maximum": 2}
        assert "0.1 to 2 s" in refusal(http, budget=3)
    with TestClient(create_app(str(tmp_path / "free.sqlite3"), workers=0, max_budget=0)) as http, \
            ExitStack() as stack:
        assert http.get("/api/setup").json()["budget"]["maximum"] is None
        unlimited = create(http, "computer", budget=0)
        long = create(http, "computer", budget=60)
        assert connect(http, stack, unlimited, f"token={unlimited['token']}").current["table"]["budget"] == 0
        assert connect(http, stack, long, f"token={long['token']}").current["table"]["budget"] == 60
        assert "or 0 for no limit" in refusal(http, budget=0.05)


def test_a_table_kept_from_before_a_lower_cap_thinks_for_the_cap(tmp_path: Path) -> None:
    path = db(tmp_path)
    with TestClient(create_app(path, workers=0, max_budget=0)) as http:
        unlimited = create(http, "computer", level=4, budget=0)
        long = create(http, "computer", level=4, budget=4)
    with TestClient(create_app(path, workers=0, max_budget=2)) as http, ExitStack() as stack:
        for table in (unlimited, long):
            assert connect(http, stack, table, f"token={table['token']}").current["table"]["budget"] == 2
            agent = http.app.state.tables.get(table["id"]).agent  # type: ignore[attr-defined]
            assert isinstance(agent, SearchAgent) and agent.settings.budget == 2


# ---------------------------------------------------------------- an earlier store
#: The layout of the store before tables had a budget.
LAYOUT_BEFORE_BUDGET = """
CREATE TABLE tables (id TEXT PRIMARY KEY, kind TEXT NOT NULL, variant TEXT NOT NULL, options TEXT NOT NULL,
    level INTEGER, players TEXT NOT NULL, tokens TEXT NOT NULL, spectate TEXT NOT NULL, computer INTEGER,
    created REAL NOT NULL, invite TEXT, moves TEXT NOT NULL DEFAULT '[null, null]', seed INTEGER,
    takebacks TEXT NOT NULL DEFAULT 'fair', taken_back TEXT NOT NULL DEFAULT '[]');
CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES tables(id), idx INTEGER NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (table_id, idx));
INSERT INTO tables (id, kind, variant, options, level, players, tokens, spectate, computer, created, seed)
    VALUES ('old', 'computer', 'rubicon', '{}', 5, '["Zoe", "Computer"]', '["zoe-1", null]', 's1', 1, 0, 42);
INSERT INTO actions VALUES ('old', 0, '{"player": "Zoe", "cut": ["7S", "AD"]}');
"""


def test_the_tables_of_a_store_from_before_budgets_think_as_their_level_does(tmp_path: Path) -> None:
    path = str(tmp_path / "old.sqlite3")
    with sqlite3.connect(path) as old:
        old.executescript(LAYOUT_BEFORE_BUDGET)
    old.close()
    store = SQLiteStore(path)
    info = store.load("old")
    assert info is not None and info.budget is None and len(info.actions) == 1
    store.close()
    with TestClient(create_app(path, workers=0)) as http, ExitStack() as stack:
        zoe = connect(http, stack, {"id": "old"}, "token=zoe-1")
        assert zoe.current["table"]["budget"] == LEVELS[5].budget and zoe.current["version"] >= 1
        agent = http.app.state.tables.get("old").agent  # type: ignore[attr-defined]
        assert isinstance(agent, SearchAgent) and agent.settings == LEVELS[5]
        created = create(http, "computer", budget=1.5)  # and the migrated store takes new tables with one
        assert connect(http, stack, created, f"token={created['token']}").current["table"]["budget"] == 1.5


# ---------------------------------------------------------------- what the workers think with
class Recorder:
    """A computer player that notes, in the process it decides in, that process and the CPU seconds its searching
    player was given for the decision, then decides as that player does."""

    def __init__(self, inner: SearchAgent) -> None:
        self.inner = inner
        self.seen: list[tuple[int, float]] = []

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        self.seen.append((os.getpid(), self.inner._deadline().seconds))
        return self.inner.choose(view, legal)

    def choose_packets(self, view: PlayerView, sizes: tuple[int, ...]) -> int:
        return self.inner.choose_packets(view, sizes)


def recording(name: str, seed: int) -> Recorder:
    agent = make_agent(name, seed)
    assert isinstance(agent, SearchAgent)
    return Recorder(agent)


def test_the_computer_and_its_hints_think_in_the_workers_with_the_tables_budget(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(tables_module, "make_agent", recording)
    # The review's hints: which lane they are sent to, with which budget (the worker's answer comes back).
    reviewed: list[tuple[str, float]] = []
    run = Thinker._run

    async def recording_run(self: Thinker, lane: Any, group: Any, table: Any, limit: Any, task: Any,
                            *args: Any) -> Any:
        if task is thinking._hint:  # _hint(view, legal, seed, budget, lang, names)
            reviewed.append((lane, args[3]))
        return await run(self, lane, group, table, limit, task, *args)

    monkeypatch.setattr(Thinker, "_run", recording_run)
    with TestClient(create_app(db(tmp_path), workers=1)) as http, ExitStack() as stack:
        table = create(http, "computer", name="Ann", level=3, budget=0.3)
        ann = Client(stack.enter_context(http.websocket_connect(f"/ws/{table['id']}?token={table['token']}")))
        rng = random.Random(2)
        play_computer(ann, rng, stop=lambda s: s["prompt"] is not None and s["prompt"]["kind"] != "packets")
        ann.send({"type": "hint"})
        ann.until(lambda m: m["type"] == "hint")
        play_computer(ann, rng, stop=lambda s: s["prompt"] is not None and s["prompt"]["kind"] == "play")
        ann.send({"type": "hint"})
        hint = ann.until(lambda m: m["type"] == "hint")
        assert hint["reason"]  # the review's, from the worker
        at = http.app.state.tables.get(table["id"])  # type: ignore[attr-defined]
        # What came back from the workers: the computer's player (level 3, the quick lane), as it decided there, away
        # from the server, with the table's 0.3 s, not the levels' 1 s; the review's hints in the hints lane with the
        # same 0.3 s, and the strongest level's (for who deals, a carte blanche, ...) if one was asked.
        agent = at.agent
        assert isinstance(agent, Recorder) and agent.inner.level == 3 and agent.seen
        assert all(pid != os.getpid() and seconds == 0.3 for pid, seconds in agent.seen), agent.seen
        assert reviewed and all(r == ("hints", 0.3) for r in reviewed), reviewed
        adviser = at.advice.adviser
        if adviser is not None:
            assert isinstance(adviser, Recorder) and adviser.inner.level == 5
            assert all(pid != os.getpid() and seconds == 0.3 for pid, seconds in adviser.seen), adviser.seen
