"""Load on ``piquet serve``: many rooms played at once over loopback WebSockets, every action's acknowledgement timed.

Usage::

    python benchmarks/load.py                          # 200 rooms at once, whole parties of Rubicon Piquet
    python benchmarks/load.py --games 50
    python benchmarks/load.py --games 200 --deals 2 --variant auction --json load.json
    python benchmarks/load.py --clients-processes 2    # if one client process is the limit
    python benchmarks/load.py --think 1 --deals 2 --computer-tables 5:4 --hints   # four level-5 tables thinking
    python benchmarks/load.py --games 200 --think 1 --deals 2 --flood --slow-readers 10 --thinking 4 --compare
    python benchmarks/load.py --games 50 --think 1 --deals 1 --computer-tables 5:4 --compare-processes

The server is started as its own process (``python -m piquet serve`` on a free
port with a throwaway SQLite file) and shut down at the end. Each room is
created with ``POST /api/tables``; its two players are two WebSocket clients
(the creator's token and the invite's) that connect, the guest joins, and both
answer every prompt with a random legal choice (exchange: a random number of
random hand cards, or the advice; declare: a random option; play: a random
legal card; packets of 3), at once (or after ``--think``). Rooms only: no
computer move is timed. All the games start together once every client is
connected.

An action's latency is the time from sending it to receiving the first
``state`` whose ``version`` is past the one it was sent at (the server
acknowledges only after the engine applied the action and the store committed
it). Reported: the games, the actions per second over the busy period (from
the start of the games to the end of the last), the latency percentiles (all
actions, and by prompt kind), the CPU time of the server and of each client
process (if a client process is near 100% of a core, the clients are the
limit: use ``--clients-processes``), and the CPU time every other process on
the machine took meanwhile (if large, other work disturbed the figures). At
the end, the store must hold every action the clients saw acknowledged.

The scenario "level-5 tables thinking" (``--computer-tables LEVEL:N``, which may
be repeated): beside the rooms, N tables against the computer at that level,
each with one player in a third process who thinks as the rooms' players do
(``--think``; with ``--hints`` she asks for a hint after thinking, then answers
at once; a ``busy`` answer is counted and the decision made without the hint),
a new partie when one ends, until the rooms are done (each player from a
loopback address of her own, 127.1L.y.1 for level L, waiting if the server's
limit on new tables by address refuses her next one). Reported beside the
rooms' latency: for each level, the computer's reply time (from a player's
action to her next prompt: the computer's moves in between included), the
hints' times and how many were refused. Every run reports the resident memory
of the server and, apart, of the processes it started (the computer's
workers), sampled every second; a server that does not shut down cleanly fails
the run once its figures are printed.

Any ``error`` message, a game with no new state for ``--timeout`` seconds, or
a server that dies, fails the run (non-zero exit).

The server is this checkout's ``piquet`` (whatever else is installed). Each room
connects from a loopback address of its own, on a /24 of its own (127.20.y.1 on:
Linux routes all of 127/8 to loopback), as the server's limits by address and by
network expect of households.

Attacks (``docs/security.md``), run by another process from addresses of their
own while the rooms play: ``--flood`` (one client sending 820 KiB of 8-byte
frames in one write, again as soon as it is closed), ``--slow-readers N``
(spectators whose sockets never read), ``--thinking N`` (tables against the
level-5 computer, their player answering at once, one partie each, apart from
``--computer-tables``, which may be given too). ``--compare`` plays the same
rooms quiet first (no attack and no computer table) and prints the two runs'
latencies and memory side by side.

The distributed attacks, from many addresses each within its own limits, run by a
process of their own: ``--distributed-flood N`` (N addresses, each on a /24 of its
own, each with 4 spectators' sockets sending 110 frames a second in all, refused
messages of four kinds), ``--slow-connections N`` (N addresses, each holding 32
connections that never finish a request, opened again as the server closes them;
``--max-connections 1024`` starts the server with the cap of a server under the
common limit of 1,024 open files), ``--hint-storm N`` (N tables against the level-5
computer whose player asks a hint at every decision, on a new connection whenever
refused) and ``--visitors R`` (R new visitors a second from addresses never seen:
the table's page, then its socket's first state, each timed). Reported beside the
rooms' latency: what each attack did and what the server answered, the visitors'
times and failures, and the CPU the load generators took (their own, not the
server's). ``--computer-tables 1:N`` reports how soon the computer's move follows
the state before it; ``--computer-budget`` sets the computer tables' budget.
``--attack-costs S`` then runs the flood and the slow connections each alone for
S seconds against a server holding the rooms unplayed, and reports the server's
CPU time a frame answered and a connection opened (a figure other work on the
machine disturbs less than a latency). ``--pin-generators`` holds every load
generator (the clients, the computer tables' players, the attackers) to the
last processor and leaves the server the others: on a small machine, as if the
attackers ran on machines of their own (reported with the figures).

    python benchmarks/load.py --games 50 --think 0.5 --deals 2 --computer-tables 5:1 --distributed-flood 40 \
        --slow-connections 100 --hint-storm 4 --visitors 2 --max-connections 1024 --compare

``--compare-processes`` plays the rooms and computer tables three times: on one process on SQLite (as above), on
two processes on one PostgreSQL behind Caddy (``deploy/Caddyfile``), and on those two with the busier one killed
partway (``--kill-after``), its players connecting again through the proxy as the page does; reported side by
side, the kill's window apart (``benchmarks/load_processes.py``). It needs PostgreSQL's server programs, psycopg
and Caddy; it starts its own throwaway PostgreSQL, as the tests do (``tools/servers.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import itertools
import json
import math
import multiprocessing
import os
import platform
import queue
import random
import resource
import shlex
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import asdict, dataclass, field
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

VARIANT_NAMES = ("rubicon", "auction", "au-cent")
#: The checkout this benchmark belongs to: its piquet is the one served.
ROOT = Path(__file__).resolve().parent.parent
#: No proxy for loopback requests, whatever the environment says.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class LoadError(RuntimeError):
    """The run failed: an ``error`` message, a stalled game, a closed connection or a dead server."""


class TooManyTables(LoadError):
    """``POST /api/tables`` answered 429: too many new tables from one address; ``retry_after`` seconds to wait."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


