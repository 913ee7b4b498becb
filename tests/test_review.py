"""The review of the card play (piquet.coach.review): constructed positions with a known best card, the
breakdown's parts against the solver's values, and the fair lens against its own definition."""

from __future__ import annotations

import functools
import json
import random
from typing import Any, NamedTuple, cast

import pytest
from drivers import hands
from helpers import BILL, card, cs, dealt, run
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.ai.agent import play_partie
from piquet.ai.books import SimpleAgent
from piquet.ai.levels import make_agent, partie_utility, sample_opponent_hands
from piquet.ai.solver import PlayPosition, position_from_partie, position_from_view, solve
from piquet.coach.review import (
    DECLARATION_PARTS,
    MARKS,
    BestCache,
    Lens,
    Part,
    PlayReview,
    PlayReviewed,
    declaration_differences,
    differences,
    explain,
    explain_declaration,
    mark,
    principal_line,
    review_decision,
    review_declaration,
    review_partie,
    review_position,
)
from piquet.engine import record
from piquet.engine.actions import Deal, Declare, Exchange, Play
from piquet.engine.cards import CARDS, Card
from piquet.engine.combinations import Category
from piquet.engine.partie import Partie
from piquet.engine.variants import Contract, Rules, make_rules

NAMES = ("Ann", "Bill")
RUBICON = make_rules("rubicon")


def _position(ann: str, bill: str, to_act: int, won: tuple[int, int], scores: tuple[int, int],
              lead: str | None = None) -> PlayPosition:
    return PlayPosition((cs(ann).mask, cs(bill).mask), to_act, 0, won, scores, card(lead) if lead else None)


# ---------------------------------------------------------------- constructed positions with a known best card
def test_review_finds_a_lead_that_hands_over_the_cards() -> None:
    # Five tricks each, two to play. Ann's ace of hearts first keeps the lead, and Bill's king takes the
    # last trick: six each, the cards divided. Her seven of spades first gives Bill the king's trick and the
    # lead, to a diamond her ace cannot win: seven tricks to five, and the cards to Bill.
    position = _position("AH 7S", "KS 8D", 0, (5, 5), (20, 15))
    review = review_position(position, RUBICON, card("7S"))
    assert review.best == card("AH")
    assert [(w.card, w.value) for w in review.cards] == [(card("AH"), 0), (card("7S"), -12)]
    assert review.loss == 12 and review.mark == "??"
    assert differences(review) == [(Part.CARDS, -10), (Part.LEAD, -2)]
    assert explain(review, NAMES) == ("Leading the 7♠ rather than the A♥ costs Ann 12 points: it gives up the cards "
                                      "(−10; 5 tricks instead of 6) and the points for leading (−2). Bill takes the "
                                      "trick with the K♠.")


def test_review_finds_the_only_card_that_saves_the_capot() -> None:
    # Bill has won all nine tricks; Ann's ace of hearts wins only if she leads it now: a spade lets Bill keep the
    # lead in spades to the end, the ace thrown on his last spade.
    position = _position("AH 8S 7S", "KS QS JS", 0, (0, 9), (5, 25))
    review = review_position(position, RUBICON, card("7S"))
    assert review.best == card("AH")
    assert [(w.card, w.value) for w in review.cards] == [(card("AH"), -11), (card("7S"), -43), (card("8S"), -43)]
    assert review.worth(card("7S")).tricks == 0 and review.worth(card("AH")).tricks == 1
    assert review.loss == 32 and review.mark == "??"
    # A capot's forty instead of the cards' ten; Bill's leads score instead of Ann's one.
    assert differences(review) == [(Part.CAPOT, -30), (Part.LEAD, -2)]
    assert explain(review, NAMES) == ("Leading the 7♠ rather than the A♥ costs Ann 32 points: it gives up the capot "
                                      "(−30; 0 tricks instead of 1) and the points for leading (−2). Bill takes the "
                                      "trick with the K♠.")
    # The same sentence in French (the seat's language), from the same breakdowns: the catalogue's words, a French
    # pack's R for the king.
    assert explain(review, NAMES, "fr") == ("Entamer 7♠ plutôt que A♥ coûte 32 points à Ann : on y perd le capot "
                                            "(−30 ; 0 levées au lieu de 1) et les points d'entame (−2). Bill prend la "
                                            "levée avec R♠.")


