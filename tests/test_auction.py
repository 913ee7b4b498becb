"""Auction Piquet by Lunn's laws (rules/004): the auction, the exchange, declaring plus and minus
contracts, trick scoring, pique and repique, the contract and the partie.

Ann is seat 0 and Bill seat 1. ``dealt(..., variant="auction")`` has Ann deal, so Bill, the
non-dealer, opens the bidding.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

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
    act,
    agents,
    cs,
    dealt,
    events_of,
    first_legal,
    points,
    says,
)

from piquet.ai.agent import play_partie
from piquet.engine.actions import Action, Bid, CarteBlanche, Deal, Declare, Exchange, Play
from piquet.engine.cards import Card
from piquet.engine.partie import IllegalActionError, Partie, Phase
from piquet.engine.record import RecordError, dumps, loads
from piquet.engine.scoring import ScoreCategory, ScoreEvent, settle
from piquet.engine.variants import Auction, Contract, make_rules

# ---------------------------------------------------------------- builders


def go(partie: Partie, actions: Iterable[str | Action]) -> Partie:
    """Push each of ``actions``, those given as text in the engine's notation (:func:`helpers.act`)."""
    for a in actions:
        partie.push(act(a) if isinstance(a, str) else a)
    return partie


def auction(ann: str = BASE_ANN, bill: str = BASE_BILL, talon: str = BASE_TALON,
            bids: Iterable[str] = (), options: dict[str, object] | None = None) -> Partie:
    """An Auction Piquet deal dealt by Ann (Bill opens the bidding), with the given calls."""
    partie = dealt(ann, bill, talon, options, variant="auction")
    return go(partie, bids)


def calls(partie: Partie) -> list[str]:
    return [a.call for a in partie.legal_actions() if isinstance(a, Bid)]


def declare_first(partie: Partie) -> None:
    """Each player makes the first declaration listed: nothing in a plus contract (sinking is
    allowed), the one full declaration in a minus contract."""
    while partie.phase is Phase.DECLARE:
        partie.push(first_legal(partie))


def play_preferring(partie: Partie, prefs: dict[int, str]) -> None:
    """Play the deal out: each player plays the first card of his list that is legal, else his first legal card."""
    number = partie.deal_number
    order = {seat: [Card.parse(c) for c in text.split()] for seat, text in prefs.items()}
    while partie.phase is Phase.PLAY and partie.deal_number == number:
        seat = partie.to_act
        assert seat is not None
        legal = [a for a in partie.legal_actions() if isinstance(a, Play)]
        choice = next((a for c in order.get(seat, []) for a in legal if a.card == c), legal[0])
        partie.push(choice)


def deal_score(partie: Partie) -> dict[str, tuple[int, int]]:
    d = partie.deal_scores[-1]
    return {k: (d.by_category[0][k], d.by_category[1][k]) for k in d.by_category[0]}


# CAPOT: Bill holds the four top cards of spades, hearts and diamonds and wins every trick as elder,
# however either plays; Ann holds the rest of those suits, clubs are in the talon.
STRONG = "AS KS QS JS AH KH QH JH AD KD QD JD"
WEAK = "TS 9S 8S 7S TH 9H 8H 7H TD 9D 8D 7D"
CLUBS = "AC KC QC JC TC 9C 8C 7C"

# NINE: Bill holds all eight spades and 7H 8H 7D 7C; Ann holds hearts and diamonds and no spade or
# club. Both stand pat. Bill leading his spades and then the 7C wins exactly nine tricks; Bill leading
# the 7H at once loses all twelve.
NINE_BILL = "AS KS QS JS TS 9S 8S 7S 7H 8H 7D 7C"
NINE_ANN = "AH KH QH JH TH 9H AD KD QD JD TD 9D"
NINE_TALON = "8D AC KC QC JC TC 9C 8C"
WIN_NINE = "AS KS QS JS TS 9S 8S 7S 7C 7H 8H 7D"
# Ann, discarding on Bill's spades and club, keeps the AH KH AD.
ANN_KEEPS = "9D TD JD QD KD 9H TH JH QH AH KH AD"
LOSE_ALL = "7H 8H 7D 7C 7S 8S 9S TS JS QS KS AS"

STAND_PAT = ("Bill: x -", "Ann: x -")
NINE_PREFS = {BILL: WIN_NINE, ANN: ANN_KEEPS}


def contract_deal(ann: str, bill: str, talon: str, bids: Iterable[str], prefs: dict[int, str] | None = None,
                  exchange: Iterable[str] = STAND_PAT) -> Partie:
    """An Auction deal played to its end: the calls, the exchanges, each declaring first-listed, the play."""
    p = auction(ann, bill, talon, bids)
    go(p, exchange)
    declare_first(p)
    play_preferring(p, prefs or {})
    assert p.phase is Phase.DEAL and p.deal_scores and not p.deal_scores[-1].annulled
    return p


def nine(bids: Iterable[str]) -> Partie:
    """The NINE deal with the given calls, Bill winning exactly nine tricks."""
    return contract_deal(NINE_ANN, NINE_BILL, NINE_TALON, bids, NINE_PREFS)


# ================================================================ the auction
def test_lunn_the_non_dealer_opens_the_bidding() -> None:
    p = auction()
    assert p.phase is Phase.BID and p.dealer == ANN and p.to_act == BILL
    with pytest.raises(IllegalActionError, match="Bill's turn"):
        p.push(Bid(ANN, "8+"))
    with pytest.raises(IllegalActionError, match="it is the bidding"):
        p.push(Exchange(BILL, cs("7C")))
    assert p.view(ANN).bids == () and p.contract is None


def test_lunn_bids_are_seven_to_twelve_plus_or_minus() -> None:
    p = auction()
    expected = {"pass"} | {f"{n}{sign}" for n in range(7, 13) for sign in "+-"}
    assert set(calls(p)) == expected
    for bad in ("6+", "13-", "0+"):
        with pytest.raises(IllegalActionError, match="not a bid"):
            p.push(Bid(BILL, bad))


