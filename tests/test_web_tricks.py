"""The tricks stay in sight (issue 21, item 3), in Debian's chromium: when the computer wins a trick and leads
the next at once, the trick it won stays beside its lead until that trick is whole, and every trick of the deal
can be looked back at. At a desktop's size and a phone's."""

from __future__ import annotations

from typing import Any

import pytest
from table_sites import TableSite, offline_site, table_site  # noqa: F401

# On both transports (tests/table_sites.py); the browser and the live server are test_web_browser's fixtures.
from test_web_axe import VIEWPORTS
from test_web_browser import WAIT, _data, _decide, browser, server  # noqa: F401

pytestmark = pytest.mark.browser


def _view(page: Any) -> dict[str, Any]:
    """What the page's table shows of the trick in play, the last trick beside it, and the deal's tricks."""
    shown: dict[str, Any] = page.evaluate("""() => ({
        trick: [...document.querySelectorAll('#trick [data-card]')].map(c => c.dataset.card),
        last: document.getElementById('last-trick').hidden ? null
            : [...document.querySelectorAll('#last-trick-cards [data-card]')].map(c => c.dataset.card),
        caption: document.getElementById('last-trick-caption').textContent,
    })""")
    return shown


@pytest.mark.slow
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_trick_the_computer_wins_and_leads_after_stays_in_sight_until_the_next_is_whole(
        table_site: TableSite, viewport: str) -> None:  # noqa: F811
    page = table_site.new()
    page.set_viewport_size(VIEWPORTS[viewport])
    page.get_by_test_id("auto-play").uncheck()  # every card by hand, so each lead of the computer is seen
    seen = 0
    for _ in range(600):
        if _data(page, "prompt") == "play":
            shown = _view(page)
            if len(shown["trick"]) == 1 and shown["last"] is not None:
                # The computer led at once: the trick it won is still in sight, as the deal's record has it.
                assert len(shown["last"]) == 2 and shown["caption"].startswith("Last trick: ")
                assert not set(shown["last"]) & set(shown["trick"])
                if not seen:  # the deal's last trick, as the list of the deal's tricks has it
                    page.get_by_test_id("tricks").first.click()
                    listed = page.locator("#tricks-list .trick-line").last.locator(".cardtext")
                    named = page.locator("#last-trick-cards [data-card]").evaluate_all(
                        "cs => cs.map(c => c.getAttribute('aria-label').split(',')[0])")
                    assert [listed.nth(i).get_attribute("title") for i in range(listed.count())] == named
                    page.keyboard.press("Escape")
                seen += 1
                if seen >= 2:
                    break
            elif len(shown["trick"]) != 1:
                assert shown["last"] is None  # a lead of one's own, or a whole trick: no second pile
        if not _decide(page):
            page.wait_for_timeout(50)
    assert seen >= 2
    # Every trick of the deal can be looked back at, in order, with who led and who won.
    page.get_by_test_id("tricks").first.click()
    lines = page.locator("#tricks-list .trick-line")
    lines.first.wait_for(timeout=WAIT)
    assert lines.count() >= 2 and "wins" in lines.first.inner_text()
    page.context.close()
