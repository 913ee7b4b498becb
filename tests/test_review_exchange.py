"""The review of the exchange (piquet.coach.review.review_exchange): constructed deals with a known answer, the
fair lens against the level's own valuation, the open lens against the real talon and the solver, and the
breakdown on many drawn exchanges of every variant."""

from __future__ import annotations

import functools
import random
from dataclasses import replace

import pytest
from helpers import ANN, BILL, cs, dealt, examples, run

from piquet.ai.agent import play_partie
from piquet.ai.bidding import auction_weight, contract_worth
from piquet.ai.books import SimpleAgent, discard_choice, minus_discards
from piquet.ai.exchange import (
    best_discard,
    declarations,
    declarations_by_category,
    drawn,
    estimate,
    worlds_after_elder,
)
from piquet.ai.inference import Inference, World
from piquet.ai.levels import partie_utility
from piquet.ai.solver import PlayPosition, solve
from piquet.coach.review import (
    PLAY_PARTS,
    WON_PARTS,
    ExchangeReview,
    Lens,
    Part,
    explain_exchange,
    review_exchange,
    review_partie,
)
from piquet.engine.actions import Bid, Deal, Exchange
from piquet.engine.cards import CardSet
from piquet.engine.partie import Partie, Phase
from piquet.engine.variants import Rules

NAMES = ("Ann", "Bill")


def _review(partie: Partie, discard: str, lens: Lens = Lens.FAIR, worlds: int = 400) -> ExchangeReview:
    assert partie.phase is Phase.EXCHANGE and partie.to_act is not None
    return review_exchange(partie, Exchange(partie.to_act, cs(discard)), lens, worlds, random.Random(1))


# ---------------------------------------------------------------- constructed deals with a known answer
def _quint() -> Partie:
    """Bill (elder) holds a quint major in hearts and every ten: no one else can make a quint. Ann holds three
    quarts major, which beat whatever is left of his hearts without their king."""
    return dealt("AS KS QS JS AD KD QD JD AC KC QC JC", "AH KH QH JH TH TS TD TC 7S 8S 7D 7C",
                 "9S 9H 8H 7H 9D 8D 9C 8C")


def test_a_discard_that_throws_away_a_quint_is_marked_and_its_explanation_names_sequences() -> None:
    review = _review(_quint(), "KH 7S 8S 7D 7C")
    assert review.seat == BILL and review.choice == cs("KH 7S 8S 7D 7C")
    assert not review.best & cs("AH KH QH JH TH")
    assert review.loss >= 10 and review.mark == "??"
    choice, best = review.worth(review.choice), review.worth(review.best)
    assert best.parts[Part.SEQUENCES] - choice.parts[Part.SEQUENCES] >= 10
    assert review.given_up[Part.SEQUENCES] > 0.5 and best.won[Part.SEQUENCES] == 1.0
    text = explain_exchange(review, NAMES)
    assert text.startswith("Discarding the 8♠ 7♠ K♥ 7♦ 7♣ rather than the ")
    assert "costs Bill" in text and "on average" in text
    assert "it gives up the repique (−" in text and ", the sequences (−" in text
    assert text.endswith("It breaks up your quint major in hearts and your point of five in hearts.")
    # Keeping it: no loss, and said so.
    kept = review_exchange(_quint(), Exchange(BILL, review.best), Lens.FAIR, 400, random.Random(1))
    assert kept.loss == 0 and kept.mark == ""
    # The best is explained against the next best, which throws a ten (the level's twenty candidates, 400 talons).
    assert kept.compared == kept.options[1].discard and kept.compared & cs("TS TD TC")
    text = explain_exchange(kept, NAMES)
    assert text.startswith(f"Discarding the {review.best.pretty()}: the best, by ")
    assert f" over the {kept.compared.pretty()}: " in text and text.endswith("It keeps your fourteen tens.")


def _point_of_six() -> Partie:
    """Bill (elder) holds six spades without a sequence (a point of six), Ann no suit of more than four."""
    return dealt("AH KH QH JH AD KD QD AC KC QC 9S QS", "AS KS JS TS 8S 7S 7H 9H 7D 9D 7C 9C",
                 "8H TH 8D TD JD 8C TC JC")


