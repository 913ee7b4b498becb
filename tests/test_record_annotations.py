"""The annotated record (docs/record-format.md, "Annotations"): a review's annotations in ``meta.review``,
read and checked by the engine's reader, ignored by a reader that does not know them, described by the schema."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import agents
from schema_helpers import RECORD_SCHEMA as SCHEMA
from schema_helpers import validate_record

from piquet.ai.agent import play_partie
from piquet.coach.annotate import annotated_record, luck_note
from piquet.coach.luck import DealLuck, partie_luck
from piquet.coach.review import Lens, review_partie
from piquet.engine.actions import Declare, Exchange, Play
from piquet.engine.cards import Card, CardSet
from piquet.engine.combinations import Category
from piquet.engine.record import (
    PLAY_ON,
    Annotation,
    Annotations,
    RecordError,
    annotated,
    dumps,
    from_data,
    layout,
    loads,
    loads_annotated,
)

RECORDS = Path(__file__).parent / "records"
PLAIN = (RECORDS / "rubicon-deal.json").read_text(encoding="utf-8")
ANN, BILL = 0, 1

#: A review of the reference deal written by hand: Bill's exchange, Ann's, Bill's point, his first lead, and a
#: note with a text alone.
REVIEW: dict[str, Any] = {"lens": "fair", "worlds": 24, "seed": 3, "annotations": [
    {"deal": 1, "action": 0, "value": -2.5, "best": {"exchange": ["7H", "7D", "8C"]}, "best_value": 1.0,
     "loss": 3.5, "mark": "?", "text": "Keep the ace of diamonds."},
    {"deal": 1, "action": 1, "value": 0.25, "best": {"exchange": ["9S", "JC", "9C"]}, "best_value": 0.25,
     "loss": 0.0, "mark": ""},
    {"deal": 1, "action": 2, "value": 4, "best": {"declare": "point", "combinations": []}, "best_value": 4.5,
     "loss": 0.5, "mark": ""},
    {"deal": 1, "action": 8, "value": 3.0, "best": {"play": "KS"}, "best_value": 5.0, "loss": 2.0, "mark": "?!",
     "text": "Leading the A♣ rather than the K♠ costs Bill 2 points."},
    {"deal": 1, "action": 11, "text": "Ann takes the lead for good."},
]}


def with_review(review: object) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PLAIN)
    data["meta"] = {"event": "the club's ladder", "review": review}
    return data


def expected() -> Annotations:
    return Annotations("fair", 24, 3, (
        Annotation(1, 0, Exchange(BILL, CardSet.parse("7H 7D 9H AD 8C")), -2.5,
                   Exchange(BILL, CardSet.parse("7H 7D 8C")), 1.0, 3.5, "?", "Keep the ace of diamonds."),
        Annotation(1, 1, Exchange(ANN, CardSet.parse("9C 9S JC")), 0.25, Exchange(ANN, CardSet.parse("9C 9S JC")),
                   0.25, 0.0, ""),
        Annotation(1, 2, Declare(BILL, Category.POINT, (CardSet.parse("KS QS JS TS 8S 7S"),)), 4.0,
                   Declare(BILL, Category.POINT, ()), 4.5, 0.5, ""),
        Annotation(1, 8, Play(BILL, Card.parse("AC")), 3.0, Play(BILL, Card.parse("KS")), 5.0, 2.0, "?!",
                   "Leading the A♣ rather than the K♠ costs Bill 2 points."),
        Annotation(1, 11, Play(ANN, Card.parse("AS")), text="Ann takes the lead for good."),
    ))


def test_the_reader_returns_the_annotations_with_their_actions() -> None:
    partie, notes = loads_annotated(json.dumps(with_review(REVIEW)))
    assert notes == expected()
    assert notes.get(1, 8) == expected().notes[3] and notes.get(1, 9) is None
    assert loads_annotated(PLAIN)[1] is None
    assert partie.totals == loads(PLAIN).totals


def test_an_annotated_record_round_trips_and_keeps_the_rest_byte_for_byte() -> None:
    text = annotated(PLAIN, expected())
    assert text.startswith(PLAIN.rstrip()[:-1])  # the record as it was, its review added at the end
    data = json.loads(text)
    assert data["meta"] == {"review": REVIEW | {"annotations": [
        a | {"value": float(a["value"])} if "value" in a else a for a in REVIEW["annotations"]]}}
    partie, notes = loads_annotated(text)
    assert notes == expected()
    plain = loads(PLAIN)
    assert partie.totals == plain.totals and partie.deal_scores == plain.deal_scores
    # Annotating again replaces the review; another meta stays as it was.
    again = annotated(json.dumps(with_review(REVIEW)), Annotations("open-hands", 1, None, expected().notes[3:4]))
    meta = json.loads(again)["meta"]
    assert meta["event"] == "the club's ladder" and meta["review"]["lens"] == "open-hands"
    assert loads_annotated(again)[1] == Annotations("open-hands", 1, None, expected().notes[3:4])


def test_a_record_laid_out_by_dumps_is_laid_out_again_byte_for_byte() -> None:
    for seed in range(3):
        p = play_partie(agents(seed), random.Random(seed), players=("Ann", "Bill"))
        for meta in (None, {"seed": seed}):
            text = dumps(p, meta)
            assert layout(json.loads(text)) == text
            note = Annotation(2, 0, p.actions[0], text="First.")  # written as given: the reader checks it
            marked = annotated(text, Annotations(notes=(note,)))
            data = json.loads(marked)
            assert data["meta"]["review"] == {"annotations": [{"deal": 2, "action": 0, "text": "First."}]}
            del data["meta"]["review"]
            if not data["meta"]:
                del data["meta"]
            assert layout(data) == text  # only the review was added


def test_a_reader_ignores_annotations_it_does_not_ask_for() -> None:
    data = with_review(REVIEW)
    partie, plain = from_data(data), loads(PLAIN)
    assert partie.actions == plain.actions and partie.logs() == plain.logs() and partie.totals == plain.totals
    # A version 1 reader that knows no annotations holds meta free-form: the schema without meta's properties.
    older = copy.deepcopy(SCHEMA)
    del older["properties"]["meta"]["properties"]
    jsonschema.validate(data, older)


def test_the_schema_describes_annotations() -> None:
    validate_record(with_review(REVIEW))
    validate_record(json.loads(annotated(PLAIN, expected())))
    for bad in ({"annotations": [{"deal": 1, "action": 8, "mark": "!!"}]},
                {"annotations": [{"deal": 1, "action": 8, "loss": -1}]},
                {"annotations": [{"deal": 1, "action": 8, "best": {"player": "Bill", "play": "KS"}}]},
                {"annotations": [{"deal": 1, "action": 8, "best": {"play": "KS", "exchange": ["7H"]}}]},
                {"annotations": [{"deal": 1, "action": 8, "comment": "x"}]},
                {"annotations": [{"deal": 0, "action": 8}]},
                {"annotations": [{"deal": 1, "action": 8, "decision": "concession"}]},  # whose?
                {"annotations": [{"deal": 1, "action": 8, "player": "Ann"}]},  # which decision?
                {"annotations": [{"deal": 1, "action": 8, "decision": "carte blanche", "player": "Ann"}]},
                {"annotations": [{"deal": 1, "action": 8, "best": "fold"}]},
                {"lens": "crystal ball", "annotations": []},
                {"lens": "fair"}):
        with pytest.raises(jsonschema.ValidationError):
            validate_record(with_review(bad))


def note(n: int, **change: object) -> dict[str, Any]:
    """The review with annotation ``n`` changed (a value ``None`` removes the field)."""
    review = copy.deepcopy(REVIEW)
    item = review["annotations"][n]
    for key, value in change.items():
        if value is None:
            item.pop(key, None)
        else:
            item[key] = value
    return review


@pytest.mark.parametrize(("review", "where", "why"), [
    ("all good", "review", "the review is an object"),
    ({"annotations": [], "author": "me"}, "review", "unknown field(s) author"),
    ({"lens": "crystal ball", "annotations": []}, "review", "lens is 'fair' or 'open-hands'"),
    ({"worlds": 0, "annotations": []}, "review", "worlds is a whole number from 1"),
    ({"lens": "fair"}, "review", "missing 'annotations'"),
    ({"annotations": ["?!"]}, "review, annotation 0", "an annotation is an object"),
    ({"annotations": [{"deal": 1}]}, "review, annotation 0", "deal (a whole number from 1) and action"),
    (note(3, mark="!!"), "review, annotation 3 (deal 1, action 8)", "mark is one of"),
    (note(3, loss=-1, value=None), "review, annotation 3 (deal 1, action 8)", "never below 0"),
    (note(3, loss=3), "review, annotation 3 (deal 1, action 8)", "loss is 3, but best_value less value is 2.00"),
    (note(3, value=6, loss=None), "review, annotation 3 (deal 1, action 8)", "the best is worth less than the choice"),
    (note(3, value="high"), "review, annotation 3 (deal 1, action 8)", "value is a number, not 'high'"),
    (note(3, best_value=float("nan")), "review, annotation 3 (deal 1, action 8)", "best_value is a number"),
    (note(3, text=7), "review, annotation 3 (deal 1, action 8)", "text is a string"),
    (note(3, comment="x"), "review, annotation 3 (deal 1, action 8)", "unknown field(s) comment"),
    (note(3, best="KS"), "review, annotation 3 (deal 1, action 8)", "best is an action without its player"),
    (note(3, best={"play": "QD"}), "review, annotation 3 (deal 1, action 8)", "could not be taken there"),
    (note(3, best={"play": "KZ"}), "review, annotation 3 (deal 1, action 8)", "not a card: 'KZ'"),
    (note(3, best={"exchange": ["7H"]}), "review, annotation 3 (deal 1, action 8)", "the same kind of action"),
    (note(3, best={"player": "Bill", "play": "KS"}), "review, annotation 3 (deal 1, action 8)", "without its player"),
    (note(3, best={"play": "AC"}, value=None), "review, annotation 3 (deal 1, action 8)", "the best is the choice"),
    (note(0, best={"exchange": ["7H", "7D", "8C"], "show_rest": True}), "review, annotation 0 (deal 1, action 0)",
     "without show_rest"),
    (note(2, best={"declare": "sequences", "combinations": []}), "review, annotation 2 (deal 1, action 2)",
     "could not be taken there"),
    (note(4, action=40), "review, annotation 4 (deal 1, action 40)", "there is no such action (deal 1 has 32"),
    (note(4, deal=2), "review, annotation 4 (deal 2, action 11)", "the record has 1 deal"),
    (note(4, action=8), "review, annotation 4 (deal 1, action 8)", "the order of the actions, one an action"),
])
def test_a_malformed_annotation_is_rejected_saying_where_and_why(review: object, where: str, why: str) -> None:
    with pytest.raises(RecordError) as caught:
        from_data(with_review(review))
    assert caught.value.where == where
    assert why in caught.value.reason
    if "(deal" in where:
        assert (caught.value.deal, caught.value.action) == tuple(int(n) for n in where.split("deal ")[1]
                                                                  .rstrip(")").split(", action "))


def test_the_documented_concession_decision_is_valid_and_comes_before_its_card() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "record-format.md").read_text(encoding="utf-8")
    section = doc.split("**Concessions and playing on.**", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    decided, card = (json.loads(line.removesuffix(",")) for line in section.strip().splitlines())
    validate_record(with_review({"annotations": [decided, card]}))
    assert (decided["deal"], decided["action"]) == (card["deal"], card["action"])
    assert (decided["decision"], decided["best"]) == ("concession", PLAY_ON) and "decision" not in card


def test_the_documented_example_is_read_and_valid() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "record-format.md").read_text(encoding="utf-8")
    section = doc.split("## Annotations", 1)[1].split("\n## ", 1)[0]
    head = next(line for line in section.splitlines() if line.startswith(' "meta": {"review": '))
    review = json.loads(head.removeprefix(' "meta": {"review": ').removesuffix("[") + "[]}")
    review["annotations"] = [json.loads(line.strip().removesuffix("]}}}").removesuffix(","))
                             for line in section.splitlines() if line.startswith('  {"deal": ')]
    assert len(review["annotations"]) == 3
    data = with_review(review)
    validate_record(data)
    _, notes = loads_annotated(json.dumps(data))
    assert notes is not None and [n.mark for n in notes.notes] == ["", "", "?"]
    assert notes.notes[2].best == Play(ANN, Card.parse("JH"))


# ---------------------------------------------------------------- the luck of each deal
def reference_luck() -> dict[str, Any]:
    """The reference deal's luck as a review writes it (``piquet analyse -o``)."""
    (deal,) = partie_luck(loads(PLAIN))
    return luck_note(deal).to_data(("Ann", "Bill"))


