"""The exact play solver against a plain minimax with no pruning, on small endings of every variant."""

from __future__ import annotations

import random
from typing import NamedTuple

import pytest
from drivers import hands
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.ai.solver import PlayPosition, play, position_from_partie, position_from_view, solve
from piquet.engine.cards import CARDS, CardSet, shuffled_pack
from piquet.engine.scoring import ScoreCategory
from piquet.engine.variants import Contract, Rules, make_rules


def minimax(h: list[int], to_act: int, lead: tuple[int, int] | None, won: tuple[int, int],
            scores: tuple[int, int], done: bool, rules: Rules, contract: Contract | None, elder: int,
            lead_scored: bool = False, utility: tuple[int, int] = (1, -1)) -> int:
    """The utility for ``to_act`` from here (seat 0's is ``utility`` per point of each seat,
    seat 1's the opposite), every line of play tried, scored step by step."""
    sign = 1 if to_act == 0 else -1
    me = to_act
    mine = h[me]
    if lead is None:
        if not h[0] and not h[1]:
            net = 0
            awards = rules.cards_awards(won, contract) + rules.contract_awards(won, contract)
            for who, points, _ in awards:
                net += points * utility[who]
            return sign * net
        return max(-minimax([h[0] & ~(1 << c), h[1]] if me == 0 else [h[0], h[1] & ~(1 << c)],
                            1 - me, (c, me), won, scores, done, rules, contract, elder, False, utility)
                   for c in range(32) if mine >> c & 1)
    lead_card, leader = lead
    follow = mine & (0xFF << (8 * (lead_card >> 3))) or mine
    best = -(1 << 20)
    for c in range(32):
        if not follow >> c & 1:
            continue
        nh = list(h)
        nh[me] &= ~(1 << c)
        winner = me if CARDS[c].beats(lead_card) else leader
        steps = []
        lead_points = rules.lead_points(CARDS[lead_card], contract)
        if lead_points and not lead_scored:
            steps.append((leader, lead_points))
        steps += [(w, p) for w, p, _ in rules.trick_awards(leader, (CARDS[lead_card], CARDS[c]), winner, contract)]
        if not nh[0] and not nh[1] and rules.last_trick_points(contract):
            steps.append((winner, rules.last_trick_points(contract)))
        sc, pts, now_done = list(scores), [0, 0], done
        for w, p in steps:
            sc[w] += p
            pts[w] += p
            threshold = rules.pique_threshold(contract)
            if (not now_done and sc[1 - w] == 0 and sc[w] >= threshold > sc[w] - p
                    and rules.may_pique(w, elder, contract)):
                pts[w] += rules.pique_points
                sc[w] += rules.pique_points
                now_done = True
        nwon = [won[0], won[1]]
        nwon[winner] += 1
        rest = minimax(nh, winner, None, (nwon[0], nwon[1]), (sc[0], sc[1]), now_done, rules, contract, elder,
                       False, utility)
        gain = sign * (utility[0] * pts[0] + utility[1] * pts[1])
        best = max(best, gain + (rest if winner == me else -rest))
    return best


class Ending(NamedTuple):
    rules: Rules
    contract: Contract | None
    hands: tuple[int, int]
    won: tuple[int, int]
    scores: tuple[int, int]
    elder: int
    to_act: int
    done: bool
    utility: tuple[int, int]
    led: bool
    all_values: bool


@st.composite
def endings(draw: st.DrawFn) -> Ending:
    """An ending of 1 to 4 tricks of any variant (drawn hands, tricks won, scores, perhaps a card led)."""
    variant = draw(st.sampled_from(["rubicon", "auction", "au-cent"]))
    options: dict[str, object] = {}
    if variant == "au-cent" and draw(st.booleans()):
        options["low_cards_score_nothing_in_play"] = True
    if variant == "rubicon" and draw(st.booleans()):
        options["points_for_winning_opponents_lead"] = 2
    contract = (draw(st.builds(Contract, st.integers(0, 1), st.integers(7, 12), st.booleans(), st.integers(0, 2)))
                if variant == "auction" else None)
    n = draw(st.integers(1, 4))
    hand0, hand1 = draw(hands(n))
    w0 = draw(st.integers(0, 12 - n))
    return Ending(
        make_rules(variant, options), contract, (hand0.mask, hand1.mask), (w0, 12 - n - w0),
        (draw(st.sampled_from([0, 5, 25, 28])), draw(st.sampled_from([0, 3, 20]))),
        draw(st.integers(0, 1)), draw(st.integers(0, 1)), draw(st.booleans()),
        draw(st.sampled_from([(1, -1), (1, 1), (-1, -1)])), draw(st.booleans()), draw(st.booleans()))


