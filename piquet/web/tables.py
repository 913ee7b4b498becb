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
from collections.abc import Awaitable, Callable
from typing import Any

from piquet.actions import Action, ChooseDealer, Cut, Deal
from piquet.agents import Agent
from piquet.cards import CARDS
from piquet.game import Partie, Phase
from piquet.players import make_agent
from piquet.record import action_from_data, action_to_data
from piquet.variant import VARIANTS, make_rules
from piquet.web.protocol import (
    ProtocolError,
    hint_message,
    prompt_data,
    read_action,
    result_data,
    view_data,
)
from piquet.web.store import Store, TableInfo
from piquet.web.thinking import Thinker, ThinkingFailed

__all__ = ["Client", "Table", "Tables"]

LEVELS = (1, 2, 3, 4, 5)
#: The level whose advice the hint gives.
HINT_LEVEL = 5
COMPUTER_NAME = "Computer"
#: Hints a seat may ask at once; then one more every :data:`HINT_INTERVAL` seconds (a level-5 hint
#: costs a worker up to a second and a half).
HINT_BURST = 5
HINT_INTERVAL = 6.0

_log = logging.getLogger(__name__)


class Client:
    """One connection at a table: the seat its token holds (``None``: a spectator) and how to send it text."""

    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]]) -> None:
        self.seat = seat
        self.send = send


class Table:
    """One game at the server."""

    def __init__(self, info: TableInfo, store: Store, thinker: Thinker | None = None) -> None:
        self.info = info
        self.store = store
        self.thinker = thinker if thinker is not None else Thinker(workers=0)
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.rng = random.Random(secrets.randbits(64))
        self.agent: Agent | None = None
        self.adviser: Agent | None = None
        self.partie: Partie | None = None
        self._driver: asyncio.Task[None] | None = None
        self._states: dict[int | None, str] = {}
        self._hinting = False
        self._hints: dict[int, tuple[float, float]] = {}  # seat: (hints he may still ask, when that was counted)
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
        self._states.clear()
        for client in list(self.clients):
            try:
                await client.send(self.state(client.seat))
            except Exception:  # a closed connection leaves the table; the game goes on
                self.clients.discard(client)

    # ------------------------------------------------------------ changes
    async def _push(self, action: Action) -> None:
        """Commit the action to the store, then apply it (already verified by the engine)."""
        partie = self.partie
        assert partie is not None
        partie.verify(action)
        self.store.append(self.id, partie.ply, action_to_data(action, self.names))
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
        choice, self.agent = await self.thinker.choose(agent, view, partie.legal_actions(seat), self.info.level or 3)
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
                await self._push(action)
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
            clean = str(name).strip()
            if clean == self.info.players[0]:
                raise ProtocolError("not_allowed", f"{clean!r} is the other player's name: choose another")
            self.store.set_player(self.id, seat, clean)
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
            self.store.truncate(self.id, target)
            while partie.ply > target:
                partie.pop()
        await self.broadcast()
        self.kick()

    async def _tell(self, data: dict[str, Any]) -> None:
        """Send every client at the table the same message."""
        text = json.dumps(data, separators=(",", ":"))
        for client in list(self.clients):
            try:
                await client.send(text)
            except Exception:  # a closed connection leaves the table
                self.clients.discard(client)

    def _count_hint(self, seat: int) -> None:
        """Count a hint against the seat's allowance (:data:`HINT_BURST`, one more every :data:`HINT_INTERVAL`
        seconds); raises ``busy`` if none is left."""
        now = time.monotonic()
        left, since = self._hints.get(seat, (float(HINT_BURST), now))
        left = min(float(HINT_BURST), left + (now - since) / HINT_INTERVAL)
        if left < 1:
            wait = (1 - left) * HINT_INTERVAL
            raise ProtocolError("busy", f"hints are limited to {HINT_BURST} at once and one every "
                                        f"{HINT_INTERVAL:g} s: ask again in {wait:.0f} s")
        self._hints[seat] = (left - 1, now)

    async def hint(self, seat: int | None) -> dict[str, Any]:
        """The strongest level's advice for ``seat``'s decision. One hint at a time per table: another asked while
        the computer thinks about one is refused (``busy``), as is a hint past the seat's allowance or while the
        computer's workers are loaded."""
        if self.info.computer is None:
            raise ProtocolError("not_allowed", "between two people the computer gives no hints")
        if self._hinting:
            raise ProtocolError("busy", "the computer is still thinking about your last hint")
        async with self.lock:
            partie = self._require_playing(seat)
            assert seat is not None
            if partie.to_act != seat or partie.is_over:
                raise ProtocolError("not_your_turn", "a hint is for a decision of yours, and it is not your turn")
            if self.thinker.busy(HINT_LEVEL):
                raise ProtocolError("busy", "the computer is busy with other tables: ask for a hint again shortly")
            self._count_hint(seat)
            if self.adviser is None:
                self.adviser = make_agent(f"level{HINT_LEVEL}", secrets.randbits(32))
            adviser = self.adviser
            view = partie.view(seat)
            if partie.phase is Phase.DEAL:
                return hint_message(adviser.choose_packets(view, partie.legal_packets()), self.names)
            legal = partie.legal_actions(seat)
            self._hinting = True
            try:
                action, self.adviser = await self.thinker.choose(adviser, view, legal, HINT_LEVEL)
            except ThinkingFailed as e:
                _log.warning("table %s, hint: %s", self.id, e)
                raise ProtocolError("computer_failed", "the computer could not think of a hint: ask again") from None
            finally:
                self._hinting = False
            return hint_message(action, self.names)


