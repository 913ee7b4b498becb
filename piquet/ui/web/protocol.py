"""The messages of the browser table (``docs/protocol.md``): views and prompts out, actions in.

Everything a client receives about the game is built here from a
:class:`~piquet.engine.view.PlayerView`, the engine's view for that player, so a
client can never be sent a card its player may not see. Everything a client
sends is read here, strictly: anything unexpected is a :class:`ProtocolError`
naming the input and the reason.

This module needs nothing but the standard library; the server (``piquet.ui.web.app``)
carries the messages.

>>> from piquet.engine.partie import Partie
>>> import random
>>> partie = Partie(("Ann", "Bill"), first_dealer=0)
>>> _ = partie.push(partie.random_deal(random.Random(1), packets=3))
>>> prompt_data(partie, 1)["kind"], prompt_data(partie, 0)
('exchange', None)
>>> read_message('{"type": "action", "action": {"play": "QS"}, "version": 57}')
{'type': 'action', 'action': {'play': 'QS'}, 'version': 57}
>>> read_message('{"type": "shout"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
piquet.ui.web.errors.ProtocolError: malformed: unknown message type "shout" (known: action, hint, ..., undo)
>>> read_message('{"type": "say", "phrase": "good_luck"}')
{'type': 'say', 'phrase': 'good_luck'}
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal, TypedDict, get_args

from piquet.ai.agent import Agent
from piquet.ai.books import SimpleAgent
from piquet.engine.actions import (
    AcceptConcession,
    Action,
    Bid,
    CarteBlanche,
    ChooseDealer,
    Concede,
    Exchange,
    Play,
)
from piquet.engine.cards import Card, CardSet
from piquet.engine.combinations import Category
from piquet.engine.events import CardPlayed, DealBegun, Event, LogEntry
from piquet.engine.language import words_in
from piquet.engine.partie import IllegalActionError, Partie, Phase
from piquet.engine.record import RecordError, action_from_data, action_to_data
from piquet.engine.scoring import CombinationReason, PlainReason, ScoreEvent
from piquet.engine.variants import rules_for
from piquet.engine.view import PlayerView
from piquet.engine.words import contract_words, deal_notes, reason_words, said
from piquet.ui.menus import declaration_menu, describe_declaration, nothing_words, result_text
from piquet.ui.takebacks import Takebacks
from piquet.ui.web.errors import ErrorCode, ErrorMessage, ProtocolError, Said, said_in

__all__ = [
    "MAX_MESSAGE",
    "PHASE_NAMES",
    "PHRASES",
    "ClientMessage",
    "ErrorCode",
    "Phrase",
    "ProtocolError",
    "Said",
    "ServerMessage",
    "StateMessage",
    "TalkMessage",
    "action_message",
    "prompt_data",
    "read_action",
    "read_message",
    "rules_data",
    "sheet_rows",
    "talk_message",
    "view_data",
]

# ---------------------------------------------------------------- the messages as types
# Every message of docs/protocol.md, as the server reads and writes it (the page has the same as JSDoc types,
# static/table/protocol.js). Every one is total: each message holds all its fields, a value it does not have
# being null (None). tests/test_web_protocol.py checks real messages against these keys.

#: The types of message a client sends.
ClientType = Literal["action", "hint", "join", "move", "say", "undo"]
#: The phrases a player in a room may say to the table (``say``): these alone, no free text. Their words are the
#: page's, in each page's language (``static/i18n``: ``phrase.<id>``); the server sends only the id.
Phrase = Literal["good_luck", "well_played", "thank_you", "one_moment"]
PHRASES: tuple[Phrase, ...] = get_args(Phrase)
#: The phases as the protocol names them (:data:`PHASE_NAMES`).
PhaseName = Literal["cut", "choose_dealer", "deal", "bid", "carte_blanche", "exchange", "declare", "play",
                    "concession", "over"]
#: The feats a score sheet notes (:data:`piquet.engine.scoring.FEATS`), as the protocol names them.
FeatName = Literal["carte_blanche", "repique", "pique", "capot"]
FEAT_NAMES: dict[PlainReason, FeatName] = {
    PlainReason.CARTE_BLANCHE: "carte_blanche", PlainReason.REPIQUE: "repique", PlainReason.PIQUE: "pique",
    PlainReason.CAPOT: "capot"}
#: What a prompt asks for.
PromptKind = Literal["choose_dealer", "packets", "bid", "carte_blanche", "exchange", "declare", "play", "concession"]
#: The categories of the declaration, in the order they are declared.
DeclareCategory = Literal["point", "sequences", "sets"]
#: A table against the computer, or a room for two people.
TableKind = Literal["computer", "room"]
#: A table's status: a room waiting for its guest, a partie in play, or over.
TableStatus = Literal["waiting", "playing", "over"]
#: The secret a link to a table holds (``/t/{id}#token=...``): a seat's, a spectator's, a room's invite, or a
#: one-time link that moves a seat to another device.
LinkKind = Literal["token", "spectate", "invite", "move"]
#: An action in the record's action format, without ``player`` (``{"play": "QS"}``; ``engine/record``).
ActionData = dict[str, Any]


# Client to server.
class JoinMessage(TypedDict):
    type: Literal["join"]
    name: str


class _ActionFields(TypedDict):
    type: Literal["action"]
    action: object  # anything a client sent: read_action judges it
    version: int


class ActionMessage(_ActionFields, total=False):
    confirm: bool  # true: played anyway after the tutor's warning (left out: false)


class HintRequest(TypedDict):
    type: Literal["hint"]


class _UndoFields(TypedDict):
    type: Literal["undo"]
    version: int


class UndoMessage(_UndoFields, total=False):
    declare_best: bool  # true: the page declares for the player ("Declare my best"): go past his declarations


class MoveRequest(TypedDict):
    type: Literal["move"]


class SayMessage(TypedDict):
    type: Literal["say"]
    phrase: Phrase


ClientMessage = JoinMessage | ActionMessage | HintRequest | UndoMessage | MoveRequest | SayMessage


# The view.
class TrickData(TypedDict):
    leader: int
    cards: list[str]
    winner: int


class ArchivedDeal(TypedDict):
    """A finished deal's table talk: its number (0: the cut), its log and its tricks, as a state's view had them."""

    deal: int
    log: list[dict[str, Any]]
    tricks: list[TrickData]


class CountLine(TypedDict):
    """A line of a deal's count: a category either player scored in, and each player's points in it."""

    category: str
    label: str
    points: list[int]


class FeatData(TypedDict):
    """A feat of a deal (carte blanche, repique, pique, capot) and the seat that scored it."""

    feat: FeatName
    player: int


class OutcomeData(TypedDict):
    """An Auction contract's outcome: by how many tricks it was made (0 or more) or down (negative)."""

    holder: int
    bid: str
    doubles: int
    margin: int


