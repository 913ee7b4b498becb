"""Piquet as an OpenSpiel game, registered on import as ``python_piquet``.

>>> import pyspiel
>>> import piquet.research.openspiel
>>> game = pyspiel.load_game("python_piquet", {"variant": "auction", "scope": "deal"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 32)

The deal is chance, a card at a time (the non-dealer's twelve, the dealer's twelve, then the talon top
first), and so is the cut of a partie (two cards); every decision is made with the ids of
:mod:`piquet.research.encoding`, one card at a time, and the engine decides what is legal. Parameters:

- ``variant``: ``rubicon`` (the default), ``auction`` or ``au-cent``;
- ``options``: rule options as ``name=value`` pairs separated by commas (``piquet/data/rules.md``);
- ``scope``: ``deal`` (one deal; the returns are the deal's points, the player's less his opponent's)
  or ``partie`` (to the settlement; the winner's return is what the settlement gives him, the loser's
  its negative);
- ``first_dealer``: the seat who deals first (0 by default), or -1 to cut for deal (Law 4) as chance.

``docs/research.md`` has the encoding table, the tensors and the measured speed.
"""

from __future__ import annotations

import copy
import random
from array import array
from collections.abc import Iterable
from typing import Any

import numpy as np
import pyspiel

from piquet.ai.inference import Inference, World
from piquet.engine.actions import Cut, Deal, Declare, Exchange, Play
from piquet.engine.cards import Card, CardSet
from piquet.engine.combinations import Category
from piquet.engine.events import FirstLead
from piquet.engine.partie import Partie, Phase
from piquet.engine.scoring import ScoreEvent
from piquet.engine.variants import make_rules, parse_options
from piquet.engine.view import PlayerView
from piquet.research.encoding import (
    CALLS,
    EMPTY,
    NUM_ACTIONS,
    SINK,
    Decision,
    Selection,
    action_name,
    encode,
)

__all__ = ["DEFAULT_PARAMS", "GAME_TYPE", "HISTORY", "PiquetGame", "PiquetObserver", "PiquetState", "resample",
           "state_from_view", "tensor_from_scratch"]

#: Each parameter and its default.
DEFAULT_PARAMS: dict[str, Any] = {"variant": "rubicon", "options": "", "scope": "deal", "first_dealer": 0}
#: The most ids of one deal the information-state tensor recalls (a deal takes some 60 to 150).
HISTORY = 256
#: The most deals a partie may take before the adapter calls it too long (Piquet au Cent's games and
#: Auction's annulled deals have no bound of their own); far beyond any partie measured.
MAX_DEALS = 60
#: The most ids of one deal: an auction (15 calls, 4 doubles), carte blanche, two exchanges of five cards,
#: six declarations of at most twelve cards and their separators, a concession and 24 cards.
_DEAL_IDS = 22 + 2 + 14 + 6 * 16 + 3 + 24

GAME_TYPE = pyspiel.GameType(
    short_name="python_piquet",
    long_name="Piquet (Rubicon, Auction, au Cent)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)

_CHANCE_PHASES = (Phase.CUT, Phase.DEAL)
#: The phases between deals (a deal's scores and the partie's totals change as one ends).
_BETWEEN_DEALS = (Phase.CUT, Phase.CHOOSE_DEALER, Phase.DEAL, Phase.OVER)
_PHASES = tuple(Phase)
_CATEGORIES = tuple(Category)
_ANSWERS = ("good", "not good", "equal")
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
    bound = 1000.0 if scope == "deal" else 10000.0
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

    All of it is a :class:`_Run`, the state's one attribute: each of OpenSpiel's calls reads it once and goes on
    in a plain object (an attribute of an OpenSpiel state, a pybind11 object, costs a few times one of a plain
    object to read, and a step reads dozens). ``partie``, ``selection``, ``drawn``, ``seen`` and ``deal_ids``
    read the run's."""

    def __init__(self, game: PiquetGame) -> None:
        super().__init__(game)
        first = None if game.first_dealer < 0 else game.first_dealer
        self._run = _Run(Partie(("North", "South"), game.variant, game.options, first_dealer=first), game.scope)

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
                f"selection {_selection_text(self.selection)}")

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PiquetState:
        """A state the player cannot tell from this one, its hidden cards drawn by the project's inference
        (:class:`piquet.ai.inference.Inference`: consistent with everything he saw and weighted by what the
        opponent's choices suggest). Earlier deals of a partie are kept as they were played."""
        seed = int(float(probability_sampler()) * 2**31)
        return resample(self, player_id, random.Random(seed))


