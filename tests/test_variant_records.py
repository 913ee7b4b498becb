"""Auction Piquet and Piquet au Cent records written by hand from the laws, with the scores they must produce.

The records in ``tests/records/auction-*.json`` and ``tests/records/au-cent-*.json`` were composed card by card
from Lunn's laws of Auction Piquet (``rules/004_*``) and Cavendish's Laws of Piquet au Cent (as summarised in
``RULINGS.md``); their ``.scores.json`` files hold the scores worked out by hand, with a note saying how each number
arises. They are an oracle independent of the engine: a failure here means the engine or the record is wrong, and
the note says which law decides.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from piquet.engine.record import loads

RECORDS = Path(__file__).parent / "records"
CATEGORIES = ("carte_blanche", "point", "sequences", "sets", "repique", "play", "pique", "cards", "contract", "total")
SUIT_ORDER = "AKQJT987"


def load(name: str) -> tuple[dict[str, Any], Any, Any]:
    """The record's data, the partie replayed from it, and the expected scores."""
    text = (RECORDS / f"{name}.json").read_text()
    expected = json.loads((RECORDS / f"{name}.scores.json").read_text())
    return json.loads(text), loads(text), expected


def expected_deals(expected: Any) -> list[dict[str, Any]]:
    return list(expected["deals"] if isinstance(expected, dict) else expected)


def counted(partie: Any) -> list[Any]:
    """The deal scores of the deals that count (annulled Auction deals left out)."""
    return [d for d in partie.deal_scores if not getattr(d, "annulled", False)]


def check_deals(data: dict[str, Any], partie: Any, expected: Any) -> None:
    players = data["players"]
    want = [e for e in expected_deals(expected) if not e.get("annulled")]
    got = counted(partie)
    assert len(got) == len(want)
    for number, (score, e) in enumerate(zip(got, want, strict=True), start=1):
        assert score.elder == players.index(e["elder"]), f"deal {number}: elder"
        for seat, name in enumerate(players):
            for category in CATEGORIES:
                assert score.by_category[seat].get(category, 0) == e["scores"][name][category], \
                    f"deal {number}, {name}, {category}: {e.get('note', '')}"
            assert score.totals[seat] == e["scores"][name]["total"], f"deal {number}, {name}, total"
        assert tuple(score.tricks) == tuple(e["tricks"][name] for name in players), f"deal {number}: tricks won"
        if "contract" in e:
            assert str(score.contract) == e["contract"], f"deal {number}: contract"


# Auction Piquet (Lunn's laws)

def test_lunn_minus_contract_doubled_down_scores_undertricks_to_younger() -> None:
    """8- doubled, elder loses only 5 tricks: 3 undertricks at 20 each go to younger; no bonus to elder."""
    data, partie, expected = load("auction-minus-doubled-down")
    check_deals(data, partie, expected)
    score = counted(partie)[0]
    assert str(score.contract) == "8- doubled"
    assert score.by_category[1].get("contract", 0) == 60
    assert score.by_category[0].get("contract", 0) == 0


def test_lunn_minus_contract_each_scores_the_others_combinations_and_the_tricks_he_loses() -> None:
    """Minus: Bill scores Ann's point (5); Ann scores Bill's sequences (4+3) and sets (3+3); 1 a trick lost;
    the cards go to the player who loses the majority (Bill, 7 lost)."""
    _data, partie, _expected = load("auction-minus-doubled-down")
    score = counted(partie)[0]
    ann, bill = score.by_category
    assert (bill["point"], ann["sequences"], ann["sets"]) == (5, 7, 6)
    assert (ann["point"], bill["sequences"], bill["sets"]) == (0, 0, 0)
    assert (ann["play"], bill["play"]) == (5, 7)
    assert (ann["cards"], bill["cards"]) == (0, 10)
    assert tuple(score.tricks) == (7, 5)


