"""The three declared combinations: the point, sequences and sets.

A combination is a :class:`~piquet.engine.cards.CardSet` together with its category.
Two combinations of one category compare by :func:`key`:

* point: number of cards, then pip total (ace 11, court cards and ten 10);
* sequence: length, then top card (Law 63);
* set: four beats three, then rank (Law 64); only aces down to tens count.

>>> from piquet.engine.cards import CardSet
>>> quint = CardSet.parse("KH QH JH TH 9H")
>>> is_valid(Category.SEQUENCES, quint), value(Category.SEQUENCES, quint), call(Category.SEQUENCES, quint)
(True, 15, 'Quint to the king')
>>> call(Category.POINT, CardSet.parse("AS KS 9S 8S 7S")), pips(CardSet.parse("AS KS 9S 8S 7S"))
('Point of five', 45)
>>> [str(s) for s in maximal(Category.SEQUENCES, CardSet.parse("AS KS QS JS 9D 8D 7D TC"))]
['AS KS QS JS', '9D 8D 7D']
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations as _subsets
from typing import TYPE_CHECKING, Final

from piquet.engine.cards import SUIT_PIPS, CardSet, Rank, Suit
from piquet.engine.language import english_number as number_word
from piquet.engine.language import words_in

if TYPE_CHECKING:
    from piquet.engine.refusals import Refusal

__all__ = [
    "COMBINATION_CARDS",
    "SET_RANKS",
    "Category",
    "best",
    "best_key",
    "best_shown",
    "call",
    "candidate_codes",
    "candidate_masks",
    "candidates",
    "good_against_the_cards",
    "invalid_combination",
    "invalid_reason",
    "is_valid",
    "key",
    "maximal",
    "number_word",
    "pips",
    "runs",
    "sequence_value",
    "set_value",
    "value",
]


class Category(enum.Enum):
    """The categories declared, reckoned in this order (Law 67) and declared in it (ruling 10)."""

    POINT = "point"
    SEQUENCES = "sequences"
    SETS = "sets"

    #: Hashed by identity, in C: a member is its own key (``Enum`` hashes the name by a Python call, and
    #: the engine looks members up in dicts at every step).
    __hash__ = object.__hash__


_SEQUENCE_VALUE = {3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18}
#: The ranks whose trios and quatorzes count (Law 64): tens up to aces.
SET_RANKS: Final[tuple[Rank, ...]] = tuple(Rank(r) for r in range(Rank.TEN, Rank.ACE + 1))
_SEQUENCE_NAME = {3: "tierce", 4: "quart", 5: "quint", 6: "sixième", 7: "septième", 8: "huitième"}
def pips(cards: CardSet) -> int:
    """The pip total of some cards, as counted for the point."""
    mask = cards.mask
    return sum(SUIT_PIPS[mask >> (8 * suit) & 0xFF] for suit in range(4))


def sequence_value(length: int) -> int:
    """What a sequence of ``length`` cards scores (Law 63): a tierce 3, a quart 4, a quint to a
    huitième 15 to 18; 0 below three cards (no sequence).

    >>> [sequence_value(n) for n in range(2, 9)]
    [0, 3, 4, 15, 16, 17, 18]
    """
    return _SEQUENCE_VALUE.get(length, 0)


def set_value(size: int) -> int:
    """What a set of ``size`` cards of one rank scores (Law 64): a trio 3, a quatorze 14; 0 below three.

    >>> [set_value(n) for n in range(2, 5)]
    [0, 3, 14]
    """
    return 14 if size == 4 else 3 if size == 3 else 0


def runs(byte: int) -> Iterator[tuple[int, int]]:
    """The maximal runs of following ranks in one suit's 8-bit rank mask, as (lowest rank, length),
    low to high: the sequences a suit holds are those of three or more.

    >>> list(runs(0b11101101))  # 7, 9 10, Q K A
    [(0, 1), (2, 2), (5, 3)]
    """
    return iter(_RUNS[byte])


def _find_runs(byte: int) -> Iterator[tuple[int, int]]:
    """:func:`runs`, found bit by bit (what the table ``_RUNS`` is made of)."""
    low = 0
    while byte >> low:
        if byte >> low & 1:
            length = 0
            while byte >> (low + length) & 1:
                length += 1
            yield low, length
            low += length
        else:
            low += 1


#: The maximal runs of each 8-bit rank mask, low to high (see :func:`runs`), made once.
_RUNS: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(tuple(_find_runs(byte)) for byte in range(256))


def invalid_reason(category: Category, cards: CardSet, minimum_point: int = 1) -> str | None:
    """Why these cards are not a combination of the category, or ``None`` if they are (:func:`invalid_combination`
    said in English).

    >>> invalid_reason(Category.SETS, CardSet.parse("9S 9H 9D"))
    'nines do not count as a set: only aces, kings, queens, knaves and tens do'
    >>> invalid_reason(Category.SEQUENCES, CardSet.parse("AS KS JS"))
    'AS KS JS is not a sequence: the cards must follow one another in one suit'
    """
    refusal = invalid_combination(category, cards, minimum_point)
    return None if refusal is None else str(refusal)


def invalid_combination(category: Category, cards: CardSet, minimum_point: int = 1) -> Refusal | None:
    """Why these cards are not a combination of the category, as a typed reason, or ``None`` if they are.

    >>> invalid_combination(Category.SETS, CardSet.parse("9S 9H 9D")).words("fr")
    'les neuf ne comptent pas comme brelan : seuls les as, les rois, les dames, les valets et les dix comptent'
    """
    # The refusals say a combination with its call, so they import this module: the reason is built here, at once.
    from piquet.engine.refusals import Refusal, Why

    mask = cards.mask
    n = mask.bit_count()
    if n == 0:
        return Refusal(Why.NO_CARDS)
    if category is not Category.SETS:
        suits = [suit for suit in range(4) if mask >> (8 * suit) & 0xFF]
        if category is Category.POINT:
            if len(suits) != 1:
                return Refusal(Why.NOT_A_POINT, cards=cards)
            if n < minimum_point:
                return Refusal(Why.SHORT_POINT, n=n, low=minimum_point)
            return None
        if len(suits) != 1 or n < 3:
            return Refusal(Why.NOT_A_SEQUENCE, cards=cards)
        byte = (mask >> (8 * suits[0])) & 0xFF
        low = (byte & -byte).bit_length() - 1
        if byte != ((1 << n) - 1) << low:
            return Refusal(Why.BROKEN_SEQUENCE, cards=cards)
        return None
    ranks = (mask | mask >> 8 | mask >> 16 | mask >> 24) & 0xFF  # bit r: some card of rank r
    if ranks & (ranks - 1) or n not in (3, 4):
        return Refusal(Why.NOT_A_SET, cards=cards)
    rank = Rank(ranks.bit_length() - 1)
    if rank not in SET_RANKS:
        return Refusal(Why.RANK_NOT_A_SET, rank=rank)
    return None


def is_valid(category: Category, cards: CardSet, minimum_point: int = 1) -> bool:
    return invalid_combination(category, cards, minimum_point) is None


def key(category: Category, cards: CardSet) -> tuple[int, int]:
    """What two combinations of one category are compared by; larger is better."""
    mask = cards.mask
    if category is Category.POINT:
        found = _POINT_KEYS.get(mask)
        if found is None:
            if len(_POINT_KEYS) > 4096:
                _POINT_KEYS.clear()
            found = _POINT_KEYS[mask] = mask.bit_count(), pips(cards)
        return found
    # The top card's rank: the highest set bit of the suit or rank holding.
    return mask.bit_count(), (mask.bit_length() - 1) & 7


#: The key of each point by its mask, found once (a point is of one suit: some thousand masks).
_POINT_KEYS: dict[int, tuple[int, int]] = {}


def value(category: Category, cards: CardSet) -> int:
    """What a combination scores: a point its length, a sequence 3, 4, 15-18, a trio 3, a quatorze 14."""
    n = len(cards)
    if category is Category.POINT:
        return n
    if category is Category.SEQUENCES:
        return sequence_value(n)
    return set_value(n)


def call(category: Category, cards: CardSet, lang: str = "en") -> str:
    """The full call of a combination: "Point of five", "Quart major", "Three kings"; in French "Point de
    cinq", "Quarte majeure", "Trois rois" (``lang``, :mod:`piquet.engine.language`).

    >>> call(Category.SETS, CardSet.parse("AS AH AD AC"), "fr")
    "Quatorze d'as"
    >>> call(Category.SEQUENCES, CardSet.parse("QS JS TS"), "fr")
    'Tierce à la dame'
    """
    said = _CALLS.get((category, cards.mask, lang))
    if said is None:
        said = _CALLS[category, cards.mask, lang] = _call(category, cards, lang)
    return said


#: What :func:`call` said of each category, mask and language (a pure function, asked at each combination
#: scored; the combinations of a pack are a few thousand, and two languages).
_CALLS: dict[tuple[Category, int, str], str] = {}


def _call(category: Category, cards: CardSet, lang: str) -> str:
    words = words_in(lang)
    n = len(cards)
    if category is Category.POINT:
        return words("Point of {number}", number=words.number(n))
    top = max(c.rank for c in cards)
    if category is Category.SEQUENCES:
        name = words(_SEQUENCE_NAME[n].capitalize())
        return words("{name} major", name=name) if top == Rank.ACE else words("{name} to the " + top.word, name=name)
    return words(("Fourteen " if n == 4 else "Three ") + top.plural)


def candidates(category: Category, hand: CardSet, minimum_point: int = 1) -> list[CardSet]:
    """Every combination of the category that can be formed from the hand, best first."""
    shared = _SHARED
    return [shared[mask] for mask in candidate_masks(category, hand.mask, minimum_point)]


def candidate_masks(category: Category, hand: int, minimum_point: int = 1) -> list[int]:
    """:func:`candidates` as masks, for a hand's mask (what the legal declarations are listed from)."""
    return [code & 0xFFFFFFFF for code in candidate_codes(category, hand, minimum_point)]