@settings(max_examples=examples(150), deadline=None)
@given(endings())
def test_solver_equals_minimax_on_random_endings_of_every_variant(ending: Ending) -> None:
    rules, contract, (h0, h1), won, scores, elder, to_act, done, utility, led, all_values = ending
    h = [h0, h1]
    if led:
        # A card already led: its point is in the scores.
        leader = 1 - to_act
        lead = next(c for c in range(32) if h[leader] >> c & 1)
        h[leader] &= ~(1 << lead)
        sc = list(scores)
        sc[leader] += rules.lead_points(CARDS[lead], contract)
        position = PlayPosition((h[0], h[1]), to_act, elder, won, (sc[0], sc[1]), CARDS[lead], done, contract,
                                utility)
        expected = minimax(h, to_act, (lead, leader), won, (sc[0], sc[1]), done, rules, contract, elder, True,
                           utility)
    else:
        position = PlayPosition((h[0], h[1]), to_act, elder, won, scores, None, done, contract, utility)
        expected = minimax(h, to_act, None, won, scores, done, rules, contract, elder, False, utility)
    result = solve(position, rules, all_values=all_values)
    assert result.value == expected
    assert result.best and all(result.values[c] == expected for c in result.best)


def test_solver_touching_cards_are_one_move_and_all_are_best() -> None:
    # Holding A K Q of spades against the 7: leading any of them is the same.
    pos = PlayPosition((CardSet.parse("AS KS QS").mask, CardSet.parse("7S 8H 9H").mask), 0, 0, (4, 5), (10, 10))
    result = solve(pos, make_rules("rubicon"), all_values=True)
    assert {str(c) for c in result.best} == {"AS", "KS", "QS"}


def test_solver_plays_for_the_cards_worth_ten() -> None:
    # Six tricks each so far would split the cards; winning the last trick takes them.
    pos = PlayPosition((CardSet.parse("AH").mask, CardSet.parse("KH").mask), 0, 0, (6, 5), (20, 20))
    assert solve(pos, make_rules("rubicon")).value == 1 + 1 + 10  # lead, last trick, the cards


def test_solver_position_from_a_live_partie_matches_a_full_solve() -> None:
    from piquet.ai.agent import RandomAgent
    from piquet.engine.partie import Partie, Phase

    partie = Partie(("Ann", "Bill"), first_dealer=0)
    rng = random.Random(4)
    agents = [RandomAgent(random.Random(1)), RandomAgent(random.Random(2))]
    partie.push(partie.random_deal(rng, packets=3))
    while partie.phase is not Phase.PLAY or len(partie.view(0).tricks) < 8:
        seat = partie.to_act
        assert seat is not None
        partie.push(agents[seat].choose(partie.view(seat), partie.legal_actions(seat)))
    position = position_from_partie(partie)
    result = solve(position, partie.rules)
    assert result.best and all(c in partie.hand(position.to_act) for c in result.best)
    with pytest.raises(ValueError, match="no play position"):
        position_from_partie(Partie(("Ann", "Bill"), first_dealer=0))


