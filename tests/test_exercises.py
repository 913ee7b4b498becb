"""Exercises from a review (piquet.coach.exercises, piquet.ui.exercises, ``piquet exercises``): the reference deal
with Bill's point sunk, reviewed, gives Bill a blunder at each kind of decision (his discard, his sunk point, his
lead of the K♠); each is offered again, worst first, and answers are graded against the review."""

from __future__ import annotations

import io
import json
import random
import re
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("rich")

from rich.console import Console

from piquet.coach.annotate import annotated_record
from piquet.coach.exercises import (
    Exercise,
    Grade,
    NoReviewError,
    doing,
    exercises,
    grade,
    load_exercises,
    read_answer,
    review_answer,
    show_me,
)
from piquet.coach.review import DeclarationReview, ExchangeReview, Lens, PlayReview, review_partie
from piquet.engine import record
from piquet.engine.actions import Bid, Declare, Exchange, Play
from piquet.engine.cards import Card, CardSet
from piquet.engine.combinations import Category
from piquet.engine.partie import Partie
from piquet.ui.cli import main
from piquet.ui.exercises import run

RECORDS = Path(__file__).parent / "records"
#: A card as the terminal and the explanations draw it: 10♠, K♦.
PRETTY_CARD = re.compile(r"(?:10|[AKQJ987])[♠♥♦♣]")


