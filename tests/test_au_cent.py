"""Piquet au Cent by Cavendish's Laws of Piquet au Cent (the project's rulings): the lower cut deals,
deals by twos, younger may stand pat, elder names values at once, short calls bind, games of a
hundred, a double game under fifty, the partie the first to three games."""

from __future__ import annotations

import json
import random
import re

import pytest
from helpers import (
    ANN,
    BASE_ANN,
    BASE_BILL,
    BASE_EXCHANGE,
    BASE_TALON,
    BILL,
    CB_ANN,
    CB_BILL,
    CB_TALON,
    NAMES,
    THIRTY_ANN,
    THIRTY_BILL,
    THIRTY_DECLARE,
    THIRTY_TALON,
    TWENTY_NINE_DECLARE,
    TWENTY_NINE_TALON,
    card,
    cs,
    dealt,
    make_deal,
    play_out,
    points,
    run,
    says,
)

from piquet.ai.agent import RandomAgent, play_partie
from piquet.engine.actions import CarteBlanche, ChooseDealer, Cut, Deal, Declare, Exchange, Play
from piquet.engine.combinations import Category
from piquet.engine.partie import IllegalActionError, Partie, Phase
from piquet.engine.record import RecordError, dumps, loads
from piquet.engine.scoring import ScoreCategory, ScoreEvent, Settlement, TrickReason
from piquet.engine.variants import AuCent, GameResult, make_rules


def au_cent(ann: str = BASE_ANN, bill: str = BASE_BILL, talon: str = BASE_TALON,
            options: dict[str, object] | None = None) -> Partie:
    """An au Cent deal dealt by Ann by twos: Bill is elder."""
    return dealt(ann, bill, talon, options, packets=2, variant="au-cent")


def declare_best(p: Partie) -> None:
    """Each player declares the legal declaration showing the most cards."""
    while p.phase is Phase.DECLARE:
        p.push(max((a for a in p.legal_actions() if isinstance(a, Declare)),
                   key=lambda a: sum(len(c) for c in a.combinations)))


# ---------------------------------------------------------------- the cut and the deal
@pytest.mark.parametrize(("cuts", "dealer"), [(("KS", "9H"), BILL), (("7C", "AD"), ANN)])
def test_au_cent_lower_cut_deals(cuts: tuple[str, str], dealer: int) -> None:
    p = Partie(NAMES, "au-cent")
    assert p.phase is Phase.CUT
    p.push(Cut(0, (card(cuts[0]), card(cuts[1]))))
    # No choice of deal: the lower cut deals at once.
    assert p.phase is Phase.DEAL and p.dealer == dealer and p.to_act == dealer
    with pytest.raises(IllegalActionError, match="it is the deal"):
        p.push(ChooseDealer(1 - dealer, 1 - dealer))
    assert f"{NAMES[dealer]} cuts lower and deals." in says(p)


def test_au_cent_a_deal_by_the_higher_cut_is_refused_because_the_lower_cut_deals() -> None:
    # The Laws of Piquet au Cent: "The player who cuts the lower card has to deal". The refusal says so, in the
    # engine and in a record, not that the deal alternates.
    p = Partie(NAMES, "au-cent")
    p.push(Cut(0, (card("KS"), card("9H"))))
    reason = "Ann cannot deal: Bill cut the lower card, and in Piquet au Cent the lower cut deals " \
             "(Laws of Piquet au Cent)"
    with pytest.raises(IllegalActionError, match=re.escape(reason)):
        p.push(make_deal(BASE_ANN, BASE_BILL, BASE_TALON, dealer=ANN, packets=2))
    p.push(make_deal(BASE_ANN, BASE_BILL, BASE_TALON, dealer=BILL, packets=2))
    data = json.loads(dumps(p))
    data["deals"][0]["dealer"] = "Ann"
    with pytest.raises(RecordError, match=re.escape(f"deal 1: {reason}")) as refused:
        loads(json.dumps(data))
    assert "alternates" not in str(refused.value)


def test_au_cent_equal_cuts_cut_again() -> None:
    p = Partie(NAMES, "au-cent")
    p.push(Cut(0, (card("KS"), card("KH"))))
    assert p.phase is Phase.CUT and p.dealer is None
    p.push(Cut(0, (card("8S"), card("QH"))))
    assert p.phase is Phase.DEAL and p.dealer == ANN


