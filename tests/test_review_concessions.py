"""The review of concession decisions (the rulings, 18; Cavendish's Case XXII as an option): conceding or playing
on, accepting a concession or declining it, valued by the partie's stakes; graded in the review, its JSON, a hint's
reason and the tutor's check."""

from __future__ import annotations

import functools
import json
import random
from typing import Any, cast

import pytest
from helpers import ANN, BILL, SinkingAgent, agents
from schema_helpers import validate_record

from piquet.ai.agent import play_deal
from piquet.ai.levels import partie_utility
from piquet.ai.solver import position_from_partie, solve
from piquet.coach.annotate import annotated_record, review_annotations
from piquet.coach.hints import Worlds, check, hint
from piquet.coach.review import (
    ACCEPT,
    CONCEDE,
    DECLINE,
    PLAY_ON,
    ConcessionAnswerReviewed,
    ConcessionReviewed,
    Lens,
    Part,
    explain_concession,
    principal_line,
    review_concession,
    review_partie,
)
from piquet.engine.actions import AcceptConcession, Concede, Play
from piquet.engine.partie import Partie, Phase
from piquet.engine.record import PLAY_ON as PLAY_ON_WORD
from piquet.engine.record import Annotations, RecordError, deal_actions, dumps, loads, loads_annotated

NAMES = ("Ann", "Bill")
FEW = Worlds(8, 40, 8, 8)


@functools.cache
def _at_the_last_first_lead(options: str = "{}", seed: int = 0) -> Partie:
    """Five quiet deals (nobody declares), then the sixth brought to elder's first lead (kept: copy it). Seed 0:
    younger is the loser, 47 to 92; seed 6: elder, 47 to 78."""
    p = Partie(NAMES, options=None)
    for d in range(5):
        play_deal(p, agents(seed * 10 + d, SinkingAgent), random.Random(seed * 10 + d))
    p = loads(dumps(p).replace('"options": {}', f'"options": {options}'))
    sinking = agents(99, SinkingAgent)
    p.push(p.random_deal(random.Random(5)))
    while p.phase is not Phase.PLAY:
        seat = p.to_act
        assert seat is not None
        p.push(sinking[seat].choose(p.view(seat), p.legal_actions(seat)))
    return p


def _loser(p: Partie) -> int:
    return next(seat for seat in (ANN, BILL) if p.can(Concede(seat)))


def test_conceding_is_worth_the_opponent_s_thirteen_and_ten_by_the_stakes_and_playing_on_the_solved_play() -> None:
    p = _at_the_last_first_lead().copy()
    loser = _loser(p)
    review = review_concession(p, loser, CONCEDE, Lens.OPEN)
    u = partie_utility(p.view(loser), p.rules)
    mine = u if loser == 0 else (-u[1], -u[0])
    assert review.utility == mine
    assert review.parts[CONCEDE] == {Part.PLAY: 13 * mine[1], Part.CARDS: 10 * mine[1]}
    # Playing on: elder's best card solved with every card known, from the loser's side, by the same stakes.
    position = position_from_partie(p, u)
    best = solve(position, p.rules).value
    assert review.values[PLAY_ON] == pytest.approx(best if loser == p.elder else -best)
    for option, parts in review.parts.items():
        assert sum(parts.values()) == pytest.approx(review.values[option])
    line = principal_line(position, solve(position, p.rules).best[0], p.rules)
    assert sum(line.parts.values()) == best
    top = max(review.values.values())
    assert review.loss == pytest.approx(top - review.values[CONCEDE])
    assert review.best == max(review.values, key=lambda o: review.values[o]) or review.loss == 0


def test_a_concession_and_playing_on_are_graded_in_the_partie_s_review_and_its_json() -> None:
    p = _at_the_last_first_lead().copy()
    loser = _loser(p)
    conceded = p.copy()
    conceded.push(Concede(loser))
    review = review_partie(conceded, Lens.OPEN, deal=6, luck=False)
    (entry,) = review.concessions
    assert type(entry) is ConcessionReviewed and entry.seat == loser and entry.kind == "concession"
    assert entry.review.choice == CONCEDE and entry.explanation
    assert review.summary(loser, "concession").choices == 1
    data = review.to_json()
    (said,) = cast(list[dict[str, Any]], data["concessions"])
    assert said["choice"] == "concede" and {v["option"] for v in said["values"]} == {"concede", "play on"}
    assert said["utility"] == list(entry.review.utility)
    # Played on: the first card is reviewed, and the loser's not conceding beside it.
    played = p.copy()
    played.push(next(a for a in played.legal_actions(played.elder) if isinstance(a, Play)))
    review = review_partie(played, Lens.OPEN, deal=6, luck=False)
    (entry,) = review.concessions
    assert entry.review is not None and entry.review.choice == PLAY_ON and entry.text == \
        f"{NAMES[loser]} plays on"


