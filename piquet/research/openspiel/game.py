"""The game ``python_piquet`` and its state: its parameters, OpenSpiel's game type and information, and a state
that drives a :class:`~piquet.engine.partie.Partie` one id at a time (chance deals and cuts a card at a time, the
decisions with the ids of :mod:`piquet.research.encoding`), keeping what each player has seen."""

from __future__ import annotations

import copy
import random
from typing import Any

import pyspiel

from piquet.engine.actions import Cut, Deal, Play
from piquet.engine.cards import Card, CardSet
from piquet.engine.partie import Partie, Phase
from piquet.engine.variants import make_rules, parse_options
from piquet.engine.view import PlayerView
from piquet.research.encoding import (
    EMPTY,
    NUM_ACTIONS,
    SINK,
    Decision,
    Selection,
    action_name,
)
from piquet.research.openspiel.observation import PiquetObserver, Scene, selection_text

#: Each parameter and its default.
DEFAULT_PARAMS: dict[str, Any] = {"variant": "rubicon", "options": "", "scope": "deal", "first_dealer": 0}
#: The most deals a partie may take before the adapter calls it too long (Piquet au Cent's games and
#: Auction's annulled deals have no bound of their own); far beyond any partie measured.
MAX_DEALS = 60
#: The most ids of one deal: an auction (15 calls, 4 doubles), carte blanche, two exchanges of five cards,
#: six declarations of at most twelve cards and their separators, a concession and 24 cards.
_DEAL_IDS = 22 + 2 + 14 + 6 * 16 + 3 + 24

#: What kind of game Piquet is to OpenSpiel, the game's type and any subgame's (piquet.research.examples.cfr):
#: two players in turn, chance's cards drawn explicitly, hidden hands, zero-sum, rewarded at the end.
GAME_KIND: dict[str, Any] = {
    "dynamics": pyspiel.GameType.Dynamics.SEQUENTIAL,
    "chance_mode": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    "information": pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    "utility": pyspiel.GameType.Utility.ZERO_SUM,
    "reward_model": pyspiel.GameType.RewardModel.TERMINAL,
    "max_num_players": 2,
    "min_num_players": 2,
}
#: The bound of a deal's returns (a player's points less the other's), far beyond any deal.
DEAL_BOUND = 1000.0

GAME_TYPE = pyspiel.GameType(
    short_name="python_piquet",
    long_name="Piquet (Rubicon, Auction, au Cent)",
    **GAME_KIND,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)

#: The phases whose actions are chance: the cut of a partie and the deal, a card at a time.
CHANCE_PHASES = (Phase.CUT, Phase.DEAL)
#: The ids the opponent does not see: the cards, and how the selection of an exchange or a declaration
#: ends (what both learn of it, the log says).
_HIDDEN_BELOW = SINK + 1
#: The phases whose decisions are selections (their card ids are the opponent's secret).
_SELECTING = (Phase.EXCHANGE, Phase.DECLARE)
#: Each id's name, and the chance cards' words in the information state, made once.
_ID_NAMES = tuple(action_name(i) for i in range(NUM_ACTIONS))
_DEALT_TEXT = tuple(f"dealt {Card(c)}" for c in range(32))
_CUT_TEXT = tuple(f"cut {Card(c)}" for c in range(32))
#: Each card as a chance outcome when ``n`` cards have been drawn: (card, 1 / (32 - n)), made once.
_OUTCOMES = tuple(tuple((c, 1.0 / (32 - n)) for c in range(32)) for n in range(32))
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _game_info(scope: str) -> pyspiel.GameInfo:
    deals = 1 if scope == "deal" else MAX_DEALS
    bound = DEAL_BOUND if scope == "deal" else 10 * DEAL_BOUND
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=32,
        num_players=2,
        min_utility=-bound,
        max_utility=bound,
        utility_sum=0.0,
        max_game_length=deals * _DEAL_IDS + (0 if scope == "deal" else 1),
    )


