"""Hints that explain, and the tutor's check: the review (:mod:`piquet.coach.review`) asked before a decision.

A **hint** (:func:`hint`) is for the seat to act: the best choice by the review's fair lens, why (a
sentence built from the breakdowns of the best and the next best), the next best and the margin between
them; at the exchange, the two or three best discards, each with what it keeps or risks against the
best (or, for the best, against the next). A **tutor's check** (:func:`check`) reviews a choice the player
is about to make and, if it loses :data:`TUTOR_THRESHOLD` points or more against the best, says so and why
(:class:`TutorWarning`).

Both use only what the player may know: every value is the fair lens's, computed from the seat's own view
(its hand, what it has seen and heard), over the hands and talons that view allows, drawn from ``seed``;
the hidden cards never enter (``tests/test_hints.py`` proves it: two parties the view cannot tell apart
give the same hint). Both think within a budget of CPU seconds (:class:`~piquet.ai.budget.Deadline`): the
review's worlds are solved until it is spent, never fewer than one. The cost at each phase: docs/review.md,
"Hints".

The decisions the review values are the card played, the exchange, the declarations and Auction's calls;
for the others (who deals, a carte blanche, a concession) :func:`hint` and :func:`check` return ``None``
and an interface gives the computer's choice without a reason.

>>> from piquet.engine.actions import Deal
>>> from piquet.engine.cards import Card, CardSet
>>> partie = Partie(("Ann", "Bill"), first_dealer=0)
>>> deal = Deal(0, (CardSet.parse("AS KS QS JS TS 9S AH KH 7D 8D 7C 8C"),
...                 CardSet.parse("8S 7S QH JH TH 9H 8H 7H AD KD QD JD")),
...             tuple(Card.parse(c) for c in "TD 9D AC KC QC JC TC 9C".split()), 3)
>>> _ = partie.push(deal)
>>> few = Worlds(play=8, exchange=200, calls=32, declarations=8)
>>> advice = hint(partie, seed=1, budget=0, worlds=few)
>>> advice.kind, advice.seat, len(advice.discards), advice.margin > 0
('exchange', 1, 3, True)
>>> warning = check(partie, Exchange(1, CardSet.parse("8S 7S 9H 8H 7H")), seed=1, budget=0, worlds=few)
>>> warning.loss >= TUTOR_THRESHOLD, warning.better == advice.best
(True, True)
>>> print(warning.reason)  # doctest: +ELLIPSIS
Discarding the 8♠ 7♠ 9♥ 8♥ 7♥ rather than the 8♠ 7♠ A♦ K♦ J♦ costs Bill 11 points on average: it gives up \
the sequences (−12; in 34% of the talons), ... It breaks up your sixième to the queen in hearts and your point of \
six in hearts.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final, Literal, NamedTuple

from piquet.ai.budget import Deadline
from piquet.ai.exchange import candidate_discards
from piquet.ai.levels import DECLARATION_WORLDS
from piquet.coach.review import (
    CALL_WORLDS,
    CONCEDE,
    DEFAULT_WORLDS,
    EXCHANGE_WORLDS,
    MARKS,
    PLAY_ON,
    CallReview,
    CarteBlancheReview,
    ConcessionReview,
    DeclarationReview,
    ExchangeReview,
    Lens,
    Part,
    PlayReview,
    differences,
    explain,
    explain_call,
    explain_carte_blanche,
    explain_concession,
    explain_declaration,
    explain_exchange,
    review_call,
    review_carte_blanche,
    review_concession,
    review_decision,
    review_declaration,
    review_exchange,
    stakes,
)
from piquet.coach.review.grading import card_text, figure, listed, points_words, signed
from piquet.engine.actions import Action, Bid, CarteBlanche, Concede, Declare, Exchange, Play
from piquet.engine.language import words_in
from piquet.engine.partie import Partie, Phase

__all__ = ["DISCARDS_SHOWN", "HINT_BUDGET", "TUTOR_THRESHOLD", "WORLDS", "DiscardHint", "Hint", "Kind", "TutorWarning",
           "Worlds", "check", "follows", "hint", "valued"]

#: The least loss, in points of the deal, the tutor warns of: the review's "?" mark (a mistake), so that the
#: tutor speaks before any choice the review would mark "?" or "??".
TUTOR_THRESHOLD: Final = next(threshold for threshold, sign in MARKS if sign == "?")

#: The CPU seconds a hint or a tutor's check thinks where the caller sets none: as the strongest level does.
HINT_BUDGET: Final = 1.0

#: The discards an exchange's hint shows, best first.
DISCARDS_SHOWN: Final = 3

Kind = Literal["play", "exchange", "declaration", "call", "concession", "carte blanche"]

class Worlds(NamedTuple):
    """How many worlds each kind of review draws for a hint at most: hands the opponent may hold for the card play
    (and a concession), talons for the exchange (and carte blanche), deals for the calls, hands for the
    declarations. By default the review's own, as the strongest level draws them."""

    play: int = DEFAULT_WORLDS
    exchange: int = EXCHANGE_WORLDS
    calls: int = CALL_WORLDS
    declarations: int = DECLARATION_WORLDS


