"""Invariants over random legal play (hypothesis chooses the seeds)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from helpers import SinkingAgent, agents
from hypothesis import given, settings
from hypothesis import strategies as st
from test_variant_invariants import conservation

from piquet.ai.agent import RandomAgent
from piquet.engine.actions import ChooseDealer, Concede, Deal, Play
from piquet.engine.cards import FULL_PACK, CardSet
from piquet.engine.partie import Partie, Phase
from piquet.engine.record import dumps, loads
from piquet.engine.scoring import ScoreCategory

OPTION_SETS = [None, {"minimum_point": 4}, {"younger_may_stand_pat": True, "elder_may_stand_pat": True},
               {"cards_count_toward_pique": True}]


def drive(seed: int, options: dict[str, object] | None = None, cls: type[RandomAgent] = RandomAgent,
          after: Callable[[Partie], None] | None = None, before: Callable[[Partie, object], None] | None = None,
          max_deals: int = 99) -> Partie:
    """A random partie, step by step, calling ``before(partie, action)`` and ``after(partie)``."""
    rng = random.Random(seed)
    ag = agents(seed, cls)
    p = Partie(("Ann", "Bill"), options=options)
    while not p.is_over and len(p.deal_scores) < max_deals:
        if p.phase is Phase.CUT:
            action: object = p.random_cut(rng)
        elif p.phase is Phase.CHOOSE_DEALER:
            action = ChooseDealer(p.to_act, p.to_act)  # type: ignore[arg-type]
        elif p.phase is Phase.DEAL:
            action = p.random_deal(rng)
        else:
            seat = p.to_act
            assert seat is not None
            legal = p.legal_actions(seat)
            action = ag[seat].choose(p.view(seat), legal)
        if before:
            before(p, action)
        p.push(action)  # type: ignore[arg-type]
        if after:
            after(p)
    return p


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), opt=st.sampled_from(OPTION_SETS))
def test_invariants_32_cards_conserved_at_every_step(seed: int, opt: dict[str, object] | None) -> None:
    drive(seed, opt, after=conservation)


def chosen_is_legal(p: Partie, action: object) -> None:
    if isinstance(action, (Deal,)) or p.phase in (Phase.CUT, Phase.CHOOSE_DEALER):
        return
    assert p.can(action)  # type: ignore[arg-type]
    assert action in p.legal_actions(p.to_act)
    assert action in p.legal_actions(p.to_act).list()


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), opt=st.sampled_from(OPTION_SETS))
def test_invariants_every_action_chosen_is_legal(seed: int, opt: dict[str, object] | None) -> None:
    drive(seed, opt, before=chosen_is_legal)


def legal_list_exact(p: Partie) -> None:
    if p.phase is Phase.PLAY:
        seat = p.to_act
        assert seat is not None
        hand = p.hand(seat)
        if p.view(seat).trick:
            follow = hand.suit(p.view(seat).trick[0].suit)
            allowed = follow or hand
        else:
            allowed = hand
        listed = [a.card for a in p.legal_actions(seat) if isinstance(a, Play)]
        assert len(listed) == len(set(listed))
        assert CardSet(listed) == allowed
        for c in CardSet(FULL_PACK) - allowed:
            assert not p.can(Play(seat, c))
        assert all(isinstance(a, (Play, Concede)) for a in p.legal_actions(seat))
        other = p.legal_actions(1 - seat).list()
        assert all(isinstance(a, Concede) for a in other)
    elif p.phase in (Phase.DECLARE, Phase.CARTE_BLANCHE) or (
            p.phase is Phase.EXCHANGE and random.Random(len(p.actions)).random() < 0.3):
        listed = p.legal_actions().list()
        assert listed
        assert len(set(listed)) == len(listed)
        for a in listed:
            assert p.can(a), a


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), opt=st.sampled_from(OPTION_SETS))
def test_invariants_legal_actions_lists_only_legal_actions_and_exact_plays(seed: int, opt) -> None:  # type: ignore[no-untyped-def]
    drive(seed, opt, after=legal_list_exact, max_deals=3)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), opt=st.sampled_from(OPTION_SETS))
def test_invariants_score_rederived_from_record_equals_live(seed: int, opt: dict[str, object] | None) -> None:
    checked = []

    def mid(p: Partie) -> None:
        if len(p.actions) % 37 == 0:
            q = loads(dumps(p))
            assert (q.totals, q.deal_scores, q.events, q.phase, q.to_act) == \
                   (p.totals, p.deal_scores, p.events, p.phase, p.to_act)
            checked.append(1)

    p = drive(seed, opt, after=mid)
    q = loads(dumps(p))
    assert q.totals == p.totals and q.result == p.result and q.deal_scores == p.deal_scores
    assert sum(d.totals[0] for d in p.deal_scores) == p.totals[0]
    assert sum(d.totals[1] for d in p.deal_scores) == p.totals[1]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_law_65_play_points_per_deal_equal_12_plus_second_player_wins_plus_1(seed: int) -> None:
    seen = []

    def after(p: Partie) -> None:
        if p.deal_scores and len(p.deal_scores) > len(seen):
            d = p.deal_scores[-1]
            seen.append(d)
            if any(isinstance(a, Concede) for a in p.actions[-1:]):
                return
            tricks = p.view(0).tricks
            assert len(tricks) == 12
            second_wins = sum(1 for t in tricks if t.winner != t.leader)
            play = d.by_category[0]["play"] + d.by_category[1]["play"]
            assert play == 12 + second_wins + 1
            assert d.tricks[0] + d.tricks[1] == 12
            cards = d.by_category[0]["cards"] + d.by_category[1]["cards"]
            assert cards == (0 if d.tricks == (6, 6) else 40 if 12 in d.tricks else 10)
            assert not (d.by_category[0]["pique"] or d.by_category[0]["repique"]) or \
                not (d.by_category[1]["pique"] or d.by_category[1]["repique"])
            for seat in (0, 1):
                assert not (d.by_category[seat]["pique"] and d.by_category[seat]["repique"])

    drive(seed, after=after)
    assert seen


def test_invariants_short_self_play_20_deals() -> None:
    deals = 0
    seed = 0
    while deals < 20:
        p = drive(seed, OPTION_SETS[seed % 4], after=conservation)
        deals += len(p.deal_scores)
        assert p.is_over and p.result is not None
        seed += 1


@pytest.mark.slow
def test_invariants_long_self_play_300_deals() -> None:
    deals = 0
    seed = 1000
    while deals < 300:
        cls = SinkingAgent if seed % 3 == 0 else RandomAgent
        p = drive(seed, OPTION_SETS[seed % 4], cls=cls, after=conservation, before=chosen_is_legal)
        q = loads(dumps(p))
        assert q.totals == p.totals and q.result == p.result
        deals += len(p.deal_scores)
        seed += 1
    assert ScoreCategory.PLAY