def candidate_codes(category: Category, hand: int, minimum_point: int = 1) -> list[int]:
    """:func:`candidate_masks` still coded, best first: each code's low 32 bits are the combination's mask
    (the legal points are listed from these and made into declarations only when asked for).

    >>> codes = candidate_codes(Category.SEQUENCES, CardSet.parse("AS KS QS JS").mask)
    >>> [str(CardSet(code & 0xFFFFFFFF)) for code in codes]
    ['AS KS QS JS', 'AS KS QS', 'KS QS JS']
    """
    # Each combination found is coded as one int: its key (length, then pips or top rank), then the
    # order it was found in (suit by suit, earlier higher; within a suit, or rank by rank, the order of
    # itertools.combinations over the cards high to low), then its mask. One sort of ints puts them best
    # first, equal keys in the order found, as the sort of the sets by key did.
    codes: list[int]
    if category is Category.SETS:
        codes = []
        for rank in SET_RANKS:
            held = hand & (0x01010101 << rank)
            if held.bit_count() >= 3:
                codes += _set_codes(held, rank)
    else:
        # A point or a sequence is of one suit: each suit's codes are kept by suit and rank mask (suit << 8 |
        # byte), read here first (a listing is asked at every declaration) and made when first asked.
        if category is Category.POINT:
            get, make = _POINT_CODES.get, _point_codes
        else:
            get, make = _SEQUENCE_CODES.get, _sequence_codes
        spades = get(hand & 0xFF)
        if spades is None:
            spades = make(0, hand & 0xFF)
        hearts = get(256 | hand >> 8 & 0xFF)
        if hearts is None:
            hearts = make(1, hand >> 8 & 0xFF)
        diamonds = get(512 | hand >> 16 & 0xFF)
        if diamonds is None:
            diamonds = make(2, hand >> 16 & 0xFF)
        clubs = get(768 | hand >> 24)
        if clubs is None:
            clubs = make(3, hand >> 24)
        codes = [*spades, *hearts, *diamonds, *clubs]
        if minimum_point > 1 and category is Category.POINT:
            codes = [code for code in codes if code >> 49 >= minimum_point]
    codes.sort(reverse=True)
    return codes


