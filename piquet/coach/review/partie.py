"""The review of a whole record: its decisions re-played one by one and each reviewed by its kind
(:func:`review_partie`), with the luck of each deal; what each player lost, by kind (:class:`Summary`), and the
review as JSON-ready data (:meth:`PartieReview.to_json`)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final, TypeVar, assert_never

from piquet.coach.ladder import describe, played_like
from piquet.coach.luck import DealLuck, LuckSummary, partie_luck, summarise
from piquet.coach.review.auction import CALL_WORLDS, explain_call, review_call
from piquet.coach.review.carte_blanche import (
    explain_carte_blanche,
    review_carte_blanche,
)
from piquet.coach.review.concessions import (
    ACCEPT,
    CONCEDE,
    DECLINE,
    PLAY_ON,
    explain_concession,
    review_concession,
)
from piquet.coach.review.decisions import (
    CallReviewed,
    CarteBlancheReviewed,
    ConcessionAnswerReviewed,
    ConcessionReviewed,
    DeclarationReviewed,
    ExchangeReviewed,
    PlayReviewed,
    Reviewed,
    ReviewedDecision,
)
from piquet.coach.review.declarations import explain_declaration, review_declaration
from piquet.coach.review.exchange import EXCHANGE_WORLDS, ExchangeReview, explain_exchange, review_exchange
from piquet.coach.review.grading import DEFAULT_WORLDS, MARKS, Lens
from piquet.coach.review.play import BestCache, explain, review_decision
from piquet.engine.actions import (
    AcceptConcession,
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
from piquet.engine.partie import Partie
from piquet.engine.record import playing_on

R = TypeVar("R", bound=Reviewed)


@dataclass(frozen=True)
class Summary:
    """One player's card play or declarations in a review: the cards he played (or declarations he made), how
    many were choices (more than one legal), the points he lost in them (the sum of the losses), and how many of
    each mark."""

    actions: int
    choices: int
    loss: float
    marks: Mapping[str, int]

    @property
    def loss_per_choice(self) -> float:
        return self.loss / self.choices if self.choices else 0.0

    def to_json(self) -> dict[str, object]:
        return {"actions": self.actions, "choices": self.choices, "loss": self.loss,
                "loss_per_choice": self.loss_per_choice, "marks": dict(self.marks)}


#: The kinds of decision :meth:`PartieReview.summary` totals, by the words the JSON and the command use (an
#: answer to a concession is a concession decision).
_KINDS: Final[dict[str, type[Reviewed]]] = {
    "play": PlayReviewed, "declaration": DeclarationReviewed, "exchange": ExchangeReviewed, "call": CallReviewed,
    "concession": ConcessionReviewed, "answer to a concession": ConcessionReviewed,
    "carte blanche": CarteBlancheReviewed,
}


@dataclass
class PartieReview:
    """The review of a partie's decisions, one by one (:data:`~piquet.coach.review.decisions.ReviewedDecision`),
    and what each player lost in them; the luck of each deal reviewed, and each player's luck and result adjusted
    for it (:meth:`luck_summary`)."""

    players: tuple[str, str]
    lens: Lens
    worlds: int
    seed: int
    actions: list[ReviewedDecision] = field(default_factory=list)
    #: The luck of each deal reviewed (:mod:`piquet.coach.luck`).
    luck: list[DealLuck] = field(default_factory=list)
    #: The language of the review's words: its explanations, its decisions in words, the ladder's words.
    lang: str = "en"

    def of(self, kind: type[R]) -> list[R]:
        """The decisions of one kind (a class of :mod:`~piquet.coach.review.decisions`), in the record's order."""
        return [r for r in self.actions if isinstance(r, kind)]

    @property
    def plays(self) -> list[PlayReviewed]:
        """The cards played, forced or reviewed."""
        return self.of(PlayReviewed)

    @property
    def declarations(self) -> list[DeclarationReviewed]:
        """The declarations, reviewed or the only one the player could make."""
        return self.of(DeclarationReviewed)

    @property
    def exchanges(self) -> list[ExchangeReviewed]:
        """The exchanges, reviewed or the only one the player could make."""
        return self.of(ExchangeReviewed)

    @property
    def calls(self) -> list[CallReviewed]:
        """Auction Piquet: the calls in the auction, reviewed or the only one the player could make."""
        return self.of(CallReviewed)

    @property
    def concessions(self) -> list[ConcessionReviewed]:
        """The concession decisions: conceding, or playing on where the player might have conceded, and answering
        a concession (the partie's last deal)."""
        return self.of(ConcessionReviewed)

    def summary(self, seat: int, kind: str = "play") -> Summary:
        """One player's card play (``kind`` ``"play"``), declarations (``"declaration"``), exchanges
        (``"exchange"``), calls in the auction (``"call"``), concession decisions (``"concession"``, answers
        included) or carte blanche decisions (``"carte blanche"``): what he lost in his choices, and their marks."""
        if kind not in _KINDS:
            raise ValueError(f"kind is 'play', 'declaration', 'exchange', 'call', 'concession' or 'carte blanche', "
                             f"not {kind!r}")
        mine = [r for r in self.actions if r.seat == seat and isinstance(r, _KINDS[kind])]
        chosen = [d for r in mine if (d := r.review) is not None]
        marks = {sign: sum(1 for r in chosen if r.mark == sign) for _, sign in MARKS}
        return Summary(len(mine), len(chosen), sum(r.loss for r in chosen), marks)

    @property
    def on_the_ladder(self) -> bool:
        """Whether the players may be placed on the levels' ladder: the ladder was measured through the fair
        lens at the review's default worlds (fewer hands a card find larger losses)."""
        return self.lens is Lens.FAIR and self.worlds == DEFAULT_WORLDS and bool(self.actions)

    def lost_a_deal(self, seat: int) -> float:
        """The points ``seat`` lost a deal to his own decisions, every kind reviewed together (what places him on
        the levels' ladder, :mod:`piquet.coach.ladder`); 0 where no deal was reviewed."""
        return self._lost(seat)[0]

    def lost_a_deal_interval(self, seat: int) -> tuple[float, float]:
        """The 95% interval of :meth:`lost_a_deal`, the decisions taken as independent (as the ladder's are)."""
        lost, half = self._lost(seat)
        return lost - half, lost + half

    def _lost(self, seat: int) -> tuple[float, float]:
        deals = len({r.deal for r in self.actions})
        losses = [graded.loss for r in self.actions if r.seat == seat and (graded := r.review) is not None]
        if not deals or not losses:
            return 0.0, 0.0
        mean = sum(losses) / len(losses)
        spread = sum((x - mean) ** 2 for x in losses) / len(losses)
        return sum(losses) / deals, 1.96 * math.sqrt(len(losses) * spread) / deals

    def luck_summary(self, seat: int) -> LuckSummary:
        """One player's luck over the deals reviewed that ended, his result and his result adjusted for the
        luck (:func:`piquet.coach.luck.summarise`)."""
        return summarise(self.luck, seat)

    def to_json(self) -> dict[str, object]:
        """The review as JSON-ready data (``piquet analyse --json``; docs/review.md)."""
        names = self.players
        return {
            "players": list(names),
            "lens": self.lens.value,
            "worlds": self.worlds,
            "seed": self.seed,
            "plays": [r.to_json(names) for r in self.plays],
            "declarations": [r.to_json(names) for r in self.declarations],
            "exchanges": [r.to_json(names) for r in self.exchanges],
            "calls": [r.to_json(names) for r in self.calls],
            "concessions": [r.to_json(names) for r in self.concessions],
            "carte_blanche": [r.to_json(names, self.lang) for r in self.of(CarteBlancheReviewed)],
            # Every decision of a deal is of a kind above (review_partie matches them all); the list stays for the
            # readers of the format.
            "not_reviewed": [],
            "luck": [d.to_json(names) for d in self.luck],
            "summary": {names[seat]: {"play": self.summary(seat).to_json(),
                                      "declarations": self.summary(seat, "declaration").to_json(),
                                      "exchange": self.summary(seat, "exchange").to_json(),
                                      "calls": self.summary(seat, "call").to_json(),
                                      "concessions": self.summary(seat, "concession").to_json(),
                                      "carte_blanche": self.summary(seat, "carte blanche").to_json(),
                                      "lost_a_deal": self.lost_a_deal(seat),
                                      "lost_a_deal_interval": list(self.lost_a_deal_interval(seat)),
                                      **({"played_like": played_like(self.lost_a_deal(seat)),
                                          "played_like_words": describe(self.lost_a_deal(seat), lang=self.lang)}
                                         if self.on_the_ladder else {}),
                                      **({"luck": self.luck_summary(seat).to_json()} if self.luck else {})}
                        for seat in (0, 1)},
        }


