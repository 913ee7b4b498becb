"""The tables of the server: a game, its seats and their tokens, its clients, and the computer's moves.

A :class:`Table` holds one :class:`~piquet.game.Partie`; every action goes
through the engine, is committed to the store, and only then is each client
sent its own player's state (the acknowledgement). The chance events (the cut,
the shuffle) are the server's, drawn from the operating system's randomness.
:class:`Tables` creates tables and finds them again, reloading a table from
the store (re-playing its actions) the first time it is asked for after a restart.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from piquet.actions import Action, ChooseDealer, Cut, Deal
from piquet.agents import Agent
from piquet.cards import CARDS
from piquet.game import Partie, Phase
from piquet.players import make_agent
from piquet.record import action_from_data, action_to_data
from piquet.variant import VARIANTS, make_rules
from piquet.web.names import BadName, clean_name, imitates
from piquet.web.protocol import (
    ProtocolError,
    hint_message,
    prompt_data,
    read_action,
    result_data,
    view_data,
)
from piquet.web.store import Store, StoreUnavailable, TableInfo

__all__ = ["Client", "Table", "Tables"]

LEVELS = (1, 2, 3, 4, 5)
#: The level whose advice the hint gives.
HINT_LEVEL = 5
COMPUTER_NAME = "Computer"
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

log = logging.getLogger("piquet.web")
T = TypeVar("T")

#: The store's writes run here, one at a time, off the event loop: a store that is slow or locked by another
#: process holds up the tables that write, never the server.
_STORE_THREAD = ThreadPoolExecutor(1, thread_name_prefix="piquet-store")


async def store_call(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` in the store's thread; a :class:`ProtocolError` ``not_saved`` if the store could not do it."""
    try:
        return await asyncio.get_running_loop().run_in_executor(_STORE_THREAD, call, *args)
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
    """

    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]],
                 on_drop: Callable[[Client, str], None] | None = None) -> None:
        self.seat = seat
        self.send = send
        self.on_drop = on_drop
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
                await asyncio.wait_for(self.send(text), SEND_TIMEOUT)
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
    """One game at the server."""

    def __init__(self, info: TableInfo, store: Store) -> None:
        self.info = info
        self.store = store
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.rng = random.Random(secrets.randbits(64))
        self.agent: Agent | None = None
        self.adviser: Agent | None = None
        self.partie: Partie | None = None
        self._driver: asyncio.Task[None] | None = None
        self._states: dict[int | None, str] = {}
        if info.computer is not None:
            self.agent = make_agent(f"level{info.level or 3}", secrets.randbits(32))
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
        return self.partie.ply if self.partie is not None else 0

    @property
    def status(self) -> str:
        if self.partie is None:
            return "waiting"
        return "over" if self.partie.is_over else "playing"

    def _start(self) -> None:
        """Create the partie and re-play the stored actions (after a restart, exactly where it was)."""
        names = self.names
        self.partie = Partie(names, self.info.variant, self.info.options)
        for i, data in enumerate(self.info.actions):
            self.partie.push(action_from_data(data, names, f"table {self.id}, action {i}"))

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds; raises ``KeyError`` for a token that holds none."""
        if token is not None:
            for seat, secret in enumerate(self.info.tokens):
                if secret is not None and secrets.compare_digest(secret, token):
                    return seat
        raise KeyError("no seat at this table is held by that token")

    def is_spectator(self, token: str | None) -> bool:
        return token is not None and secrets.compare_digest(self.info.spectate, token)

    def links(self, seat: int | None) -> dict[str, str | None]:
        base = f"/t/{self.id}"
        invite = None
        if self.info.kind == "room" and seat == 0 and self.status == "waiting":
            invite = f"{base}?token={self.info.tokens[1]}"
        return {"invite": invite, "spectate": f"{base}?spectate={self.info.spectate}"}

    def can_undo(self, seat: int | None) -> bool:
        return self._undo_target(seat) is not None

    def _undo_target(self, seat: int | None) -> int | None:
        """How many actions to keep to take back ``seat``'s last decision (against the computer only)."""
        if (self.partie is None or self.partie.is_over or self.info.computer is None or seat is None
                or seat == self.info.computer):
            return None
        actions = self.partie.actions
        for i in range(len(actions) - 1, -1, -1):
            action = actions[i]
            if action.player == seat and not isinstance(action, (Cut, Deal)):
                return i
        return None

    def state(self, seat: int | None) -> str:
        """The ``state`` message for ``seat`` (``None``: a spectator), as JSON text."""
        cached = self._states.get(seat)
        if cached is not None:
            return cached
        partie = self.partie
        view: dict[str, Any] | None = None
        prompt = None
        if partie is not None:
            view = view_data(partie.view(seat))
            view["result"] = result_data(partie)
            prompt = prompt_data(partie, seat, advise=self.info.computer is not None)
        links = self.links(seat)
        data = {
            "type": "state",
            "table": {"id": self.id, "kind": self.info.kind, "variant": self.info.variant,
                      "title": VARIANTS[self.info.variant].title, "options": self.info.options,
                      "level": self.info.level, "status": self.status, **links},
            "seat": seat,
            "players": list(self.info.players),
            "computer": self.info.computer,
            "can_undo": self.can_undo(seat),
            "version": self.version,
            "view": view,
            "prompt": prompt,
        }
        text = json.dumps(data, separators=(",", ":"))
        self._states[seat] = text
        return text

    async def broadcast(self) -> None:
        """Queue the new state for every client (each is sent it by its own writer: none is waited for)."""
        self._states.clear()
        for client in list(self.clients):
            if client.dropped:  # a closed or stalled connection leaves the table; the game goes on
                self.clients.discard(client)
            else:
                client.post(self.state(client.seat), state=True)

    # ------------------------------------------------------------ changes
    async def _push(self, action: Action) -> None:
        """Commit the action to the store, then apply it (already verified by the engine)."""
        partie = self.partie
        assert partie is not None
        partie.verify(action)
        await store_call(self.store.append, self.id, partie.ply, action_to_data(action, self.names))
        partie.push(action)

    def _deal(self, packets: int) -> Deal:
        partie = self.partie
        assert partie is not None and partie.to_act is not None
        pack = list(CARDS)
        self.rng.shuffle(pack)
        return Deal.from_pack(partie.to_act, pack, packets)

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

    def _think(self) -> Action:
        """The computer's decision (run in a worker thread)."""
        partie = self.partie
        agent = self.agent
        assert partie is not None and agent is not None and partie.to_act is not None
        seat = partie.to_act
        view = partie.view(seat)
        if partie.phase is Phase.DEAL:
            sizes = partie.legal_packets()
            return self._deal(agent.choose_packets(view, sizes) if len(sizes) > 1 else sizes[0])
        if partie.phase is Phase.CHOOSE_DEALER:
            choice = agent.choose(view, partie.legal_actions(seat))
            return choice if isinstance(choice, ChooseDealer) else ChooseDealer(seat, 1 - seat)
        return agent.choose(view, partie.legal_actions(seat))

    async def advance(self) -> None:
        """Play what needs no person (the cut, dealing, the computer's moves), broadcasting each."""
        while True:
            async with self.lock:
                action = self._automatic()
                if action is None and self._computer_to_act():
                    action = await asyncio.to_thread(self._think)
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

    async def act(self, seat: int | None, data: object) -> None:
        """A player's action from a client; raises :class:`ProtocolError` and changes nothing if it
        is not his to make or not legal."""
        async with self.lock:
            partie = self._require_playing(seat)
            assert seat is not None
            action = read_action(data, partie, seat)
            if isinstance(action, int):
                action = self._deal(action)
            await self._push(action)
        await self.broadcast()
        self.kick()

    def _require_playing(self, seat: int | None) -> Partie:
        if seat is None:
            raise ProtocolError("not_allowed", "a spectator watches; he cannot act")
        if self.partie is None:
            raise ProtocolError("not_allowed", "the partie starts when the second player joins")
        return self.partie

    async def join(self, seat: int | None, name: object) -> None:
        async with self.lock:
            if seat is None or self.info.kind != "room" or self.partie is not None or seat != 1:
                raise ProtocolError("not_allowed", "only a room's second player joins, once, before the partie")
            try:
                clean = clean_name(str(name))
            except BadName as e:
                raise ProtocolError("malformed", str(e)) from None
            if imitates(clean, (self.info.players[0], COMPUTER_NAME)):
                raise ProtocolError("not_allowed", f"{clean!r} looks like the other player's name or the "
                                                   "computer's: choose another")
            await store_call(self.store.set_player, self.id, seat, clean)
            self.info.players[seat] = clean
            self._start()
        await self.broadcast()
        self.kick()

    async def undo(self, seat: int | None) -> None:
        async with self.lock:
            if self.info.computer is None:
                raise ProtocolError("not_allowed", "moves are taken back only against the computer")
            partie = self._require_playing(seat)
            target = self._undo_target(seat)
            if target is None:
                raise ProtocolError("not_allowed", "there is nothing of yours to take back (and nothing once the "
                                                   "partie is over)")
            await store_call(self.store.truncate, self.id, target)
            while partie.ply > target:
                partie.pop()
        await self.broadcast()
        self.kick()

    async def hint(self, seat: int | None) -> dict[str, Any]:
        if self.info.computer is None:
            raise ProtocolError("not_allowed", "between two people the computer gives no hints")
        async with self.lock:
            partie = self._require_playing(seat)
            assert seat is not None
            if partie.to_act != seat or partie.is_over:
                raise ProtocolError("not_your_turn", "a hint is for a decision of yours, and it is not your turn")
            if self.adviser is None:
                self.adviser = make_agent(f"level{HINT_LEVEL}", secrets.randbits(32))
            adviser = self.adviser
            view = partie.view(seat)
            if partie.phase is Phase.DEAL:
                return hint_message(adviser.choose_packets(view, partie.legal_packets()), self.names)
            legal = partie.legal_actions(seat)
            action = await asyncio.to_thread(adviser.choose, view, legal)
            return hint_message(action, self.names)


