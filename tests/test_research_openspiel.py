"""Piquet as an OpenSpiel game (``python_piquet``): OpenSpiel's own random simulation test over deals of
each variant and both scopes, the parameters, the returns, the information states and the resampling."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.observation import make_observation  # noqa: E402

from piquet.research import openspiel  # noqa: E402  (registers python_piquet)
from piquet.research.encoding import NUM_ACTIONS  # noqa: E402

pytestmark = pytest.mark.research

VARIANTS = ["rubicon", "auction", "au-cent"]


def _play(game: Any, seed: int, stop: float = 0.0) -> Any:
    """A random playthrough of ``game``; with ``stop``, the first decision reached after that share of them."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        if stop and rng.random() < stop:
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_sim_test_passes_over_deals_of_each_variant(variant: str) -> None:
    game = pyspiel.load_game("python_piquet", {"variant": variant, "scope": "deal"})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_random_sim_test_passes_over_a_partie_from_the_cut() -> None:
    game = pyspiel.load_game("python_piquet", {"variant": "rubicon", "scope": "partie", "first_dealer": -1})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_sim_test_passes_over_many_deals_and_parties(variant: str) -> None:
    deal = pyspiel.load_game("python_piquet", {"variant": variant, "first_dealer": 1})
    pyspiel.random_sim_test(deal, num_sims=40, serialize=False, verbose=False)
    partie = pyspiel.load_game("python_piquet", {"variant": variant, "scope": "partie", "first_dealer": -1})
    pyspiel.random_sim_test(partie, num_sims=3, serialize=False, verbose=False)


def test_the_game_declares_its_ids_and_chance_as_the_encoding_does() -> None:
    game = pyspiel.load_game("python_piquet")
    assert game.num_distinct_actions() == NUM_ACTIONS and game.max_chance_outcomes() == 32
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 32 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    for card in range(32):
        state.apply_action(card)
    assert not state.is_chance_node() and state.current_player() in (0, 1)
    # The deal's order: the non-dealer's twelve (seat 1 when seat 0 deals), the dealer's twelve, the talon.
    assert sorted(int(c) for c in state.partie.hand(1)) == list(range(12))
    assert sorted(int(c) for c in state.partie.hand(0)) == list(range(12, 24))
    assert [int(c) for c in state.partie.talon()] == list(range(24, 32))


def test_a_deal_returns_its_points_and_a_partie_its_settlement() -> None:
    deal = _play(pyspiel.load_game("python_piquet", {"variant": "rubicon"}), 4)
    score = deal.partie.deal_scores[0]
    assert deal.returns() == [score.totals[0] - score.totals[1], score.totals[1] - score.totals[0]]
    partie = _play(pyspiel.load_game("python_piquet", {"scope": "partie"}), 4)
    result = partie.partie.result
    winner = partie.returns()[result.winner]
    assert winner == result.points and sum(partie.returns()) == 0