def test_lunn_each_bid_must_be_higher_in_number() -> None:
    p = auction(bids=["Bill: bid 9+"])
    for low in ("7+", "7-", "8+", "8-", "9+"):
        with pytest.raises(IllegalActionError, match="higher than 9\\+"):
            p.push(Bid(ANN, low))
    assert {"10+", "10-", "12+"} <= set(calls(p)) and "9-" not in calls(p)
    p.push(Bid(ANN, "10-"))
    assert p.to_act == BILL and not p.can(Bid(BILL, "10+"))


def test_lunn_plus_and_minus_of_one_number_are_equal_so_8_minus_over_8_plus_is_illegal() -> None:
    p = auction(bids=["Bill: bid 8+"])
    with pytest.raises(IllegalActionError, match="plus and minus of one number are equal"):
        p.push(Bid(ANN, "8-"))
    q = auction(bids=["Bill: bid 8-"])
    assert not q.can(Bid(ANN, "8+")) and q.can(Bid(ANN, "9+"))


def test_lunn_a_pass_ends_the_auction_and_the_last_bidder_holds_the_contract_and_is_elder() -> None:
    p = auction(bids=["Bill: bid 8+", "Ann: bid 9-"])
    assert p.phase is Phase.BID
    p.push(Bid(BILL, "pass"))
    assert p.contract == Contract(ANN, 9, True, 0)
    # The dealer, Ann, bid last: she becomes elder and exchanges first.
    assert p.elder == ANN and p.phase is Phase.EXCHANGE and p.to_act == ANN
    assert p.view(BILL).contract == p.contract and [b.call for b in p.view(BILL).bids] == ["8+", "9-", "pass"]
    assert "Ann holds the contract, 9-, and is elder." in says(p)


def test_lunn_the_non_dealer_bidding_and_the_dealer_passing_makes_him_elder() -> None:
    p = auction(bids=["Bill: bid 7+", "Ann: bid pass"])
    assert p.contract == Contract(BILL, 7, False, 0) and p.elder == BILL and p.to_act == BILL


def test_lunn_after_the_non_dealer_passes_the_dealer_may_open() -> None:
    p = auction(bids=["Bill: bid pass"])
    assert p.phase is Phase.BID and p.to_act == ANN
    assert not p.can(Bid(ANN, "double")) and not p.can(Bid(ANN, "redouble"))
    go(p, ["Ann: bid 7-", "Bill: bid 8+", "Ann: bid pass"])
    assert p.contract == Contract(BILL, 8, False, 0) and p.elder == BILL
    q = auction(bids=["Bill: bid pass", "Ann: bid 10+", "Bill: bid pass"])
    assert q.contract == Contract(ANN, 10, False, 0) and q.elder == ANN and q.to_act == ANN


def test_lunn_both_passing_annuls_the_deal_and_the_same_dealer_deals_again() -> None:
    p = auction(bids=["Bill: bid pass", "Ann: bid pass"])
    assert p.phase is Phase.DEAL and p.dealer == ANN and p.to_act == ANN
    d = p.deal_scores[-1]
    assert d.annulled and d.totals == (0, 0) and d.contract is None
    assert p.totals == (0, 0) and p.contract is None
    # The same dealer deals again: not Bill, and the refusal says why (not that the deal alternates).
    talon = tuple(Card.parse(c) for c in CLUBS.split())
    with pytest.raises(IllegalActionError, match=r"Bill cannot deal: the deal was annulled, and the same dealer, "
                                                 r"Ann, deals again \(Lunn\)"):
        p.push(Deal(BILL, (cs(WEAK), cs(STRONG)), talon, 3))
    data = json.loads(dumps(p))
    data["deals"].append({"dealer": "Bill", "hands": {"Ann": WEAK.split(), "Bill": STRONG.split()},
                          "talon": CLUBS.split(), "actions": []})
    with pytest.raises(RecordError, match=r"deal 2: Bill cannot deal: the deal was annulled, and the same dealer, "
                                          r"Ann, deals again \(Lunn\)"):
        loads(json.dumps(data))
    p.push(Deal(ANN, (cs(WEAK), cs(STRONG)), talon, 3))
    assert p.phase is Phase.BID and p.to_act == BILL


def test_lunn_double_then_the_bidder_may_pass_and_the_contract_is_doubled() -> None:
    p = auction(bids=["Bill: bid 8+", "Ann: bid double"])
    assert p.to_act == BILL and set(calls(p)) >= {"pass", "redouble", "9+", "9-", "12-"}
    assert "double" not in calls(p)
    p.push(Bid(BILL, "pass"))
    assert p.contract == Contract(BILL, 8, False, 1) and str(p.contract) == "8+ doubled"
    assert p.contract.multiplier == 2 and p.phase is Phase.EXCHANGE


def test_lunn_double_then_the_bidder_may_bid_higher_which_is_not_doubled() -> None:
    p = auction(bids=["Bill: bid 8+", "Ann: bid double", "Bill: bid 9-", "Ann: bid pass"])
    assert p.contract == Contract(BILL, 9, True, 0)


def test_lunn_redouble_ends_the_auction_and_the_contract_is_redoubled() -> None:
    p = auction(bids=["Bill: bid 8-", "Ann: bid double", "Bill: bid redouble"])
    assert p.phase is Phase.EXCHANGE and p.contract == Contract(BILL, 8, True, 2)
    assert p.contract.multiplier == 4 and str(p.contract) == "8- redoubled"
    with pytest.raises(IllegalActionError, match="it is the exchange"):
        p.push(Bid(ANN, "9+"))


def test_lunn_after_a_higher_bid_the_opponent_may_double_again() -> None:
    p = auction(bids=["Bill: bid 8+", "Ann: bid double", "Bill: bid 9+"])
    assert "double" in calls(p)
    go(p, ["Ann: bid double", "Bill: bid pass"])
    assert p.contract == Contract(BILL, 9, False, 1)
    q = auction(bids=["Bill: bid 8+", "Ann: bid double", "Bill: bid 9+", "Ann: bid double", "Bill: bid redouble"])
    assert q.contract == Contract(BILL, 9, False, 2)


def test_lunn_no_more_than_two_doubles_in_an_auction() -> None:
    p = auction(bids=["Bill: bid 8+", "Ann: bid double", "Bill: bid 9+", "Ann: bid double", "Bill: bid 10-"])
    assert "double" not in calls(p)
    with pytest.raises(IllegalActionError, match="no more than two doubles"):
        p.push(Bid(ANN, "double"))
    go(p, ["Ann: bid 11+", "Bill: bid pass"])
    assert p.contract == Contract(ANN, 11, False, 0)


