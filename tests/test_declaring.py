"""Declarations weighed for the partie (piquet.ai.declaring): the declarations' points are what the
engine scores, whatever is called or sunk; in full for the score difference; and in the last
deal of a partie, fewest points for a loser sure to stay under the rubicon (Laws 72-73)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from piquet.ai.agent import RandomAgent
from piquet.ai.books import SimpleAgent, declaration_in_full
from piquet.ai.declaring import choose_declaration, declared_points
from piquet.ai.exchange import elder_pique
from piquet.ai.levels import SearchAgent, partie_utility
from piquet.engine.actions import Declare
from piquet.engine.cards import CardSet
from piquet.engine.combinations import Category
from piquet.engine.partie import Partie, Phase
from piquet.engine.scoring import DealScore, ScoreCategory

_IN_HAND = (ScoreCategory.POINT, ScoreCategory.SEQUENCES, ScoreCategory.SETS, ScoreCategory.REPIQUE)


def _at_declarations(seed: int, variant: str = "rubicon") -> Partie | None:
    partie = Partie(("Ann", "Bill"), variant, first_dealer=seed % 2)
    partie.push(partie.random_deal(random.Random(seed)))
    books = SimpleAgent(random.Random(seed))
    while partie.phase not in (Phase.DECLARE, Phase.PLAY, Phase.DEAL, Phase.OVER):
        who = partie.to_act
        assert who is not None
        partie.push(books.choose(partie.view(who), partie.legal_actions(who)))
    return partie if partie.phase is Phase.DECLARE else None


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_law_68_declared_points_are_the_engines_whatever_is_called_or_sunk(variant: str) -> None:
    """Calls made at random among the legal ones (in full, smaller, nothing; younger's in any order): elder's
    call against the best younger shows, the better scoring every combination shown (in an Auction minus
    contract, for the opponent of its holder), equal ones nothing, and a repique at thirty in the order of
    reckoning, a carte blanche first."""
    checked = 0
    for seed in range(150):
        partie = _at_declarations(seed, variant)
        if partie is None:
            continue
        before = [0, 0]
        for event in partie.events:
            if event.category is ScoreCategory.CARTE_BLANCHE:
                before[event.player] += event.points
        chooser = RandomAgent(random.Random(seed))
        calls: dict[tuple[Category, int], tuple] = {}  # type: ignore[type-arg]
        while partie.phase is Phase.DECLARE:
            who = partie.to_act
            assert who is not None
            action = chooser.choose(partie.view(who), partie.legal_actions(who))
            assert isinstance(action, Declare)
            calls[(action.category, who)] = action.combinations
            partie.push(action)
        elder = partie.elder
        pairs = [(calls[(c, elder)], calls[(c, 1 - elder)]) for c in Category]
        expected = declared_points(pairs, partie.rules, (before[elder], before[1 - elder]), partie.contract)
        # Younger reckons at elder's first lead.
        while partie.phase is Phase.PLAY and not partie.view(elder).tricks and not partie.view(elder).trick:
            partie.push(SimpleAgent().choose(partie.view(elder), partie.legal_actions(elder)))
        scored = [0, 0]
        for event in partie.events:
            if event.category in _IN_HAND or event.category is ScoreCategory.CARTE_BLANCHE:
                scored[event.player] += event.points
        assert (scored[elder], scored[1 - elder]) == expected, f"seed {seed}: {pairs}"
        checked += 1
    assert checked > 100


def test_cavendish_calling_the_declarations_weighed_judge_younger_on_her_best_and_the_repique_in_order() -> None:
    """The computer's copy of the declarations' scoring (declared_points) judges as the engine does: younger's
    answer is the best she shows, wherever she shows it (Cavendish, Calling), and a repique is reckoned in the
    order of Law 67, so younger's point, reckoned first, stops elder's repique (Law 68)."""
    rules = Partie(("Ann", "Bill")).rules
    cs = CardSet.parse
    lower_first = [((), ()), ((cs("AS KS QS"),), (cs("9H 8H 7H"), cs("JD TD 9D 8D"))), ((), ())]
    assert declared_points(lower_first, rules) == (0, 7)
    equal_second = [((), ()), ((cs("QS JS TS"),), (cs("9H 8H 7H"), cs("QD JD TD"))), ((), ())]
    assert declared_points(equal_second, rules) == (0, 0)
    # Elder: a quint and a tierce (18) and fourteen aces (14), 32 in hand; younger's point of five is reckoned first.
    point_first = [((cs("AS KS QS JS"),), (cs("KH QH JH TH 9H"),)), ((cs("AS KS QS JS TS"), cs("9C 8C 7C")), ()),
                   ((cs("AS AH AD AC"),), ())]
    assert declared_points(point_first, rules) == (32, 5)
    # Without her point, elder's 32 is a repique.
    assert declared_points([((cs("AS KS QS JS"),), ()), *point_first[1:]], rules) == (4 + 32 + 60, 0)


@pytest.mark.parametrize("seed", range(6))
def test_declarations_in_full_for_the_score_difference(seed: int) -> None:
    partie = _at_declarations(seed)
    if partie is None:
        pytest.skip("no declarations in this deal")
    seat = partie.to_act
    assert seat is not None
    view, legal = partie.view(seat), partie.legal_actions(seat)
    assert choose_declaration(view, legal, random.Random(0), 16, (1, -1)) is None
    # A searching level outside the last deal declares as the books do.
    books = SimpleAgent(random.Random(0)).choose(view, legal)
    assert SearchAgent(3, random.Random(0)).choose(view, legal) == books


def _last_deal(view, seat: int, leading: bool):  # type: ignore[no-untyped-def]
    five = tuple(DealScore.from_events((), 0) for _ in range(5))
    totals = [0, 0]
    totals[seat], totals[1 - seat] = (160, 30) if leading else (30, 160)
    return replace(view.kept(), deal_scores=five, totals=(totals[0], totals[1]))


def _true_points(partie: Partie, seat: int, option: Declare) -> tuple[int, int]:
    """Seat's and the opponent's points in hand (and pique) on the true hands when ``seat``
    makes ``option`` now and both declare the rest in full, as the books do."""
    elder = partie.elder
    hands = (partie.hand(0), partie.hand(1))
    pairs = []
    for c in Category:
        e, y = (option.combinations if (c, who) == (option.category, seat) else declaration_in_full(c, hands[who])
                for who in (elder, 1 - elder))
        pairs.append((e, y))
    a, b = declared_points(pairs, partie.rules)
    a = elder_pique(a, b, hands[elder].mask, hands[1 - elder].mask, partie.rules)
    return (a, b) if seat == elder else (b, a)


@pytest.mark.slow
def test_law_73_a_sure_loser_under_the_rubicon_declares_to_have_fewest_points_scored() -> None:
    """In the last deal a loser sure to stay under the rubicon pays for every point scored, his
    and the winner's (Law 73). Over many first declarations, judged on the true hands, the loser's
    choices let fewer points be scored than the books' full declarations; the winner, whom a
    loser carried over the rubicon would cost dear, declares in full."""
    books_total = loser_total = sunk = 0
    for seed in range(60):
        partie = _at_declarations(seed)
        if partie is None:
            continue
        seat = partie.to_act
        assert seat is not None
        legal = partie.legal_actions(seat)
        books = SimpleAgent(random.Random(0)).choose(partie.view(seat), legal)
        assert isinstance(books, Declare)
        for leading in (False, True):
            view = _last_deal(partie.view(seat), seat, leading)
            assert partie_utility(view, partie.rules) == ((1, 1) if (seat == 0) == leading else (-1, -1))
            chosen = SearchAgent(3, random.Random(seed)).choose(view, legal)
            assert isinstance(chosen, Declare) and chosen in legal
            if leading:
                assert chosen == books
            else:
                loser_total += sum(_true_points(partie, seat, chosen))
                sunk += chosen != books
        books_total += sum(_true_points(partie, seat, books))
    assert sunk > 5
    assert loser_total < books_total