#: Per suit and 8-bit rank mask: the coded sequences of that suit (see candidate_masks), made as asked.
_SEQUENCE_CODES: dict[int, tuple[int, ...]] = {}


def _sequence_codes(suit: int, byte: int) -> tuple[int, ...]:
    codes = _SEQUENCE_CODES.get(suit << 8 | byte)
    if codes is None:
        shift = 8 * suit
        found: list[int] = []
        order = 255
        for low, length in _RUNS[byte]:
            for size in range(3, length + 1):
                for start in range(low, low + length - size + 1):
                    key = size << 7 | (start + size - 1)
                    run = (((1 << size) - 1) << start) << shift
                    found.append(((key << 2 | (3 - suit)) << 8 | order) << 32 | run)
                    order -= 1
        codes = _SEQUENCE_CODES[suit << 8 | byte] = tuple(found)
    return codes


#: Per mask of the cards held of one rank: the coded sets of that rank (see candidate_masks), made as asked.
#: (The order within a rank is what breaks ties between sets of one rank and size.)
_SET_CODES: dict[int, tuple[int, ...]] = {}


def _set_codes(held: int, rank: int) -> tuple[int, ...]:
    codes = _SET_CODES.get(held)
    if codes is None:
        bits = [bit for bit in (1 << rank, 1 << (rank + 8), 1 << (rank + 16), 1 << (rank + 24)) if held & bit]
        found: list[int] = []
        order = 255
        for size in (3, 4):
            if len(bits) >= size:
                for chosen in _subsets(bits, size):
                    found.append((((size << 7 | rank) << 2) << 8 | order) << 32 | sum(chosen))
                    order -= 1
        codes = _SET_CODES[held] = tuple(found)
    return codes


