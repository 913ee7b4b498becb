"""Exercises from a review: a player's worst decisions in an annotated record, offered again ("find a better
discard"), each answer graded against the review, and "show me".

An annotated record (``piquet analyse GAME.json -o ANNOTATED.json``; docs/record-format.md, "Annotations") holds,
for each decision the review graded, the choice made, the best, their values, the loss, a mark and the
explanation. :func:`exercises` picks a player's worst decisions among them (marked ones first, then by loss), each
an :class:`Exercise`: the partie re-played to that decision (so the player is to act), his view there, the choice
he made, the best, the loss and the explanation. :func:`read_answer` reads an answer in the record's notation (a
card ``KS``, a discard ``KD 9D 8C``, a declaration ``KS QS JS / AC KC QC`` or ``nothing``), and :func:`grade` grades
it: the best (or as good) is right; the choice made is wrong by its loss; any other answer the engine allows is
valued again as the review valued the decision (:func:`review_answer`: the same lens, and in the fair lens the
same worlds, drawn from the same seed); an answer the engine refuses names the engine's reason. :func:`show_me`
says the best and why.

Bill's worst decision in a deal between the two simplest levels, reviewed with open hands:

>>> import random
>>> from piquet.ai.agent import play_deal
>>> from piquet.coach.annotate import review_annotations
>>> from piquet.ai.levels import make_agent
>>> from piquet.coach.review import Lens, review_partie
>>> from piquet.engine.partie import Partie
>>> partie = Partie(("Ann", "Bill"), first_dealer=0)
>>> play_deal(partie, [make_agent("level1", 1), make_agent("level2", 2)], random.Random(4))
>>> notes = review_annotations(review_partie(partie, Lens.OPEN), partie)
>>> found = exercises(partie, notes, "Bill", count=2)
>>> [(e.deal, e.action, e.kind, e.mark, e.loss) for e in found]
[(1, 20, 'play', '??', 12.0), (1, 0, 'discard', '?', 5.0)]
>>> worst = found[0]
>>> worst.task, worst.view.hand == worst.partie.hand(1), doing(worst.choice, worst.leading)
('Find a better play', True, 'leading the 9♠')
>>> print(grade(worst, read_answer(worst, "8D")).said)
Right: leading the 8♦ is the best here. Leading the 9♠ rather than the 8♦ costs Bill 12 points: it gives up \
the cards (−10; 6 tricks instead of 7) and the points for leading (−2). Ann takes the trick with the A♠.
>>> print(grade(worst, read_answer(worst, "9S")).said)
That is the play made, leading the 9♠: it loses 12 points against the best (a blunder, ??).
>>> verdict = grade(worst, read_answer(worst, "AS"))
>>> verdict.grade.value, verdict.reason
('illegal', 'AS is not in hand')
>>> read_answer(worst, "10d"), read_answer(found[1], "qs 8s 9h 7h 8c").discards
(Play(player=1, card=Card.parse('TD')), CardSet.parse('QS 8S 9H 7H 8C'))
>>> read_answer(worst, "QZ")
Traceback (most recent call last):
...
piquet.coach.exercises.AnswerError: not a card: 'QZ' (write rank A K Q J T 9 8 7, then suit S H D C, e.g. 'TS')
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import Final

from piquet.coach.review import (
    CALL_PARTS,
    CALL_WORLDS,
    DEFAULT_WORLDS,
    EXCHANGE_WORLDS,
    CallReview,
    DeclarationReview,
    ExchangeReview,
    Lens,
    PlayReview,
    decision_rng,
    declaration_differences,
    differences,
    exchange_differences,
    explain,
    explain_call,
    explain_declaration,
    explain_exchange,
    parts_clauses,
    replayed_steps,
    review_call,
    review_decision,
    review_declaration,
    review_exchange,
)
from piquet.engine import record
from piquet.engine.actions import Action, Bid, Declare, Exchange, Play
from piquet.engine.cards import Card, CardError, CardSet
from piquet.engine.combinations import Category
from piquet.engine.partie import Partie, Phase
from piquet.engine.view import PlayerView

#: A decision's review, of any kind an exercise asks for.
_Reviewed = PlayReview | DeclarationReview | ExchangeReview | CallReview

__all__ = [
    "AS_GOOD", "DEFAULT_COUNT", "KINDS", "MARK_WORDS", "AnswerError", "Exercise", "Grade", "NoReviewError",
    "Verdict", "doing", "exercises", "grade", "load_exercises", "read_answer", "review_answer", "seat_of",
    "show_me", "valued_again",
]

#: How many exercises, by default: the player's five worst decisions.
DEFAULT_COUNT: Final = 5

#: A loss smaller than this is no loss: an answer within it of the best is as good as the best (the annotations
#: are written to hundredths, and the review says a discard within a twentieth of a point of the best is as good).
AS_GOOD: Final = 0.05

#: What an exercise asks for, by the kind of action: "find a better play" (discard, declaration).
KINDS: Final[dict[type, str]] = {Play: "play", Exchange: "discard", Declare: "declaration", Bid: "call"}

#: The marks in words.
MARK_WORDS: Final = {"??": "a blunder", "?": "a mistake", "?!": "an inaccuracy", "": "no mark"}

#: Words that answer "nothing" at a declaration (elder sinks, younger says good) or "no card" at an exchange.
_NOTHING: Final = ("nothing", "none", "good", "sink", "-", "0")

_CATEGORY_WORDS: Final = {Category.POINT: "the point", Category.SEQUENCES: "sequences", Category.SETS: "sets"}


class NoReviewError(ValueError):
    """A record that holds no review to make exercises of."""


class AnswerError(ValueError):
    """An answer that cannot be read as an action of the exercise's kind; the message says why."""


