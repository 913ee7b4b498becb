"""The partie: six deals, ties, the settlement and the concession (Laws 71-73, rulings 16-18),
rule options, illegal actions and undo."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import (
    ANN,
    BASE_ANN,
    BASE_BILL,
    BASE_TALON,
    BILL,
    SinkingAgent,
    agents,
    all_views,
    base,
    cs,
    dealt,
    log_texts,
    new_partie,
    play_out,
)

from piquet.ai.agent import RandomAgent, play_deal, play_partie
from piquet.engine.actions import AcceptConcession, Concede, Declare, Exchange, Play
from piquet.engine.cards import Card, CardSet
from piquet.engine.combinations import Category
from piquet.engine.events import RestShown
from piquet.engine.partie import IllegalActionError, Partie, Phase
from piquet.engine.record import RecordError, dumps, loads
from piquet.engine.scoring import ScoreCategory, settle
from piquet.engine.variants import OptionError, make_rules

RECORDS = Path(__file__).parent / "records"


# ---------------------------------------------------------------- Law 71
def test_law_71_six_deals_alternating_dealers() -> None:
    p = play_partie(agents(11), random.Random(11), players=("Ann", "Bill"))
    n = len(p.deal_scores)
    assert n == 6 or (n in (7, 8) and sum(p.deal_scores[i].totals[0] - p.deal_scores[i].totals[1]
                                          for i in range(6)) == 0)
    assert [d.elder for d in p.deal_scores] == [d.elder for d in p.deal_scores[:1]] * 0 + \
        [(p.deal_scores[0].elder + i) % 2 for i in range(n)]
    assert p.is_over and p.phase is Phase.OVER and p.to_act is None


def test_law_71_tie_after_six_deals_means_more_deals() -> None:
    p = loads((RECORDS / "tie-after-six.json").read_text())
    assert len(p.deal_scores) == 6 and p.totals[0] == p.totals[1]
    assert not p.is_over and p.phase is Phase.DEAL


def test_law_71_tie_after_six_each_player_deals_once_more() -> None:
    p = loads((RECORDS / "tie-after-six.json").read_text())
    dealers = []
    for seed in range(20):
        q = p.copy()
        dealers = [q.dealer]
        play_deal(q, agents(seed), random.Random(seed))
        if q.totals[0] != q.totals[1]:
            break
    assert not q.is_over, "the partie ended after seven deals"
    dealers.append(q.dealer)
    assert set(dealers) == {ANN, BILL}


def test_law_71_still_tied_after_eight_deals_is_drawn() -> None:
    p = loads((RECORDS / "drawn-after-eight.json").read_text())
    assert len(p.deal_scores) == 8 and p.is_over
    assert p.result is not None and p.result.winner is None and p.result.points == 0
    assert "The partie is drawn." in log_texts(p.logs()[-1])


def test_law_71_partie_over_rule() -> None:
    rules = make_rules()
    assert not rules.partie_over(5, (10, 200))
    assert rules.partie_over(6, (100, 99))
    assert not rules.partie_over(6, (100, 100))
    assert rules.partie_over(8, (100, 100))


# ---------------------------------------------------------------- Laws 72-73 (ruling 17)
def test_ruling_17_rubicon_settlement_120_99_gives_319() -> None:
    r = settle((120, 99))
    assert (r.winner, r.points, r.rubiconed) == (0, 319, True)


def test_ruling_17_settlement_120_101_gives_119() -> None:
    r = settle((101, 120))
    assert (r.winner, r.points, r.rubiconed) == (1, 119, False)


def test_ruling_17_rubicon_whatever_the_winners_score() -> None:
    assert settle((90, 60)).points == 250 and settle((90, 60)).rubiconed
    assert settle((100, 100)).winner is None


def test_ruling_17_partie_result_matches_settlement() -> None:
    for seed in range(3):
        p = play_partie(agents(seed), random.Random(seed))
        a, b = p.totals
        assert p.result == settle((a, b))


# ---------------------------------------------------------------- concession (ruling 18)
def five_deals(seed: int = 0, cls: type[RandomAgent] = RandomAgent) -> Partie:
    """Five deals of a partie, played by ``cls``."""
    p = new_partie()
    for d in range(5):
        play_deal(p, agents(seed * 10 + d, cls), random.Random(seed * 10 + d))
    return p


def five_quiet_deals(seed: int = 0) -> Partie:
    """Five deals with no declarations, so both players stay low."""
    return five_deals(seed, SinkingAgent)


def to_play(p: Partie) -> None:
    """Deal the next deal and bring it to the first lead, everyone sinking."""
    ag = agents(99, SinkingAgent)
    p.push(p.random_deal(random.Random(5)))
    while p.phase is not Phase.PLAY:
        seat = p.to_act
        p.push(ag[seat].choose(p.view(seat), p.legal_actions(seat)))  # type: ignore[index]


def test_ruling_18_concession_in_the_last_deal_before_the_first_card() -> None:
    p = five_quiet_deals()
    assert p.totals[0] < 100 and p.totals[1] < 100
    to_play(p)
    assert p.deal_number == 6
    totals = p.totals
    loser = ANN
    assert Concede(loser) in p.legal_actions(loser)
    before = [e for e in p.events]
    p.push(Concede(loser))
    d = p.deal_scores[-1]
    assert d.by_category[BILL]["play"] == 13 + sum(e.points for e in before if e.player == BILL
                                                     and e.category.value == "play")
    assert d.by_category[BILL]["cards"] == 10
    assert d.by_category[BILL]["pique"] == 0 and d.by_category[BILL]["cards"] != 40
    assert p.is_over and p.totals[BILL] == totals[BILL] + d.totals[BILL]


def test_ruling_18_no_concession_before_the_last_deal() -> None:
    p = base()
    for seat in (ANN, BILL):
        p2 = p.copy()
        p2.push(Declare(BILL, Category.POINT, ()))
        with pytest.raises(IllegalActionError, match="last deal"):
            for a in [Declare(ANN, Category.POINT, ()), Declare(BILL, Category.SEQUENCES, ()),
                      Declare(ANN, Category.SEQUENCES, ()), Declare(BILL, Category.SETS, ()),
                      Declare(ANN, Category.SETS, ())]:
                p2.push(a)
            p2.push(Concede(seat))


def test_ruling_18_no_concession_after_the_first_card() -> None:
    p = five_quiet_deals()
    to_play(p)
    p.push(next(a for a in p.legal_actions() if isinstance(a, Play)))
    with pytest.raises(IllegalActionError, match="first card"):
        p.push(Concede(ANN))


def test_ruling_18_no_concession_for_a_player_at_100_or_more() -> None:
    for seed in range(40):
        p = five_deals(seed)
        if max(p.totals) >= 100:
            break
    rich = 0 if p.totals[0] >= 100 else 1
    to_play(p)
    with pytest.raises(IllegalActionError, match="100|rubicon"):
        p.push(Concede(rich))


def test_ruling_18_no_concession_before_the_six_declarations() -> None:
    p = five_quiet_deals()
    p.push(p.random_deal(random.Random(5)))
    assert p.phase is not Phase.PLAY
    for seat in (ANN, BILL):
        assert Concede(seat) not in p.legal_actions(seat).list()
        with pytest.raises(IllegalActionError, match="ruling 18.*after the six declarations"):
            p.push(Concede(seat))


def test_ruling_18_only_the_loser_may_concede_a_player_ahead_never() -> None:
    refused = 0
    for seed in range(40):
        p = five_deals(seed)
        if max(p.totals) >= 100:
            continue
        to_play(p)
        hand = [0, 0]
        for e in p.events:
            hand[e.player] += e.points
        for seat in (ANN, BILL):
            # What the concession would leave, worked out here from the hand as declared: the
            # opponent counts 13 for the play and 10 for the cards.
            own, other = p.totals[seat] + hand[seat], p.totals[1 - seat] + hand[1 - seat] + 23
            assert (Concede(seat) in p.legal_actions(seat)) == (own < other and own < 100)
            if own >= other:
                # Ahead even after the opponent counts the concession's 23: he may never concede.
                with pytest.raises(IllegalActionError, match="only the loser may concede"):
                    p.push(Concede(seat))
                refused += 1
    assert refused


def test_ruling_18_the_hands_are_reckoned_as_declared_before_the_concession() -> None:
    # Younger's point, scored as she declared it, stands before the concession's 13 and 10.
    for seed in range(30):
        p = five_quiet_deals(seed)
        p.push(p.random_deal(random.Random(seed)))
        ag = agents(seed)
        while p.phase is not Phase.PLAY:
            seat = p.to_act
            assert seat is not None
            p.push(ag[seat].choose(p.view(seat), p.legal_actions(seat)))
        younger = 1 - p.elder
        if p.can(Concede(p.elder)) and any(a.player == younger and a.combinations for a in p.actions[-6:]
                                           if isinstance(a, Declare)):
            break
    else:  # pragma: no cover - the seeds above always find one
        pytest.fail("no last deal where younger scored and elder may concede")
    before = p.totals
    p.push(Concede(p.elder))
    d = p.deal_scores[-1]
    hand = d.by_category[younger]["point"] + d.by_category[younger]["sequences"] + d.by_category[younger]["sets"]
    assert hand > 0
    assert d.by_category[younger]["play"] == 13 and d.by_category[younger]["cards"] == 10
    assert d.by_category[younger]["pique"] == 0 and d.by_category[p.elder]["play"] == 0
    assert p.totals[younger] == before[younger] + d.totals[younger] and p.is_over


def rest_left_in_the_last_deal(options: str) -> tuple[Partie, int]:
    """The last deal of a quiet partie (with ``options``, a record's JSON) brought to the first lead: elder took
    five, younger one and elected to show the rest (Law 36); and a player who may concede."""
    p = loads(dumps(five_quiet_deals()).replace('"options": {}', f'"options": {options}'))
    p.push(p.random_deal(random.Random(5)))
    elder, younger = p.elder, 1 - p.elder
    p.push(next(a for a in p.legal_actions() if isinstance(a, Exchange) and len(a.discards) == 5))
    p.push(next(a for a in p.legal_actions() if isinstance(a, Exchange) and len(a.discards) == 1 and a.show_rest))
    while p.phase is Phase.DECLARE:
        p.push(p.legal_actions().list()[0])  # nothing called or shown
    assert p.phase is Phase.PLAY and p.view(elder).exchanged[younger] == 1 and p.view(elder).rest == CardSet()
    loser = next(seat for seat in (ANN, BILL) if p.can(Concede(seat)))
    return p, loser


def test_law_36_a_concession_accepted_ends_the_deal_with_the_rest_unseen() -> None:
    # Law 36 shows younger's rest once elder has led; a concession ends the deal before any lead.
    p, loser = rest_left_in_the_last_deal("{}")
    rest = CardSet(p.talon()[6:])
    assert len(rest) == 2
    p.push(Concede(loser))
    assert p.is_over
    for seat in (ANN, BILL, None):
        assert p.view(seat).rest == CardSet()
        assert not (p.view(seat).known_cards() & rest - p.view(seat).peeked)
    assert not any(isinstance(e, RestShown) for e in p.view(None).log)


def test_law_36_a_concession_declined_shows_the_rest_at_elders_lead_not_before() -> None:
    p, loser = rest_left_in_the_last_deal('{"concession_may_be_declined": true}')
    rest = CardSet(p.talon()[6:])
    p.push(Concede(loser))
    p.push(AcceptConcession(1 - loser, False))
    assert p.phase is Phase.PLAY and p.to_act == p.elder
    before, reckoned = dumps(p), p.view(None).events
    for seat in (ANN, BILL, None):
        assert p.view(seat).rest == CardSet()
    lead = p.legal_actions().list()[0]
    scored = p.push(lead)
    # The hand was reckoned once, at the concession: the lead scores only what a lead scores.
    assert p.view(None).events == (*reckoned, *scored) and all(e.category is ScoreCategory.PLAY for e in scored)
    for seat in (ANN, BILL, None):
        assert p.view(seat).rest == rest
    assert RestShown(1 - p.elder, rest) in p.view(None).log
    p.pop()  # taken back whole
    assert dumps(p) == before and p.view(p.elder).rest == CardSet()
    p.push(lead)
    play_out(p)
    again = loads(dumps(p))
    assert again.deal_scores == p.deal_scores and again.view(None).rest == rest


def test_ruling_18_law_71_after_a_tie_no_concession_in_the_seventh_deal_only_in_the_eighth() -> None:
    p = loads((RECORDS / "tie-after-six.json").read_text())
    assert p.rules.is_last_deal(6) and not p.rules.is_last_deal(7) and p.rules.is_last_deal(8)
    to_play(p)
    assert p.deal_number == 7
    for seat in (ANN, BILL):
        with pytest.raises(IllegalActionError, match="only in the last deal"):
            p.push(Concede(seat))
    four = make_rules("rubicon", {"four_deal_partie": True})
    assert [n for n in range(1, 9) if four.is_last_deal(n)] == [4, 6]


def test_ruling_18_four_deal_partie_the_fourth_deal_counts_double_in_the_concession() -> None:
    p = new_partie({"four_deal_partie": True})
    for d in range(3):
        play_deal(p, agents(d, SinkingAgent), random.Random(d))
    to_play(p)
    assert p.deal_number == 4 and p.rules.deal_multiplier(4) == 2
    hand = [0, 0]
    for e in p.events:
        hand[e.player] += e.points
    for seat in (ANN, BILL):
        assert p.concession_totals(seat) == (p.totals[seat] + 2 * hand[seat],
                                             p.totals[1 - seat] + 2 * (hand[1 - seat] + 23))
    loser = 0 if p.concession_totals(0)[0] < p.concession_totals(0)[1] else 1
    if p.can(Concede(loser)):
        expected = p.concession_totals(loser)
        p.push(Concede(loser))
        assert (p.totals[loser], p.totals[1 - loser]) == expected


def test_case_xxii_option_the_opponent_may_decline_the_concession_and_play_for_a_capot() -> None:
    p = five_quiet_deals()
    plain = p.copy()
    p2 = loads(dumps(p).replace('"options": {}', '"options": {"concession_may_be_declined": true}'))
    for q in (plain, p2):
        to_play(q)
    loser = next(seat for seat in (ANN, BILL) if plain.can(Concede(seat)))
    # Accepted, the concession scores as without the option.
    accepted = p2.copy()
    accepted.push(Concede(loser))
    assert accepted.phase is Phase.CONCESSION and accepted.to_act == 1 - loser
    assert accepted.legal_actions().list() == [AcceptConcession(1 - loser, True), AcceptConcession(1 - loser, False)]
    with pytest.raises(IllegalActionError, match="it is the concession"):
        accepted.push(Play(accepted.elder, accepted.hand(accepted.elder).cards()[0]))
    accepted.push(AcceptConcession(1 - loser, True))
    plain.push(Concede(loser))
    assert accepted.deal_scores[-1] == plain.deal_scores[-1] and accepted.result == plain.result
    # Declined, the deal is played out; the loser may not concede again; a capot scores 40.
    p2.push(Concede(loser))
    with pytest.raises(IllegalActionError, match="it is .*'s turn"):
        p2.push(AcceptConcession(loser, False))
    p2.push(AcceptConcession(1 - loser, False))
    assert p2.phase is Phase.PLAY and p2.to_act == p2.elder
    assert not p2.can(Concede(loser)) and Concede(loser) not in p2.legal_actions(loser).list()
    play_out(p2)
    d = p2.deal_scores[-1]
    assert p2.is_over and sum(d.tricks) == 12
    assert d.by_category[1 - loser]["cards"] == (40 if d.tricks[1 - loser] == 12 else 10 if d.tricks[1 - loser] > 6
                                                else 0)
    again = loads(dumps(p2))
    assert again.deal_scores == p2.deal_scores and again.result == p2.result


def test_ruling_18_a_record_with_a_concession_in_the_exchange_is_refused_with_the_ruling() -> None:
    p = five_quiet_deals()
    p.push(p.random_deal(random.Random(5)))
    text = dumps(p)
    loser = "Ann"
    bad = text[:text.rindex('"actions": [') + len('"actions": [')] + f'{{"player": "{loser}", "concede": true}}' + \
        text[text.rindex('"actions": [') + len('"actions": ['):]
    with pytest.raises(RecordError, match=r"deal 6, action 0: .*ruling 18"):
        loads(bad)


# ---------------------------------------------------------------- options
def test_option_unknown_option_rejected() -> None:
    with pytest.raises(OptionError, match="unknown rule option"):
        Partie(("Ann", "Bill"), options={"no_such_rule": True})
    with pytest.raises(OptionError):
        Partie(("Ann", "Bill"), options={"minimum_point": 9})
    with pytest.raises(OptionError):
        Partie(("Ann", "Bill"), options={"younger_may_stand_pat": 1})
    with pytest.raises(OptionError):
        Partie(("Ann", "Bill"), variant="whist")
    assert issubclass(OptionError, ValueError)


def test_option_defaults_are_cavendish() -> None:
    rules = make_rules()
    assert rules.changed() == {}
    assert (rules.minimum_point, rules.cards_count_toward_pique) == (1, False)
    assert (rules.elder_minimum_exchange, rules.younger_minimum_exchange) == (1, 1)


def test_partie_needs_two_distinct_names() -> None:
    for bad in (("Ann", "Ann"), ("Ann",), ("Ann", "")):
        with pytest.raises(ValueError):
            Partie(bad)


# ---------------------------------------------------------------- illegal actions and undo
def snapshot(p: Partie) -> tuple[object, ...]:
    return (dumps(p), *all_views(p), p.phase, p.to_act, tuple(p.actions))


@pytest.mark.parametrize("action,words", [
    (Play(BILL, Card.parse("AS")), ("Bill", "play AS", "exchange")),
    (Exchange(ANN, cs("8S")), ("Ann", "exchange", "Bill's turn")),
    (Exchange(BILL, cs("QH")), ("Bill", "exchange QH", "not in hand")),
    (Exchange(BILL, cs("7C AH AD AC KH KD")), ("Bill", "exchange", "Law 21")),
    (Declare(BILL, Category.POINT, ()), ("Bill", "declare", "exchange")),
])
def test_errors_illegal_action_names_player_action_reason_and_changes_nothing(action, words) -> None:  # type: ignore[no-untyped-def]
    p = dealt(BASE_ANN, BASE_BILL, BASE_TALON)
    before = snapshot(p)
    with pytest.raises(IllegalActionError) as exc:
        p.push(action)
    assert isinstance(exc.value, ValueError)
    for w in words:
        assert w in str(exc.value)
    assert exc.value.player in ("Ann", "Bill") and exc.value.reason and exc.value.action == action
    assert snapshot(p) == before
    assert not p.can(action)


def test_errors_illegal_action_in_every_phase_changes_nothing() -> None:
    rng = random.Random(4)
    p = new_partie()
    ag = agents(4)
    while not p.is_over:
        if p.phase is Phase.DEAL:
            p.push(p.random_deal(rng))
            continue
        before = snapshot(p)
        seat = p.to_act
        assert seat is not None
        other = p.hand(1 - seat)
        for bad in (Play(1 - seat, next(iter(other))) if other else None,
                    Concede(seat) if p.deal_number < 6 else None,
                    Exchange(seat, p.hand(1 - seat)), Declare(1 - seat, Category.SETS, ())):
            if bad is None or p.can(bad):
                continue
            with pytest.raises(IllegalActionError):
                p.push(bad)
            assert snapshot(p) == before
        p.push(ag[seat].choose(p.view(seat), p.legal_actions(seat)))


def test_undo_pop_back_to_any_earlier_point() -> None:
    p = play_partie(agents(8), random.Random(8), players=("Ann", "Bill"))
    actions = list(p.actions)
    q = Partie(("Ann", "Bill"))
    snaps = []
    for a in actions:
        snaps.append(snapshot(q))
        q.push(a)
    final = snapshot(q)
    assert dumps(q) == dumps(p)
    for i in range(len(actions) - 1, -1, -1):
        assert q.pop() == actions[i]
        assert snapshot(q) == snaps[i]
    with pytest.raises(IndexError):
        q.pop()
    for a in actions:
        q.push(a)
    assert snapshot(q) == final