def test_lunn_both_pass_annuls_the_deal_which_does_not_count_and_the_same_dealer_deals_again() -> None:
    data, partie, _expected = load("auction-plus")
    assert [d["dealer"] for d in data["deals"]] == ["Ann", "Ann"]
    flags = [bool(getattr(d, "annulled", False)) for d in partie.deal_scores]
    assert flags in ([True, False], [False]), "the annulled deal is listed as annulled, or not listed"
    assert len(counted(partie)) == 1
    if flags[0]:
        assert partie.deal_scores[0].totals == (0, 0)


def test_lunn_plus_contract_made_with_an_overtrick_and_pique_at_29() -> None:
    """9+ made with 10 tricks: 10 for the overtrick; 25 in hand and 4 tricks won reach 29 before younger scores:
    pique (29 in plus contracts, not 30)."""
    data, partie, expected = load("auction-plus")
    check_deals(data, partie, expected)
    score = counted(partie)[0]
    assert str(score.contract) == "9+"
    bill = score.by_category[1]
    assert (bill["pique"], bill["contract"], bill["play"], bill["cards"]) == (30, 10, 10, 10)
    assert score.totals == (2, 85)


# Piquet au Cent (Cavendish's Laws of Piquet au Cent)

def test_cavendish_au_cent_deal_scores_as_rubicon_with_pique_and_equal_sequences() -> None:
    """Deal 1: 29 in hand and the first lead make 30: pique. Deal 2: equal quarts to the ace cancel sequences."""
    data, partie, expected = load("au-cent-game")
    check_deals(data, partie, expected)


def test_cavendish_au_cent_game_of_100_double_when_loser_under_50() -> None:
    """Ann reaches 105 in deal 2 with Bill on 11: she wins the game, a double one (Bill under 50)."""
    data, partie, expected = load("au-cent-game")
    players = data["players"]
    want = [(players.index(g["winner"]), g["double"]) for g in expected["games"]]
    assert [(g.winner, g.double) for g in partie.games] == want == [(0, True)]
    won = partie.games_won() if callable(partie.games_won) else partie.games_won
    assert tuple(won) == (2, 0)


# The records themselves (no engine): whole packs, legal exchanges, suit followed

@pytest.mark.parametrize("name", ["auction-minus-doubled-down", "auction-plus", "au-cent-game",
                                  "auction-pique-in-order"])
def test_variant_records_are_whole_packs_and_follow_suit(name: str) -> None:
    data = json.loads((RECORDS / f"{name}.json").read_text())
    players = data["players"]
    for deal in data["deals"]:
        hands = {p: list(deal["hands"][p]) for p in players}
        assert all(len(h) == 12 for h in hands.values()) and len(deal["talon"]) == 8
        assert len(set(hands[players[0]] + hands[players[1]] + deal["talon"])) == 32
        actions = [a for a in deal["actions"] if "bid" not in a]
        talon = list(deal["talon"])
        for a in (a for a in actions if "exchange" in a):
            for card in a["exchange"]:
                hands[a["player"]].remove(card)
            hands[a["player"]] += talon[:len(a["exchange"])]
            del talon[:len(a["exchange"])]
        plays = [a for a in actions if "play" in a]
        assert len(plays) in (0, 24)
        for i in range(0, len(plays), 2):
            lead, follow = plays[i], plays[i + 1]
            hands[lead["player"]].remove(lead["play"])
            hands[follow["player"]].remove(follow["play"])
            suit = lead["play"][1]
            if follow["play"][1] != suit:
                assert all(c[1] != suit for c in hands[follow["player"]]), f"revoke at {follow}"
            wins = follow["play"][1] == suit and SUIT_ORDER.index(follow["play"][0]) < SUIT_ORDER.index(lead["play"][0])
            winner = follow["player"] if wins else lead["player"]
            if i + 2 < len(plays):
                assert plays[i + 2]["player"] == winner, "the winner of a trick leads to the next"


def test_lunn_plus_pique_at_29_in_the_order_point_sequence_set_despite_younger_s_later_sets() -> None:
    """Bill reaches 29 with his point and sequences; Ann's two trios come after in the order of reckoning."""
    data, partie, expected = load("auction-pique-in-order")
    check_deals(data, partie, expected)
