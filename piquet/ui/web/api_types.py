"""The lobby's HTTP answers, as the server sends them (``docs/protocol.md``, "HTTP"): ``GET /api/setup`` (what a
new table may be: the variants and their rule options, the computer's levels, its thinking time), ``POST
/api/tables`` (the table made, and the creator's links), a rematch, and the lobby's public rooms (``GET /api/lobby``,
``POST /api/tables/{id}/join``). The table's own messages, over its
WebSocket, are :mod:`piquet.ui.web.protocol`'s; the page's types for both are held to these by
``tests/test_web_protocol_js.py``."""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = ["BudgetSetup", "CreatedTable", "LevelSetup", "LobbyPage", "OptionSetup", "PublicRoom", "RematchAnswer",
           "SetupAnswer", "TableLinks", "VariantSetup"]


class OptionSetup(TypedDict):
    name: str
    label: str  # the option's name in words, in the language asked for ("Four deal partie")
    default: bool | int
    description: str
    source: str
    minimum: int  # the bounds of a number option; 0 and 0 for a yes-or-no one
    maximum: int


class VariantSetup(TypedDict):
    name: str
    title: str
    options: list[OptionSetup]


class LevelSetup(TypedDict):
    level: int
    name: str


class BudgetSetup(TypedDict):
    """The computer's thinking time a new table may ask for, in CPU seconds per decision."""

    default: float
    minimum: float
    maximum: float | None  # null: no cap, and 0 (no limit) is allowed


class SetupAnswer(TypedDict):
    variants: list[VariantSetup]
    levels: list[LevelSetup]
    budget: BudgetSetup
    tutor: float  # the tutor's threshold in points of the deal, for a table that asks for the tutor
    public_rooms: bool  # whether this server lists rooms in its lobby (piquet serve --public-rooms)


class TableLinks(TypedDict):
    play: str
    invite: str | None
    spectate: str


class CreatedTable(TypedDict):
    id: str
    token: str
    links: TableLinks


class RematchAnswer(TypedDict):
    id: str  # the new table's
    link: str  # the asker's link to it: his seat's secret, or a room's invitation for the second player


class PublicRoom(TypedDict):
    """A room listed in the lobby: never a seat's secret nor its invite."""

    id: str
    variant: str
    options: dict[str, bool | int]  # the rule options changed from the variant's defaults
    players: list[str | None]  # the creator's name, the guest's (null: the seat is free)
    status: Literal["waiting", "playing"]
    created: float  # seconds since the epoch
    watch: str  # the spectators' link: anyone may watch a public room


class LobbyPage(TypedDict):
    """``GET /api/lobby``'s answer: one page of the public rooms, newest first."""

    rooms: list[PublicRoom]
    page: int  # this page's number, from 0
    pages: int  # the pages the list has now (1 when it is empty)
    page_size: int
