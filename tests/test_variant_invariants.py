"""Invariants of Auction Piquet and Piquet au Cent over random play: the pack is conserved, every action is legal,
records replay to the same scores, views leak nothing, and the play scores what each variant's laws say.
Hypothesis draws the rule options, every shuffle and every choice (see ``drivers.py``), so a failure shrinks to a
short partie of small deals."""

from __future__ import annotations

import random

from drivers import NAMES, Drawn, check_no_leak, chosen_is_legal, conservation, drive, knowledge, parties
from helpers import ANN, BILL, CB_ANN, CB_BILL, CB_TALON, agents, cs, dealt, examples
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.ai.agent import play_partie
from piquet.engine.actions import CarteBlanche, Cut, Exchange
from piquet.engine.partie import Partie, Phase
from piquet.engine.record import dumps, loads
from piquet.engine.scoring import ScoreCategory, ScoreEvent

VARIANTS = ("auction", "au-cent")


@settings(max_examples=examples(6), deadline=None)
@given(data=st.data(), partie=parties(VARIANTS))
def test_variant_invariants_32_cards_conserved_at_every_step(data: st.DataObject,
                                                            partie: tuple[str, dict[str, object]]) -> None:
    drive(Drawn(data), *partie, after=conservation)


@settings(max_examples=examples(6), deadline=None)
@given(data=st.data(), partie=parties(VARIANTS))
def test_variant_invariants_every_action_chosen_is_legal(data: st.DataObject,
                                                        partie: tuple[str, dict[str, object]]) -> None:
    drive(Drawn(data), *partie, before=chosen_is_legal)


@settings(max_examples=examples(6), deadline=None)
@given(data=st.data(), partie=parties(VARIANTS))
def test_variant_invariants_record_round_trip_gives_the_same_scores_result_and_games(
        data: st.DataObject, partie: tuple[str, dict[str, object]]) -> None:
    def mid(p: Partie) -> None:
        if len(p.actions) % 41 == 0 or (p.games and isinstance(p.actions[-1], Cut)):
            q = loads(dumps(p))
            assert (q.totals, q.deal_scores, q.events, q.phase, q.to_act, q.contract, q.games) == \
                   (p.totals, p.deal_scores, p.events, p.phase, p.to_act, p.contract, p.games)

    p = drive(Drawn(data), *partie, after=mid)
    text = dumps(p)
    q = loads(text)
    assert q.deal_scores == p.deal_scores and q.result == p.result and q.totals == p.totals
    assert q.games == p.games and q.games_won() == p.games_won()
    assert dumps(q) == text
    assert p.is_over and p.result is not None


# ---------------------------------------------------------------- views
@settings(max_examples=examples(8), deadline=None)
@given(data=st.data(), partie=parties(VARIANTS))
def test_variant_invariants_views_leak_nothing_during_random_play(data: st.DataObject,
                                                                 partie: tuple[str, dict[str, object]]) -> None:
    drive(Drawn(data), *partie, after=check_no_leak, max_deals=4)


def test_variant_invariants_the_leak_check_detects_a_leak() -> None:
    p = Partie(NAMES, "au-cent")
    while p.phase is not Phase.EXCHANGE:
        p.push(p.random_cut(random.Random(1)) if p.phase is Phase.CUT else p.random_deal(random.Random(1), 2))
    ann, _, spectator = knowledge(p)
    assert p.hand(1) - ann and not (spectator & (p.hand(0) | p.hand(1)))


def test_variant_invariants_the_leak_check_allows_au_cent_carte_blanche_shown_after_elder_discarded() -> None:
    # Cavendish's au Cent: younger may announce carte blanche once elder has discarded; she proves it at once
    # (Laws 19-20), so elder and a spectator may then know her hand as dealt.  Found by the property above.
    p = dealt(CB_BILL, CB_ANN, CB_TALON, packets=2, variant="au-cent")  # Ann, younger, holds the blank hand
    p.push(Exchange(BILL, cs("KS QS JS KH QH")))
    _, bill, spectator = knowledge(p)
    assert not (bill & cs(CB_BILL)) and not (spectator & cs(CB_BILL))
    p.push(CarteBlanche(ANN, True))
    _, bill, spectator = knowledge(p)
    assert cs(CB_BILL).issubset(bill) and cs(CB_BILL).issubset(spectator)
    check_no_leak(p)


