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
import math
import random
from collections.abc import Callable, Sequence
from itertools import combinations as _subsets
from typing import Final

from piquet.ai.books import discard_choice, keep_values
from piquet.ai.budget import Deadline
from piquet.ai.inference import Inference, World
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
    "worlds_after_elder",
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


@functools.lru_cache(maxsize=32)
def _point_values(rules: Rules) -> tuple[int, ...]:
    """What a point of one suit scores under ``rules``, by the suit's 8-bit rank mask."""
    return tuple(rules.combination_points(Category.POINT, CardSet(byte)) if byte else 0 for byte in range(256))


def _summary(mask: int, minimum_point: int, point_values: tuple[int, ...]) -> tuple[int, int, int, int, int, int]:
    """A hand's declarations: (point key, point value, sequence key, sequences value, set key, sets value)."""
    point_key = point_value = seq_key = seq_value = set_key = sets_value = 0
    for s in range(4):
        byte = mask >> (8 * s) & 0xFF
        n = byte.bit_count()
        if n >= minimum_point:
            k = n * 128 + SUIT_PIPS[byte]
            if k > point_key:
                point_key = k
                point_value = point_values[byte]
        sk, sv = _SEQUENCE_TABLE[byte]
        if sk > seq_key:
            seq_key = sk
        seq_value += sv
    for r in SET_RANKS:
        n = (mask & _RANK_MASKS[r]).bit_count()
        if n >= 3:
            set_key = max(set_key, n * 8 + r)
            sets_value += _SET_VALUE[n]
    return point_key, point_value, seq_key, seq_value, set_key, sets_value


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
    if rules is None:
        rules = _RUBICON
    point_values = _point_values(rules)
    e = _summary(elder, rules.minimum_point, point_values)
    y = _summary(younger, rules.minimum_point, point_values)
    a = b = 0
    repique = False
    threshold = rules.repique_threshold(contract)
    # Whether the better combination scores for its holder's opponent (an Auction minus contract).
    swapped = rules.combination_scorer(0, contract) != 0
    for i in (0, 2, 4):
        if e[i] > y[i]:
            if swapped:
                b += e[i + 1]
            else:
                a += e[i + 1]
        elif y[i] > e[i]:
            if swapped:
                a += y[i + 1]
            else:
                b += y[i + 1]
        if not repique:
            if a >= threshold and b == 0:
                a += rules.repique_points
                repique = True
            elif b >= threshold and a == 0:
                b += rules.repique_points
                repique = True
    return a, b


def declarations_by_category(elder: int, younger: int, rules: Rules | None = None, contract: Contract | None = None,
                             before: tuple[int, int] = (0, 0)) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`declarations` broken down: what elder and what younger score for the point, the
    sequences, the sets and the repique, in that order, reckoned as :func:`declarations` reckons
    them; ``before`` (elder's and younger's points already scored: a carte blanche) counts toward
    the repique and bars the opponent's. Without ``before``, each side's parts sum to
    :func:`declarations`'s.

    >>> from piquet.engine.cards import CardSet
    >>> declarations_by_category(CardSet.parse("AS KS QS JS TS AH AD AC 7H 8H 7D 7C").mask,
    ...                          CardSet.parse("9S 8S 7S KH QH JH KD QD JD KC QC JC").mask)
    ((5, 15, 14, 60), (0, 0, 0, 0))
    """
    if rules is None:
        rules = _RUBICON
    point_values = _point_values(rules)
    e = _summary(elder, rules.minimum_point, point_values)
    y = _summary(younger, rules.minimum_point, point_values)
    mine, hers = [0, 0, 0, 0], [0, 0, 0, 0]
    a, b = before
    repique = False
    threshold = rules.repique_threshold(contract)
    swapped = rules.combination_scorer(0, contract) != 0
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
                a += rules.repique_points
                mine[3] = rules.repique_points
                repique = True
            elif b >= threshold and a == 0:
                b += rules.repique_points
                hers[3] = rules.repique_points
                repique = True
    return tuple(mine), tuple(hers)


_IN_HAND_CATEGORIES: Final = (ScoreCategory.POINT, ScoreCategory.SEQUENCES, ScoreCategory.SETS)


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
    point_values = _point_values(rules)
    e = _summary(elder, rules.minimum_point, point_values)
    y = _summary(younger, rules.minimum_point, point_values)
    swapped = rules.combination_scorer(0, contract) != 0
    events = [Points(seat, points, ScoreCategory.CARTE_BLANCHE) for seat, points in enumerate(before) if points]
    for category, i in zip(_IN_HAND_CATEGORIES, (0, 2, 4), strict=True):
        if e[i] == y[i]:
            continue
        better, points = (0, e[i + 1]) if e[i] > y[i] else (1, y[i + 1])
        if points:
            events.append(Points(1 - better if swapped else better, points, category))
    return decided_in_hand(events, rules, contract, 0)


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
    for s in range(4):
        be = elder >> (8 * s) & 0xFF
        by = younger >> (8 * s) & 0xFF
        sure_e += (be >> by.bit_length()).bit_count()
        sure_y += (by >> be.bit_length()).bit_count()
        d = be.bit_count() - by.bit_count()
        if d > 0:
            long_e += d
        else:
            long_y -= d
        void_e += not be
        void_y += not by
    out = [1, sure_e, sure_y, long_e, long_y, void_e, void_y]
    out += [(elder & _RANK_MASKS[r]).bit_count() for r in range(3, 8)]
    out += [(younger & _RANK_MASKS[r]).bit_count() for r in range(3, 8)]
    return out


def play_estimate(elder: int, younger: int) -> float:
    """Elder's points less younger's in the card play, estimated (see :data:`PLAY_WEIGHTS`)."""
    return sum(w * f for w, f in zip(PLAY_WEIGHTS, play_features(elder, younger), strict=True))


def sure_leads(elder: int, younger: int) -> int:
    """Elder's cards that no card of younger's can beat."""
    return sum(((elder >> (8 * s) & 0xFF) >> (younger >> (8 * s) & 0xFF).bit_length()).bit_count() for s in range(4))


def elder_pique(a: int, b: int, elder: int, younger: int, rules: Rules | None = None,
                contract: Contract | None = None) -> int:
    """Elder's points in hand ``a`` with his pique added when his declarations and the leads he is
    sure of reach thirty before younger scores (Law 69); younger's ``b``. With ``b`` nothing, ``a``
    reaches the repique's threshold only with a repique, and then there is no pique."""
    if rules is None:
        rules = _RUBICON
    if b or a >= rules.repique_threshold(contract) or not rules.may_pique(0, 0, contract):
        return a
    if a + sure_leads(elder, younger) + 1 >= rules.pique_threshold(contract):
        return a + rules.pique_points
    return a


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
    a, b = declarations(elder, younger, rules)
    a = elder_pique(a, b, elder, younger, rules)
    mine, hers = worth
    return mine * a + hers * b + (mine - hers) * play_estimate(elder, younger) / 2


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


