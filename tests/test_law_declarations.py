"""Declaring: order, good / not good / equal, sinking, short calls (Laws 46-55, 62-64; rulings 7-11)."""

from __future__ import annotations

import itertools

import pytest
from helpers import (
    ANN,
    ANN_DIAMONDS,
    ANN_HEARTS,
    BASE_ANN,
    BASE_BILL,
    BASE_EXCHANGE,
    BASE_TALON,
    BILL,
    BILL_ACES,
    BILL_KINGS,
    BILL_POINT6,
    base,
    card,
    cs,
    dealt,
    log_texts,
    points,
    run,
    says,
)
from helpers import act as parse_action  # the engine's notation, the player named first
from hypothesis import given
from hypothesis import strategies as st

from piquet.engine.actions import Bid, Declare, Play
from piquet.engine.cards import CardSet, Rank
from piquet.engine.combinations import Category, best, best_key, candidate_masks, is_valid, key, runs
from piquet.engine.partie import IllegalActionError, Partie, Phase
from piquet.engine.scoring import ScoreCategory, ScoreEvent

NOTHING_AFTER_POINT = ["Bill: sequences -", "Ann: sequences -",
                       "Bill: sets -", "Ann: sets -"]


def hand_score(p, seat):  # type: ignore[no-untyped-def]
    return sum(points(p, c, seat) for c in (ScoreCategory.POINT, ScoreCategory.SEQUENCES, ScoreCategory.SETS))


# ---------------------------------------------------------------- order (Law 46, ruling 10)
# Law 46 makes elder call his point first; the fixed order after it is ruling 10 (Law 47 leaves
# the order of sequences and sets to the players).
def test_ruling_10_order_point_sequences_sets_elder_first() -> None:
    p = base()
    assert p.phase is Phase.DECLARE and p.to_act == BILL
    with pytest.raises(IllegalActionError, match="Bill's turn"):
        p.push(Declare(ANN, Category.POINT, ()))
    with pytest.raises(IllegalActionError, match="declared now"):
        p.push(Declare(BILL, Category.SEQUENCES, ()))
    with pytest.raises(IllegalActionError, match="declared now"):
        p.push(Declare(BILL, Category.SETS, ()))
    order = []
    while p.phase is Phase.DECLARE:
        first = next(iter(p.legal_actions()))
        assert isinstance(first, Declare) and p.to_act is not None
        a = Declare(p.to_act, first.category, ())
        order.append((a.player, a.category))
        p.push(a)
    assert order == [(BILL, Category.POINT), (ANN, Category.POINT), (BILL, Category.SEQUENCES),
                     (ANN, Category.SEQUENCES), (BILL, Category.SETS), (ANN, Category.SETS)]
    assert p.phase is Phase.PLAY and p.to_act == BILL


# The combinations are defined by Laws 62-64 and rulings 7-9; Cavendish does not forbid calling
# what one does not hold but penalises it (Laws 52, 54). The engine refuses such calls.
def test_ruling_10_combinations_must_be_in_hand_and_valid() -> None:
    p = base()
    with pytest.raises(IllegalActionError, match="not in hand"):
        p.push(Declare(BILL, Category.POINT, (cs("QH JH"),)))
    with pytest.raises(IllegalActionError, match="not a point"):
        p.push(Declare(BILL, Category.POINT, (cs("AS AH"),)))
    run(p, ["Bill: point -", "Ann: point -"])
    with pytest.raises(IllegalActionError, match="not a sequence"):
        p.push(Declare(BILL, Category.SEQUENCES, (cs("AS KS JS"),)))
    with pytest.raises(IllegalActionError, match="two"):
        p.push(Declare(BILL, Category.SEQUENCES, (cs("AS KS QS"), cs("QS JS TS"))))
    run(p, ["Bill: sequences -", "Ann: sequences -"])
    with pytest.raises(IllegalActionError, match="not a set"):
        p.push(Declare(BILL, Category.SETS, (cs("AS KS QS"),)))