def test_lunn_doubling_your_own_bid_is_illegal() -> None:
    p = auction(bids=["Bill: bid 8+", "Ann: bid double"])
    with pytest.raises(IllegalActionError, match="only the opponent's last bid can be doubled"):
        p.push(Bid(BILL, "double"))
    q = auction(bids=["Bill: bid pass"])
    with pytest.raises(IllegalActionError, match="only the opponent's last bid can be doubled"):
        q.push(Bid(ANN, "double"))


def test_lunn_redoubling_without_a_double_is_illegal() -> None:
    p = auction()
    with pytest.raises(IllegalActionError, match="only a double can be redoubled"):
        p.push(Bid(BILL, "redouble"))
    go(p, ["Bill: bid 8+"])
    with pytest.raises(IllegalActionError, match="only a double can be redoubled"):
        p.push(Bid(ANN, "redouble"))
    go(p, ["Ann: bid double", "Bill: bid 9+"])
    with pytest.raises(IllegalActionError, match="only a double can be redoubled"):
        p.push(Bid(ANN, "redouble"))


@pytest.mark.parametrize("text", ["13+", "6-", "8", "eight plus", "+8", "8*", "", "double!"])
def test_lunn_bad_bid_strings_are_rejected_with_a_clear_error(text: str) -> None:
    p = auction()
    with pytest.raises(IllegalActionError) as info:
        p.push(Bid(BILL, text))
    assert "not a bid" in str(info.value) and "bid 7 to 12" in str(info.value)
    assert p.phase is Phase.BID and p.to_act == BILL and not p.view(BILL).bids


def test_lunn_a_bid_not_written_plainly_is_refused_naming_the_plain_form() -> None:
    p = auction()
    with pytest.raises(IllegalActionError, match="write the bid as '8\\+'"):
        p.push(Bid(BILL, " 8 +"))
    with pytest.raises(IllegalActionError, match="write the bid as 'pass'"):
        p.push(Bid(BILL, "PASS"))


def test_lunn_bids_are_refused_outside_the_auction_and_in_other_variants() -> None:
    r = dealt(BASE_ANN, BASE_BILL, BASE_TALON)
    with pytest.raises(IllegalActionError, match="not the bidding"):
        r.push(Bid(BILL, "8+"))


def test_lunn_a_record_with_a_bad_bid_fails_saying_where() -> None:
    p = auction(bids=["Bill: bid 8+", "Ann: bid pass"])
    text = dumps(p)
    assert '"bid": "8+"' in text and '"variant": "auction"' in text
    q = loads(text)
    assert q.contract == p.contract and q.elder == BILL
    with pytest.raises(RecordError, match="deal 1, action 0: not a bid: '13\\+'"):
        loads(text.replace('"bid": "8+"', '"bid": "13+"'))
    with pytest.raises(RecordError, match="deal 1, action 1: .*higher than 8\\+"):
        loads(text.replace('"bid": "pass"', '"bid": "7-"'))


# ================================================================ the exchange
def test_lunn_elder_exchanges_none_to_five() -> None:
    p = auction(bids=["Bill: bid 8+", "Ann: bid pass"])
    assert p.view(BILL).exchange_range == (0, 5)
    with pytest.raises(IllegalActionError, match="0 to 5"):
        p.push(Exchange(BILL, cs("7C 9S TS JS QS KS")))
    go(p, ["Bill: x -"])
    assert p.to_act == ANN and p.view(ANN).exchange_range == (0, 8)


def test_lunn_younger_exchanges_none_up_to_what_remains() -> None:
    p = auction(bids=["Bill: bid 8+", "Ann: bid pass", "Bill: x 7C KH"])
    assert p.view(ANN).exchange_range == (0, 6)
    with pytest.raises(IllegalActionError, match="0 to 6"):
        p.push(Exchange(ANN, cs("QH JH TH 9H 8H 7H 8S")))
    assert p.can(Exchange(ANN, cs(""))) and p.can(Exchange(ANN, cs("QH JH TH 9H 8H 7H")))


def test_lunn_the_dealer_holding_the_contract_exchanges_first() -> None:
    p = auction(bids=["Bill: bid pass", "Ann: bid 7+", "Bill: bid pass"])
    assert p.to_act == ANN and p.view(ANN).exchange_range == (0, 5)
    go(p, ["Ann: x 8S 8D"])
    assert p.to_act == BILL and p.view(BILL).exchange_range == (0, 6)


def test_lunn_there_is_no_carte_blanche_in_auction_piquet() -> None:
    p = auction(CB_ANN, CB_BILL, CB_TALON)  # Bill is dealt no court card
    assert p.phase is Phase.BID
    go(p, ["Bill: bid 7-", "Ann: bid pass"])
    assert p.phase is Phase.EXCHANGE and p.to_act == BILL
    with pytest.raises(IllegalActionError, match="not the carte blanche"):
        p.push(CarteBlanche(BILL, True, 3))
    go(p, STAND_PAT)
    assert not events_of(p, ScoreCategory.CARTE_BLANCHE)
    assert p.view(ANN).carte_blanche == (False, False)


# ================================================================ declaring a minus contract
def base_minus(bids: Iterable[str] = ("Bill: bid 8-", "Ann: bid pass")) -> Partie:
    """BASE in a minus contract held by Bill: after the exchange Bill holds a point of six making 60,
    a sixième major and fourteen aces and kings; Ann two points of six making 54 and two sixièmes
    to the queen."""
    return go(auction(bids=bids), BASE_EXCHANGE)


FULL_BILL = ["Bill: point AS KS QS JS TS 9S", "Ann: point QH JH TH 9H 8H 7H",
             "Bill: sequences AS KS QS JS TS 9S",
             "Ann: sequences QH JH TH 9H 8H 7H | QD JD TD 9D 8D 7D",
             "Bill: sets AS AH AD AC | KS KH KD KC", "Ann: sets -"]


