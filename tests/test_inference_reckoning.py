"""Inference from what a player scored in the declarations: the words of a combination scored
("quart to the king", "three kings") name its length and top rank, and every world the inference draws
holds them, before younger reckons them at elder's first lead and after."""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from helpers import ANN, BILL, cs, dealt, examples, load_tool
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from piquet.ai.agent import RandomAgent
from piquet.ai.books import SimpleAgent
from piquet.ai.inference import Inference, Requirement
from piquet.engine.actions import Declare, Exchange
from piquet.engine.cards import CardSet, Rank
from piquet.engine.combinations import Category
from piquet.engine.partie import Partie, Phase
from piquet.engine.scoring import CombinationScored


def _tool() -> ModuleType:
    """The measuring tool whose check, made from the engine's words, judges a world (``world_declares_them``)."""
    return load_tool("reckoning_worlds")


# Ann (younger) holds a quart to the king in hearts and tierces below; Bill (elder) tierces major.
ANN_HAND = "KH QH JH TH 7S 8S 9D 8D 7D 9C 8C 7C"
BILL_HAND = "AS KS QS 9S 8H 9H AD KD QD AC KC JC"
TALON = "7H JS TS AH JD TD QC TC"


def _quart_to_the_king_not_good(variant: str = "rubicon") -> Partie:
    """Bill calls a tierce, Ann's quart to the king is not good to him: she reckons it at his first lead."""
    partie = dealt(ANN_HAND, BILL_HAND, TALON, variant=variant)
    partie.push(Exchange(BILL, cs("9S")))
    partie.push(Exchange(ANN, cs("7S")))
    partie.push(Declare(BILL, Category.POINT, ()))
    partie.push(Declare(ANN, Category.POINT, ()))
    partie.push(Declare(BILL, Category.SEQUENCES, (cs("AS KS QS"),)))
    partie.push(Declare(ANN, Category.SEQUENCES, (cs("KH QH JH TH"),)))
    return partie


def test_a_score_event_carries_what_its_words_say_of_the_combination() -> None:
    partie = _quart_to_the_king_not_good()
    (event,) = partie.view(BILL).unreckoned
    assert event.reason == "quart to the king"
    assert event.combination == CombinationScored(ANN, 4, Rank.KING)
    assert "combination" not in repr(event)  # the words say it; the log's text is unchanged


def test_younger_s_quart_to_the_king_is_in_every_world_before_she_reckons_it() -> None:
    partie = _quart_to_the_king_not_good()
    while partie.phase is Phase.DECLARE:
        partie.push(Declare(partie.to_act, Category.SETS, ()))  # type: ignore[arg-type]
    view = partie.view(BILL)
    assert view.phase is Phase.PLAY and view.unreckoned and not view.revealed[ANN]
    inf = Inference(view)
    assert any(r.text == "she scored sequences 4 to king" for r in inf.requirements)
    worlds = inf.sample(random.Random(1), 200)
    assert len(worlds) == 200
    quart = cs("KH QH JH TH")  # Bill holds the other kings: hers can only be the hearts
    for world in worlds:
        assert quart.issubset(world.opponent_hand)
    assert len({w.opponent_hand for w in worlds}) > 20  # the rest of her hand is still open


def test_without_the_reckoning_the_same_calls_allowed_another_quart() -> None:
    """What the answers alone say ("not good" to a tierce: longer) lets her hold a quart elsewhere: the
    reckoning is what pins it (the test above is not met by the answers alone)."""
    partie = _quart_to_the_king_not_good()
    inf = Inference(partie.view(BILL))
    answers_only = [r for r in inf.requirements if not r.text.startswith("she scored") and r.factor is None]
    other_quart = CardSet.parse("JD TD 9D 8D 7C 8C 9C AH 7H KH QH 8S")
    assert all(r.met(other_quart.mask, inf.minimum_point, inf.revealed_opp) for r in answers_only)
    assert not inf._hard_ok(other_quart.mask & ~inf.opp_played, 0)


