"""The browser table, driven by Playwright in Debian's chromium against a live ``piquet serve``.

A whole partie against the computer and a whole room game are played by
clicking; a reload and a server restart in the middle put the player back
where he was; an out-of-turn action and a forged message are refused.
Without chromium these tests are skipped, unless ``PIQUET_REQUIRE_BROWSER`` is
set (CI sets it, and installs chromium).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")
PlaywrightTimeout = sync_api.TimeoutError

from piquet.engine import record  # noqa: E402
from piquet.ui.web.app import create_app  # noqa: E402

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    if os.environ.get("PIQUET_REQUIRE_BROWSER"):
        raise RuntimeError("the browser tests need Debian's chromium (apt-get install chromium)")
    pytest.skip("no chromium to drive", allow_module_level=True)

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
WAIT = 20_000  # ms: the longest any step may take before the test fails


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """``piquet serve`` in a thread, on a port of its own; it can be stopped and started again on the same
    database, as a server that is killed and restarted."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        #: The application served (a test may look at a table in it: ``app.state.tables.get(id)``).
        self.app = create_app(str(self.db))
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        assert self._server is not None and self._thread is not None
        self._server.should_exit = True
        self._server.force_exit = True
        self._thread.join(20)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "games.sqlite3")
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _create(server: LiveServer, **body: Any) -> dict[str, Any]:
    import urllib.request

    request = urllib.request.Request(f"{server.url}/api/tables", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


def _data(page: Any, key: str) -> str:
    value: str = page.evaluate(f"document.body.dataset.{key} || ''")
    return value


def _wait_change(page: Any, version: str, prompt: str) -> None:
    """Wait until the page has left ``version`` at the prompt ``prompt``: another version, or another prompt (no
    prompt, while an action is on its way, counts: the caller asks again)."""
    page.wait_for_function(
        "([v, p]) => document.body.dataset.version !== v || (document.body.dataset.prompt || '') !== p",
        arg=[version, prompt], timeout=WAIT)


def _wait_version(page: Any, version: str) -> None:
    """Wait until the table's state is another than ``version`` (an action sent has been applied)."""
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version, timeout=WAIT)


#: How long a press may wait for its target (ms) before the page is asked whether it has moved on without it.
PRESS_WAIT = 5_000


def _go_on(page: Any) -> bool:
    """Close the count of a deal just scored (the page holds the next deal until then), if it shows one."""
    if not _data(page, "dealEnd"):
        return False
    page.get_by_test_id("go-on").click()
    page.wait_for_function("!document.body.dataset.dealEnd", timeout=WAIT)
    return True


def _decide(page: Any, touch: bool = False, go_on: bool = True, done: Any = None, seen: Any = None) -> bool:
    """Make this page's player's decision by clicking (by tapping, with ``touch``: a touch screen's page), if
    it has one (going on past a deal's count first, unless ``go_on`` is false); ``False`` if it has none now.
    ``done``: the caller's condition to stop at, asked again once the decision is read, so that a decision that
    came after the caller last asked it (the page moved on in between) is left to the caller, not made.
    ``seen``: shown the kind of the very prompt about to be answered, before it is (a caller that inspects the
    prompts reads them here: reading the prompt apart from answering it races the page)."""
    if go_on and _go_on(page):
        return True
    kind = _data(page, "prompt")
    if not kind or (done is not None and done()):
        return False
    version = _data(page, "version")
    if seen is not None:
        seen(kind)

    def press(target: Any) -> None:
        target.tap(timeout=PRESS_WAIT) if touch else target.click(timeout=PRESS_WAIT)

    try:
        if kind == "exchange":
            press(page.locator("[data-testid=hand] [data-card]").first)
            press(page.get_by_test_id("confirm-exchange"))
        elif kind == "play":
            press(page.locator("[data-testid=hand] [data-card][data-legal=true]").first)
        else:
            press(page.get_by_test_id("choice").first)
    except PlaywrightTimeout:
        # The page moved on while the press waited (a forced card it played itself ending the deal, whose count
        # then holds the table): nothing to answer. Still at the same prompt, the target could not be pressed.
        if _data(page, "version") == version and _data(page, "prompt") == kind:
            raise
        return True
    _wait_change(page, version, kind)
    return True


#: The page's ready signal, read safely while a page loads: a document mid-navigation may have no body yet.
READY = "!!document.body && document.body.dataset.ready === '1'"


