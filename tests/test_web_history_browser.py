"""History in the browser (issue 36), in Debian's chromium against a live ``piquet serve`` (the fixtures of
``test_web_browser``): two parties against the computer are played to their end through the server's own code (a
second application on the same store, its scripted player answering every prompt), each opened once in the browser
(as a player's browser does, which keeps the seat's secret), then the lobby's History link shows both with their
results and the picture of the progress by level, and the record, the replay and the review of one are followed.
With ``PIQUET_SCREENSHOTS=DIR`` the test writes its picture of History to ``DIR/history.png``
(``PIQUET_SCREENSHOTS=docs/screenshots python3 -m pytest -m browser tests/test_web_history_browser.py`` makes the
docs' one)."""

from __future__ import annotations

import os
import random
import re
import shutil
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_axe import violations
from test_web_browser import WAIT, LiveServer, _goto, _open, _ready, browser, server  # noqa: F401
from test_web_french_page import _shown
from test_web_french_words import english_words
from web_helpers import FOUR_DEALS, connect, create, play_computer, query

from piquet.engine.language import LANGUAGES
from piquet.ui.web.app import create_app

pytestmark = pytest.mark.browser


def _finish_two(live: LiveServer) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Two parties against the computer, played to their end on the live server's store: each table as created
    and its last state."""
    rng = random.Random(36)
    finished = []
    with TestClient(create_app(str(live.db), workers=0, review_workers=0)) as http, ExitStack() as stack:
        for level in (1, 2):
            table = create(http, "computer", name="Ann", level=level, options=FOUR_DEALS)
            end = play_computer(connect(http, stack, table, query(table["links"]["play"])), rng)
            finished.append((table, end))
    return finished


def _result_words(end: dict[str, Any]) -> str:
    result = end["view"]["result"]
    if result["winner"] is None:
        return "Drawn"
    points = result["points"]
    return f"{'Won' if result['winner'] == 0 else 'Lost'}, {points} point{'' if points == 1 else 's'}"


def test_history_lists_the_finished_parties_and_opens_their_review_and_replay(request: pytest.FixtureRequest,
                                                                              tmp_path: Path) -> None:
    live: LiveServer = request.getfixturevalue("server")
    parties = _finish_two(live)
    page = _open(request.getfixturevalue("browser"), live.url + "/")
    # History before any partie: it says there is none yet.
    page.get_by_test_id("history-link").click()
    page.wait_for_url("**/history")
    _ready(page)
    assert page.get_by_test_id("history-empty").is_visible() and page.get_by_test_id("history").is_hidden()
    # The player's browser opens each table by its link (and so keeps its seat's secret), as after playing it.
    for table, _end in parties:
        _goto(page, live.url + table["links"]["play"])
        page.wait_for_function("document.body.dataset.phase === 'over' || window.piquetTable.state.table.status "
                               "=== 'over'", timeout=WAIT)
    _goto(page, live.url + "/")
    page.get_by_test_id("history-link").click()
    page.wait_for_url("**/history")
    _ready(page)
    rows = page.get_by_test_id("history-row")
    assert rows.count() == 2 and page.get_by_test_id("history-empty").is_hidden()
    # Newest first: the second partie (level 2), then the first (level 1), each with its result and score.
    for row, (table, end) in zip([rows.nth(0), rows.nth(1)], reversed(parties), strict=True):
        assert row.get_attribute("data-table") == table["id"]
        cells = row.locator("td")
        assert cells.nth(1).inner_text() == "Rubicon Piquet"
        assert cells.nth(2).inner_text() == f"The computer, level {end['table']['level']}"
        assert row.get_by_test_id("history-result").inner_text() == _result_words(end)
        totals = end["view"]["totals"]
        assert row.get_by_test_id("history-score").inner_text() == f"{totals[0]} to {totals[1]}"
        rubiconed = end["view"]["result"]["rubiconed"]
        assert row.get_by_test_id("history-rubicon").inner_text() == (
            "Not rubiconed" if not rubiconed else "Your opponent rubiconed" if end["view"]["result"]["winner"] == 0
            else "You were rubiconed")
    # Progress: the server's picture, a row a level, each bar the partie won, lost or drawn as its row in the list.
    assert page.get_by_test_id("progress").is_visible()
    plotted = page.locator("[data-testid=progress-plot] [data-testid=progress-row]")
    assert plotted.count() == 2
    for n, (_table, end) in enumerate(parties):
        winner = end["view"]["result"]["winner"]
        outcome = "drawn" if winner is None else "won" if winner == 0 else "lost"
        assert plotted.nth(n).get_attribute(f"data-{outcome}") == "1"
        assert plotted.nth(n).locator("text").first.text_content() == (
            f"Rubicon Piquet · {n + 1}, {['beginner', 'casual'][n]}")
    assert violations(page) == []  # the list and the picture, as axe sees them
    label = page.locator("#progress-figure").get_attribute("aria-label") or ""
    assert label.startswith("Rubicon Piquet · 1, beginner: won ")
    picture = tmp_path / "history.png"
    page.set_viewport_size({"width": 1100, "height": 800})
    page.screenshot(path=str(picture), full_page=True)
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    wanted = os.environ.get("PIQUET_SCREENSHOTS")
    if wanted:
        Path(wanted).mkdir(parents=True, exist_ok=True)
        shutil.copy(picture, Path(wanted) / "history.png")
    first = rows.nth(1)
    # Its record downloads as the table page's does.
    with page.expect_download() as download:
        first.get_by_test_id("history-record").click()
    assert download.value.suggested_filename == f"piquet-{parties[0][0]['id']}.json"
    # Its replay: the review page with both hands open, stepping through the partie's first deal.
    first.get_by_test_id("history-replay").click()
    page.wait_for_url("**/review?deal=1**lens=open-hands**")
    _ready(page)
    page.wait_for_function("['running', 'queued', 'done'].includes(document.body.dataset.status)", timeout=WAIT)
    assert page.locator("#lens").input_value() == "open-hands"
    page.go_back()
    page.wait_for_url("**/history")
    _ready(page)
    # Its review: the fair lens, what the player could know.
    page.get_by_test_id("history-row").nth(1).get_by_test_id("history-review").click()
    page.wait_for_url("**/review?deal=1**")
    _ready(page)
    page.wait_for_function("['running', 'queued', 'done'].includes(document.body.dataset.status)", timeout=WAIT)
    assert page.locator("#lens").input_value() == "fair"
    assert page.get_by_test_id("error").is_hidden()
    # In French, the same History in French words.
    _goto(page, live.url + "/")
    page.get_by_label("Language", exact=True).select_option("fr")
    _ready(page, "fr")
    _goto(page, live.url + "/history")
    assert page.get_by_role("heading", level=1).inner_text() == "Vos parties terminées"
    assert page.get_by_test_id("history-row").nth(0).locator("td").nth(2).inner_text() == "L'ordinateur, niveau 2"
    # Every word it shows, and every word its labels say to a screen reader, is French (the progress picture too).
    assert page.locator("[data-testid=progress-plot] text").first.text_content() == "Piquet rubicon · 1, débutant"
    # (The dates are the browser's own, in French by the page's language: "7 déc. 2026, 13:06".)
    dates = page.get_by_test_id("history-date").all_inner_texts()
    assert dates and all(re.fullmatch(r"\d{1,2} \w+\.? \d{4}( à|,) \d\d:\d\d", d) for d in dates), dates
    shown = [text for text in _shown(page) if text not in dates]
    found = english_words([{"text": text} for text in shown], ("Ann", *LANGUAGES.values()))
    assert {word: sorted(t[-60:] for t in texts)[:3] for word, texts in found.items()} == {}
    page.context.close()
