"""The exchange's model on bit masks and tables (the books' discard, :mod:`piquet.ai.books`; the valuation of a
deal after the exchange, :class:`piquet.ai.exchange.Valuation`) gives what the model written out plainly, card by
card and combination by combination, gives: the same keep value for every card, the same cards thrown in the same
order, the same estimate of a deal to the last bit; and so level 5 makes the same exchange with either on seeded
positions. The plain model is here, as the rule books and the exchange's documentation put it (docs/players.md,
"The exchange"); the declarations are found by the engine's own combinations."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations as subsets

import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.ai import books
from piquet.ai.books import SimpleAgent, discard_choice, discard_order, keep_values
from piquet.ai.budget import Deadline
from piquet.ai.exchange import (
    PLAY_WEIGHTS,
    best_discard,
    candidate_discards,
    choose_exchange,
    declarations_by_category,
    estimate,
    valuation,
    worlds_after_elder,
)
from piquet.ai.inference import Inference
from piquet.ai.levels import LEVELS
from piquet.engine.actions import Exchange
from piquet.engine.cards import Card, CardSet, Rank, Suit
from piquet.engine.combinations import Category, key, maximal, pips
from piquet.engine.partie import Partie, Phase
from piquet.engine.variants import Rules, make_rules
from piquet.engine.view import PlayerView


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
@settings(max_examples=examples(400))
def test_keep_values_are_the_books_rule_card_by_card(hand: CardSet, younger: bool) -> None:
    assert keep_values(hand, younger) == _plain_keep_values(hand, younger)


@given(_hands, st.booleans(), st.data())
@settings(max_examples=examples(400))
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


def _plain_top_tricks(ranks: list[int]) -> float:
    """A card no missing card beats counts one; one beaten by a single missing card, with a smaller card to
    guard it, a half."""
    ranks = sorted(ranks, reverse=True)
    count = 0.0
    for i, r in enumerate(ranks):
        higher_out = sum(1 for above in range(r + 1, 8) if above not in ranks)
        if higher_out == 0:
            count += 1
        elif higher_out == 1 and len(ranks) >= i + 2:
            count += 0.5
    return count


@given(_hands)
def test_the_books_count_of_tricks_is_reckoned_suit_by_suit(hand: CardSet) -> None:
    """Auction's books: the tricks a hand expects to win (its top cards, a half for each card past the fourth)
    and to lose (its bottom cards, mirrored; a half for a void; no more than some 3/5 of the cards out)."""
    plus = 0.0
    minus = 0.0
    for suit in Suit:
        ranks = [int(c.rank) for c in hand.suit(suit)]
        top = _plain_top_tricks(ranks)
        plus += top + min(max(0, len(ranks) - 4) * 0.5, len(ranks) - top)
        minus += (min(_plain_top_tricks([7 - r for r in ranks]), 0.6 * (8 - len(ranks)) + 0.5) if ranks else 0.5)
    assert books.plus_tricks(hand) == plus
    assert books.minus_tricks(hand) == min(minus, 12.0)


# ---------------------------------------------------------------- the valuation, plainly
def _plain_summary(hand: CardSet, rules: Rules) -> list[tuple[tuple[int, int], int]]:
    """For the point, the sequences and the sets: the best combination's key (``(0, 0)``: none) and what the
    category scores when declared in full (the point: the best suit only, the first of equals)."""
    out = []
    for category in (Category.POINT, Category.SEQUENCES, Category.SETS):
        found = maximal(category, hand, rules.minimum_point)
        if category is Category.POINT:
            best = max(found, key=lambda c: key(category, c), default=None)  # the first of equal keys
            found = [best] if best is not None else []
        top = max((key(category, c) for c in found), default=(0, 0))
        out.append((top, sum(rules.combination_points(category, c) for c in found)))
    return out


def _plain_declarations(elder: CardSet, younger: CardSet, rules: Rules,
                        before: tuple[int, int] = (0, 0)) -> tuple[list[int], list[int]]:
    """Category by category (point, sequences, sets, then the repique): the better combination scores in full,
    equal ones nothing; the first to reach thirty with the other at nothing, the carte blanche counted, repiques."""
    e, y = _plain_summary(elder, rules), _plain_summary(younger, rules)
    mine, hers = [0, 0, 0, 0], [0, 0, 0, 0]
    a, b = before
    repique = False
    for n in range(3):
        if e[n][0] > y[n][0]:
            mine[n] = e[n][1]
        elif y[n][0] > e[n][0]:
            hers[n] = y[n][1]
        a, b = before[0] + sum(mine), before[1] + sum(hers)
        if not repique and a >= rules.repique_threshold(None) and b == 0:
            mine[3], repique = rules.repique_points, True
        elif not repique and b >= rules.repique_threshold(None) and a == 0:
            hers[3], repique = rules.repique_points, True
    return mine, hers


def _plain_play(elder: CardSet, younger: CardSet) -> float:
    """The play's estimate from its features found card by card: sure winners (cards above all the other's in
    their suit), the longer suits, the voids, the tens to aces of each."""
    sure_e = sure_y = long_e = long_y = void_e = void_y = 0
    for suit in Suit:
        mine, hers = elder.suit(suit), younger.suit(suit)
        sure_e += sum(all(c.rank > d.rank for d in hers) for c in mine)
        sure_y += sum(all(d.rank > c.rank for c in mine) for d in hers)
        long_e += max(0, len(mine) - len(hers))
        long_y += max(0, len(hers) - len(mine))
        void_e += not mine
        void_y += not hers
    features = [1, sure_e, sure_y, long_e, long_y, void_e, void_y]
    features += [len(elder.rank(Rank(r))) for r in range(Rank.TEN, Rank.ACE + 1)]
    features += [len(younger.rank(Rank(r))) for r in range(Rank.TEN, Rank.ACE + 1)]
    return sum(w * f for w, f in zip(PLAY_WEIGHTS, features, strict=True))


def _plain_estimate(elder: CardSet, younger: CardSet, rules: Rules, worth: tuple[int, int] = (1, -1)) -> float:
    """The declarations, elder's pique when his points and sure leads reach thirty before younger scores, and
    the play, a point of elder's worth ``worth[0]`` and one of younger's ``worth[1]``."""
    mine, hers = _plain_declarations(elder, younger, rules)
    a, b = sum(mine), sum(hers)
    sure = sum(sum(all(c.rank > d.rank for d in younger.suit(s)) for c in elder.suit(s)) for s in Suit)
    if not b and a < rules.repique_threshold(None) and a + sure + 1 >= rules.pique_threshold(None):
        a += rules.pique_points
    m, h = worth
    return m * a + h * b + (m - h) * _plain_play(elder, younger) / 2


_deals = st.lists(st.integers(0, 31), min_size=24, max_size=24, unique=True)
_RULES = (make_rules("rubicon"), make_rules("rubicon", {"minimum_point": 4}), make_rules("au-cent"))


@given(_deals, st.sampled_from(_RULES), st.sampled_from([(1, -1), (1, 1), (-1, -1), (1, -10), (10, -1)]))
@settings(max_examples=examples(400))
def test_the_valuation_is_the_plain_estimate_to_the_last_bit(cards: list[int], rules: Rules,
                                                              worth: tuple[int, int]) -> None:
    elder, younger = CardSet(cards[:12]), CardSet(cards[12:])
    assert estimate(elder.mask, younger.mask, rules, worth) == _plain_estimate(elder, younger, rules, worth)


@given(st.lists(_deals, min_size=2, max_size=6), st.integers(0, 10), st.integers(0, 10))
def test_the_valuation_keeps_no_stale_hand(deals: list[list[int]], cb_e: int, cb_y: int) -> None:
    """Hands changed one seat at a time, then both, as the loops change them: each deal valued as if alone."""
    rules = _RULES[0]
    value = valuation(rules)
    hands = [(CardSet(d[:12]), CardSet(d[12:])) for d in deals]
    for (e, _), (_, y) in zip(hands, hands[1:] + hands[:1], strict=True):
        for elder, younger in ((e, y), (e, hands[0][1]), (hands[0][0], y)):
            mine, hers = _plain_declarations(elder, younger, rules, (cb_e, cb_y))
            assert value.by_category(elder.mask, younger.mask, (cb_e, cb_y)) == (tuple(mine), tuple(hers))
            assert declarations_by_category(elder.mask, younger.mask, rules, None, (cb_e, cb_y)) == (
                tuple(mine), tuple(hers))


# ---------------------------------------------------------------- level 5's exchange, plainly
def _at_exchange(seed: int) -> PlayerView | None:
    """A seeded Rubicon deal at an exchange: elder's (even seeds) or younger's after elder's books' exchange
    (odd); ``None`` for a carte blanche."""
    partie = Partie(("Ann", "Bill"), first_dealer=seed % 2)
    partie.push(partie.random_deal(random.Random(seed)))
    if partie.phase is not Phase.EXCHANGE:
        return None
    if seed % 2:
        elder = partie.elder
        partie.push(SimpleAgent().choose(partie.view(elder), partie.legal_actions(elder)))
        if partie.phase is not Phase.EXCHANGE:
            return None
    seat = partie.to_act
    assert seat is not None
    return partie.view(seat)


def _plain_candidates(view: PlayerView, limit: int) -> list[CardSet]:
    """The discards level 5 tries: the books' own first, then the subsets of the least useful cards (the most
    that may be thrown and three more) in the books' order, of the most cards allowed and (a quarter) of one
    fewer."""
    assert view.exchange_range is not None
    lo, hi = view.exchange_range
    younger = view.seat != view.elder
    values = _plain_keep_values(view.hand, younger)
    pool = sorted(view.hand, key=lambda c: (values[c], c.rank))[: hi + 3]
    fewer = limit // 4 if hi - 1 >= lo else 0
    out: list[CardSet] = []
    for n, room in ((hi, limit - fewer), (hi - 1, fewer)):
        if room <= 0 or n <= 0:
            continue
        ranked = sorted((CardSet(c) for c in subsets(pool, n)), key=lambda c: sum(values[x] for x in c))
        first = CardSet(_plain_discards(view.hand, n, younger))
        out.extend(([first] + [c for c in ranked if c != first])[:room])
    return out


def _plain_hand_after(hand: CardSet, discard: CardSet, talon: Sequence[Card]) -> CardSet:
    return (hand - discard) | CardSet(talon[: len(discard)])


def _plain_choice(view: PlayerView, seed: int, worlds: int, candidates: int) -> CardSet:
    """Level 5's exchange with the plain model throughout: its candidates, the worlds (younger's drawn with
    elder's plain discard), younger's plain answer, the plain estimate; the same race (:func:`best_discard`)."""
    rules = view.rules
    options = _plain_candidates(view, candidates)
    deadline = Deadline(1000.0)  # a race never cut short
    if view.seat == view.elder:
        sampled = Inference(view).sample(random.Random(seed), worlds)

        def answer(hers: int, rest: Sequence[Card]) -> int:
            her = CardSet(hers)
            return _plain_hand_after(her, CardSet(_plain_discards(her, len(rest), True)), rest).mask

        return best_discard(view.hand.mask, options, sampled, answer,
                            lambda mine, hers: _plain_estimate(CardSet(mine), CardSet(hers), rules), deadline)
    found = worlds_after_elder(view, random.Random(seed), worlds,
                               lambda dealt, taken: CardSet(_plain_discards(dealt, taken, False)))
    assert found is not None
    return best_discard(view.hand.mask, options, found, lambda his, _rest: his,
                        lambda mine, his: _plain_estimate(CardSet(his), CardSet(mine), rules, (-1, 1)), deadline)


def _check_level5_exchange(seed: int, worlds: int) -> bool:
    view = _at_exchange(seed)
    if view is None:
        return False
    candidates = LEVELS[5].exchange_candidates
    assert candidate_discards(view, candidates) == _plain_candidates(view, candidates)
    assert view.seat is not None
    fast = choose_exchange(view, view.rules, random.Random(seed), worlds, candidates, deadline=Deadline(1000.0))
    assert fast == Exchange(view.seat, _plain_choice(view, seed, worlds, candidates))
    return True


def test_level5_exchanges_as_with_the_plain_model_on_seeded_positions() -> None:
    """Elder's and younger's exchanges of seeded deals, sixty worlds each (the choice, not the timing, is
    compared: the race is never cut short)."""
    seeds = range(examples(12))
    assert sum(_check_level5_exchange(seed, 60) for seed in seeds) >= len(seeds) * 5 // 6


@pytest.mark.slow
@pytest.mark.parametrize("seeds", [range(100, 150), range(150, 200)])
def test_level5_exchanges_as_with_the_plain_model_at_its_full_worlds(seeds: range) -> None:
    """The same at level 5's own thousand worlds, on a hundred more seeded positions."""
    worlds = LEVELS[5].exchange_worlds
    assert sum(_check_level5_exchange(seed, worlds) for seed in seeds) >= 40