def test_lunn_minus_elder_calls_only_lengths_and_younger_asks_how_high_at_equal_length() -> None:
    p = go(base_minus(), FULL_BILL)
    said = says(p)
    start = said.index("Point of six.")
    assert said[start:] == ["Point of six.", "How high?", "Making sixty.", "Good.",
                            "Sixième.", "How high?", "Major.", "Good.",
                            "Set of four.", "Good."]


def test_lunn_minus_elder_calls_a_point_of_five_a_quart_and_a_set_of_three() -> None:
    # Bill holds a point of five (AS KS QS JS 7S), a quart major and three queens; Ann shorter suits.
    bill = "AS KS QS JS 7S QH 9H 7H QD 9D 7D 8C"
    ann = "KH JH TH 8H KD JD TD 8D KC JC TC 9C"
    talon = "TS 9S 8S AH AD AC QC 7C"
    p = auction(ann, bill, talon, ["Bill: bid 7-", "Ann: bid pass"])
    go(p, STAND_PAT)
    go(p, ["Bill: point AS KS QS JS 7S", "Ann: point KC JC TC 9C"])
    assert says(p)[-2:] == ["Point of five.", "Good."]
    go(p, ["Bill: sequences AS KS QS JS", "Ann: sequences JC TC 9C"])
    assert says(p)[-2:] == ["Quart.", "Good."]
    # Ann's three kings beat Bill's three queens: "How high?" at the equal length.
    go(p, ["Bill: sets QS QH QD", "Ann: sets KH KD KC | JH JD JC | TH TD TC"])
    assert says(p)[-4:] == ["Set of three.", "How high?", "Queens.", "Not good."]


@pytest.mark.parametrize("bad", ["Bill: point -", "Bill: point AS KS QS JS TS",
                                 "Bill: point AH"])
def test_lunn_minus_no_sinking_a_sunk_or_partial_point_is_illegal(bad: str) -> None:
    p = base_minus()
    with pytest.raises(IllegalActionError, match="in a minus contract nothing may be sunk"):
        p.push(act(bad))
    legal = [a for a in p.legal_actions() if isinstance(a, Declare)]
    assert [str(c) for a in legal for c in a.combinations] == ["AS KS QS JS TS 9S"]
    assert all(isinstance(a, Declare) for a in p.legal_actions())
    go(p, FULL_BILL[:1])
    assert p.to_act == ANN


def test_lunn_minus_no_sinking_every_scoring_set_and_sequence_is_shown() -> None:
    p = go(base_minus(), FULL_BILL[:2])
    with pytest.raises(IllegalActionError, match="nothing may be sunk"):
        p.push(act("Bill: sequences AS KS QS JS TS"))
    with pytest.raises(IllegalActionError, match="nothing may be sunk"):
        p.push(act("Bill: sequences -"))
    go(p, FULL_BILL[2:3])
    # Younger may not sink either: both her sixièmes are shown.
    with pytest.raises(IllegalActionError, match="nothing may be sunk"):
        p.push(act("Ann: sequences QH JH TH 9H 8H 7H"))
    go(p, FULL_BILL[3:4])
    for bad in ("Bill: sets AS AH AD AC", "Bill: sets KS KH KD KC | AS AH AD", "Bill: sets -"):
        with pytest.raises(IllegalActionError, match="nothing may be sunk"):
            p.push(act(bad))
    go(p, FULL_BILL[4:])
    assert p.phase is Phase.PLAY


def test_lunn_minus_each_scores_the_combinations_the_other_laid_down() -> None:
    p = go(base_minus(), [*FULL_BILL, "Bill: AS"])
    by = deal_so_far(p)
    # Bill's point, sixième and quatorzes score for Ann; 50 for her and none for Bill is a repique at 21.
    assert by[ANN] == {"point": 6, "sequences": 16, "sets": 28, "repique": 60}
    assert by[BILL] == {}
    assert all("Bill's" in e.reason for e in p.events if e.category.in_hand)


def deal_so_far(p: Partie) -> tuple[dict[str, int], dict[str, int]]:
    out: tuple[dict[str, int], dict[str, int]] = ({}, {})
    for e in p.events:
        out[e.player][e.category.value] = out[e.player].get(e.category.value, 0) + e.points
    return out


def test_lunn_minus_elder_scores_what_younger_laid_down_once_he_has_led() -> None:
    # Ann holds BASE's strong hand (without KC) and Bill the weak one; Bill bids 8- and both stand pat.
    p = auction(BASE_BILL, BASE_ANN, BASE_TALON, ["Bill: bid 8-", "Ann: bid pass"])
    go(p, STAND_PAT)
    go(p, ["Bill: point QH JH TH 9H 8H 7H", "Ann: point AS KS QS JS TS 9S",
           "Bill: sequences QH JH TH 9H 8H 7H | QD JD TD 9D 8D", "Ann: sequences AS KS QS JS TS 9S",
           "Bill: sets -", "Ann: sets AS AH AD AC | KS KH KD"])
    assert says(p)[-9:] == ["Point of six.", "How high?", "Making fifty-four.", "Not good.",
                            "Sixième.", "How high?", "To the queen.", "Not good.", "No sets."]
    assert points(p, ScoreCategory.POINT, BILL) == 0  # younger's combinations are reckoned at the lead
    go(p, ["Bill: 8S"])
    by = deal_so_far(p)
    assert by[BILL] == {"point": 6, "sequences": 16, "sets": 17, "repique": 60}
    assert by[ANN] == {}


# ================================================================ declaring a plus contract
def test_lunn_plus_the_sequence_top_card_and_the_exact_set_are_named_at_once() -> None:
    p = go(base_minus(["Bill: bid 8+", "Ann: bid pass"]), FULL_BILL)
    said = says(p)
    start = said.index("Point of six.")
    # The point as in a minus contract: its length, then "How high?" at an equal length.
    assert said[start:] == ["Point of six.", "How high?", "Making sixty.", "Good.",
                            "Sixième major.", "Good.", "Fourteen aces.", "Good."]