#: The worlds a hint draws where its caller sets none.
WORLDS: Final = Worlds()


@dataclass(frozen=True)
class DiscardHint:
    """One discard of an exchange's hint: the cards, their value (points of the deal, the fair lens's mean) and
    what they keep or risk, in a sentence, against the best discard (the best: against the next)."""

    discard: Exchange
    value: float
    says: str


@dataclass(frozen=True)
class Hint:
    """The review's advice to the seat to act: the best choice, why (``reason``), the next best and by how many
    points of the deal the best is better (``margin``; ``None`` where the best is the only choice), the worlds
    the review was able to value within the budget, and at the exchange the best discards (best first)."""

    seat: int
    kind: Kind
    best: Action
    reason: str
    next_best: Action | None
    margin: float | None
    worlds: int
    discards: tuple[DiscardHint, ...] = ()


@dataclass(frozen=True)
class TutorWarning:
    """The tutor's warning about a choice: the choice, how many points it loses against the best (the fair
    lens's mean), the better choice, and why (the review's explanation of the choice against the best)."""

    seat: int
    kind: Kind
    choice: Action
    loss: float
    better: Action
    reason: str


AnyReview = PlayReview | ExchangeReview | DeclarationReview | CallReview | CarteBlancheReview


def _review(partie: Partie, choice: Action, rng: random.Random, deadline: Deadline,
            worlds: Worlds, runner_up: bool) -> tuple[Kind, AnyReview] | None:
    """The fair lens's review of ``choice`` for the seat to act (``None``: a decision the review does not value)."""
    phase = partie.phase
    if phase is Phase.PLAY and isinstance(choice, Play):
        return "play", review_decision(partie, choice.card, Lens.FAIR, worlds.play, rng, (), {}, runner_up,
                                       deadline)
    if phase is Phase.EXCHANGE and isinstance(choice, Exchange):
        return "exchange", review_exchange(partie, choice, Lens.FAIR, worlds.exchange, rng, deadline=deadline)
    if phase is Phase.DECLARE and isinstance(choice, Declare):
        return "declaration", review_declaration(partie, choice, Lens.FAIR, worlds.declarations, rng)
    if phase is Phase.BID and isinstance(choice, Bid):
        return "call", review_call(partie, choice, Lens.FAIR, worlds.calls, rng, deadline)
    if phase is Phase.CARTE_BLANCHE and isinstance(choice, CarteBlanche):
        if sum(isinstance(a, CarteBlanche) for a in partie.legal_actions(choice.player)) < 2:
            return None  # the rules bind him to announce it
        return "carte blanche", review_carte_blanche(partie, choice, Lens.FAIR, worlds.exchange, rng, deadline)
    return None


def valued(phase: Phase) -> bool:
    """Whether the review values the decisions of ``phase`` (a card, an exchange, a declaration, a call): a hint
    explains them and the tutor checks them."""
    return phase in _VALUED


