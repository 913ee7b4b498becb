"""The cut, the deal, carte blanche and the exchange (Laws 4, 9, 16, 18-23, 32-36, 61; rulings 1, 6)."""

from __future__ import annotations

import json
import random
import re

import pytest
from drivers import deals
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
    base,
    card,
    cs,
    dealt,
    declare_nothing,
    examples,
    full,
    log_texts,
    make_deal,
    new_partie,
    play_out,
    points,
    run,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.ai.agent import RandomAgent, play_deal
from piquet.engine.actions import CarteBlanche, ChooseDealer, Cut, Deal, Exchange, Play
from piquet.engine.cards import CARDS, Card, CardSet, shuffled_pack
from piquet.engine.events import CarteBlancheShown
from piquet.engine.partie import IllegalActionError, Partie, Phase
from piquet.engine.record import dumps
from piquet.engine.scoring import ScoreCategory


# ---------------------------------------------------------------- cut (Law 4)
def test_law_4_equal_cuts_cut_again() -> None:
    p = Partie(("Ann", "Bill"))
    assert p.phase is Phase.CUT
    p.push(Cut(0, (card("9H"), card("9S"))))
    assert p.phase is Phase.CUT
    p.push(Cut(0, (card("7D"), card("KC"))))
    assert p.phase is Phase.CHOOSE_DEALER and p.to_act == BILL


def test_law_4_higher_cut_chooses_the_dealer() -> None:
    p = Partie(("Ann", "Bill"))
    p.push(Cut(0, (card("AH"), card("KS"))))
    assert p.to_act == ANN
    with pytest.raises(IllegalActionError):
        p.push(ChooseDealer(BILL, BILL))
    p.push(ChooseDealer(ANN, BILL))
    assert p.phase is Phase.DEAL and p.dealer == BILL and p.to_act == BILL


def test_law_4_cut_of_the_same_card_is_illegal() -> None:
    p = Partie(("Ann", "Bill"))
    with pytest.raises(IllegalActionError):
        p.push(Cut(0, (card("AH"), card("AH"))))


# ---------------------------------------------------------------- deal (Law 9)
def test_law_9_packets_of_two_or_three_only() -> None:
    p = new_partie()
    for bad in (1, 4, 12):
        with pytest.raises(IllegalActionError, match="packets"):
            p.push(make_deal(BASE_ANN, BASE_BILL, BASE_TALON, packets=bad))
    p.push(make_deal(BASE_ANN, BASE_BILL, BASE_TALON, packets=2))
    assert p.legal_packets() == (2,) or p.phase is not Phase.DEAL


def test_law_9_dealer_keeps_his_packet_size_for_later_deals() -> None:
    p = new_partie()
    rng = random.Random(3)
    agents = (RandomAgent(random.Random(1)), RandomAgent(random.Random(2)))
    play_deal(p, agents, rng, p.random_deal(rng, packets=2))  # Ann deals by twos
    play_deal(p, agents, rng, p.random_deal(rng, packets=3))  # Bill by threes
    assert p.phase is Phase.DEAL and p.dealer == ANN
    assert p.legal_packets() == (2,)
    with pytest.raises(IllegalActionError, match="Law 9"):
        p.push(p.random_deal(rng, packets=3))
    p.push(p.random_deal(rng, packets=2))
    p.pop()
    # a deal whose packet size is not recorded is accepted
    d = p.random_deal(rng, packets=2)
    p.push(Deal(ANN, d.hands, d.talon, None))


def test_law_9_from_pack_deals_packets_to_non_dealer_first() -> None:
    d = Deal.from_pack(0, list(CARDS), 3)
    assert set(CARDS[:3]) <= set(d.hands[1])
    assert set(CARDS[3:6]) <= set(d.hands[0])
    assert d.talon == tuple(CARDS[24:])
    d2 = Deal.from_pack(1, list(CARDS), 2)
    assert set(CARDS[:2]) <= set(d2.hands[0]) and set(CARDS[2:4]) <= set(d2.hands[1])
    with pytest.raises(ValueError):
        Deal.from_pack(0, list(CARDS), 4)
    with pytest.raises(ValueError):
        Deal.from_pack(0, list(CARDS[:31]) + [CARDS[0]], 3)