def _ready(page: Any, lang: str | None = None) -> Any:
    """Wait until the page says it is ready, the one signal every page gives and every browser test waits on after
    a page loads (``tests/test_architecture.py`` holds them to it): ``<body data-ready="1">``, set by the page's
    script once it listens (the table's, once its first state is drawn; a page of text without a script, at once).
    Nothing here acts before it: a click before the script listens would be lost. With ``lang``, the page that is
    ready must be in that language (a choice of language reloads the page: the old page is ready too)."""
    page.wait_for_function(f"lang => (!lang || document.documentElement.lang === lang) && {READY}", arg=lang,
                           timeout=WAIT)
    return page


def _goto(page: Any, url: str) -> Any:
    """Load ``url`` in ``page`` and wait until it is ready."""
    page.goto(url)
    return _ready(page)


def _reload(page: Any) -> Any:
    """Load the page again and wait until it is ready."""
    page.reload()
    return _ready(page)


def _open(browser: Any, url: str, **context: Any) -> Any:
    """A new page (in a browser context of its own, with ``context``'s options) at ``url``, ready."""
    return _goto(browser.new_context(**context).new_page(), url)


def _play_until(pages: list[Any], done: Any, limit: int = 2000, go_on: bool = True) -> None:
    for _ in range(limit):
        if done():
            return
        acted = False
        for page in pages:
            acted = _decide(page, go_on=go_on, done=done) or acted
        if not acted:
            pages[0].wait_for_timeout(50)
    raise AssertionError("the game did not end")


def _over(page: Any) -> bool:
    return _data(page, "phase") == "over"


@pytest.mark.slow
def test_a_whole_partie_against_the_computer_by_clicking(server: LiveServer, browser: Any) -> None:
    page = _open(browser, server.url + "/")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_test_id("create-computer").click()
    page.wait_for_url("**/t/**")
    _ready(page)
    _play_until([page], lambda: _over(page))
    assert "wins" in page.get_by_test_id("result").inner_text() or "drawn" in page.get_by_test_id("result").inner_text()
    # The record downloads, and replays through the engine to the same scores.
    with page.expect_download() as download:
        page.get_by_test_id("record").click()
    partie = record.loads(Path(download.value.path()).read_text())
    assert partie.is_over
    # A rematch: a new table with the same settings, the player in his seat there.
    old = page.url
    page.get_by_test_id("rematch").click()
    page.wait_for_function(f"u => location.href !== u && {READY} && document.body.dataset.phase !== 'over'",
                           arg=old, timeout=WAIT)
    assert "/t/" in page.url and page.url.split("#")[0] != old.split("#")[0]
    page.context.close()


@pytest.mark.slow
def test_two_players_play_a_room_to_the_end(server: LiveServer, browser: Any) -> None:
    created = _create(server, kind="room", variant="rubicon", name="Ann")
    ann = _open(browser, server.url + created["links"]["play"])
    invite = ann.get_by_test_id("invite-link").inner_text()
    assert "#invite=" in invite
    bob = _open(browser, server.url + created["links"]["invite"])
    bob.get_by_test_id("join-name").fill("Bob")
    bob.get_by_test_id("join-submit").click()
    watcher = _open(browser, server.url + created["links"]["spectate"])
    _play_until([ann, bob], lambda: _over(ann) and _over(bob))
    # The spectator goes on past the count of the last deal he was shown, to the partie's end.
    watcher.wait_for_function("document.body.dataset.phase === 'over' || !!document.body.dataset.dealEnd",
                              timeout=WAIT)
    while _go_on(watcher):
        watcher.wait_for_function("document.body.dataset.phase === 'over' || !!document.body.dataset.dealEnd",
                                  timeout=WAIT)
    # The spectator saw nobody's hand.
    assert watcher.locator("[data-testid=hand] [data-card]").count() == 0
    for page in (ann, bob, watcher):
        page.context.close()