class DealGameData(TypedDict):
    """Piquet au Cent: the game won in a deal, who won it, whether double, and the scores when it was reached."""

    winner: int
    double: bool
    reached: list[int]


class SheetRow(TypedDict):
    deal: int
    elder: int
    points: list[int]
    tricks: list[int]
    annulled: bool
    contract: str | None  # the contract as the sheet writes it, in the seat's language ("8- doubled")
    outcome: OutcomeData | None
    feats: list[FeatData]
    game: DealGameData | None
    notes: str  # the feats, the contract's outcome, the deal's multiplier and the game won, in words
    count: list[CountLine]  # the deal's count by category, in the order of reckoning (the totals are ``points``)


class ResultData(TypedDict):
    winner: int | None
    points: int
    rubiconed: bool
    games: list[int] | None
    text: str


class BidData(TypedDict):
    player: int
    call: str


class ContractData(TypedDict):
    holder: int
    bid: str
    tricks: int
    minus: bool
    doubles: int
    text: str


class GameData(TypedDict):
    winner: int
    double: bool
    scores: list[int]
    reached: list[int]


class RulesFacts(TypedDict):
    """The facts of a table's rules a page shows (:func:`rules_data`)."""

    bidding: bool
    plays_games: bool
    games_to_win: int
    game_target: int | None
    conceded_play: int
    cards_points: int
    carte_blanche_points: int


