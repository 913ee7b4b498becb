"""The research examples play the project's games: OpenSpiel's IS-MCTS through ``state_from_view`` and the
arena's ``module:callable`` agents."""

from __future__ import annotations

import random

import pytest
from helpers import agents

pytest.importorskip("pyspiel")

from piquet.ai.agent import play_deal
from piquet.ai.levels import make_agent
from piquet.engine.partie import Partie, Phase
from piquet.measure import arena
from piquet.research.examples.ismcts import ISMCTSAgent, quick
from piquet.research.openspiel import state_from_view

pytestmark = pytest.mark.research


def test_a_state_built_from_a_view_offers_the_player_his_own_legal_actions() -> None:
    rng = random.Random(8)
    ag = [make_agent("level2", 8), make_agent("level2", 9)]  # the books' choices, which the inference models
    built = 0
    for variant in ("rubicon", "auction"):
        p = Partie(("Ann", "Bill"), variant, first_dealer=1)
        p.push(p.random_deal(rng))
        while len(p.deal_scores) == 0:
            seat = p.to_act
            assert seat is not None
            if rng.random() < 0.25 and p.phase is not Phase.EXCHANGE:
                try:
                    state = state_from_view(p.view(seat), rng, attempts=10)
                except ValueError:
                    pass
                else:
                    built += 1
                    assert state.current_player() == seat
                    assert state.partie.view(seat).hand == p.view(seat).hand
                    assert set(state.partie.legal_actions(seat).list()) == set(p.legal_actions(seat).list())
            p.push(ag[seat].choose(p.view(seat), p.legal_actions(seat)))
    assert built >= 4


def test_state_from_view_refuses_a_spectator() -> None:
    p = Partie(("Ann", "Bill"), first_dealer=0)
    p.push(p.random_deal(random.Random(1)))
    with pytest.raises(ValueError, match="not a spectator"):
        state_from_view(p.view(None), random.Random(1))


def test_ismcts_chooses_a_legal_exchange_and_a_legal_card() -> None:
    rng = random.Random(3)
    p = Partie(("Ann", "Bill"), first_dealer=0)
    p.push(p.random_deal(rng))
    bot = ISMCTSAgent(3, simulations=2, worlds=1)
    books = agents(3)
    assert bot.choose(p.view(1), p.legal_actions(1)) in p.legal_actions(1)
    while p.phase is not Phase.PLAY:
        seat = p.to_act
        assert seat is not None
        p.push(books[seat].choose(p.view(seat), p.legal_actions(seat)))
    seat = p.to_act
    assert seat is not None
    assert bot.choose(p.view(seat), p.legal_actions(seat)) in p.legal_actions(seat)


@pytest.mark.slow
def test_ismcts_plays_a_whole_deal_with_legal_actions() -> None:
    p = Partie(("Ann", "Bill"), first_dealer=0)
    bot = ISMCTSAgent(3, simulations=2, worlds=1)
    play_deal(p, [bot, agents(3)[1]], random.Random(3))
    assert len(p.deal_scores) == 1


def test_the_arena_loads_an_agent_by_module_and_callable() -> None:
    made = arena.make_agent("piquet.research.examples.ismcts:quick", 5)
    assert isinstance(made, ISMCTSAgent) and made.simulations == quick(5).simulations
    with pytest.raises(arena.UnknownAgentError, match="cannot import piquet.nowhere"):
        arena.check_agents(["piquet.nowhere:agent"])
    with pytest.raises(arena.UnknownAgentError, match="has no callable 'missing'"):
        arena.check_agents(["piquet.research.examples.ismcts:missing"])


@pytest.mark.slow
def test_ismcts_meets_a_level_in_the_arena() -> None:
    result = arena.run_arena(["piquet.research.examples.ismcts:quick", "level1"], 1, "rubicon", {}, 0, jobs=1)
    assert result.pairs[0].summary.samples == 1 and len(result.pairs[0].samples) == 1
