"""The tables of the server: a game, its seats and their tokens, its clients, and the computer's moves.

A :class:`Table` holds one :class:`~piquet.engine.partie.Partie`; every action goes
through the engine, is committed to the store, and only then is each client
sent its own player's state (the acknowledgement). The chance events (the cut,
the shuffle) are the server's, drawn from the operating system's randomness.
:class:`Tables` creates tables and finds them again, reloading a table from
the store (re-playing its actions) the first time it is asked for after a restart.

Who may sit (``docs/security.md``): each seat is held by one secret at a time, of
128 random bits, compared in constant time. A room's invite admits one person
once: the guest who joins gets a seat secret of his own and the invite is spent.
A player moves to another device with a one-time link his seat asks for; the new
device gets a fresh secret and the old one's is revoked.

Takebacks against the computer are ``off``, ``fair`` (the default: never back past
something the player did not know at that decision: a card the computer played or
showed, a card drawn, the hands reckoned at the first lead, a deal) or ``free`` (for practice; every takeback is written
down, in the record and on the score sheet): the one policy of every interface,
:mod:`piquet.ui.takebacks`. Every deal's cards are fixed by the table's seed and the
deal's number, so no takeback deals a hand anew.

The computer at a table and its hints think for a budget of CPU seconds per decision
(:mod:`piquet.ai.budget`): the level's own unless the table's creator set one, within the
server's cap (``piquet serve --max-budget``), which also decides whether a table may think
without a limit.

A hint is the review's (:mod:`piquet.ai.hints`): the best choice, why, the next best and the margin;
where the review values nothing (who deals, a carte blanche, a concession), the strongest level's
choice. A table against the computer may have the tutor (chosen when it is created): before a
person's choice that loses the tutor's threshold or more, the table answers the ``tutor`` warning
instead of applying it, and applies it when the player sends it again confirmed. A room has no tutor.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import math
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypedDict, TypeVar, cast

from piquet.ai import hints
from piquet.ai.agent import Agent
from piquet.ai.levels import LEVELS as LEVEL_SETTINGS
from piquet.ai.levels import make_agent
from piquet.engine.actions import Action, ChooseDealer, Concede, Deal, Declare
from piquet.engine.partie import Partie, Phase
from piquet.engine.record import action_from_data, action_to_data
from piquet.engine.variants import VARIANTS, make_rules
from piquet.ui import takebacks as policy
from piquet.ui.takebacks import TAKEBACKS, Takeback, Takebacks
from piquet.ui.web.guard import TokenBucket, prefix_of
from piquet.ui.web.names import BadName, clean_name, imitates
from piquet.ui.web.protocol import (
    HintMessage,
    LinkKind,
    MoveMessage,
    ProtocolError,
    SeatMessage,
    ServerMessage,
    SheetRow,
    StateMessage,
    TableKind,
    TableStatus,
    TutorMessage,
    ViewData,
    hint_message,
    prompt_data,
    read_action,
    result_data,
    rules_data,
    tutor_message,
    view_data,
)
from piquet.ui.web.store import AsyncStore, InThread, Store, StoreUnavailable, TableInfo
from piquet.ui.web.thinking import Thinker, ThinkingFailed, reviewed

__all__ = ["MAX_BUDGET", "MIN_BUDGET", "Client", "SeatRefused", "Table", "Tables", "check_budget", "check_tutor",
           "same_secret"]

LEVELS = (1, 2, 3, 4, 5)
#: The level whose advice the hint gives.
HINT_LEVEL = 5
#: The CPU seconds a table may give the computer for one decision, at most, unless the server is started with
#: another cap (``piquet serve --max-budget``; 0 there: no cap, and a table may ask for no limit). A decision may
#: take up to three times its budget by the wall clock (:data:`piquet.ai.budget.WALL_FACTOR`).
MAX_BUDGET = 5.0
#: The least a table may give the computer for one decision (with less, level 5 would solve hardly more than the one
#: sampled deal it always solves for each card).
MIN_BUDGET = 0.1
#: The budget of a table that sets none, where its level does not search (levels 1 and 2: only its hints think).
DEFAULT_BUDGET = LEVEL_SETTINGS[HINT_LEVEL].budget
COMPUTER_NAME = "Computer"
#: Random bytes in a seat secret, an invite, a one-time link and a spectator secret (128 bits).
SECRET_BYTES = 16
#: How long a one-time link to move a seat to another device stays valid, in seconds.
MOVE_SECONDS = 15 * 60


#: The highest tutor's threshold a table may ask for, in points of the deal (beyond it a choice would lose more than
#: most deals are worth: no warning would ever come).
MAX_TUTOR = 100.0


def check_tutor(tutor: object) -> float | None:
    """A table's tutor as its creator asked for it: ``None`` or ``False`` (no tutor), ``True`` (the review's "?"
    mark, :data:`piquet.ai.hints.TUTOR_THRESHOLD`) or a threshold in points; a ``ValueError`` naming the field
    and the reason otherwise.

    >>> check_tutor(True), check_tutor(None), check_tutor(2)
    (5.0, None, 2.0)
    >>> check_tutor("yes")
    Traceback (most recent call last):
    ...
    ValueError: tutor: 'yes' is not true, false or a number of points
    """
    if tutor is None or tutor is False:
        return None
    if tutor is True:
        return float(hints.TUTOR_THRESHOLD)
    if not isinstance(tutor, (int, float)) or not math.isfinite(tutor):
        raise ValueError(f"tutor: {tutor!r} is not true, false or a number of points")
    if not 0 < tutor <= MAX_TUTOR:
        raise ValueError(f"tutor: {tutor:g} points is out of range: the threshold is more than 0 and at most "
                         f"{MAX_TUTOR:g} points")
    return float(tutor)


def check_budget(budget: object, cap: float = MAX_BUDGET) -> float | None:
    """A table's thinking budget as its creator asked for it (``None``: the level's own), or a ``ValueError``
    naming the field and the reason: not a number, under :data:`MIN_BUDGET`, over the server's ``cap``, or 0 (no
    limit) on a server with a cap (``cap`` 0: none).

    >>> check_budget(2), check_budget(None), check_budget(0, cap=0)
    (2.0, None, 0.0)
    >>> check_budget(9)
    Traceback (most recent call last):
    ...
    ValueError: budget: 9 s is out of range: the computer may think 0.1 to 5 s a decision on this server
    """
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not math.isfinite(budget):
        raise ValueError(f"budget: {budget!r} is not a number of seconds")
    seconds = float(budget)
    if seconds == 0:
        if cap > 0:
            raise ValueError(f"budget: 0 (no limit) is not allowed on this server: the computer may think at most "
                             f"{cap:g} s a decision")
        return seconds
    if seconds < MIN_BUDGET or (cap > 0 and seconds > cap):
        allowed = (f"{MIN_BUDGET:g} to {cap:g} s a decision" if cap > 0
                   else f"{MIN_BUDGET:g} s or more a decision, or 0 for no limit,")
        raise ValueError(f"budget: {seconds:g} s is out of range: the computer may think {allowed} on this server")
    return seconds


def same_secret(expected: str | None, given: object) -> bool:
    """Whether ``given`` is the secret ``expected``, compared in constant time (``hmac.compare_digest``)."""
    if expected is None or not isinstance(given, str):
        return False
    return hmac.compare_digest(expected.encode("utf-8", "surrogatepass"), given.encode("utf-8", "surrogatepass"))


class SeatLinks(TypedDict):
    """The links a seat is shown: a room's invite (to its creator, while it waits), and the spectators'."""

    invite: str | None
    spectate: str


class SeatRefused(Exception):
    """A link that gives no place at the table: ``code`` is the WebSocket close code (4403: no such secret,
    4410: an invite or one-time link already used or expired), ``reason`` says why."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


