"""The review in the browser, driven by Playwright in Debian's chromium against a live ``piquet serve`` (the
fixtures of ``test_web_browser``): a deal against the computer played by clicking, then its review opened from the
score sheet, its progress followed, and its decisions stepped through with the keyboard and the buttons.

The test saves a picture of the review; with ``PIQUET_SCREENSHOTS=DIR`` it also writes it to ``DIR/review.png``
(``PIQUET_SCREENSHOTS=docs/screenshots python3 -m pytest tests/test_web_review_browser.py`` makes the docs' one).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_axe import violations
from test_web_browser import LiveServer, _create, _data, _goto, _open, _play_until, _ready, browser, server  # noqa: F401

pytestmark = pytest.mark.browser

#: The longest the review of a deal may take here (ms): some seconds of CPU in the worker, on a busy machine.
REVIEW_WAIT = 180_000
WAIT = 20_000


def _scored(page: Any) -> bool:
    return bool(page.evaluate("document.querySelectorAll('#sheet tbody tr:not(.current)').length >= 1"))


def _counter(page: Any) -> str:
    text: str = page.get_by_test_id("counter").inner_text()
    return text


@pytest.mark.slow
def test_a_finished_deal_is_reviewed_in_the_browser_decision_by_decision(request: pytest.FixtureRequest,
                                                                           tmp_path: Path) -> None:
    live, chromium = _live(request)
    created = _create(live, kind="computer", level=1, name="Ann")
    page = _open(chromium, live.url + created["links"]["play"])
    page.set_viewport_size({"width": 1280, "height": 900})
    _play_until([page], lambda: bool(_data(page, "dealEnd")), go_on=False)
    # The count of the deal scored offers its review, and so does the score sheet; the deal in progress has none.
    assert "/review?deal=1" in (page.get_by_test_id("review-deal").get_attribute("href") or "")
    page.get_by_test_id("go-on").click()
    assert _scored(page)
    assert violations(page) == []  # the table with its review links, as axe sees it
    link = page.get_by_role("link", name="Review deal 1")
    assert page.get_by_role("link", name="Review deal 2").count() == 0
    link.click()
    page.wait_for_url("**/t/**/review?deal=1**")
    _ready(page)
    # While the worker reviews, the page says how far it has gone; then the first decision of Ann's.
    page.wait_for_function("['running', 'queued', 'done'].includes(document.body.dataset.status)", timeout=WAIT)
    page.wait_for_function("document.body.dataset.status === 'done'", timeout=REVIEW_WAIT)
    assert page.get_by_test_id("progress").is_hidden()
    counter = _counter(page)
    assert counter.startswith("Decision 1 of ")
    total = int(counter.rsplit(" ", 1)[1])
    assert total >= 12  # her twelve cards at least, and her exchange and declarations
    # The partie goes on: the luck waits for its end (the server sent none).
    assert page.get_by_test_id("luck").get_attribute("data-shown") == "no"
    assert page.get_by_test_id("prev").is_disabled()
    # The arrows step through the decisions, the buttons too; Home and End go to the ends.
    page.keyboard.press("ArrowRight")
    assert _counter(page) == f"Decision 2 of {total}"
    page.get_by_test_id("next").click()
    assert _counter(page) == f"Decision 3 of {total}"
    page.keyboard.press("ArrowLeft")
    assert _counter(page) == f"Decision 2 of {total}"
    page.keyboard.press("End")
    assert _counter(page) == f"Decision {total} of {total}" and page.get_by_test_id("next").is_disabled()
    page.keyboard.press("Home")
    # Each decision shows the hands and a verdict; the graph is an image with its words.
    assert page.locator("#hands [data-card]").count() > 0
    assert page.get_by_test_id("verdict").inner_text()
    graph = page.locator("[data-testid=graph] svg[role=img]")
    assert "expected score" in (graph.get_attribute("aria-label") or "")
    # A card she chose among several: the strip of each card's value with open hands, the best marked; the
    # breakdown by part; the dot of the graph takes there too.
    dots = page.locator("[data-testid=graph] circle.dot")
    assert dots.count() >= 1
    at = int(dots.first.get_attribute("data-at") or "0")
    for _ in range(at):
        page.keyboard.press("ArrowRight")
    assert int(_data(page, "decision")) == at
    strip = page.get_by_test_id("strip")
    assert strip.locator(".strip-card").count() >= 2 and strip.locator(".strip-card.best").count() >= 1
    assert "open" in strip.inner_text()
    assert page.locator("[data-testid=breakdown] table").count() == 1
    assert page.get_by_test_id("explanation").inner_text()
    assert violations(page) == []  # the review, as axe sees it
    # The last dot she can reach with a click too.
    dots.last.click()
    assert int(_data(page, "decision")) == int(dots.last.get_attribute("data-at") or "0")
    dots.first.click()
    picture = tmp_path / "review.png"
    page.screenshot(path=str(picture), full_page=True)
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    wanted = os.environ.get("PIQUET_SCREENSHOTS")
    if wanted:
        Path(wanted).mkdir(parents=True, exist_ok=True)
        shutil.copy(picture, Path(wanted) / "review.png")
    page.context.close()


def test_the_review_page_without_a_seat_says_so(request: pytest.FixtureRequest) -> None:
    live, chromium = _live(request)
    created = _create(live, kind="computer", level=1, name="Ann")
    page = _open_plain(chromium, live.url + f"/t/{created['id']}/review?deal=1")
    page.wait_for_function("document.body.dataset.status === 'failed'", timeout=WAIT)
    assert "no seat" in page.get_by_test_id("error").inner_text()
    page.context.close()


def test_playing_on_where_the_loser_might_have_conceded_is_a_decision_of_his_own_before_elder_s_first_card(
        request: pytest.FixtureRequest) -> None:
    """The last deal, Ann the loser who might have conceded, Bill (elder) leading the A♠: the review the server
    sends her (what ``review_data`` makes of it, all of it as once the partie is over) shows her playing on as a
    decision of its own, just before Bill's card, graded as the others: its choice, best, loss, explanation and
    breakdown; then Bill's card, which shares its place, with its own."""
    from test_review_concessions import _played_on

    from piquet.coach.review import Lens
    from piquet.ui.web.reviews import for_viewer, review_data

    result = for_viewer(review_data(_played_on(), 6, Lens.OPEN), 0, partie_over=True)
    (entry,) = [d for d in result["decisions"] if d.get("decision") == "concession"]
    at = result["decisions"].index(entry)
    (graded,) = result["review"]["concessions"]
    assert entry["text"] == graded["text"] == "Ann plays on" and entry["seat"] == 0
    live, chromium = _live(request)
    created = _create(live, kind="computer", level=1, name="Ann")
    page = _open(chromium, live.url + created["links"]["play"])
    done = {"id": "r1", "status": "done", "done": 1, "total": 1, "seat": 0, "result": result}
    page.route("**/api/tables/*/reviews?*", lambda route: route.fulfill(status=202, json=done))
    _goto(page, live.url + f"/t/{created['id']}/review?deal=6&lens=open-hands")
    page.wait_for_function("document.body.dataset.status === 'done'", timeout=WAIT)
    total = len(result["decisions"])
    for _ in range(at):
        page.keyboard.press("ArrowRight")
    assert _counter(page) == f"Decision {at + 1} of {total}"
    assert page.locator("#decision-title").inner_text().startswith("Ann plays on")
    verdict = page.get_by_test_id("verdict").inner_text()
    assert "Choice\nAnn plays on" in verdict and f"Best\n{graded['best']}" in verdict
    assert page.get_by_test_id("explanation").inner_text() == graded["explanation"]
    breakdown = page.locator("[data-testid=breakdown] table")
    assert breakdown.count() == 1 and "The cards" in breakdown.inner_text()
    assert violations(page) == []  # the concession decision, as axe sees it
    # The next decision is Bill's card, at the same place: graded as a card, with each card's value.
    page.keyboard.press("ArrowRight")
    assert page.locator("#decision-title").inner_text().startswith("Bill plays A♠")
    assert "Choice\nA♠" in page.get_by_test_id("verdict").inner_text()
    assert page.get_by_test_id("strip").locator(".strip-card").count() >= 2
    page.context.close()


