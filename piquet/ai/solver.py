"""An exact solver for the card play, with every card known.

Given both hands and the state of the play, :func:`solve` returns the best
score difference the player to act can secure for the rest of the deal under
the variant's real scoring (points for leads and tricks, the last trick, the
cards and capot, a pique while one is still possible, an Auction contract),
and the moves that secure it.

The search is an alpha-beta negamax over tricks with a transposition table;
hands are 32-bit masks; cards that touch in one hand (no card of the
opponent's, nor the card led, between them, and scoring alike) are one move.
Where every card scores alike, the table's keys are by relative rank with the
suits in a canonical order; where no pique is possible, a trick's worth comes
from a flat table and the leader's quick tricks bound the value.

The search runs in the compiled kernel (``piquet/ai/_kernel.c``, built where
the package was installed with a C compiler) or, without it or with
``PIQUET_PURE_SOLVER=1``, in pure Python: the same search, the same values and
best cards (:data:`SOLVER` says which). What the search values, a position and the variant's scoring as
tables, is the model of :mod:`piquet.ai.play_model` (made from the engine's reckoning); its names are
re-exported here.

>>> from piquet.engine.cards import CardSet, Card
>>> from piquet.engine.variants import make_rules
>>> pos = PlayPosition(hands=(CardSet.parse("AS KS").mask, CardSet.parse("QS 7H").mask),
...                    to_act=0, elder=0, tricks_won=(5, 5), scores=(20, 15))
>>> result = solve(pos, make_rules("rubicon"))
>>> result.value, [str(c) for c in result.best]
(13, ['AS', 'KS'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from piquet.ai.kernel import KERNEL as _kernel  # the compiled search, or None: the pure one below
from piquet.ai.kernel import SOLVER
from piquet.ai.play_model import (
    Model,
    PlayPosition,
    model_for,
    pique_possible,
    play,
    position_from_partie,
    position_from_view,
    step,
)
from piquet.engine.cards import CARDS, Card
from piquet.engine.variants import Rules

__all__ = ["SOLVER", "PlayPosition", "Solution", "pique_possible", "play", "position_from_partie",
           "position_from_view", "solve"]


_SUIT_MASKS = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)
_INF = 1 << 20


@dataclass
class Solution:
    """``value``: the best score difference (the player to act's points less the
    opponent's) from here to the end of the deal; ``best``: every card that secures it."""

    value: int
    best: list[Card]
    values: dict[Card, int] = field(default_factory=dict)
    nodes: int = 0


def _runs(mine: int, barrier: int, split: int) -> tuple[int, ...]:
    """The highest rank of each run of touching ranks of ``mine`` (8-bit masks): runs are
    broken by a rank of ``barrier`` and between ranks ``r`` and ``r-1`` where ``split`` has bit ``r``."""
    reps = []
    previous = -1
    for rank in range(7, -1, -1):
        if barrier >> rank & 1:
            previous = -1
            continue
        if not mine >> rank & 1:
            continue
        between = ((1 << (previous + 1)) - 1) & ~((1 << (rank + 1)) - 1)
        if previous >= 0 and not split & between:
            previous = rank
            continue  # touches the card above and scores alike: the same move
        reps.append(rank)
        previous = rank
    return tuple(reps)


def _groups(hand: int, other: int, lead: int | None, model: Model) -> list[int]:
    """One representative per set of equivalent cards in ``hand`` (highest of each run)."""
    reps: list[int] = []
    cache = model.runs
    for suit in range(4):
        shift = 8 * suit
        mine = (hand >> shift) & 0xFF
        if not mine:
            continue
        barrier = (other >> shift) & 0xFF
        if lead is not None and lead >> 3 == suit:
            barrier |= 1 << (lead & 7)
        key = (mine << 8 | barrier) << 2 | suit
        found = cache.get(key)
        if found is None:
            found = cache[key] = tuple(shift + r for r in _runs(mine, barrier, model.split[suit]))
        reps.extend(found)
    return reps


def _lead_order(model: Model, mine: int, theirs: int) -> list[int]:
    """Sure winners first (nothing of the opponent's above them), then the rest."""
    sure: list[int] = []
    rest: list[int] = []
    tables = model.lead_suits
    for suit in range(4):
        shift = 8 * suit
        hand = mine >> shift & 0xFF
        if not hand:
            continue
        key = hand << 8 | (theirs >> shift & 0xFF)
        found = tables[suit].get(key)
        if found is None:
            reps = _groups(hand << shift, theirs & _SUIT_MASKS[suit], None, model)
            found = tables[suit][key] = (tuple(i for i in reps if not theirs & _ABOVE[i]),
                                         tuple(i for i in reps if theirs & _ABOVE[i]))
        sure.extend(found[0])
        rest.extend(found[1])
    return sure + rest


def _follow_order(model: Model, cards: int, leader_left: int, lead: int) -> list[int] | tuple[int, ...]:
    """The cheapest winner first, then the losers from the lowest, then the other winners."""
    suit = lead >> 3
    if cards & _SUIT_MASKS[suit]:
        # Following suit: the order depends on that suit alone.
        shift = 8 * suit
        key = ((cards >> shift & 0xFF) << 8 | (leader_left >> shift & 0xFF)) << 3 | (lead & 7)
        found = model.follow_suits[suit].get(key)
        if found is None:
            found = model.follow_suits[suit][key] = tuple(_follow_list(model, cards, leader_left, lead))
        return found
    return _follow_list(model, cards, leader_left, lead)


def _follow_list(model: Model, cards: int, leader_left: int, lead: int) -> list[int]:
    reps = _groups(cards, leader_left, lead, model)
    above = _ABOVE[lead]
    winners = [i for i in reps if above >> i & 1]
    losers = [i for i in reps if not above >> i & 1]
    losers.sort(key=_rank_of)
    return [winners[-1], *losers, *winners[:-1]] if winners else losers


#: How often the pure-Python search calls its ``check`` (positions searched; the kernel's is 4096, its
#: positions some fifty times quicker).
_CHECK_EVERY = 128


class _Search:
    """The pure-Python search (the compiled kernel's fallback and oracle). ``check``, if given, is called
    every :data:`_CHECK_EVERY` positions; an exception it raises stops the search."""

    def __init__(self, model: Model, check: Callable[[], object] | None = None) -> None:
        self.model = model
        self.check = check
        self.table: dict[tuple[int | tuple[int, int] | None, ...], tuple[int, int]] = {}
        self.nodes = 0
        self.canonical = model.canonical
        # Move lists, kept for this solve only.
        self.leads: dict[int, list[int]] = {}
        self.discards: dict[int, list[int]] = {}

    def value(self, h0: int, h1: int, leader: int, won0: int, pk: tuple[int, int] | None,
              alpha: int, beta: int, only: int = -1) -> int:
        """The best net score for ``leader`` (his points less the other's) from the start of a trick;
        with ``only``, of leading that card (then the table is neither read nor written)."""
        m = self.model
        if leader == 0:
            mine, theirs = h0, h1
        else:
            mine, theirs = h1, h0
        if not mine & (mine - 1):
            if not mine:
                net0 = m.cards_net[won0]
                return net0 if leader == 0 else -net0
            # The last trick: both cards are forced.
            lead = mine.bit_length() - 1
            follow = theirs.bit_length() - 1
            if pk is None:
                found = m.flat[leader][True].get(lead << 5 | follow) or m.flat_trick(leader, lead, follow, True)
                winner, gain = found
            else:
                winner, steps = m.trick(leader, lead, follow, True)
                won = won0 + 1 if winner == 0 else 12 - won0  # the last trick: 11 played before it
                p0, p1, _ = m.score_trick(pk, steps, m.seventh(winner, won))
                u = m.utility[0] * p0 + m.utility[1] * p1
                gain = u if leader == 0 else -u
            net0 = m.cards_net[won0 + (winner == 0)]
            return gain + (net0 if leader == 0 else -net0)
        if pk is None and only < 0:
            # Quick tricks: the leader's cards above all of the opponent's in their suit can be
            # cashed one after another, so he wins at least that many tricks; then each trick
            # is worth at least (at most) the least (most) any trick is worth, and the cards
            # at least (at most) the least (most) the tricks he may end with bring.
            qt = _QUICK
            q = (qt[(mine & 0xFF) << 8 | (theirs & 0xFF)] + qt[(mine & 0xFF00) | (theirs >> 8 & 0xFF)]
                 + qt[(mine >> 8 & 0xFF00) | (theirs >> 16 & 0xFF)] + qt[(mine >> 16 & 0xFF00) | (theirs >> 24)])
            n = mine.bit_count()
            lo_win, lo_any, hi_any, cmin, cmax = m.bounds()[leader]
            mine_won = won0 if leader == 0 else 12 - n - won0
            if q == n:
                lower = (n - 1) * lo_win + m.lo_win_last[leader] + cmin[mine_won + n][mine_won + n]
            else:
                lower = q * lo_win + (n - q - 1) * lo_any + m.lo_any_last[leader] + cmin[mine_won + q][mine_won + n]
            if lower >= beta:
                return lower
            upper = (n - 1) * hi_any + m.hi_any_last[leader] + cmax[mine_won][mine_won + n]
            if upper <= alpha:
                return upper
        entry = None
        if only >= 0:
            moves: list[int] | tuple[int, ...] = (only,)
        else:
            if self.canonical:
                # By relative rank, the suits in a canonical order (each suit: its remaining cards
                # from the lowest, a bit for each of seat 0's, led by a bit marking the count).
                both = h0 | h1
                code = _SUIT_CODE
                key: tuple[int | tuple[int, int] | None, ...] = (
                    *sorted((code[(both & 0xFF) << 8 | (h0 & 0xFF)], code[(both & 0xFF00) | (h0 >> 8 & 0xFF)],
                             code[(both >> 8 & 0xFF00) | (h0 >> 16 & 0xFF)],
                             code[(both >> 16 & 0xFF00) | (h0 >> 24)])), leader, won0, pk)
            else:
                key = (h0, h1, leader, won0, pk)
            entry = self.table.get(key)
            if entry is not None:
                lo, hi = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            self.nodes += 1
            if self.check is not None and not self.nodes % _CHECK_EVERY:
                self.check()
            leads = self.leads.get(mine << 32 | theirs)
            if leads is None:
                leads = self.leads[mine << 32 | theirs] = _lead_order(m, mine, theirs)
            moves = leads
        a0 = alpha
        best = -_INF
        last_trick = False  # two cards or more each: a lone card was valued above
        flat = m.flat[leader][False]
        follow_suits = m.follow_suits
        value = self.value
        for lead in moves:
            # The lead's worth: the opponent answers as well as he can.
            lead_bit = 1 << lead
            left = mine & ~lead_bit
            suit = lead >> 3
            follow_cards = theirs & _SUIT_MASKS[suit]
            follows: list[int] | tuple[int, ...] | None
            if follow_cards:
                shift = 8 * suit
                follows = follow_suits[suit].get(
                    ((follow_cards >> shift) << 8 | (left >> shift & 0xFF)) << 3 | (lead & 7))
                if follows is None:
                    follows = _follow_order(m, follow_cards, left, lead)
            else:
                # A discard: the order depends on neither the lead nor the card led.
                follows = self.discards.get(theirs << 32 | left)
                if follows is None:
                    follows = self.discards[theirs << 32 | left] = _follow_list(m, theirs, left, lead)
            assert follows is not None
            worst = _INF
            for follow in follows:
                if pk is None:
                    npk = None
                    winner, gain = flat.get(lead << 5 | follow) or m.flat_trick(leader, lead, follow, last_trick)
                else:
                    winner, steps = m.trick(leader, lead, follow, last_trick)
                    won = won0 + 1 if winner == 0 else 13 - mine.bit_count() - won0  # 12 - n played before it
                    p0, p1, npk = m.score_trick(pk, steps, m.seventh(winner, won))
                    u = m.utility[0] * p0 + m.utility[1] * p1
                    gain = u if leader == 0 else -u
                gone = ~(lead_bit | 1 << follow)
                # The rest, searched from the next leader's side, turned to this leader's side.
                top = (beta if beta < worst else worst) - gain
                if winner == leader:
                    total = gain + value(h0 & gone, h1 & gone, winner, won0 + (winner == 0), npk, alpha - gain, top)
                else:
                    total = gain - value(h0 & gone, h1 & gone, winner, won0 + (winner == 0), npk, -top,
                                         gain - alpha)
                if total < worst:
                    worst = total
                    if worst <= alpha:
                        break
            if worst > best:
                best = worst
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        if entry is None and only >= 0:
            return best
        lo, hi = (-_INF, _INF) if entry is None else entry
        if best <= a0:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.table[key] = (lo, hi)
        return best

    def lead_value(self, h0: int, h1: int, leader: int, won0: int, pk: tuple[int, int] | None, lead: int,
                   alpha: int, beta: int) -> int:
        """The net score for ``leader`` of leading ``lead``, the opponent answering as well as he can."""
        return self.value(h0, h1, leader, won0, pk, alpha, beta, lead)

    def mtdf(self, h0: int, h1: int, leader: int, won0: int, pk: tuple[int, int] | None, guess: int) -> int:
        """The exact best net score for ``leader`` from the start of a trick (:func:`_mtdf` from ``guess``)."""
        return _mtdf(lambda alpha, beta: self.value(h0, h1, leader, won0, pk, alpha, beta), guess)

    def best_leads(self, h0: int, h1: int, leader: int, won0: int, pk: tuple[int, int] | None, guess: int,
                   all_best: bool) -> tuple[int, tuple[int, ...]]:
        """The exact best net score for ``leader`` from the start of a trick, and the leads that secure it in
        the search's order, each as the mask of the cards it stands for (without ``all_best``, the first)."""
        value = self.mtdf(h0, h1, leader, won0, pk, guess)
        mine, theirs = (h0, h1) if leader == 0 else (h1, h0)
        merged = _expand(mine, theirs, None, self.model)
        leads = []
        for card in _lead_order(self.model, mine, theirs):
            # A null-window test: does this card secure the best value too?
            if self.lead_value(h0, h1, leader, won0, pk, card, value - 1, value) >= value:
                leads.append(sum(1 << same for same in merged[card]))
                if not all_best:
                    break
        return value, tuple(leads)


def _rank_of(i: int) -> int:
    return i & 7


def _suit_codes() -> list[int]:
    """By the ranks of a suit still in play and those of them seat 0 holds (``present << 8 | mine``):
    seat 0's cards among those in play from the lowest, led by a bit marking how many are in play."""
    codes = [0] * 65536
    for present in range(256):
        ranks = [r for r in range(8) if present >> r & 1]
        top = 1 << len(ranks)
        for packed in range(top):
            mine = 0
            for k, r in enumerate(ranks):
                if packed >> k & 1:
                    mine |= 1 << r
            codes[present << 8 | mine] = top | packed
    return codes


_SUIT_CODE = _suit_codes()

#: By the ranks of a suit held by the leader and by the other (``mine << 8 | theirs``): the
#: leader's cards above all of the other's, sure to win one after another.
_QUICK = [(mine & ~((1 << (theirs & 0xFF).bit_length()) - 1)).bit_count() for mine in range(256)
          for theirs in range(256)]

#: The cards above each card in its suit.
#: The cards that beat each card (:meth:`Card.beats`), as masks for the search's bit operations.
_ABOVE = tuple(sum(1 << j for j in range(32) if CARDS[j].beats(CARDS[i])) for i in range(32))


class _ToTarget:
    """The search where the deal may stop at the game's target (Piquet au Cent, option
    ``play_ceases_at_the_target``): what is still needed to reach it changes the value of everything after, so the
    search goes card by card, each scored by the step (:func:`play`), and a position's whole state keys its
    table. Pure Python (the kernel searches by tricks, where the deal is played to its end). ``check``, as for
    :class:`_Search`."""

    def __init__(self, model: Model, check: Callable[[], object] | None = None) -> None:
        self.model = model
        self.check = check
        self.table: dict[PlayPosition, tuple[int, int]] = {}
        self.nodes = 0

    def card_value(self, position: PlayPosition, card: int, alpha: int, beta: int) -> int:
        """The net score for the player to act of playing ``card``, the best play following."""
        me = position.to_act
        after, events = step(self.model, position, CARDS[card])
        utility = self.model.utility
        u = sum(utility[e.player] * e.points for e in events)
        gain = u if me == 0 else -u
        if after.over:
            return gain
        if after.to_act == me:
            return gain + self.value(after, alpha - gain, beta - gain)
        return gain - self.value(after, gain - beta, gain - alpha)

    def value(self, position: PlayPosition, alpha: int, beta: int) -> int:
        """The best net score for the player to act from ``position`` (a bound outside the window)."""
        entry = self.table.get(position)
        if entry is not None:
            lo, hi = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha, beta = max(alpha, lo), min(beta, hi)
        self.nodes += 1
        if self.check is not None and not self.nodes % _CHECK_EVERY:
            self.check()
        m = self.model
        me = position.to_act
        mine, theirs = position.hands[me], position.hands[1 - me]
        moves: list[int] | tuple[int, ...]
        if position.lead is None:
            moves = _lead_order(m, mine, theirs)
        else:
            moves = _follow_order(m, mine & _SUIT_MASKS[position.lead >> 3] or mine, theirs, position.lead)
        a0 = alpha
        best = -_INF
        for card in moves:
            v = self.card_value(position, card, alpha, beta)
            if v > best:
                best = v
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        lo, hi = (-_INF, _INF) if entry is None else entry
        if best <= a0:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.table[position] = (lo, hi)
        return best


class _Searcher(Protocol):
    """What the root of a solve asks of a search, pure or compiled."""

    @property
    def nodes(self) -> int: ...

    def value(self, h0: int, h1: int, leader: int, won0: int, pk: tuple[int, int] | None,
              alpha: int, beta: int) -> int: ...

    def lead_value(self, h0: int, h1: int, leader: int, won0: int, pk: tuple[int, int] | None, lead: int,
                   alpha: int, beta: int) -> int: ...

    def mtdf(self, h0: int, h1: int, leader: int, won0: int, pk: tuple[int, int] | None, guess: int) -> int: ...


def solve(position: PlayPosition, rules: Rules, all_values: bool = False, all_best: bool = True,
          check: Callable[[], object] | None = None) -> Solution:
    """The best score difference for the player to act, and the cards that secure it.

    ``all_best`` (the default) lists every card that secures it, otherwise one;
    ``all_values`` finds the exact value of every card (slower): what an agent
    averaging over possible deals needs. ``check``, if given, is called every few
    thousand positions searched (a few hundred in pure Python), a fraction of a
    millisecond apart; an exception it raises (:meth:`piquet.ai.budget.Deadline.check`)
    stops the search and comes out of this call.
    """
    return _solve(position, rules, all_values, all_best, _kernel is not None, check)


def _solve(position: PlayPosition, rules: Rules, all_values: bool, all_best: bool, compiled: bool,
           check: Callable[[], object] | None = None) -> Solution:
    model = model_for(rules, position.contract, position.elder, position.utility)
    h0, h1 = position.hands
    me = position.to_act
    won0 = position.tricks_won[0]
    pk = model.pique_key(position.scores, position.pique_done)
    cease = position.target is not None and model.may_cease(position)  # a frame less where there is no target
    if position.lead is None and not all_values and not cease:
        # The value by MTD(f), then which leads secure it: all in one call of the search.
        if compiled and _kernel is not None:
            best_value, best, nodes = model.kernel(_kernel).solve(h0, h1, me, won0, pk, 0, all_best, check)
        else:
            pure = _Search(model, check)
            best_value, leads = pure.best_leads(h0, h1, me, won0, pk, 0, all_best)
            cards = 0
            for mask in leads:
                cards |= mask
            best = [CARDS[i] for i in _HIGH_FIRST if cards >> i & 1]
            nodes = pure.nodes
        return Solution(best_value, best, dict.fromkeys(best, best_value), nodes)
    mine, theirs = (h0, h1) if me == 0 else (h1, h0)
    moves: list[int] | tuple[int, ...]
    if position.lead is None:
        moves = _lead_order(model, mine, theirs)
        merged = _expand(mine, theirs, None, model)
    else:
        follow_cards = mine & _SUIT_MASKS[position.lead >> 3] or mine
        moves = _follow_order(model, follow_cards, theirs, position.lead)
        merged = _expand(follow_cards, theirs, position.lead, model)
    search: _Searcher | _ToTarget
    if cease:
        # Where the deal may stop at the game's target, the search by cards, scored by the step.
        search = to_target = _ToTarget(model, check)

        def root(alpha: int, beta: int) -> int:
            return to_target.value(position, alpha, beta)

        def worth(card: int, alpha: int, beta: int) -> int:
            return to_target.card_value(position, card, alpha, beta)
    else:
        search = by_trick = (_kernel.Search(model.kernel(_kernel), check) if compiled and _kernel is not None
                             else _Search(model, check))

        def root(alpha: int, beta: int) -> int:
            return by_trick.value(h0, h1, me, won0, pk, alpha, beta)

        if position.lead is None:
            def worth(card: int, alpha: int, beta: int) -> int:
                return by_trick.lead_value(h0, h1, me, won0, pk, card, alpha, beta)
        else:
            lead = int(position.lead)

            def worth(card: int, alpha: int, beta: int) -> int:
                # The leader's value of this one answer, seen from the follower's side.
                return -_answer(by_trick, model, h0, h1, 1 - me, won0, pk, lead, card, -beta, -alpha)
    values: dict[int, int] = {}
    if all_values:
        for card in moves:
            values[card] = worth(card, -_INF, _INF)
        best_value = max(values.values())
    else:
        if position.lead is None:
            # MTD(f): null-window searches home in on the value, sharing the table (the search to the target).
            best_value = _mtdf(root, 0)
        else:
            best_value = -_INF
            for card in moves:
                v = worth(card, best_value, _INF)
                if v > best_value:
                    best_value = v
        for card in moves:
            # A null-window test: does this card secure the best value too?
            if worth(card, best_value - 1, best_value) >= best_value:
                values[card] = best_value
                if not all_best:
                    break
    out: dict[Card, int] = {}
    for card, v in values.items():
        for same in merged[card]:
            out[CARDS[same]] = v
    best = sorted((c for c, v in out.items() if v == best_value), key=lambda c: (-(c & 7), c >> 3))
    return Solution(best_value, best, out, search.nodes)


#: The cards in the order a solution lists its best: by rank from the ace, then by suit.
_HIGH_FIRST = tuple(sorted(range(32), key=lambda i: (-(i & 7), i >> 3)))


def _mtdf(search: Callable[[int, int], int], guess: int) -> int:
    """The exact value by a sequence of null-window searches (Plaat's MTD(f))."""
    lower, upper = -_INF, _INF
    g = guess
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = search(beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
    return g


def _answer(search: _Searcher, model: Model, h0: int, h1: int, leader: int, won0: int,
            pk: tuple[int, int] | None, lead: int, follow: int, alpha: int, beta: int) -> int:
    """The net score for ``leader`` when the opponent answers his ``lead`` (already out of
    his hand) with ``follow``."""
    gone = ~(1 << lead | 1 << follow)
    n0, n1 = h0 & gone, h1 & gone
    # The lead was scored when it was led: it is in the position's scores already.
    winner, steps = model.trick(leader, lead, follow, not (n0 | n1), lead_scored=True)
    nwon0 = won0 + (winner == 0)
    won = nwon0 if winner == 0 else 12 - n0.bit_count() - nwon0  # the tricks played so far, this one with them
    p0, p1, npk = model.score_trick(pk, steps, model.seventh(winner, won))
    u = model.utility[0] * p0 + model.utility[1] * p1
    gain = u if leader == 0 else -u
    if winner == leader:
        return gain + search.value(n0, n1, winner, nwon0, npk, alpha - gain, beta - gain)
    return gain - search.value(n0, n1, winner, nwon0, npk, gain - beta, gain - alpha)


def _expand(hand: int, other: int, lead: int | None, model: Model) -> dict[int, list[int]]:
    """For each representative, the cards of ``hand`` it stands for."""
    groups: dict[int, list[int]] = {}
    reps = set(_groups(hand, other, lead, model))
    current: int | None = None
    for suit in range(4):
        barrier = (other >> (8 * suit)) & 0xFF
        if lead is not None and lead >> 3 == suit:
            barrier |= 1 << (lead & 7)
        current = None
        for rank in range(7, -1, -1):
            index = 8 * suit + rank
            if barrier >> rank & 1:
                current = None
                continue
            if not hand >> index & 1:
                continue
            if index in reps:
                current = index
                groups[index] = [index]
            elif current is not None:
                groups[current].append(index)
    return groups