def test_review_finds_the_trick_that_saves_a_pique() -> None:
    # Ann has 29 (her lead of the king included), Bill nothing: should she win this trick and lead again,
    # her lead's point makes thirty and a pique. Bill's ace wins it and scores, and no pique can come; his seven
    # lets her have it.
    position = _position("QH JH TH", "AS 7S 9C 8C", 1, (4, 4), (29, 0), lead="KS")
    review = review_position(position, RUBICON, card("7S"))
    assert review.best == card("AS")
    assert review.loss == 59 and review.mark == "??"
    assert differences(review)[0] == (Part.PIQUE, -30)
    assert explain(review, NAMES).startswith("Playing the 7♠ rather than the A♠ costs Bill 59 points: it gives up "
                                             "the pique (−30), the cards (−20; 4 tricks instead of 8)")


def test_review_of_the_best_card_says_by_how_much_or_what_is_as_good() -> None:
    review = review_position(_position("AH 7S", "KS 8D", 0, (5, 5), (20, 15)), RUBICON, card("AH"))
    assert review.loss == 0 and review.mark == ""
    assert explain(review, NAMES) == "Leading the A♥: the best, by 12 points over the 7♠."
    tie = review_position(_position("AS KS", "7H 8H", 0, (5, 5), (20, 15)), RUBICON, card("KS"))
    assert tie.loss == 0 and tie.best == card("KS")  # the choice, when it is as good as any
    assert explain(tie, NAMES) == "Leading the K♠: as good as the A♠."


def test_marks_follow_the_thresholds_stated_in_the_docs() -> None:
    assert [threshold for threshold, _ in MARKS] == [10.0, 5.0, 2.0]
    assert [mark(x) for x in (0, 1, 1.99, 2, 4.9, 5, 9.9, 10, 40)] == ["", "", "", "?!", "?!", "?", "?", "??", "??"]


def test_review_refuses_a_card_that_is_not_legal() -> None:
    with pytest.raises(ValueError, match="not a legal card"):
        review_position(_position("AS 7H", "KS AH", 1, (5, 5), (20, 15), lead="QS"), RUBICON, card("AH"))


# ---------------------------------------------------------------- the breakdown against the solver
class Ending(NamedTuple):
    rules: Rules
    position: PlayPosition


@st.composite
def endings(draw: st.DrawFn) -> Ending:
    """An ending of 1 to 4 tricks of any variant: drawn hands, tricks won, scores (a pique possible or
    not), a card perhaps led, the utilities the levels use."""
    variant = draw(st.sampled_from(["rubicon", "auction", "au-cent"]))
    options: dict[str, object] = {}
    if variant == "rubicon" and draw(st.booleans()):
        options[draw(st.sampled_from(["ten_for_the_last_trick", "lead_point_only_if_won",
                                      "low_cards_score_nothing_in_play"]))] = True
    contract = (draw(st.builds(Contract, st.integers(0, 1), st.integers(7, 12), st.booleans(), st.integers(0, 2)))
                if variant == "auction" else None)
    rules = make_rules(variant, options)
    n = draw(st.integers(1, 4))
    hand0, hand1 = draw(hands(n))
    h = [hand0.mask, hand1.mask]
    w0 = draw(st.integers(0, 12 - n))
    scores = [draw(st.sampled_from([0, 5, 25, 28])), draw(st.sampled_from([0, 3, 20]))]
    to_act = draw(st.integers(0, 1))
    lead = None
    if draw(st.booleans()):
        leader = 1 - to_act
        lead = CARDS[(h[leader] & -h[leader]).bit_length() - 1]
        h[leader] &= ~lead.mask
        scores[leader] += rules.lead_points(lead, contract)
    position = PlayPosition((h[0], h[1]), to_act, draw(st.integers(0, 1)), (w0, 12 - n - w0),
                            (scores[0], scores[1]), lead, draw(st.booleans()), contract,
                            draw(st.sampled_from([(1, -1), (1, 1), (-1, -1)])))
    return Ending(rules, position)


@settings(max_examples=150, deadline=None)
@given(endings())
def test_breakdown_parts_sum_to_the_solver_value_on_random_endings_of_every_variant(ending: Ending) -> None:
    rules, position = ending
    values = solve(position, rules, all_values=True).values
    choice = next(iter(values))
    review = review_position(position, rules, choice, broken_down=None)
    assert {w.card: w.value for w in review.cards} == values
    for worth in review.cards:
        assert worth.parts is not None
        assert sum(worth.parts.values()) == worth.value
        line = principal_line(position, worth.card, rules)
        assert line.value == worth.value and len(line.cards) == bin(position.hands[0] | position.hands[1]).count("1")


