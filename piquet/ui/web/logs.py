"""The server's logs kept from flooding (``docs/security.md``, "What is logged"): a kind of record is written a few
times a minute at most, whatever a client makes the server say."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

__all__ = ["LOG_BURST", "LOG_WINDOW", "LogLimit", "install_log_limit", "warning"]

#: The most log records of one kind (one logger, one message template) written in :data:`LOG_WINDOW` seconds; the
#: rest are counted, and the count is told with the next one written.
LOG_BURST = 20
LOG_WINDOW = 60.0


class LogLimit(logging.Filter):
    """Rate-limits log records by logger and message template (a client cannot flood the log), and drops the
    traceback of a record below ERROR unless the logger is at DEBUG."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self._seen: dict[tuple[str, str], list[float]] = {}  # [window start, written, suppressed]

    def spent(self, name: str, msg: str) -> bool:
        """Whether a record of logger ``name`` and template ``msg`` would be dropped now; if so it is counted as
        dropped, and the caller makes none (:func:`warning`: a record costs more than the check, and an attack can
        make the server refuse thousands of connections a second)."""
        entry = self._seen.get((name, msg))
        if entry is None or entry[1] < LOG_BURST or self.clock() - entry[0] >= LOG_WINDOW:
            return False
        entry[2] += 1
        return True

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = self.clock()
        entry = self._seen.get(key)
        if entry is None or now - entry[0] >= LOG_WINDOW:
            if len(self._seen) > 1000:
                self._seen.clear()
            suppressed = entry[2] if entry is not None else 0
            entry = self._seen[key] = [now, 0, 0]
            if suppressed:
                record.msg = f"{record.msg} ({int(suppressed)} more like this in the last {LOG_WINDOW:g} s not logged)"
        if entry[1] >= LOG_BURST:
            entry[2] += 1
            return False
        entry[1] += 1
        if record.exc_info and record.levelno < logging.ERROR and not logging.getLogger(record.name).isEnabledFor(
                logging.DEBUG):
            record.exc_info = None
            record.exc_text = None
        return True


def install_log_limit(names: tuple[str, ...] = ("piquet.ui.web", "uvicorn.error", "asyncio")) -> LogLimit:
    """Put one :class:`LogLimit` on the server's loggers."""
    limit = LogLimit()
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, LogLimit) for f in logger.filters):
            logger.addFilter(limit)
    return limit


def warning(logger: logging.Logger, msg: str, *args: object) -> None:
    """``logger.warning(msg, *args)``, where a client can make the server say it thousands of times a second: no
    record is made once its kind has spent its burst (counted all the same, and told with the next one written)."""
    if not logger.isEnabledFor(logging.WARNING):
        return
    # A logger's own filters are the ones its records meet (not those of the loggers above it).
    if any(isinstance(f, LogLimit) and f.spent(logger.name, msg) for f in logger.filters):
        return
    logger.warning(msg, *args)