# ---------------------------------------------------------------- the server process
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def raise_file_limit() -> None:
    """Two sockets a room on each side: lift the soft limit on open files to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))


class Server:
    """``python -m piquet serve`` in its own process, its output kept in a log file."""

    def __init__(self, directory: Path, port: int, extra: list[str] | None = None, nice: int = 0,
                 db: str | None = None, name: str = "server") -> None:
        """``db``: the store's URL (``postgresql://...``), else a new SQLite file in ``directory``."""
        self.port = port
        self.db = directory / "load.sqlite3"
        self.log_path = directory / f"{name}.log"
        self.command = [sys.executable, "-m", "piquet", "serve", "--port", str(port), "--db", db or str(self.db),
                        *(extra or [])]
        self._log = self.log_path.open("wb")
        # The piquet of this checkout (the one code_version names), whatever else is installed.
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        # ``nice``: the server's priority against the rest of the machine (its workers keep theirs below it): on a
        # shared machine, as a server on a machine of its own, which no other work takes the processor from.
        self.process = subprocess.Popen(self.command, stdout=self._log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, cwd=directory, env=env,
                                        preexec_fn=(lambda: os.nice(nice)) if nice else None)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self, lines: int = 30) -> str:
        if not self._log.closed:
            self._log.flush()
        text = self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        return "\n".join(text[-lines:]) or "(empty)"

    def check_alive(self) -> None:
        code = self.process.poll()
        if code is not None:
            raise LoadError(f"the server exited with code {code}:\n{self.log_tail()}")

    def wait_ready(self, timeout: float = 30.0) -> None:
        """Until ``GET /api/setup`` answers."""
        deadline = time.monotonic() + timeout
        while True:
            self.check_alive()
            try:
                with _OPENER.open(f"{self.base}/api/setup", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise LoadError(f"the server did not answer within {timeout:.0f} s:\n{self.log_tail()}")
            time.sleep(0.05)

    def cpu_seconds(self) -> float:
        """User plus system CPU time of the server process so far (``/proc/PID/stat``)."""
        stat = Path(f"/proc/{self.process.pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2:].split()  # after the command name, which may hold spaces
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_mb(self) -> float | None:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return None

    def stop(self) -> int:
        """Ctrl-C (uvicorn's graceful shutdown), then SIGTERM, then SIGKILL; the exit code."""
        process = self.process
        try:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.terminate()
                    try:
                        process.wait(timeout=5)
                    except subprocess.TimeoutExpired:
                        process.kill()
                        process.wait()
            return process.returncode
        finally:
            self._log.close()


def generators_cpus(pin: bool) -> set[int] | None:
    """The processors the load generators (the clients, the computer tables' players, the attackers) are held to
    with ``--pin-generators``: the last one this process may use (the server, free, has the others to itself); or
    ``None``."""
    if not pin:
        return None
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise LoadError("--pin-generators needs two processors at least")
    return {cpus[-1]}


def pin(process: multiprocessing.process.BaseProcess, cpus: set[int] | None) -> None:
    if cpus is not None and process.pid is not None:
        os.sched_setaffinity(process.pid, cpus)


def machine_cpu_seconds() -> float:
    """CPU time used by every process on the machine so far, all cores together (``/proc/stat``)."""
    with open("/proc/stat") as stat:
        ticks = [int(n) for n in stat.readline().split()[1:9]]  # user nice system idle iowait irq softirq steal
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def source_address(index: int) -> str:
    """The loopback address room ``index`` connects from (127.1x.y.1): each room is a household of its own, on a
    network (/24) of its own, as the server's limits by address and by network expect (all 127/8 is loopback on
    Linux)."""
    return f"127.{20 + index // 250}.{index % 250}.1"


def post_json(port: int, path: str, body: dict[str, Any], source: str) -> dict[str, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        answer = connection.getresponse()
        text = answer.read().decode(errors="replace")
        retry_after = answer.getheader("Retry-After")
    finally:
        connection.close()
    if answer.status == 429:
        raise TooManyTables(f"POST {path} answered 429: {text}", float(retry_after or 1))
    if answer.status != 200:
        raise LoadError(f"POST {path} answered {answer.status}: {text}")
    data: dict[str, Any] = json.loads(text)
    return data


def link_secret(link: str, *keys: str) -> tuple[str, str]:
    """The first of ``keys`` a link holds and its secret: after ``#`` (the links' form now, which a browser never
    sends) or, in the older form, after ``?``."""
    parts = urllib.parse.urlsplit(link)
    for part in (parts.fragment, parts.query):
        found = urllib.parse.parse_qs(part)
        for key in keys:
            if key in found:
                return key, found[key][0]
    raise LoadError(f"a link without {' or '.join(keys)}: {link!r}")


def create_room(port: int, variant: str, name: str, source: str) -> tuple[str, str, str, str]:
    """A new room: its id, the query that opens the creator's seat (``token=T``), the guest's (from the invite
    link: ``invite=I``, or ``token=T`` in the older form) and the spectators' secret."""
    data = post_json(port, "/api/tables", {"kind": "room", "variant": variant, "options": {}, "name": name}, source)
    links = data["links"]
    kind, guest = link_secret(links["invite"], "invite", "token")
    _, spectate = link_secret(links["spectate"], "spectate")
    host_query, guest_query = urllib.parse.urlencode({"token": data["token"]}), urllib.parse.urlencode({kind: guest})
    return data["id"], host_query, guest_query, spectate


# ---------------------------------------------------------------- the clients
@dataclass
class Room:
    index: int
    id: str
    queries: tuple[str, str]  # what opens each seat's socket, /ws/{id}?{query}: token=T, or the guest's invite=I
    source: str = "127.0.0.1"
    spectate: str = ""


@dataclass
class Figures:
    """What one client process measured."""

    latencies: dict[str, list[float]] = field(default_factory=dict)  # by prompt kind, in seconds
    finished: int = 0
    final_versions: int = 0  # the sum over its games of the last version seen: the actions stored
    states: int = 0
    state_bytes: int = 0
    start: float = math.inf  # time.monotonic(), comparable between processes on one machine
    end: float = 0.0
    cpu: float = 0.0
    compressed: bool = False  # whether the server accepted permessage-deflate
    failures: list[str] = field(default_factory=list)
    #: (sent, acknowledged) of every action, time.monotonic(): which ones a process's kill held up
    spans: list[tuple[float, float]] = field(default_factory=list)
    reconnections: int = 0  # sockets opened again after the server closed them (or its process died)
    #: (closed, back, waited) of each outage: from a socket's close to the first message on the new one
    #: (time.monotonic()), and the seconds of it the page's delays took
    outages: list[tuple[float, float, float]] = field(default_factory=list)
    acknowledged: dict[str, int] = field(default_factory=dict)  # room id: the newest version its host saw


def choose(prompt: dict[str, Any], view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal answer to a prompt (``docs/protocol.md``)."""
    kind = prompt["kind"]
    if kind == "choose_dealer":
        return {"choose_dealer": rng.choice(prompt["options"])}
    if kind == "packets":
        return {"packets": 3 if 3 in prompt["options"] else rng.choice(prompt["options"])}
    if kind == "bid":
        return {"bid": rng.choice(prompt["options"])}
    if kind == "carte_blanche":
        option: dict[str, Any] = rng.choice(prompt["options"])
        return option
    if kind == "exchange":
        low, high = prompt["min"], prompt["max"]
        advice = prompt["advice"]
        if advice and low <= len(advice) <= high and rng.random() < 0.5:
            discards = list(advice)
        else:
            discards = rng.sample(view["hand"], rng.randint(low, high))
        # Younger may show the rest of the talon if she leaves some of it (Law 36): if she takes fewer than
        # ``max``, the cards she may take. Not ``talon_left``: when elder announced carte blanche, younger
        # exchanges first and the cards elder will take are already his, though still in the talon.
        may_show = prompt.get("may_show_rest", prompt["younger"]) and len(discards) < high
        show_rest = may_show and rng.random() < 0.5
        return {"exchange": discards, "show_rest": show_rest}
    if kind == "declare":
        declaration: dict[str, Any] = rng.choice(prompt["options"])["action"]
        return declaration
    if kind == "play":
        return {"play": rng.choice(prompt["cards"])}  # never a concession, even where one is allowed
    if kind == "concession":
        answer: dict[str, Any] = rng.choice(prompt["options"])
        return answer
    raise LoadError(f"a prompt of an unknown kind: {prompt!r}")


#: The page's waits before it connects again, in seconds (static/table/transport.js, ``scheduleReconnect``): each
#: with up to a quarter more at random, the count started again once a socket opens.
RECONNECT_DELAYS = (0.05, 1.0, 2.0, 4.0, 8.0, 15.0)
#: The close codes after which the page gives up (transport.js): no seat, a bad request, a used invite or move
#: link, no such table.
FATAL_CLOSES = frozenset({4400, 4401, 4403, 4404, 4410})


class PageSocket:
    """A table's socket as the page holds it. ``resilient``: closed (by the server, or with its process), it is opened
    again as the page does (:data:`RECONNECT_DELAYS`, the seat's secret in the query; a refused handshake, such as a
    proxy's 502 or a process's 503, waits the next delay), and ``recv`` goes on with the new socket; else a close is
    the caller's to handle. Counted: the reconnections, and each outage (from the close to the first message on the
    new socket)."""

    def __init__(self, ws_base: str, table_id: str, query: str, source: str, compression: bool, timeout: float,
                 resilient: bool = False, ws: ClientConnection | None = None) -> None:
        self.ws_base, self.table_id, self.query, self.source = ws_base, table_id, query, source
        self.compression, self.timeout, self.resilient = compression, timeout, resilient
        self.rng = random.Random(f"{table_id}/{query}")
        self._ws = ws
        self.reconnections = 0
        self.outages: list[tuple[float, float, float]] = []  # (closed, back, waited), as Figures.outages
        self.waited = 0.0  # seconds of the outage so far spent in the page's delays
        self.down_since: float | None = None  # time.monotonic() of the close, until a message comes again
        self.reopened = False  # a new socket since the caller last cleared it: what was in flight may be lost

    @property
    def url(self) -> str:
        return f"{self.ws_base}/ws/{self.table_id}?{self.query}"

    @property
    def ws(self) -> ClientConnection:
        if self._ws is None:
            raise LoadError(f"table {self.table_id}: the socket was never opened")
        return self._ws

    @property
    def compressed(self) -> bool:
        return bool(self.ws.protocol.extensions)

    async def open(self) -> PageSocket:
        self._ws = await open_seat(self.url, self.compression, self.timeout, self.source)
        return self

    async def recv(self) -> str | bytes:
        while True:
            try:
                message = await self.ws.recv()
            except ConnectionClosed as closed:
                if not self.resilient:
                    raise
                await self.reconnect(closed)
                continue
            if self.down_since is not None:
                self.outages.append((self.down_since, time.monotonic(), self.waited))
                self.down_since = None
            return message

    async def reconnect(self, closed: ConnectionClosed) -> None:
        code = closed.rcvd.code if closed.rcvd is not None else None
        if code in FATAL_CLOSES:
            raise LoadError(f"table {self.table_id}: closed with {code} ({closed.rcvd.reason if closed.rcvd else ''})")
        if self.down_since is None:
            self.down_since, self.waited = time.monotonic(), 0.0
        for attempt in itertools.count():
            base = RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)]
            delay = base + self.rng.random() * base / 4
            await asyncio.sleep(delay)
            self.waited += delay
            try:
                self._ws = await open_seat(self.url, self.compression, self.timeout, self.source)
            except (InvalidHandshake, OSError, TimeoutError) as e:
                if time.monotonic() - self.down_since > self.timeout:
                    raise LoadError(f"table {self.table_id}: not reached again in {self.timeout:.0f} s ({e})") from None
                continue
            self.reconnections += 1
            self.reopened = True
            return

    async def send(self, text: str) -> None:
        """Send; on a socket just closed, a resilient socket's message is lost, as the page's would be (the next
        ``recv`` opens it again, and the state it brings says whether the action was stored)."""
        try:
            await self.ws.send(text)
        except ConnectionClosed:
            if not self.resilient:
                raise

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()


#: Messages the page shows and a player here does not answer: the talk of the deals over (sent after the first state
#: on a socket opened once a deal is over), a phrase said.
SHOWN = frozenset({"talk", "said"})


class Seat:
    """One player's client at a room: answers its prompts and times the acknowledgements."""

    def __init__(self, room: Room, seat: int, ws: PageSocket, figures: Figures, deals: int | None,
                 timeout: float, think: float) -> None:
        self.room = room
        self.seat = seat
        self.ws = ws
        self.figures = figures
        self.deals = deals
        self.timeout = timeout
        self.think = think
        self.rng = random.Random(f"{room.index}/{seat}")
        self.newest = -1
        self.answered = -1

    def where(self, version: int | None = None) -> str:
        at = f", version {version}" if version is not None else ""
        return f"room {self.room.index} ({self.room.id}), seat {self.seat}{at}"

    async def receive(self) -> dict[str, Any]:
        """The next ``state``; a ``seat`` message (the guest's own secret, sent when he joins) is taken in passing."""
        while True:
            try:
                text = await asyncio.wait_for(self.ws.recv(), self.timeout)
            except TimeoutError:
                raise LoadError(f"{self.where(self.newest)}: stalled, no message for {self.timeout:.0f} s") from None
            except ConnectionClosed as e:
                raise LoadError(f"{self.where(self.newest)}: the server closed the connection ({e})") from None
            if isinstance(text, bytes):
                raise LoadError(f"{self.where(self.newest)}: a binary message, not JSON text")
            message: dict[str, Any] = json.loads(text)
            if message.get("type") == "error":
                raise LoadError(f"{self.where(self.newest)}: error {message.get('code')}: {message.get('message')}")
            if message.get("type") == "seat":  # the seat's secret (the guest's, once joined): to connect again
                self.ws.query = urllib.parse.urlencode({"token": message["token"]})
                continue
            if message.get("type") in SHOWN:
                continue
            if message.get("type") != "state":
                raise LoadError(f"{self.where(self.newest)}: unexpected message {text[:200]}")
            self.figures.state_bytes += len(text)
            self.figures.states += 1
            return message

    def finished(self, state: dict[str, Any]) -> bool:
        if state["table"]["status"] == "over":
            return True
        view = state["view"]
        return self.deals is not None and view is not None and len(view["sheet"]) >= self.deals

    async def play(self) -> None:
        figures = self.figures
        pending: tuple[int, str, float] | None = None  # the version an action was sent at, its kind, when
        lost: float | None = None  # when an action the store did not keep (its process killed) was first sent
        while True:
            state = await self.receive()
            now = time.perf_counter()
            version: int = state["version"]
            if pending is not None and version > pending[0]:
                latency, acknowledged = now - pending[2], time.monotonic()
                figures.latencies.setdefault(pending[1], []).append(latency)
                figures.spans.append((acknowledged - latency, acknowledged))
                figures.end = max(figures.end, time.monotonic())
                pending = None
            elif pending is not None and self.ws.reopened:
                # A new socket's first state, and the action is not in it: lost with its process. The player
                # answers again (as at the page), and its latency counts from the first time she sent it.
                lost, pending, self.answered = pending[2], None, -1
            self.ws.reopened = False
            if version < self.newest:
                continue  # an older state overtaken by a newer one
            self.newest = version
            if self.seat == 0:  # every state is of a version the store holds
                figures.acknowledged[self.room.id] = version
            if self.finished(state):
                break
            prompt = state["prompt"]
            if prompt is None or pending is not None or version <= self.answered:
                continue
            message = json.dumps({"type": "action", "action": choose(prompt, state["view"], self.rng),
                                  "version": version})
            if self.think and lost is None:  # an action lost is sent again at once: she had chosen it
                await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
            self.answered = version
            pending = (version, prompt["kind"], lost if lost is not None else time.perf_counter())
            lost = None
            await self.ws.send(message)
        if self.seat == 0:
            figures.finished += 1
            figures.final_versions += self.newest
            figures.end = max(figures.end, time.monotonic())
        figures.reconnections += self.ws.reconnections
        figures.outages.extend(self.ws.outages)
        await self.ws.close()


async def open_seat(url: str, compression: bool, timeout: float, source: str = "127.0.0.1") -> ClientConnection:
    ws = await connect(url, compression="deflate" if compression else None, proxy=None, ping_interval=None,
                       open_timeout=timeout, max_size=4 * 1024 * 1024, local_addr=(source, 0))
    return ws


async def clients(rooms: list[Room], ws_base: str, deals: int | None, timeout: float, think: float,
                  compression: bool, ready: Queue[str], go: Event, resilient: bool = False) -> Figures:
    figures = Figures()
    limit = asyncio.Semaphore(64)  # connect in waves rather than 400 handshakes at once

    async def open_room(room: Room) -> tuple[Seat, Seat]:
        async with limit:
            seats = []
            for seat, query in enumerate(room.queries):
                ws = await PageSocket(ws_base, room.id, query, room.source, compression, timeout, resilient).open()
                figures.compressed = figures.compressed or ws.compressed
                s = Seat(room, seat, ws, figures, deals, timeout, think)
                first = await s.receive()  # the state on connecting
                s.newest = first["version"]
                seats.append(s)
            return seats[0], seats[1]

    pairs = await asyncio.gather(*(open_room(room) for room in rooms))
    figures.states = figures.state_bytes = 0
    ready.put("ready")
    await asyncio.to_thread(go.wait)
    figures.start = time.monotonic()
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    try:
        async with asyncio.TaskGroup() as group:
            for host, guest in pairs:
                group.create_task(game(host, guest))
    except* LoadError as failures:
        figures.failures.extend(str(e) for e in leaves(failures))
    after = resource.getrusage(resource.RUSAGE_SELF)
    figures.cpu = after.ru_utime - cpu.ru_utime + after.ru_stime - cpu.ru_stime
    for host, guest in pairs:
        for s in (host, guest):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(s.ws.close(), 5)
    return figures


def leaves(group: BaseExceptionGroup[LoadError]) -> list[BaseException]:
    """The failures in a group of groups (a game's task group inside the process's)."""
    out: list[BaseException] = []
    for e in group.exceptions:
        out.extend(leaves(e) if isinstance(e, BaseExceptionGroup) else [e])
    return out


async def game(host: Seat, guest: Seat) -> None:
    await guest.ws.send(json.dumps({"type": "join", "name": f"Guest {guest.room.index}"}))
    async with asyncio.TaskGroup() as group:
        group.create_task(host.play())
        group.create_task(guest.play())


def client_process(rooms: list[Room], ws_base: str, deals: int | None, timeout: float, think: float,
                   compression: bool, ready: Queue[str], go: Event, results: Queue[dict[str, Any]],
                   resilient: bool = False) -> None:
    """One client process's whole life: connect its rooms' seats, wait for the start, play, report. ``resilient``:
    its sockets are opened again as the page does when the server closes them (:class:`PageSocket`)."""
    raise_file_limit()
    try:
        figures = asyncio.run(clients(rooms, ws_base, deals, timeout, think, compression, ready, go, resilient))
    except Exception as e:  # reported, not lost in a child's traceback
        figures = Figures(failures=[f"client process: {type(e).__name__}: {e}"])
        ready.put("failed")
    results.put(asdict(figures))  # a plain dict: the class is __main__'s in the parent, __mp_main__'s here


# ---------------------------------------------------------------- the scenario "level-5 tables thinking"
@dataclass
class ComputerFigures:
    """What the players at the computer's tables measured, by level."""

    replies: dict[str, list[float]] = field(default_factory=dict)  # level: seconds from an action to the next prompt
    #: level: seconds from the state that acknowledged the player's action (the computer to move) to the next state
    #: (the computer's move): how soon a move follows the message before it
    gaps: dict[str, list[float]] = field(default_factory=dict)
    hints: dict[str, list[float]] = field(default_factory=dict)  # level: seconds from asking to the hint
    busy: dict[str, int] = field(default_factory=dict)  # level: hints refused busy
    parties: int = 0
    tables_refused: int = 0  # new tables refused by the server's limit by address (the partie waited)
    failures: list[str] = field(default_factory=list)


def computer_address(level: int, index: int) -> str:
    """The loopback address the ``index``-th player at the level-``level`` computer tables connects from
    (127.1L.y.1): a household of her own on a network of her own, apart from the rooms' (127.20-) and the
    attackers' (127.2-9)."""
    return f"127.{10 + level}.{index % 250}.1"


def create_computer_table(port: int, level: int, name: str, source: str,
                          budget: float | None = None) -> tuple[str, str]:
    body: dict[str, Any] = {"kind": "computer", "level": level, "name": name}
    if budget is not None:
        body["budget"] = budget
    data = post_json(port, "/api/tables", body, source)
    return data["id"], data["token"]


async def computer_player(port: int, level: int, index: int, hints: bool, timeout: float,
                          think: float, stop: Event, figures: ComputerFigures, budget: float | None = None,
                          resilient: bool = False) -> None:
    """One player against the computer at ``level``: parties one after another until ``stop``. ``resilient``: her
    socket is opened again as the page does when the server closes it (:class:`PageSocket`)."""
    rng = random.Random(f"computer {level}/{index}")
    key = str(level)
    source = computer_address(level, index)
    while not stop.is_set():
        try:
            table_id, token = await asyncio.to_thread(create_computer_table, port, level, f"Player {level}/{index}",
                                                      source, budget)
        except TooManyTables as e:  # the server's limit on new tables by address: the next partie waits
            figures.tables_refused += 1
            await asyncio.to_thread(stop.wait, e.retry_after)
            continue
        ws = await PageSocket(f"ws://127.0.0.1:{port}", table_id, f"token={token}", source, False, timeout,
                              resilient).open()
        try:
            sent: float | None = None  # when the last action went
            asked: tuple[int, float] | None = None  # the version a hint was asked at, when
            answered = -1
            acked: float | None = None  # when the state acknowledging the action came, the computer to move
            state: dict[str, Any] | None = None
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout)
                except TimeoutError:
                    raise LoadError(f"level-{level} table {table_id}: no message for {timeout:.0f} s") from None
                message: dict[str, Any] = json.loads(text)
                now = time.perf_counter()
                if ws.reopened:  # a new socket (her table's process killed): what was in flight may be lost
                    ws.reopened, answered, asked, acked = False, -1, None, None
                if message["type"] in SHOWN:
                    continue
                if message["type"] == "error":
                    if message["code"] != "busy" or asked is None:
                        raise LoadError(f"level-{level} table {table_id}: error {message['code']}: "
                                        f"{message['message']}")
                    figures.busy[key] = figures.busy.get(key, 0) + 1
                elif message["type"] == "hint":
                    if asked is None:
                        raise LoadError(f"level-{level} table {table_id}: a hint not asked for")
                    figures.hints.setdefault(key, []).append(now - asked[1])
                else:
                    state = message
                    if acked is not None:
                        figures.gaps.setdefault(key, []).append(now - acked)
                        acked = None
                    elif sent is not None and state["version"] > answered and state["prompt"] is None \
                            and state["view"]["to_act"] == state["computer"]:
                        acked = now
                    if state["table"]["status"] == "over":
                        figures.parties += 1
                        break
                    if state["prompt"] is None or state["version"] <= answered:
                        continue
                    if sent is not None:
                        figures.replies.setdefault(key, []).append(now - sent)
                        sent = None
                    if hints and state["prompt"]["kind"] != "packets" and (asked is None
                                                                           or asked[0] != state["version"]):
                        if think:
                            await asyncio.sleep(rng.uniform(0, 2 * think))
                        asked = (state["version"], time.perf_counter())
                        await ws.send(json.dumps({"type": "hint"}))
                        continue
                if state is None or state["prompt"] is None or state["version"] <= answered:
                    continue
                if message["type"] != "state" or not hints or state["prompt"]["kind"] == "packets":
                    if think and not hints:
                        await asyncio.sleep(rng.uniform(0, 2 * think))
                    answered = state["version"]
                    sent = time.perf_counter()
                    action = choose(state["prompt"], state["view"], rng)
                    await ws.send(json.dumps({"type": "action", "action": action, "version": state["version"]}))
        finally:
            with contextlib.suppress(ConnectionClosed, OSError):
                await ws.close()


def computer_process(port: int, tables: list[tuple[int, int]], hints: bool, timeout: float,
                     think: float, go: Event, stop: Event, results: Queue[dict[str, Any]],
                     budget: float | None = None, resilient: bool = False) -> None:
    """The players of the computer's tables: start with the rooms, play until the rooms are done, report."""
    raise_file_limit()
    figures = ComputerFigures()

    async def everyone() -> None:
        await asyncio.to_thread(go.wait)
        async with asyncio.TaskGroup() as group:
            for level, count in tables:
                for i in range(count):
                    group.create_task(computer_player(port, level, i, hints, timeout, think, stop, figures,
                                                      budget, resilient))

    try:
        asyncio.run(everyone())
    except* (LoadError, OSError, ConnectionClosed) as failures:
        figures.failures.extend(f"computer table: {e}" for e in leaves(failures))  # type: ignore[arg-type]
    results.put(asdict(figures))


def process_tree(root: int) -> list[int]:
    """``root`` and every process under it (the computer's workers are children of a fork server)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = (entry / "stat").read_text()
                ppid = int(stat[stat.rindex(")") + 2:].split()[1])
                children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError, ValueError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_of(pid: int) -> float:
    with contextlib.suppress(OSError, ValueError, IndexError):
        stat = Path(f"/proc/{pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2:].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


class Memory:
    """The server's resident memory and its descendants' (the computer's workers), sampled."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.server_mb = 0.0
        self.workers_mb = 0.0
        self.workers_cpu: dict[int, float] = {}

    def sample(self) -> None:
        tree = process_tree(self.pid)
        self.server_mb = max(self.server_mb, rss_mb(self.pid))
        self.workers_mb = max(self.workers_mb, sum(rss_mb(pid) for pid in tree[1:]))
        for pid in tree[1:]:
            self.workers_cpu[pid] = max(self.workers_cpu.get(pid, 0.0), cpu_of(pid))


def computer_summary(figures: ComputerFigures) -> dict[str, Any]:
    levels = sorted(set(figures.replies) | set(figures.hints), key=int)
    return {"parties_finished": figures.parties, "tables_refused": figures.tables_refused,
            "by_level": {level: {"replies": latency_summary(figures.replies.get(level, [])),
                                 "gaps": latency_summary(figures.gaps.get(level, [])),
                                 "hints": latency_summary(figures.hints.get(level, [])),
                                 "hints_refused_busy": figures.busy.get(level, 0)} for level in levels}}


# ---------------------------------------------------------------- the attacks
#: The flooding client's burst: 820 KiB of the smallest masked frames, sent in one write.
FLOOD_BURST = 820 * 1024
FLOODER = "127.3.0.1"


def ws_frame(payload: bytes, mask: bytes = b"\x01\x02\x03\x04") -> bytes:
    """A masked client text frame (payloads under 126 bytes)."""
    assert len(payload) < 126
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def handshake(path: str) -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()


@dataclass
class AttackFigures:
    """What the attacking process did and saw."""

    flood_connections: int = 0  # handshakes accepted, each then sent a burst
    flood_refused: int = 0  # connections the server refused (limits by address)
    flood_closed_4429: int = 0  # bursts answered with the flood close code
    flood_bytes: int = 0
    slow_readers: int = 0  # spectators connected that never read
    thinking_tables: int = 0
    thinking_actions: int = 0  # the human's actions acknowledged at the computer tables
    failures: list[str] = field(default_factory=list)


async def flood(port: int, path: str, figures: AttackFigures, stop: asyncio.Event) -> None:
    """Connect, send a burst, read until the server closes, again; refused connections are retried at once."""
    burst = ws_frame(b"{}") * (FLOOD_BURST // 8)
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(FLOODER, 0))
        except OSError:
            await asyncio.sleep(0.01)
            continue
        try:
            writer.write(handshake(path))
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            if b" 101 " not in head.split(b"\r\n", 1)[0]:
                figures.flood_refused += 1
                continue
            figures.flood_connections += 1
            writer.write(burst)
            figures.flood_bytes += len(burst)
            rest = await asyncio.wait_for(reader.read(), 10)
            if b"\x88" in rest and (4429).to_bytes(2, "big") in rest:
                figures.flood_closed_4429 += 1
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
            await asyncio.sleep(0.005)


def slow_reader(port: int, path: str, source: str) -> socket.socket:
    """A spectator whose socket never reads (a small receive buffer, the handshake's answer left unread)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((source, 0))
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    sock.sendall(handshake(path))
    return sock


async def attackers(port: int, spectate: list[str], flood_on: bool, slow: int, thinking: int, timeout: float,
                    ready: Queue[str], go: Event, stop: Event) -> AttackFigures:
    figures = AttackFigures()
    held: list[socket.socket] = []
    seats: list[Seat] = []
    if flood_on:
        own = post_json(port, "/api/tables", {"kind": "room", "name": "Flood"}, FLOODER)
        flood_path = f"/ws/{own['id']}?token={own['token']}"
    for i in range(thinking):  # computer tables at level 5, their player answering at once
        source = f"127.2.0.{i + 1}"
        data = post_json(port, "/api/tables", {"kind": "computer", "level": 5, "name": f"Thinker {i}"}, source)
        ws = await PageSocket(f"ws://127.0.0.1:{port}", data["id"], f"token={data['token']}", source, False,
                              timeout).open()
        seat = Seat(Room(10_000 + i, data["id"], (urllib.parse.urlencode({"token": data["token"]}), ""), source), 0,
                    ws, Figures(), None, timeout, 0.0)
        seat.newest = (await seat.receive())["version"]
        seats.append(seat)
    figures.thinking_tables = len(seats)
    ready.put("ready")
    await asyncio.to_thread(go.wait)
    for i in range(slow):  # spread over the rooms, each from an address of its own
        held.append(await asyncio.to_thread(slow_reader, port, spectate[i % len(spectate)], f"127.4.0.{i + 1}"))
    figures.slow_readers = len(held)
    stopped = asyncio.Event()
    tasks = []
    if flood_on:
        tasks.append(asyncio.create_task(flood(port, flood_path, figures, stopped)))
    for seat in seats:
        tasks.append(asyncio.create_task(seat.play()))
    await asyncio.to_thread(stop.wait)
    stopped.set()
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, LoadError, Exception):
            await task
    figures.thinking_actions = sum(len(v) for seat in seats for v in seat.figures.latencies.values())
    for sock in held:
        sock.close()
    return figures


def attacker_process(port: int, spectate: list[str], flood_on: bool, slow: int, thinking: int, timeout: float,
                     ready: Queue[str], go: Event, stop: Event, results: Queue[dict[str, Any]]) -> None:
    raise_file_limit()
    try:
        figures = asyncio.run(attackers(port, spectate, flood_on, slow, thinking, timeout, ready, go, stop))
    except Exception as e:
        figures = AttackFigures(failures=[f"attacker process: {type(e).__name__}: {e}"])
        ready.put("failed")
    results.put(asdict(figures))


# ---------------------------------------------------------------- the distributed attacks
#: Frames a flooding address sends a second, over its connections: within the server's limits by address (120) and,
#: over FLOOD_CONNECTIONS, by connection (30 each).
FLOOD_RATE = 110.0
FLOOD_CONNECTIONS = 4
#: Slow connections each slow address holds (the server's most by address).
SLOW_PER_ADDRESS = 32
#: What the flooders send, by turns: refused at once, each answered with an error.
FLOOD_MESSAGES = (b'{"type": "hint"}', b'{"type": "undo", "version": 0}',
                  b'{"type": "action", "action": {"play": "QS"}, "version": 0}', b"{")


@dataclass
class DistributedFigures:
    """What the distributed attacks did and saw."""

    flood_addresses: int = 0
    flood_connections: int = 0  # WebSockets opened (reopened when closed)
    flood_frames: int = 0  # frames written
    flood_reply_bytes: int = 0  # bytes the server answered them with
    flood_reply_states: int = 0  # of the messages they were sent: the states of the rooms they watch
    flood_reply_state_bytes: int = 0
    flood_reply_errors: int = 0  # and the errors answering their frames
    flood_closed: int = 0  # connections the server closed
    flood_refused: int = 0  # connections refused (a limit by address or network)
    slow_addresses: int = 0
    slow_opened: int = 0  # slow connections opened
    slow_closed: int = 0  # closed by the server (timed out, or closed to make room)
    slow_refused: int = 0  # answered 503
    storm_tables: int = 0
    storm_asked: int = 0  # hints asked
    storm_hints: int = 0  # hints answered
    storm_busy: int = 0  # hints refused busy
    storm_reconnects: int = 0  # new connections to ask again
    visits: int = 0
    visit_pages: list[float] = field(default_factory=list)  # seconds to get a table's page, by a new visitor
    visit_sockets: list[float] = field(default_factory=list)  # seconds to a new visitor's first state
    visit_failures: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def flood_address(index: int) -> str:
    return f"127.5.{index}.1"  # a network (/24) of its own


def slow_address(index: int) -> str:
    return f"127.6.{index}.1"


async def flood_connection(port: int, path: str, source: str, rate: float, figures: DistributedFigures,
                           stop: asyncio.Event) -> None:
    """One flooding WebSocket: frames at ``rate`` a second (three at a time), reconnecting when closed."""
    frames = [ws_frame(m) if len(m) < 126 else b"" for m in FLOOD_MESSAGES]
    turn = 0
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        except OSError:
            await asyncio.sleep(0.1)
            continue
        try:
            writer.write(handshake(path))
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            if b" 101 " not in head.split(b"\r\n", 1)[0]:
                figures.flood_refused += 1
                await asyncio.sleep(0.5)
                continue
            figures.flood_connections += 1

            reading = asyncio.ensure_future(count_replies(reader, figures))
            while not stop.is_set() and not reading.done():
                batch = b"".join(frames[(turn + k) % len(frames)] for k in range(3))
                turn += 3
                writer.write(batch)
                figures.flood_frames += 3
                await writer.drain()  # the server reads no more than its budget: TCP holds us back
                await asyncio.sleep(3 / rate)
            if reading.done():
                figures.flood_closed += 1
            reading.cancel()
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            figures.flood_closed += 1
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


async def count_replies(reader: asyncio.StreamReader, figures: DistributedFigures) -> None:
    """Read what the server sends a flooding socket, counting its messages by kind, until it closes."""
    buffer = b""
    with contextlib.suppress(OSError):
        while data := await reader.read(65536):
            figures.flood_reply_bytes += len(data)
            buffer += data
            while len(buffer) >= 2:  # the server's frames: unmasked, their length in 7, 16 or 64 bits
                n, start = buffer[1] & 0x7F, 2
                if n >= 126:
                    start += 2 if n == 126 else 8
                    if len(buffer) < start:
                        break
                    n = int.from_bytes(buffer[2:start], "big")
                if len(buffer) < start + n:
                    break
                payload, buffer = buffer[start:start + n], buffer[start + n:]
                if payload.startswith(b'{"type":"state"'):
                    figures.flood_reply_states += 1
                    figures.flood_reply_state_bytes += len(payload)
                elif payload.startswith(b'{"type":"error"'):
                    figures.flood_reply_errors += 1


async def slow_connections(port: int, source: str, figures: DistributedFigures, stop: asyncio.Event) -> None:
    """An address holding its most connections, each an unfinished request (a header byte every few seconds); one
    the server closes is opened again, at the address's rate."""

    async def hold() -> None:
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
            except OSError:
                await asyncio.sleep(0.2)
                continue
            figures.slow_opened += 1
            refused = False
            try:
                writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                while not stop.is_set():
                    try:
                        data = await asyncio.wait_for(reader.read(1024), 3)
                    except TimeoutError:
                        writer.write(b"a")
                        continue
                    refused = data.startswith(b"HTTP/1.1 503")
                    if refused:
                        figures.slow_refused += 1
                    else:
                        figures.slow_closed += 1
                    break
            except OSError:
                figures.slow_closed += 1
            finally:
                writer.close()
                with contextlib.suppress(OSError):
                    await writer.wait_closed()
            # Closed (timed out, or to make room): again at once; refused: again a second later.
            await asyncio.sleep((1.0 if refused else 0.1) + random.random() * 0.2)

    await asyncio.gather(*(hold() for _ in range(SLOW_PER_ADDRESS)))


async def hint_storm(port: int, index: int, figures: DistributedFigures, timeout: float, stop: asyncio.Event) -> None:
    """A table against the level-5 computer whose player asks a hint at every decision, again on a new connection
    whenever refused (as if a reconnection gave the allowance back), and plays once answered or thrice refused."""
    rng = random.Random(f"storm {index}")
    source = f"127.7.{index}.1"
    while not stop.is_set():
        try:
            table_id, token = await asyncio.to_thread(create_computer_table, port, 5, f"Storm {index}", source)
        except TooManyTables as e:
            await asyncio.sleep(e.retry_after)
            continue
        url = f"ws://127.0.0.1:{port}/ws/{table_id}?token={token}"
        refused_here = 0
        over = False
        while not stop.is_set() and not over:
            async with await open_seat(url, False, timeout, source) as ws:
                state: dict[str, Any] | None = None
                asked_at = -1
                while not stop.is_set():
                    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
                    if message["type"] == "state":
                        state = message
                        if state["table"]["status"] == "over":
                            over = True
                            break
                    elif message["type"] == "hint":
                        figures.storm_hints += 1
                        refused_here = 3
                    elif message["type"] == "error":
                        if message["code"] not in ("busy", "stale", "not_your_turn", "computer_failed"):
                            raise LoadError(f"hint storm: error {message['code']}: {message['message']}")
                        figures.storm_busy += message["code"] == "busy"
                        refused_here += 1
                        if refused_here < 3:
                            figures.storm_reconnects += 1
                            break  # a new connection, to ask again
                    if state is None or state["prompt"] is None:
                        continue
                    version = state["version"]
                    if state["prompt"]["kind"] != "packets" and asked_at != version and refused_here < 3:
                        asked_at = version
                        figures.storm_asked += 1
                        await ws.send(json.dumps({"type": "hint"}))
                        continue
                    if asked_at == version and refused_here < 3:
                        continue  # waiting for the hint
                    refused_here = 0
                    await ws.send(json.dumps({"type": "action", "action": choose(state["prompt"], state["view"], rng),
                                              "version": version}))
                    asked_at = -1


async def visitor(port: int, index: int, table_id: str, spectate: str, figures: DistributedFigures,
                  timeout: float) -> None:
    """A new visitor from an address never seen: the table's page, then its WebSocket's first state."""
    source = f"127.8.{index // 250 % 250}.{index % 250 + 1}"
    began = time.perf_counter()
    try:
        status = await asyncio.to_thread(get_page, port, f"/t/{table_id}", source)
        if status != 200:
            figures.visit_failures.append(f"the page answered {status}")
            return
        figures.visit_pages.append(time.perf_counter() - began)
        began = time.perf_counter()
        async with await open_seat(f"ws://127.0.0.1:{port}/ws/{table_id}?spectate={spectate}", False, timeout,
                                   source) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), timeout))
            if first.get("type") != "state":
                figures.visit_failures.append(f"the first message was {first.get('type')}")
                return
        figures.visit_sockets.append(time.perf_counter() - began)
    except (OSError, TimeoutError, ConnectionClosed, http.client.HTTPException) as e:
        figures.visit_failures.append(f"{type(e).__name__}: {e}")
    finally:
        figures.visits += 1


