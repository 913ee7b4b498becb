"""The rules of a partie as a state machine.

:class:`Partie` holds the whole state, hidden cards included; players,
agents and interfaces should see it only through :meth:`Partie.view`. Every
decision is an action (:mod:`piquet.engine.actions`): :meth:`Partie.legal_actions`
lists them, :meth:`Partie.why_not` says why one is illegal, :meth:`Partie.can`
answers yes or no, :meth:`Partie.push` applies one and :meth:`Partie.pop`
takes it back.

A newcomer reads the house in this order: :mod:`~piquet.engine.state` (what a partie holds),
this module (push and pop), :mod:`~piquet.engine.checks` (why an action is illegal), then what each action
does, phase by phase: :mod:`~piquet.engine.deals` (the cut, the deal, the auction, the end of a deal),
:mod:`~piquet.engine.exchange` (carte blanche, the exchange), :mod:`~piquet.engine.declaring` (the
declarations), :mod:`~piquet.engine.play` (the play, the concession) with :mod:`~piquet.engine.reckoning`
(what the play scores, in which order); :mod:`~piquet.engine.listings` lists the legal actions and
:mod:`~piquet.engine.view` says what each seat sees.

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
import random
from collections.abc import Mapping, Sequence
from typing import assert_never

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
from piquet.engine.cards import CARDS, Card, CardSet
from piquet.engine.checks import DECLARATION_ORDER, why_not, why_not_dealer
from piquet.engine.deals import apply_bid, apply_choose_dealer, apply_cut, apply_deal
from piquet.engine.declaring import apply_declare
from piquet.engine.events import LogEntry
from piquet.engine.exchange import apply_carte_blanche, apply_exchange
from piquet.engine.listings import LegalActions
from piquet.engine.play import (
    apply_accept_concession,
    apply_card,
    apply_concede,
    concession_totals,
    play_ceases,
)
from piquet.engine.reckoning import decided_in_hand, reckoning_at_first_lead
from piquet.engine.refusals import Refusal, illegal_words
from piquet.engine.scoring import DealScore, ScoreEvent, Settlement
from piquet.engine.state import CardValues, PartieState, Phase, Restore, TakeBackCard, Undo
from piquet.engine.variants import Contract, GameResult, Rules, games_won, make_rules
from piquet.engine.view import PlayerView, ReadView, ViewTable

__all__ = ["DECLARATION_ORDER", "IllegalActionError", "LegalActions", "Partie", "Phase", "decided_in_hand",
           "reckoning_at_first_lead"]


class IllegalActionError(ValueError):
    """An action that may not be taken now; the partie is left as it was. ``refusal`` is the engine's typed reason
    (:class:`~piquet.engine.refusals.Refusal`), ``reason`` the same said in English, and :meth:`words` says the
    whole refusal in a language the game speaks."""

    def __init__(self, action: Action, player: str, reason: Refusal | str) -> None:
        self.action = action
        self.player = player
        self.refusal = reason if isinstance(reason, Refusal) else None
        self.reason = str(reason)
        super().__init__(illegal_words(action, player, reason))

    def words(self, lang: str = "en", names: Sequence[str] | None = None) -> str:
        """The refusal in ``lang``, the players named ``names`` (by default the partie's).

        >>> partie = Partie(("Ann", "Bill"), first_dealer=0)
        >>> try:
        ...     partie.push(Play(1, Card.parse("AS")))
        ... except IllegalActionError as e:
        ...     print(e.words("fr", ("Anne", "Guillaume")))
        Guillaume ne peut pas jouer A♠ : c'est la donne, pas le jeu de la carte
        """
        seat = self.action.player
        player = names[seat] if names is not None and seat in (0, 1) else self.player
        return illegal_words(self.action, player, self.refusal or self.reason, lang, names)


def _apply(s: PartieState, rules: Rules, players: tuple[str, str], action: Action) -> None:
    """Apply ``action``, found legal, to the state ``s``: each kind of action by its own function."""
    match action:
        case Play():
            apply_card(s, rules, action)
        case Cut():
            apply_cut(s, rules, action)
        case ChooseDealer():
            apply_choose_dealer(s, rules, action)
        case Deal():
            apply_deal(s, rules, action)
        case Bid():
            apply_bid(s, rules, action)
        case CarteBlanche():
            apply_carte_blanche(s, rules, action)
        case Exchange():
            apply_exchange(s, rules, action)
        case Declare():
            apply_declare(s, rules, players, action)
        case Concede():
            apply_concede(s, rules, action)
        case AcceptConcession():
            apply_accept_concession(s, rules, action)
        case _:
            assert_never(action)


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
        #: What every view of this partie shares.
        self._table = ViewTable(self.players, variant, self.rules.changed(), self.rules)
        if first_dealer is None:
            self._s = PartieState(Phase.CUT, None)
        else:
            if first_dealer not in (0, 1):
                raise ValueError(f"first_dealer must be seat 0 or 1, not {first_dealer!r}")
            self._s = PartieState(Phase.DEAL, first_dealer, dealer=first_dealer)
        #: What each action applied so far needs to be taken back, in order.
        self._stack: list[Undo] = []
        #: The option play_ceases_at_the_target: any action may end the deal.
        self._ceases = self.rules.play_ceases_at_target
        #: A number for the present position, what a listing of the legal actions is of (see LegalActions): each
        #: push makes a position with a number never given before, each pop returns to the number of the position
        #: it takes back to (kept in ``_numbers``, one for each action on the stack).
        self._position = 0
        self._numbered = 0
        self._numbers: list[int] = []

    # ------------------------------------------------------------------ state
    @property
    def phase(self) -> Phase:
        """The phase the partie is in."""
        return self._s.phase

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` at the cut (a chance event) and when the partie is over."""
        return self._s.to_act

    @property
    def actions(self) -> list[Action]:
        """Every action applied so far, in order."""
        return [undo.action for undo in self._stack]

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
        return self._s.phase is Phase.OVER

    def logs(self) -> tuple[tuple[LogEntry, ...], ...]:
        """The log of every deal so far (what was said and scored, in order); the cut belongs to the first."""
        return (*self._s.past_logs, self._s.deal.log) if self._s.deal.log else self._s.past_logs

    def finished_logs(self) -> tuple[tuple[LogEntry, ...], ...]:
        """The log of every deal before the one in hand, in order (the cut's, before the first deal, comes first):
        what the table said and scored, all of it public once the deal is over."""
        return self._s.past_logs

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
        d = self._s.deal
        return CardSet(CardSet(d.talon).mask & ~(d.drawn[0] | d.drawn[1]))

    def copy(self) -> Partie:
        """An independent copy, history included."""
        other = copy.copy(self)
        other._s = self._s.copy()
        other._stack = list(self._stack)  # an undo is never changed, nor the state it keeps (see pop)
        other._numbers = list(self._numbers)
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> Partie:
        """A deep copy is :meth:`copy`: what a partie keeps of the past is never changed, so sharing it is as good
        as copying it (and a long partie is copied at once, not state by state).

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
        """Check and apply an action, and return the points it scored, in the order they were said (a lead, a
        trick, younger's reckoning at elder's first lead, a pique, the cards...). An illegal action raises
        :class:`IllegalActionError` and changes nothing."""
        refusal = self.refusal(action)
        if refusal is not None:
            raise self._illegal(action, refusal)
        before = self._s
        d = before.deal
        told, number = len(d.log), before.deal_number
        undo: Undo
        if (type(action) is Play and d.hand_reckoned and not (d.trick and len(d.tricks) == 11)
                and not self._ceases):
            # The common step, a card that neither opens the play nor can end the deal: played in place (see
            # state.py), what it changes kept to take it back.
            undo = TakeBackCard(action, before.to_act, CardValues.of(d))
            try:
                apply_card(before, self.rules, action)
            except BaseException:
                undo.apply(before)
                raise
        else:
            # Any other action: applied to new records, the present ones kept to take it back.
            undo = Restore(action, before)
            after = before.copy()
            _apply(after, self.rules, self.players, action)
            if self._ceases:
                play_ceases(after, self.rules)
            self._s = after
        self._stack.append(undo)
        self._numbers.append(self._position)
        self._numbered += 1
        self._position = self._numbered
        log = self._s.deal.log
        said = log[told:] if self._s.deal_number == number else log
        return tuple([entry for entry in said if isinstance(entry, ScoreEvent)])

    def pop(self) -> Action:
        """Take back the last action and return it."""
        if not self._stack:
            raise IndexError("pop from a partie with no actions")
        undo = self._stack.pop()
        match undo:
            case TakeBackCard():
                undo.apply(self._s)
            case Restore():
                # Copies: the records kept may be shared with a copy of this partie, and cards change them in place.
                self._s = undo.state.copy()
        self._position = self._numbers.pop()
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
        sizes = self.legal_packets()
        if packets is None:
            packets = sizes[0] if len(sizes) == 1 else rng.choice((2, 3))
        return Deal.shuffled(rng, s.dealer, packets)

    # ------------------------------------------------------------ legality
    def _illegal(self, action: Action, reason: Refusal) -> IllegalActionError:
        player = action.player if action.player in (0, 1) else None
        return IllegalActionError(action, self.player_name(player), reason)

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` naming the action, the player and the reason if the action may not be
        taken now."""
        refusal = self.refusal(action)
        if refusal is not None:
            raise self._illegal(action, refusal)

    def why_not(self, action: Action) -> str | None:
        """Why ``action`` may not be taken now (the law or the fact it breaks), in English, or ``None`` if it may.
        Nothing is raised: this is how the legal actions are found.

        >>> from piquet.engine.actions import Play
        >>> from piquet.engine.cards import Card
        >>> Partie(("Ann", "Bill"), first_dealer=0).why_not(Play(1, Card.parse("AS")))
        'it is the deal, not the play'
        """
        refusal = self.refusal(action)
        return None if refusal is None else str(refusal)

    def refusal(self, action: Action) -> Refusal | None:
        """:meth:`why_not` as the engine's typed reason (:class:`~piquet.engine.refusals.Refusal`): its kind, the
        facts it names, and its words in each language the game speaks.

        >>> from piquet.engine.actions import Play
        >>> from piquet.engine.cards import Card
        >>> refusal = Partie(("Ann", "Bill"), first_dealer=0).refusal(Play(1, Card.parse("AS")))
        >>> refusal.kind, refusal.expected, refusal.words("fr")
        (<Why.WRONG_PHASE: 'wrong_phase'>, <Phase.PLAY: 'play'>, "c'est la donne, pas le jeu de la carte")
        """
        return why_not(self._s, self.rules, self.players, action)

    def why_not_dealer(self, seat: int) -> str | None:
        """Why ``seat`` may not deal now: the law that makes the other player the dealer (the lower cut, the
        cut's winner's choice, an annulled deal dealt again, the deal alternating), or ``None`` if ``seat`` deals.

        >>> p = Partie(("Ann", "Bill"), "au-cent")
        >>> _ = p.push(Cut(0, (Card.parse("KS"), Card.parse("9H"))))
        >>> p.why_not_dealer(0)
        'Bill cut the lower card, and in Piquet au Cent the lower cut deals (Laws of Piquet au Cent)'
        """
        refusal = why_not_dealer(self._s, self.rules, self.players, seat)
        return None if refusal is None else str(refusal)

    def concession_totals(self, player: int) -> tuple[int, int]:
        """The partie scores of ``player`` and of his opponent if ``player`` conceded now: both hands reckoned as
        declared, then the opponent counting 13 for the play and the cards' ten, the deal counted as many times as
        it counts in the partie (the rulings, 18)."""
        return concession_totals(self._s, self.rules, player)

    def legal_actions(self, player: int | None = None) -> LegalActions:
        """The legal actions of ``player`` (by default the player to act), listed when first used.

        The cut and the deal are chance events and are not listed (see :meth:`random_cut`, :meth:`random_deal`
        and :meth:`legal_packets`). A player may concede out of turn, so another player's list may hold that.
        """
        return LegalActions(self, self._s.to_act if player is None else player)

    # ------------------------------------------------------------ views
    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may know (``None``: a spectator, who sees only what is public), as it is now: read from
        the partie's records when a field is asked for (:class:`~piquet.engine.view.ReadView`), and saying the same
        later, whatever the partie does."""
        return ReadView(seat, self._s, self._table)