@dataclass(frozen=True)
class Exercise:
    """One decision to practise: the record's annotation of it (``note``: the choice made, the best, their
    values, the loss, the mark, the explanation), the partie re-played to it (``partie``: the player is to act;
    it holds every card, so show the player only :attr:`view`), and how the review valued it (its lens, worlds
    and seed, as the record's review says them; ``None`` where it does not)."""

    note: record.Annotation
    partie: Partie
    lens: Lens | None = None
    worlds: int | None = None
    seed: int | None = None

    @property
    def seat(self) -> int:
        return self.note.choice.player

    @property
    def names(self) -> tuple[str, str]:
        return self.partie.players

    @property
    def deal(self) -> int:
        return self.note.deal

    @property
    def action(self) -> int:
        return self.note.action

    @property
    def choice(self) -> Action:
        return self.note.choice

    @property
    def best(self) -> Action:
        best = self.note.best
        assert best is not None and not isinstance(best, str)  # exercises() keeps only annotations with a best
        return best

    @property
    def loss(self) -> float:
        return self.note.loss or 0.0

    @property
    def mark(self) -> str:
        return self.note.mark or ""

    @property
    def text(self) -> str:
        """The review's explanation of the choice against the best."""
        return self.note.text or ""

    @property
    def kind(self) -> str:
        """``"play"``, ``"discard"`` or ``"declaration"``."""
        return KINDS[type(self.choice)]

    @property
    def task(self) -> str:
        return f"Find a better {self.kind}"

    @property
    def view(self) -> PlayerView:
        """What the player could know at the decision: all an interface may show."""
        return self.partie.view(self.seat)

    @property
    def leading(self) -> bool:
        """At a card: whether the player leads to the trick."""
        return self.partie.phase is Phase.PLAY and not self.partie.trick

    @property
    def category(self) -> Category | None:
        """At a declaration: its category."""
        return self.choice.category if isinstance(self.choice, Declare) else None


def seat_of(names: tuple[str, str], player: int | str | None) -> int:
    """The seat of ``player``: a seat, a name (exactly, or in any case where that is not ambiguous), or ``None``
    for the first player. Raises :class:`ValueError` naming the players.

    >>> seat_of(("Ann", "Bill"), "bill"), seat_of(("Ann", "Bill"), None)
    (1, 0)
    """
    if player is None:
        return 0
    if isinstance(player, int):
        if player not in (0, 1):
            raise ValueError(f"there is no seat {player}")
        return player
    if player in names:
        return names.index(player)
    folded = [i for i, name in enumerate(names) if name.casefold() == player.casefold()]
    if len(folded) == 1:
        return folded[0]
    raise ValueError(f"{player!r} is not a player of this partie (players: {', '.join(names)})")


def _replayed(partie: Partie, wanted: set[tuple[int, int]]) -> dict[tuple[int, int], Partie]:
    """The partie as it was before each action in ``wanted`` (deal from 1, action from 0, as a record numbers
    them), re-played from the start."""
    return {(deal, index): at.copy() for at, _action, deal, index in replayed_steps(partie) if (deal, index) in wanted}


def _same(a: Action, b: Action) -> bool:
    """The same decision: for an exchange the same discards (younger's ``show_rest`` is not graded)."""
    if isinstance(a, Exchange) and isinstance(b, Exchange):
        return a.player == b.player and a.discards == b.discards
    return a == b


