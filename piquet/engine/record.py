"""Game records: format ``piquet-record``, version 1 (JSON).

A record holds the players, the variant and its options, and for each deal
the dealer, the hands as dealt, the talon and every action. Reading a record
re-plays it through the engine, so an illegal or malformed record fails
loudly and says where (:class:`RecordError`, with the deal and action index).
The format is documented in ``docs/record-format.md`` and by the JSON Schema
``piquet/data/record.schema.json``.

>>> import json, random
>>> from piquet.engine.partie import Partie
>>> partie = Partie(("Ann", "Bill"), first_dealer=0)
>>> _ = partie.push(partie.random_deal(random.Random(7), packets=2))
>>> again = loads(dumps(partie))
>>> again.hand(1) == partie.hand(1), dumps(again) == dumps(partie)
(True, True)
>>> loads('{"format": "piquet-record", "version": 2}')
Traceback (most recent call last):
...
piquet.engine.record.RecordError: record: version 2 is not supported (this reader knows version 1)
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import IO, Any, Final

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
from piquet.engine.partie import IllegalActionError, Partie, Phase
from piquet.engine.variants import OptionError, parse_bid

__all__ = [
    "DECISIONS", "FORMAT", "LENSES", "MARK_SIGNS", "PLAY_ON", "REVIEW", "VERSION", "Annotation", "Annotations",
    "LuckNote", "RecordError",
    "action_from_data", "action_to_data", "annotated", "annotated_from_data", "deal_actions", "dump", "dumps",
    "from_data", "layout", "load", "load_annotated", "loads", "loads_annotated", "playing_on", "to_data",
]

FORMAT = "piquet-record"
VERSION = 1
#: The key in a record's ``meta`` that holds its review: the annotations of its actions.
REVIEW: Final = "review"
#: The lenses a review may name: what the player could know (``fair``) or every card (``open-hands``).
LENSES: Final = ("fair", "open-hands")
#: The marks an annotation may give: none, an inaccuracy, a mistake, a blunder.
MARK_SIGNS: Final = ("", "?!", "?", "??")
#: The word an annotation writes for playing on (not conceding, where the player might have): the best of a
#: concession that should not have been made, or of a decision to concede or not where playing on was the best.
PLAY_ON: Final = "play on"
#: The decisions an annotation may annotate that are no action of the record, taken before the action annotated:
#: ``"concession"``, a player's not conceding where he might have (he played on, and the action is the next one).
DECISIONS: Final = ("concession",)
#: How far an annotation's loss may be from its best value less its value (they are written to hundredths).
_LOSS_TOLERANCE: Final = 0.005 + 1e-9
_REVIEW_KEYS: Final = {"lens", "worlds", "seed", "annotations", "luck"}
_LUCK_KEYS: Final = ("deal", "elder", "average", "players")
_LUCK_SIDE_KEYS: Final = ("deal", "draw", "luck", "result")
#: How far a luck written to hundredths may be from the sum of its rounded parts.
_LUCK_TOLERANCE: Final = 0.015 + 1e-9
_ANNOTATION_KEYS: Final = ("deal", "action", "decision", "player", "value", "best", "best_value", "loss", "mark",
                           "text")
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


@dataclass(frozen=True)
class Annotation:
    """What a review says of one action of a record: where the action is (its deal, counted from 1, and its
    index among the deal's actions, from 0, as in the file), the action itself (``choice``), and any of: its
    value to the player, the best action there and its value, the loss (the best value less the choice's),
    a mark (:data:`MARK_SIGNS`) and the explanation (``text``). Values are in the review's own units (points
    of the deal, or the partie's stakes); the record does not reckon them, it only checks they agree.

    The best of a concession (``choice`` a :class:`~piquet.engine.actions.Concede`) may be :data:`PLAY_ON`. An
    annotation with a ``decision`` (:data:`DECISIONS`) annotates not ``choice`` but a decision of ``player`` taken
    before it that is no action of the record: for ``"concession"``, his playing on where he might have conceded
    (``choice`` is the action that followed, elder's first card), its best :data:`PLAY_ON` or his concession."""

    deal: int
    action: int
    choice: Action
    value: float | None = None
    best: Action | str | None = None
    best_value: float | None = None
    loss: float | None = None
    mark: str | None = None
    text: str | None = None
    decision: str | None = None
    player: int | None = None

    @property
    def seat(self) -> int:
        """Who decided: ``player`` for a decision's annotation, the action's player otherwise."""
        return self.player if self.player is not None else self.choice.player

    def describe(self, names: tuple[str, str]) -> str:
        """The choice annotated in words: the action's, or for a decision to concede or not, the playing on."""
        return playing_on(names[self.seat]) if self.decision is not None else self.choice.describe(names)

    def describe_best(self, names: tuple[str, str]) -> str:
        """The best in words (``""`` where the annotation does not say it)."""
        if self.best is None:
            return ""
        return playing_on(names[self.seat]) if isinstance(self.best, str) else self.best.describe(names)

    def to_data(self, names: tuple[str, str]) -> dict[str, Any]:
        """The annotation as written in a record's ``meta.review.annotations``."""
        out: dict[str, Any] = {"deal": self.deal, "action": self.action}
        if self.decision is not None:
            out["decision"] = self.decision
            out["player"] = names[self.seat]
        if self.value is not None:
            out["value"] = self.value
        if self.best is not None:
            out["best"] = self.best if isinstance(self.best, str) else _best_data(self.best, names)
        if self.best_value is not None:
            out["best_value"] = self.best_value
        if self.loss is not None:
            out["loss"] = self.loss
        if self.mark is not None:
            out["mark"] = self.mark
        if self.text is not None:
            out["text"] = self.text
        return out


@dataclass(frozen=True)
class LuckNote:
    """What a review says of the luck in one deal (docs/review.md, "Luck"): the deal (from 1), elder's seat,
    elder's average deal, and for each seat (by seat): the luck of the deal for his seat, the luck of his own
    draw, his luck in the deal (the deal's and his draw's, less his opponent's draw's) and his result (his
    points of the deal less his opponent's; ``None`` for a deal not ended). In points of the deal; the record
    does not reckon them, it checks they agree with each other and with the deal's scores."""

    deal: int
    elder: int
    average: float
    deal_luck: tuple[float, float]
    draw_luck: tuple[float, float]
    luck: tuple[float, float]
    result: tuple[int | None, int | None]

    def to_data(self, names: tuple[str, str]) -> dict[str, Any]:
        """The deal's luck as written in a record's ``meta.review.luck``."""
        return {"deal": self.deal, "elder": names[self.elder], "average": self.average,
                "players": {names[seat]: {"deal": self.deal_luck[seat], "draw": self.draw_luck[seat],
                                          "luck": self.luck[seat], "result": self.result[seat]} for seat in (0, 1)}}


@dataclass(frozen=True)
class Annotations:
    """A record's review (``meta.review``): the lens and the worlds it looked through and its seed, once for
    the whole review (each ``None`` where not said), the annotations, in the order of the actions, and the
    luck of each deal reviewed (none where the review did not reckon it), in the order of the deals."""

    lens: str | None = None
    worlds: int | None = None
    seed: int | None = None
    notes: tuple[Annotation, ...] = ()
    luck: tuple[LuckNote, ...] = ()

    def get(self, deal: int, action: int, decision: str | None = None) -> Annotation | None:
        """The annotation of action ``action`` (from 0) of deal ``deal`` (from 1), if there is one; with a
        ``decision`` (:data:`DECISIONS`), the annotation of that decision taken before the action."""
        for note in self.notes:
            if (note.deal, note.action, note.decision) == (deal, action, decision):
                return note
        return None

    def to_data(self, names: tuple[str, str]) -> dict[str, Any]:
        """The review as written in a record's ``meta``, under :data:`REVIEW`."""
        out: dict[str, Any] = {}
        if self.lens is not None:
            out["lens"] = self.lens
        if self.worlds is not None:
            out["worlds"] = self.worlds
        if self.seed is not None:
            out["seed"] = self.seed
        out["annotations"] = [note.to_data(names) for note in self.notes]
        if self.luck:
            out["luck"] = [deal.to_data(names) for deal in self.luck]
        return out


# ---------------------------------------------------------------- writing
def _cards(cards: CardSet) -> list[str]:
    return cards.strings()


def _action_data(action: Action, names: tuple[str, str], elder: int) -> dict[str, Any]:
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


def to_data(partie: Partie, meta: Mapping[str, Any] | None = None,
            takebacks: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """The record of a partie (finished or not) as JSON-ready data; ``takebacks``: the moves taken back
    during play, in order (``{"player", "deal", "action", "undone"}``, see ``docs/record-format.md``)."""
    names = partie.players
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "variant": partie.variant,
        "options": partie.rules.changed(),
        "players": list(names),
    }
    cuts: list[dict[str, str]] = []
    deals: list[dict[str, Any]] = []
    game_cut: list[dict[str, str]] = []  # a cut between deals (au Cent's fresh_cut_each_game)
    elder = 1
    for action in partie.actions:
        if isinstance(action, Cut):
            (game_cut if deals else cuts).append({names[0]: str(action.cards[0]), names[1]: str(action.cards[1])})
        elif isinstance(action, ChooseDealer):
            continue
        elif isinstance(action, Deal):
            elder = partie.rules.elder_of(action.player)
            deal: dict[str, Any] = {"dealer": names[action.player]}
            if game_cut:
                deal["cut"], game_cut = game_cut, []
            if action.packets is not None:
                deal["packets"] = action.packets
            deal["hands"] = {names[seat]: _cards(action.hands[seat]) for seat in (0, 1)}
            deal["talon"] = [str(c) for c in action.talon]
            deal["actions"] = []
            deals.append(deal)
        else:
            if isinstance(action, Bid) and action.tricks is not None:
                elder = action.player  # the highest bidder becomes elder
            deals[-1]["actions"].append(_action_data(action, names, elder))
    if game_cut:  # a new game's cut made, its deal not yet dealt
        deals.append({"cut": game_cut})
    if cuts:
        data["cut"] = cuts
    if meta:
        data["meta"] = dict(meta)
    if takebacks:
        data["takebacks"] = [dict(t) for t in takebacks]
    data["deals"] = deals
    return data


def dumps(partie: Partie, meta: Mapping[str, Any] | None = None,
          takebacks: Sequence[Mapping[str, Any]] | None = None) -> str:
    """The record as JSON text: one line per action, easy to read and to diff."""
    return layout(to_data(partie, meta, takebacks))


def _text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _deal_text(deal: Mapping[str, Any]) -> str:
    if not isinstance(deal, dict) or not isinstance(deal.get("actions"), list):
        return _text(deal)  # a new game's cut whose deal is not dealt yet
    body = _text({k: v for k, v in deal.items() if k != "actions"})[:-1]
    lines = ",\n    ".join(_text(a) for a in deal["actions"])
    return body + ("," if body != "{" else "") + '\n   "actions": [' + ("\n    " + lines if lines else "") + "]}"


def _meta_text(meta: Mapping[str, Any]) -> str:
    """``meta`` on one line, but for its review's annotations, one a line."""
    items = []
    for key, value in meta.items():
        if key == REVIEW and isinstance(value, dict) and isinstance(value.get("annotations"), list):
            head = _text({k: v for k, v in value.items() if k != "annotations"})[:-1]
            notes = ",\n  ".join(_text(a) for a in value["annotations"])
            value_text = (head + (", " if head != "{" else "") + '"annotations": ['
                          + ("\n  " + notes if notes else "") + "]}")
        else:
            value_text = _text(value)
        items.append(f"{_text(key)}: {value_text}")
    return "{" + ", ".join(items) + "}"


def layout(data: Mapping[str, Any]) -> str:
    """A record's data as JSON text in the layout :func:`dumps` writes: the top level on the first line, then
    each deal with one line per action, and a review's annotations (in ``meta``) one per line. Any record
    written by :func:`dumps` comes back byte for byte from ``layout(json.loads(text))``."""
    out = ""
    for key, value in data.items():
        if key == "deals" and isinstance(value, list):
            text = '\n "deals": [\n  ' + ",\n  ".join(_deal_text(d) for d in value) + "]"
        elif key == "meta" and isinstance(value, dict) and REVIEW in value:
            text = '\n "meta": ' + _meta_text(value)
        else:
            text = f"{_text(key)}: {_text(value)}"
        out += ("," if out else "") + ("" if text.startswith("\n") or not out else " ") + text
    return "{" + out + "}\n"


def annotated(text: str, annotations: Annotations) -> str:
    """The record ``text`` with ``annotations`` added as its review (``meta.review``, replacing any review it
    had), the rest of it byte for byte as it was where it has no ``meta`` (the review is added at the end), and
    else laid out as :func:`dumps` lays a record out. ``text`` must be a record (:func:`loads` reads it).

    >>> import random
    >>> from piquet.engine.partie import Partie
    >>> partie = Partie(("Ann", "Bill"), first_dealer=0)
    >>> _ = partie.push(partie.random_deal(random.Random(7), packets=2))
    >>> first = next(iter(partie.legal_actions()))
    >>> _ = partie.push(first)
    >>> plain = dumps(partie)
    >>> note = Annotation(1, 0, first, mark="?!", text="Too many discards.")
    >>> text = annotated(plain, Annotations("fair", 24, 0, (note,)))
    >>> text.startswith(plain.rstrip()[:-1]), text[len(plain.rstrip()) - 1:]
    (True, ',\\n "meta": {"review": {"lens": "fair", "worlds": 24, "seed": 0, "annotations": [\\n  {"deal": 1, \
"action": 0, "mark": "?!", "text": "Too many discards."}]}}}\\n')
    >>> loads_annotated(text)[1] == Annotations("fair", 24, 0, (note,))
    True
    """
    data = _parse(text)
    if not isinstance(data, dict) or not isinstance(data.get("players"), list) or len(data["players"]) != 2:
        raise RecordError("record", "not a record: it names no two players")
    names = (str(data["players"][0]), str(data["players"][1]))
    review = annotations.to_data(names)
    body = text.rstrip()
    if "meta" not in data and body.endswith("}"):
        return body[:-1] + ',\n "meta": ' + _meta_text({REVIEW: review}) + "}\n"
    meta = data.get("meta")
    data["meta"] = {**(meta if isinstance(meta, dict) else {}), REVIEW: review}
    return layout(data)


def dump(partie: Partie, fp: IO[str], meta: Mapping[str, Any] | None = None) -> None:
    fp.write(dumps(partie, meta))


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
    out = _action_data(action, names, elder=action.player)
    if isinstance(action, Exchange) and action.show_rest:
        out["show_rest"] = True
    return out


def playing_on(name: str) -> str:
    """A player's playing on (not conceding, where he might have) in words, as the review and the annotations
    say it.

    >>> playing_on("Ann")
    'Ann plays on'
    """
    return f"{name} plays on"


def _best_data(action: Action, names: tuple[str, str]) -> dict[str, Any]:
    """An annotation's best action: the action as a record writes it, without its player (the annotated
    action's) and without younger's ``show_rest`` (her choice's)."""
    out = _action_data(action, names, elder=action.player)
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
    reader = _Reader(names)
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
        hands = _require(deal, "hands", dict, where)
        if set(hands) != set(names):
            raise RecordError(where, f"hands must give the cards of {names[0]} and {names[1]}")
        packets = deal.get("packets")
        if packets is not None and (isinstance(packets, bool) or not isinstance(packets, int)):
            raise RecordError(where, f"packets is 2 or 3, not {packets!r}")
        talon = tuple(reader.card(c, where) for c in _require(deal, "talon", list, where))
        return Deal(seat, (reader.cardset(hands[names[0]], where), reader.cardset(hands[names[1]], where)),
                    talon, packets)
    return reader.action(data, where)


# ---------------------------------------------------------------- reading
class _Reader:
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


def _require(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise RecordError(where, f"missing {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(where, f"{key!r} has the wrong type: {value!r}")
    return value


def from_data(data: object) -> Partie:
    """Re-play a record through the engine and return the partie, as far as the record goes. A review in
    ``meta`` is checked (a malformed annotation is an error like any other) but not returned: see
    :func:`annotated_from_data`."""
    return annotated_from_data(data)[0]


def annotated_from_data(data: object) -> tuple[Partie, Annotations | None]:
    """Re-play a record through the engine: the partie, as far as the record goes, and the record's review
    (its annotations, ``meta.review``), or ``None`` where it has none."""
    if not isinstance(data, dict):
        raise RecordError("record", "a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError("record", f"format must be {FORMAT!r}, not {data.get('format')!r}")
    if data.get("version") != VERSION:
        raise RecordError("record", f"version {data.get('version')!r} is not supported (this reader knows "
                                    f"version {VERSION})")
    known = {"format", "version", "variant", "options", "players", "cut", "meta", "takebacks", "deals"}
    unknown = set(data) - known
    if unknown:
        raise RecordError("record", f"unknown field(s): {', '.join(sorted(unknown))}")
    variant = _require(data, "variant", str, "record")
    options = _require(data, "options", dict, "record")
    players = _require(data, "players", list, "record")
    deals = _require(data, "deals", list, "record")
    if len(players) != 2 or not all(isinstance(p, str) and p for p in players) or players[0] == players[1]:
        raise RecordError("record", f"players must be two different names, not {players!r}")
    names = (players[0], players[1])
    _check_takebacks(data.get("takebacks", []), names)
    reader = _Reader(names)
    meta = data.get("meta")
    review = _read_review(meta[REVIEW]) if isinstance(meta, dict) and REVIEW in meta else None
    pending = {_order(n): n for n in review.notes} if review is not None else {}
    notes: list[Annotation] = []
    cut = data.get("cut")
    first_dealer: int | None = None
    if cut is None:
        if deals:
            first = deals[0]
            if not isinstance(first, dict):
                raise RecordError("deal 1", "a deal is an object")
            first_dealer = reader.seat(first.get("dealer"), "deal 1")
        else:
            first_dealer = 0
    try:
        partie = Partie(names, variant, options, first_dealer)
    except OptionError as e:
        raise RecordError("record", str(e)) from None

    def push(action: Action, where: str, deal: int | None = None, index: int | None = None) -> None:
        try:
            partie.push(action)
        except IllegalActionError as e:
            raise RecordError(where, str(e), deal, index) from None

    def push_cut(rounds: object, place: str, complete: bool = True) -> None:
        if not isinstance(rounds, list) or not rounds:
            raise RecordError(place, "the cut is a list of rounds")
        for i, round_ in enumerate(rounds):
            where = f"{place}, round {i + 1}"
            if not isinstance(round_, dict) or set(round_) != set(names):
                raise RecordError(where, f"a round gives the card each of {names[0]} and {names[1]} cut")
            push(Cut(0, (reader.card(round_[names[0]], where), reader.card(round_[names[1]], where))), where)
        if complete and partie.phase is Phase.CUT:
            raise RecordError(place, "the last round of the cut is equal: they must cut again")

    if cut is not None:
        push_cut(cut, "cut")
        if deals and partie.phase is Phase.CHOOSE_DEALER:
            chooser = partie.to_act
            assert chooser is not None
            dealer = reader.seat(deals[0].get("dealer") if isinstance(deals[0], dict) else None, "deal 1")
            push(ChooseDealer(chooser, dealer), "deal 1")
    for d, deal in enumerate(deals, start=1):
        where = f"deal {d}"
        if not isinstance(deal, dict):
            raise RecordError(where, "a deal is an object")
        unknown = set(deal) - {"dealer", "cut", "packets", "hands", "talon", "actions"}
        if unknown:
            raise RecordError(where, f"unknown field(s): {', '.join(sorted(unknown))}")
        if set(deal) == {"cut"} and d == len(deals):
            # The record stops after a new game's cut (au Cent's fresh_cut_each_game), before its deal.
            if partie.phase is not Phase.CUT:
                raise RecordError(where, "no cut is due here (only at the start of a game of Piquet au Cent with "
                                         "the option fresh_cut_each_game)")
            push_cut(deal["cut"], f"{where}, cut", complete=False)
            break
        if "cut" in deal:
            if partie.phase is not Phase.CUT:
                raise RecordError(where, "no cut is due before this deal (only at the start of a game of Piquet "
                                         "au Cent with the option fresh_cut_each_game)")
            push_cut(deal["cut"], f"{where}, cut")
        elif partie.phase is Phase.CUT:
            raise RecordError(where, "a new game begins with a cut for the deal (option fresh_cut_each_game): "
                                     "the deal needs its \"cut\"")
        if partie.phase is not Phase.DEAL:
            raise RecordError(where, f"the previous deal is unfinished (it is the {partie.phase.value})")
        dealer = reader.seat(deal.get("dealer"), where)
        reason = partie.why_not_dealer(dealer)
        if reason is not None:
            raise RecordError(where, f"{names[dealer]} cannot deal: {reason}")
        packets = deal.get("packets")
        if packets is not None and (isinstance(packets, bool) or not isinstance(packets, int)):
            raise RecordError(where, f"packets is 2 or 3, not {packets!r}")
        hands = _require(deal, "hands", dict, where)
        if set(hands) != set(names):
            raise RecordError(where, f"hands must give the cards of {names[0]} and {names[1]}")
        dealt = (reader.cardset(hands[names[0]], f"{where}, {names[0]}'s hand"),
                 reader.cardset(hands[names[1]], f"{where}, {names[1]}'s hand"))
        talon_data = _require(deal, "talon", list, where)
        talon = tuple(reader.card(c, f"{where}, talon") for c in talon_data)
        push(Deal(dealer, dealt, talon, packets), where, d)
        actions = _require(deal, "actions", list, where)
        for i, item in enumerate(actions):
            at = f"deal {d}, action {i}"
            action = reader.action(item, at)
            for own in (False, True):  # a decision taken before the action, then the action's own
                note = pending.pop((d, i, own), None)
                if note is not None:
                    notes.append(_annotation(note, action, partie, reader))
            push(action, at, d, i)
        if d < len(deals) and partie.phase not in (Phase.DEAL, Phase.CUT) and not partie.is_over:
            raise RecordError(where, f"the deal ends unfinished (in the {partie.phase.value}) but more deals follow")
        if partie.is_over and d < len(deals):
            raise RecordError(f"deal {d + 1}", "the partie was already over")
    for note in pending.values():
        held = deal_actions(partie)
        there = (f"deal {note.deal} has {len(held[note.deal - 1])} actions" if note.deal <= len(held)
                 else f"the record has {len(held)} deal{'s' if len(held) != 1 else ''}")
        raise RecordError(_note_where(note), f"there is no such action ({there})", note.deal, note.action)
    if review is None:
        return partie, None
    luck = _read_luck(review.luck, partie, names) if review.luck is not None else ()
    return partie, Annotations(review.lens, review.worlds, review.seed, tuple(notes), luck)


def _read_luck(items: object, partie: Partie, names: tuple[str, str]) -> tuple[LuckNote, ...]:
    """``meta.review.luck``, checked against the partie re-played: each deal's once, in order, a deal of the
    record; elder its elder (in Auction Piquet the contract's holder, before the auction is over or where both
    passed the player who bids first); each number a number; each side's luck its deal's and its draw's less the
    opponent's draw's, the two sides' deal luck and luck opposite, and the result the deal's score difference."""
    if not isinstance(items, list):
        raise RecordError("review, luck", f"the luck is an array of deals, not {items!r}")
    deals = deal_actions(partie)
    scores = [s for s in partie.deal_scores]
    out: list[LuckNote] = []
    for index, item in enumerate(items):
        where = f"review, luck {index}"
        if not isinstance(item, dict) or set(item) != set(_LUCK_KEYS):
            raise RecordError(where, f"a deal's luck is an object of {', '.join(_LUCK_KEYS)}, not {item!r}")
        deal = item["deal"]
        if not _whole(deal, 1) or deal > len(deals):
            raise RecordError(where, f"deal is a deal of the record, 1 to {len(deals)}, not {deal!r}")
        if out and deal <= out[-1].deal:
            raise RecordError(where, f"the deals' luck follows the order of the deals, one a deal (deal {deal} "
                                     f"comes after deal {out[-1].deal})")
        where = f"review, luck {index} (deal {deal})"
        ended = scores[deal - 1] if deal <= len(scores) else None
        if item["elder"] not in names:
            raise RecordError(where, f"elder is one of the players, not {item['elder']!r}")
        elder = names.index(item["elder"])
        # A deal not ended is the deal in progress (in Auction Piquet, its elder the contract's holder once bid).
        actual = ended.elder if ended is not None else partie.elder
        if actual != elder:
            raise RecordError(where, f"elder is {names[actual]} in this deal, not {item['elder']}")
        average = _number(item, "average", where, deal, 0)
        players = item["players"]
        if not isinstance(players, dict) or set(players) != set(names):
            raise RecordError(where, f"players gives the luck of {names[0]} and of {names[1]}")
        sides: list[tuple[float, float, float, int | None]] = []
        for name in names:
            side = players[name]
            at = f"{where}, {name}"
            if not isinstance(side, dict) or set(side) != set(_LUCK_SIDE_KEYS):
                raise RecordError(at, f"a player's luck is an object of {', '.join(_LUCK_SIDE_KEYS)}")
            numbers = [_number(side, key, at, deal, 0) for key in ("deal", "draw", "luck")]
            result = side["result"]
            if result is not None and not _whole(result, None):
                raise RecordError(at, f"result is a whole number, or null for a deal not ended, not {result!r}")
            sides.append((float(numbers[0] or 0.0), float(numbers[1] or 0.0), float(numbers[2] or 0.0), result))
        for seat in (0, 1):
            at = f"{where}, {names[seat]}"
            dealt, draw, luck, result = sides[seat]
            if abs(luck - (dealt + draw - sides[1 - seat][1])) > _LUCK_TOLERANCE:
                raise RecordError(at, f"luck {luck} is not the deal's ({dealt}) and his draw's ({draw}) less "
                                      f"{names[1 - seat]}'s draw's ({sides[1 - seat][1]})")
            want = None if ended is None else ended.totals[seat] - ended.totals[1 - seat]
            if result != want:
                raise RecordError(at, f"result is {'null: the deal did not end' if want is None else want}, the "
                                      f"deal's points less the opponent's, not {result!r}")
        if abs(sides[0][0] + sides[1][0]) > _LUCK_TOLERANCE or abs(sides[0][2] + sides[1][2]) > _LUCK_TOLERANCE:
            raise RecordError(where, "one player's luck is the other's bad luck: the deal's luck and the luck of "
                                     "the two players are opposite")
        assert average is not None
        out.append(LuckNote(deal, elder, average, (sides[0][0], sides[1][0]), (sides[0][1], sides[1][1]),
                            (sides[0][2], sides[1][2]), (sides[0][3], sides[1][3])))
    return tuple(out)


def _check_takebacks(takebacks: object, names: tuple[str, str]) -> None:
    """The ``takebacks`` of a record: a list of ``{"player", "deal", "action", "undone"}`` (the engine re-plays
    only what stands, so they are checked for shape, not re-played)."""
    if not isinstance(takebacks, list):
        raise RecordError("takebacks", "takebacks is a list")
    for i, item in enumerate(takebacks):
        where = f"takebacks, item {i}"
        if not isinstance(item, dict) or set(item) != {"player", "deal", "action", "undone"}:
            raise RecordError(where, "a takeback is {\"player\", \"deal\", \"action\", \"undone\"}")
        if item["player"] not in names:
            raise RecordError(where, f"player {item['player']!r} is not one of the players")
        for key, low in (("deal", 1), ("action", 0), ("undone", 1)):
            value = item[key]
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise RecordError(where, f"{key} is a whole number from {low}, not {value!r}")


# ---------------------------------------------------------------- reading the review
@dataclass(frozen=True)
class _Note:
    """An annotation read from the record, before its action is reached: the best action still as data."""

    index: int
    deal: int
    action: int
    value: float | None
    best: Mapping[str, Any] | str | None
    best_value: float | None
    loss: float | None
    mark: str | None
    text: str | None
    decision: str | None = None
    player: object = None


@dataclass(frozen=True)
class _Review:
    lens: str | None
    worlds: int | None
    seed: int | None
    notes: tuple[_Note, ...]
    luck: object = None


def _note_where(note: _Note) -> str:
    decided = f", {note.player}'s {note.decision} decision before it" if note.decision is not None else ""
    return f"review, annotation {note.index} (deal {note.deal}, action {note.action}{decided})"


def _order(note: _Note) -> tuple[int, int, bool]:
    """Where an annotation comes in the review: by its action, a decision taken before the action first (the
    last item: whether it is the action's own)."""
    return note.deal, note.action, note.decision is None


def _whole(value: object, low: int | None) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and (low is None or value >= low)


def _number(item: Mapping[str, Any], key: str, where: str, deal: int, action: int) -> float | None:
    if key not in item:
        return None
    value = item[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RecordError(where, f"{key} is a number, not {value!r}", deal, action)
    return float(value)


def _read_review(review: object) -> _Review:
    """The shape of ``meta.review``: the lens, the worlds, the seed and the annotations, in the order of the
    actions, each number a number and each mark a mark; the actions are reached later, in the re-play."""
    where = "review"
    if not isinstance(review, dict):
        raise RecordError(where, f"the review is an object, not {review!r}")
    unknown = set(review) - _REVIEW_KEYS
    if unknown:
        raise RecordError(where, f"unknown field(s) {', '.join(sorted(unknown))} (a review has "
                                 f"{', '.join(sorted(_REVIEW_KEYS))})")
    lens, worlds, seed = review.get("lens"), review.get("worlds"), review.get("seed")
    if lens is not None and lens not in LENSES:
        raise RecordError(where, f"lens is {' or '.join(map(repr, LENSES))}, not {lens!r}")
    if worlds is not None and not _whole(worlds, 1):
        raise RecordError(where, f"worlds is a whole number from 1, not {worlds!r}")
    if seed is not None and not _whole(seed, None):
        raise RecordError(where, f"seed is a whole number, not {seed!r}")
    items = _require(review, "annotations", list, where)
    notes: list[_Note] = []
    for index, item in enumerate(items):
        at = f"review, annotation {index}"
        if not isinstance(item, dict):
            raise RecordError(at, f"an annotation is an object, not {item!r}")
        deal, action = item.get("deal"), item.get("action")
        if not _whole(deal, 1) or not _whole(action, 0):
            raise RecordError(at, "an annotation names its action: deal (a whole number from 1) and action (from 0), "
                                  f"not {deal!r} and {action!r}")
        assert isinstance(deal, int) and isinstance(action, int)
        at = f"{at} (deal {deal}, action {action})"
        unknown = set(item) - set(_ANNOTATION_KEYS)
        if unknown:
            raise RecordError(at, f"unknown field(s) {', '.join(sorted(unknown))} (an annotation has "
                                  f"{', '.join(_ANNOTATION_KEYS)})", deal, action)
        decision, player = item.get("decision"), item.get("player")
        if "decision" in item and decision not in DECISIONS:
            raise RecordError(at, f"decision is {' or '.join(map(repr, DECISIONS))} (a decision taken before the "
                                  f"action, no action of the record), not {decision!r}", deal, action)
        if ("decision" in item) != ("player" in item):
            raise RecordError(at, "a decision's annotation names the decision and the player who took it (decision "
                                  "and player), and an action's annotation neither", deal, action)
        if decision is not None:
            at = f"{at[:-1]}, {player}'s {decision} decision before it)"
        if notes and (deal, action, decision is None) <= _order(notes[-1]):
            raise RecordError(at, f"the annotations follow the order of the actions, one an action and one a "
                                  f"decision before it, the decision first (this one comes after deal "
                                  f"{notes[-1].deal}, action {notes[-1].action}"
                                  f"{', a decision' if notes[-1].decision is not None else ''})", deal, action)
        value, best_value, loss = (_number(item, k, at, deal, action) for k in ("value", "best_value", "loss"))
        mark, text, best = item.get("mark"), item.get("text"), item.get("best")
        if "mark" in item and mark not in MARK_SIGNS:
            raise RecordError(at, f"mark is one of {', '.join(map(repr, MARK_SIGNS))}, not {mark!r}", deal, action)
        if "text" in item and not isinstance(text, str):
            raise RecordError(at, f"text is a string, not {text!r}", deal, action)
        if "best" in item and not isinstance(best, dict) and best != PLAY_ON:
            raise RecordError(at, f"best is an action without its player, e.g. {{\"play\": \"QS\"}}, or "
                                  f"{PLAY_ON!r}, not {best!r}", deal, action)
        if loss is not None and loss < 0:
            raise RecordError(at, f"loss is the best value less the choice's, never below 0, not {loss:g}",
                              deal, action)
        if value is not None and best_value is not None:
            if value > best_value + _LOSS_TOLERANCE:
                raise RecordError(at, f"the best is worth less than the choice ({best_value!r} < {value!r})",
                                  deal, action)
            if loss is not None and abs(loss - (best_value - value)) > _LOSS_TOLERANCE:
                raise RecordError(at, f"loss is {loss:g}, but best_value less value is {best_value - value:.2f}",
                                  deal, action)
        notes.append(_Note(index, deal, action, value, best, best_value, loss, mark, text, decision, player))
    return _Review(lens, worlds, seed, tuple(notes), review.get("luck"))


def _annotation(note: _Note, choice: Action, partie: Partie, reader: _Reader) -> Annotation:
    """The annotation of ``choice``, about to be taken in ``partie``: its best action read as one of the same
    player and the same kind, and legal there."""
    best: Action | str | None = None
    where = _note_where(note)
    names = reader.names
    if note.decision is not None:
        return _decision_annotation(note, choice, partie, reader)
    if note.best == PLAY_ON:
        if not isinstance(choice, Concede):
            raise RecordError(where, f"the best is {PLAY_ON!r} only for a concession, not for "
                                     f"{choice.describe(names)}", note.deal, note.action)
        best = PLAY_ON
    elif isinstance(note.best, Mapping):
        if "player" in note.best or "show_rest" in note.best:
            raise RecordError(where, "best is the action without its player (the annotated action's) and without "
                                     "show_rest (her choice's)", note.deal, note.action)
        try:
            best = reader.action({"player": names[choice.player], **note.best}, where)
        except RecordError as e:
            raise RecordError(where, e.reason, note.deal, note.action) from None
        if type(best) is not type(choice):
            raise RecordError(where, f"the best must be the same kind of action as {choice.describe(names)}, not "
                                     f"{best.describe(names)}", note.deal, note.action)
        if isinstance(best, Exchange) and isinstance(choice, Exchange):
            best = replace(best, show_rest=choice.show_rest)
        why = partie.why_not(best)
        if why is not None:
            raise RecordError(where, f"the best, {best.describe(names)}, could not be taken there: {why}",
                              note.deal, note.action)
        if best == choice and (note.loss or 0) > _LOSS_TOLERANCE:
            raise RecordError(where, f"the best is the choice itself, so the loss is 0, not {note.loss:g}",
                              note.deal, note.action)
    return Annotation(note.deal, note.action, choice, note.value, best, note.best_value, note.loss, note.mark,
                      note.text)


def _decision_annotation(note: _Note, choice: Action, partie: Partie, reader: _Reader) -> Annotation:
    """The annotation of a decision taken before ``choice`` (about to be taken in ``partie``), no action of the
    record: for ``"concession"``, its player's playing on where he might have conceded; its best
    :data:`PLAY_ON` or his concession."""
    where = _note_where(note)
    names = reader.names
    try:
        seat = reader.seat(note.player, where)
    except RecordError as e:
        raise RecordError(where, e.reason, note.deal, note.action) from None
    why = partie.why_not(Concede(seat))
    if why is not None:
        raise RecordError(where, f"{names[seat]} could not concede before {choice.describe(names)}, so did not "
                                 f"decide to play on: {why}", note.deal, note.action)
    if isinstance(choice, Concede):
        raise RecordError(where, f"{names[seat]} conceded there: the annotation of his concession is the "
                                 "action's, not a decision to play on", note.deal, note.action)
    best: Action | str | None = None
    if note.best == PLAY_ON:
        best = PLAY_ON
        if (note.loss or 0) > _LOSS_TOLERANCE:
            raise RecordError(where, f"the best is the choice itself ({PLAY_ON!r}), so the loss is 0, not "
                                     f"{note.loss:g}", note.deal, note.action)
    elif isinstance(note.best, Mapping):
        try:
            best = None if "player" in note.best else reader.action({"player": names[seat], **note.best}, where)
        except RecordError as e:
            raise RecordError(where, e.reason, note.deal, note.action) from None
        if not isinstance(best, Concede):
            raise RecordError(where, f"the best of a decision to concede or not is {{\"concede\": true}} or "
                                     f"{PLAY_ON!r}, not {note.best!r}", note.deal, note.action)
    return Annotation(note.deal, note.action, choice, note.value, best, note.best_value, note.loss, note.mark,
                      note.text, note.decision, seat)


def _parse(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"line {e.lineno}, column {e.colno}", f"not JSON: {e.msg}") from None
    except RecursionError:
        raise RecordError("record", "not a record: JSON nested deeper than the reader goes") from None
    except ValueError:  # Python's limit on converting long digit strings
        raise RecordError("record", "not a record: a number with thousands of digits") from None


def loads_annotated(text: str) -> tuple[Partie, Annotations | None]:
    """Read and re-play a record from JSON text: the partie and its review's annotations (``None``: none)."""
    data = _parse(text)
    try:
        return annotated_from_data(data)
    except RecursionError:  # a value nested deep enough that writing it into a message overflows
        raise RecordError("record", "not a record: values nested deeper than the reader goes") from None


def load_annotated(fp: IO[str]) -> tuple[Partie, Annotations | None]:
    return loads_annotated(fp.read())


def loads(text: str) -> Partie:
    """Read and re-play a record from JSON text."""
    return loads_annotated(text)[0]


def load(fp: IO[str]) -> Partie:
    return loads(fp.read())
