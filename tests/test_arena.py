"""``piquet arena``: mirrored deals between computer players, their statistics and ratings."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from piquet.engine.actions import Deal
from piquet.measure import arena
from piquet.ui.cli import main


@pytest.fixture(scope="module")
def ten_deals() -> arena.ArenaResult:
    return arena.run_arena(["random", "simple"], count=10, seed=7, jobs=1)


def test_same_results_with_one_or_two_processes(ten_deals: arena.ArenaResult) -> None:
    two = arena.run_arena(["random", "simple"], count=10, seed=7, jobs=2)
    assert two.to_json() == ten_deals.to_json()
    other_seed = arena.run_arena(["random", "simple"], count=10, seed=8, jobs=1)
    assert other_seed.to_json()["pairs"] != ten_deals.to_json()["pairs"]


@pytest.mark.slow
def test_simple_beats_random_with_a_confidence_interval(ten_deals: arena.ArenaResult) -> None:
    (pair,) = ten_deals.pairs
    s = pair.summary
    assert (pair.first, pair.second, s.samples, s.games) == ("random", "simple", 10, 20)
    assert s.won + s.lost + s.tied == 20
    assert s.low is not None and s.high is not None
    assert s.low < s.mean < s.high < 0  # A (random) loses points to B (simple)
    assert s.mean == pytest.approx(sum(x.diff for x in pair.samples) / 10)
    assert s.mean == pytest.approx(s.mean_first - s.mean_second)
    # Each mirrored pair is one sample: the mean of its two games' differences.
    sample = pair.samples[0]
    assert sample.diff == (sample.games[0].diff + sample.games[1].diff) / 2
    assert [g.first_seat for g in sample.games] == [0, 1]


def test_rating_table_orders_simple_above_random(ten_deals: arena.ArenaResult) -> None:
    top, bottom = ten_deals.ratings
    assert (top.agent, bottom.agent) == ("simple", "random")
    assert top.rating == arena.ANCHOR_RATING > bottom.rating
    assert top.won == bottom.lost and top.games == bottom.games == 20


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_mirrored_games_deal_the_same_cards_with_the_seats_swapped(variant: str) -> None:
    task = arena.Task(0, 3, "random", "simple", variant, (), seed=11)
    one, two = arena.play_mirror(task)
    assert one.players == ("random", "simple") and two.players == ("simple", "random")
    deal_one, deal_two = one.actions[0], two.actions[0]
    assert isinstance(deal_one, Deal) and deal_one == deal_two
    assert deal_one == arena.mirrored_deal(11, 3, variant)
    # Seat 0 (the non-dealer) held the same hand: random's in the first game, simple's in the second.
    assert deal_one.player == arena.DEALER == 1
    assert len(one.deal_scores) == len(two.deal_scores) == 1
    sample = arena.run_task(task)
    assert sample.games[0].points == tuple(one.deal_scores[0].totals)
    assert sample.games[1].points == tuple(reversed(two.deal_scores[0].totals))


def test_every_pair_sees_the_same_deals() -> None:
    a = arena.play_mirror(arena.Task(0, 5, "random", "simple", seed=2))[0]
    b = arena.play_mirror(arena.Task(2, 5, "simple", "simple", seed=2))[0]
    assert a.actions[0] == b.actions[0]
    assert b.players == ("simple (A)", "simple (B)")


def test_mirrored_parties() -> None:
    one, two = arena.play_mirror(arena.Task(0, 0, "random", "simple", seed=4, parties=True))
    assert one.is_over and two.is_over
    deals_one = [a for a in one.actions if isinstance(a, Deal)]
    deals_two = [a for a in two.actions if isinstance(a, Deal)]
    shared = min(len(deals_one), len(deals_two))
    assert shared >= 6 and deals_one[:shared] == deals_two[:shared]
    result = arena.run_arena(["random", "simple"], count=2, seed=4, jobs=1, parties=True)
    s = result.pairs[0].summary
    assert (s.samples, s.games, s.won + s.lost + s.tied) == (2, 4, 4)
    assert s.lost >= 3  # simple wins (nearly) every partie against random
    game = result.pairs[0].samples[0].games[0]
    assert game.deals >= 6 and max(game.points) > 0


def test_cli_prints_the_summary(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "arena.json"
    code = main(["arena", "random", "simple", "--deals", "4", "--jobs", "1", "--json", str(out_file)])
    assert code == 0
    captured = capsys.readouterr()
    out = captured.out
    assert "$ piquet arena random simple --deals 4 --variant rubicon --seed 0" in out
    assert "random vs simple" in out and "95% CI" in out
    assert "Ratings" in out and "simple" in out
    assert "4/4" in captured.err  # the progress line
    data = json.loads(out_file.read_text(encoding="utf-8"))
    assert data["command"].startswith("piquet arena random simple")
    (pair,) = data["pairs"]
    assert len(pair["samples"]) == 4 and pair["summary"]["games"] == 8
    assert [r["agent"] for r in data["ratings"]] == ["simple", "random"]


def test_cli_parties(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "random", "simple", "--deals", "2", "--parties", "--jobs", "1", "-q"]) == 0
    captured = capsys.readouterr()
    assert "settlement points per partie" in captured.out and "2 mirrored parties" in captured.out
    assert captured.err == ""


def test_cli_bad_agent(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "random", "nobody", "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert "unknown agent 'nobody'" in err and "random" in err and "simple" in err
    assert main(["arena", "simple"]) == 2
    assert "at least two agents" in capsys.readouterr().err
    assert main(["arena", "random", "simple", "--option", "minimum_point=99"]) == 2
    assert "minimum_point" in capsys.readouterr().err


def test_ratings_of_three_agents() -> None:
    def pair(first: str, second: str, won: int, lost: int) -> arena.PairResult:
        summary = arena.PairSummary(10, won + lost, 0.0, 0.0, None, None, won, lost, 0, 0.0, 0.0)
        return arena.PairResult(first, second, [], summary)

    table = arena.ratings(["a", "b", "c"], [pair("a", "b", 15, 5), pair("b", "c", 15, 5), pair("a", "c", 18, 2)])
    assert [r.agent for r in table] == ["a", "b", "c"]
    assert table[0].rating == arena.ANCHOR_RATING  # no "simple": the first agent is the anchor
    even = arena.ratings(["x", "y"], [pair("x", "y", 10, 10)], anchor="y")
    assert [round(r.rating) for r in even] == [1500, 1500]


def _die(task: arena.Task) -> arena.Sample:
    os._exit(1)  # as a worker killed by the operating system


def test_a_dead_worker_stops_the_arena_with_an_error_not_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker killed mid-game (once: for want of memory) left a pool waiting for ever for its
    answer; the arena now says so and stops."""
    monkeypatch.setattr(arena, "run_task", _die)
    with pytest.raises(arena.WorkerDiedError, match="out of memory"):
        arena.run_arena(["simple", "random"], 4, jobs=2)


def test_cli_ray_without_ray_says_what_to_install(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as on a machine without Ray
    assert main(["arena", "random", "simple", "--deals", "2", "--ray"]) == 2
    assert "needs Ray: pip install 'piquet[research]'" in capsys.readouterr().err


def test_cli_ray_address() -> None:
    from piquet.ui.cli import build_parser

    parse = build_parser().parse_args
    assert parse(["arena", "random", "simple"]).ray is None  # the process pool
    assert parse(["arena", "random", "simple", "--ray"]).ray == "local"  # start Ray here
    assert parse(["arena", "random", "simple", "--ray", "auto"]).ray == "auto"
    assert parse(["arena", "--ray", "ray://head:10001", "random", "simple"]).ray == "ray://head:10001"