def _sunk() -> str:
    """The reference deal, Bill sinking his point of six."""
    data = json.loads((RECORDS / "rubicon-deal.json").read_text(encoding="utf-8"))
    data["deals"][0]["actions"][2]["combinations"] = []
    return json.dumps(data)


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("exercises") / "game.json"
    path.write_text(_sunk(), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def annotated(plain: Path) -> Path:
    """The deal reviewed with open hands, written as an annotated record."""
    text = plain.read_text(encoding="utf-8")
    path = plain.with_name("annotated.json")
    path.write_text(annotated_record(text, review_partie(record.loads(text), Lens.OPEN)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def fair(plain: Path) -> str:
    """The deal reviewed in the fair lens (few hands a card, to be quick), as annotated text."""
    text = plain.read_text(encoding="utf-8")
    return annotated_record(text, review_partie(record.loads(text), Lens.FAIR, worlds=4, seed=3))


def bills(path: Path, count: int = 5) -> list[Exercise]:
    return load_exercises(path.read_text(encoding="utf-8"), "Bill", count)


def console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=200, no_color=True, highlight=False), buf


def scripted(*typed: str) -> Callable[[str], str]:
    """A prompt answered by ``typed``, one after the other, then the end of the input."""
    it = iter(typed)

    def ask(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return ask


def test_exercises_are_the_worst_decisions_of_the_player_worst_first(annotated: Path) -> None:
    partie, notes = record.loads_annotated(annotated.read_text(encoding="utf-8"))
    assert notes is not None
    found = exercises(partie, notes, "Bill")
    assert [(e.kind, e.action, e.loss, e.mark) for e in found] == [
        ("discard", 0, 18.0, "??"), ("declaration", 2, 11.0, "??"), ("play", 10, 6.0, "?")]
    assert [e.action for e in exercises(partie, notes, "Bill", count=2)] == [0, 2]
    assert exercises(partie, notes, "Ann") == []  # she lost nothing against the best
    # Each is the partie re-played to the decision: Bill to act, and his choice the action the record holds there.
    held = record.deal_actions(partie)
    for e in found:
        assert e.partie.to_act == 1 and e.partie.why_not(e.choice) is None
        assert held[0][e.action] == e.choice and e.view.seat == 1
    assert found[2].leading and found[2].view.tricks_won == (0, 1)
    # The marked ones first: unmarked, the largest loss goes after the smaller marked ones.
    unmarked = replace(notes, notes=tuple(replace(n, mark="") if n.action == 0 else n for n in notes.notes))
    assert [e.action for e in exercises(partie, unmarked, "Bill")] == [2, 10, 0]


def test_the_position_shown_holds_no_card_the_player_could_not_know(annotated: Path) -> None:
    for e in bills(annotated):
        out, buf = console()
        assert run([e], out, scripted("next")) == 0
        shown = {Card.parse(t) for t in PRETTY_CARD.findall(buf.getvalue())}
        view = e.view
        known = set(view.known_cards())
        hidden = set(CardSet(~view.known_cards().mask & 0xFFFFFFFF))
        assert hidden and set(e.partie.hand(0)) & hidden  # there is something to hide: Ann's cards
        assert shown <= known, f"{e.kind}: shows {sorted(map(str, shown - known))}"
        assert set(view.hand) <= shown  # his own hand is shown
        assert doing(e.choice, e.leading) in buf.getvalue() and e.task in buf.getvalue()


def test_the_best_is_right_and_the_choice_made_wrong_by_its_loss(annotated: Path) -> None:
    discard, point, lead = bills(annotated)
    right = grade(lead, read_answer(lead, "kc"))
    assert right.grade is Grade.RIGHT and right.said.startswith("Right: leading the K♣ is the best here.")
    assert lead.text in right.said  # why: the review's explanation
    wrong = grade(lead, read_answer(lead, "KS"))
    assert wrong.grade is Grade.WRONG and wrong.loss == 6.0
    assert wrong.said == "That is the play made, leading the K♠: it loses 6 points against the best (a mistake, ?)."
    assert grade(discard, read_answer(discard, "9H 7H 7D 8C")).grade is Grade.RIGHT
    assert grade(point, read_answer(point, "KS QS JS TS 8S 7S")).grade is Grade.RIGHT
    assert grade(point, read_answer(point, "nothing")).grade is Grade.WRONG


def test_another_answer_is_valued_as_the_review_valued_the_decision(annotated: Path) -> None:
    discard, point, lead = bills(annotated)
    # A discard the review did not try: better than the one made, short of the best, and why, the best unnamed.
    other = grade(discard, read_answer(discard, "9h 7h 7d tc 8c"))
    assert other.grade is Grade.WRONG and other.loss == 3.0
    assert other.said == ("Not the best: discarding the 9♥ 7♥ 7♦ 10♣ 8♣ is better than the discard made by 15 "
                          "points, but it loses 3 points against the best: it gives up the cards (−10) and the "
                          "points for leading (−2) and gains the sets (+6) and the sequences (+3).")
    assert "9♥ 7♥ 7♦ 8♣" not in other.said and "9♥ 7♥ 7♦ 8♣" in other.explanation
    # A shorter point: worse by what the declarations score, named by the part it gives up.
    short = grade(point, read_answer(point, "KS QS JS TS 8S"))
    assert short.grade is Grade.WRONG and short.loss == pytest.approx(11.0)
    assert short.said.endswith("against the best: it gives up the point (−11).")
    # A lead as good as the best is right; one worse is wrong by what it gives up.
    values = {w.card: w.value for w in review_answer(lead, read_answer(lead, "QC")).cards}  # type: ignore[union-attr]
    kc = values[Card.parse("KC")]
    for card, value in values.items():
        verdict = grade(lead, Play(1, card))
        if card in (Card.parse("KC"), Card.parse("KS")):
            continue
        assert verdict.grade is (Grade.RIGHT if kc - value < 0.05 else Grade.WRONG), str(card)
        assert verdict.loss == pytest.approx(kc - value)


def test_the_fair_lens_values_an_answer_on_the_review_s_own_worlds(fair: str) -> None:
    found = load_exercises(fair, "Bill")
    assert {e.kind for e in found} == {"discard", "declaration", "play"} and found[0].lens is Lens.FAIR
    for e in found:
        again = review_answer(e, e.choice)
        if isinstance(e.choice, Play):
            assert isinstance(again, PlayReview)
            value = again.worth(e.choice.card).value
        elif isinstance(e.choice, Declare):
            assert isinstance(again, DeclarationReview)
            value = dict(again.options)[e.choice]
        else:
            assert isinstance(again, ExchangeReview) and isinstance(e.choice, Exchange)
            value = again.worth(e.choice.discards).value
        assert value == pytest.approx(e.note.value, abs=0.006) and again.loss == pytest.approx(e.loss, abs=0.01)
    discard = next(e for e in found if e.kind == "discard")
    verdict = grade(discard, read_answer(discard, "9H 7H 7D 8C"))
    assert verdict.grade is Grade.WRONG and "on average" in verdict.said and verdict.review is not None


def test_an_illegal_answer_names_the_engine_s_reason(annotated: Path) -> None:
    discard, point, lead = bills(annotated)
    for e, typed in ((lead, "AS"), (discard, "KS JS TS 8S 7S 9H"), (discard, "AS"), (point, "AH KH QH")):
        answer = read_answer(e, typed)
        reason = e.partie.why_not(answer)
        verdict = grade(e, answer)
        assert reason and verdict.grade is Grade.ILLEGAL and verdict.reason == reason
        assert verdict.said == f"Not allowed: {reason}."
    out, buf = console()
    run([lead], out, scripted("AS", "quit"))
    reason = lead.partie.why_not(Play(1, Card.parse("AS")))
    assert reason is not None and f"Not allowed: {reason.replace('AS', 'A♠')}." in buf.getvalue()


def test_declarations_are_typed_by_their_cards_or_their_number(annotated: Path) -> None:
    partie, notes = record.loads_annotated(annotated.read_text(encoding="utf-8"))
    assert notes is not None
    quart, tierce = CardSet.parse("KS QS JS TS"), CardSet.parse("AC KC QC")
    both = Declare(1, Category.SEQUENCES, (quart, tierce))
    note = record.Annotation(1, 4, Declare(1, Category.SEQUENCES, (quart,)), 1.0, both, 4.0, 3.0, "", "")
    [e] = exercises(partie, replace(notes, notes=(note,)), "Bill")
    assert read_answer(e, "KS QS JS TS / AC KC QC") == both
    assert read_answer(e, "ac kc qc ks qs js ts") == both  # all together: the legal declaration of those cards
    assert read_answer(e, "good") == Declare(1, Category.SEQUENCES, ())
    out, buf = console()
    run([e], out, scripted("1"))
    assert "Right: declaring K♠ Q♠ J♠ 10♠ and A♣ K♣ Q♣ for sequences is the best here." in buf.getvalue()


def test_show_me_gives_the_best_and_why(annotated: Path) -> None:
    lead = bills(annotated)[2]
    said = show_me(lead)
    assert said.startswith("The best: leading the K♣, worth −15 points to Bill against −21 points for the play made.")
    assert said.endswith(lead.text)
    out, buf = console()
    assert run([lead], out, scripted("JD", "show me")) == 0
    text = buf.getvalue()
    assert "Not the best: leading the J♦" in text
    assert text.index("Not the best") < text.index("The best: leading the K♣")
    assert "Your answer: Leading the J♦ rather than the K♣" in text  # the answer explained against the best


def test_without_the_review_s_lens_another_answer_is_not_graded(annotated: Path) -> None:
    partie, notes = record.loads_annotated(annotated.read_text(encoding="utf-8"))
    assert notes is not None
    lead = exercises(partie, replace(notes, lens=None), "Bill")[2]
    verdict = grade(lead, read_answer(lead, "QC"))
    assert verdict.grade is Grade.UNGRADED and "cannot be graded without a new review" in verdict.said
    assert "show me" in verdict.said and grade(lead, read_answer(lead, "KC")).grade is Grade.RIGHT


def test_a_record_without_a_review_gives_a_clear_error(plain: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(NoReviewError, match="piquet analyse"):
        load_exercises(plain.read_text(encoding="utf-8"))
    assert main(["exercises", str(plain)]) == 1
    err = capsys.readouterr().err
    assert f"{plain} holds no review" in err and f"piquet analyse {plain} -o ANNOTATED.json" in err


def test_the_command_reads_answers_from_standard_input(annotated: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("9H 7H 7D 8C\n1\nshow me\n"))
    assert main(["exercises", str(annotated), "--player", "bill", "--count", "3"]) == 0
    out = capsys.readouterr().out
    assert "3 of Bill's worst decisions" in out and "Exercise 3 of 3" in out
    assert out.count("Right:") == 2 and "The best: leading the K♣" in out and "Found 2 of 3" in out
    assert main(["exercises", str(annotated), "--player", "Zed"]) == 2
    assert "'Zed' is not a player" in capsys.readouterr().err
    assert main(["exercises", str(annotated)]) == 0  # Ann, the first player, lost nothing
    assert "Nothing to practise" in capsys.readouterr().out


def test_an_auction_call_is_practised_and_graded_as_the_review_valued_it() -> None:
    """Lunn's auction: a pass that lost the contract is offered again; the best call is right, another call is
    valued again on the review's own deal, a call the auction does not allow is refused with the engine's
    reason."""
    from piquet.ai.agent import play_deal
    from piquet.ai.levels import make_agent

    partie = Partie(("Ann", "Bill"), "auction", first_dealer=0)
    play_deal(partie, [make_agent("level2", 1), make_agent("level3", 2)], random.Random(3))
    text = annotated_record(record.dumps(partie), review_partie(partie, Lens.OPEN))
    calls = [e for e in load_exercises(text, player="Ann", count=10) if e.kind == "call"]
    assert calls and calls[0].task == "Find a better call"
    exercise = calls[0]
    assert grade(exercise, exercise.best).grade is Grade.RIGHT
    assert grade(exercise, exercise.choice).grade is Grade.WRONG
    other = next(a for a in exercise.partie.legal_actions(exercise.seat)
                 if a not in (exercise.best, exercise.choice))
    assert isinstance(other, Bid)
    verdict = grade(exercise, read_answer(exercise, other.call))
    assert verdict.grade in (Grade.RIGHT, Grade.WRONG) and verdict.review is not None
    refused = grade(exercise, read_answer(exercise, "7-"))
    assert refused.grade is Grade.ILLEGAL and refused.reason and "higher than" in refused.reason