def _hand(page: Any) -> list[str]:
    cards: list[str] = page.locator("[data-testid=hand] [data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
    return cards


def _in_the_play(server: LiveServer, browser: Any) -> tuple[dict[str, Any], Any, list[str], str]:
    """A table against the computer played up to the player's first card (the computer waits for it, so the
    version holds still): the table, the page, the hand and the version."""
    created = _create(server, kind="computer", level=1, name="Ann")
    page = _open(browser, server.url + created["links"]["play"])
    _play_until([page], lambda: _data(page, "prompt") == "play")
    return created, page, _hand(page), _data(page, "version")


def test_a_reload_in_the_middle_puts_the_player_back_in_his_seat(server: LiveServer, browser: Any) -> None:
    created, page, hand, version = _in_the_play(server, browser)
    _goto(page, server.url + f"/t/{created['id']}")  # no token in the link: the page remembers it
    page.wait_for_function("v => document.body.dataset.version === v", arg=version, timeout=WAIT)
    assert _hand(page) == hand
    _play_until([page], lambda: int(_data(page, "version") or 0) > int(version) + 10)
    page.context.close()


def test_a_server_restart_in_the_middle_resumes_the_game(server: LiveServer, browser: Any) -> None:
    _created, page, hand, version = _in_the_play(server, browser)
    server.stop()
    server.start()  # the same port and database: the page reconnects by itself
    page.wait_for_function("v => document.body.dataset.version === v && document.body.dataset.prompt === 'play'",
                           arg=version, timeout=WAIT)
    assert _hand(page) == hand
    _play_until([page], lambda: int(_data(page, "version") or 0) > int(version) + 10)
    page.context.close()


_SEND = """async ([url, messages]) => {
    const ws = new WebSocket(url);
    const got = [];
    await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
    ws.onmessage = (e) => got.push(JSON.parse(e.data));
    await new Promise((r) => setTimeout(r, 200));
    for (const m of messages) ws.send(typeof m === 'string' ? m : JSON.stringify(m));
    await new Promise((r) => setTimeout(r, 500));
    ws.close();
    return got;
}"""


def test_out_of_turn_and_forged_messages_are_refused_and_change_nothing(server: LiveServer, browser: Any) -> None:
    created = _create(server, kind="room", name="Ann")
    ann = _open(browser, server.url + created["links"]["play"])
    bob = _open(browser, server.url + created["links"]["invite"])
    bob.get_by_test_id("join-name").fill("Bob")
    bob.get_by_test_id("join-submit").click()
    _play_until([ann, bob], lambda: _data(ann, "phase") == "exchange")
    # Both pages at the table's latest state (on a busy machine one may still be a state behind the other).
    for _ in range(100):
        seen = (_data(ann, "version"), _data(bob, "version"))
        ann.wait_for_timeout(100)
        if seen[0] == seen[1] == _data(ann, "version") == _data(bob, "version"):
            break
    # Whoever is not to act tries to act; then a forged message naming the other player, and garbage.
    to_act = int(_data(ann, "toAct"))
    idle = [ann, bob][1 - to_act]
    # The seat secret the idle player's browser keeps (Bob's is his own, given when he joined: not the invite's).
    token = idle.evaluate("id => JSON.parse(localStorage.getItem('piquet.table.' + id)).token", created["id"])
    assert token and token not in created["links"]["invite"]
    version = _data(ann, "version")
    ws_url = server.url.replace("http", "ws") + f"/ws/{created['id']}?token={token}"
    v = int(version)
    got = ann.evaluate(_SEND, [ws_url, [
        {"type": "action", "action": {"exchange": ["7S"]}, "version": v},
        {"type": "action", "action": {"player": "Ann", "play": "AS"}, "version": v},
        "not json at all",
        {"type": "action", "action": {"play": "ZZ"}, "version": v},
        "x" * 20_000,
    ]])
    errors = [m for m in got if m["type"] == "error"]
    assert [e["code"] for e in errors] == ["not_your_turn", "malformed", "malformed", "not_your_turn", "too_large"]
    assert _data(ann, "version") == version
    # The game goes on.
    _play_until([ann, bob], lambda: int(_data(ann, "version") or 0) > int(version) + 5)
    for page in (ann, bob):
        page.context.close()


def test_an_invite_admits_one_person_once_and_a_seat_moves_to_another_device(server: LiveServer, browser: Any) -> None:
    created = _create(server, kind="room", name="Ann")
    ann = _open(browser, server.url + created["links"]["play"])
    assert ann.url == f"{server.url}/t/{created['id']}"  # the secret left the address bar for the browser's store
    bob = _open(browser, server.url + created["links"]["invite"])
    bob.get_by_test_id("join-name").fill("Bob")
    bob.get_by_test_id("join-submit").click()
    ann.wait_for_function("document.body.dataset.phase !== ''", timeout=WAIT)
    # The invite, opened again in another browser, gives no seat, and says so.
    eve = _open(browser, server.url + created["links"]["invite"])
    eve.wait_for_function("document.getElementById('connection').textContent.includes('invitation has been used')",
                          timeout=WAIT)
    assert eve.locator("[data-testid=hand] [data-card]").count() == 0
    # Bob moves to his phone: the one-time link seats the phone, and the old page leaves the seat.
    bob.get_by_test_id("move").click()
    link = bob.get_by_test_id("move-link")
    link.wait_for(state="visible", timeout=WAIT)
    href = link.get_attribute("href")
    assert href and "#move=" in href
    phone = _open(browser, href)
    phone.wait_for_function("document.body.dataset.phase !== ''", timeout=WAIT)
    bob.wait_for_function("document.getElementById('connection').textContent.includes('moved to another device')",
                          timeout=WAIT)
    version = int(_data(ann, "version") or 0)
    _play_until([ann, phone], lambda: int(_data(ann, "version") or 0) > version + 5)
    for page in (ann, bob, eve, phone):
        page.context.close()


def test_the_page_says_the_rules_the_server_sends_and_reckons_none_itself(
        server: LiveServer, browser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from piquet.engine.variants import AuCent

    # Rules the page cannot know of itself: it must say the server's, not three games of a hundred.
    monkeypatch.setattr(AuCent, "games_to_win", 2)
    monkeypatch.setattr(AuCent, "game_target", 90)
    created = _create(server, kind="computer", variant="au-cent", level=1, name="Ann")
    page = _open(browser, server.url + created["links"]["play"])
    page.wait_for_selector("[data-testid=sheet] .games-line", timeout=WAIT)
    sheet = page.get_by_test_id("sheet").inner_text()
    assert "the first to two wins" in sheet and "(to 90)" in sheet, sheet
    assert "games 0" in page.locator("#plate-me").inner_text()
    page.context.close()


def test_the_waiting_room_and_the_score_sheet_say_the_rule_facts_the_table_carries(
        server: LiveServer, browser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from piquet.ui.web import protocol
    from piquet.ui.web import tables as tables_module

    # Piquet au Cent's room, waiting for its guest (no view yet): the plates count games, not a partie total.
    created = _create(server, kind="room", variant="au-cent", name="Ann")
    page = _open(browser, server.url + created["links"]["play"])
    page.wait_for_selector("#plate-me .plate-scores", timeout=WAIT)
    plate = page.locator("#plate-me").inner_text()
    assert "games 0" in plate and "partie" not in plate, plate
    page.context.close()
    # The sheet has a contract column where the server says the deals are bid for, whatever the variant's name.
    monkeypatch.setattr(tables_module, "rules_data",
                        lambda variant, options: {**protocol.rules_data(variant, options), "bidding": True})
    created = _create(server, kind="computer", variant="rubicon", level=1, name="Ann")
    page = _open(browser, server.url + created["links"]["play"])
    page.wait_for_selector("[data-testid=sheet] .sheet-table, [data-testid=sheet] p", timeout=WAIT)
    _play_until([page], lambda: page.locator("[data-testid=sheet] thead th").count() > 0)
    assert page.locator("[data-testid=sheet] thead th").all_inner_texts()[:2] == ["Deal", "Contract"]
    page.context.close()


def test_the_lobby_offers_the_server_s_variants_options_and_levels_and_creates_the_table_chosen(
        server: LiveServer, browser: Any) -> None:
    from piquet.engine.variants import VARIANTS
    from piquet.ui.web.budgets import LEVELS

    page = _open(browser, server.url + "/")
    assert page.locator("[data-testid=variant] option").all_inner_texts() == [c.title for c in VARIANTS.values()]
    assert page.locator("[data-testid=level] option").count() == len(LEVELS)
    page.get_by_test_id("variant").select_option("auction")
    assert page.get_by_test_id("rules-link").inner_text() == "The rules of Auction Piquet"
    page.get_by_test_id("variant").select_option("rubicon")
    page.get_by_label("Your name").fill("Ann")
    page.locator("#options-details summary").click()
    # A number out of its bounds is refused by the form, naming the option.
    page.get_by_label("Minimum point").fill("9")
    page.get_by_test_id("create-room").click()
    assert "Minimum point: at most 8." in page.get_by_test_id("error").inner_text()
    page.get_by_label("Minimum point").fill("4")
    page.get_by_label("Four deal partie").check()
    page.get_by_test_id("create-room").click()
    page.wait_for_url("**/t/**")
    _ready(page)
    assert _data(page, "status") == "waiting"
    table = page.evaluate("window.piquetTable.state.table")
    assert (table["variant"], table["kind"], table["options"]) == (
        "rubicon", "room", {"minimum_point": 4, "four_deal_partie": True})
    _goto(page, server.url + "/")
    assert page.locator("#recent li").first.inner_text().startswith("Rubicon Piquet (room)")
    page.context.close()


def test_the_lobby_sets_the_computer_s_thinking_time_within_the_server_s_cap_and_the_table_shows_it(
        server: LiveServer, browser: Any) -> None:
    page = _open(browser, server.url + "/")
    budget = page.get_by_test_id("budget")
    assert budget.input_value() == "1" and "0.1 to 5 s" in page.locator("#budget-help").inner_text()
    assert "browser" not in page.locator("#budget-help").inner_text()  # the offline site's words only
    page.get_by_label("Your name").fill("Ann")
    page.get_by_test_id("level").select_option("3")
    # Over the server's cap: the form says so, and nothing is created.
    budget.fill("9")
    page.get_by_test_id("create-computer").click()
    assert "Thinking time: at most 5 s" in page.get_by_test_id("error").inner_text()
    assert page.url == server.url + "/"
    budget.fill("2.5")
    page.get_by_test_id("create-computer").click()
    page.wait_for_url("**/t/**")
    _ready(page)
    shown = page.get_by_test_id("budget")
    shown.wait_for(state="visible", timeout=WAIT)
    assert shown.inner_text() == "thinks up to 2.5 s"
    assert page.evaluate("window.piquetTable.state.table.budget") == 2.5
    assert "thinks up to 2.5 s" in (page.get_by_test_id("hint").get_attribute("title") or "")
    _goto(page, server.url + "/")  # the lobby offers the time chosen last
    assert page.get_by_test_id("budget").input_value() == "2.5"
    page.context.close()


def test_a_reason_the_server_gives_is_shown_as_a_sentence(server: LiveServer, browser: Any) -> None:
    """The server gives its reasons as clauses ("moves are taken back only against the computer"); the pages show
    them as their own messages are, sentences (issue 32, item 9)."""
    created = _create(server, kind="room", name="Ann")
    ann = _open(browser, server.url + created["links"]["play"])
    ann.evaluate("piquetTable.connection.ws.send(JSON.stringify({type: 'undo', version: piquetTable.state.version}))")
    error = ann.locator("#error-text")
    error.wait_for(state="visible", timeout=WAIT)
    assert error.inner_text() == "Moves are taken back only against the computer."
    lobby = _open(browser, server.url + "/")
    lobby.get_by_label("Your name").fill("Computer")
    lobby.get_by_test_id("create-computer").click()
    refused = lobby.get_by_test_id("error")
    refused.wait_for(state="visible", timeout=WAIT)
    assert refused.inner_text().startswith("The name ") and refused.inner_text().endswith(": choose another.")
    for page in (ann, lobby):
        page.context.close()


def test_a_room_offers_no_hint_and_a_spectator_none_of_a_player_s_settings(server: LiveServer, browser: Any) -> None:
    """Between two people the computer gives no hints: a room's page offers neither Hint nor "Declare for me",
    which the server would refuse; a spectator is shown neither "Play forced cards automatically" nor "Declare my
    best", a player's own settings (issue 32, item 7). Against the computer a player is offered both."""
    created = _create(server, kind="room", name="Ann")
    ann = _open(browser, server.url + created["links"]["play"])
    bob = _open(browser, server.url + created["links"]["invite"])
    bob.get_by_test_id("join-name").fill("Bob")
    bob.get_by_test_id("join-submit").click()
    watcher = _open(browser, server.url + created["links"]["spectate"])
    for page in (ann, bob):
        page.get_by_test_id("declare-best").set_checked(False)
    _play_until([ann, bob], lambda: "declare" in (_data(ann, "prompt"), _data(bob, "prompt")))
    asked = ann if _data(ann, "prompt") == "declare" else bob
    assert asked.get_by_test_id("choice").count() >= 1
    for page in (ann, bob):
        assert not page.get_by_test_id("hint").is_visible() and page.get_by_test_id("declare-for-me").count() == 0
        assert page.get_by_test_id("declare-best").is_visible() and page.get_by_test_id("auto-play").is_visible()
    assert watcher.evaluate("piquetTable.state.seat") is None
    for toggle in ("declare-best", "auto-play", "hint"):
        assert not watcher.get_by_test_id(toggle).is_visible(), toggle
    alone = _open(browser, server.url + _create(server, kind="computer", level=1, name="Cy")["links"]["play"])
    alone.get_by_test_id("declare-best").set_checked(False)
    _play_until([alone], lambda: _data(alone, "prompt") == "declare")
    assert alone.get_by_test_id("hint").is_visible() and alone.get_by_test_id("declare-for-me").is_visible()
    for page in (ann, bob, watcher, alone):
        page.context.close()