class _Run:
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
        #: only, see _Scene).
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

    def __deepcopy__(self, memo: dict[int, object]) -> _Run:
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
        self.terminal = phase is Phase.OVER or (self.scope == "deal" and phase in _CHANCE_PHASES
                                                 and bool(p.deal_scores))
        if self.terminal:
            return _TERMINAL
        if phase in _CHANCE_PHASES:
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
                # hand (the card leaves it) and what _Scene.play reads again.
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
        self.memo.views = (self.pushes, views)  # for _Scene, if a tensor is read before the partie moves on
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

    def scene(self) -> _Scene:
        """Both players' fixed tensor parts as of the last engine action: made anew after any action but a card
        played on in the play, after which only what a card changes is read again."""
        scene = self.memo.scene
        if scene is None:
            scene = self.memo.scene = _Scene()
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
    made after the last engine action (but a card played on) and their :class:`_Scene`. A copy or a pickle
    starts with none: a decision made for one partie is not the copy's."""

    __slots__ = ("decided", "decision", "scene", "views")

    def __init__(self) -> None:
        self.decision: Decision | None = None
        self.decided = -1
        self.scene: _Scene | None = None
        self.views: tuple[int, tuple[PlayerView, PlayerView]] | None = None

    def __reduce__(self) -> tuple[type[_Memo], tuple[()]]:
        return _Memo, ()


def _selection_text(selection: Selection) -> str:
    parts = [str(CardSet(m)) for m in (*selection.done, selection.cards) if m]
    return " | ".join(parts) or "-"


# ---------------------------------------------------------------------- observations
def _pieces(perfect_recall: bool) -> list[tuple[str, tuple[int, ...]]]:
    pieces: list[tuple[str, tuple[int, ...]]] = [
        ("player", (2,)),
        ("phase", (len(_PHASES),)),
        ("roles", (3,)),  # to act, elder, dealer: each 1 if this player
        ("cards", (len(_CARD_PLANES), 32)),
        ("counts", (8,)),
        ("scores", (7,)),
        ("announcements", (len(_CATEGORIES), 2 + len(_ANSWERS))),
        ("bids", (2, len(CALLS))),
    ]
    if perfect_recall:
        pieces.append(("history", (HISTORY, 2, NUM_ACTIONS)))
    return pieces


#: The card planes of the tensors, in order ("me" is the observing player).
_CARD_PLANES = ("hand", "dealt", "discards", "peeked", "rest", "opponent shown dealt", "revealed by me",
                "revealed by opponent", "played by me", "played by opponent", "trick", "selection",
                "selection done")
#: Where the card planes begin and end in the tensor, and where the tensor's fixed part ends (the counts,
#: scores, announcements and bids follow the planes; then, in the information state, the history).
_PLANES_AT = 2 + len(_PHASES) + 3
_PLANES_END = _PLANES_AT + 32 * len(_CARD_PLANES)
_FIXED_END = _PLANES_END + 8 + 7 + 3 * (2 + len(_ANSWERS)) + 2 * len(CALLS)
#: Where some figures are in the tensor: the roles (to act first), the counts (tricks won first), the scores
#: (the deal's points first).
_ROLES = 2 + len(_PHASES)
_COUNTS = _PLANES_END
_SCORES = _COUNTS + 8
#: The selection's two planes (the combination under way, the combinations finished), the last: where they are.
_SELECTION_PLANE = _CARD_PLANES.index("selection")
_SELECTION_AT = _PLANES_AT + 32 * _SELECTION_PLANE


