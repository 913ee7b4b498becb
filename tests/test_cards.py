"""Cards, card sets and the three combinations (point, sequences, sets)."""

from __future__ import annotations

import random

import pytest
from helpers import cs

from piquet.engine.cards import CARDS, FULL_PACK, SUIT_PIPS, Card, CardError, CardSet, Rank, Suit
from piquet.engine.combinations import (
    SET_RANKS,
    Category,
    best,
    candidates,
    invalid_reason,
    is_valid,
    key,
    maximal,
    pips,
    runs,
    sequence_value,
    set_value,
    value,
)


# ---------------------------------------------------------------- cards
def test_cards_parse_format_round_trip_for_all_32() -> None:
    assert len(CARDS) == 32
    assert len({str(c) for c in CARDS}) == 32
    for c in CARDS:
        assert Card.parse(str(c)) == c
        assert Card.parse(c.pretty()) == c
        assert Card.parse(str(c).lower()) == c
        assert Card.of(c.rank, c.suit) == c


@pytest.mark.parametrize("text", ["TS", "10S", "ts", "10s", "10♠", "t♠", "T♠"])
def test_cards_ten_of_spades_in_every_accepted_form(text: str) -> None:
    c = Card.parse(text)
    assert (c.rank, c.suit) == (Rank.TEN, Suit.SPADES)
    assert str(c) == "TS"


@pytest.mark.parametrize("text,rank,suit", [("AH", Rank.ACE, Suit.HEARTS), ("qd", Rank.QUEEN, Suit.DIAMONDS),
                                            ("7♣", Rank.SEVEN, Suit.CLUBS), ("k♥", Rank.KING, Suit.HEARTS)])
def test_cards_symbols_and_lowercase(text: str, rank: Rank, suit: Suit) -> None:
    assert (Card.parse(text).rank, Card.parse(text).suit) == (rank, suit)


@pytest.mark.parametrize("bad", ["", "S", "1S", "6S", "AX", "A", "ASS", "11S", " AS", "10", 7, None])
def test_cards_bad_input_raises_card_error(bad: object) -> None:
    with pytest.raises(CardError):
        Card.parse(bad)  # type: ignore[arg-type]
    assert issubclass(CardError, ValueError)


def test_cards_card_index_out_of_range() -> None:
    with pytest.raises(CardError):
        Card(32)
    with pytest.raises(CardError):
        Card(-1)


def test_cards_pips_and_court() -> None:
    assert [r.pips for r in Rank] == [7, 8, 9, 10, 10, 10, 10, 11]
    assert {r for r in Rank if r.is_court} == {Rank.KING, Rank.QUEEN, Rank.JACK}


# ---------------------------------------------------------------- card sets
def test_law_59_the_higher_card_of_the_suit_led_wins_and_nothing_else_does() -> None:
    # Card.beats is the one home of the trick's winner: checked here on all 32 x 32 pairs by rank and suit.
    for lead in CARDS:
        for card in CARDS:
            assert card.beats(lead) == (card.suit == lead.suit and card.rank > lead.rank), (card, lead)
    assert Card.parse("7S").beats(Card.parse("AH")) is False  # no trumps: a card of another suit never wins


def test_cards_suit_pips_table_sums_the_ranks_pips_of_each_suit_byte() -> None:
    for byte in range(256):
        assert SUIT_PIPS[byte] == sum(Rank(r).pips for r in range(8) if byte >> r & 1)
    assert SUIT_PIPS[0xFF] == 11 + 10 * 4 + 9 + 8 + 7  # a whole suit: 75
    hand = cs("AS KS 9S 7H QD TC")
    assert pips(hand) == sum(c.rank.pips for c in hand) == 11 + 10 + 9 + 7 + 10 + 10


