"""Piquet as a Gymnasium environment: one seat against one of the project's computer players, one game at a
time (:class:`PiquetEnv`) or many at once (:class:`PiquetVectorEnv`).

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

The vector environment follows Gymnasium's vector API (``gymnasium.vector.VectorEnv``): observations, rewards,
terminations and masks batched as numpy arrays, one row a game, and the games reset on their own (by
default at the step after one ends, as Gymnasium's own vector environments do):

>>> envs = PiquetVectorEnv(4, opponent="random")
>>> observations, infos = envs.reset(seed=5)
>>> observations.shape, infos["action_mask"].shape
((4, 491), (4, 65))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
import pyspiel
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from piquet.ai.agent import Agent
from piquet.ai.levels import make_agent
from piquet.research.encoding import NUM_ACTIONS, encode
from piquet.research.openspiel import PiquetObserver, PiquetState

__all__ = ["PiquetEnv", "PiquetVectorEnv"]


def _check(seat: int, render_mode: str | None, illegal: str, opponent: str, who: str) -> None:
    if seat not in (0, 1):
        raise ValueError(f"{who}: seat must be 0 or 1, not {seat!r}")
    if render_mode not in (None, "ansi"):
        raise ValueError(f"{who}: render_mode must be None or 'ansi', not {render_mode!r}")
    if illegal not in ("raise", "penalty"):
        raise ValueError(f"{who}: illegal must be 'raise' or 'penalty', not {illegal!r}")
    make_agent(opponent)  # an unknown opponent raises here, naming it


def _load(variant: str, scope: str, options: str, first_dealer: int) -> Any:
    return pyspiel.load_game("python_piquet", {"variant": variant, "scope": scope, "options": options,
                                               "first_dealer": first_dealer})


def _play_to(state: PiquetState, seat: int, opponent: Agent, queue: list[int],
             draw: Callable[[PiquetState], None]) -> None:
    """Draw chance (``draw`` applies the cards of a chance node) and play the opponent until ``seat`` is to act
    or the game is over. ``queue`` holds the ids of the opponent's decision not yet applied."""
    while not state.is_terminal():
        if state.is_chance_node():
            draw(state)
            continue
        if state.current_player() == seat:
            return
        if not queue:
            partie = state.partie
            to_act = partie.to_act
            queue[:] = encode(opponent.choose(partie.view(to_act), partie.legal_actions(to_act)))
        state.apply_action(queue.pop(0))