def _layout(perfect_recall: bool, out: np.ndarray[Any, Any] | None = None,
            ) -> tuple[np.ndarray[Any, Any], dict[str, np.ndarray[Any, Any]]]:
    """A zero tensor (``out``, zeroed, if given) and its named pieces (views of it)."""
    pieces = _pieces(perfect_recall)
    size = sum(int(np.prod(shape)) for _, shape in pieces)
    if out is None:
        tensor = np.zeros(size, np.float32)
    else:
        if out.shape != (size,) or out.dtype != np.float32 or not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError(f"python_piquet's observer writes into a writeable, contiguous float32 array of {size} "
                             f"floats, not {out.dtype} of shape {out.shape}")
        tensor = out
        tensor.fill(0)
    named: dict[str, np.ndarray[Any, Any]] = {}
    index = 0
    for name, shape in pieces:
        size = int(np.prod(shape))
        named[name] = tensor[index:index + size].reshape(shape)
        index += size
    return tensor, named


def _trick_mask(trick: tuple[Card, ...]) -> int:
    mask = 0
    for card in trick:
        mask |= 1 << card
    return mask


def _write_bits(out: np.ndarray[Any, Any] | array[float], at: int, mask: int, value: float) -> None:
    """``value`` at ``out[at + card]`` for each card of ``mask``."""
    while mask:
        low = mask & -mask
        out[at + low.bit_length() - 1] = value
        mask ^= low


class _Scene:
    """What each player sees of the partie after an engine action, but his selection and his history: the fixed
    part of his tensor (player, phase, roles, the card planes but the selection's, counts, scores, announcements
    and bids), a row each (``rows``, as plain float arrays, and ``arrays``, numpy's views of them, which
    :class:`PiquetObserver` copies), with the masks of its eleven card planes.

    Kept by a run for the whole of it, and brought up to date, writing only what changed: from the players'
    views after any engine action but a card played on (after the first lead, the play going on), the public
    part read once for both (:meth:`settle`); after such cards, only what a card changes (:meth:`play`): the
    hands, the cards played, the trick, who is to act, the tricks won and the deal's points. The tests hold the
    tensors to :func:`tensor_from_scratch` over many random games."""

    __slots__ = ("arrays", "deal", "each_deal", "masks", "pushes", "rows")

    def __init__(self) -> None:
        self.rows = (array("f", bytes(4 * _FIXED_END)), array("f", bytes(4 * _FIXED_END)))
        self.arrays = (np.frombuffer(self.rows[0], np.float32), np.frombuffer(self.rows[1], np.float32))
        self.masks = ([0] * _SELECTION_PLANE, [0] * _SELECTION_PLANE)
        #: The run's engine actions when it was last brought up to date.
        self.pushes = -1
        #: What changes only as a deal begins or ends (the dealer, the partie's totals and game scores, the deal's
        #: number, the hands as dealt), and the number of the deal they are of.
        self.deal = -1
        self.each_deal: tuple[Any, ...] = ()

    def settle(self, run: _Run) -> None:
        """Brought up to date from the players' views."""
        made = run.memo.views
        p = run.partie
        views = made[1] if made is not None and made[0] == run.pushes else (p.view(0), p.view(1))
        public = views[0]  # what both players see alike, read once
        phase = 2 + _PHASES.index(public.phase)
        to_act, elder = public.to_act, public.elder  # (elder: Auction Piquet's contract may change him)
        # What changes only as a deal begins or ends, read then (and between deals: the cut, the dealer chosen).
        if p.deal_number != self.deal or public.phase in _BETWEEN_DEALS:
            self.deal = p.deal_number
            self.each_deal = (public.dealer, public.totals, public.game_scores, public.deal_number / 12,
                              (views[0].dealt.mask, views[1].dealt.mask))
        dealer, totals, games, deal_number, dealt = self.each_deal
        exchanged = [x if x is not None else 0 for x in public.exchanged]
        will_exchange = (public.will_exchange or 0) / 5
        blanche = public.carte_blanche
        won = public.tricks_won
        talon_left = public.talon_left / 8
        points = public.deal_points
        rest = public.rest.mask
        shown = [s.mask for s in public.shown_dealt]
        revealed = [r.mask for r in public.revealed]
        trick = _trick_mask(public.trick)
        played = run.played
        announcements = [0.0] * (3 * (2 + len(_ANSWERS)))
        for a in public.announcements:
            at = (2 + len(_ANSWERS)) * _CATEGORIES.index(a.category)
            announcements[at] = a.length is not None
            announcements[at + 1] = (a.length or 0) / 8
            if a.answer is not None:
                announcements[at + 2 + _ANSWERS.index(a.answer)] = 1.0
        calls = ([0.0] * len(CALLS), [0.0] * len(CALLS))
        for bid in public.bids:
            calls[bid.player][CALLS.index(bid.call)] = 1.0
        for me in (0, 1):
            opp = 1 - me
            head = [0.0] * _PLANES_AT
            head[me] = 1.0
            head[phase] = 1.0
            head[_ROLES:_ROLES + 3] = (to_act == me, elder == me, dealer == me)
            tail = [won[me] / 12, won[opp] / 12, talon_left, exchanged[me] / 8, exchanged[opp] / 8, will_exchange,
                    blanche[me], blanche[opp], points[me] / 100, points[opp] / 100, totals[me] / 100,
                    totals[opp] / 100, games[me] / 100, games[opp] / 100, deal_number,
                    *announcements, *calls[me], *calls[opp]]
            row = self.rows[me]
            row[:_PLANES_AT] = array("f", head)
            row[_PLANES_END:] = array("f", tail)
            view = views[me]
            self._planes(me, enumerate((view.hand.mask, dealt[me], view.discards.mask, view.peeked.mask, rest,
                                        shown[opp], revealed[me], revealed[opp], played[me], played[opp], trick)))
        self.pushes = run.pushes

    def play(self, run: _Run) -> None:
        """Brought up to date after cards played on in the play (and nothing else) since it was last. What a card
        changes for both players is public, read from the partie's own public figures (as every view has them):
        the trick, the tricks won, the deal's score events; the hands and the cards played, the run keeps."""
        p = run.partie
        trick = _trick_mask(p.trick)
        to_act = run.player
        won = p.tricks_won
        points = [0, 0]  # the deal's points (PlayerView.deal_points), in one pass over its events
        for event in p.events:
            points[event.player] += event.points
        played = run.played
        for me in (0, 1):
            opp = 1 - me
            own = run.private[me]
            assert own is not None
            self._planes(me, ((0, own.masks[0]), (8, played[me]), (9, played[opp]), (10, trick)))
            row = self.rows[me]
            row[_ROLES] = to_act == me
            row[_COUNTS] = won[me] / 12
            row[_COUNTS + 1] = won[opp] / 12
            row[_SCORES] = points[me] / 100
            row[_SCORES + 1] = points[opp] / 100
        self.pushes = run.pushes

    def _planes(self, me: int, masks: Iterable[tuple[int, int]]) -> None:
        """Card planes of ``me``'s row, (plane, mask) each: the cards that changed since they were written."""
        row = self.rows[me]
        old = self.masks[me]
        for plane, now in masks:
            was = old[plane]
            if was != now:
                at = _PLANES_AT + 32 * plane
                _write_bits(row, at, was & ~now, 0.0)
                _write_bits(row, at, now & ~was, 1.0)
                old[plane] = now


