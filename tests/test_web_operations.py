"""What an administrator watches (``docs/deploy.md``, "What to watch"): ``GET /healthz`` (the server answers),
``GET /readyz`` (its store answers too), and the log of table events, one JSON line each, that names the table,
the seat, the action's kind and how long it took, and never a secret, a name or a card."""

from __future__ import annotations

import json
import logging
import os
import random
import re
import time
from contextlib import ExitStack
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import FOUR_DEALS, connect, db, play_room, query, room, seed_tables

from piquet.engine.cards import CARDS
from piquet.ui.web import events
from piquet.ui.web.app import create_app


def test_healthz_answers_and_readyz_says_whether_the_store_answers(tmp_path: Path,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    with TestClient(create_app(db(tmp_path), workers=0)) as http:
        alive = http.get("/healthz")
        assert (alive.status_code, alive.json()) == (200, {"status": "ok"})
        assert alive.headers["cache-control"] == "no-store"
        ready = http.get("/readyz")
        assert (ready.status_code, ready.json()) == (200, {"status": "ok", "store": "ok"})
        os.remove(db(tmp_path))  # the store's file gone: nothing more can be saved
        gone = http.get("/readyz")
        assert (gone.status_code, gone.json()) == (503, {"status": "unavailable", "store": "unreachable"})
        assert http.get("/healthz").status_code == 200  # alive all the same: restarting it is for an administrator
    assert "was deleted or replaced" in caplog.text  # the reason is in the log, not in the public answer


def test_a_played_game_logs_one_json_line_per_event_with_no_secret_no_name_and_no_card(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    seed_tables(monkeypatch, 11)
    monkeypatch.setattr(events.log, "propagate", True)  # as piquet serve may have left it, to caplog's handler
    caplog.set_level(logging.INFO, logger="piquet.events")
    with TestClient(create_app(db(tmp_path), workers=0)) as http, ExitStack() as stack:
        table, ann, bill = room(http, stack, options=FOUR_DEALS)
        watcher = connect(http, stack, table, query(table["links"]["spectate"]))
        ann.send({"type": "move"})  # a one-time link to another device: a secret of its own
        move = ann.until(lambda m: m["type"] == "move")
        ann.send({"type": "action", "action": {"nonsense": True}})  # refused: nothing changed, nothing logged
        assert ann.until(lambda m: m["type"] == "error")["code"] in ("malformed", "illegal")
        play_room([ann, bill], random.Random(4))
        secrets_ = [table["token"], table["guest"], query(table["links"]["invite"]).partition("=")[2],
                    query(table["links"]["spectate"]).partition("=")[2], move["link"].partition("#move=")[2]]
        assert watcher is not None
    lines = [r for r in caplog.records if r.name == "piquet.events"]
    logged = [json.loads(r.getMessage()) for r in lines]
    kinds = [e["event"] for e in logged]
    assert kinds[0] == "created" and "joined" in kinds and "move_link" in kinds and "refused" not in kinds
    actions = [e for e in logged if e["event"] == "action"]
    # Every action of the partie, in order, each with its table, its seat, its kind and how long it took.
    assert [e["version"] for e in actions] == list(range(1, len(actions) + 1)) and len(actions) > 50
    assert all(e["table"] == table["id"] and e["seat"] in (0, 1) and e["ms"] >= 0 for e in actions)
    assert {"Cut", "Deal", "Exchange", "Play"} <= {e["action"] for e in actions}
    text = "\n".join(json.dumps({k: v for k, v in e.items() if k != "table"}) for e in logged)
    for secret in secrets_:
        assert secret and secret not in text
    assert "Ann" not in text and "Bill" not in text
    cards = [c for c in CARDS if re.search(rf"\b{re.escape(str(c))}\b", text)]
    assert cards == [], f"cards in the log: {cards}"


def test_a_fault_repeated_again_and_again_is_logged_a_bounded_number_of_times(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])  # the clock events.py reads
    monkeypatch.setattr(events, "_faults", {})
    monkeypatch.setattr(events.log, "propagate", True)
    caplog.set_level(logging.INFO, logger="piquet.events")
    for _ in range(events.FAULT_BURST + 30):
        events.event("error", "t1", seat=0, severity=logging.ERROR, error="KeyError")
        events.event("action", "t1", seat=0, action="Play", ms=1.0)  # the game's own events are never dropped
    lines = [json.loads(r.getMessage()) for r in caplog.records]
    assert sum(1 for e in lines if e["event"] == "error") == events.FAULT_BURST
    assert sum(1 for e in lines if e["event"] == "action") == events.FAULT_BURST + 30
    now[0] += events.FAULT_WINDOW
    events.event("error", "t1", seat=0, severity=logging.ERROR, error="KeyError")
    assert json.loads(caplog.records[-1].getMessage())["not_logged_before"] == 30
