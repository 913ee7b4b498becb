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

import builtins
import enum
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations as _subsets
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Final, assert_never, overload

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
    COMBINATION_CARDS,
    Category,
    best_key,
    best_shown,
    call,
    candidate_codes,
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
    CombinationScored,
    DealScore,
    ScoreCategory,
    ScoreEvent,
    Settlement,
    counted_deals,
    settle,
)
from piquet.engine.variants import Contract, GameResult, Rules, games_won, make_rules, parse_bid
from piquet.engine.view import Announcement, PlayerView, Trick

__all__ = ["DECLARATION_ORDER", "IllegalActionError", "Partie", "Phase", "decided_in_hand", "reckoning_at_first_lead"]


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

    #: Hashed by identity, in C: a member is its own key (``Enum`` hashes the name by a Python call, and
    #: the engine looks members up in dicts at every step).
    __hash__ = object.__hash__


#: Enum members as module names, for the steps: ``Phase.PLAY`` goes through ``EnumType.__getattr__``'s slot
#: at each reading (some 150 ns), a module name does not.
_PHASE_BID: Final = Phase.BID
_PHASE_CARTE_BLANCHE: Final = Phase.CARTE_BLANCHE
_PHASE_CHOOSE_DEALER: Final = Phase.CHOOSE_DEALER
_PHASE_CONCESSION: Final = Phase.CONCESSION
_PHASE_CUT: Final = Phase.CUT
_PHASE_DEAL: Final = Phase.DEAL
_PHASE_DECLARE: Final = Phase.DECLARE
_PHASE_EXCHANGE: Final = Phase.EXCHANGE
_PHASE_OVER: Final = Phase.OVER
_PHASE_PLAY: Final = Phase.PLAY
_CAT_POINT: Final = Category.POINT
_CAT_SETS: Final = Category.SETS
_SCORE_CARDS: Final = ScoreCategory.CARDS
#: The kings, queens and knaves (a hand without any is carte blanche, Laws 18-20).
_COURT_CARDS: Final = Rank.JACK.mask | Rank.QUEEN.mask | Rank.KING.mask
_SCORE_CARTE_BLANCHE: Final = ScoreCategory.CARTE_BLANCHE
_SCORE_CARTE_ROUGE: Final = ScoreCategory.CARTE_ROUGE
_SCORE_CONTRACT: Final = ScoreCategory.CONTRACT
_SCORE_PIQUE: Final = ScoreCategory.PIQUE
_SCORE_PLAY: Final = ScoreCategory.PLAY
_SCORE_REPIQUE: Final = ScoreCategory.REPIQUE


#: The phase in which each kind of action is taken.
_EXPECTED_PHASE: dict[type, Phase] = {
    Cut: Phase.CUT,
    ChooseDealer: Phase.CHOOSE_DEALER,
    Deal: Phase.DEAL,
    Bid: Phase.BID,
    CarteBlanche: Phase.CARTE_BLANCHE,
    Exchange: Phase.EXCHANGE,
    Declare: Phase.DECLARE,
    Play: Phase.PLAY,
    AcceptConcession: Phase.CONCESSION,
}

#: The declarations of a deal in order: elder's then younger's, point, sequences, sets.
DECLARATION_ORDER: tuple[tuple[Category, bool], ...] = tuple(
    (category, is_elder) for category in Category for is_elder in (True, False)
)

#: Every call of an auction, in the order they are listed (Lunn).
_CALLS = ("pass", "double", "redouble", *(f"{n}{sign}" for n in range(7, 13) for sign in "+-"))
#: Every call, one value per seat (a Bid never changes), as the legal bids list them.
_BIDS: tuple[tuple[Bid, ...], tuple[Bid, ...]] = (
    tuple(Bid(0, text) for text in _CALLS), tuple(Bid(1, text) for text in _CALLS))
#: The number of tricks of each call after pass, double and redouble.
_CALL_TRICKS: tuple[int, ...] = tuple(int(text[:-1]) for text in _CALLS[3:])
#: Where the rule that a concession breaks is stated (the rulings, 18).
_CONCESSION_SOURCE = "ruling 18 (Cavendish's treatise, Scoring; Case XXII)"

_SCORE_CATEGORY = {
    Category.POINT: ScoreCategory.POINT,
    Category.SEQUENCES: ScoreCategory.SEQUENCES,
    Category.SETS: ScoreCategory.SETS,
}


#: ``object.__new__`` and ``object.__setattr__``, read once: the engine makes its records and views with them at
#: every step, and CPython 3.11 reads a method of ``object`` the slow way each time.
_new = object.__new__
_set_attr = object.__setattr__


def _ordinary_dict(obj: object) -> dict[str, Any]:
    """Give ``obj`` an ordinary instance dict (its fields copied), and return it. CPython 3.11 keeps a small
    instance's fields in a dict whose keys its class shares once its ``__dict__`` is read, and a copy of such a
    dict is such a dict too; reading a field from one misses the interpreter's fast path and costs about four
    times as much. An ordinary dict's copy is an ordinary dict."""
    fields = dict(obj.__dict__)
    _set_attr(obj, "__dict__", fields)
    return fields


@dataclass(frozen=True)
class _Deal:
    """Everything that belongs to one deal: created whole at each Deal action, then replaced as the deal goes on
    (each action makes a new record, :meth:`Partie._evolve`), never changed once the action is applied. Before
    the first deal it holds the defaults (and the cut's log)."""

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
    #: Younger has reckoned (at elder's first lead, or a concession); false again after a concession declined,
    #: until elder's lead shows the rest of the talon (Law 36).
    hand_reckoned: bool = False
    repique: int | None = None
    pique: int | None = None
    #: No pique can come any more in this deal (see _check_pique).
    pique_closed: bool = False
    trick: tuple[Card, ...] = ()
    leader: int = 0
    tricks: tuple[Trick, ...] = ()
    tricks_won: tuple[int, int] = (0, 0)
    events: tuple[ScoreEvent, ...] = ()
    log: tuple[LogEntry, ...] = ()
    conceded: int | None = None
    concession_declined: bool = False


#: The fields of a new deal record, its defaults (all immutable values), in the order of its fields.
_NEW_DEAL: dict[str, object] = _Deal().__dict__.copy()


@dataclass
class _State:
    """Everything that changes over the partie; what belongs to one deal is the record ``deal``. Fields hold
    only immutable values, so a shallow copy is a snapshot (that is how :meth:`Partie.pop` undoes). A state is
    never changed once the partie has moved past it, with one exception: a card played that does not end the
    deal changes only ``deal`` and ``to_act``, and changes them in the partie's own present state (see
    :meth:`Partie.push`), so what keeps a state to read later keeps those two with it."""

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
    #: The deal in progress (or the last one played), shared by the snapshots taken within it.
    deal: _Deal = field(default_factory=_Deal)

    def __post_init__(self) -> None:
        _ordinary_dict(self)  # and so every snapshot's copy of it


def _snapshot(state: _State) -> _State:
    """A shallow copy: enough, since the fields are immutable values. (The instance dict is copied whole and
    set, which CPython does about twice as fast as filling in a new instance's dict from it.)"""
    new = _new(_State)
    _set_attr(new, "__dict__", state.__dict__.copy())
    return new


#: No cards: shared, as a CardSet never changes.
_NO_CARDS = CardSet()


def _cards(mask: int) -> CardSet:
    return CardSet(mask) if mask else _NO_CARDS


class _CardSets(dict[int, CardSet]):
    """The CardSet of each mask, made once and shared (a CardSet never changes): the views ask for the
    same few masks again and again. Emptied when it grows large."""

    def __missing__(self, mask: int) -> CardSet:
        if len(self) > 4096:
            self.clear()
            self[0] = _NO_CARDS
        cards = self[mask] = CardSet(mask)
        return cards


_SETS = _CardSets({0: _NO_CARDS})


def _placed(events: tuple[ScoreEvent, ...], event: ScoreEvent) -> tuple[ScoreEvent, ...]:
    """``events`` with ``event`` in its place in the order of reckoning (Law 67): after every event of its
    category or an earlier one."""
    rank = _ORDER[event.category]
    at = len(events)
    while at > 0 and _ORDER[events[at - 1].category] > rank:
        at -= 1
    return events + (event,) if at == len(events) else (*events[:at], event, *events[at:])


#: The ranks by their values (a card's rank is its low three bits).
_RANKS: tuple[Rank, ...] = tuple(Rank)

#: Each score category's place in the order of reckoning.
_ORDER: dict[ScoreCategory, int] = {category: i for i, category in enumerate(CATEGORY_ORDER)}


def _repique_in_order(events: Iterable[ScoreEvent], rules: Rules,
                      contract: Contract | None) -> tuple[int, int] | None:
    """The seat whose points in hand reach the repique's threshold while the other has nothing, reckoned in
    the order of ``events`` (Laws 67-68), and where the repique stands among them: just after the event that
    made the thirty, since it "is obtained on the score of thirty being made" (Law 68; Cavendish counts the
    sixty at once: "Instead of counting 'Thirty-four,' he counts 'Ninety-four'"). ``None`` if neither."""
    totals = [0, 0]
    threshold = rules.repique_threshold(contract)
    for at, event in enumerate(events, start=1):
        if not event.category.in_hand:
            continue
        p = event.player
        totals[p] += event.points
        if totals[p] >= threshold and totals[1 - p] == 0:
            return p, at
    return None


def _pique_in_order(events: Iterable[ScoreEvent], rules: Rules, contract: Contract | None,
                    elder: int) -> tuple[int | None, ScoreEvent | None, int]:
    """Law 69 reckoned strictly in the order of ``events`` (Law 67; Lunn: "Point, Sequence, Set"): the first to
    reach the pique's threshold while the other has nothing has the pique. ``(seat, None, at)`` for the seat that
    has it, the pique standing at ``at`` among the events, just after the one that made the thirty (Law 69: "obtained
    on the score of thirty being made"; "when he leads the card which makes him thirty ... counts sixty");
    ``(None, event, 0)`` where both had scored by ``event`` first (no pique from there); ``(None, None, 0)`` where
    neither has happened."""
    totals = [0, 0]
    threshold = rules.pique_threshold(contract)
    for at, event in enumerate(events, start=1):
        if event.category is _SCORE_CONTRACT or (
            event.category is _SCORE_CARDS and not rules.cards_count_toward_pique
        ):
            continue
        p = event.player
        totals[p] += event.points
        if totals[1 - p]:
            if totals[p]:
                return None, event, 0
            continue
        if totals[p] >= threshold and rules.may_pique(p, elder, contract):
            return p, None, at
    return None, None, 0


