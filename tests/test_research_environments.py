"""Piquet as a PettingZoo AEC environment and a Gymnasium environment, one game or many at once: the
frameworks' own checks (``api_test``, ``seed_test``, Gymnasium's environment checker), the vector API's
batches and autoreset, masks, rewards and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from pettingzoo.test import api_test, seed_test

from piquet.research.gymnasium import PiquetEnv, PiquetVectorEnv
from piquet.research.openspiel import tensor_from_scratch
from piquet.research.pettingzoo import PiquetAEC

pytestmark = pytest.mark.research


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_pettingzoo_api_test_passes(variant: str) -> None:
    with warnings.catch_warnings():
        # PettingZoo advises a Box observation; masked games (its own chess, go) use a Dict, as here.
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(PiquetAEC(variant=variant), num_cycles=400)


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: PiquetAEC(variant="auction"), num_cycles=300)


def test_a_deal_in_pettingzoo_ends_with_its_points_as_rewards() -> None:
    env = PiquetAEC(scope="deal")
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    total = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _info = env.last()
        total[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.sum() >= 1
        env.step(int(rng.choice(np.flatnonzero(mask))))
    score = env.state.partie.deal_scores[0]
    assert total == {"player_0": score.totals[0] - score.totals[1], "player_1": score.totals[1] - score.totals[0]}


def test_an_illegal_action_in_pettingzoo_is_refused_naming_the_agent() -> None:
    env = PiquetAEC()
    env.reset(seed=1)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    history = list(env.state.history())
    with pytest.raises(ValueError, match=f"{agent} cannot take action {illegal}"):
        env.step(illegal)
    assert list(env.state.history()) == history


def test_gymnasium_environment_checker_passes() -> None:
    check_env(PiquetEnv(opponent="level1", illegal="penalty"), skip_render_check=True)
    check_env(PiquetEnv(opponent="random", seat=1, variant="auction", illegal="penalty"), skip_render_check=True)


def test_gymnasium_plays_a_deal_against_a_level_to_its_points() -> None:
    env = PiquetEnv(opponent="level2", seat=1)
    observation, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    done, reward = False, 0.0
    while not done:
        assert observation.shape == env.observation_space.shape
        observation, reward, done, _truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    score = env.state.partie.deal_scores[0]
    assert reward == score.totals[1] - score.totals[0]


def test_gymnasium_refuses_an_illegal_action_or_charges_for_it() -> None:
    env = PiquetEnv(opponent="level1")
    _observation, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"seat 0 cannot take action {illegal} now"):
        env.step(illegal)
    charged = PiquetEnv(opponent="level1", illegal="penalty", illegal_penalty=2.0)
    _observation, info = charged.reset(seed=2)
    history = list(charged.state.history())
    _observation, reward, done, _truncated, info = charged.step(illegal)
    assert reward == -2.0 and not done and info["illegal"] and list(charged.state.history()) == history


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"opponent": "level9"}, "unknown agent 'level9'"),
    ({"seat": 2}, "seat must be 0 or 1, not 2"),
    ({"illegal": "ignore"}, "illegal must be 'raise' or 'penalty'"),
])
def test_gymnasium_refuses_a_bad_setting_naming_it(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PiquetEnv(**kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the vector environment
def _random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A legal id a game, drawn uniformly from each row of the masks (any id where a row has none)."""
    drawn: np.ndarray = np.argmax(rng.random(masks.shape) * masks, axis=1)
    return drawn


def test_the_vector_environment_batches_the_games_as_gymnasium_s_vector_api_does() -> None:
    envs = PiquetVectorEnv(3, opponent="random", perfect_recall=True)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.single_action_space == gymnasium.spaces.Discrete(65)
    assert envs.action_space.shape == (3,) and envs.observation_space.shape == (3, 33_771)
    observations, infos = envs.reset(seed=7)
    assert observations.shape == (3, 33_771) and observations.dtype == np.float32
    assert infos["action_mask"].shape == (3, 65) and infos["action_mask"].dtype == np.int8
    for i, state in enumerate(envs.states):
        assert np.array_equal(observations[i], tensor_from_scratch(state, 0, True))
        assert np.flatnonzero(infos["action_mask"][i]).tolist() == state.legal_actions(0)


