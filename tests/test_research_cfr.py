"""The CFR example: OpenSpiel's CFR+ solves the declaration subgame of a deal (worlds of the inference,
in full or sink in each category, level 2 playing on), and the agent plays its policy as elder."""

from __future__ import annotations

import random

import pytest
from helpers import agents

pytest.importorskip("pyspiel")

from piquet.engine.actions import Declare
from piquet.engine.partie import Partie, Phase
from piquet.measure import arena
from piquet.research.examples.cfr import IN_FULL, SINK, DeclarationSubgame, SubgameAgent, quick, solve
from piquet.research.openspiel import state_from_view

pytestmark = pytest.mark.research


def _at_elder_s_first_call(seed: int) -> Partie:
    p = Partie(("Ann", "Bill"), first_dealer=seed % 2)
    p.push(p.random_deal(random.Random(seed)))
    books = agents(seed)
    while p.phase is not Phase.DECLARE:
        seat = p.to_act
        assert seat is not None
        p.push(books[seat].choose(p.view(seat), p.legal_actions(seat)))
    return p


def _subgame(seed: int, worlds: int) -> tuple[Partie, DeclarationSubgame]:
    p = _at_elder_s_first_call(seed)
    rng = random.Random(seed)
    roots = [state_from_view(p.view(p.elder), rng).partie for _ in range(worlds)]
    return p, DeclarationSubgame(roots)


def test_the_subgame_is_elder_s_and_younger_s_six_declarations_over_the_worlds() -> None:
    p, game = _subgame(2, 2)
    state = game.new_initial_state()
    assert state.is_chance_node() and [o for o, _ in state.chance_outcomes()] == [0, 1]
    state.apply_action(1)
    moves = 0
    while not state.is_terminal():
        assert state.current_player() == game.position(1, state.history).to_act
        assert state.legal_actions() in ([IN_FULL], [IN_FULL, SINK])
        state.apply_action(state.legal_actions()[-1])  # sink wherever there is something to sink
        moves += 1
    assert moves == 6
    end = game.position(1, state.history)
    assert end.phase is Phase.PLAY and not end.view(end.elder).events  # nobody declared: nothing scored
    returns = state.returns()
    assert returns[0] == -returns[1] and returns[p.elder] == game.value(1, state.history)


def test_elder_does_not_hear_a_sinking_that_sounds_like_a_good_answer() -> None:
    """His information state is what was said: younger's answer "good" in full (her point worse than his)
    and her sinking say the same, and are one information state to him, two to her."""
    found = 0
    for seed in range(12):
        _p, game = _subgame(seed, 1)
        states = []
        for answer in (IN_FULL, SINK):
            state = game.new_initial_state()
            state.apply_action(0)
            state.apply_action(IN_FULL)  # elder calls his point
            if answer in state.legal_actions():
                state.apply_action(answer)
                states.append(state)
        if len(states) < 2:
            continue
        heard = [game.heard(0, s.history) for s in states]
        elder_sees = [s.information_state_string(game.elder) for s in states]
        younger_sees = [s.information_state_string(1 - game.elder) for s in states]
        assert (elder_sees[0] == elder_sees[1]) == (heard[0] == heard[1])
        assert younger_sees[0] != younger_sees[1]
        found += heard[0] == heard[1]
    assert found >= 1


def test_cfr_plus_solves_a_small_subgame_with_a_small_nash_conv() -> None:
    _p, game = _subgame(6, 2)
    average, nash_conv = solve(game, 30)
    assert 0.0 <= nash_conv < 1.0  # in points of a deal
    for row in average.action_probability_array:
        assert abs(sum(row) - 1.0) < 1e-9


def test_the_agent_declares_by_the_policy_as_elder_and_legally() -> None:
    p = _at_elder_s_first_call(8)
    bot = SubgameAgent(8, worlds=2, iterations=10)
    books = agents(8)
    while p.phase is Phase.DECLARE:
        seat = p.to_act
        assert seat is not None
        if seat == p.elder:
            action = bot.choose(p.view(seat), p.legal_actions(seat))
            assert isinstance(action, Declare) and action in p.legal_actions(seat)
        else:
            action = books[seat].choose(p.view(seat), p.legal_actions(seat))
        p.push(action)
    assert len(bot.solved) == 1 and bot.solved[0][1] == 2
    assert bot.decided == 3  # his three calls, all from the subgame's policy


def test_the_arena_loads_the_cfr_agent() -> None:
    made = arena.make_agent("piquet.research.examples.cfr:quick", 5)
    assert isinstance(made, SubgameAgent) and made.worlds == quick(5).worlds


@pytest.mark.slow
def test_the_cfr_agent_meets_level_2_in_the_arena() -> None:
    result = arena.run_arena(["piquet.research.examples.cfr:quick", "level2"], 1, "rubicon", {}, 0, jobs=1)
    assert result.pairs[0].summary.samples == 1
