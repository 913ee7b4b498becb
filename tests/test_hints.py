"""Hints that explain and the tutor's check (piquet.coach.hints): constructed positions with a known best choice,
the hint's independence of the cards the player cannot see, and the budget."""

from __future__ import annotations

import itertools
import random
import re

import pytest
from helpers import dealt, declare_nothing, examples, run
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.coach.hints import DISCARDS_SHOWN, TUTOR_THRESHOLD, Worlds, check, hint
from piquet.coach.review import DECLARATION_PARTS, MARKS, DeclarationReview, Lens, explain_declaration, mark
from piquet.engine.actions import ChooseDealer, Concede, Declare, Exchange, Play
from piquet.engine.cards import Card, CardSet
from piquet.engine.combinations import Category
from piquet.engine.partie import Partie, Phase

#: Few worlds for the tests (hands for the play, talons for the exchange, deals for the calls): quick, and enough
#: for positions whose best choice is clear.
FEW = Worlds(8, 100, 8, 8)

# Ann (younger) holds the top diamonds and clubs and the ace of hearts guarded once; Bill holds seven spades and
# the king of hearts. Bill leads the king of hearts: the ace takes it and Ann runs her suits; the seven of hearts
# lets Bill keep the lead and run his spades.
ANN = "AH 7H AD KD QD JD TD AC KC QC JC TC"
BILL = "KS QS JS TS 9S 8S 7S KH QH JH 9D 9C"
TALON = "8D 7D 8C 7C TH 9H 8H AS"


def _at_the_king_of_hearts(talon: str = TALON) -> Partie:
    partie = dealt(ANN, BILL, talon)
    run(partie, ["Bill: x QH JH 9D 9C 7S", "Ann: x TC"])
    declare_nothing(partie)
    run(partie, ["Bill: KH"])
    return partie


# ---------------------------------------------------------------- the play
def test_the_play_hint_names_the_card_that_takes_the_trick_and_why() -> None:
    partie = _at_the_king_of_hearts()
    advice = hint(partie, seed=3, budget=0, worlds=FEW)
    assert advice is not None and advice.kind == "play" and advice.seat == 0
    assert advice.best == Play(0, Card.parse("AH"))
    assert advice.next_best is not None and advice.next_best != advice.best
    assert advice.margin is not None and advice.margin >= 10
    assert advice.worlds == FEW[0]
    # The largest part first: the cards, with the tricks each card ends the deal with.
    assert advice.reason.startswith("Playing the A♥ rather than the ")
    assert "it gains the cards (+" in advice.reason and "tricks instead of" in advice.reason


def test_the_only_card_is_hinted_without_a_next_best() -> None:
    partie = _at_the_declarations()
    declare_nothing(partie)
    while partie.phase is Phase.PLAY:
        plays = [a for a in partie.legal_actions() if isinstance(a, Play)]
        if len(plays) == 1 and partie.to_act == 0:
            advice = hint(partie, seed=1, budget=0, worlds=FEW)
            assert advice is not None and advice.best == plays[0]
            assert advice.next_best is None and advice.margin is None
            assert advice.reason.endswith("the only card.")
            return
        partie.push(plays[0])
    pytest.fail("Ann never had a single card to play")


def test_the_tutor_warns_of_ducking_the_king_and_says_why() -> None:
    partie = _at_the_king_of_hearts()
    warning = check(partie, Play(0, Card.parse("7H")), seed=3, budget=0, worlds=FEW)
    assert warning is not None
    assert warning.better == Play(0, Card.parse("AH"))
    assert warning.loss >= TUTOR_THRESHOLD
    assert warning.reason.startswith("Playing the 7♥ rather than the A♥ costs Ann")
    assert "it gives up the cards" in warning.reason
    # The best card, and a threshold above the loss, are let through.
    assert check(partie, Play(0, Card.parse("AH")), seed=3, budget=0, worlds=FEW) is None
    assert check(partie, Play(0, Card.parse("7H")), threshold=warning.loss + 1, seed=3, budget=0, worlds=FEW) is None


def test_the_tutor_s_default_threshold_is_the_review_s_mistake_mark() -> None:
    assert mark(TUTOR_THRESHOLD) == "?"
    assert dict((sign, t) for t, sign in MARKS)["?"] == TUTOR_THRESHOLD


def test_the_tutor_refuses_a_choice_that_is_not_legal_and_names_the_player() -> None:
    partie = _at_the_king_of_hearts()
    ply = partie.ply
    with pytest.raises(ValueError, match="Ann") as caught:
        check(partie, Play(0, Card.parse("AS")), budget=0, worlds=FEW)
    assert "not a legal choice" in str(caught.value)
    with pytest.raises(ValueError, match="threshold"):
        check(partie, Play(0, Card.parse("AH")), threshold=-1, budget=0, worlds=FEW)
    assert partie.ply == ply