class PiquetObserver:
    """OpenSpiel's Python observer: a flat float tensor with named views (``dict``) and a string, for a
    player at a state. With perfect recall (the information state) the tensor adds the deal's history of
    ids as the player saw them, and the string is everything he has seen, in order.

    ``set_from`` builds nothing from the whole deal: it copies the tensor's fixed part as the state keeps it up
    to date (a few hundred floats), writes the selection's cards, and of the history only the ids added since
    it last wrote the same player of the same state (all of them when it wrote another); asked again of the same
    state, player and step, it writes nothing. So the tensor is the observer's own: read it or copy it, never
    write into it (as OpenSpiel says of its observations, it is updated in place). One observer for each player
    read at every step writes least. ``out``, if given, is the array it writes into (a row of a batch), which
    it zeroes."""

    def __init__(self, perfect_recall: bool, out: np.ndarray[Any, Any] | None = None) -> None:
        self.perfect_recall = perfect_recall
        self.tensor, self.dict = _layout(perfect_recall, out)
        self._fixed = self.tensor[:_FIXED_END]
        self._history = self.dict["history"].reshape(-1) if perfect_recall else None
        #: What the tensor holds: the state (its token), player and version written last; the history's flat
        #: indices written from (a state's list, only ever added to) and how many of them are set.
        self._written: tuple[object, int, int] | None = None
        self._rows: list[int] = []
        self._count = 0

    def set_from(self, state: PiquetState, player: int) -> None:
        run = state._run
        written = (run.token, player, run.version)
        if written == self._written:
            return
        self._fixed[:] = run.scene().arrays[player]
        selection = run.selection
        if selection.cards | selection.chosen and run.player == player:
            _write_bits(self._fixed, _SELECTION_AT, selection.cards, 1.0)
            _write_bits(self._fixed, _SELECTION_AT + 32, selection.chosen & ~selection.cards, 1.0)
        if self._history is not None:
            self._write_history(run, player)
        self._written = written

    def _write_history(self, run: _Run, player: int) -> None:
        """The history's rows: the ids added to the list written last, or all of them anew."""
        flat = self._history
        assert flat is not None
        rows = run.rows[player]
        count = self._count
        if rows is self._rows and count <= len(rows) <= HISTORY:
            if len(rows) == count + 1:
                flat[rows[count]] = 1.0  # the common step: one id more
            elif len(rows) > count:
                flat[rows[count:]] = 1.0
        else:
            flat[self._rows[:count]] = 0.0
            if len(rows) > HISTORY:
                # A window that slid: its rows made anew, and written anew at each call.
                rows = [(2 * step + who) * NUM_ACTIONS + action
                        for step, (who, action) in enumerate(run.deal_ids[player][-HISTORY:])]
            flat[rows] = 1.0
        self._rows = rows
        self._count = len(rows)

    def string_from(self, state: PiquetState, player: int) -> str:
        if self.perfect_recall:
            return f"p{player}: " + "; ".join(str(item) for item in state.seen[player])
        return observation_text(state.partie.view(player), state.selection if state.partie.to_act == player
                                else EMPTY)


