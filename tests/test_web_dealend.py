"""The end of a deal and a reload, in Debian's chromium (issue #21, items 2 and 4).

When a deal is scored the page shows its count by category for both players, as the server's score sheet row
carries it, with the partie's score sheet, the deal's review and "Go on"; the table keeps the finished deal until
the player goes on, though the server has dealt the next. Each player of a room goes on by himself, a spectator
too. A reload in the middle of a deal shows its table talk again, and the cards selected for an exchange not yet
made are selected again. Each is checked by axe, at a desktop's size and a phone's.
"""

from __future__ import annotations

from typing import Any

import pytest
from table_sites import TableSite, offline_site, table_site  # noqa: F401

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_axe import VIEWPORTS, violations
from test_web_browser import (  # noqa: F401
    WAIT,
    LiveServer,
    _create,
    _data,
    _go_on,
    _open,
    _play_until,
    browser,
    server,
)

pytestmark = pytest.mark.browser


def _live(request: pytest.FixtureRequest) -> tuple[LiveServer, Any]:
    return request.getfixturevalue("server"), request.getfixturevalue("browser")


def _cells(page: Any, selector: str) -> list[str]:
    cells: list[str] = page.locator(selector).evaluate_all("cs => cs.map(c => c.textContent.trim())")
    return cells


def _shows_count_of_deal_one(page: Any) -> None:
    """The count of deal 1 is open, its lines add up to its total, and the total is the server's sheet row."""
    dialog = page.get_by_test_id("deal-end")
    assert dialog.is_visible()
    assert page.locator("#deal-end-title").text_content() == "Deal 1 scored"
    assert page.get_by_role("heading", name="Deal 1 scored").is_visible()
    assert page.evaluate("document.activeElement.closest('dialog') !== null")  # the focus is in the dialog
    row = page.evaluate("piquetTable.state.view.sheet[0]")
    lines = page.locator("[data-testid=deal-count] tbody tr[data-category]")
    categories = lines.evaluate_all("rs => rs.map(r => r.dataset.category)")
    assert categories == [line["category"] for line in row["count"]]
    assert "play" in categories  # every deal's tricks score in the play
    total = _cells(page, "[data-testid=deal-total] td")
    assert total == [str(p) for p in row["points"]]
    for seat in (0, 1):
        column = _cells(page, f"[data-testid=deal-count] tbody tr[data-category] td:nth-of-type({seat + 1})")
        assert sum(int(c) for c in column) == row["points"][seat]
    # The partie's score sheet is in the dialog, its row of deal 1 the same totals.
    assert _cells(page, "#deal-end .sheet .sheet-table tbody tr:first-child td.num") == total


@pytest.mark.slow
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_deal_scored_shows_its_count_and_the_sheet_until_the_player_goes_on(
        table_site: TableSite, viewport: str) -> None:  # noqa: F811
    page = table_site.new()
    page.set_viewport_size(VIEWPORTS[viewport])
    _play_until([page], lambda: bool(_data(page, "dealEnd")), go_on=False)
    _shows_count_of_deal_one(page)
    # The deal's review: the server's page of the table, or the offline site's (its worker's review).
    assert ("review.html?deal=1" if table_site.offline else "/review?deal=1") in (
        page.get_by_test_id("review-deal").get_attribute("href") or "")
    assert violations(page) == []
    # The table behind still shows deal 1: its sheet has no row yet, and nothing may be decided.
    assert page.locator("#sheet tbody tr:not(.current)").count() == 0
    assert _data(page, "prompt") == ""
    # Going on (the button at a desktop, Escape on a phone) shows the next deal as the server has it.
    if viewport == "desktop":
        page.get_by_test_id("go-on").click()
    else:
        page.keyboard.press("Escape")
    page.wait_for_function("!document.body.dataset.dealEnd", timeout=WAIT)
    assert page.get_by_test_id("deal-end").is_hidden()
    assert page.locator("#sheet tbody tr:not(.current)").count() == 1
    assert _data(page, "version") == str(page.evaluate("piquetTable.state.version"))
    assert violations(page) == []
    # The talk of deal 1, which the state no longer carries once deal 2 is dealt, is kept over a reload.
    deal_one = page.locator("#log details.old-deal").filter(has=page.locator("summary", has_text="Deal 1"))
    _play_until([page], lambda: deal_one.count() == 1)
    finished = deal_one.text_content()
    assert finished and finished.startswith("Deal 1") and page.locator("#log details.old-deal").count() == 2
    version = _data(page, "version")
    table_site.load_again(page)
    assert _data(page, "version") == version
    assert deal_one.text_content() == finished and page.locator("#log details.old-deal").count() == 2
    page.context.close()


