"""The arena's sequential test (``piquet arena --sprt``): it accepts the hypothesis the data
support, at about the error rates it is designed for, and stops a real match where the seed alone
decides."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from piquet.measure import arena
from piquet.measure.sprt import MIN_SAMPLES, Sprt, SprtStream, elo_score, parse_bounds
from piquet.ui.cli import main


def _decide(test: Sprt, mean: float, sd: float, seed: int, cap: int = 100_000) -> tuple[str | None, int]:
    """Run the test on a normal stream of this mean; its decision and the samples it took."""
    rng = random.Random(seed)
    stream = SprtStream(test)
    for n in range(1, cap + 1):
        if stream.add(rng.gauss(mean, sd)) is not None:
            return stream.state().decision, n
    return None, cap


def test_a_clear_edge_is_accepted_as_h1_and_none_as_h0() -> None:
    test = Sprt(0.0, 2.0)
    # Per-deal differences spread as the arena's do (a standard deviation of some 10 points).
    assert _decide(test, 4.0, 10.0, seed=1)[0] == "H1"
    assert _decide(test, 0.0, 10.0, seed=1)[0] == "H0"
    assert _decide(test, -3.0, 10.0, seed=1)[0] == "H0"


@pytest.mark.parametrize(("mean", "wrong", "rate"), [(0.0, "H1", "alpha"), (2.0, "H0", "beta")])
def test_the_error_rates_are_about_those_designed(mean: float, wrong: str, rate: str) -> None:
    """At either hypothesis, the test takes the other in about alpha (or beta) of the runs: 400
    streams at 0.05 give 20 on average; 35 is beyond three standard deviations."""
    test = Sprt(0.0, 2.0, alpha=0.05, beta=0.05)
    decisions = [_decide(test, mean, 10.0, seed)[0] for seed in range(400)]
    assert None not in decisions
    assert decisions.count(wrong) <= 35, f"{rate}: {decisions.count(wrong)} of 400"


def test_a_larger_edge_is_decided_sooner() -> None:
    test = Sprt(0.0, 2.0)
    small = sorted(_decide(test, 2.0, 10.0, seed)[1] for seed in range(41))[20]
    large = sorted(_decide(test, 6.0, 10.0, seed)[1] for seed in range(41))[20]
    assert large < small


@given(st.lists(st.floats(-50, 50), min_size=1, max_size=MIN_SAMPLES - 1))
def test_nothing_is_decided_before_the_minimum(xs: list[float]) -> None:
    stream = SprtStream(Sprt(0.0, 2.0))
    assert [stream.add(x) for x in xs] == [None] * len(xs)


def test_the_ratio_is_that_of_two_normal_likelihoods() -> None:
    xs = [3.0, -1.0, 4.0, 1.0, -5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0, 8.0]
    stream = SprtStream(Sprt(0.0, 2.0), min_samples=100)  # no decision: every sample is taken
    for x in xs:
        stream.add(x)
    n, mean = len(xs), sum(xs) / len(xs)
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    # The log of the ratio of the two normal likelihoods, the variance estimated from the samples.
    exact = sum(((x - 0.0) ** 2 - (x - 2.0) ** 2) / (2 * var) for x in xs)
    assert stream.llr() == pytest.approx(exact)
    assert stream.state().samples == n and stream.state().mean == pytest.approx(mean)


def test_a_decision_stays() -> None:
    stream = SprtStream(Sprt(0.0, 2.0), min_samples=2)
    decisions = [stream.add(x) for x in (8.0, 9.0, 10.0, 9.0)]
    assert decisions[-1] == "H1" and stream.state().llr >= Sprt(0.0, 2.0).upper
    taken = stream.state().samples
    assert stream.add(-100.0) == "H1" and stream.state().samples == taken  # decided: nothing more taken


def test_the_bounds_are_wald_s() -> None:
    test = Sprt(0.0, 1.0, alpha=0.1, beta=0.2)
    assert test.lower == pytest.approx(math.log(0.2 / 0.9))
    assert test.upper == pytest.approx(math.log(0.8 / 0.1))


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"mu0": 1.0, "mu1": 1.0}, "two different numbers"),
    ({"mu0": 0.0, "mu1": math.nan}, "two different numbers"),
    ({"mu0": 0.0, "mu1": 1.0, "alpha": 0.0}, "alpha must lie between 0 and 0.5, not 0.0"),
    ({"mu0": 0.0, "mu1": 1.0, "beta": 0.7}, "beta must lie between 0 and 0.5, not 0.7"),
])
def test_a_bad_design_is_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Sprt(**kwargs)


@pytest.mark.parametrize("text", ["0", "0,1,2", "a,b", ""])
def test_bad_bounds_are_refused_naming_them(text: str) -> None:
    with pytest.raises(ValueError, match=f"--sprt takes two numbers.*{text!r}"):
        parse_bounds(text)


@pytest.mark.slow
def test_a_real_match_stops_once_level_3_is_clearly_better() -> None:
    """Level 3 against level 1, H0 equal against H1 two points a deal better: the test accepts H1
    long before the 200 deals, and stops at the same deal with one process or two."""
    test = Sprt(0.0, 2.0)
    two = arena.run_arena(["level3", "level1"], 200, seed=5, jobs=2, sprt=test)
    assert two.sprt is not None and two.sprt.decision == "H1"
    n = two.sprt.samples
    assert MIN_SAMPLES <= n < 200
    assert two.sprt.llr >= test.upper
    (pair,) = two.pairs
    assert [s.index for s in pair.samples] == list(range(n))
    assert pair.summary.mean > 0
    # The same deals, played in one process without the test, give the same samples: where the
    # test stopped depends on the seed, not on the order in which the workers finished.
    fixed = arena.run_arena(["level3", "level1"], n, seed=5, jobs=1)
    assert fixed.pairs[0].samples == pair.samples
    assert f"H1 accepted after {n} samples" in "\n".join(arena.format_result(two))
    assert two.to_json()["sprt"]["decision"] == "H1"


def test_a_match_without_a_decision_reports_none() -> None:
    # A player against itself, and hypotheses far apart: so few deals say nothing either way.
    result = arena.run_arena(["simple", "simple"], MIN_SAMPLES, seed=2, sprt=Sprt(-30.0, 30.0))
    assert result.sprt is not None and result.sprt.decision is None and result.sprt.samples == MIN_SAMPLES
    assert f"no decision after {MIN_SAMPLES} samples" in result.sprt.describe()


def test_cli_sprt(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "simple", "random", "--deals", "100", "--sprt", "0,2", "-j", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "--sprt 0,2 --alpha 0.05 --beta 0.05" in out and "H1 accepted after" in out
    assert main(["arena", "random", "simple", "level1", "--sprt", "0,2"]) == 2
    assert "judges one pair" in capsys.readouterr().err
    assert main(["arena", "random", "simple", "--sprt", "0,2", "--shard", "0/2"]) == 2
    assert "cannot play a shard" in capsys.readouterr().err
    assert main(["arena", "random", "simple", "--sprt", "2"]) == 2
    assert "--sprt takes two numbers" in capsys.readouterr().err
    assert main(["arena", "random", "simple", "--sprt", "0,2", "--alpha", "0.6"]) == 2
    assert "alpha must lie between" in capsys.readouterr().err


def _pair_scores(score: float, seed: int) -> Iterator[float]:
    """Mirrored pairs' scores (0, 1/4, ..., 1) of a player who wins a game with this chance, no ties."""
    rng = random.Random(seed)
    while True:
        yield sum(1.0 for _ in range(2) if rng.random() < score) / 2


