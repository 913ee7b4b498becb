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

**Auction Piquet** (:func:`auction_deal_luck`): the contract decides what a deal is worth and who is elder, so
the model of a deal not yet bid is the auction as the books bid it (:func:`books_contract`: each calls by
:func:`~piquet.ai.books.choose_bid` knowing his own hand, the engine judging the auction; both passing, the
deal is annulled and worth nothing), its holder elder, both exchanging as the books do in that contract (in a
minus contract their high cards, :func:`~piquet.ai.books.minus_discards`), and a world valued by the
contract's worth as the levels reckon it (:func:`piquet.ai.bidding.contract_worth`: the declarations as the
contract scores them, the tricks by the fitted estimate spread by its error, the over- and undertricks). The
deal's elder is the holder of the contract as bid (before the auction is over, or where both passed, the seat
that bids first), and ``dealt`` and the seat's average are his side's; the draws are valued in the contract as
bid. What lies between ``dealt`` and ``elder_discarded`` is then the calls and the holder's discard against
the books'.

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
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Final

from piquet.ai.bidding import contract_worth
from piquet.ai.books import choose_bid, discard_choice, minus_discards
from piquet.ai.exchange import drawn, valuation
from piquet.engine.actions import Bid, Deal, Exchange
from piquet.engine.cards import CARDS, Card, CardSet, Rank
from piquet.engine.partie import Partie, Phase
from piquet.engine.variants import Contract, Rules, make_rules

__all__ = [
    "SEAT_AVERAGES", "DealLuck", "LuckSummary", "auction_deal_luck", "average_deal", "books_contract", "carte_blanche",
    "deal_luck", "partie_luck", "seat_average", "summarise", "world_value",
]

