"""A record file opened in the offline site (``docs/offline.md``), in Debian's chromium: chosen on the lobby, it is read
and reviewed in the page's worker by the same Python as the server's (Pyodide running ``piquet.ui.web.offline``), the
page telling how far the review has gone; a file that is no record is refused with where and why, the review shown
staying as it was. The site is built and served as ``test_offline_browser`` does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from test_offline_browser import START, _goto, _play_until, _ready, site  # noqa: F401 - its fixture
from test_web_axe import violations
from test_web_browser import _data, browser  # noqa: F401 - its fixture

pytestmark = pytest.mark.browser

RECORD = Path(__file__).parent / "records" / "rubicon-deal.json"
#: The longest Pyodide's start and the review of a deal in it may take here (ms), on a busy machine.
REVIEW_WAIT = 2 * START

#: Each status the review page says it is in, kept as it changes (the page's progress, seen from outside).
WATCH_STATUS = """
document.addEventListener("DOMContentLoaded", () => {
  window.seenStatus = [];
  new MutationObserver(() => window.seenStatus.push(document.body.dataset.status))
    .observe(document.body, {attributes: true, attributeFilter: ["data-status"]});
});
"""


def test_a_record_opened_in_the_offline_site_is_reviewed_in_the_worker(site: str, browser: Any,  # noqa: F811
                                                                       tmp_path: Path) -> None:
    context = browser.new_context()
    context.add_init_script(WATCH_STATUS)
    page = context.new_page()
    _goto(page, site)
    page.get_by_test_id("record-file").set_input_files(str(RECORD))
    page.wait_for_url("**/review.html**", timeout=START)
    _ready(page)
    page.wait_for_function("document.body.dataset.status === 'done'", timeout=REVIEW_WAIT)
    # The page said it was reading, then how far the worker's review had gone, before showing it.
    seen = page.evaluate("window.seenStatus")
    assert seen[0] == "reading" and "running" in seen and seen[-1] == "done"
    counter: str = page.get_by_test_id("counter").inner_text()
    assert counter.startswith("Decision 1 of ")
    assert page.locator("#hands [data-card]").count() == 24
    assert violations(page) == []
    # A file that is no record: refused by the same reader, where and why; the review shown stays.
    data = json.loads(RECORD.read_text(encoding="utf-8"))
    actions = data["deals"][0]["actions"]
    play = next(i for i, a in enumerate(actions) if "play" in a)
    actions[play]["play"] = "ZZ"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data), encoding="utf-8")
    page.get_by_test_id("record-file").set_input_files(str(broken))
    error = page.get_by_test_id("error")
    error.wait_for(state="visible", timeout=START)
    assert f"Where: deal 1, action {play}." in error.inner_text() and "not a card: 'ZZ'" in error.inner_text()
    assert page.get_by_test_id("counter").inner_text() == counter
    assert page.locator("#review").is_visible()


@pytest.mark.slow
def test_a_deal_played_in_the_offline_site_is_reviewed_in_the_worker(site: str, browser: Any) -> None:  # noqa: F811
    context = browser.new_context()
    context.add_init_script(WATCH_STATUS)
    page = context.new_page()
    _goto(page, site)
    page.get_by_label("Your name").fill("Ann")
    page.select_option("#level", "1")
    page.get_by_test_id("create-computer").click()
    page.wait_for_url("**/table.html?id=*", timeout=START)
    _ready(page)
    _play_until(page, lambda: bool(_data(page, "dealEnd")))
    # The deal's count links to its review, as on a served table; the page's worker makes it.
    page.get_by_test_id("review-deal").click()
    page.wait_for_url("**/review.html?**", timeout=START)
    _ready(page)
    page.wait_for_function("document.body.dataset.status === 'done'", timeout=REVIEW_WAIT)
    assert "running" in page.evaluate("window.seenStatus")
    counter: str = page.get_by_test_id("counter").inner_text()
    assert counter.startswith("Decision 1 of ")
    # The partie goes on: Ann sees her own decisions, the computer's cards those it went on to play.
    assert page.get_by_test_id("luck").get_attribute("data-shown") == "no"
    assert violations(page) == []
    # Back to the table, which the page names.
    assert "table.html?id=" in (page.locator("#table-link").get_attribute("href") or "")
