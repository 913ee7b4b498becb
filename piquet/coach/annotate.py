"""The annotated record: a partie's review written into its record, one annotation per action reviewed.

:func:`review_annotations` turns a :class:`~piquet.coach.review.PartieReview` into the record's annotations
(:class:`piquet.engine.record.Annotations`): for each decision reviewed, the value of the choice made, the
best choice (as the record writes an action) and its value, the loss, the mark and the explanation; the lens,
the worlds and the seed once for the whole review. It is generic over the kinds of decision a review grades:
a card played (a :class:`~piquet.coach.review.PlayReview`, its values by card), and a declaration or an exchange
(an object with ``choice``, ``best``, ``loss``, ``mark``, and the values by ``worth(choice).value`` or as
``options`` of (choice, value): :class:`Graded`, the shape of :class:`~piquet.coach.review.DeclarationReview`; an
exchange's choices may be its discards; a carte blanche's are its announcements), a concession decision (a
:class:`~piquet.coach.review.ConcessionReview`: conceding, its best perhaps :data:`piquet.engine.record.PLAY_ON`;
accepting or declining one; and a player's playing on where he might have conceded, no action of the record,
annotated as the ``"concession"`` decision before elder's first card); and the luck of each deal reviewed
(:func:`luck_note`).
:func:`annotated_record` writes them into the record's text (``meta.review``; docs/record-format.md,
"Annotations"), the rest of the record as it was.

The values are written to hundredths, and the loss as the best value less the choice's, so that the record's
reader finds them agree.

>>> import random
>>> from piquet.ai.agent import play_deal
>>> from piquet.ai.levels import make_agent
>>> from piquet.coach.review import Lens, review_partie
>>> from piquet.engine import record
>>> from piquet.engine.partie import Partie
>>> partie = Partie(("Ann", "Bill"), first_dealer=0)
>>> play_deal(partie, [make_agent("level1", 1), make_agent("level2", 2)], random.Random(4))
>>> review = review_partie(partie, Lens.OPEN)
>>> notes = review_annotations(review, partie)
>>> notes.lens, notes.worlds, len(notes.notes) == sum(1 for r in review.actions if graded(r) is not None)
('open-hands', 1, True)
>>> text = annotated_record(record.dumps(partie), review)
>>> again, read = record.loads_annotated(text)
>>> read == notes, again.totals == partie.totals
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol, runtime_checkable

from piquet.coach.luck import DealLuck
from piquet.coach.review import (
    ACCEPT,
    CONCEDE,
    DECLINE,
    PLAY_ON,
    ConcessionReview,
    PartieReview,
    PlayReview,
    ReviewedDecision,
)
from piquet.engine import record
from piquet.engine.actions import AcceptConcession, Action, Concede, Exchange, Play
from piquet.engine.cards import CardSet
from piquet.engine.partie import Partie

__all__ = ["Graded", "annotated_record", "annotation_of", "graded", "luck_note", "review_annotations"]


class Graded(Protocol):
    """A decision graded, as a declaration's review is (and an exchange's): the choice made, the best (the
    choice itself where it is as good as any), the loss and the mark; the values either by ``worth(choice)``
    (an object with a ``value``, as the exchange's review gives them) or as ``options``, pairs of a choice and
    its value (as the declaration's review gives them). A choice may be an action, or for an exchange its
    discards."""

    @property
    def choice(self) -> object: ...

    @property
    def best(self) -> object: ...

    @property
    def loss(self) -> float: ...

    @property
    def mark(self) -> str: ...


class _Valued(Protocol):
    @property
    def value(self) -> float: ...


@runtime_checkable
class _ByWorth(Protocol):
    def worth(self, choice: Any, /) -> _Valued: ...


@runtime_checkable
class _ByOptions(Protocol):
    @property
    def options(self) -> Sequence[tuple[object, float]]: ...


def _value(found: Graded, chosen: object) -> float:
    """What ``chosen`` (one of the options of the decision ``found`` graded) was worth."""
    if isinstance(found, _ByWorth):
        return float(found.worth(chosen).value)
    if isinstance(found, _ByOptions):
        for option, value in found.options:
            if option == chosen:
                return float(value)
    raise ValueError(f"{chosen!r} is not among the options valued")


def graded(reviewed: ReviewedDecision) -> PlayReview | Graded | None:
    """The review of one decision, whatever its kind (``None`` where it was not graded: the only choice): the
    ``review`` each kind of :data:`~piquet.coach.review.ReviewedDecision` holds."""
    return reviewed.review


def _round(x: float) -> float:
    return round(x, 2) + 0.0  # + 0.0: no -0.0 in the record


def _as_action(chosen: object, like: Action) -> Action:
    """An option of a graded decision as the action it stands for: an action as it is, discards as an exchange
    of the same player (with her ``show_rest``, which the exchange's review does not weigh)."""
    if isinstance(chosen, CardSet) and isinstance(like, Exchange):
        return Exchange(like.player, chosen, like.show_rest)
    if isinstance(chosen, Exchange) and isinstance(like, Exchange):
        return Exchange(like.player, chosen.discards, like.show_rest)
    if not isinstance(chosen, type(like)):
        raise TypeError(f"a {type(like).__name__} graded with options that are not: {chosen!r}")
    return chosen


#: A concession decision's options (the review's words) as the record writes them, by the deciding seat: an action,
#: or :data:`piquet.engine.record.PLAY_ON`.
_CONCESSION_OPTIONS: Final[dict[str, Callable[[int], Action | str]]] = {
    CONCEDE: Concede, PLAY_ON: lambda seat: record.PLAY_ON, ACCEPT: lambda seat: AcceptConcession(seat, True),
    DECLINE: lambda seat: AcceptConcession(seat, False)}


def annotation_of(reviewed: ReviewedDecision, choice: Action) -> record.Annotation | None:
    """The annotation of one reviewed decision, or ``None`` where it was not graded. ``choice``: the action
    itself, as the record holds it; for a player's playing on where he might have conceded (no action of the
    record), the action that followed, which the annotation is of the ``"concession"`` decision before."""
    found = graded(reviewed)
    if found is None:
        return None
    best: Action | str
    decision: str | None = None
    if isinstance(found, ConcessionReview):
        value, best_value = found.values[found.choice], found.values[found.best]
        best = _CONCESSION_OPTIONS[found.best](found.seat)
        if found.choice == PLAY_ON:
            decision = "concession"
    elif isinstance(found, PlayReview):
        seat = found.seat
        value, best_value = found.worth(found.choice).value, found.worth(found.best).value
        best = Play(seat, found.best)
    else:
        value, best_value = _value(found, found.choice), _value(found, found.best)
        best = _as_action(found.best, choice)
    value, best_value = _round(value), _round(best_value)
    loss = max(0.0, _round(best_value - value))
    return record.Annotation(reviewed.deal, reviewed.action, choice, value, best, best_value, loss, found.mark,
                             reviewed.explanation or None, decision, reviewed.seat if decision else None)


def review_annotations(review: PartieReview, partie: Partie) -> record.Annotations:
    """The review of ``partie`` (:func:`~piquet.coach.review.review_partie` of it) as its record's annotations:
    one for each action graded, in the order of the actions; the lens, the worlds and the seed."""
    held = record.deal_actions(partie)
    notes = []
    for reviewed in review.actions:
        note = annotation_of(reviewed, held[reviewed.deal - 1][reviewed.action])
        if note is not None:
            notes.append(note)
    notes.sort(key=lambda n: (n.deal, n.action, n.decision is None))  # a decision before its action
    return record.Annotations(review.lens.value, review.worlds, review.seed, tuple(notes),
                              tuple(luck_note(deal) for deal in review.luck))


def luck_note(luck: DealLuck) -> record.LuckNote:
    """A deal's luck as the record writes it (:class:`piquet.engine.record.LuckNote`), to hundredths."""
    return record.LuckNote(luck.deal, luck.elder, _round(luck.average),
                           (_round(luck.deal_luck(0)), _round(luck.deal_luck(1))),
                           (_round(luck.draw_luck(0)), _round(luck.draw_luck(1))),
                           (_round(luck.luck(0)), _round(luck.luck(1))),
                           (luck.result(0), luck.result(1)))


def annotated_record(text: str, review: PartieReview) -> str:
    """The record ``text`` with ``review`` (a review of the partie it holds) written into it as annotations
    (:func:`piquet.engine.record.annotated`: any review it had is replaced; the rest is as it was)."""
    partie = record.loads(text)
    if partie.players != review.players:
        raise ValueError(f"the review is of a partie between {' and '.join(review.players)}, the record of one "
                         f"between {' and '.join(partie.players)}")
    return record.annotated(text, review_annotations(review, partie))
