"""The rules of a partie as a state machine.

:class:`Partie` holds the whole state, hidden cards included; players,
agents and interfaces should see it only through :meth:`Partie.view`. Every
decision is an action (:mod:`piquet.engine.actions`): :meth:`Partie.legal_actions`
lists them, :meth:`Partie.verify` says why one is illegal, :meth:`Partie.can`
answers yes or no, :meth:`Partie.push` applies one and :meth:`Partie.pop`
takes it back.

>>> import random
>>> from piquet.engine.actions import ChooseDealer
>>> partie = Partie(("Ann", "Bill"), first_dealer=0)
>>> partie.phase, partie.to_act
(<Phase.DEAL: 'deal'>, 0)
>>> _ = partie.push(partie.random_deal(random.Random(1), packets=3))
>>> partie.phase, partie.player_name(partie.to_act)
(<Phase.EXCHANGE: 'exchange'>, 'Bill')
>>> partie.push(Play(1, partie.view(1).hand.cards()[0]))
Traceback (most recent call last):
...
piquet.engine.partie.IllegalActionError: Bill cannot play AS: it is the exchange, not the play
>>> _ = partie.pop(); partie.phase
<Phase.DEAL: 'deal'>
"""

from __future__ import annotations

import copy
import enum
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations as _subsets
from typing import ClassVar, assert_never

from piquet.engine.actions import (
    AcceptConcession,
    Action,
    Bid,
    CarteBlanche,
    ChooseDealer,
    Concede,
    Cut,
    Deal,
    Declare,
    Exchange,
    Play,
)
from piquet.engine.cards import CARDS, FULL_PACK, Card, CardSet, Rank
from piquet.engine.combinations import (
    Category,
    call,
    candidates,
    good_against_the_cards,
    invalid_reason,
    key,
    maximal,
)
from piquet.engine.events import (
    Answer,
    AuctionWon,
    BidCalled,
    CardPlayed,
    CardsDivided,
    CarteBlancheAnnounced,
    CarteBlancheShown,
    Conceded,
    ConcessionAnswered,
    CutMade,
    DealAnnulled,
    DealBegun,
    DealEnded,
    DealerChosen,
    DeclarationAnswered,
    Declared,
    Event,
    Exchanged,
    FirstLead,
    GameWon,
    LogEntry,
    NewGameCut,
    PartieEnded,
    RestShown,
    SecondCall,
    SecondCallAsked,
)
from piquet.engine.scoring import (
    CATEGORY_ORDER,
    DealScore,
    ScoreCategory,
    ScoreEvent,
    Settlement,
    counted_deals,
    settle,
)
from piquet.engine.variants import Contract, GameResult, Rules, games_won, make_rules, parse_bid
from piquet.engine.view import Announcement, PlayerView, Trick

__all__ = ["DECLARATION_ORDER", "IllegalActionError", "Partie", "Phase"]


class IllegalActionError(ValueError):
    """An action that may not be taken now; the partie is left as it was."""

    def __init__(self, action: Action, player: str, reason: str) -> None:
        self.action = action
        self.player = player
        self.reason = reason
        super().__init__(f"{player} cannot {_verb(action)}: {reason}")


def _verb(action: Action) -> str:
    match action:
        case Play():
            return f"play {action.card}"
        case Exchange():
            return f"exchange {action.discards or 'no cards'}"
        case Declare():
            shown = " / ".join(str(c) for c in action.combinations) or "nothing"
            return f"declare {action.category.value} {shown}"
        case CarteBlanche():
            return "announce carte blanche" if action.announce else "decline carte blanche"
        case Deal():
            return "deal"
        case Cut():
            return "cut"
        case Bid():
            return f"bid {action.call}"
        case ChooseDealer():
            return "choose the dealer"
        case AcceptConcession():
            return "accept the concession" if action.accept else "decline the concession"
        case Concede():
            return "concede"
        case _:
            assert_never(action)


class Phase(enum.Enum):
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


#: The declarations of a deal in order: elder's then younger's, point, sequences, sets.
DECLARATION_ORDER: tuple[tuple[Category, bool], ...] = tuple(
    (category, is_elder) for category in Category for is_elder in (True, False)
)

#: Every call of an auction, in the order they are listed (Lunn).
_CALLS = ("pass", "double", "redouble", *(f"{n}{sign}" for n in range(7, 13) for sign in "+-"))
#: Where the rule that a concession breaks is stated (the rulings, 18).
_CONCESSION_SOURCE = "ruling 18 (Cavendish's treatise, Scoring; Case XXII)"

_SCORE_CATEGORY = {
    Category.POINT: ScoreCategory.POINT,
    Category.SEQUENCES: ScoreCategory.SEQUENCES,
    Category.SETS: ScoreCategory.SETS,
}


@dataclass
class _State:
    """Everything that changes. Fields hold only immutable values, so a shallow
    copy is a snapshot (that is how :meth:`Partie.pop` undoes)."""

    phase: Phase
    to_act: int | None
    dealer: int | None = None
    cut_winner: int | None = None
    packets: tuple[int | None, int | None] = (None, None)
    deal_number: int = 0
    elder: int = 1
    contract: Contract | None = None
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
    hand_reckoned: bool = False
    repique: int | None = None
    pique: int | None = None
    trick: tuple[Card, ...] = ()
    leader: int = 0
    tricks: tuple[Trick, ...] = ()
    tricks_won: tuple[int, int] = (0, 0)
    events: tuple[ScoreEvent, ...] = ()
    log: tuple[LogEntry, ...] = ()
    past_logs: tuple[tuple[LogEntry, ...], ...] = ()
    deal_scores: tuple[DealScore, ...] = ()
    totals: tuple[int, int] = (0, 0)
    game_start: tuple[int, int] = (0, 0)
    games: tuple[GameResult, ...] = ()
    conceded: int | None = None
    concession_declined: bool = False
    result: Settlement | None = None


def _snapshot(state: _State) -> _State:
    """A shallow copy: enough, since the fields are immutable values."""
    new = object.__new__(_State)
    new.__dict__.update(state.__dict__)
    return new


def _set(pair: tuple[int, int], seat: int, value: int) -> tuple[int, int]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _set_any(pair: tuple[int | None, int | None], seat: int, value: int | None) -> tuple[int | None, int | None]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


@dataclass
class _Undo:
    state: _State
    action: Action