def test_au_cent_the_cut_is_recorded_and_replayed_without_a_choice() -> None:
    p = Partie(NAMES, "au-cent")
    p.push(Cut(0, (card("KS"), card("9H"))))
    p.push(make_deal(BASE_ANN, BASE_BILL, BASE_TALON, dealer=BILL, packets=2))
    q = loads(dumps(p))
    assert q.dealer == BILL and q.elder == ANN and not any(isinstance(a, ChooseDealer) for a in q.actions)


def test_au_cent_deals_in_packets_of_two_only() -> None:
    p = Partie(NAMES, "au-cent", first_dealer=ANN)
    assert p.legal_packets() == (2,) and make_rules("au-cent").packet_sizes() == (2,)
    with pytest.raises(IllegalActionError, match="packets of 2, not 3"):
        p.push(make_deal(BASE_ANN, BASE_BILL, BASE_TALON, packets=3))
    p.push(make_deal(BASE_ANN, BASE_BILL, BASE_TALON, packets=2))
    assert p.phase is Phase.EXCHANGE


def test_au_cent_younger_may_stand_pat_elder_may_not() -> None:
    p = au_cent()
    assert p.view(BILL).exchange_range == (1, 5)
    with pytest.raises(IllegalActionError, match="Law 21: elder exchanges 1 to 5 cards, not 0"):
        p.push(Exchange(BILL, cs("")))
    run(p, ["Bill: x 7C"])
    assert p.view(ANN).exchange_range == (0, 7)
    run(p, ["Ann: x -"])
    assert p.phase is Phase.DECLARE


# ---------------------------------------------------------------- declaring
def test_au_cent_elder_names_the_point_value_and_the_top_card_at_once() -> None:
    p = au_cent()
    run(p, BASE_EXCHANGE)
    declare_best(p)
    said = says(p)
    start = said.index("Point of six, making sixty.")
    assert said[start:] == ["Point of six, making sixty.", "Good.", "Sixième major.", "Good.",
                            "Fourteen aces.", "Good."]
    assert "Making?" not in said and "How high?" not in said


def test_au_cent_point_of_five_making_forty_eight_said_in_one_call() -> None:
    bill = "AS KS TS 9S 8S AH 7H AD 7D AC 7C 8H"  # spades A K T 9 8: 11 + 10 + 10 + 9 + 8
    ann = "QS JS QH JH TH 9H QD JD TD 9D QC JC"
    talon = "KH 7S 8D KD KC TC 9C 8C"
    p = au_cent(ann, bill, talon)
    run(p, ["Bill: x 8H", "Ann: x -", "Bill: point AS KS TS 9S 8S"])
    assert says(p)[-1] == "Point of five, making forty-eight."
    run(p, ["Ann: point QH JH TH 9H"])
    assert says(p)[-1] == "Good." and p.view(ANN).announcements[0].detail == 48


def test_au_cent_short_calls_bind_even_when_good_against_the_cards() -> None:
    # Bill holds fourteen aces and fourteen kings; his fourteen kings are good against the cards
    # (only fourteen aces beat them, and he holds every ace), yet the short call binds him.
    p = au_cent()
    run(p, [*BASE_EXCHANGE, "Bill: point AS KS QS JS TS 9S", "Ann: point -",
            "Bill: sequences AS KS QS JS TS 9S", "Ann: sequences -"])
    late = Declare(BILL, Category.SETS, (cs("KS KH KD KC"), cs("AS AH AD AC")))
    with pytest.raises(IllegalActionError, match="Law 49"):
        p.push(late)
    assert late not in p.legal_actions() and late not in p.legal_actions().list()
    assert p.can(Declare(BILL, Category.SETS, (cs("AS AH AD AC"), cs("KS KH KD KC"))))
    # The same call in Rubicon Piquet may add the aces (Law 49's exception).
    r = dealt(BASE_ANN, BASE_BILL, BASE_TALON)
    run(r, [*BASE_EXCHANGE, "Bill: point AS KS QS JS TS 9S", "Ann: point -",
            "Bill: sequences AS KS QS JS TS 9S", "Ann: sequences -"])
    assert r.can(late)
    assert AuCent().short_calls_bind and not make_rules("rubicon").short_calls_bind


