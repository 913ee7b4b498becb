"""Auction Piquet: the calls and the exchanges of a contract, chosen over sampled deals.

:func:`choose_call` plays out each call it may make in deals drawn from the view (the opponent
answering as the books do) and keeps the best average; :func:`choose_contract_exchange` tries the
likely discards of either player in a contract the same way. How, and how well: docs/players.md,
"Auction bidding".

>>> import random
>>> from piquet.engine.actions import Deal
>>> from piquet.engine.cards import Card, CardSet
>>> from piquet.engine.partie import Partie
>>> partie = Partie(("Ann", "Bill"), "auction", first_dealer=0)
>>> hands = (CardSet.parse("7S 8S 9S 7H 8H 9H 7D 8D 9D 7C 8C 9C"),
...          CardSet.parse("AS KS QS JS TS AH KH QH AD KD AC KC"))
>>> rest = tuple(c for c in CardSet.parse("JH TH QD JD TD QC JC TC"))
>>> _ = partie.push(Deal(0, hands, rest))
>>> choose_call(partie.view(1), partie.legal_actions(1), random.Random(1), 4).call
'7+'
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations as _subsets
from typing import Final

from piquet.ai.books import SimpleAgent, choose_bid, discard_choice, minus_discards, minus_tricks, plus_tricks
from piquet.ai.budget import Deadline
from piquet.ai.exchange import (
    best_discard,
    candidate_discards,
    contract_declarations,
    drawn,
    play_features,
    worlds_after_elder,
    younger_takes,
)
from piquet.ai.inference import CHECK_EVERY, Inference, World
from piquet.ai.solver import PlayPosition, solve
from piquet.engine.actions import Bid, Deal, Exchange
from piquet.engine.cards import Card, CardSet
from piquet.engine.partie import LegalActions, Partie, Phase, reckoning_at_first_lead
from piquet.engine.scoring import ScoreCategory
from piquet.engine.variants import Auction, Award, Contract, Rules
from piquet.engine.view import PlayerView

__all__ = [
    "TRICK_WEIGHTS",
    "auction_weight",
    "choose_call",
    "choose_contract_exchange",
    "contract_discards",
    "contract_points",
    "contract_worth",
    "estimate_tricks",
    "holder_tricks",
    "trick_features",
]

#: How likely a deal stays when the books in her seat would not have made one of her calls
#: (not zero: she may bid otherwise than the books).
MISMATCH_WEIGHT = 0.25


#: Weights of :func:`trick_features` in the estimate of the tricks a contract's holder takes, for
#: plus and for minus contracts, fitted by least squares on contracts solved exactly by
#: ``tools/fit_trick_estimate.py`` (the command and its fit: docs/players.md, "Auction bidding").
TRICK_WEIGHTS: Final[tuple[tuple[float, ...], tuple[float, ...]]] = (
    (3.306, 0.304, -0.082, 0.106, 0.106, 0.342, -0.754, -0.005, 0.014, 0.027,
     0.068, 0.603, 0.016, 0.044, 0.011, -0.217, -0.378, 0.249, -0.006),
    (5.350, -0.102, -0.123, -0.052, -0.052, -0.846, 1.475, -0.065, 0.165, -0.004,
     -0.021, -0.759, -0.063, 0.211, -0.149, -0.120, 0.970, -0.161, 0.442),
)

#: The root mean square error of the estimate on the held-out contracts (plus, minus), in tricks:
#: the spread of the tricks around it when a deal's points are averaged.
TRICK_SPREAD: Final = (1.20, 1.64)

_MIRROR: Final = tuple(int(f"{b:08b}"[::-1], 2) for b in range(256))


def _mirrored(mask: int) -> int:
    """The hand with each suit's ranks turned upside down (a seven for an ace)."""
    return sum(_MIRROR[mask >> (8 * s) & 0xFF] << (8 * s) for s in range(4))


def trick_features(holder: int, other: int, minus: bool) -> list[float]:
    """What the trick estimate is made of: the play's features (:func:`piquet.ai.exchange.play_features`,
    on the hands turned upside down for a minus contract, where low cards are the strong ones) and
    the books' counts of the tricks each hand expects (:func:`piquet.ai.books.plus_tricks`,
    :func:`~piquet.ai.books.minus_tricks`)."""
    count = minus_tricks if minus else plus_tricks
    base = play_features(_mirrored(holder), _mirrored(other)) if minus else play_features(holder, other)
    return [*map(float, base), count(CardSet(holder)), count(CardSet(other))]


