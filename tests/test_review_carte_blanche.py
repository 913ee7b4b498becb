"""The review of a carte blanche decision where the rules leave it optional (Laws 18-20): announcing it (elder
saying how many cards he will exchange) or not, each option worth the player's best exchange after it; graded in
the review, its JSON, a hint and the tutor's check."""

from __future__ import annotations

import json
import random
from typing import Any, cast

import pytest
from helpers import ANN, BILL, dealt, run
from schema_helpers import validate_record

from piquet.coach.annotate import annotated_record, review_annotations
from piquet.coach.hints import Worlds, check, hint
from piquet.coach.review import (
    CarteBlancheReviewed,
    Lens,
    Part,
    explain_carte_blanche,
    review_carte_blanche,
    review_partie,
)
from piquet.engine import record
from piquet.engine.actions import CarteBlanche
from piquet.engine.partie import Partie, Phase

NAMES = ("Ann", "Bill")
WORLDS = 60
#: Bill (elder) dealt no king, queen or knave: five aces and tens, a quint to the ace in spades.
ANN_HAND, BILL_HAND = "KS QS JS KH QH JH 8H KD QD JD 9D 8D", "AS TS 9S 8S 7S AH TH 9H AD TD AC TC"
TALON = "7H 7D KC QC JC 9C 8C 7C"


def _carte_blanche(options: dict[str, object] | None = None) -> Partie:
    partie = dealt(ANN_HAND, BILL_HAND, TALON, options)
    assert partie.phase is Phase.CARTE_BLANCHE and partie.to_act == BILL
    return partie


@pytest.mark.parametrize("lens", [Lens.OPEN, Lens.FAIR])
def test_each_option_is_worth_the_best_exchange_after_it_and_its_parts_sum_to_it(lens: Lens) -> None:
    partie = _carte_blanche()
    declining = CarteBlanche(BILL, False)
    review = review_carte_blanche(partie, declining, lens, WORLDS, random.Random(1))
    assert {o for o, _ in review.options} == {a for a in partie.legal_actions(BILL) if isinstance(a, CarteBlanche)}
    for option, value in review.options:
        parts = review.parts[option]
        assert sum(parts.values()) == pytest.approx(value)
        assert parts[Part.CARTE_BLANCHE] == (10 if option.announce else 0)
    assert review.best.announce and review.loss >= 10 and review.mark == "??"
    text = explain_carte_blanche(review, NAMES)
    assert text.startswith("Not announcing carte blanche rather than announcing carte blanche and ")
    assert "the carte blanche (−10)" in text


def test_the_review_of_a_partie_grades_it_and_its_json_says_so() -> None:
    partie = run(_carte_blanche(), [CarteBlanche(BILL, True, 5)])
    review = review_partie(partie, Lens.OPEN, deal=1, luck=False)
    (entry,) = review.of(CarteBlancheReviewed)
    assert entry.review is not None and entry.kind == "carte blanche"
    assert review.summary(BILL, "carte blanche").choices == 1
    (said,) = cast(list[dict[str, Any]], review.to_json()["carte_blanche"])
    assert said["choice"] == "announcing carte blanche and 5 cards to exchange" and said["forced"] is False
    assert {v["option"] for v in said["values"]} >= {"not announcing carte blanche"}


def test_where_the_rules_bind_younger_to_announce_it_there_is_no_choice_to_review() -> None:
    bound: dict[str, object] = {"carte_blanche_must_be_announced": True}
    elder = _carte_blanche(bound)  # elder bound to announce still chooses how many cards he will exchange
    review = review_carte_blanche(elder, CarteBlanche(BILL, True, 5), Lens.OPEN)
    assert {o.announce for o, _ in review.options} == {True}
    younger = dealt(BILL_HAND, ANN_HAND, TALON, bound)  # Ann (younger) dealt carte blanche
    assert younger.phase is Phase.CARTE_BLANCHE and younger.to_act == ANN
    (only,) = [a for a in younger.legal_actions(ANN) if isinstance(a, CarteBlanche)]
    with pytest.raises(ValueError, match="Ann has no choice of carte blanche here"):
        review_carte_blanche(younger, only)
    with pytest.raises(ValueError, match="not a legal choice for Ann here"):
        review_carte_blanche(_carte_blanche(), CarteBlanche(ANN, False))
    assert hint(younger, budget=0, worlds=Worlds(8, 20, 8, 8)) is None
    assert check(younger, only, budget=0, worlds=Worlds(8, 20, 8, 8)) is None


