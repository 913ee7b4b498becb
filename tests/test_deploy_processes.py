"""Several ``piquet serve`` processes on one PostgreSQL database behind Caddy with ``deploy/Caddyfile`` as it is
(``docs/deploy.md``): a room's two players, whose links carry different secrets, reach the one process that holds
the table (Caddy hashes the table's id, copied from the path into a header); and when that process is killed
(``kill -9``) right after acknowledged actions, the players connect again, another process takes the table over,
every acknowledged action is in it, and the partie plays on. The servers are real processes (``python -m piquet
serve``), PostgreSQL the tests' own (``tests/postgres_helpers.py``); Caddy is required where
``PIQUET_REQUIRE_CADDY=1``."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from guard_helpers import WAIT, RawSocket, post
from postgres_helpers import start_caddy
from test_deploy import CADDY, ROOT, free_port, require
from web_helpers import choose

from piquet.ui.web.owners import lock_key

psycopg = pytest.importorskip("psycopg")

#: Whole server processes behind a proxy, killed and restarted: minutes of waiting on real signals (a killed
#: process's health checks, Caddy's skip window), so CI's full run has them and the everyday loop does not.
pytestmark = pytest.mark.slow

#: The longest a player tries to connect again after his table's process was killed.
RECONNECT = 30.0
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Server:
    """One ``piquet serve`` process on ``url``, on a port of its own (kept across a restart)."""

    def __init__(self, url: str, folder: Path, index: int) -> None:
        self.url, self.port, self.index = url, free_port(), index
        self.log = folder / f"serve-{index}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.arguments: list[str] = []  # further options of piquet serve

    def start(self) -> None:
        command = [sys.executable, "-m", "piquet", "serve", "--db", self.url, "--host", "127.0.0.1", "--port",
                   str(self.port), "--workers", "0", "--trust-proxy", "127.0.0.1", *self.arguments]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                            env={**os.environ, "PYTHONPATH": str(ROOT)})
        deadline = time.monotonic() + 60
        while not self.ready():  # its /readyz answers 200: it listens and its database answers
            assert self.process.poll() is None, f"piquet serve {self.index} ended: {self.log.read_text()[-2000:]}"
            assert time.monotonic() < deadline, f"piquet serve {self.index} did not become ready"
            time.sleep(0.05)

    def ready(self) -> bool:
        try:
            with _OPENER.open(f"http://127.0.0.1:{self.port}/readyz", timeout=WAIT) as answer:
                return bool(answer.status == 200)
        except OSError:
            return False

    @property
    def name(self) -> str:
        """The ``application_name`` of its lock connection (:class:`piquet.ui.web.owners.Owners`)."""
        assert self.process is not None
        return f"piquet serve {socket.gethostname()} {self.process.pid}"

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(WAIT)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.kill()


def holder(url: str, table_id: str) -> str | None:
    """The ``application_name`` of the session holding the table's lock (the query ``docs/deploy.md`` shows)."""
    key = lock_key(table_id)
    with psycopg.connect(url) as connection:
        row = connection.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.classid = %s AND l.objid = %s AND l.objsubid = 1",
            ((key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF)).fetchone()
    return None if row is None else str(row[0])


def stored(url: str, table_id: str) -> tuple[int, int]:
    """The table's stored version and number of actions."""
    with psycopg.connect(url) as connection:
        row = connection.execute("SELECT version, (SELECT COUNT(*) FROM actions WHERE table_id = id) FROM tables "
                                 "WHERE id = %s", (table_id,)).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


@contextmanager
def club(tmp_path: Path, url: str, processes: int = 2,
         arguments: tuple[str, ...] = ()) -> Iterator[tuple[list[Server], int]]:
    """``processes`` servers on ``url`` behind Caddy (deploy/Caddyfile as it is): the servers and Caddy's port.
    ``arguments``: further options of each ``piquet serve``."""
    require(CADDY, "caddy", "PIQUET_REQUIRE_CADDY")
    servers = [Server(url, tmp_path, i) for i in range(processes)]
    for server in servers:
        server.arguments = list(arguments)
    try:
        for server in servers:
            server.start()
        listen = free_port()
        proxy = start_caddy(tmp_path, listen, [s.port for s in servers])
        try:
            yield servers, listen
        finally:
            proxy.kill()  # at once: a terminated Caddy waits for the sockets still open
            proxy.wait(WAIT)
    finally:
        for server in servers:
            server.stop()