def test_lunn_plus_sinking_is_allowed() -> None:
    p = base_minus(["Bill: bid 8+", "Ann: bid pass"])
    for partial in ("Bill: point -", "Bill: point AS KS QS JS TS"):
        assert p.can(act(partial))
    go(p, ["Bill: point -", "Ann: point QH JH TH 9H 8H 7H",
           "Bill: sequences AS KS QS JS TS", "Ann: sequences -",
           "Bill: sets KS KH KD", "Ann: sets -", "Bill: AS"])
    by = deal_so_far(p)
    assert by[ANN] == {"point": 6} and by[BILL] == {"sequences": 15, "sets": 3}


def test_lunn_plus_each_scores_his_own_combinations() -> None:
    p = go(base_minus(["Bill: bid 8+", "Ann: bid pass"]), [*FULL_BILL, "Bill: AS"])
    by = deal_so_far(p)
    assert by[BILL] == {"point": 6, "sequences": 16, "sets": 28, "repique": 60}
    assert by[ANN] == {}
    assert not any("Bill's" in e.reason for e in p.events)


# ================================================================ the play
def test_lunn_plus_one_point_per_trick_won_none_for_leading_none_for_the_last_trick() -> None:
    p = nine(["Bill: bid 9+", "Ann: bid pass"])
    d = p.deal_scores[-1]
    assert d.tricks == (3, 9)
    assert (d.by_category[ANN]["play"], d.by_category[BILL]["play"]) == (3, 9)
    reasons = {e.reason for d_log in p.logs() for e in d_log if isinstance(e, ScoreEvent)}
    assert not any("lead" in r or "last trick" in r for r in reasons)


def test_lunn_minus_one_point_per_trick_lost() -> None:
    p = nine(["Bill: bid 9-", "Ann: bid pass"])
    d = p.deal_scores[-1]
    assert d.tricks == (3, 9)
    # Bill lost three tricks and Ann nine.
    assert (d.by_category[ANN]["play"], d.by_category[BILL]["play"]) == (9, 3)


def test_lunn_the_cards_go_to_the_winner_of_the_majority_in_plus_and_the_loser_in_minus() -> None:
    plus = nine(["Bill: bid 9+", "Ann: bid pass"])
    assert deal_score(plus)["cards"] == (0, 10)
    minus = nine(["Bill: bid 9-", "Ann: bid pass"])
    assert deal_score(minus)["cards"] == (10, 0)


def test_lunn_capot_scores_40() -> None:
    plus = contract_deal(WEAK, STRONG, CLUBS, ["Bill: bid 7+", "Ann: bid pass"])
    assert plus.deal_scores[-1].tricks == (0, 12)
    assert deal_score(plus)["cards"] == (0, 40) and deal_score(plus)["play"] == (0, 12)
    # Minus: Bill, holding the weak hand, loses every trick: capot for the loser of all twelve.
    minus = contract_deal(STRONG, WEAK, CLUBS, ["Bill: bid 7-", "Ann: bid pass"])
    assert minus.deal_scores[-1].tricks == (12, 0)
    assert deal_score(minus)["cards"] == (0, 40) and deal_score(minus)["play"] == (0, 12)


@pytest.mark.parametrize(("weak_bill", "minus"), [(False, False), (True, True)])
@pytest.mark.parametrize(("doubling", "capot", "bonus"), [
    ((), 40, 0), (("Ann: bid double", "Bill: bid pass"), 80, 20),
    (("Ann: bid double", "Bill: bid redouble"), 160, 40)])
def test_lunn_capot_bid_at_twelve_and_made_scores_80_doubled_and_160_redoubled(
        weak_bill: bool, minus: bool, doubling: tuple[str, ...], capot: int, bonus: int) -> None:
    ann, bill = (STRONG, WEAK) if weak_bill else (WEAK, STRONG)
    bids = ["Bill: bid 12-" if minus else "Bill: bid 12+", *doubling]
    if not doubling:
        bids.append("Ann: bid pass")
    p = contract_deal(ann, bill, CLUBS, bids)
    s = deal_score(p)
    assert s["cards"] == (0, capot)
    assert s["contract"] == (0, bonus)


def test_lunn_capot_by_the_player_who_did_not_bid_twelve_is_40_even_when_doubled() -> None:
    # Bill bids 12+ doubled with the weak hand: Ann wins every trick.
    p = contract_deal(STRONG, WEAK, CLUBS, ["Bill: bid 12+", "Ann: bid double", "Bill: bid pass"])
    s = deal_score(p)
    assert s["cards"] == (40, 0)
    assert s["contract"] == (12 * 20, 0)


# ================================================================ repique and pique
# H29: in a plus contract Bill holds a point of five (5), a quint major (15) and three aces, kings and
# knaves (9): 29 in hand. H30: a point of six instead: 30. Ann holds nothing that scores.
H29_BILL = "AS KS QS JS TS AH KH JH AD KD JD 7C"
H30_BILL = "AS KS QS JS TS 8S AH KH JH AD KD JD"
H29_ANN = "9S 7S QH TH 8H 7H 9D 7D KC JC 9C 8C"
H29_TALON = "8S 9H QD TD 8D AC QC TC"
H30_TALON = "7C 9H QD TD 8D AC QC TC"


def plus_hand(bill: str, talon: str, ann: str = H29_ANN) -> Partie:
    p = auction(ann, bill, talon, ["Bill: bid 7+", "Ann: bid pass"])
    go(p, STAND_PAT)
    while p.phase is Phase.DECLARE:  # each declares his best
        seat = p.to_act
        best = max((a for a in p.legal_actions() if isinstance(a, Declare)),
                   key=lambda a: sum(len(c) for c in a.combinations))
        assert best.player == seat
        p.push(best)
    return p


def test_lunn_plus_repique_at_thirty_in_combinations() -> None:
    p = plus_hand(H30_BILL, H30_TALON)
    go(p, ["Bill: AS"])
    assert points(p, ScoreCategory.REPIQUE, BILL) == 60
    q = plus_hand(H29_BILL, H29_TALON)
    go(q, ["Bill: AS"])
    assert sum(e.points for e in q.events if e.category.in_hand) == 29
    assert not events_of(q, ScoreCategory.REPIQUE)


