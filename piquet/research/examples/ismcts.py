"""OpenSpiel's information-set MCTS as a player of the project's games, through ``piquet arena``.

    python3 -m piquet arena piquet.research.examples.ismcts:agent level2 --deals 2

At each of its decisions the agent builds a one-deal OpenSpiel state from its view
(:func:`piquet.research.openspiel.state_from_view`), lets :class:`ISMCTSBot` choose ids on it until they make
an engine action, and plays that action. IS-MCTS draws its worlds with ``resample_from_infostate`` (the
project's inference); a world that cannot be replayed is replaced by the agent's own state. It values a deal
by its points, not by the partie's stakes. Where no state can be built from the view (the inference found no
world that replays the log: rare, see ``docs/research.md``), it plays as the books advise (level 2).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from piquet.ai.books import SimpleAgent
from piquet.engine.actions import Action
from piquet.engine.partie import LegalActions
from piquet.engine.view import PlayerView
from piquet.research.openspiel import PiquetState, state_from_view

__all__ = ["ISMCTSAgent", "agent"]


class ISMCTSAgent:
    """IS-MCTS with random rollouts: ``simulations`` per id, ``worlds`` the most worlds it draws per search."""

    def __init__(self, seed: int = 0, simulations: int = 16, worlds: int = 8, uct_c: float = 40.0) -> None:
        self.rng = random.Random(seed)
        self.simulations = simulations
        self.worlds = worlds
        self.uct_c = uct_c
        self.books = SimpleAgent(random.Random(seed))
        self.fallbacks = 0

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        try:
            state = state_from_view(view, self.rng)
        except ValueError:
            self.fallbacks += 1
            return self.books.choose(view, legal)
        random_state = np.random.RandomState(self.rng.randrange(2**31))
        bot = ismcts.ISMCTSBot(
            game=state.get_game(), evaluator=mcts.RandomRolloutEvaluator(1, random_state), uct_c=self.uct_c,
            max_simulations=self.simulations, max_world_samples=self.worlds, random_state=random_state)
        bot.set_resampler(self._resampler)
        ply = state.partie.ply
        while state.partie.ply == ply:
            bot.reset()
            state.apply_action(bot.step(state))
        action = state.partie.peek()
        return action if action in legal else self.books.choose(view, legal)

    def _resampler(self, state: PiquetState, player: int) -> Any:
        try:
            return state.resample_from_infostate(player, self.rng.random)
        except ValueError:
            return state.clone()

    def choose_packets(self, view: PlayerView, sizes: tuple[int, ...]) -> int:
        return sizes[0]


def agent(seed: int) -> ISMCTSAgent:
    """The arena's factory: an IS-MCTS agent, seeded."""
    return ISMCTSAgent(seed)


def quick(seed: int) -> ISMCTSAgent:
    """A light IS-MCTS (4 simulations per id, 2 worlds), for tests and a first look."""
    return ISMCTSAgent(seed, simulations=4, worlds=2)
