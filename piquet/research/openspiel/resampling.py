"""States of ``python_piquet`` a player cannot tell from the one he is in, or that his view allows
(:func:`resample`, :func:`state_from_view`): the hidden cards drawn by the project's inference, the deal
re-played to where it stands."""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from piquet.ai.inference import Inference, World
from piquet.engine.actions import Deal, Declare, Exchange
from piquet.engine.events import FirstLead
from piquet.engine.partie import Partie, Phase
from piquet.engine.scoring import ScoreEvent
from piquet.engine.view import PlayerView
from piquet.research.encoding import (
    encode,
)
from piquet.research.openspiel.game import CHANCE_PHASES, PiquetState
from piquet.research.openspiel.observation import played_by


# ---------------------------------------------------------------------- resampling
def resample(state: PiquetState, player: int, rng: random.Random, attempts: int = 40) -> PiquetState:
    """A state with the same information state for ``player``, the hidden cards of the current deal drawn
    from :class:`~piquet.ai.inference.Inference`'s worlds; raises ``ValueError`` if it is asked of a
    chance node, during the opponent's selection, or no world could be replayed in ``attempts``."""
    p = state.partie
    if state.is_terminal() or p.phase in CHANCE_PHASES or state.drawn:
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
    if me is None or view.dealer is None or view.phase in CHANCE_PHASES or view.phase is Phase.OVER:
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
    held = world.opponent_hand.mask | world.opponent_discards.mask | played_by(view, opp)
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
    own_drawn = _cards((view.hand.mask | view.discards.mask | played_by(view, me)) & ~view.dealt.mask)
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
        if seat is None or p.phase in CHANCE_PHASES or p.ply > 400:
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
        if built.partie.phase in CHANCE_PHASES:
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
