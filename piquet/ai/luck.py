"""Luck, as backgammon reviews reckon it: of the deal and of the draw, and the result adjusted for it.

Every value here is **elder's points of the deal less younger's**, reckoned as the fair review of the exchange
values a world (:func:`world_value`: :func:`piquet.ai.exchange.estimate` with the utility ``(1, -1)``: both
hands' declarations in full, category by category with the repique, elder's pique, the play by the levels'
fitted estimate; here with a carte blanche dealt). With both hands known (the record has them), only the
talon's order is chance, and the values are exact means over it (every set of cards a draw could bring, no
sampling). Where a player's own discard is not known yet, he discards as the books do
(:func:`~piquet.ai.books.discard_choice`: elder the most he may, younger every card left), the model the
levels themselves give the opponent in their worlds. In turn:

- ``dealt``: the hands as dealt, both exchanging as the books do, over every talon order;
- ``elder_discarded``: elder's discard as made, over every set of cards he could have drawn;
- ``elder_drew``: his draw as it came;
- ``younger_discarded``: her discard as made, over every set of cards she could have drawn of those left;
- ``younger_drew``: both hands as they were after the exchange.

The **luck of the deal** is ``dealt`` less the average of ``dealt`` over random deals (:func:`seat_average`:
elder's, a constant per variant measured by ``tools/luck_average.py``; younger's is its opposite). The **luck
of a draw** is the value after it less the value before it, given the discard made, so that the skill of the
discard is not counted as luck: elder's ``elder_drew - elder_discarded``, younger's ``younger_discarded -
younger_drew`` (her side). The valuation is the difference of the two sides, so one player's luck is the
other's bad luck: a player's luck in a deal is his deal's luck and his draw's, less the opponent's draw's, and
the two players' luck sum to nothing. What is left between the hands after the exchange and the deal's
result is the play and the declarations (and the estimate's error); what is left between the hands dealt and
the hands after the exchange, the two discards against the books'. docs/review.md, "Luck".

Bill, elder, is dealt a quint major and four aces: well above elder's average deal.

>>> from piquet.engine.actions import Deal
>>> from piquet.engine.variants import make_rules
>>> deal = Deal(0, (CardSet.parse("KS QS JS TS 9S KD QD JD KC QC JC 9C"),
...                 CardSet.parse("AH KH QH JH TH AS AD AC 7S 8S 7D 7C")),
...             tuple(CardSet.parse("9H 8H 7H TD 9D 8D TC 8C")))
>>> luck = deal_luck(make_rules("rubicon"), deal, 1, {1: CardSet.parse("7S 8S 7D 7C TH"),
...                                                   0: CardSet.parse("9S 9C JC")})
>>> luck.deal_luck(1) > 40, luck.luck(0) + luck.luck(1)
(True, 0.0)
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Final

from piquet.ai.books import discard_choice
from piquet.ai.exchange import declarations_by_category, drawn, elder_pique, play_estimate
from piquet.engine.actions import Deal, Exchange
from piquet.engine.cards import CARDS, Card, CardSet, Rank
from piquet.engine.partie import Partie
from piquet.engine.variants import Rules, make_rules

__all__ = [
    "SEAT_AVERAGES", "DealLuck", "LuckSummary", "average_deal", "carte_blanche", "deal_luck", "partie_luck",
    "seat_average", "summarise", "world_value",
]

#: Elder's average deal (his points less younger's, :func:`world_value` after both exchange as the books do)
#: by variant, with its rules' defaults, and the half-width of its 95% interval: measured on 200,000 random
#: deals by ``python3 tools/luck_average.py --deals 200000`` (docs/review.md, "Luck"). Younger's is the opposite.
SEAT_AVERAGES: Final[dict[str, tuple[float, float]]] = {
    "rubicon": (13.46, 0.14),
    "au-cent": (13.34, 0.14),
}

#: Random deals the seat's average is measured on where the rules are not a variant's defaults.
OTHER_RULES_DEALS: Final = 4000

_COURT: Final = Rank.JACK.mask | Rank.QUEEN.mask | Rank.KING.mask


def carte_blanche(hand: int, rules: Rules) -> int:
    """What a hand (a mask) dealt scores for a carte blanche: the rules' points if it holds no king, queen or
    knave and the rules allow one, else nothing.

    >>> from piquet.engine.variants import make_rules
    >>> carte_blanche(CardSet.parse("AS TS 9S 8S 7S AH TH 9H AD TD AC TC").mask, make_rules("rubicon"))
    10
    """
    return rules.carte_blanche_points if rules.has_carte_blanche and not hand & _COURT else 0


def world_value(elder: int, younger: int, rules: Rules, before: tuple[int, int] = (0, 0)) -> float:
    """Elder's points of the deal less younger's with these hands after the exchange (masks), as the fair
    review of the exchange values a world with the utility ``(1, -1)``: a carte blanche already scored
    (``before``, elder's and younger's), the declarations in full category by category with the repique,
    elder's pique, and the play by the levels' fitted estimate (:func:`piquet.ai.exchange.estimate`).

    >>> from piquet.ai.exchange import estimate
    >>> e = CardSet.parse("AS KS QS JS TS AH KH QH AD KD AC KC").mask
    >>> y = CardSet.parse("9S 8S 7S JH TH 9H QD JD TD QC JC TC").mask
    >>> from piquet.engine.variants import make_rules
    >>> world_value(e, y, make_rules("rubicon")) == estimate(e, y)
    True
    """
    cb_e, cb_y = before
    de, dy = declarations_by_category(elder, younger, rules, None, before)
    a, b = cb_e + sum(de), cb_y + sum(dy)
    pique = elder_pique(a, b, elder, younger, rules) - a
    return a - b + pique + play_estimate(elder, younger)


def _younger_books(hand: int, rest: Sequence[Card]) -> int:
    """Younger's hand after she takes every card left, throwing the books' least useful."""
    return drawn(hand, discard_choice(CardSet(hand), len(rest), True), rest) if rest else hand


def _mean(values: Iterator[float]) -> float:
    """The mean, summed exactly (:func:`math.fsum`): the same whatever order the draws come in."""
    listed = list(values)
    return math.fsum(listed) / len(listed)


# ---------------------------------------------------------------- the seat's average
def average_deal(rules: Rules, deals: int, rng: random.Random) -> tuple[float, float]:
    """Elder's mean deal over ``deals`` random deals (each dealt, exchanged as the books do, and valued by
    :func:`world_value`) and the standard error of the mean. One talon order a deal: its mean over deals is
    the mean of :class:`DealLuck`'s ``dealt``.

    >>> from piquet.engine.variants import make_rules
    >>> mean, error = average_deal(make_rules("rubicon"), 200, random.Random(0))
    >>> 0 < error < 10
    True
    """
    pack = list(CARDS)
    most = rules.elder_maximum_exchange
    total = squares = 0.0
    for _ in range(deals):
        rng.shuffle(pack)
        e, y = CardSet(pack[:12]), CardSet(pack[12:24])
        talon = pack[24:]
        before = (carte_blanche(e.mask, rules), carte_blanche(y.mask, rules))
        elder = drawn(e.mask, discard_choice(e, most), talon)
        v = world_value(elder, _younger_books(y.mask, talon[most:]), rules, before)
        total += v
        squares += v * v
    mean = total / deals
    variance = max(0.0, squares / deals - mean * mean) * deals / max(1, deals - 1)
    return mean, math.sqrt(variance / deals)


@functools.lru_cache(maxsize=16)
def _measured(name: str, options: tuple[tuple[str, bool | int], ...]) -> float:
    return average_deal(make_rules(name, dict(options)), OTHER_RULES_DEALS, random.Random(0))[0]


def seat_average(rules: Rules) -> float:
    """Elder's average deal under ``rules``: :data:`SEAT_AVERAGES` for a variant with its defaults, else
    measured once (on :data:`OTHER_RULES_DEALS` deals, seeded) and kept."""
    changed = tuple(sorted(rules.changed().items()))
    if not changed and rules.name in SEAT_AVERAGES:
        return SEAT_AVERAGES[rules.name][0]
    return _measured(rules.name, changed)


# ---------------------------------------------------------------- one deal
@dataclass(frozen=True)
class DealLuck:
    """The luck of one deal (counted from 1): ``elder``'s seat, his ``average`` deal, and the values of the
    deal as it went (elder's points less younger's, see the module's docstring; ``None`` where that exchange
    was not made), and ``scores``, each seat's points of the deal (``None`` if it did not end)."""

    deal: int
    elder: int
    average: float
    dealt: float
    elder_discarded: float | None = None
    elder_drew: float | None = None
    younger_discarded: float | None = None
    younger_drew: float | None = None
    scores: tuple[int, int] | None = None

    def _side(self, seat: int) -> int:
        return 1 if seat == self.elder else -1

    def deal_luck(self, seat: int) -> float:
        """The luck of the deal for ``seat``: the hands dealt against the seat's average deal."""
        return self._side(seat) * (self.dealt - self.average)

    def draw_luck(self, seat: int) -> float:
        """The luck of ``seat``'s own draw, his side: the value after it less the mean over the draws his
        discard could have brought (0 without the exchange)."""
        if seat == self.elder:
            if self.elder_drew is None or self.elder_discarded is None:
                return 0.0
            return self.elder_drew - self.elder_discarded
        if self.younger_drew is None or self.younger_discarded is None:
            return 0.0
        return self.younger_discarded - self.younger_drew

    def luck(self, seat: int) -> float:
        """``seat``'s luck in the deal: the deal's, his draw's, less his opponent's draw's."""
        return self.deal_luck(seat) + self.draw_luck(seat) - self.draw_luck(1 - seat)

    def result(self, seat: int) -> int | None:
        """``seat``'s points of the deal less his opponent's (``None`` if the deal did not end)."""
        return None if self.scores is None else self.scores[seat] - self.scores[1 - seat]

    def to_json(self, names: tuple[str, str]) -> dict[str, object]:
        values = {"dealt": self.dealt, "elder_discarded": self.elder_discarded, "elder_drew": self.elder_drew,
                  "younger_discarded": self.younger_discarded, "younger_drew": self.younger_drew}
        return {"deal": self.deal, "elder": names[self.elder], "average": self.average,
                "values": {k: v for k, v in values.items() if v is not None},
                "players": {names[seat]: {"deal": self.deal_luck(seat), "draw": self.draw_luck(seat),
                                          "luck": self.luck(seat), "result": self.result(seat)}
                            for seat in (0, 1)}}


