"""How the cards are shown, chosen in the lobby and remembered (issue 21, item 7): a four-colour deck and a
high contrast, in Debian's chromium; the table so shown passes the axe check too.

With ``PIQUET_SCREENSHOTS=DIR`` the test also writes the table in the four-colour deck to
``DIR/four-colour.png`` (``PIQUET_SCREENSHOTS=docs/screenshots python3 -m pytest tests/test_web_display.py``
makes the docs' one).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from test_web_axe import VIEWPORTS, violations

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_browser import WAIT, LiveServer, _create, _data, _goto, _play_until, _reload, browser, server  # noqa: F401

pytestmark = pytest.mark.browser

#: The suits' ink as the page computes it: two colours, four, and four in high contrast.
TWO = {"S": "rgb(23, 23, 28)", "H": "rgb(196, 18, 47)", "D": "rgb(196, 18, 47)", "C": "rgb(23, 23, 28)"}
FOUR = {"S": "rgb(23, 23, 28)", "H": "rgb(196, 18, 47)", "D": "rgb(21, 81, 184)", "C": "rgb(22, 115, 44)"}
FOUR_HIGH = {"S": "rgb(0, 0, 0)", "H": "rgb(163, 0, 27)", "D": "rgb(0, 58, 158)", "C": "rgb(0, 90, 28)"}


def _inks(page: Any) -> dict[str, str]:
    """The ink of a card of each suit held, as drawn."""
    inks: dict[str, str] = page.evaluate("""() => {
        const out = {};
        for (const el of document.querySelectorAll('[data-testid=hand] [data-card]')) {
            out[el.dataset.card[1]] = getComputedStyle(el.querySelector('svg g')).color;
        }
        return out;
    }""")
    return inks


def _to_the_exchange(live: LiveServer, chromium: Any, context: Any) -> Any:
    created = _create(live, kind="computer", level=1, name="Ann")
    page = _goto(context.new_page(), live.url + created["links"]["play"])
    _play_until([page], lambda: _data(page, "prompt") == "exchange")
    return page


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_four_colour_deck_and_high_contrast_are_chosen_in_the_lobby_and_kept_for_the_table(
        request: pytest.FixtureRequest, viewport: str) -> None:
    live: LiveServer = request.getfixturevalue("server")
    chromium = request.getfixturevalue("browser")
    context = chromium.new_context(viewport=VIEWPORTS[viewport])
    lobby = _goto(context.new_page(), live.url + "/")
    four = lobby.get_by_label("Four-colour deck")
    four.wait_for(timeout=WAIT)
    assert not four.is_checked() and lobby.evaluate("document.documentElement.dataset.deck") == "two"
    table = _to_the_exchange(live, chromium, context)
    held = _inks(table)
    assert held and all(TWO[s] == ink for s, ink in held.items())

    four.check()
    assert lobby.evaluate("document.documentElement.dataset.deck") == "four"
    _reload(table)
    table.wait_for_function("document.body.dataset.prompt === 'exchange'", timeout=WAIT)
    held = _inks(table)
    assert all(FOUR[s] == ink for s, ink in held.items())
    # Remembered: a new visit to the lobby shows it chosen.
    _reload(lobby)
    assert lobby.get_by_label("Four-colour deck").is_checked()
    if os.environ.get("PIQUET_SCREENSHOTS") and viewport == "desktop":
        table.screenshot(path=str(Path(os.environ["PIQUET_SCREENSHOTS"]) / "four-colour.png"))

    lobby.get_by_label("High contrast").check()
    _reload(table)
    table.wait_for_function("document.body.dataset.prompt === 'exchange'", timeout=WAIT)
    assert table.evaluate("document.documentElement.dataset.contrast") == "high"
    assert all(FOUR_HIGH[s] == ink for s, ink in _inks(table).items())
    assert violations(table) == [] and violations(lobby) == []
    context.close()


def test_high_contrast_follows_the_system_s_more_contrast_until_the_player_chooses(
        request: pytest.FixtureRequest) -> None:
    live: LiveServer = request.getfixturevalue("server")
    chromium = request.getfixturevalue("browser")
    context = chromium.new_context()
    page = context.new_page()
    page.emulate_media(contrast="more")
    _goto(page, live.url + "/")
    high = page.get_by_label("High contrast")
    high.wait_for(timeout=WAIT)
    assert high.is_checked() and page.evaluate("document.documentElement.dataset.contrast") == "high"
    high.uncheck()
    _reload(page)
    assert not page.get_by_label("High contrast").is_checked()
    assert page.evaluate("document.documentElement.dataset.contrast") == "normal"
    context.close()
