"""The tutor and the hints that explain, at the server: the table option (created, shown, stored, migrated,
refused where it cannot be), the ``tutor`` warning in place of a costly action and the action confirmed, and the
``hint`` message's reason, next best and margin."""

from __future__ import annotations

import random
import sqlite3
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import Client, connect, create, db, play_computer, seed_tables

from piquet.coach.hints import TUTOR_THRESHOLD, TutorWarning
from piquet.ui.web import thinking
from piquet.ui.web.app import create_app
from piquet.ui.web.store import SQLiteStore

_RANKS = "AKQJT987"


def _at_the_exchange(http: TestClient, stack: ExitStack, **body: Any) -> tuple[dict[str, Any], Client]:
    """A table against the computer (level 1), played to the person's exchange."""
    table = create(http, "computer", name="Ann", **body)
    ann = connect(http, stack, table, f"token={table['token']}", "Ann")
    play_computer(ann, random.Random(2), stop=lambda s: s["prompt"] is not None and s["prompt"]["kind"] == "exchange")
    return table, ann


def _worst(state: dict[str, Any]) -> dict[str, Any]:
    """The exchange that throws the most and the strongest cards: the aces and kings first."""
    most = state["prompt"]["max"]
    return {"exchange": sorted(state["view"]["hand"], key=lambda c: _RANKS.index(c[0]))[:most], "show_rest": False}


# ---------------------------------------------------------------- the table option
def test_the_tutor_is_shown_with_the_table_and_kept_over_a_restart(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path), workers=0)) as http, ExitStack() as stack:
        assert http.get("/api/setup").json()["tutor"] == TUTOR_THRESHOLD
        on = create(http, "computer", tutor=True)
        at = create(http, "computer", tutor=2.5)
        off = create(http, "computer")
        for table, tutor in ((on, TUTOR_THRESHOLD), (at, 2.5), (off, None)):
            assert connect(http, stack, table, f"token={table['token']}").current["table"]["tutor"] == tutor
    with TestClient(create_app(db(tmp_path), workers=0)) as http, ExitStack() as stack:
        assert connect(http, stack, at, f"token={at['token']}").current["table"]["tutor"] == 2.5


@pytest.mark.parametrize(("kind", "tutor", "why"), [
    ("room", True, "tutor: a room for two has no tutor"),
    ("computer", "yes", "tutor.float: Input should be a valid number"),  # the body's own check
    ("computer", 0, "tutor: 0 points is out of range"),
    ("computer", 1000, "tutor: 1000 points is out of range"),
])
def test_a_tutor_that_cannot_be_is_refused_naming_the_field_and_nothing_is_created(
        tmp_path: Path, kind: str, tutor: object, why: str) -> None:
    with TestClient(create_app(db(tmp_path), workers=0)) as http:
        answer = http.post("/api/tables", json={"kind": kind, "name": "Ann", "tutor": tutor})
        assert answer.status_code == 422 and why in str(answer.json()["detail"]), answer.text
    with sqlite3.connect(db(tmp_path)) as con:
        assert con.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 0


def test_the_tables_of_a_store_from_before_the_tutor_have_none(tmp_path: Path) -> None:
    path = db(tmp_path)
    SQLiteStore(path).close()
    with sqlite3.connect(path) as con:  # a store as it was before the tutor: no such column
        con.execute("ALTER TABLE tables DROP COLUMN tutor")
        con.execute("DROP TABLE schema_version")  # nor numbered migrations
        for statement in ("DROP INDEX tables_public", "ALTER TABLE tables DROP COLUMN public",
                          "ALTER TABLE tables DROP COLUMN changed"):  # nor what later migrations add
            con.execute(statement)
    with TestClient(create_app(path, workers=0)) as http, ExitStack() as stack:
        before = create(http, "computer")
        assert connect(http, stack, before, f"token={before['token']}").current["table"]["tutor"] is None
    with sqlite3.connect(path) as con:
        assert "tutor" in {row[1] for row in con.execute("PRAGMA table_info(tables)")}