# ---------------------------------------------------------------- games and the partie
def big_deal(p: Partie, strong: int) -> None:
    """The next deal, by twos: ``strong`` (who must be elder) holds BASE's strong hand; both declare
    their best and play their first legal card."""
    dealer = p.dealer
    assert dealer is not None and strong == 1 - dealer
    hands = (cs(BASE_ANN), cs(BASE_BILL)) if strong == BILL else (cs(BASE_BILL), cs(BASE_ANN))
    p.push(Deal(dealer, hands, tuple(card(c) for c in BASE_TALON.split()), 2))
    p.push(Exchange(strong, cs("7C")))
    p.push(Exchange(1 - strong, cs("8S")))
    declare_best(p)
    play_out(p)


def test_au_cent_a_game_is_a_hundred_up_won_at_the_moment_and_the_deal_played_out() -> None:
    p = Partie(NAMES, "au-cent", first_dealer=ANN)
    big_deal(p, BILL)
    d = p.deal_scores[-1]
    # Bill's hand and its repique take him to 110, Ann at nothing: a double game. The deal is
    # played out, and the game's score on the sheet is the whole deal's.
    assert d.totals[BILL] > 110
    assert p.games == (GameResult(BILL, True, d.totals, (0, 110), 1),)
    assert p.view(ANN).game_scores == (0, 0) and p.phase is Phase.DEAL and not p.is_over
    assert "Bill reaches 110 with Ann at 0, and wins a double game" in " ".join(says(p))


@pytest.mark.parametrize(("before", "events", "result"), [
    # Nobody reaches 100: no game.
    ((50, 20), [(0, 10), (1, 30)], None),
    # Hoffmann: "the one who first reaches 100 will have won the game", in the order of reckoning:
    # Bill reaches 101 first, and Ann's later 30 makes her higher but decides nothing.
    ((95, 95), [(1, 6), (0, 30)], GameResult(1, False, (125, 101), (95, 101))),
    # "a hundred before his adversary has scored fifty": Bill's 40 at that moment, not his 60 at the end.
    ((90, 40), [(0, 10), (1, 20)], GameResult(0, True, (100, 60), (100, 40))),
    # Bill reaches fifty before Ann reaches a hundred: a single game.
    ((90, 45), [(1, 5), (0, 10)], GameResult(0, False, (100, 50), (100, 50))),
    ((0, 0), [(1, 100)], GameResult(1, True, (0, 100), (0, 100))),
])
def test_au_cent_the_first_to_100_in_the_order_of_reckoning_wins_a_double_game_if_the_other_has_under_50(
        before: tuple[int, int], events: list[tuple[int, int]], result: GameResult | None) -> None:
    assert AuCent().game_over(before, events) == result


def test_au_cent_the_partie_is_won_with_three_games_a_double_game_counting_two() -> None:
    p = Partie(NAMES, "au-cent", first_dealer=ANN)
    big_deal(p, BILL)
    assert p.games_won() == (0, 2)  # Ann scores only in the play: a double game
    big_deal(p, ANN)
    assert p.games_won() == (2, 2) and not p.is_over
    big_deal(p, BILL)
    assert p.games_won() == (2, 4) and p.is_over and p.phase is Phase.OVER
    assert p.result == Settlement(BILL, 4, False, (2, 4))
    q = loads(dumps(p))
    assert q.result == p.result and q.games == p.games and q.games_won() == (2, 4)


def test_au_cent_the_partie_is_not_a_number_of_deals() -> None:
    rules = make_rules("au-cent")
    assert not rules.partie_over(6, (300, 10)) and not rules.partie_over(40, (0, 0))
    assert rules.games_to_win == 3 and not rules.allows_concession


def test_au_cent_game_scores_start_again_after_a_game() -> None:
    p = Partie(NAMES, "au-cent", first_dealer=ANN)
    big_deal(p, BILL)
    first = p.totals
    big_deal(p, ANN)
    game = p.games[-1]
    assert game.scores == (p.totals[0] - first[0], p.totals[1] - first[1])


