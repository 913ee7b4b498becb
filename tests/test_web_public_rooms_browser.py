"""Public rooms in the browser (``docs/playing.md``, "Public rooms"), in Debian's chromium against a live ``piquet
serve --public-rooms`` (the fixtures of ``tests/test_web_browser.py``): Ann opens a public room from the lobby's form,
Bill sees it in his lobby and joins it under his name, Carl sees it in play and watches."""

from __future__ import annotations

import functools
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_web_browser
from test_web_axe import violations

# The browser is test_web_browser's fixture, asked for by name (request.getfixturevalue).
from test_web_browser import WAIT, LiveServer, _goto, _open, _ready, browser  # noqa: F401

from piquet.ui.web.app import create_app

pytestmark = pytest.mark.browser


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    """A live server whose administrator turned public rooms on."""
    monkeypatch.setattr(test_web_browser, "create_app", functools.partial(create_app, public_rooms=True))
    live = LiveServer(tmp_path / "games.sqlite3")
    live.start()
    yield live
    live.stop()


def _room_row(page: Any, creator: str, status: str) -> Any:
    """The lobby's row of the public room ``creator`` opened, once it shows ``status`` (the list is asked for again
    every few seconds)."""
    row = page.get_by_test_id("public-room").filter(has_text=creator)
    row.get_by_test_id("public-room-status").filter(has_text=status).wait_for(timeout=WAIT)
    return row


def test_ann_opens_a_public_room_bill_joins_it_from_his_lobby_and_carl_watches(
        club: LiveServer, request: pytest.FixtureRequest) -> None:
    chromium = request.getfixturevalue("browser")
    ann = _open(chromium, club.url + "/")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_test_id("public-option").check()
    ann.get_by_test_id("create-room").click()
    ann.wait_for_url("**/t/**")
    _ready(ann)
    table_id = ann.url.split("/t/")[1].split("#")[0]
    seat_of = f"() => JSON.parse(localStorage.getItem('piquet.table.{table_id}') || '{{}}').token"
    ann_token = ann.evaluate(seat_of)
    assert ann_token
    ann.get_by_test_id("listed-note").wait_for(timeout=WAIT)  # the waiting room says the room is listed
    _goto(ann, club.url + "/")  # in her own lobby, Ann's room is hers to open, not to join
    own = _room_row(ann, "Ann", "Waiting for a player")
    assert own.get_by_test_id("join-room").count() == 0 and own.get_by_test_id("open-room").count() == 1
    own.get_by_test_id("open-room").click()
    ann.wait_for_url(f"**/t/{table_id}")
    _ready(ann)

    bill = _open(chromium, club.url + "/")
    row = _room_row(bill, "Ann", "Waiting for a player")
    assert "Ann; the second seat is free" in row.inner_text() and ann_token not in bill.content()
    assert violations(bill) == []  # the form's box and the list, as axe sees them
    bill.get_by_label("Your name").fill("Bill")
    row.get_by_test_id("join-room").click()
    bill.wait_for_url("**/t/**")
    _ready(bill)
    bill_token = bill.evaluate(seat_of)
    assert bill_token and bill_token != ann_token
    bill.wait_for_function("document.body.dataset.phase !== ''", timeout=WAIT)  # the partie began: Bill is seated
    ann.wait_for_function("document.body.dataset.phase !== ''", timeout=WAIT)

    carl = _open(chromium, club.url + "/")
    row = _room_row(carl, "Ann", "In play")
    assert "Ann v Bill" in row.inner_text() and row.get_by_test_id("join-room").count() == 0
    row.get_by_test_id("watch-room").click()
    carl.wait_for_url("**/t/**#spectate=*")
    _ready(carl)
    carl.wait_for_function("document.body.dataset.phase !== ''", timeout=WAIT)
    assert carl.locator("[data-testid=hand] [data-card]").count() == 0  # a spectator sees nobody's hand
    for page in (ann, bill, carl):
        page.context.close()


def test_a_room_taken_a_moment_before_is_said_full_in_the_joiner_s_language(club: LiveServer,
                                                                              request: pytest.FixtureRequest) -> None:
    """Dora's lobby, in French, still shows Ann's room waiting when Bill takes its seat: her Join is refused, and
    the page says the room is full, in French."""
    chromium = request.getfixturevalue("browser")
    created = test_web_browser._create(club, kind="room", name="Ann", public=True)
    dora = _open(chromium, club.url + "/", locale="fr-FR")
    _ready(dora, "fr")
    row = _room_row(dora, "Ann", "Attend un joueur")
    assert "Ann ; la seconde place est libre" in row.inner_text()
    # Bill joins by the API, between Dora's list and her click.
    joined = urllib.request.Request(f"{club.url}/api/tables/{created['id']}/join", data=json.dumps(
        {"name": "Bill"}).encode(), headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(joined) as answer:
        assert answer.status == 200
    dora.get_by_label("Votre nom").fill("Dora")
    row.get_by_test_id("join-room").click()
    error = dora.get_by_test_id("error")
    error.wait_for(timeout=WAIT)
    assert error.inner_text().startswith("Salle complète")
    _room_row(dora, "Ann", "En cours")  # the list asked for again at once: the room is in play
    assert "/t/" not in dora.url
    dora.context.close()
