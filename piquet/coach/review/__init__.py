"""The review of the card play, the declarations and the exchange: what each card a player could have
played (each declaration, each discard) was worth, and why.

For one decision of the play, every legal card is valued in points of the deal (the player's points
from here to the end of the deal less the opponent's), through two lenses:

- **open hands** (:attr:`Lens.OPEN`): every card known, exact, from the solver
  (:func:`piquet.ai.solver.solve` with all values), for hindsight;
- **fair** (:attr:`Lens.FAIR`): what the player could know: the mean over the opponent's hands his
  view allows, drawn as the strongest level draws them (:func:`piquet.ai.levels.sample_opponent_hands`,
  seeded), each solved exactly. This one grades.

Each value is **broken down** (:class:`Part`) into where its points come from, by following the
principal line after the card (both sides playing a best card, as the solver finds it, to the end
of the deal) and totalling what each kind of point brings; the parts sum to the value. The
explanation (:func:`explain`) is built from that breakdown alone.

The declarations (:func:`review_declaration`) are valued as the levels weigh them: the points the
declarations score in hand, by the partie's stakes. The exchange (:func:`review_exchange`): the
strongest level's candidate discards and the choice made, each valued over the talons and hands the
view allows as that level values them (fair), or against the real talon and hand with the play solved
(open hands), broken down by :class:`Part` (the declarations' categories, the repique, the pique, the
play) and explained from that breakdown (:func:`explain_exchange`). :func:`review_partie` reviews a
whole record, with the luck of each deal (:mod:`piquet.coach.luck`). How, and the marks' thresholds: docs/review.md.

A module a subject: :mod:`~piquet.coach.review.grading` (the lenses, the parts, the marks, the numbers and clauses
the explanations say), :mod:`~piquet.coach.review.play` (a card), :mod:`~piquet.coach.review.declarations`,
:mod:`~piquet.coach.review.exchange`, :mod:`~piquet.coach.review.auction` (Auction Piquet's calls),
:mod:`~piquet.coach.review.carte_blanche`, :mod:`~piquet.coach.review.concessions`,
:mod:`~piquet.coach.review.decisions` (a record's decisions as the review holds them, one type a kind, and their
JSON) and :mod:`~piquet.coach.review.partie` (a whole record). Their public names are all here.

Two tricks to play, five won by each: leading the ace of spades takes both, and the last trick and the
cards' ten with them; leading the queen gives the king the trick, the lead to the seven of hearts,
which the ace cannot follow, and the cards to the opponent.

>>> from piquet.ai.solver import PlayPosition
>>> from piquet.engine.cards import Card, CardSet
>>> from piquet.engine.variants import make_rules
>>> position = PlayPosition(hands=(CardSet.parse("AS QS").mask, CardSet.parse("KS 7H").mask),
...                         to_act=0, elder=0, tricks_won=(5, 5), scores=(20, 15))
>>> review = review_position(position, make_rules("rubicon"), Card.parse("QS"))
>>> [(str(w.card), w.value) for w in review.cards]
[('AS', 13.0), ('QS', -12.0)]
>>> review.loss, review.mark
(25.0, '??')
>>> {part.value: v for part, v in review.worth(Card.parse("AS")).parts.items() if v}
{'lead': 2.0, 'last_trick': 1.0, 'cards': 10.0}
>>> print(explain(review, ("Ann", "Bill")))
Leading the Q♠ rather than the A♠ costs Ann 25 points: it gives up the cards (−20; 5 tricks instead \
of 7), the points for leading (−2), the last trick (−2) and the points for tricks won (−1). Bill takes \
the trick with the K♠.
"""

from __future__ import annotations

from piquet.coach.review.auction import CALL_PARTS, CALL_WORLDS, CallReview, CallWorth, explain_call, review_call
from piquet.coach.review.carte_blanche import CarteBlancheReview, explain_carte_blanche, review_carte_blanche
from piquet.coach.review.concessions import (
    ACCEPT,
    CONCEDE,
    DECLINE,
    PLAY_ON,
    ConcessionReview,
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
from piquet.coach.review.declarations import (
    DECLARATION_PARTS,
    DeclarationReview,
    declaration_differences,
    explain_declaration,
    review_declaration,
)
from piquet.coach.review.exchange import (
    EXCHANGE_CANDIDATES,
    EXCHANGE_PARTS,
    EXCHANGE_WORLDS,
    WON_PARTS,
    DiscardWorth,
    ExchangeReview,
    exchange_differences,
    explain_exchange,
    review_exchange,
)
from piquet.coach.review.grading import DEFAULT_WORLDS, MARKS, PLAY_PARTS, Lens, Part, mark, parts_clauses, stakes
from piquet.coach.review.partie import (
    Decision,
    PartieReview,
    Summary,
    decision_rng,
    decisions_in,
    replayed_steps,
    review_partie,
)
from piquet.coach.review.play import (
    BestCache,
    CardWorth,
    Line,
    PlayReview,
    advance,
    differences,
    explain,
    principal_line,
    review_decision,
    review_position,
)

__all__ = [
    "ACCEPT",
    "CALL_PARTS",
    "CALL_WORLDS",
    "CONCEDE",
    "DECLARATION_PARTS",
    "DECLINE",
    "DEFAULT_WORLDS",
    "EXCHANGE_CANDIDATES",
    "EXCHANGE_PARTS",
    "EXCHANGE_WORLDS",
    "MARKS",
    "PLAY_ON",
    "PLAY_PARTS",
    "WON_PARTS",
    "BestCache",
    "CallReview",
    "CallReviewed",
    "CallWorth",
    "CardWorth",
    "CarteBlancheReview",
    "CarteBlancheReviewed",
    "ConcessionAnswerReviewed",
    "ConcessionReview",
    "ConcessionReviewed",
    "Decision",
    "DeclarationReview",
    "DeclarationReviewed",
    "DiscardWorth",
    "ExchangeReview",
    "ExchangeReviewed",
    "Lens",
    "Line",
    "Part",
    "PartieReview",
    "PlayReview",
    "PlayReviewed",
    "Reviewed",
    "ReviewedDecision",
    "Summary",
    "advance",
    "decision_rng",
    "decisions_in",
    "declaration_differences",
    "differences",
    "exchange_differences",
    "explain",
    "explain_call",
    "explain_carte_blanche",
    "explain_concession",
    "explain_declaration",
    "explain_exchange",
    "mark",
    "parts_clauses",
    "principal_line",
    "replayed_steps",
    "review_call",
    "review_carte_blanche",
    "review_concession",
    "review_decision",
    "review_declaration",
    "review_exchange",
    "review_partie",
    "review_position",
    "stakes",
]
