"""OpenSpiel's CFR+ on the declaration subgame, as a player of the project's games (``piquet arena``).

    python3 -m piquet arena piquet.research.examples.cfr:agent level2 --deals 10

When the agent is elder and about to make his first call, it builds the **declaration subgame** from his
view and solves it with OpenSpiel's :class:`~open_spiel.python.algorithms.cfr.CFRPlusSolver`:

- chance draws the opponent's cards (her hand, discards and the talon's order) among ``worlds`` worlds of the
  project's inference, equally likely (:func:`piquet.research.openspiel.state_from_view` builds each);
- then the six declarations are made as the engine has them (point, sequences, sets: elder calls, younger
  answers), each player choosing in each category between two moves: **in full** (the books' declaration,
  every combination held, :func:`piquet.ai.books.declaration_in_full`) and **sink** (declare nothing);
- the rest of the deal is played by level 2 for both (the books' play, reading the view as ever), and the
  returns are the deal's points, each player's less the other's.

Elder's information state is what he heard since the subgame's root (the log's entries and what younger
will reckon at his first lead), so that two of her moves that sound the same are one to him; younger's is
the world and the same. The subgame is a simplification of the deal: younger is told elder's hand (it is the
same in every world), the moves are two per category, and the play is a fixed policy. The agent then makes
the calls of CFR+'s average policy at each of its declarations (the most likely move); where the subgame
does not apply (younger, the exchange, the play, a history the subgame does not hold) it plays as
``fallback`` (level 2). How well: docs/research.md, "Examples".
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import cfr, exploitability

from piquet.ai.agent import Agent
from piquet.ai.books import declaration_in_full
from piquet.ai.levels import make_agent
from piquet.engine.actions import Action, Declare
from piquet.engine.cards import CardSet
from piquet.engine.combinations import Category
from piquet.engine.partie import DECLARATION_ORDER, LegalActions, Partie, Phase
from piquet.engine.view import PlayerView
from piquet.research.openspiel import state_from_view
from piquet.research.openspiel.game import DEAL_BOUND, GAME_KIND

__all__ = ["DeclarationSubgame", "SubgameAgent", "agent", "quick", "solve"]

#: The two moves of a declaration in the subgame.
IN_FULL, SINK = 0, 1
_STEPS = len(DECLARATION_ORDER)

_SUBGAME_TYPE = pyspiel.GameType(
    short_name="python_piquet_declarations",
    long_name="Piquet: the declaration subgame of one deal",
    **GAME_KIND,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={},
)


class DeclarationSubgame(pyspiel.Game):  # type: ignore[misc]
    """The declarations of one deal from elder's first call, over ``roots`` (the same deal in several worlds,
    each a partie at that call), the rest of the deal played by ``playout`` (level 2 unless told)."""

    def __init__(self, roots: Sequence[Partie], playout: str = "level2", seed: int = 0) -> None:
        if not roots:
            raise ValueError("the declaration subgame needs at least one world")
        first = roots[0]
        if first.phase is not Phase.DECLARE or first.to_act != first.elder or first.view(first.elder).announcements:
            raise ValueError("the declaration subgame starts at elder's first call, not "
                             f"{first.phase.value} with {len(first.view(first.elder).announcements)} calls made")
        self.roots = [r.copy() for r in roots]
        self.elder = first.elder
        self.playout = playout
        self.seed = seed
        self._log_start = [len(r.logs()[-1]) for r in self.roots]
        self._deals = [len(r.deal_scores) for r in self.roots]
        self._positions: dict[tuple[int, tuple[int, ...]], Partie] = {}
        self._values: dict[tuple[int, tuple[int, ...]], float] = {}
        self._moves: dict[tuple[int, tuple[int, ...]], list[Declare]] = {}
        self._heard: dict[tuple[int, tuple[int, ...]], str] = {}
        info = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=len(roots), num_players=2,
                                min_utility=-DEAL_BOUND, max_utility=DEAL_BOUND, utility_sum=0.0,
                                max_game_length=_STEPS + 1)
        super().__init__(_SUBGAME_TYPE, info, {})

    def new_initial_state(self) -> DeclarationState:
        return DeclarationState(self)

    # ------------------------------------------------------------------ the engine behind it
    def position(self, world: int, history: tuple[int, ...]) -> Partie:
        """The partie of ``world`` after the subgame's moves ``history`` (kept: the tree is small)."""
        found = self._positions.get((world, history))
        if found is None:
            if not history:
                found = self.roots[world]
            else:
                found = self.position(world, history[:-1]).copy()
                found.push(self.moves(world, history[:-1])[history[-1]])
            self._positions[(world, history)] = found
        return found

    def moves(self, world: int, history: tuple[int, ...]) -> list[Declare]:
        """The engine's declarations behind the moves at ``history``: in full, then sink (one if they are
        the same, or if the one in full is not allowed)."""
        found = self._moves.get((world, history))
        if found is None:
            p = self.position(world, history)
            seat = p.to_act
            assert seat is not None and p.phase is Phase.DECLARE
            found = _moves(seat, DECLARATION_ORDER[len(history)][0], p.hand(seat), p.rules.minimum_point, p.can)
            if not found:  # neither (a rule of the variant): the first the engine allows
                found = [next(iter(p.legal_actions(seat)))]  # type: ignore[list-item]
            self._moves[(world, history)] = found
        return found

    def heard(self, world: int, history: tuple[int, ...]) -> str:
        """What both players heard since the root: the log's entries and what younger will reckon."""
        found = self._heard.get((world, history))
        if found is None:
            p = self.position(world, history)
            said = [repr(e) for e in p.logs()[-1][self._log_start[world]:]]
            found = " ".join(said) + " | " + " ".join(repr(e) for e in p.view(self.elder).unreckoned)
            self._heard[(world, history)] = found
        return found

    def value(self, world: int, history: tuple[int, ...]) -> float:
        """Elder's points less younger's at the end of the deal, played on by the playout level."""
        found = self._values.get((world, history))
        if found is None:
            p = self.position(world, history).copy()
            players = [make_agent(self.playout, self.seed), make_agent(self.playout, self.seed + 1)]
            while len(p.deal_scores) == self._deals[world] and p.to_act is not None:
                seat = p.to_act
                p.push(players[seat].choose(p.view(seat), p.legal_actions(seat)))
            totals = p.deal_scores[-1].totals
            found = float(totals[self.elder] - totals[1 - self.elder])
            self._values[(world, history)] = found
        return found


