"""The tutor's warning and the hint, in Debian's chromium, on both transports (tests/table_sites.py): the served
table and the offline site's, whose hints and tutor are thought in the page's worker.

The tutor warns of a costly exchange (the table made through the lobby, its tutor ticked), and the player thinks
again, asks for a hint, or plays it anyway; a hint asked for on a laptop's screen is brought on screen, whole.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

# On both transports (tests/table_sites.py); the browser and the live server are test_web_browser's fixtures.
from table_sites import TableSite, offline_site, table_site  # noqa: F401
from test_web_browser import _data, _hand, _play_until, _wait_version, browser, server  # noqa: F401

pytestmark = pytest.mark.browser

#: Where the tutor's test saves its screenshot of the warning (``tutor.png``), when set: as docs/screenshots is made,
#: ``PIQUET_SCREENSHOTS=docs/screenshots python3 -m pytest tests/test_web_hints_browser.py -k "tutor and served"``.
SCREENSHOTS = os.environ.get("PIQUET_SCREENSHOTS")
_RANKS = "AKQJT987"


def _select_discards(page: Any, cards: list[str]) -> None:
    """Select exactly ``cards`` in the hand for the exchange (clicking those not selected, and any other selected)."""
    for card in _hand(page):
        selected = page.evaluate("c => window.piquetTable.selection.cards.has(c)", card)
        if selected != (card in cards):
            page.locator(f"[data-testid=hand] [data-card='{card}']").click()


@pytest.mark.slow
def test_the_tutor_warns_of_a_costly_exchange_and_the_player_thinks_again_or_plays_it_anyway(
        table_site: TableSite) -> None:  # noqa: F811
    page = table_site.lobby()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.get_by_label("Your name").fill("Ann")
    page.get_by_test_id("level").select_option("1")
    page.get_by_test_id("tutor-option").check()
    assert "loses 5 points or more" in page.locator("#tutor-help").inner_text()
    page.get_by_test_id("create-computer").click()
    table_site.created(page)  # the table's first state drawn
    assert page.evaluate("window.piquetTable.state.table.tutor") == 5
    _play_until([page], lambda: _data(page, "prompt") == "exchange")
    version = _data(page, "version")
    most = page.evaluate("window.piquetTable.state.prompt.max")
    # The strongest cards thrown away: the aces and kings first.
    worst = sorted(_hand(page), key=lambda c: _RANKS.index(c[0]))[:most]
    _select_discards(page, worst)
    page.get_by_test_id("confirm-exchange").click()
    warning = page.get_by_test_id("tutor")
    warning.wait_for(state="visible", timeout=table_site.wait)
    text = page.get_by_test_id("tutor-text").inner_text()
    assert text.startswith("This loses ") and "Discarding the " in text and " costs Ann " in text
    assert page.get_by_test_id("tutor-better").inner_text().startswith("Better: exchange ")
    assert _data(page, "version") == version  # nothing applied
    if SCREENSHOTS and not table_site.offline:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / "tutor.png"), full_page=True)
    # Think again: the warning goes, the decision waits; a hint says why the best is best, and the next discards.
    page.get_by_test_id("tutor-again").click()
    warning.wait_for(state="hidden", timeout=table_site.wait)
    assert _data(page, "prompt") == "exchange" and _data(page, "version") == version
    page.get_by_test_id("hint").click()
    why = page.get_by_test_id("hint-why")
    why.wait_for(state="visible", timeout=table_site.wait)
    assert why.inner_text().startswith("Discarding the ")
    assert page.locator("[data-testid=hint-discards] li").count() >= 1
    # Played anyway: the same discards, confirmed, are applied.
    _select_discards(page, worst)
    page.get_by_test_id("confirm-exchange").click()
    warning.wait_for(state="visible", timeout=table_site.wait)
    page.get_by_test_id("tutor-anyway").click()
    _wait_version(page, version)  # not only sent (the prompt goes while it is on its way): applied
    assert warning.is_hidden()
    assert not set(worst) & set(_hand(page))
    page.context.close()


def test_a_hint_asked_for_is_shown_on_the_screen_of_a_laptop(table_site: TableSite) -> None:  # noqa: F811
    """At 1280x800 the table is taller than the screen and the hint's box sits under the decision's panel: asked
    for, the hint is brought on screen, whole (issue 32, item 6; it appeared below the screen's edge)."""
    page = table_site.new(table_site.context(viewport={"width": 1280, "height": 800}))
    _play_until([page], lambda: _data(page, "prompt") == "exchange")  # the longest hint: three discards, and why
    page.get_by_test_id("hint").click()
    page.get_by_test_id("hint-why").wait_for(state="visible", timeout=table_site.wait)
    page.wait_for_function("""() => { const box = document.getElementById('hint-box').getBoundingClientRect();
                                      return box.top >= -1 && box.bottom <= innerHeight + 1 && box.height > 100; }""",
                           timeout=table_site.wait)
    page.context.close()