def test_au_cent_three_kings_not_shown_are_held_after_the_reckoning() -> None:
    """Piquet au Cent shows no trio or quatorze (Law 55's exception): the words are all Bill hears."""
    partie = dealt("KH KD KC 7S 8S 9S 7H 8H 9D 8D 7D 9C", "AS KS QS JS AH QH AD QD AC QC JC JH",
                   "TS TH TD TC 7C 8C 9H JD", variant="au-cent", packets=2)
    partie.push(Exchange(BILL, cs("JH")))
    partie.push(Exchange(ANN, cs("7S")))
    for category in (Category.POINT, Category.SEQUENCES):
        partie.push(Declare(BILL, category, ()))
        partie.push(Declare(ANN, category, ()))
    partie.push(Declare(BILL, Category.SETS, ()))
    partie.push(Declare(ANN, Category.SETS, (cs("KH KD KC"),)))
    lead = next(a for a in partie.legal_actions(BILL).list())
    partie.push(lead)
    view = partie.view(BILL)
    assert not view.unreckoned and any(e.reason == "three kings" for e in view.events)
    assert not cs("KH KD KC") & view.revealed[ANN]
    for world in Inference(view).sample(random.Random(2), 100):
        assert cs("KH KD KC").issubset(world.opponent_hand)


def test_elder_s_sequence_scored_at_once_names_its_top_to_younger() -> None:
    """Rubicon tells a sequence's length only, unless asked: the score's words name its top card."""
    partie = dealt("JD 9S 8S 7S TH 9H 8H 7H TD 9D 8D 7D", "AS AH AD AC KS QS JS KH QH JH KD QD",
                   "TS TC 9C 8C 7C KC QC JC")
    partie.push(Exchange(BILL, cs("AH AD AC")))  # draws TS TC 9C
    partie.push(Exchange(ANN, cs("7D")))
    partie.push(Declare(BILL, Category.POINT, ()))
    partie.push(Declare(ANN, Category.POINT, ()))
    partie.push(Declare(BILL, Category.SEQUENCES, (cs("KH QH JH"),)))
    partie.push(Declare(ANN, Category.SEQUENCES, ()))
    view = partie.view(ANN)
    assert [e.reason for e in view.events] == ["tierce to the king"]
    assert not view.revealed[BILL]
    for world in Inference(view).sample(random.Random(4), 200):
        hand = world.opponent_hand.mask
        assert any((hand >> (8 * s)) & 0b1110000 == 0b1110000 for s in range(4))  # K Q J of a suit


@pytest.mark.parametrize(("held", "met"), [
    ("KS QS JS KH QH JH", True),  # two tierces to the king, in two suits
    ("KS QS JS TS 9S 8S", False),  # one suit cannot hold two tierces to the king
])
def test_two_sequences_scored_need_two_apart(held: str, met: bool) -> None:
    req = Requirement(Category.SEQUENCES, "apart", keys=((3, int(Rank.KING)), (3, int(Rank.KING))))
    assert req.met(cs(held).mask, 1, 0) is met


def test_overlapping_windows_are_not_two_sequences() -> None:
    req = Requirement(Category.SEQUENCES, "apart", keys=((4, int(Rank.KING)), (3, int(Rank.QUEEN))))
    assert not req.met(cs("AS KS QS JS TS 9S").mask, 1, 0)
    assert req.met(cs("KS QS JS TS QH JH TH").mask, 1, 0)


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(["rubicon", "auction", "au-cent"]),
       books=st.booleans())
def test_every_sampled_world_is_consistent_with_every_score_event(seed: int, variant: str, books: bool) -> None:
    """Through a deal (level 2 or random play), each world drawn for the player to act lets the opponent
    have declared every combination she scored, as the engine's words call them."""
    tool = _tool()
    rng = random.Random(seed)
    partie = Partie(("A", "B"), variant, first_dealer=seed % 2)
    partie.push(partie.random_deal(random.Random(seed)))
    agents = tuple(SimpleAgent(random.Random(seed + s)) if books else RandomAgent(random.Random(seed + s))
                   for s in (0, 1))
    while partie.phase not in (Phase.OVER, Phase.DEAL, Phase.CUT) and partie.to_act is not None:
        seat = partie.to_act
        view = partie.view(seat)
        if tool.scored_by(view, 1 - seat):
            for world in Inference(view).sample(rng, 4):
                assert tool.world_declares_them(view, world), (seed, variant, world)
        partie.push(agents[seat].choose(view, partie.legal_actions(seat)))

