"""Choosing the exchange by sampling: likely discards tried over many possible talons and hands.

:func:`choose_exchange` tries the discards the books rank best (:func:`candidate_discards`) on the
same deals drawn from what the player may know, the opponent exchanging as the books do, and keeps
the best average of :func:`estimate`: the declarations scored exactly, a pique, and the play by a
fitted linear estimate (:data:`PLAY_WEIGHTS`). How, and how well: docs/players.md, "The exchange".

>>> from piquet.engine.cards import CardSet
>>> strong = CardSet.parse("AS KS QS JS TS AH KH QH AD KD AC KC")
>>> weak = CardSet.parse("9S 8S 7S JH TH 9H QD JD TD QC JC TC")
>>> estimate(strong.mask, weak.mask) > 40 > estimate(weak.mask, strong.mask)
True
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import random
from collections.abc import Callable, Sequence
from itertools import combinations as _subsets
from typing import Final

from piquet.ai.books import discard_choice, discard_order, keep_values
from piquet.ai.budget import Deadline
from piquet.ai.inference import CHECK_EVERY, Inference, World
from piquet.engine.actions import Exchange
from piquet.engine.cards import FULL_PACK, SUIT_PIPS, Card, CardSet, Rank
from piquet.engine.combinations import SET_RANKS, Category, runs, sequence_value, set_value
from piquet.engine.partie import Phase
from piquet.engine.reckoning import Points, decided_in_hand
from piquet.engine.scoring import ScoreCategory, ScoreEvent
from piquet.engine.variants import Contract, Rubicon, Rules
from piquet.engine.view import PlayerView

__all__ = [
    "PLAY_WEIGHTS",
    "Valuation",
    "best_discard",
    "candidate_discards",
    "choose_exchange",
    "declarations",
    "declarations_by_category",
    "drawn",
    "elder_pique",
    "estimate",
    "play_estimate",
    "play_features",
    "sure_leads",
    "talon_tops",
    "valuation",
    "worlds_after_elder",
    "younger_takes",
]

#: Weights of :func:`play_features` in the estimate of the card play (elder's points less
#: younger's, the pique left out), fitted by least squares on post-exchange deals solved exactly
#: by ``tools/fit_play_estimate.py`` (the command and its fit: docs/players.md, "The exchange").
PLAY_WEIGHTS: Final[tuple[float, ...]] = (
    -8.43, 1.93, -0.58, 0.64, 0.64, 1.77, -2.69,
    -0.27, 0.25, 0.41, 1.89, 3.01,
    -0.04, 0.12, -0.19, -0.36, -3.60,
)

#: The rules the estimates assume when given none.
_RUBICON: Final = Rubicon()

#: How many cards beyond the most that may be thrown the candidates are drawn from.
_POOL_EXTRA = 3

# Tables for the quick estimates, built once from the engine's values (combinations, cards).
_SET_VALUE: Final = tuple(set_value(n) for n in range(5))
_RANK_MASKS: Final = tuple(Rank(r).mask for r in range(8))


def _sequences(byte: int) -> tuple[int, int]:
    """The best sequence of a suit's ranks as ``length * 8 + top`` (0: none) and what all score."""
    best = total = 0
    for low, length in runs(byte):
        if length >= 3:
            best = max(best, length * 8 + low + length - 1)
            total += sequence_value(length)
    return best, total


_SEQUENCE_TABLE: Final = tuple(_sequences(b) for b in range(256))

#: A hand's declarations as the exchange compares them: (point key, point value, sequence key, sequences value,
#: set key, sets value); a key is 0 where the hand holds none.
Summary = tuple[int, int, int, int, int, int]
#: What the exchange's valuation reads of one hand (:meth:`Valuation.hand`): its declarations (:data:`Summary`),
#: then for the play's estimate its four suits' rank masks, its voids, and how many tens, knaves, queens, kings
#: and aces it holds.
Hand = tuple[Summary, tuple[int, int, int, int], int, tuple[int, int, int, int, int]]

#: The ranks whose cards the play estimate counts, the ten to the ace (the sets' ranks among them, Law 64).
_HIGH_RANKS: Final = tuple(range(Rank.TEN, Rank.ACE + 1))
assert set(SET_RANKS) <= set(_HIGH_RANKS)
_HIGH_RANK_MASKS: Final = tuple(_RANK_MASKS[r] for r in _HIGH_RANKS)


