"""The server's log of what happens at its tables: one structured line per table event and per error.

Each line names the table, the seat (0 or 1; none for the table as a whole), the action's kind (``Discard``,
``Declaration``...: its class, never its cards), how long it took in milliseconds, and what the event adds (a
version, a variant). Never a secret (a seat's, an invite's, a spectator's, a one-time link's), never a card, never
a player's name: what a line says anyone reading the log may know. ``piquet serve`` writes them to its standard
error as JSON, one object a line (:class:`JSONLines`), for a log collector to read.

>>> import io, logging
>>> out = io.StringIO(); handler = install(logging.StreamHandler(out))
>>> event("action", "Tx3", seat=0, action="Discard", ms=1.234, version=7)
>>> line = json.loads(out.getvalue()); del line["time"]; line
{'level': 'info', 'event': 'action', 'table': 'Tx3', 'seat': 0, 'action': 'Discard', 'ms': 1.23, 'version': 7}
>>> log.removeHandler(handler); log.propagate = True; log.setLevel(logging.NOTSET)
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

__all__ = ["FAULT_BURST", "FAULT_WINDOW", "JSONLines", "event", "install", "log"]

log = logging.getLogger("piquet.events")


#: The most warnings and errors of one event written in :data:`FAULT_WINDOW` seconds (a fault a client can cause
#: again and again cannot flood the log); the rest are counted, and the count is told with the next one written.
FAULT_BURST = 20
FAULT_WINDOW = 60.0
_faults: dict[str, list[float]] = {}  # event: [window start, written, suppressed]


def _fault_allowed(name: str, now: float) -> int | None:
    """``None`` if a fault ``name`` is not to be written now, else how many like it were not written before it."""
    entry = _faults.get(name)
    if entry is None or now - entry[0] >= FAULT_WINDOW:
        suppressed = int(entry[2]) if entry is not None else 0
        entry = _faults[name] = [now, 0, 0]
        entry[1] += 1
        return suppressed
    if entry[1] >= FAULT_BURST:
        entry[2] += 1
        return None
    entry[1] += 1
    return 0


def event(name: str, table: str, *, seat: int | None = None, action: str | None = None, ms: float | None = None,
          severity: int = logging.INFO, **more: str | int | float | bool | None) -> None:
    """Log the event ``name`` of ``table`` (``more``: further fields, plain values only). Warnings and errors are
    limited to :data:`FAULT_BURST` of each event a :data:`FAULT_WINDOW`."""
    if not log.isEnabledFor(severity):
        return
    if severity >= logging.WARNING:
        suppressed = _fault_allowed(name, time.monotonic())
        if suppressed is None:
            return
        more = {**more, "not_logged_before": suppressed or None}
    fields: dict[str, Any] = {"event": name, "table": table}
    if seat is not None:
        fields["seat"] = seat
    if action is not None:
        fields["action"] = action
    if ms is not None:
        fields["ms"] = round(ms, 2)
    fields.update((k, v) for k, v in more.items() if v is not None)
    log.log(severity, "%s", json.dumps(fields, separators=(",", ":")), extra={"fields": fields})


class JSONLines(logging.Formatter):
    """Each record as one JSON object: its time (UTC, ISO 8601), its level, and a table event's fields (any other
    record's logger and message)."""

    def format(self, record: logging.LogRecord) -> str:
        when = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z"
        line: dict[str, Any] = {"time": when, "level": record.levelname.lower()}
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        else:
            line.update(logger=record.name, message=record.getMessage())
        return json.dumps(line, separators=(",", ":"), ensure_ascii=False)


def install(handler: logging.Handler) -> logging.Handler:
    """Write the table events to ``handler`` as :class:`JSONLines` (and only there: they do not reach the root
    logger's handlers too)."""
    handler.setFormatter(JSONLines())
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    return handler