#: The actions of a deal a player decides: the decisions :func:`review_partie` goes through.
Decision = Bid | CarteBlanche | Exchange | Declare | Play | Concede | AcceptConcession


def replayed_steps(partie: Partie) -> Iterator[tuple[Partie, Decision, int, int]]:
    """The record's actions re-played from the start: before each deal action, the partie as it was, the
    action, its deal (from 1) and its index among the deal's actions (as a record numbers them)."""
    replay = partie.copy()
    while replay.ply:
        replay.pop()
    deal, index = 0, 0
    for action in partie.actions:
        if isinstance(action, Deal):
            deal, index = deal + 1, 0
            replay.push(action)
            continue
        if isinstance(action, (Cut, ChooseDealer)) or deal == 0:  # not a deal's action in a record
            replay.push(action)
            continue
        yield replay, action, deal, index
        replay.push(action)
        index += 1


def decisions_in(partie: Partie, deal: int | None = None) -> int:
    """How many decisions :func:`review_partie` goes through in ``partie``'s deal ``deal`` (``None``: every deal):
    the deals' actions, as :func:`replayed_steps` yields them, without re-playing them."""
    total, number = 0, 0
    for action in partie.actions:
        number += isinstance(action, Deal)
        total += (number > 0 and not isinstance(action, (Deal, Cut, ChooseDealer))
                  and (deal is None or number == deal))
    return total


