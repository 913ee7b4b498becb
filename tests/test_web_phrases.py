"""The table's phrases (issue 36): in a room, a seated player says one of a few stock phrases ("Good luck", "Well
played", "Thank you", "One moment": ``say``, docs/protocol.md), and everyone at the table hears its id (``said``),
which each page says in its own language. No free text; at a table against the computer and from a spectator,
refused; rate-limited per seat beyond the limits on every message; kept in no record."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, get_args

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_web_message_types import mismatch
from web_helpers import Client, connect, create, db, error, query, record_now, room

from piquet.engine.language import LANGUAGES
from piquet.ui.web import protocol
from piquet.ui.web.app import create_app
from piquet.ui.web.protocol import PHRASES, ProtocolError, ServerMessage, read_message
from piquet.ui.web.tables import PHRASE_INTERVAL, PHRASES_PER_MINUTE

I18N = Path(__file__).resolve().parent.parent / "piquet" / "ui" / "web" / "static" / "i18n"


class Clock:
    """A table's clock that moves only when the test moves it: the rate limits are checked without waiting."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def a_room(tmp_path: Path, bill_lang: str = "en") -> Iterator[tuple[FastAPI, Client, Client, Client, Clock]]:
    """A room where Ann (seat 0, English) and Bill (seat 1, a page speaking ``bill_lang``) sit and a spectator
    watches; the table's clock stopped."""
    app = create_app(db(tmp_path))
    with TestClient(app) as http, ExitStack() as stack:
        table, ann, bill = room(http, stack)
        if bill_lang != "en":  # Bill's page in another language: his seat's other connection
            bill = connect(http, stack, table, f"token={table['guest']}&lang={bill_lang}", "Bill")
        spectator = connect(http, stack, table, query(table["links"]["spectate"]), "spectator")
        clock = Clock()
        app.state.tables.get(table["id"]).clock = clock
        # The cut and the deal are played by the table after Bill's join, broadcast as they come: the room is
        # settled once a person is asked to act (Ann, elder or younger, is sent that state too).
        if not settled(ann.current):
            ann.until(settled)
        yield app, ann, bill, spectator, clock


def settled(message: dict[str, Any]) -> bool:
    """A state where a person is asked to act: the cut and the deal, played by the table, are behind it."""
    view = message["view"] if message["type"] == "state" else None
    return view is not None and view["to_act"] is not None and view["phase"] not in ("cut", "deal")


def heard(client: Client) -> dict[str, Any]:
    """The client's next message that is not a state."""
    return client.until(lambda m: m["type"] != "state")


def test_the_phrases_have_one_home_and_words_in_every_page_language() -> None:
    assert PHRASES == get_args(protocol.Phrase) == ("good_luck", "well_played", "thank_you", "one_moment")
    for lang in LANGUAGES:
        catalogue = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
        assert all(catalogue.get(f"phrase.{p}") for p in PHRASES), lang
    french = json.loads((I18N / "fr.json").read_text(encoding="utf-8"))
    assert french["phrase.good_luck"] == "Bonne chance"


def test_a_phrase_is_heard_by_both_seats_and_the_spectators_as_its_id(tmp_path: Path) -> None:
    with a_room(tmp_path, bill_lang="fr") as (_app, ann, bill, spectator, _clock):
        ann.send({"type": "say", "phrase": "good_luck"})
        said = {"type": "said", "seat": 0, "phrase": "good_luck"}
        # Bill's page speaks French: the server sends him the id, his page says "Bonne chance".
        assert heard(ann) == heard(bill) == heard(spectator) == said
        assert mismatch(said, ServerMessage) is None
        bill.send({"type": "say", "phrase": "thank_you"})
        assert heard(ann) == heard(bill) == heard(spectator) == {"type": "said", "seat": 1, "phrase": "thank_you"}


def test_a_phrase_is_kept_in_no_record_and_no_state(tmp_path: Path) -> None:
    with a_room(tmp_path) as (app, ann, bill, _spectator, clock):
        before = record_now(app, {"id": ann.current["table"]["id"]})
        for phrase in PHRASES:
            ann.send({"type": "say", "phrase": phrase})
            assert heard(bill)["phrase"] == phrase
            clock.now += PHRASE_INTERVAL
        assert record_now(app, {"id": ann.current["table"]["id"]}) == before
        assert not any("good_luck" in json.dumps(m) for m in bill.states())