def test_an_annotated_record_carries_each_deal_s_luck_and_reads_it_back() -> None:
    partie = loads(PLAIN)
    review = review_partie(partie, Lens.OPEN)
    text = annotated_record(PLAIN, review)
    data = json.loads(text)
    validate_record(data)
    (written,) = data["meta"]["review"]["luck"]
    (deal,) = review.luck
    assert written["deal"] == 1 and written["elder"] == "Bill" and written["average"] == round(deal.average, 2)
    for seat, name in enumerate(("Ann", "Bill")):
        assert written["players"][name] == {"deal": round(deal.deal_luck(seat), 2),
                                            "draw": round(deal.draw_luck(seat), 2),
                                            "luck": round(deal.luck(seat), 2), "result": deal.result(seat)}
    _, notes = loads_annotated(text)
    assert notes is not None and notes.luck == (luck_note(deal),)


def luck_with(change: Any) -> dict[str, Any]:
    """The reference review with the reference deal's luck, changed by ``change`` (a function of the entry)."""
    entry = reference_luck()
    change(entry)
    return REVIEW | {"luck": [entry]}


@pytest.mark.parametrize(("review", "where", "why"), [
    (REVIEW | {"luck": {"deal": 1}}, "review, luck", "the luck is an array of deals"),
    (luck_with(lambda e: e.update(deal=2)), "review, luck 0", "deal is a deal of the record, 1 to 1"),
    (luck_with(lambda e: e.update(comment="x")), "review, luck 0", "a deal's luck is an object of"),
    (luck_with(lambda e: e.update(elder="Ann")), "review, luck 0 (deal 1)", "elder is Bill in this deal, not Ann"),
    (luck_with(lambda e: e.update(average="high")), "review, luck 0 (deal 1)", "average is a number"),
    (luck_with(lambda e: e["players"]["Ann"].update(luck=e["players"]["Ann"]["luck"] + 1)),
     "review, luck 0 (deal 1), Ann", "is not the deal's"),
    (luck_with(lambda e: e["players"]["Bill"].update(result=0)), "review, luck 0 (deal 1), Bill",
     "the deal's points less the opponent's"),
    (luck_with(lambda e: [e["players"][n].update(deal=e["players"][n]["deal"] + 1, luck=e["players"][n]["luck"] + 1)
                          for n in ("Ann", "Bill")]), "review, luck 0 (deal 1)", "the other's bad luck"),
    (luck_with(lambda e: e["players"].pop("Ann")), "review, luck 0 (deal 1)", "players gives the luck of Ann and"),
])
def test_a_malformed_luck_is_rejected_saying_where_and_why(review: object, where: str, why: str) -> None:
    with pytest.raises(RecordError) as caught:
        from_data(with_review(review))
    assert caught.value.where == where
    assert why in caught.value.reason