def test_law_9_a_seeded_shuffle_deals_the_same_everywhere() -> None:
    # Deal.shuffled is the one way the arena, the interfaces and the partie shuffle and deal from a seed.
    for seed in range(20):
        pack = shuffled_pack(random.Random(seed))
        assert sorted(pack) == list(CARDS)
        dealer, packets = seed % 2, 2 + seed % 2
        assert Deal.shuffled(random.Random(seed), dealer, packets) == Deal.from_pack(dealer, pack, packets)
        p = Partie(("Ann", "Bill"), first_dealer=seed % 2)
        assert p.random_deal(random.Random(seed), 3) == Deal.shuffled(random.Random(seed), seed % 2, 3)


@settings(max_examples=examples(200))
@given(seed=st.integers(min_value=0, max_value=2**64))
def test_law_9_the_pack_is_shuffled_as_random_shuffle_shuffles_it_and_the_generator_left_alike(seed: int) -> None:
    # shuffled_pack draws random.Random.shuffle's draws itself (a pack is shuffled at every deal): the same
    # pack from the same seed as rng.shuffle gives, and the generator left in the same state for what follows.
    ours, theirs = random.Random(seed), random.Random(seed)
    pack = list(CARDS)
    theirs.shuffle(pack)
    assert shuffled_pack(ours) == pack
    assert ours.getstate() == theirs.getstate()


class _Counting(random.Random):
    """A generator of another kind: shuffled_pack leaves its draws to its own shuffle."""

    shuffles = 0

    def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
        _Counting.shuffles += 1
        super().shuffle(x)


def test_law_9_a_generator_of_another_kind_shuffles_the_pack_itself() -> None:
    pack = shuffled_pack(_Counting(3))
    assert _Counting.shuffles == 1 and sorted(pack) == list(CARDS)


def test_hands_fixed_whatever_the_packets_when_not_dealt_in_packets() -> None:
    # The web table's deals: a takeback that deals again in other packets, or by the other player, gets the same hands.
    pack = shuffled_pack(random.Random(5))
    deals_ = [Deal.from_pack(dealer, pack, packets, in_packets=False) for dealer in (0, 1) for packets in (2, 3)]
    assert {(d.hands, d.talon) for d in deals_} == {((CardSet(pack[:12]), CardSet(pack[12:24])), tuple(pack[24:]))}
    assert [(d.player, d.packets) for d in deals_] == [(0, 2), (0, 3), (1, 2), (1, 3)]
    assert Deal.from_pack(0, pack, 2).hands != Deal.from_pack(0, pack, 3).hands  # dealt in packets, they differ


@settings(max_examples=examples(25))
@given(deals())
def test_law_9_any_shuffle_dealt_in_packets_is_a_legal_deal_of_twelve_each_and_a_talon_of_eight(deal: Deal) -> None:
    assert len(deal.hands[0]) == len(deal.hands[1]) == 12 and len(deal.talon) == 8
    assert full([deal.hands[0], deal.hands[1], CardSet(deal.talon)])
    p = new_partie(first_dealer=deal.player)
    p.push(deal)
    assert p.phase in (Phase.CARTE_BLANCHE, Phase.EXCHANGE) and (p.hand(0), p.hand(1)) == deal.hands
    assert p.view(None).talon_left == 8


@pytest.mark.parametrize("ann,bill,talon,why", [
    (BASE_ANN, BASE_BILL, "KC 7D 7S QC JC TC 9C", "talon"),          # 7 in the talon
    (BASE_ANN + " 8C", BASE_BILL, "KC 7D 7S QC JC TC 9C", "13"),     # 13 cards to Ann
    (BASE_ANN, BASE_BILL, "KC 7D 7S QC JC TC 9C AS", "twice"),        # AS twice, 8C missing
    (BASE_ANN.replace("8S", "AS"), BASE_BILL, BASE_TALON, "both"),   # AS to both
])
def test_law_9_a_deal_must_hold_all_32_cards(ann: str, bill: str, talon: str, why: str) -> None:
    p = new_partie()
    with pytest.raises(IllegalActionError):
        p.push(make_deal(ann, bill, talon))
    assert p.phase is Phase.DEAL and not p.actions


def test_law_16_deal_by_the_wrong_player_is_illegal() -> None:
    p = new_partie()
    with pytest.raises(IllegalActionError, match="Bill cannot deal: Ann deals first"):
        p.push(make_deal(BASE_ANN, BASE_BILL, BASE_TALON, dealer=BILL))