def reckoning_at_first_lead(view: PlayerView) -> tuple[ScoreEvent, ...]:
    """What elder's first lead reckons before its own point, as the engine will score it (public: both heard
    the declarations): younger's points won in the declarations (``view.unreckoned``) and then the repique or
    the pique the hand decides, reckoned in order (Laws 67-69: in Auction Piquet a plus contract's 29 in hand
    is a pique even where the opponent scores later in the order, in sets). Before the play, younger's points
    won so far; nothing once that lead is made. A carte rouge (an option), which depends on the hidden cards,
    is not foreseen.
    """
    if view.phase is not Phase.PLAY or view.tricks or view.trick:
        return view.unreckoned
    events = sorted((*view.events, *view.unreckoned), key=lambda e: _ORDER[e.category])  # stable: in order
    if any(e.category in (ScoreCategory.PIQUE, ScoreCategory.REPIQUE) for e in events):
        return view.unreckoned
    decided = decided_in_hand(events, view.rules, view.contract, view.elder)
    return view.unreckoned if decided is None else view.unreckoned + (decided,)


def decided_in_hand(events: Iterable[ScoreEvent], rules: Rules, contract: Contract | None,
                    elder: int) -> ScoreEvent | None:
    """The repique, else the pique, that the points in hand ``events`` decide, reckoned in their order (Laws 67-69,
    as the engine scores them at elder's first lead; ``events`` in the order of reckoning, no pique or repique among
    them): the repique to the seat whose points in hand reach the rules' threshold for ``contract`` while the other
    has nothing, else the pique to the seat that reaches its threshold first while the other has nothing (in Auction
    Piquet a plus contract's elder at 29, even where younger scores later in the order). ``None`` if neither. For a
    player that values hands without playing them out (the points of each category as events).

    >>> from piquet.engine.variants import Contract, make_rules
    >>> hand = [ScoreEvent(0, 8, ScoreCategory.POINT, "point of eight"),
    ...         ScoreEvent(0, 21, ScoreCategory.SEQUENCES, "huitième, tierce"),
    ...         ScoreEvent(1, 6, ScoreCategory.SETS, "two trios")]   # 29 for elder before younger's sets
    >>> decided_in_hand(hand, make_rules("auction"), Contract(0, 7, False), 0)
    ScoreEvent(player=0, points=30, category=<ScoreCategory.PIQUE: 'pique'>, reason='pique')
    >>> decided_in_hand(hand, make_rules("rubicon"), None, 0) is None   # thirty needed, and younger has scored
    True
    """
    events = tuple(events)
    repique = _repique_in_order(events, rules, contract)
    if repique is not None:
        return ScoreEvent(repique[0], rules.repique_points, ScoreCategory.REPIQUE, "repique")
    p, _, _ = _pique_in_order(events, rules, contract, elder)
    if p is not None:
        return ScoreEvent(p, rules.pique_points, ScoreCategory.PIQUE, "pique")
    return None


def _heard(heard: Announcement, rank: Rank | None = None, detail: int | None = None,
           answer: Answer | None = None) -> Announcement:
    """``heard`` with what younger's answer adds (``dataclasses.replace``, without its generic work)."""
    return Announcement(heard.category, heard.length, heard.rank if rank is None else rank,
                        heard.detail if detail is None else detail, heard.answer if answer is None else answer)


def _set(pair: tuple[int, int], seat: int, value: int) -> tuple[int, int]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _set_flag(pair: tuple[bool, bool], seat: int) -> tuple[bool, bool]:
    return (True, pair[1]) if seat == 0 else (pair[0], True)


def _set_any(pair: tuple[int | None, int | None], seat: int, value: int | None) -> tuple[int | None, int | None]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


#: What :meth:`Partie.pop` needs to take an action back: the state before it; or, for a card played in place
#: (see :meth:`Partie.push`), the deal record and the seat to act before it; or, for a card played once the
#: hand is reckoned, the seat to act and what a card can change of the deal record (see _PlayUndo).
_Undo = (tuple[_State, Action] | tuple[_Deal, Action, int | None]
         | tuple[None, Action, int | None, "_PlayUndo", int, int])