# ---------------------------------------------------------------- the play
@settings(max_examples=examples(8), deadline=None)
@given(data=st.data())
def test_lunn_play_points_per_deal_are_twelve_each_trick_scoring_one(data: st.DataObject) -> None:
    seen: list[int] = []

    def after(p: Partie) -> None:
        if len(p.deal_scores) > len(seen):
            seen.append(1)
            d = p.deal_scores[-1]
            if d.annulled:
                assert d.totals == (0, 0) and p.phase is Phase.DEAL
                return
            assert d.contract is not None and d.elder == d.contract.holder
            assert d.by_category[0]["play"] + d.by_category[1]["play"] == 12
            assert d.tricks[0] + d.tricks[1] == 12
            c = d.contract
            won = d.tricks[c.holder]
            made = 12 - won if c.minus else won
            # Lunn: plus, one point a trick won; minus, one point a trick lost.
            own_tricks = d.tricks if not c.minus else (d.tricks[1], d.tricks[0])
            assert (d.by_category[0]["play"], d.by_category[1]["play"]) == own_tricks
            cards = d.by_category[0]["cards"] + d.by_category[1]["cards"]
            capot = 12 in d.tricks
            if d.tricks == (6, 6):
                assert cards == 0
            elif not capot:
                assert cards == 10
            else:
                capot_taker = 0 if own_tricks[0] == 12 else 1
                big = c.tricks == 12 and c.doubles and capot_taker == c.holder
                assert cards == ((80, 160)[c.doubles - 1] if big else 40)
            rate = 10 * c.multiplier
            expected = [0, 0]
            if made > c.tricks:
                expected[c.holder] += rate * (made - c.tricks)
            elif made < c.tricks:
                expected[1 - c.holder] += rate * (c.tricks - made)
            if made >= c.tricks and c.doubles:
                expected[c.holder] += (20, 40)[c.doubles - 1]
            assert [d.by_category[0]["contract"], d.by_category[1]["contract"]] == expected
            for seat in (0, 1):
                assert not (d.by_category[seat]["pique"] and d.by_category[seat]["repique"])
                assert d.by_category[seat]["carte_blanche"] == 0
            if not c.minus:
                assert d.by_category[1 - c.holder]["pique"] == 0  # younger never piques in plus

    drive(Drawn(data), "auction", after=after)
    assert seen


@settings(max_examples=examples(6), deadline=None)
@given(data=st.data())
def test_au_cent_play_points_per_deal_as_rubicon(data: st.DataObject) -> None:
    seen: list[int] = []

    def after(p: Partie) -> None:
        if len(p.deal_scores) > len(seen):
            seen.append(1)
            d = p.deal_scores[-1]
            tricks = p.view(0).tricks
            assert len(tricks) == 12
            second_wins = sum(1 for t in tricks if t.winner != t.leader)
            assert d.by_category[0]["play"] + d.by_category[1]["play"] == 12 + second_wins + 1
            cards = d.by_category[0]["cards"] + d.by_category[1]["cards"]
            assert cards == (0 if d.tricks == (6, 6) else 40 if 12 in d.tricks else 10)
            assert d.contract is None and not d.annulled and d.multiplier == 1

    p = drive(Drawn(data), "au-cent", after=after)
    assert seen and p.is_over and p.result is not None and p.result.games == p.games_won()
    assert max(p.games_won()) >= 3 and p.result.winner == (0 if p.games_won()[0] > p.games_won()[1] else 1)


@settings(max_examples=examples(4), deadline=None)
@given(data=st.data(), fresh_cut=st.booleans())
def test_au_cent_games_are_a_hundred_up_won_at_the_moment_the_loser_under_fifty_a_double(
        data: st.DataObject, fresh_cut: bool) -> None:
    deals: list[list[ScoreEvent]] = []

    def keep_events(p: Partie) -> None:
        if len(p.deal_scores) > len(deals):
            deals.append(list(p.events))

    p = drive(Drawn(data), "au-cent", {"fresh_cut_each_game": True} if fresh_cut else None, after=keep_events)
    order = list(ScoreCategory)
    games = iter(p.games)
    game = [0, 0]
    for number, events in enumerate(deals, start=1):
        # The events stand in the order of reckoning (Law 67); the first to 100 in it wins the game.
        assert [order.index(e.category) for e in events] == sorted(order.index(e.category) for e in events)
        won: tuple[int, bool, tuple[int, int]] | None = None
        for e in events:
            game[e.player] += e.points
            if won is None and game[e.player] >= 100:
                won = (e.player, game[1 - e.player] < 50, (game[0], game[1]))
        if won is not None:
            g = next(games)
            assert (g.winner, g.double, g.reached, g.scores, g.deal) == (*won, (game[0], game[1]), number)
            game = [0, 0]
    assert next(games, None) is None
    if fresh_cut:
        # Each game after the first opens with a cut, the lower card dealing; the record keeps it.
        cuts = sum(1 for a in p.actions if isinstance(a, Cut))
        assert cuts >= len(p.games) - (1 if p.is_over else 0)
        assert loads(dumps(p)).games == p.games


def test_variant_invariants_play_partie_takes_the_variant() -> None:
    for variant in VARIANTS:
        p = play_partie(agents(1), random.Random(1), NAMES, variant)
        assert p.variant == variant and p.is_over
        assert loads(dumps(p)).result == p.result
