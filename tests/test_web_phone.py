"""The table on a phone (issue 21, item 6), in Debian's chromium: a deal played by tapping at a phone's size,
upright and on its side, keeps every card of the hand readable and tappable (each card's visible part at
least 40 CSS px wide, nothing covering it), the decision's panel on screen with the hand, no page scrolling
sideways, and the axe check clean at every kind of prompt; the desktop sizes keep the hand and the
declarations' choices on screen too.

With ``PIQUET_SCREENSHOTS=DIR`` the phone test also writes the table at 390 × 844 during the exchange to
``DIR/phone.png`` (``PIQUET_SCREENSHOTS=docs/screenshots python3 -m pytest tests/test_web_phone.py`` makes the
docs' one).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

# The tables are made on both transports (tests/table_sites.py); the live server and the browser are
# test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from table_sites import TableSite, offline_site, table_site  # noqa: F401
from test_web_axe import violations
from test_web_browser import WAIT, LiveServer, _create, _decide, _goto, _ready, browser, server  # noqa: F401

pytestmark = pytest.mark.browser

#: Phones upright (a large and a small one) and on its side, in CSS pixels.
PHONES = {"390x844": (390, 844), "360x740": (360, 740), "844x390": (844, 390)}
#: Desktops, which must keep what they had.
DESKTOPS = {"1280x800": (1280, 800), "1366x768": (1366, 768)}
#: The longest the review of a deal may take here (ms): some seconds of CPU in the worker, on a busy machine.
REVIEW_WAIT = 180_000
#: The kinds of prompt a deal must have shown, at the least.
KINDS = {"exchange", "declare", "play"}
#: The narrowest visible part of a card of the hand that is still read and tapped with a finger (CSS px).
MIN_VISIBLE = 40

#: Where the decision's panel is, with the page at its top: it must be on screen without any scrolling (it
#: stays at the bottom of the screen while the table is scrolled), and the page no wider than the screen.
MEASURE_PROMPT = """() => {
    window.scrollTo(0, 0);
    const box = document.querySelector('[data-testid=prompt]').getBoundingClientRect();
    return {top: box.top, bottom: box.bottom, height: innerHeight, width: innerWidth,
            scrollWidth: document.documentElement.scrollWidth};
}"""

#: Each card of the hand, the page scrolled (if the hand is not all on screen, above the decision) to bring the
#: hand to the top of the screen, as a player scrolls to it: its code and box, the width of the part that the
#: next card of its row leaves visible, and whether a tap in the middle of that part (at the height of the
#: corner index) reaches it; and the decision's panel's box, which must then be on screen with the hand.
MEASURE_HAND = """() => {
    const hand = document.querySelector('[data-testid=hand]');
    const under = document.querySelector('[data-testid=prompt]');
    const bottom = hand.getBoundingClientRect().bottom;
    if (bottom > innerHeight || bottom > under.getBoundingClientRect().top) hand.scrollIntoView({block: 'start'});
    const cards = [...hand.querySelectorAll('[data-card]')];
    const boxes = cards.map(c => c.getBoundingClientRect());
    const prompt = under.getBoundingClientRect();
    return {prompt: {top: prompt.top, bottom: prompt.bottom}, cards: cards.map((c, i) => {
        const box = boxes[i];
        const next = boxes.slice(i + 1).find(b => Math.abs(b.top - box.top) < box.height / 2);
        const right = next ? Math.min(box.right, next.left) : box.right;
        const x = (box.left + right) / 2, y = box.top + box.height * 0.4;
        const hit = document.elementFromPoint(x, y);
        return {card: c.dataset.card, top: box.top, bottom: box.bottom, visible: right - box.left,
                reached: !!hit && hit.closest('[data-card]') === c};
    })};
}"""


def _check_the_table(page: Any, kind: str) -> list[str]:
    """What is wrong with the table as shown now, one line each (nothing if all is well)."""
    wrong: list[str] = []
    shown = page.evaluate(MEASURE_PROMPT)
    height = shown["height"]
    if shown["top"] < -1 or shown["bottom"] > height + 1:
        wrong.append(f"{kind}: the prompt ({shown['top']:.0f}-{shown['bottom']:.0f}) is off the screen of {height} px")
    if shown["scrollWidth"] > shown["width"]:
        wrong.append(f"{kind}: the page is {shown['scrollWidth']} px wide on a screen of {shown['width']}")
    hand = page.evaluate(MEASURE_HAND)
    for card in hand["cards"]:
        if card["visible"] < MIN_VISIBLE:
            wrong.append(f"{kind}: {card['card']} shows {card['visible']:.1f} px")
        if not card["reached"]:
            wrong.append(f"{kind}: a tap on {card['card']} reaches something else")
    if hand["cards"] and (min(c["top"] for c in hand["cards"]) < -1
                          or max(c["bottom"] for c in hand["cards"]) > height + 1):
        wrong.append(f"{kind}: the hand is not all on screen")
    if hand["prompt"]["top"] < -1 or hand["prompt"]["bottom"] > height + 1:
        wrong.append(f"{kind}: the prompt is off the screen with the hand on it")
    return wrong


def _phone(site: Any, size: tuple[int, int]) -> Any:
    """A phone's browser context (``site``: a ``TableSite``, or the browser itself)."""
    width, height = size
    # Reduced motion: the cards and notices that fade in are checked (by axe too) as they stand.
    make = site.context if isinstance(site, TableSite) else site.new_context
    return make(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True,
                                device_scale_factor=2, reduced_motion="reduce")


