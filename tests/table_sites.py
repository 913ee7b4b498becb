"""One table, two transports (issue 35): the browser tests of the table's rules and prompts against the computer run
on the served table (``piquet serve``: the page's WebSocket to the server) and on the offline site (``piquet site``:
the same page, its transport a worker running the table's logic in Pyodide), with the same test code.

A test asks for ``table_site``, parametrised ``served`` and ``offline``, and makes its tables with
``table_site.new(**body)``, the body of ``POST /api/tables`` (``kind`` is ``computer``: the offline site plays the
computer only): a page ready at the new table, in a browser context of its own. Served, the table is made by HTTP and
its play link opened; offline, by the hand-over the site's lobby uses (``NEW_TABLE`` in ``static/site/mode.js``: the
request left in the tab's ``sessionStorage`` for ``table.html?new=1``, which makes it in its worker). The offline
site is built once a session; its service worker is blocked in these contexts (``test_offline_browser`` checks it),
so that each page starts Pyodide only, without caching the whole site first.

A test that reads the server's own table (``live.app.state.tables``) or plays a room stays served-only, and says so.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from test_offline_browser import START, _runtime, _served
from test_web_browser import READY, WAIT, LiveServer, _create

from piquet.ui.web.site import build_site

#: The transports a table's page talks over.
TRANSPORTS = ("served", "offline")
#: Where the offline lobby leaves the table it asks for (``NEW_TABLE`` in ``static/site/mode.js``).
NEW_TABLE = "piquet.newTable"
#: The lobby's hand-over, made before the table page's script runs: once in the tab (a later ``?new=1``, a
#: rematch's, is the page's own).
HAND_OVER = """([key, request]) => {
    if (location.search === "?new=1" && !sessionStorage.getItem(key + ".test")) {
        sessionStorage.setItem(key, request);
        sessionStorage.setItem(key + ".test", "1");
    }
}"""


@dataclass
class TableSite:
    """Where a test's tables are made: the served site (``live``) or the offline one (``url``)."""

    transport: str
    browser: Any
    url: str
    live: LiveServer | None = None

    @property
    def offline(self) -> bool:
        return self.transport == "offline"

    @property
    def wait(self) -> int:
        """The longest a page's load may take here (ms): offline, Pyodide's start in the page's worker."""
        return START if self.offline else WAIT

    def context(self, **options: Any) -> Any:
        """A browser context of its own for this site's pages (``options``: Playwright's, a viewport...)."""
        if self.offline:
            options.setdefault("service_workers", "block")
        return self.browser.new_context(**options)

    def new(self, context: Any = None, **body: Any) -> Any:
        """A new table against the computer (``body``: ``POST /api/tables``'s, level 1 and "Ann" unless said), in a
        new page of ``context`` (a new context, without): the page, ready at the table."""
        body = {"kind": "computer", "level": 1, "name": "Ann", **body}
        assert body["kind"] == "computer", "the offline site plays the computer only"
        page = (context or self.context()).new_page()
        if self.live is not None:
            return _goto(page, self.live.url + _create(self.live, **body)["links"]["play"], WAIT)
        # The request left in the tab for the table page, as the lobby leaves it, before the page's script reads it.
        page.add_init_script(f"({HAND_OVER})({json.dumps([NEW_TABLE, json.dumps(body)])})")
        _goto(page, self.url + "table.html?new=1", START)
        # At the table made: its address, the table's (``?id=``), taken once the worker has made it.
        page.wait_for_function("location.search.includes('id=')", timeout=START)
        return page

    def lobby(self, context: Any = None) -> Any:
        """The lobby, ready, in a new page of ``context`` (a new context, without)."""
        page = (context or self.context()).new_page()
        return self.load(page, self.url + ("index.html" if self.offline else "/"))

    def created(self, page: Any) -> Any:
        """The lobby's page once its "create" was clicked: at the new table, ready."""
        page.wait_for_url("**/table.html?id=*" if self.offline else "**/t/**", timeout=self.wait)
        return _ready(page, self.wait)

    def table_url(self, page: Any) -> str:
        """The address of the page's table without its secret (the page finds it in this browser's store)."""
        table_id: str = page.evaluate("window.piquetTable.id")
        if self.offline:
            return f"{self.url}table.html?id={table_id}"
        return f"{self.url}/t/{table_id}"

    def load(self, page: Any, url: str) -> Any:
        """Load ``url`` in ``page`` and wait until it is ready (offline, after Pyodide's start)."""
        return _goto(page, url, self.wait)

    def load_again(self, page: Any) -> Any:
        """Load the page again and wait until it is ready."""
        return _reload(page, self.wait)


def _ready(page: Any, timeout: int) -> Any:
    page.wait_for_function(READY, timeout=timeout)
    return page


def _goto(page: Any, url: str, timeout: int) -> Any:
    """Load ``url`` in ``page`` and wait until it is ready, within ``timeout`` (ms)."""
    page.goto(url)
    return _ready(page, timeout)


def _reload(page: Any, timeout: int) -> Any:
    page.reload()
    return _ready(page, timeout)


@pytest.fixture(scope="session")
def offline_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The offline site, built once a session and served on loopback: its address."""
    root: Path = tmp_path_factory.mktemp("table-site")
    build_site(root, _runtime())
    with _served(root) as url:
        yield url


@pytest.fixture(params=TRANSPORTS)
def table_site(request: pytest.FixtureRequest, browser: Any) -> Iterator[TableSite]:
    """Where this test's tables are made, once on each transport."""
    if request.param == "offline":
        yield TableSite("offline", browser, request.getfixturevalue("offline_site"))
        return
    live: LiveServer = request.getfixturevalue("server")
    yield TableSite("served", browser, live.url, live)


__all__ = ["TRANSPORTS", "TableSite", "offline_site", "table_site"]
