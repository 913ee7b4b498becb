"""The annotated record: a partie's review written into its record, one annotation per action reviewed.

:func:`review_annotations` turns a :class:`~piquet.ai.review.PartieReview` into the record's annotations
(:class:`piquet.engine.record.Annotations`): for each decision reviewed, the value of the choice made, the
best choice (as the record writes an action) and its value, the loss, the mark and the explanation; the lens,
the worlds and the seed once for the whole review. It is generic over the kinds of decision a review grades:
a card played (a :class:`~piquet.ai.review.PlayReview`, its values by card), and a declaration or an exchange
(an object with ``choice``, ``best``, ``loss``, ``mark``, and the values by ``worth(choice).value`` or as
``options`` of (choice, value): :class:`Graded`, the shape of :class:`~piquet.ai.review.DeclarationReview`; an
exchange's choices may be its discards); and the luck of each deal reviewed (:func:`luck_note`).
:func:`annotated_record` writes them into the record's text (``meta.review``; docs/record-format.md,
"Annotations"), the rest of the record as it was.

The values are written to hundredths, and the loss as the best value less the choice's, so that the record's
reader finds them agree.

>>> import random
>>> from piquet.ai.agent import play_deal
>>> from piquet.ai.levels import make_agent
>>> from piquet.ai.review import Lens, review_partie
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

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from piquet.ai.luck import DealLuck
from piquet.ai.review import PartieReview, PlayReview, Reviewed
from piquet.engine import record
from piquet.engine.actions import Action, Exchange, Play
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


def graded(reviewed: Reviewed) -> PlayReview | Graded | None:
    """The review of one action, whatever its kind (``None`` where it was not graded: the only choice, or a
    kind not reviewed)."""
    if reviewed.kind == "play":
        return reviewed.review
    if reviewed.kind == "declaration":
        return reviewed.declaration
    if reviewed.kind == "exchange":
        return reviewed.exchange
    if reviewed.kind == "call":
        return reviewed.call
    return None


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


def annotation_of(reviewed: Reviewed, choice: Action) -> record.Annotation | None:
    """The annotation of one reviewed action (``choice``, the action itself, as the record holds it), or
    ``None`` where it was not graded."""
    found = graded(reviewed)
    if found is None:
        return None
    if isinstance(found, PlayReview):
        seat = found.seat
        value, best_value = found.worth(found.choice).value, found.worth(found.best).value
        best: Action = Play(seat, found.best)
    else:
        value, best_value = _value(found, found.choice), _value(found, found.best)
        best = _as_action(found.best, choice)
    value, best_value = _round(value), _round(best_value)
    loss = max(0.0, _round(best_value - value))
    return record.Annotation(reviewed.deal, reviewed.action, choice, value, best, best_value, loss, found.mark,
                             reviewed.explanation or None)


def review_annotations(review: PartieReview, partie: Partie) -> record.Annotations:
    """The review of ``partie`` (:func:`~piquet.ai.review.review_partie` of it) as its record's annotations:
    one for each action graded, in the order of the actions; the lens, the worlds and the seed."""
    held = record.deal_actions(partie)
    notes = []
    for reviewed in review.actions:
        note = annotation_of(reviewed, held[reviewed.deal - 1][reviewed.action])
        if note is not None:
            notes.append(note)
    notes.sort(key=lambda n: (n.deal, n.action))
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
