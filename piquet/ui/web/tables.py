"""The tables of the server: a game, driven from its seats to its end, and the tables found again after a restart.

A :class:`Table` holds one :class:`~piquet.engine.partie.Partie`; every action goes
through the engine, is committed to the store, and only then is each client
sent its own player's state (the acknowledgement). The chance events (the cut,
the shuffle) are the server's, drawn from the operating system's randomness.
:class:`Tables` creates tables and finds them again, reloading a table from
the store (re-playing its actions) the first time it is asked for after a restart.

A table's concerns have modules of their own: its connections (:mod:`piquet.ui.web.clients`), who sits at it
(:mod:`piquet.ui.web.seats`), the advice it gives a person (hints and the tutor, :mod:`piquet.ui.web.advice`), its
takebacks (:mod:`piquet.ui.web.undo`) and how it saves a change (:mod:`piquet.ui.web.saving`). This module drives
the partie: it applies the players' actions, plays what needs no person (the cut, dealing, the computer's moves)
and tells every client.

The computer at a table and its hints think for a budget of CPU seconds per decision
(:mod:`piquet.ai.budget`): the level's own unless the table's creator set one, within the
server's cap (``piquet serve --max-budget``), which also decides whether a table may think
without a limit.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from time import perf_counter  # how long a table's event took (apart from its clock, time.monotonic)
from typing import Any

from piquet.ai.agent import Agent
from piquet.ai.levels import LEVELS as LEVEL_SETTINGS
from piquet.ai.levels import make_agent
from piquet.engine.actions import Action, ChooseDealer, Concede, Deal
from piquet.engine.language import words_in
from piquet.engine.partie import Partie, Phase
from piquet.engine.record import action_from_data, action_to_data, dumps
from piquet.engine.variants import VARIANTS, make_rules
from piquet.ui.takebacks import TAKEBACKS, Takebacks
from piquet.ui.web.advice import HINT_LEVEL, Advice, check_tutor
from piquet.ui.web.advice_messages import tutor_message
from piquet.ui.web.budgets import DEFAULT_BUDGET, LEVELS, MAX_BUDGET, check_budget
from piquet.ui.web.clients import Client
from piquet.ui.web.errors import OpenRefused, Refusal, said_in
from piquet.ui.web.events import event
from piquet.ui.web.history import History, summary
from piquet.ui.web.limits import TokenBucket, Window, prefix_of
from piquet.ui.web.lobby import Lobby
from piquet.ui.web.names import clean_name, imitates
from piquet.ui.web.owners import CLOSE_ELSEWHERE, Owners, OwnershipLost
from piquet.ui.web.protocol import (
    HintMessage,
    LinkKind,
    MoveMessage,
    Phrase,
    ProtocolError,
    SeatMessage,
    ServerMessage,
    StateMessage,
    TableKind,
    TableStatus,
    TutorMessage,
    ViewData,
    prompt_data,
    read_action,
    result_data,
    rules_data,
    talk_message,
    view_data,
)
from piquet.ui.web.saving import NOT_SAVED, awaited, store_call
from piquet.ui.web.seats import (
    COMPUTER_NAME,
    INVITE_USED,
    SECRET_BYTES,
    OpenKind,
    SeatLinks,
    SeatRefused,
    Seats,
    check_link,
    computer_name,
    hang_up,
)
from piquet.ui.web.store import AsyncStore, Store, StoreError, StoreUnavailable, TableInfo
from piquet.ui.web.thinking import Thinker, ThinkingFailed
from piquet.ui.web.undo import Undo, note_takebacks

__all__ = ["NOT_SAVED", "Client", "Elsewhere", "OpenRefused", "SeatRefused", "Table", "Tables"]

#: Tables one address (and one network: see :func:`piquet.ui.web.limits.prefix_of`) may have read from the store
#: and replayed a minute, on average, and at once: a table not in memory costs its reading and its replay.
OPENS_PER_MINUTE_PER_ADDRESS = 30.0
OPEN_BURST_PER_ADDRESS = 30.0
OPENS_PER_MINUTE_PER_PREFIX = 120.0
OPEN_BURST_PER_PREFIX = 120.0

_log = logging.getLogger(__name__)

#: A seat may say a phrase (``say``) once every :data:`PHRASE_INTERVAL` seconds and :data:`PHRASES_PER_MINUTE`
#: times in any minute, so that a player cannot flood the other's screen; beyond, ``busy``. The limits of its
#: connection's frames apply besides (:mod:`piquet.ui.web.guard`).
PHRASE_INTERVAL = 2.0
PHRASES_PER_MINUTE = 10

#: Seconds a table stays in memory with nobody at it (created and never opened, or only its page asked for)
#: before it is forgotten; the store keeps it.
IDLE_TABLE_SECONDS = 600.0
#: Seconds between two sweeps of the idle tables.
SWEEP_SECONDS = 60.0
#: Seconds before the computer's move is saved again, when the store could not save it.
STORE_RETRY = 2.0

log = logging.getLogger("piquet.ui.web")

#: A table read from the store is replayed here, off the event loop, one at a time.
_REPLAY_THREAD = ThreadPoolExecutor(1, thread_name_prefix="piquet-replay")
#: Tasks running on their own (the connections of a table given up, closed), kept until done.
_background: set[asyncio.Task[None]] = set()

class Table:
    """One game at the server. ``max_budget`` is the server's cap on the computer's thinking per decision (0: none):
    a table stored with more, or with no limit, thinks for the cap. ``allowances``: each seat's allowance of hints,
    by (table, seat), kept by the server (:class:`Tables`), not the connection."""

    def __init__(self, info: TableInfo, store: AsyncStore | Store, thinker: Thinker | None = None,
                 max_budget: float = MAX_BUDGET, allowances: dict[tuple[str, int], TokenBucket] | None = None) -> None:
        self.info = info
        self.store = awaited(store)
        self.thinker = thinker if thinker is not None else Thinker(workers=0)
        self.max_budget = max_budget
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.rng = random.Random(secrets.randbits(64))
        self.agent: Agent | None = None
        self.partie: Partie | None = None
        #: Who sits at the table, its hints and tutor, its takebacks: each concern's own object.
        self.seats = Seats(info, self.store)
        self.advice = Advice(self, allowances if allowances is not None else {})
        self.takebacks = Undo(info, self.store)
        self._driver: asyncio.Task[None] | None = None
        self._states: dict[tuple[int | None, str], str] = {}
        #: The last talk sent a joining page, and what it was made of (the finished logs, language, names).
        self._talk: tuple[tuple[object, ...], str] | None = None
        #: The table of the rematch once one is asked for (in memory: a server restarted forgets it, and the next
        #: asker opens another).
        self.rematch: TableInfo | None = None
        self.rematch_by: int | None = None  # the seat that asked for it first
        #: Told the table's id when its partie ends here (History's: see :meth:`Tables._table`).
        self.on_end: Callable[[str], None] | None = None
        #: Told the table when a room's guest takes his seat (the lobby's: see :meth:`Tables._table`).
        self.on_seated: Callable[[Table], None] | None = None
        #: The table was given up by this process (another holds it now): nothing more is played here.
        self.gone = False
        #: Told the table when its automatic moves stop with nobody at it (:meth:`Tables.release` forgets it then).
        self.on_idle: Callable[[Table], None] | None = None
        #: Each seat's allowance of phrases (:meth:`say`).
        self._phrases: dict[int, Window] = {}
        self.clock: Callable[[], float] = time.monotonic  # the phrases' allowances' clock
        if info.computer is not None:
            self.agent = self.new_agent(info.level or 3)
        if all(p is not None for p in info.players):
            self._start()

    # ------------------------------------------------------------ what the table is
    @property
    def id(self) -> str:
        return self.info.id

    @property
    def names(self) -> tuple[str, str]:
        a, b = self.info.players
        return (a or "", b or "")

    def shown_players(self, lang: str) -> list[str | None]:
        """The players as a connection speaking ``lang`` is told them: the computer's seat named in that language
        ("l'ordinateur"), a person's name as he gave it, an empty seat ``None``."""
        players = list(self.info.players)
        if self.info.computer is not None:
            players[self.info.computer] = computer_name(lang)
        return players

    @property
    def version(self) -> int:
        """The table's version: moved on by one at each action and takeback, never back (stored with the table)."""
        return self.info.version

    def post_state(self, client: Client) -> None:
        """Queue the table's state for ``client``, replacing a state of the same deal still waiting for it."""
        client.post(self.state(client.seat, client.lang), True, self.partie.deal_number if self.partie else 0)

    @property
    def status(self) -> TableStatus:
        if self.partie is None:
            return "waiting"
        return "over" if self.partie.is_over else "playing"

    def budget_for(self, level: int) -> float:
        """The CPU seconds a computer player of ``level`` thinks for one decision at this table (0: no limit): the
        table's budget, or the level's own, within the server's cap."""
        budget = self.info.budget
        if budget is None:
            budget = LEVEL_SETTINGS[level].budget if level in LEVEL_SETTINGS else DEFAULT_BUDGET
        if self.max_budget > 0 and (budget == 0 or budget > self.max_budget):
            budget = self.max_budget
        return budget

    @property
    def budget(self) -> float | None:
        """The thinking time the table's state shows (``None`` in a room, where no computer thinks): the computer's
        when its level searches, else its hints'."""
        if self.info.computer is None:
            return None
        level = self.info.level or 3
        return self.budget_for(level if level in LEVEL_SETTINGS else HINT_LEVEL)

    def new_agent(self, level: int) -> Agent:
        """A computer player of ``level`` for this table, a searching level with the table's budget (the level as it
        is when that is its own)."""
        spec = f"level{level}"
        if level in LEVEL_SETTINGS and self.budget_for(level) != LEVEL_SETTINGS[level].budget:
            spec += f":budget={self.budget_for(level)!r}"
        return make_agent(spec, secrets.randbits(32))

    # ------------------------------------------------------------ the seats (piquet.ui.web.seats)
    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds; raises ``KeyError`` for a token that holds none."""
        return self.seats.seat_of(token)

    def is_spectator(self, token: str | None) -> bool:
        return self.seats.is_spectator(token)

    def links(self, seat: int | None) -> SeatLinks:
        """The links a client is shown (:meth:`piquet.ui.web.seats.Seats.links`)."""
        return self.seats.links(seat, self.status == "waiting")

    async def admit(self, kind: LinkKind, secret: str) -> tuple[int | None, str | None]:
        """The place a link's secret gives, and a one-time link's new seat secret
        (:meth:`piquet.ui.web.seats.Seats.admit`); call :meth:`moved` once the new secret is sent."""
        return await self.seats.admit(kind, secret)

    async def moved(self, seat: int, keep: Client) -> None:
        """Close the connections of ``seat`` other than ``keep``: their secret no longer holds it."""
        await hang_up(self.clients, lambda c: c.seat == seat and c is not keep, 4401,
                      "this seat moved to another device")

    async def move_link(self, seat: int | None) -> MoveMessage:
        """A one-time link that moves ``seat`` to another device (replacing any earlier one not yet used)."""
        return await self.seats.move_link(seat)

    async def join(self, seat: int | None, name: object, client: Client | None = None) -> None:
        """A room's guest takes his seat and the partie starts. With ``client`` (the guest's connection, which came
        with the invite), he is sent his own seat secret (``{"type": "seat", "token": ...}``) before anything else,
        the invite is spent, and every other connection that came with it is closed."""
        async with self.lock:
            token = await self.seats.take(seat, name, client, started=self.partie is not None)
            assert seat is not None
            self._start()
            if client is not None:
                client.invite = None
                seat_message: SeatMessage = {"type": "seat", "seat": seat, "token": token}
                client.post(json.dumps(seat_message))
            await hang_up(self.clients, lambda c: c.invite is not None, 4410, INVITE_USED)
        if self.on_seated is not None:
            self.on_seated(self)
        await self.broadcast()
        self.kick()

    # ------------------------------------------------------------ what each client is told
    def can_hint(self, seat: int | None) -> bool:
        return self.advice.can_hint(seat)

    def can_undo(self, seat: int | None, declare_best: bool = False) -> bool:
        return self.takebacks.target(self.partie, seat, declare_best) is not None

    def state(self, seat: int | None, lang: str = "en") -> str:
        """The ``state`` message for ``seat`` (``None``: a spectator), as JSON text, its words in ``lang``."""
        cached = self._states.get((seat, lang))
        if cached is not None:
            return cached
        partie = self.partie
        view: ViewData | None = None
        prompt = None
        if partie is not None:
            a, b = self.shown_players(lang)
            shown = (a or "", b or "")
            view = view_data(partie.view(seat), lang, shown)
            view["result"] = result_data(partie, lang, shown)
            note_takebacks(view["sheet"], self.info.taken_back, self.names, lang, shown)
            prompt = prompt_data(partie, seat, advise=self.info.computer is not None, lang=lang)
        links = self.links(seat)
        data: StateMessage = {
            "type": "state",
            "table": {"id": self.id, "kind": self.info.kind, "variant": self.info.variant,
                      "title": words_in(lang)(VARIANTS[self.info.variant].title), "options": self.info.options,
                      "level": self.info.level, "budget": self.budget, "tutor": self.info.tutor,
                      "status": self.status, "public": self.info.public,
                      "takebacks": self.info.takebacks, "taken_back": len(self.info.taken_back),
                      "invite": links["invite"], "spectate": links["spectate"],
                      "rules": rules_data(self.info.variant, self.info.options), "rematch": self.rematch is not None},
            "seat": seat,
            "players": self.shown_players(lang),
            "computer": self.info.computer,
            "can_hint": self.can_hint(seat),
            "can_undo": self.can_undo(seat),
            "can_undo_declare_best": self.can_undo(seat, declare_best=True),
            "can_concede": partie is not None and seat is not None and partie.can(Concede(seat)),
            "version": self.version,
            "view": view,
            "prompt": prompt,
        }
        text = json.dumps(data, separators=(",", ":"))
        self._states[seat, lang] = text
        return text

    def record_text(self) -> str | None:
        """The partie's record (``piquet replay`` reads it, with the takebacks noted) once it is over, else ``None``:
        before the end it would show the cards still hidden. The one check for the server's download and the
        offline site's."""
        if self.partie is None or not self.partie.is_over:
            return None
        return dumps(self.partie, takebacks=self.info.taken_back)

    def welcome(self, client: Client) -> None:
        """What a page is sent as it joins: the table's state, then the talk of the deals already finished (the
        whole partie's, whichever tab or device played them; public once each deal is over)."""
        self.post_state(client)
        if self.partie is None or not self.partie.finished_logs():
            return
        a, b = self.shown_players(client.lang)
        key = (self.partie.finished_logs(), client.lang, a or "", b or "")
        cached = self._talk
        if cached is None or cached[0] != key:  # the same logs (a deal's log is never changed once it is over)
            cached = self._talk = (key, json.dumps(talk_message(self.partie, client.lang, key[2:]),
                                                   separators=(",", ":")))
        client.post(cached[1])

    async def broadcast(self) -> None:
        """Queue the new state for every client (each is sent it by its own writer: none is waited for)."""
        self._states.clear()
        for client in list(self.clients):
            if client.dropped:  # a closed or stalled connection leaves the table; the game goes on
                self.clients.discard(client)
            else:
                self.post_state(client)

    async def _tell(self, data: ServerMessage | ProtocolError) -> None:
        """Send every client at the table the same message (an error: in each client's language)."""
        texts: dict[str, str] = {}
        for client in list(self.clients):
            if client.dropped:  # a closed or stalled connection leaves the table
                self.clients.discard(client)
                continue
            if client.lang not in texts:
                said = data.to_data(client.lang) if isinstance(data, ProtocolError) else data
                texts[client.lang] = json.dumps(said, separators=(",", ":"))
            client.post(texts[client.lang])

    # ------------------------------------------------------------ driving the partie
    def _start(self) -> None:
        """Create the partie and re-play the stored actions (after a restart, exactly where it was)."""
        names = self.names
        self.partie = Partie(names, self.info.variant, self.info.options)
        self.takebacks.steps = []
        for i, data in enumerate(self.info.actions):
            self.takebacks.apply(self.partie, action_from_data(data, names, f"table {self.id}, action {i}"))

    async def _push(self, action: Action, started: float | None = None, thought: float | None = None) -> None:
        """Commit the action to the store, then apply it (already verified by the engine); logged as the table's
        event with the time since ``started`` (the message's arrival; else now) and the computer's ``thought``."""
        started = perf_counter() if started is None else started
        partie = self.partie
        assert partie is not None
        partie.verify(action)
        version = self.version + 1
        seat = getattr(action, "player", None)
        await store_call(self.store.append(self.id, partie.ply, action_to_data(action, self.names), version), self.id,
                         seat)
        self.takebacks.apply(partie, action)
        self.info.version = version
        if partie.is_over:
            await self._write_end(partie)
        event("action", self.id, seat=seat, action=type(action).__name__, ms=(perf_counter() - started) * 1000,
              version=version, think_ms=None if thought is None else round(thought * 1000, 2))

    async def _write_end(self, partie: Partie) -> None:
        """Write the finished partie's History line (:func:`piquet.ui.web.history.summary`). The partie is over
        whether or not the store takes it: if not, History finds the result again by replaying the table."""
        try:
            await self.store.finish(self.id, time.time(), summary(partie))
        except (StoreUnavailable, StoreError) as e:
            log.warning("table %s: its result could not be written: %s", self.id, e)
        if self.on_end is not None:
            self.on_end(self.id)

    def _deal(self, packets: int) -> Deal:
        """The deal due now, its cards fixed by the table's seed and the deal's number: dealt again after a
        takeback, it is the same (whoever deals, in packets of two or three)."""
        partie = self.partie
        assert partie is not None and partie.to_act is not None
        number = sum(1 for a in partie.actions if isinstance(a, Deal))
        return Deal.shuffled(random.Random(f"{self.info.seed}/{number}"), partie.to_act, packets, in_packets=False)

    def _automatic(self) -> Action | None:
        """The next action that needs no person: the cut, a deal with no choice of packets."""
        partie = self.partie
        if partie is None or partie.is_over:
            return None
        if partie.phase is Phase.CUT:
            return partie.random_cut(self.rng)
        seat = partie.to_act
        if partie.phase is Phase.DEAL and seat != self.info.computer:
            sizes = partie.legal_packets()
            if len(sizes) == 1:
                return self._deal(sizes[0])
        return None

    def _computer_to_act(self) -> bool:
        partie = self.partie
        return (partie is not None and not partie.is_over and partie.to_act is not None
                and partie.to_act == self.info.computer and partie.phase is not Phase.CUT)

    async def _think(self) -> Action:
        """The computer's decision, made by :attr:`thinker` from the computer's view and legal actions
        (the agent's state, moved on by the decision, comes back with it)."""
        partie = self.partie
        agent = self.agent
        assert partie is not None and agent is not None and partie.to_act is not None
        seat = partie.to_act
        view = partie.view(seat)
        if partie.phase is Phase.DEAL:
            sizes = partie.legal_packets()
            return self._deal(agent.choose_packets(view, sizes) if len(sizes) > 1 else sizes[0])
        level = self.info.level or 3
        choice, self.agent = await self.thinker.choose(agent, view, partie.legal_actions(seat), level,
                                                              table=self.id, budget=self.budget_for(level))
        if partie.phase is Phase.CHOOSE_DEALER and not isinstance(choice, ChooseDealer):
            return ChooseDealer(seat, 1 - seat)
        return choice

    async def advance(self) -> None:
        """Play what needs no person (the cut, dealing, the computer's moves), broadcasting each."""
        while not self.gone:
            async with self.lock:
                action = self._automatic()
                thought: float | None = None
                if action is None and self._computer_to_act():
                    try:
                        began = perf_counter()
                        action = await self._think()
                        thought = perf_counter() - began
                    except ThinkingFailed as e:
                        _log.warning("table %s: %s", self.id, e)
                        event("computer_failed", self.id, seat=self.info.computer, severity=logging.WARNING)
                        await self._tell(ProtocolError("computer_failed", "the computer could not decide: reload "
                                                                          "the page to ask it again"))
                        return
                if action is None:
                    return
                try:
                    await self._push(action, thought=thought)
                except ProtocolError as e:  # the store refused (locked by another process): try again shortly
                    log.warning("table %s: %s", self.id, e.message)
                    asyncio.get_running_loop().call_later(STORE_RETRY, self.kick)
                    return
            await self.broadcast()

    def kick(self) -> None:
        """Make sure the automatic moves run (after a change, or a reload from the store)."""
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self.advance())
            self._driver.add_done_callback(self._stopped)

    def _stopped(self, _driver: asyncio.Task[None]) -> None:
        if not self.clients and self.on_idle is not None:
            self.on_idle(self)

    def _require_version(self, version: int | None) -> None:
        if version is not None and version != self.version:
            raise ProtocolError("stale", "this answers the state of version {version}, but the table is at version "
                                         "{now}: the current state follows", version=version, now=self.version)

    def require_playing(self, seat: int | None) -> Partie:
        """The partie, for ``seat`` to act in; ``not_allowed`` for a spectator, or before the partie starts."""
        if seat is None:
            raise ProtocolError("not_allowed", "a spectator watches; he cannot act")
        if self.partie is None:
            raise ProtocolError("not_allowed", "the partie starts when the second player joins")
        return self.partie

    # ------------------------------------------------------------ a person's requests
    async def act(self, seat: int | None, data: object, version: int | None = None,
                  confirm: bool = False, lang: str = "en", address: str = "") -> TutorMessage | None:
        """A player's action from a client; raises :class:`ProtocolError` and changes nothing if it
        is not his to make or not legal, or (``version`` given) answers a state that is not the table's now.
        With the tutor, a choice that loses its threshold or more is not applied: the warning is returned,
        for the client (``confirm``: the player was warned and plays it anyway)."""
        started = perf_counter()
        async with self.lock:
            partie = self.require_playing(seat)
            self._require_version(version)
            assert seat is not None
            shown = self.shown_players(lang)
            action = read_action(data, partie, seat, [name or "" for name in shown])
            if isinstance(action, int):
                action = self._deal(action)
            elif not confirm:
                warning = await self.advice.warning(partie, seat, action, address, lang)
                if warning is not None:
                    assert isinstance(data, dict)
                    return tutor_message(warning, data, self.names, self.version, lang)
            await self._push(action, started)
        await self.broadcast()
        self.kick()
        return None

    async def undo(self, seat: int | None, version: int | None = None, declare_best: bool = False) -> None:
        """Take back ``seat``'s last decision with a choice, as the table's takebacks allow (``declare_best``: past
        the declarations the page made for him); raises ``not_allowed`` with the reason where none may be."""
        async with self.lock:
            if self.info.computer is None:
                raise ProtocolError("not_allowed", "moves are taken back only against the computer")
            partie = self.require_playing(seat)
            self._require_version(version)
            assert seat is not None
            await self.takebacks.take_back(partie, seat, self.names, declare_best)
        await self.broadcast()
        self.kick()

    async def say(self, seat: int | None, phrase: Phrase) -> None:
        """A room's seated player says one of the table's phrases to everyone at it (both seats and the spectators),
        who each hear its id and say it in their own language; refused ``not_allowed`` at a table against the
        computer or from a spectator, ``busy`` past the seat's allowance. Kept in no record (the record is the
        game's)."""
        if self.info.computer is not None:
            raise ProtocolError("not_allowed", "{phrase}: phrases are said between two people, not at a table "
                                               "against the computer", phrase=phrase)
        if seat is None:
            raise ProtocolError("not_allowed", "{phrase}: a spectator watches the table; he says nothing to it",
                                phrase=phrase)
        now = self.clock()
        allowance = self._phrases.setdefault(seat, Window(PHRASE_INTERVAL, PHRASES_PER_MINUTE))
        wait = allowance.wait(now)
        if wait > 0:
            raise ProtocolError("busy", "{phrase}: {name} may say a phrase once every {interval} s and {most} times a "
                                        "minute: again in {wait} s", phrase=phrase, name=self.names[seat],
                                        interval=f"{PHRASE_INTERVAL:g}", most=PHRASES_PER_MINUTE, wait=wait)
        allowance.use(now)
        event("said", self.id, seat=seat, phrase=phrase)
        await self._tell({"type": "said", "seat": seat, "phrase": phrase})

    async def hint(self, seat: int | None, lang: str = "en", address: str = "") -> HintMessage:
        """The review's hint for ``seat``'s decision (:meth:`piquet.ui.web.advice.Advice.hint`)."""
        return await self.advice.hint(seat, lang, address)