class Tables:
    """Every table of the server, created here or reloaded from the store when first asked for."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.clock = clock
        self._tables: dict[str, Table] = {}
        self._since: dict[str, float] = {}  # when each table in memory was created or loaded
        self._swept = clock()

    def _keep(self, table: Table) -> None:
        self._tables[table.id] = table
        self._since[table.id] = self.clock()
        self.sweep()

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
        return len(gone)

    @staticmethod
    def _idle(table: Table) -> bool:
        return not table.clients and (table._driver is None or table._driver.done()) and not table.lock.locked()

    def __len__(self) -> int:
        return len(self._tables)

    def create(self, kind: str, variant: str = "rubicon", options: dict[str, Any] | None = None,
               level: int | None = 3, name: str = "Player") -> tuple[Table, str]:
        """A new table, and the token of its creator's seat (seat 0). Raises ``ValueError`` on bad settings."""
        info = self._new(kind, variant, options, level, name)
        self.store.create(info)
        return self._opened(info)

    async def create_saved(self, kind: str, variant: str = "rubicon", options: dict[str, Any] | None = None,
                           level: int | None = 3, name: str = "Player") -> tuple[Table, str]:
        """:meth:`create`, the store written in its thread (:func:`store_call`: ``not_saved`` if it cannot be)."""
        info = self._new(kind, variant, options, level, name)
        await store_call(self.store.create, info)
        return self._opened(info)

    def _opened(self, info: TableInfo) -> tuple[Table, str]:
        table = Table(info, self.store)
        self._keep(table)
        token = info.tokens[0]
        assert token is not None
        return table, token

    def _new(self, kind: str, variant: str, options: dict[str, Any] | None, level: int | None,
             name: str) -> TableInfo:
        if kind not in ("computer", "room"):
            raise ValueError(f"a table is 'computer' or 'room', not {kind!r}")
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
        options = dict(options or {})
        rules = make_rules(variant, options)  # raises OptionError (a ValueError) on a bad option
        name = clean_name(name) if name.strip() else "Player"  # raises BadName (a ValueError)
        if imitates(name, (COMPUTER_NAME,)):
            raise ValueError(f"the name {name!r} looks like the computer's: choose another")
        computer: int | None = None
        if kind == "computer":
            if level not in LEVELS:
                raise ValueError(f"the computer's level is 1 to 5, not {level!r}")
            computer = 1
            other: str | None = COMPUTER_NAME
            tokens: list[str | None] = [secrets.token_urlsafe(16), None]
        else:
            level = None
            other = None
            tokens = [secrets.token_urlsafe(16), secrets.token_urlsafe(16)]
        return TableInfo(secrets.token_urlsafe(9), kind, variant, rules.changed(), level, [name, other], tokens,
                         secrets.token_urlsafe(12), computer)

    def release(self, table: Table) -> None:
        """Forget a table nobody is at and nothing is moving at: the store keeps it, and :meth:`get`
        reloads it when it is next asked for (so a server's memory holds only the tables in use)."""
        if self._idle(table):
            self._tables.pop(table.id, None)
            self._since.pop(table.id, None)

    def get(self, table_id: str) -> Table | None:
        table = self._tables.get(table_id)
        if table is None:
            info = self.store.load(table_id)
            if info is None:
                return None
            table = Table(info, self.store)
            self._keep(table)
        return table