def exercises(partie: Partie, notes: record.Annotations, player: int | str | None = None,
              count: int = DEFAULT_COUNT) -> list[Exercise]:
    """The worst decisions of ``player`` (a seat or a name; ``None``: the first player) in ``partie``, a record
    re-played, by its review ``notes``: those that lost against the best (by :data:`AS_GOOD` or more), the marked
    ones first, each group by loss, the largest first; ``count`` of them at most."""
    if count < 1:
        raise ValueError(f"count is at least 1, not {count}")
    seat = seat_of(partie.players, player)
    chosen = [n for n in notes.notes
              if n.decision is None and n.choice.player == seat and type(n.choice) in KINDS
              and n.best is not None and not isinstance(n.best, str)
              and n.loss is not None and n.loss >= AS_GOOD and not _same(n.best, n.choice)]
    chosen.sort(key=lambda n: (not n.mark, -(n.loss or 0.0), n.deal, n.action))
    chosen = chosen[:count]
    at = _replayed(partie, {(n.deal, n.action) for n in chosen})
    lens = Lens(notes.lens) if notes.lens is not None else None
    return [Exercise(n, at[n.deal, n.action], lens, notes.worlds, notes.seed) for n in chosen]


def load_exercises(text: str, player: int | str | None = None, count: int = DEFAULT_COUNT) -> list[Exercise]:
    """The exercises of an annotated record's text (:func:`exercises`). Raises
    :class:`~piquet.engine.record.RecordError` for a record that cannot be read, and :class:`NoReviewError` for
    one that holds no review."""
    partie, notes = record.loads_annotated(text)
    if notes is None or not notes.notes:
        raise NoReviewError("the record holds no review to practise on: review it first with piquet analyse "
                            "GAME.json -o ANNOTATED.json, then practise on ANNOTATED.json")
    return exercises(partie, notes, player, count)


# ---------------------------------------------------------------- the answer
def _cards(text: str) -> CardSet:
    try:
        return CardSet.parse(text)
    except CardError as e:
        raise AnswerError(str(e)) from None


def _declaration(exercise: Exercise, text: str) -> Declare:
    """A declaration typed as its cards, combinations apart by ``/`` (the call first), matched to the legal
    declaration of those combinations where the engine orders them otherwise, or typed all together."""
    category = exercise.category
    assert category is not None
    seat = exercise.seat
    if text.strip().lower() in _NOTHING:
        return Declare(seat, category, ())
    groups = tuple(_cards(part) for part in text.split("/") if part.strip())
    typed = Declare(seat, category, groups)
    legal = [a for a in exercise.partie.legal_actions(seat) if isinstance(a, Declare)]
    if typed in legal:
        return typed
    masks = sorted(c.mask for c in groups)
    alike = [a for a in legal if sorted(c.mask for c in a.combinations) == masks]
    if not alike and len(groups) == 1:  # several combinations typed without a "/"
        alike = [a for a in legal if len(a.combinations) > 1 and sum(len(c) for c in a.combinations) == len(groups[0])
                 and all(c.mask & groups[0].mask == c.mask for c in a.combinations)]
    return alike[0] if alike else typed


def read_answer(exercise: Exercise, text: str) -> Action:
    """The exercise's player's action written ``text``, in the record's notation: a card (``KS``, ``10S``,
    ``K♠``), a discard (``KD 9D 8C``; ``none`` for no card), or a declaration (its combinations, the call first,
    apart by ``/``: ``KS QS JS TS / AC KC QC``; ``nothing`` to sink or say good). Whether the engine allows it is
    :func:`grade`'s to say. Raises :class:`AnswerError` for text that is not such an answer."""
    t = text.strip()
    if not t:
        raise AnswerError(f"type your {exercise.kind}")
    choice = exercise.choice
    if isinstance(choice, Play):
        try:
            return Play(exercise.seat, Card.parse(t))
        except CardError as e:
            raise AnswerError(str(e)) from None
    if isinstance(choice, Exchange):
        discards = CardSet() if t.lower() in _NOTHING else _cards(t)
        return Exchange(exercise.seat, discards, choice.show_rest)
    if isinstance(choice, Bid):
        try:
            return Bid(exercise.seat, t.lower())
        except ValueError as e:
            raise AnswerError(str(e)) from None
    return _declaration(exercise, t)


# ---------------------------------------------------------------- grading
class Grade(enum.Enum):
    """How an answer fared: the best or as good (right), worse (wrong), refused by the engine (illegal), or
    neither the choice nor the best and not valued again (ungraded)."""

    RIGHT = "right"
    WRONG = "wrong"
    ILLEGAL = "illegal"
    UNGRADED = "ungraded"


