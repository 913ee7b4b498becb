"""``piquet arena --shard K/N`` and ``piquet arena merge``: a run shared among machines adds up to
the same run, sample for sample; files that are not parts of one run are refused, saying why."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from piquet.measure import arena
from piquet.measure.sprt import Sprt
from piquet.ui.cli import main

AGENTS = ["random", "simple", "level1"]
COUNT = 7
SEED = 9


def _run(shard: tuple[int, int] = (0, 1)) -> arena.ArenaResult:
    command = arena.command_line(AGENTS, COUNT, "rubicon", SEED, False, shard=shard)
    return arena.run_arena(AGENTS, COUNT, seed=SEED, jobs=1, command=command, shard=shard)


def _as_file(result: arena.ArenaResult) -> dict[str, Any]:
    """The result as its results file holds it (through JSON text, as another machine would send it)."""
    data: dict[str, Any] = json.loads(json.dumps(result.to_json()))
    return data


@pytest.fixture(scope="module")
def whole() -> arena.ArenaResult:
    return _run()


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_n_shards_merged_equal_the_unsharded_run(whole: arena.ArenaResult, n: int) -> None:
    files = [(f"shard{k}.json", _as_file(_run((k, n)))) for k in range(n)]
    merged = arena.merge_results(list(reversed(files)))  # in any order
    assert merged.to_json() == whole.to_json()
    assert arena.format_result(merged) == arena.format_result(whole)


def test_a_shard_plays_the_indices_congruent_to_k_for_every_pair() -> None:
    part = _run((1, 3))
    assert [[s.index for s in p.samples] for p in part.pairs] == [[1, 4]] * 3
    assert part.to_json()["shard"] == [1, 3]
    assert "shard 1/3: the deals whose index is 1 modulo 3" in arena.format_result(part)[2]
    assert part.command.endswith("--seed 9 --shard 1/3")


@given(st.integers(1, 60), st.integers(1, 12))
def test_the_shards_partition_the_indices(count: int, n: int) -> None:
    parts = [list(arena.shard_indices(count, (k, n))) for k in range(n)]
    assert sorted(i for part in parts for i in part) == list(range(count))
    assert max(len(p) for p in parts) - min(len(p) for p in parts) <= 1


@pytest.mark.parametrize("text", ["3/3", "-1/3", "1", "a/b", "1/0", ""])
def test_a_bad_shard_is_refused_naming_it(text: str) -> None:
    with pytest.raises(ValueError, match="--shard takes K/N"):
        arena.parse_shard(text)


def test_a_shard_with_no_deal_is_refused() -> None:
    with pytest.raises(ValueError, match="no deal to play"):
        arena.run_arena(["random", "simple"], 2, shard=(3, 4))


def test_files_of_another_match_are_refused(whole: arena.ArenaResult) -> None:
    one = _as_file(_run((0, 2)))
    other = _as_file(arena.run_arena(AGENTS, COUNT, seed=SEED + 1, jobs=1, shard=(1, 2)))
    with pytest.raises(arena.MergeError, match=r"b.json is another match: its seed is 10, a.json's 9"):
        arena.merge_results([("a.json", one), ("b.json", other)])
    swapped = {**_as_file(whole), "agents": ["simple", "random", "level1"]}
    with pytest.raises(arena.MergeError, match="its agents"):
        arena.merge_results([("a.json", one), ("c.json", swapped)])


def test_a_deal_in_two_files_is_refused_naming_both() -> None:
    one, two = _as_file(_run((0, 2))), _as_file(_run((1, 2)))
    with pytest.raises(arena.MergeError, match="deal 0 of random vs simple is in both a.json and again.json"):
        arena.merge_results([("a.json", one), ("b.json", two), ("again.json", one)])


def test_missing_deals_are_listed() -> None:
    files = [(f"s{k}.json", _as_file(_run((k, 4)))) for k in (0, 1, 3)]
    with pytest.raises(arena.MergeError, match=r"2 of the 7 deals of random vs simple are in none of the files: 2, 6"):
        arena.merge_results(files)
    with pytest.raises(arena.MergeError, match="no results files"):
        arena.merge_results([])


def test_a_run_the_sequential_test_stopped_is_not_a_shard() -> None:
    stopped = arena.run_arena(["random", "simple"], 12, seed=1, sprt=Sprt(0, 1))
    with pytest.raises(arena.MergeError, match="the sequential test stopped"):
        arena.merge_results([("stopped.json", _as_file(stopped))])


def test_a_malformed_file_is_refused_naming_it(whole: arena.ArenaResult) -> None:
    data = _as_file(whole)
    del data["pairs"][0]["samples"][0]["games"][1]["points"]
    with pytest.raises(arena.MergeError, match="broken.json is not an arena's results file"):
        arena.merge_results([("broken.json", data)])
    data = _as_file(whole)
    data["pairs"][1]["samples"][2]["index"] = COUNT
    with pytest.raises(arena.MergeError, match="sample 7 of pair 1 is outside the run's 7 deals"):
        arena.merge_results([("far.json", data)])
    with pytest.raises(arena.MergeError, match="list.json is not an arena's results file"):
        arena.merge_results([("list.json", [])])  # type: ignore[list-item]


def test_cli_shards_and_merge_print_the_unsharded_summary(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    base = ["arena", "random", "simple", "--deals", "5", "--seed", "3", "-j", "1", "-q"]
    assert main(base) == 0
    unsharded = capsys.readouterr().out
    files = []
    for k in range(2):
        files.append(str(tmp_path / f"part{k}.json"))
        assert main([*base, "--shard", f"{k}/2", "-o", files[-1]]) == 0
        assert f"--shard {k}/2" in capsys.readouterr().out
    merged_file = tmp_path / "all.json"
    assert main(["arena", "merge", *files, "--json", str(merged_file)]) == 0
    assert capsys.readouterr().out == unsharded
    data = json.loads(merged_file.read_text(encoding="utf-8"))
    assert data["shard"] == [0, 1] and len(data["pairs"][0]["samples"]) == 5
    # The merged file is itself a whole run's results: merging it alone gives the same again.
    assert main(["arena", "merge", str(merged_file)]) == 0
    assert capsys.readouterr().out == unsharded


def test_cli_merge_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["arena", "merge"]) == 2
    assert "name the results files" in capsys.readouterr().err
    assert main(["arena", "merge", "a.json", "--shard", "0/2", "--ray"]) == 2
    assert "--shard, --ray would change how a run is played" in capsys.readouterr().err
    assert main(["arena", "merge", str(tmp_path / "nowhere.json")]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and "nowhere.json" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert main(["arena", "merge", str(bad)]) == 2
    assert "bad.json is not JSON" in capsys.readouterr().err
    assert main(["arena", "random", "simple", "--shard", "2/2"]) == 2
    assert "--shard takes K/N" in capsys.readouterr().err


@functools.cache
def _whole_file() -> dict[str, Any]:
    return _as_file(_run())


@given(st.lists(st.integers(0, 3), min_size=COUNT * len(AGENTS), max_size=COUNT * len(AGENTS)))
def test_any_split_of_the_samples_among_files_merges_to_the_run(owners: list[int]) -> None:
    """Not only strides: however the samples were shared out (a machine that took over another's
    deals, say), the files that hold them all merge to the run."""
    whole = _whole_file()
    files = []
    for owner in sorted(set(owners)):
        part = copy.deepcopy(whole)
        for p, pair in enumerate(part["pairs"]):
            pair["samples"] = [s for s in pair["samples"] if owners[p * COUNT + s["index"]] == owner]
        files.append((f"machine{owner}.json", part))
    assert _as_file(arena.merge_results(files)) == whole


def test_shards_of_parties_merge_to_the_run() -> None:
    def run(shard: tuple[int, int]) -> arena.ArenaResult:
        return arena.run_arena(["random", "simple"], 3, seed=6, parties=True, shard=shard)

    whole = run((0, 1))
    merged = arena.merge_results([(f"p{k}.json", _as_file(run((k, 2)))) for k in range(2)])
    assert merged.to_json() == whole.to_json() and merged.parties
    assert "3 mirrored parties per pair" in arena.format_result(merged)[0]