def deal_luck(rules: Rules, deal: Deal, elder: int, discards: Mapping[int, CardSet], number: int = 1,
              scores: tuple[int, int] | None = None, average: float | None = None) -> DealLuck:
    """The luck of a deal (:class:`DealLuck`): the cards dealt (``deal``), elder's seat, the discards made by
    seat (those made so far), the deal's number, its points by seat if it ended, and elder's average deal
    (:func:`seat_average` if not given)."""
    if rules.uses_bidding:
        raise ValueError("luck is not reckoned in Auction Piquet: the contract decides what a deal is worth")
    e, y = deal.hands[elder].mask, deal.hands[1 - elder].mask
    talon = deal.talon
    before = (carte_blanche(e, rules), carte_blanche(y, rules))
    if average is None:
        average = seat_average(rules)

    def value(elder_hand: int, younger_hand: int) -> float:
        return world_value(elder_hand, younger_hand, rules, before)

    def over_elder_draws(thrown: CardSet) -> float:
        k = min(len(thrown), len(talon))
        young = discard_choice(CardSet(y), len(talon) - k, True)  # she throws before she sees what comes
        rest_mask = CardSet(talon).mask
        return _mean(value(drawn(e, thrown, drew), (y & ~young.mask) | (rest_mask & ~CardSet(drew).mask))
                     for drew in combinations(talon, k))

    out = DealLuck(number, elder, average, over_elder_draws(discard_choice(CardSet(e), rules.elder_maximum_exchange)),
                   scores=scores)
    thrown = discards.get(elder)
    if thrown is None:
        return out
    k = len(thrown)
    e2 = drawn(e, thrown, talon)
    rest = talon[k:]
    out = replace(out, elder_discarded=over_elder_draws(thrown), elder_drew=value(e2, _younger_books(y, rest)))
    hers = discards.get(1 - elder)
    if hers is None:
        return out
    m = len(hers)
    kept = y & ~hers.mask
    return replace(out, younger_discarded=_mean(value(e2, kept | CardSet(q).mask) for q in combinations(rest, m)),
                    younger_drew=value(e2, drawn(y, hers, rest)))