def _number(text: str) -> float:
    """A number as the review page writes it ("+12.3", "−4", "0")."""
    return float(text.replace("−", "-").replace("+", ""))


def _reviewed(request: pytest.FixtureRequest, name: str, deal: int, over: bool) -> tuple[Any, dict[str, Any]]:
    """The review page of ``deal`` of the record ``tests/records/{name}.json`` as Ann is sent it (what
    ``review_data`` makes of it with open hands, then ``for_viewer``, the partie over or going on), the server's
    answer stood in for; the page and the review's JSON."""
    from piquet.coach.review import Lens
    from piquet.engine import record
    from piquet.ui.web.reviews import for_viewer, review_data

    text = (Path(__file__).parent / "records" / f"{name}.json").read_text()
    result = for_viewer(review_data(record.loads(text), deal, Lens.OPEN), 0, partie_over=over)
    live, chromium = _live(request)
    created = _create(live, kind="computer", level=1, name="Ann")
    page = _open(chromium, live.url + created["links"]["play"])
    page.set_viewport_size({"width": 1280, "height": 900})
    done = {"id": "r1", "status": "done", "done": 1, "total": 1, "seat": 0, "result": result}
    page.route("**/api/tables/*/reviews?*", lambda route: route.fulfill(status=202, json=done))
    _goto(page, live.url + f"/t/{created['id']}/review?deal={deal}&lens=open-hands")
    page.wait_for_function("document.body.dataset.status === 'done'", timeout=WAIT)
    return page, result["review"]