# Ann deals; Bill bids first, Ann outbids him with 8- and he doubles: Ann holds the contract and is elder.
AUCTION_MINUS = (RECORDS / "auction-minus-doubled-down.json").read_text(encoding="utf-8")


def _with_luck(text: str, notes: tuple[Any, ...]) -> str:
    return annotated(text, Annotations("fair", 24, 0, (), notes))


def test_an_auction_record_carries_its_luck_checked_against_the_contract_s_holder() -> None:
    partie = loads(AUCTION_MINUS)
    (deal,) = partie_luck(partie)
    assert deal.elder == ANN and partie.deal_scores[0].contract is not None
    text = _with_luck(AUCTION_MINUS, (luck_note(deal),))
    validate_record(json.loads(text))
    # Bill: bid first, but the deal's elder is the holder.
    _reads_back_and_refuses_bill_as_elder(text, deal)


def test_the_luck_of_an_auction_deal_in_progress_names_its_elder_as_it_stands() -> None:
    """A deal not ended has no score to check its elder against: the partie's deal in progress has it, the
    holder of the contract once the auction is over."""
    data = json.loads(AUCTION_MINUS)
    data["deals"][0]["actions"] = [a for a in data["deals"][0]["actions"] if "bid" in a or "exchange" in a]
    partie = from_data(data)
    (deal,) = partie_luck(partie)
    assert deal.result(ANN) is None and deal.elder == ANN
    _reads_back_and_refuses_bill_as_elder(_with_luck(json.dumps(data), (luck_note(deal),)), deal)


