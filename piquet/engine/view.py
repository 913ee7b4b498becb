"""What one player may know: the only thing agents and interfaces are given.

A :class:`PlayerView` holds the player's own hand, discards and what he looked
at, the cards shown to both (a carte blanche, combinations scored or tied,
the rest of the talon if younger showed it), what each declaration announced,
the cards played, and the scores; :attr:`PlayerView.log` is the deal so far as
typed events (:mod:`piquet.engine.events`), public to both players.
It never holds a card of the opponent's that was not shown.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from piquet.engine.cards import Card, CardSet, Rank
from piquet.engine.combinations import Category
from piquet.engine.exchange import exchange_limits
from piquet.engine.scoring import DealScore, ScoreEvent, Settlement
from piquet.engine.state import CardValues, Phase

if TYPE_CHECKING:
    from piquet.engine.actions import Bid, Declare
    from piquet.engine.events import Answer, LogEntry
    from piquet.engine.state import PartieState
    from piquet.engine.variants import Contract, GameResult, Rules

__all__ = ["Announcement", "PlayerView", "ReadView", "Trick", "ViewTable"]

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


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class PlayerView:
    """One player's knowledge of the partie (``seat`` ``None`` for a spectator): its values.

    :meth:`Partie.view <piquet.engine.partie.Partie.view>` gives a view read from the partie's records
    (:class:`ReadView`, which decides what the seat sees); pickled, copied or :meth:`kept`, a view is this: its values
    alone, what the player may know and nothing of the deal they were read from.
    """

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

    #: The names of the fields, in order.
    FIELDS: ClassVar[tuple[str, ...]]

    def values(self) -> tuple[Any, ...]:
        """Every field's value, in the order of :attr:`FIELDS`."""
        return tuple([getattr(self, name) for name in self.FIELDS])

    def kept(self) -> PlayerView:
        """This view as its values."""
        return PlayerView(*self.values())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerView):
            return NotImplemented
        return self.values() == other.values()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PlayerView({', '.join(f'{name}={getattr(self, name)!r}' for name in self.FIELDS)})"

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




PlayerView.FIELDS = tuple(f.name for f in fields(PlayerView))


class ViewTable(NamedTuple):
    """What every view of one partie shares: the players, the variant, the options that differ from the variant's
    (a view gives a copy) and the rules."""

    players: tuple[str, str]
    variant: str
    options: dict[str, bool | int]
    rules: Rules


class _CardSets(dict[int, CardSet]):
    """The CardSet of each mask, made once and shared (a CardSet never changes): the views ask for the same few
    masks again and again. Emptied when it grows large."""

    def __missing__(self, mask: int) -> CardSet:
        if len(self) > 4096:
            self.clear()
        cards = self[mask] = CardSet(mask)
        return cards


_SETS = _CardSets()
_NO_CARDS = CardSet()


