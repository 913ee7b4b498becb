"""Cards that move (issue 21, item 10), in Debian's chromium: a card played goes from the hand that held it to
the trick, and a trick won to its winner's side, so a player sees what the computer did; a player who asks for
reduced motion sees none of it (the page counts its movements in ``body[data-moved]``). At a desktop's size and
a phone's."""

from __future__ import annotations

from typing import Any

import pytest

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_axe import VIEWPORTS
from test_web_browser import WAIT, LiveServer, _create, _data, _decide, _goto, browser, server  # noqa: F401

pytestmark = pytest.mark.browser


def _play_some_tricks(live: LiveServer, chromium: Any, motion: str, viewport: str) -> tuple[int, int]:
    """A table against the computer played by clicking until a few tricks are won: the movements the page made,
    and the most card animations seen running at once."""
    context = chromium.new_context(reduced_motion=motion, viewport=VIEWPORTS[viewport])
    created = _create(live, kind="computer", level=1, name="Ann")
    page = _goto(context.new_page(), live.url + created["links"]["play"])
    running = 0
    for _ in range(600):
        running = max(running, page.evaluate(
            "document.getAnimations().filter(a => a.playState === 'running' && !(a instanceof CSSAnimation)"
            " && !(a instanceof CSSTransition) && a.effect && a.effect.target"
            " && a.effect.target.closest && a.effect.target.closest('#trick, .card-ghost')).length"))
        if page.evaluate("document.querySelectorAll('#tricks-list li, [data-testid=tricks]').length") and int(
                page.evaluate("(document.querySelector('[data-testid=tricks] b') || {textContent: '0'}).textContent")
                or 0) >= 3:
            break
        if not _decide(page):
            page.wait_for_timeout(30)
    moved = int(_data(page, "moved") or 0)
    context.close()
    return moved, running


@pytest.mark.slow
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_cards_move_to_the_trick_and_to_the_winner_unless_the_player_asks_for_reduced_motion(
        request: pytest.FixtureRequest, viewport: str) -> None:
    live: LiveServer = request.getfixturevalue("server")
    chromium = request.getfixturevalue("browser")
    moved, running = _play_some_tricks(live, chromium, "no-preference", viewport)
    # Each trick: two cards to the table and two to the winner (some leave the table before the page saw them).
    assert moved >= 8 and running >= 1
    assert _play_some_tricks(live, chromium, "reduce", viewport) == (0, 0)
