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
best cards (:data:`SOLVER` says which).

>>> from piquet.engine.cards import CardSet, Card
>>> from piquet.engine.variants import make_rules
>>> pos = PlayPosition(hands=(CardSet.parse("AS KS").mask, CardSet.parse("QS 7H").mask),
...                    to_act=0, elder=0, tricks_won=(5, 5), scores=(20, 15))
>>> result = solve(pos, make_rules("rubicon"))
>>> result.value, [str(c) for c in result.best]
(13, ['AS', 'KS'])
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Protocol

from piquet.engine.cards import CARDS, Card, CardSet
from piquet.engine.reckoning import PiqueRule, reckoning_at_first_lead, scoring_for
from piquet.engine.scoring import PlainReason, ScoreCategory, ScoreEvent
from piquet.engine.variants import Contract, Rules
from piquet.engine.view import PlayerView

__all__ = ["SOLVER", "PlayPosition", "Solution", "pique_possible", "play", "position_from_partie",
           "position_from_view", "solve"]


def _load_kernel() -> ModuleType | None:
    """The compiled search, unless ``PIQUET_PURE_SOLVER`` is set or it was not built (no C
    compiler where the package was installed): then the pure-Python search, with the same results."""
    if os.environ.get("PIQUET_PURE_SOLVER", "") not in ("", "0"):
        return None
    try:
        return importlib.import_module("piquet.ai._kernel")
    except ImportError:
        return None


_kernel = _load_kernel()

#: Which search solves: ``"compiled kernel"`` or ``"pure Python"`` (``piquet --version`` says it).
SOLVER = "compiled kernel" if _kernel is not None else "pure Python"

_SUIT_MASKS = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)
_INF = 1 << 20


@dataclass(frozen=True)
class PlayPosition:
    """A moment of the play with every card known.

    ``hands`` are the two players' remaining cards (masks, by seat); ``to_act``
    is the seat to play; ``lead`` the card already led to the current trick
    (``None`` at the start of a trick, when ``to_act`` leads); ``tricks_won``
    and ``scores`` what each seat has so far in this deal (the scores matter
    for a pique that is still possible); ``pique_done`` whether a pique or
    repique has been scored.
    """

    hands: tuple[int, int]
    to_act: int
    elder: int
    tricks_won: tuple[int, int] = (0, 0)
    scores: tuple[int, int] = (0, 0)
    lead: Card | None = None
    pique_done: bool = False
    contract: Contract | None = None
    #: What a point scored by seat 0 and by seat 1 is worth to seat 0 (seat 1 values it the
    #: opposite way): ``(1, -1)``, the score difference, by default; ``(1, 1)`` when seat 0 wants
    #: the sum of both scores (a winner whose opponent stays under the rubicon, Law 73).
    utility: tuple[int, int] = (1, -1)
    #: Piquet au Cent with the option ``play_ceases_at_the_target``: the points of the deal each seat still needs
    #: to reach the game's target, every point counting; the deal ends as soon as one needs none (``None``: it
    #: is played to its end).
    target: tuple[int, int] | None = None

    @property
    def over(self) -> bool:
        """Whether the deal is over: every card played, or the game's target reached (:attr:`target`)."""
        return not (self.hands[0] or self.hands[1]) or (
            self.target is not None and (self.target[0] <= 0 or self.target[1] <= 0))


@dataclass
class Solution:
    """``value``: the best score difference (the player to act's points less the
    opponent's) from here to the end of the deal; ``best``: every card that secures it."""

    value: int
    best: list[Card]
    values: dict[Card, int] = field(default_factory=dict)
    nodes: int = 0


def _points(event: ScoreEvent | None) -> int:
    return 0 if event is None else event.points


