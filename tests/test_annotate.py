"""The annotated record from a review (piquet.coach.annotate) and ``piquet analyse -o``: a partie of the computer
players reviewed, its record annotated action by action, read back, replayed."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from schema_helpers import validate_record

from piquet.ai.agent import play_partie
from piquet.ai.levels import make_agent
from piquet.coach.annotate import annotated_record, annotation_of, graded, review_annotations
from piquet.coach.review import (
    PLAY_ON,
    ConcessionReviewed,
    DeclarationReviewed,
    ExchangeReviewed,
    Lens,
    PartieReview,
    PlayReviewed,
    review_partie,
)
from piquet.engine import record
from piquet.engine.actions import Concede, Declare, Exchange, Play
from piquet.engine.cards import CardSet
from piquet.engine.partie import Partie
from piquet.ui.cli import main, replay_summary


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Partie, PartieReview]:
    """A whole partie between levels 1 and 3, written as a record, and its review with open hands."""
    partie = play_partie([make_agent("level1", 1), make_agent("level3", 2)], random.Random(8), ("Ann", "Bill"))
    path = tmp_path_factory.mktemp("annotate") / "game.json"
    path.write_text(record.dumps(partie), encoding="utf-8")
    return path, partie, review_partie(partie, Lens.OPEN)


def test_every_graded_action_has_its_annotation(game: tuple[Path, Partie, PartieReview]) -> None:
    _, partie, review = game
    notes = review_annotations(review, partie)
    assert (notes.lens, notes.worlds, notes.seed) == ("open-hands", 1, 0)
    # A player's playing on where he might have conceded is a decision before the card that followed, first.
    reviewed = {(r.deal, r.action, r.kind != "concession"): r for r in review.actions if graded(r) is not None}
    assert [(n.deal, n.action, n.decision is None) for n in notes.notes] == sorted(reviewed)
    # The exchanges too, where the review grades them; this partie's loser played on in the last deal.
    assert {"play", "declaration", "concession"} <= {r.kind for r in reviewed.values()} <= {
        "play", "declaration", "exchange", "concession"}
    for note in notes.notes:
        r = reviewed[note.deal, note.action, note.decision is None]
        assert note.text == r.explanation and note.text
        match r:
            case ConcessionReviewed():
                assert r.review.choice == PLAY_ON and note.decision == "concession"
                assert note.seat == r.seat and note.describe(partie.players) == r.text
                assert note.best == (record.PLAY_ON if r.review.best == PLAY_ON else Concede(r.seat))
            case ExchangeReviewed(review=found):
                assert found is not None and isinstance(note.choice, Exchange) and isinstance(note.best, Exchange)
                assert note.mark == found.mark and note.loss == pytest.approx(found.loss, abs=0.01)
            case PlayReviewed(review=found):
                assert found is not None
                assert note.choice == Play(r.seat, found.choice) and note.best == Play(r.seat, found.best)
                assert (note.value, note.best_value) == (found.worth(found.choice).value,
                                                         found.worth(found.best).value)
                assert note.mark == found.mark and note.loss == pytest.approx(found.loss, abs=0.01)
            case DeclarationReviewed(review=found):
                assert found is not None and isinstance(note.choice, Declare)
                assert note.choice == found.choice and note.best == found.best
                assert note.mark == found.mark and note.loss == pytest.approx(found.loss, abs=0.01)
            case _:
                raise AssertionError(f"a {r.kind} annotated in this partie: {r}")
    assert any(n.mark for n in notes.notes) and any(n.best != n.choice for n in notes.notes)


def test_the_annotated_record_round_trips_and_replays(game: tuple[Path, Partie, PartieReview]) -> None:
    path, partie, review = game
    plain = path.read_text(encoding="utf-8")
    text = annotated_record(plain, review)
    assert text.startswith(plain.rstrip()[:-1])
    validate_record(json.loads(text))
    again, notes = record.loads_annotated(text)
    assert notes == review_annotations(review, partie)
    assert again.totals == partie.totals and again.deal_scores == partie.deal_scores and again.result == partie.result
    assert record.loads(text).actions == record.loads(plain).actions
    assert replay_summary(record.loads(text)) == replay_summary(partie)


@dataclass(frozen=True)
class PairsReview:
    """An exchange graded as a declaration is: the choice, the best, the loss, the mark, (choice, value) pairs."""

    choice: object
    best: object
    loss: float
    mark: str
    options: tuple[tuple[object, float], ...]


@dataclass(frozen=True)
class DiscardWorth:
    discard: CardSet
    value: float


@dataclass(frozen=True)
class WorthReview:
    """An exchange graded with its values by discard, ``worth(discard).value`` (the exchange's review's shape)."""

    choice: CardSet
    best: CardSet
    loss: float
    mark: str
    options: tuple[DiscardWorth, ...]

    def worth(self, discard: CardSet) -> DiscardWorth:
        return next(w for w in self.options if w.discard == discard)


@pytest.mark.parametrize("shape", ["pairs of discards", "pairs of exchanges", "worth by discard"])
def test_an_exchange_graded_like_a_declaration_is_annotated(game: tuple[Path, Partie, PartieReview],
                                                            shape: str) -> None:
    path, partie, _ = game
    younger = 1  # the first deal's second action: younger's exchange, elder's came first
    choice = record.deal_actions(partie)[0][younger]
    assert isinstance(choice, Exchange) and len(choice.discards) > 1
    best_cards = CardSet(choice.discards.mask & (choice.discards.mask - 1))  # one card fewer
    graded_exchange: object
    if shape == "worth by discard":
        graded_exchange = WorthReview(choice.discards, best_cards, 1.25, "",
                                      (DiscardWorth(best_cards, 0.5), DiscardWorth(choice.discards, -0.75)))
    else:
        chosen, best = ((choice, Exchange(choice.player, best_cards)) if shape == "pairs of exchanges"
                        else (choice.discards, best_cards))
        graded_exchange = PairsReview(chosen, best, 1.25, "", ((best, 0.5), (chosen, -0.75)))
    # Any shape of an exchange's review, on purpose: the annotation is read from each shape (pairs, worth by discard).
    r = ExchangeReviewed(deal=1, action=younger, seat=choice.player, text="Ann exchanges",
                         explanation="Keep one more.", review=graded_exchange)  # type: ignore[arg-type]
    note = annotation_of(r, choice)
    assert note is not None
    assert note.best == Exchange(choice.player, best_cards, choice.show_rest)
    assert (note.value, note.best_value, note.loss, note.mark, note.text) == (-0.75, 0.5, 1.25, "", "Keep one more.")
    # The record's reader takes it: a legal exchange of the same player.
    text = record.annotated(path.read_text(encoding="utf-8"), record.Annotations(notes=(note,)))
    assert record.loads_annotated(text)[1] == record.Annotations(notes=(note,))
    assert annotation_of(ExchangeReviewed(deal=1, action=younger, seat=choice.player, text="Ann exchanges"),
                         choice) is None


def test_analyse_writes_the_annotated_record(game: tuple[Path, Partie, PartieReview], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path, partie, _ = game
    out = tmp_path / "annotated.json"
    assert main(["analyse", str(path), "--open-hands", "--json", "-o", str(out)]) == 0
    review = json.loads(capsys.readouterr().out)  # --json still prints the review
    text = out.read_text(encoding="utf-8")
    validate_record(json.loads(text))
    again, notes = record.loads_annotated(text)
    assert notes is not None and again.totals == partie.totals
    graded_entries = [e for e in review["plays"] + review["declarations"] + review.get("exchanges", [])
                      + review["concessions"] + review["carte_blanche"] if not e["forced"]]
    decisions = {e["action"]: e for e in review["concessions"] if e["choice"] == "play on"}
    assert decisions  # the loser played on in the last deal: a decision before elder's first card
    assert {(n.deal, n.action, n.decision) for n in notes.notes} == {
        (e["deal"], e["action"], "concession" if e.get("choice") == "play on" else None) for e in graded_entries}
    for e in graded_entries:
        note = notes.get(e["deal"], e["action"], "concession" if e.get("choice") == "play on" else None)
        assert note is not None and note.mark == e["mark"] and note.loss == pytest.approx(e["loss"], abs=0.01)
    # piquet replay reads it, with the same scores, and lists the annotations.
    assert main(["replay", str(out), "--json"]) == 0
    scores = capsys.readouterr().out
    assert main(["replay", str(path), "--json"]) == 0
    assert scores == capsys.readouterr().out
    assert main(["replay", str(out)]) == 0
    words = capsys.readouterr().out
    assert "Annotations (with open hands):" in words
    blunder = next(n for n in notes.notes if n.mark == "??")
    assert f"{blunder.choice.describe(partie.players)}  ?? −{blunder.loss:g}  {blunder.text}" in words
    (decided,) = [n for n in notes.notes if n.decision == "concession"]
    assert f"{decided.action:>2}. {partie.players[decided.seat]} plays on  " in words  # before the card's line


def test_analyse_one_deal_fair_writes_its_annotations(game: tuple[Path, Partie, PartieReview], tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path, _, _ = game
    out = tmp_path / "deal2.json"
    assert main(["analyse", str(path), "--deal", "2", "--worlds", "2", "--seed", "5", "-o", str(out)]) == 0
    assert "Points lost in the play:" in capsys.readouterr().out  # the text output still printed
    review = json.loads(out.read_text(encoding="utf-8"))["meta"]["review"]
    assert (review["lens"], review["worlds"], review["seed"]) == ("fair", 2, 5)
    assert review["annotations"] and {a["deal"] for a in review["annotations"]} == {2}
    assert main(["analyse", str(path), "--deal", "1", "--open-hands", "-o", str(tmp_path / "no" / "such.json")]) == 2
    assert "piquet analyse: cannot write" in capsys.readouterr().err
