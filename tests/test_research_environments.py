"""Piquet as a PettingZoo AEC environment and a Gymnasium environment: the frameworks' own checks
(``api_test``, ``seed_test``, Gymnasium's environment checker), masks, rewards and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from piquet.research.gymnasium import PiquetEnv
from piquet.research.pettingzoo import PiquetAEC


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