def tensor_from_scratch(state: PiquetState, player: int, perfect_recall: bool) -> np.ndarray[Any, Any]:
    """The tensor of ``player`` at ``state`` (the information state with ``perfect_recall``), read from his view,
    his selection and the deal's ids alone, every piece written anew: what :class:`PiquetObserver` keeps up to
    date step by step, and what the tests hold it to."""
    tensor, d = _layout(perfect_recall)
    view = state.partie.view(player)
    me, opp = player, 1 - player
    d["player"][player] = 1
    d["phase"][_PHASES.index(view.phase)] = 1
    d["roles"][:] = (view.to_act == me, view.elder == me, view.dealer == me)
    planes = d["cards"]
    played = [_played_by(view, 0), _played_by(view, 1)]
    own = state.selection if view.to_act == me else EMPTY
    masks = (view.hand.mask, view.dealt.mask, view.discards.mask, view.peeked.mask, view.rest.mask,
             view.shown_dealt[opp].mask, view.revealed[me].mask, view.revealed[opp].mask, played[me],
             played[opp], CardSet(view.trick).mask, own.cards, own.chosen & ~own.cards)
    for row, mask in enumerate(masks):
        for card in range(32):
            if mask >> card & 1:
                planes[row, card] = 1
    exchanged = [x if x is not None else 0 for x in (view.exchanged[me], view.exchanged[opp])]
    d["counts"][:] = (view.tricks_won[me] / 12, view.tricks_won[opp] / 12, view.talon_left / 8,
                      exchanged[0] / 8, exchanged[1] / 8, (view.will_exchange or 0) / 5,
                      view.carte_blanche[me], view.carte_blanche[opp])
    points = view.deal_points
    d["scores"][:] = (points[me] / 100, points[opp] / 100, view.totals[me] / 100, view.totals[opp] / 100,
                      view.game_scores[me] / 100, view.game_scores[opp] / 100, view.deal_number / 12)
    for a in view.announcements:
        row = d["announcements"][_CATEGORIES.index(a.category)]
        row[0] = a.length is not None
        row[1] = (a.length or 0) / 8
        if a.answer is not None:
            row[2 + _ANSWERS.index(a.answer)] = 1
    for bid in view.bids:
        d["bids"][0 if bid.player == me else 1, CALLS.index(bid.call)] = 1
    if perfect_recall:
        history = d["history"]
        for step, (who, action) in enumerate(state.deal_ids[player][-HISTORY:]):
            history[step, who, action] = 1
    return tensor


