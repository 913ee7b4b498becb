"""The pictures of the web table in the docs (docs/screenshots/), taken in Debian's chromium as a deal is played
against the computer by clicking: the lobby, the exchange, a declaration, the play, the end-of-deal count.

Each picture is checked to be a PNG of the page at that moment (the prompt, or the count, on screen); with
``PIQUET_SCREENSHOTS=DIR`` they are also written to ``DIR``. ``python3 tools/screenshots.py`` reruns this and the
other tests that take the docs' pictures (the phone, French, the four-colour deck, the tutor, the review).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_browser import WAIT, LiveServer, _create, _data, _decide, _goto, browser, server  # noqa: F401

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 860}
PNG = b"\x89PNG\r\n\x1a\n"


def keep(page: Any, name: str, where: Path, full_page: bool = False) -> Path:
    """The page as it is now, as ``where/name``, and copied to ``$PIQUET_SCREENSHOTS`` when set."""
    picture = where / name
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(picture), full_page=full_page)
    assert picture.read_bytes()[:8] == PNG
    wanted = os.environ.get("PIQUET_SCREENSHOTS")
    if wanted:
        Path(wanted).mkdir(parents=True, exist_ok=True)
        shutil.copy(picture, Path(wanted) / name)
    return picture


@pytest.mark.slow
def test_the_docs_pictures_of_the_lobby_and_each_phase_of_a_deal(request: pytest.FixtureRequest,
                                                                 tmp_path: Path) -> None:
    live: LiveServer = request.getfixturevalue("server")
    chromium = request.getfixturevalue("browser")
    context = chromium.new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = _goto(context.new_page(), live.url + "/")
    page.get_by_label("Your name").fill("Ann")
    keep(page, "lobby.png", tmp_path, full_page=True)

    created = _create(live, kind="computer", level=1, name="Ann")
    _goto(page, live.url + created["links"]["play"])
    page.get_by_test_id("declare-best").uncheck()  # the declarations' menus shown
    taken: set[str] = set()
    for _ in range(600):
        kind = _data(page, "prompt")
        if _data(page, "dealEnd"):
            page.get_by_test_id("deal-count").wait_for(timeout=WAIT)
            keep(page, "deal-count.png", tmp_path)
            break
        if kind == "exchange" and "exchange" not in taken:
            page.get_by_test_id("suggest").click()  # the computer's discard selected, the button says how many
            taken.add("exchange")
            keep(page, "exchange.png", tmp_path)
            version = _data(page, "version")
            page.get_by_test_id("confirm-exchange").click()  # the discard suggested
            page.wait_for_function("v => document.body.dataset.version !== v", arg=version, timeout=WAIT)
            continue
        elif kind == "declare" and "declare" not in taken and page.get_by_test_id("choice").count() > 1:
            taken.add("declare")
            keep(page, "declarations.png", tmp_path)
        elif kind == "play" and "play" not in taken and page.locator("#trick [data-card]").count() == 1:
            taken.add("play")  # the computer has led: the trick, the legal cards and the talk are on the table
            keep(page, "play.png", tmp_path)
        elif kind == "play" and not taken & {"play", "a lead"}:
            taken.add("a lead")  # the player's own lead, kept in case the computer never leads in this deal
            keep(page, "play.png", tmp_path)
        # Only the prompt inspected above is answered: one come since is left to the next turn of the loop.
        if not _decide(page, go_on=False, done=lambda asked=kind: _data(page, "prompt") != asked):
            page.wait_for_timeout(50)
    else:
        raise AssertionError("the deal did not end")
    assert "exchange" in taken and taken & {"play", "a lead"}, taken
    assert (tmp_path / "deal-count.png").exists()
    context.close()