def test_cards_cardset_parse_and_ops() -> None:
    a = cs("AS KS QS 7D")
    b = CardSet.parse(["qs", "10h", "7♦"])
    assert len(a) == 4 and len(b) == 3
    assert Card.parse("KS") in a and Card.parse("KH") not in a
    assert str(a | b) == "AS KS QS TH 7D"
    assert str(a & b) == "QS 7D"
    assert str(a - b) == "AS KS"
    assert str(a ^ b) == "AS KS TH"
    assert (a & b).issubset(a) and not a.issubset(b)
    assert str(a.suit(Suit.SPADES)) == "AS KS QS"
    assert str(cs("AS AH KD").rank(Rank.ACE)) == "AS AH"
    assert a.suits() == {Suit.SPADES, Suit.DIAMONDS}
    assert CardSet(FULL_PACK) == CardSet(CARDS) and len(CardSet(FULL_PACK)) == 32
    assert not CardSet() and CardSet.parse("") == CardSet()
    assert cs("7S,AS  TH") == cs("TH 7S AS")
    assert hash(cs("AS KS")) == hash(cs("KS AS"))
    assert CardSet.parse(str(a)) == a
    assert a.strings() == ["AS", "KS", "QS", "7D"]


def test_cards_cardset_iterates_by_suit_high_to_low() -> None:
    assert [str(c) for c in cs("7S AS TH 8C AC")] == ["AS", "7S", "TH", "AC", "8C"]


def test_cards_cardset_errors_and_immutability() -> None:
    with pytest.raises(CardError):
        CardSet.parse("AS AS")
    with pytest.raises(CardError):
        CardSet.parse("ts TS")
    with pytest.raises(CardError):
        CardSet.parse("AS ZZ")
    with pytest.raises(CardError):
        CardSet(1 << 32)
    with pytest.raises(AttributeError):
        cs("AS").mask = 3


# ---------------------------------------------------------------- combinations
def test_law_62_point_by_length_then_pips() -> None:
    five_low = cs("9S 8S 7S TS JS")      # 5 cards, 44
    four_high = cs("AH KH QH JH")        # 4 cards, 41
    assert key(Category.POINT, five_low) > key(Category.POINT, four_high)
    a, b = cs("AS KS QS 7S"), cs("KH QH JH TH")  # 38 vs 40
    assert key(Category.POINT, b) > key(Category.POINT, a)
    assert key(Category.POINT, cs("AS 9S 8S")) == key(Category.POINT, cs("KH QH 8H"))  # 28 each
    assert value(Category.POINT, five_low) == 5
    assert is_valid(Category.POINT, cs("AS"))
    assert not is_valid(Category.POINT, cs("AS KH"))


@pytest.mark.parametrize("cards,val", [("AS KS QS", 3), ("AS KS QS JS", 4), ("AS KS QS JS TS", 15),
                                       ("AS KS QS JS TS 9S", 16), ("AS KS QS JS TS 9S 8S", 17),
                                       ("AS KS QS JS TS 9S 8S 7S", 18)])
def test_law_63_sequence_values(cards: str, val: int) -> None:
    assert is_valid(Category.SEQUENCES, cs(cards))
    assert value(Category.SEQUENCES, cs(cards)) == val


def test_law_63_and_64_values_by_length_the_one_table_the_estimates_use() -> None:
    assert [sequence_value(n) for n in range(9)] == [0, 0, 0, 3, 4, 15, 16, 17, 18]
    assert [set_value(n) for n in range(5)] == [0, 0, 0, 3, 14]
    assert [str(r.letter) for r in SET_RANKS] == ["T", "J", "Q", "K", "A"]


def test_combinations_runs_are_the_maximal_runs_of_a_suit_byte() -> None:
    for byte in range(256):
        found = list(runs(byte))
        covered = 0
        for low, length in found:
            cells = ((1 << length) - 1) << low
            assert length >= 1 and byte & cells == cells  # a run of held ranks
            assert not byte >> (low + length) & 1 and (low == 0 or not byte >> (low - 1) & 1)  # maximal
            covered |= cells
        assert covered == byte and found == sorted(found)


def test_law_63_sequences_length_then_top_card() -> None:
    assert key(Category.SEQUENCES, cs("9H 8H 7H TH")) > key(Category.SEQUENCES, cs("AS KS QS"))
    assert key(Category.SEQUENCES, cs("AS KS QS")) > key(Category.SEQUENCES, cs("KH QH JH"))
    assert key(Category.SEQUENCES, cs("KS QS JS")) == key(Category.SEQUENCES, cs("KH QH JH"))
    assert not is_valid(Category.SEQUENCES, cs("AS KS JS"))
    assert not is_valid(Category.SEQUENCES, cs("AS KS"))
    assert not is_valid(Category.SEQUENCES, cs("AS KS QH"))