_VALUED: Final = frozenset({Phase.PLAY, Phase.EXCHANGE, Phase.DECLARE, Phase.BID, Phase.CARTE_BLANCHE})


def questioned(partie: Partie, seat: int) -> bool:
    """Whether the tutor checks ``seat``'s decision now: one the review values, with more than one legal choice
    (a forced card or a declaration of nothing held is no choice to question)."""
    return valued(partie.phase) and len(partie.legal_actions(seat)) > 1


def _first_choice(partie: Partie, seat: int) -> Action | None:
    """Any one choice of the decision the review values, to ask it about (the review values every other too)."""
    phase = partie.phase
    if phase is Phase.EXCHANGE:
        # The strongest level's first candidate: among the discards the review values anyway.
        options = candidate_discards(partie.view(seat), 1)
        if options and partie.can(Exchange(seat, options[0])):
            return Exchange(seat, options[0])
    kinds = {Phase.PLAY: Play, Phase.EXCHANGE: Exchange, Phase.DECLARE: Declare, Phase.BID: Bid,
             Phase.CARTE_BLANCHE: CarteBlanche}
    wanted = kinds.get(phase)
    if wanted is None:
        return None
    return next((a for a in partie.legal_actions(seat) if isinstance(a, wanted)), None)


def hint(partie: Partie, seed: int = 0, budget: float = HINT_BUDGET, worlds: Worlds = WORLDS,
         clock: Callable[[], float] | None = None, lang: str = "en",
         names: tuple[str, str] | None = None) -> Hint | None:
    """The advice for the seat to act in ``partie``, from the fair lens within ``budget`` CPU seconds (0: no limit,
    every world drawn valued), the worlds drawn from ``seed``; ``None`` where the decision is not one the review
    values. ``worlds``: how many hands, talons and deals each kind of review draws at most (:class:`Worlds`).
    ``clock``: the CPU clock of the budget (tests inject one). The reasons are in ``lang``
    (:mod:`piquet.engine.language`), the players named ``names`` (by default the partie's)."""
    seat = partie.to_act
    if seat is None or partie.is_over:
        return None
    choice = _first_choice(partie, seat)
    if choice is None:
        return None
    deadline = Deadline(budget) if clock is None else Deadline(budget, clock=clock, wall=clock)
    found = _review(partie, choice, random.Random(seed), deadline, worlds, runner_up=True)
    if found is None:
        return None
    _, review = found
    names = partie.players if names is None else names
    if isinstance(review, PlayReview):
        advice = _play_hint(review, names, lang)
        if partie.why_not(Concede(seat)) is None:  # the loser of the last deal may concede before the first card
            return _concession_hint(advice, review_concession(partie, seat, PLAY_ON, Lens.FAIR, worlds.play,
                                                              random.Random(seed)), names, lang)
        return advice
    if isinstance(review, ExchangeReview):
        return _exchange_hint(review, names, lang)
    if isinstance(review, DeclarationReview):
        return _declaration_hint(review, names, lang)
    if isinstance(review, CarteBlancheReview):
        return _carte_blanche_hint(review, names, lang)
    return _call_hint(review, names, lang)


def _carte_blanche_hint(review: CarteBlancheReview, names: tuple[str, str], lang: str) -> Hint:
    """The best carte blanche decision, against the next: the review's sentence for the best."""
    best = replace(review, choice=review.best, loss=0.0)
    following = next(o for o, _ in review.options if o != review.best)
    values = dict(review.options)
    return Hint(review.seat, "carte blanche", review.best, explain_carte_blanche(best, names, lang), following,
                values[review.best] - values[following], review.worlds)