class Partie:
    """A partie of Piquet between two players, from the cut to the settlement.

    ``first_dealer`` (a seat) skips the cut; without it the partie starts with
    the cut for deal (Law 4).
    """

    def __init__(
        self,
        players: Sequence[str] = ("North", "South"),
        variant: str = "rubicon",
        options: Mapping[str, object] | None = None,
        first_dealer: int | None = None,
    ) -> None:
        if len(players) != 2 or len(set(players)) != 2 or not all(isinstance(p, str) and p for p in players):
            raise ValueError(f"a partie needs two different player names, not {list(players)!r}")
        self.players: tuple[str, str] = (players[0], players[1])
        self.rules: Rules = make_rules(variant, options)
        self.variant = variant
        if first_dealer is None:
            self._s = _State(Phase.CUT, None)
        else:
            if first_dealer not in (0, 1):
                raise ValueError(f"first_dealer must be seat 0 or 1, not {first_dealer!r}")
            self._s = _State(Phase.DEAL, first_dealer, dealer=first_dealer)
        self._stack: list[_Undo] = []

    # ------------------------------------------------------------------ state
    @property
    def phase(self) -> Phase:
        return self._s.phase

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` at the cut (a chance event) and when the partie is over."""
        return self._s.to_act

    @property
    def actions(self) -> list[Action]:
        """Every action applied so far, in order."""
        return [u.action for u in self._stack]

    @property
    def ply(self) -> int:
        """How many actions have been applied (``len(actions)``, without building the list)."""
        return len(self._stack)

    @property
    def deal_number(self) -> int:
        return self._s.deal_number

    @property
    def dealer(self) -> int | None:
        return self._s.dealer

    @property
    def elder(self) -> int:
        return self._s.elder

    @property
    def events(self) -> tuple[ScoreEvent, ...]:
        """This deal's score events so far, in the order of reckoning (Law 67)."""
        return self._s.events

    @property
    def unreckoned(self) -> tuple[ScoreEvent, ...]:
        """Younger's points won in the declarations, which she reckons at elder's first lead (the rulings, 10)."""
        return self._s.pending_events

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the trick being played, the lead first."""
        return self._s.trick

    @property
    def tricks_won(self) -> tuple[int, int]:
        return self._s.tricks_won

    @property
    def pique_decided(self) -> bool:
        """Whether this deal already has its pique or repique (never both, Laws 68-69)."""
        return self._s.pique is not None or self._s.repique is not None

    @property
    def deal_scores(self) -> tuple[DealScore, ...]:
        return self._s.deal_scores

    @property
    def totals(self) -> tuple[int, int]:
        """The partie scores over the finished deals."""
        return self._s.totals

    @property
    def result(self) -> Settlement | None:
        return self._s.result

    @property
    def games(self) -> tuple[GameResult, ...]:
        """Piquet au Cent: the games finished so far."""
        return self._s.games

    def games_won(self) -> tuple[int, int]:
        """Piquet au Cent: games won by each player, a double game counting two."""
        return games_won(self._s.games)

    @property
    def contract(self) -> Contract | None:
        """Auction Piquet: this deal's contract, once the auction is over."""
        return self._s.contract

    @property
    def is_over(self) -> bool:
        return self._s.phase is Phase.OVER

    def logs(self) -> tuple[tuple[LogEntry, ...], ...]:
        """The log of every deal so far (what was said and scored, in order); the cut
        belongs to the first."""
        return (*self._s.past_logs, self._s.log) if self._s.log else self._s.past_logs

    def player_name(self, seat: int | None) -> str:
        return "nobody" if seat is None else self.players[seat]

    def hand(self, seat: int) -> CardSet:
        """A player's current hand (full information: not for agents)."""
        return CardSet(self._s.hands[seat])

    def talon(self) -> tuple[Card, ...]:
        """The talon as dealt, top card first."""
        return self._s.talon

    def undrawn(self) -> CardSet:
        """The cards still in the talon (not drawn by either player)."""
        s = self._s
        return CardSet(CardSet(s.talon).mask & ~(s.drawn[0] | s.drawn[1]))

    def copy(self) -> Partie:
        """An independent copy, history included."""
        other = copy.copy(self)
        other._stack = list(self._stack)
        return other

    # ------------------------------------------------------------ make/unmake
    def push(self, action: Action) -> tuple[ScoreEvent, ...]:
        """Check and apply an action, and return the points it scored, in the order they were said
        (a lead, a trick, younger's reckoning at elder's first lead, a pique, the cards...). An illegal
        action raises :class:`IllegalActionError` and changes nothing."""
        self.verify(action)
        before = self._s
        self._s = _snapshot(before)
        try:
            self._apply(action)
        except BaseException:
            self._s = before
            raise
        self._stack.append(_Undo(before, action))
        after = self._s
        said = after.log if after.deal_number != before.deal_number else after.log[len(before.log):]
        return tuple(entry for entry in said if isinstance(entry, ScoreEvent))

    def pop(self) -> Action:
        """Take back the last action and return it."""
        if not self._stack:
            raise IndexError("pop from a partie with no actions")
        undo = self._stack.pop()
        self._s = undo.state
        return undo.action

    def peek(self) -> Action:
        if not self._stack:
            raise IndexError("peek at a partie with no actions")
        return self._stack[-1].action

    def can(self, action: Action) -> bool:
        return self.why_not(action) is None

    # ------------------------------------------------------------ chance
    def random_cut(self, rng: random.Random) -> Cut:
        a, b = rng.sample(CARDS, 2)
        return Cut(0, (a, b))

    def legal_packets(self) -> tuple[int, ...]:
        """The packet sizes the dealer may deal in (Law 9: his first choice binds his later deals)."""
        s = self._s
        if s.dealer is None:
            return ()
        fixed = s.packets[s.dealer]
        return (fixed,) if fixed else self.rules.packet_sizes()

    def random_deal(self, rng: random.Random, packets: int | None = None) -> Deal:
        """A shuffle of the pack dealt by the dealer in packets (his own size if he has one)."""
        s = self._s
        if s.phase is not Phase.DEAL or s.dealer is None:
            raise ValueError(f"no deal is due: it is the {s.phase.value}")
        if packets is None:
            packets = self.legal_packets()[0] if len(self.legal_packets()) == 1 else rng.choice((2, 3))
        pack = list(CARDS)
        rng.shuffle(pack)
        return Deal.from_pack(s.dealer, pack, packets)

    # ------------------------------------------------------------ legality
    def _illegal(self, action: Action, reason: str) -> IllegalActionError:
        player = action.player if action.player in (0, 1) else None
        return IllegalActionError(action, self.player_name(player), reason)

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` naming the action, the player and the reason
        if the action may not be taken now."""
        reason = self.why_not(action)
        if reason is not None:
            raise self._illegal(action, reason)

    def why_not(self, action: Action) -> str | None:
        """Why ``action`` may not be taken now (the law or the fact it breaks), or ``None`` if it may.
        Nothing is raised: this is how the legal actions are found.

        >>> from piquet.engine.actions import Play
        >>> from piquet.engine.cards import Card
        >>> Partie(("Ann", "Bill"), first_dealer=0).why_not(Play(1, Card.parse("AS")))
        'it is the deal, not the play'
        """
        s = self._s
        if not isinstance(action, Action):
            raise TypeError(f"not an action: {action!r}")
        if action.player not in (0, 1):
            return f"there is no seat {action.player!r}"
        if s.phase is Phase.OVER:
            return "the partie is over"
        if isinstance(action, Concede):
            return self._why_not_concede(action)
        if isinstance(action, CarteBlanche) and self._deferred_carte_blanche(action.player):
            return self._why_not_carte_blanche(action)
        expected = {
            Cut: Phase.CUT,
            ChooseDealer: Phase.CHOOSE_DEALER,
            Deal: Phase.DEAL,
            Bid: Phase.BID,
            CarteBlanche: Phase.CARTE_BLANCHE,
            Exchange: Phase.EXCHANGE,
            Declare: Phase.DECLARE,
            Play: Phase.PLAY,
            AcceptConcession: Phase.CONCESSION,
        }[type(action)]
        if s.phase is not expected:
            what = {Phase.PLAY: "the play", Phase.DECLARE: "the declaration"}.get(expected, f"the {expected.value}")
            reason = f"it is the {s.phase.value}, not {what}"
            if isinstance(action, CarteBlanche) and s.phase in (Phase.EXCHANGE, Phase.DECLARE, Phase.PLAY):
                reason += (" (Laws 18-20, ruling 6: carte blanche is announced before the exchange; in Piquet au "
                           "Cent younger may wait until elder has discarded)")
            elif s.phase is Phase.CARTE_BLANCHE:
                reason += (f" (Laws 18-20, ruling 6: {self.player_name(s.to_act)} first says whether he announces "
                           "carte blanche)")
            return reason
        if isinstance(action, Cut):
            a, b = action.cards
            if a == b:
                return "both players cannot cut the same card"
            return None
        if action.player != s.to_act:
            return f"it is {self.player_name(s.to_act)}'s turn"
        if isinstance(action, ChooseDealer):
            return f"there is no seat {action.dealer!r}" if action.dealer not in (0, 1) else None
        if isinstance(action, Deal):
            return self._why_not_deal(action)
        if isinstance(action, Bid):
            return self._why_not_bid(action)
        if isinstance(action, CarteBlanche):
            return self._why_not_carte_blanche(action)
        if isinstance(action, Exchange):
            return self._why_not_exchange(action)
        if isinstance(action, Declare):
            return self._why_not_declare(action)
        if isinstance(action, Play):
            return self._why_not_play(action)
        return None

    def _why_not_deal(self, action: Deal) -> str | None:
        s = self._s
        if action.packets is not None:
            sizes = self.rules.packet_sizes()
            if action.packets not in sizes:
                allowed = " or ".join(str(n) for n in sizes)
                return f"cards are dealt in packets of {allowed}, not {action.packets}"
            fixed = s.packets[action.player]
            if fixed is not None and fixed != action.packets:
                return f"Law 9: a dealer deals all his hands alike, and he dealt in packets of {fixed}"
        seen = 0
        for seat, hand in enumerate(action.hands):
            if len(hand) != 12:
                return f"{self.players[seat]}'s hand has {len(hand)} cards, not 12"
            if seen & hand.mask:
                return f"{CardSet(seen & hand.mask)} dealt to both players"
            seen |= hand.mask
        if len(action.talon) != 8:
            return f"the talon has {len(action.talon)} cards, not 8"
        for card in action.talon:
            if seen >> card & 1:
                return f"{card} is dealt twice"
            seen |= 1 << card
        if seen != FULL_PACK:
            return f"{CardSet(FULL_PACK & ~seen)} missing from the deal"
        return None

    def _why_not_bid(self, action: Bid) -> str | None:
        """Lunn's auction: bids 7 to 12, plus or minus, each higher in number than the last;
        a bid may be doubled, a double redoubled, at most two doubles in the auction."""
        s = self._s
        try:
            call = parse_bid(action.call)
        except ValueError as e:
            return str(e)
        if call != action.call:
            return f"write the bid as {call!r}"
        last = self._last_bid()
        if call == "pass":
            return None
        if call == "double":
            if last is None or s.bids[-1].player == action.player or s.bids[-1].call != last.call:
                return "only the opponent's last bid can be doubled"
            if s.doubles_used >= 2:
                return "no more than two doubles in an auction"
            return None
        if call == "redouble":
            if not s.bids or s.bids[-1].call != "double":
                return "only a double can be redoubled"
            if self.rules.redouble_counts_as_double and s.doubles_used >= 2:
                return ("no more than two doubles in an auction, and a redouble counts as "
                        "one (option redouble_counts_as_double)")
            return None
        tricks = int(call[:-1])
        if last is not None and last.tricks is not None and tricks <= last.tricks:
            return f"a bid must be higher than {last.call} (plus and minus of one number are equal)"
        return None


    def _last_bid(self) -> Bid | None:
        """The last bid of a number of tricks in this deal's auction."""
        for bid in reversed(self._s.bids):
            if bid.tricks is not None:
                return bid
        return None

    def _why_not_carte_blanche(self, action: CarteBlanche) -> str | None:
        s = self._s
        if not action.announce:
            if self.rules.carte_blanche_compulsory:
                return "Law 20: a player dealt carte blanche must announce it"
            if action.will_exchange is not None:
                return "only a player announcing carte blanche says how many he will exchange"
            return None
        if action.player == s.elder:
            lo, hi = self.rules.elder_minimum_exchange, self.rules.elder_maximum_exchange
            if action.will_exchange is None or not lo <= action.will_exchange <= hi:
                return (f"elder announcing carte blanche first says how many cards, {lo} to {hi}, "
                        "he will exchange (ruling 6; Case V under Law 20)")
        elif action.will_exchange is not None:
            return "younger does not announce her exchange with carte blanche"
        return None

    def _exchange_limits(self, seat: int) -> tuple[int, int]:
        s = self._s
        if seat == s.elder:
            if s.will_exchange is not None:
                return s.will_exchange, s.will_exchange
            return self.rules.elder_minimum_exchange, self.rules.elder_maximum_exchange
        taken = s.elder_count if s.elder_count is not None else 0
        return self.rules.younger_minimum_exchange, len(s.talon) - taken

    def _why_not_exchange(self, action: Exchange) -> str | None:
        s = self._s
        hand = s.hands[action.player]
        if action.discards.mask & ~hand:
            return f"{action.discards - CardSet(hand)} not in hand"
        lo, hi = self._exchange_limits(action.player)
        n = len(action.discards)
        if not lo <= n <= hi:
            who = "elder" if action.player == s.elder else "younger"
            if lo == hi:
                reason = f"having announced carte blanche, elder exchanges the {lo} cards he said (Law 20, Case V)"
            else:
                law = "Law 21" if action.player == s.elder else "Law 22"
                reason = f"{law}: {who} exchanges {lo} to {hi} cards, not {n}"
            return reason
        if action.show_rest:
            if action.player == s.elder:
                return "only younger elects to show the rest of the talon (Law 36)"
            taken = s.elder_count if s.elder_count is not None else 0
            if taken + n >= len(s.talon):
                return "no cards are left in the talon to show"
        return None

    def _declaration_slot(self) -> tuple[Category, int]:
        s = self._s
        category, is_elder = DECLARATION_ORDER[s.declaration_step]
        return category, s.elder if is_elder else 1 - s.elder

    def _why_not_declare(self, action: Declare) -> str | None:
        s = self._s
        category, seat = self._declaration_slot()
        if action.category is not category:
            return (f"the {category.value} is declared now (point, sequences, sets in that order, elder before "
                    "younger)")
        hand = s.hands[seat]
        combos = action.combinations
        if category is Category.POINT and len(combos) > 1:
            return "a point is one suit: there are no further points to show"
        used = 0
        for cards in combos:
            if cards.mask & ~hand:
                return f"{cards - CardSet(hand)} not in hand"
            reason = invalid_reason(category, cards, self.rules.minimum_point)
            if reason:
                return reason
            if used & cards.mask:
                return f"{CardSet(used & cards.mask)} shown in two {category.value}"
            used |= cards.mask
        if self.rules.must_declare_in_full(s.contract):
            reason = self._why_not_in_full(action, category, CardSet(hand))
            if reason:
                return reason
        if len(combos) > 1 and seat == s.elder:
            # Law 49 binds elder, whose call younger answered; younger reckons in any order.
            first = combos[0]
            possible = CardSet(FULL_PACK & ~hand & ~s.discards[seat])
            if self.rules.short_calls_bind or not good_against_the_cards(category, first, possible):
                for extra in combos[1:]:
                    if key(category, extra) > key(category, first):
                        return (f"Law 49 (Laws 46-50): having called {call(category, first).lower()}, he may not "
                                f"also score the better {call(category, extra).lower()}, since his call was "
                                "not good against the cards")
        return None


    def _why_not_in_full(self, action: Declare, category: Category, hand: CardSet) -> str | None:
        """Auction minus contracts: no sinking; the best combination is called and every other
        that can score is shown (Lunn)."""
        full = maximal(category, hand, self.rules.minimum_point)
        combos = action.combinations
        if not full:
            return None
        what = f"{call(category, full[0]).lower()}" + (
            f" and show {'; '.join(str(c) for c in full[1:])}" if len(full) > 1 else "")
        reason = f"in a minus contract nothing may be sunk: declare {what}"
        if not combos or key(category, combos[0]) != key(category, full[0]):
            return reason
        if category is Category.POINT:
            if combos[0] != hand.suit(combos[0].cards()[0].suit):
                return reason
        elif set(combos) != set(full):
            return reason
        return None

    def _why_not_play(self, action: Play) -> str | None:
        s = self._s
        hand = s.hands[action.player]
        if not hand >> action.card & 1:
            return f"{action.card} is not in hand"
        if s.trick:
            led = s.trick[0].suit
            if action.card.suit != led and hand & led.mask:
                return f"must follow suit to the {s.trick[0]!s} led"
        return None

    def _why_not_concede(self, action: Concede) -> str | None:
        """The rulings, 18: only in the partie's last deal, after the six declarations and before the
        first card, and only by the loser, who cannot save his rubicon (Law 73) once the opponent has
        counted what the concession gives him."""
        s = self._s
        if not self.rules.allows_concession:
            return f"there is no concession in {self.rules.title}"
        counted = self._counted_deals() + 1
        if s.phase is Phase.CONCESSION:
            return "a concession already awaits the opponent's answer"
        if s.phase not in (Phase.BID, Phase.CARTE_BLANCHE, Phase.EXCHANGE, Phase.DECLARE, Phase.PLAY):
            return "there is no deal in progress to concede"
        if not self.rules.is_last_deal(counted):
            return (f"{_CONCESSION_SOURCE}: a player may concede only in the last deal of "
                    "the partie")
        if s.phase is not Phase.PLAY:
            return (f"{_CONCESSION_SOURCE}: the concession comes after the six "
                    f"declarations, and it is the {s.phase.value}")
        if s.tricks or s.trick:
            return (f"{_CONCESSION_SOURCE}: the concession is made before the first card "
                    "is played")
        if s.concession_declined:
            return "the concession was declined: the deal is played out"
        own, other = self.concession_totals(action.player)
        if own >= self.rules.rubicon:
            return (f"Law 73 and {_CONCESSION_SOURCE}: only a player who cannot save the rubicon may "
                    f"concede, and he would have {own}")
        if own >= other:
            return (f"{_CONCESSION_SOURCE}: only the loser may concede, and he would have {own} to "
                    f"{self.players[1 - action.player]}'s {other}")
        return None

    def concession_totals(self, player: int) -> tuple[int, int]:
        """The partie scores of ``player`` and of his opponent if ``player`` conceded now: both hands
        reckoned as declared, then the opponent counting 13 for the play and the cards' ten, the deal
        counted as many times as it counts in the partie (the rulings, 18)."""
        saved = self._s
        self._s = _snapshot(saved)
        try:
            self._reckon_hand()
            deal = [0, 0]
            for event in self._s.events:
                deal[event.player] += event.points
        finally:
            self._s = saved
        other = 1 - player
        deal[other] += self.rules.conceded_play_points + self.rules.cards_points
        times = self.rules.deal_multiplier(self._counted_deals() + 1)
        return saved.totals[player] + times * deal[player], saved.totals[other] + times * deal[other]

    def _deferred_carte_blanche(self, seat: int) -> bool:
        """Piquet au Cent: younger with carte blanche need not announce it until elder has discarded;
        she may announce it at any moment before her own exchange."""
        s = self._s
        return (s.phase is Phase.EXCHANGE and seat in s.carte_blanche_pending
                and self.rules.younger_carte_blanche_after_elder_discards)

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, player: int | None = None) -> LegalActions:
        """The legal actions of ``player`` (by default the player to act), listed lazily.

        The cut and the deal are chance events and are not listed (see
        :meth:`random_cut`, :meth:`random_deal` and :meth:`legal_packets`).
        A player may concede out of turn, so another player's list may hold that.
        """
        return LegalActions(self, self._s.to_act if player is None else player)

    def _generate(self, seat: int | None) -> Iterator[Action]:
        """The legal actions of ``seat``: those he may take out of turn (a concession, au Cent's younger's
        carte blanche), then those of the phase if he is to act, each phase listed by its own method."""
        s = self._s
        if seat is None:
            return
        if s.phase is Phase.PLAY and not s.tricks and not s.trick and self.rules.allows_concession:
            concede = Concede(seat)
            if self.why_not(concede) is None:
                yield concede
        if self._deferred_carte_blanche(seat):
            yield CarteBlanche(seat, True)
            if not self.rules.carte_blanche_compulsory:
                yield CarteBlanche(seat, False)
        if seat != s.to_act:
            return
        listing = self._LISTINGS.get(s.phase)
        if listing is not None:
            yield from listing(self, seat)

    def _legal_choose_dealer(self, seat: int) -> Iterator[Action]:
        yield ChooseDealer(seat, seat)
        yield ChooseDealer(seat, 1 - seat)

    def _legal_bids(self, seat: int) -> Iterator[Action]:
        for text in _CALLS:
            bid = Bid(seat, text)
            if self._why_not_bid(bid) is None:
                yield bid

    def _legal_carte_blanche(self, seat: int) -> Iterator[Action]:
        s = self._s
        if seat == s.elder:
            lo, hi = self.rules.elder_minimum_exchange, self.rules.elder_maximum_exchange
            for n in range(hi, lo - 1, -1):
                yield CarteBlanche(seat, True, n)
        else:
            yield CarteBlanche(seat, True)
        if not self.rules.carte_blanche_compulsory:
            yield CarteBlanche(seat, False)

    def _legal_exchanges(self, seat: int) -> Iterator[Action]:
        s = self._s
        lo, hi = self._exchange_limits(seat)
        held = list(CardSet(s.hands[seat]))
        taken = s.elder_count if s.elder_count is not None else 0
        for n in range(hi, lo - 1, -1):
            for chosen in _subsets(held, n):
                discards = CardSet(chosen)
                yield Exchange(seat, discards)
                if seat != s.elder and taken + n < len(s.talon):
                    yield Exchange(seat, discards, show_rest=True)

    def _legal_declarations(self, seat: int) -> Iterator[Action]:
        s = self._s
        category, _ = self._declaration_slot()
        if self.rules.must_declare_in_full(s.contract):
            yield Declare(seat, category, tuple(maximal(category, CardSet(s.hands[seat]), self.rules.minimum_point)))
            return
        yield Declare(seat, category, ())
        options = candidates(category, CardSet(s.hands[seat]), self.rules.minimum_point)
        possible = CardSet(FULL_PACK & ~s.hands[seat] & ~s.discards[seat])
        for first in options:
            yield Declare(seat, category, (first,))
            if category is Category.POINT:
                continue
            gac = seat != s.elder or (not self.rules.short_calls_bind
                                      and good_against_the_cards(category, first, possible))
            extras = [
                c for c in options
                if not c.mask & first.mask and (gac or key(category, c) <= key(category, first))
            ]
            for more in _disjoint_collections(extras):
                yield Declare(seat, category, (first, *more))

    def _legal_answers(self, seat: int) -> Iterator[Action]:
        yield AcceptConcession(seat, True)
        yield AcceptConcession(seat, False)

    def _legal_plays(self, seat: int) -> Iterator[Action]:
        s = self._s
        playable = s.hands[seat]
        if s.trick:
            follow = playable & s.trick[0].suit.mask
            if follow:
                playable = follow
        for card in CardSet(playable):
            yield Play(seat, card)

    #: Each phase's listing of the legal actions of the player to act (the cut and the deal are chance).
    _LISTINGS: ClassVar[dict[Phase, Callable[[Partie, int], Iterator[Action]]]] = {
        Phase.CHOOSE_DEALER: _legal_choose_dealer,
        Phase.BID: _legal_bids,
        Phase.CARTE_BLANCHE: _legal_carte_blanche,
        Phase.EXCHANGE: _legal_exchanges,
        Phase.DECLARE: _legal_declarations,
        Phase.CONCESSION: _legal_answers,
        Phase.PLAY: _legal_plays,
    }

    # ------------------------------------------------------------ applying
    def _tell(self, event: Event) -> None:
        self._s.log = (*self._s.log, event)

    def _score(self, event: ScoreEvent, announce: bool = True) -> None:
        """Add an event in its place in the order of reckoning (Law 67)."""
        s = self._s
        rank = CATEGORY_ORDER.index(event.category)
        events = list(s.events)
        at = len(events)
        while at > 0 and CATEGORY_ORDER.index(events[at - 1].category) > rank:
            at -= 1
        events.insert(at, event)
        s.events = tuple(events)
        if announce:
            s.log = (*s.log, event)

    def _apply(self, action: Action) -> None:
        match action:
            case Cut():
                self._apply_cut(action)
            case ChooseDealer():
                self._tell(DealerChosen(action.player, action.dealer))
                self._s.dealer = action.dealer
                self._s.phase, self._s.to_act = Phase.DEAL, action.dealer
            case Deal():
                self._apply_deal(action)
            case Bid():
                self._apply_bid(action)
            case CarteBlanche():
                self._apply_carte_blanche(action)
            case Exchange():
                self._apply_exchange(action)
            case Declare():
                self._apply_declare(action)
            case Play():
                self._apply_play(action)
            case Concede():
                self._apply_concede(action)
            case AcceptConcession():
                self._apply_accept_concession(action)
            case _:
                assert_never(action)

    def _apply_cut(self, action: Cut) -> None:
        s = self._s
        a, b = action.cards
        if a.rank == b.rank:
            self._tell(CutMade((a, b), again=True))
            return
        s.cut_winner = 0 if a.rank > b.rank else 1
        if self.rules.lower_cut_deals:
            s.dealer = 1 - s.cut_winner
            self._tell(CutMade((a, b), dealer=s.dealer))
            s.phase, s.to_act = Phase.DEAL, s.dealer
            return
        self._tell(CutMade((a, b)))
        s.phase, s.to_act = Phase.CHOOSE_DEALER, s.cut_winner

    def _apply_deal(self, action: Deal) -> None:
        s = self._s
        dealer = action.player
        if action.packets is not None:
            s.packets = _set_any(s.packets, dealer, action.packets)
        s.deal_number += 1
        s.dealer = dealer
        s.elder = self.rules.elder_of(dealer)
        s.dealt = (action.hands[0].mask, action.hands[1].mask)
        s.hands = s.dealt
        s.talon = action.talon
        s.discards = s.drawn = s.shown_dealt = s.pending_reveal = s.revealed = s.scored_cards = (0, 0)
        s.exchanged = (None, None)
        s.elder_count = s.will_exchange = s.show_rest = None
        s.peeked = s.rest = 0
        s.rest_public = s.hand_reckoned = False
        s.carte_blanche = (False, False)
        s.declaration_step = 0
        s.calls = s.announcements = s.bids = ()
        s.contract = None
        s.doubles_used = 0
        if s.log:
            s.past_logs = (*s.past_logs, s.log)
        s.pending_events = s.events = s.log = ()
        s.repique = s.pique = s.conceded = None
        s.concession_declined = False
        s.trick = s.tricks = ()
        s.tricks_won = (0, 0)
        self._tell(DealBegun(s.deal_number, dealer, s.elder, action.packets, self.rules.uses_bidding))
        if self.rules.uses_bidding:
            s.carte_blanche_pending = ()
            s.phase, s.to_act = Phase.BID, s.elder
            return
        self._begin_carte_blanche()

    def _begin_carte_blanche(self) -> None:
        """Before the exchange: each player dealt no king, queen or knave may announce carte blanche,
        elder first (Laws 18-20); then the exchange."""
        s = self._s
        court = Rank.JACK.mask | Rank.QUEEN.mask | Rank.KING.mask
        eligible = [seat for seat in (s.elder, 1 - s.elder) if not s.dealt[seat] & court]
        s.carte_blanche_pending = tuple(eligible) if self.rules.has_carte_blanche else ()
        self._next_carte_blanche()

    def _next_carte_blanche(self) -> None:
        """The next player to decide on his carte blanche, or the exchange. In Piquet au Cent younger's
        decision waits, unless elder announced one, until elder has discarded (she may still announce
        it before)."""
        s = self._s
        pending = s.carte_blanche_pending
        younger = 1 - s.elder
        defer = (self.rules.younger_carte_blanche_after_elder_discards and pending == (younger,)
                 and not s.carte_blanche[s.elder] and s.exchanged[s.elder] is None)
        if pending and not defer:
            s.phase, s.to_act = Phase.CARTE_BLANCHE, pending[0]
        elif s.exchanged[s.elder] is not None:
            s.phase, s.to_act = Phase.EXCHANGE, younger
        else:
            s.phase = Phase.EXCHANGE
            # Law 20: elder with carte blanche has younger set her discards aside before he shows.
            s.to_act = younger if s.carte_blanche[s.elder] else s.elder

    def _apply_bid(self, action: Bid) -> None:
        s = self._s
        s.bids = (*s.bids, action)
        call = action.call
        self._tell(BidCalled(action.player, call))
        if call == "double" or (call == "redouble" and self.rules.redouble_counts_as_double):
            s.doubles_used += 1
        if call == "pass" and all(b.call == "pass" for b in s.bids):
            if len(s.bids) == 2:
                self._annul_deal()
            else:
                s.to_act = 1 - action.player
            return
        if call in ("pass", "redouble"):
            self._close_auction()
            return
        s.to_act = 1 - action.player

    def _close_auction(self) -> None:
        """The highest bidder holds the contract and becomes elder (Lunn)."""
        s = self._s
        last = self._last_bid()
        assert last is not None and last.tricks is not None
        after = [b.call for b in s.bids[s.bids.index(last) + 1:]]
        doubles = 2 if "redouble" in after else 1 if "double" in after else 0
        s.contract = Contract(last.player, last.tricks, last.minus, doubles)
        s.elder = last.player
        self._tell(AuctionWon(s.contract))
        # With the option carte_blanche, it is announced once the holder is known, before the exchange.
        self._begin_carte_blanche()

    def _annul_deal(self) -> None:
        """Both passed: the deal is annulled, does not count, and the same dealer deals again (Lunn)."""
        s = self._s
        self._tell(DealAnnulled())
        score = DealScore.from_events((), s.elder, (0, 0), annulled=True)
        s.deal_scores = (*s.deal_scores, score)
        s.phase, s.to_act = Phase.DEAL, s.dealer

    def _apply_carte_blanche(self, action: CarteBlanche) -> None:
        s = self._s
        seat = action.player
        s.carte_blanche_pending = tuple(p for p in s.carte_blanche_pending if p != seat)
        if action.announce:
            s.carte_blanche = (True, s.carte_blanche[1]) if seat == 0 else (s.carte_blanche[0], True)
            if action.will_exchange is not None:
                s.will_exchange = s.elder_count = action.will_exchange
            self._tell(CarteBlancheAnnounced(seat, action.will_exchange))
            self._score(ScoreEvent(seat, self.rules.carte_blanche_points, ScoreCategory.CARTE_BLANCHE,
                                   "carte blanche"))
            if s.exchanged[1 - seat] is not None:
                # Announced after the opponent discarded (au Cent's younger): the proof is shown at once.
                self._show_carte_blanche(seat)
        if s.phase is Phase.EXCHANGE and seat != s.to_act:
            return  # au Cent's younger, announcing before elder's exchange: elder is still to exchange
        self._next_carte_blanche()

    def _show_carte_blanche(self, seat: int) -> None:
        """The proof of carte blanche: the hand as dealt, shown once the opponent has discarded (Laws 19-20)."""
        s = self._s
        s.shown_dealt = _set(s.shown_dealt, seat, s.dealt[seat])
        self._tell(CarteBlancheShown(seat, CardSet(s.dealt[seat])))

    def _apply_exchange(self, action: Exchange) -> None:
        s = self._s
        seat = action.player
        n = len(action.discards)
        if seat == s.elder:
            start = 0
            s.elder_count = n
        else:
            start = s.elder_count or 0
        drawn = 0
        for card in s.talon[start : start + n]:
            drawn |= 1 << card
        hand = (s.hands[seat] & ~action.discards.mask) | drawn
        s.hands = _set(s.hands, seat, hand)
        s.discards = _set(s.discards, seat, action.discards.mask)
        s.drawn = _set(s.drawn, seat, drawn)
        s.exchanged = _set_any(s.exchanged, seat, n)
        left, looked = 0, False
        if seat == s.elder:
            top = self.rules.elder_maximum_exchange  # Law 33: the cards he left "of the top five"
            left = top - n if n < top else 0
            if left and self.rules.elder_sees_cards_left:
                for card in s.talon[n:top]:
                    s.peeked |= 1 << card
                looked = True
        else:
            s.show_rest = action.show_rest
        self._tell(Exchanged(seat, n, left, looked))
        other = 1 - seat
        if s.carte_blanche[other] and not s.shown_dealt[other]:
            self._show_carte_blanche(other)
        if s.exchanged[0] is not None and s.exchanged[1] is not None:
            taken = (s.exchanged[s.elder] or 0) + (s.exchanged[1 - s.elder] or 0)
            s.rest = CardSet(s.talon[taken:]).mask
            s.phase, s.to_act = Phase.DECLARE, s.elder
        elif s.carte_blanche_pending:
            self._next_carte_blanche()  # au Cent: younger decides on her carte blanche now
        else:
            s.to_act = other

    def _apply_declare(self, action: Declare) -> None:
        s = self._s
        s.calls = (*s.calls, action)
        category, seat = self._declaration_slot()
        s.declaration_step += 1
        elder, younger = s.elder, 1 - s.elder
        if seat == elder:
            first = action.called
            if first is None:
                s.announcements = (*s.announcements, Announcement(category, None))
                self._tell(Declared(elder, category, None))
            else:
                at_once = self.rules.told_at_once(category, s.contract)
                rank = first.cards()[0].rank if category is Category.SETS and at_once else None
                detail = key(category, first)[1] if at_once and category is not Category.SETS else None
                s.announcements = (*s.announcements, Announcement(category, len(first), rank, detail))
                top = Rank(key(category, first)[1]) if at_once and category is not Category.POINT else None
                pips = key(category, first)[1] if at_once and category is Category.POINT else None
                self._tell(Declared(elder, category, len(first), at_once, pips, top))
                if category is Category.SETS and len(first) == 4 and at_once:
                    # "Fourteen aces" names all four cards.
                    s.revealed = _set(s.revealed, elder, s.revealed[elder] | first.mask)
        else:
            elder_call = s.calls[-2]
            self._resolve(category, elder_call, action)
        if s.declaration_step == len(DECLARATION_ORDER):
            s.phase, s.to_act = Phase.PLAY, elder
            s.leader = elder
        else:
            _, next_is_elder = DECLARATION_ORDER[s.declaration_step]
            s.to_act = elder if next_is_elder else younger

    def _resolve(self, category: Category, elder_call: Declare | None, answer: Declare) -> None:
        """Younger's answer to elder's call: good, not good or equal (the rulings, 10)."""
        s = self._s
        elder, younger = s.elder, 1 - s.elder
        e = elder_call.called if elder_call else None
        y = answer.called
        winner: int | None
        heard = s.announcements[-1]
        if e is None:
            winner = younger if y is not None else None
        elif y is None:
            self._tell(DeclarationAnswered(younger, category, "good"))
            heard = replace(heard, answer="good")
            winner = elder
        else:
            ke, ky = key(category, e), key(category, y)
            reply: Answer = "good" if ke > ky else "not good" if ke < ky else "equal"
            if ke[0] == ky[0] and not self.rules.told_at_once(category, s.contract):
                making = category is Category.POINT and not self.rules.uses_bidding
                self._tell(SecondCallAsked(younger, category, "making" if making else "how high"))
                if category is Category.POINT:
                    self._tell(SecondCall(elder, category, pips=ke[1]))
                else:
                    self._tell(SecondCall(elder, category, top=Rank(ke[1])))
                if category is Category.SETS:
                    heard = replace(heard, rank=e.cards()[0].rank)
                else:
                    heard = replace(heard, detail=ke[1])
            self._tell(DeclarationAnswered(younger, category, reply))
            heard = replace(heard, answer=reply)
            winner = elder if ke > ky else younger if ke < ky else None
        s.announcements = (*s.announcements[:-1], heard)
        if e is not None and y is not None and winner is None:
            # An exact tie cancels the category; both combinations are open to inspection (Law 55).
            s.pending_reveal = (s.pending_reveal[0] | (e.mask if elder == 0 else y.mask),
                                s.pending_reveal[1] | (e.mask if elder == 1 else y.mask))
            return
        if winner is None:
            return
        shown = (elder_call if winner == elder else answer)
        assert shown is not None
        scat = _SCORE_CATEGORY[category]
        scorer = self.rules.combination_scorer(winner, s.contract)
        # Law 55 shows what was scored; au Cent: "except in the case of quatorzes and trios".
        shown_cards = category is not Category.SETS or self.rules.shows_sets
        for cards in shown.combinations:
            reason = call(category, cards).lower()
            if scorer != winner:
                reason = f"{self.players[winner]}'s {reason}"
            event = ScoreEvent(scorer, self.rules.combination_points(category, cards), scat, reason)
            s.scored_cards = _set(s.scored_cards, winner, s.scored_cards[winner] | cards.mask)
            if shown_cards:
                s.pending_reveal = _set(s.pending_reveal, winner, s.pending_reveal[winner] | cards.mask)
            if winner == elder:
                self._score(event)
            else:
                # Younger reckons what she won after elder's lead (the rulings, 10 and 12).
                s.pending_events = (*s.pending_events, event)

    def _reckon_hand(self) -> None:
        """At elder's first lead (or a concession): younger reckons, the combinations
        are open to inspection, the rest of the talon is shown if she elected it,
        and the repique is decided (Laws 55, 36, 67, 68)."""
        s = self._s
        if s.hand_reckoned:
            return
        s.hand_reckoned = True
        for event in s.pending_events:
            self._score(event)
        s.pending_events = ()
        s.revealed = (s.revealed[0] | s.pending_reveal[0], s.revealed[1] | s.pending_reveal[1])
        s.pending_reveal = (0, 0)
        if s.show_rest and s.rest:
            s.rest_public = True
            self._tell(RestShown(1 - s.elder, CardSet(s.rest)))
        if self.rules.carte_rouge_points:
            for seat in (s.elder, 1 - s.elder):
                if s.hands[seat] and not s.hands[seat] & ~s.scored_cards[seat]:
                    self._score(ScoreEvent(seat, self.rules.carte_rouge_points, ScoreCategory.CARTE_ROUGE,
                                           "carte rouge"))
        totals = [0, 0]
        for event in s.events:
            if not event.category.in_hand:
                continue
            totals[event.player] += event.points
            p = event.player
            if totals[p] >= self.rules.repique_threshold(s.contract) and totals[1 - p] == 0:
                s.repique = p
                self._score(ScoreEvent(p, self.rules.repique_points, ScoreCategory.REPIQUE, "repique"))
                break
        # Where the pique needs less than the repique (Auction plus contracts: 29), the hand alone
        # may reach it before the opponent scores.
        self._check_pique()

    def _check_pique(self) -> None:
        """Law 69: thirty in hand and play before the opponent scores; never with a repique (ruling 13)."""
        s = self._s
        if s.pique is not None or s.repique is not None:
            return
        totals = [0, 0]
        threshold = self.rules.pique_threshold(s.contract)
        for event in s.events:
            if event.category is ScoreCategory.CONTRACT or (
                event.category is ScoreCategory.CARDS and not self.rules.cards_count_toward_pique
            ):
                continue
            totals[event.player] += event.points
            p = event.player
            # Reckoned strictly in the order of reckoning (Law 67; Lunn: "Point, Sequence, Set"):
            # the first to reach the threshold while the other has nothing has the pique.
            if (totals[p] >= threshold and totals[1 - p] == 0
                    and self.rules.may_pique(p, s.elder, s.contract)):
                s.pique = p
                self._score(ScoreEvent(p, self.rules.pique_points, ScoreCategory.PIQUE, "pique"))
                return

    def _apply_play(self, action: Play) -> None:
        s = self._s
        seat, card = action.player, action.card
        if not s.hand_reckoned:
            self._tell(FirstLead(seat, card))
            self._reckon_hand()
        s.hands = _set(s.hands, seat, s.hands[seat] & ~card.mask)
        s.trick = (*s.trick, card)
        if len(s.trick) == 1:
            s.log = (*s.log, CardPlayed(seat, card))
            points = self.rules.lead_points(card, s.contract)
            if points:
                self._score(ScoreEvent(seat, points, ScoreCategory.PLAY, f"lead of {card}"))
                self._check_pique()
            s.to_act = 1 - seat
            return
        lead = s.trick[0]
        leader = s.leader
        winner = seat if card.beats(lead) else leader
        s.log = (*s.log, CardPlayed(seat, card, winner))
        for who, points, reason in self.rules.trick_awards(leader, s.trick, winner, s.contract):
            self._score(ScoreEvent(who, points, ScoreCategory.PLAY, reason))
            self._check_pique()
        s.tricks = (*s.tricks, Trick(leader, s.trick, winner))
        s.tricks_won = _set(s.tricks_won, winner, s.tricks_won[winner] + 1)
        early_cards = self.rules.cards_count_toward_pique and s.tricks_won[winner] == 7
        s.trick = ()
        s.leader = winner
        s.to_act = winner
        last = self.rules.last_trick_points(s.contract)
        if len(s.tricks) == 12 and last:
            self._score(ScoreEvent(winner, last, ScoreCategory.PLAY, "the last trick"))
        if early_cards:
            # The option's reading: the cards are scored as soon as they are won, and may make a pique.
            self._score(ScoreEvent(winner, self.rules.cards_points, ScoreCategory.CARDS, "the cards"))
        self._check_pique()
        if len(s.tricks) == 12:
            awards = self.rules.cards_awards(s.tricks_won, s.contract)
            if not awards:
                self._tell(CardsDivided())
            for who, points, reason in awards:
                if self.rules.cards_count_toward_pique:
                    # The cards were scored at the seventh trick; capot adds what it counts more.
                    points -= self.rules.cards_points
                if points:
                    self._score(ScoreEvent(who, points, ScoreCategory.CARDS, reason))
            for who, points, reason in self.rules.contract_awards(s.tricks_won, s.contract):
                self._score(ScoreEvent(who, points, ScoreCategory.CONTRACT, reason))
            self._end_deal()

    def _apply_concede(self, action: Concede) -> None:
        s = self._s
        self._tell(Conceded(action.player))
        self._reckon_hand()
        s.conceded = action.player
        if self.rules.concession_may_be_declined:
            s.phase, s.to_act = Phase.CONCESSION, 1 - action.player
            return
        self._settle_concession()

    def _apply_accept_concession(self, action: AcceptConcession) -> None:
        s = self._s
        if action.accept:
            self._tell(ConcessionAnswered(action.player, True))
            self._settle_concession()
            return
        self._tell(ConcessionAnswered(action.player, False))
        s.conceded = None
        s.concession_declined = True
        s.phase, s.to_act = Phase.PLAY, s.leader

    def _settle_concession(self) -> None:
        """The opponent of the player who conceded counts 13 for the play and 10 for the cards,
        without pique or capot (the rulings, 18)."""
        s = self._s
        assert s.conceded is not None
        other = 1 - s.conceded
        self._score(ScoreEvent(other, self.rules.conceded_play_points, ScoreCategory.PLAY, "conceded play"))
        self._score(ScoreEvent(other, self.rules.cards_points, ScoreCategory.CARDS, "conceded cards"))
        self._end_deal()

    def _counted_deals(self) -> int:
        """Deals played to the end (an annulled Auction deal does not count)."""
        return counted_deals(self._s.deal_scores)

    def _end_deal(self) -> None:
        s = self._s
        before = s.totals
        multiplier = self.rules.deal_multiplier(self._counted_deals() + 1)
        score = DealScore.from_events(s.events, s.elder, s.tricks_won, s.contract, multiplier=multiplier)
        s.deal_scores = (*s.deal_scores, score)
        s.totals = (s.totals[0] + multiplier * score.totals[0], s.totals[1] + multiplier * score.totals[1])
        self._tell(DealEnded(s.deal_number, score.totals, multiplier, s.totals))
        over = self.rules.partie_over(self._counted_deals(), s.totals)
        if self.rules.plays_games:
            game = self.rules.game_over((before[0] - s.game_start[0], before[1] - s.game_start[1]),
                                        [(e.player, multiplier * e.points) for e in s.events])
            if game is not None:
                game = replace(game, deal=len(s.deal_scores))
                s.games = (*s.games, game)
                s.game_start = s.totals
                self._tell(GameWon(game))
                won = self.games_won()
                if max(won) >= self.rules.games_to_win:
                    winner = 0 if won[0] > won[1] else 1
                    s.result = settled = Settlement(winner, won[winner], False, won)
                    s.phase, s.to_act = Phase.OVER, None
                    self._tell(PartieEnded(settled))
                    return
        if over:
            s.result = settled = settle(s.totals, self.rules.rubicon, self.rules.settlement_bonus)
            s.phase, s.to_act = Phase.OVER, None
            self._tell(PartieEnded(settled))
        elif self.rules.fresh_cut_each_game and s.games and s.games[-1].deal == len(s.deal_scores):
            self._tell(NewGameCut())
            s.phase, s.to_act = Phase.CUT, None
        else:
            s.dealer = 1 - (s.dealer if s.dealer is not None else 0)
            s.phase, s.to_act = Phase.DEAL, s.dealer

    # ------------------------------------------------------------ views
    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may know (``None``: a spectator, who sees only what is public)."""
        s = self._s
        own = seat is not None
        me = seat if seat is not None else 0
        other = 1 - me
        elder_view = own and seat == s.elder
        younger_view = own and seat == 1 - s.elder
        public_rest = CardSet(s.rest if s.rest_public else 0)
        log = s.log
        return PlayerView(
            seat=seat,
            players=self.players,
            variant=self.variant,
            options=self.rules.changed(),
            phase=s.phase,
            to_act=s.to_act,
            deal_number=s.deal_number,
            dealer=s.dealer,
            elder=s.elder,
            hand=CardSet(s.hands[me] if own else 0),
            dealt=CardSet(s.dealt[me] if own else 0),
            discards=CardSet(s.discards[me] if own else 0),
            peeked=CardSet(s.peeked if elder_view else 0),
            rest=public_rest,
            show_rest=s.show_rest if (younger_view or s.rest_public or s.hand_reckoned) else None,
            talon_left=max(0, len(s.talon) - sum(n or 0 for n in s.exchanged)),
            hand_sizes=(s.hands[0].bit_count(), s.hands[1].bit_count()),
            exchanged=s.exchanged,
            will_exchange=s.will_exchange,
            carte_blanche=s.carte_blanche,
            shown_dealt=(CardSet(s.shown_dealt[0]), CardSet(s.shown_dealt[1])),
            revealed=(CardSet(s.revealed[0]), CardSet(s.revealed[1])),
            own_calls=tuple(c for c in s.calls if c is not None and own and c.player == seat),
            announcements=s.announcements,
            trick=s.trick,
            leader=s.leader,
            tricks=s.tricks,
            tricks_won=s.tricks_won,
            events=s.events,
            log=log,
            deal_scores=s.deal_scores,
            totals=s.totals,
            result=s.result,
            opponent=other if own else None,
            exchange_range=self._exchange_limits(me) if own and s.phase is Phase.EXCHANGE and s.to_act == me
            else None,
            bids=s.bids,
            contract=s.contract,
            games=s.games,
            game_scores=(s.totals[0] - s.game_start[0], s.totals[1] - s.game_start[1]),
        )


def _disjoint_collections(options: list[CardSet]) -> Iterator[tuple[CardSet, ...]]:
    """Every non-empty collection of pairwise disjoint combinations from ``options``."""

    def walk(start: int, used: int, chosen: tuple[CardSet, ...]) -> Iterator[tuple[CardSet, ...]]:
        for i in range(start, len(options)):
            c = options[i]
            if c.mask & used:
                continue
            grown = (*chosen, c)
            yield grown
            yield from walk(i + 1, used | c.mask, grown)

    yield from walk(0, 0, ())


@dataclass
class LegalActions:
    """The legal actions of one player, generated lazily; ``in`` checks with :meth:`Partie.can`."""

    partie: Partie
    player: int | None
    _cache: list[Action] | None = field(default=None, repr=False)

    def __iter__(self) -> Iterator[Action]:
        if self._cache is not None:
            return iter(self._cache)
        return self.partie._generate(self.player)

    def __contains__(self, action: object) -> bool:
        return (
                isinstance(action, Action)
                and action.player == self.player
                and not isinstance(action, (Cut, Deal))
                and self.partie.can(action))

    def list(self) -> list[Action]:
        if self._cache is None:
            self._cache = list(self.partie._generate(self.player))
        return self._cache

    def __len__(self) -> int:
        return len(self.list())

    def __bool__(self) -> bool:
        return any(True for _ in self)