@pytest.mark.parametrize(("params", "message"), [
    ({"variant": "bezique"}, "unknown variant 'bezique'"),
    ({"scope": "rubber"}, "scope must be 'deal' or 'partie', not 'rubber'"),
    ({"options": "minimum_point=4,nonsense"}, "option 'nonsense' is not NAME=VALUE"),
    ({"first_dealer": 2}, "first_dealer must be 0, 1 or -1"),
])
def test_a_bad_parameter_is_refused_naming_it(params: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        openspiel.PiquetGame(params)


def test_options_reach_the_engine() -> None:
    game = pyspiel.load_game("python_piquet", {"options": "elder_may_stand_pat=true"})
    state = game.new_initial_state()
    assert state.partie.rules.elder_minimum_exchange == 0


def test_the_tensors_have_fixed_shapes_and_the_information_state_hides_the_opponent_s_cards() -> None:
    game = pyspiel.load_game("python_piquet")
    for seed in range(4):
        state = _play(game, seed, stop=0.05)
        for player in (0, 1):
            assert len(state.observation_tensor(player)) == game.observation_tensor_size()
            assert len(state.information_state_tensor(player)) == game.information_state_tensor_size()
        if state.is_terminal():
            continue
        me = state.current_player()
        text = state.information_state_string(me)
        dealt_to_her = state.partie.view(1 - me).dealt
        mine = state.partie.view(me).dealt
        assert all(f"dealt {c}" in text for c in mine)
        assert not any(f"dealt {c}" in text for c in dealt_to_her)


def test_two_histories_that_differ_only_in_the_opponent_s_cards_have_one_information_state() -> None:
    game = pyspiel.load_game("python_piquet")
    states = []
    for swap in (False, True):
        state = game.new_initial_state()
        order = list(range(32))
        if swap:  # the dealer's (seat 0's) first two cards change places with two talon cards
            order[12], order[13], order[30], order[31] = order[30], order[31], order[12], order[13]
        for card in order:
            state.apply_action(card)
        states.append(state)
    assert states[0].information_state_string(1) == states[1].information_state_string(1)
    assert states[0].information_state_tensor(1) == states[1].information_state_tensor(1)
    assert states[0].information_state_string(0) != states[1].information_state_string(0)


def test_resampling_keeps_what_the_player_knows_and_changes_what_he_does_not() -> None:
    rng = random.Random(11)
    kept = changed = 0
    for variant in VARIANTS:
        game = pyspiel.load_game("python_piquet", {"variant": variant})
        for seed in range(6):
            state = _play(game, seed, stop=0.04)
            if state.is_terminal():
                continue
            me = state.current_player()
            try:
                other = state.resample_from_infostate(me, rng.random)
            except ValueError as e:
                assert "no world of the inference replayed" in str(e)
                continue
            assert other.information_state_string(me) == state.information_state_string(me)
            assert other.legal_actions() == state.legal_actions()
            kept += 1
            changed += other.partie.hand(1 - me) != state.partie.hand(1 - me)
    assert kept >= 12 and changed >= kept // 2


# ---------------------------------------------------------------- tensors kept step by step
def _compare_tensors_over_random_games(variant: str, scope: str, games: int, seed: int) -> int:
    """Random games of ``variant``; after each step a random choice of the players' tensors is read, through
    observers shared by both players and observers of one player each (and, now and then, a clone, and
    OpenSpiel's own ``information_state_tensor``), and each must equal the tensor made from scratch. Returns
    the number of tensors compared."""
    game = pyspiel.load_game("python_piquet", {"variant": variant, "scope": scope, "first_dealer": -1})
    rng = random.Random(seed)
    shared = {recall: make_observation(game, pyspiel.IIGObservationType(perfect_recall=recall))
              for recall in (False, True)}
    own = {(recall, player): make_observation(game, pyspiel.IIGObservationType(perfect_recall=recall))
           for recall in (False, True) for player in (0, 1)}
    compared = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            if rng.random() < 0.02:
                state = state.clone()  # a copy: another state to the observers, its tensors as the original's
            for player in rng.sample((0, 1), rng.randint(0, 2)):
                for recall in (False, True):
                    expected = openspiel.tensor_from_scratch(state, player, recall)
                    for observer in (shared[recall], own[recall, player]):
                        observer.set_from(state, player)
                        assert np.array_equal(observer.tensor, expected), (variant, state.history())
                        compared += 1
                    if rng.random() < 0.01:
                        listed = (state.information_state_tensor(player) if recall
                                  else state.observation_tensor(player))
                        assert np.array_equal(np.asarray(listed, np.float32), expected)
    return compared


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_tensors_kept_step_by_step_equal_those_made_from_scratch(variant: str) -> None:
    """The observer writes only what changed, from what the state keeps up to date (a speed change, not a
    change of the tensors): in every variant, at every kind of step, it writes what the tensor made anew from
    the player's view, selection and ids holds."""
    compared = _compare_tensors_over_random_games(variant, "deal", 6, 1)
    compared += _compare_tensors_over_random_games(variant, "partie", 1, 2)
    assert compared > 1_000


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_tensors_kept_step_by_step_equal_those_made_from_scratch_over_many_games(variant: str) -> None:
    compared = _compare_tensors_over_random_games(variant, "deal", 80, 11)
    compared += _compare_tensors_over_random_games(variant, "partie", 4, 12)
    assert compared > 20_000


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_steps_tensors_read_by_an_observer_each_equal_those_made_from_scratch(variant: str) -> None:
    """As a learner reads them (and benchmarks/research.py): both players' information-state and observation
    tensors after every step of seeded parties, an observer for each player and kind, each written only where it
    changed since the step before; at every step each equals the tensor made anew."""
    game = pyspiel.load_game("python_piquet", {"variant": variant, "scope": "partie", "first_dealer": -1})
    observers = {(recall, player): make_observation(game, pyspiel.IIGObservationType(perfect_recall=recall))
                 for recall in (False, True) for player in (0, 1)}
    rng = random.Random(34)
    compared = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            for (recall, player), observer in observers.items():
                observer.set_from(state, player)
                assert np.array_equal(observer.tensor, openspiel.tensor_from_scratch(state, player, recall)), (
                    variant, recall, player, state.history())
                compared += 1
    assert compared > 1_000


def test_a_clone_and_a_deserialized_state_see_what_the_original_sees() -> None:
    """What a state remembers only to save work is not copied (a copy makes it again); what it keeps up to date
    is, so a clone and a state read back from its serialization have its tensors, strings and legal ids, and
    play on as it does."""
    game = pyspiel.load_game("python_piquet", {"variant": "auction"})
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    for seed in range(4):
        state = _play(game, seed, stop=0.3)
        if state.is_terminal():
            continue
        observer.set_from(state, 0)  # the original's tensor made, then the copies'
        for other in (state.clone(), game.deserialize_state(state.serialize())):
            assert other.legal_actions() == state.legal_actions()
            for player in (0, 1):
                observer.set_from(other, player)
                assert np.array_equal(observer.tensor, openspiel.tensor_from_scratch(state, player, True))
                assert other.information_state_string(player) == state.information_state_string(player)
                assert other.observation_string(player) == state.observation_string(player)
            action = state.legal_actions()[0]
            other.apply_action(action)
            assert other.history() == state.history() + [action]