@pytest.mark.parametrize(("elo", "expected"), [(60.0, "H1"), (0.0, "H0"), (-40.0, "H0")])
def test_an_elo_test_on_the_pairs_scores(elo: float, expected: str) -> None:
    test = Sprt(0.0, 30.0, elo=True)
    decisions = []
    for seed in range(21):
        stream = SprtStream(test)
        for x in _pair_scores(elo_score(elo), seed):
            if stream.add(x) is not None:
                break
        decisions.append(stream.state().decision)
    assert decisions.count(expected) >= 18, decisions


def test_the_elo_hypotheses_are_expected_scores() -> None:
    test = Sprt(-10.0, 10.0, elo=True)
    low, high = test.means
    assert low == pytest.approx(1 - high) and high == pytest.approx(1 / (1 + 10 ** (-10 / 400)))
    assert test.llr(100, 0.5, 0.1) == pytest.approx(0.0)  # an even score: halfway between
    with pytest.raises(ValueError, match="within ±2000"):
        Sprt(0.0, 5000.0, elo=True)


def test_a_sample_s_score_counts_wins_and_half_ties() -> None:
    def game(seat: int, winner: int | None) -> arena.Game:
        return arena.Game(seat, (0, 0), winner, 0)

    assert arena.Sample(0, 0, (game(0, 0), game(1, None))).score == 0.75
    assert arena.Sample(0, 0, (game(0, 1), game(1, 1))).score == 0.0


def test_cli_sprt_elo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "simple", "random", "--deals", "100", "--sprt-elo", "0,100", "-j", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "--sprt-elo 0,100" in out and "H0 0 vs H1 100 Elo" in out and "H1 accepted" in out
    with pytest.raises(SystemExit):  # one test at a time
        main(["arena", "simple", "random", "--sprt", "0,2", "--sprt-elo", "0,10"])
    assert "not allowed with argument" in capsys.readouterr().err
    assert main(["arena", "simple", "random", "--sprt-elo", "x"]) == 2
    assert "--sprt-elo takes two numbers" in capsys.readouterr().err
