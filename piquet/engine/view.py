"""What one player may know: the only thing agents and interfaces are given.

A :class:`PlayerView` holds the player's own hand, discards and what he looked
at, the cards shown to both (a carte blanche, combinations scored or tied,
the rest of the talon if younger showed it), what each declaration announced,
the cards played, and the scores; :attr:`PlayerView.log` is the deal so far as
typed events (:mod:`piquet.engine.events`), public to both players.
It never holds a card of the opponent's that was not shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Final

from piquet.engine.cards import Card, CardSet, Rank
from piquet.engine.combinations import Category
from piquet.engine.scoring import DealScore, ScoreEvent, Settlement

if TYPE_CHECKING:
    from piquet.engine.actions import Bid, Declare
    from piquet.engine.events import Answer, LogEntry
    from piquet.engine.partie import Phase
    from piquet.engine.variants import Contract, GameResult, Rules

__all__ = ["Announcement", "PlayerView", "Trick"]

@dataclass(frozen=True, slots=True)
class Announcement:
    """What elder's call in one category told both players, and younger's answer.

    ``length`` is the number of cards called (``None``: elder called nothing);
    ``rank`` the rank of a set called; ``detail`` what elder said when asked at
    equal length (the pips of a point, the top rank of a sequence);
    ``answer`` younger's "good", "not good" or "equal" (``None`` until she
    answers, or when elder called nothing).
    """

    category: Category
    length: int | None
    rank: Rank | None = None
    detail: int | None = None
    answer: Answer | None = None


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the two cards (lead first) and who won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True)
class PlayerView:
    """One player's knowledge of the partie (``seat`` ``None`` for a spectator)."""

    seat: int | None
    players: tuple[str, str]
    variant: str
    options: dict[str, bool | int]
    phase: Phase
    to_act: int | None
    deal_number: int
    dealer: int | None
    elder: int
    hand: CardSet
    dealt: CardSet
    discards: CardSet
    #: Cards elder looked at among those he left of the top five (Law 33).
    peeked: CardSet
    #: The cards left in the talon, once younger has shown them to both.
    rest: CardSet
    show_rest: bool | None
    talon_left: int
    hand_sizes: tuple[int, int]
    exchanged: tuple[int | None, int | None]
    will_exchange: int | None
    carte_blanche: tuple[bool, bool]
    #: Hands as dealt, shown to prove carte blanche.
    shown_dealt: tuple[CardSet, CardSet]
    #: Cards shown in declarations (scored or tied combinations, a quatorze called).
    revealed: tuple[CardSet, CardSet]
    own_calls: tuple[Declare, ...]
    #: Elder's calls and younger's answers, as heard by both.
    announcements: tuple[Announcement, ...]
    trick: tuple[Card, ...]
    leader: int
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, int]
    events: tuple[ScoreEvent, ...]
    #: What was said, done and scored in this deal so far, in order (the words are :mod:`piquet.engine.words`).
    log: tuple[LogEntry, ...]
    deal_scores: tuple[DealScore, ...]
    totals: tuple[int, int]
    result: Settlement | None
    opponent: int | None
    #: When it is this player's exchange: the fewest and most cards he may exchange.
    exchange_range: tuple[int, int] | None
    #: Auction Piquet: the calls of this deal's auction, and the contract once it is over.
    bids: tuple[Bid, ...]
    contract: Contract | None
    #: Piquet au Cent: the games finished, and each player's score in the game in progress.
    games: tuple[GameResult, ...]
    game_scores: tuple[int, int]
    #: What younger won in the declarations and reckons only after elder's first lead (Law 67, the
    #: rulings 10 and 12): public, since elder heard her answers; it counts against a pique at that lead.
    unreckoned: tuple[ScoreEvent, ...]

    def __reduce__(self) -> tuple[Callable[..., PlayerView], tuple[object, ...]]:
        """Pickled (to a worker) and copied field by field: what the player may know, and nothing of the
        deal the fields of a view built by the partie are filled in from."""
        return PlayerView, tuple([getattr(self, name) for name in _FIELDS])

    @property
    def rules(self) -> Rules:
        """The rules this partie is played by (the variant with its options), shared, not rebuilt."""
        from piquet.engine.variants import rules_for

        return rules_for(self.variant, self.options)

    @property
    def counted_deals(self) -> int:
        """The deals played to their end that count toward the partie (not an annulled Auction deal)."""
        from piquet.engine.scoring import counted_deals

        return counted_deals(self.deal_scores)

    @property
    def games_won(self) -> tuple[int, int]:
        """Piquet au Cent: the games each player has won, a double game counting two."""
        from piquet.engine.variants import games_won

        return games_won(self.games)

    @property
    def played(self) -> CardSet:
        """Every card played to a trick in this deal."""
        mask = 0
        for trick in self.tricks:
            for card in trick.cards:
                mask |= 1 << card
        for card in self.trick:
            mask |= 1 << card
        return CardSet(mask)

    @property
    def deal_points(self) -> tuple[int, int]:
        """Each player's score in this deal so far."""
        a = sum(e.points for e in self.events if e.player == 0)
        b = sum(e.points for e in self.events if e.player == 1)
        return a, b

    def known_cards(self) -> CardSet:
        """Every card this view shows: what the player may know of where cards are."""
        known = self.hand | self.dealt | self.discards | self.peeked | self.rest | self.played
        for seat in (0, 1):
            known = known | self.shown_dealt[seat] | self.revealed[seat]
        return known


#: The fields of a view, in order.
_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PlayerView))


class _Lazy:
    """A field of a view built by :meth:`Partie.view <piquet.engine.partie.Partie.view>`, filled in when first
    read: the partie fills in most fields on first use (a random player reads one or two of them, a level reads
    more). Once filled in, or in a view made whole, the field is the view's own (an instance's own value comes
    before a descriptor without ``__set__``) and is read without a call; a class with ``__getattr__`` instead
    sent every read of a view, of any field, through that hook, and a field not yet filled in through a raised
    and caught ``AttributeError`` first."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, view: PlayerView | None, owner: type | None = None) -> Any:
        if view is None:
            return self
        own = view.__dict__
        lazy = own.get("_lazy")
        if lazy is None:
            raise AttributeError(f"{type(view).__name__!r} object has no attribute {self.name!r}")
        fill, source = lazy
        value = own[self.name] = fill(self.name, source)
        return value


#: The fields :meth:`Partie.view <piquet.engine.partie.Partie.view>` sets when it makes a view; the others are
#: filled in when first read. These have no descriptor, so that the interpreter reads them from the view's own
#: fields at its full speed (it does not for a name its class also has).
SET_AT_ONCE: Final = ("seat", "phase", "to_act")
for _name in _FIELDS:
    if _name not in SET_AT_ONCE:
        setattr(PlayerView, _name, _Lazy(_name))
