"""What the web benchmarks share (``history.py``, ``progress.py``, ``lobby.py``): the machine they ran on, the store
they fill (a throwaway SQLite file, or ``--postgres URL``), finished parties stored as the server stores them, and
the History request the page makes, timed. Not a benchmark itself."""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
import uuid
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from piquet.engine.partie import Partie
from piquet.engine.record import action_to_data
from piquet.ui.web.history import summary
from piquet.ui.web.store import SQLStore, TableInfo


def machine() -> str:
    """The machine line every benchmark prints first."""
    return f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def add_store_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL database instead of a SQLite file")


def store_finished(store: SQLStore, parties: Sequence[Partie], count: int, others: int, rng: random.Random,
                   prefix: str, results: bool = True) -> list[tuple[str, str]]:
    """``count`` finished parties of the player (``parties`` over again), stored action by action with their seat
    secrets, and ``others`` of other players (their rows and History lines only: a request never reads their
    actions); each player's History line written when it ended if ``results``, as the server writes it (else the
    first request replays it). The player's seats, in the order of ``parties``."""
    run = uuid.uuid4().hex[:8]
    seats = []
    for n in range(count + others):
        partie = parties[n % len(parties)]
        mine = n < count
        table_id, secret = f"{prefix}-{run}-{n}", uuid.uuid4().hex
        store.create(TableInfo(table_id, "computer", "rubicon", {}, rng.randint(1, 5), ["Ann", "Computer"],
                               [secret, None], "s", 1, created=time.time() - 86_400 + n,
                               actions=[action_to_data(a, partie.players) for a in partie.actions] if mine else [],
                               version=len(partie.actions)))
        if results or not mine:
            store.finish(table_id, time.time() - 86_000 + n, summary(partie))
        if mine:
            seats.append((table_id, secret))
    return seats


def ask_history(app: FastAPI, seats: Sequence[tuple[str, str]]) -> tuple[float, float, Any]:
    """CPU seconds (every thread of the process) and wall seconds of the History request the page makes for
    ``seats``, to ``app`` in FastAPI's test client after a first request apart, and its answer's JSON."""
    body = {"seats": [{"table": t, "token": s} for t, s in seats], "lang": "en"}
    with TestClient(app) as http:
        http.post("/api/history", json={"seats": []})  # the application's first request, apart
        cpu, wall = time.process_time(), time.perf_counter()
        answer = http.post("/api/history", json=body)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    assert answer.status_code == 200 and len(answer.json()["parties"]) == len(seats), answer.text[:200]
    return cpu, wall, answer.json()