class Tables:
    """Every table of the server, created here or reloaded from the store when first asked for."""

    def __init__(self, store: Store, thinker: Thinker | None = None) -> None:
        self.store = store
        #: Where the computers of every table think (``None``: in threads of the server, as before the workers).
        self.thinker = thinker if thinker is not None else Thinker(workers=0)
        self._tables: dict[str, Table] = {}

    def create(self, kind: str, variant: str = "rubicon", options: dict[str, Any] | None = None,
               level: int | None = 3, name: str = "Player") -> tuple[Table, str]:
        """A new table, and the token of its creator's seat (seat 0). Raises ``ValueError`` on bad settings."""
        if kind not in ("computer", "room"):
            raise ValueError(f"a table is 'computer' or 'room', not {kind!r}")
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
        options = dict(options or {})
        rules = make_rules(variant, options)  # raises OptionError (a ValueError) on a bad option
        name = name.strip() or "Player"
        if len(name) > 40:
            raise ValueError("a name is at most 40 characters")
        computer: int | None = None
        if kind == "computer":
            if level not in LEVELS:
                raise ValueError(f"the computer's level is 1 to 5, not {level!r}")
            computer = 1
            other: str | None = COMPUTER_NAME if name != COMPUTER_NAME else f"{COMPUTER_NAME} (level {level})"
            tokens: list[str | None] = [secrets.token_urlsafe(16), None]
        else:
            level = None
            other = None
            tokens = [secrets.token_urlsafe(16), secrets.token_urlsafe(16)]
        info = TableInfo(secrets.token_urlsafe(9), kind, variant, rules.changed(), level, [name, other], tokens,
                         secrets.token_urlsafe(12), computer)
        self.store.create(info)
        table = Table(info, self.store, self.thinker)
        self._tables[info.id] = table
        token = tokens[0]
        assert token is not None
        return table, token

    def release(self, table: Table) -> None:
        """Forget a table nobody is at and nothing is moving at: the store keeps it, and :meth:`get`
        reloads it when it is next asked for (so a server's memory holds only the tables in use)."""
        if not table.clients and (table._driver is None or table._driver.done()) and not table.lock.locked():
            self._tables.pop(table.id, None)

    def get(self, table_id: str) -> Table | None:
        table = self._tables.get(table_id)
        if table is None:
            info = self.store.load(table_id)
            if info is None:
                return None
            table = Table(info, self.store, self.thinker)
            self._tables[table_id] = table
        return table