class ViewData(TypedDict):
    phase: PhaseName
    to_act: int | None
    deal_number: int
    dealer: int | None
    elder: int
    hand: list[str]
    dealt: list[str]
    discards: list[str]
    peeked: list[str]
    rest: list[str]
    show_rest: bool | None
    talon_left: int
    hand_sizes: list[int]
    exchanged: list[int | None]
    will_exchange: int | None
    carte_blanche: list[bool]
    shown_dealt: list[list[str]]
    revealed: list[list[str]]
    trick: list[str]
    leader: int
    tricks: list[TrickData]
    tricks_won: list[int]
    log: Sequence[Mapping[str, object]]  # the deal's dialogue: docs/protocol.md lists its entries
    deal_points: list[int]
    sheet: list[SheetRow]
    totals: list[int]
    result: ResultData | None
    bids: list[BidData]
    contract: ContractData | None
    games: list[GameData]
    game_scores: list[int]
    games_won: list[int]
    rules: RulesFacts


# The prompts.
class ChooseDealerPrompt(TypedDict):
    kind: Literal["choose_dealer"]
    options: list[int]


class PacketsPrompt(TypedDict):
    kind: Literal["packets"]
    options: list[int]


class BidPrompt(TypedDict):
    kind: Literal["bid"]
    options: list[str]


class CarteBlanchePrompt(TypedDict):
    kind: Literal["carte_blanche"]
    options: list[ActionData]


class ExchangePrompt(TypedDict):
    kind: Literal["exchange"]
    min: int
    max: int
    talon_left: int
    younger: bool
    may_show_rest: bool
    advice: list[str] | None


class DeclareOption(TypedDict):
    label: str
    action: ActionData


class DeclarePrompt(TypedDict):
    kind: Literal["declare"]
    category: DeclareCategory
    elder: bool
    in_full_only: bool
    options: list[DeclareOption]


class PlayPrompt(TypedDict):
    kind: Literal["play"]
    cards: list[str]
    concede: bool


class ConcessionPrompt(TypedDict):
    kind: Literal["concession"]
    options: list[ActionData]


Prompt = (ChooseDealerPrompt | PacketsPrompt | BidPrompt | CarteBlanchePrompt | ExchangePrompt | DeclarePrompt
          | PlayPrompt | ConcessionPrompt)


# Server to client.
class TableData(TypedDict):
    id: str
    kind: TableKind
    variant: str
    title: str
    options: dict[str, bool | int]
    level: int | None
    budget: float | None  # CPU seconds the computer and its hints think per decision (0: no limit); null in a room
    tutor: float | None  # the tutor's threshold in points of the deal; null: no tutor
    status: TableStatus
    public: bool  # a room listed in the lobby, for anyone to join or watch (docs/playing.md, "Public rooms")
    takebacks: Takebacks
    taken_back: int
    invite: str | None
    spectate: str
    rules: RulesFacts
    rematch: bool  # a rematch has been asked for at this finished table (POST /api/tables/{id}/rematch)


class StateMessage(TypedDict):
    type: Literal["state"]
    table: TableData
    seat: int | None
    players: list[str | None]
    computer: int | None
    can_hint: bool  # this seat may ask for hints: a player against the computer (never in a room)
    can_undo: bool
    can_undo_declare_best: bool  # the same, where the page declares for the player (an undo with declare_best)
    can_concede: bool
    version: int
    view: ViewData | None
    prompt: Prompt | None


class Advice(TypedDict):
    """A choice as a hint or the tutor names it: in words, and as the client sends it."""

    text: str
    action: ActionData


class DiscardAdvice(TypedDict):
    text: str
    action: ActionData
    value: float  # points of the deal from the exchange on, the player's less the opponent's (a mean)
    says: str  # what it keeps or risks, against the best (the best: against the next)


class HintMessage(TypedDict):
    type: Literal["hint"]
    text: str
    action: ActionData
    reason: str | None  # why, from the review; null where the review values nothing (who deals, a carte blanche, ...)
    next: Advice | None  # the next best choice; null where there is no other, or no review
    margin: float | None  # points of the deal the best is better than the next by (a mean over the worlds)
    discards: list[DiscardAdvice]  # at the exchange, the best discards, best first; else empty


class TutorMessage(TypedDict):
    type: Literal["tutor"]
    text: str  # the choice warned of, in words
    action: ActionData  # as the client sent it: send it again with "confirm": true to play it anyway
    loss: float  # points of the deal it loses against the better choice, on average
    better: Advice
    reason: str
    version: int  # the state it answers


class SeatMessage(TypedDict):
    type: Literal["seat"]
    seat: int
    token: str