class Elsewhere(Exception):
    """Another server process holds the table (several on one PostgreSQL database: :mod:`piquet.ui.web.owners`):
    the client asks again, and the proxy routes it to that process."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"the table {table_id} is served by another process: connect again")
        self.reason = str(self)


class Tables:
    """Every table of the server, created here or reloaded from the store when first asked for. ``store``: the
    store, awaited (a :class:`~piquet.ui.web.store.Store` is called in a thread of its own: :class:`InThread`)."""

    def __init__(self, store: AsyncStore | Store, thinker: Thinker | None = None,
                 clock: Callable[[], float] = time.monotonic, max_budget: float = MAX_BUDGET,
                 owners: Owners | None = None) -> None:
        if not 0 <= max_budget < math.inf:
            raise ValueError(f"the cap on the computer's thinking is 0 (none) or more seconds, not {max_budget!r}")
        self.store = awaited(store)
        #: The most CPU seconds a table may give the computer for one decision (0: no cap, and no limit allowed).
        self.max_budget = max_budget
        #: Where the computers of every table think (``None``: in threads of the server, as before the workers).
        self.thinker = thinker if thinker is not None else Thinker(workers=0)
        self.clock = clock
        self._tables: dict[str, Table] = {}
        self._since: dict[str, float] = {}  # when each table in memory was created or loaded
        self._swept = clock()
        #: Each seat's allowance of hints, by (table, seat), whether or not its table is in memory.
        self.allowances: dict[tuple[str, int], TokenBucket] = {}
        self._opens: dict[str, TokenBucket] = {}  # by address, and by network ("net " + prefix)
        self._opening: dict[str, asyncio.Lock] = {}
        #: The finished parties of the seats a browser holds (the History page).
        self.history = History(self.store, self._playing)
        #: The public rooms of the lobby, told (and telling the other processes) when one opens, fills or ends.
        self.lobby = Lobby(self.store, None if owners is None else lambda table_id: owners.announce("lobby", table_id))
        #: The tables this process holds, where several serve one database (``None``: this process serves every
        #: table of its store). A table is loaded only once held, and given back when forgotten.
        self.owners = owners
        self._loop: asyncio.AbstractEventLoop | None = None
        if owners is not None:
            owners.on_lost = self._lost
            owners.on_give = self._asked
            owners.on_ended = self._heard_end
            owners.on_lobby = self._heard_lobby

    def begin(self) -> asyncio.Task[None] | None:
        """Where tables are held: watch the lock connection and listen to the other processes, from the server's
        event loop (its lifespan calls this); the watch's task (``None`` where tables are not held)."""
        self._loop = asyncio.get_running_loop()
        if self.owners is None:
            return None
        self.owners.listen()
        return self._loop.create_task(self.owners.watch())

    def _heard_end(self, table_id: str) -> None:
        """Told (from any thread) that a table's partie ended in some process: History forgets it was unfinished."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.history.forget, table_id)

    def _heard_lobby(self, table_id: str) -> None:
        """Told (from any thread) that a public room opened, filled or ended in some process: the lobby reads again."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.lobby.heard, table_id)

    def _seated(self, table: Table) -> None:
        """A room's guest took his seat, or its partie ended: a public room's lobby (every process's) is told."""
        if table.info.public:
            self.lobby.changed(table.id)

    def _ended(self, table_id: str) -> None:
        """A table's partie ended here: History's, and every other process's (over the database), told."""
        self.history.forget(table_id)
        table = self._tables.get(table_id)
        if table is not None:
            self._seated(table)
        if self.owners is not None:
            self.owners.announce_end(table_id)

    def _asked(self, table_id: str) -> None:
        """Told (from any thread) that another process asks for a table this one holds: it is given on the loop."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.give, table_id)

    def give(self, table_id: str) -> None:
        """Give a table this process holds to the process that asks for it: dropped here (its connections closed
        with :data:`~piquet.ui.web.owners.CLOSE_ELSEWHERE`: they connect again, and the proxy routes them there),
        then its lock given back. A table being read from the store is not given (the asker asks again)."""
        if self.owners is not None and table_id in self._tables:
            self.drop({table_id}, "given to another process, which asked for it")
            self.owners.give_back(table_id)

    def _lost(self, table_ids: set[str]) -> None:
        """Told (from any thread) the tables this process no longer holds: they are dropped on the event loop."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.drop, table_ids)

    def drop(self, table_ids: set[str], why: str = "no longer held by this process") -> None:
        """Forget the tables ``table_ids`` now (this process no longer holds them): nothing more is played here,
        and their connections are closed with :data:`~piquet.ui.web.owners.CLOSE_ELSEWHERE` (a client connects
        again, and reaches the process that holds the table)."""
        for table_id in table_ids:
            table = self._tables.pop(table_id, None)
            self._since.pop(table_id, None)
            if table is None:
                continue
            table.gone = True
            log.warning("table %s: %s; its connections are closed", table_id, why)
            event("dropped", table_id, severity=logging.WARNING, why=why)
            task = asyncio.get_running_loop().create_task(hang_up(
                table.clients, lambda _client: True, CLOSE_ELSEWHERE, "the table moved to another server process: "
                "connect again"))
            _background.add(task)
            task.add_done_callback(_background.discard)

    def _forget(self, table: Table) -> None:
        """Take ``table`` out of memory, and give its lock back where tables are held."""
        if self._tables.get(table.id) is table:
            del self._tables[table.id]
        self._since.pop(table.id, None)
        if self.owners is not None and not table.gone:
            table.gone = True
            self.owners.give_back(table.id)  # queued now: before any later take of the same table

    def _playing(self, table_id: str) -> Partie | None:
        table = self._tables.get(table_id)
        return None if table is None else table.partie

    def _keep(self, table: Table) -> Table:
        """Keep ``table`` in memory (or the one already there with its id); the table kept."""
        kept = self._tables.setdefault(table.id, table)
        self._since.setdefault(table.id, self.clock())
        self.sweep()
        return kept

    def _table(self, info: TableInfo) -> Table:
        table = Table(info, self.store, self.thinker, self.max_budget, self.allowances)
        table.on_end = self._ended
        table.on_seated = self._seated
        table.on_idle = self.release
        return table

    def sweep(self, force: bool = False) -> int:
        """Forget the tables that have been in memory :data:`IDLE_TABLE_SECONDS` with nobody at them and nothing
        moving (a table created and never opened, above all); at most once in :data:`SWEEP_SECONDS` unless
        ``force``. The store keeps them: a link to one reloads it. How many were forgotten."""
        now = self.clock()
        if not force and now - self._swept < SWEEP_SECONDS:
            return 0
        self._swept = now
        gone = [t for t in self._tables.values()
                if now - self._since.get(t.id, now) >= IDLE_TABLE_SECONDS and self._idle(t)]
        for table in gone:
            self._forget(table)
        for buckets in (self.allowances, self._opens):
            for key in [k for k, bucket in buckets.items() if bucket.full(now)]:
                del buckets[key]  # type: ignore[arg-type]
        return len(gone)

    @staticmethod
    def _idle(table: Table) -> bool:
        return not table.clients and (table._driver is None or table._driver.done()) and not table.lock.locked()

    def __len__(self) -> int:
        return len(self._tables)

    async def create(self, kind: TableKind, variant: str = "rubicon", options: dict[str, Any] | None = None,
                     level: int | None = 3, name: str = "Player", takebacks: Takebacks = "fair",
                     budget: float | None = None, tutor: object = None, public: bool = False) -> tuple[Table, str]:
        """A new table, and the token of its creator's seat (seat 0). Raises ``ValueError`` on bad settings, and
        ``not_saved`` (:func:`store_call`) if the store could not take it. ``public``: a room listed in the lobby.
        ``budget``: the computer's CPU seconds a decision (:func:`check_budget`; ``None``: the level's own).
        ``tutor``: the tutor's threshold (:func:`check_tutor`; against the computer only)."""
        info = self._new(kind, variant, options, level, name, takebacks, budget, tutor)
        if public and kind != "room":
            raise ValueError("public: only a room for two is listed in the lobby")
        info.public = public
        await store_call(self.store.create(info), info.id)
        event("created", info.id, kind=kind, variant=variant, level=info.level, public=public)
        if public:
            self.lobby.changed(info.id)
        return self._opened(info)

    def _opened(self, info: TableInfo) -> tuple[Table, str]:
        """A table just created, kept in memory (where tables are held, it is not: the process its id is routed to
        takes it when it is first opened)."""
        table = self._table(info) if self.owners is not None else self._keep(self._table(info))
        token = info.tokens[0]
        assert token is not None
        return table, token

    def _new(self, kind: TableKind, variant: str, options: dict[str, Any] | None, level: int | None,
             name: str, takebacks: Takebacks, budget: float | None = None, tutor: object = None) -> TableInfo:
        if kind not in ("computer", "room"):
            raise Refusal("a table is {kinds}, not {kind}", kinds=lambda lang: words_in(lang)(" or ").join(
                ("'computer'", "'room'")), kind=repr(kind))
        if variant not in VARIANTS:
            raise Refusal("unknown variant {variant} (known: {known})", variant=repr(variant),
                          known=", ".join(VARIANTS))
        options = dict(options or {})
        rules = make_rules(variant, options)  # raises OptionError (a ValueError) on a bad option
        name = clean_name(name) if name.strip() else "Player"  # raises BadName (a ValueError)
        if imitates(name, (COMPUTER_NAME,)):
            raise Refusal("the name {name} looks like the computer's: choose another", name=repr(name))
        if takebacks not in TAKEBACKS:
            raise Refusal("takebacks are {known}, not {takebacks}", known=", ".join(TAKEBACKS),
                          takebacks=repr(takebacks))
        budget = check_budget(budget, self.max_budget)
        threshold = check_tutor(tutor)
        computer: int | None = None
        invite: str | None = None
        if kind == "computer":
            if level not in LEVELS:
                raise Refusal("the computer's level is 1 to 5, not {level}", level=repr(level))
            computer = 1
            other: str | None = COMPUTER_NAME
            tokens: list[str | None] = [secrets.token_urlsafe(SECRET_BYTES), None]
        else:
            level = None
            other = None
            takebacks = "off"  # two people: nothing is taken back
            budget = None  # and no computer thinks
            if threshold is not None:
                raise Refusal("{field}: a room for two has no tutor (the computer does not sit at it)", field="tutor")
            tokens = [secrets.token_urlsafe(SECRET_BYTES), None]
            invite = secrets.token_urlsafe(SECRET_BYTES)
        return TableInfo(secrets.token_urlsafe(9), kind, variant, rules.changed(), level, [name, other], tokens,
                         secrets.token_urlsafe(SECRET_BYTES), computer, invite=invite, seed=secrets.randbits(63),
                         takebacks=takebacks, budget=budget, tutor=threshold)

    async def rematch(self, table: Table, seat: int) -> tuple[str, str]:
        """Another partie with the same settings, asked for by ``seat`` at a finished ``table``: the new table's
        id and the asker's link to it. Against the computer, a new table with the same variant, options, level,
        thinking time, takebacks and tutor. In a room, the first to ask opens a new room in the first seat and
        the other player is told (the table's state says ``rematch``); when he asks, his link is the new room's
        invitation. Raises ``ValueError`` before the partie is over, or when the rematch's room is full."""
        if table.partie is None or not table.partie.is_over:
            raise Refusal("a rematch is asked for once the partie is over")
        async with table.lock:
            new = table.rematch
            if new is None:
                info = table.info
                new = self._new(info.kind, info.variant, info.options, info.level, info.players[seat] or "Player",
                                info.takebacks, info.budget, info.tutor)
                await store_call(self.store.create(new), new.id)
                event("created", new.id, kind=new.kind, variant=new.variant, level=new.level, rematch_of=table.id)
                self._opened(new)
                table.rematch, table.rematch_by = new, seat
            if seat == table.rematch_by:
                link = f"/t/{new.id}#token={new.tokens[0]}"
            elif new.invite is not None:
                link = f"/t/{new.id}#invite={new.invite}"
            else:
                raise Refusal("the rematch's room has both its players already")
        await table.broadcast()
        return new.id, link

    def release(self, table: Table) -> None:
        """Forget a table nobody is at and nothing is moving at: the store keeps it, and :meth:`get`
        reloads it when it is next asked for (so a server's memory holds only the tables in use)."""
        if self._idle(table):
            self._forget(table)

    def get(self, table_id: str) -> Table | None:
        """The table ``table_id`` if it is in memory (:meth:`open` reads one from the store)."""
        return self._tables.get(table_id)

    async def exists(self, table_id: str) -> bool:
        """Whether the server holds the table ``table_id``, in memory or in the store (its row alone read)."""
        return table_id in self._tables or await self.store.exists(table_id)

    def _spend_open(self, address: str) -> None:
        """Count a table read from the store against ``address``'s allowance and its network's; raises
        :class:`OpenRefused` when one is spent."""
        now = self.clock()
        limits = ((address, OPENS_PER_MINUTE_PER_ADDRESS, OPEN_BURST_PER_ADDRESS, "one address"),
                  ("net " + prefix_of(address), OPENS_PER_MINUTE_PER_PREFIX, OPEN_BURST_PER_PREFIX, "one network"))
        buckets = []
        for key, per_minute, burst, whose in limits:
            bucket = self._opens.get(key)
            if bucket is None:
                bucket = self._opens[key] = TokenBucket(per_minute / 60, burst, now)
            buckets.append((bucket, per_minute, whose))
        for bucket, per_minute, whose in buckets:
            if bucket.available(now) < 1:
                wait = math.ceil((1 - bucket.tokens) / bucket.rate)
                raise OpenRefused(wait, "at most {most} tables opened a minute from {whose} (a table not in memory is "
                                        "read and replayed): try again in {wait} s", most=f"{per_minute:g}",
                                  whose=said_in(whose), wait=wait)
        for bucket, _, _ in buckets:
            bucket.take(now)

    async def open(self, table_id: str, kind: OpenKind | None, secret: str, address: str = "") -> Table:
        """The table ``table_id``, for a link of ``kind`` with ``secret`` (``None``: a seat's or the spectators'
        secret): read from the store and replayed if it is not in memory, and only once the secret is found to hold
        a place there (:func:`check_link`); the replay runs off the event loop. Raises :class:`SeatRefused` (4404:
        no such table, or 4403/4410 as :func:`check_link`), :class:`OpenRefused` when ``address`` has read too
        many tables lately, :class:`Elsewhere` when another process holds the table, or
        :class:`~piquet.ui.web.store.StoreUnavailable`."""
        self._loop = asyncio.get_running_loop()
        table = self._tables.get(table_id)
        if table is None:
            self._spend_open(address)
            lock = self._opening.setdefault(table_id, asyncio.Lock())
            try:
                async with lock:
                    table = self._tables.get(table_id)
                    if table is None:
                        table = await self._load(table_id, kind, secret)
            finally:
                if self._opening.get(table_id) is lock and not lock.locked():
                    del self._opening[table_id]
        check_link(table.info, kind, secret)
        return table

    async def _load(self, table_id: str, kind: OpenKind | None, secret: str) -> Table:
        """Read the table from the store and replay it, once this process holds it (where tables are held); the
        table given back if it is not kept (unknown, a link that holds no place, the store unavailable...)."""
        owners = self.owners
        if owners is not None:
            try:
                if not await owners.take(table_id):
                    raise Elsewhere(table_id)
            except OwnershipLost as e:
                raise StoreUnavailable(str(e)) from None
        try:
            info = await self.store.load(table_id)
            if info is None:
                raise SeatRefused(4404, "no such table")
            check_link(info, kind, secret)
            began = perf_counter()
            built = await asyncio.get_running_loop().run_in_executor(_REPLAY_THREAD, self._table, info)
        except BaseException:
            if owners is not None:
                await owners.give_back(table_id)
            raise
        event("opened", table_id, ms=(perf_counter() - began) * 1000, actions=len(info.actions),
              version=info.version)
        return self._keep(built)

