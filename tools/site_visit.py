"""A visit to the offline site (``docs/offline.md``) in Debian's chromium, timed and counted: the site built into a
temporary directory and served on loopback; the lobby, then a table against the computer (level 1) until its first
state is drawn (Pyodide started in the page's worker, the game's package imported); then the table reloaded, as a
return visit. For each: the seconds by the wall clock, and the requests and bytes that went to the network rather
than the service worker's cache (the bytes as the server sent them: this server does not compress).

    PYTHONPATH=. python3 tools/site_visit.py
"""

from __future__ import annotations

import functools
import http.server
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from piquet.ui.web.site import build_site

WAIT = 180_000


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        build_site(root)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        network: list[tuple[str, int]] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_context().new_page()

            def counted(response: Any) -> None:
                if not response.from_service_worker:
                    network.append((response.url, response.request.sizes()["responseBodySize"]))

            page.on("response", counted)
            began = time.perf_counter()
            page.goto(url)
            page.wait_for_function("document.body.dataset.ready === '1'", timeout=WAIT)
            lobby = time.perf_counter() - began
            page.get_by_label("Your name").fill("Ann")
            page.select_option("#level", "1")
            began = time.perf_counter()
            page.get_by_test_id("create-computer").click()
            page.wait_for_url("**/table.html?id=*", timeout=WAIT)
            page.wait_for_function("document.body.dataset.ready === '1'", timeout=WAIT)
            table = time.perf_counter() - began
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            first = list(network)
            network.clear()
            began = time.perf_counter()
            page.reload()
            page.wait_for_function("document.body.dataset.ready === '1'", timeout=WAIT)
            again = time.perf_counter() - began
            browser.close()
        server.shutdown()
        print(f"first visit: the lobby ready in {lobby:.1f} s, the table playable {table:.1f} s after the click; "
              f"{len(first)} requests to the network, {sum(n for _, n in first) / 1e6:.1f} MB")
        print(f"return visit (the table reloaded): playable in {again:.1f} s; {len(network)} requests to the network "
              f"({', '.join(u.rsplit('/', 1)[-1] for u, _ in network) or 'none'}), "
              f"{sum(n for _, n in network) / 1e3:.1f} kB")


if __name__ == "__main__":
    main()