@pytest.mark.parametrize("name", ["rubicon-deal", "auction-plus", "au-cent-game"])
def test_the_luck_of_a_deal_is_shown_once_the_partie_is_over(request: pytest.FixtureRequest, name: str) -> None:
    """Each player's luck of the deal and of the draws, his luck in all, his result and his result adjusted for
    luck, as the review's JSON gives them (the summary's ``luck``, the deal's ``players``), in a table and in
    words; luck and adjusted result add up to the result."""
    page, review = _reviewed(request, name, 1, over=True)
    panel = page.get_by_test_id("luck")
    assert panel.get_attribute("data-shown") == "yes" and page.get_by_test_id("luck-hidden").count() == 0
    (entry,) = review["luck"]
    for player in review["players"]:
        summary = review["summary"][player]["luck"]
        row = panel.locator(f"[data-testid=luck-table] tbody tr[data-player='{player}']")
        shown = {k: _number(row.locator(f"td[data-part={k}]").inner_text())
                 for k in ("deal", "draws", "luck", "result", "adjusted")}
        for k, value in shown.items():
            assert abs(value - summary[k]) <= 0.05 + 1e-9, (player, k, value, summary[k])
        assert shown["result"] == entry["players"][player]["result"] == summary["result"]
        assert abs(shown["luck"] + shown["adjusted"] - shown["result"]) <= 0.1 + 1e-9
        assert abs(shown["deal"] + shown["draws"] - shown["luck"]) <= 0.1 + 1e-9
        words = panel.locator(f"li[data-player='{player}']").inner_text()
        seat = "elder" if player == entry["elder"] else "younger"
        luck = entry["players"][player]["deal"]
        worth = "as much as" if abs(luck) < 0.05 else f"{abs(round(luck, 1)):g} {'more' if luck > 0 else 'less'} than"
        assert f"{player}'s hand was worth {worth} an average {seat}'s" in words
        assert "adjusted for luck" in words
    # Auction Piquet's deal says its contract, as bid and as the books would bid the hands dealt.
    assert ("The contract as bid" in panel.inner_text()) == ("contracts" in entry)
    assert violations(page) == []  # the luck panel, as axe sees it
    page.context.close()


def test_the_luck_waits_for_the_end_of_the_partie(request: pytest.FixtureRequest) -> None:
    """While the partie goes on, the server sends no luck (it would tell the opponent's discards): the panel
    says it is shown once the partie is over, and shows no number."""
    page, review = _reviewed(request, "rubicon-deal", 1, over=False)
    assert review["luck"] == [] and "luck" not in review["summary"]["Ann"]
    panel = page.get_by_test_id("luck")
    assert panel.get_attribute("data-shown") == "no"
    assert "once the partie is over" in page.get_by_test_id("luck-hidden").inner_text()
    assert panel.locator("table, li").count() == 0
    assert violations(page) == []
    page.context.close()


def _live(request: pytest.FixtureRequest) -> tuple[LiveServer, Any]:
    """test_web_browser's live server and browser."""
    return request.getfixturevalue("server"), request.getfixturevalue("browser")


def _open_plain(chromium: Any, url: str) -> Any:
    """A page in a fresh browser context (nothing kept of any table), ready."""
    return _open(chromium, url)