def test_rulings_10_younger_unreckoned_points_count_in_every_play_position() -> None:
    """Younger's points not yet reckoned at elder's first lead (the rulings, 10 and 12) are in the
    view, public, and in the play position built from it, the player's or the partie's alike: they
    decide whether a pique may come."""
    from piquet.ai.agent import RandomAgent
    from piquet.engine.partie import Partie, Phase

    unreckoned_seen = 0
    for seed in range(30):
        partie = Partie(("Ann", "Bill"), first_dealer=seed % 2)
        partie.push(partie.random_deal(random.Random(seed), packets=3))
        agents = [RandomAgent(random.Random(seed)), RandomAgent(random.Random(seed + 1))]
        while partie.phase is not Phase.PLAY:
            seat = partie.to_act
            if seat is None or partie.phase is Phase.DEAL:
                break
            partie.push(agents[seat].choose(partie.view(seat), partie.legal_actions(seat)))
        while partie.phase is Phase.PLAY:
            me = partie.to_act
            assert me is not None
            full = position_from_partie(partie)
            reckoned = [0, 0]
            for e in partie.events:
                if e.category not in (ScoreCategory.CARDS, ScoreCategory.CONTRACT):
                    reckoned[e.player] += e.points
            late = [0, 0]
            for e in partie.unreckoned:
                late[e.player] += e.points
            unreckoned_seen += bool(partie.unreckoned)
            assert full.scores == (reckoned[0] + late[0], reckoned[1] + late[1])
            for seat in (me, 1 - me, None):
                assert partie.view(seat).unreckoned == partie.unreckoned
            assert full == position_from_view(partie.view(me), partie.hand(1 - me))
            partie.push(agents[me].choose(partie.view(me), partie.legal_actions(me)))
    assert unreckoned_seen >= 5


def _endings_of_many_contracts(count: int) -> list[PlayPosition]:
    rng = random.Random(3)
    out = []
    for i in range(count):
        cards = shuffled_pack(rng)
        hands = (sum(1 << c for c in cards[:6]), sum(1 << c for c in cards[6:12]))
        contract = Contract(i % 2, 7 + i % 4, bool(i % 3 == 0))
        out.append(PlayPosition(hands, i % 2, i % 2, tricks_won=(3, 3), contract=contract))
    return out


def test_solver_models_stay_bounded_across_many_contracts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Auction Piquet compiles a model for every contract; no more than the limit are kept (a long
    arena run once grew past ten gigabytes), and solving after they are dropped gives the same values."""
    from piquet.ai import play_model

    monkeypatch.setattr(play_model, "MODEL_LIMIT", 3)
    play_model.MODELS.clear()
    rules = make_rules("auction")
    positions = _endings_of_many_contracts(24)
    first = []
    for position in positions:
        first.append(solve(position, rules).value)
        assert 1 <= len(play_model.MODELS) <= 3
    play_model.MODELS.clear()
    assert [solve(p, rules).value for p in positions] == first


def _by_steps(position: PlayPosition, rules: Rules) -> int:
    """The value for the player to act, every line of play tried, each card scored by the solver's step."""
    me = position.to_act
    hand = position.hands[me]
    if position.lead is not None:
        hand = hand & (0xFF << (8 * position.lead.suit)) or hand
    best = -(1 << 20)
    for c in range(32):
        if not hand >> c & 1:
            continue
        after, events = play(position, CARDS[c], rules)
        u = sum(position.utility[e.player] * e.points for e in events)
        gain = u if me == 0 else -u
        rest = 0 if after.over else _by_steps(after, rules)
        best = max(best, gain + (rest if after.to_act == me else -rest))
    return best


@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_parlett_where_play_ceases_at_the_target_the_solver_equals_a_minimax_of_its_steps(data: st.DataObject) -> None:
    """Piquet au Cent, option play_ceases_at_the_target: the deal stops as soon as a player reaches the game's target,
    so the search goes card by card with what each still needs in its state; on endings of 1 to 4 tricks it finds
    what trying every line finds."""
    rules = make_rules("au-cent", {"play_ceases_at_the_target": True,
                                   "cards_count_toward_pique": data.draw(st.booleans())})
    n = data.draw(st.integers(1, 4))
    hand0, hand1 = data.draw(hands(n))
    w0 = data.draw(st.integers(0, 12 - n))
    target = (data.draw(st.integers(1, 14)), data.draw(st.integers(1, 14)))
    scores = (data.draw(st.sampled_from([0, 5, 25])), data.draw(st.sampled_from([0, 3])))
    position = PlayPosition((hand0.mask, hand1.mask), data.draw(st.integers(0, 1)), data.draw(st.integers(0, 1)),
                            (w0, 12 - n - w0), scores, None, data.draw(st.booleans()), None,
                            data.draw(st.sampled_from([(1, -1), (1, 1)])), target)
    result = solve(position, rules, all_values=data.draw(st.booleans()))
    expected = _by_steps(position, rules)
    assert result.value == expected
    assert result.best and all(result.values[c] == expected for c in result.best)