def _reads_back_and_refuses_bill_as_elder(text: str, deal: DealLuck) -> None:
    """The record ``text`` with ``deal``'s luck reads it back as written, and with Bill named its elder (Ann is)
    is refused."""
    _, notes = loads_annotated(text)
    assert notes is not None and notes.luck == (luck_note(deal),)
    wrong = json.loads(text)
    wrong["meta"]["review"]["luck"][0]["elder"] = "Bill"
    with pytest.raises(RecordError) as caught:
        from_data(wrong)
    assert caught.value.reason == "elder is Ann in this deal, not Bill"


def test_the_schema_describes_the_luck() -> None:
    validate_record(with_review(luck_with(lambda e: None)))
    for bad in (lambda e: e.update(comment="x"), lambda e: e["players"]["Ann"].update(result=1.5),
                lambda e: e.pop("average")):
        with pytest.raises(jsonschema.ValidationError):
            validate_record(with_review(luck_with(bad)))


def test_the_documented_luck_is_the_reference_deal_s_and_is_read() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "record-format.md").read_text(encoding="utf-8")
    line = next(line for line in doc.splitlines() if line.startswith('"luck": [{"deal": 1'))
    documented = json.loads("{" + line + "}")["luck"]
    assert documented == [reference_luck()]
    _, notes = loads_annotated(json.dumps(with_review(REVIEW | {"luck": documented})))
    assert notes is not None and len(notes.luck) == 1