@functools.cache
def _partie(seed: int) -> Partie:
    """A whole partie between the simple player and level 1 (kept: copy it before changing it)."""
    return play_partie([SimpleAgent(random.Random(seed)), make_agent("level1", seed + 1)], random.Random(seed), NAMES)


def _seeded_partie(seed: int) -> Partie:
    return _partie(seed).copy()


def _decisions(partie: Partie, deal: int) -> list[tuple[Partie, Play]]:
    """Each card played in deal ``deal`` with more than one legal card, and the partie just before it."""
    replay = partie.copy()
    while replay.ply:
        replay.pop()
    out = []
    number = 0
    for action in partie.actions:
        number += isinstance(action, Deal)
        if isinstance(action, Play) and number == deal and \
                sum(isinstance(a, Play) for a in replay.legal_actions(action.player)) > 1:
            out.append((replay.copy(), action))
        replay.push(action)
    return out


def test_open_hands_values_are_the_solver_s_and_the_parts_sum_to_them_through_a_real_deal() -> None:
    partie = _seeded_partie(11)
    decisions = _decisions(partie, 1)
    assert len(decisions) >= 15
    cache: BestCache = {}
    for i, (at, action) in enumerate(decisions):
        # Every card broken down from the fourth decision on (before, only the choice and the best: the
        # first tricks' lines are the slow ones).
        review = review_decision(at, action.card, Lens.OPEN, broken_down=None if i >= 3 else (), cache=cache)
        solution = solve(position_from_partie(at), at.rules, all_values=True)
        assert {w.card: w.value for w in review.cards} == solution.values
        assert review.loss == solution.value - solution.values[action.card]
        for worth in review.cards:
            if i >= 3 or worth.card in (review.choice, review.best):
                assert worth.parts is not None and sum(worth.parts.values()) == worth.value
                assert worth.line is not None and worth.line[0] == worth.card


def test_fair_values_are_the_mean_over_the_hands_the_strongest_level_samples() -> None:
    partie = _seeded_partie(5)
    at, action = _decisions(partie, 2)[6]
    seat = action.player
    review = review_decision(at, action.card, Lens.FAIR, worlds=6, rng=random.Random(9), broken_down=None)
    view = at.view(seat)
    drawn = sample_opponent_hands(view, random.Random(9), 6)
    total = sum(w for _, w in drawn)
    expected: dict[Card, float] = {}
    for hand, weight in drawn:
        values = solve(position_from_view(view, hand), at.rules, all_values=True).values
        for c, v in values.items():
            expected[c] = expected.get(c, 0.0) + weight * v / total
    assert review.worlds == 6
    assert {w.card: w.value for w in review.cards} == pytest.approx(expected)
    for worth in review.cards:
        assert worth.parts is not None and sum(worth.parts.values()) == pytest.approx(worth.value)
        assert worth.line is None  # a line is one world's: the fair lens gives none


def test_the_fair_lens_is_reproduced_by_its_seed() -> None:
    partie = _seeded_partie(7)
    at, action = _decisions(partie, 1)[8]
    review = review_decision(at, action.card, Lens.FAIR, worlds=4, rng=random.Random(1))
    again = review_decision(at, action.card, Lens.FAIR, worlds=4, rng=random.Random(1))
    assert review == again
    assert isinstance(review, PlayReview) and review.lens is Lens.FAIR


# ---------------------------------------------------------------- a whole partie
def test_review_partie_has_one_entry_per_card_played_and_per_exchange() -> None:
    partie = _seeded_partie(3)
    review = review_partie(partie, Lens.OPEN)
    plays = [a for a in partie.actions if isinstance(a, Play)]
    assert [r.card for r in review.plays] == [a.card for a in plays]
    exchanges = [a for a in partie.actions if isinstance(a, Exchange)]
    assert [(r.seat, r.review and r.review.choice) for r in review.exchanges] == [
        (a.player, a.discards) for a in exchanges]
    assert review.declarations and all(r.kind == "declaration" for r in review.declarations)
    for seat in (0, 1):
        summary = review.summary(seat)
        mine = [r.review for r in review.plays if r.seat == seat and r.review is not None]
        assert summary.loss == sum(r.loss for r in mine) and summary.choices == len(mine)
        assert summary.actions == sum(1 for r in review.plays if r.seat == seat)
    # The record's own numbering: deal from 1, the action's index in the deal's list.
    data = record.to_data(partie)
    for r in review.actions:
        assert record.action_from_data(data["deals"][r.deal - 1]["actions"][r.action], NAMES).player == r.seat