def partie_luck(partie: Partie, deal: int | None = None) -> list[DealLuck]:
    """The luck of every deal of ``partie`` (a record re-played), or of its deal number ``deal``; nothing in
    Auction Piquet. A deal not ended has no scores."""
    rules = partie.rules
    if rules.uses_bidding:
        return []
    average = seat_average(rules)
    out: list[DealLuck] = []
    number = 0
    current: Deal | None = None
    discards: dict[int, CardSet] = {}

    def close() -> None:
        if current is None or (deal is not None and number != deal):
            return
        scores = partie.deal_scores[number - 1].totals if number <= len(partie.deal_scores) else None
        out.append(deal_luck(rules, current, rules.elder_of(current.player), discards, number, scores, average))

    for action in partie.actions:
        if isinstance(action, Deal):
            close()
            number += 1
            current, discards = action, {}
        elif isinstance(action, Exchange):
            discards[action.player] = action.discards
    close()
    return out


# ---------------------------------------------------------------- the partie
@dataclass(frozen=True)
class LuckSummary:
    """One player's luck over the deals that ended: the deals', the draws' (his own less his opponent's), the
    whole, his result (his points of those deals less his opponent's) and the result adjusted for the luck."""

    deals: int
    deal: float
    draws: float
    luck: float
    result: int
    adjusted: float

    def to_json(self) -> dict[str, object]:
        return {"deals": self.deals, "deal": self.deal, "draws": self.draws, "luck": self.luck,
                "result": self.result, "adjusted": self.adjusted}


def summarise(lucks: Sequence[DealLuck], seat: int) -> LuckSummary:
    """``seat``'s luck over the deals of ``lucks`` that ended, and his result adjusted for it."""
    ended = [d for d in lucks if d.scores is not None]
    deal = sum(d.deal_luck(seat) for d in ended)
    draws = sum(d.draw_luck(seat) - d.draw_luck(1 - seat) for d in ended)
    result = sum(d.result(seat) or 0 for d in ended)
    return LuckSummary(len(ended), deal, draws, deal + draws, result, result - (deal + draws))
