"""The web server of ``piquet serve``: the pages, the JSON API and the tables' WebSockets.

Built on Starlette through FastAPI (typed request bodies, OpenAPI for the JSON
API) and served by uvicorn; the game itself is the engine's, the messages
are :mod:`piquet.ui.web.protocol`'s, the tables :mod:`piquet.ui.web.tables`' and the
store :mod:`piquet.ui.web.store`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, get_args

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, StrictBool, StrictInt, ValidationError

from piquet.engine.language import LANGUAGES
from piquet.engine.variants import VARIANTS, OptionError
from piquet.ui.takebacks import Takebacks
from piquet.ui.web import progress
from piquet.ui.web.api_types import CreatedTable, RematchAnswer, SetupAnswer
from piquet.ui.web.budgets import MAX_BUDGET
from piquet.ui.web.clients import Client
from piquet.ui.web.errors import Reason, said_in
from piquet.ui.web.guide import (
    guide_index_page,
    guide_page,
    no_language_page,
    rules_markup,
    rules_page,
    text_page,
    unknown_guide_page,
)
from piquet.ui.web.limits import TokenBucket, prefix_of
from piquet.ui.web.owners import CLOSE_ELSEWHERE, Owners
from piquet.ui.web.phases import PhaseReviews
from piquet.ui.web.protocol import LinkKind, ProtocolError, TableKind
from piquet.ui.web.records import MAX_RECORD_BYTES, check_room, deals_ended, read_record, record_key, refusal
from piquet.ui.web.reviews import REVIEW_WORKERS, LensName, ReviewRefused, Reviews, for_viewer, may_review
from piquet.ui.web.seats import NOT_PUBLIC, SeatRefused
from piquet.ui.web.session import handle, message_text, setup_answer
from piquet.ui.web.store import MAX_PLAYED, AsyncStore, SQLStore, Store, StoreError, StoreUnavailable, open_store
from piquet.ui.web.tables import Elsewhere, OpenRefused, Table, Tables
from piquet.ui.web.thinking import Thinker

__all__ = ["RedactSecrets", "create_app"]

STATIC = Path(__file__).parent / "static"
#: New tables one address may create a minute, on average, and in a burst; and one network (an IPv4 /24, an IPv6
#: /64: :func:`piquet.ui.web.limits.prefix_of`).
TABLES_PER_MINUTE_PER_ADDRESS = 20.0
TABLE_BURST_PER_ADDRESS = 30.0
TABLES_PER_MINUTE_PER_PREFIX = 60.0
TABLE_BURST_PER_PREFIX = 90.0
#: History requests one address may make a minute, on average, and in a burst; and one network (each reads up to
#: :data:`~piquet.ui.web.store.MAX_PLAYED` tables).
HISTORY_PER_MINUTE_PER_ADDRESS = 30.0
HISTORY_BURST = 30.0
HISTORY_PER_MINUTE_PER_PREFIX = 120.0
HISTORY_BURST_PER_PREFIX = 120.0
#: Records sent for review one address may send a minute, on average, and in a burst; and one network (each is read
#: and replayed by the engine before its review is queued).
RECORDS_PER_MINUTE_PER_ADDRESS = 20.0
RECORD_BURST = 20.0
RECORDS_PER_MINUTE_PER_PREFIX = 60.0
RECORD_BURST_PER_PREFIX = 60.0
#: Requests for the lobby's list one address may make a minute, on average, and in a burst; and one network (each is
#: answered from the list the process keeps: :mod:`piquet.ui.web.lobby`).
LOBBY_PER_MINUTE_PER_ADDRESS = 60.0
LOBBY_BURST = 30.0
LOBBY_PER_MINUTE_PER_PREFIX = 600.0
LOBBY_BURST_PER_PREFIX = 300.0
#: What someone is told who would join a public room whose seat is taken, or whose partie is over.
ROOM_FULL = "room full: this room's second seat is taken (watch it instead)"
ROOM_GONE = "room gone: this room's partie is over"
#: The close code of a client dropped because it did not take its messages in time.
CLOSE_SLOW = 4408
#: Seconds the readiness answer waits for the store before it says the store is not reachable.
READY_TIMEOUT = 2.0

log = logging.getLogger("piquet.ui.web")


class Refused(HTTPException):
    """A request refused with ``status``, its ``detail`` said in the language the request asks for
    (:func:`asked_language`): ``reason`` says why in each language."""

    def __init__(self, status: int, reason: Reason, headers: dict[str, str] | None = None) -> None:
        super().__init__(status, reason.message, headers=headers)
        self.reason = reason


def asked_language(request: Request) -> str:
    """The language a request's answer is said in: the ``lang`` of its body (an endpoint that reads one notes it,
    ``request.state.lang``), else of its query (``?lang=fr``); English for one the server does not speak."""
    lang = getattr(request.state, "lang", None) or request.query_params.get("lang", "en")
    return lang if lang in LANGUAGES else "en"


class AskReview(BaseModel):
    #: The deal to review, counted from 1 (``None``: the whole partie, once it is over).
    deal: StrictInt | None = None
    lens: LensName = "fair"
    #: The language of the review's words (its explanations, the decisions in words): one the server speaks.
    lang: str = "en"


class AskRecordReview(AskReview):
    #: The record's text (docs/record-format.md), as the file holds it.
    record: str
    deal: StrictInt | None = 1


class HeldSeat(BaseModel):
    """A seat a browser holds: the table's id and the seat's secret."""

    table: str = Field(min_length=1, max_length=64)
    token: str = Field(min_length=1, max_length=128)


class AskHistory(BaseModel):
    #: The seats this browser holds (the History page reads them from the browser's storage).
    seats: list[HeldSeat] = Field(max_length=MAX_PLAYED)
    lang: str = "en"


class CreateTable(BaseModel):
    kind: TableKind
    variant: str = "rubicon"
    options: dict[str, StrictBool | StrictInt] = Field(default_factory=dict)
    level: int | None = 3
    name: str = Field(default="Player", max_length=40)
    takebacks: Takebacks = "fair"
    #: CPU seconds the computer and its hints think per decision (None: the level's own); a number, never a string.
    budget: Annotated[float, Field(strict=True, allow_inf_nan=False)] | None = None
    #: The tutor (against the computer): true (the review's "?" mark), a threshold in points, or false/None (none).
    tutor: StrictBool | Annotated[float, Field(strict=True, allow_inf_nan=False)] | None = None
    #: A room listed in the lobby for anyone to join or watch (where the server lists rooms: ``--public-rooms``).
    public: StrictBool = False


class JoinRoom(BaseModel):
    """A public room joined from the lobby: the name its second player plays under."""

    name: str = Field(max_length=40)


#: A secret in a URL's query or fragment (``token=...``), URL-encoded or not, or in JSON (``"token": "..."``).
_SECRET = re.compile(r"""((?:token|spectate|invite|move)(?:=|%3D|["']\s*:\s*["']))[^&\s"'#\\<>]+""",
                     re.IGNORECASE)
#: The loggers that may see a URL or a frame: uvicorn's access log (the path and query of each request),
#: its error log (each WebSocket's path and query; at debug level the frames), the ASGI trace log (each scope).
_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "websockets", "websockets.server",
            "piquet", "piquet.events")


def _redact(value: object) -> object:
    if value is None or isinstance(value, (int, float)):
        return value
    text = value if isinstance(value, str) else str(value)
    clean = _SECRET.sub(r"\1[redacted]", text)
    return value if clean == text else clean


class RedactSecrets(logging.Filter):
    """Blank out seat secrets, invites, one-time links and spectator secrets in a log record, whatever its level:
    a secret in a log is a seat anyone who reads the log can take."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact(a) for a in record.args)
        elif isinstance(record.args, Mapping):
            record.args = {k: _redact(v) for k, v in record.args.items()}
        return True


def redact_secrets_in_logs() -> None:
    """Put :class:`RedactSecrets` on every logger that may see a URL or a WebSocket frame (once)."""
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())


def create_app(db: str | Store | AsyncStore = "piquet.sqlite3", workers: int | None = None,
               max_budget: float = MAX_BUDGET, review_workers: int = REVIEW_WORKERS,
               public_rooms: bool = False) -> FastAPI:
    """The server's application; ``db`` is a SQLite file's path (``":memory:"``), a PostgreSQL URL
    (``postgresql://...``: :func:`~piquet.ui.web.store.open_store`) or any :class:`Store`.
    ``workers``: the computer's worker processes for levels 4-5 and hints (:class:`~piquet.ui.web.thinking.Thinker`;
    ``None``: one per core but one; 0: none, the computer thinks in threads of the server). They start when first
    needed and end when the application shuts down. ``max_budget``: the most CPU seconds a table may give the
    computer for one decision (0: no cap, and a table may ask for no limit). ``review_workers``: the processes that
    review finished deals (:class:`~piquet.ui.web.reviews.Reviews`; 0: a thread of the server). ``public_rooms``:
    whether a room's creator may list it in the lobby, for anyone to join or watch (:mod:`piquet.ui.web.lobby`)."""
    redact_secrets_in_logs()
    if not 0 <= max_budget < math.inf:
        raise ValueError(f"the cap on the computer's thinking is 0 (none) or more seconds, not {max_budget!r}")
    opened = isinstance(db, str)
    store: Store | AsyncStore = open_store(db) if isinstance(db, str) else db
    owners = _owners(db, store)
    thinker = Thinker(workers)
    tables = Tables(store, thinker, max_budget=max_budget, owners=owners)
    reviews = Reviews(review_workers)
    phases = PhaseReviews(tables.store, reviews.in_worker)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        watch = tables.begin()
        try:
            yield
        finally:
            if watch is not None:
                watch.cancel()
            if owners is not None:
                owners.close()
            thinker.close()
            phases.close()
            reviews.close()
            if opened:  # the store this server opened (one given it is its caller's to close)
                store.close()

    # No /docs, /redoc nor /openapi.json: docs/protocol.md documents the API, and the server shows nobody its
    # internals.
    app = FastAPI(title="piquet", summary="Piquet at the table: against the computer, or a friend.",
                  docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.tables = tables
    app.state.reviews = reviews
    app.state.phases = phases
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    rules_html = rules_markup()

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        """Liveness: the server answers (its event loop runs). Nothing is read."""
        return JSONResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        """Readiness: whether the store answers now (503 if not: a proxy or an orchestrator sends no one here)."""
        try:
            await asyncio.wait_for(tables.store.ping(), READY_TIMEOUT)
        except (StoreUnavailable, TimeoutError) as e:
            log.warning("not ready: the store does not answer (%s)", e or "no answer in time")
            return JSONResponse({"status": "unavailable", "store": "unreachable"}, status_code=503,
                                headers={"Cache-Control": "no-store"})
        return JSONResponse({"status": "ok", "store": "ok"}, headers={"Cache-Control": "no-store"})

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def table_file(table_id: str, name: str) -> Response:
        """The page ``name`` of a table (the table's page, its review), or a page saying there is no such table (the
        table's row is looked for; nothing is replayed)."""
        if not await tables.exists(table_id):
            return HTMLResponse(text_page("No such table", "<h1>No such table</h1><p>This link holds no table "
                                      "on this server. <a href='/'>Start a new one</a>.</p>"), status_code=404)
        return FileResponse(STATIC / name)

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return await table_file(table_id, "table.html")

    @app.get("/rules", include_in_schema=False)
    async def rules() -> HTMLResponse:
        return HTMLResponse(text_page(*rules_page(rules_html)))

    @app.get("/rules/{variant}", include_in_schema=False)
    async def rules_of(variant: str) -> HTMLResponse:
        if variant not in VARIANTS:
            raise HTTPException(404, f"unknown variant {variant!r}")
        return HTMLResponse(text_page(*rules_page(rules_html, variant)))

    # The guides are made once a process, at their first visit (guide_page and guide_index_page keep them).
    def no_language(lang: str) -> HTMLResponse:
        return HTMLResponse(no_language_page(lang), status_code=400)

    @app.get("/guide", include_in_schema=False)
    async def guide_index(lang: str = "en") -> HTMLResponse:
        """The guides' index, in ``lang`` (``?lang=fr``)."""
        return HTMLResponse(guide_index_page(lang)) if lang in LANGUAGES else no_language(lang)

    @app.get("/guide/{variant}", include_in_schema=False)
    async def guide_of(variant: str, lang: str = "en") -> HTMLResponse:
        """A variant's guide, in ``lang`` (``?lang=fr``)."""
        if lang not in LANGUAGES:
            return no_language(lang)
        if variant not in VARIANTS:
            return HTMLResponse(unknown_guide_page(variant, lang), status_code=404)
        return HTMLResponse(guide_page(variant, lang))

    # response_model=None: the answer's type is the protocol's TypedDict, not a model FastAPI should build.
    @app.get("/api/setup", response_model=None)
    async def setup(lang: str = "en") -> SetupAnswer:
        """The variants, their rule options, the computer's levels and the thinking time a table may give it; the
        variants' titles, the options' names and descriptions and the levels' names in ``lang``."""
        if lang not in LANGUAGES:
            raise HTTPException(400, f"language {lang[:20]!r} is not one the server speaks ({', '.join(LANGUAGES)})")
        return setup_answer(max_budget, lang, public_rooms)

    def rate_limit(what: str, per_address: tuple[float, float],
                   per_prefix: tuple[float, float]) -> Callable[[str, str], JSONResponse | None]:
        """A limit on requests of one kind (``what``: "new tables"), per address and per network, each ``(a minute,
        at once)``: the check returns ``None`` if ``address`` and its network may make one now (counting it),
        else the 429 answer, said in ``lang``."""
        buckets: dict[str, TokenBucket] = {}

        def refused(address: str, lang: str = "en") -> JSONResponse | None:
            now = time.monotonic()
            if len(buckets) > 10_000:  # forget the addresses whose buckets are full again
                for key in [k for k, b in buckets.items() if b.full(now)]:
                    del buckets[key]
            limits = ((address, *per_address, "one address"),
                      ("net " + prefix_of(address), *per_prefix, "one network"))
            found = []
            for key, per_minute, burst, whose in limits:
                bucket = buckets.get(key)
                if bucket is None:
                    bucket = buckets[key] = TokenBucket(per_minute / 60, burst, now)
                found.append(bucket)
                if bucket.available(now) < 1:
                    wait = math.ceil((1 - bucket.available(now)) / bucket.rate)
                    reason = Reason("at most {most} {what} a minute from {whose}: try again in {wait} s",
                                    most=f"{per_minute:g}", what=said_in(what), whose=said_in(whose), wait=wait)
                    return JSONResponse({"detail": reason.words(lang)}, status_code=429,
                                        headers={"Retry-After": str(wait)})
            for bucket in found:
                bucket.take(now)
            return None

        return refused

    creation_refused = rate_limit("new tables", (TABLES_PER_MINUTE_PER_ADDRESS, TABLE_BURST_PER_ADDRESS),
                                  (TABLES_PER_MINUTE_PER_PREFIX, TABLE_BURST_PER_PREFIX))
    history_refused = rate_limit("History requests", (HISTORY_PER_MINUTE_PER_ADDRESS, HISTORY_BURST),
                                 (HISTORY_PER_MINUTE_PER_PREFIX, HISTORY_BURST_PER_PREFIX))

    records_refused = rate_limit("records sent for review",
                                 (RECORDS_PER_MINUTE_PER_ADDRESS, RECORD_BURST),
                                 (RECORDS_PER_MINUTE_PER_PREFIX, RECORD_BURST_PER_PREFIX))
    lobby_refused = rate_limit("requests for the lobby's rooms", (LOBBY_PER_MINUTE_PER_ADDRESS, LOBBY_BURST),
                               (LOBBY_PER_MINUTE_PER_PREFIX, LOBBY_BURST_PER_PREFIX))

    @app.post("/api/tables")
    async def create(body: CreateTable, request: Request) -> Response:
        """Create a table; the answer holds the creator's secret link (the secrets after ``#``, which a browser
        never sends to a server)."""
        refused = creation_refused(request.client.host if request.client is not None else "unknown",
                                   asked_language(request))
        if refused is not None:
            return refused
        if body.public and not public_rooms:
            raise Refused(422, Reason("{field}: this server lists no rooms in its lobby (its administrator has not "
                                      "turned public rooms on): send your friend the invitation link", field="public"))
        try:
            table, token = await tables.create(body.kind, body.variant, body.options, body.level, body.name,
                                               body.takebacks, body.budget, body.tutor, body.public)
        except ProtocolError:  # not saved: the handler below answers 503
            raise
        except Reason as e:  # a bad name, an unknown variant...: said in the page's language
            raise Refused(422, e) from None
        except (ValueError, OptionError) as e:
            raise HTTPException(422, str(e)) from None
        links = table.links(0)
        created: CreatedTable = {"id": table.id, "token": token,
                                 "links": {"play": f"/t/{table.id}#token={token}", "invite": links["invite"],
                                           "spectate": links["spectate"]}}
        return JSONResponse(created)

    @app.get("/api/lobby", response_model=None)
    async def lobby_rooms(request: Request, page: int = 0) -> Response:
        """A page of the public rooms, newest first (:mod:`piquet.ui.web.lobby`); ``304`` to a client that holds
        it already (``If-None-Match``)."""
        if not public_rooms:
            raise Refused(404, Reason("this server lists no rooms in its lobby (its administrator has not turned "
                                      "public rooms on)"))
        refused = lobby_refused(request.client.host if request.client is not None else "unknown",
                                asked_language(request))
        if refused is not None:
            return refused
        try:
            answer = await tables.lobby.page(page)
        except ValueError as e:
            raise HTTPException(422, str(e)) from None
        headers = {"ETag": answer.etag, "Cache-Control": "no-cache"}
        if answer.etag in (request.headers.get("if-none-match") or "").split(", "):
            return Response(status_code=304, headers=headers)
        return Response(answer.body, media_type="application/json", headers=headers)

    @app.post("/api/tables/{table_id}/join")
    async def join_public(table_id: str, body: JoinRoom, request: Request) -> JSONResponse:
        """Take the free seat of a public room under ``name``: the answer is the joiner's own seat secret and links,
        as :func:`create`'s (``room full``, ``room gone``: 409, 410)."""
        if not public_rooms:
            raise Refused(404, Reason("this server lists no rooms in its lobby, and none is joined from it"))
        address = request.client.host if request.client is not None else "unknown"
        try:
            table = await tables.open(table_id, "public", "", address)
        except SeatRefused as e:
            if e.code == 4404:
                raise Refused(404, Reason("room gone: no such room on this server")) from None
            raise Refused(403, Reason(NOT_PUBLIC)) from None
        except OpenRefused as e:
            raise Refused(429, e, headers={"Retry-After": str(math.ceil(e.retry_after))}) from None
        except Elsewhere:
            raise Refused(503, Reason("the table {table} is served by another process: connect again",
                                      table=table_id), headers={"Retry-After": "1"}) from None
        try:
            if table.status != "waiting":
                raise Refused(410, Reason(ROOM_GONE)) if table.status == "over" else Refused(409, Reason(ROOM_FULL))
            try:
                await table.join(1, body.name)
            except ProtocolError as e:
                if e.code == "malformed":
                    raise Refused(422, Reason("{field}: {reason}", field="name", reason=e.words)) from None
                if e.code == "not_allowed" and table.status != "waiting":  # another took the seat a moment before
                    raise Refused(409, Reason(ROOM_FULL)) from None
                if e.code == "not_allowed":  # a name like the creator's
                    raise Refused(422, Reason("{field}: {reason}", field="name", reason=e.words)) from None
                raise
        finally:
            tables.release(table)
        token = table.info.tokens[1]
        assert token is not None
        links = table.links(1)
        joined: CreatedTable = {"id": table.id, "token": token,
                                "links": {"play": f"/t/{table.id}#token={token}", "invite": None,
                                          "spectate": links["spectate"]}}
        return JSONResponse(joined)

    async def viewer(table_id: str, token: str, request: Request) -> tuple[Table, int | None]:
        """The table and the seat ``token`` holds there (``None``: the table's spectator secret); 404, 403 or 429.
        A table not in memory is read from the store and replayed only once ``token`` is found to hold a place."""
        address = request.client.host if request.client is not None else "unknown"
        try:
            table = await tables.open(table_id, None, token, address)
        except SeatRefused as e:
            if e.code == 4404:
                raise Refused(404, Reason("no such table")) from None
            raise Refused(403, Reason("that token holds no seat at this table")) from None
        except OpenRefused as e:
            raise Refused(429, e, headers={"Retry-After": str(math.ceil(e.retry_after))}) from None
        except Elsewhere:
            raise Refused(503, Reason("the table {table} is served by another process: connect again",
                                      table=table_id), headers={"Retry-After": "1"}) from None
        if table.is_spectator(token):
            return table, None
        try:
            return table, table.seat_of(token)
        except KeyError:
            raise Refused(403, Reason("that token holds no seat at this table")) from None

    @app.get("/api/tables/{table_id}/record")
    async def download(table_id: str, token: str, request: Request) -> Response:
        """A finished game's record (``piquet replay`` reads it)."""
        table, _seat = await viewer(table_id, token, request)
        text = table.record_text()
        if text is None:
            raise Refused(403, Reason("the record is given once the partie is over: before, it would show the cards "
                                      "still hidden"))
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="piquet-{table_id}.json"'})

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, token: str, request: Request) -> JSONResponse:
        """Another partie with the same settings (:meth:`Tables.rematch`): the new table and the asker's link."""
        table, seat = await viewer(table_id, token, request)
        if seat is None:
            raise Refused(403, Reason("a spectator watches; he cannot ask for a rematch"))
        try:
            new_id, link = await tables.rematch(table, seat)
        except Reason as e:
            raise Refused(409, e) from None
        answer: RematchAnswer = {"id": new_id, "link": link}
        return JSONResponse(answer)

    @app.get("/history", include_in_schema=False)
    async def history_page() -> FileResponse:
        return FileResponse(STATIC / "history.html")

    @app.post("/api/history")
    async def history(body: AskHistory, request: Request) -> Response:
        """The finished parties the seats a browser holds played (:mod:`piquet.ui.web.history`), newest first, and
        their progress by variant and opponent (:mod:`piquet.ui.web.progress`) and by phase of the deal, from their
        reviews (:mod:`piquet.ui.web.phases`: those not yet made are queued for the worker processes): a secret that
        holds no seat at its table gives nothing, and which it was is not said."""
        request.state.lang = body.lang
        refused = history_refused(request.client.host if request.client is not None else "unknown",
                                  asked_language(request))
        if refused is not None:
            return refused
        try:
            parties = await tables.history.parties([(s.table, s.token) for s in body.seats], body.lang)
        except ValueError as e:
            raise HTTPException(422, str(e)) from None
        rows = progress.groups(parties, body.lang)
        return JSONResponse({"parties": parties, "progress": {"groups": rows, "svg": progress.svg(rows)},
                             "phases": await phases.progress(parties, body.lang)},
                            headers={"Cache-Control": "no-store"})

    @app.get("/t/{table_id}/review", include_in_schema=False)
    async def review_page(table_id: str) -> Response:
        return await table_file(table_id, "review.html")

    @app.post("/api/tables/{table_id}/reviews", status_code=202)
    async def ask_review(table_id: str, body: AskReview, token: str, request: Request) -> JSONResponse:
        """Queue the review of a finished deal (or of the whole partie, once over); the answer is its progress."""
        request.state.lang = body.lang
        table, seat = await viewer(table_id, token, request)
        if body.lang not in LANGUAGES:
            raise HTTPException(422, f"lang: {body.lang[:20]!r} is not a language the server speaks "
                                     f"({', '.join(LANGUAGES)})")
        a, b = table.shown_players(body.lang)
        try:
            partie = may_review(table.partie, seat, body.lens)
            job = reviews.request(table.id, token, partie, body.deal, body.lens, body.lang, (a or "", b or ""))
        except ReviewRefused as e:
            raise Refused(e.status, e) from None
        return JSONResponse(job.progress(), status_code=200 if job.status == "done" else 202)

    @app.get("/api/tables/{table_id}/reviews/{review_id}")
    async def review_progress(table_id: str, review_id: str, token: str, request: Request) -> JSONResponse:
        """A review's progress, and once done its result, as this seat (or spectator) may see it."""
        table, seat = await viewer(table_id, token, request)
        job = reviews.get(table.id, review_id)
        if job is None:
            raise Refused(404, Reason("no such review of this table (a review is kept an hour after it is made)"))
        answer = job.progress()
        answer["seat"] = seat
        if job.result is not None:
            over = table.partie is not None and table.partie.is_over
            try:
                answer["result"] = for_viewer(job.result, seat, over)
            except ReviewRefused as e:
                raise Refused(e.status, e) from None
        return JSONResponse(answer)

    @app.get("/review", include_in_schema=False)
    async def record_page() -> FileResponse:
        """The review page with no table: a record file opened there is replayed and reviewed."""
        return FileResponse(STATIC / "review.html")

    @app.post("/api/records/reviews", status_code=202)
    async def ask_record_review(request: Request) -> JSONResponse:
        """Queue the review of a record's deal (or of the whole partie, once over): the body is ``{"record": its
        text, "deal", "lens", "lang"}``; the answer is its progress, with the record's ``players`` and ``deals`` (those
        ended). A record that cannot be read is refused with ``where`` and ``why``; nothing is stored."""
        address = request.client.host if request.client is not None else "unknown"
        refused = records_refused(address, asked_language(request))
        if refused is not None:
            return refused
        too_large = Reason("{field}: a record of Piquet holds at most {most} bytes", field="record",
                           most=MAX_RECORD_BYTES)
        limit = MAX_RECORD_BYTES + 4096  # the record, escaped in JSON, and the request's other fields
        length = request.headers.get("content-length") or "0"
        if not length.isdigit() or int(length) > limit * 2:
            raise Refused(413, too_large)
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit * 2:
                raise Refused(413, too_large)
        try:
            ask = AskRecordReview.model_validate_json(bytes(body))
        except ValidationError as e:
            raise RequestValidationError(e.errors()) from None
        request.state.lang = ask.lang
        if ask.lang not in LANGUAGES:
            raise HTTPException(422, f"lang: {ask.lang[:20]!r} is not a language the server speaks "
                                     f"({', '.join(LANGUAGES)})")
        try:
            partie = read_record(ask.record)
            key = record_key(partie)
            check_room(reviews, key)
            job = reviews.request(key, address, partie, ask.deal, ask.lens, ask.lang)
        except ReviewRefused as e:
            return JSONResponse(refusal(e, ask.lang), status_code=e.status)
        answer = {**job.progress(), "players": list(partie.players), "deals": deals_ended(partie)}
        if job.result is not None:  # made already: the page shows it at once
            answer["result"] = job.result
        return JSONResponse(answer, status_code=200 if job.status == "done" else 202)

    @app.get("/api/records/reviews/{review_id}")
    async def record_review_progress(review_id: str) -> JSONResponse:
        """A record's review's progress, and once done its result, whole: whoever holds a record sees its every card."""
        job = reviews.jobs.get(review_id)
        if job is None or not job.table.startswith("record:"):
            raise Refused(404, Reason("no such review of a record (a review is kept an hour after it is made)"))
        answer = job.progress()
        if job.result is not None:
            answer["result"] = job.result
        return JSONResponse(answer)

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        link: tuple[LinkKind, str] = next(((k, ws.query_params[k]) for k in get_args(LinkKind)
                                           if k in ws.query_params), ("token", ""))
        kind, secret = link
        lang = ws.query_params.get("lang", "en")
        address = ws.client.host if ws.client is not None else "unknown"
        # Accepted before it is closed: a socket closed during the handshake fails with HTTP 403 instead, and the
        # page never sees the close code that tells an unknown table (4404) from an unknown token (4403) or a spent
        # invite (4410).
        await ws.accept()
        if lang not in LANGUAGES:
            reason = f"language {lang[:20]!r} is not one the table speaks ({', '.join(LANGUAGES)})"
            await ws.close(code=4400, reason=close_reason(reason))
            return
        try:
            table = await tables.open(table_id, kind, secret, address)
            seat, new_token = await table.admit(kind, secret)
        except StoreUnavailable as e:
            log.warning("the store could not be read: %s", e)
            await ws.close(code=1013, reason="the table could not be read; try again")
            return
        except OpenRefused as e:
            await ws.close(code=1013, reason=close_reason(e.message))
            return
        except Elsewhere as e:
            await ws.close(code=CLOSE_ELSEWHERE, reason=close_reason(e.reason))
            return
        except SeatRefused as e:
            await ws.close(code=e.code, reason=close_reason(e.reason))
            return
        except ProtocolError as e:  # not_saved: the store could not take the seat's new secret
            await ws.close(code=1013, reason=close_reason(e.message))
            return

        async def hang_up(code: int, reason: str) -> None:
            with contextlib.suppress(Exception):  # already closed
                await ws.close(code=code, reason=close_reason(reason))

        abort: Callable[[], None] | None = ws.scope.get("piquet.abort")
        client = Client(seat, ws.send_text, on_drop=lambda _client, _reason: _hang_up(ws, abort), hang_up=hang_up,
                        invite=secret if kind == "invite" else None, lang=lang, address=address)
        if seat is not None:  # a seated player's frames are the game's: served before any other's
            prioritise: Callable[[], None] | None = ws.scope.get("piquet.seated")
            if prioritise is not None:
                prioritise()
        if new_token is not None and seat is not None:  # moved here: the old device's secret no longer holds it
            client.post(message_text({"type": "seat", "seat": seat, "token": new_token}))
            await table.moved(seat, client)
        table.clients.add(client)
        try:
            table.welcome(client)
            table.kick()
            while not client.dropped:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                # A binary frame is read as UTF-8 JSON too (receive_text would fail on it and drop the socket).
                text: str | bytes = message.get("text") or message.get("bytes") or ""
                await handle(table, client, text)
        except WebSocketDisconnect:
            pass
        finally:
            client.close()
            table.clients.discard(client)
            tables.release(table)

    @app.exception_handler(OptionError)
    async def option_error(_request: Any, exc: OptionError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=422)

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> JSONResponse:
        return JSONResponse({"detail": exc.reason.words(asked_language(request))}, status_code=exc.status_code,
                            headers=exc.headers)

    @app.exception_handler(ProtocolError)
    async def not_saved(request: Request, exc: ProtocolError) -> JSONResponse:
        # store_call's refusal when the store is locked: the same words as over the socket, never a bare 500
        return JSONResponse({"detail": exc.words(asked_language(request))},
                            status_code=503 if exc.code == "not_saved" else 400)

    @app.exception_handler(StoreUnavailable)
    async def store_busy(request: Request, exc: StoreUnavailable) -> JSONResponse:
        log.warning("the store could not be read: %s", exc)
        return JSONResponse({"detail": Reason("the table could not be read; try again").words(asked_language(request))},
                            status_code=503)

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_request: Any, exc: RequestValidationError) -> JSONResponse:
        # Each problem as "field: what is wrong", without the validator's internals (its types, links, input).
        problems = []
        for error in exc.errors():
            where = ".".join(str(part) for part in error.get("loc", ()) if part != "body") or "body"
            problems.append(f"{where}: {error.get('msg', 'invalid')}")
        return JSONResponse({"detail": "; ".join(problems)}, status_code=422)

    return app