#: Hints a seat may ask at once; then one more every :data:`HINT_INTERVAL` seconds (a level-5 hint
#: costs a worker up to the table's budget of CPU time, a second by default). The allowance is the seat's, kept by
#: the server (:class:`Tables`) whether or not the table is in memory: a new connection does not refill it.
HINT_BURST = 5
HINT_INTERVAL = 6.0
#: Tables one address (and one network: see :func:`piquet.ui.web.guard.prefix_of`) may have read from the store
#: and replayed a minute, on average, and at once: a table not in memory costs its reading and its replay.
OPENS_PER_MINUTE_PER_ADDRESS = 30.0
OPEN_BURST_PER_ADDRESS = 30.0
OPENS_PER_MINUTE_PER_PREFIX = 120.0
OPEN_BURST_PER_PREFIX = 120.0

_log = logging.getLogger(__name__)

#: Seconds a client's connection may take to accept one message before the client is dropped.
SEND_TIMEOUT = 10.0
#: Messages other than states (errors, hints) that may wait for one client; a client further behind is dropped.
CLIENT_QUEUE = 32

#: Seconds a table stays in memory with nobody at it (created and never opened, or only its page asked for)
#: before it is forgotten; the store keeps it.
IDLE_TABLE_SECONDS = 600.0
#: Seconds between two sweeps of the idle tables.
SWEEP_SECONDS = 60.0
#: Seconds before the computer's move is saved again, when the store could not save it.
STORE_RETRY = 2.0
#: What a player is told when his action could not be saved (and so was not applied).
NOT_SAVED = "the table could not be saved; try again"

log = logging.getLogger("piquet.ui.web")
T = TypeVar("T")

#: A table read from the store is replayed here, off the event loop, one at a time.
_REPLAY_THREAD = ThreadPoolExecutor(1, thread_name_prefix="piquet-replay")


async def store_call(call: Coroutine[Any, Any, T]) -> T:
    """A change of the store awaited (never on the event loop: :class:`~piquet.ui.web.store.AsyncStore`); a
    :class:`ProtocolError` ``not_saved`` if the store could not make it."""
    try:
        return await call
    except StoreUnavailable as e:
        log.warning("the store could not save: %s", e)
        raise ProtocolError("not_saved", NOT_SAVED) from None


