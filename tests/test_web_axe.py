"""Accessibility measured: the axe engine (``axe-core``, from the npm registry as ``package-lock.json`` pins it)
run in Debian's chromium on the lobby, the guides, the laws and the table in every phase, at a desktop's and a
phone's size, finds no violation of any impact.

``npm ci`` installs axe-core (CI runs it before the tests); without it these tests are skipped, unless
``PIQUET_REQUIRE_BROWSER`` is set.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_browser import WAIT, LiveServer, _create, _data, _decide, _goto, _open, browser, server  # noqa: F401

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
if not AXE.exists():
    if os.environ.get("PIQUET_REQUIRE_BROWSER"):
        raise RuntimeError("the accessibility tests need axe-core: npm ci")
    pytest.skip("no axe-core (npm ci installs it)", allow_module_level=True)

#: A desktop's and a phone's viewport (CSS pixels), as the issue tried the table.
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def violations(page: Any) -> list[str]:
    """What axe finds wrong on the page as it is now: rule, impact and the elements, one line each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations.map(
               v => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)""")
    return found


def _live(request: pytest.FixtureRequest) -> tuple[LiveServer, Any]:
    return request.getfixturevalue("server"), request.getfixturevalue("browser")


def _page(chromium: Any, url: str, viewport: str) -> Any:
    # Reduced motion: what fades in (a card, a notice) is checked as it stands, not half-transparent mid-fade.
    return _open(chromium, url, viewport=VIEWPORTS[viewport], reduced_motion="reduce")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_axe_finds_nothing_on_the_lobby_the_guides_and_the_laws(request: pytest.FixtureRequest, viewport: str) -> None:
    live, chromium = _live(request)
    page = _page(chromium, live.url + "/", viewport)
    page.get_by_test_id("create-computer").wait_for(timeout=WAIT)
    assert violations(page) == []
    for path in ("/rules/rubicon", "/guide/rubicon", "/guide/auction", "/guide/au-cent"):
        _goto(page, live.url + path)
        assert violations(page) == [], path
    page.context.close()


@pytest.mark.slow
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_axe_finds_nothing_on_the_table_in_any_phase(request: pytest.FixtureRequest, viewport: str) -> None:
    live, chromium = _live(request)
    created = _create(live, kind="computer", level=1, name="Ann")
    page = _page(chromium, live.url + created["links"]["play"], viewport)
    page.get_by_test_id("declare-best").uncheck()  # each declaration's menu shown, to be checked
    checked: dict[str, list[str]] = {}
    # Each kind of prompt once (the cut, the packets, the exchange, each declaration's menu, the play), and
    # the table between prompts, until a deal has been scored with each kind seen (a deal may ask for no
    # declaration where nothing is held, or for no exchange: then the next deal is played too).
    def seen(kind: str) -> None:  # the very prompt about to be answered (a poll apart from the answer races it)
        if kind not in checked:
            checked[kind] = violations(page)

    for _ in range(1500):
        scored = page.evaluate("document.querySelectorAll('#sheet tbody tr:not(.current)').length")
        if scored >= 3 or (scored >= 1 and {"exchange", "declare", "play"} <= set(checked)):
            break
        if not _decide(page, seen=seen):
            waiting = f"waiting in {_data(page, 'phase')}"
            if not _data(page, "prompt") and waiting not in checked:
                checked[waiting] = violations(page)
            page.wait_for_timeout(50)
    checked["after a deal"] = violations(page)
    assert {"exchange", "declare", "play"} <= set(checked)
    wrong = {k: v for k, v in checked.items() if v}
    assert not wrong, "\n".join(f"{k}: {line}" for k, v in wrong.items() for line in v)
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_axe_finds_nothing_in_a_room_with_its_phrases_said(request: pytest.FixtureRequest, viewport: str) -> None:
    """A room's phrase buttons (buttons with their words, reached from the keyboard) and the talk's lines of
    speech, on both players' pages."""
    live, chromium = _live(request)
    created = _create(live, kind="room", name="Ann")
    ann = _page(chromium, live.url + created["links"]["play"], viewport)
    bob = _page(chromium, live.url + created["links"]["invite"], viewport)
    bob.get_by_test_id("join-name").fill("Bob")
    bob.get_by_test_id("join-submit").click()
    bob.get_by_role("button", name="Thank you", exact=True).wait_for(timeout=WAIT)
    ann.get_by_role("button", name="Good luck", exact=True).click()
    for page in (ann, bob):
        page.wait_for_function("document.querySelectorAll('#log li.said').length >= 1", timeout=WAIT)
        assert violations(page) == []
        page.context.close()
