"""The whole talk of the partie in another tab or device (issue 36), in Debian's chromium: a player plays the first
deal in one browser, then opens his table on another (a browser context of its own: nothing kept between them);
the table talk there holds the cut and the first deal, folded as the first browser shows them, the same lines."""

from __future__ import annotations

from typing import Any

import pytest

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_browser import WAIT, LiveServer, _create, _decide, _open, browser, server  # noqa: F401

pytestmark = pytest.mark.browser


def _old_deals(page: Any) -> list[str]:
    """The finished deals' talk as the page shows it: each folded deal's heading and lines."""
    texts: list[str] = page.locator("#log details.old-deal").evaluate_all(
        "boxes => boxes.map(b => b.querySelector('summary').textContent + ' | ' + "
        "[...b.querySelectorAll('li')].map(li => li.textContent).join(' / '))")
    return texts


def test_another_device_shows_the_talk_of_the_deals_played_on_the_first(request: pytest.FixtureRequest) -> None:
    live: LiveServer = request.getfixturevalue("server")
    chromium = request.getfixturevalue("browser")
    created = _create(live, kind="computer", level=1, name="Ann")
    link = live.url + created["links"]["play"]
    first = _open(chromium, link)
    # The first deal played to its end, its count gone on from, and the next dealt (by Ann, who chooses the packets,
    # where the cut made her dealer): the cut's talk and the first deal's are folded.
    for _ in range(2000):
        if first.evaluate("document.querySelectorAll('#log details.old-deal').length") >= 2:
            break
        if not _decide(first):
            first.wait_for_timeout(50)
    else:
        raise AssertionError("the first deal's talk was never folded")
    played = _old_deals(first)
    assert played[0].startswith("The cut") and played[1].startswith("Deal 1")
    other = _open(chromium, link)  # another device: a context of its own, nothing of the first's kept
    other.wait_for_function("document.querySelectorAll('#log details.old-deal').length >= 2", timeout=WAIT)
    assert _old_deals(other)[:2] == played[:2]
    first.context.close()
    other.context.close()