def estimate_tricks(holder: int, other: int, minus: bool) -> float:
    """The tricks the holder of a contract is expected to win (as many as she can in a plus
    contract, as few in a minus one), by :data:`TRICK_WEIGHTS`."""
    value = sum(w * f for w, f in zip(TRICK_WEIGHTS[minus], trick_features(holder, other, minus), strict=True))
    return min(12.0, max(0.0, value))


def _spread(mean: float, sigma: float) -> list[float]:
    """Probabilities of 0 to 12 tricks about an estimate of ``mean``, by a normal of ``sigma``."""
    weights = [math.exp(-((k - mean) ** 2) / (2 * sigma * sigma)) for k in range(13)]
    total = sum(weights)
    return [w / total for w in weights]


class _TricksOnly(Auction):
    """Auction scoring stripped to the tricks, for solving how many the holder takes: a point
    to the winner of each trick in a plus contract, to its loser in a minus one, nothing else."""

    name = "auction-tricks"

    def cards_awards(self, tricks_won: tuple[int, int], contract: Contract | None) -> list[Award]:
        return []

    def contract_awards(self, tricks_won: tuple[int, int], contract: Contract | None) -> list[Award]:
        return []

    def pique_threshold(self, contract: Contract | None) -> int:
        return 1000

    def may_pique(self, seat: int, elder: int, contract: Contract | None) -> bool:
        return False


def holder_tricks(hands: tuple[int, int], holder: int, minus: bool) -> int:
    """The tricks the holder of a contract wins (she leads, as elder) when both play it
    perfectly: to win as many as she can in a plus contract, to lose as many in a minus one.

    >>> from piquet.engine.cards import Card, CardSet
    >>> top = CardSet.parse("AS KS QS JS AH KH QH JH AD KD QD JD").mask
    >>> low = CardSet.parse("7S 8S 9S TS 7H 8H 9H TH 7D 8D 9D TD").mask
    >>> holder_tricks((top, low), 0, False), holder_tricks((top, low), 1, True)
    (12, 0)
    """
    contract = Contract(holder, 7, minus)
    position = PlayPosition(hands, holder, holder, contract=contract, pique_done=True)
    value = solve(position, _TricksOnly(), all_best=False).value
    return (12 - value) // 2 if minus else (12 + value) // 2


def contract_points(rules: Rules, contract: Contract, tricks: int) -> tuple[int, int]:
    """What the holder and her opponent score in the play of ``contract`` when she wins ``tricks``
    tricks: a point a trick (won in a plus contract, lost in a minus one), the cards or capot,
    and the contract's over- or undertricks and bonus.

    >>> from piquet.engine.variants import make_rules
    >>> contract_points(make_rules("auction"), Contract(0, 8, False), 9)   # 9-3, cards, one over
    (29, 3)
    >>> contract_points(make_rules("auction"), Contract(0, 8, True, 1), 5)  # 7 lost, cards, one under
    (17, 25)
    """
    holder = contract.holder
    won = [0, 0]
    won[holder], won[1 - holder] = tricks, 12 - tricks
    points = [0, 0]
    for seat in (0, 1):
        points[seat] += won[1 - seat] if contract.minus else won[seat]
    pair = (won[0], won[1])
    for who, amount, _ in (*rules.cards_awards(pair, contract), *rules.contract_awards(pair, contract)):
        points[who] += amount
    return points[holder], points[1 - holder]


