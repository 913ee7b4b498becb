"""The ``piquet replay`` command."""

from __future__ import annotations

import json
from pathlib import Path

from piquet.ui.cli import main

RECORDS = Path(__file__).parent / "records"


def test_replay_cli_prints_commentary_and_scores(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["replay", str(RECORDS / "rubicon-deal.json")]) == 0
    out = capsys.readouterr().out
    assert "Ann" in out and "Bill" in out
    assert "22" in out and "18" in out
    assert "Point of six" in out or "point of six" in out.lower()


def test_replay_cli_json(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["replay", "--json", str(RECORDS / "rubicon-deal.json")]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = json.loads((RECORDS / "rubicon-deal.scores.json").read_text())
    assert data["deals"][0]["scores"] == expected[0]["scores"]
    assert data["totals"] == {"Ann": 22, "Bill": 18}
    assert data["finished"] is False


def test_replay_cli_bad_record_exit_1_naming_the_index(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    data = json.loads((RECORDS / "rubicon-deal.json").read_text())
    data["deals"][0]["actions"][9]["play"] = "AS"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "deal 1, action 9" in err


def test_replay_cli_missing_file(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["replay", str(tmp_path / "none.json")]) != 0


def test_replay_cli_finished_partie_shows_result(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["replay", "--json", str(RECORDS / "drawn-after-eight.json")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["finished"] is True and data["result"]["winner"] is None
    assert len(data["deals"]) == 8


def test_a_player_called_you_is_spoken_to_in_the_second_person(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """``piquet play`` names the person "You": its record replayed and analysed reads "You cut", "You play",
    "You win", never "You cuts"; and "1 choice", never "1 choices" (issue 32, item 9)."""
    import random
    import re

    from piquet.ai.agent import RandomAgent, play_partie
    from piquet.engine import record

    partie = play_partie([RandomAgent(random.Random(1)), RandomAgent(random.Random(2))], random.Random(3),
                         players=("You", "Computer"))
    path = tmp_path / "you.json"
    path.write_text(record.dumps(partie), encoding="utf-8")
    third_person = re.compile(r"\bYou (is|was|has|[a-z]+[^s]s)\b|\bYou's\b|\b1 [a-z]+s\b")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "You cut " in out and "You play " in out and re.search(r"You win (the partie|\.|;)", out) is not None
    assert not third_person.findall(out), third_person.findall(out)[:5]
    assert main(["analyse", str(path), "--deal", "1", "--worlds", "2"]) == 0
    out = capsys.readouterr().out
    assert " in 1 choice (" in out
    assert not third_person.findall(out), third_person.findall(out)[:5]