def test_a_discard_of_the_point_s_suit_gives_up_the_point() -> None:
    review = _review(_point_of_six(), "AS KS JS TS 8S")
    best = review.worth(review.best)
    assert best.won[Part.POINT] > 0.8  # six spades kept: the point but where Ann draws two hearts to her four
    assert 0.3 < review.given_up[Part.POINT] < 1.0 and review.gained[Part.POINT] == 0.0
    assert review.worth(review.choice).won[Part.POINT] == pytest.approx(best.won[Part.POINT]
                                                                        - review.given_up[Part.POINT])
    assert review.mark == "??"
    text = explain_exchange(review, NAMES)
    share = f"{review.given_up[Part.POINT]:.0%}"
    assert "the point (−" in text and f"; in {share} of the talons)" in text
    assert "It breaks up your point of six in spades" in text


def _quatorze() -> Partie:
    """Bill (elder) holds three aces; the fifth card of the talon is the fourth."""
    return dealt("QS JS TS 8S KH QH JH TH 8H KD QD JD", "AS AH AD KS 7S 9S 7H 9H 7D 9D 7C 9C",
                 "8D TD KC QC AC JC TC 8C")


def test_the_open_lens_uses_the_real_talon_where_its_fifth_card_makes_a_quatorze() -> None:
    review = _review(_quatorze(), "7S 9S 7H 9H", Lens.OPEN)
    assert review.worlds == 1 and review.play == "solver"
    for worth in review.options:
        if len(worth.discard) == 5 and not worth.discard & cs("AS AH AD"):
            assert worth.won[Part.SETS] == 1.0 and worth.parts[Part.SETS] == 14  # the fourteen aces
        else:
            assert worth.parts[Part.SETS] < 14
    assert len(review.best) == 5 and review.loss >= 11
    assert review.given_up[Part.SETS] == 0.0  # both score the sets: the fourteen scores more
    assert "the sets (−" in explain_exchange(review, NAMES)
    # The fair lens cannot know where the fourth ace lies.
    fair = _review(_quatorze(), "7S 9S 7H 9H")
    five = fair.worth(review.best)
    assert 0 < five.parts[Part.SETS] < review.worth(review.best).parts[Part.SETS]


def test_the_choice_made_is_among_the_options_even_one_the_level_would_never_try() -> None:
    review = _review(_quatorze(), "AS AH AD KS 9C", worlds=100)
    assert review.choice == cs("AS AH AD KS 9C") and review.choice in [w.discard for w in review.options]
    assert review.options[-1].discard == review.choice  # the worst of all
    assert review.mark == "??"


def test_the_open_lens_play_is_the_solver_s_value_of_the_hands_after_the_exchange() -> None:
    partie = _quatorze()
    review = _review(partie, "7S 9S 7H 9H", Lens.OPEN)
    talon = partie.talon()
    for worth in review.options:
        n = len(worth.discard)
        bill = drawn(partie.hand(BILL).mask, worth.discard, talon)
        rest = talon[n:]
        ann = drawn(partie.hand(ANN).mask, discard_choice(partie.hand(ANN), len(rest), True), rest)
        mine, hers = declarations_by_category(bill, ann)
        declared = {Part.POINT: mine[0] - hers[0], Part.SEQUENCES: mine[1] - hers[1], Part.SETS: mine[2] - hers[2],
                    Part.REPIQUE: mine[3] - hers[3]}
        assert {p: worth.parts[p] for p in declared} == declared
        position = PlayPosition((ann, bill), BILL, BILL, (0, 0), (sum(hers), sum(mine)), None,
                                bool(mine[3] or hers[3]))
        assert sum(worth.parts[p] for p in PLAY_PARTS) == solve(position, partie.rules).value


# ---------------------------------------------------------------- the fair lens is the level's own valuation
@functools.cache
def _simple_partie(seed: int, variant: str = "rubicon") -> Partie:
    return play_partie([SimpleAgent(random.Random(seed)), SimpleAgent(random.Random(seed + 1))],
                       random.Random(seed), NAMES, variant)


