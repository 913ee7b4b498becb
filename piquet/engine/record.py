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
>>> try:
...     loads('{"format": "piquet-record", "version": 2}')
... except RecordError as e:
...     print(e)
record: version 2 is not supported (this reader knows version 1)

The actions themselves are written and read by :mod:`piquet.engine.record_actions`; a review's annotations by
:mod:`piquet.engine.annotations`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import IO, Any

from piquet.engine.actions import Action, Bid, ChooseDealer, Cut, Deal
from piquet.engine.annotations import (
    DECISIONS,
    LENSES,
    MARK_SIGNS,
    PLAY_ON,
    REVIEW,
    Annotation,
    Annotations,
    LuckNote,
    annotation,
    note_order,
    note_where,
    playing_on,
    read_luck,
    read_review,
)
from piquet.engine.cards import CardSet
from piquet.engine.partie import IllegalActionError, Partie, Phase
from piquet.engine.record_actions import (
    Reader,
    RecordError,
    action_data,
    action_from_data,
    action_to_data,
    deal_actions,
    require,
)
from piquet.engine.variants import OptionError

__all__ = [
    "DECISIONS", "FORMAT", "LENSES", "MARK_SIGNS", "PLAY_ON", "REVIEW", "VERSION", "Annotation", "Annotations",
    "LuckNote", "RecordError",
    "action_from_data", "action_to_data", "annotated", "annotated_from_data", "deal_actions", "dump", "dumps",
    "from_data", "layout", "load", "load_annotated", "loads", "loads_annotated", "playing_on", "to_data",
]

FORMAT = "piquet-record"
VERSION = 1


def _card_list(cards: CardSet) -> list[str]:
    return cards.strings()


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
            deal["hands"] = {names[seat]: _card_list(action.hands[seat]) for seat in (0, 1)}
            deal["talon"] = [str(c) for c in action.talon]
            deal["actions"] = []
            deals.append(deal)
        else:
            if isinstance(action, Bid) and action.tricks is not None:
                elder = action.player  # the highest bidder becomes elder
            deals[-1]["actions"].append(action_data(action, names, elder))
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
    variant = require(data, "variant", str, "record")
    options = require(data, "options", dict, "record")
    players = require(data, "players", list, "record")
    deals = require(data, "deals", list, "record")
    if len(players) != 2 or not all(isinstance(p, str) and p for p in players) or players[0] == players[1]:
        raise RecordError("record", f"players must be two different names, not {players!r}")
    names = (players[0], players[1])
    _check_takebacks(data.get("takebacks", []), names)
    reader = Reader(names)
    meta = data.get("meta")
    review = read_review(meta[REVIEW]) if isinstance(meta, dict) and REVIEW in meta else None
    pending = {note_order(n): n for n in review.notes} if review is not None else {}
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
        hands = require(deal, "hands", dict, where)
        if set(hands) != set(names):
            raise RecordError(where, f"hands must give the cards of {names[0]} and {names[1]}")
        dealt = (reader.cardset(hands[names[0]], f"{where}, {names[0]}'s hand"),
                 reader.cardset(hands[names[1]], f"{where}, {names[1]}'s hand"))
        talon_data = require(deal, "talon", list, where)
        talon = tuple(reader.card(c, f"{where}, talon") for c in talon_data)
        push(Deal(dealer, dealt, talon, packets), where, d)
        actions = require(deal, "actions", list, where)
        for i, item in enumerate(actions):
            at = f"deal {d}, action {i}"
            action = reader.action(item, at)
            for own in (False, True):  # a decision taken before the action, then the action's own
                note = pending.pop((d, i, own), None)
                if note is not None:
                    notes.append(annotation(note, action, partie, reader))
            push(action, at, d, i)
        if d < len(deals) and partie.phase not in (Phase.DEAL, Phase.CUT) and not partie.is_over:
            raise RecordError(where, f"the deal ends unfinished (in the {partie.phase.value}) but more deals follow")
        if partie.is_over and d < len(deals):
            raise RecordError(f"deal {d + 1}", "the partie was already over")
    for note in pending.values():
        held = deal_actions(partie)
        there = (f"deal {note.deal} has {len(held[note.deal - 1])} actions" if note.deal <= len(held)
                 else f"the record has {len(held)} deal{'s' if len(held) != 1 else ''}")
        raise RecordError(note_where(note), f"there is no such action ({there})", note.deal, note.action)
    if review is None:
        return partie, None
    luck = read_luck(review.luck, partie, names) if review.luck is not None else ()
    return partie, Annotations(review.lens, review.worlds, review.seed, tuple(notes), luck)

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