def test_accepting_or_declining_a_concession_is_reviewed_where_the_option_allows_declining() -> None:
    p = _at_the_last_first_lead('{"concession_may_be_declined": true}').copy()
    loser = _loser(p)
    p.push(Concede(loser))
    assert p.phase is Phase.CONCESSION
    review = review_concession(p, 1 - loser, DECLINE, Lens.OPEN)
    u = partie_utility(p.view(1 - loser), p.rules)
    mine = u if loser == 1 else (-u[1], -u[0])
    assert review.values[ACCEPT] == 23 * mine[0]
    assert set(review.values) == {ACCEPT, DECLINE}
    assert "the concession" in explain_concession(review, NAMES)
    p.push(AcceptConcession(1 - loser, False))
    reviewed = review_partie(p, Lens.OPEN, deal=6, luck=False)
    assert [r.kind for r in reviewed.concessions] == ["concession", "answer to a concession"]


def test_a_concession_decision_that_is_not_there_is_refused_naming_the_player_and_why() -> None:
    p = _at_the_last_first_lead().copy()
    winner = 1 - _loser(p)
    with pytest.raises(ValueError, match=f"{NAMES[winner]} may not concede here: .*only the loser may concede"):
        review_concession(p, winner, CONCEDE)
    with pytest.raises(ValueError, match="to concede or to play on, not 'accept'"):
        review_concession(p, 1 - winner, ACCEPT)


def test_the_fair_lens_values_playing_on_over_the_hands_the_view_allows() -> None:
    p = _at_the_last_first_lead().copy()
    loser = _loser(p)
    review = review_concession(p, loser, PLAY_ON, Lens.FAIR, 6, random.Random(2))
    assert review.worlds == 6 and review.lens is Lens.FAIR
    assert explain_concession(review, NAMES).startswith(("Playing on", "Playing on rather than conceding"))


def test_the_tutor_checks_elder_s_concession_and_a_hint_weighs_conceding() -> None:
    p = _at_the_last_first_lead(seed=6).copy()
    loser = _loser(p)
    assert loser == p.elder == p.to_act
    review = review_concession(p, loser, CONCEDE, Lens.FAIR, FEW[0], random.Random(0))
    warning = check(p, Concede(loser), threshold=0.0, budget=0, worlds=FEW)
    assert (warning is None) == (review.loss == 0)
    if warning is not None:
        assert warning.kind == "concession" and isinstance(warning.better, Play) and warning.better in p.legal_actions()
        assert warning.loss == pytest.approx(review.loss) and warning.reason == explain_concession(review, NAMES)
    assert check(p, Concede(loser), threshold=review.loss + 1, budget=0, worlds=FEW) is None
    advice = hint(p, budget=0, worlds=FEW)
    assert advice is not None
    assert advice.kind == ("concession" if review.best == CONCEDE else "play")
    assert "conceding" in advice.reason.lower()


def test_the_tutor_leaves_younger_s_concession_out_of_turn_unchecked() -> None:
    p = _at_the_last_first_lead().copy()
    loser = _loser(p)
    assert loser != p.to_act
    assert check(p, Concede(loser), threshold=0.0, budget=0, worlds=FEW) is None


# ---------------------------------------------------------------- the annotated record


def _annotated(p: Partie) -> tuple[str, Annotations]:
    """``p``'s record annotated with its last deal's review (open hands), checked against the schema, re-played
    and read back equal; the text and the annotations."""
    review = review_partie(p, Lens.OPEN, deal=6, luck=False)
    text = annotated_record(dumps(p), review)
    validate_record(json.loads(text))
    again, notes = loads_annotated(text)
    assert notes is not None and notes == review_annotations(review, p)
    assert again.actions == p.actions
    return text, notes


def _played_on() -> Partie:
    p = _at_the_last_first_lead().copy()
    p.push(next(a for a in p.legal_actions(p.elder) if isinstance(a, Play)))
    return p


def test_annotation_of_playing_on_is_a_concession_decision_before_elder_s_first_card() -> None:
    p = _played_on()
    loser = _loser(_at_the_last_first_lead())
    first = len(deal_actions(p)[5]) - 1
    text, notes = _annotated(p)
    decided = notes.get(6, first, "concession")
    card = notes.get(6, first)
    assert decided is not None and card is not None and notes.notes.index(decided) + 1 == notes.notes.index(card)
    assert decided.seat == loser and decided.choice == card.choice == p.actions[-1]
    assert decided.describe(NAMES) == f"{NAMES[loser]} plays on"
    assert decided.best in (PLAY_ON_WORD, Concede(loser))
    (entry,) = review_partie(p, Lens.OPEN, deal=6, luck=False).concessions
    assert entry.review is not None
    assert (decided.value, decided.loss, decided.mark, decided.text) == (
        entry.review.values[PLAY_ON], entry.review.loss, entry.review.mark, entry.explanation)
    written = json.loads(text)["meta"]["review"]["annotations"]
    assert {"deal": 6, "action": first, "decision": "concession", "player": NAMES[loser]}.items() <= \
        written[notes.notes.index(decided)].items()