# ---------------------------------------------------------------- when a repique or a pique counts (Laws 68-69)
# Law 68: a repique "is obtained on the score of thirty being made"; Cavendish counts it at once ("Instead of
# counting 'Thirty-four,' he counts 'Ninety-four'"). Law 69: a pique likewise, "when he leads the card which makes
# him thirty ... counts sixty" (Hoyle and Hoffmann say the same). In Piquet au Cent, where the first to 100 in the
# order of reckoning wins the game and the loser's score at that moment decides a double game, the bonus counts
# at that moment: not after the sets, nor after the play.
#
def replay_deal(p: Partie, seed: int) -> None:
    """A deal dealt from ``seed``, each player declaring his best and playing his first legal card."""
    number = p.deal_number
    p.push(p.random_deal(random.Random(seed)))
    while p.deal_number == number + 1 and p.phase in (Phase.CARTE_BLANCHE, Phase.EXCHANGE, Phase.DECLARE,
                                                        Phase.PLAY):
        if p.phase is Phase.DECLARE:
            declare_best(p)
        else:
            p.push(next(iter(p.legal_actions())))


def after_deals(*seeds: int) -> Partie:
    """An au Cent partie (Ann dealing first) after a deal dealt from each seed (:func:`replay_deal`): the game's
    scores the tests below begin from."""
    p = Partie(NAMES, "au-cent", first_dealer=ANN)
    for seed in seeds:
        replay_deal(p, seed)
    assert not p.games and p.dealer == ANN
    return p


def crafted(p: Partie, talon: str) -> None:
    p.push(make_deal(THIRTY_ANN, THIRTY_BILL, talon, packets=2))


def test_law_68_au_cent_the_repique_counts_toward_the_hundred_the_moment_its_thirty_is_made() -> None:
    p = after_deals(0, 32)
    assert p.view(ANN).game_scores == (94, 22)
    crafted(p, THIRTY_TALON)
    run(p, [*THIRTY_DECLARE, "Bill: AS"])
    order = [(e.player, e.category) for e in p.events]
    assert order[:5] == [(BILL, ScoreCategory.POINT), (BILL, ScoreCategory.SEQUENCES),
                         (BILL, ScoreCategory.SEQUENCES), (BILL, ScoreCategory.REPIQUE), (ANN, ScoreCategory.SETS)]
    play_out(p)
    # Bill's repique makes him 22 + 30 + 60 = 112 before Ann's trios are reckoned: his game, though her trios
    # would have made her 100 had the repique waited for them.
    assert p.games[-1].winner == BILL and p.games[-1].reached == (94, 112) and not p.games[-1].double


def test_law_68_au_cent_a_double_game_is_judged_with_the_repique_at_its_moment() -> None:
    p = after_deals(0, 6)
    assert p.view(ANN).game_scores == (38, 49)
    crafted(p, THIRTY_TALON)
    run(p, THIRTY_DECLARE)
    play_out(p)
    # Bill reaches 100 with his repique (49 + 30 + 60) while Ann has 38: her trios (which make her 50) come after.
    assert p.games[-1] == GameResult(BILL, True, p.games[-1].scores, (38, 139), p.games[-1].deal)


def test_law_69_au_cent_the_pique_counts_toward_the_hundred_when_the_card_that_makes_thirty_is_led() -> None:
    p = after_deals(2, 32)
    assert p.view(ANN).game_scores == (99, 65)
    crafted(p, TWENTY_NINE_TALON)
    run(p, [*TWENTY_NINE_DECLARE, "Bill: TH"])
    # The lead of the ten makes Bill thirty: the pique stands at once after it.
    assert [(e.player, e.points, e.category) for e in p.events[-2:]] == [
        (BILL, 1, ScoreCategory.PLAY), (BILL, 30, ScoreCategory.PIQUE)]
    run(p, ["Ann: AH"])  # her first point of the deal: 100 for her, but Bill is there first
    assert (p.events[-1].player, p.events[-1].category) == (ANN, ScoreCategory.PLAY)
    play_out(p)
    assert p.games[-1].winner == BILL and p.games[-1].reached == (99, 125)