def test_a_hint_advises_announcing_and_the_tutor_stops_declining() -> None:
    partie = _carte_blanche()
    advice = hint(partie, seed=1, budget=0, worlds=Worlds(8, WORLDS, 8, 8))
    assert advice is not None and advice.kind == "carte blanche" and isinstance(advice.best, CarteBlanche)
    assert advice.best.announce and advice.margin is not None and advice.margin >= 0
    assert advice.reason.startswith("Announcing carte blanche")
    warning = check(partie, CarteBlanche(BILL, False), seed=1, budget=0, worlds=Worlds(8, WORLDS, 8, 8))
    assert warning is not None and warning.kind == "carte blanche" and warning.loss >= 10
    assert isinstance(warning.better, CarteBlanche) and warning.better.announce


def test_piquet_analyse_lists_the_carte_blanche_decision_and_what_it_lost() -> None:
    from piquet.ui.cli import _review_lines

    partie = run(_carte_blanche(), [CarteBlanche(BILL, True, 5)])
    lines = _review_lines(review_partie(partie, Lens.OPEN, deal=1, luck=False))
    assert any("Announcing carte blanche and 5 cards to exchange rather than" in line for line in lines)
    at = lines.index("Points lost in carte blanche (with open hands):")
    assert lines[at + 2].startswith("  Bill") and "in 1 choice (" in lines[at + 2]




def test_annotation_of_a_declined_carte_blanche_names_the_best_announcement_and_its_count() -> None:
    partie = run(_carte_blanche(), [CarteBlanche(BILL, False)])
    review = review_partie(partie, Lens.OPEN, deal=1, luck=False)
    (entry,) = review.of(CarteBlancheReviewed)
    graded = entry.review
    assert graded is not None
    text = annotated_record(record.dumps(partie), review)
    validate_record(json.loads(text))
    again, notes = record.loads_annotated(text)
    assert notes is not None and notes == review_annotations(review, partie) and again.actions == partie.actions
    note = notes.get(1, 0)
    assert note is not None and note.choice == CarteBlanche(BILL, False) and note.best == graded.best
    assert graded.best.announce and graded.best.will_exchange is not None  # elder says how many he will exchange
    values = dict(graded.options)
    assert (note.value, note.best_value, note.mark) == (round(values[graded.choice], 2),
                                                        round(values[graded.best], 2), graded.mark)
    assert note.loss is not None
    assert note.loss == pytest.approx(graded.loss, abs=0.01) and note.loss >= 10 and note.text == entry.explanation
    written = json.loads(text)["meta"]["review"]["annotations"][0]
    assert written["best"] == {"carte_blanche": True, "will_exchange": graded.best.will_exchange}
    # Tampered: a count elder could not announce, a loss that is not the difference, an exchange for the best.
    for change, why in (({"best": {"carte_blanche": True, "will_exchange": 9}}, "could not be taken there"),
                        ({"loss": note.loss + 1}, f"loss is {note.loss + 1:g}, but best_value less value"),
                        ({"best": {"exchange": ["7S"]}}, "the best must be the same kind of action as Bill does "
                                                         "not announce carte blanche")):
        data = json.loads(text)
        data["meta"]["review"]["annotations"][0].update(change)
        with pytest.raises(record.RecordError) as caught:
            record.loads_annotated(json.dumps(data))
        assert caught.value.where == "review, annotation 0 (deal 1, action 0)" and why in caught.value.reason