def test_annotation_of_a_concession_names_playing_on_as_the_best_where_it_was() -> None:
    p = _at_the_last_first_lead().copy()
    loser = _loser(p)
    p.push(Concede(loser))
    text, notes = _annotated(p)
    note = notes.get(6, len(deal_actions(p)[5]) - 1)
    (entry,) = review_partie(p, Lens.OPEN, deal=6, luck=False).concessions
    assert note is not None and entry.review is not None and note.choice == Concede(loser)
    assert note.best == (PLAY_ON_WORD if entry.review.best == PLAY_ON else Concede(loser))
    assert note.best == PLAY_ON_WORD and note.mark == "??"  # this loser gives up 34 points by conceding
    assert note.describe_best(NAMES) == f"{NAMES[loser]} plays on"
    # A decision to play on cannot be where the player conceded.
    index = notes.notes.index(note)
    with pytest.raises(RecordError, match=rf"annotation {index} \(deal 6, action 8, Ann's concession decision "
                                          r"before it\): Ann conceded there: the annotation of his concession is"):
        loads_annotated(_tampered(text, index, decision="concession", player=NAMES[loser]))


def test_annotation_of_a_declined_concession_names_accepting_or_declining_as_the_best() -> None:
    p = _at_the_last_first_lead('{"concession_may_be_declined": true}').copy()
    loser = _loser(p)
    p.push(Concede(loser))
    p.push(AcceptConcession(1 - loser, False))
    _, notes = _annotated(p)
    answer = notes.get(6, len(deal_actions(p)[5]) - 1)
    assert answer is not None and answer.choice == AcceptConcession(1 - loser, False)
    (_, entry) = review_partie(p, Lens.OPEN, deal=6, luck=False).concessions
    assert isinstance(entry, ConcessionAnswerReviewed) and entry.kind == "answer to a concession"
    assert answer.best == AcceptConcession(1 - loser, entry.review.best == ACCEPT) and answer.decision is None
    assert (answer.value, answer.best_value) == (entry.review.values[DECLINE],
                                                 entry.review.values[entry.review.best])


@pytest.fixture(scope="module")
def played_on_record() -> tuple[str, int]:
    """The annotated record of a partie played on at the last first lead, and where its concession decision is
    among the annotations (made once: each tampering test changes a copy of the text)."""
    text, notes = _annotated(_played_on())
    decided = next(n for n in notes.notes if n.decision == "concession")
    return text, notes.notes.index(decided)


def _tampered(text: str, index: int, **change: object) -> str:
    data = json.loads(text)
    item = data["meta"]["review"]["annotations"][index]
    for key, value in change.items():
        if value is None:
            item.pop(key, None)
        else:
            item[key] = value
    return json.dumps(data)


@pytest.mark.parametrize(("change", "where", "why"), [
    ({"value": 10.0}, "", "loss is 0, but best_value less value is 1.00"),
    ({"value": 20.0}, "", "the best is worth less than the choice (11.0 < 20.0)"),
    ({"value": 1.0, "loss": 10.0}, "", "the best is the choice itself ('play on'), so the loss is 0, not 10"),
    ({"player": "Bill"}, "Bill's concession decision", "Bill could not concede before Bill plays A♠, so did not "
                                                       "decide to play on: ruling 18"),
    ({"player": None}, "", "names the decision and the player who took it"),
    ({"decision": "carte blanche"}, "", "decision is 'concession'"),
    ({"best": {"play": "AS"}}, "", "the best of a decision to concede or not is {\"concede\": true} or 'play on'"),
    ({"best": "fold"}, "", "best is an action without its player, e.g. {\"play\": \"QS\"}, or 'play on'"),
    ({"action": 9}, "(deal 6, action 8)", "the order of the actions, one an action and one a decision before it, "
                                          "the decision first"),
])
def test_a_tampered_concession_decision_s_annotation_is_rejected_saying_where_and_why(
        played_on_record: tuple[str, int], change: dict[str, object], where: str, why: str) -> None:
    text, index = played_on_record
    with pytest.raises(RecordError) as caught:
        loads_annotated(_tampered(text, index, **change))
    assert caught.value.where.startswith("review, annotation ") and index == 6
    assert where in caught.value.where and why in caught.value.reason


def test_play_on_is_the_best_of_a_concession_only() -> None:
    text, notes = _annotated(_played_on())
    card = next(n for n in notes.notes if n.decision is None and isinstance(n.choice, Play))
    with pytest.raises(RecordError, match=r"annotation \d+ \(deal 6, action \d+\): the best is 'play on' only for a "
                                          r"concession, not for Bill plays"):
        loads_annotated(_tampered(text, notes.notes.index(card), best="play on", loss=0.0, value=card.best_value))
