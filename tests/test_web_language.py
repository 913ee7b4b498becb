"""Each seat's language at the web table: a connection asks for its words (``lang=fr``), so two players at one
table, and a spectator, each hear the table talk, the declarations' menus and the result in their own language; a
language the table does not speak is refused by name."""

from __future__ import annotations

import random
import re
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi import WebSocketDisconnect
from fastapi.testclient import TestClient
from web_helpers import (
    FOUR_DEALS,
    State,
    catch_up,
    close_code,
    connect,
    create,
    db,
    join,
    play_room,
    query,
    seed_tables,
)

from piquet.ui.web.app import create_app

FRENCH_POINT = re.compile(r"(Point de [a-z-]+( valant [a-z -]+)?|Pas de point)\.")
ENGLISH_POINT = re.compile(r"(Point of [a-z-]+(, making [a-z -]+)?|No point)\.")


def _said(state: State) -> list[str]:
    return [e["text"] for e in state["view"]["log"] if e["kind"] in ("say", "note")]


def _point_called(state: State) -> bool:
    return state["view"] is not None and any(e["kind"] == "say" and e["text"].startswith(("Point", "No point"))
                                             for e in state["view"]["log"])


def _declare_labels(states: list[dict[str, Any]]) -> list[str]:
    return [o["label"] for s in states if s["prompt"] and s["prompt"]["kind"] == "declare"
            for o in s["prompt"]["options"]]


def test_each_seat_and_a_spectator_hear_the_table_in_their_own_language(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    seed_tables(monkeypatch, 5)
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, "room", name="Ann", options=FOUR_DEALS)
        ann = connect(http, stack, table, f"token={table['token']}&lang=fr", "Ann")
        spectator = connect(http, stack, table, query(table["links"]["spectate"]) + "&lang=fr", "spectator")
        bill = connect(http, stack, table, query(table["links"]["invite"]), "Bill")  # English, the default
        join(bill)
        for client in (ann, spectator):
            client.recv_state()
        rng = random.Random(2)
        # Two deals' talk: each deal's point is called, and the first deal's count is said.
        state = play_room([ann, bill], rng, stop=lambda s: s["view"] is not None and s["view"]["deal_number"] == 2
                          and _point_called(s))
        french, english, watched = (catch_up(c, state["version"]) for c in (ann, bill, spectator))
    assert any(FRENCH_POINT.fullmatch(text) for text in _said(french)), _said(french)
    assert any(FRENCH_POINT.fullmatch(text) for text in _said(watched))
    assert any(ENGLISH_POINT.fullmatch(text) for text in _said(english)), _said(english)
    assert not any(ENGLISH_POINT.fullmatch(text) for text in _said(french))
    assert any(text.startswith("Donne 2 : ") for text in _said(french))
    assert any(text.startswith("Deal 2: ") for text in _said(english))
    # Each seat's own menus: the declarations offered in its language.
    assert _declare_labels(ann.states()) and _declare_labels(bill.states())
    assert not any("Point of" in label or label.startswith("Nothing") for label in _declare_labels(ann.states()))
    assert not any("Point de" in label or label.startswith("Rien") for label in _declare_labels(bill.states()))
    # The score sheet's notes too; the cards and the numbers are the same for both.
    assert french["view"]["sheet"][0]["points"] == english["view"]["sheet"][0]["points"]


def test_a_language_the_table_does_not_speak_is_refused_by_name(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http:
        table = create(http, "computer", name="Ann")
        with http.websocket_connect(f"/ws/{table['id']}?token={table['token']}&lang=de") as ws, \
                pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 4400
        assert closed.value.reason == "language 'de' is not one the table speaks (en, fr)"
        assert close_code(http, f"/ws/{table['id']}?token={table['token']}&lang=xx") == 4400
