"""The ``piquet analyse`` command: a record played by the computer players reviewed card by card."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from piquet.ai.agent import play_partie
from piquet.ai.levels import make_agent
from piquet.coach.luck import partie_luck
from piquet.engine import record
from piquet.engine.actions import Deal, Exchange, Play
from piquet.ui.cli import main

RECORDS = Path(__file__).parent / "records"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Play]]:
    """A whole partie between levels 1 and 3, written as a record, and the cards it played."""
    partie = play_partie([make_agent("level1", 1), make_agent("level3", 2)], random.Random(8), ("Ann", "Bill"))
    path = tmp_path_factory.mktemp("analyse") / "game.json"
    path.write_text(record.dumps(partie), encoding="utf-8")
    return path, [a for a in partie.actions if isinstance(a, Play)]


def test_analyse_json_has_one_entry_per_card_played(game: tuple[Path, list[Play]],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path, plays = game
    assert main(["analyse", str(path), "--open-hands", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["lens"] == "open-hands" and data["players"] == ["Ann", "Bill"]
    assert [(p["player"], p["card"]) for p in data["plays"]] == [(("Ann", "Bill")[a.player], str(a.card))
                                                                for a in plays]
    for p in data["plays"]:
        if p["forced"]:
            assert p["best"] == p["card"] and p["loss"] == 0
            continue
        values = p["values"]
        assert p["loss"] == max(values.values()) - values[p["card"]]
        assert p["best"] in p["parts"] and p["card"] in p["parts"]
        assert sum(p["parts"][p["card"]].values()) == values[p["card"]]
        assert p["text"]
    losses = {name: sum(p["loss"] for p in data["plays"] if p["player"] == name) for name in ("Ann", "Bill")}
    assert {name: s["play"]["loss"] for name, s in data["summary"].items()} == losses
    assert not data["not_reviewed"]
    assert data["declarations"] and all(d["forced"] or d["values"] for d in data["declarations"])


def test_analyse_json_lists_every_exchange_once(game: tuple[Path, list[Play]],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = game
    partie = record.loads(path.read_text(encoding="utf-8"))
    exchanges = [a for a in partie.actions if isinstance(a, Exchange)]
    assert main(["analyse", str(path), "--open-hands", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(e["player"], e["discard"]) for e in data["exchanges"]] == [
        (("Ann", "Bill")[a.player], a.discards.strings()) for a in exchanges]
    for e in data["exchanges"]:
        assert not e["forced"] and e["play"] == "solver"
        values = {tuple(v["discard"]): v["value"] for v in e["values"]}
        assert tuple(e["discard"]) in values and tuple(e["best"]) in values
        assert e["loss"] == pytest.approx(max(values.values()) - values[tuple(e["discard"])])
        for v in e["values"]:
            assert sum(v["parts"].values()) == pytest.approx(v["value"])
        assert e["explanation"].startswith("Discarding the " if e["discard"] else "Exchanging no card")
    losses = {name: sum(e["loss"] for e in data["exchanges"] if e["player"] == name) for name in ("Ann", "Bill")}
    assert {name: s["exchange"]["loss"] for name, s in data["summary"].items()} == pytest.approx(losses)


def test_analyse_one_deal_in_words_with_the_fair_lens(game: tuple[Path, list[Play]],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = game
    assert main(["analyse", str(path), "--deal", "4", "--worlds", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "over 2 hands the opponent may hold (seed 3); the declarations over 64" in out
    assert "Deal 4" in out and "Deal 3" not in out and "Deal 5" not in out
    assert "Points lost in the play:" in out and "Points lost in the declarations:" in out
    assert "Points lost in the exchange:" in out and "Not yet reviewed" not in out
    assert "the exchanges over 1000 talons and hands" in out
    assert " 1. " in out and "12. " in out


def test_analyse_says_each_players_luck_and_result_adjusted_for_it(game: tuple[Path, list[Play]],
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = game
    partie = record.loads(path.read_text(encoding="utf-8"))
    [luck] = partie_luck(partie, 4)
    assert main(["analyse", str(path), "--deal", "4", "--open-hands"]) == 0
    out = capsys.readouterr().out
    assert "Luck in 1 deal (points of the deal: the hands dealt against the seat's average" in out
    for seat, name in enumerate(("Ann", "Bill")):
        result = luck.result(seat)
        assert result is not None
        assert (f"  {name:<4}  luck {luck.luck(seat):+.1f} (dealt {luck.deal_luck(seat):+.1f}, drawn "
                f"{luck.draw_luck(seat) - luck.draw_luck(1 - seat):+.1f}); result {result:+d}, adjusted for luck "
                f"{result - luck.luck(seat):+.1f}") in out.splitlines()


def test_analyse_says_the_luck_in_auction_piquet_too(capsys: pytest.CaptureFixture[str]) -> None:
    path = RECORDS / "auction-minus-doubled-down.json"
    [luck] = partie_luck(record.loads(path.read_text(encoding="utf-8")))
    assert main(["analyse", str(path), "--open-hands"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for seat, name in enumerate(("Ann", "Bill")):
        result = luck.result(seat)
        assert result is not None
        assert (f"  {name:<4}  luck {luck.luck(seat):+.1f} (dealt {luck.deal_luck(seat):+.1f}, drawn "
                f"{luck.draw_luck(seat) - luck.draw_luck(1 - seat):+.1f}); result {result:+d}, adjusted for luck "
                f"{result - luck.luck(seat):+.1f}") in lines


def test_analyse_shows_progress_on_a_terminal_only(game: tuple[Path, list[Play]],
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path, _ = game

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    partie = record.loads(path.read_text(encoding="utf-8"))
    first = next(i for i, a in enumerate(partie.actions) if isinstance(a, Deal))
    second = next((i for i, a in enumerate(partie.actions) if isinstance(a, Deal) and i > first), len(partie.actions))
    decisions = second - first - 1  # every action of the first deal after its Deal: exchanges, declarations, cards
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["analyse", str(path), "--deal", "1", "--open-hands"]) == 0
    assert f"analysing: decision {decisions} of {decisions}" in terminal.getvalue()
    monkeypatch.undo()
    assert main(["analyse", str(path), "--deal", "1", "--open-hands"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("content", "code", "said"), [
    (None, 2, "cannot read"),
    (b"{not json", 1, "not JSON"),
    (b"\xff\xfe", 1, "is not UTF-8 text"),
    (b'{"format": "piquet-record", "version": 2}', 1, "version 2 is not supported"),
])
def test_analyse_bad_files_give_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             content: bytes | None, code: int, said: str) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_bytes(content)
    assert main(["analyse", str(path)]) == code
    err = capsys.readouterr().err
    assert err.startswith("piquet analyse: ") and said in err


def test_analyse_an_illegal_record_names_the_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((RECORDS / "rubicon-deal.json").read_text(encoding="utf-8"))
    data["deals"][0]["actions"][9]["play"] = "AS"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["analyse", str(path)]) == 1
    assert "deal 1, action 9" in capsys.readouterr().err


def test_analyse_refuses_a_deal_the_record_lacks_and_no_worlds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(RECORDS / "rubicon-deal.json"), "--deal", "2"]) == 1
    assert "there is no deal 2: the record has 1 deal" in capsys.readouterr().err
    assert main(["analyse", str(RECORDS / "rubicon-deal.json"), "--worlds", "0"]) == 2
    assert "--worlds is at least 1" in capsys.readouterr().err
