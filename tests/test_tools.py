"""The measuring tools under tools/: they run, and the all-knowing player of the headroom tool
leaves the game exactly as it found it while it looks ahead."""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest
from helpers import load_tool

from piquet.ai.inference import Inference
from piquet.engine.actions import Exchange
from piquet.engine.partie import Partie, Phase

TOOLS = Path(__file__).resolve().parent.parent / "tools"


_load = load_tool


def test_headroom_exchange_looks_ahead_without_changing_the_game() -> None:
    headroom = _load("headroom")
    partie = Partie(("Ann", "Bill"), first_dealer=0)
    partie.push(partie.random_deal(random.Random(8), packets=3))
    while partie.phase is not Phase.EXCHANGE:  # carte blanche questions, if any
        seat = partie.to_act
        assert seat is not None
        partie.push(next(iter(partie.legal_actions(seat))))
    seat = partie.to_act
    assert seat is not None
    before = (partie.view(0), partie.view(1), partie.legal_actions(seat).list())
    agent = headroom.Clairvoyant("level4:exchange=20,candidates=6", 1, partie, exchange=True)
    action = agent.choose(partie.view(seat), partie.legal_actions(seat))
    assert isinstance(action, Exchange) and action in partie.legal_actions(seat)
    assert (partie.view(0), partie.view(1), partie.legal_actions(seat).list()) == before


def test_headroom_plays_a_mirrored_deal_in_every_mode() -> None:
    headroom = _load("headroom")
    for mode in range(3):
        points = headroom.one_deal(("level3", "simple", 0, 3, mode))
        assert -250 < points < 250


def test_discard_model_tool_scores_the_uniform_sampler() -> None:
    tool = _load("discard_model")
    partie = next(p for p in map(tool.exchanged_deal, range(10)) if p is not None)
    elder = partie.elder
    worlds = Inference(partie.view(1 - elder)).resample(random.Random(1), 20, beta=0)
    loss, cards = tool.log_loss(worlds, partie)
    assert cards >= 8 and 0 < loss / cards < 1.5


def test_exchange_regret_brings_deals_to_elders_then_youngers_exchange() -> None:
    tool = _load("exchange_regret")
    elder_view = tool.exchange_view(1, 0)
    younger_view = tool.exchange_view(1, 1)
    assert elder_view is not None and elder_view.seat == elder_view.elder
    assert younger_view is not None and younger_view.seat != younger_view.elder
    assert younger_view.exchanged[younger_view.elder] is not None


def test_exchange_regret_judges_every_candidate_and_never_regrets_the_best() -> None:
    tool = _load("exchange_regret")
    position = tool.judge((1, 0, 2, 20, 4, 4))
    assert position is not None and len(position.worths) == 4
    assert all(0 <= c < 4 for c in position.chosen)
    assert all(position.regret(m) >= 0 for m in range(len(tool.METHODS)))
    best = max(range(4), key=lambda i: position.worths[i])
    assert tool.Position(False, position.worths, (best, best)).regret(1) == 0


def test_exchange_regret_held_out_judges_each_halfs_best_on_the_other_half() -> None:
    tool = _load("exchange_regret")
    # Candidate 0 looks best on the first half and is worst on the second; the method chose 1.
    position = tool.Position(False, (1.5, 1.0), (0, 1), ((3.0, 0.0), (0.0, 2.0)))
    assert position.regret(1) == 0.5  # flattered: candidate 0's average over both halves
    assert position.held_out_regret(1) == ((0.0 - 2.0) + (0.0 - 0.0)) / 2  # honest: the method is better
    position = tool.judge((1, 0, 4, 20, 4, 2))  # the method tries two of the four candidates
    assert position is not None and position.chosen[1] < 2 and len(position.halves[0]) == 4


def test_compare_runs_pairs_the_deals_both_runs_played(tmp_path: Path) -> None:
    tool = _load("compare_runs")

    def run(diffs: dict[int, float], seed: int = 5) -> Path:
        path = tmp_path / f"run{len(list(tmp_path.iterdir()))}.json"
        samples = [{"index": i, "diff": d} for i, d in diffs.items()]
        path.write_text(json.dumps({"variant": "auction", "seed": seed, "mode": "deals",
                                    "pairs": [{"first": "a", "second": "b", "samples": samples}]}))
        return path

    before = tool.samples(json.loads(run({0: 1.0, 1: 3.0, 2: 5.0}).read_text()), None, "x")
    after = tool.samples(json.loads(run({0: 2.0, 1: 5.0, 3: 9.0}).read_text()), "a,b", "y")
    n, a, b, diff, half = tool.compare(before, after)
    assert (n, a, b, diff) == (2, 2.0, 3.5, 1.5) and half > 0
    assert tool.main([str(run({0: 1.0, 1: 2.0})), str(run({0: 2.0, 1: 2.0}))]) == 0
    with pytest.raises(SystemExit, match="differ in seed"):
        tool.main([str(run({0: 1.0, 1: 2.0})), str(run({0: 1.0, 1: 2.0}, seed=6))])