def _rank_count_tables() -> tuple[tuple[int, ...], list[tuple[int, int, int, int, int] | None],
                                  list[tuple[int, int] | None]]:
    """How many tens to aces a hand holds, as one number: a suit's high ranks (its rank mask shifted down to the
    ten) spread into a field of three bits for each rank, which add up over the four suits; and by that number,
    the five counts and the hand's sets (set key, sets value; :data:`Summary`)."""
    spread = tuple(sum((bits >> j & 1) << 3 * j for j in range(len(_HIGH_RANKS))) for bits in range(32))
    counts: list[tuple[int, int, int, int, int] | None] = [None] * (1 << 3 * len(_HIGH_RANKS))
    sets: list[tuple[int, int] | None] = [None] * len(counts)
    for held in itertools.product(range(5), repeat=len(_HIGH_RANKS)):
        packed = sum(n << 3 * j for j, n in enumerate(held))
        counts[packed] = (held[0], held[1], held[2], held[3], held[4])
        key = value = 0
        for r in SET_RANKS:
            n = held[_HIGH_RANKS.index(r)]
            if n >= 3:
                key = max(key, n * 8 + r)
                value += _SET_VALUE[n]
        sets[packed] = (key, value)
    return spread, counts, sets


def _suit_pairs() -> list[int]:
    """For each pair of rank masks of one suit, elder's first (``elder << 8 | younger``): elder's sure winners in
    it, younger's, and by how many cards elder's is the longer and younger's, in four bytes of one number that
    add up over the four suits (:func:`play_features`)."""
    table: list[int] = []
    youngers = [(y, y.bit_length(), y.bit_count()) for y in range(256)]
    for e in range(256):
        top, length = e.bit_length(), e.bit_count()
        table += [(e >> y_top).bit_count() | (y >> top).bit_count() << 8
                  | (length - y_length << 16 if length > y_length else y_length - length << 24)
                  for y, y_top, y_length in youngers]
    return table


# Built once, with the module (some 10 ms), rather than in the first decision that values a deal.
_RANK_COUNTS: Final = _rank_count_tables()
_SUIT_PAIRS: Final = _suit_pairs()


_IN_HAND_CATEGORIES: Final = (ScoreCategory.POINT, ScoreCategory.SEQUENCES, ScoreCategory.SETS)


