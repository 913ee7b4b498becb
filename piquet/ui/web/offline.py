"""The table in the browser, with no server: the Python side of the page's worker (``docs/offline.md``).

The offline site (``piquet site``) runs this module in Pyodide, in a Web Worker: the same
:class:`~piquet.ui.web.tables.Tables` and :class:`~piquet.ui.web.tables.Table` as ``piquet serve``, the same
messages (:func:`piquet.ui.web.session.handle`, ``docs/protocol.md``), with two things of the browser's in place of
the server's: the store is :class:`BrowserStore`, whose tables the worker keeps in IndexedDB, written through after
every change and before the change is acknowledged; and a connection is the page's, its messages carried by
``postMessage`` instead of a WebSocket (:class:`Host`). The computer thinks in the worker, so the page never waits
for it.

Nothing here imports the server's framework: it runs wherever the standard library does.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import hmac
import inspect
import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, get_args

from piquet.coach.review import Lens
from piquet.engine.language import LANGUAGES
from piquet.engine.record import LENSES
from piquet.ui.takebacks import Takeback
from piquet.ui.web import progress
from piquet.ui.web.api_types import CreatedTable
from piquet.ui.web.clients import Client
from piquet.ui.web.errors import Reason
from piquet.ui.web.history import offline_links
from piquet.ui.web.protocol import LinkKind, ProtocolError
from piquet.ui.web.records import refusal, review_of_record
from piquet.ui.web.reviews import ReviewRefused, for_viewer, may_review, review_data, to_review
from piquet.ui.web.seats import SeatRefused
from piquet.ui.web.session import handle
from piquet.ui.web.store import MAX_PLAYED, Listed, Played, StoreError, StoreUnavailable, TableInfo
from piquet.ui.web.tables import Table, Tables
from piquet.ui.web.thinking import Thinker

__all__ = ["BrowserStore", "Host", "info_from_json", "info_to_json"]


def _language(data: object) -> str:
    """The language a request's body names (its ``lang``), if the table speaks it; else English."""
    lang = data.get("lang", "en") if isinstance(data, dict) else "en"
    return lang if isinstance(lang, str) and lang in LANGUAGES else "en"

#: Reads a table's saved JSON text (``None``: no such table); may answer at once or later (a JavaScript promise).
Read = Callable[[str], "Awaitable[str | None] | str | None"]
#: Writes a table's JSON text; may be done at once or later (a JavaScript promise).
Write = Callable[[str, str], "Awaitable[None] | None"]
#: What a finished partie's History line is kept under, before its table's id.
_RESULT = "result:"
#: The key a seat's review by phase is kept under, before the table's id and seat (no table's id begins with it).
_REVIEWED = "reviewed:"
#: Sends a connection an event: ``(connection, "message", text)`` or ``(connection, "close", "code reason")``.
Post = Callable[[int, str, str], None]


def info_to_json(info: TableInfo) -> str:
    """A table as the browser keeps it: its :class:`~piquet.ui.web.store.TableInfo`, every field, as JSON."""
    return json.dumps(dataclasses.asdict(info), separators=(",", ":"))


def info_from_json(text: str) -> TableInfo:
    """The table :func:`info_to_json` wrote; ``StoreError`` naming what is wrong with a record that is not one."""
    try:
        data = json.loads(text)
        return TableInfo(**data)
    except (ValueError, TypeError) as e:
        raise StoreError(f"a table kept in this browser could not be read ({e})") from None


async def _settled(value: Any) -> Any:
    """``value``, awaited if it is to come (a coroutine, or a JavaScript promise under Pyodide)."""
    if inspect.isawaitable(value):
        return await value
    return value


