"""The play (Laws 59, 65, 66) and the order of reckoning, repique and pique (Laws 67-69)."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from helpers import (
    ANN,
    ANN_DIAMONDS,
    ANN_HEARTS,
    BILL,
    BILL_ACES,
    BILL_KINGS,
    BILL_POINT6,
    THIRTY_ANN,
    THIRTY_BILL,
    THIRTY_DECLARE,
    THIRTY_TALON,
    TWENTY_NINE_DECLARE,
    TWENTY_NINE_TALON,
    base,
    card,
    dealt,
    events_of,
    log_texts,
    play_out,
    points,
    run,
)

from piquet.ai.agent import RandomAgent, play_deal
from piquet.engine.actions import Play
from piquet.engine.events import CardsDivided
from piquet.engine.partie import IllegalActionError, Partie, Phase
from piquet.engine.scoring import DealScore, ScoreCategory

FULL_BILL = [f"Bill: point {BILL_POINT6}", "Ann: point -",
             f"Bill: sequences {BILL_POINT6}", "Ann: sequences -",
             f"Bill: sets {BILL_ACES} | {BILL_KINGS}", "Ann: sets -"]
BILL_WINNERS = ["AS", "KS", "QS", "JS", "TS", "9S", "AH", "KH", "AD", "KD", "AC", "KC"]


def bill_leads(p: Partie, cards: Iterable[str]) -> None:
    """Bill leads each card in turn (he must keep the lead); Ann plays her first legal card."""
    for c in cards:
        assert p.to_act == BILL
        p.push(Play(BILL, card(c)))
        p.push(next(a for a in p.legal_actions() if isinstance(a, Play)))


# ---------------------------------------------------------------- play (Laws 59, 65, 66)
def test_law_59_must_follow_suit() -> None:
    p = base()
    run(p, FULL_BILL + ["Bill: AH"])
    with pytest.raises(IllegalActionError, match="follow suit") as exc:
        p.push(Play(ANN, card("QD")))
    assert "Ann" in str(exc.value) and "QD" in str(exc.value)
    legal = {a.card for a in p.legal_actions() if isinstance(a, Play)}
    assert legal == set(p.hand(ANN).suit(card("AH").suit))


def test_law_59_may_discard_when_void_and_no_trumps() -> None:
    p = base()
    run(p, FULL_BILL + ["Bill: AS"])
    legal = {a.card for a in p.legal_actions() if isinstance(a, Play)}
    assert legal == set(p.hand(ANN))  # no spades: anything
    run(p, ["Ann: QH"])
    assert p.view(ANN).tricks[-1].winner == BILL and p.to_act == BILL  # no trumps: the lead wins


def test_law_59_playing_out_of_turn_or_a_card_not_held_is_illegal() -> None:
    p = base()
    run(p, FULL_BILL)
    with pytest.raises(IllegalActionError, match="Bill's turn"):
        p.push(Play(ANN, card("QH")))
    with pytest.raises(IllegalActionError, match="not in hand"):
        p.push(Play(BILL, card("QH")))


def test_law_65_one_per_lead_one_for_winning_the_lead_one_for_the_last_trick() -> None:
    p = base()
    run(p, FULL_BILL + ["Bill: KS", "Ann: 7D"])   # Bill leads and wins: 1
    assert points(p, ScoreCategory.PLAY, BILL) == 1 and points(p, ScoreCategory.PLAY, ANN) == 0
    run(p, ["Bill: 9S", "Ann: 8D", "Bill: KH", "Ann: QH"])
    assert points(p, ScoreCategory.PLAY, BILL) == 3 and points(p, ScoreCategory.PLAY, ANN) == 0


def test_law_65_second_player_scores_for_winning_the_trick_reference_deal() -> None:
    import json
    from pathlib import Path

    from piquet.engine.record import loads

    text = (Path(__file__).parent / "records" / "rubicon-deal.json").read_text()
    p = loads(text)
    d = p.deal_scores[0]
    # Ann wins the second trick on Bill's lead (1), then leads the last ten (10) and takes the last (1)
    assert d.by_category[ANN]["play"] == 12 and d.by_category[BILL]["play"] == 2
    assert d.tricks == (11, 1)
    assert d.by_category[ANN]["cards"] == 10
    assert json.loads(text)["deals"][0]["dealer"] == "Ann"


def test_law_66_capot_scores_40_instead_of_10() -> None:
    p = base()
    run(p, FULL_BILL)
    bill_leads(p, BILL_WINNERS)
    d = p.deal_scores[-1]
    assert d.tricks == (0, 12)
    assert d.by_category[BILL]["cards"] == 40
    assert d.by_category[BILL]["play"] == 13  # 12 leads and the last trick
    assert d.by_category[ANN]["total"] == 0


def test_law_66_the_cards_10_for_seven_or_more_tricks() -> None:
    p = base()
    run(p, FULL_BILL)
    bill_leads(p, BILL_WINNERS[:7])
    play_out(p)
    d = p.deal_scores[-1]
    winner = 0 if d.tricks[0] > d.tricks[1] else 1
    if max(d.tricks) < 12:
        assert d.by_category[winner]["cards"] == 10
        assert d.by_category[1 - winner]["cards"] == 0


def test_law_66_nothing_for_the_cards_at_six_tricks_each() -> None:
    for seed in range(400):
        p = base()
        play_deal(p, (RandomAgent(random.Random(seed)), RandomAgent(random.Random(seed + 1))),
                  random.Random(seed))
        d = p.deal_scores[-1]
        if d.tricks == (6, 6):
            assert d.by_category[0]["cards"] == d.by_category[1]["cards"] == 0
            assert CardsDivided() in p.logs()[-1]
            assert "The cards are divided." in log_texts(p.logs()[-1])
            return
    pytest.skip("no 6-6 deal found")


# ---------------------------------------------------------------- reckoning (Laws 67-69)
def test_law_68_elder_repique_with_30_in_hand_before_younger_scores() -> None:
    p = base()
    run(p, FULL_BILL + ["Bill: AS"])
    rep = events_of(p, ScoreCategory.REPIQUE)
    assert [(e.player, e.points) for e in rep] == [(BILL, 60)]
    cats = [e.category for e in p.events]
    assert cats.index(ScoreCategory.REPIQUE) < cats.index(ScoreCategory.PLAY)


def test_law_67_younger_point_stops_elders_repique() -> None:
    p = base()
    run(p, ["Bill: point AS KS QS JS TS", f"Ann: point {ANN_HEARTS}",
            f"Bill: sequences {BILL_POINT6}", "Ann: sequences -",
            f"Bill: sets {BILL_ACES} | {BILL_KINGS}", "Ann: sets -"])
    # Bill has 44 in sequences and sets, declared before Ann announces her point, but her
    # point is reckoned first (Law 67)
    assert sum(e.points for e in p.events if e.player == BILL) == 44
    bill_leads(p, BILL_WINNERS[:1])
    assert points(p, ScoreCategory.POINT, ANN) == 6
    assert not events_of(p, ScoreCategory.REPIQUE)
    bill_leads(p, BILL_WINNERS[1:6])
    assert not events_of(p, ScoreCategory.PIQUE)  # nor a pique: younger has scored


def test_law_68_a_tie_does_not_stop_a_repique() -> None:
    p = base()
    run(p, ["Bill: point KS QS JS", "Ann: point QH JH TH",
            f"Bill: sequences {BILL_POINT6}", "Ann: sequences -",
            f"Bill: sets {BILL_ACES} | {BILL_KINGS}", "Ann: sets -", "Bill: AS"])
    assert [(e.player, e.points) for e in events_of(p, ScoreCategory.REPIQUE)] == [(BILL, 60)]


def test_law_68_younger_repique_despite_elders_lead() -> None:
    p = base()
    run(p, ["Bill: point -", f"Ann: point {ANN_HEARTS}",
            "Bill: sequences -", f"Ann: sequences {ANN_HEARTS} | {ANN_DIAMONDS}",
            "Bill: sets -", "Ann: sets -", "Bill: AS"])
    assert [(e.player, e.points) for e in events_of(p, ScoreCategory.REPIQUE)] == [(ANN, 60)]
    assert points(p, ScoreCategory.PLAY, BILL) == 1


def test_law_69_elder_pique_on_reaching_30_in_hand_and_play() -> None:
    p = base()
    run(p, [f"Bill: point {BILL_POINT6}", "Ann: point -",
            f"Bill: sequences {BILL_POINT6}", "Ann: sequences -",
            "Bill: sets -", "Ann: sets -"])  # 22 in hand
    bill_leads(p, BILL_WINNERS[:7])  # 29
    assert not events_of(p, ScoreCategory.PIQUE)
    p.push(Play(BILL, card("AD")))   # the eighth lead makes 30
    assert [(e.player, e.points) for e in events_of(p, ScoreCategory.PIQUE)] == [(BILL, 30)]
    assert not events_of(p, ScoreCategory.REPIQUE)


# Law 68: a repique "is obtained on the score of thirty being made"; Law 69: a pique likewise, "when he leads the
# card which makes him thirty". The bonus stands in the order of reckoning where the thirty was made (what decides
# a game of Piquet au Cent, see test_au_cent.py); in Rubicon Piquet that changes the order only, never a total.
def test_law_68_the_repique_stands_where_the_thirty_was_made_and_the_totals_are_unchanged() -> None:
    p = dealt(THIRTY_ANN, THIRTY_BILL, THIRTY_TALON, {"younger_may_stand_pat": True})
    run(p, [*THIRTY_DECLARE, "Bill: AS"])
    assert [(e.player, e.category) for e in p.events][:9] == [
        (BILL, ScoreCategory.POINT), (BILL, ScoreCategory.SEQUENCES), (BILL, ScoreCategory.SEQUENCES),
        (BILL, ScoreCategory.REPIQUE), *[(ANN, ScoreCategory.SETS)] * 4, (BILL, ScoreCategory.PLAY)]
    play_out(p)
    scores = p.deal_scores[-1]
    assert (scores.by_category[BILL]["repique"], scores.by_category[ANN]["sets"]) == (60, 12)
    assert scores.totals == (sum(e.points for e in p.view(None).events if e.player == ANN),
                             sum(e.points for e in p.view(None).events if e.player == BILL))


def test_law_68_younger_s_repique_stands_at_her_thirty_before_elder_s_sets() -> None:
    p = base()
    run(p, ["Bill: point -", f"Ann: point {ANN_HEARTS}", "Bill: sequences -",
            f"Ann: sequences {ANN_HEARTS} | {ANN_DIAMONDS}", f"Bill: sets {BILL_ACES} | {BILL_KINGS}",
            "Ann: sets -", "Bill: AS"])
    # Her point (6) and two sixièmes (32) make her thirty before Bill's sets are reckoned: the repique is hers
    # there, and his quatorzes follow it.
    assert [(e.player, e.category) for e in p.events] == [
        (ANN, ScoreCategory.POINT), (ANN, ScoreCategory.SEQUENCES), (ANN, ScoreCategory.SEQUENCES),
        (ANN, ScoreCategory.REPIQUE), (BILL, ScoreCategory.SETS), (BILL, ScoreCategory.SETS),
        (BILL, ScoreCategory.PLAY)]


def test_law_69_the_pique_stands_at_the_lead_that_makes_thirty() -> None:
    p = dealt(THIRTY_ANN, THIRTY_BILL, TWENTY_NINE_TALON, {"younger_may_stand_pat": True})
    run(p, [*TWENTY_NINE_DECLARE, "Bill: TH"])
    assert [(e.player, e.points, e.category) for e in p.events][-2:] == [
        (BILL, 1, ScoreCategory.PLAY), (BILL, 30, ScoreCategory.PIQUE)]
    run(p, ["Ann: AH", "Ann: KH"])
    # What is scored after the pique stands after it.
    assert [(e.player, e.category) for e in p.events][-3:] == [
        (BILL, ScoreCategory.PIQUE), (ANN, ScoreCategory.PLAY), (ANN, ScoreCategory.PLAY)]
    play_out(p)
    assert p.deal_scores[-1].by_category[BILL]["pique"] == 30


def test_law_69_no_pique_once_younger_scored_in_hand() -> None:
    p = base()
    run(p, ["Bill: point AS KS QS JS TS", f"Ann: point {ANN_HEARTS}",
            f"Bill: sequences {BILL_POINT6}", "Ann: sequences -",
            "Bill: sets -", "Ann: sets -"])  # Bill 16, Ann 6
    bill_leads(p, BILL_WINNERS)
    assert not events_of(p, ScoreCategory.PIQUE)


def test_law_69_never_both_pique_and_repique() -> None:
    p = base()
    run(p, FULL_BILL)
    bill_leads(p, BILL_WINNERS)
    d = p.deal_scores[-1]
    assert d.by_category[BILL]["repique"] == 60 and d.by_category[BILL]["pique"] == 0


# The CARDS deal: Bill (elder) will hold AS-8S, AH AD AC, 7H 8D; he calls fourteen aces (14),
# then wins the first seven tricks (21) before Ann scores anything.
CARDS_ANN = "7S KH QH JH TH 9H 8H KD QD JD TD 9D"
CARDS_BILL = "AS KS QS JS TS 9S 8S AH AD AC 7H 7D"
CARDS_TALON = "8D KC QC JC TC 9C 8C 7C"


def cards_deal(options: dict[str, object] | None = None) -> DealScore:
    p = dealt(CARDS_ANN, CARDS_BILL, CARDS_TALON, options)
    run(p, ["Bill: x 7D", "Ann: x 9D", "Bill: point -", "Ann: point -",
            "Bill: sequences -", "Ann: sequences -", f"Bill: sets {BILL_ACES}",
            "Ann: sets -",
            "Bill: AS", "Ann: 7S", "Bill: KS", "Ann: KD", "Bill: QS", "Ann: QD",
            "Bill: JS", "Ann: JD", "Bill: TS", "Ann: TD", "Bill: 9S", "Ann: KC",
            "Bill: 8S", "Ann: 9H"])
    assert p.view(ANN).tricks_won == (0, 7)
    if not options:
        assert sum(e.points for e in p.events if e.player == BILL) == 21
    run(p, ["Bill: 7H", "Ann: 8H"])
    play_out(p)
    return p.deal_scores[-1]


def test_law_69_the_cards_never_count_toward_pique() -> None:
    d = cards_deal()
    assert d.by_category[BILL]["cards"] == 10
    assert d.by_category[BILL]["pique"] == 0


def test_option_cards_count_toward_pique_scores_cards_at_seventh_trick() -> None:
    d = cards_deal({"cards_count_toward_pique": True})
    # 14 in hand + 7 in play + 10 for the cards = 31 when Bill wins his seventh trick, before Ann scores
    assert d.by_category[BILL]["pique"] == 30
    assert d.by_category[BILL]["cards"] == 10


def test_law_67_score_events_are_kept_in_the_order_of_reckoning() -> None:
    p = base()
    run(p, ["Bill: point -", f"Ann: point {ANN_HEARTS}",
            f"Bill: sequences {BILL_POINT6}", "Ann: sequences -",
            f"Bill: sets {BILL_ACES}", "Ann: sets -"])
    bill_leads(p, BILL_WINNERS)
    order = list(ScoreCategory)
    idx = [order.index(e.category) for e in p.events]
    assert idx == sorted(idx)


def test_play_after_the_deal_is_over_is_illegal() -> None:
    p = base()
    run(p, FULL_BILL)
    bill_leads(p, BILL_WINNERS)
    assert p.phase is Phase.DEAL and p.to_act == BILL
    with pytest.raises(IllegalActionError):
        p.push(Play(BILL, card("AS")))
