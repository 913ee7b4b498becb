"""``benchmarks/load.py --compare-processes``: one load, three ways of serving it, in one run.

(a) one ``piquet serve`` process on SQLite, the clients straight at it (``load.run``, as without the option), and
    one process on PostgreSQL, the clients straight at it (what the store costs, without the proxy);
(b) two processes on one PostgreSQL behind Caddy with ``deploy/Caddyfile`` as it is (routing by table id), every
    client through the proxy; (c) the same two processes with new rooms, one process killed (SIGKILL) partway
    (``--kill-after``, by default half of (b)'s busy time): its tables move to the other, and their players connect
    again through the proxy as the page does (``load.PageSocket``: the page's delays, the seat's secret; an action
    the killed process did not store is answered again, its latency counted from the first time it was sent).

The same rooms (``--games``, ``--deals``, ``--think``) and computer tables (``--computer-tables``) each time, new
tables each time. Reported for each: actions per second, the rooms' acknowledgement p50/p90/p99/max, the computer
tables' replies, errors, the CPU of the servers, of PostgreSQL and of Caddy; for (c) apart, the actions held up by
the kill (sent or acknowledged between the kill and the last socket's first state after it), the reconnections and
the outages (from a socket's close to the first message on the new one), and that every action a client saw
acknowledged is in the store. PostgreSQL and Caddy are started as the tests start them (``tools/servers.py``): a
throwaway cluster on a unix socket, fsync off (a server's commits cost less than on a real disk).
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import queue
import signal
import sys
import tempfile
import time
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

from load import (
    RECONNECT_DELAYS,
    ROOT,
    ComputerFigures,
    Figures,
    LoadError,
    Room,
    Server,
    client_process,
    computer_process,
    computer_summary,
    cpu_of,
    create_room,
    free_port,
    latency_summary,
    machine_cpu_seconds,
    process_tree,
    raise_file_limit,
    run,
    source_address,
)

sys.path.append(str(ROOT / "tools"))
from servers import Cluster, Unavailable, start_caddy  # tools/ is not a package

from piquet.ui.web.owners import lock_key


class TreeCpu:
    """The CPU time of processes and their descendants, sampled (a process that ends keeps its last sample)."""

    def __init__(self, roots: list[int]) -> None:
        self.roots = roots
        self.seen: dict[int, float] = {}
        self.sample()
        self.before = sum(self.seen.values())

    def sample(self) -> None:
        for root in self.roots:
            for pid in process_tree(root):
                self.seen[pid] = max(self.seen.get(pid, 0.0), cpu_of(pid))

    def since(self) -> float:
        self.sample()
        return sum(self.seen.values()) - self.before


def postmaster(cluster: Cluster) -> int:
    return int((cluster.data / "postmaster.pid").read_text().split()[0])


def store_check(url: str, acknowledged: dict[str, int]) -> tuple[int, list[str]]:
    """The actions the store holds for the rooms, and the rooms whose stored version is below what a client saw
    acknowledged (an acknowledged action lost)."""
    import psycopg

    with psycopg.connect(url) as connection:
        ids = list(acknowledged)
        rows = connection.execute("SELECT id, version FROM tables WHERE id = ANY(%s)", (ids,)).fetchall()
        versions: dict[str, int] = {str(room): int(version) for room, version in rows}
        counted = connection.execute("SELECT COUNT(*) FROM actions WHERE table_id = ANY(%s)", (ids,)).fetchone()
    actions = counted[0] if counted is not None else 0
    lost = [f"{room}: {versions.get(room)} stored, {seen} acknowledged" for room, seen in acknowledged.items()
            if versions.get(room, -1) < seen]
    return int(actions), lost


def busiest(url: str, servers: list[Server], table_ids: list[str]) -> Server:
    """The server whose process holds the most of ``table_ids`` (the advisory locks' holders, as ``docs/deploy.md``
    asks them): the one to kill, so that the kill moves tables whatever the hash gave each."""
    import psycopg

    keys = {((key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF) for key in map(lock_key, table_ids)}
    with psycopg.connect(url) as connection:
        rows = connection.execute(
            "SELECT l.classid, l.objid, a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1").fetchall()
    held = [str(name) for classid, objid, name in rows if (int(classid), int(objid)) in keys]
    return max(servers, key=lambda s: sum(name.endswith(f" {s.process.pid}") for name in held))


def club_run(args: argparse.Namespace, label: str, servers: list[Server], port: int, url: str, cluster: Cluster,
             proxy: int | None, kill_after: float | None) -> dict[str, Any]:
    """The load against ``servers`` on ``port`` (Caddy's, whose process is ``proxy``, or the one server's), new rooms;
    ``kill_after``: SIGKILL, that many seconds into the games, the server holding the most rooms."""
    context = multiprocessing.get_context("spawn")
    rooms = []
    for i in range(args.games):
        table_id, host, guest, spectate = create_room(port, args.variant, f"Host {i}", source_address(i))
        rooms.append(Room(i, table_id, (host, guest), source_address(i), spectate))
    ready: Queue[str] = context.Queue()
    results: Queue[dict[str, Any]] = context.Queue()
    computer_results: Queue[dict[str, Any]] = context.Queue()
    go, stop = context.Event(), context.Event()
    helpers: list[multiprocessing.process.BaseProcess] = []
    workers: list[multiprocessing.process.BaseProcess] = []
    figures: list[Figures] = []
    computer = ComputerFigures()
    victim: Server | None = None
    orphans: list[int] = []
    killed_at: float | None = None
    try:
        if args.computer_tables:
            helpers.append(context.Process(target=computer_process, name="load-computer-tables",
                                           args=(port, args.computer_tables, args.hints, args.timeout, args.think,
                                                 go, stop, computer_results, args.computer_budget, True)))
        for k in range(args.clients_processes):
            workers.append(context.Process(target=client_process, name=f"load-clients-{k}",
                                           args=(rooms[k::args.clients_processes], f"ws://127.0.0.1:{port}",
                                                 args.deals, args.timeout, args.think, not args.no_compression,
                                                 ready, go, results, True)))
        for process in helpers + workers:
            process.start()
        for _ in workers:
            try:
                if ready.get(timeout=args.timeout + 120) != "ready":
                    break  # its failure comes with its figures
            except queue.Empty:
                raise LoadError("the clients did not all connect in time") from None
        servers_cpu = TreeCpu([s.process.pid for s in servers])
        database_cpu, proxy_cpu = TreeCpu([postmaster(cluster)]), TreeCpu([proxy] if proxy is not None else [])
        players_cpu = TreeCpu([p.pid for p in helpers if p.pid is not None])  # the computer tables' players
        machine_cpu, began = machine_cpu_seconds(), time.monotonic()
        go.set()
        while len(figures) < len(workers):
            if kill_after is not None and killed_at is None and time.monotonic() - began >= kill_after:
                servers_cpu.sample()
                victim = busiest(url, servers, [room.id for room in rooms])
                orphans = process_tree(victim.process.pid)[1:]  # its computer's workers, ended after the run
                victim.process.send_signal(signal.SIGKILL)
                killed_at = time.monotonic()
            try:
                figures.append(Figures(**results.get(timeout=0.2 if killed_at is None and kill_after else 1)))
            except queue.Empty:
                for server in servers:
                    if server is not victim or killed_at is None:
                        server.check_alive()
                if all(not w.is_alive() for w in workers) and results.empty():
                    raise LoadError("a client process died without reporting") from None
            servers_cpu.sample()
            database_cpu.sample()
            proxy_cpu.sample()
            players_cpu.sample()
        span = time.monotonic() - began
        machine = machine_cpu_seconds() - machine_cpu
        players = players_cpu.since()
        cpu = {"servers": servers_cpu.since(), "postgresql": database_cpu.since(), "caddy": proxy_cpu.since()}
        if proxy is None:
            del cpu["caddy"]
        stop.set()
        if args.computer_tables:
            try:
                computer = ComputerFigures(**computer_results.get(timeout=args.timeout + 30))
            except queue.Empty:
                raise LoadError("the computer tables' players did not report") from None
        for process in helpers + workers:
            process.join(timeout=30)
    finally:
        stop.set()
        for process in helpers + workers:
            if process.is_alive():
                process.kill()
        for pid in orphans:  # the killed server's workers, started by this run
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    failures = [f for fig in figures for f in fig.failures] + computer.failures
    acknowledged = {room: version for fig in figures for room, version in fig.acknowledged.items()}
    stored, lost = store_check(url, acknowledged)
    spans = [span_ for fig in figures for span_ in fig.spans]
    windows = [o for fig in figures for o in fig.outages]
    outages = [back - closed for closed, back, _ in windows]
    waits = [waited for _, _, waited in windows]
    every = [v for fig in figures for values in fig.latencies.values() for v in values]
    busy = max(fig.end for fig in figures) - min(fig.start for fig in figures)
    summary: dict[str, Any] = {
        "label": label, "actions": len(every), "busy_seconds": busy, "actions_per_second": len(every) / busy,
        "latency": latency_summary(every), "computer": computer_summary(computer), "errors": len(failures),
        "failures": failures[:10], "actions_stored": stored, "lost": lost,
        "reconnections": sum(fig.reconnections for fig in figures), "outages": latency_summary(outages),
        "outages_less_waits": latency_summary([o - w for o, w in zip(outages, waits, strict=True)]),
        "cpu_percent": {name: 100 * seconds / span for name, seconds in cpu.items()},
        # Everything else the machine ran meanwhile, the load generators (clients, computer tables' players) apart.
        "other_cpu_percent": 100 * max(0.0, machine - sum(cpu.values()) - players - sum(fig.cpu for fig in figures))
        / span, "load_average": os.getloadavg(),
    }
    if killed_at is not None:
        back = max((b for _, b, _ in windows), default=killed_at)  # the last socket's first message after the kill
        held = [acked - sent for sent, acked in spans if acked >= killed_at and sent <= back]
        summary["killed_after_seconds"] = killed_at - began
        summary["window_seconds"] = back - killed_at
        summary["takeover"] = latency_summary(held)
        summary["steady"] = latency_summary([acked - sent for sent, acked in spans
                                             if not (acked >= killed_at and sent <= back)])
    return summary


def sqlite_run(args: argparse.Namespace) -> dict[str, Any]:
    """(a): ``load.run`` as it is, its figures in the comparison's terms."""
    figures = run(args)
    return {"label": "1 process, SQLite", "actions": figures["actions"], "busy_seconds": figures["busy_seconds"],
            "actions_per_second": figures["actions_per_second"], "latency": figures["latency"],
            "computer": figures["computer"], "errors": 0, "failures": [], "actions_stored": figures["actions_stored"],
            "lost": [], "reconnections": 0, "outages": latency_summary([]),
            "outages_less_waits": latency_summary([]),
            "cpu_percent": {"servers": figures["server_cpu_percent"]
                            + 100 * figures["workers_cpu_seconds"] / figures["busy_seconds"]},
            "other_cpu_percent": figures["other_cpu_percent"], "load_average": os.getloadavg(),
            "shutdown_failure": figures["shutdown_failure"]}