def _exchanges(partie: Partie) -> list[tuple[Partie, Exchange]]:
    """Each exchange of the partie, and the partie just before it."""
    replay = partie.copy()
    while replay.ply:
        replay.pop()
    out = []
    for action in partie.actions:
        if isinstance(action, Exchange):
            out.append((replay.copy(), action))
        replay.push(action)
    return out


def _younger_score(mine: int, his: int, rules: Rules | None = None) -> float:
    """Younger's score of a discard: elder's estimate, from the other side."""
    return -estimate(his, mine, rules)


def _level_worlds(at: Partie, action: Exchange, count: int, seed: int) -> list[World]:
    view = at.view(action.player)
    if action.player == view.elder:
        return Inference(view).sample(random.Random(seed), count)
    found = worlds_after_elder(view, random.Random(seed), count)
    assert found is not None
    return found


def _level_value(at: Partie, action: Exchange, discard: CardSet, worlds: list[World],
                 worth: tuple[int, int] = (1, -1)) -> float:
    """The mean of the level's estimate of ``discard`` over ``worlds``, a point of the player's worth
    ``worth[0]`` and one of the opponent's ``worth[1]``, as choose_exchange reckons it."""
    view = at.view(action.player)
    hand = view.hand.mask
    n = len(discard)
    total = 0.0
    for w in worlds:
        mine = drawn(hand, discard, w.talon)
        if action.player == view.elder:
            rest = w.talon[n:]
            hers = drawn(w.opponent_hand.mask, discard_choice(w.opponent_hand, len(rest), True), rest)
            total += w.weight * estimate(mine, hers, at.rules, worth)
        else:
            total += w.weight * estimate(w.opponent_hand.mask, mine, at.rules, (worth[1], worth[0]))
    return total / sum(w.weight for w in worlds)


def test_fair_values_are_the_mean_of_the_level_s_estimate_over_the_level_s_worlds() -> None:
    checked = 0
    for at, action in _exchanges(_simple_partie(2))[:6]:
        review = review_exchange(at, action, Lens.FAIR, 60, random.Random(3))
        worlds = _level_worlds(at, action, 60, 3)
        assert review.worlds == len(worlds) and review.utility == (1, -1)
        for worth in review.options:
            assert worth.value == pytest.approx(_level_value(at, action, worth.discard, worlds))
            assert sum(worth.parts.values()) == pytest.approx(worth.value)
        # The level, given the same worlds and discards (no deadline: every discard on every world), agrees.
        options = [w.discard for w in review.options]
        hand = at.hand(action.player).mask
        rules = at.rules
        if action.player == at.elder:
            found = best_discard(hand, options, worlds, lambda hers, rest: drawn(
                hers, discard_choice(CardSet(hers), len(rest), True), rest),
                functools.partial(estimate, rules=rules))
        else:
            found = best_discard(hand, options, worlds, lambda his, _rest: his,
                                 functools.partial(_younger_score, rules=rules))
        assert review.worth(found).value == pytest.approx(review.options[0].value)
        checked += 1
    assert checked == 6


def test_a_partie_s_last_deal_is_valued_by_its_stakes() -> None:
    # The simple players' partie of seed 2 ends with a last deal whose rubicon is settled: a point scored by
    # either counts for the winner, against the loser.
    at, action = next((at, a) for at, a in _exchanges(_simple_partie(2)) if at.deal_number == 6)
    seat = action.player
    u = partie_utility(at.view(seat), at.rules)
    mine = u if seat == 0 else (-u[1], -u[0])
    assert mine in ((1, 1), (-1, -1))
    review = review_exchange(at, action, Lens.FAIR, 60, random.Random(3))
    assert review.utility == mine
    worlds = _level_worlds(at, action, 60, 3)
    for worth in review.options:
        assert worth.value == pytest.approx(_level_value(at, action, worth.discard, worlds, mine))
        assert worth.parts[Part.PLAY] == 0  # the play's total much the same whoever plays better
    text = explain_exchange(review, NAMES)
    assert "by the partie's stakes" in text and "gives up" not in text and "of the talons" not in text