@dataclass(frozen=True)
class Verdict:
    """An answer graded: its grade, what to say (right or wrong and why, the engine's reason, or why it is not
    graded), the answer's loss against the best where it is known, and (an answer valued again) its value, the
    review that valued it, and its explanation against the best (which names the best: for "show me")."""

    grade: Grade
    answer: Action
    said: str
    loss: float | None = None
    value: float | None = None
    reason: str | None = None
    review: _Reviewed | None = None
    explanation: str = ""


def doing(action: Action, leading: bool = False) -> str:
    """An action as the exercise names it: "leading the 9♠", "discarding the 8♠ 9♥", "declaring A♥ K♥ Q♥ for
    sequences".

    >>> doing(Declare(0, Category.POINT, ()))
    'declaring nothing for the point'
    """
    if isinstance(action, Play):
        return f"{'leading' if leading else 'playing'} the {action.card.pretty()}"
    if isinstance(action, Exchange):
        return f"discarding the {action.discards.pretty()}" if action.discards else "exchanging no card"
    if isinstance(action, Declare):
        shown = " and ".join(c.pretty() for c in action.combinations) or "nothing"
        return f"declaring {shown} for {_CATEGORY_WORDS[action.category]}"
    if isinstance(action, Bid):
        return {"pass": "passing", "double": "doubling", "redouble": "redoubling"}.get(
            action.call, f"bidding {action.call}")
    raise TypeError(f"not an exercise's action: {action!r}")


def _points(x: float, lens: Lens | None) -> str:
    """Points as the review gives them: whole with open hands, to a tenth in the fair lens."""
    text = f"{x:.0f}" if lens is Lens.OPEN or abs(x - round(x)) < 0.05 else f"{x:.1f}"
    text = "0" if text in ("-0", "-0.0") else text.replace("-", "−")
    return f"{text} point{'' if text == '1' else 's'}"


def _seed(exercise: Exercise) -> random.Random:
    """The stream the review drew this decision's worlds from (as :func:`~piquet.coach.review.review_partie`
    seeds each decision: by the review's seed and the decision's place), so that an answer is valued on the
    same worlds as the choice and the best were."""
    return decision_rng(exercise.seed or 0, exercise.deal, exercise.action)


def review_answer(exercise: Exercise, answer: Action) -> _Reviewed:
    """The review of ``answer`` (an action the engine allows at the exercise's decision) as the record's review
    valued the decision: the same lens, and in the fair lens as many worlds, drawn from the same seed (the
    declarations and exchanges over the review's own numbers of worlds). Raises :class:`ValueError` where the
    record's review does not say its lens."""
    lens = exercise.lens
    if lens is None:
        raise ValueError("the record's review does not say its lens")
    at = exercise.partie.copy()
    rng = _seed(exercise)
    if isinstance(answer, Play):
        return review_decision(at, answer.card, lens, exercise.worlds or DEFAULT_WORLDS, rng, ())
    if isinstance(answer, Declare):
        return review_declaration(at, answer, lens, rng=rng)
    if isinstance(answer, Exchange):
        return review_exchange(at, answer, lens, EXCHANGE_WORLDS, rng)
    if isinstance(answer, Bid):
        return review_call(at, answer, lens, CALL_WORLDS, rng)
    raise TypeError(f"not an exercise's action: {answer!r}")


def _explained(review: _Reviewed, names: tuple[str, str]) -> str:
    if isinstance(review, PlayReview):
        return explain(review, names)
    if isinstance(review, CallReview):
        return explain_call(review, names)
    if isinstance(review, DeclarationReview):
        return explain_declaration(review, names)
    return explain_exchange(review, names)


def _value(review: _Reviewed, answer: Action) -> float:
    if isinstance(review, PlayReview):
        assert isinstance(answer, Play)
        return review.worth(answer.card).value
    if isinstance(review, CallReview):
        assert isinstance(answer, Bid)
        return review.worth(answer).value
    if isinstance(review, DeclarationReview):
        assert isinstance(answer, Declare)
        return dict(review.options)[answer]
    assert isinstance(answer, Exchange)
    return review.worth(answer.discards).value


