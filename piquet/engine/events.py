"""What happens at the table, as data: the entries of a deal's log.

The partie writes one frozen event for each thing said or done in public (the cut, the deal, a bid, a
call and its answer, a card played, the end of the deal...) and a :class:`~piquet.engine.scoring.ScoreEvent`
for each score, in the order they happen (:attr:`~piquet.engine.view.PlayerView.log`). An event carries
what both players heard or saw, never a card that was hidden: a call gives the length of a combination and,
when it is told at once, its pips or its top rank, not its cards. The English of each event lives in
:mod:`piquet.engine.words`.

>>> from piquet.engine.cards import Card
>>> CardPlayed(1, Card.parse("QS"), winner=0).leads
False
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from piquet.engine.cards import Card, CardSet, Rank
from piquet.engine.combinations import Category
from piquet.engine.scoring import ScoreEvent, Settlement
from piquet.engine.variants import Contract, GameResult

__all__ = [
    "Answer",
    "AuctionWon",
    "BidCalled",
    "CardPlayed",
    "CardsDivided",
    "CarteBlancheAnnounced",
    "CarteBlancheShown",
    "Conceded",
    "ConcessionAnswered",
    "CutMade",
    "DealAnnulled",
    "DealBegun",
    "DealEnded",
    "DealerChosen",
    "DeclarationAnswered",
    "Declared",
    "Event",
    "Exchanged",
    "FirstLead",
    "GameWon",
    "LogEntry",
    "NewGameCut",
    "PartieEnded",
    "RestShown",
    "SecondCall",
    "SecondCallAsked",
]

#: Younger's answer to elder's call.
Answer: TypeAlias = Literal["good", "not good", "equal"]


@dataclass(frozen=True, slots=True)
class CutMade:
    """Both players cut (Law 4): seat 0's card first. ``again``: equal ranks, they cut again; ``dealer``: the
    player who deals when the lower cut deals by the rules (``None`` when the higher cut chooses)."""

    cards: tuple[Card, Card]
    again: bool = False
    dealer: int | None = None


@dataclass(frozen=True, slots=True)
class DealerChosen:
    """The winner of the cut chooses who deals."""

    player: int
    dealer: int


@dataclass(frozen=True, slots=True)
class DealBegun:
    """A deal: its number in the partie, the dealer, elder (in an auction, who bids first), the packets the
    cards were dealt in (``None``: not said), and whether an auction follows."""

    number: int
    dealer: int
    elder: int
    packets: int | None
    bidding: bool


@dataclass(frozen=True, slots=True)
class BidCalled:
    """A call of the auction, as the record writes it (``"pass"``, ``"double"``, ``"8-"``...)."""

    player: int
    call: str


@dataclass(frozen=True, slots=True)
class AuctionWon:
    """The auction is over: the contract, whose holder becomes elder."""

    contract: Contract


@dataclass(frozen=True, slots=True)
class DealAnnulled:
    """Both passed: the deal is annulled and the same dealer deals again."""


@dataclass(frozen=True, slots=True)
class CarteBlancheAnnounced:
    """A player announces carte blanche; elder says how many cards he will exchange (``will_exchange``)."""

    player: int
    will_exchange: int | None = None


@dataclass(frozen=True, slots=True)
class CarteBlancheShown:
    """The proof of carte blanche: the hand as dealt, shown to both once the opponent has discarded."""

    player: int
    cards: CardSet


@dataclass(frozen=True, slots=True)
class Exchanged:
    """A player exchanges ``count`` cards (none: stands pat). Elder's ``left`` is how many of the top five
    he left in the talon, and ``looked`` whether he looked at them (Law 33); younger's are 0 and ``False``."""

    player: int
    count: int
    left: int = 0
    looked: bool = False


@dataclass(frozen=True, slots=True)
class Declared:
    """Elder's call in a category: the number of cards (``None``: he calls nothing), and when the rules have
    it told at once (``at_once``) what decides it: the pips of a point, the top rank of a sequence or set."""

    player: int
    category: Category
    length: int | None
    at_once: bool = False
    pips: int | None = None
    top: Rank | None = None


@dataclass(frozen=True, slots=True)
class SecondCallAsked:
    """Younger asks, at equal length, what decides (``"making"`` the pips of a point, ``"how high"``)."""

    player: int
    category: Category
    question: Literal["making", "how high"]


@dataclass(frozen=True, slots=True)
class SecondCall:
    """Elder's answer to the question: the pips of his point, or the top rank of his sequence or set."""

    player: int
    category: Category
    pips: int | None = None
    top: Rank | None = None


@dataclass(frozen=True, slots=True)
class DeclarationAnswered:
    """Younger's answer to elder's call."""

    player: int
    category: Category
    answer: Answer


@dataclass(frozen=True, slots=True)
class FirstLead:
    """What elder says as he leads the first card, before younger reckons (the rulings, 10)."""

    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A card played to a trick; ``winner`` is the trick's winner when the card completes it."""

    player: int
    card: Card
    winner: int | None = None

    @property
    def leads(self) -> bool:
        """Whether the card leads to a trick (a trick is two cards: the lead and the card that completes it)."""
        return self.winner is None


@dataclass(frozen=True, slots=True)
class RestShown:
    """Younger shows the cards left in the talon, as she elected at her exchange (Law 36)."""

    player: int
    cards: CardSet


@dataclass(frozen=True, slots=True)
class CardsDivided:
    """Each player won six tricks: nobody scores the cards."""


@dataclass(frozen=True, slots=True)
class Conceded:
    """A player concedes the partie's last deal (the rulings, 18)."""

    player: int


@dataclass(frozen=True, slots=True)
class ConcessionAnswered:
    """The opponent accepts the concession, or declines it and the deal is played on."""

    player: int
    accept: bool


@dataclass(frozen=True, slots=True)
class DealEnded:
    """The end of a deal: what each player scored in it, how many times it counts, and the partie's totals."""

    number: int
    points: tuple[int, int]
    multiplier: int
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class GameWon:
    """Piquet au Cent: a game is won."""

    game: GameResult


@dataclass(frozen=True, slots=True)
class PartieEnded:
    """The partie is over: its settlement."""

    settlement: Settlement


@dataclass(frozen=True, slots=True)
class NewGameCut:
    """Piquet au Cent with a fresh cut each game: the players cut again for the next deal."""


#: Every event said or done at the table (a score is a :class:`~piquet.engine.scoring.ScoreEvent`).
Event: TypeAlias = (
    CutMade | DealerChosen | DealBegun | BidCalled | AuctionWon | DealAnnulled | CarteBlancheAnnounced
    | CarteBlancheShown | Exchanged | Declared | SecondCallAsked | SecondCall | DeclarationAnswered | FirstLead
    | CardPlayed | RestShown | CardsDivided | Conceded | ConcessionAnswered | DealEnded | GameWon | PartieEnded
    | NewGameCut
)

#: An entry of a deal's log: an event or a score.
LogEntry: TypeAlias = Event | ScoreEvent
