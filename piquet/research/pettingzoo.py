"""Piquet as a PettingZoo AEC environment (two agents, masked actions), on the OpenSpiel game.

>>> env = PiquetAEC(variant="rubicon", scope="deal")
>>> env.reset(seed=3)
>>> env.agent_selection in env.agents, int(env.observe(env.agent_selection)["action_mask"].sum()) > 0
(True, True)

Each agent's observation is a dict: ``observation``, the OpenSpiel observation tensor of that player
(``perfect_recall=True``: the information-state tensor), and ``action_mask``, 1 for each legal id of
:mod:`piquet.research.encoding`. Chance (the cut, the deal) is drawn by the environment's own seeded
generator; the rewards come at the end: the game's returns (a deal's points, or the settlement).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pyspiel
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from piquet.research.encoding import NUM_ACTIONS
from piquet.research.openspiel import PiquetObserver

__all__ = ["PiquetAEC", "env"]


class PiquetAEC(AECEnv):  # type: ignore[misc]
    """The AEC environment: ``player_0`` and ``player_1`` are the seats; parameters as the OpenSpiel game's."""

    metadata: ClassVar[dict[str, Any]] = {"name": "piquet_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, variant: str = "rubicon", scope: str = "deal", options: str = "", first_dealer: int = 0,
                 perfect_recall: bool = False, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"piquet_v0: render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.game = pyspiel.load_game("python_piquet", {"variant": variant, "scope": scope, "options": options,
                                                        "first_dealer": first_dealer})
        self.perfect_recall = perfect_recall
        #: Each player's observer (each writes only what changed for its player since it last wrote).
        self._observers = (PiquetObserver(perfect_recall), PiquetObserver(perfect_recall))
        self.possible_agents = ["player_0", "player_1"]
        shape = self._observers[0].tensor.shape
        self._observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(-100.0, 100.0, shape, np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }) for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.state: Any = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.state = self.game.new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._advance()

    def _advance(self) -> None:
        """Draw chance until a player is to act or the game is over, then say whose turn it is."""
        state = self.state
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(self.np_random.integers(len(outcomes)))][0])
        if state.is_terminal():
            returns = state.returns()
            for i, agent in enumerate(self.agents):
                self.rewards[agent] = float(returns[i])
                self.terminations[agent] = True
            self._accumulate_rewards()
            return
        self.agent_selection = self.possible_agents[state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        player = self.possible_agents.index(agent)
        state = self.state
        observer = self._observers[player]
        observer.set_from(state, player)
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if not state.is_terminal() and state.current_player() == player:
            mask[state.legal_actions(player)] = 1
        return {"observation": observer.tensor.copy(), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        player = self.possible_agents.index(agent)
        legal = self.state.legal_actions(player)
        if action is None or int(action) not in legal:
            raise ValueError(f"piquet_v0: {agent} cannot take action {action!r} now (legal ids: {legal})")
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self.state.apply_action(int(action))
        self._advance()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return str(self.state)
        return None

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> PiquetAEC:
    """The environment, as PettingZoo's own modules name their constructor."""
    return PiquetAEC(**kwargs)