class Valuation:
    """What a deal is worth once both players have exchanged, by their two hands (masks, elder's first), as the
    exchange reckons it under ``rules`` and ``contract``: the declarations exactly, both declaring in full (by
    category, with the repique, Law 68), elder's pique as his sure leads promise it (Law 69), and the play by
    the fitted estimate (:func:`play_estimate`). Level 5's exchange (:func:`estimate`), the review of an
    exchange (:func:`piquet.coach.review.review_exchange`) and the luck of a deal (:mod:`piquet.coach.luck`) all value
    a deal by it; one is made per rules and contract (:func:`valuation`).

    What it needs of a hand (:data:`Hand`) is read from tables by suit (an 8-bit rank mask) and by rank, and the
    last hand of each seat is kept with it: the loops that value many discards over one world change one seat's
    hand at a time.

    >>> from piquet.engine.cards import CardSet
    >>> value = valuation(Rubicon())
    >>> value.by_category(CardSet.parse("AS KS QS JS TS AH AD AC 7H 8H 7D 7C").mask,
    ...                   CardSet.parse("9S 8S 7S KH QH JH KD QD JD KC QC JC").mask)
    ((5, 15, 14, 60), (0, 0, 0, 0))
    """

    def __init__(self, rules: Rules, contract: Contract | None = None) -> None:
        self.rules = rules
        self.contract = contract
        minimum = rules.minimum_point
        #: By a suit's rank mask: its point as the exchange compares it (its length, then its pips; 0 below the
        #: minimum point) and what it scores, its best sequence (length, then top) and what its sequences score.
        self._suit_declarations = tuple(
            (b.bit_count() * 128 + SUIT_PIPS[b] if b and b.bit_count() >= minimum else 0,
             rules.combination_points(Category.POINT, CardSet(b)) if b else 0, *_SEQUENCE_TABLE[b])
            for b in range(256))
        self._rank_counts = _RANK_COUNTS
        self._suit_pairs = _SUIT_PAIRS
        self.repique_threshold = rules.repique_threshold(contract)
        self.repique_points = rules.repique_points
        #: Whether the better combination scores for its holder's opponent (an Auction minus contract).
        self.swapped = rules.combination_scorer(0, contract) != 0
        self.elder_may_pique = rules.may_pique(0, 0, contract)
        self.pique_threshold = rules.pique_threshold(contract)
        self.pique_points = rules.pique_points
        self._decided: dict[tuple[tuple[int, int] | None, tuple[int, int] | None, tuple[int, int] | None,
                                  tuple[int, int]], ScoreEvent | None] = {}
        self._elder = (-1, self.hand(0))
        self._younger = (-1, self.hand(0))

    def hand(self, mask: int) -> Hand:
        """What the valuation reads of one hand (:data:`Hand`)."""
        suits = (mask & 0xFF, mask >> 8 & 0xFF, mask >> 16 & 0xFF, mask >> 24)
        point_key = point_value = seq_key = seq_value = 0
        for byte in suits:
            pk, pv, sk, sv = self._suit_declarations[byte]
            if pk > point_key:
                point_key = pk
                point_value = pv
            if sk > seq_key:
                seq_key = sk
            seq_value += sv
        spread, counts, sets = self._rank_counts
        high = spread[suits[0] >> 3] + spread[suits[1] >> 3] + spread[suits[2] >> 3] + spread[suits[3] >> 3]
        held, found = counts[high], sets[high]
        assert held is not None and found is not None
        return ((point_key, point_value, seq_key, seq_value, found[0], found[1]), suits,
                (not suits[0]) + (not suits[1]) + (not suits[2]) + (not suits[3]), held)

    def hands(self, elder: int, younger: int) -> tuple[Hand, Hand]:
        """Both hands (:meth:`hand`), each read again only when that seat's hand changed."""
        e, y = self._elder, self._younger
        if e[0] != elder:
            self._elder = e = (elder, self.hand(elder))
        if y[0] != younger:
            self._younger = y = (younger, self.hand(younger))
        return e[1], y[1]

    def by_category(self, elder: int, younger: int, before: tuple[int, int] = (0, 0)
                    ) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
        """What elder and what younger score for the point, the sequences, the sets and the repique, in that
        order, when both declare in full; ``before`` (elder's and younger's points already scored: a carte
        blanche) counts toward the repique and bars the opponent's. The rules decide who scores a combination
        and the repique's threshold: in an Auction minus contract the opponent of the better combination scores
        it and a repique comes at twenty-one."""
        e, y = self.hands(elder, younger)
        return self._declared(e[0], y[0], before)

    def _declared(self, e: Summary, y: Summary, before: tuple[int, int]
                  ) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
        mine, hers = [0, 0, 0, 0], [0, 0, 0, 0]
        a, b = before
        repique = False
        threshold = self.repique_threshold
        swapped = self.swapped
        for n, i in enumerate((0, 2, 4)):
            if e[i] > y[i]:
                scorer, points = (hers, e[i + 1]) if swapped else (mine, e[i + 1])
            elif y[i] > e[i]:
                scorer, points = (mine, y[i + 1]) if swapped else (hers, y[i + 1])
            else:
                scorer, points = mine, 0
            scorer[n] += points
            if scorer is mine:
                a += points
            else:
                b += points
            if not repique:
                if a >= threshold and b == 0:
                    a += self.repique_points
                    mine[3] = self.repique_points
                    repique = True
                elif b >= threshold and a == 0:
                    b += self.repique_points
                    hers[3] = self.repique_points
                    repique = True
        return (mine[0], mine[1], mine[2], mine[3]), (hers[0], hers[1], hers[2], hers[3])

    def decided(self, elder: int, younger: int, before: tuple[int, int] = (0, 0)) -> ScoreEvent | None:
        """The repique or pique the two hands decide once both have declared in full (:func:`decided_by_hands`),
        as the engine reckons it (:func:`piquet.engine.reckoning.decided_in_hand`); remembered by who scores what
        in each category, which is all it depends on."""
        e, y = (hand[0] for hand in self.hands(elder, younger))
        scored: list[tuple[int, int] | None] = []
        for i in (0, 2, 4):
            better, points = (0, e[i + 1]) if e[i] > y[i] else (1, y[i + 1]) if y[i] > e[i] else (0, 0)
            scored.append((1 - better if self.swapped else better, points) if points else None)
        key = (scored[0], scored[1], scored[2], before)
        if key in self._decided:
            return self._decided[key]
        events = [Points(seat, points, ScoreCategory.CARTE_BLANCHE) for seat, points in enumerate(before) if points]
        for category, found in zip(_IN_HAND_CATEGORIES, scored, strict=True):
            if found is not None:
                events.append(Points(found[0], found[1], category))
        if len(self._decided) >= 4096:
            self._decided.clear()
        decided = self._decided[key] = decided_in_hand(events, self.rules, self.contract, 0)
        return decided

    def declarations(self, elder: int, younger: int) -> tuple[int, int]:
        """What elder and younger score for their combinations and the repique (:meth:`by_category`, summed)."""
        mine, hers = self.by_category(elder, younger)
        return sum(mine), sum(hers)

    def _pique(self, a: int, b: int, sure: int) -> int:
        """Elder's pique (0 or its points) when his points in hand ``a`` and his ``sure`` leads reach the pique's
        threshold before younger scores (``b`` nothing; Law 69). With ``b`` nothing, ``a`` reaches the repique's
        threshold only with a repique, and then there is no pique."""
        if b or a >= self.repique_threshold or not self.elder_may_pique:
            return 0
        return self.pique_points if a + sure + 1 >= self.pique_threshold else 0

    def elder_pique(self, a: int, b: int, elder: int, younger: int) -> int:
        """Elder's points in hand ``a`` with his pique added when his declarations and the leads he is sure of
        reach the pique's threshold before younger scores (Law 69); younger's ``b``."""
        return a + self._pique(a, b, sure_leads(elder, younger))

    def reckon(self, elder: int, younger: int, before: tuple[int, int] = (0, 0)
               ) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int], int, float]:
        """The deal's value in its parts: what elder and what younger score in hand (:meth:`by_category`, with
        ``before``, their points for a carte blanche), elder's pique (0 or its points) and the play's estimate
        (:func:`play_estimate`, elder's points less younger's)."""
        e, y = self.hands(elder, younger)
        mine, hers = self._declared(e[0], y[0], before)
        # The play's features (:func:`play_features`): sure winners and length suit by suit, then each hand's own.
        pairs = self._suit_pairs
        (e0, e1, e2, e3), (y0, y1, y2, y3) = e[1], y[1]
        both = pairs[e0 << 8 | y0] + pairs[e1 << 8 | y1] + pairs[e2 << 8 | y2] + pairs[e3 << 8 | y3]
        sure_e, sure_y, long_e, long_y = both & 0xFF, both >> 8 & 0xFF, both >> 16 & 0xFF, both >> 24
        a = before[0] + sum(mine)
        pique = self._pique(a, before[1] + sum(hers), sure_e)
        features = (1, sure_e, sure_y, long_e, long_y, e[2], y[2], *e[3], *y[3])
        play: float = sum(map(operator.mul, PLAY_WEIGHTS, features))
        return mine, hers, pique, play

    def estimate(self, elder: int, younger: int, worth: tuple[int, int] = (1, -1)) -> float:
        """Elder's points less younger's for the whole deal, estimated (:func:`estimate`)."""
        mine, hers, pique, play = self.reckon(elder, younger)
        a, b = sum(mine) + pique, sum(hers)
        m, h = worth
        return m * a + h * b + (m - h) * play / 2


