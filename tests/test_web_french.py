"""The table in French (issue 21, item 7), in Debian's chromium at a desktop's and a phone's size: French is chosen
in the lobby and remembered; the lobby, the table's labels and the calls of the table talk are French ("Point de
cinq." - "Bon."), the document says so (``lang="fr"``), and the axe check finds nothing; English again is one
choice away. With ``PIQUET_SCREENSHOTS=DIR`` the desktop's table in French is written to ``DIR/french.png``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_web_axe import VIEWPORTS, violations

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_browser import WAIT, LiveServer, _data, _decide, _goto, _ready, browser, server  # noqa: F401
from test_web_screenshots import keep

from piquet.engine.language import french_number

pytestmark = pytest.mark.browser

#: Elder's first words on the point, in French: its length, or that he has none.
POINT_CALL = re.compile(r"“(Point de [a-z-]+|Pas de point)\.”")


def _talk(page: Any) -> str:
    text: str = page.get_by_test_id("log").inner_text()
    return text


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_french_chosen_in_the_lobby_is_kept_and_the_table_talks_french(request: pytest.FixtureRequest,
                                                                       viewport: str, tmp_path: Path) -> None:
    live: LiveServer = request.getfixturevalue("server")
    chromium = request.getfixturevalue("browser")
    context = chromium.new_context(viewport=VIEWPORTS[viewport], reduced_motion="reduce")
    lobby = _goto(context.new_page(), live.url + "/")
    assert lobby.evaluate("document.documentElement.lang") == "en"
    lobby.get_by_label("Language", exact=True).select_option("fr")  # the page reloads in French
    _ready(lobby, "fr")
    assert lobby.get_by_label("Langue", exact=True).input_value() == "fr"
    assert lobby.get_by_role("heading", name="Nouvelle partie").is_visible()
    assert lobby.get_by_label("Niveau de l'ordinateur").is_visible()
    assert violations(lobby) == []
    # The lobby's link opens the guides in French; the English guide is English still; the lobby is French after.
    _goto(lobby, live.url + lobby.locator("#guide-link").get_attribute("href"))
    assert lobby.evaluate("document.documentElement.lang") == "fr"
    lobby.get_by_role("link", name="Piquet rubicon").click()
    lobby.wait_for_url("**/guide/rubicon?lang=fr", timeout=WAIT)
    _ready(lobby, "fr")
    assert lobby.evaluate("document.querySelector('.card svg') !== null")  # its script drew the cards
    assert violations(lobby) == []
    _goto(lobby, live.url + "/guide/rubicon")
    assert lobby.evaluate("document.documentElement.lang") == "en"
    _goto(lobby, live.url + "/")
    _ready(lobby, "fr")

    lobby.get_by_label("Votre nom").fill("Anne")
    lobby.get_by_label("Niveau de l'ordinateur").select_option("1")
    lobby.get_by_role("button", name="Jouer contre l'ordinateur").click()
    page = lobby  # the lobby goes to the table it set
    page.wait_for_url(re.compile(r"/t/"), timeout=WAIT)
    _ready(page)
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.get_by_role("group", name="Votre main").count() == 1
    assert page.get_by_role("heading", name="Les annonces").is_visible() or viewport == "phone"
    seen: set[str] = set()
    def check(kind: str) -> None:  # the very prompt about to be answered (a poll apart from the answer races it)
        if kind not in seen:
            seen.add(kind)
            assert page.get_by_test_id("status").inner_text().startswith("À vous : "), kind
            assert violations(page) == [], kind

    for _ in range(400):
        if POINT_CALL.search(_talk(page)) and "play" in seen:
            break
        if not _decide(page, seen=check):
            page.wait_for_timeout(50)
    else:
        raise AssertionError(f"no French call of the point in the talk: {_talk(page)}")
    talk = _talk(page)
    assert "Donne 1 : " in talk
    assert not re.search(r"Point of|No point|Deal 1:", talk)
    assert page.locator("#plate-me .badge.role").text_content() in ("premier", "second")
    assert violations(page) == []
    if viewport == "desktop":
        keep(page, "french.png", tmp_path)  # the docs' picture of the table in French
    # The page says the reckonings' numbers as the server says the calls' (one rule, in two languages' code).
    said = page.evaluate("""async () => {
        const words = await import('/static/table/words.js');
        return Array.from({length: 200}, (_, n) => words.numberWord(n));
    }""")
    assert said == [french_number(n) for n in range(200)]

    # Back to English, at the table itself: the choice is kept for the lobby too.
    page.get_by_label("Langue", exact=True).select_option("en")
    _ready(page, "en")
    page.wait_for_function("/Point of|No point/.test(document.querySelector('[data-testid=log]').innerText)",
                           timeout=WAIT)
    _goto(page, live.url + "/")
    assert page.get_by_role("heading", name="New game").is_visible()
    context.close()