def test_declarations_by_category_sum_to_the_level_s_declarations() -> None:
    rng = random.Random(4)
    pack = list(range(32))
    for _ in range(300):
        rng.shuffle(pack)
        e, y = CardSet(pack[:12]).mask, CardSet(pack[12:24]).mask
        mine, hers = declarations_by_category(e, y)
        assert (sum(mine), sum(hers)) == declarations(e, y)


# ---------------------------------------------------------------- many drawn exchanges, every variant
@pytest.mark.parametrize(("variant", "seed"), [
    ("rubicon", 5), ("rubicon", 6), ("au-cent", 7), ("auction", 8), ("auction", 9),
])
def test_the_breakdown_sums_to_the_value_on_drawn_exchanges(variant: str, seed: int) -> None:
    exchanges = _exchanges(_simple_partie(seed, variant))
    assert len(exchanges) >= 8
    for at, action in exchanges[:examples(len(exchanges))]:
        for lens, worlds in ((Lens.FAIR, 30), (Lens.OPEN, 1)):
            review = review_exchange(at, action, lens, worlds, random.Random(seed))
            assert review.choice == action.discards and review.seat == action.player
            assert review.choice in [w.discard for w in review.options]
            values = [w.value for w in review.options]
            assert values == sorted(values, reverse=True)
            assert review.best == review.options[0].discard or review.loss == 0
            assert review.loss == pytest.approx(values[0] - review.worth(review.choice).value, abs=1e-9)
            for worth in review.options:
                assert set(worth.parts) == set(review.parts)
                assert sum(worth.parts.values()) == pytest.approx(worth.value)
                assert all(0.0 <= worth.won[p] <= 1.0 for p in WON_PARTS)
            if variant == "auction":
                assert Part.CONTRACT in review.parts
            assert explain_exchange(review, NAMES)


def test_elder_with_carte_blanche_after_younger_has_exchanged_first() -> None:
    # Law 20: Bill's carte blanche; Ann discards first, drawing below his three.
    partie = dealt("AS KS QS JS AH KH QH JH AD KD QD AC", "TS 9S 8S 7S TH 9H 8H 7H TD 9D 8D 7D",
                   "7C 8C 9C TC JC QC KC JD")
    run(partie, ["Bill: cb 3"])
    assert partie.to_act == ANN
    review = _review(partie, "AC", Lens.OPEN)
    # She draws the fourth card (below his three), his ten already scored counts against her.
    assert review.seat == ANN and all(w.parts[Part.CARTE_BLANCHE] == -10 for w in review.options)
    talon = partie.talon()
    bill = drawn(partie.hand(BILL).mask, discard_choice(partie.hand(BILL), 3), talon[:3])
    ann = drawn(partie.hand(ANN).mask, cs("AC"), talon[3:])  # the ten of clubs, below his three
    his, hers = declarations_by_category(bill, ann, partie.rules, None, (10, 0))
    worth = review.worth(cs("AC"))
    assert [worth.parts[p] for p in (Part.POINT, Part.SEQUENCES, Part.SETS, Part.REPIQUE)] == [
        hers[k] - his[k] for k in range(4)]
    run(partie, ["Ann: x AC"])
    elder = _review(partie, "TS 9S 8S", Lens.OPEN)
    assert elder.seat == BILL and all(len(w.discard) == 3 for w in elder.options)
    assert all(w.parts[Part.CARTE_BLANCHE] == 10 for w in elder.options)
    fair = _review(partie, "TS 9S 8S", worlds=50)
    assert all(sum(w.parts.values()) == pytest.approx(w.value) for w in fair.options)