class MoveMessage(TypedDict):
    type: Literal["move"]
    link: str
    expires_in: int


class TalkMessage(TypedDict):
    """The finished deals' talk, sent to a page as it joins: another tab or device shows the whole partie's."""

    type: Literal["talk"]
    deals: list[ArchivedDeal]


class SaidMessage(TypedDict):
    """A phrase a seated player said, sent to everyone at the room (kept in no record)."""

    type: Literal["said"]
    seat: int
    phrase: Phrase


ServerMessage = (StateMessage | ErrorMessage | HintMessage | TutorMessage | SeatMessage | MoveMessage
                 | TalkMessage | SaidMessage)


#: The largest message a client may send, in characters.
MAX_MESSAGE = 16 * 1024

_MESSAGE_FIELDS: dict[str, set[str]] = {"action": {"action", "version"}, "hint": set(), "join": {"name"},
                                        "move": set(), "say": {"phrase"}, "undo": {"version"}}


# ---------------------------------------------------------------- reading what clients send
def _shown(value: object) -> str:
    """A value a client sent, as JSON (not Python's repr), cut short."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


#: A JSON value's kind, as a message that is not an object is told what it sent.
_JSON_KINDS = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "a number",
               float: "a number", type(None): "null"}


def _either(*names: str) -> Callable[[str], str]:
    """The protocol's names (identifiers, the same in every language) joined by the client's "or"."""
    return lambda lang: words_in(lang)(" or ").join(names)


#: JSON's two booleans, as an error names them ("true or false").
_BOOLEANS = _either("true", "false")


def _json_kind(value: object) -> Callable[[str], str]:
    kind = _JSON_KINDS.get(type(value), "another value")
    return lambda lang: words_in(lang)(kind)


def read_message(text: str | bytes) -> ClientMessage:
    """A client's message, checked for size, JSON, type and fields (not yet for legality)."""
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("too_large", "a message may be at most {most} characters, not {n}", most=MAX_MESSAGE,
                            n=len(text))
    if isinstance(text, bytes):  # UTF-8 only (json.loads would take a byte order mark for UTF-16 or 32)
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ProtocolError("malformed", "not UTF-8 text: byte {byte}", byte=e.start) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        # The decoder's reason ("Expecting value") is a phrase of the catalogue too.
        raise ProtocolError("malformed", "not JSON: {reason} at line {line}, column {column}", reason=said_in(e.msg),
                            line=e.lineno, column=e.colno) from None
    except UnicodeDecodeError as e:
        raise ProtocolError("malformed", "not UTF-8 text: byte {byte}", byte=e.start) from None
    except RecursionError:  # a few kilobytes of [[[[...]]]] nest deeper than the decoder goes
        raise ProtocolError("malformed", "not JSON: nested too deep") from None
    except ValueError:  # Python's limit on converting long digit strings: no message has a number that long
        raise ProtocolError("malformed", "a number with thousands of digits: no message holds one") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message is a JSON object, not {kind}", kind=_json_kind(data))
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _MESSAGE_FIELDS:
        raise ProtocolError("malformed", "unknown message type {type} (known: {known})", type=_shown(kind),
                            known=", ".join(sorted(_MESSAGE_FIELDS)))
    fields = set(data) - {"type"}
    if kind == "action" and "confirm" in data:
        if not isinstance(data["confirm"], bool):
            raise ProtocolError("malformed", "{field} is {booleans}, not {value}", field="confirm", booleans=_BOOLEANS,
                                value=_shown(data["confirm"]))
        fields.discard("confirm")
    if kind == "undo" and "declare_best" in data:
        if not isinstance(data["declare_best"], bool):
            raise ProtocolError("malformed", "{field} is {booleans}, not {value}", field="declare_best",
                                booleans=_BOOLEANS, value=_shown(data["declare_best"]))
        fields.discard("declare_best")
    if "version" in _MESSAGE_FIELDS[kind]:
        if "version" not in data:
            raise ProtocolError("malformed", 'missing version: an {kind} message names the version of the state it '
                                             'answers ({{"version": N}}, the state\'s own)', kind=kind)
        version = data["version"]
        if not isinstance(version, int) or isinstance(version, bool) or not 0 <= version <= 1_000_000:
            raise ProtocolError("malformed", "a version is a whole number from 0, not {value}",
                                value=repr(version)[:160])
    if fields != _MESSAGE_FIELDS[kind]:
        want, sent = ", ".join(sorted(_MESSAGE_FIELDS[kind])), ", ".join(sorted(fields))
        if not want:
            raise ProtocolError("malformed", "a {kind} message has no fields, not {fields}", kind=kind, fields=sent)
        if not sent:
            raise ProtocolError("malformed", "a {kind} message has {want}, not none", kind=kind, want=want)
        raise ProtocolError("malformed", "a {kind} message has {want}, not {fields}", kind=kind, want=want,
                            fields=sent)
    if kind == "join":
        name = data["name"]
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise ProtocolError("malformed", "a name is 1 to 40 characters, not {name}", name=json.dumps(name)[:60])
        return {"type": "join", "name": name}
    if kind == "action":
        if "confirm" in data:
            return {"type": "action", "action": data["action"], "version": data["version"], "confirm": data["confirm"]}
        return {"type": "action", "action": data["action"], "version": data["version"]}
    if kind == "undo":
        if data.get("declare_best"):
            return {"type": "undo", "version": data["version"], "declare_best": True}
        return {"type": "undo", "version": data["version"]}
    if kind == "say":
        return {"type": "say", "phrase": _phrase(data["phrase"])}
    return {"type": "hint"} if kind == "hint" else {"type": "move"}


