"""The lobby's "Your recent tables" (issue 36): each table this browser played is listed with its status and score as
the table last showed them, in Debian's chromium; a room waiting for its guest says so; in French, in French."""

from __future__ import annotations

import re
from typing import Any

import pytest

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_browser import WAIT, LiveServer, _data, _decide, _goto, _open, _ready, browser, server  # noqa: F401

pytestmark = pytest.mark.browser


def _standing(page: Any) -> str:
    text: str = page.locator("[data-testid=recent-table]").first.get_by_test_id("recent-standing").inner_text()
    return text


def _scored(page: Any) -> bool:
    """The first deal is scored (its row is on the sheet): the table's state has a score to show."""
    return bool(page.evaluate("(window.piquetTable.state.view?.sheet || []).length >= 1"))


def test_the_lobby_lists_each_table_with_its_status_and_score(request: pytest.FixtureRequest) -> None:
    live: LiveServer = request.getfixturevalue("server")
    page = _open(request.getfixturevalue("browser"), live.url + "/")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_test_id("create-room").click()
    page.wait_for_url("**/t/**")
    _ready(page)
    _goto(page, live.url + "/")
    assert _standing(page) == "Waiting for the guest"

    page.get_by_label("Computer level").select_option("1")
    page.get_by_test_id("create-computer").click()
    page.wait_for_url("**/t/**")
    _ready(page)
    for _ in range(2000):
        if _scored(page):
            break
        if not _decide(page, go_on=False):
            page.wait_for_timeout(50)
    else:
        raise AssertionError("the first deal was never scored")
    state = page.evaluate("window.piquetTable.state")
    totals, deal, players = state["view"]["totals"], state["view"]["deal_number"], state["players"]
    _goto(page, live.url + "/")
    rows = page.locator("[data-testid=recent-table]")
    assert rows.count() == 2
    assert _standing(page) == f"In play, deal {deal} · {players[0]} {totals[0]}, {players[1]} {totals[1]}"
    assert rows.nth(1).get_by_test_id("recent-standing").inner_text() == "Waiting for the guest"
    # In French, the same standing in French words.
    page.get_by_label("Language", exact=True).select_option("fr")
    _ready(page, "fr")
    assert re.fullmatch(rf"En cours, donne {deal} · .+ {totals[0]}, .+ {totals[1]}", _standing(page))
    assert _data(page, "ready") == "1"
    page.context.close()
