"""Inference: where the cards a player cannot see may lie, and worlds sampled from that.

From one :class:`~piquet.engine.view.PlayerView` alone, :class:`Inference` works out which cards the
opponent certainly or possibly holds and the hard constraints every arrangement of the hidden cards
meets (sizes, cards shown, voids, what elder looked at, the declarations); :meth:`Inference.sample`
draws worlds uniformly among them, weighted by the soft evidence, and :meth:`Inference.resample`
keeps the likely ones by a model of her discards. How: docs/players.md, "Inference".

"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from piquet.ai.books import keep_values
from piquet.ai.budget import Deadline
from piquet.engine.cards import FULL_PACK, PIPS, SUIT_PIPS, Card, CardSet, Rank, Suit
from piquet.engine.combinations import SET_RANKS, Category, key, runs
from piquet.engine.partie import Phase
from piquet.engine.view import PlayerView

__all__ = [
    "CALL_NOT_BEST_FACTOR",
    "CHECK_EVERY",
    "DISCARD_BETA",
    "GOOD_ANSWER_FACTOR",
    "Inference",
    "Requirement",
    "World",
    "best_key",
    "holds",
    "sample_worlds",
]

#: Weight of a world where younger answered "good" though she held something better (she sank).
GOOD_ANSWER_FACTOR: Final = 0.2
#: Weight of a world where elder's call was not the best combination she held (or she called
#: nothing while holding one).
CALL_NOT_BEST_FACTOR: Final = 0.2
#: How sharply the discard model prefers her least useful cards: a discard is taken to be
#: ``exp(-DISCARD_BETA * cost)`` likely, ``cost`` being the books' keep-values
#: (:func:`piquet.ai.books.keep_values`) of the cards thrown, judged in the hand she kept and the
#: cards she threw together. 0 makes every discard equally likely. Chosen by the log loss of
#: younger's guesses at elder's hand (``tools/discard_model.py``; its figures: docs/players.md, "Inference").
DISCARD_BETA: Final = 0.1

#: How many worlds (or proposals) a loop drawing them makes between two looks at a decision's
#: wall-clock cap (:meth:`piquet.ai.budget.Deadline.overdue`): a small fraction of a millisecond apart.
CHECK_EVERY: Final = 16

# Places of a hidden card: the opponent's hand, her discards, the talon.
_H: Final = 1
_D: Final = 2
_T: Final = 4
_COURTS: Final = sum(rank.mask for rank in Rank if rank.is_court)  # whose absence makes carte blanche


@dataclass(frozen=True)
class World:
    """One full arrangement of the hidden cards consistent with a view."""

    opponent_hand: CardSet  # the opponent's current hand
    opponent_discards: CardSet  # her discards (empty if she has not exchanged yet)
    talon: tuple[Card, ...]  # the cards still in the talon, top first
    weight: float = 1.0


# ---------------------------------------------------------------------------- combination tests
def _subset_keys() -> tuple[frozenset[int], ...]:
    """For every 8-bit rank mask, the (size, pips) pairs of its subsets, as ``size * 128 + pips``."""
    table = []
    for byte in range(256):
        found = set()
        sub = byte
        while True:
            found.add(sub.bit_count() * 128 + SUIT_PIPS[sub])
            if sub == 0:
                break
            sub = (sub - 1) & byte
        table.append(frozenset(found))
    return tuple(table)


_SUBSET_KEYS: Final = _subset_keys()


def _bytes(mask: int) -> tuple[int, int, int, int]:
    return mask & 0xFF, (mask >> 8) & 0xFF, (mask >> 16) & 0xFF, (mask >> 24) & 0xFF


def _window(byte: int, length: int, top: int) -> bool:
    """Whether the ranks ``top - length + 1 .. top`` are all in ``byte``."""
    low = top - length + 1
    full = (1 << length) - 1
    return low >= 0 and (byte >> low) & full == full


#: The longest run of ranks in a suit's byte and its top (the highest such run), ``(0, -1)`` for none.
_LONGEST_RUN: Final = tuple(max(((n, low + n - 1) for low, n in runs(b)), default=(0, -1)) for b in range(256))


def _longest_run(byte: int) -> tuple[int, int]:
    """The longest run of ranks in a byte and its top (the highest such run): (length, top)."""
    return _LONGEST_RUN[byte]


def best_key(category: Category, mask: int, minimum_point: int = 1) -> tuple[int, int] | None:
    """The key (:func:`piquet.engine.combinations.key`) of the best combination of a category in a hand."""
    found: tuple[int, int] | None = None
    if category is Category.POINT:
        for byte in _bytes(mask):
            n = byte.bit_count()
            if n >= max(minimum_point, 1):
                k = (n, SUIT_PIPS[byte])
                if found is None or k > found:
                    found = k
    elif category is Category.SEQUENCES:
        for byte in _bytes(mask):
            k = _longest_run(byte)
            if k[0] >= 3 and (found is None or k > found):
                found = k
    else:
        for r in SET_RANKS:
            n = (mask & r.mask).bit_count()
            if n >= 3 and (found is None or (n, r) > found):
                found = (n, r)
    return found


def holds(category: Category, mask: int, op: str, length: int, second: int | None) -> bool:
    """Whether some combination of the category in ``mask`` has a key ``(l, s)`` that meets ``op``.

    ``op`` is ``"eq"`` (l == length and s == second, or any s if ``second`` is None), ``"gt"``
    ((l, s) > (length, second); l > length if ``second`` is None), ``"gt_len"`` (l == length,
    s > second) or ``"lt_len"`` (l == length, s < second).
    """
    if category is Category.POINT:
        for byte in _bytes(mask):
            n = byte.bit_count()
            if n < length:
                continue
            if op == "eq":
                if second is None or length * 128 + second in _SUBSET_KEYS[byte]:
                    return True
            elif op == "gt":
                if n > length or (second is not None and SUIT_PIPS[byte] > second):
                    return True
            else:
                ranks = [r for r in range(8) if byte >> r & 1]  # PIPS[r]: the pips of rank r (its spade)
                assert second is not None
                if op == "gt_len" and sum(PIPS[r] for r in ranks[-length:]) > second:
                    return True
                if op == "lt_len" and sum(PIPS[r] for r in ranks[:length]) < second:
                    return True
        return False
    if category is Category.SEQUENCES:
        for byte in _bytes(mask):
            if op == "eq":
                if second is None:
                    if _longest_run(byte)[0] >= length:
                        return True
                elif _window(byte, length, second):
                    return True
            elif op == "gt":
                if _longest_run(byte)[0] > length:
                    return True
                if second is not None and any(_window(byte, length, t) for t in range(second + 1, 8)):
                    return True
            else:
                assert second is not None
                tops = range(second + 1, 8) if op == "gt_len" else range(length - 1, second)
                if any(_window(byte, length, t) for t in tops):
                    return True
        return False
    for r in SET_RANKS:
        n = (mask & r.mask).bit_count()
        if op == "eq":
            ok = n >= length and (second is None or r == second)
        elif op == "gt":
            ok = n > length or (second is not None and n >= length and r > second)
        elif op == "gt_len":
            ok = n >= length and second is not None and r > second
        else:
            ok = n >= length and second is not None and r < second
        if ok:
            return True
    return False


def _maximal_shown(category: Category, mask: int, shown: int, minimum_point: int) -> bool:
    """Whether everything a player declaring in full would show of the category is in ``shown``."""
    if category is Category.POINT:
        top = best_key(category, mask, minimum_point)
        if top is None:
            return True
        return any((b.bit_count(), SUIT_PIPS[b]) == top and (b << (8 * s)) & ~shown == 0
                   for s, b in enumerate(_bytes(mask)))
    if category is Category.SETS:
        return all((mask & r.mask).bit_count() < 3 or mask & r.mask & ~shown == 0 for r in SET_RANKS)
    for s, byte in enumerate(_bytes(mask)):
        for low, length in runs(byte):
            if length >= 3 and ((((1 << length) - 1) << low) << (8 * s)) & ~shown:
                return False
    return True


def _runs_apart(mask: int, keys: Sequence[tuple[int, int | None]]) -> bool:
    """Whether ``mask`` holds a sequence of each ``(length, top rank)`` of ``keys``, no two sharing a card
    (what several sequences scored together say)."""
    suits = _bytes(mask)

    def place(i: int, used: tuple[int, int, int, int]) -> bool:
        if i == len(keys):
            return True
        length, top = keys[i]
        assert top is not None
        low = top - length + 1
        if low < 0:
            return False
        cells = ((1 << length) - 1) << low
        for s in range(4):
            if suits[s] & cells == cells and not used[s] & cells:
                taken = (*used[:s], used[s] | cells, *used[s + 1:])
                if place(i + 1, (taken[0], taken[1], taken[2], taken[3])):
                    return True
        return False

    return place(0, (0, 0, 0, 0))


@dataclass(frozen=True)
class Requirement:
    """One thing known of the opponent's hand at declaration time, from the declarations.

    ``op``: ``"eq" "gt" "gt_len" "lt_len"`` (she held such a combination, see :func:`holds`),
    ``"best_lt"`` (her best was below ``(length, second)``), ``"best_le"`` (not above it; a
    ``None`` second compares lengths only), ``"none"`` (she held no combination of the
    category), ``"shown"`` (all she would show declaring in full is in her revealed cards).
    ``factor`` is ``None`` for a hard constraint, else the weight of a world breaking it.
    """

    category: Category
    op: str
    length: int = 0
    second: int | None = None
    factor: float | None = None
    text: str = ""
    keys: tuple[tuple[int, int | None], ...] = ()

    @property
    def monotone(self) -> bool:
        return self.op in ("eq", "gt", "gt_len", "lt_len")

    def met(self, mask: int, minimum_point: int, revealed: int) -> bool:
        if self.monotone:
            return holds(self.category, mask, self.op, self.length, self.second)
        if self.op == "shown":
            return _maximal_shown(self.category, mask, revealed, minimum_point)
        if self.op == "apart":
            return _runs_apart(mask, self.keys)
        top = best_key(self.category, mask, minimum_point)
        if self.op == "none":
            return top is None
        if top is None:
            return True
        if self.second is None:
            return top[0] < self.length if self.op == "best_lt" else top[0] <= self.length
        return top < (self.length, self.second) if self.op == "best_lt" else top <= (self.length, self.second)

    def cover(self) -> list[tuple[int, int]]:
        """Events ``(cards, need)``, "at least ``need`` of ``cards`` in her hand", whose union holds
        every hand meeting a monotone requirement (for the Karp-Luby proposal)."""
        events: list[tuple[int, int]] = []
        n, s, op = self.length, self.second, self.op
        if self.category is Category.POINT:
            need = n + 1 if op == "gt" and s is None else n
            events = [(suit.mask, need) for suit in Suit]
        elif self.category is Category.SETS:
            for r in SET_RANKS:
                if op == "eq" and (s is None or r == s):
                    events.append((r.mask, n))
                elif op == "gt":
                    if n < 4:
                        events.append((r.mask, n + 1))
                    if s is not None and r > s:
                        events.append((r.mask, n))
                elif s is not None and ((op == "gt_len" and r > s) or (op == "lt_len" and r < s)):
                    events.append((r.mask, n))
        else:
            windows: set[tuple[int, int]] = set()
            for top in range(8):
                if op == "eq" and (s is None or top == s):
                    windows.add((n, top))
                elif op == "gt":
                    windows.add((n + 1, top))
                    if s is not None and top > s:
                        windows.add((n, top))
                elif s is not None and ((op == "gt_len" and top > s) or (op == "lt_len" and top < s)):
                    windows.add((n, top))
            for length, top in windows:
                low = top - length + 1
                if low < 0 or length > 8:
                    continue
                cells = ((1 << length) - 1) << low
                events.extend(((cells << (8 * suit)), length) for suit in range(4))
        return [(cards & FULL_PACK, need) for cards, need in events]


# ---------------------------------------------------------------------------- the class sampler
@dataclass
class _Class:
    """Hidden cards that may go to the same places: ``allowed`` (bits H, D, T); ``exact_h``
    fixes how many of them go to her hand (the cards elder looked at)."""

    cards: list[Card]
    allowed: int
    exact_h: int | None = None


Split = tuple[tuple[int, int, int], ...]  # per class: (marked to H, unmarked to H, to D)


@dataclass
class _Plan:
    """Every way to share the class counts among the places, with its number of arrangements."""

    marked: list[list[Card]]
    unmarked: list[list[Card]]
    splits: list[Split]
    cumulative: list[float]
    total: float
    cards: int = 0
    need: int = 0


def _enumerate(classes: Sequence[_Class], n_h: int, n_d: int, mark: int, offset: int, need: int) -> _Plan:
    """The splits of the classes over (hand, discards, talon) giving ``n_h`` and ``n_d`` cards,
    with at least ``need - offset`` cards of ``mark`` in the hand."""
    marked = [[c for c in k.cards if mark >> c & 1] for k in classes]
    unmarked = [[c for c in k.cards if not mark >> c & 1] for k in classes]
    count = len(classes)
    cap_h = [0] * (count + 1)
    cap_d = [0] * (count + 1)
    no_t = [0] * (count + 1)
    cards_after = [0] * (count + 1)
    for i in range(count - 1, -1, -1):
        k = classes[i]
        n = len(k.cards)
        cap_h[i] = cap_h[i + 1] + (n if k.allowed & _H else 0)
        cap_d[i] = cap_d[i + 1] + (n if k.allowed & _D else 0)
        no_t[i] = no_t[i + 1] + (0 if k.allowed & _T else n)
        cards_after[i] = cards_after[i + 1] + n
    splits: list[Split] = []
    weights: list[float] = []
    minimum = need - offset

    def walk(i: int, h_left: int, d_left: int, g: int, weight: int, chosen: tuple[tuple[int, int, int], ...]) -> None:
        if i == count:
            if h_left == 0 and d_left == 0 and g >= minimum:
                splits.append(chosen)
                weights.append(float(weight))
            return
        if cap_h[i] < h_left or cap_d[i] < d_left or no_t[i] > h_left + d_left:
            return
        k = classes[i]
        nm, nu = len(marked[i]), len(unmarked[i])
        n = nm + nu
        h_range = range(min(n, h_left) + 1) if k.allowed & _H else range(1)
        if k.exact_h is not None:
            h_range = range(k.exact_h, k.exact_h + 1) if k.exact_h <= h_left else range(0)
        for h in h_range:
            d_range = range(min(n - h, d_left) + 1) if k.allowed & _D else range(1)
            for d in d_range:
                t = n - h - d
                if t and not k.allowed & _T:
                    continue
                if cards_after[i + 1] < (h_left - h) + (d_left - d):
                    continue
                ways_dt = math.comb(n - h, d)
                for hm in range(max(0, h - nu), min(nm, h) + 1):
                    walk(i + 1, h_left - h, d_left - d, g + hm,
                         weight * math.comb(nm, hm) * math.comb(nu, h - hm) * ways_dt, (*chosen, (hm, h - hm, d)))

    walk(0, n_h, n_d, 0, 1, ())
    cumulative: list[float] = []
    total = 0.0
    for w in weights:
        total += w
        cumulative.append(total)
    return _Plan(marked, unmarked, splits, cumulative, total, mark, need)


# ---------------------------------------------------------------------------- inference
class Inference:
    """What one player's view tells of the cards he cannot see (see the module docstring)."""

    def __init__(self, view: PlayerView) -> None:
        if view.seat is None or view.opponent is None:
            raise ValueError("inference needs a player's view, not a spectator's")
        self.view = view
        me, opp = view.seat, view.opponent
        self.me, self.opp = me, opp
        self.rules = view.rules
        self.minimum_point = self.rules.minimum_point
        self.opponent_is_elder = view.elder == opp
        # Cards each player has played.
        played = [0, 0]
        for trick in view.tricks:
            played[trick.leader] |= trick.cards[0].mask
            played[1 - trick.leader] |= trick.cards[1].mask
        if view.trick:
            played[view.leader] |= view.trick[0].mask
        self.opp_played = played[opp]
        self._voids: set[Suit] = set()
        for trick in view.tricks:
            follow = trick.cards[1]
            if trick.leader == me and follow.suit != trick.cards[0].suit:
                self._voids.add(trick.cards[0].suit)
        self.revealed_opp = view.revealed[opp].mask
        self.hand_size = view.hand_sizes[opp]
        self.opp_exchanged = view.exchanged[opp]
        self.discard_size = self.opp_exchanged or 0
        self.talon_size = view.talon_left
        self.shown_dealt = view.shown_dealt[opp].mask

        known_elsewhere = (view.hand.mask | view.discards.mask | view.dealt.mask | played[me] | played[opp])
        # The cards elder looked at: talon cards, min(k, L) of them drawn by younger.
        peeked = view.peeked.mask
        self.peeked = peeked
        self.peeked_drawn = min(self.opp_exchanged, peeked.bit_count()) if self.opp_exchanged is not None else 0
        rest = view.rest.mask
        fixed_h = self.revealed_opp & ~self.opp_played
        fixed_t = rest
        fixed_d = 0
        allowed: dict[int, int] = {}
        base = _H | (_D if self.opp_exchanged else 0) | (_T if self.talon_size else 0)
        void_mask = 0
        for suit in self._voids:
            void_mask |= suit.mask
        unknown = FULL_PACK & ~known_elsewhere & ~fixed_h & ~fixed_t
        cb_hidden = view.carte_blanche[opp] and not self.shown_dealt
        for c in range(32):
            if not unknown >> c & 1:
                continue
            a = base
            if void_mask >> c & 1:
                a &= ~_H
            if peeked >> c & 1:
                a &= ~_D
            if self.shown_dealt:
                a &= ~_T if self.shown_dealt >> c & 1 else ~_D
                if self.opp_exchanged is None and not self.shown_dealt >> c & 1:
                    a &= ~_H
            if cb_hidden and self.opp_exchanged is None and _COURTS >> c & 1:
                a &= ~_H
            allowed[c] = a
        # The cards elder looked at that are not yet placed, and how many of them she drew.
        peek_h = self.peeked_drawn - (peeked & (self.opp_played | fixed_h)).bit_count()
        n_h = self.hand_size - fixed_h.bit_count()
        n_d = self.discard_size
        n_t = self.talon_size - fixed_t.bit_count()
        self.satisfiable = True
        # Propagate what the counts force.
        changed = True
        while changed:
            changed = False
            peek_free = [c for c, a in allowed.items() if peeked >> c & 1 and a & _H]
            if peek_free and (peek_h <= 0 or peek_h >= len(peek_free)):
                for c in peek_free:
                    allowed[c] = _H if peek_h > 0 else _T
            for c, a in list(allowed.items()):
                if peeked >> c & 1 and a == _H | _T:
                    continue
                if n_h <= 0:
                    a &= ~_H
                if n_d <= 0:
                    a &= ~_D
                if n_t <= 0:
                    a &= ~_T
                allowed[c] = a
                if a == 0:
                    self.satisfiable = False
                    del allowed[c]
                elif a in (_H, _D, _T):
                    del allowed[c]
                    changed = True
                    if a == _H:
                        fixed_h |= 1 << c
                        n_h -= 1
                        if peeked >> c & 1:
                            peek_h -= 1
                    elif a == _D:
                        fixed_d |= 1 << c
                        n_d -= 1
                    else:
                        fixed_t |= 1 << c
                        n_t -= 1
            for place, slots in ((_H, n_h), (_D, n_d), (_T, n_t)):
                able = [c for c, a in allowed.items() if a & place]
                if able and len(able) == slots and not any(peeked >> c & 1 for c in able):
                    for c in able:
                        allowed[c] = place
                    changed = True
        if n_h < 0 or n_d < 0 or n_t < 0 or len(allowed) != n_h + n_d + n_t:
            self.satisfiable = False
        self.fixed_h, self.fixed_d, self.fixed_t = fixed_h, fixed_d, fixed_t
        self.allowed = allowed
        self.n_h, self.n_d = n_h, n_d
        groups: dict[tuple[int, bool], list[Card]] = {}
        for c, a in sorted(allowed.items()):
            groups.setdefault((a, bool(peeked >> c & 1)), []).append(Card(c))
        self.classes = [
            _Class(cards, a, peek_h if is_peeked else None) for (a, is_peeked), cards in sorted(groups.items())
        ]
        self.requirements = self._requirements()
        self.court_dealt = self._court_dealt_known()
        self._base: _Plan | None = None
        self._strategy: tuple[Requirement, list[_Plan], list[float]] | bool | None = False

    # ------------------------------------------------------------------ public queries
    def known_opponent(self) -> CardSet:
        """Cards certainly in the opponent's current hand."""
        return CardSet(self.fixed_h)

    def possible_opponent(self) -> CardSet:
        """Cards that may be in her current hand (a superset of :meth:`known_opponent`)."""
        mask = self.fixed_h
        for c, a in self.allowed.items():
            if a & _H:
                mask |= 1 << c
        return CardSet(mask)

    def unseen(self) -> CardSet:
        """Every card whose place (her hand, her discards, the talon) the viewer does not know."""
        return CardSet(sum(1 << c for c in self.allowed))

    def voids(self) -> set[Suit]:
        """Suits the opponent has shown she lacks by failing to follow."""
        return set(self._voids)

    def consistent(self, world: World) -> bool:
        """Whether a world meets every hard constraint of the view."""
        h, d = world.opponent_hand.mask, world.opponent_discards.mask
        t = CardSet(world.talon).mask
        if (len(world.opponent_hand), len(world.opponent_discards), len(world.talon)) != (
                self.hand_size, self.discard_size, self.talon_size) or t.bit_count() != len(world.talon):
            return False
        if h & d or h & t or d & t:
            return False
        if h & self.fixed_h != self.fixed_h or d & self.fixed_d != self.fixed_d or t & self.fixed_t != self.fixed_t:
            return False
        loose = (h & ~self.fixed_h) | (d & ~self.fixed_d) | (t & ~self.fixed_t)
        if loose != sum(1 << c for c in self.allowed):
            return False
        for c, a in self.allowed.items():
            place = _H if h >> c & 1 else _D if d >> c & 1 else _T
            if not a & place:
                return False
        if ((h | self.opp_played) & self.peeked).bit_count() != self.peeked_drawn:
            return False
        if self.peeked and world.talon:
            # The cards looked at and still in the talon lie on top of it.
            left = (t & self.peeked).bit_count()
            if any(not self.peeked >> c & 1 for c in world.talon[:left]):
                return False
        return self._hard_ok(h, d)

    def weight(self, world: World) -> float:
        """The soft-evidence weight of a world (1 when every likely reading holds)."""
        return self._weight(world.opponent_hand.mask)

    def discard_log_likelihood(self, world: World, beta: float = DISCARD_BETA) -> float:
        """The log-likelihood (up to a constant) that she threw this world's discards, under a
        soft model of the books' exchange: each card thrown costs its keep-value in the hand she
        held, judged on her cards after the exchange and her discards together (the cards she
        drew are unknown, so the model treats all of them as hers to choose from). 0 when her
        discards are not hidden or not made yet.
        """
        d = world.opponent_discards.mask & ~self.fixed_d
        if not d or beta == 0:
            return 0.0
        held = CardSet(world.opponent_hand.mask | self.opp_played | world.opponent_discards.mask)
        values = keep_values(held, not self.opponent_is_elder)
        return -beta * sum(values[c] for c in CardSet(d))

    def resample(self, rng: random.Random, count: int, pool: int = 4,
                 beta: float = DISCARD_BETA, deadline: Deadline | None = None) -> list[World]:
        """``count`` worlds drawn from ``pool * count`` uniform ones in proportion to their
        soft-evidence weight and the likelihood of her discards (:meth:`discard_log_likelihood`),
        each returned with weight 1: sampling importance resampling, so that an agent spends its
        search on the likely worlds. Fewer only if fewer could be drawn (or the ``deadline``'s
        wall-clock cap stopped the drawing: :meth:`sample`)."""
        drawn = self.sample(rng, max(count, pool * count), deadline=deadline)
        if len(drawn) <= count:
            return [World(w.opponent_hand, w.opponent_discards, w.talon) for w in drawn]
        keyed = []
        for k, w in enumerate(drawn):
            if deadline is not None and not k % CHECK_EVERY and deadline.overdue():
                break
            log_w = math.log(w.weight) + self.discard_log_likelihood(w, beta)
            # Weighted sampling without replacement by exponential races: the smallest
            # Exp(1) / weight win (kept in logs: the weights span many orders of magnitude).
            keyed.append((math.log(-math.log(1.0 - rng.random())) - log_w, w))
        keyed.sort(key=lambda kw: kw[0])
        return [World(w.opponent_hand, w.opponent_discards, w.talon) for _k, w in keyed[:count]]

    def sample(self, rng: random.Random, count: int, max_tries: int = 200_000,
               deadline: Deadline | None = None) -> list[World]:
        """``count`` worlds, each drawn uniformly from those meeting the hard constraints and
        weighted by the soft evidence (fewer only if ``max_tries`` proposals did not suffice, or
        the ``deadline``'s wall-clock cap came first: it is asked every :data:`CHECK_EVERY`
        proposals)."""
        worlds: list[World] = []
        if count <= 0 or not self.satisfiable:
            return worlds
        base = self._base_plan()
        if base.total == 0:
            return worlds
        strategy = self._choose_strategy(rng)
        tries = 0
        while len(worlds) < count and tries < max_tries:
            if deadline is not None and not tries % CHECK_EVERY and deadline.overdue():
                break
            tries += 1
            if strategy is None:
                h, d, t = self._draw(base, rng)
            else:
                _req, plans, cumulative = strategy
                i = min(bisect.bisect_right(cumulative, rng.random() * cumulative[-1]), len(plans) - 1)
                h, d, t = self._draw(plans[i], rng)
                decl = h | self.opp_played
                hits = sum(1 for p in plans if (decl & p.cards).bit_count() >= p.need)
                if hits > 1 and rng.random() * hits >= 1:
                    continue
            if not self._hard_ok(h, d):
                continue
            worlds.append(World(CardSet(h), CardSet(d), self._order_talon(t, rng), self._weight(h)))
        return worlds

    # ------------------------------------------------------------------ constraints
    def _requirements(self) -> list[Requirement]:
        """What the declarations say of her hand at declaration time."""
        view = self.view
        contract = view.contract
        in_full = self.rules.must_declare_in_full(contract)
        reckoned = bool(view.tricks or view.trick) or view.phase is Phase.OVER
        own = {c.category: c for c in view.own_calls}
        out: list[Requirement] = []
        for a in view.announcements:
            cat = a.category
            at_once = self.rules.told_at_once(cat, contract)
            second: int | None = int(a.rank) if cat is Category.SETS and a.rank is not None else a.detail
            if self.opponent_is_elder:
                if a.length is None:
                    out.append(Requirement(cat, "none", factor=None if in_full else CALL_NOT_BEST_FACTOR,
                                           text=f"elder called no {cat.value}"))
                    continue
                out.append(Requirement(cat, "eq", a.length, second, text=f"elder called {cat.value} {a.length}"))
                out.append(Requirement(cat, "best_le", a.length, second,
                                       factor=None if in_full else CALL_NOT_BEST_FACTOR,
                                       text="elder called her best"))
                if in_full and reckoned and a.answer == "good":
                    out.append(Requirement(cat, "shown", text="all she won is shown"))
                continue
            # The opponent is younger: the viewer knows his own call exactly.
            mine = own.get(cat)
            ke = key(cat, mine.called) if mine is not None and mine.called is not None else None
            if ke is None or a.length is None:
                if in_full and reckoned:
                    out.append(Requirement(cat, "shown", text="all she won is shown"))
                continue
            length, mine_second = ke
            # At an equal length elder was asked his pips, top card or rank: her call had his length.
            asked = not at_once and (a.rank if cat is Category.SETS else a.detail) is not None
            if a.answer == "not good":
                if asked:
                    out.append(Requirement(cat, "gt_len", length, mine_second, text="not good at equal length"))
                elif at_once:
                    out.append(Requirement(cat, "gt", length, mine_second, text="not good"))
                else:
                    out.append(Requirement(cat, "gt", length, None, text="not good: longer"))
                if in_full and reckoned:
                    out.append(Requirement(cat, "shown", text="all she won is shown"))
            elif a.answer == "equal":
                out.append(Requirement(cat, "eq", length, mine_second, text="equal"))
                if in_full:
                    out.append(Requirement(cat, "best_le", length, mine_second, text="equal, in full"))
            elif a.answer == "good":
                if asked:
                    out.append(Requirement(cat, "lt_len", length, mine_second, text="good at equal length"))
                out.append(Requirement(cat, "best_lt", length, mine_second,
                                       factor=None if in_full else GOOD_ANSWER_FACTOR, text="good"))
        out.extend(self._scored_requirements())
        return out

    def _scored_requirements(self) -> list[Requirement]:
        """What the words of the combinations she scored say: the category, the length and the top rank of
        each (``"quart to the king"``), elder's as she scores them, younger's from her answers on (reckoned
        at elder's first lead, :attr:`~piquet.engine.view.PlayerView.unreckoned` until then)."""
        said: dict[Category, list[tuple[int, int | None]]] = {}
        for event in (*self.view.events, *self.view.unreckoned):
            combination = event.combination
            if combination is None or combination.holder != self.opp:
                continue
            top = None if combination.top is None else int(combination.top)
            # A point, a sequence or a set: its score category has the declaration's name.
            said.setdefault(Category(event.category.value), []).append((combination.length, top))
        out: list[Requirement] = []
        for cat, keys in said.items():
            for length, top in sorted(set(keys), key=lambda k: (k[0], -1 if k[1] is None else k[1])):
                words = f"{length}" if top is None else f"{length} to {Rank(top).name.lower()}"
                out.append(Requirement(cat, "eq", length, top, text=f"she scored {cat.value} {words}"))
            if cat is Category.SEQUENCES and len(keys) > 1:
                out.append(Requirement(cat, "apart", keys=tuple(keys), text="she scored these sequences apart"))
        return out

    def _court_dealt_known(self) -> bool:
        """Whether she is known to have been dealt a court card (carte blanche must be announced,
        and she had her turn to announce it and did not)."""
        view = self.view
        if not (self.rules.has_carte_blanche and self.rules.carte_blanche_compulsory) or view.carte_blanche[self.opp]:
            return False
        if view.phase in (Phase.EXCHANGE, Phase.DECLARE, Phase.PLAY, Phase.OVER):
            return True
        return view.phase is Phase.CARTE_BLANCHE and self.opponent_is_elder and view.to_act == self.me

    def _hard_ok(self, h: int, d: int) -> bool:
        decl = h | self.opp_played
        for req in self.requirements:
            if req.factor is None and not req.met(decl, self.minimum_point, self.revealed_opp):
                return False
        if self.court_dealt:
            if self.opp_exchanged is None:
                return bool(h & _COURTS)
            if not d & _COURTS and not (decl & ~self.peeked & _COURTS):
                return False
        return True

    def _weight(self, h: int) -> float:
        decl = h | self.opp_played
        w = 1.0
        for req in self.requirements:
            if req.factor is not None and not req.met(decl, self.minimum_point, self.revealed_opp):
                w *= req.factor
        return w

    # ------------------------------------------------------------------ sampling
    def _base_plan(self) -> _Plan:
        if self._base is None:
            self._base = _enumerate(self.classes, self.n_h, self.n_d, 0, 0, 0)
        return self._base

    def _draw(self, plan: _Plan, rng: random.Random) -> tuple[int, int, int]:
        i = bisect.bisect_right(plan.cumulative, rng.random() * plan.total)
        split = plan.splits[min(i, len(plan.splits) - 1)]
        h, d, t = self.fixed_h, self.fixed_d, self.fixed_t
        for j, (hm, hu, nd) in enumerate(split):
            marked, unmarked = plan.marked[j], plan.unmarked[j]
            if hm == len(marked):
                chosen_m, left_m = marked, []
            else:
                pool = rng.sample(marked, len(marked))
                chosen_m, left_m = pool[:hm], pool[hm:]
            if hu == len(unmarked):
                chosen_u, left_u = unmarked, []
            else:
                pool = rng.sample(unmarked, len(unmarked))
                chosen_u, left_u = pool[:hu], pool[hu:]
            for c in chosen_m:
                h |= 1 << c
            for c in chosen_u:
                h |= 1 << c
            rest = left_m + left_u
            if nd:
                if nd < len(rest):
                    rest = rng.sample(rest, len(rest))
                for c in rest[:nd]:
                    d |= 1 << c
                rest = rest[nd:]
            for c in rest:
                t |= 1 << c
        return h, d, t

    def _order_talon(self, t: int, rng: random.Random) -> tuple[Card, ...]:
        top = [c for c in CardSet(t & self.peeked)]
        rest = [c for c in CardSet(t & ~self.peeked)]
        rng.shuffle(top)
        rng.shuffle(rest)
        return (*top, *rest)

    def _choose_strategy(self, rng: random.Random) -> tuple[Requirement, list[_Plan], list[float]] | None:
        """Plain rejection, or (when some hard declaration is rarely met by chance) a Karp-Luby
        proposal over the events that cover it."""
        if self._strategy is not False:
            return self._strategy if isinstance(self._strategy, tuple) else None
        self._strategy = None
        live = [r for r in self.requirements if r.factor is None and r.monotone
                and not r.met(self.fixed_h | self.opp_played, self.minimum_point, self.revealed_opp)]
        if not live:
            return None
        base = self._base_plan()
        pilot = 200
        passed = [0] * len(live)
        joint = 0
        for _ in range(pilot):
            h, d, _t = self._draw(base, rng)
            decl = h | self.opp_played
            ok = [r.met(decl, self.minimum_point, self.revealed_opp) for r in live]
            for i, good in enumerate(ok):
                passed[i] += good
            joint += self._hard_ok(h, d)
        if joint >= pilot // 4:
            return None
        req = live[min(range(len(live)), key=lambda i: passed[i])]
        known = self.fixed_h | self.opp_played
        plans: list[_Plan] = []
        for cards, need in req.cover():
            offset = (cards & known).bit_count()
            plan = _enumerate(self.classes, self.n_h, self.n_d, cards, offset, need)
            if plan.total > 0:
                plans.append(plan)
        if plans:
            cumulative: list[float] = []
            total = 0.0
            for plan in plans:
                total += plan.total
                cumulative.append(total)
            self._strategy = (req, plans, cumulative)
            return self._strategy
        return None


def sample_worlds(view: PlayerView, rng: random.Random, count: int) -> list[World]:
    """A convenience: :meth:`Inference.sample` on a fresh :class:`Inference`."""
    return Inference(view).sample(rng, count)