def test_at_a_table_against_the_computer_a_phrase_is_refused(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, name="Ann")
        ann = connect(http, stack, table, f"token={table['token']}", "Ann")
        ann.send({"type": "say", "phrase": "good_luck"})
        refused = error(ann, "not_allowed")
        assert "good_luck" in refused["message"] and "computer" in refused["message"]


def test_a_spectator_says_nothing(tmp_path: Path) -> None:
    with a_room(tmp_path) as (_app, ann, bill, spectator, _clock):
        spectator.send({"type": "say", "phrase": "well_played"})
        refused = error(spectator, "not_allowed")
        assert "well_played" in refused["message"] and "spectator" in refused["message"]
        # Nothing was said: the next phrase the players hear is Ann's, after it.
        ann.send({"type": "say", "phrase": "one_moment"})
        assert heard(bill) == heard(ann) == {"type": "said", "seat": 0, "phrase": "one_moment"}


@pytest.mark.parametrize(("message", "reason"), [
    ({"type": "say", "phrase": "you fool"}, 'unknown phrase "you fool"'),
    ({"type": "say", "phrase": "Good luck"}, 'unknown phrase "Good luck"'),
    ({"type": "say", "phrase": ["good_luck"]}, 'unknown phrase ["good_luck"]'),
    ({"type": "say", "phrase": None}, "unknown phrase null"),
    ({"type": "say"}, "a say message has phrase, not none"),
    ({"type": "say", "phrase": "good_luck", "text": "hello"}, "a say message has phrase, not phrase, text"),
])
def test_only_the_table_s_phrases_are_said_no_free_text(message: dict[str, Any], reason: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        read_message(json.dumps(message))
    assert refused.value.code == "malformed"
    assert reason in refused.value.message
    if "unknown phrase" in reason:
        assert "good_luck, well_played, thank_you, one_moment" in refused.value.message


def test_an_unknown_phrase_is_refused_at_the_table_and_nothing_is_said(tmp_path: Path) -> None:
    with a_room(tmp_path) as (_app, ann, bill, _spectator, _clock):
        ann.send({"type": "say", "phrase": "hurry up"})
        assert 'unknown phrase "hurry up"' in error(ann, "malformed")["message"]
        ann.send({"type": "say", "phrase": "good_luck"})
        assert heard(bill) == {"type": "said", "seat": 0, "phrase": "good_luck"}


def test_a_seat_says_one_phrase_every_two_seconds_and_ten_a_minute(tmp_path: Path) -> None:
    with a_room(tmp_path) as (_app, ann, bill, _spectator, clock):
        ann.send({"type": "say", "phrase": "good_luck"})
        assert heard(bill)["phrase"] == heard(ann)["phrase"] == "good_luck"
        ann.send({"type": "say", "phrase": "one_moment"})  # at once: too soon
        busy = error(ann, "busy")["message"]
        assert "one_moment" in busy and "Ann" in busy and "again in 2 s" in busy
        # Bill's allowance is his own.
        bill.send({"type": "say", "phrase": "good_luck"})
        assert heard(ann) == heard(bill) == {"type": "said", "seat": 1, "phrase": "good_luck"}
        clock.now += PHRASE_INTERVAL
        for _ in range(PHRASES_PER_MINUTE - 1):  # ten in all within the minute, each two seconds after the last
            ann.send({"type": "say", "phrase": "thank_you"})
            assert heard(bill) == heard(ann) == {"type": "said", "seat": 0, "phrase": "thank_you"}
            clock.now += PHRASE_INTERVAL
        ann.send({"type": "say", "phrase": "thank_you"})  # the eleventh: the minute's allowance is spent
        assert "10 times a minute" in error(ann, "busy")["message"]
        clock.now += 60
        ann.send({"type": "say", "phrase": "well_played"})
        assert heard(bill) == {"type": "said", "seat": 0, "phrase": "well_played"}
        # Nothing refused was said: Bill heard only what was allowed.
        assert [m["phrase"] for m in bill.messages if m["type"] == "said"].count("one_moment") == 0


def test_a_refusal_is_said_in_the_connection_s_language(tmp_path: Path) -> None:
    with a_room(tmp_path, bill_lang="fr") as (_app, _ann, bill, _spectator, _clock):
        bill.send({"type": "say", "phrase": "good_luck"})
        heard(bill)
        bill.send({"type": "say", "phrase": "good_luck"})
        busy = error(bill, "busy")["message"]
        assert busy.startswith("good_luck : Bill peut dire une phrase toutes les 2 s et 10 fois par minute"), busy