def test_review_of_one_deal_is_that_deal_of_the_whole_review() -> None:
    partie = _seeded_partie(3)
    whole = review_partie(partie, Lens.FAIR, worlds=1, seed=4)
    one = review_partie(partie, Lens.FAIR, worlds=1, seed=4, deal=3)
    assert one.actions == [r for r in whole.actions if r.deal == 3]
    with pytest.raises(ValueError, match="there is no deal 9: the record has 6 deals"):
        review_partie(partie, deal=9)


def test_auction_records_review_with_the_contract_in_the_breakdown() -> None:
    from pathlib import Path

    text = (Path(__file__).parent / "records" / "auction-plus.json").read_text(encoding="utf-8")
    partie = record.loads(text)
    review = review_partie(partie, Lens.OPEN, broken_down="all")
    reviewed = [r.review for r in review.plays if r.review is not None]
    assert reviewed
    for r in reviewed:
        for worth in r.cards:
            assert worth.parts is not None and sum(worth.parts.values()) == worth.value
    assert any(w.parts and w.parts[Part.CONTRACT] for r in reviewed for w in r.cards)


@pytest.mark.parametrize("name", ["au-cent-game", "auction-minus-doubled-down", "auction-pique-in-order",
                                  "auction-plus", "rubicon-deal"])
def test_each_reviewed_action_points_at_its_action_in_the_record_file(name: str) -> None:
    from pathlib import Path

    data = json.loads((Path(__file__).parent / "records" / f"{name}.json").read_text(encoding="utf-8"))
    partie = record.from_data(data)
    review = review_partie(partie, Lens.OPEN)
    assert review.plays
    for r in review.actions:
        written = data["deals"][r.deal - 1]["actions"][r.action]
        assert written["player"] == NAMES[r.seat]
        assert ("play" in written) == isinstance(r, PlayReviewed) == (r.kind == "play")
        if isinstance(r, PlayReviewed):
            assert written["play"] == str(r.card)
            if r.review is not None:
                assert all(sum(w.parts.values()) == w.value for w in r.review.cards if w.parts is not None)


# ---------------------------------------------------------------- the declarations
def _point_of_six() -> Partie:
    """Bill (elder) holds a point of six in hearts, Ann no suit of more than four: his point is good."""
    partie = dealt("AS KS QS 9S AD KD QD TD AC KC QC 9C", "AH KH QH 9H 8H 7H 8S 9D 8C 7D TC JS",
                   "7S 7C 8D JC JD TS JH TH")
    return run(partie, ["Bill: x 7D", "Ann: x 9C"])


def test_review_finds_a_sunk_point_that_gives_up_the_point_for_nothing() -> None:
    partie = _point_of_six()
    sunk = Declare(BILL, Category.POINT, ())
    review = review_declaration(partie, sunk, Lens.OPEN)
    assert review.best == Declare(BILL, Category.POINT, (cs("AH KH QH 9H 8H 7H"),))
    # His point of six lost, and her point of four scored instead: for nothing (every smaller call loses too).
    assert review.loss == 6 + 4 and review.mark == "??"
    values = dict(review.options)
    assert values[review.best] - values[Declare(BILL, Category.POINT, (cs("AH KH QH 9H 8H"),))] == 1
    assert review.utility == (1, -1)
    assert explain_declaration(review, NAMES) == (
        "Declaring nothing for the point rather than A♥ K♥ Q♥ 9♥ 8♥ 7♥ for the point costs Bill 10 points in what "
        "the declarations score: it gives up the point (−10).")
    fair = review_declaration(partie, sunk, Lens.FAIR, rng=random.Random(2))
    assert fair.worlds == 64 and fair.best == review.best and fair.loss >= 6
    in_full = review_declaration(partie, review.best, Lens.FAIR, rng=random.Random(2))
    assert in_full.loss == 0 and in_full.mark == ""


def test_review_of_a_declaration_refuses_what_is_not_legal_or_not_a_declaration() -> None:
    partie = _point_of_six()
    with pytest.raises(ValueError, match="not a legal declaration"):
        review_declaration(partie, Declare(BILL, Category.SETS, ()))
    partie.pop()
    with pytest.raises(ValueError, match="no declaration to review: it is the exchange"):
        review_declaration(partie, Declare(BILL, Category.POINT, ()))


# ---------------------------------------------------------------- the partie's stakes in the last deal's play
@functools.cache
def _simple_partie(seed: int) -> Partie:
    """The simple players' partie of ``seed`` (kept: copy it before changing it)."""
    return play_partie([SimpleAgent(random.Random(seed)), SimpleAgent(random.Random(seed + 1))], random.Random(seed),
                       NAMES)


