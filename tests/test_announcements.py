"""Law 55 and ruling 11: what elder's calls and younger's answers tell both players, as data."""

from __future__ import annotations

from helpers import ANN, BILL, dealt, run

from piquet.engine.cards import Rank
from piquet.engine.combinations import Category
from piquet.engine.view import Announcement

# Bill (elder) holds spades K Q J 10 8 7 (a point of six, a quart to the king) and three queens;
# Ann holds hearts A K J 10 8 (a point of five) and diamonds 10 9 8 (a tierce to the ten).
ANN_HAND = "KH 8H KD TH JC QD 9D TD 9C 8D 9S AS"
BILL_HAND = "TS 9H TC 7H 8C AC 7D 7S AD 8S JS KS"
TALON = "QC QH QS JD KC 7C AH JH"
EXCHANGES = ["Bill: x 7H 7D 9H AD 8C", "Ann: x 9C 9S JC"]


def test_ruling_11_a_call_answered_good_tells_its_length_and_the_answer() -> None:
    p = run(dealt(ANN_HAND, BILL_HAND, TALON), [*EXCHANGES, "Bill: point KS QS JS TS 8S 7S",
                                                "Ann: point AH KH JH TH 8H"])
    heard = p.view(ANN).announcements
    assert heard == (Announcement(Category.POINT, 6, None, None, "good"),)
    assert p.view(BILL).announcements == heard


def test_ruling_11_an_equal_length_is_answered_with_the_pips() -> None:
    p = run(dealt(ANN_HAND, BILL_HAND, TALON), [*EXCHANGES, "Bill: point KS QS JS TS 8S",
                                                "Ann: point AH KH JH TH 8H"])
    # Five spades making 48 against five hearts making 49: "Making?" - "Forty-eight." - "Not good."
    assert p.view(BILL).announcements == (Announcement(Category.POINT, 5, None, 48, "not good"),)


def test_ruling_11_a_set_is_called_with_its_rank_and_a_sunk_category_is_heard_as_nothing() -> None:
    p = run(dealt(ANN_HAND, BILL_HAND, TALON), [
        *EXCHANGES, "Bill: point -", "Ann: point -", "Bill: sequences -",
        "Ann: sequences -", "Bill: sets QS QH QC", "Ann: sets -"])
    heard = p.view(ANN).announcements
    assert heard[0] == Announcement(Category.POINT, None)
    assert heard[2] == Announcement(Category.SETS, 3, Rank.QUEEN, None, "good")
