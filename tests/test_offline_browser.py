"""The offline site (``piquet site``, ``docs/offline.md``) in Debian's chromium: built into a directory, served on
loopback by the standard library's static server, a whole deal played against the computer in the browser (the
table's logic in Pyodide, in a worker); then the network is cut and the page reloaded: the service worker serves the
site, IndexedDB holds the game, and it resumes where it was and plays on.

Without chromium, or without Pyodide's runtime (``npm ci``), these tests are skipped, unless
``PIQUET_REQUIRE_BROWSER`` is set.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from test_web_browser import _data, _decide, browser  # noqa: F401 - their fixtures

from piquet.ui.web.site import SiteError, build_site, find_pyodide

pytestmark = pytest.mark.browser

#: Pyodide's first start in a page (the runtime compiled, our package imported) may take longer than a step.
START = 120_000


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site built and served on loopback; its address. The server's socket listens before the address is given
    (it is bound and listening once made), so nothing waits on it."""
    try:
        find_pyodide()
    except SiteError as e:
        if os.environ.get("PIQUET_REQUIRE_BROWSER"):
            raise
        pytest.skip(str(e))
    root = tmp_path_factory.mktemp("site")
    build_site(root)
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join(20)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def _ready(page: Any) -> Any:
    """Wait until the page says it is ready (``<body data-ready="1">``: the table's, once its first state is drawn,
    which on this site follows Pyodide's start in the page's worker)."""
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=START)
    return page


def _goto(page: Any, url: str) -> Any:
    page.goto(url)
    return _ready(page)


def _reload(page: Any) -> Any:
    page.reload()
    return _ready(page)


def _deal_number(page: Any) -> int:
    number: int = page.evaluate("(window.piquetTable.state && window.piquetTable.state.view "
                                "&& window.piquetTable.state.view.deal_number) || 0")
    return number


def _sheet_rows(page: Any) -> int:
    rows: int = page.evaluate("((window.piquetTable.state && window.piquetTable.state.view "
                              "&& window.piquetTable.state.view.sheet) || []).length")
    return rows


def _play_until(page: Any, done: Any, limit: int = 400) -> None:
    for _ in range(limit):
        if done():
            return
        if not _decide(page, done=done):
            page.wait_for_function("document.body.dataset.prompt || document.body.dataset.dealEnd "
                                   "|| document.body.dataset.phase === 'over'", timeout=START)
    raise AssertionError("the deal did not end")


def test_a_deal_against_the_computer_then_offline_the_game_resumes_and_plays_on(site: str, browser: Any) -> None:  # noqa: F811
    context = browser.new_context()
    page = context.new_page()
    _goto(page, site)
    page.get_by_label("Your name").fill("Ann")
    page.select_option("#level", "1")
    page.get_by_test_id("create-computer").click()
    page.wait_for_url("**/table.html?id=*", timeout=START)
    _ready(page)
    assert _data(page, "connected") == "true"
    # A whole deal, to its count.
    _play_until(page, lambda: _sheet_rows(page) >= 1)
    url = page.url
    version = _data(page, "version")
    assert _sheet_rows(page) == 1
    # The service worker is active once it has cached every file of the site (its install): then the network goes.
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => !!r.active)")
    context.set_offline(True)
    _reload(page)
    assert page.url == url
    # The game as it was, from this browser's store (the computer may have cut and dealt the next deal meanwhile).
    assert int(_data(page, "version")) >= int(version)
    assert _sheet_rows(page) == 1
    version = _data(page, "version")
    # And it plays on, with no network: into the second deal.
    _play_until(page, lambda: _deal_number(page) >= 2 and bool(_data(page, "prompt")))
    assert int(_data(page, "version")) > int(version)
    context.close()