def test_law_16_a_deal_out_of_turn_is_refused_because_the_players_deal_alternately() -> None:
    p = new_partie()
    p.push(make_deal(BASE_ANN, BASE_BILL, BASE_TALON, dealer=ANN))
    run(p, BASE_EXCHANGE)
    declare_nothing(p)
    play_out(p)
    assert p.dealer == BILL
    with pytest.raises(IllegalActionError, match=re.escape(
            "Ann cannot deal: the deal alternates (Law 16), and it is Bill's deal")):
        p.push(make_deal(BASE_ANN, BASE_BILL, BASE_TALON, dealer=ANN))


def test_law_4_a_deal_by_the_player_not_chosen_is_refused_saying_who_chose() -> None:
    # Law 4: the higher cut has the choice of deal; the refusal names the choice, not the alternation.
    p = Partie(NAMES)
    p.push(Cut(0, (card("AS"), card("7H"))))
    p.push(ChooseDealer(ANN, BILL))
    reason = "Ann cannot deal: Ann, who cut the higher card, chose Bill to deal (Law 4)"
    with pytest.raises(IllegalActionError, match=re.escape(reason)):
        p.push(make_deal(BASE_ANN, BASE_BILL, BASE_TALON, dealer=ANN))
    p.push(make_deal(BASE_ANN, BASE_BILL, BASE_TALON, dealer=BILL))
    data = json.loads(dumps(p))
    assert data["cut"] == [{"Ann": "AS", "Bill": "7H"}] and data["deals"][0]["dealer"] == "Bill"


def test_ruling_1_dealers_alternate_and_non_dealer_is_elder() -> None:
    p = new_partie()
    rng = random.Random(5)
    agents = (RandomAgent(random.Random(1)), RandomAgent(random.Random(2)))
    dealers: list[int] = []
    while not p.is_over:
        assert p.dealer is not None
        dealers.append(p.dealer)
        play_deal(p, agents, rng)
        assert p.deal_scores[-1].elder == 1 - dealers[-1]
    assert dealers[:6] == [0, 1, 0, 1, 0, 1]
    assert p.deal_scores[5].elder == ANN  # the first dealer is elder in deal 6


# ---------------------------------------------------------------- carte blanche (Laws 18-20, 61; ruling 6)
def cb_partie() -> Partie:
    return dealt(CB_ANN, CB_BILL, CB_TALON)


def test_law_18_carte_blanche_only_with_no_court_card_dealt() -> None:
    p = base()
    p.pop(); p.pop()
    assert p.phase is Phase.EXCHANGE
    with pytest.raises(IllegalActionError):
        p.push(CarteBlanche(BILL, True, 5))
    cb = cb_partie()
    assert cb.phase is Phase.CARTE_BLANCHE and cb.to_act == BILL
    # Ann holds courts: she is never asked
    cb.push(CarteBlanche(BILL, False))
    assert cb.phase is Phase.EXCHANGE and cb.to_act == BILL


# No law makes announcing optional: Law 20 binds a player to announce carte blanche as soon as he
# is aware of it. Declining is the engine's choice (piquet/data/rules.md), not Cavendish's.
def test_carte_blanche_is_optional_decline_is_legal() -> None:
    p = cb_partie()
    assert CarteBlanche(BILL, False) in p.legal_actions()
    run(p, ["Bill: cb no", "Bill: x 9S 8S 7S", "Ann: x KC"])
    assert points(p, ScoreCategory.CARTE_BLANCHE, BILL) == 0
    assert p.view(ANN).shown_dealt == (CardSet(), CardSet())


def test_law_61_carte_blanche_scores_10() -> None:
    p = cb_partie()
    run(p, ["Bill: cb 3"])
    assert points(p, ScoreCategory.CARTE_BLANCHE, BILL) == 10
    assert p.view(ANN).carte_blanche == (False, True)


# Ruling 6 (after Cavendish's Case V: elder should say he leaves cards before showing).
def test_ruling_6_elder_says_how_many_he_will_exchange() -> None:
    p = cb_partie()
    for bad in (None, 0, 6):
        with pytest.raises(IllegalActionError, match="Bill"):
            p.push(CarteBlanche(BILL, True, bad))
    with pytest.raises(IllegalActionError):
        p.push(CarteBlanche(BILL, False, 3))
    for n in range(1, 6):
        assert p.can(CarteBlanche(BILL, True, n))


