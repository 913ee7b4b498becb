"""A record file opened in the browser (``docs/playing.md``, "A record file"), driven by Playwright in Debian's chromium
against a live ``piquet serve`` (the fixtures of ``test_web_browser``): chosen with the lobby's file picker, or dropped
on the review page, it is replayed deal by deal with both hands open and reviewed as a table's deal is; a file that is
no record is refused with where and why, in the page's language, and the review shown stays as it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_axe import violations
from test_web_browser import WAIT, LiveServer, _open, _ready, _reload, browser, server  # noqa: F401

from piquet.ui.web.records import MAX_RECORD_BYTES

pytestmark = pytest.mark.browser

RECORD = Path(__file__).parent / "records" / "rubicon-deal.json"
#: The longest the review of a deal may take here (ms): some seconds of CPU in the worker, on a busy machine.
REVIEW_WAIT = 180_000


def _live(request: pytest.FixtureRequest) -> tuple[LiveServer, Any]:
    return request.getfixturevalue("server"), request.getfixturevalue("browser")


def _malformed(tmp_path: Path) -> tuple[Path, int]:
    """The record with a card no pack holds in its first card played: the file, and that action's index."""
    data = json.loads(RECORD.read_text(encoding="utf-8"))
    actions = data["deals"][0]["actions"]
    play = next(i for i, a in enumerate(actions) if "play" in a)
    actions[play]["play"] = "ZZ"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, play


def _drop(page: Any, name: str, text: str) -> None:
    """Drop a file on the page, as a file dragged from the desktop is: a ``drop`` event carrying it."""
    page.evaluate("""([name, text]) => {
        const carried = new DataTransfer();
        carried.items.add(new File([text], name, {type: "application/json"}));
        for (const kind of ["dragover", "drop"]) {
            document.body.dispatchEvent(new DragEvent(kind, {dataTransfer: carried, bubbles: true, cancelable: true}));
        }
    }""", [name, text])


def _reviewed(page: Any) -> str:
    page.wait_for_function("document.body.dataset.status === 'done'", timeout=REVIEW_WAIT)
    counter: str = page.get_by_test_id("counter").inner_text()
    return counter


def test_a_record_chosen_on_the_lobby_is_replayed_with_open_hands_and_a_bad_one_refused_changing_nothing(
        request: pytest.FixtureRequest, tmp_path: Path) -> None:
    live, chromium = _live(request)
    page = _open(chromium, live.url + "/")
    page.get_by_test_id("record-file").set_input_files(str(RECORD))
    page.wait_for_url("**/review**")
    _ready(page)
    counter = _reviewed(page)
    assert counter.startswith("Decision 1 of ")
    # Both hands whole at the first decision (a record hides nothing from who holds it), both players' decisions.
    assert page.locator("#hands [data-card]").count() == 24
    assert "rubicon-deal.json" in page.locator("#title").inner_text()
    assert page.get_by_test_id("deal").locator("option").count() == 1
    page.keyboard.press("End")
    assert page.get_by_test_id("verdict").inner_text()
    last = page.get_by_test_id("counter").inner_text()
    assert violations(page) == []
    # A file that is no record: where and why, and the review shown stays.
    broken, play = _malformed(tmp_path)
    page.get_by_test_id("record-file").set_input_files(str(broken))
    error = page.get_by_test_id("error")
    error.wait_for(state="visible", timeout=WAIT)
    assert f"Where: deal 1, action {play}." in error.inner_text() and "not a card: 'ZZ'" in error.inner_text()
    assert page.get_by_test_id("counter").inner_text() == last
    assert page.locator("#review").is_visible()
    assert violations(page) == []
    # A file too large to be a record is refused before it is sent.
    page.get_by_test_id("record-file").set_input_files(
        {"name": "huge.json", "mimeType": "application/json", "buffer": b" " * (MAX_RECORD_BYTES + 1)})
    page.wait_for_function("document.getElementById('error-text').textContent.includes('huge.json')", timeout=WAIT)
    assert "is too large to be a record" in error.inner_text()
    assert page.get_by_test_id("counter").inner_text() == last
    # The record shown is the good one still: a reload shows it again.
    _reload(page)
    assert _reviewed(page).startswith("Decision 1 of ")
    assert "rubicon-deal.json" in page.locator("#title").inner_text()


def test_a_record_dropped_on_the_page_is_reviewed_and_a_bad_one_refused_in_french(
        request: pytest.FixtureRequest, tmp_path: Path) -> None:
    live, chromium = _live(request)
    page = _open(chromium, live.url + "/review", locale="fr-FR")
    _ready(page, "fr")
    assert page.evaluate("document.body.dataset.status") == "empty"
    assert page.get_by_test_id("record-file").is_visible()
    assert violations(page) == []
    broken, play = _malformed(tmp_path)
    _drop(page, "broken.json", broken.read_text(encoding="utf-8"))
    error = page.get_by_test_id("error")
    error.wait_for(state="visible", timeout=WAIT)
    assert f"Où : donne 1, action {play}." in error.inner_text()
    assert page.locator("#review").is_hidden()
    _drop(page, "partie.json", RECORD.read_text(encoding="utf-8"))
    assert _reviewed(page).startswith("Décision 1 sur ")
    assert page.get_by_test_id("error").is_hidden()
    assert page.locator("#hands [data-card]").count() == 24
