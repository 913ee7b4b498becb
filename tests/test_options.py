"""Rule options (piquet/engine/variants.py): each by name with its effect, in every variant that offers it;
an option a variant does not offer is refused naming the variant; records keep only the options
that differ from the variant's defaults, and replay them."""

from __future__ import annotations

import json
import random
from pathlib import Path

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
    agents,
    card,
    cs,
    dealt,
    declare_nothing,
    first_legal,
    load_tool,
    make_deal,
    points,
    run,
)
from helpers import act as parse_action  # the engine's notation, the player named first

from piquet.ai.agent import play_partie
from piquet.engine.actions import Bid, CarteBlanche, Exchange, Play
from piquet.engine.partie import IllegalActionError, Partie, Phase
from piquet.engine.record import RecordError, dumps, loads
from piquet.engine.scoring import ScoreCategory
from piquet.engine.variants import OPTIONS, VARIANTS, OptionError, make_rules

OFFERED = [(v, name) for v, cls in VARIANTS.items() for name in cls.OPTION_NAMES]
NOT_OFFERED = [(v, name) for v, cls in VARIANTS.items() for name in OPTIONS if name not in cls.OPTION_NAMES]


def in_variant(variant: str, options: dict[str, object] | None = None, ann: str = BASE_ANN,
               bill: str = BASE_BILL, talon: str = BASE_TALON, packets: int = 2) -> Partie:
    """A deal dealt by Ann, ready for the exchange (in Auction Piquet Bill bids 7+ and Ann passes)."""
    p = dealt(ann, bill, talon, options, packets=packets, variant=variant)
    if p.phase is Phase.BID:
        p.push(Bid(BILL, "7+"))
        p.push(Bid(ANN, "pass"))
    return p


# ---------------------------------------------------------------- which variant offers what
def test_options_the_variants_offer_exactly_these_options() -> None:
    assert set(VARIANTS["auction"].OPTION_NAMES) == {"minimum_point", "elder_may_stand_pat",
                                                     "younger_may_stand_pat", "deal_in_threes_only",
                                                     "carte_blanche", "elder_sees_cards_left",
                                                     "redouble_counts_as_double"}
    assert {"concession_may_be_declined", "carte_rouge", "ten_for_the_last_trick", "calls_shown_at_once",
            "calls_named_unless_good"} <= set(VARIANTS["rubicon"].OPTION_NAMES)
    assert "fresh_cut_each_game" in VARIANTS["au-cent"].OPTION_NAMES
    assert "points_ending_in_four_count_one_less" not in VARIANTS["rubicon"].OPTION_NAMES
    assert {"low_cards_score_nothing_in_play", "points_ending_in_four_count_one_less"} <= set(
        VARIANTS["au-cent"].OPTION_NAMES)
    assert "four_deal_partie" not in VARIANTS["au-cent"].OPTION_NAMES
    assert {"play_ceases_at_the_target", "game_of_101", "calls_shown_at_once"} <= set(
        VARIANTS["au-cent"].OPTION_NAMES)


def test_options_the_docs_list_every_option_as_variants_py_says() -> None:
    # One home: each option's meaning and source are written in piquet/engine/variants.py; the tables of
    # piquet/data/rules.md and docs/record-format.md are written from it by tools/options_table.py.
    tool = load_tool("options_table")
    for path, text in tool.expected().items():
        assert path.read_text(encoding="utf-8") == text, \
            f"{path.name}: its table of options differs from OPTIONS: run python3 tools/options_table.py --write"
    table = tool.rules_table()
    for option in OPTIONS.values():
        assert f"| `{option.name}` |" in table and option.description in table and option.source in table


def test_options_the_schema_knows_every_option_with_its_type() -> None:
    schema = json.loads((Path(__file__).parent.parent / "piquet" / "data" / "record.schema.json").read_text())
    known = schema["properties"]["options"]["properties"]
    assert set(known) == set(OPTIONS)
    for name, option in OPTIONS.items():
        if isinstance(option.default, bool):
            assert known[name]["type"] == "boolean", name
        else:
            assert (known[name]["type"], known[name]["minimum"], known[name]["maximum"]) == (
                "integer", option.minimum, option.maximum), name


