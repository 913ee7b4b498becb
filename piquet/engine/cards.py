"""Cards and sets of cards.

The piquet pack has 32 cards: A K Q J 10 9 8 7 in each of four suits. A card is
an ``int`` from 0 to 31 (``suit * 8 + rank``, the seven lowest), so a set of cards
is a 32-bit mask and hands, talons and "cards a player has seen" combine with
``& | ^`` like bitboards.

>>> card = Card.parse("TS")
>>> card, card.rank, card.suit
(Card.parse('TS'), <Rank.TEN: 3>, <Suit.SPADES: 0>)
>>> str(Card.parse("10♥"))
'TH'
>>> hand = CardSet.parse("AS KS QS 7D")
>>> len(hand), Card.parse("KS") in hand, str(hand.suit(Suit.SPADES))
(4, True, 'AS KS QS')
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Iterator
from typing import Final

__all__ = [
    "CARDS",
    "FULL_PACK",
    "PIPS",
    "SUIT_PIPS",
    "Card",
    "CardError",
    "CardSet",
    "Rank",
    "Suit",
    "shuffled_pack",
]


class CardError(ValueError):
    """A card or a list of cards could not be read."""


class Suit(enum.IntEnum):
    """The four suits, in the order the project sorts them (spades first)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """The letter of the record notation: ``S H D C``."""
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def mask(self) -> int:
        """The 32-bit mask of the eight cards of this suit."""
        return 0xFF << (8 * self)