# ---------------------------------------------------------------- the exchange
# Bill (elder) holds a quint major in hearts and three aces; his spades, clubs and diamonds below the ace are
# what he should throw.
EXCHANGE_ANN = "KS QS JS KD QD JD KC QC JC TC 8S 9D"
EXCHANGE_BILL = "AH KH QH JH TH AS AD AC 7S 7D 7C 8C"
EXCHANGE_TALON = "9H 8H 7H TS 9S TD 8D 9C"


def test_the_exchange_hint_keeps_the_quint_and_shows_the_best_discards() -> None:
    partie = dealt(EXCHANGE_ANN, EXCHANGE_BILL, EXCHANGE_TALON)
    advice = hint(partie, seed=2, budget=0, worlds=FEW)
    assert advice is not None and advice.kind == "exchange" and advice.seat == 1
    assert isinstance(advice.best, Exchange)
    assert not advice.best.discards & CardSet.parse("AH KH QH JH TH")
    assert 2 <= len(advice.discards) <= DISCARDS_SHOWN
    assert advice.discards[0].discard == advice.best
    values = [d.value for d in advice.discards]
    assert values == sorted(values, reverse=True)
    assert advice.margin == pytest.approx(values[0] - values[1])
    # Each discard says what it keeps or risks: the best against the next, the others against the best.
    assert advice.discards[0].says.startswith("Discarding the ")
    assert all(" rather than the " in d.says or "as good as" in d.says for d in advice.discards[1:])


def test_the_tutor_warns_of_breaking_up_the_quint() -> None:
    partie = dealt(EXCHANGE_ANN, EXCHANGE_BILL, EXCHANGE_TALON)
    warning = check(partie, Exchange(1, CardSet.parse("AH KH 7S 7D 7C")), seed=2, budget=0, worlds=FEW)
    assert warning is not None and warning.kind == "exchange"
    assert warning.loss >= TUTOR_THRESHOLD
    assert "the sequences" in warning.reason and "quint" in warning.reason


# ---------------------------------------------------------------- declarations and calls
def test_the_declaration_hint_declares_the_point_in_full() -> None:
    partie = _at_the_declarations()
    advice = hint(partie, seed=1, budget=0, worlds=FEW)
    assert advice is not None and advice.kind == "declaration"
    assert isinstance(advice.best, Declare) and advice.best.combinations == (CardSet.parse("KS QS JS TS 9S 8S"),)
    assert advice.margin is not None and advice.margin > 0
    assert advice.reason.startswith("Declaring K♠ Q♠ J♠ 10♠ 9♠ 8♠ for the point: the best, by ")


def _at_the_declarations() -> Partie:
    partie = dealt(ANN, BILL, TALON)
    run(partie, ["Bill: x QH JH 9D 9C 7S", "Ann: x TC"])
    return partie


def test_the_call_hint_names_the_best_call_against_the_next() -> None:
    partie = dealt(EXCHANGE_ANN, EXCHANGE_BILL, EXCHANGE_TALON, variant="auction")
    advice = hint(partie, seed=1, budget=0, worlds=FEW)
    assert advice is not None and advice.kind == "call" and advice.seat == partie.to_act
    assert advice.best in partie.legal_actions() and advice.next_best in partie.legal_actions()
    assert advice.margin is not None and advice.margin >= 0
    assert advice.worlds <= FEW[2]


def test_the_tutor_refuses_a_concession_the_rules_do_not_allow_there() -> None:
    partie = _at_the_king_of_hearts()
    with pytest.raises(ValueError, match="Bill concedes: not a legal choice for Bill here"):
        check(partie, Concede(1), budget=0, worlds=FEW)


def test_no_hint_where_the_review_values_nothing() -> None:
    partie = Partie(("Ann", "Bill"))
    while partie.phase is Phase.CUT:
        partie.push(partie.random_cut(random.Random(1)))
    assert partie.phase is Phase.CHOOSE_DEALER
    seat = partie.to_act
    assert seat is not None
    assert hint(partie, budget=0) is None
    assert check(partie, ChooseDealer(seat, seat), budget=0) is None


# ---------------------------------------------------------------- only what the player may know
def _hidden_from_ann(order: list[int]) -> Partie:
    """The position of the king of hearts, with Bill's cards Ann has not seen and the talon's two she was not
    dealt nor drew (8H, AS) dealt between Bill's hand and the talon in another ``order``."""
    # Cards Ann cannot see at the king of hearts: Bill's hand but the king played, his discards, and the talon's
    # last two. Bill keeps his five discards and the king, so his exchange and his lead stay the same.
    unseen = ["KS", "QS", "JS", "TS", "9S", "8S", "8H", "AS"]
    moved = [unseen[i] for i in order]
    bill = " ".join([*moved[:6], "7S", "KH", "QH", "JH", "9D", "9C"])
    talon = " ".join(["8D", "7D", "8C", "7C", "TH", "9H", *moved[6:]])
    partie = dealt(ANN, bill, talon)
    run(partie, ["Bill: x QH JH 9D 9C 7S", "Ann: x TC"])
    declare_nothing(partie)
    run(partie, ["Bill: KH"])
    return partie


