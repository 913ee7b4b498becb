"""The table's page at the end of a whole partie played in French, in Debian's chromium (issue 36): every word it
shows, and every word its labels and titles say to a screen reader, is French (the check of
``test_web_french_words``, on what the page rendered)."""

from __future__ import annotations

import pytest

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_browser import WAIT, _create, _decide, _goto, _over, browser, server  # noqa: F401
from test_web_french_words import english_words
from web_helpers import FOUR_DEALS

from piquet.engine.language import LANGUAGES

pytestmark = pytest.mark.browser


def test_the_table_page_of_a_whole_french_partie_shows_no_english_word(request: pytest.FixtureRequest) -> None:
    """The rendered page too: at the end of a partie played in French in Debian's chromium, every word the table's
    page shows (its text, and what its labels and titles say to a screen reader) is French."""
    live = request.getfixturevalue("server")
    page = request.getfixturevalue("browser").new_context(reduced_motion="reduce").new_page()
    lobby = _goto(page, live.url + "/")
    lobby.get_by_label("Language", exact=True).select_option("fr")  # kept in the browser, the page reloads
    lobby.wait_for_function("document.documentElement.lang === 'fr' && document.body.dataset.ready === '1'",
                            timeout=WAIT)
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
    # Each text node on its own (the page's text as shown, not joined across elements), and each label and title;
    # a link to the table (its secret's random letters) is an address, not words.
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
    # The language choice names each language in itself ("English", "Français"): the one English word a French
    # page shows is the name of the language it offers to go back to.
    found = english_words([{"text": text} for text in shown], ("Anne", *LANGUAGES.values()))
    assert {word: sorted(t[-60:] for t in texts)[:3] for word, texts in found.items()} == {}
    page.context.close()