def test_law_64_sets_only_ace_to_ten_and_quatorze_beats_trio() -> None:
    for rank in "AKQJT":
        assert is_valid(Category.SETS, cs(f"{rank}S {rank}H {rank}D"))
        assert value(Category.SETS, cs(f"{rank}S {rank}H {rank}D {rank}C")) == 14
        assert value(Category.SETS, cs(f"{rank}S {rank}H {rank}D")) == 3
    for rank in "987":
        assert not is_valid(Category.SETS, cs(f"{rank}S {rank}H {rank}D"))
        assert not is_valid(Category.SETS, cs(f"{rank}S {rank}H {rank}D {rank}C"))
        assert invalid_reason(Category.SETS, cs(f"{rank}S {rank}H {rank}D")) is not None
    assert key(Category.SETS, cs("TS TH TD TC")) > key(Category.SETS, cs("AS AH AD"))
    assert key(Category.SETS, cs("AS AH AD")) > key(Category.SETS, cs("KS KH KD"))
    assert not is_valid(Category.SETS, cs("AS AH KD"))


def test_law_64_nines_eights_sevens_are_never_candidates() -> None:
    hand = cs("9S 9H 9D 9C 8S 8H 8D 8C 7S 7H 7D 7C")
    assert candidates(Category.SETS, hand) == []
    assert best(Category.SETS, hand) is None


def test_combinations_maximal_and_candidates() -> None:
    hand = cs("AS KS QS JS 9D 8D 7D TC TH TS")
    assert [str(c) for c in maximal(Category.SEQUENCES, hand)] == ["AS KS QS JS TS", "9D 8D 7D"]
    assert str(best(Category.POINT, hand)) == "AS KS QS JS TS"
    assert str(best(Category.SETS, hand)) == "TS TH TC"
    seqs = candidates(Category.SEQUENCES, hand)
    assert cs("KS QS JS") in seqs and cs("AS KS QS JS TS") == seqs[0]
    assert all(len(c) >= 4 for c in candidates(Category.POINT, hand, minimum_point=4))


def test_candidates_are_every_combination_of_the_hand_best_first_in_a_fixed_order() -> None:
    """``candidates`` works on masks; it must list what the plain definition lists, in the same order
    (the legal declarations, and so seeded self-play, follow it): every subset of a suit for the point,
    every run of three or more within a suit's runs, every trio and quatorze of ten or better; found
    suit by suit (cards high to low) or rank by rank, then sorted best first, equal keys kept in order."""
    from itertools import combinations as subsets

    def plain(category: Category, hand: CardSet, minimum: int) -> list[CardSet]:
        found: list[CardSet] = []
        if category is Category.SETS:
            for rank in SET_RANKS:
                held = list(hand.rank(rank))
                found += [CardSet(chosen) for size in (3, 4) for chosen in subsets(held, size)]
        for suit in Suit if category is not Category.SETS else ():
            held = list(hand.suit(suit))
            for size in range(max(minimum, 1) if category is Category.POINT else 3, len(held) + 1):
                found += [CardSet(chosen) for chosen in subsets(held, size)
                          if category is Category.POINT or is_valid(category, CardSet(chosen))]
        return sorted(found, key=lambda c: key(category, c), reverse=True)

    rng = random.Random(64)
    for _ in range(300):
        hand = CardSet(rng.sample(range(32), rng.randint(0, 14)))
        for category in Category:
            for minimum in (1, 4):
                assert candidates(category, hand, minimum) == plain(category, hand, minimum), (hand, category)


def test_cardset_pickles_and_copies_as_itself() -> None:
    """A CardSet is immutable, yet pickle, copy and deepcopy must work (worker processes, a
    copied game); a Partie holding card sets deep-copies to an equal, independent game."""
    import copy
    import pickle

    from piquet.engine.partie import Partie

    hand = CardSet.parse("AS KS QS 7C")
    for twin in (pickle.loads(pickle.dumps(hand)), copy.copy(hand), copy.deepcopy(hand)):
        assert twin == hand and twin.mask == hand.mask
    partie = Partie(("Ann", "Bill"), first_dealer=0)
    partie.push(partie.random_deal(random.Random(4), packets=2))
    twin_partie = copy.deepcopy(partie)
    assert twin_partie.view(0).hand == partie.view(0).hand
    twin_partie.pop()
    assert partie.view(0).hand != CardSet()