#: Elder's average deal (his points less younger's, :func:`world_value` after both exchange as the books do)
#: by variant, with its rules' defaults, and the half-width of its 95% interval: measured on 200,000 random
#: deals by ``python3 tools/luck_average.py --deals 200000`` (docs/review.md, "Luck"). Younger's is the opposite.
#: In Auction Piquet, the average deal of the seat that bids first (the non-dealer), the auction bid as the books
#: bid it (:func:`books_contract`) and the deal valued in its contract: measured on 400,000 random deals by
#: ``python3 tools/luck_average.py --deals 400000 --variants auction``.
SEAT_AVERAGES: Final[dict[str, tuple[float, float]]] = {
    "rubicon": (13.46, 0.14),
    "au-cent": (13.34, 0.14),
    "auction": (-3.86, 0.15),
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
    de, dy, pique, play = valuation(rules).reckon(elder, younger, before)
    a, b = before[0] + sum(de), before[1] + sum(dy)
    return a - b + pique + play


def _mean(values: Iterator[float]) -> float:
    """The mean, summed exactly (:func:`math.fsum`): the same whatever order the draws come in."""
    listed = list(values)
    return math.fsum(listed) / len(listed)


# ---------------------------------------------------------------- the model of a deal
@dataclass(frozen=True)
class _Model:
    """How a deal is valued once its elder is known, and how the books exchange in it: in Rubicon and au Cent
    (``contract`` ``None``) by :func:`world_value`; in an Auction contract (its holder elder) by the contract's
    worth as the levels reckon it (:func:`piquet.ai.bidding.contract_worth`). ``before``: elder's and younger's
    points for a carte blanche."""

    rules: Rules
    before: tuple[int, int]
    contract: Contract | None = None

    @functools.cached_property
    def _worth(self) -> Callable[[int, int], float]:
        if self.contract is None:
            return lambda e, y: world_value(e, y, self.rules, self.before)
        return contract_worth(self.rules, self.contract, self.before)

    def value(self, elder: int, younger: int) -> float:
        """Elder's points of the deal less younger's with these hands after the exchange (masks)."""
        return self._worth(elder, younger)

    @property
    def minus(self) -> bool:
        return self.contract is not None and self.contract.minus

    def elder_books(self, hand: int) -> CardSet:
        """Elder's discard as the books make it: the most he may of his least useful cards; in a minus
        contract, his high cards (:func:`piquet.ai.books.minus_discards`)."""
        rules = self.rules
        if self.minus:
            return minus_discards(CardSet(hand), rules.elder_minimum_exchange, rules.elder_maximum_exchange)
        return discard_choice(CardSet(hand), rules.elder_maximum_exchange)

    def younger_books(self, hand: int, left: int) -> CardSet:
        """Younger's discard as the books make it, ``left`` cards left her: every one of them, throwing her
        least useful; in a minus contract, her high cards, as many as she wants of them. It does not depend
        on the cards left, only on how many."""
        if self.minus:
            return minus_discards(CardSet(hand), min(left, self.rules.younger_minimum_exchange), left)
        return discard_choice(CardSet(hand), left, True) if left else CardSet()

    def over_younger_draws(self, elder: int, younger: int, thrown: CardSet, rest: Sequence[Card]) -> float:
        """The mean value over every set of cards younger could draw from ``rest`` throwing ``thrown``
        (one set where she takes every card left)."""
        kept = younger & ~thrown.mask
        return _mean(self.value(elder, kept | CardSet(q).mask) for q in combinations(rest, len(thrown)))

    def over_elder_draws(self, elder: int, younger: int, thrown: CardSet, talon: Sequence[Card]) -> float:
        """The mean value over every set of cards elder could draw throwing ``thrown``, younger exchanging as
        the books do with what he leaves (over her draws too)."""
        k = min(len(thrown), len(talon))
        hers = self.younger_books(younger, len(talon) - k)  # she throws before she sees what comes
        return _mean(self.over_younger_draws(drawn(elder, thrown, drew), younger, hers,
                                             [c for c in talon if c not in drew])
                     for drew in combinations(talon, k))

    def one_order(self, elder: int, younger: int, talon: Sequence[Card]) -> float:
        """The value with both exchanging as the books do and the talon in this order."""
        thrown = self.elder_books(elder)
        e = drawn(elder, thrown, talon)
        rest = talon[len(thrown):]
        return self.value(e, drawn(younger, self.younger_books(younger, len(rest)), rest))


def _auction(rules: Rules, deal: Deal, bids: Sequence[Bid] | None = None) -> Contract | None:
    """The contract the auction reaches on ``deal`` (``None``: both passed, or not over): by the calls
    ``bids``, or where ``None`` as the books bid it (:func:`piquet.ai.books.choose_bid`, each knowing his own
    hand), the engine judging the auction."""
    partie = Partie(("A", "B"), rules.name, rules.changed(), first_dealer=deal.player)
    partie.push(deal)
    if bids is not None:
        for bid in bids:
            partie.push(bid)
        return partie.contract
    while partie.phase is Phase.BID:
        who = partie.to_act
        assert who is not None
        partie.push(choose_bid(partie.view(who), partie.legal_actions(who)))
    return partie.contract


def books_contract(rules: Rules, deal: Deal) -> Contract | None:
    """Auction Piquet: the contract the books' auction reaches with the hands of ``deal`` (``None``: both pass
    and the deal is annulled), the model of the auction in the luck of the deal.

    >>> from piquet.engine.variants import make_rules
    >>> deal = Deal(0, (CardSet.parse("7S 8S 9S 7H 8H 9H 7D 8D 9D 7C 8C 9C"),
    ...                 CardSet.parse("AS KS QS JS TS AH KH QH AD KD AC KC")),
    ...             tuple(CardSet.parse("JH TH QD JD TD QC JC TC")))
    >>> str(books_contract(make_rules("auction"), deal))  # Bill bids seven plus, Ann the most she may minus
    '12-'
    """
    return _auction(rules, deal)


def _books_line(rules: Rules, deal: Deal) -> tuple[int, _Model | None]:
    """The seat that bids first (elder before the auction) and the model of the deal as the books bid and
    exchange it (in Auction Piquet ``None`` where the books both pass), its elder the contract's holder."""
    first = rules.elder_of(deal.player)
    if not rules.uses_bidding:
        e, y = deal.hands[first].mask, deal.hands[1 - first].mask
        return first, _Model(rules, (carte_blanche(e, rules), carte_blanche(y, rules)))
    contract = books_contract(rules, deal)
    if contract is None:
        return first, None
    e, y = deal.hands[contract.holder].mask, deal.hands[1 - contract.holder].mask
    return first, _Model(rules, (carte_blanche(e, rules), carte_blanche(y, rules)), contract)


def _dealt(rules: Rules, deal: Deal, order: bool = False) -> tuple[float, Contract | None]:
    """The deal's value for the seat that bids first (elder outside Auction Piquet): both bidding as the books
    do (an annulled deal is worth nothing) and exchanging as the books do, over every talon order, or with
    ``order`` in the talon's order; and the books' contract (``None`` outside Auction Piquet)."""
    first, model = _books_line(rules, deal)
    if model is None:
        return 0.0, None
    elder = model.contract.holder if model.contract is not None else first
    e, y = deal.hands[elder].mask, deal.hands[1 - elder].mask
    value = (model.one_order(e, y, deal.talon) if order
             else model.over_elder_draws(e, y, model.elder_books(e), deal.talon))
    return (value if elder == first else -value), model.contract


# ---------------------------------------------------------------- the seat's average
def average_deal(rules: Rules, deals: int, rng: random.Random) -> tuple[float, float]:
    """Elder's mean deal over ``deals`` random deals (each dealt, exchanged as the books do, and valued by
    :func:`world_value`) and the standard error of the mean. One talon order a deal: its mean over deals is
    the mean of :class:`DealLuck`'s ``dealt``. In Auction Piquet, the mean deal of the seat that bids first
    (elder before the auction), the auction bid as the books bid it (:func:`books_contract`), the deal valued
    in its contract, and an annulled deal as nothing.

    >>> from piquet.engine.variants import make_rules
    >>> mean, error = average_deal(make_rules("rubicon"), 200, random.Random(0))
    >>> 0 < error < 10
    True
    """
    pack = list(CARDS)
    total = squares = 0.0
    for _ in range(deals):
        rng.shuffle(pack)
        v = _dealt(rules, Deal(0, (CardSet(pack[12:24]), CardSet(pack[:12])), tuple(pack[24:])), True)[0]
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
    contracts: tuple[Contract | None, Contract | None] | None = None

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
        out: dict[str, object] = {"deal": self.deal, "elder": names[self.elder], "average": self.average}
        if self.contracts is not None:
            books, played = self.contracts
            out["contracts"] = {"books": None if books is None else str(books),
                                "played": None if played is None else str(played)}
        out["values"] = {k: v for k, v in values.items() if v is not None}
        out["players"] = {names[seat]: {"deal": self.deal_luck(seat), "draw": self.draw_luck(seat),
                                        "luck": self.luck(seat), "result": self.result(seat)} for seat in (0, 1)}
        return out


def _luck(model: _Model | None, deal: Deal, elder: int, discards: Mapping[int, CardSet], out: DealLuck) -> DealLuck:
    """``out`` with the values of the exchange as made (those made so far) in the deal's ``model``."""
    thrown = discards.get(elder)
    if model is None or thrown is None:
        return out
    e, y = deal.hands[elder].mask, deal.hands[1 - elder].mask
    talon = deal.talon
    e2 = drawn(e, thrown, talon)
    rest = talon[len(thrown):]
    out = replace(out, elder_discarded=model.over_elder_draws(e, y, thrown, talon),
                  elder_drew=model.over_younger_draws(e2, y, model.younger_books(y, len(rest)), rest))
    hers = discards.get(1 - elder)
    if hers is None:
        return out
    return replace(out, younger_discarded=model.over_younger_draws(e2, y, hers, rest),
                   younger_drew=model.value(e2, drawn(y, hers, rest)))


def deal_luck(rules: Rules, deal: Deal, elder: int, discards: Mapping[int, CardSet], number: int = 1,
              scores: tuple[int, int] | None = None, average: float | None = None) -> DealLuck:
    """The luck of a deal (:class:`DealLuck`): the cards dealt (``deal``), elder's seat, the discards made by
    seat (those made so far), the deal's number, its points by seat if it ended, and elder's average deal
    (:func:`seat_average` if not given). Not Auction Piquet's (:func:`auction_deal_luck`)."""
    if rules.uses_bidding:
        raise ValueError("in Auction Piquet the auction decides who is elder: see auction_deal_luck")
    if average is None:
        average = seat_average(rules)
    e, y = deal.hands[elder].mask, deal.hands[1 - elder].mask
    model = _Model(rules, (carte_blanche(e, rules), carte_blanche(y, rules)))
    dealt = model.over_elder_draws(e, y, model.elder_books(e), deal.talon)
    return _luck(model, deal, elder, discards, DealLuck(number, elder, average, dealt, scores=scores))


def auction_deal_luck(rules: Rules, deal: Deal, bids: Sequence[Bid], discards: Mapping[int, CardSet],
                      number: int = 1, scores: tuple[int, int] | None = None,
                      average: float | None = None) -> DealLuck:
    """Auction Piquet: the luck of a deal (:class:`DealLuck`) with the calls made (``bids``, those made so far),
    the discards made by seat (so far), the deal's number, its points by seat if it ended, and the average
    deal of the seat that bids first (:func:`seat_average` if not given). The deal's elder is the contract's
    holder (before the auction is over, or where both passed, the seat that bids first), and every value is
    his side's: ``dealt`` the hands as dealt, bid and exchanged as the books do (:func:`books_contract`), the
    draws' values in the contract as bid.

    Bill, who bids first, is dealt the top cards, Ann the low ones: Ann outbids him with twelve minus, and
    plays it on a deal worth far more than her seat's average.

    >>> from piquet.engine.variants import make_rules
    >>> deal = Deal(0, (CardSet.parse("7S 8S 9S 7H 8H 9H 7D 8D 9D 7C 8C 9C"),
    ...                 CardSet.parse("AS KS QS JS TS AH KH QH AD KD AC KC")),
    ...             tuple(CardSet.parse("JH TH QD JD TD QC JC TC")))
    >>> bids = [Bid(1, "7+"), Bid(0, "12-"), Bid(1, "pass")]
    >>> luck = auction_deal_luck(make_rules("auction"), deal, bids, {0: CardSet(), 1: CardSet.parse("AS KS")})
    >>> luck.elder, str(luck.contracts[1]), luck.deal_luck(0) > 40, luck.luck(0) + luck.luck(1)
    (0, '12-', True, 0.0)
    """
    if not rules.uses_bidding:
        raise ValueError(f"{rules.title} has no auction: see deal_luck")
    first = rules.elder_of(deal.player)
    played = _auction(rules, deal, bids)
    elder = played.holder if played is not None else first
    sign = 1 if elder == first else -1
    if average is None:
        average = seat_average(rules)
    dealt, books = _dealt(rules, deal)
    model = None
    if played is not None:
        e, y = deal.hands[elder].mask, deal.hands[1 - elder].mask
        model = _Model(rules, (carte_blanche(e, rules), carte_blanche(y, rules)), played)
    return _luck(model, deal, elder, discards, DealLuck(number, elder, sign * average, sign * dealt, scores=scores,
                                                        contracts=(books, played)))


def partie_luck(partie: Partie, deal: int | None = None) -> list[DealLuck]:
    """The luck of every deal of ``partie`` (a record re-played), or of its deal number ``deal`` (an annulled
    Auction deal counts as one). A deal not ended has no scores."""
    rules = partie.rules
    average = seat_average(rules)
    out: list[DealLuck] = []
    number = 0
    current: Deal | None = None
    discards: dict[int, CardSet] = {}
    bids: list[Bid] = []

    def close() -> None:
        if current is None or (deal is not None and number != deal):
            return
        scores = partie.deal_scores[number - 1].totals if number <= len(partie.deal_scores) else None
        if rules.uses_bidding:
            out.append(auction_deal_luck(rules, current, bids, discards, number, scores, average))
        else:
            out.append(deal_luck(rules, current, rules.elder_of(current.player), discards, number, scores, average))

    for action in partie.actions:
        if isinstance(action, Deal):
            close()
            number += 1
            current, discards, bids = action, {}, []
        elif isinstance(action, Exchange):
            discards[action.player] = action.discards
        elif isinstance(action, Bid):
            bids.append(action)
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