def test_lunn_minus_repique_at_twenty_one_in_the_other_players_combinations() -> None:
    # Bill (minus) lays down a point of six (6) and a quint major (15): Ann scores 21 and the repique.
    bill = "AS KS QS JS TS 8S AH 9H 7H KD 9D 7D"
    ann = "9S 7S KH TH 8H QD TD 8D AC KC 9C 7C"
    talon = "8C QH JH AD JD QC JC TC"
    p = auction(ann, bill, talon, ["Bill: bid 7-", "Ann: bid pass"])
    go(p, STAND_PAT)
    declare_first(p)
    go(p, ["Bill: AS"])
    assert deal_so_far(p)[ANN] == {"point": 6, "sequences": 15, "repique": 60}


# The 28 hand: a point of six (6), a sixième major (16), three aces and three kings (6).
H28_STRONG = "AS KS QS JS TS 9S AH KH 8H AD KD 7C"
H28_WEAK = "8S 7S QH TH 7H QD TD 8D 7D KC JC 9C"
H28_TALON = "JH 9H JD 9D AC QC TC 8C"


def test_lunn_plus_pique_elder_with_29_in_hand_and_play_before_younger_scores() -> None:
    p = plus_hand(H28_STRONG, H28_TALON, H28_WEAK)
    assert p.phase is Phase.PLAY
    go(p, ["Bill: AS", "Ann: 7S"])  # 28 in hand and one trick: 29, where Rubicon wants 30
    assert points(p, ScoreCategory.PIQUE, BILL) == 30
    assert not events_of(p, ScoreCategory.REPIQUE)


def test_lunn_plus_pique_elder_with_29_in_hand_before_younger_scores_anything() -> None:
    # Lunn: 29 in hand and play before younger has scored: the 29 is reached in hand, younger has nothing.
    p = plus_hand(H29_BILL, H29_TALON)
    go(p, ["Bill: 7C", "Ann: KC"])
    assert points(p, ScoreCategory.PIQUE, BILL) == 30


def test_lunn_plus_younger_never_piques() -> None:
    # Ann, younger, holds the 28 hand; Bill holds the contract with the weak hand and declares nothing.
    p = auction(H28_STRONG, H28_WEAK, H28_TALON, ["Bill: bid 7+", "Ann: bid pass"])
    go(p, STAND_PAT)
    go(p, ["Bill: point -", "Ann: point AS KS QS JS TS 9S",
           "Bill: sequences -", "Ann: sequences AS KS QS JS TS 9S",
           "Bill: sets -", "Ann: sets AS AH AD | KS KH KD"])
    play_preferring(p, {BILL: "7S 8S", ANN: "AS KS QS JS TS 9S AH KH AD KD"})
    d = p.deal_scores[-1]
    assert d.by_category[ANN]["point"] + d.by_category[ANN]["sequences"] + d.by_category[ANN]["sets"] == 28
    assert d.by_category[ANN]["pique"] == 0 and d.by_category[BILL]["pique"] == 0


# M20: in a minus contract Bill lays down a point of five and a quint major: 20 for Ann, no repique.
M20_BILL = "AS KS QS JS TS AH 9H 7H KD 9D 7D 8C"
M20_ANN = "9S 7S KH TH 8H QD TD 8D AC KC 9C 7C"
M20_TALON = "8S QH JH AD JD QC JC TC"


def test_lunn_minus_younger_piques_at_21_in_hand_and_play() -> None:
    p = auction(M20_ANN, M20_BILL, M20_TALON, ["Bill: bid 7-", "Ann: bid pass"])
    go(p, STAND_PAT)
    declare_first(p)
    go(p, ["Bill: AS"])
    assert deal_so_far(p)[ANN] == {"point": 5, "sequences": 15}
    go(p, ["Ann: 7S"])  # Ann loses the trick: 21
    assert points(p, ScoreCategory.PIQUE, ANN) == 30


def test_lunn_minus_elder_piques_too() -> None:
    # Mirror: Ann holds the point of five and quint; Bill holds the contract (7-) and the low hand.
    p = auction(M20_BILL, M20_ANN, M20_TALON, ["Bill: bid 7-", "Ann: bid pass"])
    go(p, STAND_PAT)
    declare_first(p)
    go(p, ["Bill: 7S"])
    assert deal_so_far(p)[BILL] == {"point": 5, "sequences": 15}
    go(p, ["Ann: AS"])  # Bill loses the trick: 21
    assert points(p, ScoreCategory.PIQUE, BILL) == 30


def test_lunn_the_cards_and_capot_never_count_toward_pique() -> None:
    # Both sink everything; Bill wins every trick: 12 in play, the capot would make 52.
    p = contract_deal(WEAK, STRONG, CLUBS, ["Bill: bid 7+", "Ann: bid pass"])
    s = deal_score(p)
    assert s["play"] == (0, 12) and s["cards"] == (0, 40) and s["pique"] == (0, 0)
    assert s["contract"] == (0, 50)


# ================================================================ the contract
@pytest.mark.parametrize(("bids", "contract"), [
    (["Bill: bid 9+", "Ann: bid pass"], (0, 0)),
    (["Bill: bid 9+", "Ann: bid double", "Bill: bid pass"], (0, 20)),
    (["Bill: bid 9+", "Ann: bid double", "Bill: bid redouble"], (0, 40)),
    (["Bill: bid 8+", "Ann: bid pass"], (0, 10)),
    (["Bill: bid 8+", "Ann: bid double", "Bill: bid pass"], (0, 20 + 20)),
    (["Bill: bid 7+", "Ann: bid double", "Bill: bid redouble"], (0, 2 * 40 + 40)),
    (["Bill: bid 10+", "Ann: bid pass"], (10, 0)),
    (["Bill: bid 11+", "Ann: bid double", "Bill: bid pass"], (2 * 20, 0)),
    (["Bill: bid 12+", "Ann: bid double", "Bill: bid redouble"], (3 * 40, 0)),
])
def test_lunn_contract_overtricks_to_elder_undertricks_to_younger_and_the_doubled_bonus(
        bids: list[str], contract: tuple[int, int]) -> None:
    # Bill wins exactly nine tricks.
    p = nine(bids)
    assert p.deal_scores[-1].tricks == (3, 9)
    assert deal_score(p)["contract"] == contract
    events = events_of(p, ScoreCategory.CONTRACT)
    assert sum(e.points for e in events) == sum(contract)
    assert all(e.category is ScoreCategory.CONTRACT for e in events)
    if contract == (0, 0):
        assert not events


