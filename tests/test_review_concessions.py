"""The review of concession decisions (the rulings, 18; Cavendish's Case XXII as an option): conceding or playing
on, accepting a concession or declining it, valued by the partie's stakes; graded in the review, its JSON, a hint's
reason and the tutor's check."""

from __future__ import annotations

import functools
import random

import pytest
from helpers import ANN, BILL, SinkingAgent, agents

from piquet.ai.agent import play_deal
from piquet.ai.hints import check, hint
from piquet.ai.levels import partie_utility
from piquet.ai.review import (
    ACCEPT,
    CONCEDE,
    DECLINE,
    PLAY_ON,
    Lens,
    Part,
    explain_concession,
    principal_line,
    review_concession,
    review_partie,
)
from piquet.ai.solver import position_from_partie, solve
from piquet.engine.actions import AcceptConcession, Concede, Play
from piquet.engine.partie import Partie, Phase
from piquet.engine.record import dumps, loads

NAMES = ("Ann", "Bill")
FEW = (8, 40, 8)


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
    assert entry.kind == "concession" and entry.seat == loser and entry.concession is not None
    assert entry.concession.choice == CONCEDE and entry.explanation
    assert review.summary(loser, "concession").choices == 1 and not review.not_reviewed
    data = review.to_json()
    (said,) = data["concessions"]  # type: ignore[misc]
    assert said["choice"] == "concede" and {v["option"] for v in said["values"]} == {"concede", "play on"}
    assert said["utility"] == list(entry.concession.utility)
    # Played on: the first card is reviewed, and the loser's not conceding beside it.
    played = p.copy()
    played.push(next(a for a in played.legal_actions(played.elder) if isinstance(a, Play)))
    review = review_partie(played, Lens.OPEN, deal=6, luck=False)
    (entry,) = review.concessions
    assert entry.concession is not None and entry.concession.choice == PLAY_ON and entry.text == \
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
