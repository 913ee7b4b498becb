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

import random
from typing import Any

import numpy as np
import pyspiel

from piquet.ai.inference import Inference, World
from piquet.engine.actions import Cut, Deal, Declare, Exchange
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
    Selection,
    action_name,
    apply_id,
    encode,
    legal_ids,
)

__all__ = ["DEFAULT_PARAMS", "GAME_TYPE", "HISTORY", "PiquetGame", "PiquetObserver", "PiquetState", "resample",
           "state_from_view"]

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
_PHASES = tuple(Phase)
_CATEGORIES = tuple(Category)
_ANSWERS = ("good", "not good", "equal")
#: The ids the opponent does not see: the cards, and how the selection of an exchange or a declaration
#: ends (what both learn of it, the log says).
_HIDDEN_BELOW = SINK + 1


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
    and what each player has seen, in order (his information state)."""

    def __init__(self, game: PiquetGame) -> None:
        super().__init__(game)
        self.scope = game.scope
        first = None if game.first_dealer < 0 else game.first_dealer
        self.partie = Partie(("North", "South"), game.variant, game.options, first_dealer=first)
        self.selection: Selection = EMPTY
        #: The cards chance has drawn for the cut or the deal being made.
        self.drawn: list[int] = []
        #: What each player has seen, in order: his information state.
        self.seen: tuple[list[str], list[str]] = ([], [])
        #: Each player's ids in this deal as he saw them: (who, id), ``who`` 0 for himself.
        self.deal_ids: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
        self._log_seen = (0, 0)
        self._private = ["", ""]

    # ------------------------------------------------------------------ the API
    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.partie.phase in _CHANCE_PHASES:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.partie.to_act
        assert seat is not None
        return seat

    def is_terminal(self) -> bool:
        if self.partie.is_over:
            return True
        return self.scope == "deal" and bool(self.partie.deal_scores)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        if self.scope == "deal":
            score = self.partie.deal_scores[0]
            if score.annulled:
                return [0.0, 0.0]
            diff = float(score.multiplier * (score.totals[0] - score.totals[1]))
            return [diff, -diff]
        result = self.partie.result
        assert result is not None
        if result.winner is None:
            return [0.0, 0.0]
        won = float(result.points)
        return [won, -won] if result.winner == 0 else [-won, won]

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.partie.to_act or self.is_terminal():
            return []
        return legal_ids(self.partie, self.selection)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c for c in range(32) if c not in self.drawn]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.partie.phase in _CHANCE_PHASES:
            self._draw(int(action))
            return
        seat = self.partie.to_act
        assert seat is not None
        phase = self.partie.phase
        self.selection, done = apply_id(self.partie, self.selection, int(action))
        self.seen[seat].append(action_name(int(action)))
        self.deal_ids[seat].append((0, int(action)))
        if not (phase in (Phase.EXCHANGE, Phase.DECLARE) and action < _HIDDEN_BELOW):
            self.deal_ids[1 - seat].append((1, int(action)))
        if done is not None:
            self._push(done)

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

    # ------------------------------------------------------------------ chance and the engine
    def _draw(self, card: int) -> None:
        p = self.partie
        if card in self.drawn or not 0 <= card < 32:
            raise ValueError(f"chance cannot draw card {card!r} now (drawn so far: {self.drawn})")
        self.drawn.append(card)
        if p.phase is Phase.CUT:
            for seat in (0, 1):
                self.seen[seat].append(f"cut {Card(card)}")
            if len(self.drawn) == 2:
                cut = Cut(0, (Card(self.drawn[0]), Card(self.drawn[1])))
                self.drawn = []
                self._push(cut)
            return
        dealer = p.dealer
        assert dealer is not None
        position = len(self.drawn) - 1
        receiver = 1 - dealer if position < 12 else dealer if position < 24 else None
        if receiver is not None:
            self.seen[receiver].append(f"dealt {Card(card)}")
        if len(self.drawn) == 32:
            hands = [CardSet(), CardSet()]
            hands[1 - dealer] = CardSet(Card(c) for c in self.drawn[:12])
            hands[dealer] = CardSet(Card(c) for c in self.drawn[12:24])
            deal = Deal(dealer, (hands[0], hands[1]), tuple(Card(c) for c in self.drawn[24:]))
            self.drawn = []
            self.deal_ids[0].clear()
            self.deal_ids[1].clear()
            self._push(deal)

    def _push(self, action: Any) -> None:
        self.partie.push(action)
        self._observe()

    def _observe(self) -> None:
        """Each player's new sight after an engine action: the log's new entries (what both heard or saw)
        and his own cards where they changed."""
        p = self.partie
        log = p.logs()[-1] if p.logs() else ()
        number, count = self._log_seen
        new = log if p.deal_number != number else log[count:]
        self._log_seen = (p.deal_number, len(log))
        said = [repr(entry) for entry in new]
        for seat in (0, 1):
            self.seen[seat].extend(said)
            view = p.view(seat)
            private = f"hand {view.hand} discards {view.discards} peeked {view.peeked} rest {view.rest}"
            if private != self._private[seat]:
                self._private[seat] = private
                self.seen[seat].append(private)


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


class PiquetObserver:
    """OpenSpiel's Python observer: a flat float tensor with named views (``dict``) and a string, for a
    player at a state. With perfect recall (the information state) the tensor adds the deal's history of
    ids as the player saw them, and the string is everything he has seen, in order."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        pieces = _pieces(perfect_recall)
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        index = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[index:index + size].reshape(shape)
            index += size

    def set_from(self, state: PiquetState, player: int) -> None:
        self.tensor.fill(0)
        d = self.dict
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
        if self.perfect_recall:
            history = d["history"]
            for step, (who, action) in enumerate(state.deal_ids[player][-HISTORY:]):
                history[step, who, action] = 1

    def string_from(self, state: PiquetState, player: int) -> str:
        if self.perfect_recall:
            return f"p{player}: " + "; ".join(state.seen[player])
        return observation_text(state.partie.view(player), state.selection if state.partie.to_act == player
                                else EMPTY)


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