def test_review_exchange_refuses_what_is_not_the_exchange_or_not_legal() -> None:
    partie = _quint()
    with pytest.raises(ValueError, match="not a legal exchange"):
        review_exchange(partie, Exchange(BILL, cs("AS")))
    with pytest.raises(ValueError, match="not a legal exchange"):
        review_exchange(partie, Exchange(ANN, cs("AS")))
    run(partie, ["Bill: x 7S 8S 7D 7C", "Ann: x JC"])
    with pytest.raises(ValueError, match="no exchange to review: it is the declaration"):
        review_exchange(partie, Exchange(BILL, cs("7C")))


def test_review_partie_reviews_every_exchange_and_sums_the_losses() -> None:
    partie = _simple_partie(2)
    review = review_partie(partie, Lens.OPEN)
    exchanges = [a for a in partie.actions if isinstance(a, Exchange)]
    assert [(r.seat, r.text) for r in review.exchanges] == [(a.player, a.describe(NAMES)) for a in exchanges]
    assert all(r.review is not None and r.explanation for r in review.exchanges)
    for seat in (0, 1):
        summary = review.summary(seat, "exchange")
        mine = [r.review for r in review.exchanges if r.seat == seat and r.review is not None]
        assert summary.loss == pytest.approx(sum(r.loss for r in mine)) and summary.choices == len(mine)
    deals = sum(isinstance(a, Deal) for a in partie.actions)
    assert len(review.exchanges) == 2 * deals
    with pytest.raises(ValueError, match="kind is"):
        review.summary(0, "exchanges")
    assert isinstance(review.exchanges[0].review, ExchangeReview)


def test_where_the_inference_finds_no_world_the_talons_are_dealt_uniformly_from_the_unseen_cards() -> None:
    from piquet.coach.review.exchange import uniform_worlds

    view = _quint().view(BILL)
    worlds = uniform_worlds(view, random.Random(2), 20)
    assert len(worlds) == 20 and len({w.talon for w in worlds}) > 1
    for w in worlds:
        assert len(w.opponent_hand) == 12 and len(w.talon) == 8
        assert not (w.opponent_hand | CardSet(w.talon)) & view.known_cards()
        assert len(w.opponent_hand | CardSet(w.talon)) == 20


@pytest.mark.parametrize("call", ["7+", "7-"])
def test_lunn_the_holder_s_discards_are_valued_as_the_level_values_them_pique_in_order_included(call: str) -> None:
    """In an Auction contract the fair review of the holder's exchange values each discard as the level does
    (:func:`piquet.ai.bidding.contract_worth`: the declarations with the repique or the pique the hands decide in
    order, Lunn's 29 in a plus contract, and the contract's play by the trick estimate), over the same worlds."""
    piques = 0
    for seed in range(6):
        partie = Partie(NAMES, "auction", first_dealer=0)
        partie.push(partie.random_deal(random.Random(seed)))
        partie.push(Bid(1, call))
        partie.push(Bid(0, "pass"))
        view = partie.view(1)
        assert partie.phase is Phase.EXCHANGE and view.contract is not None
        review = review_exchange(partie, Exchange(1, discard_choice(view.hand, 5)), Lens.FAIR, 40, random.Random(seed))
        worlds = [replace(w, weight=w.weight * auction_weight(view, w.opponent_hand, w.talon))
                  for w in Inference(view).sample(random.Random(seed), 40)]
        worth = contract_worth(partie.rules, view.contract)
        minus = view.contract.minus
        total = sum(w.weight for w in worlds)
        for option in review.options:
            expected = 0.0
            for w in worlds:
                mine = drawn(view.hand.mask, option.discard, w.talon)
                rest = w.talon[len(option.discard):]
                hers = (drawn(w.opponent_hand.mask, minus_discards(w.opponent_hand, 0, len(rest)), rest) if minus
                        else drawn(w.opponent_hand.mask, discard_choice(w.opponent_hand, len(rest), True), rest))
                expected += w.weight * worth(mine, hers if rest else w.opponent_hand.mask)
            assert option.value == pytest.approx(expected / total)
            piques += option.parts[Part.PIQUE] != 0
    # Some discards' worlds had a plus contract's pique decided in hand; in a minus contract the hand never decides
    # one (21 in hand before the opponent scores is a repique first).
    assert piques or call == "7-"