@functools.lru_cache(maxsize=64)
def valuation(rules: Rules, contract: Contract | None = None) -> Valuation:
    """The :class:`Valuation` of ``rules`` and ``contract``, made once."""
    return Valuation(rules, contract)


def declarations(elder: int, younger: int, rules: Rules | None = None,
                 contract: Contract | None = None) -> tuple[int, int]:
    """What elder and younger score for their combinations when both declare in full, with a
    repique (Law 68) to a player whose declarations reach the rules' threshold (thirty) before the
    other scores. Who scores a combination and the threshold are the rules' for ``contract``: in an
    Auction minus contract the opponent of the better combination scores it and a repique comes
    at twenty-one.

    >>> from piquet.engine.cards import CardSet
    >>> declarations(CardSet.parse("AS KS QS JS TS AH AD AC 7H 8H 7D 7C").mask,
    ...              CardSet.parse("9S 8S 7S KH QH JH KD QD JD KC QC JC").mask)
    (94, 0)
    """
    return valuation(rules or _RUBICON, contract).declarations(elder, younger)


def declarations_by_category(elder: int, younger: int, rules: Rules | None = None, contract: Contract | None = None,
                             before: tuple[int, int] = (0, 0)) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`declarations` broken down: what elder and what younger score for the point, the
    sequences, the sets and the repique, in that order (:meth:`Valuation.by_category`); ``before``
    (elder's and younger's points already scored: a carte blanche) counts toward the repique and bars
    the opponent's. Without ``before``, each side's parts sum to :func:`declarations`'s.

    >>> from piquet.engine.cards import CardSet
    >>> declarations_by_category(CardSet.parse("AS KS QS JS TS AH AD AC 7H 8H 7D 7C").mask,
    ...                          CardSet.parse("9S 8S 7S KH QH JH KD QD JD KC QC JC").mask)
    ((5, 15, 14, 60), (0, 0, 0, 0))
    """
    return valuation(rules or _RUBICON, contract).by_category(elder, younger, before)



def decided_by_hands(elder: int, younger: int, rules: Rules, contract: Contract | None,
                     before: tuple[int, int] = (0, 0)) -> ScoreEvent | None:
    """The repique or pique that the combinations of ``elder`` and ``younger`` (masks) decide once both have
    declared in full, as the engine reckons it at elder's first lead (:func:`piquet.engine.reckoning.decided_in_hand`,
    the one home of Laws 67-69: strictly in the order point, sequences, sets, so that in Auction Piquet a plus
    contract's 29 reached before younger's sets is a pique); seat 0 is elder's. ``before``: elder's and younger's
    points for a carte blanche. ``None`` if neither.

    >>> from piquet.engine.cards import CardSet
    >>> from piquet.engine.variants import make_rules
    >>> elder = CardSet.parse("AS KS QS JS TS 9S 8S 7S AH KH QH 7D").mask   # point 8, huitième, tierce: 29 ...
    >>> younger = CardSet.parse("JH TH 9H AD KD QD JD TD AC KC JC TC").mask  # ... then her knaves and tens
    >>> plus = Contract(0, 7, False)
    >>> declarations(elder, younger, make_rules("auction"), plus)
    (29, 6)
    >>> decided_by_hands(elder, younger, make_rules("auction"), plus).reason
    'pique'
    >>> contract_declarations(elder, younger, make_rules("auction"), plus)
    (59, 6)
    >>> decided_by_hands(elder, younger, make_rules("rubicon"), None) is None   # thirty needed, and she scores
    True
    """
    return valuation(rules, contract).decided(elder, younger, before)


def contract_declarations(elder: int, younger: int, rules: Rules, contract: Contract | None) -> tuple[int, int]:
    """What elder and younger score in hand when both declare in full (:func:`declarations`, whose repique is the
    engine's), with the pique the hand decides (:func:`decided_by_hands`): what the engine has scored by elder's
    first lead, before its own point."""
    a, b = declarations(elder, younger, rules, contract)
    decided = decided_by_hands(elder, younger, rules, contract)
    if decided is not None and decided.category is ScoreCategory.PIQUE:
        if decided.player == 0:
            a += decided.points
        else:
            b += decided.points
    return a, b


def play_features(elder: int, younger: int) -> list[int]:
    """What the play estimate is made of: sure winners, length, voids and high cards of each side."""
    sure_e = sure_y = long_e = long_y = void_e = void_y = 0
    for shift in (0, 8, 16, 24):
        be = elder >> shift & 0xFF
        by = younger >> shift & 0xFF
        sure_e += (be >> by.bit_length()).bit_count()
        sure_y += (by >> be.bit_length()).bit_count()
        d = be.bit_count() - by.bit_count()
        if d > 0:
            long_e += d
        else:
            long_y -= d
        void_e += not be
        void_y += not by
    return [1, sure_e, sure_y, long_e, long_y, void_e, void_y,
            *[(elder & m).bit_count() for m in _HIGH_RANK_MASKS],
            *[(younger & m).bit_count() for m in _HIGH_RANK_MASKS]]



def play_estimate(elder: int, younger: int) -> float:
    """Elder's points less younger's in the card play, estimated (see :data:`PLAY_WEIGHTS`)."""
    estimated: float = sum(map(operator.mul, PLAY_WEIGHTS, play_features(elder, younger)))
    return estimated


def sure_leads(elder: int, younger: int) -> int:
    """Elder's cards that no card of younger's can beat."""
    return sum(((elder >> (8 * s) & 0xFF) >> (younger >> (8 * s) & 0xFF).bit_length()).bit_count() for s in range(4))


def elder_pique(a: int, b: int, elder: int, younger: int, rules: Rules | None = None,
                contract: Contract | None = None) -> int:
    """Elder's points in hand ``a`` with his pique added when his declarations and the leads he is
    sure of reach thirty before younger scores (Law 69); younger's ``b``. With ``b`` nothing, ``a``
    reaches the repique's threshold only with a repique, and then there is no pique
    (:meth:`Valuation.elder_pique`)."""
    return valuation(rules or _RUBICON, contract).elder_pique(a, b, elder, younger)


def estimate(elder: int, younger: int, rules: Rules | None = None, worth: tuple[int, int] = (1, -1)) -> float:
    """Elder's points less younger's for the whole deal, estimated: the declarations exactly,
    a pique, and the play.

    With ``worth``, what the deal is worth to elder when a point of his is worth ``worth[0]``
    and one of younger's ``worth[1]`` (the partie's last deal, :func:`piquet.ai.levels.partie_utility`):
    the declarations as each side scores them, and the play's points as a total the estimated
    difference splits between them (the total is much the same whoever plays better, so only the
    difference matters, by half the gap between the two worths).

    >>> from piquet.engine.cards import CardSet
    >>> elder = CardSet.parse("AS KS QS JS TS AH KH QH AD KD AC KC").mask
    >>> younger = CardSet.parse("9S 8S 7S JH TH 9H QD JD TD QC JC TC").mask
    >>> declarations(elder, younger)  # point, quint, tierce, quatorzes of aces and kings; repique
    (111, 0)
    >>> round(estimate(elder, younger) - play_estimate(elder, younger))  # the difference
    111
    >>> round(estimate(elder, younger, worth=(1, 1)))  # both scores count alike: the play aside
    111
    """
    return valuation(rules or _RUBICON).estimate(elder, younger, worth)


def candidate_discards(view: PlayerView, limit: int) -> list[CardSet]:
    """The discards worth trying: the heuristic's own first, then the subsets of the least useful
    cards in the heuristic's order, of the most cards allowed and of one fewer."""
    seat = view.seat
    assert seat is not None and view.exchange_range is not None
    lo, hi = view.exchange_range
    younger = seat != view.elder
    hand = view.hand
    values = keep_values(hand, younger)
    order = sorted(hand, key=lambda c: (values[c], c.rank))
    pool = order[: min(len(order), hi + _POOL_EXTRA)]
    fewer = limit // 4 if hi - 1 >= lo else 0
    out: list[CardSet] = []
    for n, room in ((hi, limit - fewer), (hi - 1, fewer)):
        if room <= 0 or n <= 0:
            continue
        ranked = sorted((CardSet(c) for c in _subsets(pool, n)), key=lambda c: sum(values[x] for x in c))
        first = discard_choice(hand, n, younger)
        chosen = [first] + [c for c in ranked if c != first]
        out.extend(chosen[:room])
    return out