# Younger discards first: Law 20 (the carte blanche need not be shown until she has discarded);
# elder bound to the number he said: ruling 6.
def test_ruling_6_elder_with_carte_blanche_exchanges_exactly_that_number_after_younger() -> None:
    p = cb_partie()
    run(p, ["Bill: cb 3"])
    assert p.phase is Phase.EXCHANGE and p.to_act == ANN  # younger first
    with pytest.raises(IllegalActionError):
        p.push(Exchange(BILL, cs("9S 8S 7S")))
    # younger may take at most 8 - 3 = 5, drawing below elder's three
    assert not p.can(Exchange(ANN, cs("KS QS JS KH QH JH")))
    run(p, ["Ann: x KS QS"])
    assert cs("8D 7D").issubset(p.hand(ANN))
    assert p.to_act == BILL
    for bad in ("9S 8S", "9S 8S 7S 9H"):
        with pytest.raises(IllegalActionError, match="Law 20"):
            p.push(Exchange(BILL, cs(bad)))
    run(p, ["Bill: x 9S 8S 7S"])
    assert cs("8H 7H 9D").issubset(p.hand(BILL))
    assert p.phase is Phase.DECLARE


def test_law_20_carte_blanche_shown_only_after_the_opponent_has_discarded() -> None:
    p = cb_partie()
    run(p, ["Bill: cb 3"])
    assert p.view(ANN).shown_dealt[BILL] == CardSet()
    assert not (p.view(ANN).known_cards() & cs(CB_BILL))
    run(p, ["Ann: x KS QS"])
    assert p.view(ANN).shown_dealt[BILL] == cs(CB_BILL)
    assert CarteBlancheShown(BILL, cs(CB_BILL)) in p.view(ANN).log
    assert f"My carte blanche: {cs(CB_BILL)}." in log_texts(p.view(ANN).log)


def test_law_20_younger_carte_blanche_shown_after_elder_discards() -> None:
    p = dealt(CB_BILL, CB_ANN, CB_TALON)  # Ann now holds the blank hand
    assert p.phase is Phase.CARTE_BLANCHE and p.to_act == ANN
    with pytest.raises(IllegalActionError):
        p.push(CarteBlanche(ANN, True, 3))  # younger says no number
    run(p, ["Ann: cb"])
    assert p.to_act == BILL  # elder exchanges first as usual
    assert p.view(BILL).shown_dealt[ANN] == CardSet()
    run(p, ["Bill: x KS QS JS KH QH"])
    assert p.view(BILL).shown_dealt[ANN] == cs(CB_BILL)
    assert points(p, ScoreCategory.CARTE_BLANCHE, ANN) == 10


def test_law_18_carte_blanche_counts_toward_repique() -> None:
    p = cb_partie()
    run(p, ["Bill: cb 3", "Ann: x KS", "Bill: x 9S 8S 7S",
            "Bill: point -", "Ann: point -",
            "Bill: sequences -", "Ann: sequences -",
            "Bill: sets AS AH AD AC | TS TH TD TC", "Ann: sets -",
            "Bill: AS"])
    # 10 + 14 + 14 = 38 in hand: a repique only thanks to the carte blanche
    assert points(p, ScoreCategory.REPIQUE, BILL) == 60


# ---------------------------------------------------------------- exchange (Laws 21-23, 32-36)
def test_law_21_elder_exchanges_one_to_five() -> None:
    p = dealt(BASE_ANN, BASE_BILL, BASE_TALON)
    with pytest.raises(IllegalActionError, match="Law 21"):
        p.push(Exchange(BILL, CardSet()))
    with pytest.raises(IllegalActionError, match="Law 21"):
        p.push(Exchange(BILL, cs("7C AH AD AC KH KD")))
    with pytest.raises(IllegalActionError, match="not in hand"):
        p.push(Exchange(BILL, cs("7D")))
    for n in range(1, 6):
        assert p.can(Exchange(BILL, CardSet(list(cs(BASE_BILL))[:n])))
    with pytest.raises(IllegalActionError, match="turn"):
        p.push(Exchange(ANN, cs("8S")))


def test_law_23_elder_draws_from_the_top() -> None:
    p = dealt(BASE_ANN, BASE_BILL, BASE_TALON)
    run(p, ["Bill: x 7C AH AD"])
    assert cs("KC 7D 7S").issubset(p.hand(BILL)) and not cs("7C AH AD") & p.hand(BILL)
    assert p.view(BILL).discards == cs("7C AH AD")
    assert len(p.hand(BILL)) == 12