class _Model:
    """The variant's scoring in the play, compiled to tables for the search: made from the engine's own
    (:class:`piquet.engine.reckoning.PlayScoring`, the one home of what the play scores and in which order, and its
    :class:`~piquet.engine.reckoning.PiqueRule`), never written again here."""

    def __init__(self, rules: Rules, contract: Contract | None, elder: int,
                 utility: tuple[int, int] = (1, -1)) -> None:
        self.utility = utility
        self.rules = rules
        self.contract = contract
        self.elder = elder
        scoring = self.scoring = scoring_for(rules, contract)
        self.lead_points = [_points(scoring.lead(0, CARDS[i])[1]) for i in range(32)]
        self._tricks: dict[tuple[int, int, int, bool, bool], tuple[int, tuple[tuple[int, int], ...]]] = {}
        self.last = scoring.last_trick
        #: What the cards score when a player wins his seventh trick (option cards_count_toward_pique; 0: at the
        #: end, with capot), which may make a pique.
        self.early = scoring.early_cards
        self.cards_table: dict[tuple[int, int], int] = {}  # seat-0 net points by tricks won
        for a in range(13):
            won = (a, 12 - a)
            net = sum(e.points * utility[e.player] for e in scoring.deal_end(won))
            if self.early and max(won) >= 7:
                net += self.early * utility[0 if a >= 7 else 1]  # scored at the seventh trick
            self.cards_table[won] = net
        #: The same by the tricks seat 0 has won alone.
        self.cards_net = [self.cards_table[(a, 12 - a)] for a in range(13)]
        self.pique: PiqueRule = scoring.pique_rule(elder)
        self.pique_threshold = self.pique.threshold
        self.pique_points = self.pique.points
        self.may_pique = self.pique.may
        # Whether two cards of one suit score alike in the play (for merging touching cards):
        # bit r of split[suit] set when ranks r and r-1 score differently.
        self.score_class = [self._class(i) for i in range(32)]
        self.split = [sum(1 << r for r in range(1, 8)
                          if self.score_class[8 * suit + r] != self.score_class[8 * suit + r - 1])
                      for suit in range(4)]
        self.runs: dict[int, tuple[int, ...]] = {}
        # Move orders by suit (bounded: by the ranks of one suit each): leads, sure and not, by
        # the leader's and the other's ranks; answers in the suit led, by the follower's ranks,
        # the leader's and the rank led.
        self.lead_suits: list[dict[int, tuple[tuple[int, ...], tuple[int, ...]]]] = [{}, {}, {}, {}]
        self.follow_suits: list[dict[int, tuple[int, ...]]] = [{}, {}, {}, {}]
        # Where no pique is possible a trick is its winner and its worth to its leader:
        # flat[leader][last][lead * 32 + follow], filled as the search meets them.
        self.flat: list[list[dict[int, tuple[int, int]]]] = [[{}, {}], [{}, {}]]
        self._kernel: object | None = None
        self._canonical: bool | None = None
        self._bounds: list[tuple[int, int, int, list[list[int]], list[list[int]]]] | None = None
        self.lo_win_last: list[int] = []
        self.lo_any_last: list[int] = []
        self.hi_any_last: list[int] = []
        #: The most points one step of a trick scores (see may_cease), found once.
        self._most: int | None = None

    @property
    def canonical(self) -> bool:
        """Whether every card scores alike (:meth:`uniform`, found once)."""
        if self._canonical is None:
            self._canonical = self.uniform()
        return self._canonical

    def _class(self, i: int) -> tuple[int, ...]:
        card = CARDS[i]
        return (self.lead_points[i], self.rules.lead_points(card, self.contract),
                *(p for _, p, _ in self.rules.trick_awards(0, (card, card), 1, self.contract)))

    def trick(self, leader: int, lead: int, follow: int, last: bool,
              lead_scored: bool = False) -> tuple[int, tuple[tuple[int, int], ...]]:
        """The winner of a trick and its points in the order they are scored: the lead (unless ``lead_scored``
        already), the trick, the last trick (the order matters for a pique); the cards a seventh trick may score are
        the search's to add (:meth:`seventh`)."""
        key = (leader, lead, follow, last, lead_scored)
        cached = self._tricks.get(key)
        if cached is not None:
            return cached
        done = self.scoring.trick(leader, CARDS[lead], CARDS[follow])
        steps = []
        if self.lead_points[lead] and not lead_scored:
            steps.append((leader, self.lead_points[lead]))
        steps += [(e.player, e.points) for e in done.awards]
        steps += [(e.player, e.points) for e in self.scoring.after_trick(done.winner, 12 if last else 0, False)]
        result = (done.winner, tuple(steps))
        self._tricks[key] = result
        return result

    def seventh(self, winner: int, won: int) -> int | None:
        """``winner``, where the trick gives him his seventh (``won``) and the cards, scored then (option
        cards_count_toward_pique), count toward a pique; else ``None``. (Their points are valued with the cards
        at the end, :attr:`cards_net`.)"""
        return winner if self.early and won == 7 else None

    def flat_trick(self, leader: int, lead: int, follow: int, last: bool) -> tuple[int, int]:
        """The winner of a trick and its worth to its leader, where no pique is possible."""
        winner, steps = self.trick(leader, lead, follow, last)
        u = 0
        for who, points in steps:
            u += self.utility[who] * points
        found = self.flat[leader][last][lead << 5 | follow] = (winner, u if leader == 0 else -u)
        return found

    def bounds(self) -> list[tuple[int, int, int, list[list[int]], list[list[int]]]]:
        """For each seat as leader, where no pique is possible: the least a trick he leads and
        wins is worth to him, the least and the most any trick (not the last) is worth to him,
        and the least and most the cards bring him by the range of tricks he may end with
        (``cmin[a][b]``: the least for ``a`` to ``b`` tricks). Also ``lo_win_last``,
        ``lo_any_last`` and ``hi_any_last``, the same for the last trick."""
        if self._bounds is None:
            out = []
            self.lo_win_last, self.lo_any_last, self.hi_any_last = [0, 0], [0, 0], [0, 0]
            for me in (0, 1):
                worth: dict[tuple[bool, bool], list[int]] = {}  # (last, won by me) -> worths to me
                for leader in (0, 1):
                    for last in (False, True):
                        for lead in range(32):
                            for follow in range(32):
                                if follow == lead:
                                    continue
                                winner, gain = self.flat_trick(leader, lead, follow, last)
                                worth.setdefault((last, winner == me and leader == me), []).append(
                                    gain if leader == me else -gain)
                wins = [worth[(False, True)], worth[(True, True)]]
                every = [worth[(False, True)] + worth[(False, False)], worth[(True, True)] + worth[(True, False)]]
                net = [c if me == 0 else -c for c in (self.cards_net if me == 0 else self.cards_net[::-1])]
                cmin = [[min(net[a:b + 1]) if a <= b <= 12 else 0 for b in range(13)] for a in range(13)]
                cmax = [[max(net[a:b + 1]) if a <= b <= 12 else 0 for b in range(13)] for a in range(13)]
                self.lo_win_last[me] = min(wins[1])
                self.lo_any_last[me], self.hi_any_last[me] = min(every[1]), max(every[1])
                out.append((min(wins[0]), min(every[0]), max(every[0]), cmin, cmax))
            self._bounds = out
        return self._bounds

    def pique_key(self, scores: tuple[int, int], done: bool) -> tuple[int, int] | None:
        """The part of the score that still matters: a pique is possible only while one
        player has scored nothing, and only for a player who may pique."""
        if done:
            return None
        a, b = scores
        if a == 0 and b == 0:
            return (0, 0) if self.may_pique[0] or self.may_pique[1] else None
        if b == 0 and self.may_pique[0] and a < self.pique_threshold:
            return (a, 0)
        if a == 0 and self.may_pique[1] and b < self.pique_threshold:
            return (0, b)
        return None

    def score_trick(self, scores: tuple[int, int] | None, steps: tuple[tuple[int, int], ...],
                    seventh: int | None = None) -> tuple[int, int, tuple[int, int] | None]:
        """A trick's points for each seat, with a pique if one fires (Law 69, :class:`PiqueRule`: a player reaching
        the threshold while the other has nothing), from the part of the scores that still matters (``scores``,
        :meth:`pique_key`; ``None``: no pique can come); ``seventh``: the seat whose seventh trick this is, where the
        cards then count toward the pique after the trick's points (:meth:`seventh`). Also the new pique key."""
        p = [0, 0]
        for who, points in steps:
            p[who] += points
        if scores is None:
            return p[0], p[1], None
        totals = [scores[0], scores[1]]
        rule = self.pique
        counted = steps if seventh is None else (*steps, (seventh, self.early))
        for who, points in counted:
            totals[who] += points
            if rule.reached(totals, who):
                p[who] += rule.points
                return p[0], p[1], None
        return p[0], p[1], self.pique_key((totals[0], totals[1]), False)

    def uniform(self) -> bool:
        """Whether every card scores alike in the play: a trick's points depend only on who
        leads, whether the leader wins and whether it is the last (then positions with the same
        cards by relative rank, in any order of the suits, have the same value)."""
        for leader in (0, 1):
            for last in (False, True):
                seen: dict[int, tuple[tuple[int, int], ...]] = {}
                for lead in range(32):
                    for follow in range(32):
                        if follow == lead:
                            continue
                        winner, steps = self.trick(leader, lead, follow, last)
                        if seen.setdefault(winner, steps) != steps:
                            return False
        return True

    def may_cease(self, position: PlayPosition) -> bool:
        """Whether the deal may stop at the game's target from ``position`` (:attr:`PlayPosition.target`): a seat
        still needs no more than the rest of the deal could bring him (a point of each trick and the last, a pique
        while one may come, the cards or capot)."""
        target = position.target
        if target is None:
            return False
        if self._most is None:
            self._most = max(sum(points for who, points in self.trick(leader, lead, follow, False)[1] if who == seat)
                             for leader in (0, 1) for lead in range(32) for follow in range(32) if lead != follow
                             for seat in (0, 1))
        tricks = 12 - position.tricks_won[0] - position.tricks_won[1]
        cards = max((e.points for a in range(13) for e in self.scoring.deal_end((a, 12 - a))), default=0)
        most = tricks * self._most + self.last + self.pique_points + cards + self.early
        return min(target) <= most

    def kernel(self) -> object:
        """The compiled kernel's model of this scoring (built once)."""
        if self._kernel is None:
            assert _kernel is not None
            tricks = [self.trick(leader, lead, follow, bool(last)) for leader in (0, 1) for last in (0, 1)
                      for lead in range(32) for follow in range(32)]
            self._kernel = _kernel.Model(tricks, self.cards_net, self.utility, self.pique_threshold,
                                         self.pique_points, self.may_pique, self.split, self.canonical, self.early)
        return self._kernel


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


