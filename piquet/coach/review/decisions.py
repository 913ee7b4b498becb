"""The decisions of a record as a review holds them: one small frozen value a kind of decision (a card played,
an exchange, a declaration, a call, a carte blanche decision, a concession or its answer), each with where it
is, who made it, its review and explanation, and its JSON (``piquet analyse --json``; docs/review.md). A
decision is told by its type (:data:`ReviewedDecision`); :attr:`Reviewed.kind` is only what the JSON, the
command and the review page call it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from piquet.coach.review.auction import CallReview
from piquet.coach.review.carte_blanche import CarteBlancheReview, carte_blanche_words
from piquet.coach.review.concessions import ConcessionReview
from piquet.coach.review.declarations import DeclarationReview
from piquet.coach.review.exchange import ExchangeReview
from piquet.coach.review.play import PlayReview
from piquet.engine.actions import Declare
from piquet.engine.cards import Card

__all__ = [
    "CallReviewed",
    "CarteBlancheReviewed",
    "ConcessionAnswerReviewed",
    "ConcessionReviewed",
    "DeclarationReviewed",
    "ExchangeReviewed",
    "PlayReviewed",
    "Reviewed",
    "ReviewedDecision",
]


@dataclass(frozen=True, kw_only=True)
class Reviewed:
    """One decision of a record in the review: where it is (the deal, counted from 1, and its index among the
    deal's actions, as in the file), who made it, the decision in words (``text``) and its review's explanation
    (empty where it was the only one the player could make). Each kind of decision is a subclass holding its
    own review (:data:`ReviewedDecision`)."""

    #: What the JSON, ``piquet analyse`` and the review page call a decision of this kind.
    kind: ClassVar[str]

    deal: int
    action: int
    seat: int
    text: str
    explanation: str = ""

    def _head(self, names: tuple[str, str], forced: bool) -> dict[str, object]:
        """What a decision's JSON begins with: where it is, who made it, what he did and whether it was forced;
        a forced decision loses nothing and has no mark, and that is all its JSON says."""
        out: dict[str, object] = {"deal": self.deal, "action": self.action, "player": names[self.seat],
                                  "text": self.text, "forced": forced}
        if forced:
            out.update(loss=0.0, mark="")
        return out


@dataclass(frozen=True, kw_only=True)
class PlayReviewed(Reviewed):
    """A card played, in its trick (counted from 1); ``review``: ``None`` where it was the only legal card."""

    kind: ClassVar[str] = "play"

    trick: int
    card: Card
    review: PlayReview | None = None

    def to_json(self, names: tuple[str, str]) -> dict[str, object]:
        out: dict[str, object] = {"deal": self.deal, "action": self.action, "trick": self.trick,
                                  "player": names[self.seat], "card": str(self.card)}
        review = self.review
        if review is None:
            out.update(forced=True, best=str(self.card), loss=0.0, mark="")
            return out
        out.update(forced=False, leading=review.leading, best=str(review.best), loss=review.loss, mark=review.mark,
                   text=self.explanation, utility=list(review.utility),
                   values={str(w.card): w.value for w in review.cards})
        out["parts"] = {str(w.card): {p.value: v for p, v in w.parts.items()}
                        for w in review.cards if w.parts is not None}
        out["points"] = {str(w.card): w.points for w in review.cards if w.points is not None}
        out["tricks"] = {str(w.card): w.tricks for w in review.cards if w.tricks is not None}
        lines = {str(w.card): [str(c) for c in w.line] for w in review.cards if w.line is not None}
        if lines:
            out["lines"] = lines
        return out


@dataclass(frozen=True, kw_only=True)
class ExchangeReviewed(Reviewed):
    """An exchange; ``review``: ``None`` where it was the only one the player could make."""

    kind: ClassVar[str] = "exchange"

    review: ExchangeReview | None = None

    def to_json(self, names: tuple[str, str]) -> dict[str, object]:
        review = self.review
        out = self._head(names, forced=review is None)
        if review is None:
            return out
        out.update(discard=review.choice.strings(), best=review.best.strings(),
                   compared=review.compared.strings(), loss=review.loss,
                   mark=review.mark, explanation=self.explanation, utility=list(review.utility),
                   worlds=review.worlds, play=review.play,
                   values=[{"discard": w.discard.strings(), "value": w.value,
                            "parts": {p.value: v for p, v in w.parts.items()},
                            "won": {p.value: v for p, v in w.won.items()}} for w in review.options])
        return out


def _combinations_json(declare: Declare) -> list[list[str]]:
    return [c.strings() for c in declare.combinations]


@dataclass(frozen=True, kw_only=True)
class DeclarationReviewed(Reviewed):
    """A declaration; ``review``: ``None`` where it was the only one the player could make."""

    kind: ClassVar[str] = "declaration"

    review: DeclarationReview | None = None

    def to_json(self, names: tuple[str, str]) -> dict[str, object]:
        review = self.review
        out = self._head(names, forced=review is None)
        if review is None:
            return out
        out.update(category=review.choice.category.value,
                   declared=_combinations_json(review.choice), best=_combinations_json(review.best),
                   loss=review.loss, mark=review.mark, explanation=self.explanation, utility=list(review.utility),
                   values=[{"declare": _combinations_json(o), "value": v,
                            "parts": {p.value: x for p, x in review.parts.get(o, {}).items()}}
                           for o, v in review.options])
        return out


@dataclass(frozen=True, kw_only=True)
class CallReviewed(Reviewed):
    """A call in Auction Piquet's auction; ``review``: ``None`` where it was the only one the player could make."""

    kind: ClassVar[str] = "call"

    review: CallReview | None = None

    def to_json(self, names: tuple[str, str]) -> dict[str, object]:
        review = self.review
        out = self._head(names, forced=review is None)
        if review is None:
            return out
        out.update(call=review.choice.call, best=review.best.call, loss=review.loss,
                   mark=review.mark, explanation=self.explanation, worlds=review.worlds,
                   values=[{"call": w.call.call, "value": w.value, "parts": {p.value: v for p, v in w.parts.items()},
                            "held": w.held, "annulled": w.annulled} for w in review.options])
        return out


@dataclass(frozen=True, kw_only=True)
class CarteBlancheReviewed(Reviewed):
    """A carte blanche decision; ``review``: ``None`` where the rules left no choice."""

    kind: ClassVar[str] = "carte blanche"

    review: CarteBlancheReview | None = None

    def to_json(self, names: tuple[str, str], lang: str = "en") -> dict[str, object]:
        """The decision as JSON, its options in words in ``lang``."""
        review = self.review
        out = self._head(names, forced=review is None)
        if review is None:
            return out
        out.update(choice=carte_blanche_words(review.choice, lang),
                   best=carte_blanche_words(review.best, lang), loss=review.loss, mark=review.mark,
                   explanation=self.explanation, utility=list(review.utility), worlds=review.worlds,
                   values=[{"option": carte_blanche_words(o, lang), "value": v,
                            "parts": {p.value: x for p, x in review.parts[o].items()}} for o, v in review.options])
        return out


@dataclass(frozen=True, kw_only=True)
class ConcessionReviewed(Reviewed):
    """A concession decision of the partie's last deal: conceding, or playing on where the player might have
    conceded (always reviewed: there are two options)."""

    kind: ClassVar[str] = "concession"

    review: ConcessionReview

    def to_json(self, names: tuple[str, str]) -> dict[str, object]:
        review = self.review
        return {"deal": self.deal, "action": self.action, "player": names[self.seat], "kind": self.kind,
                "text": self.text, "forced": False, "choice": review.choice, "best": review.best,
                "loss": review.loss, "mark": review.mark, "explanation": self.explanation,
                "utility": list(review.utility), "worlds": review.worlds,
                "values": [{"option": o, "value": review.values[o],
                            "parts": {p.value: v for p, v in review.parts[o].items()}}
                           for o in sorted(review.values, key=lambda o: -review.values[o])]}


@dataclass(frozen=True, kw_only=True)
class ConcessionAnswerReviewed(ConcessionReviewed):
    """The answer to a concession: accepting it, or declining it and playing on for a capot. A concession
    decision too (:class:`ConcessionReviewed`), counted with them."""

    kind: ClassVar[str] = "answer to a concession"


#: A decision of a record as the review holds it, told by its type.
ReviewedDecision = (PlayReviewed | ExchangeReviewed | DeclarationReviewed | CallReviewed | CarteBlancheReviewed
                    | ConcessionReviewed)