def test_fit_trick_estimate_solves_contracts_as_a_holder_plays_them() -> None:
    sys.path.insert(0, str(TOOLS))  # the tool imports its sibling fit_play_estimate
    try:
        tool = _load("fit_trick_estimate")
    finally:
        sys.path.remove(str(TOOLS))
    for seed in range(2):
        minus, holder, other, tricks = tool.solved_contract(seed)
        assert holder.bit_count() == other.bit_count() == 12 and not holder & other
        assert 0 <= tricks <= 12
        assert len(tool.trick_features(holder, other, minus)) == len(tool.TRICK_WEIGHTS[minus])


@pytest.mark.slow
def test_last_deal_plays_only_parties_with_the_rubicon_settled() -> None:
    last_deal = _load("last_deal")
    assert last_deal._settled((160, 30), 100) == 0 and last_deal._settled((30, 160), 100) == 1
    assert last_deal._settled((110, 95), 100) is None and last_deal._settled((120, 80), 100) is None
    assert last_deal._settled((160, 85), 100, reach=True) == 0  # the loser within reach of 100
    assert last_deal._settled((160, 30), 100, reach=True) is None
    found = [last_deal.one_partie(("level3", "level3:declare=0", "simple", i, 1, False)) for i in range(8)]
    settled = [g for g in found if g is not None]
    assert settled, "some of eight parties reach a settled last deal"
    assert all(isinstance(x, int) for g in settled for x in g)
    # The same setting on both sides: every game played alike, no difference.
    same = [last_deal.one_partie(("level3", "level3", "simple", i, 1, False)) for i in range(4)]
    assert all(g == (0, 0) for g in same if g is not None)


def test_sprt_oc_tool_simulates_the_arena_s_test() -> None:
    from piquet.measure.sprt import Sprt

    tool = _load("sprt_oc")
    test = Sprt(0.0, 2.0)
    assert tool.fixed_size(test, 10.0) == 271  # ((1.645 + 1.645) · 10 / 2)²
    clear = tool.simulate(test, 4.0, 10.0, runs=40)
    assert clear.h1 >= 0.9 and 30 <= clear.samples_median < 271
    assert tool.simulate(test, -2.0, 10.0, runs=40).h1 <= 0.1


def test_the_screenshots_tool_makes_each_picture_of_the_docs() -> None:
    shots = _load("screenshots")
    docs = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
    assert {p.name for p in docs.glob("*.png")} <= set(shots.PICTURES)
    assert shots.selections(["french"]) == [("tests/test_web_french.py", "desktop")]
    with pytest.raises(SystemExit):
        shots.main(["nonesuch"])


@pytest.mark.browser
def test_the_screenshots_tool_names_one_browser_test_for_each_picture() -> None:
    """Each test the tool runs for a picture exists: pytest collects exactly one test for its selection. (A browser
    test: it collects the browser tests, one pytest a picture, some 50 s of CPU.)"""
    import subprocess

    shots = _load("screenshots")
    # A browser test's module skips itself where chromium, Playwright or axe-core (npm ci) is missing, as on a
    # fresh clone: its tests cannot be collected there. Where the browser tests must run (CI), they must be.
    unchecked = []
    for test in shots.selections([]):
        listed = subprocess.run([*shots.command(test, collect_only=True), "-rs"], cwd=shots.ROOT, capture_output=True,
                                text=True, check=False).stdout
        found = [line for line in listed.splitlines() if "::" in line]
        if not found and "SKIPPED" in listed and not os.environ.get("PIQUET_REQUIRE_BROWSER"):
            unchecked.append(f"{test[0]}: {listed.strip().splitlines()[-2]}")
            continue
        assert len(found) == 1, (test, listed)
    if unchecked:
        pytest.skip("browser tests skipped here, their selection unchecked: " + "; ".join(unchecked))


def test_reckoning_worlds_tool_finds_no_world_against_what_she_scored(capsys: pytest.CaptureFixture[str]) -> None:
    tool = _load("reckoning_worlds")
    assert tool.main(["--measure", "worlds", "--deals", "3", "--samples", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["rubicon", "auction", "au-cent"]
    assert all(" 0 of " in line and "(0.0%)" in line for line in lines)


@pytest.mark.slow  # a whole partie (or several): the inner loop leaves it to CI
def test_fingerprint_is_the_same_twice_and_moves_when_the_engine_says_something_else() -> None:
    fingerprint = _load("fingerprint")
    first = fingerprint.fingerprint("rubicon", 2)
    assert first == fingerprint.fingerprint("rubicon", 2)
    assert first != fingerprint.fingerprint("rubicon", 2, seed=7)
    assert fingerprint.fingerprint("auction", 1) != fingerprint.fingerprint("au-cent", 1)


def test_fingerprint_writes_a_score_event_as_its_words_and_anything_else_as_its_repr() -> None:
    from piquet.engine.scoring import PlainReason, ScoreCategory, ScoreEvent

    fingerprint = _load("fingerprint")
    event = ScoreEvent(1, 30, ScoreCategory.PIQUE, PlainReason.PIQUE)
    value = [("events", (event,)), ("totals", (3, 4)), ("options", {"minimum_point": 4}), ("trick", ())]
    assert fingerprint._text(value) == (
        "[('events', (ScoreEvent(player=1, points=30, category=<ScoreCategory.PIQUE: 'pique'>, reason='pique'),)), "
        "('totals', (3, 4)), ('options', {'minimum_point': 4}), ('trick', ())]")
