"""History: the finished parties a browser's seats played, found in the store by the seat secrets the browser holds.

A browser keeps, for each table it sat at, the table's id and its seat's secret (the table page writes them). The
History page sends those pairs (``POST /api/history``); the store finds each table by its id (its primary key) and
keeps it only if the secret holds one of its seats, so a page is shown only the tables its own seats played, and
a secret that holds no seat (another's, a spectator's, one never given) is dropped without saying which it was.

A partie's History line (who won, by how much, whether the loser was rubiconed, the partie's totals, its deals) is
written to the store when the partie ends (:func:`summary`, :meth:`~piquet.ui.web.store.SQLStore.finish`), so the
page needs no replay. A table whose end was not written (it ended before the store kept results, or the store
could not take the line then) is replayed once, off the event loop, and its line written then; a table found
unfinished is not replayed again by this server process (it writes the line itself if the partie ends here).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypedDict
from urllib.parse import quote

from piquet.engine.language import LANGUAGES, words_in
from piquet.engine.partie import Partie
from piquet.engine.record import action_from_data
from piquet.engine.variants import VARIANTS
from piquet.ui.web.seats import computer_name
from piquet.ui.web.store import AsyncStore, Played, StoreError, StoreUnavailable, TableInfo

__all__ = ["History", "Party", "offline_links", "replayed", "served_links", "summary"]

log = logging.getLogger("piquet.ui.web")

#: A table read from the store to find its result is replayed here, off the event loop, one at a time.
_REPLAY = ThreadPoolExecutor(1, thread_name_prefix="piquet-history")


def summary(partie: Partie) -> dict[str, Any]:
    """A finished partie's History line: the winner's seat (``None``: drawn), the points he scores by the settlement,
    whether the loser was rubiconed (``None`` where the variant plays games, and has no rubicon), the games each won
    (au Cent; else ``None``), each seat's total over the deals, and how many deals were scored."""
    result = partie.result
    assert result is not None, "a partie's History line is written once it is over"
    plays_games = result.games is not None
    return {"winner": result.winner, "points": result.points,
            "rubiconed": None if plays_games else result.rubiconed,
            "games": list(result.games) if result.games is not None else None,
            "totals": list(partie.totals), "deals": len(partie.deal_scores)}


def replayed(info: TableInfo) -> Partie | None:
    """The table's partie, replayed from its stored actions (``None`` for a room whose guest never came)."""
    if any(p is None for p in info.players):
        return None
    names = (info.players[0] or "", info.players[1] or "")
    partie = Partie(names, info.variant, info.options)
    for i, data in enumerate(info.actions):
        partie.push(action_from_data(data, names, f"table {info.id}, action {i}"))
    return partie


class PartyLinks(TypedDict):
    record: str
    replay: str
    review: str
    table: str


def served_links(table_id: str, secret: str, deals: int) -> PartyLinks:
    """A partie's record, replay, review and table on the server (``piquet serve``)."""
    ident, token = quote(table_id, safe=""), quote(secret, safe="")
    return {"record": f"/api/tables/{ident}/record?token={token}",
            "replay": f"/t/{ident}/review?deal=1&deals={deals}&lens=open-hands",
            "review": f"/t/{ident}/review?deal=1&deals={deals}",
            "table": f"/t/{ident}"}


def offline_links(table_id: str, secret: str, deals: int) -> PartyLinks:
    """A partie's replay, review and table in the offline site (pages beside the History page, which finds the seat's
    secret in this browser as the table does); its record has no address there: the page asks the worker for it."""
    ident = quote(table_id, safe="")
    return {"record": "",
            "replay": f"review.html?id={ident}&deal=1&deals={deals}&lens=open-hands",
            "review": f"review.html?id={ident}&deal=1&deals={deals}",
            "table": f"table.html?id={ident}"}


class Party(TypedDict):
    """One finished partie as the History page is sent it (``docs/protocol.md``, "History")."""

    id: str
    variant: str
    title: str
    kind: str
    level: int | None
    seat: int
    players: list[str]
    opponent: str
    created: float
    finished: float
    result: dict[str, Any]
    won: bool | None
    links: PartyLinks


class History:
    """The History of the seats a browser holds. ``store``: the server's store, awaited; ``playing``: the partie of a
    table the server holds in memory (``None`` if it holds none, or its partie has not begun)."""

    def __init__(self, store: AsyncStore, playing: Callable[[str], Partie | None],
                 links: Callable[[str, str, int], PartyLinks] = served_links) -> None:
        self.store = store
        self.playing = playing
        #: Where a partie's record, replay, review and table are: on the server, or in the offline site.
        self.links = links
        #: Tables found unfinished by a replay: not replayed again (the server writes their line when they end).
        self._unfinished: set[str] = set()

    async def parties(self, seats: Sequence[tuple[str, str]], lang: str = "en") -> list[Party]:
        """The finished parties where each ``(table id, seat secret)`` holds a seat, newest first, in ``lang``."""
        if lang not in LANGUAGES:
            raise ValueError(f"lang: {lang[:20]!r} is not a language the server speaks ({', '.join(LANGUAGES)})")
        played = await self.store.played(seats)
        token = {table_id: secret for table_id, secret in seats}
        finished: list[Party] = []
        for table in played:
            result, when = table.result, table.finished
            if result is None:
                result, when = await self._find_result(table)
            if result is not None and when is not None:
                finished.append(self._party(table, result, when, token[table.id], lang))
        finished.sort(key=lambda p: p["finished"], reverse=True)
        return finished

    async def _find_result(self, table: Played) -> tuple[dict[str, Any] | None, float | None]:
        """The result of a table whose end the store does not hold, and when it ended: from its partie in memory
        (it ended here: now), else replayed (once a process; when it ended is not stored, and the day it began
        stands for it); written to the store when found, so the next request reads it."""
        if table.id in self._unfinished:
            return None, None
        partie, when = self.playing(table.id), time.time()
        if partie is None:
            info = await self.store.load(table.id)
            if info is None:
                return None, None
            partie = await asyncio.get_running_loop().run_in_executor(_REPLAY, replayed, info)
            when = info.created
        if partie is None or not partie.is_over:
            self._unfinished.add(table.id)
            return None, None
        result = summary(partie)
        try:
            await self.store.finish(table.id, when, result)
        except (StoreUnavailable, StoreError) as e:  # shown all the same; written at the next request
            log.warning("table %s: its result could not be written: %s", table.id, e)
        return result, when

    def forget(self, table_id: str) -> None:
        """The table's partie ended here: its line is written (or, if that failed, found again by replaying)."""
        self._unfinished.discard(table_id)

    def _party(self, table: Played, result: dict[str, Any], finished: float, secret: str, lang: str) -> Party:
        words = words_in(lang)
        players = [p or "" for p in table.players]
        if table.computer is not None:
            players[table.computer] = computer_name(lang)
        winner = result.get("winner")
        deals = max(1, int(result.get("deals") or 1))
        return {"id": table.id, "variant": table.variant, "title": words(VARIANTS[table.variant].title),
                "kind": table.kind, "level": table.level, "seat": table.seat, "players": players,
                "opponent": players[1 - table.seat], "created": table.created, "finished": finished,
                "result": result, "won": None if winner is None else winner == table.seat,
                "links": self.links(table.id, secret, deals)}