def younger_takes(hand: int, rest: Sequence[Card]) -> int:
    """Younger's hand after she takes every card elder left, throwing what the books throw
    (:func:`~piquet.ai.books.discard_choice`)."""
    if not rest:
        return hand
    for card in discard_order(hand, len(rest), True):
        hand &= ~(1 << card)
    for card in rest:
        hand |= 1 << card
    return hand


def worlds_after_elder(view: PlayerView, rng: random.Random, count: int,
                       discard: Callable[[CardSet, int], CardSet] | None = None,
                       weigh: Callable[[CardSet, Sequence[Card]], float] | None = None,
                       deadline: Deadline | None = None) -> list[World] | None:
    """For younger at her exchange, ``count`` deals drawn as the books' elder makes them: his
    twelve cards and the talon dealt at random from the cards she cannot see, and his discard
    his least useful cards (:func:`~piquet.ai.books.discard_choice`) of the number he took, or
    ``discard(his twelve cards, the number)``. ``weigh(his twelve cards, the talon)``, if given,
    is each deal's weight (how well it explains what he has said). ``None`` if the view holds more
    than the exchange count (cards shown or seen), which this does not model; fewer deals where the
    ``deadline``'s wall-clock cap comes first (asked every :data:`~piquet.ai.inference.CHECK_EVERY`).
    """
    seat = view.seat
    if seat is None or seat == view.elder or view.phase is not Phase.EXCHANGE:
        return None
    taken = view.exchanged[view.elder]
    known = view.known_cards()
    if taken is None or len(known) != 12:
        return None
    unseen = list(CardSet(FULL_PACK & ~known.mask))
    out: list[World] = []
    for k in range(count):
        if deadline is not None and not k % CHECK_EVERY and deadline.overdue():
            break
        rng.shuffle(unseen)
        dealt = CardSet(unseen[:12])
        talon: list[Card] = unseen[12:]
        thrown = discard(dealt, taken) if discard is not None else discard_choice(dealt, taken)
        weight = weigh(dealt, talon) if weigh is not None else 1.0
        kept = dealt - thrown
        out.append(World(kept | CardSet(talon[:taken]), thrown, tuple(talon[taken:]), weight))
    return out