def decision_rng(seed: int, deal: int, index: int) -> random.Random:
    """The stream a review seeded ``seed`` draws the worlds of one decision from: by the deal (from 1) and the
    action's index in it (from 0), so that a decision is valued on the same worlds however much of the partie
    is reviewed, and again later (:mod:`piquet.coach.exercises` values an answer on them)."""
    return random.Random(seed * 1_000_003 + deal * 1_009 + index)


def review_partie(partie: Partie, lens: Lens = Lens.FAIR, worlds: int = DEFAULT_WORLDS, seed: int = 0,
                  deal: int | None = None, broken_down: str = "choice",
                  progress: Callable[[int, int], None] | None = None,
                  exchange_worlds: int = EXCHANGE_WORLDS, call_worlds: int = CALL_WORLDS,
                  luck: bool = True, lang: str = "en", names: tuple[str, str] | None = None,
                  seat: int | None = None) -> PartieReview:
    """Review every exchange, declaration and card played in ``partie`` (a record re-played), or in its deal
    number ``deal``. The declarations are valued over :data:`~piquet.ai.levels.DECLARATION_WORLDS` hands in
    the fair lens, as the levels weigh them, the exchanges over ``exchange_worlds`` talons and hands
    (:func:`review_exchange`), Auction's calls over ``call_worlds`` deals (:func:`review_call`).

    Each decision's worlds are drawn from their own stream, seeded by ``seed`` and the decision's place,
    so that reviewing one deal gives what reviewing the whole partie gives for it. ``broken_down``:
    ``"choice"`` breaks down the choice and the best only (what the explanation needs), ``"all"`` every
    legal card. ``progress(done, total)`` is called after each decision of the deals reviewed (an exchange, a
    declaration, a call, a card played, forced or not: ``total`` counts them all). ``luck``: reckon each deal's luck
    (:func:`piquet.coach.luck.partie_luck`, the same in both lenses). The explanations are in ``lang``
    (:mod:`piquet.engine.language`), the players named ``names`` in them and in the review (by default the partie's
    names). ``seat``: review that seat's decisions only (``None``: both players'); ``progress`` counts every decision
    all the same.
    """
    if broken_down not in ("choice", "all"):
        raise ValueError(f"broken_down is 'choice' or 'all', not {broken_down!r}")
    if seat not in (None, 0, 1):
        raise ValueError(f"seat is 0, 1 or None (both), not {seat!r}")
    deals = sum(1 for a in partie.actions if isinstance(a, Deal))
    if deal is not None and not 1 <= deal <= deals:
        raise ValueError(f"there is no deal {deal}: the record has {deals} deal{'s' if deals != 1 else ''}")
    named = partie.players if names is None else names
    out = PartieReview(named, lens, 1 if lens is Lens.OPEN else worlds, seed,
                       luck=partie_luck(partie, deal) if luck else [], lang=lang)
    total = decisions_in(partie, deal)
    done = 0
    cache: BestCache = {}
    for at, action, number, index in replayed_steps(partie):  # the partie ``at`` changes as the steps go on
        if deal is not None and number != deal:
            continue
        if progress is not None and done:
            progress(done, total)
        done += 1
        if seat is not None and action.player != seat and not isinstance(action, Play):
            continue
        rng = decision_rng(seed, number, index)
        said = action.describe(named, lang)
        match action:
            case Exchange():
                exchanged: ExchangeReview | None = review_exchange(at, action, lens, exchange_worlds, rng)
                if exchanged is not None and len(exchanged.options) < 2:
                    exchanged = None
                out.actions.append(ExchangeReviewed(
                    deal=number, action=index, seat=action.player, text=said, review=exchanged,
                    explanation=explain_exchange(exchanged, named, lang) if exchanged is not None else ""))
            case Bid():
                calls = [a for a in at.legal_actions(action.player) if isinstance(a, Bid)]
                called = review_call(at, action, lens, call_worlds, rng) if len(calls) > 1 else None
                out.actions.append(CallReviewed(
                    deal=number, action=index, seat=action.player, text=said, review=called,
                    explanation=explain_call(called, named, lang) if called is not None else ""))
            case Declare():
                options = [a for a in at.legal_actions(action.player) if isinstance(a, Declare)]
                declared = review_declaration(at, action, lens, rng=rng) if len(options) > 1 else None
                out.actions.append(DeclarationReviewed(
                    deal=number, action=index, seat=action.player, text=said, review=declared,
                    explanation=explain_declaration(declared, named, lang) if declared is not None else ""))
            case CarteBlanche():
                choices = [a for a in at.legal_actions(action.player) if isinstance(a, CarteBlanche)]
                blanche = review_carte_blanche(at, action, lens, exchange_worlds, rng) if len(choices) > 1 else None
                out.actions.append(CarteBlancheReviewed(
                    deal=number, action=index, seat=action.player, text=said, review=blanche,
                    explanation=explain_carte_blanche(blanche, named, lang) if blanche else ""))
            case Concede():
                conceding = review_concession(at, action.player, CONCEDE, lens, worlds, rng)
                out.actions.append(ConcessionReviewed(
                    deal=number, action=index, seat=action.player, text=said, review=conceding,
                    explanation=explain_concession(conceding, named, lang)))
            case AcceptConcession():
                answer = review_concession(at, action.player, ACCEPT if action.accept else DECLINE, lens, worlds, rng)
                out.actions.append(ConcessionAnswerReviewed(
                    deal=number, action=index, seat=action.player, text=said, review=answer,
                    explanation=explain_concession(answer, named, lang)))
            case Play():
                out.actions += _played(at, action, said, number, index, lens, worlds, seed, broken_down, cache, lang,
                                       named, seat)
            case _:
                assert_never(action)
    if progress is not None and done:
        progress(done, total)
    return out


