"""Load on ``piquet serve``: many rooms played at once over loopback WebSockets, every action's acknowledgement timed.

Usage::

    python benchmarks/load.py                          # 200 rooms at once, whole parties of Rubicon Piquet
    python benchmarks/load.py --games 50
    python benchmarks/load.py --games 200 --deals 2 --variant auction --json load.json
    python benchmarks/load.py --clients-processes 2    # if one client process is the limit
    python benchmarks/load.py --think 1 --deals 2 --computer-tables 5:4 --hints   # four level-5 tables thinking

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
a new partie when one ends, until the rooms are done. Reported beside the rooms' latency: for each level, the computer's
reply time (from a player's action to her next prompt: the computer's moves in
between included), the hints' times and how many were refused; and the
resident memory of the server and, apart, of the processes it started (the
computer's workers), sampled every second.

Any ``error`` message, a game with no new state for ``--timeout`` seconds, or
a server that dies, fails the run (non-zero exit).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from websockets.exceptions import ConnectionClosed

VARIANT_NAMES = ("rubicon", "auction", "au-cent")
#: No proxy for loopback requests, whatever the environment says.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class LoadError(RuntimeError):
    """The run failed: an ``error`` message, a stalled game, a closed connection or a dead server."""


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

    def __init__(self, directory: Path, port: int) -> None:
        self.port = port
        self.db = directory / "load.sqlite3"
        self.log_path = directory / "server.log"
        self.command = [sys.executable, "-m", "piquet", "serve", "--port", str(port), "--db", str(self.db)]
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(self.command, stdout=self._log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, cwd=directory)

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


def machine_cpu_seconds() -> float:
    """CPU time used by every process on the machine so far, all cores together (``/proc/stat``)."""
    with open("/proc/stat") as stat:
        ticks = [int(n) for n in stat.readline().split()[1:9]]  # user nice system idle iowait irq softirq steal
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def create_room(base: str, variant: str, name: str) -> tuple[str, str, str]:
    """A new room: its id, the creator's token and the guest's token (from the invite link)."""
    body = json.dumps({"kind": "room", "variant": variant, "options": {}, "name": name}).encode()
    request = urllib.request.Request(f"{base}/api/tables", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with _OPENER.open(request, timeout=30) as answer:
            data = json.load(answer)
    except urllib.error.HTTPError as e:
        raise LoadError(f"POST /api/tables answered {e.code}: {e.read().decode(errors='replace')}") from None
    invite = urllib.parse.urlsplit(data["links"]["invite"])
    guest = urllib.parse.parse_qs(invite.query)["token"][0]
    return data["id"], data["token"], guest


# ---------------------------------------------------------------- the clients
@dataclass
class Room:
    index: int
    id: str
    tokens: tuple[str, str]


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
        return {"play": rng.choice(prompt["cards"])}
    raise LoadError(f"a prompt of an unknown kind: {prompt!r}")


class Seat:
    """One player's client at a room: answers its prompts and times the acknowledgements."""

    def __init__(self, room: Room, seat: int, ws: ClientConnection, figures: Figures, deals: int | None,
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
        try:
            text = await asyncio.wait_for(self.ws.recv(), self.timeout)
        except TimeoutError:
            raise LoadError(f"{self.where(self.newest)}: stalled, no message for {self.timeout:.0f} s") from None
        except ConnectionClosed as e:
            raise LoadError(f"{self.where(self.newest)}: the server closed the connection ({e})") from None
        if isinstance(text, bytes):
            raise LoadError(f"{self.where(self.newest)}: a binary message, not JSON text")
        self.figures.state_bytes += len(text)
        message: dict[str, Any] = json.loads(text)
        if message.get("type") == "error":
            raise LoadError(f"{self.where(self.newest)}: error {message.get('code')}: {message.get('message')}")
        if message.get("type") != "state":
            raise LoadError(f"{self.where(self.newest)}: unexpected message {text[:200]}")
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
        while True:
            state = await self.receive()
            now = time.perf_counter()
            version: int = state["version"]
            if pending is not None and version > pending[0]:
                figures.latencies.setdefault(pending[1], []).append(now - pending[2])
                figures.end = max(figures.end, time.monotonic())
                pending = None
            if version < self.newest:
                continue  # an older state overtaken by a newer one
            self.newest = version
            if self.finished(state):
                break
            prompt = state["prompt"]
            if prompt is None or pending is not None or version <= self.answered:
                continue
            message = json.dumps({"type": "action", "action": choose(prompt, state["view"], self.rng)})
            if self.think:
                await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
            self.answered = version
            pending = (version, prompt["kind"], time.perf_counter())
            await self.ws.send(message)
        if self.seat == 0:
            figures.finished += 1
            figures.final_versions += self.newest
            figures.end = max(figures.end, time.monotonic())
        await self.ws.close()


async def open_seat(url: str, compression: bool, timeout: float) -> ClientConnection:
    ws = await connect(url, compression="deflate" if compression else None, proxy=None, ping_interval=None,
                       open_timeout=timeout, max_size=4 * 1024 * 1024)
    return ws


async def clients(rooms: list[Room], ws_base: str, deals: int | None, timeout: float, think: float,
                  compression: bool, ready: Queue[str], go: Event) -> Figures:
    figures = Figures()
    limit = asyncio.Semaphore(64)  # connect in waves rather than 400 handshakes at once

    async def open_room(room: Room) -> tuple[Seat, Seat]:
        async with limit:
            seats = []
            for seat, token in enumerate(room.tokens):
                ws = await open_seat(f"{ws_base}/ws/{room.id}?token={token}", compression, timeout)
                figures.compressed = figures.compressed or bool(ws.protocol.extensions)
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
                   compression: bool, ready: Queue[str], go: Event, results: Queue[dict[str, Any]]) -> None:
    """One client process's whole life: connect its rooms' seats, wait for the start, play, report."""
    raise_file_limit()
    try:
        figures = asyncio.run(clients(rooms, ws_base, deals, timeout, think, compression, ready, go))
    except Exception as e:  # reported, not lost in a child's traceback
        figures = Figures(failures=[f"client process: {type(e).__name__}: {e}"])
        ready.put("failed")
    results.put(asdict(figures))  # a plain dict: the class is __main__'s in the parent, __mp_main__'s here


