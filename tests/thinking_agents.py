"""Agents the thinking tests hand to worker processes: a worker unpickles an agent by importing its module, so
they live here, apart from the tests (whose module imports FastAPI and the web application) - a fresh worker
then imports the engine alone."""

from __future__ import annotations

import os
import time
from pathlib import Path

from piquet.engine.actions import Action
from piquet.engine.partie import LegalActions
from piquet.engine.view import PlayerView


class WhereAgent:
    """Takes the first legal action and notes the process it decided in."""

    def __init__(self) -> None:
        self.pids: list[int] = []

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        self.pids.append(os.getpid())
        return next(iter(legal))

    def choose_packets(self, view: PlayerView, sizes: tuple[int, ...]) -> int:
        return sizes[0]


class DyingAgent(WhereAgent):
    """Kills the process it decides in (``kill -9``) the first ``times`` times, counted in files of ``folder``."""

    def __init__(self, folder: Path, times: int) -> None:
        super().__init__()
        self.folder = folder
        self.times = times

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        deaths = len(list(self.folder.iterdir()))
        if deaths < self.times:
            (self.folder / str(deaths)).touch()
            os.kill(os.getpid(), 9)
        return super().choose(view, legal)


class WaitingAgent(WhereAgent):
    """Thinks until the file ``until`` exists."""

    def __init__(self, until: Path) -> None:
        super().__init__()
        self.until = until

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        while not self.until.exists():
            time.sleep(0.01)
        return super().choose(view, legal)


class NotingAgent(WhereAgent):
    """Notes its name in the file ``log`` (one line, appended) when it decides, and waits for ``until`` first."""

    def __init__(self, name: str, log: Path, until: Path | None = None) -> None:
        super().__init__()
        self.name = name
        self.log = log
        self.until = until

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        while self.until is not None and not self.until.exists():
            time.sleep(0.01)
        with self.log.open("a") as out:
            out.write(self.name + "\n")
        return super().choose(view, legal)