class PiquetGame(pyspiel.Game):  # type: ignore[misc]
    """The game: its parameters checked once (a bad one raises ``ValueError`` naming it)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**DEFAULT_PARAMS, **(params or {})}
        unknown = set(merged) - set(DEFAULT_PARAMS)
        if unknown:
            raise ValueError(f"python_piquet has no parameter {sorted(unknown)[0]!r} "
                             f"(known: {', '.join(DEFAULT_PARAMS)})")
        self.variant = str(merged["variant"])
        self.scope = str(merged["scope"])
        if self.scope not in ("deal", "partie"):
            raise ValueError(f"python_piquet: scope must be 'deal' or 'partie', not {self.scope!r}")
        text = str(merged["options"]).strip()
        self.options = parse_options([item for item in text.split(",") if item.strip()]) if text else {}
        make_rules(self.variant, self.options)  # an unknown variant or option raises here, naming it
        self.first_dealer = int(merged["first_dealer"])
        if self.first_dealer not in (-1, 0, 1):
            raise ValueError(f"python_piquet: first_dealer must be 0, 1 or -1 (cut), not {self.first_dealer!r}")
        super().__init__(GAME_TYPE, _game_info(self.scope), merged)

    def new_initial_state(self) -> PiquetState:
        return PiquetState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PiquetObserver:
        if params:
            raise ValueError(f"python_piquet's observer takes no parameters, not {params!r}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return PiquetObserver(perfect_recall)


class PiquetState(pyspiel.State):  # type: ignore[misc]
    """A state: the engine's partie, the selection being made, the chance cards of a deal not yet whole,
    and what each player has seen, in order (his information state).

    All of it is a :class:`Run`, the state's one attribute: each of OpenSpiel's calls reads it once and goes on
    in a plain object (an attribute of an OpenSpiel state, a pybind11 object, costs a few times one of a plain
    object to read, and a step reads dozens). ``partie``, ``selection``, ``drawn``, ``seen`` and ``deal_ids``
    read the run's."""

    def __init__(self, game: PiquetGame) -> None:
        super().__init__(game)
        first = None if game.first_dealer < 0 else game.first_dealer
        self._run = Run(Partie(("North", "South"), game.variant, game.options, first_dealer=first), game.scope)

    @property
    def partie(self) -> Partie:
        return self._run.partie

    @property
    def scope(self) -> str:
        return self._run.scope

    @property
    def selection(self) -> Selection:
        return self._run.selection

    @property
    def drawn(self) -> list[int]:
        """The cards chance has drawn for the cut or the deal being made."""
        return self._run.drawn

    @property
    def seen(self) -> tuple[list[object], list[object]]:
        """What each player has seen, in order: his information state (each item's ``str`` is its words)."""
        return self._run.seen

    @property
    def deal_ids(self) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """Each player's ids in this deal as he saw them: (who, id), ``who`` 0 for himself."""
        return self._run.deal_ids

    # ------------------------------------------------------------------ the API
    def current_player(self) -> int:
        return self._run.player

    def is_terminal(self) -> bool:
        return self._run.terminal

    def is_chance_node(self) -> bool:
        # OpenSpiel's own asks current_player of the Python state: answered here at once, the same answer.
        return self._run.player == _CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal ids of ``player`` (by default the player to act), or at a chance node the cards chance may
        draw, as OpenSpiel's ``legal_actions`` gives them, answered here without its calls back into the state
        (each of which crosses from C++ into Python)."""
        return self._run.legal_actions(player)

    def _legal_actions(self, player: int) -> list[int]:
        return self._run.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        run = self._run
        drawn = run.drawn_mask
        outcomes = _OUTCOMES[len(run.drawn)]
        return [outcomes[c] for c in range(32) if not drawn >> c & 1]

    def _apply_action(self, action: int) -> None:
        self._run.apply(int(action))

    def returns(self) -> list[float]:
        run = self._run
        if not run.terminal:
            return [0.0, 0.0]
        if run.scope == "deal":
            score = run.partie.deal_scores[0]
            if score.annulled:
                return [0.0, 0.0]
            diff = float(score.multiplier * (score.totals[0] - score.totals[1]))
            return [diff, -diff]
        result = run.partie.result
        assert result is not None
        if result.winner is None:
            return [0.0, 0.0]
        won = float(result.points)
        return [won, -won] if result.winner == 0 else [-won, won]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {Card(action)}"
        return action_name(int(action))

    def __str__(self) -> str:
        p = self.partie
        hands = " / ".join(str(p.hand(seat)) for seat in (0, 1))
        talon = " ".join(str(c) for c in p.talon())
        return (f"{p.variant} deal {p.deal_number}, {p.phase.value}, to act {p.to_act}; hands {hands}; "
                f"talon {talon}; trick {' '.join(str(c) for c in p.trick)}; totals {p.totals}; "
                f"selection {selection_text(self.selection)}")

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PiquetState:
        """A state the player cannot tell from this one, its hidden cards drawn by the project's inference
        (:class:`piquet.ai.inference.Inference`: consistent with everything he saw and weighted by what the
        opponent's choices suggest). Earlier deals of a partie are kept as they were played."""
        from piquet.research.openspiel.resampling import resample  # it builds states: a floor above this class

        seed = int(float(probability_sampler()) * 2**31)
        return resample(self, player_id, random.Random(seed))


class Run:
    """What a state of ``python_piquet`` is: the partie, the selection under way, the chance cards of a cut or a
    deal not yet whole, what each player has seen, and what the tensors are made of, kept up to date as the
    state moves on rather than read again from the whole deal at each step: each player's ids of the deal (the
    history), the cards each has played, and a version that changes whenever a tensor may.

    A copy (OpenSpiel's ``clone``) or a pickle carries all that; what the run keeps only to save work (the
    decision under way, both players' tensors but their history as of the last engine action: a :class:`_Memo`)
    is made again when first needed."""

    __slots__ = ("deal_ids", "drawn", "drawn_mask", "log_seen", "memo", "partie", "played", "player", "private",
                 "pushes", "rows", "scope", "seen", "selection", "settled", "terminal", "token", "version")

    def __init__(self, partie: Partie, scope: str) -> None:
        self.partie = partie
        self.scope = scope
        self.selection: Selection = EMPTY
        #: The cards chance has drawn for the cut or the deal being made (and as a mask).
        self.drawn: list[int] = []
        self.drawn_mask = 0
        #: What each player has seen, in order (each item's ``str`` is its words).
        self.seen: tuple[list[object], list[object]] = ([], [])
        #: Each player's ids in this deal as he saw them: (who, id), ``who`` 0 for himself; and where each is
        #: in the information-state tensor (its history row and column, flat). Only ever added to; a new deal
        #: starts new lists (so an observer that wrote a list's start writes only what was added since).
        self.deal_ids: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
        self.rows: tuple[list[int], list[int]] = ([], [])
        #: The deal and the length of its log when the players last heard it; each player's own cards then.
        self.log_seen = (0, 0)
        self.private: list[_Private | None] = [None, None]
        #: The cards each player has played in this deal (masks).
        self.played = [0, 0]
        #: How many engine actions the run has pushed, and how many it had after the last one that was not a
        #: card played on in the play, after the first lead (such a card changes a few pieces of the tensors
        #: only, see Scene).
        self.pushes = 0
        self.settled = 0
        #: Changes whenever a tensor may: at each engine action and each id of a selection (not at a chance
        #: card before the deal is whole: the players see nothing of it until then).
        self.version = 0
        #: Who this run is, to an observer that wrote it last (a copy is another).
        self.token = object()
        self.memo = _Memo()
        #: Whether the game is over, and whose turn it is (OpenSpiel's current player), found at each engine
        #: action.
        self.terminal = False
        self.player = self._whose_turn()

    def __deepcopy__(self, memo: dict[int, object]) -> Run:
        other = copy.copy(self)
        other.partie = self.partie.copy()
        other.drawn = list(self.drawn)
        other.seen = (list(self.seen[0]), list(self.seen[1]))  # their items never change: shared
        other.deal_ids = (list(self.deal_ids[0]), list(self.deal_ids[1]))
        other.rows = (list(self.rows[0]), list(self.rows[1]))
        other.private = list(self.private)
        other.played = list(self.played)
        other.token = object()
        other.memo = _Memo()
        return other

    def _whose_turn(self) -> int:
        p = self.partie
        phase = p.phase
        # A deal's scores come only as it ends, when the next is due or the partie is over.
        self.terminal = phase is Phase.OVER or (self.scope == "deal" and phase in CHANCE_PHASES
                                                 and bool(p.deal_scores))
        if self.terminal:
            return _TERMINAL
        if phase in CHANCE_PHASES:
            return _CHANCE
        seat = p.to_act
        assert seat is not None
        return seat

    def legal_actions(self, player: int | None) -> list[int]:
        if self.terminal:
            return []
        if self.player == _CHANCE:
            drawn = self.drawn_mask
            return [c for c in range(32) if not drawn >> c & 1]
        if player is None:
            player = self.player
        elif player < 0:
            raise ValueError(f"python_piquet: legal actions asked for pseudo-player {player}")
        if player != self.player:
            return []
        return list(self.decision().ids(self.selection))

    def decision(self) -> Decision:
        """The decision of the player to act, made once per position."""
        memo = self.memo
        if memo.decided != self.pushes:
            memo.decision = Decision(self.partie)
            memo.decided = self.pushes
        assert memo.decision is not None
        return memo.decision

    def apply(self, action: int) -> None:
        seat = self.player
        if seat == _CHANCE:
            self._draw(action)
            return
        if self.terminal:
            raise ValueError(f"python_piquet: the game is over: action {action!r} cannot be applied")
        decision = self.decision()
        self.selection, done = decision.apply(self.selection, action)
        self.seen[seat].append(_ID_NAMES[action])
        ids = self.deal_ids[seat]
        self.rows[seat].append((2 * len(ids)) * NUM_ACTIONS + action)
        ids.append((0, action))
        if not (action < _HIDDEN_BELOW and decision.phase in _SELECTING):
            ids = self.deal_ids[1 - seat]
            self.rows[1 - seat].append((2 * len(ids) + 1) * NUM_ACTIONS + action)
            ids.append((1, action))
        self.version += 1
        if done is not None:
            self._push(done)

    def _draw(self, card: int) -> None:
        if not 0 <= card < 32 or self.drawn_mask >> card & 1:
            raise ValueError(f"chance cannot draw card {card!r} now (drawn so far: {self.drawn})")
        p = self.partie
        drawn = self.drawn
        drawn.append(card)
        self.drawn_mask |= 1 << card
        if p.phase is Phase.CUT:
            for seat in (0, 1):
                self.seen[seat].append(_CUT_TEXT[card])
            if len(drawn) == 2:
                cut = Cut(0, (Card(drawn[0]), Card(drawn[1])))
                self.drawn = []
                self.drawn_mask = 0
                self._push(cut)
            return
        dealer = p.dealer
        assert dealer is not None
        position = len(drawn) - 1
        if position < 24:
            self.seen[1 - dealer if position < 12 else dealer].append(_DEALT_TEXT[card])
        elif position == 31:
            hands = [CardSet(), CardSet()]
            hands[1 - dealer] = CardSet(drawn[:12])
            hands[dealer] = CardSet(drawn[12:24])
            deal = Deal(dealer, (hands[0], hands[1]), tuple(Card(c) for c in drawn[24:]))
            self.drawn = []
            self.drawn_mask = 0
            self.deal_ids = ([], [])
            self.rows = ([], [])
            self.played = [0, 0]
            self._push(deal)

    def _push(self, action: Any) -> None:
        p = self.partie
        p.push(action)
        self.pushes += 1
        self.version += 1
        self.player = self._whose_turn()
        if type(action) is Play:
            played = self.played
            first = not (played[0] | played[1])  # elder's first lead: younger reckons, the rest may be shown
            played[action.player] |= 1 << action.card
            if not first and self.player >= 0:
                # A card played on (the play going on) changes, of what the players see, the log, its player's
                # hand (the card leaves it) and what Scene.play reads again.
                self._hear()
                before = self.private[action.player]
                assert before is not None
                hand, discards, peeked, rest = before.masks
                private = self.private[action.player] = _Private(hand & ~(1 << action.card), discards, peeked, rest)
                self.seen[action.player].append(private)
                return
        self.settled = self.pushes
        self._hear()
        views = (p.view(0), p.view(1))
        self.memo.views = (self.pushes, views)  # for Scene, if a tensor is read before the partie moves on
        for seat in (0, 1):
            view = views[seat]
            private = _Private(view.hand.mask, view.discards.mask, view.peeked.mask, view.rest.mask)
            if private != self.private[seat]:
                self.private[seat] = private
                self.seen[seat].append(private)

    def _hear(self) -> None:
        """The log's new entries, which both players heard or saw, added to what each has seen."""
        p = self.partie
        logs = p.logs()
        log = logs[-1] if logs else ()
        number, count = self.log_seen
        new = log if p.deal_number != number else log[count:]
        self.log_seen = (p.deal_number, len(log))
        if new:
            said = _Said(new)
            self.seen[0].append(said)
            self.seen[1].append(said)

    def scene(self) -> Scene:
        """Both players' fixed tensor parts as of the last engine action: made anew after any action but a card
        played on in the play, after which only what a card changes is read again."""
        scene = self.memo.scene
        if scene is None:
            scene = self.memo.scene = Scene()
        if scene.pushes < self.settled:
            scene.settle(self)
        elif scene.pushes != self.pushes:
            scene.play(self)
        return scene


class _Said:
    """New entries of a deal's log, as a player saw them: their words (``repr``), made when read. Never changed,
    so a copy of the state shares it."""

    __slots__ = ("entries",)

    def __init__(self, entries: tuple[Any, ...]) -> None:
        self.entries = entries

    def __str__(self) -> str:
        return "; ".join(repr(entry) for entry in self.entries)

    def __reduce__(self) -> tuple[type[_Said], tuple[tuple[Any, ...]]]:
        return _Said, (self.entries,)


class _Private:
    """A player's own cards where they changed (hand, discards, the talon's cards he looked at, the rest
    shown), as masks: their words made when read. Never changed, so a copy of the state shares it."""

    __slots__ = ("masks",)

    def __init__(self, hand: int, discards: int, peeked: int, rest: int) -> None:
        self.masks = (hand, discards, peeked, rest)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Private) and self.masks == other.masks

    def __hash__(self) -> int:
        return hash(self.masks)

    def __str__(self) -> str:
        hand, discards, peeked, rest = (CardSet(m) for m in self.masks)
        return f"hand {hand} discards {discards} peeked {peeked} rest {rest}"

    def __reduce__(self) -> tuple[type[_Private], tuple[int, int, int, int]]:
        return _Private, self.masks


class _Memo:
    """What a run keeps only to save work: the decision under way (made once per position), the players' views
    made after the last engine action (but a card played on) and their :class:`Scene`. A copy or a pickle
    starts with none: a decision made for one partie is not the copy's."""

    __slots__ = ("decided", "decision", "scene", "views")

    def __init__(self) -> None:
        self.decision: Decision | None = None
        self.decided = -1
        self.scene: Scene | None = None
        self.views: tuple[int, tuple[PlayerView, PlayerView]] | None = None

    def __reduce__(self) -> tuple[type[_Memo], tuple[()]]:
        return _Memo, ()