def test_law_33_elder_short_exchange_peeks_at_what_he_left_younger_does_not() -> None:
    p = dealt(BASE_ANN, BASE_BILL, BASE_TALON)
    run(p, ["Bill: x 7C AH"])
    assert p.view(BILL).peeked == cs("7S QC JC")
    assert p.view(ANN).peeked == CardSet()
    assert p.view(None).peeked == CardSet()
    full5 = dealt(BASE_ANN, BASE_BILL, BASE_TALON)
    run(full5, ["Bill: x 7C AH AD AC KH"])
    assert full5.view(BILL).peeked == CardSet()


# Law 22 (at least one), Law 34 (up to all that are left), Law 23 (from the top).
def test_law_22_younger_exchanges_one_to_the_remainder_drawing_next_from_the_top() -> None:
    p = dealt(BASE_ANN, BASE_BILL, BASE_TALON)
    run(p, ["Bill: x 7C AH"])  # elder takes KC 7D, leaves 6
    with pytest.raises(IllegalActionError, match="Law 22"):
        p.push(Exchange(ANN, CardSet()))
    assert p.can(Exchange(ANN, cs("QH JH TH 9H 8H 7H")))
    with pytest.raises(IllegalActionError, match="Law 22"):
        p.push(Exchange(ANN, cs("QH JH TH 9H 8H 7H QD")))
    run(p, ["Ann: x QH JH"])
    # she takes first the cards elder left
    assert cs("7S QC").issubset(p.hand(ANN))
    assert p.phase is Phase.DECLARE and p.to_act == BILL


def test_law_36_show_rest_only_for_younger() -> None:
    p = dealt(BASE_ANN, BASE_BILL, BASE_TALON)
    with pytest.raises(IllegalActionError, match="Law 36"):
        p.push(Exchange(BILL, cs("7C"), show_rest=True))
    run(p, ["Bill: x 7C AH AD AC KH"])
    with pytest.raises(IllegalActionError):
        p.push(Exchange(ANN, cs("8S QH JH"), show_rest=True))  # nothing left to show


def test_law_36_rest_seen_by_both_only_after_elders_first_lead() -> None:
    p = base(show_rest=True)
    rest = cs("7S QC JC TC 9C 8C")
    for seat in (ANN, BILL, None):
        assert p.view(seat).rest == CardSet()
    assert not (p.view(ANN).known_cards() & rest)
    run(p, ["Bill: point -", "Ann: point -", "Bill: sequences -",
            "Ann: sequences -", "Bill: sets -", "Ann: sets -"])
    assert p.view(BILL).rest == CardSet()
    run(p, ["Bill: AS"])
    for seat in (ANN, BILL, None):
        assert p.view(seat).rest == rest


def test_law_36_rest_seen_by_neither_if_she_declines() -> None:
    p = base(show_rest=False)
    rest = cs("7S QC JC TC 9C 8C")
    run(p, ["Bill: point -", "Ann: point -", "Bill: sequences -",
            "Ann: sequences -", "Bill: sets -", "Ann: sets -", "Bill: AS"])
    for seat in (ANN, BILL):
        assert p.view(seat).rest == CardSet()
        assert not (p.view(seat).known_cards() & rest - p.view(seat).peeked)


def test_option_younger_may_stand_pat() -> None:
    p = dealt(BASE_ANN, BASE_BILL, BASE_TALON, {"younger_may_stand_pat": True})
    run(p, ["Bill: x 7C"])
    assert p.can(Exchange(ANN, CardSet()))
    run(p, ["Ann: x -"])
    assert p.hand(ANN) == cs(BASE_ANN) and p.phase is Phase.DECLARE


def test_option_elder_may_stand_pat() -> None:
    p = dealt(BASE_ANN, BASE_BILL, BASE_TALON, {"elder_may_stand_pat": True})
    assert p.can(Exchange(BILL, CardSet()))
    assert not p.can(Exchange(BILL, cs("7C AH AD AC KH KD")))
    run(p, ["Bill: x -"])
    assert p.hand(BILL) == cs(BASE_BILL)
    assert p.view(BILL).peeked == cs("KC 7D 7S QC JC")
    assert not p.can(Exchange(ANN, CardSet()))
    assert p.can(Exchange(ANN, cs("QH JH TH 9H 8H 7H QD JD")))  # all 8 remain
    cb = dealt(CB_ANN, CB_BILL, CB_TALON, {"elder_may_stand_pat": True})
    assert cb.can(CarteBlanche(BILL, True, 0))


def test_play_before_exchange_is_illegal() -> None:
    p = dealt(BASE_ANN, BASE_BILL, BASE_TALON)
    with pytest.raises(IllegalActionError, match="exchange"):
        p.push(Play(BILL, card("AS")))
