"""Actions: every decision of a partie, as small frozen values.

``player`` is always a seat, 0 or 1 (the order of the record's ``players``).
The engine (:class:`piquet.engine.partie.Partie`) lists, checks and applies them;
records (:mod:`piquet.engine.record`) write and read them.

>>> from piquet.engine.cards import Card
>>> Play(0, Card.parse("AS"))
Play(player=0, card=Card.parse('AS'))
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import assert_never

from piquet.engine.cards import FULL_PACK, Card, CardSet, shuffled_pack
from piquet.engine.combinations import Category
from piquet.engine.language import words_in
from piquet.engine.words import pretty_card

__all__ = [
    "AcceptConcession",
    "Action",
    "Bid",
    "CarteBlanche",
    "ChooseDealer",
    "Concede",
    "Cut",
    "Deal",
    "Declare",
    "Exchange",
    "NotationError",
    "Play",
    "action_text",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class Cut:
    """Each player cuts a card (a chance event; ``player`` is the seat who cuts first)."""

    player: int
    cards: tuple[Card, Card]

    def describe(self, names: tuple[str, str], lang: str = "en") -> str:
        """The action in words, in ``lang`` (:mod:`piquet.engine.language`), the players named ``names``; so are the
        other actions'."""
        return words_in(lang)("{a} cuts {card_a}, {b} cuts {card_b}", a=names[0],
                              card_a=pretty_card(self.cards[0], lang), b=names[1],
                              card_b=pretty_card(self.cards[1], lang))


@dataclass(frozen=True, slots=True)
class ChooseDealer:
    """The higher cut chooses who deals first (Law 4)."""

    player: int
    dealer: int

    def describe(self, names: tuple[str, str], lang: str = "en") -> str:
        return words_in(lang)("{name} chooses that {dealer} deals first", name=names[self.player],
                              dealer=names[self.dealer])


