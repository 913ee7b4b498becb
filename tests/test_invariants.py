"""Invariants over random legal play of Rubicon Piquet: Hypothesis draws the rule options, every shuffle and
every choice (see ``drivers.py``), so a failure shrinks to a short partie of small deals."""

from __future__ import annotations

import random

import pytest
from drivers import OPTION_SETS, Drawn, Seeded, chosen_is_legal, conservation, drive, options
from helpers import SinkingAgent, examples
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.ai.agent import RandomAgent
from piquet.engine.actions import Concede, Play
from piquet.engine.cards import FULL_PACK, CardSet
from piquet.engine.partie import Partie, Phase
from piquet.engine.record import dumps, loads
from piquet.engine.scoring import DealScore, ScoreCategory


@settings(max_examples=examples(6), deadline=None)
@given(data=st.data(), opt=options())
def test_invariants_32_cards_conserved_at_every_step(data: st.DataObject, opt: dict[str, object]) -> None:
    drive(Drawn(data), options=opt, after=conservation)


@settings(max_examples=examples(6), deadline=None)
@given(data=st.data(), opt=options())
def test_invariants_every_action_chosen_is_legal(data: st.DataObject, opt: dict[str, object]) -> None:
    drive(Drawn(data), options=opt, before=chosen_is_legal)


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
        actions = p.legal_actions().list()
        assert actions
        assert len(set(actions)) == len(actions)
        for a in actions:
            assert p.can(a), a


@settings(max_examples=examples(4), deadline=None)
@given(data=st.data(), opt=options())
def test_invariants_legal_actions_lists_only_legal_actions_and_exact_plays(data: st.DataObject,
                                                                           opt: dict[str, object]) -> None:
    drive(Drawn(data), options=opt, after=legal_list_exact, max_deals=3)


@settings(max_examples=examples(8), deadline=None)
@given(data=st.data(), opt=options())
def test_invariants_score_rederived_from_record_equals_live(data: st.DataObject, opt: dict[str, object]) -> None:
    checked = []

    def mid(p: Partie) -> None:
        if len(p.actions) % 37 == 0:
            q = loads(dumps(p))
            assert (q.totals, q.deal_scores, q.events, q.phase, q.to_act) == \
                   (p.totals, p.deal_scores, p.events, p.phase, p.to_act)
            checked.append(1)

    p = drive(Drawn(data), options=opt, after=mid)
    q = loads(dumps(p))
    assert q.totals == p.totals and q.result == p.result and q.deal_scores == p.deal_scores
    assert sum(d.totals[0] * d.multiplier for d in p.deal_scores) == p.totals[0]
    assert sum(d.totals[1] * d.multiplier for d in p.deal_scores) == p.totals[1]


@settings(max_examples=examples(8), deadline=None)
@given(data=st.data())
def test_law_65_play_points_per_deal_equal_12_plus_second_player_wins_plus_1(data: st.DataObject) -> None:
    seen: list[DealScore] = []

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

    drive(Drawn(data), after=after)
    assert seen


def test_invariants_short_self_play_20_deals() -> None:
    deals = 0
    seed = 0
    while deals < 20:
        p = drive(seed, options=OPTION_SETS[seed % 4], after=conservation)
        deals += len(p.deal_scores)
        assert p.is_over and p.result is not None
        seed += 1


@pytest.mark.slow
def test_invariants_long_self_play_300_deals() -> None:
    deals = 0
    seed = 1000
    while deals < 300:
        cls = SinkingAgent if seed % 3 == 0 else RandomAgent
        p = drive(Seeded(seed, cls), options=OPTION_SETS[seed % 4], after=conservation, before=chosen_is_legal)
        q = loads(dumps(p))
        assert q.totals == p.totals and q.result == p.result
        deals += len(p.deal_scores)
        seed += 1
    assert ScoreCategory.PLAY