def _staked_decisions() -> list[tuple[Partie, Play, tuple[int, int]]]:
    """The cards of seed 4's last deal where the partie's stakes are not the score difference (its loser may yet
    reach the rubicon), with the utility the levels play for there."""
    out = []
    for at, action in _decisions(_simple_partie(4), 6):
        u = partie_utility(at.view(action.player), at.rules)
        if u != (1, -1):
            out.append((at, action, u))
    return out


def test_a_last_deal_s_cards_are_valued_by_the_utility_the_levels_play_for_there() -> None:
    decisions = _staked_decisions()
    assert len(decisions) >= 10
    for at, action, u in decisions:
        review = review_decision(at, action.card, Lens.OPEN, broken_down=None)
        seat = action.player
        assert review.utility == (u if seat == 0 else (-u[1], -u[0]))
        solution = solve(position_from_partie(at, u), at.rules, all_values=True)
        for worth in review.cards:
            assert worth.value == solution.values[worth.card]
            assert worth.parts is not None and sum(worth.parts.values()) == worth.value
            assert worth.points is not None  # the points of the deal along its line, for the graph


def test_a_last_deal_s_loss_is_said_by_the_partie_s_stakes_in_the_text_and_the_json() -> None:
    at, action = next((at, a) for at, a, _ in _staked_decisions()
                         if review_decision(at, a.card, Lens.OPEN).loss >= 1)
    review = review_decision(at, action.card, Lens.OPEN)
    assert "by the partie's stakes" in explain(review, NAMES)
    reviewed = review_partie(_simple_partie(4), Lens.OPEN, deal=6).to_json()
    plays = cast(list[dict[str, Any]], reviewed["plays"])
    entry = next(p for p in plays if p["card"] == str(action.card) and not p["forced"]
                 and p["loss"] == review.loss)
    assert entry["utility"] == list(review.utility) and "by the partie's stakes" in entry["text"]
    assert set(entry["points"]) == set(entry["parts"])  # the points of the deal of every card broken down


def test_a_deal_that_is_not_the_last_is_valued_in_points_of_the_deal_and_says_nothing_of_stakes() -> None:
    at, action = _decisions(_simple_partie(4), 1)[0]
    review = review_decision(at, action.card, Lens.OPEN)
    assert review.utility == (1, -1)
    assert all(w.points == w.value for w in review.cards if w.points is not None)
    assert "stakes" not in explain(review, NAMES)


# ---------------------------------------------------------------- the declarations' breakdown by category
def test_every_declaration_s_parts_sum_to_its_value_through_real_parties_in_both_lenses() -> None:
    checked = 0
    for seed in (4, 11):
        partie = _simple_partie(seed)
        for lens in (Lens.OPEN, Lens.FAIR):
            review = review_partie(partie, lens, deal=1, luck=False, exchange_worlds=20, worlds=4)
            for r in review.declarations:
                if r.review is None:
                    continue
                for option, value in r.review.options:
                    parts = r.review.parts[option]
                    assert set(parts) == set(DECLARATION_PARTS)
                    assert sum(parts.values()) == pytest.approx(value)
                checked += 1
    assert checked >= 8


def test_sinking_a_quatorze_that_reaches_the_repique_is_explained_by_the_sets_and_the_repique() -> None:
    # Bill (elder): a quint major in spades (15 and the point of five) and four aces: 34 in hand, Ann nothing.
    partie = dealt("9S 8S 7S KH QH JH KD QD JD KC QC JC", "AS KS QS JS TS AH AD AC 7H 8H 7D 7C",
                   "TH 9H TD 9D TC 9C 8C 8D")
    run(partie, ["Bill: x 7H", "Ann: x 9S", "Bill: point AS KS QS JS TS", "Ann: point -",
                 "Bill: sequences AS KS QS JS TS", "Ann: sequences -"])
    sunk = Declare(BILL, Category.SETS, ())
    review = review_declaration(partie, sunk, Lens.OPEN)
    best = review.parts[review.best]
    assert best[Part.SETS] == 14 and best[Part.REPIQUE] == 60
    # Sunk, his sets give up his 14 and let in her three trios (9), and the repique goes.
    assert declaration_differences(review) == [(Part.REPIQUE, -60.0), (Part.SETS, -23.0)]
    assert explain_declaration(review, NAMES).endswith("it gives up the repique (−60) and the sets (−23).")