def observation_text(view: PlayerView, selection: Selection) -> str:
    """What a player sees now, in one line (the observation string)."""
    trick = " ".join(str(c) for c in view.trick) or "-"
    calls = ", ".join(f"{a.category.value} {a.length}{'' if a.answer is None else ' ' + a.answer}"
                      for a in view.announcements) or "-"
    bids = " ".join(f"{b.player}:{b.call}" for b in view.bids) or "-"
    return (f"p{view.seat} deal {view.deal_number} {view.phase.value} to act {view.to_act} elder {view.elder}; "
            f"hand {view.hand}; discards {view.discards or '-'}; peeked {view.peeked or '-'}; "
            f"rest {view.rest or '-'}; revealed {view.revealed[0] or '-'} / {view.revealed[1] or '-'}; "
            f"calls {calls}; bids {bids}; trick {trick}; tricks {view.tricks_won}; "
            f"deal points {view.deal_points}; totals {view.totals}; selection {_selection_text(selection)}")


# ---------------------------------------------------------------------- resampling
def resample(state: PiquetState, player: int, rng: random.Random, attempts: int = 40) -> PiquetState:
    """A state with the same information state for ``player``, the hidden cards of the current deal drawn
    from :class:`~piquet.ai.inference.Inference`'s worlds; raises ``ValueError`` if it is asked of a
    chance node, during the opponent's selection, or no world could be replayed in ``attempts``."""
    p = state.partie
    if state.is_terminal() or p.phase in _CHANCE_PHASES or state.drawn:
        raise ValueError("python_piquet resamples a state only between the deal and its end, not at chance "
                         "or at the end")
    if p.to_act != player and not state.selection.empty:
        raise ValueError(f"python_piquet cannot resample for player {player} while his opponent is in the middle "
                         "of a selection")
    want = state.information_state_string(player)
    worlds = Inference(p.view(player)).resample(rng, attempts, pool=2)
    for world in worlds:
        built = _replay(state, player, world, rng)
        if built is not None and built.information_state_string(player) == want:
            return built
    raise ValueError(f"python_piquet: no world of the inference replayed the deal for player {player} "
                     f"({len(worlds)} tried)")


def state_from_view(view: PlayerView, rng: random.Random, attempts: int = 40) -> PiquetState:
    """A one-deal state (``scope`` ``deal``) the view's player cannot tell from the deal he is in, its
    hidden cards drawn by the inference: how an OpenSpiel bot plays a seat of the project's own games (the
    arena, the interfaces), which hand it only a view. Earlier deals are not part of it. Raises
    ``ValueError`` if the view is not of a player in a deal, or no world replayed the deal's log."""
    me = view.seat
    if me is None or view.dealer is None or view.phase in _CHANCE_PHASES or view.phase is Phase.OVER:
        raise ValueError("python_piquet builds a state from the view of a player in a deal, not "
                         f"{'a spectator' if me is None else 'at the ' + view.phase.value}")
    game = pyspiel.load_game("python_piquet", {
        "variant": view.variant, "first_dealer": view.dealer,
        "options": ",".join(f"{k}={str(v).lower()}" for k, v in view.options.items())})
    for world in Inference(view).resample(rng, attempts, pool=2):
        order = _world_deal(view, world, _cards(view.dealt.mask), rng)
        if order is None:
            continue
        state: PiquetState = game.new_initial_state()
        # The players' names, which the words of a score may hold (an Auction minus contract scores the
        # holder's combination to the opponent: "Ann's point of five"), as the view's log has them.
        state.partie.players = view.players
        for card in order:
            state.apply_action(card)
        if _follow_log(state, view, world, rng):
            return state
    raise ValueError(f"python_piquet: no world of the inference replayed {view.players[me]}'s deal")