#: Per suit and 8-bit rank mask: the coded points of that suit (see candidate_masks), best first, made as
#: asked (sorted already, so that the sort of a hand's codes merges four runs).
_POINT_CODES: dict[int, tuple[int, ...]] = {}


def _point_codes(suit: int, byte: int) -> tuple[int, ...]:
    codes = _POINT_CODES.get(suit << 8 | byte)
    if codes is None:
        codes = tuple(sorted((
            (((((sub.bit_count() << 7 | SUIT_PIPS[sub]) << 2 | (3 - suit)) << 8 | (255 - order)) << 32)
             | sub << (8 * suit))
            for order, sub in enumerate(_point_subsets(byte))), reverse=True))
        _POINT_CODES[suit << 8 | byte] = codes
    return codes


class _SharedSets(dict[int, CardSet]):
    """The CardSet of each combination's mask, made once (a CardSet never changes): there are few
    (at most 255 points a suit, 21 sequences a suit, 25 sets)."""

    def __missing__(self, mask: int) -> CardSet:
        cards = self[mask] = CardSet(mask)
        return cards


_SHARED = _SharedSets()
#: The CardSet of a combination's mask, one object for each mask, made when first asked for (what the engine
#: builds declarations of, so that the same combination is always the same object).
COMBINATION_CARDS: Final[Mapping[int, CardSet]] = _SHARED


#: Per 8-bit rank mask: its non-empty subsets, by size, each size in the order of ``itertools.combinations``
#: over the ranks high to low (the order the points were listed in); filled in as asked.
_POINT_SUBSETS: dict[int, tuple[int, ...]] = {}


def _point_subsets(byte: int) -> tuple[int, ...]:
    subsets = _POINT_SUBSETS.get(byte)
    if subsets is None:
        bits = [1 << r for r in range(7, -1, -1) if byte >> r & 1]
        subsets = tuple(sum(chosen) for size in range(1, len(bits) + 1) for chosen in _subsets(bits, size))
        _POINT_SUBSETS[byte] = subsets
    return subsets