def test_law_69_au_cent_a_double_game_is_judged_with_the_pique_at_its_moment() -> None:
    p = after_deals(0, 42)
    assert p.view(ANN).game_scores == (46, 42)
    crafted(p, TWENTY_NINE_TALON)
    run(p, [*TWENTY_NINE_DECLARE, "Bill: TH", "Ann: AH", "Ann: KH", "Bill: 9H", "Ann: QH",
            "Bill: 8H", "Ann: JH"])
    play_out(p)
    # The pique takes Bill from 72 to 102 at his first lead, with Ann at 46; her points in the play come after.
    assert p.games[-1].winner == BILL and p.games[-1].double and p.games[-1].reached == (46, 102)
    assert p.games[-1].scores[ANN] >= 50


# ---------------------------------------------------------------- play ceases at the target; the game of 101
def test_option_play_ceases_at_the_target_the_deal_stops_when_the_hundred_is_reached_in_play() -> None:
    # Parlett: "play ceases the moment one player reaches that total, leaving the rest of the hand unplayed".
    p = Partie(NAMES, "au-cent", {"play_ceases_at_the_target": True}, first_dealer=ANN)
    for seed in (2, 32):
        replay_deal(p, seed)
    assert p.view(ANN).game_scores == (99, 65)
    crafted(p, TWENTY_NINE_TALON)
    run(p, TWENTY_NINE_DECLARE)
    assert p.phase is Phase.PLAY
    run(p, ["Bill: TH"])  # 94 in hand and lead, and the pique: 125
    assert p.phase is Phase.DEAL and p.dealer == BILL and len(p.hand(ANN)) == 12 and len(p.hand(BILL)) == 11
    assert p.games[-1] == GameResult(BILL, False, (99, 125), (99, 125), 3)
    assert p.deal_scores[-1].totals == (0, 60) and p.deal_scores[-1].tricks == (0, 0)
    with pytest.raises(IllegalActionError, match="it is the deal, not the play"):
        p.push(Play(ANN, card("AH")))
    # The record keeps the deal as far as it went, and replays it so.
    q = loads(dumps(p))
    assert q.games == p.games and q.phase is Phase.DEAL and len(q.actions) == len(p.actions)
    # Undone, the card leaves the deal in the play.
    p.pop()
    assert p.phase is Phase.PLAY and p.to_act == BILL and len(p.games) == 0


def test_option_play_ceases_at_the_target_in_the_declarations_the_rest_is_not_declared() -> None:
    p = Partie(NAMES, "au-cent", {"play_ceases_at_the_target": True}, first_dealer=ANN)
    for seed in (0, 32):
        replay_deal(p, seed)
    assert p.view(ANN).game_scores == (94, 22)
    crafted(p, THIRTY_TALON)
    run(p, THIRTY_DECLARE[:5])  # Bill's point and sequences called; Ann has not yet answered the sequences
    assert p.phase is Phase.DECLARE
    run(p, THIRTY_DECLARE[5:6])  # her answer settles the sequences: Bill's repique makes him 112
    assert p.phase is Phase.DEAL and p.games[-1].winner == BILL and p.games[-1].reached == (94, 112)
    assert p.deal_scores[-1].by_category[BILL]["repique"] == 60 and p.deal_scores[-1].totals[ANN] == 0
    assert "Bill reaches 112 with Ann at 94, and wins the game; 94 to 112 at the end of the deal." in says(p)


def test_option_play_ceases_at_the_target_a_carte_blanche_may_end_the_deal_before_the_exchange() -> None:
    p = Partie(NAMES, "au-cent", {"play_ceases_at_the_target": True}, first_dealer=ANN)
    for seed in (2, 3):
        replay_deal(p, seed)
    assert p.view(ANN).game_scores == (26, 95)
    p.push(make_deal(CB_ANN, CB_BILL, CB_TALON, packets=2))
    run(p, ["Bill: cb 3"])
    assert p.phase is Phase.DEAL and p.games[-1] == GameResult(BILL, True, (26, 105), (26, 105), 3)


def reached(scores: list[int], event: ScoreEvent, target: int = 100) -> bool:
    """Add ``event`` to the game's ``scores``: whether its player has now reached ``target``."""
    scores[event.player] += event.points
    return scores[event.player] >= target


