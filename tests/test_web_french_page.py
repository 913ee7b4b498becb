"""The table's page at the end of a whole partie played in French, in Debian's chromium (issue 36): every word it
shows, and every word its labels and titles say to a screen reader, is French (the check of
``test_web_french_words``, on what the page rendered)."""

from __future__ import annotations

from typing import Any

import pytest

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_browser import (  # noqa: F401
    WAIT,
    _create,
    _data,
    _decide,
    _goto,
    _over,
    _play_until,
    _ready,
    browser,
    server,
)
from test_web_french_words import english_words
from web_helpers import FOUR_DEALS

from piquet.engine.language import LANGUAGES

pytestmark = pytest.mark.browser

#: The longest the review of a deal may take here (ms): some seconds of CPU in the worker, on a busy machine.
REVIEW_WAIT = 180_000


def test_the_table_page_of_a_whole_french_partie_shows_no_english_word(request: pytest.FixtureRequest) -> None:
    """The rendered page too: at the end of a partie played in French in Debian's chromium, every word the table's
    page shows (its text, and what its labels and titles say to a screen reader) is French."""
    live = request.getfixturevalue("server")
    page = request.getfixturevalue("browser").new_context(reduced_motion="reduce").new_page()
    lobby = _goto(page, live.url + "/")
    lobby.get_by_label("Language", exact=True).select_option("fr")  # kept in the browser, the page reloads
    _ready(lobby, "fr")
    table = _create(live, kind="computer", level=1, name="Anne", options=FOUR_DEALS)
    _goto(page, live.url + table["links"]["play"])
    for _ in range(4000):
        if _over(page):
            break
        if not _decide(page):
            page.wait_for_timeout(50)
    else:
        raise AssertionError("the partie did not end")
    assert page.evaluate("document.documentElement.lang") == "fr"
    found = english_words([{"text": text} for text in _shown(page)], ("Anne", *LANGUAGES.values()))
    assert {word: sorted(t[-60:] for t in texts)[:3] for word, texts in found.items()} == {}
    page.context.close()


def _shown(page: Any) -> list[str]:
    """Each text node of the page on its own (its text as shown, not joined across elements), and each label and
    title; a link to the table (its secret's random letters) is an address, not words."""
    shown: list[str] = page.evaluate("""() => {
        const texts = [document.title];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const parent = node.parentElement;
            if (parent && !parent.closest('script, style, .link-box, a[href*="#"]')) texts.push(node.textContent);
        }
        for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
            for (const a of ['aria-label', 'title', 'placeholder']) {
                if (el.getAttribute(a)) texts.push(el.getAttribute(a));
            }
        }
        return texts;
    }""")
    return shown


@pytest.mark.slow
def test_the_review_page_of_a_deal_played_in_french_shows_no_english_word(request: pytest.FixtureRequest) -> None:
    """The review of the first deal, opened by a French seat: every decision's page (the hands, the verdict, the
    explanation, the breakdown, the graph's words, the luck's) shows French words only."""
    live = request.getfixturevalue("server")
    page = request.getfixturevalue("browser").new_context(reduced_motion="reduce").new_page()
    lobby = _goto(page, live.url + "/")
    lobby.get_by_label("Language", exact=True).select_option("fr")  # kept in the browser, the page reloads
    _ready(lobby, "fr")
    table = _create(live, kind="computer", level=1, name="Anne", options=FOUR_DEALS)
    _goto(page, live.url + table["links"]["play"])
    _play_until([page], lambda: bool(_data(page, "dealEnd")), go_on=False)
    page.get_by_test_id("go-on").click()
    page.get_by_role("link", name="Revoir la donne 1").click()
    page.wait_for_url("**/t/**/review?deal=1**")
    _ready(page)
    page.wait_for_function("document.body.dataset.status === 'done'", timeout=REVIEW_WAIT)
    assert page.evaluate("document.documentElement.lang") == "fr"
    total = int(page.get_by_test_id("counter").inner_text().rsplit(" ", 1)[1])
    shown: list[str] = []
    for at in range(total):
        page.wait_for_function(f"document.body.dataset.decision === '{at}'", timeout=WAIT)
        shown += _shown(page)
        page.keyboard.press("ArrowRight")
    assert total >= 12 and page.get_by_test_id("counter").inner_text() == f"Décision {total} sur {total}"
    found = english_words([{"text": text} for text in shown], ("Anne", *LANGUAGES.values()))
    assert {word: sorted(t[-60:] for t in texts)[:3] for word, texts in found.items()} == {}
    page.context.close()
