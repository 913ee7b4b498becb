"""Actions as a record writes them: one JSON object each, and the errors a record is rejected with.

:func:`action_to_data` and :func:`action_from_data` write and read any action (the form a store keeps a game in,
action by action); :mod:`piquet.engine.record` groups a partie's actions by deal, and
:mod:`piquet.engine.annotations` reads a review's best actions with the same reader. A malformed action is a
:class:`RecordError` that says where and why.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from piquet.engine.actions import (
    AcceptConcession,
    Action,
    Bid,
    CarteBlanche,
    ChooseDealer,
    Concede,
    Cut,
    Deal,
    Declare,
    Exchange,
    Play,
)
from piquet.engine.cards import Card, CardError, CardSet
from piquet.engine.combinations import Category
from piquet.engine.variants import parse_bid

if TYPE_CHECKING:
    from piquet.engine.partie import Partie

__all__ = [
    "Reader",
    "RecordError",
    "action_data",
    "action_from_data",
    "action_to_data",
    "best_data",
    "deal_actions",
    "require",
]

_VERBS = ("bid", "carte_blanche", "exchange", "declare", "play", "concede", "accept_concession")
_EXTRA_KEYS = {"carte_blanche": {"will_exchange"}, "exchange": {"show_rest"}, "declare": {"combinations"}}


class RecordError(ValueError):
    """A record that cannot be read or re-played: ``where`` says where (deal and action, counted from 1
    and 0 as in the file), ``reason`` why."""

    def __init__(self, where: str, reason: str, deal: int | None = None, action: int | None = None) -> None:
        self.where = where
        self.reason = reason
        self.deal = deal
        self.action = action
        super().__init__(f"{where}: {reason}")


def _cards(cards: CardSet) -> list[str]:
    return cards.strings()


def action_data(action: Action, names: tuple[str, str], elder: int) -> dict[str, Any]:
    out: dict[str, Any] = {"player": names[action.player]}
    if isinstance(action, Bid):
        out["bid"] = action.call
    elif isinstance(action, CarteBlanche):
        out["carte_blanche"] = action.announce
        if action.will_exchange is not None:
            out["will_exchange"] = action.will_exchange
    elif isinstance(action, Exchange):
        out["exchange"] = _cards(action.discards)
        if action.player != elder:
            out["show_rest"] = action.show_rest
    elif isinstance(action, Declare):
        out["declare"] = action.category.value
        out["combinations"] = [_cards(c) for c in action.combinations]
    elif isinstance(action, Play):
        out["play"] = str(action.card)
    elif isinstance(action, Concede):
        out["concede"] = True
    elif isinstance(action, AcceptConcession):
        out["accept_concession"] = action.accept
    else:  # pragma: no cover - cut, choice and deal are written elsewhere
        raise TypeError(f"not a deal action: {action!r}")
    return out

def action_to_data(action: Action, names: tuple[str, str]) -> dict[str, Any]:
    """Any action as one JSON object, the chance events and the dealer's choice included: the form a
    store keeps a game in, action by action (a record groups the same actions by deal).

    >>> from piquet.engine.cards import Card
    >>> action_to_data(Play(1, Card.parse("QS")), ("Ann", "Bill"))
    {'player': 'Bill', 'play': 'QS'}
    >>> action_to_data(Cut(0, (Card.parse("7S"), Card.parse("AD"))), ("Ann", "Bill"))
    {'player': 'Ann', 'cut': ['7S', 'AD']}
    """
    if isinstance(action, Cut):
        return {"player": names[action.player], "cut": [str(c) for c in action.cards]}
    if isinstance(action, ChooseDealer):
        return {"player": names[action.player], "choose_dealer": names[action.dealer]}
    if isinstance(action, Deal):
        deal: dict[str, Any] = {"hands": {names[seat]: _cards(action.hands[seat]) for seat in (0, 1)},
                                "talon": [str(c) for c in action.talon]}
        if action.packets is not None:
            deal["packets"] = action.packets
        return {"player": names[action.player], "deal": deal}
    out = action_data(action, names, elder=action.player)
    if isinstance(action, Exchange) and action.show_rest:
        out["show_rest"] = True
    return out

def best_data(action: Action, names: tuple[str, str]) -> dict[str, Any]:
    """An annotation's best action: the action as a record writes it, without its player (the annotated
    action's) and without younger's ``show_rest`` (her choice's)."""
    out = action_data(action, names, elder=action.player)
    del out["player"]
    return out


def deal_actions(partie: Partie) -> tuple[tuple[Action, ...], ...]:
    """The actions of each deal, as a record numbers them: the deals from 1 (``[0]`` is deal 1), the
    actions of each from 0; the cut, the dealer's choice and the deal itself are not a deal's actions."""
    deals: list[list[Action]] = []
    for action in partie.actions:
        if isinstance(action, Deal):
            deals.append([])
        elif deals and not isinstance(action, (Cut, ChooseDealer)):
            deals[-1].append(action)
    return tuple(tuple(d) for d in deals)


def action_from_data(data: object, names: tuple[str, str], where: str = "action") -> Action:
    """Read an action written by :func:`action_to_data` (or a record's deal action); the engine
    still judges whether it is legal. Raises :class:`RecordError` saying where and why.

    >>> action_from_data({"player": "Bill", "play": "QS"}, ("Ann", "Bill"))
    Play(player=1, card=Card.parse('QS'))
    >>> try:
    ...     action_from_data({"player": "Bill", "play": "QZ"}, ("Ann", "Bill"))
    ... except RecordError as e:
    ...     print(e)
    action: not a card: 'QZ' (write rank A K Q J T 9 8 7, then suit S H D C, e.g. 'TS')
    """
    reader = Reader(names)
    if isinstance(data, dict) and len(set(data) & {"cut", "choose_dealer", "deal"}) == 1 and "player" in data:
        seat = reader.seat(data["player"], where)
        if "cut" in data:
            cut = data["cut"]
            if set(data) != {"player", "cut"} or not isinstance(cut, list) or len(cut) != 2:
                raise RecordError(where, "a cut is {'player': name, 'cut': [card, card]}")
            return Cut(seat, (reader.card(cut[0], where), reader.card(cut[1], where)))
        if "choose_dealer" in data:
            if set(data) != {"player", "choose_dealer"}:
                raise RecordError(where, "a choice of dealer is {'player': name, 'choose_dealer': name}")
            return ChooseDealer(seat, reader.seat(data["choose_dealer"], where))
        deal = data["deal"]
        if set(data) != {"player", "deal"} or not isinstance(deal, dict):
            raise RecordError(where, "a deal is {'player': name, 'deal': {'hands', 'talon', 'packets'}}")
        unknown = set(deal) - {"hands", "talon", "packets"}
        if unknown:
            raise RecordError(where, f"unknown field(s) in a deal: {', '.join(sorted(unknown))}")
        hands = require(deal, "hands", dict, where)
        if set(hands) != set(names):
            raise RecordError(where, f"hands must give the cards of {names[0]} and {names[1]}")
        packets = deal.get("packets")
        if packets is not None and (isinstance(packets, bool) or not isinstance(packets, int)):
            raise RecordError(where, f"packets is 2 or 3, not {packets!r}")
        talon = tuple(reader.card(c, where) for c in require(deal, "talon", list, where))
        return Deal(seat, (reader.cardset(hands[names[0]], where), reader.cardset(hands[names[1]], where)),
                    talon, packets)
    return reader.action(data, where)

class Reader:
    """Reads the players, cards and actions of a record written with ``names``, each error a :class:`RecordError`."""

    def __init__(self, names: tuple[str, str]) -> None:
        self.names = names

    def seat(self, name: object, where: str) -> int:
        if name not in self.names:
            raise RecordError(where, f"{name!r} is not a player (players: {', '.join(self.names)})")
        assert isinstance(name, str)
        return self.names.index(name)

    @staticmethod
    def card(text: object, where: str) -> Card:
        try:
            return Card.parse(text)  # type: ignore[arg-type]
        except CardError as e:
            raise RecordError(where, str(e)) from None

    def cardset(self, items: object, where: str) -> CardSet:
        if not isinstance(items, list):
            raise RecordError(where, f"expected a list of cards, not {items!r}")
        mask = 0
        for item in items:
            card = self.card(item, where)
            if mask & card.mask:
                raise RecordError(where, f"card {str(card)!r} given twice")
            mask |= card.mask
        return CardSet(mask)

    def action(self, data: object, where: str) -> Action:
        if not isinstance(data, dict):
            raise RecordError(where, f"an action is an object, not {data!r}")
        if "player" not in data:
            raise RecordError(where, "the action names no player")
        seat = self.seat(data["player"], where)
        verbs = [v for v in _VERBS if v in data]
        if len(verbs) != 1:
            found = ", ".join(verbs) or "none"
            raise RecordError(where, f"an action has exactly one verb of {', '.join(_VERBS)} (found: {found})")
        verb = verbs[0]
        unknown = set(data) - {"player", verb} - _EXTRA_KEYS.get(verb, set())
        if unknown:
            raise RecordError(where, f"unknown field(s) {', '.join(sorted(unknown))} in a {verb} action")
        arg = data[verb]
        if verb == "bid":
            try:
                return Bid(seat, parse_bid(arg))
            except ValueError as e:
                raise RecordError(where, str(e)) from None
        if verb == "carte_blanche":
            if not isinstance(arg, bool):
                raise RecordError(where, f"carte_blanche is true or false, not {arg!r}")
            n = data.get("will_exchange")
            if n is not None and (isinstance(n, bool) or not isinstance(n, int)):
                raise RecordError(where, f"will_exchange is a number of cards, not {n!r}")
            return CarteBlanche(seat, arg, n)
        if verb == "exchange":
            show = data.get("show_rest", False)
            if not isinstance(show, bool):
                raise RecordError(where, f"show_rest is true or false, not {show!r}")
            return Exchange(seat, self.cardset(arg, where), show)
        if verb == "declare":
            try:
                category = Category(arg)
            except ValueError:
                raise RecordError(where, f"declare is 'point', 'sequences' or 'sets', not {arg!r}") from None
            combos = data.get("combinations")
            if not isinstance(combos, list):
                raise RecordError(where, "a declaration needs a list of combinations ([] for none)")
            return Declare(seat, category, tuple(self.cardset(c, where) for c in combos))
        if verb == "play":
            return Play(seat, self.card(arg, where))
        if verb == "accept_concession":
            if not isinstance(arg, bool):
                raise RecordError(where, f"accept_concession is true or false, not {arg!r}")
            return AcceptConcession(seat, arg)
        if arg is not True:
            raise RecordError(where, f"concede is true, not {arg!r}")
        return Concede(seat)


def require(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise RecordError(where, f"missing {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(where, f"{key!r} has the wrong type: {value!r}")
    return value