def test_option_play_ceases_at_the_target_nothing_is_scored_after_the_score_that_reaches_it() -> None:
    """Random parties with the option: in each deal that wins a game, what stands after the score that reached
    the target is only the rest of that same score (the other combinations of the category declared, the last
    trick's point with its trick, a repique or pique made there), never a later category, trick or the cards."""
    seen: list[ScoreCategory] = []

    def check(p: Partie) -> None:
        if len(p.games) == len(seen):
            return
        game, deal = p.games[-1], p.deal_scores[-1]
        scores = [game.scores[0] - deal.totals[0], game.scores[1] - deal.totals[1]]
        events = p.events  # the finished deal's, in the order of reckoning
        at = next(i for i, event in enumerate(events) if reached(scores, event))
        first = events[at]
        for e in events[at + 1:]:
            assert (e.category is first.category and e.player == first.player) or e.reason == "the last trick" \
                or e.category in (ScoreCategory.REPIQUE, ScoreCategory.PIQUE), (first, events[at + 1:])
        seen.append(first.category)

    for seed in range(12):
        agents = [RandomAgent(random.Random(seed)), RandomAgent(random.Random(seed + 50))]
        seen.clear()
        p = play_partie(agents, random.Random(seed), NAMES, "au-cent", {"play_ceases_at_the_target": True},
                        on_action=check)
        assert p.is_over and len(seen) == len(p.games)
        if ScoreCategory.PLAY in seen:
            return
    raise AssertionError("no game reached in the play")


def test_option_play_ceases_at_the_target_off_the_deal_is_played_out() -> None:
    p = after_deals(2, 32)
    crafted(p, TWENTY_NINE_TALON)
    run(p, [*TWENTY_NINE_DECLARE, "Bill: TH"])
    assert p.phase is Phase.PLAY and not p.games
    play_out(p)
    assert p.deal_scores[-1].tricks[ANN] + p.deal_scores[-1].tricks[BILL] == 12 and p.games[-1].winner == BILL


@pytest.mark.parametrize(("before", "events", "of_101", "of_100"), [
    # 100 is not yet a game of 101.
    ((95, 0), [(0, 5)], None, GameResult(0, True, (100, 0), (100, 0))),
    ((95, 0), [(0, 6)], GameResult(0, True, (101, 0), (101, 0)), GameResult(0, True, (101, 0), (101, 0))),
    # Bill's 100 comes first, but only Ann's 101 wins a game of 101.
    ((95, 50), [(1, 50), (0, 6)], GameResult(0, False, (101, 100), (101, 100)),
     GameResult(1, False, (101, 100), (95, 100))),
])
def test_option_game_of_101_a_game_is_101_up(before: tuple[int, int], events: list[tuple[int, int]],
                                              of_101: GameResult | None, of_100: GameResult) -> None:
    rules = make_rules("au-cent", {"game_of_101": True})
    assert rules.game_target == 101 and make_rules("au-cent").game_target == AuCent.game_target == 100
    assert rules.game_over(before, events) == of_101
    assert AuCent().game_over(before, events) == of_100


def test_option_game_of_101_with_play_ceasing_the_deal_stops_at_101() -> None:
    p = Partie(NAMES, "au-cent", {"play_ceases_at_the_target": True, "game_of_101": True}, first_dealer=ANN)
    for seed in (2, 32):
        replay_deal(p, seed)
    assert p.view(ANN).game_scores == (99, 65)
    crafted(p, TWENTY_NINE_TALON)
    run(p, [*TWENTY_NINE_DECLARE, "Bill: TH"])
    assert p.games[-1].reached == (99, 125)


# ---------------------------------------------------------------- options by agreement
# LOW: Ann (younger) holds 26 in hand: a point of five (5), a quint major (15), a tierce major (3)
# and three aces (3). Bill holds only low cards and sinks everything.
LOW_ANN = "AS KS QS JS TS AH KH QH AD JD TD 9C"
LOW_BILL = "9S 8S 7S JH TH 9H 8H 7H 9D 8D 7D 8C"
LOW_TALON = "7C KD QD AC KC QC JC TC"
LOW_DECLARE = ["Bill: x 8C", "Ann: x -", "Bill: point -", "Ann: point AS KS QS JS TS",
               "Bill: sequences -", "Ann: sequences AS KS QS JS TS | AH KH QH",
               "Bill: sets -", "Ann: sets AS AH AD"]