@pytest.mark.parametrize(("variant", "name"), NOT_OFFERED)
def test_options_an_option_a_variant_does_not_offer_is_refused_naming_the_variant(variant: str, name: str) -> None:
    value = OPTIONS[name].default if not isinstance(OPTIONS[name].default, bool) else True
    with pytest.raises(OptionError, match=f"unknown rule option '{name}' for {variant}"):
        make_rules(variant, {name: value})
    with pytest.raises(OptionError, match=f"for {variant}"):
        Partie(NAMES, variant, {name: value})


@pytest.mark.parametrize(("variant", "name"), OFFERED)
def test_options_each_offered_option_is_taken_by_name_and_checked(variant: str, name: str) -> None:
    option = OPTIONS[name]
    if isinstance(option.default, bool):
        rules = make_rules(variant, {name: True})
        assert rules.option(name) is True
        with pytest.raises(OptionError, match="must be true or false"):
            make_rules(variant, {name: 1})
    else:
        rules = make_rules(variant, {name: option.maximum})
        assert rules.option(name) == option.maximum
        with pytest.raises(OptionError, match=f"from {option.minimum} to {option.maximum}"):
            make_rules(variant, {name: option.maximum + 1})


def test_options_an_unknown_variant_is_refused() -> None:
    with pytest.raises(OptionError, match="unknown variant 'piquet-normand'"):
        make_rules("piquet-normand")


# ---------------------------------------------------------------- minimum_point
@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_option_minimum_point_a_shorter_point_may_not_be_declared(variant: str) -> None:
    short = "Bill: point AH KH"
    cases: tuple[tuple[dict[str, object] | None, bool], ...] = ((None, True), ({"minimum_point": 4}, False))
    for options, legal in cases:
        p = in_variant(variant, options)
        run(p, BASE_EXCHANGE)
        assert p.can(parse_action(short)) is legal
        if not legal:
            with pytest.raises(IllegalActionError, match="4"):
                p.push(parse_action(short))


# ---------------------------------------------------------------- cards_count_toward_pique
@pytest.mark.parametrize("variant", ["rubicon", "au-cent"])
def test_option_cards_count_toward_pique_the_cards_are_scored_at_the_seventh_trick(variant: str) -> None:
    for flag in (False, True):
        p = in_variant(variant, {"cards_count_toward_pique": flag})
        run(p, BASE_EXCHANGE)
        declare_nothing(p)
        early = None
        while p.phase is Phase.PLAY:
            p.push(first_legal(p))
            won = p.view(None).tricks_won
            if max(won) >= 7 and early is None:
                early = [e for e in p.events if e.category is ScoreCategory.CARDS]
        assert early is not None
        assert bool(early) is flag
        if flag:
            assert early[0].points == 10
            # Scored at the seventh trick, it stands there in the order of reckoning, before the rest of the play
            # (in Piquet au Cent it counts toward the hundred at that moment).
            order = [e.category for e in p.events]
            assert ScoreCategory.PLAY in order[order.index(ScoreCategory.CARDS):]


# ---------------------------------------------------------------- exchanges
@pytest.mark.parametrize(("variant", "options", "elder_low", "younger_low"), [
    ("rubicon", None, 1, 1),
    ("rubicon", {"elder_may_stand_pat": True}, 0, 1),
    ("rubicon", {"younger_may_stand_pat": True}, 1, 0),
    ("au-cent", None, 1, 0),
    ("au-cent", {"elder_may_stand_pat": True}, 0, 0),
    ("au-cent", {"younger_may_stand_pat": False}, 1, 1),
    ("auction", None, 0, 0),
    ("auction", {"elder_may_stand_pat": False}, 1, 0),
    ("auction", {"younger_may_stand_pat": False}, 0, 1),
])
def test_option_elder_and_younger_may_stand_pat(variant: str, options: dict[str, object] | None,
                                                elder_low: int, younger_low: int) -> None:
    p = in_variant(variant, options)
    assert p.view(BILL).exchange_range == (elder_low, 5)
    assert p.can(Exchange(BILL, cs(""))) is (elder_low == 0)
    run(p, ["Bill: x 7C"])
    assert p.view(ANN).exchange_range == (younger_low, 7)
    assert p.can(Exchange(ANN, cs(""))) is (younger_low == 0)
    if younger_low:
        with pytest.raises(IllegalActionError, match="Law 22"):
            p.push(Exchange(ANN, cs("")))