# ---------------------------------------------------------------- the warning
def test_a_costly_choice_is_answered_with_the_tutor_s_warning_and_applied_once_confirmed(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seed_tables(monkeypatch, 4)
    with TestClient(create_app(db(tmp_path), workers=0)) as http, ExitStack() as stack:
        _table, ann = _at_the_exchange(http, stack, tutor=True)
        state = ann.current
        version, hand = state["version"], state["view"]["hand"]
        worst = _worst(state)
        ann.act(worst)
        warning = ann.recv()
        assert warning["type"] == "tutor", warning
        assert warning["action"] == worst and warning["version"] == version
        assert warning["loss"] >= TUTOR_THRESHOLD
        assert warning["better"]["action"]["exchange"] != worst["exchange"]
        assert warning["text"].startswith("exchange ") and warning["better"]["text"].startswith("exchange ")
        assert warning["reason"].startswith("Discarding the ") and " costs Ann " in warning["reason"]
        # Nothing was applied: a hint still finds the same hand to exchange from.
        ann.send({"type": "hint"})
        hint = ann.recv()
        assert hint["type"] == "hint" and hint["reason"].startswith("Discarding the ")
        assert ann.current["version"] == version and ann.current["view"]["hand"] == hand
        # Played anyway: the same action, confirmed, is applied without a second warning.
        ann.send({"type": "action", "action": worst, "version": version, "confirm": True})
        after = ann.recv_state()
        assert after["version"] > version
        assert not set(worst["exchange"]) & set(after["view"]["hand"])


def test_the_best_choice_passes_the_tutor_and_a_table_without_it_checks_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seed_tables(monkeypatch, 4)
    with TestClient(create_app(db(tmp_path), workers=0)) as http, ExitStack() as stack:
        _table, ann = _at_the_exchange(http, stack, tutor=True)
        version = ann.current["version"]
        ann.send({"type": "hint"})
        best = ann.recv()
        assert best["type"] == "hint"
        ann.act(best["action"])
        assert ann.recv_state()["version"] > version
    seed_tables(monkeypatch, 4)
    with TestClient(create_app(db(tmp_path), workers=0)) as http, ExitStack() as stack:
        _table, ann = _at_the_exchange(http, stack)
        version = ann.current["version"]
        ann.act(_worst(ann.current))
        assert ann.recv_state()["version"] > version


# ---------------------------------------------------------------- the hint
def test_a_hint_at_the_exchange_gives_the_reason_the_next_best_the_margin_and_the_best_discards(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seed_tables(monkeypatch, 4)
    with TestClient(create_app(db(tmp_path), workers=0)) as http, ExitStack() as stack:
        _table, ann = _at_the_exchange(http, stack)
        ann.send({"type": "hint"})
        hint = ann.recv()
        assert hint["type"] == "hint"
        assert hint["reason"] and hint["next"] is not None and hint["margin"] >= 0
        assert 2 <= len(hint["discards"]) <= 3
        assert hint["discards"][0]["action"] == hint["action"]
        assert hint["discards"][1]["action"] == hint["next"]["action"]
        values = [d["value"] for d in hint["discards"]]
        assert values == sorted(values, reverse=True)
        assert hint["margin"] == pytest.approx(values[0] - values[1])
        assert all(d["says"].startswith("Discarding the ") for d in hint["discards"])


def test_the_tutor_does_not_question_the_choice_the_hint_gave(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seed_tables(monkeypatch, 4)

    def always(view: Any, legal: Any, action: Any, *args: Any) -> TutorWarning:  # a tutor that warns of everything
        return TutorWarning(0, "exchange", action, 9.0, action, "a warning of everything")

    monkeypatch.setattr(thinking, "_check", always)
    with TestClient(create_app(db(tmp_path), workers=0)) as http, ExitStack() as stack:
        _table, ann = _at_the_exchange(http, stack, tutor=True)
        version = ann.current["version"]
        ann.act(_worst(ann.current))
        assert ann.recv()["type"] == "tutor"  # another choice is questioned
        ann.send({"type": "hint"})
        best = ann.recv()
        assert best["type"] == "hint"
        ann.act(best["action"])  # the hint's own is not
        assert ann.recv_state()["version"] > version
