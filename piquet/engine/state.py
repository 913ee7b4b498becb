"""What a partie holds: its phase and scores (:class:`PartieState`), the record of the deal in progress
(:class:`DealRecord`), and what taking an action back needs (:data:`Undo`).

Every field of both records holds an immutable value (ints, tuples, frozen events), so a shallow copy is a
snapshot. How a partie changes them (:meth:`Partie.push <piquet.engine.partie.Partie.push>`):

- an action applies to new records, copies of the present ones, which then become the present ones; the records it
  started from are kept, unchanged, to take it back (:class:`Restore`);
- except the common step, a card that neither opens the play nor ends the deal: it changes in place the seat to
  act and only the fields :class:`CardValues` of the present deal record, and keeps what they were
  (:class:`TakeBackCard`).

So a record is never changed once another action has followed, but in those fields: what reads a partie's records
later (a view, :mod:`piquet.engine.view`) keeps their values when it is made.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from piquet.engine.scoring import placed

if TYPE_CHECKING:
    from piquet.engine.actions import Action, Bid, Declare
    from piquet.engine.cards import Card
    from piquet.engine.events import LogEntry
    from piquet.engine.reckoning import PlayScoring
    from piquet.engine.scoring import DealScore, ScoreEvent, Settlement
    from piquet.engine.variants import Contract, GameResult
    from piquet.engine.view import Announcement, Trick

__all__ = ["CardValues", "DealRecord", "PartieState", "Phase", "Restore", "TakeBackCard", "Undo", "with_seat"]


class Phase(enum.Enum):
    """Where a partie stands: what kind of action it waits for."""

    CUT = "cut"
    CHOOSE_DEALER = "choose dealer"
    DEAL = "deal"
    BID = "bidding"
    CARTE_BLANCHE = "carte blanche"
    EXCHANGE = "exchange"
    DECLARE = "declaration"
    PLAY = "play"
    CONCESSION = "concession"
    OVER = "over"

    #: A member is its own key, hashed by identity (an ``Enum`` hashes its name, by a call of Python code; the
    #: engine keys tables by phase at every step).
    __hash__ = object.__hash__


@dataclass(slots=True)
class DealRecord:
    """Everything that belongs to one deal: made whole when the cards are dealt, changed by each action of the
    deal. Before the first deal it holds the defaults (and the cut's log)."""

    elder: int = 1
    contract: Contract | None = None
    #: What the play scores under this deal's rules and contract (asked once and shared, see reckoning).
    scoring: PlayScoring | None = None
    bids: tuple[Bid, ...] = ()
    doubles_used: int = 0
    dealt: tuple[int, int] = (0, 0)
    hands: tuple[int, int] = (0, 0)
    talon: tuple[Card, ...] = ()
    discards: tuple[int, int] = (0, 0)
    drawn: tuple[int, int] = (0, 0)
    exchanged: tuple[int | None, int | None] = (None, None)
    elder_count: int | None = None  # how many elder takes (known once announced)
    peeked: int = 0
    rest: int = 0
    show_rest: bool | None = None
    rest_public: bool = False
    carte_blanche_pending: tuple[int, ...] = ()
    carte_blanche: tuple[bool, bool] = (False, False)
    will_exchange: int | None = None
    shown_dealt: tuple[int, int] = (0, 0)
    declaration_step: int = 0
    calls: tuple[Declare | None, ...] = ()
    announcements: tuple[Announcement, ...] = ()
    pending_events: tuple[ScoreEvent, ...] = ()
    pending_reveal: tuple[int, int] = (0, 0)
    revealed: tuple[int, int] = (0, 0)
    scored_cards: tuple[int, int] = (0, 0)
    #: Younger has reckoned (at elder's first lead, or a concession); false again after a concession declined,
    #: until elder's lead shows the rest of the talon (Law 36).
    hand_reckoned: bool = False
    repique: int | None = None
    pique: int | None = None
    #: No pique can come any more in this deal (both players have scored since the hand was reckoned).
    pique_closed: bool = False
    trick: tuple[Card, ...] = ()
    leader: int = 0
    tricks: tuple[Trick, ...] = ()
    tricks_won: tuple[int, int] = (0, 0)
    #: The deal's points in the order of reckoning (Law 67), a repique or a pique where its thirty was made.
    events: tuple[ScoreEvent, ...] = ()
    #: What was said, done and scored, in the order it happened.
    log: tuple[LogEntry, ...] = ()
    conceded: int | None = None
    concession_declined: bool = False

    def copy(self) -> DealRecord:
        """A new record with the same values."""
        return DealRecord(*_DEAL_VALUES(self))

    def last_bid(self) -> Bid | None:
        """The last bid of a number of tricks in the deal's auction."""
        for bid in reversed(self.bids):
            if bid.tricks is not None:
                return bid
        return None

    def tell(self, entry: LogEntry) -> None:
        """Say ``entry`` in the log."""
        self.log += (entry,)

    def score(self, event: ScoreEvent, *, said: bool = True, at: int | None = None) -> None:
        """Count ``event`` in its place in the order of reckoning (Law 67), and say it in the log unless ``said`` is
        false: a point scored in hand among those of its category (younger reckons hers after they are said), one
        scored since the hand was reckoned (the play, the cards, a concession) after all, and a repique or a pique
        ``at`` the place its thirty was made (Laws 68-69)."""
        if at is not None:
            self.events = (*self.events[:at], event, *self.events[at:])
        elif event.category.in_hand:
            self.events = placed(self.events, event)
        else:
            self.events += (event,)
        if said:
            self.log += (event,)


@dataclass(slots=True)
class PartieState:
    """Everything that changes over the partie; what belongs to one deal is the record ``deal``."""

    phase: Phase
    to_act: int | None
    dealer: int | None = None
    cut_winner: int | None = None
    packets: tuple[int | None, int | None] = (None, None)
    deal_number: int = 0
    past_logs: tuple[tuple[LogEntry, ...], ...] = ()
    deal_scores: tuple[DealScore, ...] = ()
    totals: tuple[int, int] = (0, 0)
    game_start: tuple[int, int] = (0, 0)
    games: tuple[GameResult, ...] = ()
    result: Settlement | None = None
    deal: DealRecord = field(default_factory=DealRecord)

    def copy(self) -> PartieState:
        """New records with the same values: the state, and its deal record."""
        snapshot = PartieState(*_STATE_VALUES(self))
        snapshot.deal = self.deal.copy()
        return snapshot


class Restore(NamedTuple):
    """Take ``action`` back by restoring the partie's records as they were before it (``state``, and its deal
    record: never changed since)."""

    action: Action
    state: PartieState


class CardValues(NamedTuple):
    """The fields of a deal record that a card played in place changes (see :class:`TakeBackCard`), as they are
    at one moment."""

    hands: tuple[int, int]
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    leader: int
    tricks_won: tuple[int, int]
    events: tuple[ScoreEvent, ...]
    log: tuple[LogEntry, ...]
    pique: int | None
    pique_closed: bool

    @classmethod
    def of(cls, d: DealRecord) -> CardValues:
        return cls._make(_CARD_VALUES(d))


class TakeBackCard(NamedTuple):
    """Take back a card played in place (one that neither opened the play nor ended the deal): it changed the seat
    to act and the fields :class:`CardValues` of the deal record, which were ``before``."""

    action: Action
    to_act: int | None
    before: CardValues

    def apply(self, state: PartieState) -> None:
        """Put the seat to act and the fields back into ``state``."""
        state.to_act = self.to_act
        deal = state.deal
        for name, value in zip(CardValues._fields, self.before, strict=True):
            setattr(deal, name, value)


#: What :meth:`Partie.pop <piquet.engine.partie.Partie.pop>` needs to take an action back.
Undo = Restore | TakeBackCard


_T = TypeVar("_T")


def with_seat(pair: tuple[_T, _T], seat: int, value: _T) -> tuple[_T, _T]:
    """``pair`` with ``seat``'s entry set to ``value``."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


#: Every field of a record, read at once, in the order its constructor takes them (for :meth:`DealRecord.copy`).
_DEAL_VALUES = attrgetter(*(f.name for f in fields(DealRecord)))
_STATE_VALUES = attrgetter(*(f.name for f in fields(PartieState)))
_CARD_VALUES = attrgetter(*CardValues._fields)