class _Deal:
    """One sampled deal, and what each contract's exchange, declarations and play give in it."""

    def __init__(self, view: PlayerView, world: World, rules: Rules) -> None:
        seat, opponent = view.seat, view.opponent
        assert seat is not None and opponent is not None and view.dealer is not None
        hands = [CardSet(), CardSet()]
        hands[seat], hands[opponent] = view.hand, world.opponent_hand
        self.seat = seat
        self.rules = rules
        self.deal = Deal(view.dealer, (hands[0], hands[1]), world.talon)
        self.view = view
        self.weight = world.weight
        self._shapes: dict[tuple[int, bool], tuple[int, int, list[float]]] = {}
        self._declared: dict[tuple[int, bool], dict[ScoreCategory, int]] = {}

    def partie(self, calls: Sequence[Bid]) -> Partie:
        partie = _dealt(self.view, self.deal)
        for call in calls:
            partie.push(call)
        return partie

    def shape(self, holder: int, minus: bool) -> tuple[int, int, list[float]]:
        """For a contract of this holder and sign: the declarations' points of seat 0 and seat 1
        (as the books exchange and declare), and the chances of the holder winning 0 to 12 tricks."""
        key = (holder, minus)
        found = self._shapes.get(key)
        if found is not None:
            return found
        first = 1 - self.deal.player
        calls = [Bid(first, "pass")] if holder != first else []
        calls += [Bid(holder, "7-" if minus else "7+"), Bid(1 - holder, "pass")]
        partie = self.partie(calls)
        books = SimpleAgent(random.Random(0))
        while partie.phase is not Phase.PLAY:
            who = partie.to_act
            assert who is not None
            partie.push(books.choose(partie.view(who), partie.legal_actions(who)))
        view = partie.view(holder)
        # What elder's first lead reckons counts too, as the engine will score it: younger's declarations
        # (view.unreckoned), then the repique or pique the hand decides in order (a plus contract's 29).
        points = [0, 0]
        by_category: dict[ScoreCategory, int] = {}
        for event in (*view.events, *reckoning_at_first_lead(view)):
            points[event.player] += event.points
            by_category[event.category] = by_category.get(event.category, 0) + (
                event.points if event.player == self.seat else -event.points)
        self._declared[key] = by_category
        tricks = estimate_tricks(partie.hand(holder).mask, partie.hand(1 - holder).mask, minus)
        found = self._shapes[key] = (points[0], points[1], _spread(tricks, TRICK_SPREAD[minus]))
        return found

    def declared(self, contract: Contract) -> dict[ScoreCategory, int]:
        """What the declarations (and a carte blanche, a repique or a pique the hand decides) bring this player in
        ``contract``, less what they bring her, by category: the declared part of :meth:`worth`."""
        self.shape(contract.holder, contract.minus)
        return self._declared[contract.holder, contract.minus]

    def worth(self, contract: Contract | None) -> float:
        """This player's points less hers when the deal is played in ``contract`` (``None``:
        annulled), on average over the tricks the holder may win."""
        if contract is None:
            return 0.0
        first, second, chances = self.shape(contract.holder, contract.minus)
        declared = first - second if self.seat == 0 else second - first
        sign = 1 if contract.holder == self.seat else -1
        play = 0.0
        for tricks, chance in enumerate(chances):
            if chance > 1e-4:
                holder_points, other_points = contract_points(self.rules, contract, tricks)
                play += chance * (holder_points - other_points)
        return declared + sign * play

    def value(self, calls: Sequence[Bid], turns: int = 1) -> float:
        """This player's worth of the auction after ``calls``: she answers as the books do;
        when the auction comes back to this player it makes the best of its candidate calls
        knowing her hand, ``turns`` more times, then passes."""
        return self.outcome(calls, turns)[0]

    def outcome(self, calls: Sequence[Bid], turns: int = 1) -> tuple[float, Contract | None]:
        """:meth:`value`, and the contract the auction ends in on that line (``None``: both passed)."""
        partie = self.partie(calls)
        while partie.phase is Phase.BID:
            who = partie.to_act
            assert who is not None
            view = partie.view(who)
            legal = partie.legal_actions(who)
            if who == self.seat:
                if turns <= 0:
                    partie.push(Bid(who, "pass"))
                    continue
                done = list(view.bids)
                return max((self.outcome([*done, call], turns - 1) for call in _candidates(legal, 1)),
                           key=lambda found: found[0])
            partie.push(choose_bid(view, legal))
        return self.worth(partie.contract), partie.contract

    def likelihood(self, calls: Sequence[Bid]) -> float:
        """How well the books in her seat explain her calls so far in this deal."""
        return _explains(self.partie(()), self.seat, calls)


def _explains(partie: Partie, seat: int, calls: Sequence[Bid]) -> float:
    """How well the books' bidding (:func:`~piquet.ai.books.choose_bid`) in the seat other than
    ``seat`` explains its calls among ``calls``, made from the deal ``partie`` has just dealt:
    :data:`MISMATCH_WEIGHT` for each call the books would not make. The partie is played on."""
    weight = 1.0
    for call in calls:
        if call.player != seat:
            who = call.player
            if choose_bid(partie.view(who), partie.legal_actions(who)) != call:
                weight *= MISMATCH_WEIGHT
        partie.push(call)
    return weight


