"""``docs/deploy.md``'s reverse proxy, run: nginx with the configuration the document shows (without TLS) in front of
a server started with ``--trust-proxy``. Skipped where nginx is not installed."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from guard_helpers import WAIT, RawSocket, post, serving

from piquet.ui.web.app import create_app
from piquet.ui.web.guard import ConnectionLedger, Forwarded

DOC = Path(__file__).parent.parent / "docs" / "deploy.md"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def configuration(folder: Path, listen: int, upstream: int) -> str:
    """The document's configuration, its server listening on ``listen`` without TLS and proxying to ``upstream``."""
    text = re.search(r"```nginx\n(.*?)```", DOC.read_text(), re.S)
    assert text is not None, "docs/deploy.md shows no nginx configuration"
    conf = text.group(1)
    conf = conf.replace("listen 443 ssl;", f"listen 127.0.0.1:{listen};")
    conf = conf.replace("127.0.0.1:8000", f"127.0.0.1:{upstream}")
    conf = conf.replace("/var/log/nginx/piquet.log", str(folder / "access.log"))
    temp = "".join(f"{name}_temp_path {folder / name};\n" for name in
                   ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"daemon off; pid {folder / 'nginx.pid'}; error_log {folder / 'error.log'};\n"
            f"events {{}}\nhttp {{\n{temp}{conf}\n}}\n")


@pytest.mark.skipif(NGINX is None, reason="nginx is not installed")
def test_the_documented_proxy_names_each_client_and_is_not_fooled_by_one(tmp_path: Path) -> None:
    assert NGINX is not None
    ledger = ConnectionLedger(forwarded=Forwarded(["127.0.0.1"]))
    with serving(create_app(str(tmp_path / "db.sqlite3")), ledger) as upstream:
        listen = free_port()
        conf = tmp_path / "nginx.conf"
        conf.write_text(configuration(tmp_path, listen, upstream))
        proxy = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(tmp_path)], stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + WAIT
            while True:
                try:
                    socket.create_connection(("127.0.0.1", listen), timeout=1).close()
                    break
                except OSError:
                    assert proxy.poll() is None, proxy.stderr.read() if proxy.stderr else ""
                    assert time.monotonic() < deadline, "nginx did not start"
                    time.sleep(0.05)
            status, table = post(listen, "/api/tables", {"kind": "room", "name": "Ann"})
            assert status == 200, table
            path = f"/ws/{table['id']}?token={table['token']}"
            player = RawSocket(listen, path, source="127.9.0.5", headers="X-Forwarded-For: 203.0.113.66\r\n")
            assert player.status == 101 and player.next_message()["type"] == "state"
            assert "127.9.0.5" in ledger.open.values() and "203.0.113.66" not in ledger.open.values()
            player.send_json({"type": "hint"})
            assert player.next_message()["code"] == "not_allowed"  # played through the proxy
            player.close()
        finally:
            proxy.terminate()
            proxy.wait(WAIT)
    log = (tmp_path / "access.log").read_text()
    assert f"/ws/{table['id']}" in log and "token" not in log