def test_law_62_a_point_has_no_extras() -> None:
    p = base()
    with pytest.raises(IllegalActionError, match="point"):
        p.push(Declare(BILL, Category.POINT, (cs(BILL_POINT6), cs("AH KH"))))


def test_law_64_nines_eights_sevens_cannot_be_declared() -> None:
    p = dealt("9S 9H 9D 8S 8H 8D 7S 7H 7D AS AH JC", "KS KH KD KC QS QH QD QC JS JH JD AD",
              "TS TH TD TC 9C 8C 7C AC")
    run(p, ["Bill: x AD", "Ann: x AH", "Bill: point -", "Ann: point -",
            "Bill: sequences -", "Ann: sequences -", "Bill: sets -"])
    with pytest.raises(IllegalActionError, match="nines"):
        p.push(Declare(ANN, Category.SETS, (cs("9S 9H 9D"),)))
    for a in p.legal_actions():
        assert isinstance(a, Declare)
        for combo in a.combinations:
            assert all(c.rank >= Rank.TEN for c in combo)


# ---------------------------------------------------------------- good / not good / equal
def test_law_62_point_equal_length_higher_pips_good_with_dialogue() -> None:
    p = base()
    run(p, [f"Bill: point {BILL_POINT6}", f"Ann: point {ANN_HEARTS}"])
    assert says(p)[-4:] == ["Point of six.", "Making?", "Making sixty.", "Good."]
    assert points(p, ScoreCategory.POINT, BILL) == 6
    run(p, NOTHING_AFTER_POINT + ["Bill: AS"])
    assert points(p, ScoreCategory.POINT, ANN) == 0


def test_law_62_longer_point_not_good_with_dialogue() -> None:
    p = base()
    run(p, ["Bill: point AS KS QS JS TS", f"Ann: point {ANN_HEARTS}"])
    assert says(p)[-2:] == ["Point of five.", "Not good."]
    assert points(p, ScoreCategory.POINT, BILL) == 0
    run(p, NOTHING_AFTER_POINT + ["Bill: AS"])
    assert points(p, ScoreCategory.POINT, ANN) == 6


def test_law_62_equal_point_scores_nothing_for_either() -> None:
    p = base()
    run(p, ["Bill: point KS QS JS", "Ann: point QH JH TH"])  # 30 each
    assert says(p)[-4:] == ["Point of three.", "Making?", "Making thirty.", "Equal."]
    run(p, NOTHING_AFTER_POINT + ["Bill: AS"])
    assert points(p, ScoreCategory.POINT, BILL) == points(p, ScoreCategory.POINT, ANN) == 0


def test_law_63_sequence_same_length_higher_top_card_good() -> None:
    p = base()
    run(p, ["Bill: point -", "Ann: point -",
            f"Bill: sequences {BILL_POINT6}", f"Ann: sequences {ANN_HEARTS}"])
    assert says(p)[-4:] == ["Sixième.", "How high?", "Major.", "Good."]
    assert points(p, ScoreCategory.SEQUENCES, BILL) == 16


def test_law_63_equal_sequences_cancel_the_category() -> None:
    p = base()
    run(p, ["Bill: point -", "Ann: point -",
            "Bill: sequences QS JS TS", "Ann: sequences QH JH TH | QD JD TD",
            "Bill: sets -", "Ann: sets -", "Bill: AS"])
    assert says(p)[-5:-1] == ["Tierce.", "How high?", "To the queen.", "Equal."] or "Equal." in says(p)
    assert points(p, ScoreCategory.SEQUENCES, BILL) == 0
    assert points(p, ScoreCategory.SEQUENCES, ANN) == 0  # her extra tierce is cancelled too