@pytest.mark.parametrize(("bid", "expected"), [("12-", (0, 0)), ("9-", (0, 30)), ("7-", (0, 50))])
def test_lunn_minus_contract_overtricks_are_tricks_lost_beyond_the_bid(bid: str, expected: tuple[int, int]) -> None:
    p = contract_deal(NINE_ANN, NINE_BILL, NINE_TALON, [f"Bill: bid {bid}", "Ann: bid pass"], {BILL: LOSE_ALL})
    assert p.deal_scores[-1].tricks == (12, 0)
    assert deal_score(p)["contract"] == expected


def test_lunn_minus_contract_undertricks_score_to_younger() -> None:
    # Bill bids 8- doubled and wins nine: he loses three, five short at 20 each for Ann.
    p = nine(["Bill: bid 8-", "Ann: bid double", "Bill: bid pass"])
    assert deal_score(p)["contract"] == (5 * 20, 0)


def test_lunn_contract_is_the_last_category_and_the_deal_score_keeps_the_contract() -> None:
    p = nine(["Bill: bid 8+", "Ann: bid double", "Bill: bid pass"])
    d = p.deal_scores[-1]
    assert d.contract == Contract(BILL, 8, False, 1) and not d.annulled
    log = [e for e in p.logs()[-1] if isinstance(e, ScoreEvent)]
    assert [e.category for e in log][-2:] == [ScoreCategory.CONTRACT, ScoreCategory.CONTRACT]
    assert d.totals == (sum(v for k, v in d.by_category[0].items() if k != "total"),
                        sum(v for k, v in d.by_category[1].items() if k != "total"))


# ================================================================ the partie
def capot_deal(p: Partie, bids: Iterable[str], strong: int | None = None) -> None:
    """The next deal: ``strong`` (by default the non-dealer) holds STRONG and the other WEAK; the calls;
    both stand pat and sink; the highest bidder (if he holds STRONG) wins every trick."""
    dealer = p.dealer
    assert dealer is not None and p.phase is Phase.DEAL
    strong = 1 - dealer if strong is None else strong
    hands = (cs(WEAK), cs(STRONG)) if strong == BILL else (cs(STRONG), cs(WEAK))
    p.push(Deal(dealer, hands, tuple(Card.parse(c) for c in CLUBS.split()), 3))
    go(p, bids)
    if p.phase is Phase.DEAL:
        return
    elder = p.elder
    p.push(Exchange(elder, cs("")))
    p.push(Exchange(1 - elder, cs("")))
    declare_first(p)
    play_preferring(p, {})


def test_lunn_a_partie_is_six_deals_not_counting_annulled_ones() -> None:
    p = Partie(NAMES, "auction", first_dealer=ANN)
    capot_deal(p, ["Bill: bid 8+", "Ann: bid pass"])  # Bill: 12 + 40 + 40
    capot_deal(p, ["Ann: bid 7+", "Bill: bid pass"])  # Bill deals: Ann the same
    dealer = p.dealer
    capot_deal(p, ["Bill: bid pass", "Ann: bid pass"])  # annulled
    assert p.dealer == dealer and p.deal_scores[-1].annulled
    for _ in range(3):
        capot_deal(p, ["Bill: bid 7+" if p.dealer == ANN else "Ann: bid 7+",
                       "Ann: bid pass" if p.dealer == ANN else "Bill: bid pass"])
    assert not p.is_over, "the annulled deal was counted"
    capot_deal(p, ["Bill: bid 7+", "Ann: bid pass"] if p.dealer == ANN else ["Ann: bid 7+", "Bill: bid pass"])
    assert len(p.deal_scores) == 7 and sum(not d.annulled for d in p.deal_scores) == 6
    assert p.is_over and p.result is not None and p.totals == (306, 296)
    assert all(d.multiplier == 1 for d in p.deal_scores)


def test_lunn_a_tie_after_six_deals_means_two_more_deals() -> None:
    p = Partie(NAMES, "auction", first_dealer=ANN)
    for _ in range(6):  # each deal mirrors the last: 102 each way
        capot_deal(p, ["Bill: bid 7+", "Ann: bid pass"] if p.dealer == ANN else ["Ann: bid 7+", "Bill: bid pass"])
    assert p.totals == (306, 306) and not p.is_over and p.phase is Phase.DEAL
    # Deal 7: Bill wins the deal; deal 8: Bill, the dealer, bids after Ann passes, and becomes elder.
    capot_deal(p, ["Bill: bid 7+", "Ann: bid pass"])
    assert not p.is_over and p.dealer == BILL
    capot_deal(p, ["Ann: bid pass", "Bill: bid 7+", "Ann: bid pass"], strong=BILL)
    assert p.deal_scores[-1].elder == BILL and p.deal_scores[-1].contract == Contract(BILL, 7, False, 0)
    assert p.totals == (306, 510) and p.is_over
    assert p.result is not None and p.result.winner == BILL
    assert p.result.points == 510 - 306 + 150 and not p.result.rubiconed


def test_lunn_still_tied_after_eight_deals_is_drawn() -> None:
    p = Partie(NAMES, "auction", first_dealer=ANN)
    for _ in range(8):
        capot_deal(p, ["Bill: bid 7+", "Ann: bid pass"] if p.dealer == ANN else ["Ann: bid 7+", "Bill: bid pass"])
    assert p.is_over and p.totals == (408, 408) and len(p.deal_scores) == 8
    assert p.result is not None and p.result.winner is None


@pytest.mark.parametrize(("totals", "winner", "points_", "rubiconed"), [
    ((400, 250), 0, 150 + 150, False), ((400, 150), 0, 250 + 150, False), ((149, 400), 1, 549 + 150, True),
    ((120, 99), 0, 219 + 150, True)])
def test_lunn_settlement_difference_and_150_or_the_sum_and_150_if_the_loser_is_under_150(
        totals: tuple[int, int], winner: int, points_: int, rubiconed: bool) -> None:
    r = settle(totals, rubicon=150, bonus=150)
    assert (r.winner, r.points, r.rubiconed) == (winner, points_, rubiconed)
    rules = make_rules("auction")
    assert isinstance(rules, Auction) and (rules.rubicon, rules.settlement_bonus) == (150, 150)


