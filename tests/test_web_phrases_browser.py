"""The table's phrases in Debian's chromium (issue 36): two pages in a room, one English and one French; a player
presses "Good luck" and the other's table talk says it, in that page's own language, as a line of speech; the
other answers from the keyboard, and the spectator hears both but has no phrase to say; a reload keeps them."""

from __future__ import annotations

from typing import Any

import pytest

# The live server and the browser are test_web_browser's fixtures, asked for by name (request.getfixturevalue).
from test_web_browser import (  # noqa: F401
    WAIT,
    LiveServer,
    _create,
    _data,
    _go_on,
    _open,
    _play_until,
    _reload,
    browser,
    server,
)

pytestmark = pytest.mark.browser


def _said(page: Any) -> list[str]:
    """The phrases the page's table talk shows, each line's text."""
    lines: list[str] = page.locator("#log li.said").all_inner_texts()
    return lines


def _wait_said(page: Any, count: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#log li.said').length >= n", arg=count, timeout=WAIT)


def test_a_phrase_said_in_a_room_is_heard_in_each_page_s_language(request: pytest.FixtureRequest) -> None:
    live: LiveServer = request.getfixturevalue("server")
    chromium = request.getfixturevalue("browser")
    created = _create(live, kind="room", name="Ann")
    ann = _open(chromium, live.url + created["links"]["play"])
    bob = _open(chromium, live.url + created["links"]["invite"], locale="fr-FR")  # his browser speaks French
    assert bob.evaluate("document.documentElement.lang") == "fr"
    bob.get_by_test_id("join-name").fill("Bob")
    bob.get_by_test_id("join-submit").click()
    watcher = _open(chromium, live.url + created["links"]["spectate"])
    bob.get_by_role("button", name="Merci", exact=True).wait_for(timeout=WAIT)  # seated: his phrases offered
    ann.wait_for_function("document.body.dataset.phase !== ''", timeout=WAIT)

    ann.get_by_role("button", name="Good luck", exact=True).click()
    for page in (ann, bob, watcher):
        _wait_said(page, 1)
    assert _said(ann) == ["Ann: \u201cGood luck\u201d"]
    assert _said(bob) == ["Ann: \u201cBonne chance\u201d"]  # the same phrase, in his page's words
    assert _said(watcher) == ["Ann: \u201cGood luck\u201d"]
    # A line of speech of its own in the talk: the speaker, then the words in quotes.
    assert bob.locator("#log li.said .speech").first.inner_text() == "\u201cBonne chance\u201d"

    # Bob answers from the keyboard: the phrase buttons are reached with Tab and pressed with Enter.
    bob.get_by_role("button", name="Bonne chance", exact=True).focus()
    bob.keyboard.press("Tab")
    bob.keyboard.press("Tab")
    assert bob.evaluate("document.activeElement.dataset.phrase") == "thank_you"
    bob.keyboard.press("Enter")
    for page in (ann, bob, watcher):
        _wait_said(page, 2)
    assert _said(ann)[1] == "Bob: \u201cThank you\u201d"
    assert _said(bob)[1] == "Bob: \u201cMerci\u201d"
    # The spectator hears them and says nothing.
    assert watcher.get_by_test_id("phrases").is_hidden()
    # The page keeps what it heard for the session (no record does): a reload shows them again.
    _reload(bob)
    _wait_said(bob, 2)
    assert _said(bob) == ["Ann: \u201cBonne chance\u201d", "Bob: \u201cMerci\u201d"]
    for page in (ann, bob, watcher):
        page.context.close()


def test_a_phrase_said_while_the_other_reads_the_count_is_shown_to_him_there(request: pytest.FixtureRequest) -> None:
    """At the end of a deal each page holds its count in a dialog until its player goes on: a "Well played" said
    meanwhile is shown in the dialog, and in the talk once he goes on."""
    live: LiveServer = request.getfixturevalue("server")
    chromium = request.getfixturevalue("browser")
    created = _create(live, kind="room", name="Ann")
    ann = _open(chromium, live.url + created["links"]["play"])
    bob = _open(chromium, live.url + created["links"]["invite"])
    bob.get_by_test_id("join-name").fill("Bob")
    bob.get_by_test_id("join-submit").click()
    bob.get_by_role("button", name="Well played", exact=True).wait_for(timeout=WAIT)
    _play_until([ann, bob], lambda: bool(_data(ann, "dealEnd")), go_on=False)
    bob.wait_for_function("!!document.body.dataset.dealEnd", timeout=WAIT)
    _go_on(bob)
    bob.get_by_role("button", name="Well played", exact=True).click()
    ann.get_by_test_id("deal-end").locator("li.said").wait_for(timeout=WAIT)
    assert ann.get_by_test_id("deal-end").locator("li.said").inner_text() == "Bob: \u201cWell played\u201d"
    from test_web_axe import violations  # skips here if axe-core is not installed (npm ci installs it)

    assert violations(ann) == []  # the dialog with its line of speech
    _go_on(ann)
    _wait_said(ann, 1)
    assert _said(ann) == ["Bob: \u201cWell played\u201d"]
    for page in (ann, bob):
        page.context.close()


def test_a_table_against_the_computer_offers_no_phrases(request: pytest.FixtureRequest) -> None:
    live: LiveServer = request.getfixturevalue("server")
    created = _create(live, kind="computer", level=1, name="Ann")
    page = _open(request.getfixturevalue("browser"), live.url + created["links"]["play"])
    page.wait_for_function("document.body.dataset.phase !== ''", timeout=WAIT)
    assert page.get_by_test_id("phrases").is_hidden()
    page.context.close()