#: The 32 cards, as the set a pack must be.
_ALL_CARDS: frozenset[int] = frozenset(range(32))
#: Each card's bit in a mask.
_CARD_BITS: tuple[int, ...] = tuple(1 << card for card in range(32))
#: By packet size: the cards of the pack the non-dealer is dealt (the first packet, the third...), in one look-up.
_FIRST_PACKETS: dict[int, Callable[[Sequence[Card]], tuple[Card, ...]]] = {
    packets: itemgetter(*[i for i in range(24) if i // packets % 2 == 0]) for packets in (2, 3)}


@dataclass(frozen=True, slots=True)
class Deal:
    """The dealer deals: his packet size (2 or 3, ``None`` if not recorded) and the cards.

    ``hands`` is indexed by seat; ``talon`` lists the eight cards top first.
    """

    player: int
    hands: tuple[CardSet, CardSet]
    talon: tuple[Card, ...]
    packets: int | None = None

    @classmethod
    def from_pack(cls, dealer: int, pack: Sequence[Card], packets: int, *, in_packets: bool = True) -> Deal:
        """Deal a shuffled pack (top card first) the way a dealer does (Law 9):
        twelve cards each in packets of ``packets``, the non-dealer first, then the talon.

        With ``in_packets`` false, seat 0 takes the pack's first twelve cards and seat 1 the next
        twelve, whoever deals and in whatever packets (the deal still records them): for a table
        whose takebacks must not deal a hand anew by dealing in other packets.

        >>> from piquet.engine.cards import CARDS
        >>> d = Deal.from_pack(0, CARDS, 3)
        >>> str(d.hands[1])[:11], len(d.hands[0]), [str(c) for c in d.talon][:2]
        ('AS KS 9S 8S', 12, ['7C', '8C'])
        >>> str(Deal.from_pack(1, CARDS, 2, in_packets=False).hands[0])
        'AS KS QS JS TS 9S 8S 7S TH 9H 8H 7H'
        """
        if packets not in (2, 3):
            raise ValueError(f"packets must be 2 or 3, not {packets!r}")
        if len(pack) != 32 or set(pack) != _ALL_CARDS:  # (a set of ints, hashed in C; a sort compares Cards)
            raise ValueError("a pack must hold each of the 32 cards once")
        if not in_packets:
            return cls(dealer, (CardSet(pack[:12]), CardSet(pack[12:24])), tuple(pack[24:]), packets)
        # The non-dealer takes the first packet and every other one after it, the dealer the rest of the
        # twenty-four cards (taken by position, and their bits added up, in one pass each).
        first = sum(map(_CARD_BITS.__getitem__, _FIRST_PACKETS[packets](pack)))
        talon = tuple(pack[24:])
        second = FULL_PACK ^ first ^ sum(map(_CARD_BITS.__getitem__, talon))
        hands = (CardSet(second), CardSet(first)) if dealer == 0 else (CardSet(first), CardSet(second))
        return cls(dealer, hands, talon, packets)

    @classmethod
    def shuffled(cls, rng: random.Random, dealer: int, packets: int, *, in_packets: bool = True) -> Deal:
        """A pack shuffled by ``rng`` (:func:`~piquet.engine.cards.shuffled_pack`) and dealt
        (:meth:`from_pack`): the one way a seeded deal is made, by the arena, the interfaces and the tests.

        >>> import random
        >>> Deal.shuffled(random.Random(3), 0, 2) == Deal.shuffled(random.Random(3), 0, 2)
        True
        """
        return cls.from_pack(dealer, shuffled_pack(rng), packets, in_packets=in_packets)

    def describe(self, names: tuple[str, str], lang: str = "en") -> str:
        w = words_in(lang)
        how = w(" in packets of {packets}", packets=self.packets) if self.packets else ""
        return w("{name} deals{how}", name=names[self.player], how=how)


@dataclass(frozen=True, slots=True)
class Bid:
    """A call in the auction of Auction Piquet: ``"8+"``, ``"11-"``, ``"pass"``, ``"double"`` or
    ``"redouble"`` (see :func:`piquet.engine.variants.parse_bid`)."""

    player: int
    call: str

    @property
    def tricks(self) -> int | None:
        """The number of tricks bid, or ``None`` for pass, double and redouble."""
        return int(self.call[:-1]) if self.call[-1:] in ("+", "-") else None

    @property
    def minus(self) -> bool:
        return self.call.endswith("-")

    def describe(self, names: tuple[str, str], lang: str = "en") -> str:
        w = words_in(lang)
        if self.call in _NAMED_CALLS:
            return w(_NAMED_CALLS[self.call], name=names[self.player])
        return w("{name} bids {call}", name=names[self.player], call=self.call)


#: Auction's calls that are no bid, as an action's words say them.
_NAMED_CALLS = {"pass": "{name} bids pass", "double": "{name} bids double", "redouble": "{name} bids redouble"}


@dataclass(frozen=True, slots=True)
class CarteBlanche:
    """A player dealt no king, queen or knave announces carte blanche, or not (Laws 18-20; declining is
    the project's reading of "optional to announce", where Law 20 binds him to announce it).

    Elder announcing it says first how many cards he will exchange.
    """

    player: int
    announce: bool = True
    will_exchange: int | None = None

    def describe(self, names: tuple[str, str], lang: str = "en") -> str:
        w = words_in(lang)
        if not self.announce:
            return w("{name} does not announce carte blanche", name=names[self.player])
        extra = w(", and will exchange {count}", count=self.will_exchange) if self.will_exchange is not None else ""
        return w("{name} announces carte blanche{extra}", name=names[self.player], extra=extra)


@dataclass(frozen=True, slots=True)
class Exchange:
    """Discards; as many cards are drawn from the top of the talon.

    ``show_rest`` is younger's election to let both see the cards left in the
    talon once elder has led (Law 36).
    """

    player: int
    discards: CardSet
    show_rest: bool = False

    def describe(self, names: tuple[str, str], lang: str = "en") -> str:
        return words_in(lang)("{name} exchanges {count}", name=names[self.player], count=len(self.discards))


@dataclass(frozen=True, slots=True)
class Declare:
    """A declaration in one category. Elder's first combination is his call (Laws 46-49), any further ones
    those he shows if his call wins. Younger's combinations are what she reckons, in any order: her answer to
    elder's call rests on the best of them (Cavendish, *Calling*: "the younger is only reckoning"; see
    :func:`~piquet.engine.combinations.best_shown`). No combinations: elder sinks, or younger answers "good".
    """

    player: int
    category: Category
    combinations: tuple[CardSet, ...] = ()

    @property
    def called(self) -> CardSet | None:
        """The first combination: elder's call (younger's answer is her best, not her first)."""
        return self.combinations[0] if self.combinations else None

    def describe(self, names: tuple[str, str], lang: str = "en") -> str:
        w = words_in(lang)
        if not self.combinations:
            return w("{name} declares no " + self.category.value, name=names[self.player])
        shown = "; ".join(str(c) for c in self.combinations)
        return w("{name} declares {category}: {shown}", name=names[self.player], category=w(self.category.value),
                 shown=shown)


@dataclass(frozen=True, slots=True)
class Play:
    """A card played to the current trick."""

    player: int
    card: Card

    def describe(self, names: tuple[str, str], lang: str = "en") -> str:
        return words_in(lang)("{name} plays {card}", name=names[self.player], card=pretty_card(self.card, lang))


@dataclass(frozen=True, slots=True)
class Concede:
    """In the last deal, a player who cannot save the rubicon concedes (the rulings, 18)."""

    player: int

    def describe(self, names: tuple[str, str], lang: str = "en") -> str:
        return words_in(lang)("{name} concedes", name=names[self.player])


@dataclass(frozen=True, slots=True)
class AcceptConcession:
    """With the option ``concession_may_be_declined``: the conceding player's opponent accepts the
    concession (``accept``) or declines it and plays on, for a capot (Cavendish's treatise, Case XXII)."""

    player: int
    accept: bool = True

    def describe(self, names: tuple[str, str], lang: str = "en") -> str:
        return words_in(lang)("{name} accepts the concession" if self.accept else "{name} declines the concession",
                              name=names[self.player])


Action = Cut | ChooseDealer | Deal | Bid | CarteBlanche | Exchange | Declare | Play | Concede | AcceptConcession


# ---------------------------------------------------------------- the text notation
class NotationError(ValueError):
    """Text that is not an action in the notation of :func:`action_text`."""


def action_text(action: Action, names: Sequence[str] | None = None) -> str:
    """An action in the project's text notation: the one the terminal reads, the tests write and the docs quote.
    :func:`parse_action` reads it back. Without ``names`` it does not say its player (whose turn it is says who);
    with them it names him first, and a colon: ``Bill: x 7C``.

    ========================  ==================================================================
    ``QS``                    play the queen of spades
    ``x 7H 8C``, ``x -``      exchange (discard) these cards, or none; ``x 9S show`` lets both
                              see the rest of the talon (younger, Law 36)
    ``point AS KS QS JS``     declare: ``point``, ``sequences``, ``sets``; further combinations
    ``sets AS AH AD | KS KH KD``   after ``|``; ``point -`` declares nothing (sinks, or "good")
    ``cb``, ``cb 3``, ``cb no``    carte blanche (elder says how many cards he will exchange), or not
    ``bid 8+``, ``bid pass``  a call in the auction (``double``, ``redouble``)
    ``concede``               the rulings, 18
    ``accept``, ``decline``   the answer to a concession
    ``dealer 0``              the higher cut chooses the seat who deals first
    ``cut 7S AD``             the cut (each player's card, seat 0 first)
    ``Bill: x 7C``, ``1: QS``  any of these with its player named first (by name, or seat), and a colon
    ========================  ==================================================================

    A deal (the 32 cards) has no text form; records hold it.

    >>> from piquet.engine.cards import Card, CardSet
    >>> action_text(Exchange(1, CardSet.parse("8C 7H")))
    'x 7H 8C'
    >>> action_text(Declare(0, Category.SEQUENCES, (CardSet.parse("AS KS QS"), CardSet.parse("JH TH 9H"))))
    'sequences AS KS QS | JH TH 9H'
    >>> parse_action("sequences AS KS QS | JH TH 9H", 0) == Declare(
    ...     0, Category.SEQUENCES, (CardSet.parse("AS KS QS"), CardSet.parse("JH TH 9H")))
    True
    >>> parse_action("x 9S show", 1)
    Exchange(player=1, discards=CardSet.parse('9S'), show_rest=True)
    >>> action_text(Play(1, Card.parse("QS")), ("Ann", "Bill")), parse_action("Bill: QS", names=("Ann", "Bill"))
    ('Bill: QS', Play(player=1, card=Card.parse('QS')))
    """
    if names is not None:
        return f"{names[action.player]}: {action_text(action)}"
    match action:
        case Play():
            return str(action.card)
        case Exchange():
            text = "x " + (" ".join(action.discards.strings()) or "-")
            return text + " show" if action.show_rest else text
        case Declare():
            shown = " | ".join(" ".join(c.strings()) for c in action.combinations) or "-"
            return f"{action.category.value} {shown}"
        case CarteBlanche():
            if not action.announce:
                return "cb no"
            return "cb" if action.will_exchange is None else f"cb {action.will_exchange}"
        case Bid():
            return f"bid {action.call}"
        case Concede():
            return "concede"
        case AcceptConcession():
            return "accept" if action.accept else "decline"
        case ChooseDealer():
            return f"dealer {action.dealer}"
        case Cut():
            return f"cut {action.cards[0]} {action.cards[1]}"
        case Deal():
            raise NotationError("a deal has no text form: a record holds its cards")
        case _:
            assert_never(action)


def parse_action(text: str, player: int | None = None, names: Sequence[str] = ()) -> Action:
    """Read an action written in the notation of :func:`action_text`: of ``player``, or of the player it names
    first (one of ``names``, or a seat, 0 or 1, and a colon: ``Bill: x 7C``). Raises :class:`NotationError` (or
    :class:`~piquet.engine.cards.CardError` for a bad card) saying why.

    >>> parse_action("QS", 1)
    Play(player=1, card=Card.parse('QS'))
    >>> parse_action("Ann: cb 3", names=("Ann", "Bill")), parse_action("1: concede")
    (CarteBlanche(player=0, announce=True, will_exchange=3), Concede(player=1))
    >>> try:
    ...     parse_action("declare it all", 0)
    ... except NotationError as e:
    ...     print(str(e)[:40])
    not an action: 'declare it all' (a card,
    """
    named, colon, after = text.partition(":")
    if colon:
        who = named.strip()
        if who in names:
            player = list(names).index(who)
        elif who in ("0", "1"):
            player = int(who)
        else:
            known = ", ".join([*names, "0", "1"])
            raise NotationError(f"not a player: {who!r} (name one of {known} before the colon)")
        text = after
    if player is None:
        raise NotationError(f"whose action is {text.strip()!r}? Name the player first, as in 'Bill: x 7C'")
    words = text.split()
    if not words:
        raise NotationError("no action: the text is empty")
    verb, rest = words[0].lower(), words[1:]
    if len(words) == 1 and verb not in ("concede", "accept", "decline", "cb"):
        try:
            return Play(player, Card.parse(words[0]))
        except ValueError:
            pass
    if verb == "x":
        show = bool(rest) and rest[-1].lower() == "show"
        cards = [w for w in (rest[:-1] if show else rest) if w != "-"]
        return Exchange(player, CardSet.parse(cards), show)
    if verb in {c.value for c in Category}:
        body = " ".join(rest).strip()
        combos = () if body in ("", "-") else tuple(CardSet.parse(part) for part in body.split("|"))
        return Declare(player, Category(verb), combos)
    if verb == "cb":
        if rest == ["no"]:
            return CarteBlanche(player, False)
        if not rest:
            return CarteBlanche(player, True)
        if len(rest) == 1 and rest[0].isascii() and rest[0].isdigit():
            return CarteBlanche(player, True, int(rest[0]))
    if verb == "bid" and len(rest) == 1:
        return Bid(player, rest[0].lower())
    if verb == "concede" and not rest:
        return Concede(player)
    if verb in ("accept", "decline") and not rest:
        return AcceptConcession(player, verb == "accept")
    if verb == "dealer" and len(rest) == 1 and rest[0] in ("0", "1"):
        return ChooseDealer(player, int(rest[0]))
    if verb == "cut" and len(rest) == 2:
        return Cut(player, (Card.parse(rest[0]), Card.parse(rest[1])))
    raise NotationError(f"not an action: {text!r} (a card, x CARDS, point/sequences/sets CARDS, cb, bid CALL, "
                        "concede, accept, decline, dealer SEAT, cut CARD CARD)")