def _owners(db: object, store: object) -> Owners | None:
    """Where ``db`` is a PostgreSQL URL, the tables this process holds (:mod:`piquet.ui.web.owners`: several
    processes may serve the database), asked by the store before each change of a table; else ``None`` (a SQLite
    file, or a store given: this process serves every table of it)."""
    if not isinstance(db, str) or not isinstance(store, SQLStore) or store.dialect.name != "postgresql":
        return None
    try:
        owners = Owners(db)
    except Exception as e:  # psycopg's error: the store itself was reached a moment ago
        store.close()
        raise StoreError(f"the store {store.where} cannot hold tables (its lock connection failed: "
                         f"{type(e).__name__})") from None
    store.fence = owners
    return owners


def _hang_up(ws: WebSocket, abort: Callable[[], None] | None) -> None:
    """Close the socket of a client that was dropped: aborted where the server allows it (``piquet serve``: a
    client that does not read would not read a closing handshake either), else closed with :data:`CLOSE_SLOW`."""
    if abort is not None:
        abort()
        return

    async def close() -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(code=CLOSE_SLOW, reason="the connection did not keep up"), 1.0)

    task = asyncio.get_running_loop().create_task(close())
    _background.add(task)
    task.add_done_callback(_background.discard)


_background: set[asyncio.Task[None]] = set()


def close_reason(text: str) -> str:
    """``text`` cut to what a WebSocket's close frame carries (123 bytes of UTF-8), at a character's end: a longer
    reason (a language's name a client sent, repeated in it) would fail the close itself."""
    data = text.encode("utf-8")
    if len(data) <= 123:
        return text
    return data[:120].decode("utf-8", "ignore") + "..."
