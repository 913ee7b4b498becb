"""What elder's first lead reckons (Laws 67-69): younger's declarations, then the repique or the pique the hand
decides in the order of reckoning. The engine scores it at that lead; the solver's positions and the review count it
from before the lead (:func:`piquet.engine.partie.reckoning_at_first_lead`), so a value of the first lead is the
deal's points from there and the review's expected score starts where the deal really stands."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from helpers import ANN, BILL, THIRTY_ANN, THIRTY_BILL, TWENTY_NINE_DECLARE, TWENTY_NINE_TALON, dealt, run

from piquet.ai.agent import play_partie
from piquet.ai.books import SimpleAgent
from piquet.ai.solver import PlayPosition, pique_possible, position_from_partie
from piquet.coach.review import Part, advance, replayed_steps
from piquet.engine import record
from piquet.engine.actions import Play
from piquet.engine.cards import Card
from piquet.engine.partie import Partie, Phase, reckoning_at_first_lead
from piquet.engine.scoring import PlainReason, ScoreCategory, ScoreEvent

RECORDS = Path(__file__).parent / "records"


def before_the_first_lead(partie: Partie) -> Partie:
    """``partie``'s first deal replayed up to elder's first lead."""
    return next(at for at, action, _, _ in replayed_steps(partie) if isinstance(action, Play))


def test_auction_plus_29_by_point_and_sequences_is_a_pique_although_younger_s_sets_follow() -> None:
    partie = before_the_first_lead(record.loads((RECORDS / "auction-pique-in-order.json").read_text()))
    assert partie.phase is Phase.PLAY and partie.to_act == BILL
    reckoned = reckoning_at_first_lead(partie.view(BILL))
    assert [(e.player, e.points, e.category) for e in reckoned] == [
        (ANN, 3, ScoreCategory.SETS), (ANN, 3, ScoreCategory.SETS), (BILL, 30, ScoreCategory.PIQUE)]
    assert reckoning_at_first_lead(partie.view(ANN)) == reckoned  # public: both heard the declarations
    position = position_from_partie(partie)
    assert position.scores == (6, 8 + 21 + 30) and position.pique_done
    partie.push(Play(BILL, next(iter(partie.hand(BILL)))))
    assert ScoreEvent(BILL, 30, ScoreCategory.PIQUE, PlainReason.PIQUE) in partie.events  # the engine scores it so


def test_rubicon_thirty_eight_in_hand_against_nothing_is_a_repique_reckoned_before_the_lead() -> None:
    partie = dealt("7S QH JH TH 9H 8H 7H QD JD TD 9D 8D", "AS KS QS JS TS 9S 8S AH KH AD KD AC",
                   "7D KC QC JC TC 9C 8C 7C")
    run(partie, ["Bill: x KD", "Ann: x 8D", "Bill: point AS KS QS JS TS 9S 8S",
                 "Ann: point -", "Bill: sequences AS KS QS JS TS 9S 8S", "Ann: sequences -",
                 "Bill: sets AS AH AD AC", "Ann: sets -"])
    reckoned = reckoning_at_first_lead(partie.view(BILL))
    assert [(e.player, e.points, e.category) for e in reckoned] == [(BILL, 60, ScoreCategory.REPIQUE)]
    position = position_from_partie(partie)
    assert position.scores == (0, 7 + 17 + 14 + 60) and position.pique_done
    partie.push(Play(BILL, next(iter(partie.hand(BILL)))))
    assert [e for e in partie.events if e.category is ScoreCategory.REPIQUE] == list(reckoned)


def test_nothing_is_reckoned_once_the_first_lead_is_made() -> None:
    partie = before_the_first_lead(record.loads((RECORDS / "rubicon-deal.json").read_text()))
    seat = partie.to_act
    assert seat is not None
    partie.push(Play(seat, next(iter(partie.hand(seat)))))
    assert reckoning_at_first_lead(partie.view(0)) == ()


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_what_the_first_lead_reckons_is_foreseen_before_it_in_random_parties(variant: str) -> None:
    """Before each elder's first lead, the events foreseen are among those the lead scores; what else it scores is
    the lead's own point and a pique that point reaches (and so a pique still possible in the position)."""
    books = SimpleAgent(random.Random(0))
    checked = 0
    before: list[tuple[tuple[ScoreEvent, ...], tuple[ScoreEvent, ...], PlayPosition]] = []

    def check(partie: Partie) -> None:
        nonlocal checked
        view = partie.view(partie.elder)
        if partie.phase is Phase.PLAY and not view.tricks and not view.trick:
            before[:] = [(partie.events, reckoning_at_first_lead(view), position_from_partie(partie))]
            return
        if not before:
            return
        events, foreseen, position = before.pop()
        added = Counter(partie.events) - Counter(events)
        assert not Counter(foreseen) - added, (foreseen, added)
        for event in added - Counter(foreseen):
            assert event.category is ScoreCategory.PLAY or (
                event.category is ScoreCategory.PIQUE and pique_possible(position, partie.rules)), (foreseen, added)
        checked += 1

    for seed in range(4):
        before.clear()
        play_partie((books, books), random.Random(seed), variant=variant, on_action=check)
    assert checked >= 20


def test_law_69_the_review_scores_the_pique_where_the_engine_places_it() -> None:
    # Bill's 29 in hand and his lead of the ten: the pique at once after the lead's point (Law 69), in the engine's
    # order of reckoning and in the review's line of play alike.
    partie = dealt(THIRTY_ANN, THIRTY_BILL, TWENTY_NINE_TALON, {"younger_may_stand_pat": True})
    run(partie, TWENTY_NINE_DECLARE)
    position = position_from_partie(partie)
    _, scored = advance(position, Card.parse("TH"), partie.rules)
    partie.push(Play(BILL, Card.parse("TH")))
    assert [(who, points) for who, points, _ in scored] == [(e.player, e.points) for e in partie.events[-2:]] == [
        (BILL, 1), (BILL, 30)]
    assert [part for _, _, part in scored] == [Part.LEAD, Part.PIQUE]