class BrowserStore:
    """An :class:`~piquet.ui.web.store.AsyncStore` that keeps each table whole, as :func:`info_to_json` text, in
    what ``read`` and ``write`` reach (the browser's IndexedDB, from the worker). Each change is written before it
    returns, so the table acknowledges an action only once the browser holds it; the tables read are kept in memory
    too (one page holds one table at a time)."""

    where = "this browser (IndexedDB)"

    def __init__(self, read: Read, write: Write) -> None:
        self._read = read
        self._write = write
        self._tables: dict[str, TableInfo] = {}

    async def _info(self, table_id: str) -> TableInfo:
        info = self._tables.get(table_id)
        if info is None:
            text = await _settled(self._read(table_id))
            if text is None:
                raise StoreError(f"no table {table_id!r}")
            info = self._tables[table_id] = info_from_json(str(text))
        return info

    async def _save(self, info: TableInfo) -> None:
        """Write the table; :class:`StoreUnavailable` if the browser refused (its storage full, or denied): nothing
        is changed, and the player is told the table could not be saved (``not_saved``)."""
        try:
            await _settled(self._write(info.id, info_to_json(info)))
        except Exception as e:  # a JavaScript error under Pyodide, whatever its kind
            raise StoreUnavailable(f"this browser could not keep the table ({e})") from None
        self._tables[info.id] = info

    async def ping(self) -> None:
        return None

    async def create(self, info: TableInfo) -> None:
        if await self.exists(info.id):
            raise StoreError(f"a table {info.id!r} is already stored")
        await self._save(copy.deepcopy(info))

    async def load(self, table_id: str) -> TableInfo | None:
        try:
            return copy.deepcopy(await self._info(table_id))  # the table's own, apart from the store's
        except StoreError:
            if table_id in self._tables:
                raise
            return None

    async def exists(self, table_id: str) -> bool:
        return table_id in self._tables or await _settled(self._read(table_id)) is not None

    async def _change(self, table_id: str, change: Callable[[TableInfo], None]) -> None:
        """Make ``change`` on a copy of the table, and keep it once it is written (a failed write changes nothing)."""
        info = copy.deepcopy(await self._info(table_id))
        change(info)
        await self._save(info)

    async def join(self, table_id: str, seat: int, name: str, token: str) -> None:
        def joined(info: TableInfo) -> None:
            info.players[seat], info.tokens[seat], info.invite = name, token, None
        await self._change(table_id, joined)

    async def set_token(self, table_id: str, seat: int, token: str) -> None:
        def moved(info: TableInfo) -> None:
            info.tokens[seat], info.moves[seat] = token, None
        await self._change(table_id, moved)

    async def set_move(self, table_id: str, seat: int, move: list[Any] | None) -> None:
        def link(info: TableInfo) -> None:
            info.moves[seat] = move
        await self._change(table_id, link)

    async def take_back(self, table_id: str, length: int, takeback: Takeback | None, version: int) -> None:
        def taken(info: TableInfo) -> None:
            del info.actions[length:]
            if takeback is not None:
                info.taken_back.append(takeback)
            info.version = version
        await self._change(table_id, taken)

    async def append(self, table_id: str, index: int, action: dict[str, Any], version: int) -> None:
        def appended(info: TableInfo) -> None:
            if index != len(info.actions):
                raise StoreError(f"table {table_id!r} has {len(info.actions)} actions: action {index} is out of "
                                 "order")
            info.actions.append(action)
            info.version = version
        await self._change(table_id, appended)

    async def finish(self, table_id: str, finished: float, result: dict[str, Any]) -> None:
        """Keep the finished partie's History line beside the table (its key ``result:`` and the table's id, which
        no table's id begins with); a partie ends once, so a line already kept stays."""
        await self._info(table_id)  # StoreError for an unknown table
        key = _RESULT + table_id
        if await _settled(self._read(key)) is not None:
            return
        try:
            await _settled(self._write(key, json.dumps({"finished": finished, "result": result})))
        except Exception as e:  # a JavaScript error under Pyodide, whatever its kind
            raise StoreUnavailable(f"this browser could not keep the partie's result ({e})") from None

    async def played(self, seats: Sequence[tuple[str, str]]) -> list[Played]:
        """The tables where each ``(table id, seat secret)`` holds a seat, with their History lines where kept,
        newest first (as :meth:`piquet.ui.web.store.SQLStore.played`)."""
        if len(seats) > MAX_PLAYED:
            raise ValueError(f"seats: at most {MAX_PLAYED} tables at once, not {len(seats)}")
        found: dict[str, Played] = {}
        for table_id, secret in seats:
            if table_id in found or not await self.exists(table_id):
                continue
            info = await self._info(table_id)
            seat = next((i for i, token in enumerate(info.tokens)
                         if token is not None and hmac.compare_digest(token.encode(), secret.encode())), None)
            if seat is None:
                continue
            kept = await _settled(self._read(_RESULT + table_id))
            line = json.loads(str(kept)) if kept is not None else {}
            found[table_id] = Played(info.id, info.kind, info.variant, info.options, info.level, info.players,
                                     info.computer, seat, info.created, line.get("finished"), line.get("result"))
        return sorted(found.values(), key=lambda p: p.finished or p.created, reverse=True)

    async def reviewed(self, seats: Sequence[tuple[str, int]], method: str) -> dict[tuple[str, int], dict[str, Any]]:
        """The reviews by phase kept for each ``(table id, seat)`` by ``method`` (as
        :meth:`piquet.ui.web.store.SQLStore.reviewed`)."""
        found: dict[tuple[str, int], dict[str, Any]] = {}
        for table_id, seat in seats:
            kept = await _settled(self._read(f"{_REVIEWED}{seat}:{table_id}"))
            line = json.loads(str(kept)) if kept is not None else {}
            if line.get("method") == method:
                found[table_id, seat] = line["summary"]
        return found

    async def keep_review(self, table_id: str, seat: int, method: str, reviewed: float,
                          summary: dict[str, Any]) -> None:
        """Keep a seat's review by phase beside its table (as :meth:`piquet.ui.web.store.SQLStore.keep_review`)."""
        await self._info(table_id)  # StoreError for an unknown table
        line = json.dumps({"method": method, "reviewed": reviewed, "summary": summary})
        try:
            await _settled(self._write(f"{_REVIEWED}{seat}:{table_id}", line))
        except Exception as e:  # a JavaScript error under Pyodide, whatever its kind
            raise StoreUnavailable(f"this browser could not keep the partie's review ({e})") from None

    async def listed(self, since: float, limit: int) -> list[Listed]:
        """No public rooms: the browser holds its own player's tables, and lists none for others to join."""
        return []

    def close(self) -> None:
        self._tables.clear()