class DeclarationState(pyspiel.State):  # type: ignore[misc]
    """A state of the subgame: the world drawn (``None`` before chance) and the moves made."""

    def __init__(self, game: DeclarationSubgame) -> None:
        super().__init__(game)
        self.world: int | None = None
        self.history: tuple[int, ...] = ()

    def _game(self) -> DeclarationSubgame:
        game = self.get_game()
        assert isinstance(game, DeclarationSubgame)
        return game

    def current_player(self) -> int:
        if self.world is None:
            return int(pyspiel.PlayerId.CHANCE)
        if len(self.history) == _STEPS:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self._game().position(self.world, self.history).to_act
        assert seat is not None
        return seat

    def is_terminal(self) -> bool:
        return self.world is not None and len(self.history) == _STEPS

    def _legal_actions(self, player: int) -> list[int]:
        assert self.world is not None
        return list(range(len(self._game().moves(self.world, self.history))))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        count = len(self._game().roots)
        return [(i, 1.0 / count) for i in range(count)]

    def _apply_action(self, action: int) -> None:
        if self.world is None:
            self.world = action
        else:
            self.history = (*self.history, action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"world {action}"
        return "in full" if action == IN_FULL else "sink"

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        assert self.world is not None
        game = self._game()
        # The moves' positions in the order heard: each player knows which of his own moves he made.
        own = "".join(str(m) for i, m in enumerate(self.history) if _mover(game, i) == player)
        heard = game.heard(self.world, self.history)
        return f"{own} | {heard}" if player == game.elder else f"world {self.world} {own} | {heard}"

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        assert self.world is not None
        game = self._game()
        v = game.value(self.world, self.history)
        return [v, -v] if game.elder == 0 else [-v, v]

    def __str__(self) -> str:
        return f"world {self.world}, moves {self.history}"


def _mover(game: DeclarationSubgame, step: int) -> int:
    """Who makes the subgame's ``step``-th move (elder calls, younger answers, category by category)."""
    return game.elder if DECLARATION_ORDER[step][1] else 1 - game.elder


def solve(game: DeclarationSubgame, iterations: int) -> tuple[Any, float]:
    """CFR+ run ``iterations`` times: its average policy and OpenSpiel's NashConv of it."""
    solver = cfr.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    return average, float(exploitability.nash_conv(game, average))


class SubgameAgent:
    """Elder's declarations by CFR+ on the declaration subgame; everything else as ``fallback``."""

    def __init__(self, seed: int = 0, worlds: int = 6, iterations: int = 100, fallback: str = "level2") -> None:
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.iterations = iterations
        self.fallback: Agent = make_agent(fallback, seed)
        self.seed = seed
        #: The subgame solved for the current deal: the game, its average policy, the real log's length at
        #: its root; and what was measured of each solved (NashConv, worlds).
        self._plan: tuple[DeclarationSubgame, Any, int, tuple[int, int]] | None = None
        self.solved: list[tuple[float, int]] = []
        #: Declarations made by the policy, and those of them the fallback would have made otherwise.
        self.decided = 0
        self.differed = 0

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        if view.phase is Phase.DECLARE and view.seat == view.elder:
            if not view.announcements:
                self._plan = self._solve(view)
            chosen = self._from_plan(view, legal)
            if chosen is not None:
                self.decided += 1
                self.differed += chosen != self.fallback.choose(view, legal)
                return chosen
        return self.fallback.choose(view, legal)

    def choose_packets(self, view: PlayerView, sizes: tuple[int, ...]) -> int:
        return sizes[0]

    def _solve(self, view: PlayerView) -> tuple[DeclarationSubgame, Any, int, tuple[int, int]] | None:
        roots = []
        for _ in range(self.worlds):
            try:
                roots.append(state_from_view(view, self.rng).partie)
            except ValueError:
                continue
        if not roots:
            return None
        game = DeclarationSubgame(roots, seed=self.seed)
        average, nash_conv = solve(game, self.iterations)
        self.solved.append((nash_conv, len(roots)))
        return game, average, len(view.log), (view.deal_number, view.hand.mask)

    def _from_plan(self, view: PlayerView, legal: LegalActions) -> Action | None:
        """The average policy's likeliest move at the view's information state in the subgame, if it holds
        it (his moves are the same in every world: they are made of his hand)."""
        plan = self._plan
        if plan is None or plan[3] != (view.deal_number, view.hand.mask):
            return None
        _game, average, start, _deal = plan
        minimum = view.rules.minimum_point
        own = "".join(str(SINK if not c.combinations and declaration_in_full(c.category, view.hand, minimum)
                          else IN_FULL) for c in view.own_calls)
        heard = " ".join(repr(e) for e in view.log[start:]) + " | " + " ".join(repr(e) for e in view.unreckoned)
        key = f"{own} | {heard}"
        if key not in average.state_lookup:
            return None
        move = int(np.argmax(average.action_probability_array[average.state_lookup[key]]))
        assert view.seat is not None
        category = DECLARATION_ORDER[2 * len(view.announcements)][0]
        options = _moves(view.seat, category, view.hand, view.rules.minimum_point, lambda a: a in legal)
        return options[move] if move < len(options) else None


def _moves(seat: int, category: Category, hand: CardSet, minimum_point: int,
           allowed: Callable[[Declare], bool]) -> list[Declare]:
    """A player's moves in the subgame: in full, then sink (one if they are the same or the one in full is
    not allowed)."""
    full = Declare(seat, category, declaration_in_full(category, hand, minimum_point))
    found = [a for a in (full, Declare(seat, category, ())) if allowed(a)]
    return found[:1] if len(found) == 2 and found[0] == found[1] else found


def agent(seed: int) -> SubgameAgent:
    """The arena's factory: the declaration subgame over 6 worlds, 100 iterations of CFR+."""
    return SubgameAgent(seed)


def quick(seed: int) -> SubgameAgent:
    """A light one (3 worlds, 20 iterations), for tests and a first look."""
    return SubgameAgent(seed, worlds=3, iterations=20)


def main(argv: Sequence[str] | None = None) -> int:
    """What the subgames solved in some deals come to: their NashConv, the calls that differ from level 2's."""
    import argparse
    import time

    parser = argparse.ArgumentParser(description="CFR+ on the declaration subgame of seeded deals, the agent elder")
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--worlds", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--variant", default="rubicon")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    bot = SubgameAgent(args.seed, worlds=args.worlds, iterations=args.iterations)
    books = make_agent("level2", args.seed + 1)
    spent = 0.0
    for number in range(args.deals):
        p = Partie(("Ann", "Bill"), args.variant, first_dealer=number % 2)
        p.push(p.random_deal(random.Random(args.seed * 1000 + number)))
        while not p.deal_scores and p.to_act is not None:
            seat = p.to_act
            player = bot if seat == p.elder else books
            start = time.process_time()
            action = player.choose(p.view(seat), p.legal_actions(seat))
            spent += time.process_time() - start if player is bot else 0.0
            p.push(action)
    conv = [c for c, _ in bot.solved]
    print(f"{len(bot.solved)} subgames of {args.variant}, {args.worlds} worlds, {args.iterations} iterations of CFR+: "
          f"NashConv mean {sum(conv) / max(len(conv), 1):.4f}, largest {max(conv, default=0.0):.4f} (points)")
    print(f"{bot.decided} calls by the policy, {bot.differed} of them not level 2's; "
          f"{spent / max(args.deals, 1):.1f} s of CPU time a deal for the agent")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
