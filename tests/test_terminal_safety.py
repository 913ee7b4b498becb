"""What ``piquet replay`` and ``piquet analyse`` print of a record made by someone else (``docs/security.md``): no
control character reaches the terminal, only a regular file is read, and a call in other digits is refused cleanly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from piquet.engine.record import RecordError, action_from_data
from piquet.engine.variants import parse_bid
from piquet.ui.cli import main, printable

RECORD = Path(__file__).parent / "records" / "rubicon-deal.json"
#: Escape sequences a name may hide: retitle the window, colour, clear the screen (C1 CSI), reorder (RLO).
HOSTILE = ("\x1b]0;owned\x07\x1b[31m", "\u009b2J\u202e\x00")


def hostile_record(tmp_path: Path) -> Path:
    data = json.loads(RECORD.read_text())
    text = json.dumps(data)
    for name, tail in zip(data["players"], HOSTILE, strict=True):
        text = text.replace(json.dumps(name), json.dumps(name + tail))
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    return path


def shown(text: str) -> bool:
    return any(c in text for c in "\x1b\x07\x00\u009b\u202e")


@pytest.mark.parametrize("command", [["replay"], ["replay", "--json"], ["analyse", "--worlds", "1", "--deal", "1"]])
def test_nothing_a_record_holds_sends_the_terminal_a_control_sequence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    path = hostile_record(tmp_path)
    assert main([*command, str(path)]) == 0
    out, err = capsys.readouterr()
    assert "Ann" in out and not shown(out) and not shown(err)


def test_printable_keeps_the_text_and_drops_the_controls() -> None:
    assert printable("Zoë\tand Ann\n") == "Zoë and Ann " and printable("\x1b[2J\u2066x\u2069") == "[2Jx"


def test_a_fifo_is_not_read_as_a_record_and_nothing_waits(tmp_path: Path) -> None:
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "piquet", "replay", str(fifo)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1 and "not a regular file" in done.stderr and "Traceback" not in done.stderr


def test_a_directory_is_not_read_as_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path)]) in (1, 2)
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("call", ["٨+", "８+", "²+", "⁸-", "𝟖+"])
def test_a_call_in_other_digits_is_refused_and_no_int_error_shows(call: str) -> None:
    with pytest.raises(ValueError, match="not a bid") as refused:
        parse_bid(call)
    assert "int()" not in str(refused.value) and "literal" not in str(refused.value)
    with pytest.raises(RecordError) as error:
        action_from_data({"player": "Ann", "bid": call}, ("Ann", "Bill"))
    assert "int()" not in str(error.value) and "literal" not in str(error.value)