# ---------------------------------------------------------------- trick scoring (Rubicon)
def mirrored(options: dict[str, object] | None) -> Partie:
    """Rubicon, BASE's hands swapped: Bill (elder) holds the hearts and diamonds, Ann the strong hand.
    Both sink; Bill leads the 7H and Ann wins it with the AH, then leads the AS, which Bill cannot follow."""
    p = dealt(BASE_BILL, BASE_ANN, BASE_TALON, options)
    run(p, ["Bill: x 8S", "Ann: x 7C"])
    declare_nothing(p)
    return p


def play_points(p: Partie, seat: int) -> int:
    return points(p, ScoreCategory.PLAY, seat)


@pytest.mark.parametrize(("options", "after_lead", "after_win", "after_own_lead", "after_own_win"), [
    (None, (0, 1), (1, 1), (2, 1), (2, 1)),
    ({"lead_point_only_if_won": True}, (0, 0), (1, 0), (1, 0), (2, 0)),
    ({"points_for_winning_opponents_lead": 2}, (0, 1), (2, 1), (3, 1), (3, 1)),
    ({"low_cards_score_nothing_in_play": True}, (0, 0), (1, 0), (2, 0), (2, 0)),
])
def test_option_trick_scoring_leads_and_wins(options: dict[str, object] | None, after_lead: tuple[int, int],
                                             after_win: tuple[int, int], after_own_lead: tuple[int, int],
                                             after_own_win: tuple[int, int]) -> None:
    p = mirrored(options)

    def now() -> tuple[int, int]:
        return play_points(p, ANN), play_points(p, BILL)

    p.push(Play(BILL, card("7H")))
    assert now() == after_lead
    p.push(Play(ANN, card("AH")))
    assert now() == after_win
    p.push(Play(ANN, card("AS")))
    assert now() == after_own_lead
    p.push(Play(BILL, card("8D")))  # Bill has no spade
    assert now() == after_own_win


def test_option_points_for_winning_opponents_lead_is_one_or_two() -> None:
    with pytest.raises(OptionError, match="from 1 to 2"):
        make_rules("rubicon", {"points_for_winning_opponents_lead": 3})


@pytest.mark.parametrize("variant", ["rubicon", "au-cent"])
def test_option_low_cards_score_nothing_in_play_when_led_or_winning(variant: str) -> None:
    rules = make_rules(variant, {"low_cards_score_nothing_in_play": True})
    assert [rules.lead_points(card(c), None) for c in ("7S", "8S", "9S", "TS", "AS")] == [0, 0, 0, 1, 1]
    assert rules.trick_awards(0, (card("7S"), card("9S")), 1, None) == []
    assert make_rules(variant).lead_points(card("7S"), None) == 1


@pytest.mark.parametrize(("variant", "options", "scored"), [
    ("au-cent", {"points_ending_in_four_count_one_less": True}, 5), ("au-cent", None, 6), ("rubicon", None, 6)])
def test_option_points_ending_in_four_count_one_less(variant: str, options: dict[str, object] | None,
                                                     scored: int) -> None:
    # Mirrored BASE: Bill (elder) calls a point of six making 54 (QH JH TH 9H 8H 7H); Ann sinks hers.
    p = dealt(BASE_BILL, BASE_ANN, BASE_TALON, options, packets=2, variant=variant)
    run(p, ["Bill: x 8S", "Ann: x 7C", "Bill: point QH JH TH 9H 8H 7H",
            "Ann: point -", "Bill: sequences -", "Ann: sequences -",
            "Bill: sets -", "Ann: sets -", "Bill: 7H"])
    assert points(p, ScoreCategory.POINT, BILL) == scored