def _phrase(value: object) -> Phrase:
    """A phrase a client asked to say, if it is one of :data:`PHRASES`."""
    for phrase in PHRASES:
        if value == phrase:
            return phrase
    raise ProtocolError("malformed", "unknown phrase {phrase}: a player says one of the table's phrases ({phrases}), "
                                     "no words of his own", phrase=_shown(value), phrases=", ".join(PHRASES))


def _the(phase: Phase) -> Callable[[str], str]:
    """The phase with its article ("the exchange"), in the client's language."""
    return said_in("the " + phase.value)


def read_action(data: object, partie: Partie, seat: int, names: Sequence[str] = ()) -> Action | int:
    """The action a player sent (an ``int``: the packets the dealer deals in), checked against the engine: raises
    :class:`ProtocolError` if it is malformed, out of turn or illegal (the engine's refusal), the players named
    ``names`` (as the client is told them; by default the partie's), the error said in the client's language."""
    players = partie.players
    shown = tuple(names) or players
    who = shown[seat]
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "an action is a JSON object, not {value}", value=_shown(data))
    if "player" in data:
        raise ProtocolError("malformed", "an action names no player: the seat is the one your link holds")
    if "cut" in data or "deal" in data:  # the chance events are the server's: a client may not stack the pack
        raise ProtocolError("malformed", "the cut and the shuffle are the server's: a dealer sends {packets}",
                            packets="{'packets': n}")
    if partie.is_over:
        raise ProtocolError("not_allowed", "the partie is over")
    # A concession may come out of turn (the rulings, 18): the engine judges it.
    if partie.to_act != seat and data != {"concede": True}:
        waiting = shown[partie.to_act] if partie.to_act is not None else said_in("nobody")
        raise ProtocolError("not_your_turn", "it is not {name}'s turn ({phase}: waiting for {waiting})", name=who,
                            phase=_the(partie.phase), waiting=waiting)
    if set(data) == {"packets"}:
        packets = data["packets"]
        if partie.phase is not Phase.DEAL:
            raise ProtocolError("illegal", "{name} cannot choose packets: it is {phase}", name=who,
                                phase=_the(partie.phase))
        if packets not in partie.legal_packets() or isinstance(packets, bool):
            legal = [str(n) for n in partie.legal_packets()]
            raise ProtocolError("illegal", "{name} deals in packets of {sizes}, not {value}", name=who,
                                sizes=lambda lang: words_in(lang)(" or ").join(legal), value=_shown(packets))
        return int(packets)
    if set(data) == {"choose_dealer"}:
        dealer = data["choose_dealer"]
        if dealer not in (0, 1) or isinstance(dealer, bool):
            raise ProtocolError("malformed", "{field} is a seat, 0 or 1, not {value}", field="choose_dealer",
                                value=_shown(dealer))
        action: Action = ChooseDealer(seat, int(dealer))
    else:
        try:
            action = action_from_data({"player": players[seat], **data}, players)
        except RecordError as e:
            # The record's reader says why in English (the records' language); another language says which action.
            raise ProtocolError("malformed", "{reason}", reason=_unreadable(e.reason, data)) from None
    try:
        partie.verify(action)
    except IllegalActionError as e:
        refusal = e
        raise ProtocolError("illegal", "{reason}", reason=lambda lang: refusal.words(lang, shown)) from None
    return action