class Rank(enum.IntEnum):
    """Ranks from the seven (0) to the ace (7): the order of play and of sequences."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def letter(self) -> str:
        return "789TJQKA"[self]

    @property
    def pips(self) -> int:
        """The value counted for the point: ace 11, court cards and ten 10, the rest their face."""
        return (7, 8, 9, 10, 10, 10, 10, 11)[self]

    @property
    def word(self) -> str:
        """The English name used in the traditional calls (the jack is the knave)."""
        return ("seven", "eight", "nine", "ten", "knave", "queen", "king", "ace")[self]

    @property
    def plural(self) -> str:
        return ("sevens", "eights", "nines", "tens", "knaves", "queens", "kings", "aces")[self]

    @property
    def is_court(self) -> bool:
        """King, queen or knave: the cards whose absence makes carte blanche (Law 18)."""
        return Rank.JACK <= self <= Rank.KING

    @property
    def mask(self) -> int:
        """The mask of the four cards of this rank."""
        return 0x01010101 << self


_RANK_INPUT: Final = {"A": 7, "K": 6, "Q": 5, "J": 4, "T": 3, "10": 3, "9": 2, "8": 1, "7": 0}
_SUIT_INPUT: Final = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}


class Card(int):
    """One card, an ``int`` from 0 to 31 with a readable face.

    ``Card.parse`` reads the record notation (rank then suit); ``str`` writes it.

    >>> Card.parse("qd").rank.word, Card.parse("QD").suit.letter
    ('queen', 'D')
    >>> Card.parse("1S")
    Traceback (most recent call last):
    ...
    piquet.engine.cards.CardError: not a card: '1S' (write rank A K Q J T 9 8 7, then suit S H D C, e.g. 'TS')
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 32:
            raise CardError(f"card index out of range: {index!r}")
        return super().__new__(cls, index)

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return CARDS[suit * 8 + rank]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card such as ``"TS"``, ``"10S"``, ``"ts"`` or ``"10♠"``."""
        if not isinstance(text, str):
            raise CardError(f"not a card: {text!r} (expected a string such as 'TS')")
        t = text.upper()
        rank = _RANK_INPUT.get(t[:-1]) if len(t) >= 2 else None
        suit = _SUIT_INPUT.get(t[-1:]) if t else None
        if rank is None or suit is None:
            raise CardError(
                f"not a card: {text!r} (write rank A K Q J T 9 8 7, then suit S H D C, e.g. 'TS')"
            )
        return CARDS[suit * 8 + rank]

    @property
    def rank(self) -> Rank:
        return _RANK_OF[self]

    @property
    def suit(self) -> Suit:
        return _SUIT_OF[self]

    @property
    def mask(self) -> int:
        return 1 << self

    def beats(self, lead: int) -> bool:
        """Whether this card, played to ``lead``, wins the trick: a higher card of the suit led
        (Law 59: there are no trumps). The one home of the trick's winner.

        >>> Card.parse("KS").beats(Card.parse("QS")), Card.parse("AH").beats(Card.parse("7S"))
        (True, False)
        """
        # Same suit (index // 8) and a higher rank (index % 8): a higher index within the suit.
        return self >> 3 == lead >> 3 and self > lead

    @property
    def words(self) -> str:
        """The card's name in words, as the game says it (the jack is the knave).

        >>> Card.parse("JH").words, Card.parse("TS").words
        ('knave of hearts', 'ten of spades')
        """
        return f"{self.rank.word} of {self.suit.name.lower()}"

    def pretty(self) -> str:
        """The card with its suit symbol and a readable ten: ``10♠``."""
        rank = "10" if self.rank == Rank.TEN else self.rank.letter
        return rank + self.suit.symbol

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


CARDS: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(32))
# Looked up rather than built: rank and suit are asked for in every comparison.
_RANK_OF: Final = tuple(Rank(i & 7) for i in range(32))
_SUIT_OF: Final = tuple(Suit(i >> 3) for i in range(32))
#: The pip value of each card, by index (ace 11, court cards and ten 10, others their face).
PIPS: Final = tuple(Rank(i & 7).pips for i in range(32))
#: The pip total of one suit's cards, by the suit's 8-bit rank mask (bit ``r`` for rank ``r``).
SUIT_PIPS: Final = tuple(sum(Rank(r).pips for r in range(8) if byte >> r & 1) for byte in range(256))
FULL_PACK: Final = 0xFFFFFFFF
#: Each card's record notation, by index (written for every card a view or record shows).
_NAMES: Final = tuple(Rank(i & 7).letter + Suit(i >> 3).letter for i in range(32))


#: The cards of one suit (by index) for each 8-bit rank mask of it, high to low: a hand's cards are four
#: look-ups, not a loop over its bits (the cards of a hand are listed at every turn of a game).
_SUIT_CARDS: Final = tuple(tuple(tuple(CARDS[suit * 8 + rank] for rank in range(7, -1, -1) if byte >> rank & 1)
                                 for byte in range(256)) for suit in range(4))


def _high_to_low(mask: int) -> tuple[Card, ...]:
    """Cards of a mask by suit (spades first), high to low within a suit."""
    spades, hearts, diamonds, clubs = _SUIT_CARDS
    return (*spades[mask & 0xFF], *hearts[mask >> 8 & 0xFF], *diamonds[mask >> 16 & 0xFF], *clubs[mask >> 24 & 0xFF])


class CardSet:
    """An immutable set of cards backed by a 32-bit mask.

    Iteration goes suit by suit (spades, hearts, diamonds, clubs), high to low,
    which is also how hands are shown.

    >>> hand = CardSet.parse("7S AS TH")
    >>> list(hand)
    [Card.parse('AS'), Card.parse('7S'), Card.parse('TH')]
    >>> hand | CardSet.parse("KS")
    CardSet.parse('AS KS 7S TH')
    >>> (hand - CardSet.parse("AS")).mask == hand.mask & ~Card.parse("AS").mask
    True
    >>> CardSet.parse("AS AS")
    Traceback (most recent call last):
    ...
    piquet.engine.cards.CardError: card 'AS' given twice
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: int | Iterable[int] = 0) -> None:
        if isinstance(cards, int):
            if not 0 <= cards <= FULL_PACK:
                raise CardError(f"not a 32-bit card mask: {cards!r}")
            mask = cards
        else:
            mask = 0
            for card in cards:
                mask |= 1 << card
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        """Pickled, copied and deep-copied by its mask (the immutability above would refuse
        the default, which sets the attribute on a blank object)."""
        return (CardSet, (self.mask,))

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        """Read cards separated by spaces or commas, or an iterable of card strings.

        A card given twice is an error rather than silently merged.
        """
        items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        mask = 0
        for item in items:
            card = Card.parse(item)
            if mask & card.mask:
                raise CardError(f"card {str(card)!r} given twice")
            mask |= card.mask
        return cls(mask)

    def __iter__(self) -> Iterator[Card]:
        return iter(_high_to_low(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 32 and bool(self.mask >> card & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def issubset(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def suit(self, suit: Suit) -> CardSet:
        """The cards of one suit."""
        return CardSet(self.mask & suit.mask)

    def rank(self, rank: Rank) -> CardSet:
        """The cards of one rank."""
        return CardSet(self.mask & rank.mask)

    def suits(self) -> set[Suit]:
        return {s for s in Suit if self.mask & s.mask}

    def cards(self) -> tuple[Card, ...]:
        return _high_to_low(self.mask)

    def strings(self) -> list[str]:
        """The cards in record notation, in display order."""
        return [_NAMES[c] for c in _high_to_low(self.mask)]

    def pretty(self) -> str:
        return " ".join(c.pretty() for c in self)

    def __str__(self) -> str:
        return " ".join(self.strings())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


def shuffled_pack(rng: random.Random) -> list[Card]:
    """The 32 cards shuffled by ``rng``, top card first: the one way the project shuffles a pack
    (:meth:`piquet.engine.actions.Deal.shuffled` deals it), so that a seed gives the same deals
    everywhere.

    >>> pack = shuffled_pack(random.Random(1))
    >>> sorted(pack) == list(CARDS), pack == shuffled_pack(random.Random(1))
    (True, True)
    >>> again = list(CARDS); random.Random(1).shuffle(again); again == pack   # as rng.shuffle shuffles
    True
    """
    pack = list(CARDS)
    if type(rng) is not random.Random:
        rng.shuffle(pack)  # a generator of its own kind draws as it draws
        return pack
    # random.Random.shuffle's Fisher-Yates, its draws made here: each card's place is drawn from as many
    # random bits as the places left need, drawn again while too high (what Random._randbelow does), without
    # a call of _randbelow for each card (a pack is shuffled at every deal). The same pack from the same seed.
    getrandbits = rng.getrandbits
    for i in range(31, 0, -1):
        bits = _PLACE_BITS[i]
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        pack[i], pack[j] = pack[j], pack[i]
    return pack


#: How many random bits a place among ``i + 1`` needs, by ``i``.
_PLACE_BITS: Final = tuple((i + 1).bit_length() for i in range(32))