class Client:
    """One connection at a table: the seat its token holds (``None``: a spectator) and how to send it text.

    Nothing the table does waits on a client: :meth:`post` queues a message and returns, and the client's own
    writer task sends them in order, each within :data:`SEND_TIMEOUT` seconds. States are complete, so a client
    behind is sent only the latest one; of the other messages (errors, hints) at most :data:`CLIENT_QUEUE` may
    wait. A client that cannot keep up is dropped (``on_drop`` is called: the server closes its socket), never
    waited for.

    ``invite`` is the invite a room's guest came with, until he joins; ``hang_up`` ends the connection with a
    code and a reason (when an invite is spent by someone else, or the seat moved to another device).
    """

    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]],
                 on_drop: Callable[[Client, str], None] | None = None,
                 hang_up: Callable[[int, str], Awaitable[None]] | None = None, invite: str | None = None,
                 lang: str = "en", address: str = "") -> None:
        self.seat = seat
        self.lang = lang
        #: The client's address (its network's, for the fair turns of the hints).
        self.address = address
        self.send = send
        self.on_drop = on_drop
        self.hang_up = hang_up
        self.invite = invite
        self.dropped = False
        self._queue: deque[tuple[bool, str]] = deque()  # (is a state, text), oldest first
        self._ready = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None

    def post(self, text: str, state: bool = False) -> None:
        """Queue ``text`` for the client (a ``state`` replaces any state still waiting); never waits."""
        if self.dropped:
            return
        queue = self._queue
        if state:
            for i, (is_state, _) in enumerate(queue):
                if is_state:
                    del queue[i]
                    break
        elif sum(1 for is_state, _ in queue if not is_state) >= CLIENT_QUEUE:
            self.drop(f"more than {CLIENT_QUEUE} messages waiting for it")
            return
        queue.append((state, text))
        self._ready.set()
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        while not self.dropped:
            if not self._queue:
                self._ready.clear()
                await self._ready.wait()
                continue
            _, text = self._queue.popleft()
            try:
                async with asyncio.timeout(SEND_TIMEOUT):  # no task of its own a message, as wait_for makes one
                    await self.send(text)
            except TimeoutError:
                self.drop(f"a message not taken in {SEND_TIMEOUT:g} s")
            except Exception:  # the connection is gone
                self.drop("its connection closed")

    def drop(self, reason: str) -> None:
        """Stop sending to the client and tell the server (which closes its socket)."""
        if self.dropped:
            return
        self.dropped = True
        self._queue.clear()
        self._ready.set()
        log.info("dropped a client: %s", reason)
        if self.on_drop is not None:
            self.on_drop(self, reason)

    def close(self) -> None:
        """The connection ended: stop the writer."""
        self.dropped = True
        self._queue.clear()
        if self._writer is not None and self._writer is not asyncio.current_task():
            self._writer.cancel()