def _world_deal(view: PlayerView, world: World, own_order: list[int], rng: random.Random) -> list[int] | None:
    """The 32 chance cards of a deal in which the view's player holds what he held, in ``own_order``, and
    the opponent and the talon what ``world`` says; ``None`` if the world cannot be dealt so.

    The opponent held her hand, her discards and the cards she played; she drew among those she kept (she
    discarded before she drew), the cards elder looked at in the talon first, unless her hand as dealt was
    shown (carte blanche). Elder drew the top of the talon, younger the next cards; the rest is the world's,
    the cards elder looked at and younger left on top of it.
    """
    me = view.seat
    assert me is not None and view.dealer is not None
    opp = 1 - me
    peeked = view.peeked.mask
    held = world.opponent_hand.mask | world.opponent_discards.mask | _played_by(view, opp)
    count = view.exchanged[opp] or 0
    shown = view.shown_dealt[opp].mask
    if shown:
        drawn = _cards(held & ~shown)
    else:
        kept = held & ~world.opponent_discards.mask
        if (kept & peeked).bit_count() > count:
            return None
        pool = _cards(kept & ~peeked)
        rng.shuffle(pool)
        drawn = (_cards(kept & peeked) + pool)[:count]
    if len(drawn) != count:
        return None
    opp_dealt = _cards(held & ~sum(1 << c for c in drawn))
    rng.shuffle(opp_dealt)
    own_drawn = _cards((view.hand.mask | view.discards.mask | _played_by(view, me)) & ~view.dealt.mask)
    rest = [int(c) for c in world.talon]
    if me == view.elder:
        rest = [c for c in rest if peeked >> c & 1] + [c for c in rest if not peeked >> c & 1]
        talon = own_drawn + drawn + rest
    else:
        talon = drawn + own_drawn + rest
    hands = {me: own_order, opp: opp_dealt}
    order = hands[1 - view.dealer] + hands[view.dealer] + talon
    return order if sorted(order) == list(range(32)) else None


def _follow_log(state: PiquetState, view: PlayerView, world: World, rng: random.Random) -> bool:
    """Play the view's deal so far on ``state``: at each turn the action whose words are the log's next
    entries (the player's own declarations as he made them, the opponent's exchange as the world has it)."""
    me = view.seat
    log = [repr(e) for e in view.log]
    at = 1  # the DealBegun entry is said by the deal itself
    p = state.partie
    reckoning = _reckoning(view)
    reckoned = 0  # how many of them the declarations replayed so far have won
    while not (at >= len(log) and p.phase is view.phase and p.to_act == view.to_act):
        seat = p.to_act
        if seat is None or p.phase in _CHANCE_PHASES or p.ply > 400:
            return False
        if p.phase is Phase.EXCHANGE:
            discards = view.discards if seat == me else world.opponent_discards
            options: list[Any] = [Exchange(seat, discards, show) for show in (False, True)]
            options += [a for a in p.legal_actions(seat).list() if not isinstance(a, Exchange)]
        else:
            options = p.legal_actions(seat).list()
        heard: list[Any] = []
        silent: list[Any] = []
        for option in options:
            if seat == me and isinstance(option, Declare) and option not in view.own_calls:
                continue
            if not p.can(option):
                continue
            before, pending = len(p.logs()[-1]), len(p.unreckoned)
            p.push(option)
            said = [repr(e) for e in p.logs()[-1][before:]]
            won = p.unreckoned[pending:]
            p.pop()
            if won != reckoning[reckoned:reckoned + len(won)]:
                continue
            if said and said == log[at:at + len(said)]:
                heard.append(option)
            elif not said:
                # An action nobody hears now (carte blanche not announced, younger's declaration when elder
                # called nothing: she reckons it at his lead): only if nothing else fits.
                silent.append(option)
        # Younger's declarations that say the same now are told apart by what she reckons at elder's first
        # lead (what the view knows of it); among those that say it all, one is drawn.
        found = rng.choice(heard) if heard else rng.choice(silent) if silent else None
        if found is None:
            return False
        before, pending = len(p.logs()[-1]), len(p.unreckoned)
        for action_id in encode(found):
            state.apply_action(action_id)
        at += len(state.partie.logs()[-1]) - before
        reckoned += max(0, len(p.unreckoned) - pending)
    return at == len(log)


def _reckoning(view: PlayerView) -> tuple[ScoreEvent, ...]:
    """What younger won in the declarations, as she reckons it at elder's first lead: the view's
    ``unreckoned`` before that lead, after it the combinations scored at the lead."""
    if view.unreckoned:
        return view.unreckoned
    for i, entry in enumerate(view.log):
        if isinstance(entry, FirstLead):
            after = []
            for later in view.log[i + 1:]:
                if not isinstance(later, ScoreEvent):
                    break
                if later.combination is not None:
                    after.append(later)
            return tuple(after)
    return ()


def _deal_start(partie: Partie) -> int:
    """The index in ``partie.actions`` of the current deal's Deal action."""
    actions = partie.actions
    for i in range(len(actions) - 1, -1, -1):
        if isinstance(actions[i], Deal):
            return i
    raise ValueError("no deal has been made")


