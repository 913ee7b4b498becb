"""Progress by phase in the browser (issue 36), in Debian's chromium against a live ``piquet serve`` (the fixtures of
``test_web_browser``): four finished parties are put in the server's store (played by the computer's first levels
for the player, so that his figures move), the browser holds their seats' secrets as a player's does, and the
History page says they are being reviewed, then, as the server's worker process reviews each, draws the points lost
a decision by phase partie after partie, with the level the play resembles, the figures in a table and in words.
With ``PIQUET_SCREENSHOTS=DIR`` the test writes its picture to ``DIR/progress.png``
(``PIQUET_SCREENSHOTS=docs/screenshots python3 -m pytest -m browser tests/test_web_progress_phases_browser.py``
makes the docs' one)."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_axe import violations
from test_web_browser import LiveServer, _goto, _open, _ready, browser, server  # noqa: F401
from web_helpers import FOUR_DEALS

from piquet.ai.agent import play_partie
from piquet.ai.levels import make_agent
from piquet.engine.record import action_to_data
from piquet.ui.web.history import summary
from piquet.ui.web.store import SQLiteStore, TableInfo

pytestmark = pytest.mark.browser

#: The player's level in each partie, oldest first (against level 2).
PLAYED = ("level1", "level1", "level2", "level2")
#: Milliseconds the reviews of the four parties may take in the server's one worker process, on a loaded machine.
REVIEWED = 240_000


def _seed(live: LiveServer) -> list[tuple[str, str]]:
    """The finished parties in the live server's store, each with its History line; their tables and secrets."""
    store = SQLiteStore(str(live.db))
    seats = []
    try:
        for n, level in enumerate(PLAYED):
            partie = play_partie([make_agent(level, n), make_agent("level2", 100 + n)], random.Random(n),
                                 ("Ann", "Computer"), options=dict(FOUR_DEALS))
            table_id, secret = f"progress-{n}", f"secret-{n}"
            store.create(TableInfo(table_id, "computer", "rubicon", dict(FOUR_DEALS), 2, ["Ann", "Computer"],
                                   [secret, None], f"spectate-{n}", 1, created=1_765_000_000.0 + 86_400 * n,
                                   actions=[action_to_data(a, partie.players) for a in partie.actions],
                                   version=len(partie.actions)))
            store.finish(table_id, 1_765_003_600.0 + 86_400 * n, summary(partie))
            seats.append((table_id, secret))
    finally:
        store.close()
    return seats


def test_progress_draws_the_points_lost_by_phase_once_the_parties_are_reviewed(request: pytest.FixtureRequest,
                                                                               tmp_path: Path) -> None:
    live: LiveServer = request.getfixturevalue("server")
    seats = _seed(live)
    page = _open(request.getfixturevalue("browser"), live.url + "/")
    page.evaluate("seats => seats.forEach(([table, token], i) => localStorage.setItem('piquet.table.' + table, "
                  "JSON.stringify({token, at: i})))", [list(s) for s in seats])
    page.set_viewport_size({"width": 1100, "height": 900})
    _goto(page, live.url + "/history")
    # At first none is reviewed: the page says so, and draws nothing yet.
    assert page.evaluate("document.body.dataset.phasesWaiting") == "4"
    assert page.get_by_test_id("phases").is_visible()
    assert page.get_by_test_id("phases-status").inner_text() == (
        "4 parties are still being reviewed: their points are drawn as each is done.")
    assert page.get_by_test_id("phases-plot").count() == 0
    # The page asks again while some wait, and draws each review as the server's worker process makes it.
    page.wait_for_function("document.body.dataset.phasesWaiting === '0'", timeout=REVIEWED)
    assert page.get_by_test_id("phases-status").inner_text() == ""
    plot = page.get_by_test_id("phases-plot")
    assert plot.count() == 1 and plot.get_attribute("data-variant") == "rubicon"
    answer = page.evaluate("seats => fetch('/api/history', {method: 'POST', headers: {'Content-Type': "
                           "'application/json'}, body: JSON.stringify({seats, lang: 'en'})}).then(r => r.json())",
                           [{"table": t, "token": s} for t, s in seats])
    [row] = answer["phases"]["variants"]
    assert [p["id"] for p in row["parties"]] == [t for t, _ in seats]  # oldest first, as they ended
    # A line a phase, a point a partie where the phase held a choice, each point's figure in its title.
    for phase in ("exchange", "declarations", "play"):
        series = plot.locator(f"[data-testid=phases-series][data-phase={phase}]")
        wanted = [p["per_decision"][phase] for p in row["parties"] if p["per_decision"][phase] is not None]
        assert series.get_attribute("data-points") == str(len(wanted))
        points = series.locator("[data-testid=phases-point]")
        assert [float(points.nth(i).get_attribute("data-value") or "nan") for i in range(points.count())] == wanted
        box = points.first.bounding_box()  # drawn, within the picture
        frame = plot.bounding_box()
        assert box is not None and frame is not None and box["width"] > 0
        assert frame["x"] <= box["x"] <= frame["x"] + frame["width"]
    assert plot.locator("[data-testid=phases-point] title").first.text_content().startswith("Partie 1, Exchange: ")
    caption = page.get_by_test_id("phases-like").inner_text()
    assert caption.startswith("Rubicon Piquet, 4 parties reviewed, ") and f"you played {row['played_like_words']}" in (
        caption)
    # The same figures in words: the picture's title and description, and a table a partie a row.
    assert (plot.locator("title").first.text_content() or "").startswith("Points lost a decision by phase")
    assert "on average" in (plot.locator("desc").text_content() or "")
    page.get_by_text("The figures, partie by partie").click()
    figures = page.get_by_test_id("phases-figures").locator("tbody tr")
    assert figures.count() == 4
    assert violations(page) == []
    picture = tmp_path / "progress.png"
    page.get_by_test_id("phases").screenshot(path=str(picture))
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    wanted_dir = os.environ.get("PIQUET_SCREENSHOTS")
    if wanted_dir:
        Path(wanted_dir).mkdir(parents=True, exist_ok=True)
        shutil.copy(picture, Path(wanted_dir) / "progress.png")
    # In French, the same plot in French words, the reviews read from the store (nothing is reviewed again).
    made = live.app.state.phases.made
    _goto(page, live.url + "/")
    page.get_by_label("Language", exact=True).select_option("fr")
    _ready(page, "fr")
    _goto(page, live.url + "/history")
    assert (page.get_by_test_id("phases-plot").locator("title").first.text_content() or "").startswith(
        "Points perdus par décision")
    assert page.get_by_test_id("phases-like").inner_text().startswith("Piquet rubicon, 4 parties analysées")
    assert live.app.state.phases.made == made == 4
    page.context.close()