def compare_processes(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The three runs: (a), then (b) and (c) on one PostgreSQL and one pair of processes behind one Caddy."""
    raise_file_limit()
    runs = [sqlite_run(args)]
    try:
        cluster = Cluster.create()
    except Unavailable as e:
        raise LoadError(str(e)) from None
    with tempfile.TemporaryDirectory(prefix="piquet-load-club-") as folder:
        directory = Path(folder)
        servers: list[Server] = []
        caddy = None
        try:
            cluster.start()
            url = cluster.new_database()
            # One process on PostgreSQL, the clients straight at it: what the store costs, without the proxy.
            alone = Server(directory, free_port(), db=url, name="server-alone")
            try:
                alone.wait_ready(60)
                runs.append(club_run(args, "1 process, PostgreSQL", [alone], alone.port, url, cluster, None, None))
            finally:
                alone.stop()
            for i in range(2):
                servers.append(Server(directory, free_port(), ["--trust-proxy", "127.0.0.1"], db=url,
                                      name=f"server-{i}"))
            for server in servers:
                server.wait_ready(60)
            for attempt in range(3):  # a port found free may be taken before Caddy listens on it (on every address)
                port = free_port()
                try:
                    caddy = start_caddy(directory, port, [s.port for s in servers])
                    break
                except Unavailable as e:
                    raise LoadError(str(e)) from None
                except RuntimeError as e:
                    if "address already in use" not in str(e) or attempt == 2:
                        raise LoadError(str(e)) from None
            assert caddy is not None  # started, or the loop raised
            runs.append(club_run(args, "2 processes, PostgreSQL, Caddy", servers, port, url, cluster, caddy.pid,
                                 None))
            kill_after = args.kill_after if args.kill_after is not None else runs[-1]["busy_seconds"] / 2
            runs.append(club_run(args, "the same, one killed", servers, port, url, cluster, caddy.pid, kill_after))
        finally:
            if caddy is not None:
                caddy.kill()  # at once: a terminated Caddy waits for the sockets still open
                caddy.wait(30)
            for server in servers:
                server.stop()
            cluster.remove()
            if args.server_log:
                with open(args.server_log, "ab") as out:
                    for log in sorted(directory.glob("*.log")):
                        out.write(log.read_bytes())
    return runs


def report_processes(runs: list[dict[str, Any]], command: str) -> None:
    print("| Run | Actions | Actions/s | p50 | p90 | p99 | max | Level-5 replies p50 / p99 | Errors | CPU: servers, "
          "PostgreSQL, Caddy, other |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for figures in runs:
        lat = figures["latency"]
        replies = figures["computer"]["by_level"].get("5", {}).get("replies", {"count": 0})
        level5 = (f"{replies['count']}: {replies['p50_ms']:.0f} / {replies['p99_ms']:.0f} ms" if replies["count"]
                  else "none")
        cpu = ", ".join(f"{v:.0f}%" for v in figures["cpu_percent"].values())
        print(f"| {figures['label']} | {figures['actions']:,} | {figures['actions_per_second']:.0f} | "
              f"{lat['p50_ms']:.1f} ms | {lat['p90_ms']:.1f} ms | {lat['p99_ms']:.1f} ms | {lat['max_ms']:.1f} ms | "
              f"{level5} | {figures['errors']} | {cpu}, {figures['other_cpu_percent']:.0f}% |")
    for figures in runs:
        if "takeover" not in figures:
            continue
        held, steady, outages = figures["takeover"], figures["steady"], figures["outages"]
        rest = figures["outages_less_waits"]
        print(f"{figures['label']}: killed {figures['killed_after_seconds']:.1f} s into the games; "
              f"{figures['reconnections']} reconnections, a table unavailable p50 {outages.get('p50_ms', 0):.0f} ms, "
              f"max {outages.get('max_ms', 0):.0f} ms; less the page's waits before connecting again "
              f"({RECONNECT_DELAYS[0]:g}-{RECONNECT_DELAYS[0] * 1.25:g} s the first): "
              f"p50 {rest.get('p50_ms', 0):.0f} ms, max {rest.get('max_ms', 0):.0f} ms")
        if held["count"]:
            print(f"  the {held['count']} actions in the takeover window ({figures['window_seconds']:.1f} s): "
                  f"p50 {held['p50_ms']:.0f} ms, p99 {held['p99_ms']:.0f} ms, max {held['max_ms']:.0f} ms; the "
                  f"{steady['count']} others: p50 {steady['p50_ms']:.1f} ms, p99 {steady['p99_ms']:.1f} ms")
        print(f"  acknowledged actions lost: {len(figures['lost'])}"
              + (f" ({'; '.join(figures['lost'][:3])})" if figures["lost"] else "")
              + f"; {figures['actions_stored']:,} actions stored for the rooms")
    for figures in runs:
        for failure in figures["failures"][:3]:
            print(f"{figures['label']}: error: {failure}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in runs[-1]['load_average'])}; "
          f"{os.cpu_count()} CPUs")
    print(f"command: {command}")


def failed(runs: list[dict[str, Any]]) -> list[str]:
    """Why the comparison fails, if it does: errors, an acknowledged action lost, a server not shut down cleanly."""
    out = []
    for figures in runs:
        if figures["errors"]:
            out.append(f"{figures['label']}: {figures['errors']} error(s)")
        if figures["lost"]:
            out.append(f"{figures['label']}: {len(figures['lost'])} room(s) lost an acknowledged action")
        if figures.get("shutdown_failure"):
            out.append(figures["shutdown_failure"])
    return out