#: The fields of the deal record a card played once the hand is reckoned can change, as they were before it
#: (the hands, the trick, the events, the leader, the tricks won, the pique and whether it can still come); the
#: undo keeps them with how long the log and the tricks were (a card only adds to them).
_PlayUndo = tuple[tuple[int, int], tuple[Card, ...], tuple[ScoreEvent, ...], int, tuple[int, int], int | None, bool]
#: Those fields read at once (one call rather than seven readings, at every card).
_PLAY_FIELDS: Callable[[_Deal], _PlayUndo] = attrgetter(
    "hands", "trick", "events", "leader", "tricks_won", "pique", "pique_closed")


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
        self._options = self.rules.changed()  # copied into each view
        self.variant = variant
        if first_dealer is None:
            self._s = _State(_PHASE_CUT, None)
        else:
            if first_dealer not in (0, 1):
                raise ValueError(f"first_dealer must be seat 0 or 1, not {first_dealer!r}")
            self._s = _State(_PHASE_DEAL, first_dealer, dealer=first_dealer)
        self._stack: list[_Undo] = []
        #: The option play_ceases_at_the_target: any action may end the deal (see _play_ceases).
        self._ceases = self.rules.play_ceases_at_target
        #: Whether the present state is this partie's alone (made by its own push, or changed back in place by
        #: its own pop), so that a card played may change it in place; a state taken back from the stack, or
        #: shared with a copy, is not (see push).
        self._owned = True
        #: A number for the present position, new at each push and pop (never given twice): what a listing of
        #: the legal actions was made in (see LegalActions).
        self._serial = 0
        #: The last action handed out by index from a listing of the position numbered ``_trusted_in``, found
        #: legal in it by ``in`` (see LegalActions.__getitem__ and __contains__), or dealt in it by random_deal:
        #: legal in that position, which is the present one while the number is, so push does not check it
        #: again there. An action is immutable; a caller's list is never trusted.
        self._trusted: Action | None = None
        self._trusted_in = -1
        #: The deal record made while an action is applied, changed in place until it is (see _evolve).
        self._private: _Deal | None = None
        rules = self.rules
        #: The memos of every partie with these rules (their class and options), by contract.
        self._memos = _PLAY_MEMOS.setdefault((type(rules), tuple(sorted(rules.values.items()))), {})
        #: The memo of the calls, leads and tricks under the last contract asked for, and that contract (see
        #: _play_memo; the first deal's, without a contract, to begin with).
        self._memo_for: Contract | None = None
        self._memo: _PlayMemo = self._play_memo(None)

    # ------------------------------------------------------------------ state
    if TYPE_CHECKING:

        @property
        def phase(self) -> Phase:
            """The phase the partie is in."""

        @property
        def to_act(self) -> int | None:
            """The seat to act, or ``None`` at the cut (a chance event) and when the partie is over."""

    else:
        # Read at every step by whoever drives the partie: a property whose getter is a Python function costs
        # CPython 3.11 a call of the interpreter each time (some forty times the reading of a field), one
        # whose getter is an attrgetter reads the field in C.
        phase = property(attrgetter("_s.phase"), doc="The phase the partie is in.")
        to_act = property(attrgetter("_s.to_act"),
                          doc="The seat to act, or ``None`` at the cut (a chance event) and when the partie is over.")

    @property
    def actions(self) -> list[Action]:
        """Every action applied so far, in order."""
        return [undo[1] for undo in self._stack]

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
        return self._s.deal.elder

    @property
    def events(self) -> tuple[ScoreEvent, ...]:
        """This deal's score events so far, in the order of reckoning (Law 67), a repique or a pique where its
        thirty was made (Laws 68-69)."""
        return self._s.deal.events

    @property
    def unreckoned(self) -> tuple[ScoreEvent, ...]:
        """Younger's points won in the declarations, which she reckons at elder's first lead (the rulings, 10)."""
        return self._s.deal.pending_events

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the trick being played, the lead first."""
        return self._s.deal.trick

    @property
    def tricks_won(self) -> tuple[int, int]:
        return self._s.deal.tricks_won

    @property
    def pique_decided(self) -> bool:
        """Whether this deal already has its pique or repique (never both, Laws 68-69)."""
        return self._s.deal.pique is not None or self._s.deal.repique is not None

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
        return self._s.deal.contract

    @property
    def is_over(self) -> bool:
        return self._s.phase is _PHASE_OVER

    def logs(self) -> tuple[tuple[LogEntry, ...], ...]:
        """The log of every deal so far (what was said and scored, in order); the cut
        belongs to the first."""
        return self._s.past_logs + (self._s.deal.log,) if self._s.deal.log else self._s.past_logs

    def player_name(self, seat: int | None) -> str:
        return "nobody" if seat is None else self.players[seat]

    def hand(self, seat: int) -> CardSet:
        """A player's current hand (full information: not for agents)."""
        return CardSet(self._s.deal.hands[seat])

    def talon(self) -> tuple[Card, ...]:
        """The talon as dealt, top card first."""
        return self._s.deal.talon

    def undrawn(self) -> CardSet:
        """The cards still in the talon (not drawn by either player)."""
        s = self._s
        d = s.deal
        return CardSet(CardSet(d.talon).mask & ~(d.drawn[0] | d.drawn[1]))

    def copy(self) -> Partie:
        """An independent copy, history included."""
        # Both instance dicts ordinary ones, which the interpreter reads fast (see _ordinary_dict).
        other = _new(type(self))
        _set_attr(other, "__dict__", _ordinary_dict(self).copy())
        other._stack = list(self._stack)
        # The present state is now shared: neither changes it in place any more (see push).
        self._owned = other._owned = False
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> Partie:
        """A deep copy is :meth:`copy`: the states a partie keeps are never changed once made, so
        sharing them is as good as copying them (and a long partie is copied at once, not state by state).

        >>> import copy, random
        >>> p = Partie(first_dealer=0)
        >>> _ = p.push(p.random_deal(random.Random(1)))
        >>> q = copy.deepcopy(p)
        >>> _ = q.push(q.legal_actions().list()[0])
        >>> p.ply, q.ply
        (1, 2)
        """
        return self.copy()

    # ------------------------------------------------------------ make/unmake
    def push(self, action: Action) -> tuple[ScoreEvent, ...]:
        """Check and apply an action, and return the points it scored, in the order they were said
        (a lead, a trick, younger's reckoning at elder's first lead, a pique, the cards...). An illegal
        action raises :class:`IllegalActionError` and changes nothing."""
        before = self._s
        if action is not self._trusted or self._serial != self._trusted_in:
            reason = self.why_not(action)
            if reason is not None:
                raise self._illegal(action, reason)
        d = before.deal
        self._serial += 1
        self._private = None
        if type(action) is Play and self._owned and not (d.trick and len(d.tricks) == 11) and not self._ceases:
            # A card that does not end the deal changes only the deal record and the seat to act: they are
            # changed in this partie's own state, and the stack keeps what they were (the common step, without
            # a copy of the state to keep). With the option play_ceases_at_the_target any card may end it.
            to_act = before.to_act
            try:
                self._apply_play(action)
            except BaseException:
                before.deal, before.to_act = d, to_act
                raise
            finally:
                self._private = None
            if d.hand_reckoned:
                # What the card can change, rather than the whole record (which is let go).
                told = len(d.log)
                self._stack.append((None, action, to_act, _PLAY_FIELDS(d), told, len(d.tricks)))
                # The card said, then only the points it scored (see _apply_play): those, without looking.
                return self._s.deal.log[told + 1:]  # type: ignore[return-value]
            self._stack.append((d, action, to_act))
        else:
            # _snapshot, inlined: a shallow copy of the state, its instance dict copied whole.
            after = _new(_State)
            _set_attr(after, "__dict__", before.__dict__.copy())
            self._s = after
            try:
                if type(action) is Play:
                    self._apply_play(action)  # without _apply's dispatch
                else:
                    self._apply(action)
                if self._ceases:
                    self._play_ceases()
            except BaseException:
                self._s = before
                raise
            finally:
                self._private = None
            self._owned = True
            self._stack.append((before, action))
        after = self._s
        log = after.deal.log
        if after.deal_number == before.deal_number:
            told = len(d.log)
            said = len(log) - told
            if said == 1:
                # One entry said (a card played, a declaration...): the common case, without a slice.
                entry = log[told]
                return (entry,) if isinstance(entry, ScoreEvent) else ()
            if said == 2:
                # Two (a card and the point it scores, a trick and its point): without a comprehension's call.
                first, second = log[told], log[told + 1]
                if isinstance(first, ScoreEvent):
                    return (first, second) if isinstance(second, ScoreEvent) else (first,)
                return (second,) if isinstance(second, ScoreEvent) else ()
            log = log[told:]
        return tuple([entry for entry in log if isinstance(entry, ScoreEvent)])

    def pop(self) -> Action:
        """Take back the last action and return it."""
        if not self._stack:
            raise IndexError("pop from a partie with no actions")
        undo = self._stack.pop()
        self._serial += 1
        if len(undo) == 2:
            self._s, action = undo
            self._owned = False  # a state kept in the stack, which a copy of the partie may hold too
            return action
        s = self._s
        if not self._owned:
            s = self._s = _snapshot(s)
            self._owned = True
        if len(undo) == 3:
            s.deal, action, s.to_act = undo
            return action
        _, action, s.to_act, (hands, trick, events, leader, tricks_won, pique, closed), told, tricks = undo
        # The record as it was before the card: the present one with what the card changed put back.
        fields = s.deal.__dict__.copy()
        fields.update(hands=hands, trick=trick, events=events, leader=leader, tricks_won=tricks_won, pique=pique,
                      pique_closed=closed, log=fields["log"][:told], tricks=fields["tricks"][:tricks])
        deal = _new(_Deal)
        _set_attr(deal, "__dict__", fields)
        s.deal = deal
        return action

    def peek(self) -> Action:
        if not self._stack:
            raise IndexError("peek at a partie with no actions")
        return self._stack[-1][1]

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
        if s.phase is not _PHASE_DEAL or s.dealer is None:
            raise ValueError(f"no deal is due: it is the {s.phase.value}")
        sizes = self.legal_packets()
        if packets is None:
            packets = sizes[0] if len(sizes) == 1 else rng.choice((2, 3))
        deal = Deal.shuffled(rng, s.dealer, packets)
        if packets in sizes:
            # A whole pack, dealt by the dealer in a size he may deal in: push need not check it again here.
            self._trusted, self._trusted_in = deal, self._serial
        return deal

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
        if type(action) is Play and s.phase is _PHASE_PLAY and action.player == s.to_act:
            # The common case, answered at once: the checks below would come to this one.
            return self._why_not_play(action)
        if not isinstance(action, Action):
            raise TypeError(f"not an action: {action!r}")
        if action.player not in (0, 1):
            return f"there is no seat {action.player!r}"
        if s.phase is _PHASE_OVER:
            return "the partie is over"
        if isinstance(action, Concede):
            return self._why_not_concede(action)
        if isinstance(action, CarteBlanche) and self._deferred_carte_blanche(action.player):
            return self._why_not_carte_blanche(action)
        expected = _EXPECTED_PHASE[type(action)]
        if s.phase is not expected:
            what = {_PHASE_PLAY: "the play", _PHASE_DECLARE: "the declaration"}.get(expected, f"the {expected.value}")
            reason = f"it is the {s.phase.value}, not {what}"
            if isinstance(action, CarteBlanche) and s.phase in (_PHASE_EXCHANGE, _PHASE_DECLARE, _PHASE_PLAY):
                reason += (" (Laws 18-20, ruling 6: carte blanche is announced before the exchange; in Piquet au "
                           "Cent younger may wait until elder has discarded)")
            elif s.phase is _PHASE_CARTE_BLANCHE:
                reason += (f" (Laws 18-20, ruling 6: {self.player_name(s.to_act)} first says whether he announces "
                           "carte blanche)")
            return reason
        if isinstance(action, Cut):
            a, b = action.cards
            if a == b:
                return "both players cannot cut the same card"
            return None
        if action.player != s.to_act:
            if isinstance(action, Deal):
                return self.why_not_dealer(action.player)
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

    def why_not_dealer(self, seat: int) -> str | None:
        """Why ``seat`` may not deal now: the law that makes the other player the dealer (the lower cut, the
        cut's winner's choice, an annulled deal dealt again, the deal alternating), or ``None`` if ``seat`` deals.

        >>> p = Partie(("Ann", "Bill"), "au-cent")
        >>> _ = p.push(Cut(0, (Card.parse("KS"), Card.parse("9H"))))
        >>> p.why_not_dealer(0)
        'Bill cut the lower card, and in Piquet au Cent the lower cut deals (Laws of Piquet au Cent)'
        """
        s = self._s
        if s.phase is not _PHASE_DEAL or s.dealer is None:
            return f"no deal is due: it is the {s.phase.value}"
        if seat == s.dealer:
            return None
        dealer = self.player_name(s.dealer)
        log = s.deal.log
        last = log[-1] if log else None
        if isinstance(last, CutMade) and last.dealer is not None:
            again = " for the new game (option fresh_cut_each_game)" if s.deal_number else ""
            return (f"{dealer} cut the lower card{again}, and in {self.rules.title} the lower cut deals "
                    f"(Laws of {self.rules.title})")
        if isinstance(last, DealerChosen):
            chooser = self.player_name(last.player)
            return f"{chooser}, who cut the higher card, chose {dealer} to deal (Law 4)"
        if isinstance(last, DealAnnulled):
            return f"the deal was annulled, and the same dealer, {dealer}, deals again (Lunn)"
        if s.deal_number == 0:
            return f"{dealer} deals first"
        return f"the deal alternates ({self.rules.alternate_deal_source}), and it is {dealer}'s deal"

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
        d = s.deal
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
            if last is None or d.bids[-1].player == action.player or d.bids[-1].call != last.call:
                return "only the opponent's last bid can be doubled"
            if d.doubles_used >= 2:
                return "no more than two doubles in an auction"
            return None
        if call == "redouble":
            if not d.bids or d.bids[-1].call != "double":
                return "only a double can be redoubled"
            if self.rules.redouble_counts_as_double and d.doubles_used >= 2:
                return ("no more than two doubles in an auction, and a redouble counts as "
                        "one (option redouble_counts_as_double)")
            return None
        tricks = int(call[:-1])
        if last is not None and last.tricks is not None and tricks <= last.tricks:
            return f"a bid must be higher than {last.call} (plus and minus of one number are equal)"
        return None


    def _last_bid(self) -> Bid | None:
        """The last bid of a number of tricks in this deal's auction."""
        for bid in reversed(self._s.deal.bids):
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
        if action.player == s.deal.elder:
            lo, hi = self.rules.elder_minimum_exchange, self.rules.elder_maximum_exchange
            if action.will_exchange is None or not lo <= action.will_exchange <= hi:
                return (f"elder announcing carte blanche first says how many cards, {lo} to {hi}, "
                        "he will exchange (ruling 6; Case V under Law 20)")
        elif action.will_exchange is not None:
            return "younger does not announce her exchange with carte blanche"
        return None

    def _exchange_limits(self, seat: int) -> tuple[int, int]:
        return _exchange_limits(self.rules, self._s.deal, seat)

    def _why_not_exchange(self, action: Exchange) -> str | None:
        s = self._s
        d = s.deal
        hand = d.hands[action.player]
        if action.discards.mask & ~hand:
            return f"{action.discards - CardSet(hand)} not in hand"
        lo, hi = self._exchange_limits(action.player)
        n = len(action.discards)
        if not lo <= n <= hi:
            who = "elder" if action.player == d.elder else "younger"
            if lo == hi:
                reason = f"having announced carte blanche, elder exchanges the {lo} cards he said (Law 20, Case V)"
            else:
                law = "Law 21" if action.player == d.elder else "Law 22"
                reason = f"{law}: {who} exchanges {lo} to {hi} cards, not {n}"
            return reason
        if action.show_rest:
            if action.player == d.elder:
                return "only younger elects to show the rest of the talon (Law 36)"
            taken = d.elder_count if d.elder_count is not None else 0
            if taken + n >= len(d.talon):
                return "no cards are left in the talon to show"
        return None

    def _declaration_slot(self) -> tuple[Category, int]:
        s = self._s
        d = s.deal
        category, is_elder = DECLARATION_ORDER[d.declaration_step]
        return category, d.elder if is_elder else 1 - d.elder

    def _why_not_declare(self, action: Declare) -> str | None:
        s = self._s
        d = s.deal
        category, seat = self._declaration_slot()
        if action.category is not category:
            return (f"the {category.value} is declared now (point, sequences, sets in that order, elder before "
                    "younger)")
        hand = d.hands[seat]
        combos = action.combinations
        if category is _CAT_POINT and len(combos) > 1:
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
        if self.rules.must_declare_in_full(d.contract):
            reason = self._why_not_in_full(action, category, CardSet(hand), seat == d.elder)
            if reason:
                return reason
        if len(combos) > 1 and seat == d.elder:
            # Law 49 binds elder, whose call younger answered; younger reckons in any order.
            first = combos[0]
            possible = CardSet(FULL_PACK & ~hand & ~d.discards[seat])
            if self.rules.short_calls_bind or not good_against_the_cards(category, first, possible):
                for extra in combos[1:]:
                    if key(category, extra) > key(category, first):
                        return (f"Law 49 (Laws 46-50): having called {call(category, first).lower()}, he may not "
                                f"also score the better {call(category, extra).lower()}, since his call was "
                                "not good against the cards")
        return None


    def _why_not_in_full(self, action: Declare, category: Category, hand: CardSet, elder: bool) -> str | None:
        """Auction minus contracts: no sinking; the best combination is called and every other
        that can score is shown (Lunn). Younger, who is only reckoning, may show hers in any order."""
        full = maximal(category, hand, self.rules.minimum_point)
        combos = action.combinations
        if not full:
            return None
        what = f"{call(category, full[0]).lower()}" + (
            f" and show {'; '.join(str(c) for c in full[1:])}" if len(full) > 1 else "")
        reason = f"in a minus contract nothing may be sunk: declare {what}"
        if not combos or ((elder or category is _CAT_POINT) and key(category, combos[0]) != key(category, full[0])):
            return reason
        if category is _CAT_POINT:
            if combos[0] != hand.suit(combos[0].cards()[0].suit):
                return reason
        elif set(combos) != set(full):
            return reason
        return None

    def _why_not_play(self, action: Play) -> str | None:
        s = self._s
        d = s.deal
        hand = d.hands[action.player]
        card = action.card
        if not hand >> card & 1:
            return f"{card} is not in hand"
        if d.trick:
            lead = d.trick[0]  # a card of another suit (index // 8) while the hand holds the suit led
            if card >> 3 != lead >> 3 and hand >> (lead & ~7) & 0xFF:
                return f"must follow suit to the {lead!s} led"
        return None

    def _why_not_concede(self, action: Concede) -> str | None:
        """The rulings, 18: only in the partie's last deal, after the six declarations and before the
        first card, and only by the loser, who cannot save his rubicon (Law 73) once the opponent has
        counted what the concession gives him."""
        s = self._s
        d = s.deal
        if not self.rules.allows_concession:
            return f"there is no concession in {self.rules.title}"
        counted = self._counted_deals() + 1
        if s.phase is _PHASE_CONCESSION:
            return "a concession already awaits the opponent's answer"
        if s.phase not in (_PHASE_BID, _PHASE_CARTE_BLANCHE, _PHASE_EXCHANGE, _PHASE_DECLARE, _PHASE_PLAY):
            return "there is no deal in progress to concede"
        if not self.rules.is_last_deal(counted):
            return (f"{_CONCESSION_SOURCE}: a player may concede only in the last deal of "
                    "the partie")
        if s.phase is not _PHASE_PLAY:
            return (f"{_CONCESSION_SOURCE}: the concession comes after the six "
                    f"declarations, and it is the {s.phase.value}")
        if d.tricks or d.trick:
            return (f"{_CONCESSION_SOURCE}: the concession is made before the first card "
                    "is played")
        if d.concession_declined:
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
        saved, private = self._s, self._private
        self._s, self._private = _snapshot(saved), None
        try:
            self._reckon_hand()
            deal = [0, 0]
            for event in self._s.deal.events:
                deal[event.player] += event.points
        finally:
            self._s, self._private = saved, private
        other = 1 - player
        deal[other] += self.rules.conceded_play_points + self.rules.cards_points
        times = self.rules.deal_multiplier(self._counted_deals() + 1)
        return saved.totals[player] + times * deal[player], saved.totals[other] + times * deal[other]

    def _deferred_carte_blanche(self, seat: int) -> bool:
        """Piquet au Cent: younger with carte blanche need not announce it until elder has discarded;
        she may announce it at any moment before her own exchange."""
        s = self._s
        return (s.phase is _PHASE_EXCHANGE and seat in s.deal.carte_blanche_pending
                and self.rules.younger_carte_blanche_after_elder_discards)

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, player: int | None = None) -> LegalActions:
        """The legal actions of ``player`` (by default the player to act), listed lazily (past the first lead,
        at once: only the cards may be played).

        The cut and the deal are chance events and are not listed (see
        :meth:`random_cut`, :meth:`random_deal` and :meth:`legal_packets`).
        A player may concede out of turn, so another player's list may hold that.
        """
        # LegalActions.__init__, inlined (a listing is asked for at every decision).
        s = self._s
        to_act = s.to_act
        legal = _new(LegalActions)
        legal.partie = self
        legal._serial = self._serial
        if player is None or player == to_act:
            legal.player = to_act
            d = s.deal
            if s.phase is _PHASE_PLAY and to_act is not None and (d.tricks or d.trick):
                # Past the first lead only the cards may be played (see _generate): listed at once.
                legal._listing = self._plays(to_act)
                return legal
        else:
            legal.player = player
        legal._listing = None
        return legal

    def _generate(self, seat: int | None) -> list[Action] | _Points:
        """The legal actions of ``seat``: those he may take out of turn (a concession, au Cent's younger's
        carte blanche), then those of the phase if he is to act, each phase listed by its own method."""
        s = self._s
        d = s.deal
        if seat is None:
            return []
        if s.phase is _PHASE_PLAY and seat == s.to_act and (d.tricks or d.trick):
            return self._plays(seat)  # the common case: past the first lead, only the cards may be played
        found: list[Action] = []
        if s.phase is _PHASE_PLAY and not d.tricks and not d.trick and self.rules.allows_concession:
            concede = _CONCESSIONS[seat]
            if self.why_not(concede) is None:
                found.append(concede)
        if self._deferred_carte_blanche(seat):
            found.append(CarteBlanche(seat, True))
            if not self.rules.carte_blanche_compulsory:
                found.append(CarteBlanche(seat, False))
        if seat != s.to_act:
            return found
        listing = self._LISTINGS.get(s.phase)
        if listing is None:
            return found
        if not found:
            return listing(self, seat)
        made = listing(self, seat)
        return found + (made.all() if isinstance(made, _Points) else made)

    def _legal_choose_dealer(self, seat: int) -> list[Action]:
        return [ChooseDealer(seat, seat), ChooseDealer(seat, 1 - seat)]

    def _bids(self, seat: int) -> list[Action]:
        """The calls ``seat`` may make (it is his turn in the auction), in the order of ``_CALLS``: what
        :meth:`_why_not_bid` allows, decided once for the auction so far rather than call by call."""
        d = self._s.deal
        bids = _BIDS[seat]
        last = self._last_bid()
        found: list[Action] = [bids[0]]  # pass
        if (last is not None and d.bids[-1].player != seat and d.bids[-1].call == last.call
                and d.doubles_used < 2):
            found.append(bids[1])
        if (d.bids and d.bids[-1].call == "double"
                and not (self.rules.redouble_counts_as_double and d.doubles_used >= 2)):
            found.append(bids[2])
        floor = last.tricks if last is not None and last.tricks is not None else 0
        found += [bid for bid, tricks in zip(bids[3:], _CALL_TRICKS, strict=True) if tricks > floor]
        return found

    def _legal_carte_blanche(self, seat: int) -> list[Action]:
        found: list[Action]
        if seat == self._s.deal.elder:
            lo, hi = self.rules.elder_minimum_exchange, self.rules.elder_maximum_exchange
            found = [CarteBlanche(seat, True, n) for n in range(hi, lo - 1, -1)]
        else:
            found = [CarteBlanche(seat, True)]
        if not self.rules.carte_blanche_compulsory:
            found.append(CarteBlanche(seat, False))
        return found

    def _legal_exchanges(self, seat: int) -> list[Action]:
        d = self._s.deal
        lo, hi = self._exchange_limits(seat)
        held = list(CardSet(d.hands[seat]))
        taken = d.elder_count if d.elder_count is not None else 0
        found: list[Action] = []
        for n in range(hi, lo - 1, -1):
            may_show = seat != d.elder and taken + n < len(d.talon)
            for chosen in _subsets(held, n):
                discards = CardSet(chosen)
                found.append(Exchange(seat, discards))
                if may_show:
                    found.append(Exchange(seat, discards, show_rest=True))
        return found

    def _declarations(self, seat: int) -> list[Action] | _Points:
        """The declarations ``seat`` may make (it is his turn in the declarations): a list, or for the point
        a :class:`_Points` that makes each declaration when it is asked for."""
        s = self._s
        d = s.deal
        category = DECLARATION_ORDER[d.declaration_step][0]
        if self.rules.must_declare_in_full(d.contract):
            return [Declare(seat, category, tuple(maximal(category, CardSet(d.hands[seat]),
                                                          self.rules.minimum_point)))]
        found: list[Action] = [_NO_CALLS[seat, category]]
        singles = _SINGLE_CALLS[seat, category]
        if category is _CAT_POINT:
            # Every point he may call (some forty): made into declarations only as they are asked for.
            return _Points(found[0], candidate_codes(category, d.hands[seat], self.rules.minimum_point), singles)
        # The sequences or sets he may call, best first, still coded (candidate_codes): each code's low 32 bits
        # are the combination's mask and its bits from 42 up its key (length, then top rank), as an int that
        # orders as key()'s pair does.
        codes = candidate_codes(category, d.hands[seat])
        if not codes:
            return found
        shared = COMBINATION_CARDS
        elder = seat == d.elder
        short_calls_bind = self.rules.short_calls_bind
        # Whether a call is good against the cards (good_against_the_cards) compares it with the best
        # combination the opponent could hold: found once, not once for each call.
        rival = -1
        if elder and not short_calls_bind:
            best = best_key(category, FULL_PACK & ~d.hands[seat] & ~d.discards[seat])
            if best is not None:
                rival = best[0] << 7 | best[1]
        for first in codes:
            mask = first & 0xFFFFFFFF
            found.append(singles[mask])
            first_key = first >> 42
            gac = not elder or (not short_calls_bind and rival < first_key)
            extras = [shared[code & 0xFFFFFFFF] for code in codes
                      if not code & mask and (gac or code >> 42 <= first_key)]
            if extras:
                called = shared[mask]
                found += [Declare(seat, category, (called, *more)) for more in _disjoint_collections(extras)]
        return found

    def _legal_answers(self, seat: int) -> list[Action]:
        return [AcceptConcession(seat, True), AcceptConcession(seat, False)]

    def _plays(self, seat: int) -> list[Action]:
        """The cards ``seat`` may play (it is his turn in the play), in the order of a hand."""
        d = self._s.deal
        hand = d.hands[seat]
        plays = _SUIT_PLAYS[seat]
        if d.trick:
            suit = d.trick[0] >> 3
            follow = hand >> (8 * suit) & 0xFF
            if follow:
                return list(plays[suit][follow])
        return [*plays[0][hand & 0xFF], *plays[1][hand >> 8 & 0xFF], *plays[2][hand >> 16 & 0xFF],
                *plays[3][hand >> 24]]

    #: Each phase's listing of the legal actions of the player to act (the cut and the deal are chance).
    _LISTINGS: ClassVar[dict[Phase, Callable[[Partie, int], list[Action] | _Points]]] = {
        _PHASE_CHOOSE_DEALER: _legal_choose_dealer,
        _PHASE_BID: _bids,
        _PHASE_CARTE_BLANCHE: _legal_carte_blanche,
        _PHASE_EXCHANGE: _legal_exchanges,
        _PHASE_DECLARE: _declarations,
        _PHASE_CONCESSION: _legal_answers,
        _PHASE_PLAY: _plays,
    }

    # ------------------------------------------------------------ applying
    def _evolve(self, deal: _Deal, **changes: object) -> _Deal:
        """The deal record ``deal`` with ``changes``: a new record (its instance dict copied, without
        ``__init__``) the first time an action changes it, then that same record, changed in place, for the
        rest of the action (no one else can hold it yet: :meth:`push` forgets it once the action is applied)."""
        if deal is self._private:
            deal.__dict__.update(changes)
            return deal
        fields = deal.__dict__.copy()
        fields.update(changes)
        new = self._private = _new(_Deal)
        _set_attr(new, "__dict__", fields)
        return new

    def _tell(self, event: Event) -> None:
        s = self._s
        deal = s.deal
        if deal is self._private:
            deal.__dict__["log"] = deal.log + (event,)  # this action's own record (see _evolve), in place
            return
        s.deal = self._evolve(deal, log=deal.log + (event,))

    def _score(self, event: ScoreEvent, announce: bool = True, at: int | None = None) -> None:
        """Add an event in its place in the order of reckoning (Law 67): a point scored in hand among those of
        its category (younger reckons hers after they are said), one scored since the hand was reckoned (the play,
        the cards, a concession) after all, and a repique or a pique ``at`` the place the thirty was made."""
        s = self._s
        d = s.deal
        events = d.events
        if at is not None:
            events = (*events[:at], event, *events[at:])
        elif event.category.in_hand:
            events = _placed(events, event)
        else:
            events = events + (event,)
        s.deal = self._evolve(d, events=events, log=d.log + (event,) if announce else d.log)

    def _apply(self, action: Action) -> None:
        if type(action) is Play:
            self._apply_play(action)  # the common case, without the look-up below
            return
        apply = self._APPLY.get(type(action))
        if apply is not None:
            apply(self, action)  # by the action's own class, without the match's isinstance tests
            return
        match action:
            case Cut():
                self._apply_cut(action)
            case ChooseDealer():
                self._apply_choose_dealer(action)
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

    def _apply_choose_dealer(self, action: ChooseDealer) -> None:
        self._tell(DealerChosen(action.player, action.dealer))
        self._s.dealer = action.dealer
        self._s.phase, self._s.to_act = _PHASE_DEAL, action.dealer

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
            s.phase, s.to_act = _PHASE_DEAL, s.dealer
            return
        self._tell(CutMade((a, b)))
        s.phase, s.to_act = _PHASE_CHOOSE_DEALER, s.cut_winner

    def _apply_deal(self, action: Deal) -> None:
        s = self._s
        dealer = action.player
        if action.packets is not None:
            s.packets = _set_any(s.packets, dealer, action.packets)
        s.deal_number += 1
        s.dealer = dealer
        if s.deal.log:
            s.past_logs = s.past_logs + (s.deal.log,)
        elder = self.rules.elder_of(dealer)
        dealt = (action.hands[0].mask, action.hands[1].mask)
        begun = DealBegun(s.deal_number, dealer, elder, action.packets, self.rules.uses_bidding)
        # The deal's record is made whole: nothing of the last deal is carried over.
        # (_Deal's defaults copied and set, without the frozen dataclass's __init__ and its forty setattrs.)
        fields = _NEW_DEAL.copy()
        fields.update(elder=elder, dealt=dealt, hands=dealt, talon=action.talon, log=(begun,))
        deal = _new(_Deal)
        _set_attr(deal, "__dict__", fields)
        s.deal = deal
        if self.rules.uses_bidding:
            s.phase, s.to_act = _PHASE_BID, elder
            return
        self._begin_carte_blanche()

    def _begin_carte_blanche(self) -> None:
        """Before the exchange: each player dealt no king, queen or knave may announce carte blanche,
        elder first (Laws 18-20); then the exchange."""
        s = self._s
        eligible = [seat for seat in (s.deal.elder, 1 - s.deal.elder) if not s.deal.dealt[seat] & _COURT_CARDS]
        s.deal = self._evolve(s.deal,
                              carte_blanche_pending=tuple(eligible) if self.rules.has_carte_blanche else ())
        self._next_carte_blanche()

    def _next_carte_blanche(self) -> None:
        """The next player to decide on his carte blanche, or the exchange. In Piquet au Cent younger's
        decision waits, unless elder announced one, until elder has discarded (she may still announce
        it before)."""
        s = self._s
        d = s.deal
        pending = d.carte_blanche_pending
        younger = 1 - d.elder
        defer = (self.rules.younger_carte_blanche_after_elder_discards and pending == (younger,)
                 and not d.carte_blanche[d.elder] and d.exchanged[d.elder] is None)
        if pending and not defer:
            s.phase, s.to_act = _PHASE_CARTE_BLANCHE, pending[0]
        elif d.exchanged[d.elder] is not None:
            s.phase, s.to_act = _PHASE_EXCHANGE, younger
        else:
            s.phase = _PHASE_EXCHANGE
            # Law 20: elder with carte blanche has younger set her discards aside before he shows.
            s.to_act = younger if d.carte_blanche[d.elder] else d.elder

    def _apply_bid(self, action: Bid) -> None:
        s = self._s
        call = action.call
        doubled = call == "double" or (call == "redouble" and self.rules.redouble_counts_as_double)
        d = s.deal
        s.deal = self._evolve(d, bids=d.bids + (action,), doubles_used=d.doubles_used + doubled,
                         log=d.log + (BidCalled(action.player, call),))
        if call == "pass" and all(b.call == "pass" for b in s.deal.bids):
            if len(s.deal.bids) == 2:
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
        after = [b.call for b in s.deal.bids[s.deal.bids.index(last) + 1:]]
        doubles = 2 if "redouble" in after else 1 if "double" in after else 0
        contract = Contract(last.player, last.tricks, last.minus, doubles)
        s.deal = self._evolve(s.deal, contract=contract, elder=last.player,
                              log=s.deal.log + (AuctionWon(contract),))
        # With the option carte_blanche, it is announced once the holder is known, before the exchange.
        self._begin_carte_blanche()

    def _annul_deal(self) -> None:
        """Both passed: the deal is annulled, does not count, and the same dealer deals again (Lunn)."""
        s = self._s
        self._tell(DealAnnulled())
        score = DealScore.from_events((), s.deal.elder, (0, 0), annulled=True)
        s.deal_scores = s.deal_scores + (score,)
        s.phase, s.to_act = _PHASE_DEAL, s.dealer

    def _apply_carte_blanche(self, action: CarteBlanche) -> None:
        s = self._s
        seat = action.player
        d = s.deal
        s.deal = d = self._evolve(d, carte_blanche_pending=tuple(p for p in d.carte_blanche_pending if p != seat))
        if action.announce:
            will = action.will_exchange
            s.deal = self._evolve(d, carte_blanche=_set_flag(d.carte_blanche, seat),
                             will_exchange=d.will_exchange if will is None else will,
                             elder_count=d.elder_count if will is None else will,
                             log=d.log + (CarteBlancheAnnounced(seat, will),))
            self._score(ScoreEvent(seat, self.rules.carte_blanche_points, _SCORE_CARTE_BLANCHE,
                                   "carte blanche"))
            if s.deal.exchanged[1 - seat] is not None:
                # Announced after the opponent discarded (au Cent's younger): the proof is shown at once.
                self._show_carte_blanche(seat)
        if s.phase is _PHASE_EXCHANGE and seat != s.to_act:
            return  # au Cent's younger, announcing before elder's exchange: elder is still to exchange
        self._next_carte_blanche()

    def _show_carte_blanche(self, seat: int) -> None:
        """The proof of carte blanche: the hand as dealt, shown once the opponent has discarded (Laws 19-20)."""
        s = self._s
        d = s.deal
        s.deal = self._evolve(d, shown_dealt=_set(d.shown_dealt, seat, d.dealt[seat]),
                         log=d.log + (CarteBlancheShown(seat, CardSet(d.dealt[seat])),))

    def _apply_exchange(self, action: Exchange) -> None:
        s = self._s
        d = s.deal
        seat = action.player
        n = len(action.discards)
        is_elder = seat == d.elder
        start = 0 if is_elder else d.elder_count or 0
        drawn = 0
        for card in d.talon[start : start + n]:
            drawn |= 1 << card
        hand = (d.hands[seat] & ~action.discards.mask) | drawn
        left, looked, peeked = 0, False, d.peeked
        if is_elder:
            top = self.rules.elder_maximum_exchange  # Law 33: the cards he left "of the top five"
            left = top - n if n < top else 0
            if left and self.rules.elder_sees_cards_left:
                for card in d.talon[n:top]:
                    peeked |= 1 << card
                looked = True
        s.deal = d = self._evolve(
            d, hands=_set(d.hands, seat, hand), discards=_set(d.discards, seat, action.discards.mask),
            drawn=_set(d.drawn, seat, drawn), exchanged=_set_any(d.exchanged, seat, n),
            elder_count=n if is_elder else d.elder_count, peeked=peeked,
            show_rest=d.show_rest if is_elder else action.show_rest,
            log=d.log + (Exchanged(seat, n, left, looked),))
        other = 1 - seat
        if s.deal.carte_blanche[other] and not s.deal.shown_dealt[other]:
            self._show_carte_blanche(other)
        if s.deal.exchanged[0] is not None and s.deal.exchanged[1] is not None:
            d = s.deal
            taken = (d.exchanged[d.elder] or 0) + (d.exchanged[1 - d.elder] or 0)
            s.deal = self._evolve(d, rest=CardSet(d.talon[taken:]).mask)
            s.phase, s.to_act = _PHASE_DECLARE, s.deal.elder
        elif s.deal.carte_blanche_pending:
            self._next_carte_blanche()  # au Cent: younger decides on her carte blanche now
        else:
            s.to_act = other

    def _apply_declare(self, action: Declare) -> None:
        s = self._s
        d = s.deal
        category, seat = self._declaration_slot()
        calls, step = d.calls + (action,), d.declaration_step + 1
        elder, younger = d.elder, 1 - d.elder
        if seat == elder:
            combinations = action.combinations
            if not combinations:
                heard, said = _NOTHING_CALLED[elder, category]
                s.deal = self._evolve(d, calls=calls, declaration_step=step,
                                      announcements=d.announcements + (heard,), log=d.log + (said,))
            else:
                contract = d.contract
                memo = self._memo
                if self._memo_for is not contract:
                    memo = self._play_memo(contract)
                first = combinations[0]
                # Law 48 by the letter (option calls_named_unless_good): a call good against the cards gives its
                # length alone.
                good = (memo.names_unless_good and category is not _CAT_POINT
                        and good_against_the_cards(category, first, CardSet(FULL_PACK & ~d.hands[elder]
                                                                            & ~d.discards[elder])))
                told = memo.calls.get((elder, category, first.mask, good)) or memo.call(elder, category, first, good)
                heard, said, named = told
                revealed = d.revealed if not named else _set(d.revealed, elder, d.revealed[elder] | named)
                s.deal = self._evolve(d, calls=calls, declaration_step=step, revealed=revealed,
                                      announcements=d.announcements + (heard,), log=d.log + (said,))
        else:
            s.deal = self._evolve(d, calls=calls, declaration_step=step)
            self._resolve(category, calls[-2], action)
        if step == len(DECLARATION_ORDER):
            s.phase, s.to_act = _PHASE_PLAY, elder
            s.deal = self._evolve(s.deal, leader=elder)
        else:
            _, next_is_elder = DECLARATION_ORDER[step]
            s.to_act = elder if next_is_elder else younger

    def _resolve(self, category: Category, elder_call: Declare | None, answer: Declare) -> None:
        """Younger's answer to elder's call: good, not good or equal (the rulings, 10). Elder's call is his first
        combination; younger's answer rests on the best she shows, in whatever order she shows them: she "is only
        reckoning" (Cavendish, *Calling*: "The younger hand is not bound to call his best sequence first")."""
        s = self._s
        d = s.deal
        elder, younger = d.elder, 1 - d.elder
        e = elder_call.combinations[0] if elder_call is not None and elder_call.combinations else None
        y = best_shown(category, answer.combinations)
        winner: int | None
        heard = d.announcements[-1]
        log = d.log
        if e is None:
            winner = younger if y is not None else None
        elif y is None:
            log = log + (_ANSWERED[younger, category, "good"],)
            heard = _heard(heard, answer="good")
            winner = elder
        else:
            ke, ky = key(category, e), key(category, y)
            reply: Answer = "good" if ke > ky else "not good" if ke < ky else "equal"
            if ke[0] == ky[0] and not self.rules.told_at_once(category, d.contract):
                making = category is _CAT_POINT and not self.rules.uses_bidding
                asked = SecondCallAsked(younger, category, "making" if making else "how high")
                if category is _CAT_POINT:
                    log = log + (asked, SecondCall(elder, category, pips=ke[1]))
                else:
                    log = log + (asked, SecondCall(elder, category, top=Rank(ke[1])))
                heard = _heard(heard, rank=e.cards()[0].rank) if category is _CAT_SETS else _heard(heard, detail=ke[1])
            log = log + (_ANSWERED[younger, category, reply],)
            heard = _heard(heard, answer=reply)
            winner = elder if ke > ky else younger if ke < ky else None
        announcements = (*d.announcements[:-1], heard)
        at_once = self.rules.calls_shown_at_once
        if e is not None and y is not None and winner is None:
            # An exact tie cancels the category; both combinations are open to inspection (Law 55): elder's at
            # once with the option calls_shown_at_once, younger's (and by default elder's) once elder has led.
            if at_once:
                pending = d.pending_reveal[younger] | y.mask
                s.deal = self._evolve(d, log=log, announcements=announcements,
                                      revealed=_set(d.revealed, elder, d.revealed[elder] | e.mask),
                                      pending_reveal=_set(d.pending_reveal, younger, pending))
                return
            s.deal = self._evolve(d, log=log, announcements=announcements, pending_reveal=(
                d.pending_reveal[0] | (e.mask if elder == 0 else y.mask),
                d.pending_reveal[1] | (e.mask if elder == 1 else y.mask)))
            return
        if winner is None:
            s.deal = self._evolve(d, log=log, announcements=announcements)
            return
        shown = (elder_call if winner == elder else answer)
        assert shown is not None
        contract = d.contract
        memo = self._memo
        if self._memo_for is not contract:
            memo = self._play_memo(contract)
        # Law 55 shows what was scored; au Cent: "except in the case of quatorzes and trios".
        shown_cards = category is not _CAT_SETS or self.rules.shows_sets
        scored, reveal = d.scored_cards[winner], d.pending_reveal[winner]
        events, later = d.events, d.pending_events
        for cards in shown.combinations:
            event = (memo.scores.get((winner, category, cards.mask))
                     or memo.score(winner, category, cards, self.players))
            scored |= cards.mask
            if shown_cards:
                reveal |= cards.mask
            if winner == elder:
                # Scored now, in its place in the order of reckoning (Law 67).
                events = _placed(events, event)
                log = log + (event,)
            else:
                # Younger reckons what she won after elder's lead (the rulings, 10 and 12).
                later = later + (event,)
        if winner == elder and at_once:
            # The option calls_shown_at_once (Law 55: shown "at any time they are asked for"): at once.
            s.deal = self._evolve(d, log=log, announcements=announcements, events=events, pending_events=later,
                                  scored_cards=_set(d.scored_cards, winner, scored),
                                  revealed=_set(d.revealed, winner, d.revealed[winner] | reveal))
            return
        s.deal = self._evolve(d, log=log, announcements=announcements, events=events, pending_events=later,
                              scored_cards=_set(d.scored_cards, winner, scored),
                              pending_reveal=_set(d.pending_reveal, winner, reveal))

    def _reckon_hand(self, lead: bool = True) -> None:
        """At elder's first lead (or a concession, ``lead`` false): younger reckons, the combinations
        are open to inspection, the rest of the talon is shown if she elected it (at a lead only: Law 36 shows
        it once elder has led, so a concession accepted ends the deal with it unseen), and the repique is
        decided (Laws 55, 36, 67, 68)."""
        s = self._s
        d = s.deal
        if d.hand_reckoned:
            return
        shows_rest = lead and bool(d.show_rest and d.rest)
        pending = d.pending_events
        s.deal = self._evolve(d, hand_reckoned=True, pending_events=(), pending_reveal=(0, 0),
                              revealed=(d.revealed[0] | d.pending_reveal[0], d.revealed[1] | d.pending_reveal[1]),
                              rest_public=d.rest_public or shows_rest)
        for event in pending:
            self._score(event)
        if shows_rest:
            self._tell(RestShown(1 - d.elder, CardSet(d.rest)))
        if d.concession_declined:
            return  # elder's lead after a concession declined: the rest was all the concession left to reckon
        if self.rules.carte_rouge_points:
            for seat in (s.deal.elder, 1 - s.deal.elder):
                if s.deal.hands[seat] and not s.deal.hands[seat] & ~s.deal.scored_cards[seat]:
                    self._score(ScoreEvent(seat, self.rules.carte_rouge_points, _SCORE_CARTE_ROUGE,
                                           "carte rouge"))
        repique = _repique_in_order(s.deal.events, self.rules, s.deal.contract)
        if repique is not None:
            p, at = repique
            s.deal = self._evolve(s.deal, repique=p)
            self._score(ScoreEvent(p, self.rules.repique_points, _SCORE_REPIQUE, "repique"), at=at)
        # Where the pique needs less than the repique (Auction plus contracts: 29), the hand alone
        # may reach it before the opponent scores.
        self._check_pique()

    def _play_ceases(self) -> None:
        """The option play_ceases_at_the_target (Parlett: "play ceases the moment one player reaches that total,
        leaving the rest of the hand unplayed"): once a player has reached the game's target in the order of
        reckoning (:meth:`_target_reached`), the hand is reckoned (younger's points won, the repique) and the
        deal ends there."""
        if self._s.phase in (_PHASE_CARTE_BLANCHE, _PHASE_EXCHANGE, _PHASE_DECLARE, _PHASE_PLAY) \
                and self._target_reached():
            self._reckon_hand(lead=False)
            self._end_deal()

    def _target_reached(self) -> bool:
        """Whether a player has reached the game's target by what is decided so far of the deal, in the order of
        reckoning: every category both have declared (younger's points in their place, a repique at its thirty),
        then the play as it is scored. What is declared or played later stands after them (Law 67), so it could
        not have come first."""
        s = self._s
        d = s.deal
        events = d.events
        if not d.hand_reckoned:
            for event in d.pending_events:
                events = _placed(events, event)
            repique = _repique_in_order(events, self.rules, d.contract)
            if repique is not None:
                events = (*events[:repique[1]], ScoreEvent(repique[0], self.rules.repique_points, _SCORE_REPIQUE,
                                                           "repique"), *events[repique[1]:])
        target = self.rules.game_target or 0
        times = self.rules.deal_multiplier(self._counted_deals() + 1)
        scores = [s.totals[0] - s.game_start[0], s.totals[1] - s.game_start[1]]
        for event in events:
            scores[event.player] += times * event.points
            if scores[event.player] >= target:
                return True
        return False

    def _check_pique(self) -> None:
        """Law 69: thirty in hand and play before the opponent scores; never with a repique (ruling 13)."""
        s = self._s
        d = s.deal
        if d.pique is not None or d.repique is not None or d.pique_closed:
            return
        p, closing, at = _pique_in_order(d.events, self.rules, d.contract, d.elder)
        if p is not None:
            s.deal = self._evolve(d, pique=p)
            self._score(ScoreEvent(p, self.rules.pique_points, _SCORE_PIQUE, "pique"), at=at)
        elif closing is not None and d.hand_reckoned:
            # Both have scored (points are never negative): no pique from here on. Once the hand is reckoned,
            # what is scored later (the play, the cards, the contract) takes its place after every event
            # (see _score): so it stays so for the deal.
            s.deal = self._evolve(d, pique_closed=True)

    def _apply_play(self, action: Play) -> None:
        s = self._s
        seat, card = action.player, action.card
        if not s.deal.hand_reckoned:
            if not s.deal.concession_declined:  # a hand reckoned at a concession was told there
                self._tell(FirstLead(seat, card))
            self._reckon_hand()
        d = s.deal
        contract = d.contract
        memo = self._memo
        if self._memo_for is not contract:
            memo = self._play_memo(contract)
        hand = d.hands[seat] & ~(1 << card)
        hands = (hand, d.hands[1]) if seat == 0 else (d.hands[0], hand)
        # The new deal record (see _evolve), made here without its keyword arguments: a play is the common step.
        if d is self._private:
            new = d
            fields = d.__dict__
        else:
            fields = d.__dict__.copy()
            new = self._private = _new(_Deal)
            _set_attr(new, "__dict__", fields)
        fields["hands"] = hands
        if not d.trick:
            # The card and the point of its lead, if it scores one, in one new record.
            played, scored = memo.leads.get(seat << 5 | card) or memo.lead(seat, card)
            fields["trick"] = (card,)
            s.deal = new
            if scored is None:
                fields["log"] = d.log + (played,)
            else:
                fields["events"] = d.events + (scored,)  # after all: the hand is reckoned (see _score)
                fields["log"] = d.log + (played, scored)
                if new.pique is None and new.repique is None and not new.pique_closed:
                    self._check_pique()
            s.to_act = 1 - seat
            return
        lead = d.trick[0]
        leader = d.leader
        winner, played, finished, awards = (memo.tricks.get(leader << 10 | lead << 5 | card)
                                            or memo.trick(leader, lead, card))
        won = d.tricks_won
        fields["tricks_won"] = won = (won[0] + 1, won[1]) if winner == 0 else (won[0], won[1] + 1)
        fields["trick"] = ()
        fields["tricks"] = tricks = d.tricks + (finished,)
        fields["leader"] = winner
        s.to_act = winner
        s.deal = new
        if len(awards) == 1:
            # The usual trick: its one award goes into the same new record.
            scored = awards[0]
            fields["events"] = d.events + (scored,)
            fields["log"] = d.log + (played, scored)
            if new.pique is None and new.repique is None and not new.pique_closed:
                self._check_pique()
        else:
            fields["log"] = d.log + (played,)
            for scored in awards:
                self._score(scored)
                self._check_pique()
        if len(tricks) < 12 and not memo.early_cards:
            return  # the common trick
        # With the option play_ceases_at_the_target nothing more is scored once the target is reached (push then
        # ends the deal): the trick's points, the last trick's with them (Law 65: "scores two instead of one"),
        # but not the cards.
        early_cards = memo.early_cards and won[winner] == 7 and not (self._ceases and self._target_reached())
        last = memo.last_trick if len(tricks) == 12 else 0
        if last:
            self._score(ScoreEvent(winner, last, _SCORE_PLAY, "the last trick"))
        if early_cards:
            # The option's reading: the cards are scored as soon as they are won, and may make a pique.
            self._score(ScoreEvent(winner, self.rules.cards_points, _SCORE_CARDS, "the cards"))
        if last or early_cards:
            self._check_pique()  # every other score was checked as it was made
        if len(s.deal.tricks) == 12 and not (self._ceases and self._target_reached()):
            cards = self.rules.cards_awards(s.deal.tricks_won, s.deal.contract)
            if not cards:
                self._tell(CardsDivided())
            for who, points, reason in cards:
                if self.rules.cards_count_toward_pique:
                    # The cards were scored at the seventh trick; capot adds what it counts more.
                    points -= self.rules.cards_points
                if points:
                    self._score(ScoreEvent(who, points, _SCORE_CARDS, reason))
            for who, points, reason in self.rules.contract_awards(s.deal.tricks_won, s.deal.contract):
                self._score(ScoreEvent(who, points, _SCORE_CONTRACT, reason))
            self._end_deal()

    def _apply_concede(self, action: Concede) -> None:
        s = self._s
        self._tell(Conceded(action.player))
        self._reckon_hand(lead=False)
        s.deal = self._evolve(s.deal, conceded=action.player)
        if self.rules.concession_may_be_declined:
            s.phase, s.to_act = _PHASE_CONCESSION, 1 - action.player
            return
        self._settle_concession()

    def _apply_accept_concession(self, action: AcceptConcession) -> None:
        s = self._s
        if action.accept:
            self._tell(ConcessionAnswered(action.player, True))
            self._settle_concession()
            return
        self._tell(ConcessionAnswered(action.player, False))
        # Play goes on: elder's lead, which shows the rest of the talon if younger elected it (_reckon_hand).
        s.deal = self._evolve(s.deal, conceded=None, concession_declined=True, hand_reckoned=False)
        s.phase, s.to_act = _PHASE_PLAY, s.deal.leader

    def _settle_concession(self) -> None:
        """The opponent of the player who conceded counts 13 for the play and 10 for the cards,
        without pique or capot (the rulings, 18)."""
        s = self._s
        d = s.deal
        assert d.conceded is not None
        other = 1 - d.conceded
        self._score(ScoreEvent(other, self.rules.conceded_play_points, _SCORE_PLAY, "conceded play"))
        self._score(ScoreEvent(other, self.rules.cards_points, _SCORE_CARDS, "conceded cards"))
        self._end_deal()

    #: Each kind of action's method, by its class (a subclass goes through the match in :meth:`_apply`).
    _APPLY: ClassVar[dict[type, Callable[[Partie, Any], None]]] = {
        Cut: _apply_cut,
        ChooseDealer: _apply_choose_dealer,
        Deal: _apply_deal,
        Bid: _apply_bid,
        CarteBlanche: _apply_carte_blanche,
        Exchange: _apply_exchange,
        Declare: _apply_declare,
        Play: _apply_play,
        Concede: _apply_concede,
        AcceptConcession: _apply_accept_concession,
    }

    def _play_memo(self, contract: Contract | None) -> _PlayMemo:
        """The rules' answers for the leads and tricks of a deal under ``contract`` (shared by every partie
        with the same rules; the partie keeps the last one, and asks again when the contract is another)."""
        shared = self._memos
        memo = shared.get(contract)
        if memo is None:
            memo = shared[contract] = _PlayMemo(self.rules, contract)
        # Kept with the very contract asked for (the deal's own), which later asks compare by identity.
        self._memo, self._memo_for = memo, contract
        return memo

    def _counted_deals(self) -> int:
        """Deals played to the end (an annulled Auction deal does not count)."""
        return counted_deals(self._s.deal_scores)

    def _end_deal(self) -> None:
        s = self._s
        d = s.deal
        before = s.totals
        multiplier = self.rules.deal_multiplier(self._counted_deals() + 1)
        score = DealScore.from_events(d.events, d.elder, d.tricks_won, d.contract, multiplier=multiplier)
        s.deal_scores = s.deal_scores + (score,)
        s.totals = (s.totals[0] + multiplier * score.totals[0], s.totals[1] + multiplier * score.totals[1])
        self._tell(DealEnded(s.deal_number, score.totals, multiplier, s.totals))
        over = self.rules.partie_over(self._counted_deals(), s.totals)
        if self.rules.plays_games:
            game = self.rules.game_over((before[0] - s.game_start[0], before[1] - s.game_start[1]),
                                        [(e.player, multiplier * e.points) for e in d.events])
            if game is not None:
                game = replace(game, deal=len(s.deal_scores))
                s.games = s.games + (game,)
                s.game_start = s.totals
                self._tell(GameWon(game))
                won = self.games_won()
                if max(won) >= self.rules.games_to_win:
                    winner = 0 if won[0] > won[1] else 1
                    s.result = settled = Settlement(winner, won[winner], False, won)
                    s.phase, s.to_act = _PHASE_OVER, None
                    self._tell(PartieEnded(settled))
                    return
        if over:
            s.result = settled = settle(s.totals, self.rules.rubicon, self.rules.settlement_bonus)
            s.phase, s.to_act = _PHASE_OVER, None
            self._tell(PartieEnded(settled))
        elif self.rules.fresh_cut_each_game and s.games and s.games[-1].deal == len(s.deal_scores):
            self._tell(NewGameCut())
            s.phase, s.to_act = _PHASE_CUT, None
        else:
            s.dealer = 1 - (s.dealer if s.dealer is not None else 0)
            s.phase, s.to_act = _PHASE_DEAL, s.dealer

    # ------------------------------------------------------------ views
    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may know (``None``: a spectator, who sees only what is public).

        Whose view it is, the phase and who is to act are set at once; every other field is filled in when
        first read (:func:`_view_field`), from the partie's state as it was when the view was made: the deal
        record and the seat to act are kept with the view (a card played changes them in the present state,
        see :meth:`push`), and nothing else of a state changes once the partie has moved on, so a view read
        later says what it said when it was made, and a player who reads little pays little. A view is pickled
        or copied with its fields alone.
        """
        s = self._s
        to_act = s.to_act
        view: PlayerView = _new(PlayerView)
        _set_attr(view, "__dict__", {
            "seat": seat, "phase": s.phase, "to_act": to_act,
            "_lazy": (_view_field, (seat, s, s.deal, to_act, self.players, self.variant, self._options,
                                    self.rules))})
        return view


#: The view's fields that are the deal record's own, under the same name (public to both players).
_DEAL_FIELDS: frozenset[str] = frozenset((
    "elder", "exchanged", "will_exchange", "carte_blanche", "announcements", "trick", "leader", "tricks",
    "tricks_won", "events", "log", "bids", "contract"))
#: The view's fields that are the partie's state's own, under the same name.
_STATE_FIELDS: frozenset[str] = frozenset(("deal_number", "dealer", "deal_scores", "totals", "result", "games"))

#: What a view is read from: its seat, the state, the deal record and the seat to act when it was made (see
#: Partie.view), the players, the variant, its options and its rules.
_ViewSource = tuple[int | None, _State, _Deal, int | None, tuple[str, str], str, dict[str, bool | int], Rules]


def _view_field(name: str, source: _ViewSource) -> object:
    """The field ``name`` of the view of ``seat`` (``None``: a spectator) of the partie in the state ``s``
    with the deal record ``d``: what that seat may know, and nothing more."""
    seat, s, d, to_act, players, variant, options, rules = source
    if name in _DEAL_FIELDS:
        return getattr(d, name)
    if name in _STATE_FIELDS:
        return getattr(s, name)
    own = seat is not None
    me = seat if seat is not None else 0
    match name:  # the fields a random player reads first (a match tries its cases in order)
        case "hand":
            return _SETS[d.hands[me] if own else 0]
        case "exchange_range":
            return _exchange_limits(rules, d, me) if own and s.phase is _PHASE_EXCHANGE and to_act == me else None
        case "dealt":
            return _SETS[d.dealt[me] if own else 0]
        case "discards":
            return _SETS[d.discards[me] if own else 0]
        case "peeked":
            return _SETS[d.peeked if own and seat == d.elder else 0]
        case "rest":
            return _SETS[d.rest if d.rest_public else 0]
        case "show_rest":
            return d.show_rest if ((own and seat != d.elder) or d.rest_public or d.hand_reckoned) else None
        case "talon_left":
            return max(0, len(d.talon) - (d.exchanged[0] or 0) - (d.exchanged[1] or 0))
        case "hand_sizes":
            return d.hands[0].bit_count(), d.hands[1].bit_count()
        case "shown_dealt":
            return _SETS[d.shown_dealt[0]], _SETS[d.shown_dealt[1]]
        case "revealed":
            return _SETS[d.revealed[0]], _SETS[d.revealed[1]]
        case "own_calls":
            return tuple([c for c in d.calls if c is not None and c.player == seat]) if own and d.calls else ()
        case "game_scores":
            return s.totals[0] - s.game_start[0], s.totals[1] - s.game_start[1]
        case "unreckoned":
            return d.pending_events
        case "opponent":
            return 1 - me if own else None
        case "players":
            return players
        case "variant":
            return variant
        case "options":
            return dict(options)
    raise AttributeError(f"'PlayerView' object has no attribute {name!r}")


def _exchange_limits(rules: Rules, d: _Deal, seat: int) -> tuple[int, int]:
    """The fewest and most cards ``seat`` may exchange in the deal ``d``."""
    if seat == d.elder:
        if d.will_exchange is not None:
            return d.will_exchange, d.will_exchange
        return rules.elder_minimum_exchange, rules.elder_maximum_exchange
    taken = d.elder_count if d.elder_count is not None else 0
    return rules.younger_minimum_exchange, len(d.talon) - taken


def _disjoint_collections(options: list[CardSet]) -> Iterator[tuple[CardSet, ...]]:
    """Every non-empty collection of pairwise disjoint combinations from ``options``."""

    def walk(start: int, used: int, chosen: tuple[CardSet, ...]) -> Iterator[tuple[CardSet, ...]]:
        for i in range(start, len(options)):
            c = options[i]
            if c.mask & used:
                continue
            grown = chosen + (c,)
            yield grown
            yield from walk(i + 1, used | c.mask, grown)

    yield from walk(0, 0, ())


class LegalActions(Sequence[Action]):
    """The legal actions of one player, listed on first use and kept; ``in`` checks with :meth:`Partie.can`.

    A sequence: ``len``, indexing and iteration list the actions (the point's declarations are made one
    by one as they are indexed, see :class:`_Points`); :meth:`list` gives them all as a list. An action
    taken by index is one the partie listed itself in this very position, so :meth:`Partie.push` applies it
    without checking it again (an action the caller made, or one from a list it could change, is checked).
    """

    __slots__ = ("_listing", "_serial", "partie", "player")

    def __init__(self, partie: Partie, player: int | None) -> None:
        self.partie = partie
        self.player = player
        #: The listing once made (a list, or the point's lazy listing), and the position it was made in.
        self._listing: list[Action] | _Points | None = None
        self._serial = partie._serial

    def __repr__(self) -> str:
        return f"LegalActions(player={self.player!r}, actions={self.list()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LegalActions):
            return NotImplemented
        return self.partie is other.partie and self.player == other.player and self.list() == other.list()

    __hash__ = None  # type: ignore[assignment]

    def __iter__(self) -> Iterator[Action]:
        return iter(self.list())

    def __contains__(self, action: object) -> bool:
        if not (isinstance(action, Action) and action.player == self.player and not isinstance(action, (Cut, Deal))):
            return False
        partie = self.partie
        if not partie.can(action):
            return False
        if self._serial == partie._serial:
            # Found legal in the partie's present position: push need not check it again (see Partie._trusted).
            partie._trusted = action
            partie._trusted_in = self._serial
        return True

    def _made(self) -> list[Action] | _Points:
        listing = self._listing
        if listing is None:
            listing = self._listing = self.partie._generate(self.player)
        return listing

    def list(self) -> list[Action]:
        """Every legal action, as a list (the same list at each call: do not change it)."""
        listing = self._made()
        if isinstance(listing, _Points):
            listing = self._listing = listing.all()
        return listing

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> builtins.list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | builtins.list[Action]:
        if isinstance(index, slice):
            return self.list()[index]
        listing = self._listing  # _made, inlined: a random player asks for a length and one item
        if listing is None:
            listing = self._listing = self.partie._generate(self.player)
        action = listing[index]
        if self._serial == self.partie._serial:
            # Listed by the partie in its present position: push may trust it (see Partie._trusted).
            self.partie._trusted = action
            self.partie._trusted_in = self._serial
        return action

    def __len__(self) -> int:
        listing = self._listing
        if listing is None:
            listing = self._listing = self.partie._generate(self.player)
        return len(listing)

    def __bool__(self) -> bool:
        return len(self._made()) > 0


class _Points:
    """The legal points of a hand: not declaring first, then every point he may call, best first, each
    declaration made when it is asked for (a random player asks for one of some forty)."""

    __slots__ = ("codes", "first", "singles")

    def __init__(self, first: Action, codes: list[int], singles: _SingleCalls) -> None:
        self.first = first
        self.codes = codes  # candidate_codes: each one's low 32 bits are the point's mask
        self.singles = singles

    def __len__(self) -> int:
        return len(self.codes) + 1

    def __getitem__(self, index: int) -> Action:
        n = len(self.codes) + 1
        if not -n <= index < n:
            raise IndexError("legal action index out of range")
        if index % n == 0:
            return self.first
        return self.singles[self.codes[index % n - 1] & 0xFFFFFFFF]

    def all(self) -> list[Action]:
        singles = self.singles
        return [self.first, *[singles[code & 0xFFFFFFFF] for code in self.codes]]


class _PlayMemo:
    """What the rules say of each call, combination scored, lead and trick of a deal under one contract
    (``None``: no auction), asked once and kept: what a call tells, what a combination scores, the card
    played, the point of a lead, who wins a trick, what it scores, with the events and the trick they make
    (all immutable, so shared by every deal that plays the same cards).
    The rules themselves stay in :class:`~piquet.engine.variants.Rules`; this only remembers their answers."""

    __slots__ = ("calls", "contract", "early_cards", "last_trick", "leads", "names_unless_good", "rules", "scores",
                 "tricks")

    def __init__(self, rules: Rules, contract: Contract | None) -> None:
        self.rules = rules
        self.contract = contract
        #: The option's reading: the cards are scored at the seventh trick (and count toward a pique).
        self.early_cards = rules.cards_count_toward_pique
        #: What the last trick scores besides its own award (Law 65).
        self.last_trick = rules.last_trick_points(contract)
        self.leads: dict[int, tuple[CardPlayed, ScoreEvent | None]] = {}
        self.tricks: dict[int, tuple[int, CardPlayed, Trick, tuple[ScoreEvent, ...]]] = {}
        #: Elder's call of a combination, by seat, category, mask and whether it is good against the cards (see
        #: names_unless_good): what both hear of it, the event that says it and the cards it names (a quatorze's
        #: four), if any.
        self.calls: dict[tuple[int, Category, int, bool], tuple[Announcement, Declared, int]] = {}
        #: Law 48 by the letter (option calls_named_unless_good): whether a call good against the cards gives its
        #: length alone, and so whether a call's goodness is to be found.
        self.names_unless_good = rules.calls_named_unless_good
        #: A combination scored, by its holder, category and mask (when its holder scores it; otherwise its
        #: words name him, and it is made each time).
        self.scores: dict[tuple[int, Category, int], ScoreEvent] = {}

    def lead(self, seat: int, card: Card) -> tuple[CardPlayed, ScoreEvent | None]:
        """The card led by ``seat``, and the point it scores, if any (Law 65)."""
        found = self.leads.get(seat << 5 | card)
        if found is None:
            points = self.rules.lead_points(card, self.contract)
            scored = ScoreEvent(seat, points, _SCORE_PLAY, f"lead of {card}") if points else None
            found = self.leads[seat << 5 | card] = (CardPlayed(seat, card), scored)
        return found

    def call(self, elder: int, category: Category, first: CardSet,
             good: bool = False) -> tuple[Announcement, Declared, int]:
        """Elder's call of ``first``: what both players hear of it, the event, and the cards it names (Laws
        46-48: the length, and what the rules have told at once, unless the call is ``good`` against the cards
        and the rules let such a call give its length alone; "fourteen aces" names all four)."""
        at_once = self.rules.call_names(category, self.contract, good)
        rank = first.cards()[0].rank if category is _CAT_SETS and at_once else None
        said = key(category, first)[1] if at_once else 0
        detail = said if at_once and category is not _CAT_SETS else None
        top = Rank(said) if at_once and category is not _CAT_POINT else None
        pips = said if at_once and category is _CAT_POINT else None
        named = first.mask if category is _CAT_SETS and len(first) == 4 and at_once else 0
        told = (Announcement(category, len(first), rank, detail),
                Declared(elder, category, len(first), at_once, pips, top), named)
        self.calls[elder, category, first.mask, good] = told
        return told

    def score(self, holder: int, category: Category, cards: CardSet, players: tuple[str, str]) -> ScoreEvent:
        """The points of ``holder``'s combination ``cards``, scored (Law 55): to him, or in Auction's minus
        contracts to his opponent, whose words then name him."""
        scorer = self.rules.combination_scorer(holder, self.contract)
        reason = call(category, cards).lower()
        if scorer != holder:
            reason = f"{players[holder]}'s {reason}"
        # A sequence's top card, or a set's rank: its highest card's rank (one suit, or one rank).
        said = CombinationScored(holder, len(cards),
                                 None if category is _CAT_POINT else _RANKS[(cards.mask.bit_length() - 1) & 7])
        event = ScoreEvent(scorer, self.rules.combination_points(category, cards), _SCORE_CATEGORY[category],
                           reason, said)
        if scorer == holder:
            self.scores[holder, category, cards.mask] = event
        return event

    def trick(self, leader: int, lead: Card, card: Card) -> tuple[int, CardPlayed, Trick, tuple[ScoreEvent, ...]]:
        """The trick ``leader`` led with ``lead`` and his opponent completed with ``card``: its winner (Law 59),
        the card played, the finished trick and what it scores, besides the last trick (Law 65)."""
        key = leader << 10 | lead << 5 | card
        found = self.tricks.get(key)
        if found is None:
            winner = 1 - leader if card.beats(lead) else leader
            cards = (lead, card)
            awards = self.rules.trick_awards(leader, cards, winner, self.contract)
            found = self.tricks[key] = (
                winner, CardPlayed(1 - leader, card, winner), Trick(leader, cards, winner),
                tuple([ScoreEvent(who, points, _SCORE_PLAY, reason) for who, points, reason in awards]))
        return found


#: The memos of the leads and tricks, by the rules (their class and options) and then by the contract.
_PLAY_MEMOS: dict[tuple[type[Rules], tuple[tuple[str, bool | int], ...]], dict[Contract | None, _PlayMemo]] = {}

#: Every play, one value per seat and card (a play is immutable), as the legal plays list them.
_PLAYS: tuple[tuple[Play, ...], tuple[Play, ...]] = (
    tuple(Play(0, card) for card in CARDS), tuple(Play(1, card) for card in CARDS))
#: The plays of the cards of each suit's 8-bit rank mask, high to low (the order of a hand, as a CardSet
#: iterates), by seat and suit.
def _suit_plays(plays: tuple[Play, ...]) -> tuple[tuple[Play, ...], ...]:
    """One seat's plays of one suit's cards by rank mask: the highest card's play, then those of the rest."""
    table: list[tuple[Play, ...]] = [()]
    for byte in range(1, 256):
        top = byte.bit_length() - 1
        table.append((plays[top], *table[byte ^ 1 << top]))
    return tuple(table)