def _younger_takes(hand: int, rest: Sequence[Card]) -> int:
    """Younger's hand after she takes every card elder left, throwing what the books throw
    (:func:`~piquet.ai.books.discard_choice`)."""
    if not rest:
        return hand
    return drawn(hand, discard_choice(CardSet(hand), len(rest), True), rest)


def worlds_after_elder(view: PlayerView, rng: random.Random, count: int,
                       discard: Callable[[CardSet, int], CardSet] | None = None,
                       weigh: Callable[[CardSet, Sequence[Card]], float] | None = None) -> list[World] | None:
    """For younger at her exchange, ``count`` deals drawn as the books' elder makes them: his
    twelve cards and the talon dealt at random from the cards she cannot see, and his discard
    his least useful cards (:func:`~piquet.ai.books.discard_choice`) of the number he took, or
    ``discard(his twelve cards, the number)``. ``weigh(his twelve cards, the talon)``, if given,
    is each deal's weight (how well it explains what he has said). ``None`` if the view holds more
    than the exchange count (cards shown or seen), which this does not model.
    """
    seat = view.seat
    if seat is None or seat == view.elder or view.phase is not Phase.EXCHANGE:
        return None
    taken = view.exchanged[view.elder]
    known = view.known_cards()
    if taken is None or len(known) != 12:
        return None
    unseen = list(CardSet(FULL_PACK & ~known.mask))
    out = []
    for _ in range(count):
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
    spends the worlds on the discards still in contention. A ``deadline`` spent stops the rounds;
    the discards are then judged on the worlds tried. Without a deadline, or with one of no
    budget, every discard is tried on every world (nothing dropped)."""
    racing = deadline is not None and deadline.seconds > 0
    count = len(options)
    alive = list(range(count))
    totals = [0.0] * count
    scores: list[list[float]] = [[] for _ in range(count)]
    weights: list[float] = []
    start, size = 0, ROUND_WORLDS
    while start < len(worlds) and len(alive) > 1:
        if start and deadline is not None and deadline.spent():
            break
        for world in worlds[start:start + size]:
            opponent = world.opponent_hand.mask
            theirs: dict[int, int] = {}
            weights.append(world.weight)
            for i in alive:
                discard = options[i]
                n = len(discard)
                if n not in theirs:
                    theirs[n] = answer(opponent, world.talon[n:])
                value = score(drawn(hand, discard, world.talon), theirs[n])
                scores[i].append(value)
                totals[i] += world.weight * value
        start += size
        size = max(ROUND_WORLDS, start)
        if racing and start < len(worlds):
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
    nothing to choose) and the caller should use its own. ``deadline``: :func:`best_discard`."""
    seat = view.seat
    if (seat is None or view.exchange_range is None or rules.uses_bidding
            or any(view.carte_blanche) or view.will_exchange is not None):
        return None
    options = candidate_discards(view, candidates)
    if len(options) < 2:
        return None
    elder = seat == view.elder
    sampled = None if elder else worlds_after_elder(view, rng, worlds)
    if sampled is None:
        sampled = Inference(view).sample(rng, worlds)
    if not sampled:
        return None
    hand = view.hand.mask
    if elder:
        best = best_discard(hand, options, sampled, _younger_takes,
                            lambda mine, hers: estimate(mine, hers, rules, worth), deadline)
    else:  # elder has exchanged already: his hand stands
        his_worth = (worth[1], worth[0])  # her worth of his points and hers, as elder's are put
        best = best_discard(hand, options, sampled, lambda his, _rest: his,
                            lambda mine, his: estimate(his, mine, rules, his_worth), deadline)
    return Exchange(seat, best)