def _play_hint(review: PlayReview, names: tuple[str, str], lang: str) -> Hint:
    w = words_in(lang)
    seat = review.seat
    best = review.best
    others = [x for x in review.cards if x.card != best]
    if not others:
        return Hint(seat, "play", Play(seat, best), explain(replace(review, choice=best, loss=0.0), names, lang), None,
                    None, review.worlds)
    second = others[0]
    margin = review.worth(best).value - second.value
    head = w("Leading the {card} rather than the {other}" if review.leading
             else "Playing the {card} rather than the {other}", card=card_text(best, lang),
             other=card_text(second.card, lang))
    if margin < 0.05:
        reason = w("{head}: as good, to a tenth of a point on average.", head=head)
    else:
        # What the next best brings less what the best brings, part by part: what the best gains, turned round.
        against = replace(review, choice=second.card, loss=margin)
        best_tricks, next_tricks = review.worth(best).tricks, second.tricks

        def said(part: Part, x: float) -> str:
            text = f"{part.said(lang)} ({signed(-x, Lens.FAIR, lang)}"
            if part in (Part.CARDS, Part.CAPOT) and best_tricks is not None and next_tricks is not None \
                    and abs(best_tricks - next_tricks) >= 0.5:
                text += w("; {tricks} tricks instead of {other}", tricks=figure(best_tricks, Lens.FAIR, lang),
                          other=figure(next_tricks, Lens.FAIR, lang))
            return text + ")"

        diffs = differences(against)
        gains = [said(part, x) for part, x in diffs if x < 0]
        loses = [said(part, x) for part, x in diffs if x > 0]
        clauses = []
        if gains:
            clauses.append(w("it gains {parts}", parts=listed(gains, lang)))
        if loses:
            clauses.append(w("and gives up {parts}" if gains else "it gives up {parts}", parts=listed(loses, lang)))
        reason = w("{head} is better by {points} on average{stakes}: {clauses}.", head=head,
                   points=points_words(figure(margin, Lens.FAIR, lang), lang), stakes=stakes(review.utility, lang),
                   clauses=" ".join(clauses))
    return Hint(seat, "play", Play(seat, best), reason, Play(seat, second.card), margin, review.worlds)


def _concession_hint(advice: Hint, review: ConcessionReview, names: tuple[str, str], lang: str) -> Hint:
    """The hint of a player who may concede: conceding where it is better than playing on (the best card the next
    best), else the card's hint, its reason followed by why playing on is better than conceding."""
    seat = review.seat
    margin = abs(review.values[PLAY_ON] - review.values[CONCEDE])
    if review.best == CONCEDE:
        reason = explain_concession(replace(review, choice=CONCEDE, loss=0.0), names, lang)
        return Hint(seat, "concession", Concede(seat), reason, advice.best, margin, review.worlds)
    return replace(advice, reason=f"{advice.reason} {explain_concession(replace(review, loss=0.0), names, lang)}")


def _exchange_hint(review: ExchangeReview, names: tuple[str, str], lang: str) -> Hint:
    seat = review.seat
    options = review.options
    best = options[0]

    def said(i: int) -> str:
        """What discard ``i`` keeps or risks: against the best, or (the best) against the next."""
        w = options[i]
        compared = options[1 if i == 0 else 0].discard if len(options) > 1 else w.discard
        loss = max(0.0, best.value - w.value)
        shown = replace(review, choice=w.discard, best=best.discard, loss=loss, compared=compared,
                        given_up={}, gained={})
        return explain_exchange(shown, names, lang)

    shown = tuple(DiscardHint(Exchange(seat, w.discard), w.value, said(i))
                  for i, w in enumerate(options[:DISCARDS_SHOWN]))
    second = options[1] if len(options) > 1 else None
    return Hint(seat, "exchange", Exchange(seat, best.discard), shown[0].says,
                None if second is None else Exchange(seat, second.discard),
                None if second is None else best.value - second.value, review.worlds, shown)


def _declaration_hint(review: DeclarationReview, names: tuple[str, str], lang: str) -> Hint:
    best, value = review.options[0]
    shown = replace(review, choice=best, best=best, loss=0.0)
    second = review.options[1] if len(review.options) > 1 else None
    return Hint(review.seat, "declaration", best, explain_declaration(shown, names, lang),
                None if second is None else second[0], None if second is None else value - second[1], review.worlds)


def _call_hint(review: CallReview, names: tuple[str, str], lang: str) -> Hint:
    best = review.options[0]
    shown = replace(review, choice=best.call, best=best.call, loss=0.0)
    second = review.options[1] if len(review.options) > 1 else None
    return Hint(review.seat, "call", best.call, explain_call(shown, names, lang),
                None if second is None else second.call, None if second is None else best.value - second.value,
                review.worlds)