_SUIT_PLAYS: tuple[tuple[tuple[tuple[Play, ...], ...], ...], ...] = tuple(
    tuple(_suit_plays(_PLAYS[seat][8 * suit : 8 * suit + 8]) for suit in range(4)) for seat in (0, 1))


class _SingleCalls(dict[int, Declare]):
    """The declarations of one combination by one seat in one category, by its mask, made once (a
    Declare never changes, and a combination's CardSet is shared, see ``combinations.candidates``)."""

    def __init__(self, seat: int, category: Category) -> None:
        super().__init__()
        self.seat = seat
        self.category = category

    def __missing__(self, mask: int) -> Declare:
        declare = self[mask] = Declare(self.seat, self.category, (CardSet(mask),))
        return declare


#: Younger's answers, by seat, category and answer, made once.
_ANSWERED: dict[tuple[int, Category, Answer], DeclarationAnswered] = {
    (seat, category, answer): DeclarationAnswered(seat, category, answer)
    for seat in (0, 1) for category in Category for answer in ("good", "not good", "equal")}
_SINGLE_CALLS: dict[tuple[int, Category], _SingleCalls] = {
    (seat, category): _SingleCalls(seat, category) for seat in (0, 1) for category in Category}
#: Elder's call of nothing in each category, by seat and category: what both hear, and the event.
_NOTHING_CALLED: dict[tuple[int, Category], tuple[Announcement, Declared]] = {
    (seat, category): (Announcement(category, None), Declared(seat, category, None))
    for seat in (0, 1) for category in Category}
#: Each seat's concession, made once.
_CONCESSIONS: tuple[Concede, Concede] = (Concede(0), Concede(1))
#: Each seat's declaration of nothing in each category, made once.
_NO_CALLS: dict[tuple[int, Category], Declare] = {
    (seat, category): Declare(seat, category, ()) for seat in (0, 1) for category in Category}