def _play_a_deal(site: TableSite, context: Any, touch: bool, screenshot: Path | None = None
                 ) -> dict[str, list[str]]:
    """A deal (or two) against the computer played by tapping (or clicking), the table checked (and axe run)
    once at each kind of prompt: what was wrong, by kind."""
    page = site.new(context)
    page.get_by_test_id("declare-best").set_checked(False)  # each declaration's menu shown, to be checked
    checked: dict[str, list[str]] = {}

    def seen(kind: str) -> None:  # the very prompt about to be answered: checked once for each kind
        if kind in checked:
            return
        checked[kind] = _check_the_table(page, kind) + [f"{kind}: axe: {line}" for line in violations(page)]
        if kind == "exchange" and screenshot is not None:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(screenshot))

    for _ in range(800):
        # A deal, or two if the first did not ask for an exchange (as the younger hand may not be asked).
        deals = page.evaluate("document.querySelectorAll('#sheet tbody tr:not(.current)').length")
        if deals >= 2 or (deals >= 1 and set(checked) >= KINDS):
            break
        if not _decide(page, touch, seen=seen):
            page.wait_for_timeout(50)
    else:
        raise AssertionError("the deal did not end")
    assert set(checked) >= KINDS
    if touch:
        checked["review"] = _review_of_the_first_deal(site, page)
    page.close()
    return checked


def _review_of_the_first_deal(site: TableSite, page: Any) -> list[str]:
    """The review of the first deal opened from the score sheet (the server's, or the offline site's, reviewed in
    its page's worker): what is wrong with it on this screen."""
    page.get_by_role("link", name="Review deal 1").tap()
    page.wait_for_url("**/review.html?deal=1**" if site.offline else "**/t/**/review?deal=1**", timeout=site.wait)
    page.wait_for_function("!!document.body && document.body.dataset.ready === '1'", timeout=site.wait)
    page.wait_for_function("document.body.dataset.status === 'done'", timeout=REVIEW_WAIT)
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    wrong = [f"review: the page is {width[0]} px wide on a screen of {width[1]}"] if width[0] > width[1] else []
    return wrong + [f"review: axe: {line}" for line in violations(page)]


@pytest.mark.slow
@pytest.mark.parametrize("size", PHONES)
def test_a_deal_tapped_on_a_phone_keeps_the_cards_tappable_and_the_prompt_in_view(
        table_site: TableSite, size: str) -> None:  # noqa: F811
    context = _phone(table_site, PHONES[size])
    wanted = os.environ.get("PIQUET_SCREENSHOTS")
    picture = Path(wanted) / "phone.png" if wanted and size == "390x844" and not table_site.offline else None
    checked = _play_a_deal(table_site, context, True, picture)
    context.close()
    wrong = [line for lines in checked.values() for line in lines]
    assert not wrong, "\n".join(wrong)


@pytest.mark.slow
@pytest.mark.parametrize("size", DESKTOPS)
def test_a_desktop_keeps_the_hand_and_the_prompt_on_screen(table_site: TableSite, size: str) -> None:  # noqa: F811
    width, height = DESKTOPS[size]
    context = table_site.context(viewport={"width": width, "height": height}, reduced_motion="reduce")
    checked = _play_a_deal(table_site, context, False)
    context.close()
    wrong = [line for lines in checked.values() for line in lines]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("size", PHONES)
def test_no_page_scrolls_sideways_on_a_phone(request: pytest.FixtureRequest, size: str) -> None:
    live: LiveServer = request.getfixturevalue("server")
    context = _phone(request.getfixturevalue("browser"), PHONES[size])
    created = _create(live, kind="computer", level=1, name="Ann")
    page = context.new_page()
    for path in ("/", created["links"]["play"], "/guide/rubicon", "/rules/rubicon"):
        _goto(page, live.url + path)
        width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], f"{path}: {width[0]} px wide on a screen of {width[1]}"
    context.close()
