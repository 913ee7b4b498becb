"""The arena's tasks on a Ray cluster: ``piquet arena --ray [ADDRESS]``.

Each mirrored deal is one Ray task running :func:`piquet.measure.arena.run_task`, the function the
process pool runs, on the same :class:`~piquet.measure.arena.Task`: the agents are made by name on
the worker and every seed comes from the task, so a deal's result is the same on a cluster as
on this machine. Ray is imported here only (``pip install 'piquet[research]'``); how to run on
a cluster: docs/players.md, "Many machines".
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import piquet
from piquet.measure.arena import Sample, Task

__all__ = ["RayMissingError", "RayPool", "RayUnreachableError"]


class RayMissingError(ImportError):
    """Ray is not installed."""


class RayUnreachableError(RuntimeError):
    """The Ray cluster named could not be joined (or a local one started)."""


def _runtime_env(address: str) -> dict[str, Any]:
    """What the workers need to import this piquet: on a cluster started here, the directory
    this package is in on their path; on another cluster, the package itself, shipped with the job
    (so that every node plays with the driver's code)."""
    package = os.path.dirname(os.path.abspath(piquet.__file__))
    if address == "local":
        root = os.path.dirname(package)
        path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
        return {"env_vars": {"PYTHONPATH": path}}
    return {"py_modules": [package]}


def _check_reachable(address: str, timeout: float = 10.0) -> None:
    """Fail at once, naming the address, when nothing answers there: Ray itself would retry for
    ever. (``auto`` and ``local`` name no host: Ray finds, or starts, the cluster itself.)

    >>> _check_reachable("local")
    """
    if address in ("local", "auto"):
        return
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        raise RayUnreachableError(f"--ray takes auto, HOST:PORT or ray://HOST:PORT, not {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise RayUnreachableError(f"cannot join the Ray cluster at {address!r}: nothing answers there ({e})") from e


class RayPool:
    """The :class:`piquet.measure.arena.Pool` that hands the tasks to Ray.

    ``address`` is ``"local"`` (start Ray on this machine, and shut it down at the end), ``"auto"``
    (the cluster this machine belongs to) or a cluster's address (``ray://host:10001`` or
    ``host:6379``). A Ray this process has already started is used as it is, and left running.
    """

    def __init__(self, address: str = "local") -> None:
        try:
            import ray
            from ray.exceptions import NodeDiedError, WorkerCrashedError
        except ImportError as e:
            raise RayMissingError(f"the arena's Ray backend needs Ray: pip install 'piquet[research]' ({e})") from e
        self._ray: Any = ray  # Ray's own annotations are partial
        self.started = not ray.is_initialized()
        if self.started:
            _check_reachable(address)
            local = {"include_dashboard": False} if address == "local" else {}
            try:
                self._ray.init(address=address, runtime_env=_runtime_env(address), logging_level=logging.WARNING,
                               log_to_driver=False, **local)
            except (ConnectionError, RuntimeError, ValueError) as e:
                where = "start Ray on this machine" if address == "local" else f"join the Ray cluster at {address!r}"
                raise RayUnreachableError(f"cannot {where}: {e}") from e
        self.cpus = max(1, int(self._ray.cluster_resources().get("CPU", 1)))
        #: The errors that mean a worker died rather than a game failed.
        self.died: tuple[type[BaseException], ...] = (WorkerCrashedError, NodeDiedError)
        self._remote: dict[Callable[[Task], Sample], Any] = {}
        self._refs: list[Any] = []

    def submit(self, fn: Callable[[Task], Sample], task: Task, /) -> Future[Sample]:
        if fn not in self._remote:
            self._remote[fn] = self._ray.remote(fn)
        ref = self._remote[fn].remote(task)
        self._refs.append(ref)
        future: Future[Sample] = ref.future()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures and self._refs:  # the tasks not yet finished (a test that has decided)
            ready, _ = self._ray.wait(self._refs, num_returns=len(self._refs), timeout=0)
            done = set(ready)
            for ref in self._refs:
                if ref not in done:
                    self._ray.cancel(ref)
        self._refs.clear()
        if self.started:
            self._ray.shutdown()