# ---------------------------------------------------------------- the scenario "level-5 tables thinking"
@dataclass
class ComputerFigures:
    """What the players at the computer's tables measured, by level."""

    replies: dict[str, list[float]] = field(default_factory=dict)  # level: seconds from an action to the next prompt
    hints: dict[str, list[float]] = field(default_factory=dict)  # level: seconds from asking to the hint
    busy: dict[str, int] = field(default_factory=dict)  # level: hints refused busy
    parties: int = 0
    failures: list[str] = field(default_factory=list)


def create_computer_table(base: str, level: int, name: str) -> tuple[str, str]:
    body = json.dumps({"kind": "computer", "level": level, "name": name}).encode()
    request = urllib.request.Request(f"{base}/api/tables", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with _OPENER.open(request, timeout=30) as answer:
        data = json.load(answer)
    return data["id"], data["token"]


async def computer_player(base: str, ws_base: str, level: int, index: int, hints: bool, timeout: float,
                          think: float, stop: Event, figures: ComputerFigures) -> None:
    """One player against the computer at ``level``: parties one after another until ``stop``."""
    rng = random.Random(f"computer {level}/{index}")
    key = str(level)
    while not stop.is_set():
        table_id, token = await asyncio.to_thread(create_computer_table, base, level, f"Player {level}/{index}")
        async with await open_seat(f"{ws_base}/ws/{table_id}?token={token}", False, timeout) as ws:
            sent: float | None = None  # when the last action went
            asked: tuple[int, float] | None = None  # the version a hint was asked at, when
            answered = -1
            state: dict[str, Any] | None = None
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout)
                except TimeoutError:
                    raise LoadError(f"level-{level} table {table_id}: no message for {timeout:.0f} s") from None
                message: dict[str, Any] = json.loads(text)
                now = time.perf_counter()
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
                    await ws.send(json.dumps({"type": "action", "action": action}))


