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

The game and its state are in :mod:`~piquet.research.openspiel.game`, what a player observes (the tensors and
strings) in :mod:`~piquet.research.openspiel.observation`, and the states a player's information allows in
:mod:`~piquet.research.openspiel.resampling`; their public names are all here, and importing this package
registers the game.
"""

from __future__ import annotations

import pyspiel

from piquet.research.openspiel.game import DEFAULT_PARAMS, GAME_TYPE, PiquetGame, PiquetState
from piquet.research.openspiel.observation import HISTORY, PiquetObserver, tensor_from_scratch
from piquet.research.openspiel.resampling import resample, state_from_view

__all__ = ["DEFAULT_PARAMS", "GAME_TYPE", "HISTORY", "PiquetGame", "PiquetObserver", "PiquetState", "resample",
           "state_from_view", "tensor_from_scratch"]

pyspiel.register_game(GAME_TYPE, PiquetGame)