def test_au_cent_by_agreement_low_cards_score_nothing_in_play_and_younger_can_pique() -> None:
    p = au_cent(LOW_ANN, LOW_BILL, LOW_TALON, {"low_cards_score_nothing_in_play": True})
    run(p, [*LOW_DECLARE, "Bill: 7S"])
    assert points(p, ScoreCategory.PLAY, BILL) == 0  # the seven led scores nothing
    run(p, ["Ann: AS", "Ann: KS", "Bill: 8S", "Ann: QS", "Bill: 9S"])
    assert points(p, ScoreCategory.PIQUE, ANN) == 0
    run(p, ["Ann: JS"])  # 26 + 4: thirty before Bill has scored
    assert points(p, ScoreCategory.PIQUE, ANN) == 30


def test_au_cent_without_the_agreement_the_seven_led_scores_and_blocks_younger_s_pique() -> None:
    p = au_cent(LOW_ANN, LOW_BILL, LOW_TALON)
    run(p, [*LOW_DECLARE, "Bill: 7S", "Ann: AS", "Ann: KS", "Bill: 8S", "Ann: QS",
            "Bill: 9S", "Ann: JS"])
    assert points(p, ScoreCategory.PLAY, BILL) == 1 and points(p, ScoreCategory.PIQUE, ANN) == 0


def test_au_cent_by_agreement_a_nine_winning_a_trick_scores_nothing() -> None:
    rules = AuCent({"low_cards_score_nothing_in_play": True})
    assert rules.lead_points(card("9S"), None) == 0 and rules.lead_points(card("TS"), None) == 1
    assert rules.trick_awards(0, (card("8S"), card("9S")), 1, None) == []
    assert rules.trick_awards(0, (card("8S"), card("TS")), 1, None) == [(1, 1, TrickReason(card("8S"), card("TS")))]


# Bill (elder) holds a point of five making forty-four; Ann's longest suit is four.
P44_BILL = "JH TH 9H 8H 7H AS KS QS AD KD AC 7C"
P44_ANN = "JS TS 9S 8S AH KH QH QD JD TD 9D KC"
P44_TALON = "7S 8D 7D QC JC TC 9C 8C"


@pytest.mark.parametrize(("options", "scored"), [(None, 5), ({"points_ending_in_four_count_one_less": True}, 4)])
def test_au_cent_by_agreement_a_point_ending_in_four_counts_one_less(
        options: dict[str, object] | None, scored: int) -> None:
    p = au_cent(P44_ANN, P44_BILL, P44_TALON, options)
    run(p, ["Bill: x 7C", "Ann: x -", "Bill: point JH TH 9H 8H 7H"])
    assert says(p)[-1] == "Point of five, making forty-four."
    run(p, ["Ann: point JS TS 9S 8S"])
    assert points(p, ScoreCategory.POINT, BILL) == scored


def test_au_cent_points_ending_in_four_only_the_point_and_only_pips_ending_in_four() -> None:
    rules = AuCent({"points_ending_in_four_count_one_less": True})
    assert rules.combination_points(Category.POINT, cs("QH JH TH 9H 8H 7H")) == 5  # 54
    assert rules.combination_points(Category.POINT, cs("AS KS 9S 8S 7S")) == 5  # 45
    assert rules.combination_points(Category.POINT, cs("KS QS 9S 8S 7S")) == 4  # 44
    assert rules.combination_points(Category.SEQUENCES, cs("KS QS JS TS")) == 4


# ---------------------------------------------------------------- the audit's readings
def test_cavendish_au_cent_younger_need_not_declare_carte_blanche_until_elder_has_discarded() -> None:
    # "If the younger hand have a carte blanche, he need not declare it until his adversary has
    # discarded and touched the stock." Ann, younger, holds the blank hand.
    p = au_cent(CB_BILL, CB_ANN, CB_TALON)
    assert p.phase is Phase.EXCHANGE and p.to_act == BILL  # elder exchanges; Ann's decision waits
    assert CarteBlanche(ANN, True) in p.legal_actions(ANN).list()
    p.push(Exchange(BILL, cs("KS QS JS KH QH")))
    assert p.phase is Phase.CARTE_BLANCHE and p.to_act == ANN
    p.push(CarteBlanche(ANN, True))
    # Elder has discarded: her proof is shown at once, and she exchanges.
    assert p.view(BILL).shown_dealt[ANN] == cs(CB_BILL)
    assert p.phase is Phase.EXCHANGE and p.to_act == ANN
    p.push(Exchange(ANN, cs("7S")))
    assert points(p, ScoreCategory.CARTE_BLANCHE, ANN) == 10
    again = loads(dumps(p))
    assert again.events == p.events and again.view(BILL).shown_dealt == p.view(BILL).shown_dealt