def _replay(state: PiquetState, player: int, world: World, rng: random.Random) -> PiquetState | None:
    """The state's ids replayed with the current deal's hidden cards taken from ``world``, or ``None`` if
    the world does not replay (an opponent's choice it cannot make)."""
    p = state.partie
    view = p.view(player)
    start = _deal_start(p)
    order = _world_deal(view, world, _dealt_order(state, player), rng)
    if order is None:
        return None
    # Replay the ids from the start, the current deal's chance and the opponent's hidden choices anew.
    game = state.get_game()
    built: PiquetState = game.new_initial_state()
    history = state.history()
    deal_from = _deal_history_start(state)
    for action in history[:deal_from]:
        built.apply_action(action)
    for card in order:
        built.apply_action(card)
    # The original deal replayed beside it, for what each of the opponent's declarations said.
    original_partie = p.copy()
    while original_partie.ply > start + 1:
        original_partie.pop()
    for original in p.actions[start + 1:]:
        if built.partie.phase in _CHANCE_PHASES:
            return None
        before, pending = len(original_partie.logs()[-1]), len(original_partie.unreckoned)
        original_partie.push(original)
        said = [repr(e) for e in original_partie.logs()[-1][before:]]
        won = original_partie.unreckoned[pending:]
        choice = original
        if original.player != player:
            choice = _opponent_choice(built.partie, original, said, won, world, rng)
            if choice is None:
                return None
        try:
            for action_id in encode(choice):
                built.apply_action(action_id)
        except (ValueError, RuntimeError):
            return None
    for action_id in _pending_ids(state):
        built.apply_action(action_id)
    return built


def _played_by(view: PlayerView, seat: int) -> int:
    mask = 0
    for trick in view.tricks:
        for i, card in enumerate(trick.cards):
            if (trick.leader if i == 0 else 1 - trick.leader) == seat:
                mask |= 1 << card
    for i, card in enumerate(view.trick):
        if (view.leader if i == 0 else 1 - view.leader) == seat:
            mask |= 1 << card
    return mask


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def _deal_history_start(state: PiquetState) -> int:
    """Where the current deal's 32 chance cards begin in the state's history."""
    history = state.history()
    ids_since = sum(len(encode(a)) for a in state.partie.actions[_deal_start(state.partie) + 1:])
    pending = len(_pending_ids(state))
    return len(history) - pending - ids_since - 32


def _pending_ids(state: PiquetState) -> list[int]:
    """The ids of the selection under way (the player to act's own)."""
    selection = state.selection
    if selection.empty:
        return []
    history = state.history()
    count = sum(m.bit_count() for m in selection.done) + len(selection.done) + selection.cards.bit_count()
    return [int(a) for a in history[len(history) - count:]]


def _dealt_order(state: PiquetState, player: int) -> list[int]:
    """The player's own twelve cards of the current deal in the order chance dealt them."""
    start = _deal_history_start(state)
    chance = [int(a) for a in state.history()[start:start + 32]]
    dealer = state.partie.dealer
    assert dealer is not None
    return chance[:12] if player != dealer else chance[12:24]


def _opponent_choice(partie: Partie, original: Any, said: list[str], won: tuple[ScoreEvent, ...], world: World,
                     rng: random.Random) -> Any:
    """The opponent's action in the resampled deal: her exchange is the world's discards; a declaration is
    one the world's hand allows that says the same to both players now (``said``) and, younger's, wins what
    she will reckon at elder's first lead (``won``), drawn at random among them; anything else as it was."""
    if isinstance(original, Exchange):
        return Exchange(original.player, world.opponent_discards, original.show_rest)
    if isinstance(original, Declare):
        before, pending = len(partie.logs()[-1]), len(partie.unreckoned)
        matching = []
        for option in partie.legal_actions(original.player).list():
            if not isinstance(option, Declare):
                continue
            partie.push(option)
            heard = [repr(e) for e in partie.logs()[-1][before:]]
            wins = partie.unreckoned[pending:]
            partie.pop()
            if heard == said and wins == won:
                matching.append(option)
        return rng.choice(matching) if matching else None
    return original


pyspiel.register_game(GAME_TYPE, PiquetGame)