class ReadView(PlayerView):
    """The view of ``seat`` (``None``: a spectator, who sees only what is public) read from a partie's state: each
    field below is what that seat may know, decided here and nowhere else, and read when asked for.

    What it reads never changes once the partie has moved on (:mod:`piquet.engine.state`): the records themselves,
    but for the seat to act and the fields a card changes in place, which the view keeps as they were when it was
    made. So a view read later says what it said then, and a player who reads little pays little.
    """

    __slots__ = ("_played", "_seat", "_state", "_table", "_to_act")
    _seat: int | None
    _state: PartieState
    _to_act: int | None
    #: The deal record's fields a card changes in place, as they were when the view was made.
    _played: CardValues
    _table: ViewTable

    def __init__(self, seat: int | None, state: PartieState, table: ViewTable) -> None:
        # Set as a frozen dataclass sets its fields in its own constructor (a view is immutable).
        object.__setattr__(self, "_seat", seat)
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "_to_act", state.to_act)
        object.__setattr__(self, "_played", CardValues.of(state.deal))
        object.__setattr__(self, "_table", table)

    def __reduce__(self) -> tuple[type[PlayerView], tuple[object, ...]]:
        """Pickled and copied as its values (a worker gets what the player may know, nothing of the deal)."""
        return PlayerView, self.values()

    @property
    def rules(self) -> Rules:
        return self._table.rules

    # Who and where.
    @property
    def seat(self) -> int | None:
        return self._seat

    @property
    def players(self) -> tuple[str, str]:
        return self._table.players

    @property
    def variant(self) -> str:
        return self._table.variant

    @property
    def options(self) -> dict[str, bool | int]:
        return dict(self._table.options)

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def to_act(self) -> int | None:
        return self._to_act

    @property
    def opponent(self) -> int | None:
        return None if self._seat is None else 1 - self._seat

    # His own cards: what he holds, was dealt, discarded and looked at (a spectator: none).
    @property
    def hand(self) -> CardSet:
        seat = self._seat
        return _NO_CARDS if seat is None else _SETS[self._played.hands[seat]]

    @property
    def dealt(self) -> CardSet:
        seat = self._seat
        return _NO_CARDS if seat is None else _SETS[self._state.deal.dealt[seat]]

    @property
    def discards(self) -> CardSet:
        seat = self._seat
        return _NO_CARDS if seat is None else _SETS[self._state.deal.discards[seat]]

    @property
    def peeked(self) -> CardSet:
        """Elder's look at the cards he left of the top five (Law 33): his alone."""
        d = self._state.deal
        return _SETS[d.peeked] if self._seat is not None and self._seat == d.elder else _NO_CARDS

    @property
    def own_calls(self) -> tuple[Declare, ...]:
        calls = self._state.deal.calls
        seat = self._seat
        return tuple([c for c in calls if c is not None and c.player == seat]) if seat is not None and calls else ()

    @property
    def exchange_range(self) -> tuple[int, int] | None:
        seat, s = self._seat, self._state
        if seat is None or s.phase is not Phase.EXCHANGE or self._to_act != seat:
            return None
        return exchange_limits(self._table.rules, s.deal, seat)

    # The talon: what is left of it, and what younger showed (Law 36), to her at once and to both once elder led.
    @property
    def talon_left(self) -> int:
        d = self._state.deal
        return max(0, len(d.talon) - (d.exchanged[0] or 0) - (d.exchanged[1] or 0))

    @property
    def rest(self) -> CardSet:
        d = self._state.deal
        return _SETS[d.rest] if d.rest_public else _NO_CARDS

    @property
    def show_rest(self) -> bool | None:
        d = self._state.deal
        seat = self._seat
        return d.show_rest if ((seat is not None and seat != d.elder) or d.rest_public or d.hand_reckoned) else None

    # Shown to both: a carte blanche's proof (Laws 19-20), combinations scored, tied or named (Law 55).
    @property
    def shown_dealt(self) -> tuple[CardSet, CardSet]:
        shown = self._state.deal.shown_dealt
        return _SETS[shown[0]], _SETS[shown[1]]

    @property
    def revealed(self) -> tuple[CardSet, CardSet]:
        revealed = self._state.deal.revealed
        return _SETS[revealed[0]], _SETS[revealed[1]]

    # Public to both: the deal's course as it was said and played, and the scores.
    @property
    def hand_sizes(self) -> tuple[int, int]:
        hands = self._played.hands
        return hands[0].bit_count(), hands[1].bit_count()

    @property
    def deal_number(self) -> int:
        return self._state.deal_number

    @property
    def dealer(self) -> int | None:
        return self._state.dealer

    @property
    def elder(self) -> int:
        return self._state.deal.elder

    @property
    def exchanged(self) -> tuple[int | None, int | None]:
        return self._state.deal.exchanged

    @property
    def will_exchange(self) -> int | None:
        return self._state.deal.will_exchange

    @property
    def carte_blanche(self) -> tuple[bool, bool]:
        return self._state.deal.carte_blanche

    @property
    def announcements(self) -> tuple[Announcement, ...]:
        return self._state.deal.announcements

    @property
    def unreckoned(self) -> tuple[ScoreEvent, ...]:
        """Younger's points won in the declarations: public, since elder heard her answers."""
        return self._state.deal.pending_events

    @property
    def trick(self) -> tuple[Card, ...]:
        return self._played.trick

    @property
    def leader(self) -> int:
        return self._played.leader

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return self._played.tricks

    @property
    def tricks_won(self) -> tuple[int, int]:
        return self._played.tricks_won

    @property
    def events(self) -> tuple[ScoreEvent, ...]:
        return self._played.events

    @property
    def log(self) -> tuple[LogEntry, ...]:
        return self._played.log

    @property
    def bids(self) -> tuple[Bid, ...]:
        return self._state.deal.bids

    @property
    def contract(self) -> Contract | None:
        return self._state.deal.contract

    @property
    def deal_scores(self) -> tuple[DealScore, ...]:
        return self._state.deal_scores

    @property
    def totals(self) -> tuple[int, int]:
        return self._state.totals

    @property
    def result(self) -> Settlement | None:
        return self._state.result

    @property
    def games(self) -> tuple[GameResult, ...]:
        return self._state.games

    @property
    def game_scores(self) -> tuple[int, int]:
        s = self._state
        return s.totals[0] - s.game_start[0], s.totals[1] - s.game_start[1]