def follows(choice: Action, advice: Action | None) -> bool:
    """Whether ``choice`` is the choice a hint advised (an exchange: the same discards, whatever is shown of the
    talon). The tutor does not question it: a check values the worlds its budget allows, which may be other than
    the hint's, and a choice within a point of another could otherwise be found the worse.

    >>> from piquet.engine.cards import CardSet
    >>> follows(Exchange(0, CardSet.parse("7S 8S"), True), Exchange(0, CardSet.parse("7S 8S")))
    True
    """
    if advice is None:
        return False
    if isinstance(choice, Exchange) and isinstance(advice, Exchange):
        return choice.player == advice.player and choice.discards == advice.discards
    return choice == advice


def check(partie: Partie, choice: Action, threshold: float = TUTOR_THRESHOLD, seed: int = 0,
          budget: float = HINT_BUDGET, worlds: Worlds = WORLDS,
          clock: Callable[[], float] | None = None, lang: str = "en",
          names: tuple[str, str] | None = None) -> TutorWarning | None:
    """The tutor's check of ``choice``, the seat to act's decision about to be applied: a :class:`TutorWarning` if the
    fair lens (within ``budget`` CPU seconds, the worlds drawn from ``seed``) finds that it loses ``threshold``
    points of the deal or more against the best choice; ``None`` if it does not, or if the review does not value
    this decision. Raises ``ValueError`` for a choice that is not legal here. The reason is in ``lang``, the players
    named ``names`` (by default the partie's)."""
    seat = partie.to_act
    if seat is None or partie.is_over or not isinstance(choice, (Play, Exchange, Declare, Bid, Concede, CarteBlanche)):
        return None  # nothing the review values
    if isinstance(choice, Concede) and choice.player != seat and partie.can(choice):
        return None  # a concession out of turn (younger's, before elder's first card) is not checked
    if choice.player != seat or not partie.can(choice):
        raise ValueError(f"{choice.describe(partie.players)}: not a legal choice for "
                         f"{partie.players[choice.player]} here")
    if threshold < 0:
        raise ValueError(f"the tutor's threshold is 0 or more points, not {threshold!r}")
    deadline = Deadline(budget) if clock is None else Deadline(budget, clock=clock, wall=clock)
    names = partie.players if names is None else names
    if isinstance(choice, Concede):
        conceding = review_concession(partie, seat, CONCEDE, Lens.FAIR, worlds.play, random.Random(seed))
        if conceding.loss < threshold - 1e-9 or conceding.loss <= 0:
            return None
        card = next(a for a in partie.legal_actions(seat) if isinstance(a, Play))
        played = _review(partie, card, random.Random(seed), deadline, worlds, runner_up=False)
        assert played is not None and isinstance(played[1], PlayReview)
        return TutorWarning(seat, "concession", choice, conceding.loss, Play(seat, played[1].best),
                            explain_concession(conceding, names, lang))
    found = _review(partie, choice, random.Random(seed), deadline, worlds, runner_up=False)
    if found is None:
        return None
    kind, review = found
    if review.loss < threshold - 1e-9 or review.loss <= 0:
        return None
    if isinstance(review, PlayReview):
        return TutorWarning(seat, kind, choice, review.loss, Play(seat, review.best), explain(review, names, lang))
    if isinstance(review, ExchangeReview):
        better = replace(choice, discards=review.best) if isinstance(choice, Exchange) else choice
        return TutorWarning(seat, kind, choice, review.loss, better, explain_exchange(review, names, lang))
    if isinstance(review, DeclarationReview):
        return TutorWarning(seat, kind, choice, review.loss, review.best, explain_declaration(review, names, lang))
    if isinstance(review, CarteBlancheReview):
        return TutorWarning(seat, kind, choice, review.loss, review.best, explain_carte_blanche(review, names, lang))
    return TutorWarning(seat, kind, choice, review.loss, review.best, explain_call(review, names, lang))