def auction_weight(view: PlayerView, dealt: CardSet, talon: Sequence[Card]) -> float:
    """After the auction, how well the books' bidding in the opponent's seat explains her calls
    had she been dealt ``dealt`` with ``talon`` left over (:data:`MISMATCH_WEIGHT` for each call
    the books would not make): the weight of a sampled deal at the exchange."""
    seat, opponent = view.seat, view.opponent
    assert seat is not None and opponent is not None and view.dealer is not None
    hands = [CardSet(), CardSet()]
    hands[seat], hands[opponent] = view.dealt, dealt
    return _explains(_dealt(view, Deal(view.dealer, (hands[0], hands[1]), tuple(talon))), seat, view.bids)


def _dealt(view: PlayerView, deal: Deal) -> Partie:
    """A partie of the view's variant and options that has just dealt ``deal``."""
    partie = Partie(("A", "B"), view.variant, view.options, first_dealer=deal.player)
    partie.push(deal)
    return partie


def _candidates(legal: LegalActions, above: int = 3) -> list[Bid]:
    """The calls worth trying: pass, double and redouble, and of the bids, the lowest of each
    sign and ``above - 1`` above it (a higher bid scores no more when made; it only shuts her out)."""
    bids = [a for a in legal if isinstance(a, Bid)]
    out = [b for b in bids if b.tricks is None]
    for minus in (False, True):
        numbered = sorted((b for b in bids if b.tricks is not None and b.minus == minus), key=lambda b: b.tricks or 0)
        out += numbered[:above]
    return out


def choose_call(view: PlayerView, legal: LegalActions, rng: random.Random, worlds: int,
                deadline: Deadline | None = None) -> Bid | None:
    """The call with the best average worth over ``worlds`` sampled deals, or ``None`` where
    this method does not apply (not an Auction bid, or nothing to choose); over fewer where the
    ``deadline``'s wall-clock cap comes first (``None`` where it comes before the first)."""
    seat = view.seat
    if seat is None or view.phase is not Phase.BID or not view.rules.uses_bidding or view.dealer is None:
        return None
    options = _candidates(legal)
    if len(options) < 2:
        return None
    rules = view.rules
    sampled = Inference(view).sample(rng, worlds, deadline=deadline)
    if not sampled:
        return None
    calls = list(view.bids)
    totals = [0.0] * len(options)
    for k, world in enumerate(sampled):
        if deadline is not None and deadline.overdue():  # a deal is some milliseconds of work
            if not k:
                return None
            break
        deal = _Deal(view, world, rules)
        weight = deal.weight * deal.likelihood(calls)
        for i, option in enumerate(options):
            totals[i] += weight * deal.value([*calls, option])
    best = max(range(len(options)), key=lambda i: totals[i])
    return options[best]