def test_each_game_plays_to_its_points_and_begins_again_at_the_next_step() -> None:
    envs = PiquetVectorEnv(4, opponent="random", seat=1)
    observations, infos = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(400):
        before = list(envs.states)
        observations, rewards, terminations, truncations, infos = envs.step(_random_actions(rng, infos["action_mask"]))
        assert not truncations.any()
        for i, state in enumerate(envs.states):
            if terminations[i]:
                ended += 1
                score = state.partie.deal_scores[0]
                assert rewards[i] == score.totals[1] - score.totals[0]
                assert not infos["action_mask"][i].any()
            elif state is not before[i]:  # begun again: the step after its end, its action ignored
                assert before[i].is_terminal() and rewards[i] == 0.0 and state.history() != before[i].history()
            else:
                assert rewards[i] == 0.0
            assert np.array_equal(observations[i], tensor_from_scratch(state, 1, False))
    assert ended >= 8


def test_same_step_autoreset_hands_back_the_last_observation_and_begins_at_once() -> None:
    envs = PiquetVectorEnv(2, opponent="random", autoreset_mode=AutoresetMode.SAME_STEP)
    _observations, infos = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(200):
        before = list(envs.states)
        observations, rewards, terminations, _truncations, infos = envs.step(_random_actions(rng, infos["action_mask"]))
        if terminations.any():
            break
    i = int(np.flatnonzero(terminations)[0])
    score = before[i].partie.deal_scores[0]
    assert rewards[i] == score.totals[0] - score.totals[1] and envs.states[i] is not before[i]
    assert infos["_final_obs"][i] and np.array_equal(infos["final_obs"][i], tensor_from_scratch(before[i], 0, False))
    assert not infos["final_info"][i]["action_mask"].any()
    assert not envs.states[i].is_terminal() and infos["action_mask"][i].any()  # the new game, at the learner's turn
    assert np.array_equal(observations[i], tensor_from_scratch(envs.states[i], 0, False))


def test_a_seeded_vector_environment_plays_the_same_games_again() -> None:
    runs = []
    for _ in range(2):
        envs = PiquetVectorEnv(3, opponent="level1", variant="auction")
        _observations, infos = envs.reset(seed=11)
        rng = np.random.default_rng(11)
        for _ in range(30):
            _observations, _rewards, _terminations, _truncations, infos = envs.step(
                _random_actions(rng, infos["action_mask"]))
        runs.append([state.history() for state in envs.states])
    assert runs[0] == runs[1] and runs[0][0] != runs[0][1]


def test_an_illegal_action_in_a_vector_step_is_refused_naming_the_game_and_changes_nothing() -> None:
    envs = PiquetVectorEnv(3, opponent="random")
    _observations, infos = envs.reset(seed=2)
    actions = _random_actions(np.random.default_rng(2), infos["action_mask"])
    illegal = int(np.flatnonzero(infos["action_mask"][2] == 0)[0])
    actions[2] = illegal
    histories = [state.history() for state in envs.states]
    with pytest.raises(ValueError, match=f"in game 2, seat 0 cannot take action {illegal} now"):
        envs.step(actions)
    assert [state.history() for state in envs.states] == histories
    charged = PiquetVectorEnv(3, opponent="random", illegal="penalty", illegal_penalty=2.0)
    _observations, infos = charged.reset(seed=2)
    histories = [state.history() for state in charged.states]
    _observations, rewards, _terminations, _truncations, infos = charged.step(actions)
    assert rewards[2] == -2.0 and infos["illegal"].tolist() == [False, False, True]
    assert charged.states[2].history() == histories[2] and charged.states[0].history() != histories[0]


def test_without_copies_the_observations_are_a_read_only_view_of_the_environment_s_rows() -> None:
    envs = PiquetVectorEnv(2, opponent="random", copy=False)
    observations, _infos = envs.reset(seed=4)
    with pytest.raises(ValueError, match="read-only"):
        observations[0, 0] = 1.0


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"num_envs": 0}, "num_envs must be a positive number of games, not 0"),
    ({"num_envs": 2, "autoreset_mode": "sometimes"}, "autoreset_mode must be an AutoresetMode"),
    ({"num_envs": 2, "opponent": "level9"}, "unknown agent 'level9'"),
])
def test_the_vector_environment_refuses_a_bad_setting_naming_it(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PiquetVectorEnv(**kwargs)  # type: ignore[arg-type]
