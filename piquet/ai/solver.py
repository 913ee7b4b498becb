"""An exact solver for the card play, with every card known.

Given both hands and the state of the play, :func:`solve` returns the best
score difference the player to act can secure for the rest of the deal under
the variant's real scoring (points for leads and tricks, the last trick, the
cards and capot, a pique while one is still possible, an Auction contract),
and the moves that secure it.

The search is an alpha-beta negamax over tricks with a transposition table;
hands are 32-bit masks; cards that touch in one hand (no card of the
opponent's, nor the card led, between them, and scoring alike) are one move.

>>> from piquet.engine.cards import CardSet, Card
>>> from piquet.engine.variants import make_rules
>>> pos = PlayPosition(hands=(CardSet.parse("AS KS").mask, CardSet.parse("QS 7H").mask),
...                    to_act=0, elder=0, tricks_won=(5, 5), scores=(20, 15))
>>> result = solve(pos, make_rules("rubicon"))
>>> result.value, [str(c) for c in result.best]
(13, ['AS', 'KS'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from piquet.engine.cards import CARDS, Card, CardSet
from piquet.engine.scoring import ScoreCategory, ScoreEvent
from piquet.engine.variants import Contract, Rules
from piquet.engine.view import PlayerView

__all__ = ["PlayPosition", "Solution", "position_from_partie", "position_from_view", "solve"]

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


@dataclass
class Solution:
    """``value``: the best score difference (the player to act's points less the
    opponent's) from here to the end of the deal; ``best``: every card that secures it."""

    value: int
    best: list[Card]
    values: dict[Card, int] = field(default_factory=dict)
    nodes: int = 0


class _Model:
    """The variant's scoring in the play, compiled to tables for the search."""

    def __init__(self, rules: Rules, contract: Contract | None, elder: int,
                 utility: tuple[int, int] = (1, -1)) -> None:
        self.utility = utility
        self.lead_points = [rules.lead_points(CARDS[i], contract) for i in range(32)]
        # Points for the trick's winner or loser by (leader wins?, lead card, second card).
        self.rules = rules
        self.contract = contract
        self._tricks: dict[tuple[int, int, int, bool, bool], tuple[int, tuple[tuple[int, int], ...]]] = {}
        self.elder = elder
        self.last = rules.last_trick_points(contract)
        self.cards_table: dict[tuple[int, int], int] = {}  # seat-0 net points by tricks won
        for a in range(13):
            net = 0
            for who, points, _ in rules.cards_awards((a, 12 - a), contract):
                net += points * utility[who]
            for who, points, _ in rules.contract_awards((a, 12 - a), contract):
                net += points * utility[who]
            self.cards_table[(a, 12 - a)] = net
        self.pique_threshold = rules.pique_threshold(contract)
        self.pique_points = rules.pique_points
        self.may_pique = (rules.may_pique(0, elder, contract), rules.may_pique(1, elder, contract))
        # Whether two cards of one suit score alike in the play (for merging touching cards):
        # bit r of split[suit] set when ranks r and r-1 score differently.
        self.score_class = [self._class(i) for i in range(32)]
        self.split = [sum(1 << r for r in range(1, 8)
                          if self.score_class[8 * suit + r] != self.score_class[8 * suit + r - 1])
                      for suit in range(4)]
        self.runs: dict[int, tuple[int, ...]] = {}
        # Move lists by position, kept across solves with the same scoring.
        self.leads: dict[tuple[int, int], list[int]] = {}
        self.follows: dict[tuple[int, int, int], list[int]] = {}

    def _class(self, i: int) -> tuple[int, ...]:
        card = CARDS[i]
        return (self.lead_points[i], self.rules.lead_points(card, self.contract),
                *(p for _, p, _ in self.rules.trick_awards(0, (card, card), 1, self.contract)))

    def trick(self, leader: int, lead: int, follow: int, last: bool,
              lead_scored: bool = False) -> tuple[int, tuple[tuple[int, int], ...]]:
        """The winner of a trick and its points in the order they are scored: the lead
        (unless ``lead_scored`` already), the trick, the last trick (the order matters for a pique)."""
        key = (leader, lead, follow, last, lead_scored)
        cached = self._tricks.get(key)
        if cached is not None:
            return cached
        winner = 1 - leader if CARDS[follow].beats(lead) else leader
        steps = []
        if self.lead_points[lead] and not lead_scored:
            steps.append((leader, self.lead_points[lead]))
        for who, points, _ in self.rules.trick_awards(leader, (CARDS[lead], CARDS[follow]), winner, self.contract):
            steps.append((who, points))
        if last and self.last:
            steps.append((winner, self.last))
        result = (winner, tuple(steps))
        self._tricks[key] = result
        return result


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


class _Search:
    def __init__(self, model: _Model) -> None:
        self.model = model
        self.table: dict[tuple[int, int, int, int, tuple[int, int] | None], tuple[int, int]] = {}
        self.nodes = 0

    def pique_key(self, scores: tuple[int, int], done: bool) -> tuple[int, int] | None:
        """The part of the score that still matters: a pique is possible only while one
        player has scored nothing."""
        if done:
            return None
        m = self.model
        a, b = scores
        if a == 0 and b == 0:
            return (0, 0)
        if b == 0 and m.may_pique[0] and a < m.pique_threshold:
            return (a, 0)
        if a == 0 and m.may_pique[1] and b < m.pique_threshold:
            return (0, b)
        return None

    def score_trick(self, scores: tuple[int, int] | None,
                    steps: tuple[tuple[int, int], ...]) -> tuple[int, int, tuple[int, int] | None]:
        """A trick's points for each seat, with a pique if one fires: a player reaching the
        threshold while the other has nothing (Law 69). Also the new pique key."""
        p = [0, 0]
        for who, points in steps:
            p[who] += points
        if scores is None:
            return p[0], p[1], None
        m = self.model
        a, b = scores
        for who, points in steps:
            if who == 0:
                a += points
                if b == 0 and a >= m.pique_threshold and m.may_pique[0]:
                    return p[0] + m.pique_points, p[1], None
            else:
                b += points
                if a == 0 and b >= m.pique_threshold and m.may_pique[1]:
                    return p[0], p[1] + m.pique_points, None
        if a and b:
            return p[0], p[1], None
        return p[0], p[1], (a, b)

    def value(self, h0: int, h1: int, leader: int, won0: int, pk: tuple[int, int] | None,
              alpha: int, beta: int) -> int:
        """The best net score for ``leader`` (his points less the other's) from the start of a trick."""
        if not h0 and not h1:
            net0 = self.model.cards_table[(won0, 12 - won0)]
            return net0 if leader == 0 else -net0
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
        a0 = alpha
        best = -_INF
        mine, theirs = (h0, h1) if leader == 0 else (h1, h0)
        for lead in self.lead_order(mine, theirs):
            worth = self.lead_value(h0, h1, leader, won0, pk, lead, alpha, beta)
            if worth > best:
                best = worth
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
        self.table[key] = (lo, hi)
        return best

    def lead_value(self, h0: int, h1: int, leader: int, won0: int, pk: tuple[int, int] | None, lead: int,
                   alpha: int, beta: int) -> int:
        """The net score for ``leader`` of leading ``lead``, the opponent answering as well as he can."""
        m = self.model
        mine, theirs = (h0, h1) if leader == 0 else (h1, h0)
        last_trick = (mine & (mine - 1)) == 0
        lead_bit = 1 << lead
        follow_cards = theirs & _SUIT_MASKS[lead >> 3] or theirs
        worst = _INF
        for follow in self.follow_order(follow_cards, mine & ~lead_bit, lead):
            winner, steps = m.trick(leader, lead, follow, last_trick)
            p0, p1, npk = self.score_trick(pk, steps)
            gone = ~(lead_bit | 1 << follow)
            n0, n1 = h0 & gone, h1 & gone
            nwon0 = won0 + (winner == 0)
            u = m.utility[0] * p0 + m.utility[1] * p1
            gain = u if leader == 0 else -u
            # The rest, searched from the next leader's side, turned to this leader's side.
            top = (beta if beta < worst else worst) - gain
            if winner == leader:
                total = gain + self.value(n0, n1, winner, nwon0, npk, alpha - gain, top)
            else:
                total = gain - self.value(n0, n1, winner, nwon0, npk, -top, gain - alpha)
            if total < worst:
                worst = total
                if worst <= alpha:
                    break
        return worst

    def lead_order(self, mine: int, theirs: int) -> list[int]:
        """Sure winners first (nothing of the opponent's above them), then the rest, high to low."""
        key = (mine, theirs)
        found = self.model.leads.get(key)
        if found is not None:
            return found
        sure: list[int] = []
        rest: list[int] = []
        for i in _groups(mine, theirs, None, self.model):
            (rest if theirs & _ABOVE[i] else sure).append(i)
        found = self.model.leads[key] = sure + rest
        return found

    def follow_order(self, cards: int, leader_left: int, lead: int) -> list[int]:
        """The cheapest winner first, then the losers from the lowest, then the other winners."""
        key = (cards, leader_left, lead)
        found = self.model.follows.get(key)
        if found is not None:
            return found
        reps = _groups(cards, leader_left, lead, self.model)
        winners = [i for i in reps if _ABOVE[lead] >> i & 1]
        losers = [i for i in reps if not _ABOVE[lead] >> i & 1]
        losers.sort(key=_rank_of)
        found = self.model.follows[key] = [winners[-1], *losers, *winners[:-1]] if winners else losers
        return found


def _rank_of(i: int) -> int:
    return i & 7


#: The cards above each card in its suit.
_ABOVE = tuple(_SUIT_MASKS[i >> 3] & ~((2 << i) - 1) for i in range(32))


def solve(position: PlayPosition, rules: Rules, all_values: bool = False, all_best: bool = True) -> Solution:
    """The best score difference for the player to act, and the cards that secure it.

    ``all_best`` (the default) lists every card that secures it, otherwise one;
    ``all_values`` finds the exact value of every card (slower): what an agent
    averaging over possible deals needs.
    """
    model = _model(rules, position.contract, position.elder, position.utility)
    search = _Search(model)
    h0, h1 = position.hands
    me = position.to_act
    won0 = position.tricks_won[0]
    pk = search.pique_key(position.scores, position.pique_done)
    mine, theirs = (h0, h1) if me == 0 else (h1, h0)
    if position.lead is None:
        moves = search.lead_order(mine, theirs)
        merged = _expand(mine, theirs, None, model)

        def worth(card: int, alpha: int, beta: int) -> int:
            return search.lead_value(h0, h1, me, won0, pk, card, alpha, beta)
    else:
        lead = int(position.lead)
        follow_cards = mine & _SUIT_MASKS[lead >> 3] or mine
        moves = search.follow_order(follow_cards, theirs, lead)
        merged = _expand(follow_cards, theirs, lead, model)

        def worth(card: int, alpha: int, beta: int) -> int:
            # The leader's value of this one answer, seen from the follower's side.
            return -_answer(search, h0, h1, 1 - me, won0, pk, lead, card, -beta, -alpha)
    values: dict[int, int] = {}
    if all_values:
        for card in moves:
            values[card] = worth(card, -_INF, _INF)
        best_value = max(values.values())
    else:
        if position.lead is None:
            # MTD(f): null-window searches home in on the value, sharing the table.
            best_value = _mtdf(lambda a, b: search.value(h0, h1, me, won0, pk, a, b), 0)
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

#: The most move lists (leads and follows) all cached models may hold together before they are
#: dropped: about 250 bytes each, so some 750 MB. Auction Piquet makes a model for every contract,
#: and a bound on each alone let a long arena run grow past ten gigabytes.
MOVE_CACHE_LIMIT = 3_000_000


def _model(rules: Rules, contract: Contract | None, elder: int, utility: tuple[int, int] = (1, -1)) -> _Model:
    """The compiled scoring for these rules, contract and elder (cached: its move lists grow
    with use, which is what makes repeated solves of one deal fast; all are dropped together
    when they hold more than :data:`MOVE_CACHE_LIMIT` move lists, or past 64 models)."""
    key = (rules.name, tuple(sorted(rules.values.items())), contract, elder, utility)
    if sum(len(m.leads) + len(m.follows) for m in _MODELS.values()) > MOVE_CACHE_LIMIT or len(_MODELS) > 64:
        _MODELS.clear()
    model = _MODELS.get(key)
    if model is None:
        model = _MODELS[key] = _Model(rules, contract, elder, utility)
    return model


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


def _answer(search: _Search, h0: int, h1: int, leader: int, won0: int, pk: tuple[int, int] | None,
            lead: int, follow: int, alpha: int, beta: int) -> int:
    """The net score for ``leader`` when the opponent answers his ``lead`` (already out of
    his hand) with ``follow``."""
    gone = ~(1 << lead | 1 << follow)
    n0, n1 = h0 & gone, h1 & gone
    # The lead was scored when it was led: it is in the position's scores already.
    winner, steps = search.model.trick(leader, lead, follow, not (n0 | n1), lead_scored=True)
    p0, p1, npk = search.score_trick(pk, steps)
    u = search.model.utility[0] * p0 + search.model.utility[1] * p1
    gain = u if leader == 0 else -u
    nwon0 = won0 + (winner == 0)
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


def position_from_view(view: PlayerView, opponent_hand: CardSet, utility: tuple[int, int] = (1, -1),
                       unreckoned: Iterable[ScoreEvent] = ()) -> PlayPosition:
    """The card play as the solver takes it, from the view of the player to act, the opponent
    holding ``opponent_hand``: the hands, the card led, the tricks won, and the points scored so
    far in the deal (the cards and a contract left out, ``unreckoned`` points added), which matter
    while a pique may come. The one place a play position is made from a game."""
    seat = view.seat
    assert seat is not None
    scores = [0, 0]
    pique_done = False
    for e in (*view.events, *unreckoned):
        if e.category in (ScoreCategory.PIQUE, ScoreCategory.REPIQUE):
            pique_done = True
        if e.category not in (ScoreCategory.CARDS, ScoreCategory.CONTRACT):
            scores[e.player] += e.points
    hands = (view.hand.mask, opponent_hand.mask) if seat == 0 else (opponent_hand.mask, view.hand.mask)
    lead = view.trick[0] if view.trick else None
    return PlayPosition(hands, seat, view.elder, view.tricks_won, (scores[0], scores[1]), lead,
                        pique_done, view.contract, utility)


def position_from_partie(partie: object) -> PlayPosition:
    """The play position of a live partie (full information: for analysis, not for agents), with
    younger's points not yet reckoned at elder's first lead counted."""
    from piquet.engine.partie import Partie, Phase

    assert isinstance(partie, Partie)
    if partie.phase is not Phase.PLAY:
        raise ValueError(f"no play position: it is the {partie.phase.value}")
    to_act = partie.to_act
    assert to_act is not None
    return position_from_view(partie.view(to_act), partie.hand(1 - to_act), unreckoned=partie.unreckoned)
