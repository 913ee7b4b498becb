"""A record's review (``meta.review``): its annotations of the actions, and the luck of each deal.

:class:`Annotations` is what a review writes into a record and what reading it back gives (see
:func:`piquet.engine.record.annotated` and :func:`piquet.engine.record.loads_annotated`): each
:class:`Annotation` names its action, and may give its value, the best action there and its value, the loss, a
mark and words; each :class:`LuckNote` the luck of a deal. Read back, a review is checked against the partie
re-played: an annotation's best action must be legal where it stands, its numbers agree, and a deal's luck adds
up.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

from piquet.engine.actions import Action, Concede, Exchange
from piquet.engine.language import words_in
from piquet.engine.record_actions import Reader, RecordError, best_data, deal_actions, require

if TYPE_CHECKING:
    from piquet.engine.partie import Partie

__all__ = ["DECISIONS", "LENSES", "MARK_SIGNS", "PLAY_ON", "REVIEW", "Annotation", "Annotations", "LuckNote",
           "annotation", "note_order", "note_where", "playing_on", "read_luck", "read_review"]

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
            out["best"] = self.best if isinstance(self.best, str) else best_data(self.best, names)
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

def playing_on(name: str, lang: str = "en") -> str:
    """A player's playing on (not conceding, where he might have) in words, as the review and the annotations
    say it, in ``lang``.

    >>> playing_on("Ann"), playing_on("Anne", "fr")
    ('Ann plays on', 'Anne continue à jouer')
    """
    return words_in(lang)("{name} plays on", name=name)

def read_luck(items: object, partie: Partie, names: tuple[str, str]) -> tuple[LuckNote, ...]:
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


def note_where(note: _Note) -> str:
    decided = f", {note.player}'s {note.decision} decision before it" if note.decision is not None else ""
    return f"review, annotation {note.index} (deal {note.deal}, action {note.action}{decided})"


def note_order(note: _Note) -> tuple[int, int, bool]:
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


def read_review(review: object) -> _Review:
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
    items = require(review, "annotations", list, where)
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
        if notes and (deal, action, decision is None) <= note_order(notes[-1]):
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


def annotation(note: _Note, choice: Action, partie: Partie, reader: Reader) -> Annotation:
    """The annotation of ``choice``, about to be taken in ``partie``: its best action read as one of the same
    player and the same kind, and legal there."""
    best: Action | str | None = None
    where = note_where(note)
    names = reader.names
    if note.decision is not None:
        return _decisionannotation(note, choice, partie, reader)
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


def _decisionannotation(note: _Note, choice: Action, partie: Partie, reader: Reader) -> Annotation:
    """The annotation of a decision taken before ``choice`` (about to be taken in ``partie``), no action of the
    record: for ``"concession"``, its player's playing on where he might have conceded; its best
    :data:`PLAY_ON` or his concession."""
    where = note_where(note)
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
