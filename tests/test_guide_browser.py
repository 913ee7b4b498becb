"""The player's guide in Debian's chromium, on a desktop and on a phone: its hands are pictures a player can read
(cards at least 40 px wide, no sideways scrolling), each names its card, and a table's "What is ...?" link opens
the guide at the term in a new tab. The server and the browser are those of ``test_web_browser.py``."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_browser import (  # noqa: F401 - their fixtures
    WAIT,
    LiveServer,
    _create,
    _data,
    _goto,
    _open,
    _play_until,
    _ready,
    browser,
    server,
)

pytestmark = pytest.mark.browser

VIEWPORTS = [pytest.param({"width": 1280, "height": 800}, id="desktop"),
             pytest.param({"width": 390, "height": 844}, id="phone")]


@pytest.fixture
def live(request: pytest.FixtureRequest) -> LiveServer:
    """``piquet serve`` on a port of its own (the browser tests' ``server``)."""
    found: LiveServer = request.getfixturevalue("server")
    return found


@pytest.fixture
def chromium(request: pytest.FixtureRequest) -> Any:
    """Debian's chromium, driven by Playwright (the browser tests' ``browser``)."""
    return request.getfixturevalue("browser")


def _page(driver: Any, viewport: dict[str, int], url: str) -> Any:
    """A page at ``viewport``'s size at ``url``, ready."""
    return _open(driver, url, viewport=viewport)


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_a_guide_s_hands_are_readable_pictures_that_name_their_cards(
        live: LiveServer, chromium: Any, viewport: dict[str, int], variant: str) -> None:
    page = _page(chromium, viewport, f"{live.url}/guide/{variant}")
    cards = page.locator(".guide-hand .card")
    count = cards.count()
    assert count >= 4
    page.wait_for_function("n => document.querySelectorAll('.guide-hand .card.drawn svg.card-svg').length === n",
                           arg=count, timeout=WAIT)
    widths = cards.evaluate_all("cs => cs.map(c => c.getBoundingClientRect().width)")
    assert min(widths) >= 40, f"a card {min(widths)} px wide"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"
    first = cards.first
    assert first.get_attribute("role") == "img"
    assert first.get_attribute("aria-label") == first.evaluate(
        "c => ({A: 'ace', K: 'king', Q: 'queen', J: 'knave', T: 'ten', 9: 'nine', 8: 'eight', 7: 'seven'})"
        "[c.dataset.card[0]] + ' of ' + ({S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs'})[c.dataset.card[1]]")
    page.get_by_role("link", name="the laws as implemented").click()
    page.wait_for_url(f"**/rules/{variant}*")
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_table_s_what_is_link_opens_the_guide_at_the_term(
        live: LiveServer, chromium: Any, viewport: dict[str, int]) -> None:
    created = _create(live, kind="computer", level=1, name="Ann")
    page = _page(chromium, viewport, live.url + created["links"]["play"])
    link = page.locator("#prompt a.whatis")
    # The cut, the deal and what follows, up to a decision the guide explains (the exchange, at the latest).
    _play_until([page], lambda: link.count() > 0 or _data(page, "prompt") == "play")
    assert link.count() == 1, "no decision before the play linked to the guide"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the table scrolls sideways"
    anchor = link.get_attribute("href").split("#")[1]
    assert link.get_attribute("target") == "_blank" and link.inner_text().endswith("?")
    with page.context.expect_page() as opened:
        link.click()
    guide = _ready(opened.value)
    assert guide.url.startswith(f"{live.url}/guide/rubicon#") and guide.url.endswith("#" + anchor)
    term = guide.locator(f"#{anchor}")
    assert term.count() == 1
    top = term.evaluate("e => e.getBoundingClientRect().top")
    assert -1 <= top < viewport["height"] / 2, "the guide did not open at the term"
    assert guide.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.context.close()


def test_the_table_links_a_notable_score_to_its_variant_s_guide_and_nothing_the_guide_lacks(
        live: LiveServer, chromium: Any) -> None:
    page = _page(chromium, {"width": 1280, "height": 800}, f"{live.url}/guide")
    links = page.evaluate("""async () => {
        const g = await import("/static/table/glossary.js");
        const href = (a) => a && a.getAttribute("href");
        return [href(g.scoreLink("repique", "auction")), href(g.scoreLink("pique", "rubicon")),
                href(g.scoreLink("capot", "au-cent")), href(g.scoreLink("point of five", "rubicon")),
                href(g.whatIs("rubicon", "au-cent")), g.scoreLink("carte blanche", "rubicon").textContent];
    }""")
    assert links == ["/guide/auction#repique", "/guide/rubicon#pique", "/guide/au-cent#capot", None, None,
                     "What is carte blanche?"]
    page.context.close()


def test_a_notable_score_said_in_another_language_is_linked_by_its_category(live: LiveServer, chromium: Any) -> None:
    page = _page(chromium, {"width": 1280, "height": 800}, f"{live.url}/guide")
    links = page.evaluate("""async () => {
        const g = await import("/static/table/glossary.js");
        const href = (a) => a && a.getAttribute("href");
        return [href(g.scoreLink("repic", "rubicon", "repique")), href(g.scoreLink("pic", "auction", "pique")),
                href(g.scoreLink("cartes blanches", "au-cent", "carte_blanche")),
                href(g.scoreLink("point de cinq", "rubicon", "point"))];
    }""")
    assert links == ["/guide/rubicon#repique", "/guide/auction#pique", "/guide/au-cent#carte-blanche", None]
    page.context.close()


@pytest.mark.parametrize("variant", ["rubicon", "au-cent"])
def test_a_french_guide_draws_the_french_indices_and_names_its_cards_in_french(
        live: LiveServer, chromium: Any, variant: str) -> None:
    page = _page(chromium, {"width": 390, "height": 844}, f"{live.url}/guide/{variant}?lang=fr")
    assert page.evaluate("document.documentElement.lang") == "fr"
    cards = page.locator(".guide-hand .card")
    count = cards.count()
    page.wait_for_function("n => document.querySelectorAll('.guide-hand .card.drawn svg.card-svg').length === n",
                           arg=count, timeout=WAIT)
    # The faces' court cards are marked as a French pack marks them: roi, dame, valet.
    assert page.evaluate("['K', 'Q', 'J'].map(r => document.querySelector(`#pq-rank-${r} text`).textContent)") == [
        "R", "D", "V"]
    first = cards.first
    assert first.get_attribute("aria-label") == first.evaluate(
        "c => ({A: 'as', K: 'roi', Q: 'dame', J: 'valet', T: 'dix', 9: 'neuf', 8: 'huit', 7: 'sept'})"
        "[c.dataset.card[0]] + ' de ' + ({S: 'pique', H: 'cœur', D: 'carreau', C: 'trèfle'})[c.dataset.card[1]]")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"
    page.get_by_role("link", name="Tous les guides").click()
    page.wait_for_url("**/guide?lang=fr")
    page.context.close()


def test_the_french_lobby_and_table_link_to_the_french_guide(live: LiveServer, chromium: Any) -> None:
    page = _page(chromium, {"width": 1280, "height": 800}, live.url + "/")
    page.get_by_label("Language", exact=True).select_option("fr")  # kept in the browser, the page reloads
    _ready(page, "fr")
    assert page.locator("#guide-link").get_attribute("href") == "/guide?lang=fr"
    page.locator("#variant").select_option("auction")
    assert page.locator("#rules-link").get_attribute("href") == "/guide/auction?lang=fr"
    created = _create(live, kind="computer", level=1, name="Anne")
    _goto(page, live.url + created["links"]["play"])
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.locator("#rules-link").get_attribute("href") == "/guide/rubicon?lang=fr"
    href = page.evaluate("""async () => (await import("/static/table/glossary.js"))
        .whatIs("repique", "rubicon").getAttribute("href")""")
    assert href == "/guide/rubicon?lang=fr#repique"
    page.context.close()