def _groups(hand: int, other: int, lead: int | None, model: _Model) -> list[int]:
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


def _lead_order(model: _Model, mine: int, theirs: int) -> list[int]:
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


def _follow_order(model: _Model, cards: int, leader_left: int, lead: int) -> list[int] | tuple[int, ...]:
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


def _follow_list(model: _Model, cards: int, leader_left: int, lead: int) -> list[int]:
    reps = _groups(cards, leader_left, lead, model)
    above = _ABOVE[lead]
    winners = [i for i in reps if above >> i & 1]
    losers = [i for i in reps if not above >> i & 1]
    losers.sort(key=_rank_of)
    return [winners[-1], *losers, *winners[:-1]] if winners else losers


class _Search:
    """The pure-Python search (the compiled kernel's fallback and oracle)."""

    def __init__(self, model: _Model) -> None:
        self.model = model
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
    table. Pure Python (the kernel searches by tricks, where the deal is played to its end)."""

    def __init__(self, model: _Model) -> None:
        self.model = model
        self.table: dict[PlayPosition, tuple[int, int]] = {}
        self.nodes = 0

    def card_value(self, position: PlayPosition, card: int, alpha: int, beta: int) -> int:
        """The net score for the player to act of playing ``card``, the best play following."""
        me = position.to_act
        after, events = _step(self.model, position, CARDS[card])
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


def solve(position: PlayPosition, rules: Rules, all_values: bool = False, all_best: bool = True) -> Solution:
    """The best score difference for the player to act, and the cards that secure it.

    ``all_best`` (the default) lists every card that secures it, otherwise one;
    ``all_values`` finds the exact value of every card (slower): what an agent
    averaging over possible deals needs.
    """
    return _solve(position, rules, all_values, all_best, _kernel is not None)


def _solve(position: PlayPosition, rules: Rules, all_values: bool, all_best: bool, compiled: bool) -> Solution:
    model = _model(rules, position.contract, position.elder, position.utility)
    h0, h1 = position.hands
    me = position.to_act
    won0 = position.tricks_won[0]
    pk = model.pique_key(position.scores, position.pique_done)
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
    if model.may_cease(position):
        # Where the deal may stop at the game's target, the search by cards, scored by the step.
        search = to_target = _ToTarget(model)

        def root(alpha: int, beta: int) -> int:
            return to_target.value(position, alpha, beta)

        def worth(card: int, alpha: int, beta: int) -> int:
            return to_target.card_value(position, card, alpha, beta)
    else:
        search = by_trick = _kernel.Search(model.kernel()) if compiled and _kernel is not None else _Search(model)

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
            # MTD(f): null-window searches home in on the value, sharing the table.
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


_MODELS: dict[tuple[object, ...], _Model] = {}

#: The most compiled models kept (Auction Piquet makes one for every contract and utility). Each
#: holds tables bounded by the ranks of one suit (move orders by suit, some 100 kB when full), never
#: move lists of whole hands: those grew a level-5 process to some 0.8 GB.
MODEL_LIMIT = 256


def _model(rules: Rules, contract: Contract | None, elder: int, utility: tuple[int, int] = (1, -1)) -> _Model:
    """The compiled scoring for these rules, contract and elder (cached, at most
    :data:`MODEL_LIMIT` of them, all dropped together beyond it)."""
    key = (rules.name, tuple(sorted(rules.values.items())), contract, elder, utility)
    model = _MODELS.get(key)
    if model is None:
        if len(_MODELS) >= MODEL_LIMIT:
            _MODELS.clear()
        model = _MODELS[key] = _Model(rules, contract, elder, utility)
    return model


def play(position: PlayPosition, card: Card, rules: Rules) -> tuple[PlayPosition, tuple[ScoreEvent, ...]]:
    """The position after the player to act plays ``card``, and what it scores, in the order the engine scores it
    (:class:`piquet.engine.reckoning.PlayScoring`): the lead's point; or the trick's points, the last trick and, with
    the option ``cards_count_toward_pique``, the cards at a seventh trick; a pique, where the search sees one made
    (:meth:`_Model.score_trick`); after the last trick the cards (or capot) and the contract. Where play ceases at
    the game's target (:attr:`PlayPosition.target`), nothing more once it is reached. A line of play scored so adds
    up to the solver's value of its first card.

    >>> from piquet.engine.variants import make_rules
    >>> p = PlayPosition((CardSet.parse("AS").mask, CardSet.parse("KS").mask), 0, 0, (6, 5), (20, 20))
    >>> q, scored = play(p, Card.parse("AS"), make_rules("rubicon"))
    >>> q.to_act, str(q.lead), [e.reason for e in scored]
    (1, 'AS', ['lead of AS'])
    >>> r, scored = play(q, Card.parse("KS"), make_rules("rubicon"))
    >>> r.tricks_won, r.over, [(e.player, e.points, e.reason) for e in scored]
    ((7, 5), True, [(0, 1, 'the last trick'), (0, 10, 'the cards')])
    """
    return _step(_model(rules, position.contract, position.elder, position.utility), position, card)


def _step(model: _Model, position: PlayPosition, card: Card) -> tuple[PlayPosition, tuple[ScoreEvent, ...]]:
    """:func:`play` by ``model``."""
    me = position.to_act
    if position.over:
        raise ValueError("the deal is over")
    if not position.hands[me] >> card & 1:
        raise ValueError(f"{card} is not in the hand of seat {me}")
    scoring = model.scoring
    hands = [position.hands[0], position.hands[1]]
    hands[me] &= ~card.mask
    won = [position.tricks_won[0], position.tricks_won[1]]
    lead = position.lead
    pk = model.pique_key(position.scores, position.pique_done)
    events: tuple[ScoreEvent, ...]
    if lead is None:
        point = scoring.lead(me, card)[1]
        events = _piqued(model, pk, () if point is None else (point,))
        to_act, led = 1 - me, card
    else:
        if position.hands[me] & _SUIT_MASKS[lead.suit] and card.suit != lead.suit:
            raise ValueError(f"{card} does not follow the {lead}")
        done = scoring.trick(1 - me, lead, card)
        winner = done.winner
        won[winner] += 1
        # The cards at a seventh trick, unless play has ceased at the target by the trick's points.
        seventh = won[winner] == 7 and not _reached(position.target, _piqued(model, pk, done.awards))
        events = _piqued(model, pk, done.awards + scoring.after_trick(winner, won[0] + won[1], seventh))
        to_act, led = winner, None
    target = _less(position.target, events)
    if not hands[0] and not hands[1] and not _reached(position.target, events):
        events += scoring.deal_end((won[0], won[1]))
        target = _less(position.target, events)
    scores = [position.scores[0], position.scores[1]]
    for e in events:
        if model.pique.counts(e):
            scores[e.player] += e.points
    piqued = any(e.category is ScoreCategory.PIQUE for e in events)
    return PlayPosition((hands[0], hands[1]), to_act, position.elder, (won[0], won[1]), (scores[0], scores[1]), led,
                        position.pique_done or piqued, position.contract, position.utility, target), events


def _piqued(model: _Model, pk: tuple[int, int] | None, events: tuple[ScoreEvent, ...]) -> tuple[ScoreEvent, ...]:
    """``events`` and the pique they make, if they make one (as :meth:`_Model.score_trick` reckons it)."""
    p0, p1, _ = model.score_trick(pk, tuple((e.player, e.points) for e in events))
    for seat, points in ((0, p0), (1, p1)):
        extra = points - sum(e.points for e in events if e.player == seat)
        if extra:
            return (*events, ScoreEvent(seat, extra, ScoreCategory.PIQUE, PlainReason.PIQUE))
    return events


def _less(target: tuple[int, int] | None, events: tuple[ScoreEvent, ...]) -> tuple[int, int] | None:
    """What each seat still needs to reach the target once ``events`` are scored (``None``: no target)."""
    if target is None:
        return None
    need = [target[0], target[1]]
    for e in events:
        need[e.player] -= e.points
    return need[0], need[1]


def _reached(target: tuple[int, int] | None, events: tuple[ScoreEvent, ...]) -> bool:
    """Whether ``events`` bring a seat to the target (``None``: there is none)."""
    need = _less(target, events)
    return need is not None and (need[0] <= 0 or need[1] <= 0)


def pique_possible(position: PlayPosition, rules: Rules) -> bool:
    """Whether a pique may still come in the play from ``position``, as the search reckons it:
    none scored yet, one player still with nothing and the other, allowed one, short of it."""
    model = _model(rules, position.contract, position.elder, position.utility)
    return model.pique_key(position.scores, position.pique_done) is not None


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


def _answer(search: _Searcher, model: _Model, h0: int, h1: int, leader: int, won0: int,
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


def _expand(hand: int, other: int, lead: int | None, model: _Model) -> dict[int, list[int]]:
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


def position_from_view(view: PlayerView, opponent_hand: CardSet, utility: tuple[int, int] = (1, -1)) -> PlayPosition:
    """The card play as the solver takes it, from the view of the player to act, the opponent
    holding ``opponent_hand``: the hands, the card led, the tricks won, and the points scored so
    far in the deal that count toward a pique (:meth:`PiqueRule.counts <piquet.engine.reckoning.PiqueRule.counts>`:
    not a contract's, nor the cards' unless they are scored at the seventh trick; what elder's first lead will
    reckon counted: younger's points won in the declarations, and a repique or a pique the hand decides,
    :func:`piquet.engine.reckoning.reckoning_at_first_lead`), which matter while a pique may come. The one place a
    play position is made from a game."""
    seat = view.seat
    assert seat is not None
    rules = view.rules
    rule = scoring_for(rules, view.contract).pique_rule(view.elder)
    scores = [0, 0]
    deal = [0, 0]
    pique_done = False
    for e in (*view.events, *reckoning_at_first_lead(view)):
        if e.category in (ScoreCategory.PIQUE, ScoreCategory.REPIQUE):
            pique_done = True
        if rule.counts(e):
            scores[e.player] += e.points
        deal[e.player] += e.points
    target = None
    if rules.play_ceases_at_target and rules.game_target is not None:
        # Every point of the deal counts, as many times as the deal does (in points of the deal).
        times = rules.deal_multiplier(view.counted_deals + 1)
        need = [-(-(rules.game_target - view.game_scores[seat]) // times) - deal[seat] for seat in (0, 1)]
        target = (need[0], need[1])
    hands = (view.hand.mask, opponent_hand.mask) if seat == 0 else (opponent_hand.mask, view.hand.mask)
    lead = view.trick[0] if view.trick else None
    return PlayPosition(hands, seat, view.elder, view.tricks_won, (scores[0], scores[1]), lead,
                        pique_done, view.contract, utility, target)


def position_from_partie(partie: object, utility: tuple[int, int] = (1, -1)) -> PlayPosition:
    """The play position of a live partie (full information: for analysis, not for agents), valued by
    ``utility`` (:attr:`PlayPosition.utility`)."""
    from piquet.engine.partie import Partie, Phase

    assert isinstance(partie, Partie)
    if partie.phase is not Phase.PLAY:
        raise ValueError(f"no play position: it is the {partie.phase.value}")
    to_act = partie.to_act
    assert to_act is not None
    return position_from_view(partie.view(to_act), partie.hand(1 - to_act), utility)
