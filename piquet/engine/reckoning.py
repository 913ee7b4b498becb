"""The play's scoring and the order of reckoning: the one home of these laws.

What a lead, a trick, the last trick, the cards and a contract score (Laws 65-66, Lunn's contracts), in the
order they are scored (:class:`PlayScoring`); when a repique or a pique is made (Laws 68-69:
:class:`PiqueRule`, :func:`repique_in_order`, :func:`pique_in_order`); and, with the option
``play_ceases_at_the_target``, when a deal stops (:func:`target_reached`). The partie scores by these
(:mod:`piquet.engine.play`); the solver's model of the play
(:mod:`piquet.ai.solver`, and the tables it hands its compiled kernel) and the review's line of play
(:mod:`piquet.coach.review`) are built from them, so a law fixed here is fixed for all of them.

The rules' own answers (:class:`~piquet.engine.variants.Rules`: ``lead_points``, ``trick_awards``,
``last_trick_points``, ``cards_awards``, ``contract_awards``, the thresholds) say what each variant and option
scores; this module says in which order, and keeps each answer once asked (they are immutable values, shared by
every deal with the same rules and contract).

>>> from piquet.engine.cards import Card
>>> from piquet.engine.variants import make_rules
>>> scoring = scoring_for(make_rules("rubicon"), None)
>>> scoring.lead(0, Card.parse("TS"))[1].reason
'lead of TS'
>>> done = scoring.trick(0, Card.parse("TS"), Card.parse("AS"))
>>> done.winner, [e.reason for e in done.awards]
(1, ['wins the TS with the AS'])
>>> [e.reason for e in scoring.after_trick(1, 12, True)], [e.reason for e in scoring.deal_end((5, 7))]
(['the last trick'], ['the cards'])
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

from piquet.engine.cards import Card
from piquet.engine.events import CardPlayed
from piquet.engine.scoring import ORDER, LeadReason, PlainReason, ScoreCategory, ScoreEvent
from piquet.engine.state import Phase
from piquet.engine.view import Trick

if TYPE_CHECKING:
    from piquet.engine.variants import Contract, Rules
    from piquet.engine.view import PlayerView

__all__ = [
    "Counted",
    "PiqueRule",
    "PlayScoring",
    "Points",
    "TrickDone",
    "decided_in_hand",
    "pique_in_order",
    "reckoning_at_first_lead",
    "repique_in_order",
    "scoring_for",
    "target_reached",
]

# ---------------------------------------------------------------- pique and repique
class Counted(Protocol):
    """Points as the order of reckoning counts them: who scored, how many, in which category (a
    :class:`~piquet.engine.scoring.ScoreEvent` is such points, with its reason)."""

    @property
    def player(self) -> int: ...

    @property
    def points(self) -> int: ...

    @property
    def category(self) -> ScoreCategory: ...


class Points(NamedTuple):
    """Points of one category without a reason: what a player counts who values hands without playing them out."""

    player: int
    points: int
    category: ScoreCategory


@dataclass(frozen=True, slots=True)
class PiqueRule:
    """Law 69 under one set of rules and contract: a player who reaches ``threshold`` in hand and play while
    his opponent has scored nothing, and who ``may`` pique (in Auction Piquet's plus contracts, the holder only),
    scores ``points`` more. The cards and a contract's points do not count toward it, unless the option
    ``cards_count_toward_pique`` scores the cards at the seventh trick (``cards_count``)."""

    threshold: int
    points: int
    may: tuple[bool, bool]
    cards_count: bool

    @classmethod
    def of(cls, rules: Rules, contract: Contract | None, elder: int) -> PiqueRule:
        return cls(rules.pique_threshold(contract), rules.pique_points,
                   (rules.may_pique(0, elder, contract), rules.may_pique(1, elder, contract)),
                   rules.cards_count_toward_pique)

    def counts(self, event: Counted) -> bool:
        """Whether ``event`` counts toward a pique."""
        category = event.category
        return category is not ScoreCategory.CONTRACT and (category is not ScoreCategory.CARDS or self.cards_count)

    def reached(self, totals: Sequence[int], seat: int) -> bool:
        """Whether ``seat``, at ``totals`` (each seat's points that count), has his pique."""
        return totals[1 - seat] == 0 and totals[seat] >= self.threshold and self.may[seat]


def repique_in_order(events: Iterable[Counted], rules: Rules,
                     contract: Contract | None) -> tuple[int, int] | None:
    """The seat whose points in hand reach the repique's threshold while the other has nothing, reckoned in
    the order of ``events`` (Laws 67-68), and where the repique stands among them: just after the event that
    made the thirty, since it "is obtained on the score of thirty being made" (Law 68; Cavendish counts the
    sixty at once: "Instead of counting 'Thirty-four,' he counts 'Ninety-four'"). ``None`` if neither."""
    totals = [0, 0]
    threshold = rules.repique_threshold(contract)
    for at, event in enumerate(events, start=1):
        if not event.category.in_hand:
            continue
        p = event.player
        totals[p] += event.points
        if totals[p] >= threshold and totals[1 - p] == 0:
            return p, at
    return None


def pique_in_order(events: Iterable[Counted], rule: PiqueRule) -> tuple[int | None, bool, int]:
    """Law 69 reckoned strictly in the order of ``events`` (Law 67; Lunn: "Point, Sequence, Set"): the first to
    reach the pique's threshold while the other has nothing has the pique. ``(seat, False, at)`` for the seat that
    has it, the pique standing at ``at`` among the events, just after the one that made the thirty (Law 69:
    "obtained on the score of thirty being made"; "when he leads the card which makes him thirty ... counts
    sixty"); ``(None, True, 0)`` where both had scored first (no pique from there); ``(None, False, 0)`` where
    neither has happened."""
    totals = [0, 0]
    for at, event in enumerate(events, start=1):
        if not rule.counts(event):
            continue
        p = event.player
        totals[p] += event.points
        if totals[1 - p]:
            if totals[p]:
                return None, True, 0
            continue
        if rule.reached(totals, p):
            return p, False, at
    return None, False, 0


def decided_in_hand(events: Iterable[Counted], rules: Rules, contract: Contract | None,
                    elder: int) -> ScoreEvent | None:
    """The repique, else the pique, that the points in hand ``events`` decide, reckoned in their order (Laws 67-69,
    as the engine scores them at elder's first lead; ``events`` in the order of reckoning, no pique or repique among
    them): the repique to the seat whose points in hand reach the rules' threshold for ``contract`` while the other
    has nothing, else the pique to the seat that reaches its threshold first while the other has nothing (in Auction
    Piquet a plus contract's elder at 29, even where younger scores later in the order). ``None`` if neither. For a
    player that values hands without playing them out (the points of each category as events).

    >>> from piquet.engine.variants import Contract, make_rules
    >>> hand = [Points(0, 8, ScoreCategory.POINT), Points(0, 21, ScoreCategory.SEQUENCES),
    ...         Points(1, 6, ScoreCategory.SETS)]   # 29 for elder before younger's sets
    >>> decided = decided_in_hand(hand, make_rules("auction"), Contract(0, 7, False), 0)
    >>> decided.player, decided.points, decided.reason
    (0, 30, 'pique')
    >>> decided_in_hand(hand, make_rules("rubicon"), None, 0) is None   # thirty needed, and younger has scored
    True
    """
    events = tuple(events)
    repique = repique_in_order(events, rules, contract)
    if repique is not None:
        return ScoreEvent(repique[0], rules.repique_points, ScoreCategory.REPIQUE, PlainReason.REPIQUE)
    p, _, _ = pique_in_order(events, PiqueRule.of(rules, contract, elder))
    if p is not None:
        return ScoreEvent(p, rules.pique_points, ScoreCategory.PIQUE, PlainReason.PIQUE)
    return None


def reckoning_at_first_lead(view: PlayerView) -> tuple[ScoreEvent, ...]:
    """What elder's first lead reckons before its own point, as the engine will score it (public: both heard
    the declarations): younger's points won in the declarations (``view.unreckoned``) and then the repique or
    the pique the hand decides, reckoned in order (Laws 67-69: in Auction Piquet a plus contract's 29 in hand
    is a pique even where the opponent scores later in the order, in sets). Before the play, younger's points
    won so far; nothing once that lead is made. A carte rouge (an option), which depends on the hidden cards,
    is not foreseen.
    """
    if view.phase is not Phase.PLAY or view.tricks or view.trick:
        return view.unreckoned
    events = sorted((*view.events, *view.unreckoned), key=lambda e: ORDER[e.category])  # stable: in order
    if any(e.category in (ScoreCategory.PIQUE, ScoreCategory.REPIQUE) for e in events):
        return view.unreckoned
    decided = decided_in_hand(events, view.rules, view.contract, view.elder)
    return view.unreckoned if decided is None else (*view.unreckoned, decided)


def target_reached(events: Iterable[Counted], start: Sequence[int], times: int, target: int) -> bool:
    """Whether a player reaches the game's ``target`` (Piquet au Cent) by ``events`` in their order of reckoning,
    from the game's scores ``start``, each point counting ``times`` (the option ``play_ceases_at_the_target``:
    the deal stops there)."""
    scores = [start[0], start[1]]
    for event in events:
        scores[event.player] += times * event.points
        if scores[event.player] >= target:
            return True
    return False


# ---------------------------------------------------------------- the play
@dataclass(frozen=True, slots=True)
class TrickDone:
    """A trick completed: its ``winner`` (Law 59), the second card as the log says it, the finished trick, and
    what the trick itself scores (Law 65; the last trick and the cards are :meth:`PlayScoring.after_trick`'s)."""

    winner: int
    played: CardPlayed
    trick: Trick
    awards: tuple[ScoreEvent, ...]


class PlayScoring:
    """What the play scores under one set of rules and one contract (``None``: no auction), in the order it is
    scored: a card led scores its lead (:meth:`lead`); the trick it begins, once completed, scores its awards
    (:meth:`trick`), then, after them, the last trick and, with the option ``cards_count_toward_pique``, the
    cards as soon as one player has won seven tricks (:meth:`after_trick`); at the end of the deal the cards or
    capot and the contract (:meth:`deal_end`). A pique may come after any of them (:attr:`pique`, for an elder:
    :meth:`pique_rule`).

    Made once for each rules and contract (:func:`scoring_for`) and asked again and again: the answers for a lead
    and a trick are kept (immutable, so shared by every deal that plays the same cards)."""

    def __init__(self, rules: Rules, contract: Contract | None) -> None:
        self.rules = rules
        self.contract = contract
        #: What the last trick scores besides its own award (Law 65).
        self.last_trick = rules.last_trick_points(contract)
        #: The option's reading: the cards are scored at the seventh trick (and count toward a pique); what they
        #: score then (0: at the end of the deal).
        self.early_cards = rules.cards_points if rules.cards_count_toward_pique else 0
        # Shared by the contracts whose leads and tricks score alike (Rules.play_awards_key): Auction's 72
        # contracts of one set of rules keep two tables of up to 2,048 tricks, not 72.
        self._leads, self._tricks = _awards_tables(rules, contract)
        self._piques: dict[int, PiqueRule] = {}

    def pique_rule(self, elder: int) -> PiqueRule:
        """Law 69 for the deal whose elder is ``elder``."""
        rule = self._piques.get(elder)
        if rule is None:
            rule = self._piques[elder] = PiqueRule.of(self.rules, self.contract, elder)
        return rule

    def lead(self, seat: int, card: Card) -> tuple[CardPlayed, ScoreEvent | None]:
        """The card led by ``seat`` as the log says it, and the point it scores, if any (Law 65)."""
        found = self._leads.get((seat, card))
        if found is None:
            points = self.rules.lead_points(card, self.contract)
            scored = ScoreEvent(seat, points, ScoreCategory.PLAY, LeadReason(card)) if points else None
            found = self._leads[seat, card] = (CardPlayed(seat, card), scored)
        return found

    def trick(self, leader: int, lead: Card, card: Card) -> TrickDone:
        """The trick ``leader`` led with ``lead`` and his opponent completed with ``card``."""
        found = self._tricks.get((leader, lead, card))
        if found is None:
            winner = 1 - leader if card.beats(lead) else leader
            cards = (lead, card)
            awards = self.rules.trick_awards(leader, cards, winner, self.contract)
            found = self._tricks[leader, lead, card] = TrickDone(
                winner, CardPlayed(1 - leader, card, winner), Trick(leader, cards, winner),
                tuple([ScoreEvent(who, points, ScoreCategory.PLAY, reason) for who, points, reason in awards]))
        return found

    def after_trick(self, winner: int, number: int, seventh: bool) -> tuple[ScoreEvent, ...]:
        """What is scored after the awards of the ``number``-th trick (from 1), won by ``winner``: the last trick
        (Law 65: it "scores two instead of one"), then, with the option ``cards_count_toward_pique``, the cards if
        this is his ``seventh`` trick (the caller says so: with the option ``play_ceases_at_the_target`` nothing
        more is scored once the target is reached)."""
        scored: tuple[ScoreEvent, ...] = ()
        if number == 12 and self.last_trick:
            scored += (ScoreEvent(winner, self.last_trick, ScoreCategory.PLAY, PlainReason.LAST_TRICK),)
        if self.early_cards and seventh:
            scored += (ScoreEvent(winner, self.early_cards, ScoreCategory.CARDS, PlainReason.CARDS),)
        return scored

    def cards_divided(self, tricks_won: tuple[int, int]) -> bool:
        """Whether the cards score nothing at the end of the play (Law 66: "the cards are divided")."""
        return not self.rules.cards_awards(tricks_won, self.contract)

    def deal_end(self, tricks_won: tuple[int, int]) -> tuple[ScoreEvent, ...]:
        """What the end of the play scores (Law 66, Lunn's contracts), by the tricks each player won: the cards
        or capot (less what was scored at the seventh trick with the option ``cards_count_toward_pique``), then
        the contract."""
        scored: tuple[ScoreEvent, ...] = ()
        for who, points, reason in self.rules.cards_awards(tricks_won, self.contract):
            if self.early_cards:
                # The cards were scored at the seventh trick; capot adds what it counts more.
                points -= self.early_cards
            if points:
                scored += (ScoreEvent(who, points, ScoreCategory.CARDS, reason),)
        for who, points, reason in self.rules.contract_awards(tricks_won, self.contract):
            scored += (ScoreEvent(who, points, ScoreCategory.CONTRACT, reason),)
        return scored


#: The play's scoring of every rules and contract asked for, by the rules (variant and options) and the contract.
_SCORINGS: dict[tuple[str, tuple[tuple[str, bool | int], ...], Contract | None], PlayScoring] = {}
_Leads = dict[tuple[int, int], tuple[CardPlayed, ScoreEvent | None]]
_Tricks = dict[tuple[int, int, int], TrickDone]
#: What the cards led and the tricks score (:meth:`PlayScoring.lead`, :meth:`PlayScoring.trick`), by the rules and
#: what of the contract they depend on.
_AWARDS: dict[tuple[str, tuple[tuple[str, bool | int], ...], Hashable], tuple[_Leads, _Tricks]] = {}


def _awards_tables(rules: Rules, contract: Contract | None) -> tuple[_Leads, _Tricks]:
    key = (rules.name, rules.key, rules.play_awards_key(contract))
    found = _AWARDS.get(key)
    if found is None:
        found = _AWARDS[key] = ({}, {})
    return found


def scoring_for(rules: Rules, contract: Contract | None) -> PlayScoring:
    """The play's scoring under ``rules`` and ``contract``, made once and shared."""
    key = (rules.name, rules.key, contract)
    found = _SCORINGS.get(key)
    if found is None:
        found = _SCORINGS[key] = PlayScoring(rules, contract)
    return found