@pytest.mark.slow
def test_in_a_room_each_player_goes_on_by_himself_and_the_spectator_too(request: pytest.FixtureRequest) -> None:
    live, chromium = _live(request)
    created = _create(live, kind="room", variant="rubicon", name="Ann")
    ann = _open(chromium, live.url + created["links"]["play"])
    bob = _open(chromium, live.url + created["links"]["invite"])
    bob.get_by_test_id("join-name").fill("Bob")
    bob.get_by_test_id("join-submit").click()
    watcher = _open(chromium, live.url + created["links"]["spectate"])

    def scored() -> bool:
        return bool(_data(ann, "dealEnd")) or bool(_data(bob, "dealEnd"))

    _play_until([ann, bob], scored, go_on=False)
    for page in (ann, bob, watcher):
        page.wait_for_function("document.body.dataset.dealEnd === '1'", timeout=WAIT)
        _shows_count_of_deal_one(page)
    # A seat reviews the deal it has played; a spectator only once the partie is over.
    assert ann.get_by_test_id("review-deal").count() == 1 and watcher.get_by_test_id("review-deal").count() == 0
    assert violations(watcher) == []
    assert _go_on(ann)
    assert ann.locator("#sheet tbody tr:not(.current)").count() == 1
    assert _data(bob, "dealEnd") == "1" and _data(watcher, "dealEnd") == "1"  # Bob has not gone on yet
    assert _go_on(bob) and _go_on(watcher)
    assert bob.locator("#sheet tbody tr:not(.current)").count() == 1
    assert watcher.locator("#sheet tbody tr:not(.current)").count() == 1
    for page in (ann, bob, watcher):
        page.context.close()


def _talk(page: Any) -> str:
    text: str = page.locator("#log").inner_text()
    return text


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_reload_keeps_the_deal_s_talk_and_the_cards_selected_for_the_exchange(
        table_site: TableSite, viewport: str) -> None:  # noqa: F811
    page = table_site.new()
    page.set_viewport_size(VIEWPORTS[viewport])
    url = table_site.table_url(page)  # no secret in the link: the page remembers it
    table_id = page.evaluate("window.piquetTable.id")
    _play_until([page], lambda: _data(page, "prompt") == "exchange")
    cards = page.locator("[data-testid=hand] [data-card]")
    chosen = [cards.nth(0).get_attribute("data-card"), cards.nth(2).get_attribute("data-card")]
    cards.nth(0).click()
    cards.nth(2).click()
    version = _data(page, "version")
    table_site.load(page, url)
    assert _data(page, "version") == version and _data(page, "prompt") == "exchange"
    selected = page.locator("[data-testid=hand] [data-card].selected").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert sorted(selected) == sorted(chosen)
    assert page.get_by_test_id("exchange-count").inner_text().startswith("2 selected")
    assert violations(page) == []
    page.get_by_test_id("confirm-exchange").click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version, timeout=WAIT)
    # The exchange made, the tab forgets the selection.
    assert page.evaluate(f"sessionStorage.getItem('piquet.exchange.{table_id}')") is None
    # In the play, the talk of the deal so far (the declarations, the cards played) is there again after a reload.
    _play_until([page], lambda: _data(page, "prompt") == "play" and page.locator("#log li.play").count() >= 2)
    talk, version = _talk(page), _data(page, "version")
    assert "Nothing said yet" not in talk
    table_site.load(page, url)
    assert _data(page, "version") == version
    assert _talk(page) == talk
    assert violations(page) == []
    page.context.close()
