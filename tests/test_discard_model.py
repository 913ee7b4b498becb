"""The books' discard model (:mod:`piquet.ai.books`) on bit masks and tables gives what the books' rule, card by
card, gives: the same keep value for every card of every hand, the same cards thrown in the same order. The rule
is written out here plainly, as the rule books put it (Law 58's exchange as the books advise it), and the fast
model is held to it on drawn hands."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.ai import books
from piquet.ai.books import discard_choice, discard_order, keep_values
from piquet.engine.cards import Card, CardSet, Rank, Suit
from piquet.engine.combinations import pips


def _plain_runs(cards: CardSet) -> list[CardSet]:
    """Runs of two or more consecutive cards within one suit's cards."""
    out: list[CardSet] = []
    run: list[Card] = []
    for card in sorted(cards, key=lambda c: c.rank):
        if run and card.rank == run[-1].rank + 1:
            run.append(card)
        else:
            if len(run) >= 2:
                out.append(CardSet(run))
            run = [card]
    if len(run) >= 2:
        out.append(CardSet(run))
    return out


def _plain_keep_values(hand: CardSet, younger: bool) -> dict[Card, float]:
    """The books' keep values, card by card: a card is worth its rank and its suit's length; the longest suit
    (ties: the better pips, then the top cards, then the first suit) ten more; an ace six; a king, queen, knave
    or ten held four, three or two times 9, 6 or 1.5; a run of two a point, of three or more three (five to
    the ten or higher) for each card; younger's guards (Kx: 5, the small card 4; Qxx: 4, the small ones 3)."""
    by_suit = {s: hand.suit(s) for s in Suit}
    longest = max(Suit, key=lambda s: (len(by_suit[s]), pips(by_suit[s]), sum(1 << c.rank for c in by_suit[s])))
    values = {card: card.rank / 4 + len(by_suit[card.suit]) / 2 for card in hand}
    for card in by_suit[longest]:
        values[card] += 10
    for card in hand.rank(Rank.ACE):
        values[card] += 6
    for rank in (Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN):
        held = hand.rank(rank)
        for card in held:
            values[card] += {4: 9, 3: 6, 2: 1.5}.get(len(held), 0)
    for suit in Suit:
        for run in _plain_runs(by_suit[suit]):
            top = max(c.rank for c in run)
            for card in run:
                values[card] += (5 if top >= Rank.TEN else 3) if len(run) >= 3 else 1
    if younger:
        for suit in Suit:
            cards = sorted(by_suit[suit], key=lambda c: c.rank)
            for rank, needed, bonus in ((Rank.KING, 1, 5), (Rank.QUEEN, 2, 4)):
                guard = Card.of(rank, suit)
                others = [c for c in cards if c != guard]
                if guard in cards and len(others) >= needed:
                    values[guard] += bonus
                    for card in others[:needed]:
                        values[card] += bonus - 1
    return values


def _plain_discards(hand: CardSet, count: int, younger: bool) -> list[Card]:
    """The books' discard, one card at a time: the card least worth keeping in what is left (ties: the lower
    rank, then the first card as the hand is listed)."""
    left, thrown = hand, []
    for _ in range(count):
        values = _plain_keep_values(left, younger)
        card = min(left, key=lambda c: (values[c], c.rank))
        thrown.append(card)
        left = left - CardSet([card])
    return thrown


_hands = st.sets(st.integers(0, 31), min_size=1, max_size=20).map(CardSet)


@given(_hands, st.booleans())
@settings(max_examples=400)
def test_keep_values_are_the_books_rule_card_by_card(hand: CardSet, younger: bool) -> None:
    assert keep_values(hand, younger) == _plain_keep_values(hand, younger)


@given(_hands, st.booleans(), st.data())
@settings(max_examples=400)
def test_discard_is_the_books_one_card_at_a_time_in_the_same_order(hand: CardSet, younger: bool,
                                                                    data: st.DataObject) -> None:
    count = data.draw(st.integers(0, len(hand)))
    books._ORDERS.clear()
    assert list(discard_order(hand.mask, count, younger)) == _plain_discards(hand, count, younger)
    assert discard_choice(hand, count, younger) == CardSet(_plain_discards(hand, count, younger))


@given(_hands, st.booleans(), st.data())
def test_one_order_of_discards_serves_every_count(hand: CardSet, younger: bool, data: st.DataObject) -> None:
    """Asked for fewer cards, then more, then fewer again (the remembered order extended and cut), the order
    is the books' each time."""
    counts = data.draw(st.lists(st.integers(0, len(hand)), min_size=1, max_size=4))
    books._ORDERS.clear()
    for count in counts:
        assert list(discard_order(hand.mask, count, younger)) == _plain_discards(hand, count, younger)


def test_the_remembered_orders_are_bounded() -> None:
    """Beyond its limit the memo of discard orders is dropped and starts again: it never grows without end."""
    books._ORDERS.clear()
    for mask in range(1, books._ORDER_LIMIT + 10):
        discard_order(mask << 12 | 0xFFF, 1)
    assert 0 < len(books._ORDERS) <= books._ORDER_LIMIT