def drawn(hand: int, discard: CardSet, talon: Sequence[Card]) -> int:
    """The hand (a mask) after throwing ``discard`` and drawing as many cards from the top of ``talon``."""
    hand &= ~discard.mask
    for card in talon[: len(discard)]:
        hand |= 1 << card
    return hand


def talon_tops(talon: Sequence[Card], most: int) -> list[int]:
    """The masks of the talon's top cards, by how many, up to ``most``: what a player who throws that many draws
    (all there is where the talon holds fewer). The hand after a discard is the cards it keeps and these:
    ``hand & ~discard.mask | talon_tops(talon, most)[len(discard)]`` is :func:`drawn`'s."""
    tops = [0]
    for k in range(most):
        tops.append(tops[-1] | 1 << talon[k] if k < len(talon) else tops[-1])
    return tops


#: Worlds in the first round of :func:`best_discard` and the least in each round after it.
ROUND_WORLDS: Final = 64

#: How many standard errors behind the leader a discard's average must be before
#: :func:`best_discard` stops trying it.
DROP_MARGIN: Final = 3.0


def best_discard(hand: int, options: Sequence[CardSet], worlds: Sequence[World],
                 answer: Callable[[int, Sequence[Card]], int], score: Callable[[int, int], float],
                 deadline: Deadline | None = None) -> CardSet:
    """The discard among ``options`` with the best weighted average ``score(mine, hers)`` over
    ``worlds``, the same draws for every discard: each draws from the top of the world's talon,
    and the opponent's hand is ``answer(her hand, the cards left in the talon)`` (her exchange,
    worked out once for each number of cards drawn).

    The worlds are taken in rounds (:data:`ROUND_WORLDS`, then doubling), and after each round a
    discard whose average trails the leader's by more than :data:`DROP_MARGIN` standard errors of
    their difference (paired, world by world) is tried no more: successive elimination, which
    spends the worlds on the discards still in contention. A ``deadline`` spent stops the rounds,
    and its wall-clock cap stops a round too (asked every :data:`~piquet.ai.inference.CHECK_EVERY`
    worlds); the discards are then judged on the worlds tried (the first of ``options`` where there
    was none). Without a deadline, or with one of no budget, every discard is tried on every world
    (nothing dropped)."""
    racing = deadline is not None and deadline.seconds > 0
    count = len(options)
    alive = list(range(count))
    totals = [0.0] * count
    scores: list[list[float]] = [[] for _ in range(count)]
    weights: list[float] = []
    # Each discard as the cards it keeps and how many it draws (:func:`talon_tops`).
    kept = [hand & ~discard.mask for discard in options]
    sizes = [len(discard) for discard in options]
    most = max(sizes, default=0)
    start, size = 0, ROUND_WORLDS
    overdue = False
    while start < len(worlds) and len(alive) > 1 and not overdue:
        if start and deadline is not None and deadline.spent():
            break
        for k, world in enumerate(worlds[start:start + size]):
            if deadline is not None and not k % CHECK_EVERY and deadline.overdue():
                overdue = True
                break
            opponent = world.opponent_hand.mask
            talon = world.talon
            tops = talon_tops(talon, most)
            theirs: dict[int, int] = {}
            weights.append(world.weight)
            for i in alive:
                n = sizes[i]
                if n not in theirs:
                    theirs[n] = answer(opponent, talon[n:])
                value = score(kept[i] | tops[n], theirs[n])
                scores[i].append(value)
                totals[i] += world.weight * value
        start += size
        size = max(ROUND_WORLDS, start)
        if racing and start < len(worlds) and not overdue:
            alive = _contenders(alive, totals, scores, weights)
    if len(alive) == 1:
        return options[alive[0]]
    return options[max(alive, key=lambda i: (totals[i], -i))]