def _unreadable(reason: str, data: object) -> Callable[[str], str]:
    """Why an action could not be read: the record reader's reason in English; in another language, the action."""
    return lambda lang: reason if lang == "en" else words_in(lang)("this action cannot be read: {action}",
                                                                    action=_shown(data))


def action_message(action: Action, names: tuple[str, str]) -> ActionData:
    """An action in the form a client sends it (no ``player``)."""
    if isinstance(action, ChooseDealer):
        return {"choose_dealer": action.dealer}
    data = action_to_data(action, names)
    del data["player"]
    return data


# ---------------------------------------------------------------- writing what clients see
def _cards(cards: CardSet | Sequence[Card]) -> list[str]:
    if isinstance(cards, CardSet):
        return cards.strings()
    return [str(c) for c in cards]


def _sentence(text: str) -> str:
    """A sentence begins with a capital, whatever begins it (a name said in French, "l'ordinateur")."""
    return text[:1].upper() + text[1:]


def _log(entries: Sequence[LogEntry], players: Sequence[str], lang: str = "en",
         names: Sequence[str] | None = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    totals = [0, 0]
    named = tuple(names or players)
    for entry in entries:
        if isinstance(entry, ScoreEvent):
            totals[entry.player] += entry.points
            out.append({"kind": "score", "player": entry.player, "points": entry.points,
                        "category": entry.category.value, "reason": _reason(entry, tuple(players), named, lang),
                        "total": totals[entry.player]})
        elif isinstance(entry, CardPlayed):
            out.append({"kind": "play", "speaker": entry.player, "card": str(entry.card)})
        else:
            out.extend({"kind": kind, "speaker": speaker, "text": text}
                       for kind, speaker, text in _lines(entry, named, lang))
    return out


# Every state a table sends says its deal's talk from the start, for each seat and spectator: each entry's words,
# made once (a log entry is a frozen record, the same in every later state of its deal), are kept for the next.
@functools.lru_cache(maxsize=8192)
def _lines(event: Event, names: tuple[str, ...], lang: str) -> tuple[tuple[str, int | None, str], ...]:
    """What ``event`` says at the table, line by line: (kind, speaker, text), a note begun with a capital."""
    return tuple((line.kind, line.speaker, _sentence(line.text) if line.kind == "note" else line.text)
                 for line in said(event, names, lang))


@functools.lru_cache(maxsize=8192)
def _reason(entry: ScoreEvent, players: tuple[str, ...], names: tuple[str, ...], lang: str) -> str:
    """Why ``entry`` scored, in ``lang``: a combination's holder (Auction's minus contracts: "Bill's three kings")
    named as the connection names him."""
    why = entry.why
    if isinstance(why, CombinationReason) and why.holder in players:
        why = replace(why, holder=names[players.index(why.holder)])
    return reason_words(why, lang)


def talk_message(partie: Partie, lang: str = "en", names: Sequence[str] | None = None) -> TalkMessage:
    """The talk of every finished deal of ``partie`` (the cut's first), in ``lang``, its players named ``names``:
    the log and tricks each deal's last state showed, read from the deal's log (its cards played pair into tricks,
    the second card saying who won)."""
    deals: list[ArchivedDeal] = []
    for entries in partie.finished_logs():
        number = entries[0].number if entries and isinstance(entries[0], DealBegun) else 0
        plays = [e for e in entries if isinstance(e, CardPlayed)]
        pairs = zip(plays[::2], plays[1::2], strict=False)  # a finished deal's tricks are whole: no card left over
        tricks: list[TrickData] = [{"leader": lead.player, "cards": [str(lead.card), str(second.card)],
                                    "winner": second.winner} for lead, second in pairs if second.winner is not None]
        deals.append({"deal": number, "log": _log(entries, partie.players, lang, names), "tricks": tricks})
    return {"type": "talk", "deals": deals}


def sheet_rows(partie_view: PlayerView, lang: str = "en", names: Sequence[str] | None = None) -> list[SheetRow]:
    """The score sheet of the partie: one row per deal (an annulled Auction deal included), what happened in it as
    data (its feats, an Auction contract's outcome, an au Cent game won) and as notes in ``lang``, the players
    named ``names`` (by default the partie's)."""
    names = names or partie_view.players
    words = words_in(lang)
    won_in = {game.deal: game for game in partie_view.games}
    rows: list[SheetRow] = []
    for number, score in enumerate(partie_view.deal_scores, start=1):
        contract = score.contract
        game = won_in.get(number)
        outcome: OutcomeData | None = None
        if contract is not None and not score.annulled:
            outcome = {"holder": contract.holder, "bid": contract.bid, "doubles": contract.doubles,
                       "margin": contract.margin(score.tricks)}
        rows.append({
            "deal": number,
            "elder": score.elder,
            "points": list(score.totals),
            "tricks": list(score.tricks),
            "annulled": score.annulled,
            "contract": contract_words(contract, lang) if contract is not None else None,
            "outcome": outcome,
            "feats": [{"feat": FEAT_NAMES[feat], "player": player} for player, feat in score.feats],
            "game": None if game is None else {"winner": game.winner, "double": game.double,
                                               "reached": list(game.reached)},
            "notes": words("; ").join(deal_notes(score, names, game, lang)),
            "count": [{"category": c.value, "label": words(c.label), "points": list(points)}
                      for c, points in score.count()],
        })
    return rows


#: The phases as the protocol names them (the engine's ``Phase`` values are words for people).
PHASE_NAMES: dict[Phase, PhaseName] = {
    Phase.CUT: "cut", Phase.CHOOSE_DEALER: "choose_dealer", Phase.DEAL: "deal", Phase.BID: "bid",
    Phase.CARTE_BLANCHE: "carte_blanche", Phase.EXCHANGE: "exchange", Phase.DECLARE: "declare", Phase.PLAY: "play",
    Phase.CONCESSION: "concession", Phase.OVER: "over",
}


def rules_data(variant: str, options: Mapping[str, bool | int]) -> RulesFacts:
    """The facts of the rules a page shows, from the engine's rules, so no page reckons them itself.

    >>> facts = rules_data("au-cent", {})
    >>> facts["plays_games"], facts["games_to_win"], facts["game_target"]
    (True, 3, 100)
    >>> facts["conceded_play"], facts["cards_points"], facts["carte_blanche_points"]
    (13, 10, 10)
    >>> rules_data("auction", {})["bidding"], rules_data("au-cent", {})["bidding"]
    (True, False)
    """
    rules = rules_for(variant, options)
    return {"bidding": rules.uses_bidding, "plays_games": rules.plays_games, "games_to_win": rules.games_to_win,
            "game_target": rules.game_target,
            "conceded_play": rules.conceded_play_points, "cards_points": rules.cards_points,
            "carte_blanche_points": rules.carte_blanche_points}


def view_data(view: PlayerView, lang: str = "en", names: Sequence[str] | None = None) -> ViewData:
    """A player's view as the JSON a client gets (see ``docs/protocol.md``), its talk in ``lang``, the players named
    ``names`` (by default the partie's: a table names its computer in each connection's language)."""
    contract = view.contract
    won = list(view.games_won)
    return {
        "phase": PHASE_NAMES[view.phase],
        "to_act": view.to_act,
        "deal_number": view.deal_number,
        "dealer": view.dealer,
        "elder": view.elder,
        "hand": _cards(view.hand),
        "dealt": _cards(view.dealt),
        "discards": _cards(view.discards),
        "peeked": _cards(view.peeked),
        "rest": _cards(view.rest),
        "show_rest": view.show_rest,
        "talon_left": view.talon_left,
        "hand_sizes": list(view.hand_sizes),
        "exchanged": list(view.exchanged),
        "will_exchange": view.will_exchange,
        "carte_blanche": list(view.carte_blanche),
        "shown_dealt": [_cards(c) for c in view.shown_dealt],
        "revealed": [_cards(c) for c in view.revealed],
        "trick": _cards(view.trick),
        "leader": view.leader,
        "tricks": [{"leader": t.leader, "cards": _cards(t.cards), "winner": t.winner} for t in view.tricks],
        "tricks_won": list(view.tricks_won),
        "log": _log(view.log, view.players, lang, names),
        "deal_points": list(view.deal_points),
        "sheet": sheet_rows(view, lang, names),
        "totals": list(view.totals),
        "result": None,
        "bids": [{"player": b.player, "call": b.call} for b in view.bids],
        "contract": None if contract is None else {
            "holder": contract.holder, "bid": contract.bid, "tricks": contract.tricks, "minus": contract.minus,
            "doubles": contract.doubles, "text": contract_words(contract, lang)},
        "games": [{"winner": g.winner, "double": g.double, "scores": list(g.scores), "reached": list(g.reached)}
                  for g in view.games],
        "game_scores": list(view.game_scores),
        "games_won": won,
        "rules": rules_data(view.variant, view.options),
    }


def result_data(partie: Partie, lang: str = "en", names: Sequence[str] | None = None) -> ResultData | None:
    result = partie.result
    if result is None:
        return None
    return {"winner": result.winner, "points": result.points, "rubiconed": result.rubiconed,
            "games": list(result.games) if result.games is not None else None,
            "text": _sentence(result_text(partie, lang, names))}


_ADVISER = SimpleAgent()
_CATEGORY_NAMES: dict[Category, DeclareCategory] = {
    Category.POINT: "point", Category.SEQUENCES: "sequences", Category.SETS: "sets"}


def prompt_data(partie: Partie, seat: int | None, adviser: Agent | None = None,
                advise: bool = True, lang: str = "en") -> Prompt | None:
    """What ``seat`` must decide now, with the choices to offer; ``None`` if it is not his turn.

    With ``advise``, the exchange prompt suggests a discard: ``adviser``'s (the books' discard of
    the simple player by default); without (two people playing), its ``advice`` is ``None``.
    """
    if seat is None or partie.is_over or partie.to_act != seat:
        return None
    phase = partie.phase
    names = partie.players
    if phase is Phase.CHOOSE_DEALER:
        return {"kind": "choose_dealer", "options": [0, 1]}
    if phase is Phase.DEAL:
        sizes = partie.legal_packets()
        return {"kind": "packets", "options": list(sizes)} if len(sizes) > 1 else None
    legal = partie.legal_actions(seat)
    if phase is Phase.BID:
        return {"kind": "bid", "options": [a.call for a in legal if isinstance(a, Bid)]}
    if phase is Phase.CARTE_BLANCHE:
        return {"kind": "carte_blanche",
                "options": [action_message(a, names) for a in legal if isinstance(a, CarteBlanche)]}
    if phase is Phase.EXCHANGE:
        view = partie.view(seat)
        assert view.exchange_range is not None
        low, high = view.exchange_range
        advice = (adviser or _ADVISER).choose(view, legal) if advise else None
        younger = seat != partie.elder
        # Younger may show the rest of the talon only if she leaves some of it (Law 36): she may take all
        # that elder left (``high``), which is less than the talon's cards when elder's carte blanche
        # has spoken for his.
        return {"kind": "exchange", "min": low, "max": high, "talon_left": view.talon_left,
                "younger": younger, "may_show_rest": younger and low < high,
                "advice": (_cards(advice.discards) if isinstance(advice, Exchange) else []) if advise else None}
    if phase is Phase.DECLARE:
        menu = declaration_menu(partie, seat)
        category = menu[0].category
        elder = seat == partie.elder
        options: list[DeclareOption] = []
        for option in menu:
            if option.combinations:
                label = describe_declaration(category, option.combinations, lang)
            else:
                label = nothing_words(menu, elder, lang)
            options.append({"label": label[0].upper() + label[1:], "action": action_message(option, names)})
        return {"kind": "declare", "category": _CATEGORY_NAMES[category], "elder": elder,
                "in_full_only": partie.rules.must_declare_in_full(partie.contract), "options": options}
    if phase is Phase.PLAY:
        cards = [a.card for a in legal if isinstance(a, Play)]
        return {"kind": "play", "cards": _cards(cards), "concede": Concede(seat) in legal}
    if phase is Phase.CONCESSION:
        return {"kind": "concession",
                "options": [action_message(a, names) for a in legal if isinstance(a, AcceptConcession)]}
    return None  # pragma: no cover - the cut is the server's to make