def test_a_hint_is_the_same_whatever_the_cards_the_player_cannot_see() -> None:
    here = _hidden_from_ann(list(range(8)))
    there = _hidden_from_ann([6, 7, 0, 1, 2, 3, 4, 5])  # the ace of spades and 8H in Bill's hand now
    assert here.hand(1) != there.hand(1)
    assert here.view(0).hand == there.view(0).hand and here.view(0).log == there.view(0).log
    assert hint(here, seed=5, budget=0, worlds=FEW) == hint(there, seed=5, budget=0, worlds=FEW)
    seven = Play(0, Card.parse("7H"))
    assert check(here, seven, seed=5, budget=0, worlds=FEW) == check(there, seven, seed=5, budget=0, worlds=FEW)


@settings(max_examples=examples(4), deadline=None)
@given(st.permutations(range(8)))
def test_any_dealing_of_the_hidden_cards_gives_the_same_hint(order: list[int]) -> None:
    assert hint(_hidden_from_ann(order), seed=7, budget=0, worlds=Worlds(4, 50, 4, 4)) == \
        hint(_hidden_from_ann(list(range(8))), seed=7, budget=0, worlds=Worlds(4, 50, 4, 4))


# ---------------------------------------------------------------- the budget
def test_a_spent_budget_values_one_world_and_no_more() -> None:
    ticks = itertools.count(0.0, 10.0)  # each look at the clock: ten CPU seconds later
    advice = hint(_at_the_king_of_hearts(), seed=3, budget=1.0, worlds=FEW, clock=lambda: next(ticks))
    assert advice is not None and advice.worlds == 1
    exchange = hint(dealt(EXCHANGE_ANN, EXCHANGE_BILL, EXCHANGE_TALON), seed=2, budget=1.0, worlds=FEW,
                    clock=lambda: next(ticks))
    assert exchange is not None and exchange.worlds == 1


def test_a_budget_not_spent_values_every_world() -> None:
    advice = hint(_at_the_king_of_hearts(), seed=3, budget=1.0, worlds=FEW, clock=lambda: 0.0)
    assert advice is not None and advice.worlds == FEW[0]


# ---------------------------------------------------------------- the words of an explanation (issue 32, item 9)
_POINT_DECLARATIONS = (Declare(0, Category.POINT, (CardSet.parse("AS KS QS JS"),)), Declare(0, Category.POINT, ()))
_SIGNED = re.compile(r"\(([−+])(\d+(?:\.\d)?)")


@settings(max_examples=examples(200))
@given(st.lists(st.floats(-3, 3, allow_nan=False), min_size=6, max_size=6),
       st.lists(st.floats(-3, 3, allow_nan=False), min_size=6, max_size=6), st.booleans())
def test_the_parts_an_explanation_names_add_up_to_the_total_it_explains(
        mine: list[float], other: list[float], chose_the_best: bool) -> None:
    """A declaration's review in words names the parts its value differs by (the point, the repique...): they add
    up to the margin or the loss it states, to the tenths it shows them in; and a best choice is never "the best, by
    0 points" (it is as good as the next, to a tenth of a point)."""
    a, b = _POINT_DECLARATIONS
    parts = {a: dict(zip(DECLARATION_PARTS, mine, strict=True)), b: dict(zip(DECLARATION_PARTS, other, strict=True))}
    values = {o: sum(parts[o].values()) for o in (a, b)}
    best, worse = sorted((a, b), key=lambda o: -values[o])
    if values[best] - values[worse] < 1e-6:
        return
    choice = best if chose_the_best else worse
    review = DeclarationReview(0, Lens.FAIR, 50, (1, -1), choice, best, values[best] - values[choice],
                               tuple((o, values[o]) for o in (best, worse)), parts)
    text = explain_declaration(review, ("Ann", "Bill"))
    assert "by 0 points" not in text and "costs Ann 0 points" not in text, text
    total = re.search(r"(?:the best, by|costs Ann) (\d+(?:\.\d)?) points?", text)
    if total is None:
        assert "to a tenth of a point" in text, text
        return
    named = [(1 if sign == "+" else -1) * float(x) for sign, x in _SIGNED.findall(text)]
    stated = float(total.group(1)) * (1 if choice == best else -1)
    assert named and abs(sum(named) - stated) <= 0.05 * (len(named) + 1) + 1e-9, text