class Player:
    """A room's player through the proxy: his socket (opened again when it closes) and the latest state."""

    def __init__(self, port: int, table_id: str, link: str) -> None:
        self.port, self.table_id, self.link = port, table_id, link
        self.state: dict[str, Any] = {}
        self.sock = self.connect()

    def connect(self) -> RawSocket:
        """A socket at the table, its first state read; tried again (as the page does) while the proxy or the
        server says to (a process just killed: 502, 4409, 1013, a socket closed at once) for up to
        :data:`RECONNECT` seconds."""
        deadline = time.monotonic() + RECONNECT
        while True:
            try:
                sock = RawSocket(self.port, f"/ws/{self.table_id}?{self.link}")
                if sock.status == 101:
                    self.state = self.next(sock, lambda m: m["type"] == "state")
                    return sock
                sock.close()
            except (ConnectionError, OSError) as e:
                assert "closed with code 440" not in str(e) or "4409" in str(e), e  # never "no such table"...
            assert time.monotonic() < deadline, "the player could not reach his table again"

    def next(self, sock: RawSocket, wanted: Any) -> dict[str, Any]:
        for _ in range(500):
            message = sock.next_message()
            if message["type"] == "seat":
                self.link = f"token={message['token']}"
            if message["type"] == "state":
                self.state = message
            if wanted(message):
                return message
        raise AssertionError("the message did not come")

    def until(self, wanted: Any) -> dict[str, Any]:
        return self.next(self.sock, wanted)

    def again(self) -> None:
        """Connect again (his socket closed with his table's process)."""
        self.sock.close()
        self.sock = self.connect()


def playable(player: Player, at_least: int) -> dict[str, Any]:
    """The player's first state of version ``at_least`` or later where someone is to act (the cut is automatic)."""
    state = player.state
    if state.get("version", -1) >= at_least and state["view"] is not None and state["view"]["to_act"] is not None:
        return state
    return player.until(lambda m: m["type"] == "state" and m["version"] >= at_least and m["view"] is not None
                        and m["view"]["to_act"] is not None)


def send(ann: Player, bill: Player, rng: random.Random, acknowledged: int) -> tuple[Player, int]:
    """Whoever is to act after version ``acknowledged`` sends his action: he, and the version it answers."""
    state = playable(ann, acknowledged)
    mover = (ann, bill)[state["view"]["to_act"]]
    mine = state if mover is ann else playable(bill, state["version"])
    assert mine["version"] == state["version"]
    mover.sock.send_json({"type": "action", "action": choose(mine, rng), "version": mine["version"]})
    return mover, state["version"]


def step(ann: Player, bill: Player, rng: random.Random, acknowledged: int) -> int:
    """One action of whoever is to act after version ``acknowledged``: the version of the state that answers it
    (its acknowledgement)."""
    mover, version = send(ann, bill, rng, acknowledged)
    return int(mover.until(lambda m: m["type"] == "state" and m["version"] > version)["version"])


def seated_room(port: int, rng: random.Random) -> tuple[str, Player, Player]:
    """A room created through the proxy, its guest joined: its id, Ann and Bill."""
    status, table = post(port, "/api/tables", {"kind": "room", "name": "Ann", "options": {"four_deal_partie": True}})
    assert status == 200, table
    ann = Player(port, table["id"], f"token={table['token']}")
    bill = Player(port, table["id"], table["links"]["invite"].partition("#")[2])
    bill.sock.send_json({"type": "join", "name": "Bill"})
    bill.until(lambda m: m["type"] == "seat")
    return table["id"], ann, bill


def test_a_rooms_two_players_reach_the_process_that_holds_it(tmp_path: Path, postgres_url: str) -> None:
    rng = random.Random(37)
    with club(tmp_path, postgres_url) as (servers, port):
        names = {s.name for s in servers}
        for _ in range(4):
            table_id, ann, bill = seated_room(port, rng)
            # Both play: had either reached the other process, it would have been closed with 4409 at once.
            version = 0
            for _ in range(6):
                version = step(ann, bill, rng, version)
            assert version >= 6 and holder(postgres_url, table_id) in names
            for player in (ann, bill):
                player.sock.close()


def listed(port: int, table_id: str, status: str) -> None:
    """Wait until the process on ``port`` lists the public room ``table_id`` with ``status`` (it reads the store again
    once told of a change over NOTIFY: within a second)."""
    deadline = time.monotonic() + WAIT
    while True:
        with _OPENER.open(f"http://127.0.0.1:{port}/api/lobby", timeout=WAIT) as answer:
            rooms = json.load(answer)["rooms"]
        if any(r["id"] == table_id and r["status"] == status for r in rooms):
            return
        assert time.monotonic() < deadline, f"the process on port {port} lists {rooms}"
        time.sleep(0.1)