# ---------------------------------------------------------------------------- the exchanges
def contract_discards(view: PlayerView, limit: int) -> list[CardSet]:
    """The discards worth trying for either player in a contract: in a plus contract those of
    the Rubicon exchange (:func:`piquet.ai.exchange.candidate_discards`); in a minus contract, for
    each number of cards the player may take, the books' high cards
    (:func:`piquet.ai.books.minus_discards`) and the other choices among the two next most
    dangerous, the higher first."""
    contract = view.contract
    assert contract is not None and view.exchange_range is not None
    if not contract.minus:
        return candidate_discards(view, limit)
    lo, hi = view.exchange_range
    hand = view.hand
    counts = range(lo, hi + 1)
    room = max(1, limit // len(counts))
    out: list[CardSet] = []
    for n in counts:
        first = minus_discards(hand, n, n)
        pool = minus_discards(hand, min(len(hand), n + 2), n + 2)
        others = sorted((CardSet(c) for c in _subsets(sorted(pool), n)), key=lambda c: -sum(x.rank for x in c))
        added = 0
        for discard in [first, *others]:
            if added >= room:
                break
            if discard not in out:
                out.append(discard)
                added += 1
    return out[:limit]


def _answer(opponent: int, rest: Sequence[Card], minus: bool) -> int:
    """Her hand after her exchange as the books make it, the cards the holder left before her."""
    if not minus:
        return younger_takes(opponent, rest)
    return drawn(opponent, minus_discards(CardSet(opponent), 0, len(rest)), rest)


def _holder_discard(dealt: CardSet, taken: int, minus: bool) -> CardSet:
    """The holder's discard of ``taken`` cards as the books make it."""
    return minus_discards(dealt, taken, taken) if minus else discard_choice(dealt, taken)


def contract_worth(rules: Rules, contract: Contract, before: tuple[int, int] = (0, 0)) -> Callable[[int, int], float]:
    """The holder's points less her opponent's in a deal of ``contract`` after the exchange, by
    their hands (masks): the declarations as the contract scores them, with the repique or pique the
    hands decide in order (:func:`piquet.ai.exchange.contract_declarations`), the tricks by
    :func:`estimate_tricks` spread by its error, and :func:`contract_points`; with ``before``, the holder's
    and her opponent's points already scored for a carte blanche, counted (not toward a repique or pique).

    >>> from piquet.engine.variants import make_rules
    >>> worth = contract_worth(make_rules("auction"), Contract(0, 8, False))
    >>> top = CardSet.parse("AS KS QS JS TS AH KH QH AD KD AC KC").mask
    >>> low = CardSet.parse("9S 8S 7S JH TH 9H QD JD TD QC JC TC").mask
    >>> worth(top, low) > 100 > -100 > worth(low, top)
    True
    """
    minus = contract.minus
    sigma = TRICK_SPREAD[minus]
    net = [a - b for a, b in (contract_points(rules, contract, k) for k in range(13))]

    def worth(holder: int, other: int) -> float:
        a, b = contract_declarations(holder, other, rules, contract)
        a, b = a + before[0], b + before[1]
        chances = _spread(estimate_tricks(holder, other, minus), sigma)
        return a - b + sum(p * v for p, v in zip(chances, net, strict=True))

    return worth


def choose_contract_exchange(view: PlayerView, rng: random.Random, worlds: int,
                             candidates: int, deadline: Deadline | None = None) -> Exchange | None:
    """The exchange of either player in an Auction Piquet contract: the discard with the best
    average worth over ``worlds`` sampled deals, among ``candidates`` likely ones
    (:func:`contract_discards`), each deal weighted by how well the books' bidding explains the
    opponent's calls (:func:`auction_weight`). ``None`` where this does not apply (not Auction
    Piquet, not this player's exchange, a carte blanche shown, or nothing to choose).

    The holder, who exchanges first, draws the opponent's hand and the talon from the view
    (:mod:`piquet.ai.inference`), the opponent then exchanging as the books do. The opponent draws
    the holder's twelve cards and the talon, the holder having thrown what the books throw for
    the number of cards taken (:func:`piquet.ai.exchange.worlds_after_elder`). ``deadline``: as
    :func:`piquet.ai.exchange.best_discard` takes it."""
    seat, contract = view.seat, view.contract
    if (seat is None or contract is None or not view.rules.uses_bidding or view.phase is not Phase.EXCHANGE
            or view.exchange_range is None or any(view.carte_blanche) or view.will_exchange is not None):
        return None
    options = contract_discards(view, candidates)
    if len(options) < 2:
        return None
    minus = contract.minus
    worth = contract_worth(view.rules, contract)
    hand = view.hand.mask
    if seat == contract.holder:
        sampled = []
        for k, w in enumerate(Inference(view).sample(rng, worlds, deadline=deadline)):
            if deadline is not None and not k % CHECK_EVERY and deadline.overdue():
                break
            sampled.append(replace(w, weight=w.weight * auction_weight(view, w.opponent_hand, w.talon)))
        if not sampled:
            return None
        best = best_discard(hand, options, sampled, lambda hers, rest: _answer(hers, rest, minus), worth, deadline)
        return Exchange(seat, best)
    found = worlds_after_elder(view, rng, worlds, lambda dealt, taken: _holder_discard(dealt, taken, minus),
                               lambda dealt, talon: auction_weight(view, dealt, talon), deadline)
    if not found:
        return None
    best = best_discard(hand, options, found, lambda his, _rest: his, lambda mine, his: -worth(his, mine), deadline)
    return Exchange(seat, best)