def _played(at: Partie, action: Play, said: str, deal: int, index: int, lens: Lens, worlds: int, seed: int,
            broken_down: str, cache: BestCache, lang: str = "en",
            names: tuple[str, str] | None = None, only: int | None = None) -> list[ReviewedDecision]:
    """A card played, reviewed, after the concessions a player might have made before it and played on (``only``:
    that seat's decisions alone)."""
    out: list[ReviewedDecision] = []
    players = at.players
    named = players if names is None else names
    for seat in (0, 1) if only is None else (only,):  # who might have conceded before this first card, and played on
        if at.rules.allows_concession and at.why_not(Concede(seat)) is None:
            played_on = review_concession(at, seat, PLAY_ON, lens, worlds, decision_rng(seed, deal, index))
            out.append(ConcessionReviewed(deal=deal, action=index, seat=seat, text=playing_on(named[seat], lang),
                                          explanation=explain_concession(played_on, named, lang), review=played_on))
    if only is not None and action.player != only:
        return out
    trick = len(at.view(action.player).tricks) + 1
    legal = [a for a in at.legal_actions(action.player) if isinstance(a, Play)]
    review = None
    explanation = ""
    if len(legal) > 1:
        # With open hands the lines pass through the game's own positions, decision after decision;
        # the fair lens's sampled positions seldom meet again, and are not kept.
        review = review_decision(at, action.card, lens, worlds, decision_rng(seed, deal, index),
                                 None if broken_down == "all" else (), cache if lens is Lens.OPEN else {})
        explanation = explain(review, named, lang)
    out.append(PlayReviewed(deal=deal, action=index, seat=action.player, text=said, explanation=explanation,
                            trick=trick, card=action.card, review=review))
    return out