class PiquetEnv(gymnasium.Env[np.ndarray[Any, Any], np.int64]):
    """The learner holds ``seat`` (0 or 1); ``opponent`` is an agent's name for :func:`make_agent`."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012  (Env declares it an instance variable)

    def __init__(self, opponent: str = "level2", seat: int = 0, variant: str = "rubicon", scope: str = "deal",
                 options: str = "", first_dealer: int = 0, perfect_recall: bool = False,
                 illegal: str = "raise", illegal_penalty: float = 1.0, render_mode: str | None = None) -> None:
        _check(seat, render_mode, illegal, opponent, "PiquetEnv")
        self.illegal = illegal
        self.illegal_penalty = illegal_penalty
        self.opponent_name = opponent
        self.seat = seat
        self.render_mode = render_mode
        self.perfect_recall = perfect_recall
        self.game = _load(variant, scope, options, first_dealer)
        self._observer = PiquetObserver(perfect_recall)
        self.observation_space = spaces.Box(-100.0, 100.0, self._observer.tensor.shape, np.float32)
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
        _play_to(self.state, self.seat, self.opponent, self._queue, self._draw)
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
        _play_to(state, self.seat, self.opponent, self._queue, self._draw)
        done = bool(state.is_terminal())
        reward = float(state.returns()[self.seat]) if done else 0.0
        return self._observation(), reward, done, False, self._info()

    def _draw(self, state: PiquetState) -> None:
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[int(self.np_random.integers(len(outcomes)))][0])

    def _observation(self) -> np.ndarray[Any, Any]:
        self._observer.set_from(self.state, self.seat)
        return self._observer.tensor.copy()

    def _info(self) -> dict[str, Any]:
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if not self.state.is_terminal():
            mask[self.state.legal_actions(self.seat)] = 1
        return {"action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return str(self.state)
        return None


class PiquetVectorEnv(VectorEnv[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]):
    """``num_envs`` games of :class:`PiquetEnv`'s, stepped together: in each the learner holds ``seat``
    against ``opponent``, with the same parameters as :class:`PiquetEnv`.

    ``step(actions)`` takes one id a game (an array of ``num_envs``) and returns the observations (an array of
    ``num_envs`` rows: the learner's observation tensor, or with ``perfect_recall`` his information-state
    tensor), the rewards, the terminations and the truncations (never: a game ends), and ``infos`` whose
    ``"action_mask"`` has a row of 65 a game. Each game's observer writes its row in place, only what changed
    (:class:`~piquet.research.openspiel.PiquetObserver`); the arrays returned are copies, or with ``copy=False``
    a read-only view of the environment's own rows, which the next step changes.

    ``autoreset_mode`` is Gymnasium's: ``NEXT_STEP`` (the default) resets a game at the step after it ended,
    ignoring its action, with a reward of 0; ``SAME_STEP`` resets it at once, its last observation and info in
    ``infos["final_obs"]`` and ``infos["final_info"]``; ``DISABLED`` leaves it to ``reset(options={"reset_mask":
    ...})``. ``reset(seed=n)`` seeds game ``i`` with ``n + i`` (a list gives each its own). The actions of a step are
    all checked before any is applied: an illegal id raises ``ValueError`` naming the game and changes nothing;
    with ``illegal="penalty"`` that game does not move and its reward is ``-illegal_penalty``
    (``infos["illegal"]`` marks it)."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (VectorEnv declares it an instance variable)
        "render_modes": ["ansi"], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, opponent: str = "random", seat: int = 0, variant: str = "rubicon",
                 scope: str = "deal", options: str = "", first_dealer: int = 0, perfect_recall: bool = False,
                 illegal: str = "raise", illegal_penalty: float = 1.0,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP, copy: bool = True,
                 render_mode: str | None = None) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"PiquetVectorEnv: num_envs must be a positive number of games, not {num_envs!r}")
        _check(seat, render_mode, illegal, opponent, "PiquetVectorEnv")
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            known = ", ".join(repr(m.value) for m in AutoresetMode)
            raise ValueError(f"PiquetVectorEnv: autoreset_mode must be an AutoresetMode ({known}), "
                             f"not {autoreset_mode!r}") from None
        self.num_envs = num_envs
        self.opponent_name = opponent
        self.seat = seat
        self.perfect_recall = perfect_recall
        self.illegal = illegal
        self.illegal_penalty = illegal_penalty
        self.autoreset_mode = mode
        self.copy = copy
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.game = _load(variant, scope, options, first_dealer)
        size = (self.game.information_state_tensor_size() if perfect_recall
                else self.game.observation_tensor_size())
        self.single_observation_space = spaces.Box(-100.0, 100.0, (size,), np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        #: The games' rows: each game's observer writes its own row of _observations in place.
        self._observations = np.zeros((num_envs, size), np.float32)
        self._shown = self._observations.view()
        self._shown.flags.writeable = False
        self._observers = [PiquetObserver(perfect_recall, self._observations[i]) for i in range(num_envs)]
        self._masks = np.zeros((num_envs, NUM_ACTIONS), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminations = np.zeros(num_envs, np.bool_)
        self._truncations = np.zeros(num_envs, np.bool_)
        self._autoreset = np.zeros(num_envs, np.bool_)
        self._rngs: list[np.random.Generator] = [np.random.default_rng() for _ in range(num_envs)]
        self._opponents: list[Agent] = [make_agent(opponent) for _ in range(num_envs)]
        self._queues: list[list[int]] = [[] for _ in range(num_envs)]
        self._draws = [self._drawer(i) for i in range(num_envs)]
        self.states: list[Any] = [None] * num_envs

    # ------------------------------------------------------------------ the vector API
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        """Begin every game (or, with ``options={"reset_mask": mask}``, those the mask marks)."""
        if seed is None or isinstance(seed, int):
            super().reset(seed=seed)
            seeds: list[int | None] = [None if seed is None else seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"PiquetVectorEnv: {len(seeds)} seeds for {self.num_envs} games")
        mask = np.ones(self.num_envs, np.bool_)
        if options and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"], np.bool_)
            if mask.shape != (self.num_envs,):
                raise ValueError(f"PiquetVectorEnv: reset_mask must have one flag a game ({self.num_envs}), "
                                 f"not shape {mask.shape}")
        for i in np.flatnonzero(mask):
            if seeds[i] is not None or self.states[i] is None:
                self._rngs[i] = np.random.default_rng(seeds[i])
            self._begin(int(i))
        self._autoreset[mask] = self._terminations[mask] = self._truncations[mask] = False
        return self._shown_observations(), self._infos()

    def step(self, actions: Any) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any],
                                          np.ndarray[Any, Any], dict[str, Any]]:
        ids = np.asarray(actions)
        if ids.shape != (self.num_envs,):
            raise ValueError(f"PiquetVectorEnv: step takes one action a game ({self.num_envs}), not shape {ids.shape}")
        # Every action checked before any is applied, so that an illegal one changes nothing.
        illegal = np.zeros(self.num_envs, np.bool_)
        for i in range(self.num_envs):
            state = self.states[i]
            if state is None:
                raise ValueError("PiquetVectorEnv: the games are not begun: call reset()")
            if self._autoreset[i] and self.autoreset_mode is AutoresetMode.NEXT_STEP:
                continue
            if state.is_terminal():
                raise ValueError(f"PiquetVectorEnv: game {i} is over: reset it (reset_mask) before stepping it")
            action = int(ids[i])
            if not (0 <= action < NUM_ACTIONS and self._masks[i, action]):
                if self.illegal == "raise":
                    raise ValueError(f"PiquetVectorEnv: in game {i}, seat {self.seat} cannot take action {action} "
                                     f"now (legal ids: {np.flatnonzero(self._masks[i]).tolist()})")
                illegal[i] = True
        infos: dict[str, Any] = {}
        final: list[tuple[int, np.ndarray[Any, Any], dict[str, Any]]] = []
        for i in range(self.num_envs):
            state = self.states[i]
            if self._autoreset[i] and self.autoreset_mode is AutoresetMode.NEXT_STEP:
                self._begin(i)
                self._rewards[i] = 0.0
                self._terminations[i] = False
                continue
            if illegal[i]:
                self._rewards[i] = -self.illegal_penalty
                self._terminations[i] = False
                continue
            state.apply_action(int(ids[i]))
            _play_to(state, self.seat, self._opponents[i], self._queues[i], self._draws[i])
            done = bool(state.is_terminal())
            self._terminations[i] = done
            self._rewards[i] = float(state.returns()[self.seat]) if done else 0.0
            if done:
                self._masks[i] = 0
            else:
                self._mask(i)
            self._observers[i].set_from(state, self.seat)
            if done and self.autoreset_mode is AutoresetMode.SAME_STEP:
                final.append((i, self._observations[i].copy(), {"action_mask": self._masks[i].copy()}))
                self._begin(i)
        if final:
            infos["final_obs"] = np.full(self.num_envs, None, dtype=object)
            infos["final_info"] = np.full(self.num_envs, None, dtype=object)
            infos["_final_obs"] = np.zeros(self.num_envs, np.bool_)
            infos["_final_info"] = np.zeros(self.num_envs, np.bool_)
            for i, observation, info in final:
                infos["final_obs"][i], infos["final_info"][i] = observation, info
                infos["_final_obs"][i] = infos["_final_info"][i] = True
        if self.illegal == "penalty":
            infos["illegal"], infos["_illegal"] = illegal, illegal.copy()
        self._autoreset = self._terminations | self._truncations
        return (self._shown_observations(), self._rewards.copy(), self._terminations.copy(),
                self._truncations.copy(), {**self._infos(), **infos})

    def render(self) -> tuple[str, ...] | None:
        if self.render_mode == "ansi":
            return tuple(str(state) for state in self.states)
        return None

    # ------------------------------------------------------------------ one game
    def _begin(self, i: int) -> None:
        """Game ``i`` anew: its opponent seeded from its generator, chance drawn, played to the learner's turn."""
        rng = self._rngs[i]
        self._opponents[i] = make_agent(self.opponent_name, int(rng.integers(2**31)))
        state = self.states[i] = self.game.new_initial_state()
        self._queues[i] = []
        _play_to(state, self.seat, self._opponents[i], self._queues[i], self._draws[i])
        self._mask(i)
        self._observers[i].set_from(state, self.seat)

    def _drawer(self, i: int) -> Callable[[PiquetState], None]:
        """What draws the cards of a chance node of game ``i``, with its generator."""
        rngs = self._rngs

        def draw(state: PiquetState) -> None:
            # The cards left, in an order drawn at once: the same chances as drawing them one at a time.
            for card in rngs[i].permutation(state.legal_actions()):
                drawn = len(state.drawn)
                state.apply_action(int(card))
                if len(state.drawn) <= drawn or not state.is_chance_node():
                    return  # the deal (or the cut) is whole: a new chance node draws from all the cards again
        return draw

    def _mask(self, i: int) -> None:
        row = self._masks[i]
        row[:] = 0
        state = self.states[i]
        if not state.is_terminal():
            row[state.legal_actions(self.seat)] = 1

    def _shown_observations(self) -> np.ndarray[Any, Any]:
        return self._observations.copy() if self.copy else self._shown

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self._masks.copy(), "_action_mask": np.ones(self.num_envs, np.bool_)}
