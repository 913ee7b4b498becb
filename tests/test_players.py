"""The computer opponents by level: always legal, and each level's character."""

from __future__ import annotations

import random

import pytest

from piquet.ai.agent import play_deal
from piquet.ai.levels import BeginnerAgent, SearchAgent, make_agent
from piquet.engine.actions import Deal, Exchange, Play
from piquet.engine.cards import CARDS, CardSet
from piquet.engine.partie import Partie, Phase


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
@pytest.mark.parametrize("level", ["level1", "level3", "level4"])
def test_every_level_plays_only_legal_actions_in_every_variant(level: str, variant: str) -> None:
    partie = Partie(("Ann", "Bill"), variant, first_dealer=0)
    rng = random.Random(7)
    play_deal(partie, [make_agent(level, 1), make_agent("random", 2)], rng)  # push() verifies every action
    assert partie.deal_scores


def test_level1_keeps_a_side_king_by_exchanging_four_as_beginners_do() -> None:
    # Elder holds a side king among his weakest cards: the beginner keeps it and takes only four.
    elder = CardSet.parse("AS KS QS JS TS 9S 8S KD 7H 8H 7C 8C")
    younger_cards = [c for c in CARDS if c not in elder]
    younger = CardSet(younger_cards[:12])
    talon = tuple(younger_cards[12:])
    partie = Partie(("Ann", "Bill"), first_dealer=0)
    partie.push(Deal(0, (younger, elder), talon, 3))
    action = BeginnerAgent().choose(partie.view(1), partie.legal_actions(1))
    assert isinstance(action, Exchange) and len(action.discards) == 4


def test_level1_leads_an_ace_hoping_the_king_falls() -> None:
    partie = Partie(("Ann", "Bill"), first_dealer=0)
    partie.push(partie.random_deal(random.Random(2), packets=3))
    agent = BeginnerAgent()
    while partie.phase is not Phase.PLAY:
        seat = partie.to_act
        assert seat is not None
        partie.push(make_agent("simple").choose(partie.view(seat), partie.legal_actions(seat)))
    view = partie.view(partie.elder)
    action = agent.choose(view, partie.legal_actions(partie.elder))
    aces = [c for c in view.hand if c.rank == 7]
    if aces:
        assert isinstance(action, Play) and action.card in aces


def test_search_agent_takes_a_sure_last_trick() -> None:
    # Two cards left each: the searching player keeps the winner for the last trick worth the cards.
    partie = Partie(("Ann", "Bill"), first_dealer=0)
    partie.push(partie.random_deal(random.Random(11), packets=3))
    agents = [make_agent("simple", 1), make_agent("simple", 2)]
    while partie.phase is not Phase.PLAY or len(partie.view(0).tricks) < 10:
        seat = partie.to_act
        assert seat is not None
        partie.push(agents[seat].choose(partie.view(seat), partie.legal_actions(seat)))
    seat = partie.to_act
    assert seat is not None
    action = SearchAgent(3, random.Random(0)).choose(partie.view(seat), partie.legal_actions(seat))
    assert action in partie.legal_actions(seat)


def test_unknown_agent_name_is_refused_with_the_known_names() -> None:
    with pytest.raises(ValueError, match="level5"):
        make_agent("grandmaster")


def _play_view(seat: int):  # type: ignore[no-untyped-def]
    partie = Partie(("Ann", "Bill"), first_dealer=0)
    partie.push(partie.random_deal(random.Random(5), packets=3))
    simple = make_agent("simple")
    while partie.phase is not Phase.PLAY:
        s = partie.to_act
        assert s is not None
        partie.push(simple.choose(partie.view(s), partie.legal_actions(s)))
    return partie.view(seat)


def _last_deal(seat: int, mine: int, theirs: int, deals: int = 5):  # type: ignore[no-untyped-def]
    """The view of ``seat`` in the play with ``deals`` deals behind it, her total ``mine`` and her
    opponent's ``theirs`` (the sixth deal is a Rubicon partie's last)."""
    from dataclasses import replace

    from piquet.engine.scoring import DealScore

    totals = (mine, theirs) if seat == 0 else (theirs, mine)
    done = tuple(DealScore.from_events((), 0) for _ in range(deals))
    return replace(_play_view(seat).kept(), deal_scores=done, totals=totals, events=())