def _contenders(alive: list[int], totals: list[float], scores: list[list[float]], weights: list[float]) -> list[int]:
    """The discards of ``alive`` not clearly behind the leader (:data:`DROP_MARGIN`) on the
    worlds scored so far (the last ``len(weights)`` of each discard's scores are these worlds)."""
    leader = max(alive, key=lambda i: (totals[i], -i))
    weight = sum(weights)
    if weight <= 0:
        return alive
    n = len(weights)
    lead_scores = scores[leader][-n:]
    out = []
    for i in alive:
        if i == leader:
            out.append(i)
            continue
        mine = scores[i][-n:]
        diffs = [a - b for a, b in zip(lead_scores, mine, strict=True)]
        mean = sum(w * d for w, d in zip(weights, diffs, strict=True)) / weight
        var = sum(w * w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) / (weight * weight)
        if mean <= DROP_MARGIN * math.sqrt(var):
            out.append(i)
    return out


def choose_exchange(view: PlayerView, rules: Rules, rng: random.Random, worlds: int,
                    candidates: int, worth: tuple[int, int] = (1, -1),
                    deadline: Deadline | None = None) -> Exchange | None:
    """The discard with the best average :func:`estimate` over ``worlds`` sampled deals, among
    ``candidates`` likely ones, a point of the player's worth ``worth[0]`` and one of the
    opponent's ``worth[1]`` (the score difference unless the partie's last deal makes it
    otherwise); ``None`` where this method does not apply (Auction Piquet, a carte blanche,
    nothing to choose) and the caller should use its own. ``deadline``: :func:`best_discard`; its
    wall-clock cap stops the drawing of the worlds too."""
    seat = view.seat
    if (seat is None or view.exchange_range is None or rules.uses_bidding
            or any(view.carte_blanche) or view.will_exchange is not None):
        return None
    options = candidate_discards(view, candidates)
    if len(options) < 2:
        return None
    elder = seat == view.elder
    sampled = None if elder else worlds_after_elder(view, rng, worlds, deadline=deadline)
    if sampled is None:
        sampled = Inference(view).sample(rng, worlds, deadline=deadline)
    if not sampled:
        return None
    hand = view.hand.mask
    value = valuation(rules)
    if elder:
        best = best_discard(hand, options, sampled, younger_takes,
                            lambda mine, hers: value.estimate(mine, hers, worth), deadline)
    else:  # elder has exchanged already: his hand stands
        his_worth = (worth[1], worth[0])  # her worth of his points and hers, as elder's are put
        best = best_discard(hand, options, sampled, lambda his, _rest: his,
                            lambda mine, his: value.estimate(his, mine, his_worth), deadline)
    return Exchange(seat, best)