def test_law_63_tied_sequence_cancels_elders_extra_sequences_too() -> None:
    # Bill holds two sequences: spades AS-9S and hearts JH TH 9H; Ann's best ties his call.
    p = dealt("QD JD TD 9D 8D 7D QC JC TC 9C 8C 8S", "AS KS QS JS TS 9S JH TH 9H AD AC 7C",
              "KC 7H 7S KD AH KH QH 8H")
    run(p, ["Bill: x 7C", "Ann: x 8S", "Bill: point -", "Ann: point -",
            "Bill: sequences QS JS TS | JH TH 9H", "Ann: sequences QD JD TD",
            "Bill: sets -", "Ann: sets -", "Bill: AS"])
    assert "Equal." in says(p)
    assert points(p, ScoreCategory.SEQUENCES, BILL) == points(p, ScoreCategory.SEQUENCES, ANN) == 0


def test_law_63_winner_scores_his_extra_sequences() -> None:
    p = base()
    run(p, [f"Bill: point {BILL_POINT6}", "Ann: point -",
            "Bill: sequences KS QS JS", f"Ann: sequences {ANN_HEARTS} | {ANN_DIAMONDS}",
            "Bill: sets -", "Ann: sets -"])
    assert points(p, ScoreCategory.SEQUENCES, ANN) == 0  # younger reckons after elder's lead
    run(p, ["Bill: AS"])
    assert points(p, ScoreCategory.SEQUENCES, ANN) == 32
    assert points(p, ScoreCategory.SEQUENCES, BILL) == 0


def test_law_64_winner_scores_all_his_sets() -> None:
    p = base()
    run(p, ["Bill: point -", "Ann: point -", "Bill: sequences -",
            "Ann: sequences -", f"Bill: sets {BILL_ACES} | {BILL_KINGS}", "Ann: sets -"])
    assert points(p, ScoreCategory.SETS, BILL) == 28


def test_law_64_quatorze_beats_trio_in_play_of_declarations() -> None:
    # Bill calls three aces; Ann holds fourteen tens (see the SETS deal below)
    p = sets_deal(tens_unknown=True)
    run(p, ["Bill: point -", "Ann: point -", "Bill: sequences -",
            "Ann: sequences -", "Bill: sets AS AH AD", "Ann: sets TS TH TD TC"])
    assert says(p)[-2:] == ["Three aces.", "Not good."]
    run(p, ["Bill: AS"])
    assert points(p, ScoreCategory.SETS, ANN) == 14 and points(p, ScoreCategory.SETS, BILL) == 0


# ---------------------------------------------------------------- sinking, short calls (Laws 49-50, ruling 10)
def test_ruling_10_elder_sinks_and_younger_scores_hers() -> None:
    p = base()
    run(p, ["Bill: point -", f"Ann: point {ANN_HEARTS}"] + NOTHING_AFTER_POINT + ["Bill: AS"])
    assert points(p, ScoreCategory.POINT, ANN) == 6
    assert points(p, ScoreCategory.POINT, BILL) == 0


def test_ruling_10_declaring_less_than_held_scores_only_what_was_declared() -> None:
    p = base()
    run(p, ["Bill: point -", "Ann: point -",
            "Bill: sequences AS KS QS JS", "Ann: sequences -",
            "Bill: sets AS AH AD", "Ann: sets -", "Bill: AS"])
    assert points(p, ScoreCategory.SEQUENCES, BILL) == 4  # a quart from his sixième
    assert points(p, ScoreCategory.SETS, BILL) == 3       # three aces from his fourteen
    assert p.view(ANN).revealed[BILL] == cs("AS KS QS JS AH AD")