@pytest.mark.parametrize("seat", [0, 1])
def test_law_73_in_the_last_deal_a_sure_winner_wants_every_point_scored(seat: int) -> None:
    from piquet.ai.levels import partie_utility
    from piquet.engine.variants import make_rules

    rules = make_rules("rubicon")
    # Seat 0's worth of points: the winner (whichever seat) counts both players' points as his.
    assert partie_utility(_last_deal(seat, 160, 30), rules) == ((1, 1) if seat == 0 else (-1, -1))
    assert partie_utility(_last_deal(seat, 30, 160), rules) == ((-1, -1) if seat == 0 else (1, 1))
    assert partie_utility(_last_deal(seat, 110, 95), rules) == (1, -1)
    assert partie_utility(_last_deal(seat, 160, 30, deals=3), rules) == (1, -1)


@pytest.mark.parametrize("seat", [0, 1])
def test_law_73_in_the_last_deal_a_loser_within_reach_of_the_rubicon_is_what_counts(seat: int) -> None:
    """A loser who may reach 100 turns his score from the winner's gain into his loss (Law 73): the
    winner minimises the loser's points, the loser wants his own even at the cost of the winner's."""
    from piquet.ai.levels import REACH_WEIGHT, partie_utility
    from piquet.engine.variants import make_rules

    rules = make_rules("rubicon")

    def mine(utility: tuple[int, int]) -> tuple[int, int]:  # my worth of my point, of hers
        return utility if seat == 0 else (-utility[1], -utility[0])

    leading = _last_deal(seat, 160, 85)
    assert mine(partie_utility(leading, rules)) == (1, -REACH_WEIGHT)
    assert partie_utility(leading, rules, reach=False) == (1, -1)
    assert mine(partie_utility(_last_deal(seat, 85, 160), rules)) == (REACH_WEIGHT, -1)
    # over already: the score difference again
    assert partie_utility(_last_deal(seat, 105, 160), rules) == (1, -1)


def test_sampled_exchange_returns_a_legal_exchange_of_the_allowed_size() -> None:
    from piquet.ai.levels import Level

    partie = Partie(("Ann", "Bill"), first_dealer=0)
    partie.push(partie.random_deal(random.Random(8), packets=3))
    agent = SearchAgent(5, random.Random(1), Level(play_worlds=2, exchange_worlds=6, exchange_candidates=6))
    for seat in (1, 0):  # elder, then younger
        action = agent.choose(partie.view(seat), partie.legal_actions(seat))
        assert isinstance(action, Exchange) and action in partie.legal_actions(seat)
        partie.push(action)


def test_agent_spec_changes_one_setting_of_a_level() -> None:
    from piquet.ai.levels import LEVELS, parse_spec

    agent = make_agent("level5:play=48,exchange=0,discards=0", 1)
    assert isinstance(agent, SearchAgent)
    assert agent.settings.play_worlds == 48 and agent.settings.exchange_worlds == 0
    assert agent.settings.exchange_candidates == LEVELS[5].exchange_candidates
    assert not agent.settings.discard_model
    assert parse_spec("level4") == ("level4", {})
    partie = make_agent("level4:declare=0,reach=0,settle=1", 1)
    assert isinstance(partie, SearchAgent)
    assert not partie.settings.partie_declarations and not partie.settings.rubicon_reach
    assert partie.settings.partie_exchange and not LEVELS[4].partie_exchange


@pytest.mark.parametrize("spec, reason", [
    ("level5:depth=3", "unknown setting 'depth'"),
    ("level5:play=x", "play needs a whole number"),
    ("level5:play", "play needs a whole number"),
    ("level5:play=0", "at least one sampled deal"),
    ("simple:play=4", "only the searching levels"),
])
def test_bad_agent_spec_is_refused_with_the_reason(spec: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        make_agent(spec)