def _why_worse(review: _Reviewed, lens: Lens | None) -> str:
    """What an answer gives up against the best, part by part, without naming the best (a declaration's review
    without parts: what it loses is in what the declarations score)."""
    if isinstance(review, PlayReview):
        return f": {parts_clauses(differences(review), lens)}"
    if isinstance(review, ExchangeReview):
        return f": {parts_clauses(exchange_differences(review), lens)}"
    if isinstance(review, CallReview):
        best = review.options[0]
        mine = review.worth(review.choice)
        diffs = [(p, mine.parts[p] - best.parts[p]) for p in CALL_PARTS if abs(mine.parts[p] - best.parts[p]) >= 0.05]
        return f": {parts_clauses(diffs, lens)}"
    said = parts_clauses(declaration_differences(review), lens)
    return f": {said}" if said else ", in what the declarations score"


def valued_again(exercise: Exercise, answer: Action) -> bool:
    """Whether :func:`grade` values ``answer`` again (:func:`review_answer`): an answer the engine allows, of the
    exercise's kind, neither the choice made nor the best, where the record's review says its lens. In the fair
    lens that takes a moment (an exchange's thousand talons, a card's hands solved)."""
    return (exercise.lens is not None and isinstance(answer, type(exercise.choice))
            and exercise.partie.why_not(answer) is None
            and not _same(answer, exercise.best) and not _same(answer, exercise.choice))


def grade(exercise: Exercise, answer: Action, revalue: bool = True) -> Verdict:
    """Grade ``answer`` (:func:`read_answer`) against the exercise's review: the engine's reason where it may not
    be taken there (:attr:`Grade.ILLEGAL`); the best, or as good (within :data:`AS_GOOD`), is right; the choice
    made is wrong by its loss. Any other answer is valued again as the review valued the decision
    (:func:`review_answer`, where ``revalue`` and the review says its lens), right where it is as good as the
    best, wrong else with what it gives up; else :attr:`Grade.UNGRADED`: it cannot be graded without a new
    review."""
    names = exercise.names
    why = exercise.partie.why_not(answer)
    if why is None and not isinstance(answer, type(exercise.choice)):
        why = f"the exercise asks for a {exercise.kind}"
    if why is not None:
        return Verdict(Grade.ILLEGAL, answer, f"Not allowed: {why}.", reason=why)
    said = doing(answer, exercise.leading)
    if _same(answer, exercise.best):
        text = f" {exercise.text}" if exercise.text else ""
        return Verdict(Grade.RIGHT, answer, f"Right: {said} is the best here.{text}", 0.0, exercise.note.best_value)
    lens = exercise.lens
    average = " on average" if lens is Lens.FAIR else ""
    if _same(answer, exercise.choice):
        mark = f" ({MARK_WORDS[exercise.mark]}, {exercise.mark})" if exercise.mark else ""
        where = ", in what the declarations score" if isinstance(answer, Declare) else ""
        return Verdict(Grade.WRONG, answer, f"That is the {exercise.kind} made, {said}: it loses "
                                            f"{_points(exercise.loss, lens)}{average} against the best{where}{mark}.",
                       exercise.loss, exercise.note.value)
    if not revalue or lens is None:
        return Verdict(Grade.UNGRADED, answer, f"{said[0].upper()}{said[1:]} is neither the {exercise.kind} made nor "
                                               "the best: it cannot be graded without a new review. Type 'show me' "
                                               "for the best.")
    review = review_answer(exercise, answer)
    value = _value(review, answer)
    loss = review.loss
    explanation = _explained(review, names)
    if loss < AS_GOOD:
        return Verdict(Grade.RIGHT, answer, f"Right: {said} is as good as the best, "
                                            f"{doing(exercise.best, exercise.leading)}. {exercise.text}".rstrip(),
                       loss, value, review=review, explanation=explanation)
    better, kind = exercise.loss - loss, exercise.kind
    if better >= AS_GOOD:
        than = f"better than the {kind} made by {_points(better, lens)}, but "
    elif better > -AS_GOOD:
        than = f"no better than the {kind} made: "
    else:
        than = f"worse than the {kind} made by {_points(-better, lens)}: "
    return Verdict(Grade.WRONG, answer, f"Not the best: {said} is {than}it loses {_points(loss, lens)}{average} "
                                        f"against the best{_why_worse(review, lens)}.",
                   loss, value, review=review, explanation=explanation)


def show_me(exercise: Exercise) -> str:
    """The best and why: "The best: leading the 8♦ (...). <the review's explanation>"."""
    lens = exercise.lens
    note = exercise.note
    worth = ""
    if note.best_value is not None and note.value is not None:
        worth = (f", worth {_points(note.best_value, lens)} to {exercise.names[exercise.seat]} against "
                 f"{_points(note.value, lens)} for the {exercise.kind} made")
    text = f" {exercise.text}" if exercise.text else ""
    return f"The best: {doing(exercise.best, exercise.leading)}{worth}.{text}"