# ---------------------------------------------------------------- the partie
@pytest.mark.parametrize("seed", [2, 9])
def test_option_four_deal_partie_the_first_and_last_deals_count_double(seed: int) -> None:
    p = play_partie(agents(seed), random.Random(seed), NAMES, "rubicon", {"four_deal_partie": True})
    n = len(p.deal_scores)
    assert n in (4, 6)
    assert [d.multiplier for d in p.deal_scores[:4]] == [2, 1, 1, 2]
    assert all(d.multiplier == 1 for d in p.deal_scores[4:])
    assert p.totals == (sum(d.multiplier * d.totals[0] for d in p.deal_scores),
                        sum(d.multiplier * d.totals[1] for d in p.deal_scores))
    if n == 6:
        first4 = p.deal_scores[:4]
        assert sum(d.multiplier * (d.totals[0] - d.totals[1]) for d in first4) == 0
    q = loads(dumps(p))
    assert q.deal_scores == p.deal_scores and q.result == p.result


def test_option_four_deal_partie_rule() -> None:
    rules = make_rules("rubicon", {"four_deal_partie": True})
    assert rules.deals_in_partie == 4
    assert [rules.deal_multiplier(n) for n in (1, 2, 3, 4)] == [2, 1, 1, 2]
    assert rules.partie_over(4, (10, 9)) and not rules.partie_over(4, (10, 10))
    assert make_rules("rubicon").deal_multiplier(1) == 1


@pytest.mark.parametrize("variant", ["rubicon", "auction"])
def test_option_deal_in_threes_only_packets_of_two_are_illegal(variant: str) -> None:
    p = Partie(NAMES, variant, {"deal_in_threes_only": True}, first_dealer=ANN)
    assert p.legal_packets() == (3,)
    with pytest.raises(IllegalActionError, match="packets of 3, not 2"):
        p.push(make_deal(BASE_ANN, BASE_BILL, BASE_TALON, packets=2))
    p.push(make_deal(BASE_ANN, BASE_BILL, BASE_TALON, packets=3))
    assert Partie(NAMES, variant, first_dealer=ANN).legal_packets() == (2, 3)


@pytest.mark.parametrize("variant", ["rubicon", "au-cent"])
def test_option_carte_blanche_must_be_announced_declining_is_illegal(variant: str) -> None:
    p = dealt(CB_ANN, CB_BILL, CB_TALON, {"carte_blanche_must_be_announced": True}, packets=2, variant=variant)
    assert p.phase is Phase.CARTE_BLANCHE and p.to_act == BILL
    with pytest.raises(IllegalActionError, match="Law 20: a player dealt carte blanche must announce it"):
        p.push(CarteBlanche(BILL, False))
    assert CarteBlanche(BILL, False) not in p.legal_actions()
    q = dealt(CB_ANN, CB_BILL, CB_TALON, packets=2, variant=variant)
    assert q.can(CarteBlanche(BILL, False))


@pytest.mark.parametrize("variant", ["rubicon", "au-cent"])
def test_option_carte_blanche_must_be_announced_declining_is_not_listed(variant: str) -> None:
    p = dealt(CB_ANN, CB_BILL, CB_TALON, {"carte_blanche_must_be_announced": True}, packets=2, variant=variant)
    listed = p.legal_actions().list()
    assert all(p.can(a) for a in listed)
    assert CarteBlanche(BILL, False) not in listed


# ---------------------------------------------------------------- records
@pytest.mark.parametrize(("variant", "options", "written"), [
    ("rubicon", None, {}),
    ("rubicon", {"minimum_point": 1}, {}),
    ("rubicon", {"minimum_point": 4, "younger_may_stand_pat": True},
     {"minimum_point": 4, "younger_may_stand_pat": True}),
    ("auction", {"elder_may_stand_pat": True, "younger_may_stand_pat": True}, {}),
    ("auction", {"elder_may_stand_pat": False}, {"elder_may_stand_pat": False}),
    ("au-cent", {"younger_may_stand_pat": True}, {}),
    ("au-cent", {"younger_may_stand_pat": False, "points_ending_in_four_count_one_less": True},
     {"younger_may_stand_pat": False, "points_ending_in_four_count_one_less": True}),
])
def test_options_a_record_keeps_only_options_that_differ_from_the_variant_default_and_replays_them(
        variant: str, options: dict[str, object] | None, written: dict[str, object]) -> None:
    p = in_variant(variant, options)
    text = dumps(p)
    data = json.loads(text)
    assert data["variant"] == variant and data["options"] == written
    q = loads(text)
    assert q.variant == variant and q.rules.values == p.rules.values and q.rules.changed() == written
    assert p.view(ANN).options == written