def test_cavendish_au_cent_younger_may_still_announce_carte_blanche_before_elder_exchanges() -> None:
    p = au_cent(CB_BILL, CB_ANN, CB_TALON)
    p.push(CarteBlanche(ANN, True))
    assert p.phase is Phase.EXCHANGE and p.to_act == BILL
    assert p.view(BILL).shown_dealt[ANN] == cs("")  # shown once elder has discarded (Laws 19-20)
    p.push(Exchange(BILL, cs("KS QS JS KH QH")))
    assert p.view(BILL).shown_dealt[ANN] == cs(CB_BILL) and p.to_act == ANN


def test_law_20_in_rubicon_younger_decides_on_carte_blanche_before_elder_exchanges() -> None:
    p = dealt(CB_BILL, CB_ANN, CB_TALON)
    assert p.phase is Phase.CARTE_BLANCHE and p.to_act == ANN
    with pytest.raises(IllegalActionError, match="it is the carte blanche"):
        p.push(Exchange(BILL, cs("KS QS JS KH QH")))


def test_cavendish_au_cent_quatorzes_and_trios_are_not_shown() -> None:
    # "...must show the cards called, except in the case of quatorzes and trios." Bill keeps three kings
    # (KS KD and the KC he draws) beside his fourteen aces.
    views = {}
    for variant in ("rubicon", "au-cent"):
        p = dealt(BASE_ANN, BASE_BILL, BASE_TALON, packets=2, variant=variant)
        run(p, ["Bill: x KH", "Ann: x 8S"])
        declare_best(p)
        p.push(next(a for a in p.legal_actions() if isinstance(a, Play)))
        views[variant] = p.view(ANN)
        assert points(p, ScoreCategory.SETS, BILL) == 17
    kings = cs("KD KC")  # the KS is shown anyway, in his sixième
    assert kings.issubset(views["rubicon"].revealed[BILL])
    assert not views["au-cent"].revealed[BILL] & kings
    # Fourteen aces names all four: nothing is hidden by not showing them.
    assert cs("AS AH AD AC").issubset(views["au-cent"].revealed[BILL])


def test_option_fresh_cut_each_game_the_players_cut_again_and_the_lower_deals() -> None:
    p = Partie(NAMES, "au-cent", {"fresh_cut_each_game": True}, first_dealer=ANN)
    big_deal(p, BILL)
    assert len(p.games) == 1 and p.phase is Phase.CUT and p.to_act is None
    p.push(Cut(0, (card("9H"), card("9S"))))
    assert p.phase is Phase.CUT  # equal: cut again
    p.push(Cut(0, (card("AH"), card("8S"))))
    assert p.phase is Phase.DEAL and p.dealer == BILL
    with pytest.raises(IllegalActionError, match=re.escape(
            "Ann cannot deal: Bill cut the lower card for the new game (option fresh_cut_each_game), and in Piquet "
            "au Cent the lower cut deals")):
        p.push(make_deal(BASE_BILL, BASE_ANN, BASE_TALON, dealer=ANN, packets=2))
    plain = Partie(NAMES, "au-cent", first_dealer=ANN)
    big_deal(plain, BILL)
    assert plain.phase is Phase.DEAL and plain.dealer == BILL  # the deal simply alternates
    big_deal(p, ANN)
    text = dumps(p)
    assert '"cut": [{"Ann": "9H", "Bill": "9S"}, {"Ann": "AH", "Bill": "8S"}]' in text
    assert loads(text).games == p.games
    with pytest.raises(RecordError, match="deal 2: a new game begins with a cut"):
        loads(text.replace('"cut": [{"Ann": "9H", "Bill": "9S"}, {"Ann": "AH", "Bill": "8S"}], ', ""))
