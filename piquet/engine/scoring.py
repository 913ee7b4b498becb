"""Scoring as an ordered log of events.

Every point scored in a deal is a :class:`ScoreEvent`: who, how many, in which
category and why. The deal's log is kept in the order of reckoning of Law 67
(carte blanche, point, sequences, sets, play, the cards), whoever scored and
whenever it was announced, a repique or a pique where its thirty was made
(Laws 68-69); the scores by category, the deal totals, pique and repique and
the partie result are all derived from it.

>>> events = (ScoreEvent(0, 6, ScoreCategory.POINT, CombinationReason(Category.POINT, 6)),
...           ScoreEvent(1, 3, ScoreCategory.SETS, CombinationReason(Category.SETS, 3, Rank.KING)))
>>> [e.reason for e in events]
['point of six', 'three kings']
>>> deal = DealScore.from_events(events, elder=0)
>>> deal.totals, deal.by_category[0]["point"]
((6, 3), 6)
>>> settle((120, 99)).points, settle((120, 101)).points
(319, 119)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from piquet.engine.cards import Card, Rank
from piquet.engine.combinations import Category

if TYPE_CHECKING:
    from piquet.engine.variants import Contract

__all__ = [
    "CATEGORY_ORDER", "FEATS", "ORDER", "CombinationReason", "CombinationScored", "ContractMadeReason",
    "ContractTricksReason", "DealScore", "LeadReason", "OwnLeadReason", "PlainReason", "Reason", "ScoreCategory",
    "ScoreEvent", "Settlement", "TrickReason", "counted_deals", "placed", "settle",
]


class ScoreCategory(enum.Enum):
    """Where points come from, in the order of reckoning of Law 67 (the order a deal's count lists them in).

    A repique or a pique is "obtained on the score of thirty being made" (Laws 68-69): in a deal's events it
    stands just after the score that made the thirty, whatever its category's place here.
    """

    CARTE_BLANCHE = "carte_blanche"
    POINT = "point"
    SEQUENCES = "sequences"
    SETS = "sets"
    CARTE_ROUGE = "carte_rouge"
    REPIQUE = "repique"
    PLAY = "play"
    PIQUE = "pique"
    CARDS = "cards"
    CONTRACT = "contract"

    #: Hashed by identity, in C: a member is its own key (``Enum`` hashes the name by a Python call, and
    #: the engine looks members up in dicts at every step).
    __hash__ = object.__hash__

    @property
    def label(self) -> str:
        """The category as the count of a deal names it (``"carte blanche"``, ``"point"``, ``"pique"``)."""
        return self.value.replace("_", " ")

    @property
    def in_hand(self) -> bool:
        """Scored from the hand's combinations (what counts toward a repique)."""
        return self in _IN_HAND


_IN_HAND = frozenset(
    {ScoreCategory.CARTE_BLANCHE, ScoreCategory.POINT, ScoreCategory.SEQUENCES, ScoreCategory.SETS,
     ScoreCategory.CARTE_ROUGE}
)
CATEGORY_ORDER: tuple[ScoreCategory, ...] = tuple(ScoreCategory)
#: Each score category's place in the order of reckoning (Law 67).
ORDER: dict[ScoreCategory, int] = {category: i for i, category in enumerate(CATEGORY_ORDER)}


def placed(events: tuple[ScoreEvent, ...], event: ScoreEvent) -> tuple[ScoreEvent, ...]:
    """``events`` with ``event`` in its place in the order of reckoning (Law 67): after every event of its
    category or an earlier one."""
    rank = ORDER[event.category]
    at = len(events)
    while at > 0 and ORDER[events[at - 1].category] > rank:
        at -= 1
    return (*events[:at], event, *events[at:])


@dataclass(frozen=True, slots=True)
class CombinationScored:
    """What the words of a combination scored tell both players, as data: whose it is (``holder``; in
    Auction's minus contracts the opponent scores it), its length and, for a sequence or a set, the rank of
    its top card (``"quart to the king"``: 4, king; ``"three kings"``: 3, king; ``"point of five"``: 5,
    ``None``, its pips not being said). Never its suit or its cards."""

    holder: int
    length: int
    top: Rank | None = None


# ---------------------------------------------------------------- why points are scored
class PlainReason(enum.StrEnum):
    """A reason that names nothing: the game's words alone, which are its value."""

    CARTE_BLANCHE = "carte blanche"
    CARTE_ROUGE = "carte rouge"
    REPIQUE = "repique"
    PIQUE = "pique"
    LAST_TRICK = "the last trick"
    WINS_A_TRICK = "wins a trick"
    LOSES_A_TRICK = "loses a trick"
    CARDS = "the cards"
    CAPOT = "capot"
    CONCEDED_PLAY = "conceded play"
    CONCEDED_CARDS = "conceded cards"


@dataclass(frozen=True, slots=True)
class LeadReason:
    """The point of a card led (Law 65): "lead of TS"."""

    card: Card


@dataclass(frozen=True, slots=True)
class TrickReason:
    """The point for winning the opponent's lead (Law 65): "wins the TS with the AS"."""

    lead: Card
    card: Card


@dataclass(frozen=True, slots=True)
class OwnLeadReason:
    """The point of a lead scored when its trick is won (option ``lead_point_only_if_won``): "wins his lead of the
    TS"."""

    lead: Card


@dataclass(frozen=True, slots=True)
class ContractTricksReason:
    """Auction Piquet: tricks more (``over``) or fewer than the contract: "2 overtricks", "1 undertrick"."""

    count: int
    over: bool


@dataclass(frozen=True, slots=True)
class ContractMadeReason:
    """Auction Piquet: a doubled contract made: "8- doubled made"."""

    contract: Contract


@dataclass(frozen=True, slots=True)
class CombinationReason:
    """A combination scored, as its call names it: its category, length and, for a sequence or a set, its top rank
    ("quart to the king", "fourteen aces", "point of five"); ``holder`` names its holder where his opponent scores
    it (Auction's minus contracts: "Bill's three kings")."""

    category: Category
    length: int
    top: Rank | None = None
    holder: str | None = None


#: The feats a score sheet notes beside a deal's points: the bonuses that are a deal's story rather than its
#: arithmetic (carte blanche, Law 31; repique and pique, Laws 68-69; capot, Law 66).
FEATS: frozenset[PlainReason] = frozenset(
    {PlainReason.CARTE_BLANCHE, PlainReason.REPIQUE, PlainReason.PIQUE, PlainReason.CAPOT})

#: Why points are scored, as data: :mod:`piquet.engine.words` says it in each language.
Reason = (PlainReason | LeadReason | TrickReason | OwnLeadReason | ContractTricksReason | ContractMadeReason
          | CombinationReason)


@dataclass(frozen=True, slots=True)
class ScoreEvent:
    """Points scored by one player: ``player`` is the seat (0 or 1), ``why`` the reason, as data; ``reason`` says
    it in English. A point, a sequence or a set scored carries ``combination``, what its words say of it, for the
    players that reason on it (left out of the repr: the reason says it)."""

    player: int
    points: int
    category: ScoreCategory
    why: Reason
    combination: CombinationScored | None = field(default=None, repr=False)

    @property
    def reason(self) -> str:
        """Why the points are scored, in English (:func:`piquet.engine.words.reason_words`)."""
        from piquet.engine.words import reason_words

        return reason_words(self.why)

    def to_json(self, names: tuple[str, str]) -> dict[str, object]:
        return {
            "player": names[self.player],
            "points": self.points,
            "category": self.category.value,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class DealScore:
    """The scores of one deal, derived from its log.

    ``contract`` is the Auction Piquet contract (``None`` in the other variants);
    an ``annulled`` deal (both passed in the auction) scores nothing and does not
    count; ``multiplier`` is how many times the deal counts in the partie; ``feats`` who scored each of the
    :data:`FEATS` in the deal, in the order of reckoning.

    >>> quint = CombinationReason(Category.SEQUENCES, 5)
    >>> deal = DealScore.from_events((ScoreEvent(0, 30, ScoreCategory.SEQUENCES, quint),
    ...                               ScoreEvent(0, 60, ScoreCategory.REPIQUE, PlainReason.REPIQUE)), elder=0)
    >>> deal.feats
    ((0, <PlainReason.REPIQUE: 'repique'>),)
    """

    elder: int
    by_category: tuple[dict[str, int], dict[str, int]]
    totals: tuple[int, int]
    tricks: tuple[int, int]
    contract: Contract | None = None
    annulled: bool = False
    multiplier: int = 1
    feats: tuple[tuple[int, PlainReason], ...] = ()

    @classmethod
    def from_events(
        cls, events: Iterable[ScoreEvent], elder: int, tricks: tuple[int, int] = (0, 0),
        contract: Contract | None = None, annulled: bool = False, multiplier: int = 1,
    ) -> DealScore:
        by: tuple[dict[str, int], dict[str, int]] = (dict.fromkeys(_NAMES, 0), dict.fromkeys(_NAMES, 0))
        feats: list[tuple[int, PlainReason]] = []
        for e in events:
            by[e.player][_NAME[e.category]] += e.points
            if isinstance(e.why, PlainReason) and e.why in FEATS:
                feats.append((e.player, e.why))
        totals = (sum(by[0].values()), sum(by[1].values()))
        for seat in (0, 1):
            by[seat]["total"] = totals[seat]
        return cls(elder, by, totals, tricks, contract, annulled, multiplier, tuple(feats))

    def count(self) -> tuple[tuple[ScoreCategory, tuple[int, int]], ...]:
        """The count of the deal: each category either player scored in, in the order of reckoning (Law 67),
        with both players' points (the totals are :attr:`totals`).

        >>> deal = DealScore.from_events((ScoreEvent(1, 3, ScoreCategory.SETS, CombinationReason(Category.SETS, 3)),
        ...                               ScoreEvent(0, 6, ScoreCategory.POINT, CombinationReason(Category.POINT, 6))),
        ...                              elder=0)
        >>> [(c.label, points) for c, points in deal.count()]
        [('point', (6, 0)), ('sets', (0, 3))]
        """
        return tuple((c, (self.by_category[0][c.value], self.by_category[1][c.value])) for c in ScoreCategory
                     if self.by_category[0][c.value] or self.by_category[1][c.value])


#: Each category's name (its value), looked up rather than asked of the enum, once per event.
_NAME: dict[ScoreCategory, str] = {c: c.value for c in ScoreCategory}
_NAMES: tuple[str, ...] = tuple(_NAME.values())


def counted_deals(deal_scores: Iterable[DealScore]) -> int:
    """How many deals count toward the partie's number: all but the annulled (Auction, both passed)."""
    return sum(1 for d in deal_scores if not d.annulled)


@dataclass(frozen=True, slots=True)
class Settlement:
    """The end of a partie: the winner (``None`` for a draw) and what he scores by the settlement;
    in Piquet au Cent, ``games`` is what each player won (a double game counting two)."""

    winner: int | None
    points: int
    rubiconed: bool
    games: tuple[int, int] | None = None


def settle(totals: tuple[int, int], rubicon: int = 100, bonus: int = 100) -> Settlement:
    """Laws 72-73: the winner scores the difference and 100, or, if the loser
    is under 100 (rubiconed), the sum of both scores and 100.

    >>> settle((80, 80))
    Settlement(winner=None, points=0, rubiconed=False, games=None)
    """
    a, b = totals
    if a == b:
        return Settlement(None, 0, False)
    winner = 0 if a > b else 1
    loser_score = totals[1 - winner]
    if loser_score < rubicon:
        return Settlement(winner, a + b + bonus, True)
    return Settlement(winner, abs(a - b) + bonus, False)