def computer_process(base: str, ws_base: str, tables: list[tuple[int, int]], hints: bool, timeout: float,
                     think: float, go: Event, stop: Event, results: Queue[dict[str, Any]]) -> None:
    """The players of the computer's tables: start with the rooms, play until the rooms are done, report."""
    figures = ComputerFigures()

    async def everyone() -> None:
        await asyncio.to_thread(go.wait)
        async with asyncio.TaskGroup() as group:
            for level, count in tables:
                for i in range(count):
                    group.create_task(computer_player(base, ws_base, level, i, hints, timeout, think, stop,
                                                      figures))

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
    return {"parties_finished": figures.parties,
            "by_level": {level: {"replies": latency_summary(figures.replies.get(level, [])),
                                 "hints": latency_summary(figures.hints.get(level, [])),
                                 "hints_refused_busy": figures.busy.get(level, 0)} for level in levels}}


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


def stored_actions(db: Path) -> int:
    with contextlib.closing(sqlite3.connect(db)) as connection:
        (count,) = connection.execute("SELECT COUNT(*) FROM actions").fetchone()
    return int(count)


def run(args: argparse.Namespace) -> dict[str, Any]:
    raise_file_limit()
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="piquet-load-") as directory:
        server = Server(Path(directory), free_port())
        figures: list[Figures] = []
        workers: list[multiprocessing.process.BaseProcess] = []
        helpers: list[multiprocessing.process.BaseProcess] = []  # the computer tables' players
        computer = ComputerFigures()
        memory = Memory(server.process.pid)
        try:
            server.wait_ready()
            rooms = []
            for i in range(args.games):
                table_id, host, guest = create_room(server.base, args.variant, f"Host {i}")
                rooms.append(Room(i, table_id, (host, guest)))
            ready: Queue[str] = context.Queue()
            results: Queue[dict[str, Any]] = context.Queue()
            go = context.Event()
            ws_base = f"ws://127.0.0.1:{server.port}"
            stop = context.Event()
            computer_results: Queue[dict[str, Any]] = context.Queue()
            if args.computer_tables:
                process = context.Process(target=computer_process, name="load-computer-tables",
                                          args=(server.base, ws_base, args.computer_tables, args.hints, args.timeout,
                                                args.think, go, stop, computer_results))
                process.start()
                helpers.append(process)
            for k in range(args.clients_processes):
                share = rooms[k::args.clients_processes]
                process = context.Process(target=client_process, name=f"load-clients-{k}",
                                          args=(share, ws_base, args.deals, args.timeout, args.think,
                                                not args.no_compression, ready, go, results))
                process.start()
                workers.append(process)
            for _ in workers:
                try:
                    if ready.get(timeout=args.timeout + 60) != "ready":
                        break  # its failure comes with its figures
                except queue.Empty:
                    raise LoadError("the clients did not all connect in time") from None
            server.check_alive()
            server_cpu = server.cpu_seconds()
            memory.sample()
            workers_cpu_before = sum(memory.workers_cpu.values())
            machine_cpu, began = machine_cpu_seconds(), time.monotonic()
            go.set()
            while len(figures) < len(workers):
                try:
                    figures.append(Figures(**results.get(timeout=1)))
                except queue.Empty:  # keep an eye on the server and the client processes
                    server.check_alive()
                    if all(not w.is_alive() for w in workers) and results.empty():
                        raise LoadError("a client process died without reporting") from None
                memory.sample()
            memory.sample()
            server_cpu = server.cpu_seconds() - server_cpu
            machine_cpu, span = machine_cpu_seconds() - machine_cpu, time.monotonic() - began
            peak_rss = server.peak_rss_mb()
            stop.set()
            if helpers:
                try:
                    computer = ComputerFigures(**computer_results.get(timeout=args.timeout + 30))
                except queue.Empty:
                    raise LoadError("the computer tables' players did not report") from None
            for worker in workers + helpers:
                worker.join(timeout=30)
        finally:
            for worker in workers + helpers:
                if worker.is_alive():
                    worker.kill()
            code = server.stop()
        failures = [f for fig in figures for f in fig.failures] + computer.failures
        if failures:
            shown = "\n  ".join(failures[:10])
            more = f"\n  ... and {len(failures) - 10} more" if len(failures) > 10 else ""
            raise LoadError(f"{len(failures)} failure(s):\n  {shown}{more}\nserver log:\n{server.log_tail()}")
        unclean = None
        if code not in (0, -signal.SIGINT, 128 + signal.SIGINT):
            unclean = f"the server did not shut down cleanly (exit code {code}):\n{server.log_tail()}"
        stored = stored_actions(server.db)
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
        "computer": computer_summary(computer),
        "client_cpu_seconds": [fig.cpu for fig in figures],
        "client_cpu_percent": [100 * fig.cpu / busy for fig in figures],
        # Everything else the machine ran meanwhile: if it is large, other work disturbed the figures.
        "other_cpu_percent": 100 * max(0.0, machine_cpu - server_cpu - sum(fig.cpu for fig in figures)
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


def code_version() -> str | None:
    """The commit of the piquet checkout served, marked if ``piquet/`` has changes not committed."""
    root = Path(__file__).resolve().parent.parent
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
            for what in ("replies", "hints"):
                t = s[what]
                if t["count"]:
                    print(f"  level {level} {what:>7}: {t['count']:5d}, p50 {t['p50_ms']:7.1f} ms, "
                          f"p99 {t['p99_ms']:7.1f} ms, max {t['max_ms']:7.1f} ms")
            if s["hints_refused_busy"]:
                print(f"  level {level} hints refused busy: {s['hints_refused_busy']}")
        print(f"memory sampled each second: server {figures['server_sampled_rss_mb']:.0f} MB, the processes it "
              f"started {figures['workers_sampled_rss_mb']:.0f} MB (peak of the sum); their CPU "
              f"{figures['workers_cpu_seconds']:.1f} s")
    clients = ", ".join(f"{c:.1f} s ({p:.0f}%)" for c, p in zip(figures["client_cpu_seconds"],
                                                               figures["client_cpu_percent"], strict=True))
    print(f"client CPU per process: {clients} of one core")
    other = figures["other_cpu_percent"]
    warning = " (other work shared the machine: the figures are disturbed)" if other > 15 else ""
    print(f"other processes' CPU meanwhile: {other:.0f}% of one core{warning}")
    print(f"state messages received: {figures['states_received']}, {figures['state_mean_bytes'] / 1024:.1f} KiB "
          "on average (as JSON text)")
    print(f"machine: {figures['machine']}, {figures['python']}, {figures['cpus']} CPUs; "
          f"piquet at {figures['code'] or 'an unknown commit'}")
    print(f"command: {figures['command']}")


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
    parser.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                        help="wait a random 0 to 2*SECONDS before each action, like a person (default 0: at once)")
    parser.add_argument("--no-compression", action="store_true",
                        help="do not offer permessage-deflate (browsers offer it; the server may refuse it)")
    parser.add_argument("--computer-tables", action="append", default=[], type=level_count, metavar="LEVEL:N",
                        help="also N tables against the computer at LEVEL, played at once by a third process "
                             "(may be repeated; 5:4 is the scenario 'level-5 tables thinking')")
    parser.add_argument("--hints", action="store_true",
                        help="the players at the computer's tables ask for a hint before each decision")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    args = parser.parse_args()
    if args.games < 1 or args.clients_processes < 1 or (args.deals is not None and args.deals < 1):
        parser.error("--games, --deals and --clients-processes are at least 1")
    if args.think < 0 or args.timeout <= 2 * args.think:
        parser.error("--think is at least 0, and --timeout more than twice --think")
    try:
        figures = run(args)
    except LoadError as e:
        print(f"load: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
    report(figures)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    if figures["shutdown_failure"]:
        print(f"load: FAILED: {figures['shutdown_failure']}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