def maximal(category: Category, hand: CardSet, minimum_point: int = 1) -> list[CardSet]:
    """The combinations a player declaring in full would show, best first.

    For the point, the best suit; for sequences, every maximal run of three or
    more; for sets, every trio or quatorze held.
    """
    if category is Category.POINT:
        suits = [hand.suit(s) for s in Suit if len(hand.suit(s)) >= max(minimum_point, 1)]
        return sorted(suits, key=lambda cs: key(category, cs), reverse=True)[:1]
    found: list[CardSet] = []
    if category is Category.SEQUENCES:
        for suit in range(4):
            byte = (hand.mask >> (8 * suit)) & 0xFF
            for low, length in _RUNS[byte]:
                if length >= 3:
                    found.append(CardSet((((1 << length) - 1) << low) << (8 * suit)))
    else:
        for rank in SET_RANKS:
            held = hand.rank(rank)
            if len(held) >= 3:
                found.append(held)
    return sorted(found, key=lambda cs: key(category, cs), reverse=True)


def best(category: Category, hand: CardSet, minimum_point: int = 1) -> CardSet | None:
    """The best combination of the category in the hand, or ``None``."""
    found = maximal(category, hand, minimum_point)
    return found[0] if found else None


def best_shown(category: Category, shown: Sequence[CardSet]) -> CardSet | None:
    """The best of the combinations ``shown`` in a declaration (``None`` if none): what younger's reply to
    elder's call rests on. Elder's call is his first combination; younger, who "is only reckoning", may show
    hers in any order (Cavendish, *Calling*: "The younger hand is not bound to call his best sequence first").

    >>> str(best_shown(Category.SEQUENCES, [CardSet.parse("9S 8S 7S"), CardSet.parse("JH TH 9H 8H")]))
    'JH TH 9H 8H'
    >>> best_shown(Category.SETS, []) is None
    True
    """
    if len(shown) < 2:
        return shown[0] if shown else None
    return max(shown, key=lambda cards: key(category, cards))


def good_against_the_cards(category: Category, cards: CardSet, possible: CardSet) -> bool:
    """Whether no combination the opponent could hold, drawn from ``possible``, equals or beats ``cards``.

    ``possible`` is every card the declarer cannot account for (not in his hand
    nor among his discards).

    >>> good_against_the_cards(Category.SETS, CardSet.parse("TS TH TD"),
    ...                        CardSet.parse("AS AH AD 9C"))
    False
    >>> good_against_the_cards(Category.SETS, CardSet.parse("TS TH TD"),
    ...                        CardSet.parse("AS AH KD 9C"))
    True
    """
    rival = best_key(category, possible.mask)
    return rival is None or rival < key(category, cards)


def best_key(category: Category, mask: int, minimum_point: int = 1) -> tuple[int, int] | None:
    """The :func:`key` of the best combination of the category in the cards of ``mask`` (that of
    :func:`best`, found from the bits without making the combinations), or ``None``.

    >>> best_key(Category.SEQUENCES, CardSet.parse("AS KS QS JS 9D 8D 7D TC").mask)
    (4, 7)
    >>> best_key(Category.SETS, CardSet.parse("TS TH TD AS AH").mask), best_key(Category.SETS, 0)
    ((3, 3), None)
    """
    found: tuple[int, int] | None = None
    if category is Category.SETS:
        for rank in SET_RANKS:
            n = (mask & (0x01010101 << rank)).bit_count()
            if n >= 3 and (found is None or (n, int(rank)) > found):
                found = (n, int(rank))
        return found
    for suit in range(4):
        byte = (mask >> (8 * suit)) & 0xFF
        if category is Category.POINT:
            n = byte.bit_count()
            if n >= max(minimum_point, 1) and (found is None or (n, SUIT_PIPS[byte]) > found):
                found = (n, SUIT_PIPS[byte])
            continue
        for low, length in _RUNS[byte]:
            if length >= 3 and (found is None or (length, low + length - 1) > found):
                found = (length, low + length - 1)
    return found
