"""Who sits at a table: its seats' secrets, the room's invite, the one-time links to another device, the spectators.

Who may sit (``docs/security.md``): each seat is held by one secret at a time, of 128 random bits, compared in
constant time. A room's invite admits one person once: the guest who joins gets a seat secret of his own and the
invite is spent. A player moves to another device with a one-time link his seat asks for; the new device gets a
fresh secret and the old one's is revoked. The spectators share one secret, which gives no seat.

:class:`Seats` keeps a table's seats (in its :class:`~piquet.ui.web.store.TableInfo`, saved before each change);
:func:`check_link` tells whether a link gives a place at a table without replaying it.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from typing import Literal, TypedDict

from piquet.engine.language import words_in
from piquet.ui.web.clients import Client
from piquet.ui.web.events import event
from piquet.ui.web.names import BadName, clean_name, imitates
from piquet.ui.web.protocol import LinkKind, MoveMessage, ProtocolError
from piquet.ui.web.saving import store_call
from piquet.ui.web.store import AsyncStore, TableInfo

__all__ = ["COMPUTER_NAME", "MOVE_SECONDS", "NOT_PUBLIC", "SECRET_BYTES", "OpenKind", "SeatLinks", "SeatRefused",
           "Seats", "check_link", "computer_name", "hang_up", "same_secret"]

#: The computer's seat's name, as the table keeps it (and its record writes it).
COMPUTER_NAME = "Computer"


def computer_name(lang: str = "en") -> str:
    """The computer's seat's name as a connection speaking ``lang`` is told it.

    >>> computer_name(), computer_name("fr")
    ('Computer', "l'ordinateur")
    """
    return words_in(lang)(COMPUTER_NAME)

#: Random bytes in a seat secret, an invite, a one-time link and a spectator secret (128 bits).
SECRET_BYTES = 16
#: How long a one-time link to move a seat to another device stays valid, in seconds.
MOVE_SECONDS = 15 * 60
#: How a table is opened: by a link of its (:data:`~piquet.ui.web.protocol.LinkKind`), or from the lobby, where a public
#: room is joined by its id alone (``public``: ``POST /api/tables/{id}/join``).
OpenKind = LinkKind | Literal["public"]
#: What someone is told who would join from the lobby a table that is not a public room.
NOT_PUBLIC = "this table is not a public room: it is joined by its invitation link"
#: What a guest is told who comes with an invite another has used.
INVITE_USED = "this invitation has been used: the seat is taken"


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


def _invite_used() -> SeatRefused:
    return SeatRefused(4410, f"{INVITE_USED} (ask for the watch link to follow the game)")


def _move_used() -> SeatRefused:
    return SeatRefused(4410, "this link to move a seat has been used or has expired: ask for a new one on the device "
                             "that holds the seat")


def check_link(info: TableInfo, kind: OpenKind | None, secret: str) -> None:
    """Raise :class:`SeatRefused` unless ``secret`` gives a place at the table ``info`` as a link of ``kind`` would
    (``None``: a seat's secret or the spectators', as the HTTP routes take them; ``public``: any table listed in the
    lobby, whatever ``secret``); changes nothing, replays nothing."""
    if kind == "public":
        if info.kind == "room" and info.public:
            return
        raise SeatRefused(4403, NOT_PUBLIC)
    if kind in ("spectate", None) and same_secret(info.spectate, secret):
        return
    if kind in ("token", None) and any(same_secret(token, secret) for token in info.tokens):
        return
    if kind == "invite" and info.kind == "room":
        if same_secret(info.invite, secret):
            return
        raise _invite_used()
    if kind == "move":
        if any(move is not None and same_secret(move[0], secret) and time.time() <= move[1] for move in info.moves):
            return
        raise _move_used()
    raise SeatRefused(4403, "that link holds no seat at this table")


async def hang_up(clients: set[Client], which: Callable[[Client], bool], code: int, reason: str) -> None:
    """Close the connections of ``clients`` that ``which`` picks (and take them out of the set), with ``code`` and
    ``reason``: their secret no longer holds their place."""
    for client in [c for c in clients if which(c)]:
        clients.discard(client)
        client.close()
        if client.hang_up is not None:
            await client.hang_up(code, reason)


class Seats:
    """The seats of one table, kept in its ``info`` and saved to ``store`` before each change."""

    def __init__(self, info: TableInfo, store: AsyncStore) -> None:
        self.info = info
        self.store = store

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds; raises ``KeyError`` for a token that holds none."""
        for seat, secret in enumerate(self.info.tokens):
            if same_secret(secret, token):
                return seat
        raise KeyError("no seat at this table is held by that token")

    def is_spectator(self, token: str | None) -> bool:
        return same_secret(self.info.spectate, token)

    def links(self, seat: int | None, waiting: bool) -> SeatLinks:
        """The links a client is shown, secrets in the fragment (after ``#``), which a browser never sends: the
        room's invite to its creator while the room is ``waiting``, and the spectators'."""
        base = f"/t/{self.info.id}"
        invite = None
        if self.info.kind == "room" and seat == 0 and waiting and self.info.invite is not None:
            invite = f"{base}#invite={self.info.invite}"
        return {"invite": invite, "spectate": f"{base}#spectate={self.info.spectate}"}

    async def admit(self, kind: LinkKind, secret: str) -> tuple[int | None, str | None]:
        """The place a link's secret gives (``kind``: ``token``, ``spectate``, ``invite`` or ``move``) and, for a
        one-time link to another device, the seat's new secret (the old device's is revoked). Raises
        :class:`SeatRefused`, or ``not_saved`` if the store could not save a new secret."""
        info = self.info
        if kind == "spectate" and self.is_spectator(secret):
            return None, None
        if kind == "token":
            try:
                return self.seat_of(secret), None
            except KeyError:
                pass
        if kind == "invite" and info.kind == "room":
            if same_secret(info.invite, secret):
                return 1, None
            raise _invite_used()
        if kind == "move":
            for seat, move in enumerate(info.moves):
                if move is not None and same_secret(move[0], secret):
                    if time.time() > move[1]:
                        break
                    token = secrets.token_urlsafe(SECRET_BYTES)
                    info.moves[seat] = None  # spent at once: the link opened twice finds it gone
                    try:
                        await store_call(self.store.set_token(info.id, seat, token), info.id, seat)
                        event("moved", info.id, seat=seat)
                    except ProtocolError:
                        info.moves[seat] = move
                        raise
                    info.tokens[seat] = token
                    return seat, token
            raise _move_used()
        raise SeatRefused(4403, "that link holds no seat at this table")

    async def move_link(self, seat: int | None) -> MoveMessage:
        """A one-time link that moves ``seat`` to another device (replacing any earlier one not yet used)."""
        if seat is None:
            raise ProtocolError("not_allowed", "a spectator holds no seat to move")
        if self.info.tokens[seat] is None:
            raise ProtocolError("not_allowed", "this seat has no secret yet: join the room first")
        secret = secrets.token_urlsafe(SECRET_BYTES)
        move = [secret, time.time() + MOVE_SECONDS]
        await store_call(self.store.set_move(self.info.id, seat, move), self.info.id, seat)
        event("move_link", self.info.id, seat=seat)
        self.info.moves[seat] = move
        return {"type": "move", "link": f"/t/{self.info.id}#move={secret}", "expires_in": MOVE_SECONDS}

    async def take(self, seat: int | None, name: object, client: Client | None, started: bool) -> str:
        """A room's guest takes the second seat, once, before the partie has ``started``, under ``name`` (not one
        like the first player's or the computer's); ``client``: his connection, which must hold the room's invite
        (``None``: none is asked for). The guest's new seat secret, saved; the invite is spent."""
        info = self.info
        if seat is None or info.kind != "room" or started or seat != 1:
            raise ProtocolError("not_allowed", "only a room's second player joins, once, before the partie")
        if client is not None and not same_secret(info.invite, client.invite):
            raise ProtocolError("not_allowed", INVITE_USED)
        try:
            clean = clean_name(str(name))
        except BadName as e:
            raise ProtocolError("malformed", e.template, **e.params) from None
        if imitates(clean, (info.players[0], COMPUTER_NAME)):
            raise ProtocolError("not_allowed", "{name} looks like the other player's name or the computer's: choose "
                                               "another", name=repr(clean))
        token = secrets.token_urlsafe(SECRET_BYTES)
        await store_call(self.store.join(info.id, seat, clean, token), info.id, seat)
        event("joined", info.id, seat=seat)
        info.players[seat] = clean
        info.tokens[seat] = token
        info.invite = None
        return token