class Table:
    """One game at the server. ``max_budget`` is the server's cap on the computer's thinking per decision (0: none):
    a table stored with more, or with no limit, thinks for the cap."""

    def __init__(self, info: TableInfo, store: AsyncStore | Store, thinker: Thinker | None = None,
                 max_budget: float = MAX_BUDGET, allowances: dict[tuple[str, int], TokenBucket] | None = None) -> None:
        self.info = info
        self.store = _awaited(store)
        self.thinker = thinker if thinker is not None else Thinker(workers=0)
        self.max_budget = max_budget
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.rng = random.Random(secrets.randbits(64))
        self.agent: Agent | None = None
        self.adviser: Agent | None = None
        self.partie: Partie | None = None
        self._driver: asyncio.Task[None] | None = None
        self._states: dict[tuple[int | None, str], str] = {}
        #: For each action applied, what a takeback needs to know of it (:class:`piquet.ui.takebacks.Step`:
        #: whether it was a person's decision with a choice, whether it showed its player cards).
        self._steps: list[policy.Step] = []
        self._hinting = False
        #: Each seat's allowance of hints, (table, seat): kept by the server (:class:`Tables`), not the connection.
        self._hints = allowances if allowances is not None else {}
        self._advised: dict[int, tuple[int, Action]] = {}  # seat: (the version, the review's hint's best choice)
        #: The table of the rematch once one is asked for (in memory: a server restarted forgets it, and the next
        #: asker opens another).
        self.rematch: TableInfo | None = None
        self.rematch_by: int | None = None  # the seat that asked for it first
        if info.computer is not None:
            self.agent = self._agent(info.level or 3)
        if all(p is not None for p in info.players):
            self._start()

    # ------------------------------------------------------------ state
    @property
    def id(self) -> str:
        return self.info.id

    @property
    def names(self) -> tuple[str, str]:
        a, b = self.info.players
        return (a or "", b or "")

    @property
    def version(self) -> int:
        """The table's version: moved on by one at each action and takeback, never back (stored with the table)."""
        return self.info.version

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

    def _agent(self, level: int) -> Agent:
        """A computer player of ``level`` for this table, a searching level with the table's budget (the level as it
        is when that is its own)."""
        spec = f"level{level}"
        if level in LEVEL_SETTINGS and self.budget_for(level) != LEVEL_SETTINGS[level].budget:
            spec += f":budget={self.budget_for(level)!r}"
        return make_agent(spec, secrets.randbits(32))

    @property
    def status(self) -> TableStatus:
        if self.partie is None:
            return "waiting"
        return "over" if self.partie.is_over else "playing"

    def _start(self) -> None:
        """Create the partie and re-play the stored actions (after a restart, exactly where it was)."""
        names = self.names
        self.partie = Partie(names, self.info.variant, self.info.options)
        self._steps = []
        for i, data in enumerate(self.info.actions):
            self._apply(action_from_data(data, names, f"table {self.id}, action {i}"))

    def _apply(self, action: Action) -> None:
        """Apply an action (already verified), noting what a takeback needs to know of it."""
        partie = self.partie
        assert partie is not None
        self._steps.append(policy.push(partie, action))

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds; raises ``KeyError`` for a token that holds none."""
        for seat, secret in enumerate(self.info.tokens):
            if same_secret(secret, token):
                return seat
        raise KeyError("no seat at this table is held by that token")

    def is_spectator(self, token: str | None) -> bool:
        return same_secret(self.info.spectate, token)

    async def admit(self, kind: LinkKind, secret: str) -> tuple[int | None, str | None]:
        """The place a link's secret gives (``kind``: ``token``, ``spectate``, ``invite`` or ``move``) and, for a
        one-time link to another device, the seat's new secret (the old device's is revoked: call
        :meth:`moved` once the new secret is sent). Raises :class:`SeatRefused`, or ``not_saved`` if the
        store could not save a new secret."""
        if kind == "spectate" and self.is_spectator(secret):
            return None, None
        if kind == "token":
            try:
                return self.seat_of(secret), None
            except KeyError:
                pass
        if kind == "invite" and self.info.kind == "room":
            if same_secret(self.info.invite, secret):
                return 1, None
            raise SeatRefused(4410, "this invitation has been used: the seat is taken (ask for the watch link "
                                    "to follow the game)")
        if kind == "move":
            for seat, move in enumerate(self.info.moves):
                if move is not None and same_secret(move[0], secret):
                    if time.time() > move[1]:
                        break
                    token = secrets.token_urlsafe(SECRET_BYTES)
                    self.info.moves[seat] = None  # spent at once: the link opened twice finds it gone
                    try:
                        await store_call(self.store.set_token(self.id, seat, token))
                    except ProtocolError:
                        self.info.moves[seat] = move
                        raise
                    self.info.tokens[seat] = token
                    return seat, token
            raise SeatRefused(4410, "this link to move a seat has been used or has expired: ask for a new one "
                                    "on the device that holds the seat")
        raise SeatRefused(4403, "that link holds no seat at this table")

    async def moved(self, seat: int, keep: Client) -> None:
        """Close the connections of ``seat`` other than ``keep``: their secret no longer holds it."""
        for client in list(self.clients):
            if client.seat == seat and client is not keep:
                self.clients.discard(client)
                client.close()
                if client.hang_up is not None:
                    await client.hang_up(4401, "this seat moved to another device")

    async def move_link(self, seat: int | None) -> MoveMessage:
        """A one-time link that moves ``seat`` to another device (replacing any earlier one not yet used)."""
        if seat is None:
            raise ProtocolError("not_allowed", "a spectator holds no seat to move")
        if self.info.tokens[seat] is None:
            raise ProtocolError("not_allowed", "this seat has no secret yet: join the room first")
        secret = secrets.token_urlsafe(SECRET_BYTES)
        move = [secret, time.time() + MOVE_SECONDS]
        await store_call(self.store.set_move(self.id, seat, move))
        self.info.moves[seat] = move
        return {"type": "move", "link": f"/t/{self.id}#move={secret}", "expires_in": MOVE_SECONDS}

    def links(self, seat: int | None) -> SeatLinks:
        """The links a client is shown, secrets in the fragment (after ``#``), which a browser never sends."""
        base = f"/t/{self.id}"
        invite = None
        if self.info.kind == "room" and seat == 0 and self.status == "waiting" and self.info.invite is not None:
            invite = f"{base}#invite={self.info.invite}"
        return {"invite": invite, "spectate": f"{base}#spectate={self.info.spectate}"}

    def can_hint(self, seat: int | None) -> bool:
        """Whether ``seat`` may ask for hints (and the page offers them): a player's seat at a table against the
        computer. Between two people the computer gives none, and a spectator asks for nothing."""
        return self.info.computer is not None and seat is not None and seat != self.info.computer

    def can_undo(self, seat: int | None, declare_best: bool = False) -> bool:
        return self._undo_target(seat, declare_best) is not None

    def _undo_target(self, seat: int | None, declare_best: bool = False) -> int | None:
        """How many actions to keep to take back ``seat``'s last decision with a choice (against the computer
        only, as the table's takebacks allow: :func:`piquet.ui.takebacks.target`). ``declare_best``: the page
        declares for him ("Declare my best"), and the takeback goes past his declarations to the decision before."""
        if self.partie is None or self.info.computer is None or seat is None or seat == self.info.computer:
            return None
        return policy.target(self.partie, self._steps, seat, self.info.takebacks,
                             _declaration if declare_best else None)

    def state(self, seat: int | None, lang: str = "en") -> str:
        """The ``state`` message for ``seat`` (``None``: a spectator), as JSON text, its words in ``lang``."""
        cached = self._states.get((seat, lang))
        if cached is not None:
            return cached
        partie = self.partie
        view: ViewData | None = None
        prompt = None
        if partie is not None:
            view = view_data(partie.view(seat), lang)
            view["result"] = result_data(partie, lang)
            _note_takebacks(view["sheet"], self.info.taken_back, self.names)
            prompt = prompt_data(partie, seat, advise=self.info.computer is not None, lang=lang)
        links = self.links(seat)
        data: StateMessage = {
            "type": "state",
            "table": {"id": self.id, "kind": self.info.kind, "variant": self.info.variant,
                      "title": VARIANTS[self.info.variant].title, "options": self.info.options,
                      "level": self.info.level, "budget": self.budget, "tutor": self.info.tutor,
                      "status": self.status,
                      "takebacks": self.info.takebacks, "taken_back": len(self.info.taken_back),
                      "invite": links["invite"], "spectate": links["spectate"],
                      "rules": rules_data(self.info.variant, self.info.options), "rematch": self.rematch is not None},
            "seat": seat,
            "players": list(self.info.players),
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

    async def broadcast(self) -> None:
        """Queue the new state for every client (each is sent it by its own writer: none is waited for)."""
        self._states.clear()
        for client in list(self.clients):
            if client.dropped:  # a closed or stalled connection leaves the table; the game goes on
                self.clients.discard(client)
            else:
                client.post(self.state(client.seat, client.lang), state=True)

    # ------------------------------------------------------------ changes
    async def _push(self, action: Action) -> None:
        """Commit the action to the store, then apply it (already verified by the engine)."""
        partie = self.partie
        assert partie is not None
        partie.verify(action)
        version = self.version + 1
        await store_call(self.store.append(self.id, partie.ply, action_to_data(action, self.names), version))
        self._apply(action)
        self.info.version = version

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
        choice, self.agent = await self.thinker.choose(agent, view, partie.legal_actions(seat), level, table=self.id,
                                                       budget=self.budget_for(level))
        if partie.phase is Phase.CHOOSE_DEALER and not isinstance(choice, ChooseDealer):
            return ChooseDealer(seat, 1 - seat)
        return choice

    async def advance(self) -> None:
        """Play what needs no person (the cut, dealing, the computer's moves), broadcasting each."""
        while True:
            async with self.lock:
                action = self._automatic()
                if action is None and self._computer_to_act():
                    try:
                        action = await self._think()
                    except ThinkingFailed as e:
                        _log.warning("table %s: %s", self.id, e)
                        await self._tell(ProtocolError("computer_failed", "the computer could not decide: "
                                                       "reload the page to ask it again").to_data())
                        return
                if action is None:
                    return
                try:
                    await self._push(action)
                except ProtocolError as e:  # the store refused (locked by another process): try again shortly
                    log.warning("table %s: %s", self.id, e.message)
                    asyncio.get_running_loop().call_later(STORE_RETRY, self.kick)
                    return
            await self.broadcast()

    def kick(self) -> None:
        """Make sure the automatic moves run (after a change, or a reload from the store)."""
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self.advance())

    def _require_version(self, version: int | None) -> None:
        if version is not None and version != self.version:
            raise ProtocolError("stale", f"this answers the state of version {version}, but the table is at version "
                                         f"{self.version}: the current state follows")

    async def act(self, seat: int | None, data: object, version: int | None = None,
                  confirm: bool = False, lang: str = "en", address: str = "") -> TutorMessage | None:
        """A player's action from a client; raises :class:`ProtocolError` and changes nothing if it
        is not his to make or not legal, or (``version`` given) answers a state that is not the table's now.
        With the tutor, a choice that loses its threshold or more is not applied: the warning is returned,
        for the client (``confirm``: the player was warned and plays it anyway)."""
        async with self.lock:
            partie = self._require_playing(seat)
            self._require_version(version)
            assert seat is not None
            action = read_action(data, partie, seat)
            if isinstance(action, int):
                action = self._deal(action)
            elif (not confirm and self._tutors(seat) and reviewed(partie.phase) and hints.questioned(partie, seat)
                  and not self._was_advised(seat, action)):
                warning = await self._check(partie, action, address)
                if warning is not None:
                    assert isinstance(data, dict)
                    return tutor_message(warning, data, self.names, self.version, lang)
            await self._push(action)
        await self.broadcast()
        self.kick()
        return None

    def _was_advised(self, seat: int, action: Action) -> bool:
        """Whether ``action`` is the choice the review's hint gave ``seat`` for this decision (the tutor does not
        question it: :func:`piquet.ai.hints.follows`)."""
        advised = self._advised.get(seat)
        return advised is not None and advised[0] == self.version and hints.follows(action, advised[1])

    def _tutors(self, seat: int) -> bool:
        """Whether the tutor checks ``seat``'s choices: a table against the computer with the tutor, a person's seat."""
        return self.info.tutor is not None and self.info.computer is not None and seat != self.info.computer

    def _seed(self) -> int:
        """The seed of a hint's and a tutor's check's worlds: the table's and the decision's place."""
        return self.info.seed * 1_000_003 + (self.partie.ply if self.partie is not None else 0)

    async def _check(self, partie: Partie, action: Action, address: str = "") -> hints.TutorWarning | None:
        """The tutor's check of ``action``, in a worker within the hints' budget, from the seat's view and legal
        actions (``computer_failed`` if it cannot be had: nothing is applied)."""
        assert self.info.tutor is not None and partie.to_act is not None
        seat = partie.to_act
        try:
            return await self.thinker.check(partie.view(seat), partie.legal_actions(seat), action, self.info.tutor,
                                            self._seed(), self.budget_for(HINT_LEVEL), table=self.id,
                                            address=prefix_of(address))
        except ThinkingFailed as e:
            _log.warning("table %s, tutor: %s", self.id, e)
            raise ProtocolError("computer_failed", "the tutor could not check your choice: send it again") from None

    def _require_playing(self, seat: int | None) -> Partie:
        if seat is None:
            raise ProtocolError("not_allowed", "a spectator watches; he cannot act")
        if self.partie is None:
            raise ProtocolError("not_allowed", "the partie starts when the second player joins")
        return self.partie

    async def join(self, seat: int | None, name: object, client: Client | None = None) -> None:
        """A room's guest takes his seat. With ``client`` (the guest's connection, which came with the
        invite), he is sent his own seat secret (``{"type": "seat", "token": ...}``) before anything else,
        the invite is spent, and every other connection that came with it is closed."""
        async with self.lock:
            if seat is None or self.info.kind != "room" or self.partie is not None or seat != 1:
                raise ProtocolError("not_allowed", "only a room's second player joins, once, before the partie")
            if client is not None and not same_secret(self.info.invite, client.invite):
                raise ProtocolError("not_allowed", "this invitation has been used: the seat is taken")
            try:
                clean = clean_name(str(name))
            except BadName as e:
                raise ProtocolError("malformed", str(e)) from None
            if imitates(clean, (self.info.players[0], COMPUTER_NAME)):
                raise ProtocolError("not_allowed", f"{clean!r} looks like the other player's name or the "
                                                   "computer's: choose another")
            token = secrets.token_urlsafe(SECRET_BYTES)
            await store_call(self.store.join(self.id, seat, clean, token))
            self.info.players[seat] = clean
            self.info.tokens[seat] = token
            self.info.invite = None
            self._start()
            if client is not None:
                client.invite = None
                seat_message: SeatMessage = {"type": "seat", "seat": seat, "token": token}
                client.post(json.dumps(seat_message))
            for other in list(self.clients):
                if other.invite is not None:  # came with the invite, now spent
                    self.clients.discard(other)
                    other.close()
                    if other.hang_up is not None:
                        await other.hang_up(4410, "this invitation has been used: the seat is taken")
        await self.broadcast()
        self.kick()

    async def undo(self, seat: int | None, version: int | None = None, declare_best: bool = False) -> None:
        """Take back ``seat``'s last decision with a choice, as the table's takebacks allow (``declare_best``: past
        the declarations the page made for him); raises ``not_allowed`` with the reason where none may be."""
        async with self.lock:
            if self.info.computer is None:
                raise ProtocolError("not_allowed", "moves are taken back only against the computer")
            partie = self._require_playing(seat)
            self._require_version(version)
            assert seat is not None
            target = self._undo_target(seat, declare_best)
            if target is None:
                raise ProtocolError("not_allowed", policy.refusal(partie, self._steps, seat, self.info.takebacks,
                                                                  _declaration if declare_best else None))
            takeback = None
            if self.info.takebacks == "free":
                takeback = policy.entry(partie.actions, target, self.names[seat])
            version = self.version + 1
            await store_call(self.store.take_back(self.id, target, takeback, version))
            self.info.version = version
            if takeback is not None:
                self.info.taken_back.append(takeback)
            while partie.ply > target:
                partie.pop()
                self._steps.pop()
        await self.broadcast()
        self.kick()

    async def _tell(self, data: ServerMessage) -> None:
        """Send every client at the table the same message."""
        text = json.dumps(data, separators=(",", ":"))
        for client in list(self.clients):
            if client.dropped:  # a closed or stalled connection leaves the table
                self.clients.discard(client)
            else:
                client.post(text)

    def _count_hint(self, seat: int) -> None:
        """Count a hint against the seat's allowance (:data:`HINT_BURST`, one more every :data:`HINT_INTERVAL`
        seconds); raises ``busy`` if none is left."""
        now = time.monotonic()
        bucket = self._hints.get((self.id, seat))
        if bucket is None:
            bucket = self._hints[self.id, seat] = TokenBucket(1 / HINT_INTERVAL, HINT_BURST, now)
        if not bucket.take(now):
            wait = (1 - bucket.tokens) * HINT_INTERVAL
            raise ProtocolError("busy", f"hints are limited to {HINT_BURST} at once and one every "
                                        f"{HINT_INTERVAL:g} s: ask again in {wait:.0f} s")

    async def hint(self, seat: int | None, lang: str = "en", address: str = "") -> HintMessage:
        """The review's hint for ``seat``'s decision (where the review values nothing, the strongest level's choice).
        One hint at a time per table: another asked while
        the computer thinks about one is refused (``busy``), as is a hint past the seat's allowance or while the
        computer's workers are loaded. ``address``: the asking client's (the hints lane serves addresses by turns)."""
        if self.info.computer is None:
            raise ProtocolError("not_allowed", "between two people the computer gives no hints")
        if self._hinting:
            raise ProtocolError("busy", "the computer is still thinking about your last hint")
        async with self.lock:
            partie = self._require_playing(seat)
            assert seat is not None
            if partie.to_act != seat or partie.is_over:
                raise ProtocolError("not_your_turn", "a hint is for a decision of yours, and it is not your turn")
            network = prefix_of(address)  # the hints lane serves networks by turns
            if self.thinker.busy(network):
                raise ProtocolError("busy", "the computer is busy with other tables: ask for a hint again shortly")
            self._count_hint(seat)
            if self.adviser is None:
                self.adviser = self._agent(HINT_LEVEL)
            adviser = self.adviser
            view = partie.view(seat)
            if partie.phase is Phase.DEAL:
                return hint_message(adviser.choose_packets(view, partie.legal_packets()), self.names, lang)
            legal = partie.legal_actions(seat)
            budget = self.budget_for(HINT_LEVEL)
            self._hinting = True
            try:
                if reviewed(partie.phase):
                    advice = await self.thinker.hint(view, legal, self._seed(), budget, table=self.id,
                                                     address=network)
                    if advice is not None:
                        self._advised[seat] = (self.version, advice.best)
                        return hint_message(advice, self.names, lang)
                action, self.adviser = await self.thinker.choose(adviser, view, legal, HINT_LEVEL, table=self.id,
                                                                 budget=budget, hint_for=network)
            except ThinkingFailed as e:
                _log.warning("table %s, hint: %s", self.id, e)
                raise ProtocolError("computer_failed", "the computer could not think of a hint: ask again") from None
            finally:
                self._hinting = False
            return hint_message(action, self.names, lang)


class OpenRefused(Exception):
    """Too many tables read from the store for one address (or its network) lately: try again in ``retry_after``
    seconds."""

    def __init__(self, reason: str, retry_after: float) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


def check_link(info: TableInfo, kind: LinkKind | None, secret: str) -> None:
    """Raise :class:`SeatRefused` unless ``secret`` gives a place at the table ``info`` as a link of ``kind`` would
    (``None``: a seat's secret or the spectators', as the HTTP routes take them); changes nothing, replays nothing."""
    if kind in ("spectate", None) and same_secret(info.spectate, secret):
        return
    if kind in ("token", None) and any(same_secret(token, secret) for token in info.tokens):
        return
    if kind == "invite" and info.kind == "room":
        if same_secret(info.invite, secret):
            return
        raise SeatRefused(4410, "this invitation has been used: the seat is taken (ask for the watch link "
                                "to follow the game)")
    if kind == "move":
        if any(move is not None and same_secret(move[0], secret) and time.time() <= move[1] for move in info.moves):
            return
        raise SeatRefused(4410, "this link to move a seat has been used or has expired: ask for a new one "
                                "on the device that holds the seat")
    raise SeatRefused(4403, "that link holds no seat at this table")


def _awaited(store: AsyncStore | Store) -> AsyncStore:
    """``store`` as the server awaits it: itself if it is an :class:`~piquet.ui.web.store.AsyncStore`, else called in
    a thread of its own (:class:`~piquet.ui.web.store.InThread`)."""
    if asyncio.iscoroutinefunction(getattr(store, "append", None)):
        return cast(AsyncStore, store)
    return InThread(cast(Store, store))


class Tables:
    """Every table of the server, created here or reloaded from the store when first asked for. ``store``: the
    store, awaited (a :class:`~piquet.ui.web.store.Store` is called in a thread of its own: :class:`InThread`)."""

    def __init__(self, store: AsyncStore | Store, thinker: Thinker | None = None,
                 clock: Callable[[], float] = time.monotonic, max_budget: float = MAX_BUDGET) -> None:
        if not 0 <= max_budget < math.inf:
            raise ValueError(f"the cap on the computer's thinking is 0 (none) or more seconds, not {max_budget!r}")
        self.store = _awaited(store)
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

    def _keep(self, table: Table) -> Table:
        """Keep ``table`` in memory (or the one already there with its id); the table kept."""
        kept = self._tables.setdefault(table.id, table)
        self._since.setdefault(table.id, self.clock())
        self.sweep()
        return kept

    def _table(self, info: TableInfo) -> Table:
        return Table(info, self.store, self.thinker, self.max_budget, self.allowances)

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
            self._tables.pop(table.id, None)
            self._since.pop(table.id, None)
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
                     budget: float | None = None, tutor: object = None) -> tuple[Table, str]:
        """A new table, and the token of its creator's seat (seat 0). Raises ``ValueError`` on bad settings, and
        ``not_saved`` (:func:`store_call`) if the store could not take it.
        ``budget``: the computer's CPU seconds a decision (:func:`check_budget`; ``None``: the level's own).
        ``tutor``: the tutor's threshold (:func:`check_tutor`; against the computer only)."""
        info = self._new(kind, variant, options, level, name, takebacks, budget, tutor)
        await store_call(self.store.create(info))
        return self._opened(info)

    def _opened(self, info: TableInfo) -> tuple[Table, str]:
        table = self._keep(self._table(info))
        token = info.tokens[0]
        assert token is not None
        return table, token

    def _new(self, kind: TableKind, variant: str, options: dict[str, Any] | None, level: int | None,
             name: str, takebacks: Takebacks, budget: float | None = None, tutor: object = None) -> TableInfo:
        if kind not in ("computer", "room"):
            raise ValueError(f"a table is 'computer' or 'room', not {kind!r}")
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
        options = dict(options or {})
        rules = make_rules(variant, options)  # raises OptionError (a ValueError) on a bad option
        name = clean_name(name) if name.strip() else "Player"  # raises BadName (a ValueError)
        if imitates(name, (COMPUTER_NAME,)):
            raise ValueError(f"the name {name!r} looks like the computer's: choose another")
        if takebacks not in TAKEBACKS:
            raise ValueError(f"takebacks are {', '.join(TAKEBACKS)}, not {takebacks!r}")
        budget = check_budget(budget, self.max_budget)
        threshold = check_tutor(tutor)
        computer: int | None = None
        invite: str | None = None
        if kind == "computer":
            if level not in LEVELS:
                raise ValueError(f"the computer's level is 1 to 5, not {level!r}")
            computer = 1
            other: str | None = COMPUTER_NAME
            tokens: list[str | None] = [secrets.token_urlsafe(SECRET_BYTES), None]
        else:
            level = None
            other = None
            takebacks = "off"  # two people: nothing is taken back
            budget = None  # and no computer thinks
            if threshold is not None:
                raise ValueError("tutor: a room for two has no tutor (the computer does not sit at it)")
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
            raise ValueError("a rematch is asked for once the partie is over")
        async with table.lock:
            new = table.rematch
            if new is None:
                info = table.info
                new = self._new(info.kind, info.variant, info.options, info.level, info.players[seat] or "Player",
                                info.takebacks, info.budget, info.tutor)
                await store_call(self.store.create(new))
                self._opened(new)
                table.rematch, table.rematch_by = new, seat
            if seat == table.rematch_by:
                link = f"/t/{new.id}#token={new.tokens[0]}"
            elif new.invite is not None:
                link = f"/t/{new.id}#invite={new.invite}"
            else:
                raise ValueError("the rematch's room has both its players already")
        await table.broadcast()
        return new.id, link

    def release(self, table: Table) -> None:
        """Forget a table nobody is at and nothing is moving at: the store keeps it, and :meth:`get`
        reloads it when it is next asked for (so a server's memory holds only the tables in use)."""
        if self._idle(table):
            self._tables.pop(table.id, None)
            self._since.pop(table.id, None)

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
                raise OpenRefused(f"at most {per_minute:g} tables opened a minute from {whose} (a table not in "
                                  f"memory is read and replayed): try again in {wait} s", wait)
        for bucket, _, _ in buckets:
            bucket.take(now)

    async def open(self, table_id: str, kind: LinkKind | None, secret: str, address: str = "") -> Table:
        """The table ``table_id``, for a link of ``kind`` with ``secret`` (``None``: a seat's or the spectators'
        secret): read from the store and replayed if it is not in memory, and only once the secret is found to hold
        a place there (:func:`check_link`); the replay runs off the event loop. Raises :class:`SeatRefused` (4404:
        no such table, or 4403/4410 as :func:`check_link`), :class:`OpenRefused` when ``address`` has read too
        many tables lately, or :class:`~piquet.ui.web.store.StoreUnavailable`."""
        table = self._tables.get(table_id)
        if table is None:
            self._spend_open(address)
            lock = self._opening.setdefault(table_id, asyncio.Lock())
            try:
                async with lock:
                    table = self._tables.get(table_id)
                    if table is None:
                        info = await self.store.load(table_id)
                        if info is None:
                            raise SeatRefused(4404, "no such table")
                        check_link(info, kind, secret)
                        built = await asyncio.get_running_loop().run_in_executor(_REPLAY_THREAD, self._table, info)
                        table = self._keep(built)
            finally:
                if self._opening.get(table_id) is lock and not lock.locked():
                    del self._opening[table_id]
        check_link(table.info, kind, secret)
        return table


def _declaration(action: Action) -> bool:
    """A declaration: what the page makes for a player with "Declare my best" (a takeback goes past it)."""
    return isinstance(action, Declare)


def _note_takebacks(sheet: list[SheetRow], taken_back: list[Takeback], names: tuple[str, str]) -> None:
    """Write each deal's takebacks in its row's notes on the score sheet."""
    for row in sheet:
        count = [sum(1 for t in taken_back if t["deal"] == row["deal"] and t["player"] == n) for n in names]
        notes = [f"{c} takeback{'s' if c > 1 else ''} by {n}" for n, c in zip(names, count, strict=True) if c]
        if notes:
            row["notes"] = "; ".join([*([row["notes"]] if row["notes"] else []), *notes])
