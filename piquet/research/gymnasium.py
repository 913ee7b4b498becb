"""Piquet as a single-agent Gymnasium environment: one seat against one of the project's computer players.

>>> env = PiquetEnv(opponent="level1", variant="rubicon")
>>> observation, info = env.reset(seed=5)
>>> observation.shape == env.observation_space.shape, int(info["action_mask"].sum()) > 0
(True, True)

The action space is the 65 ids of :mod:`piquet.research.encoding`; ``info["action_mask"]`` marks the legal
ones. An illegal id raises ``ValueError`` and changes nothing; with ``illegal="penalty"`` it changes
nothing either, but costs ``illegal_penalty`` (the reward is its negative, ``info["illegal"]`` is true), for
learners that do not read the mask. The opponent is any agent
:func:`piquet.ai.levels.make_agent` makes (``random``, ``level1`` to ``level5``, with settings), deciding
from its own view as in the arena; its decision is written in ids by the same encoding. The reward is the
game's return for the learner at the end (a deal's points, or the settlement), 0 before.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pyspiel
from gymnasium import spaces

from piquet.ai.agent import Agent
from piquet.ai.levels import make_agent
from piquet.research import openspiel as _registers  # noqa: F401  (registers python_piquet)
from piquet.research.encoding import NUM_ACTIONS, encode

__all__ = ["PiquetEnv"]


class PiquetEnv(gymnasium.Env[np.ndarray[Any, Any], np.int64]):
    """The learner holds ``seat`` (0 or 1); ``opponent`` is an agent's name for :func:`make_agent`."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012  (Env declares it an instance variable)

    def __init__(self, opponent: str = "level2", seat: int = 0, variant: str = "rubicon", scope: str = "deal",
                 options: str = "", first_dealer: int = 0, perfect_recall: bool = False,
                 illegal: str = "raise", illegal_penalty: float = 1.0, render_mode: str | None = None) -> None:
        if seat not in (0, 1):
            raise ValueError(f"PiquetEnv: seat must be 0 or 1, not {seat!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"PiquetEnv: render_mode must be None or 'ansi', not {render_mode!r}")
        if illegal not in ("raise", "penalty"):
            raise ValueError(f"PiquetEnv: illegal must be 'raise' or 'penalty', not {illegal!r}")
        make_agent(opponent)  # an unknown opponent raises here, naming it
        self.illegal = illegal
        self.illegal_penalty = illegal_penalty
        self.opponent_name = opponent
        self.seat = seat
        self.render_mode = render_mode
        self.perfect_recall = perfect_recall
        self.game = pyspiel.load_game("python_piquet", {"variant": variant, "scope": scope, "options": options,
                                                        "first_dealer": first_dealer})
        size = self.game.information_state_tensor_size() if perfect_recall else self.game.observation_tensor_size()
        self.observation_space = spaces.Box(-100.0, 100.0, (size,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.state: Any = None
        self.opponent: Agent = make_agent(opponent)
        self._queue: list[int] = []

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self.opponent = make_agent(self.opponent_name, int(self.np_random.integers(2**31)))
        self.state = self.game.new_initial_state()
        self._queue = []
        self._advance()
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray[Any, Any], float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None or state.is_terminal():
            raise ValueError("PiquetEnv: the game is over (or not begun): call reset()")
        legal = state.legal_actions(self.seat)
        if int(action) not in legal:
            if self.illegal == "penalty":
                return self._observation(), -self.illegal_penalty, False, False, {**self._info(), "illegal": True}
            raise ValueError(f"PiquetEnv: seat {self.seat} cannot take action {action!r} now (legal ids: {legal})")
        state.apply_action(int(action))
        self._advance()
        done = bool(state.is_terminal())
        reward = float(state.returns()[self.seat]) if done else 0.0
        return self._observation(), reward, done, False, self._info()

    def _advance(self) -> None:
        """Draw chance and play the opponent until the learner is to act or the game is over."""
        state = self.state
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(self.np_random.integers(len(outcomes)))][0])
                continue
            if state.current_player() == self.seat:
                return
            if not self._queue:
                partie = state.partie
                seat = partie.to_act
                self._queue = encode(self.opponent.choose(partie.view(seat), partie.legal_actions(seat)))
            state.apply_action(self._queue.pop(0))

    def _observation(self) -> np.ndarray[Any, Any]:
        state = self.state
        tensor = (state.information_state_tensor(self.seat) if self.perfect_recall
                  else state.observation_tensor(self.seat))
        return np.asarray(tensor, np.float32)

    def _info(self) -> dict[str, Any]:
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if not self.state.is_terminal():
            mask[self.state.legal_actions(self.seat)] = 1
        return {"action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return str(self.state)
        return None