def test_law_48_option_calls_named_unless_good_against_the_cards() -> None:
    # Law 48: the number of cards is enough for a call good against the cards; any other sequence is called with
    # its top card, any other quatorze or trio with its rank. Nobody asks "How high?".
    p = base({"calls_named_unless_good": True})
    run(p, ["Bill: point -", "Ann: point -", f"Bill: sequences {BILL_POINT6}"])
    assert says(p)[-1] == "Sixième."  # major: nothing Ann could hold equals it
    assert p.view(ANN).announcements[-1].detail is None
    run(p, [f"Ann: sequences {ANN_HEARTS}"])
    assert says(p)[-1] == "Good." and "How high?" not in says(p)
    run(p, [f"Bill: sets {BILL_ACES} | {BILL_KINGS}"])
    assert says(p)[-1] == "Set of four."  # fourteen aces, good against the cards: the rank unsaid
    assert p.view(ANN).revealed == (CardSet(), CardSet())
    run(p, ["Ann: sets -", "Bill: AS"])
    assert points(p, ScoreCategory.SEQUENCES, BILL) == 16 and points(p, ScoreCategory.SETS, BILL) == 28

    q = base({"calls_named_unless_good": True})
    run(q, ["Bill: point -", "Ann: point -", "Bill: sequences QS JS TS",
            "Ann: sequences QD JD TD"])
    # A tierce to the queen is not good against the cards: named at once, and found equal without a question.
    assert says(q)[-2:] == ["Tierce to the queen.", "Equal."]

    r = sets_deal(tens_unknown=True, options={"calls_named_unless_good": True})
    run(r, ["Bill: point -", "Ann: point -", "Bill: sequences -", "Ann: sequences -",
            "Bill: sets AS AH AD"])
    assert says(r)[-1] == "Three aces."  # fourteen tens are possible against him: the rank is said