def test_options_a_record_with_an_option_its_variant_does_not_offer_fails() -> None:
    text = dumps(in_variant("auction"))
    data = json.loads(text)
    data["options"] = {"four_deal_partie": True}
    with pytest.raises(RecordError, match="record: unknown rule option 'four_deal_partie' for auction"):
        loads(json.dumps(data))



# ---------------------------------------------------------------- carte rouge, ten for the last trick
# RED: Bill holds a point of eight and a huitième in spades and a quart major in hearts: every card of his
# hand is in a combination he scores.
RED_BILL = "AS KS QS JS TS 9S 8S 7S AH KH QH JH"
RED_ANN = "TH 9H 8H 7H AD KD QD JD TD 9D AC KC"
RED_TALON = "8D 7D QC JC TC 9C 8C 7C"
RED_DECLARE = ["Bill: x -", "Ann: x AC", "Bill: point AS KS QS JS TS 9S 8S 7S",
               "Ann: point -", "Bill: sequences AS KS QS JS TS 9S 8S 7S | AH KH QH JH",
               "Ann: sequences -", "Bill: sets -", "Ann: sets -", "Bill: AS"]


def test_option_carte_rouge_a_hand_all_of_whose_cards_score_scores_40_in_hand() -> None:
    p = dealt(RED_ANN, RED_BILL, RED_TALON, {"carte_rouge": True, "elder_may_stand_pat": True})
    run(p, RED_DECLARE)
    assert points(p, ScoreCategory.CARTE_ROUGE, BILL) == 40 and points(p, ScoreCategory.CARTE_ROUGE, ANN) == 0
    # Reckoned after the sets, in hand: 8 + 22 + 40 = 70 before Ann scores, a repique.
    assert points(p, ScoreCategory.REPIQUE, BILL) == 60
    order = [e.category for e in p.events]
    assert order.index(ScoreCategory.SEQUENCES) < order.index(ScoreCategory.CARTE_ROUGE)
    without = dealt(RED_ANN, RED_BILL, RED_TALON, {"elder_may_stand_pat": True})
    run(without, RED_DECLARE)
    assert points(without, ScoreCategory.CARTE_ROUGE, BILL) == 0


def test_option_carte_rouge_needs_every_card_scored_not_merely_held() -> None:
    # Bill sinks his quart: four of his cards score nothing, so no carte rouge.
    p = dealt(RED_ANN, RED_BILL, RED_TALON, {"carte_rouge": True, "elder_may_stand_pat": True})
    sunk = [a.replace(" | AH KH QH JH", "") for a in RED_DECLARE]
    run(p, sunk)
    assert points(p, ScoreCategory.CARTE_ROUGE, BILL) == 0


def test_option_ten_for_the_last_trick_a_point_a_trick_and_ten_for_the_last() -> None:
    for seed in range(6):
        p = dealt(BASE_ANN, BASE_BILL, BASE_TALON, {"ten_for_the_last_trick": True})
        run(p, BASE_EXCHANGE)
        declare_nothing(p)
        rng = random.Random(seed)
        while p.phase is Phase.PLAY:
            p.push(rng.choice([a for a in p.legal_actions() if isinstance(a, Play)]))
        d = p.deal_scores[-1]
        last = p.view(ANN).tricks[-1].winner if p.view(ANN).tricks else None
        for seat in (ANN, BILL):
            expected = d.tricks[seat] + (10 if seat == last else 0)
            assert d.by_category[seat]["play"] == expected
            assert d.by_category[seat]["cards"] == (40 if d.tricks[seat] == 12 else 0)