@pytest.mark.parametrize("seed", [3, 17])
def test_lunn_a_random_partie_is_settled_from_its_totals(seed: int) -> None:
    p = play_partie(agents(seed), random.Random(seed), NAMES, "auction")
    counted = [d for d in p.deal_scores if not d.annulled]
    assert len(counted) in (6, 7, 8)
    a = sum(d.totals[0] for d in counted)
    b = sum(d.totals[1] for d in counted)
    assert p.totals == (a, b)
    assert p.result is not None
    if a == b:
        assert p.result.winner is None and len(counted) == 8
        return
    winner = 0 if a > b else 1
    loser = min(a, b)
    expected = (a + b + 150) if loser < 150 else (abs(a - b) + 150)
    assert (p.result.winner, p.result.points, p.result.rubiconed) == (winner, expected, loser < 150)
    if len(counted) > 6:
        first6 = counted[:6]
        assert sum(d.totals[0] for d in first6) == sum(d.totals[1] for d in first6)
    assert loads(dumps(p)).result == p.result


# ---------------------------------------------------------------- the audit's readings (pique in order; options)
# P29: Bill (elder, the contract holder) calls a point of eight (8), a huitième (18) and a tierce (3): 29 by
# his point and sequences, before Ann reckons her two trios (6).
P29_BILL = "AS KS QS JS TS 9S 8S 7S AH KH QH 7D"
P29_ANN = "JH TH 9H 8H 7H JD JC TD TC AD KD QD"
P29_TALON = "9D 8D AC KC QC 9C 8C 7C"


def test_lunn_plus_pique_at_29_is_reckoned_strictly_in_the_order_point_sequence_set() -> None:
    p = auction(P29_ANN, P29_BILL, P29_TALON, ["Bill: bid 7+", "Ann: bid pass"])
    go(p, [*STAND_PAT, "Bill: point AS KS QS JS TS 9S 8S 7S", "Ann: point -",
           "Bill: sequences AS KS QS JS TS 9S 8S 7S | AH KH QH", "Ann: sequences -",
           "Bill: sets -", "Ann: sets JH JD JC | TH TD TC", "Bill: AS"])
    # Ann's sets stand after Bill's 29 in the order of reckoning: they do not stop his pique, which is his on the
    # score of the 29 being made (Law 69), so it stands there, before her sets.
    assert points(p, ScoreCategory.SETS, ANN) == 6
    assert points(p, ScoreCategory.PIQUE, BILL) == 30 and not events_of(p, ScoreCategory.REPIQUE)
    order = [e.category for e in p.events]
    assert order == [ScoreCategory.POINT, ScoreCategory.SEQUENCES, ScoreCategory.SEQUENCES, ScoreCategory.PIQUE,
                     ScoreCategory.SETS, ScoreCategory.SETS, *order[6:]]


def test_lunn_plus_no_pique_when_younger_scores_before_the_29() -> None:
    # The same hands, Bill sinking his tierce: 26 by his point and sequences, and Ann's sets come first.
    p = auction(P29_ANN, P29_BILL, P29_TALON, ["Bill: bid 7+", "Ann: bid pass"])
    go(p, [*STAND_PAT, "Bill: point AS KS QS JS TS 9S 8S 7S", "Ann: point -",
           "Bill: sequences AS KS QS JS TS 9S 8S 7S", "Ann: sequences -",
           "Bill: sets -", "Ann: sets JH JD JC | TH TD TC", "Bill: AS", "Ann: 7H",
           "Bill: KS", "Ann: 8H", "Bill: QS"])
    assert not events_of(p, ScoreCategory.PIQUE)


def test_option_redouble_counts_as_one_of_lunns_two_doubles() -> None:
    bids = ["Bill: bid 8+", "Ann: bid double", "Bill: bid 9+", "Ann: bid double"]
    assert Bid(BILL, "redouble") in auction(bids=bids).legal_actions()
    p = auction(bids=bids, options={"redouble_counts_as_double": True})
    assert Bid(BILL, "redouble") not in p.legal_actions()
    with pytest.raises(IllegalActionError, match="a redouble counts as one"):
        p.push(Bid(BILL, "redouble"))
    # A first redouble is still allowed: it ends the auction, so the count matters only after two doubles.
    q = auction(bids=["Bill: bid 8+", "Ann: bid double", "Bill: bid redouble"],
                options={"redouble_counts_as_double": True})
    assert q.contract == Contract(BILL, 8, False, 2)


def test_option_auction_carte_blanche_is_announced_once_the_contract_is_held() -> None:
    cb_bill = "AS TS 9S 8S 7S AH TH 9H AD TD AC TC"  # no king, queen or knave
    cb_ann = "KS QS JS KH QH JH KD QD JD KC QC JC"
    talon = "8H 7H 9D 8D 7D 9C 8C 7C"
    plain = auction(cb_ann, cb_bill, talon, ["Bill: bid 7+", "Ann: bid pass"])
    assert plain.phase is Phase.EXCHANGE and not plain.rules.has_carte_blanche
    p = auction(cb_ann, cb_bill, talon, ["Bill: bid 7+", "Ann: bid pass"], options={"carte_blanche": True})
    assert p.phase is Phase.CARTE_BLANCHE and p.to_act == BILL
    go(p, [CarteBlanche(BILL, True, 2), "Ann: x -", "Bill: x 7S 8S"])
    assert points(p, ScoreCategory.CARTE_BLANCHE, BILL) == 10
    assert p.view(ANN).shown_dealt[BILL] == cs(cb_bill)
    again = loads(dumps(p))
    assert again.events == p.events


def test_option_auction_elder_may_look_at_the_cards_he_leaves() -> None:
    cases: tuple[tuple[dict[str, object], int], ...] = (({}, 0), ({"elder_sees_cards_left": True}, 2))
    for options, seen in cases:
        p = auction(bids=["Bill: bid 7+", "Ann: bid pass"], options=options)
        go(p, ["Bill: x 7C AD KD"])
        assert len(p.view(BILL).peeked) == seen and len(p.view(ANN).peeked) == 0