def sets_deal(tens_unknown: bool, options: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    """Bill (elder) holds AS AH AD and KS KH KD KC after the exchange.

    With ``tens_unknown`` false he also holds QS JS TS, so no quatorze is possible against
    him and three aces are good against the cards.  With it true the ten of spades lies in
    the talon (Ann draws it), so fourteen tens are possible against him.
    """
    if tens_unknown:
        p = dealt("AC QH QD QC JH JD JC TH TD TC 9H 9D", "AS AH AD KS KH KD KC QS JS 9S 8S 7S",
                  "9C TS 8H 8D 8C 7H 7D 7C", options)
    else:
        p = dealt("AC QH QD QC JH JD JC TH TD TC 9H 9D", "AS AH AD KS KH KD KC QS JS TS 9S 8S",
                  "7S 9C 8H 8D 8C 7H 7D 7C", options)
    run(p, ["Bill: x 8S", "Ann: x 9D"])
    return p


def test_law_49_better_extra_after_lower_call_only_if_good_against_the_cards() -> None:
    good = sets_deal(tens_unknown=False)
    run(good, ["Bill: point -", "Ann: point -", "Bill: sequences -",
               "Ann: sequences -"])
    call = Declare(BILL, Category.SETS, (cs("AS AH AD"), cs(BILL_KINGS)))
    assert good.can(call) and call in good.legal_actions()
    good.push(call)
    run(good, ["Ann: sets -"])
    assert points(good, ScoreCategory.SETS, BILL) == 17

    bad = sets_deal(tens_unknown=True)
    run(bad, ["Bill: point -", "Ann: point -", "Bill: sequences -",
              "Ann: sequences -"])
    call = Declare(BILL, Category.SETS, (cs("AS AH AD"), cs(BILL_KINGS)))
    assert not bad.can(call) and call not in list(bad.legal_actions())
    with pytest.raises(IllegalActionError, match="Laws 46-50"):
        bad.push(call)
    # the lower extra after the better call is always allowed
    lower = Declare(BILL, Category.SETS, (cs(BILL_KINGS), cs("AS AH AD")))
    assert bad.can(lower)
    bad.push(lower)
    run(bad, ["Ann: sets TS TH TD TC"])
    assert says(bad)[-2:] == ["Fourteen kings.", "Good."]
    assert points(bad, ScoreCategory.SETS, BILL) == 17


def test_option_minimum_point_4_makes_a_point_of_3_undeclarable() -> None:
    p = base({"minimum_point": 4})
    with pytest.raises(IllegalActionError, match="minimum point"):
        p.push(Declare(BILL, Category.POINT, (cs("KS QS JS"),)))
    assert all(isinstance(a, Declare) and (not a.combinations or len(a.combinations[0]) >= 4)
               for a in p.legal_actions())
    assert p.can(Declare(BILL, Category.POINT, (cs("AS KS QS JS"),)))
    assert base().can(Declare(BILL, Category.POINT, (cs("KS QS JS"),)))


# ---------------------------------------------------------------- what declaring reveals (Law 55, ruling 11)
def test_law_55_not_good_call_reveals_no_cards() -> None:
    p = base()
    run(p, ["Bill: point AS KS QS JS TS", f"Ann: point {ANN_HEARTS}"] + NOTHING_AFTER_POINT)
    for stage in ("before", "after"):
        if stage == "after":
            run(p, ["Bill: AS"])
        for seat in (ANN, BILL, None):
            assert p.view(seat).revealed[BILL] == CardSet()
    assert p.view(BILL).revealed[ANN] == cs(ANN_HEARTS)


def test_law_55_scored_combinations_revealed_only_after_elders_first_lead() -> None:
    p = base()
    run(p, [f"Bill: point {BILL_POINT6}", "Ann: point -",
            "Bill: sequences -", f"Ann: sequences {ANN_HEARTS}",
            "Bill: sets -", "Ann: sets -"])
    for seat in (ANN, BILL, None):
        assert p.view(seat).revealed == (CardSet(), CardSet())
    run(p, ["Bill: KS"])
    for seat in (ANN, BILL, None):
        assert p.view(seat).revealed == (cs(ANN_HEARTS), cs(BILL_POINT6))


def test_law_55_tied_combinations_revealed_to_both_after_the_lead() -> None:
    p = base()
    run(p, ["Bill: point KS QS JS", "Ann: point QH JH TH"] + NOTHING_AFTER_POINT)
    assert p.view(ANN).revealed == (CardSet(), CardSet())
    run(p, ["Bill: AS"])
    assert p.view(ANN).revealed == (cs("QH JH TH"), cs("KS QS JS"))
    assert p.view(BILL).revealed == (cs("QH JH TH"), cs("KS QS JS"))


@pytest.mark.parametrize("variant", ["rubicon", "au-cent"])
def test_law_55_option_calls_shown_at_once_elder_shows_what_is_allowed_good_or_equal_before_he_leads(
        variant: str) -> None:
    # Law 55: the cards called "must show ... at any time they are asked for, or in the case of the younger hand,
    # at any time after the elder hand has led a card"; with the option younger asks at once.
    p = dealt(BASE_ANN, BASE_BILL, BASE_TALON, {"calls_shown_at_once": True}, packets=2, variant=variant)
    run(p, BASE_EXCHANGE)
    run(p, [f"Bill: point {BILL_POINT6}", "Ann: point -"])
    assert p.view(ANN).revealed == (CardSet(), cs(BILL_POINT6))  # good: shown at once
    run(p, ["Bill: sequences QS JS TS", "Ann: sequences QD JD TD"])
    # Equal: Bill's shown at once, Ann's once he has led.
    assert p.view(None).revealed == (CardSet(), cs(BILL_POINT6))
    run(p, [f"Bill: sets {BILL_ACES}", "Ann: sets -"])
    # Fourteen aces names all four anyway; au Cent shows no set (its own law), Rubicon shows the set scored.
    assert p.view(ANN).revealed[BILL] == cs(f"{BILL_POINT6} AH AD AC")
    run(p, ["Bill: AS"])
    assert p.view(BILL).revealed == (cs("QD JD TD"), cs(f"{BILL_POINT6} AH AD AC"))
    # Without the option, nothing is shown before the lead.
    q = dealt(BASE_ANN, BASE_BILL, BASE_TALON, packets=2, variant=variant)
    run(q, [*BASE_EXCHANGE, f"Bill: point {BILL_POINT6}", "Ann: point -"])
    assert q.view(ANN).revealed == (CardSet(), CardSet())


def test_ruling_10_younger_declaration_events_appear_only_after_elders_first_lead() -> None:
    p = base()
    run(p, ["Bill: point -", f"Ann: point {ANN_HEARTS}"] + NOTHING_AFTER_POINT)

    def ann_events(seat: int | None) -> tuple[list[ScoreEvent], list[ScoreEvent]]:
        v = p.view(seat)
        return ([e for e in v.log if isinstance(e, ScoreEvent) and e.player == ANN],
                [e for e in v.events if e.player == ANN])

    for seat in (ANN, BILL, None):
        assert ann_events(seat) == ([], [])
    run(p, ["Bill: AS"])
    logged, events = ann_events(BILL)
    assert [e.points for e in logged] == [6] and [e.points for e in events] == [6]
    texts = log_texts(p.view(BILL).log)
    assert texts.index("I lead the ace of spades.") < len(texts)


def test_law_49_binds_only_elder_younger_reckons_her_sets_in_any_order() -> None:
    p = sets_deal(tens_unknown=True)
    run(p, ["Bill: point -", "Ann: point -", "Bill: sequences -",
            "Ann: sequences -", "Bill: sets -"])
    # Ann calls three queens first, then shows the better fourteen tens: allowed for younger.
    answer = Declare(ANN, Category.SETS, (cs("QH QD QC"), cs("TS TH TD TC"), cs("JH JD JC")))
    assert p.can(answer)
    p.push(answer)
    p.push(Play(BILL, card("AS")))
    assert points(p, ScoreCategory.SETS, ANN) == 20


# ---------------------------------------------------------------- younger only reckons (Cavendish, Calling)
# Cavendish, Description of the game, Calling: "The younger hand is not bound to call his best sequence first.
# Thus, if the elder has called a tierce major, and the younger has replied, 'Not good', the younger is at liberty
# to show and count a tierce minor first, and then a quart or larger sequence ... the younger is only reckoning."
# Her reply rests on the best combination she shows, whatever its place; elder's call is his first.
#
# RECKON: Bill (elder) exchanges the 7D for the TH, Ann the 8S for the 8C. Bill then holds a tierce major in spades
# (AS KS QS) and three aces; Ann a tierce minor in hearts (9H 8H 7H) and a quart to the knave in diamonds
# (JD TD 9D 8D), her best.
RECKON_BILL = "AS KS QS 9S 7S AH JH 7D AC JC 9C 7C"
RECKON_ANN = "9H 8H 7H JD TD 9D 8D JS TS 8S KH QH"
RECKON_TALON = "TH 8C AD KD QD KC QC TC"
RECKON_EXCHANGE = ("Bill: x 7D", "Ann: x 8S")
#: Ann's sequences, the tierce minor shown before the quart that answers Bill's call.
TIERCE_THEN_QUART = "Ann: sequences 9H 8H 7H | JD TD 9D 8D"
#: What Bill says calling his tierce major, and Ann's reply, in each variant (elder names the top card at once in
#: Auction plus contracts and in Piquet au Cent; Auction minus contracts and Rubicon call the length).
TIERCE_CALLED = {"rubicon": "Tierce.", "auction": "Tierce major.", "au-cent": "Tierce major."}


def reckon_deal(variant: str, bid: str = "7+") -> Partie:
    p = dealt(RECKON_ANN, RECKON_BILL, RECKON_TALON, packets=2, variant=variant)
    if variant == "auction":
        run(p, [Bid(BILL, bid), Bid(ANN, "pass")])
    return run(p, RECKON_EXCHANGE)


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_cavendish_calling_younger_answers_with_her_best_sequence_shown_after_a_lower_one(variant: str) -> None:
    p = reckon_deal(variant)
    run(p, ["Bill: point -", "Ann: point -", "Bill: sequences AS KS QS", TIERCE_THEN_QUART])
    # Her quart beats his tierce: "Not good", and nobody asks "How high?" (a longer sequence is better).
    assert says(p)[-2:] == [TIERCE_CALLED[variant], "Not good."]
    assert p.view(BILL).announcements[-1].answer == "not good"
    run(p, ["Bill: sets -", "Ann: sets -", "Bill: AS"])
    # She counts the quart and the tierce minor (4 + 3), and Bill's tierce major counts nothing.
    assert points(p, ScoreCategory.SEQUENCES, ANN) == 7 and points(p, ScoreCategory.SEQUENCES, BILL) == 0
    assert p.view(BILL).revealed[ANN] == cs("9H 8H 7H JD TD 9D 8D")


def test_cavendish_calling_in_an_auction_minus_contract_younger_shows_all_in_any_order() -> None:
    # Lunn: nothing may be sunk in a minus contract; Ann shows both sequences, the lower first, and her quart wins
    # the category, which Bill scores (the opponent of the holder scores in a minus contract).
    p = reckon_deal("auction", "7-")
    run(p, ["Bill: point AS KS QS 9S 7S", "Ann: point KH QH 9H 8H 7H", "Bill: sequences AS KS QS"])
    assert p.can(parse_action(TIERCE_THEN_QUART))
    run(p, [TIERCE_THEN_QUART])
    assert says(p)[-2:] == ["Tierce.", "Not good."]
    assert p.view(BILL).announcements[-1].answer == "not good"
    run(p, ["Bill: sets AS AH AC", "Ann: sets -", "Bill: AS"])
    assert points(p, ScoreCategory.SEQUENCES, BILL) == 7 and points(p, ScoreCategory.SEQUENCES, ANN) == 0
    # Elder is still bound to call his best first: a lower point first is refused.
    q = reckon_deal("auction", "7-")
    with pytest.raises(IllegalActionError, match="nothing may be sunk"):
        q.push(Declare(BILL, Category.POINT, (cs("AC JC 9C 7C"),)))


def sets_in(variant: str) -> Partie:
    """:func:`sets_deal` (the ten of spades unknown to Bill, drawn by Ann) in ``variant``, by twos: Ann holds three
    queens, three knaves and fourteen tens; in Auction Piquet Bill holds a plus contract."""
    p = dealt("AC QH QD QC JH JD JC TH TD TC 9H 9D", "AS AH AD KS KH KD KC QS JS 9S 8S 7S",
              "9C TS 8H 8D 8C 7H 7D 7C", packets=2, variant=variant)
    if variant == "auction":
        run(p, [Bid(BILL, "7+"), Bid(ANN, "pass")])
    return run(p, ["Bill: x 8S", "Ann: x 9D"])


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_cavendish_calling_younger_answers_with_her_best_set_shown_after_a_lower_one(variant: str) -> None:
    p = sets_in(variant)
    run(p, ["Bill: point -", "Ann: point -", "Bill: sequences -", "Ann: sequences -",
            "Bill: sets KS KH KD KC", "Ann: sets QH QD QC | TS TH TD TC | JH JD JC"])
    # Against fourteen kings her best, fourteen tens, is worse wherever she shows it: "Good", and Bill scores.
    assert says(p)[-1] == "Good."
    run(p, ["Bill: AS"])
    assert points(p, ScoreCategory.SETS, BILL) == 14 and points(p, ScoreCategory.SETS, ANN) == 0
    q = sets_in(variant)
    run(q, ["Bill: point -", "Ann: point -", "Bill: sequences -", "Ann: sequences -",
            "Bill: sets KS KH KD", "Ann: sets QH QD QC | TS TH TD TC | JH JD JC"])
    # Against three kings (a trio, less than he holds) her fourteen tens, shown second, are "Not good" for him:
    # she counts the tens and both her trios, 14 + 3 + 3.
    assert says(q)[-1] == "Not good."
    run(q, ["Bill: AS"])
    assert points(q, ScoreCategory.SETS, ANN) == 20 and points(q, ScoreCategory.SETS, BILL) == 0


def test_law_63_younger_s_equal_sequence_shown_after_a_lower_one_cancels_the_category() -> None:
    # Bill calls a tierce to the queen (sinking the rest of his sixième); Ann shows a tierce minor, then a tierce
    # to the queen: equal (Law 63), so neither scores, her tierce minor with the rest, and only the equal
    # combinations are open to inspection (Law 55).
    p = base()
    run(p, ["Bill: point -", "Ann: point -", "Bill: sequences QS JS TS",
            "Ann: sequences 9H 8H 7H | QD JD TD"])
    assert says(p)[-4:] == ["Tierce.", "How high?", "To the queen.", "Equal."]
    run(p, ["Bill: sets -", "Ann: sets -", "Bill: AS"])
    assert points(p, ScoreCategory.SEQUENCES, BILL) == points(p, ScoreCategory.SEQUENCES, ANN) == 0
    assert p.view(BILL).revealed == (cs("QD JD TD"), cs("QS JS TS"))


def test_cavendish_calling_younger_s_lower_combination_alone_is_her_answer() -> None:
    # Sinking her quart, Ann shows the tierce minor only: that is all she reckons, so Bill's tierce major is good.
    p = reckon_deal("rubicon")
    run(p, ["Bill: point -", "Ann: point -", "Bill: sequences AS KS QS",
            "Ann: sequences 9H 8H 7H"])
    assert says(p)[-4:] == ["Tierce.", "How high?", "Major.", "Good."]
    run(p, ["Bill: sets -", "Ann: sets -", "Bill: AS"])
    assert points(p, ScoreCategory.SEQUENCES, BILL) == 3 and points(p, ScoreCategory.SEQUENCES, ANN) == 0


# ---------------------------------------------------------------- finding the combinations (Laws 62-64)
_masks = st.integers(min_value=0, max_value=0xFFFFFFFF)


@given(_masks, st.sampled_from(list(Category)), st.integers(min_value=1, max_value=5))
def test_best_key_is_the_key_of_the_best_combination(mask: int, category: Category, minimum_point: int) -> None:
    found = best(category, CardSet(mask), minimum_point)
    expected = None if found is None else key(category, found)
    assert best_key(category, mask, minimum_point) == expected


@given(_masks, st.sampled_from(list(Category)))
def test_candidates_are_every_valid_combination_in_hand_best_first(mask: int, category: Category) -> None:
    listed = candidate_masks(category, mask)
    assert len(set(listed)) == len(listed)
    keys = [key(category, CardSet(m)) for m in listed]
    assert keys == sorted(keys, reverse=True)
    if category is Category.SETS:
        groups = [mask & (0x01010101 << rank) for rank in range(8)]
    else:
        groups = [mask & (0xFF << (8 * suit)) for suit in range(4)]
    valid = set()
    for group in groups:  # every subset of one suit (or one rank), tried one by one
        bits = [1 << i for i in range(32) if group >> i & 1]
        for size in range(1, len(bits) + 1):
            for chosen in itertools.combinations(bits, size):
                if is_valid(category, CardSet(sum(chosen))):
                    valid.add(sum(chosen))
    assert set(listed) == valid


@given(st.integers(min_value=0, max_value=255))
def test_runs_are_the_maximal_runs_of_a_suit(byte: int) -> None:
    found = list(runs(byte))
    assert sum(((1 << length) - 1) << low for low, length in found) == byte
    for (low, length), (next_low, _) in itertools.pairwise(found):
        assert next_low > low + length  # a gap between two runs: each is maximal