def get_page(port: int, path: str, source: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


async def distributed(port: int, rooms: list[tuple[str, str]], flooders: int, slow: int, storms: int,
                      visits_per_second: float, timeout: float, ready: Queue[str], go: Event,
                      stop: Event) -> DistributedFigures:
    figures = DistributedFigures(flood_addresses=flooders, slow_addresses=slow, storm_tables=storms)
    ready.put("ready")
    await asyncio.to_thread(go.wait)
    stopped = asyncio.Event()
    tasks = []
    for i in range(flooders):
        for k in range(FLOOD_CONNECTIONS):
            table_id, spectate = rooms[(i * FLOOD_CONNECTIONS + k) % len(rooms)]
            tasks.append(asyncio.create_task(flood_connection(port, f"/ws/{table_id}?spectate={spectate}",
                                                              flood_address(i), FLOOD_RATE / FLOOD_CONNECTIONS,
                                                              figures, stopped)))
    for i in range(slow):
        tasks.append(asyncio.create_task(slow_connections(port, slow_address(i), figures, stopped)))
    for i in range(storms):
        tasks.append(asyncio.create_task(hint_storm(port, i, figures, timeout, stopped)))
    visits = []
    if visits_per_second > 0:
        await asyncio.sleep(2.0)  # the attacks under way
        n = 0
        while not stop.is_set():
            table_id, spectate = rooms[n % len(rooms)]
            visits.append(asyncio.create_task(visitor(port, n, table_id, spectate, figures, timeout)))
            n += 1
            await asyncio.sleep(1 / visits_per_second)
    else:
        await asyncio.to_thread(stop.wait)
    stopped.set()
    await asyncio.gather(*visits, return_exceptions=True)
    for task in tasks:
        task.cancel()
    for result in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(result, LoadError):
            figures.failures.append(str(result))
    return figures


def distributed_process(port: int, rooms: list[tuple[str, str]], flooders: int, slow: int, storms: int,
                        visits_per_second: float, timeout: float, ready: Queue[str], go: Event, stop: Event,
                        results: Queue[dict[str, Any]]) -> None:
    raise_file_limit()
    try:
        figures = asyncio.run(distributed(port, rooms, flooders, slow, storms, visits_per_second, timeout, ready, go,
                                          stop))
    except Exception as e:
        figures = DistributedFigures(failures=[f"distributed attacks: {type(e).__name__}: {e}"])
        ready.put("failed")
    results.put(asdict(figures))


# ---------------------------------------------------------------- the run
def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile of sorted ``values``."""
    return values[max(0, min(len(values) - 1, math.ceil(q * len(values)) - 1))]


def latency_summary(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    if not values:
        return {"count": 0}
    return {"count": len(values), "p50_ms": 1000 * percentile(values, 0.50), "p90_ms": 1000 * percentile(values, 0.90),
            "p99_ms": 1000 * percentile(values, 0.99), "max_ms": 1000 * values[-1]}


def stored_actions(db: Path, tables: list[str]) -> int:
    """The actions the store holds for ``tables`` (the rooms': the computer tables' and the attackers' are not
    counted by the rooms' clients)."""
    with contextlib.closing(sqlite3.connect(db)) as connection:
        connection.execute("CREATE TEMP TABLE rooms (id TEXT PRIMARY KEY)")
        connection.executemany("INSERT INTO rooms VALUES (?)", [(t,) for t in tables])
        (count,) = connection.execute("SELECT COUNT(*) FROM actions WHERE table_id IN (SELECT id FROM rooms)"
                                      ).fetchone()
    return int(count)


def run(args: argparse.Namespace) -> dict[str, Any]:
    raise_file_limit()
    context = multiprocessing.get_context("spawn")
    pinned = generators_cpus(args.pin_generators)
    with tempfile.TemporaryDirectory(prefix="piquet-load-") as directory:
        extra = ["--max-connections", str(args.max_connections)] if args.max_connections else []
        server = Server(Path(directory), free_port(), extra, args.server_nice)
        figures: list[Figures] = []
        workers: list[multiprocessing.process.BaseProcess] = []
        helpers: list[multiprocessing.process.BaseProcess] = []  # the computer tables' players
        computer = ComputerFigures()
        attack = AttackFigures()
        spread = DistributedFigures()
        memory = Memory(server.process.pid)
        try:
            server.wait_ready()
            rooms = []
            for i in range(args.games):
                table_id, host, guest, spectate_secret = create_room(server.port, args.variant, f"Host {i}",
                                                                     source_address(i))
                rooms.append(Room(i, table_id, (host, guest), source_address(i), spectate_secret))
            ready: Queue[str] = context.Queue()
            results: Queue[dict[str, Any]] = context.Queue()
            go = context.Event()
            stop = context.Event()
            ws_base = f"ws://127.0.0.1:{server.port}"
            computer_results: Queue[dict[str, Any]] = context.Queue()
            if args.computer_tables:
                process = context.Process(target=computer_process, name="load-computer-tables",
                                          args=(server.port, args.computer_tables, args.hints, args.timeout,
                                                args.think, go, stop, computer_results, args.computer_budget))
                process.start()
                pin(process, pinned)
                helpers.append(process)
            spreading = bool(args.distributed_flood or args.slow_connections or args.hint_storm or args.visitors)
            spread_ready: Queue[str] = context.Queue()
            spread_results: Queue[dict[str, Any]] = context.Queue()
            if spreading:
                targets = [(room.id, room.spectate) for room in rooms]
                process = context.Process(target=distributed_process, name="load-distributed",
                                          args=(server.port, targets, args.distributed_flood, args.slow_connections,
                                                args.hint_storm, args.visitors, args.timeout, spread_ready, go, stop,
                                                spread_results))
                process.start()
                pin(process, pinned)
                helpers.append(process)
                try:
                    if spread_ready.get(timeout=args.timeout + 120) != "ready":
                        raise LoadError("the distributed attacks could not start")
                except queue.Empty:
                    raise LoadError("the distributed attacks did not start in time") from None
            attacking = args.flood or args.slow_readers or args.thinking
            attack_results: Queue[dict[str, Any]] = context.Queue()
            if attacking:
                spectate = [f"/ws/{room.id}?spectate={room.spectate}" for room in rooms]
                attacker = context.Process(target=attacker_process, name="load-attacker",
                                           args=(server.port, spectate, args.flood, args.slow_readers, args.thinking,
                                                 args.timeout, ready, go, stop, attack_results))
                attacker.start()
                pin(attacker, pinned)
                workers.append(attacker)
            for k in range(args.clients_processes):
                share = rooms[k::args.clients_processes]
                process = context.Process(target=client_process, name=f"load-clients-{k}",
                                          args=(share, ws_base, args.deals, args.timeout, args.think,
                                                not args.no_compression, ready, go, results))
                process.start()
                pin(process, pinned)
                workers.append(process)
            for _ in workers:
                try:
                    if ready.get(timeout=args.timeout + 120) != "ready":
                        break  # its failure comes with its figures
                except queue.Empty:
                    raise LoadError("the clients did not all connect in time") from None
            server.check_alive()
            server_cpu = server.cpu_seconds()
            memory.sample()
            workers_cpu_before = sum(memory.workers_cpu.values())
            # The processes that play the computer tables and the attacks: load, not the server's.
            generators = helpers + (workers[:1] if args.flood or args.slow_readers or args.thinking else [])
            generators_cpu = sum(cpu_of(p.pid) for p in generators if p.pid is not None)
            machine_cpu, began = machine_cpu_seconds(), time.monotonic()
            go.set()
            client_workers = workers[1:] if attacking else workers
            while len(figures) < len(client_workers):
                try:
                    figures.append(Figures(**results.get(timeout=1)))
                except queue.Empty:  # keep an eye on the server and the client processes
                    server.check_alive()
                    if all(not w.is_alive() for w in client_workers) and results.empty():
                        raise LoadError("a client process died without reporting") from None
                memory.sample()
            memory.sample()
            server_cpu = server.cpu_seconds() - server_cpu
            machine_cpu, span = machine_cpu_seconds() - machine_cpu, time.monotonic() - began
            generators_cpu = sum(cpu_of(p.pid) for p in generators if p.pid is not None) - generators_cpu
            stop.set()  # the attacks and the computer tables' players end with the rooms
            if attacking:
                try:
                    attack = AttackFigures(**attack_results.get(timeout=60))
                except queue.Empty:
                    raise LoadError("the attacking process did not report") from None
            if args.computer_tables:
                try:
                    computer = ComputerFigures(**computer_results.get(timeout=args.timeout + 30))
                except queue.Empty:
                    raise LoadError("the computer tables' players did not report") from None
            if spreading:
                try:
                    spread = DistributedFigures(**spread_results.get(timeout=args.timeout + 60))
                except queue.Empty:
                    raise LoadError("the distributed attacks did not report") from None
            peak_rss = server.peak_rss_mb()
            for worker in workers + helpers:
                worker.join(timeout=30)
        finally:
            for worker in workers + helpers:
                if worker.is_alive():
                    worker.kill()
            code = server.stop()
            if args.server_log:
                with open(args.server_log, "ab") as out:
                    out.write(server.log_path.read_bytes())
        failures = [f for fig in figures for f in fig.failures] + attack.failures + computer.failures + spread.failures
        if failures:
            shown = "\n  ".join(failures[:10])
            more = f"\n  ... and {len(failures) - 10} more" if len(failures) > 10 else ""
            raise LoadError(f"{len(failures)} failure(s):\n  {shown}{more}\nserver log:\n{server.log_tail()}")
        unclean = None
        if code not in (0, -signal.SIGINT, 128 + signal.SIGINT):
            unclean = f"the server did not shut down cleanly (exit code {code}):\n{server.log_tail()}"
        stored = stored_actions(server.db, [room.id for room in rooms])
        seen = sum(fig.final_versions for fig in figures)
        if stored != seen if args.deals is None else stored < seen:
            raise LoadError(f"the store holds {stored} actions, the clients saw {seen} acknowledged")

    by_kind: dict[str, list[float]] = {}
    for fig in figures:
        for kind, values in fig.latencies.items():
            by_kind.setdefault(kind, []).extend(values)
    every = [v for values in by_kind.values() for v in values]
    busy = max(fig.end for fig in figures) - min(fig.start for fig in figures)
    states = sum(fig.states for fig in figures)
    return {
        "games": args.games,
        "attack": {"flood": args.flood, "slow_readers": args.slow_readers, "thinking_tables": args.thinking,
                   **asdict(attack)},
        "distributed": distributed_summary(spread) if spreading else None,
        "max_connections": args.max_connections,
        "server_nice": args.server_nice,
        "generators_pinned_to": sorted(pinned) if pinned is not None else None,
        "variant": args.variant,
        "deals": args.deals,
        "client_processes": args.clients_processes,
        "compression_offered": not args.no_compression,
        "compression_accepted": any(fig.compressed for fig in figures),
        "think_seconds": args.think,
        "games_finished": sum(fig.finished for fig in figures),
        "actions": len(every),
        "actions_stored": stored,
        "busy_seconds": busy,
        "actions_per_second": len(every) / busy,
        "latency": latency_summary(every),
        "latency_by_kind": {kind: latency_summary(values) for kind, values in sorted(by_kind.items())},
        "server_cpu_seconds": server_cpu,
        "server_cpu_percent": 100 * server_cpu / busy,
        "server_peak_rss_mb": peak_rss,
        "shutdown_failure": unclean,  # reported after the figures, and the run fails
        "server_sampled_rss_mb": memory.server_mb,
        "workers_sampled_rss_mb": memory.workers_mb,
        "workers_cpu_seconds": sum(memory.workers_cpu.values()) - workers_cpu_before,
        "computer_tables": [f"{level}:{count}" for level, count in args.computer_tables],
        "hints": args.hints,
        "computer_budget": args.computer_budget,
        "computer": computer_summary(computer),
        "client_cpu_seconds": [fig.cpu for fig in figures],
        "client_cpu_percent": [100 * fig.cpu / busy for fig in figures],
        # Everything else the machine ran meanwhile: if it is large, other work disturbed the figures.
        "generators_cpu_percent": 100 * generators_cpu / span,
        "other_cpu_percent": 100 * max(0.0, machine_cpu - server_cpu - sum(fig.cpu for fig in figures) - generators_cpu
                                       - (sum(memory.workers_cpu.values()) - workers_cpu_before)) / span,
        "states_received": states,
        "state_mean_bytes": sum(fig.state_bytes for fig in figures) / max(1, states),
        "code": code_version(),
        "machine": platform.machine(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpus": os.cpu_count(),
        "server_command": shlex.join(["python3", "-m", "piquet", "serve", "--port", "P", "--db", "TMPFILE"]),
        "command": shlex.join(["python", *sys.argv]),
    }


def attack_costs(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Each distributed attack asked for (the flood, the slow connections) alone for ``--attack-costs`` seconds,
    against a server of its own holding the rooms, not played (the flooders' targets): the server's CPU time by unit
    of the attack (a frame answered, a connection opened), a figure other work on the machine disturbs less than a
    latency."""
    context = multiprocessing.get_context("spawn")
    extra = ["--max-connections", str(args.max_connections)] if args.max_connections else []
    costs = []
    for name, flooders, slow in (("flood", args.distributed_flood, 0), ("slow connections", 0, args.slow_connections)):
        if not flooders and not slow:
            continue
        with tempfile.TemporaryDirectory(prefix="piquet-load-") as directory:
            server = Server(Path(directory), free_port(), extra, args.server_nice)
            process = None
            try:
                server.wait_ready()
                targets = []
                for i in range(args.games):
                    table_id, _host, _guest, spectate = create_room(server.port, args.variant, f"Host {i}",
                                                                    source_address(i))
                    targets.append((table_id, spectate))
                ready: Queue[str] = context.Queue()
                results: Queue[dict[str, Any]] = context.Queue()
                go, stop = context.Event(), context.Event()
                process = context.Process(target=distributed_process, name="load-attack-cost",
                                          args=(server.port, targets, flooders, slow, 0, 0.0, args.timeout, ready,
                                                go, stop, results))
                process.start()
                pin(process, generators_cpus(args.pin_generators))
                if ready.get(timeout=args.timeout + 120) != "ready":
                    raise LoadError(f"the {name} could not start")
                assert process.pid is not None
                cpu, attacker_cpu, began = server.cpu_seconds(), cpu_of(process.pid), time.monotonic()
                go.set()
                time.sleep(args.attack_costs)
                server.check_alive()
                cpu, span = server.cpu_seconds() - cpu, time.monotonic() - began
                attacker_cpu = cpu_of(process.pid) - attacker_cpu
                stop.set()
                figures = DistributedFigures(**results.get(timeout=args.timeout + 60))
                process.join(timeout=30)
            finally:
                if process is not None and process.is_alive():
                    process.kill()
                server.stop()
        if figures.failures:
            raise LoadError(f"the {name} alone: {figures.failures[0]}")
        units = figures.flood_reply_errors if flooders else figures.slow_opened
        costs.append({"attack": name, "seconds": span, "server_cpu_seconds": cpu,
                      "server_cpu_percent": 100 * cpu / span,
                      "attacker_cpu_percent": 100 * attacker_cpu / span,
                      "unit": "frame answered" if flooders else "connection opened", "units": units,
                      "server_cpu_us_per_unit": 1e6 * cpu / max(1, units),
                      "figures": distributed_summary(figures)})
    return costs


def report_costs(costs: list[dict[str, Any]]) -> None:
    for c in costs:
        f = c["figures"]
        detail = (f"{f['flood_frames']:,} frames written, {f['flood_reply_errors']:,} answered (an error each), "
                  f"{f['flood_closed']} closed" if c["attack"] == "flood" else
                  f"{f['slow_opened']:,} opened: {f['slow_refused']:,} refused 503, {f['slow_closed']:,} closed by the "
                  "server (timed out, or to make room)")
        print(f"{c['attack']} alone, {c['seconds']:.0f} s: server CPU {c['server_cpu_seconds']:.2f} s "
              f"({c['server_cpu_percent']:.0f}% of one core), {c['server_cpu_us_per_unit']:.0f} us a "
              f"{c['unit']}; {detail}; the attackers {c['attacker_cpu_percent']:.0f}% of one core")


def distributed_summary(figures: DistributedFigures) -> dict[str, Any]:
    out: dict[str, Any] = {k: v for k, v in asdict(figures).items()
                           if k not in ("visit_pages", "visit_sockets", "visit_failures", "failures")}
    out["visit_pages"] = latency_summary(figures.visit_pages)
    out["visit_sockets"] = latency_summary(figures.visit_sockets)
    out["visit_failures"] = len(figures.visit_failures)
    out["visit_failure_examples"] = figures.visit_failures[:5]
    return out


def code_version() -> str | None:
    """The commit of the piquet checkout served, marked if ``piquet/`` has changes not committed."""
    root = ROOT
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "piquet"], capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return commit + (" with changes not committed" if dirty else "")


def report(figures: dict[str, Any]) -> None:
    lat = figures["latency"]
    deals = f"{figures['deals']} deal(s) each" if figures["deals"] is not None else "whole parties"
    think = f"{figures['think_seconds']:g} s on average" if figures["think_seconds"] else "none"
    print(f"{figures['games']} {figures['variant']} rooms at once ({deals}), "
          f"{figures['client_processes']} client process(es), thinking time {think}; compression "
          + ("not offered" if not figures["compression_offered"] else
             "offered, " + ("accepted" if figures["compression_accepted"] else "refused by the server")))
    print(f"games in parallel: {figures['games']}, games finished: {figures['games_finished']}")
    print(f"actions: {figures['actions']} in {figures['busy_seconds']:.1f} s busy: "
          f"{figures['actions_per_second']:.0f} actions per second ({figures['actions_stored']} stored, "
          "the cuts and deals included)")
    print(f"acknowledgement latency: p50 {lat['p50_ms']:.1f} ms, p90 {lat['p90_ms']:.1f} ms, "
          f"p99 {lat['p99_ms']:.1f} ms, max {lat['max_ms']:.1f} ms")
    for kind, s in figures["latency_by_kind"].items():
        print(f"  {kind:>13}: {s['count']:6d} actions, p50 {s['p50_ms']:6.1f} ms, p99 {s['p99_ms']:6.1f} ms, "
              f"max {s['max_ms']:6.1f} ms")
    rss = figures["server_peak_rss_mb"]
    print(f"server CPU: {figures['server_cpu_seconds']:.1f} s, {figures['server_cpu_percent']:.0f}% of one core "
          f"over the busy period" + (f"; peak RSS {rss:.0f} MB" if rss is not None else ""))
    if figures["computer_tables"]:
        print(f"computer tables: {', '.join(figures['computer_tables'])} (level:tables), "
              f"{'a hint asked before each decision' if figures['hints'] else 'no hints'}; "
              f"{figures['computer']['parties_finished']} parties finished")
        for level, s in figures["computer"]["by_level"].items():
            for what, label in (("replies", "replies"), ("gaps", "move after the state before it"),
                                ("hints", "hints")):
                t = s[what]
                if t["count"]:
                    print(f"  level {level} {label}: {t['count']:5d}, p50 {t['p50_ms']:7.1f} ms, "
                          f"p99 {t['p99_ms']:7.1f} ms, max {t['max_ms']:7.1f} ms")
            if s["hints_refused_busy"]:
                print(f"  level {level} hints refused busy: {s['hints_refused_busy']}")
        if figures["computer"]["tables_refused"]:
            print(f"  new tables refused by the limit by address (the partie waited): "
                  f"{figures['computer']['tables_refused']}")
    print(f"memory sampled each second: server {figures['server_sampled_rss_mb']:.0f} MB, the processes it "
          f"started {figures['workers_sampled_rss_mb']:.0f} MB (peak of the sum); their CPU "
          f"{figures['workers_cpu_seconds']:.1f} s")
    clients = ", ".join(f"{c:.1f} s ({p:.0f}%)" for c, p in zip(figures["client_cpu_seconds"],
                                                               figures["client_cpu_percent"], strict=True))
    print(f"client CPU per process: {clients} of one core")
    print(f"the computer tables' players and the attackers: {figures['generators_cpu_percent']:.0f}% of one core")
    other = figures["other_cpu_percent"]
    warning = " (other work shared the machine: the figures are disturbed)" if other > 15 else ""
    print(f"other processes' CPU meanwhile: {other:.0f}% of one core{warning}")
    print(f"state messages received: {figures['states_received']}, {figures['state_mean_bytes'] / 1024:.1f} KiB "
          "on average (as JSON text)")
    attack = figures["attack"]
    if attack["flood"] or attack["slow_readers"] or attack["thinking_tables"]:
        print(f"attacks: flood {'on' if attack['flood'] else 'off'} ({attack['flood_connections']} connections "
              f"accepted, each sent {FLOOD_BURST // 1024} KiB of 8-byte frames, {attack['flood_closed_4429']} seen "
              f"closed with 4429, {attack['flood_refused']} refused); {attack['slow_readers']} spectators that never "
              f"read; {attack['thinking_tables']} level-5 computer tables ({attack['thinking_actions']} of their "
              "player's actions acknowledged)")
    spread = figures.get("distributed")
    if spread:
        print(f"distributed attacks: {spread['flood_addresses']} flooding addresses ({FLOOD_CONNECTIONS} sockets "
              f"each, {FLOOD_RATE:g} frames a second; {spread['flood_frames']:,} frames written, "
              f"{spread['flood_reply_bytes'] // 1024:,} KiB answered: {spread['flood_reply_errors']:,} errors and "
              f"{spread['flood_reply_states']:,} states of the rooms they watch, "
              f"{spread['flood_reply_state_bytes'] // 1024:,} KiB; {spread['flood_closed']} closed, "
              f"{spread['flood_refused']} refused); {spread['slow_addresses']} addresses of slow connections "
              f"({SLOW_PER_ADDRESS} each: {spread['slow_opened']:,} opened, {spread['slow_closed']:,} closed by the "
              f"server, {spread['slow_refused']:,} refused); {spread['storm_tables']} tables storming hints "
              f"({spread['storm_asked']} asked, {spread['storm_hints']} answered, {spread['storm_busy']} busy, "
              f"{spread['storm_reconnects']} reconnections)")
        pages, sockets = spread["visit_pages"], spread["visit_sockets"]
        if spread["visits"]:
            print(f"  new visitors: {spread['visits']}, {spread['visit_failures']} failed; the page p50 "
                  f"{pages.get('p50_ms', math.nan):.1f} ms, p99 {pages.get('p99_ms', math.nan):.1f} ms; the first "
                  f"state p50 {sockets.get('p50_ms', math.nan):.1f} ms, p99 {sockets.get('p99_ms', math.nan):.1f} ms"
                  + (f" (e.g. {spread['visit_failure_examples'][0]})" if spread["visit_failures"] else ""))
    if figures.get("generators_pinned_to"):
        print(f"the load generators (clients, computer tables' players, attackers) were held to CPU "
              f"{figures['generators_pinned_to'][0]}, the server and its workers free (as if the attackers ran on "
              "machines of their own)")
    if figures.get("server_nice"):
        print(f"the server ran at niceness {figures['server_nice']} (its workers {figures['server_nice'] + 10} and "
              f"{figures['server_nice'] + 15})")
    print(f"machine: {figures['machine']}, {figures['python']}, {figures['cpus']} CPUs; "
          f"piquet at {figures['code'] or 'an unknown commit'}")
    print(f"command: {figures['command']}")


def compare_processes(args: argparse.Namespace) -> None:
    """``--compare-processes``: the load on one process on SQLite, on two on PostgreSQL, and with one killed."""
    if args.flood or args.slow_readers or args.thinking or args.distributed_flood or args.slow_connections \
            or args.hint_storm or args.visitors or args.compare or args.attack_costs:
        raise SystemExit("load: --compare-processes runs the rooms and computer tables alone: no attack, no --compare")
    import load_processes  # beside this file; it imports this module as ``load``

    try:
        runs = load_processes.compare_processes(args)
    except LoadError as e:
        print(f"load: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
    load_processes.report_processes(runs, shlex.join(["python", *sys.argv]))
    if args.json:
        Path(args.json).write_text(json.dumps(runs, indent=2) + "\n", encoding="utf-8")
    for failure in load_processes.failed(runs):
        print(f"load: FAILED: {failure}", file=sys.stderr)
    if load_processes.failed(runs):
        sys.exit(1)


def level_count(text: str) -> tuple[int, int]:
    level, _, count = text.partition(":")
    if not (level.isdigit() and count.isdigit() and 1 <= int(level) <= 5 and int(count) >= 1):
        raise argparse.ArgumentTypeError(f"{text!r} is not LEVEL:N, a level 1-5 and a number of tables")
    return int(level), int(count)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="rooms played at once (default 200)")
    parser.add_argument("--variant", default="rubicon", choices=VARIANT_NAMES)
    parser.add_argument("--deals", type=int, metavar="K",
                        help="stop each game after K deals (default: play the whole partie)")
    parser.add_argument("--clients-processes", type=int, default=1, metavar="P",
                        help="spread the clients over P processes (default 1)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds a game may go without a message before it counts as stalled (default 60)")
    parser.add_argument("--think", type=float, default=0.1, metavar="SECONDS",
                        help="wait a random 0 to 2*SECONDS before each action, like a person (default 0.1: faster "
                             "than any person, within the server's 30 messages a second per connection)")
    parser.add_argument("--no-compression", action="store_true",
                        help="do not offer permessage-deflate (browsers offer it; the server may refuse it)")
    parser.add_argument("--computer-tables", action="append", default=[], type=level_count, metavar="LEVEL:N",
                        help="also N tables against the computer at LEVEL, played at once by a third process "
                             "(may be repeated; 5:4 is the scenario 'level-5 tables thinking')")
    parser.add_argument("--computer-budget", type=float, metavar="SECONDS",
                        help="the computer tables' thinking budget, for their moves and hints (default: the level's)")
    parser.add_argument("--hints", action="store_true",
                        help="the players at the computer's tables ask for a hint before each decision")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    parser.add_argument("--server-log", metavar="FILE", help="append the server's output to FILE")
    attacks = parser.add_argument_group("attacks (another process, from addresses of its own)")
    attacks.add_argument("--flood", action="store_true",
                         help="one client that connects and sends 820 KiB of tiny frames at once, again and again")
    attacks.add_argument("--slow-readers", type=int, default=0, metavar="N",
                         help="N spectators, spread over the rooms, whose sockets never read")
    attacks.add_argument("--thinking", type=int, default=0, metavar="N",
                         help="N tables against the level-5 computer, their player answering at once")
    attacks.add_argument("--distributed-flood", type=int, default=0, metavar="N",
                         help=f"N addresses, each on a network of its own, flooding within their limits: "
                              f"{FLOOD_CONNECTIONS} spectators' sockets sending {FLOOD_RATE:g} frames a second in all")
    attacks.add_argument("--slow-connections", type=int, default=0, metavar="N",
                         help=f"N addresses, each holding {SLOW_PER_ADDRESS} connections that never finish a request")
    attacks.add_argument("--hint-storm", type=int, default=0, metavar="N",
                         help="N tables against the level-5 computer whose player asks a hint at every decision, "
                              "reconnecting to ask again when refused")
    attacks.add_argument("--visitors", type=float, default=0.0, metavar="PER_SECOND",
                         help="new visitors a second, each from a new address: the table's page, then its socket")
    attacks.add_argument("--max-connections", type=int, default=None, metavar="N",
                         help="start the server with --max-connections N (1024 less the server's reserve is the "
                              "cap of a server under the common default limit of 1,024 open files)")
    attacks.add_argument("--server-nice", type=int, default=0, metavar="N",
                         help="start the server at niceness N (e.g. -10, as root): on a machine shared with other "
                              "work, the server as on a machine of its own")
    attacks.add_argument("--pin-generators", action="store_true",
                         help="hold the load generators (clients, computer tables' players, attackers) to the last "
                              "processor, the server free: on a small machine, as if they ran on machines of their "
                              "own (reported)")
    attacks.add_argument("--attack-costs", type=float, default=0.0, metavar="SECONDS",
                         help="then run each distributed attack asked for alone, SECONDS each, against a server "
                              "with the rooms unplayed, and report the server's CPU a frame answered and a "
                              "connection opened")
    parser.add_argument("--compare-processes", action="store_true",
                        help="run the rooms and computer tables three ways: one process on SQLite; two processes "
                             "on one PostgreSQL behind Caddy; the same with one killed partway (its tables move, "
                             "their players reconnect): see benchmarks/load_processes.py")
    parser.add_argument("--kill-after", type=float, metavar="SECONDS",
                        help="with --compare-processes, kill one process SECONDS into the games (default: half the "
                             "busy time of the run before)")
    attacks.add_argument("--compare", action="store_true",
                         help="run the same rooms quiet first (no attack, no computer table), then with the "
                              "attacks and the computer tables asked for, and compare their p99 and memory")
    args = parser.parse_args()
    if args.games < 1 or args.clients_processes < 1 or (args.deals is not None and args.deals < 1):
        parser.error("--games, --deals and --clients-processes are at least 1")
    if args.think < 0 or args.timeout <= 2 * args.think:
        parser.error("--think is at least 0, and --timeout more than twice --think")
    if args.slow_readers < 0 or args.thinking < 0:
        parser.error("--slow-readers and --thinking are at least 0")
    if args.compare_processes:
        compare_processes(args)
        return
    runs: list[dict[str, Any]] = []
    try:
        if args.compare:  # the rooms alone: no attack, no computer table
            quiet = argparse.Namespace(**{**vars(args), "flood": False, "slow_readers": 0, "thinking": 0,
                                          "computer_tables": [], "hints": False, "distributed_flood": 0,
                                          "slow_connections": 0, "hint_storm": 0, "visitors": 0.0})
            runs.append(run(quiet))
            report(runs[-1])
            print()
        runs.append(run(args))
        report(runs[-1])
        costs = attack_costs(args) if args.attack_costs > 0 else []
    except LoadError as e:
        print(f"load: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
    if costs:
        print()
        report_costs(costs)
    if args.compare:
        print()
        print("| Run | Actions | p50 | p90 | p99 | max | Server CPU | Server RSS | Workers' RSS |")
        print("|---|---|---|---|---|---|---|---|---|")
        for label, figures in zip(("quiet", "attacked"), runs, strict=True):
            lat = figures["latency"]
            print(f"| {label} | {figures['actions']:,} | {lat['p50_ms']:.1f} ms | {lat['p90_ms']:.1f} ms | "
                  f"{lat['p99_ms']:.1f} ms | {lat['max_ms']:.1f} ms | {figures['server_cpu_percent']:.0f}% | "
                  f"{figures['server_sampled_rss_mb']:.0f} MB | {figures['workers_sampled_rss_mb']:.0f} MB |")
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": runs, "attack_costs": costs} if costs else
                                              runs if args.compare else runs[0], indent=2) + "\n", encoding="utf-8")
    unclean = [figures["shutdown_failure"] for figures in runs if figures["shutdown_failure"]]
    for failure in unclean:  # after the figures, which are worth having all the same
        print(f"load: FAILED: {failure}", file=sys.stderr)
    if unclean:
        sys.exit(1)

if __name__ == "__main__":
    # benchmarks/load_processes.py imports this file as ``load``: the one module, not a second copy of its classes
    # (a LoadError raised there is this one's).
    sys.modules.setdefault("load", sys.modules["__main__"])
    main()