def test_a_public_room_is_listed_by_every_process_and_joined_through_the_proxy(tmp_path: Path,
                                                                                postgres_url: str) -> None:
    """A public room opened through the proxy (at any process) is listed by each process, asked directly; joined
    through the proxy (the join is routed to the table's process), each lists it in play, and its two players
    play at one process."""
    rng = random.Random(41)
    with club(tmp_path, postgres_url, arguments=("--public-rooms",)) as (servers, port):
        for server in servers:  # each has read its list before the room opens: NOTIFY tells it to read again
            listed_before = _OPENER.open(f"http://127.0.0.1:{server.port}/api/lobby", timeout=WAIT)
            assert json.load(listed_before)["rooms"] == []
        status, table = post(port, "/api/tables", {"kind": "room", "name": "Ann", "public": True})
        assert status == 200, table
        for server in servers:
            listed(server.port, table["id"], "waiting")
        status, joined = post(port, f"/api/tables/{table['id']}/join", {"name": "Bill"})
        assert status == 200, joined
        for server in servers:
            listed(server.port, table["id"], "playing")
        ann = Player(port, table["id"], f"token={table['token']}")
        bill = Player(port, table["id"], f"token={joined['token']}")
        version = 0
        for _ in range(4):
            version = step(ann, bill, rng, version)
        assert version >= 4 and holder(postgres_url, table["id"]) in {s.name for s in servers}
        for player in (ann, bill):
            player.sock.close()


def takeovers(tmp_path: Path, url: str, repetitions: int, seed: int) -> int:
    """``repetitions`` times: a room plays a few acknowledged actions, its process is killed at once (one more
    action maybe in flight), its players connect again and reach the other process, which holds the table with
    every acknowledged action, and the partie plays on; the killed process is started again. How many passed."""
    rng = random.Random(seed)
    passed = 0
    with club(tmp_path, url) as (servers, port):
        for repetition in range(repetitions):
            table_id, ann, bill = seated_room(port, rng)
            acknowledged = 0
            for _ in range(rng.randint(1, 5)):
                acknowledged = step(ann, bill, rng, acknowledged)
            owner = next(s for s in servers if s.name == holder(url, table_id))
            if rng.random() < 0.5:  # one more action sent, not acknowledged: it may be stored, or not
                send(ann, bill, rng, acknowledged)
            owner.kill()
            survivor = next(s for s in servers if s is not owner)
            for player in (ann, bill):
                player.again()
            assert holder(url, table_id) == survivor.name, f"repetition {repetition}"
            version, actions = stored(url, table_id)
            assert version >= acknowledged and actions == version, f"repetition {repetition}: an action was lost"
            assert ann.state["version"] >= acknowledged and bill.state["version"] >= acknowledged
            acknowledged = min(ann.state["version"], bill.state["version"])
            for _ in range(3):  # and it plays on
                acknowledged = step(ann, bill, rng, acknowledged)
            assert stored(url, table_id)[0] >= acknowledged
            for player in (ann, bill):
                player.sock.close()
            owner.start()
            passed += 1
    return passed


def test_a_killed_process_s_table_is_taken_over_with_every_acknowledged_action(tmp_path: Path,
                                                                               postgres_url: str) -> None:
    assert takeovers(tmp_path, postgres_url, 2, seed=1) == 2


def test_thirty_killed_owners_lose_no_acknowledged_action(tmp_path: Path, postgres_url: str) -> None:
    assert takeovers(tmp_path, postgres_url, 30, seed=30) == 30



def test_a_process_that_comes_back_is_given_its_tables_and_their_players_follow(tmp_path: Path,
                                                                                 postgres_url: str) -> None:
    """The table's process killed, the other takes it over; started again, the proxy routes the table to it once
    more (after Caddy's 10 s of passing it over): it asks the other for the table (NOTIFY), which closes its
    players' sockets with 4409, and they connect again to it."""
    rng = random.Random(5)
    with club(tmp_path, postgres_url) as (servers, port):
        table_id, ann, bill = seated_room(port, rng)
        acknowledged = step(ann, bill, rng, 0)
        owner = next(s for s in servers if s.name == holder(postgres_url, table_id))
        survivor = next(s for s in servers if s is not owner)
        owner.kill()
        for player in (ann, bill):
            player.again()
        assert holder(postgres_url, table_id) == survivor.name
        acknowledged = step(ann, bill, rng, min(ann.state["version"], bill.state["version"]))
        owner.start()
        deadline = time.monotonic() + RECONNECT
        while holder(postgres_url, table_id) != owner.name:  # Ann's page reloaded until Caddy routes her back
            assert time.monotonic() < deadline, "the table never went back to the restarted process"
            ann.again()
            time.sleep(0.2)
        with pytest.raises(ConnectionError, match="closed with code 4409"):
            bill.until(lambda _m: False)  # the other process let Bill go...
        bill.again()  # ... and he follows
        assert holder(postgres_url, table_id) == owner.name
        assert min(ann.state["version"], bill.state["version"]) >= acknowledged
        acknowledged = step(ann, bill, rng, min(ann.state["version"], bill.state["version"]))
        assert stored(postgres_url, table_id)[0] >= acknowledged