class Host:
    """The tables of one page, and its connections to them, numbered by the page: what the worker calls.

    ``post(connection, kind, text)`` sends the page a connection's message (``kind`` ``"message"``: the JSON text of
    a server's message) or its end (``kind`` ``"close"``: the close code and reason, as a WebSocket's, separated by
    a space). The computer thinks in this process, in turn with the rest (``Thinker(workers=0)``).
    """

    def __init__(self, read: Read, write: Write, post: Post) -> None:
        self.store = BrowserStore(read, write)
        self.tables = Tables(self.store, Thinker(workers=0))
        self.tables.history.links = offline_links  # the site's pages, not the server's addresses
        self.post = post
        self._clients: dict[int, tuple[Table, Client]] = {}

    async def create(self, body: str, lang: str = "en") -> str:
        """Create a table against the computer from ``body``, the JSON of ``POST /api/tables``: the answer's JSON
        (``{"id", "token", "links"}``), or ``{"detail": "..."}`` saying what is wrong (nothing is created), in
        ``lang`` (the page's, as ``?lang=`` names it to the server)."""
        lang = lang if lang in LANGUAGES else "en"
        try:
            data = json.loads(body)
        except ValueError as e:
            return json.dumps({"detail": f"body: not JSON ({e})"})
        try:
            if not isinstance(data, dict):
                raise ValueError("body: not a JSON object")
            fields = {"kind", "variant", "options", "level", "name", "takebacks", "budget", "tutor"}
            unknown = sorted(set(data) - fields)
            if unknown:
                raise ValueError(f"body: unknown field {unknown[0]!r}")
            if data.get("kind", "computer") != "computer":
                raise ValueError("kind: a table in this browser is against the computer (playing a friend needs a "
                                 "server: docs/offline.md)")
            name = data.get("name", "Player")
            if not isinstance(name, str) or len(name) > 40:
                raise ValueError("name: a name is a text of at most 40 characters")
            options = data.get("options") or {}
            if not isinstance(options, dict):
                raise ValueError("options: not an object of options")
            table, token = await self.tables.create("computer", data.get("variant", "rubicon"), options,
                                                    data.get("level", 3), name, data.get("takebacks", "fair"),
                                                    data.get("budget"), data.get("tutor"))
        except Reason as e:  # a name it will not take, not saved, ...: in the page's language
            return json.dumps({"detail": e.words(lang)})
        except (ValueError, StoreError) as e:
            return json.dumps({"detail": str(e)})
        links = table.links(0)
        created: CreatedTable = {"id": table.id, "token": token,
                                 "links": {"play": f"table.html?id={table.id}#token={token}", "invite": None,
                                           "spectate": links["spectate"]}}
        return json.dumps(created)

    async def connect(self, number: int, table_id: str, kind: str, secret: str, lang: str = "en") -> None:
        """Open connection ``number`` to ``table_id`` with a link's secret (``kind``: ``token``, ``spectate``,
        ``invite`` or ``move``): the table's state follows, or the connection is closed with the code a WebSocket
        would be (``docs/protocol.md``: 4404 no such table, 4403 no seat, 4400 a language the table does not
        speak)."""
        if lang not in LANGUAGES:
            self.post(number, "close", f"4400 language {lang[:20]!r} is not one the table speaks")
            return
        link = kind if kind in get_args(LinkKind) else "token"
        try:
            table = await self.tables.open(table_id, link, secret)  # type: ignore[arg-type]
            seat, _new = await table.admit(link, secret)  # type: ignore[arg-type]
        except SeatRefused as e:
            self.post(number, "close", f"{e.code} {e.reason}")
            return
        except (ProtocolError, StoreError) as e:
            self.post(number, "close", f"1013 {e}")
            return

        async def send(text: str) -> None:
            self.post(number, "message", text)

        async def hang_up(code: int, reason: str) -> None:
            self.post(number, "close", f"{code} {reason}")

        client = Client(seat, send, hang_up=hang_up, lang=lang, address="browser")
        self._clients[number] = (table, client)
        table.clients.add(client)
        table.welcome(client)
        table.kick()

    async def receive(self, number: int, text: str) -> None:
        """A message of connection ``number`` (``docs/protocol.md``, "Client to server")."""
        found = self._clients.get(number)
        if found is not None:
            await handle(found[0], found[1], text)

    def disconnect(self, number: int) -> None:
        """Connection ``number`` ends (the page closed it)."""
        found = self._clients.pop(number, None)
        if found is not None:
            table, client = found
            client.close()
            table.clients.discard(client)

    def record(self, number: int) -> str | None:
        """The record of connection ``number``'s table once its partie is over (``piquet replay`` reads it), else
        ``None``: before the end it would show the cards still hidden."""
        found = self._clients.get(number)
        if found is None:
            return None
        return found[0].record_text()

    @staticmethod
    def _seats(data: object) -> list[tuple[str, str]]:
        """The ``(table id, seat secret)`` pairs a History request names; ``ValueError`` saying what is wrong."""
        seats = data.get("seats") if isinstance(data, dict) else None
        if not isinstance(seats, list) or len(seats) > MAX_PLAYED:
            raise ValueError(f"seats: a list of at most {MAX_PLAYED} seats, each {{\"table\", \"token\"}}")
        pairs = [(s.get("table"), s.get("token")) for s in seats if isinstance(s, dict)]
        if len(pairs) != len(seats) or not all(isinstance(t, str) and isinstance(k, str) for t, k in pairs):
            raise ValueError("seats: each seat is {\"table\": its id, \"token\": its secret}, both text")
        return [(str(t), str(k)) for t, k in pairs]

    async def history(self, body: str) -> str:
        """The History of the seats this browser holds, as the server answers ``POST /api/history``: ``body`` is
        ``{"seats": [{"table", "token"}...], "lang"}``; the answer's JSON is ``{"parties", "progress": {"groups",
        "svg"}}`` (a secret that holds no seat gives nothing), or ``{"detail"}`` saying what is wrong."""
        try:
            data = json.loads(body)
            seats = self._seats(data)
            parties = await self.tables.history.parties(seats, str(data.get("lang", "en")))
        except ValueError as e:
            return json.dumps({"detail": str(e)})
        rows = progress.groups(parties, str(data.get("lang", "en")))
        return json.dumps({"parties": parties, "progress": {"groups": rows, "svg": progress.svg(rows)}})

    async def record_file(self, body: str) -> str | None:
        """The record of a finished partie kept in this browser, for History's "Record": ``body`` is ``{"table",
        "token"}``; ``None`` unless that secret holds a seat there and the partie is over."""
        try:
            data = json.loads(body)
            table = await self.tables.open(str(data["table"]), "token", str(data["token"]))
            table.seat_of(str(data["token"]))
        except (ValueError, KeyError, TypeError, SeatRefused, ProtocolError, StoreError):
            return None
        return table.record_text()

    def review_record(self, body: str, progress: Callable[[int, int], None] | None = None) -> str:
        """The review of a record file's deal, made here at once (the worker has no other process): ``body`` is the
        JSON of ``POST /api/records/reviews`` (``{"record", "deal", "lens", "lang"}``), ``progress(done, total)`` is
        told as it goes. The answer's JSON: the review done as the server's progress gives it, with the record's
        ``players`` and ``deals``; or ``{"detail", "where", "why"}`` saying what is wrong (nothing is kept)."""
        try:
            data = json.loads(body)
        except ValueError as e:
            return json.dumps({"detail": f"body: not JSON ({e})"})
        try:
            if not isinstance(data, dict) or not isinstance(data.get("record"), str):
                raise ReviewRefused(422, "{field}: the record's text is missing", field="record")
            deal, lens, lang = data.get("deal", 1), data.get("lens", "fair"), data.get("lang", "en")
            if deal is not None and (not isinstance(deal, int) or isinstance(deal, bool)):
                raise ReviewRefused(422, "{field}: a deal is a whole number, not {deal}", field="deal", deal=repr(deal))
            if lang not in LANGUAGES or not isinstance(lens, str):
                raise ReviewRefused(422, "{field}: {lang} is not a language the table speaks", field="lang",
                                    lang=repr(str(lang)[:20]))
            made = review_of_record(data["record"], deal, lens, lang, progress)
        except ReviewRefused as e:
            return json.dumps(refusal(e, _language(data)))
        total = len(made["result"]["decisions"])
        return json.dumps({"id": "", "status": "done", "done": total, "total": total, "players": made["players"],
                           "deals": made["deals"], "result": made["result"]})

    async def review_table(self, body: str, progress: Callable[[int, int], None] | None = None) -> str:
        """The review of a deal of a table kept in this browser, made here at once, as the server's review of a table
        is (``POST /api/tables/{id}/reviews``, the same checks and what the seat may see): ``body`` is ``{"table",
        "token", "deal", "lens", "lang"}``, ``progress(done, total)`` is told as it goes. The answer's JSON: the review
        done as the server's progress gives it, or ``{"detail"}`` saying why not."""
        try:
            data = json.loads(body)
            table_id, secret = str(data["table"]), str(data["token"])
            deal, lens, lang = data.get("deal", 1), str(data.get("lens", "fair")), str(data.get("lang", "en"))
        except (ValueError, KeyError, TypeError) as e:
            return json.dumps({"detail": f"body: not a review's request ({e})"})
        try:
            if lang not in LANGUAGES or lens not in LENSES:
                raise ReviewRefused(422, "{field}: not a language the table speaks, or not a lens", field="lang, lens")
            if deal is not None and (not isinstance(deal, int) or isinstance(deal, bool)):
                raise ReviewRefused(422, "{field}: a deal is a whole number, not {deal}", field="deal", deal=repr(deal))
            try:
                table = await self.tables.open(table_id, "token", secret)
                seat = table.seat_of(secret)
            except (SeatRefused, KeyError, StoreError):
                raise ReviewRefused(403, "this browser holds no seat at that table") from None
            partie = may_review(table.partie, seat, lens)
            a, b = table.shown_players(lang)
            made = review_data(to_review(partie, deal), deal, Lens(lens), progress, lang, (a or "", b or ""))
            shown = for_viewer(made, seat, partie.is_over)
        except ReviewRefused as e:
            return json.dumps(refusal(e, _language(data)))
        total = len(shown["decisions"])
        return json.dumps({"id": "", "status": "done", "done": total, "total": total, "seat": seat, "result": shown})

    async def idle(self) -> None:
        """Wait until nothing at the tables moves (the computer's moves played): for tests under CPython."""
        for table in list(self.tables._tables.values()):
            while table._driver is not None and not table._driver.done():
                await asyncio.sleep(0)
                await asyncio.wait([table._driver])

