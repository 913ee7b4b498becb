"""docs/research.md's examples run as written: every Python block, each in a namespace of its own (the
PettingZoo and Gymnasium loops, the observers, the vector environment)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.research

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

DOC = Path(__file__).resolve().parent.parent / "docs" / "research.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```$", DOC.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)


def test_the_page_has_its_examples() -> None:
    assert len(BLOCKS) >= 5
    assert any("PiquetVectorEnv(" in block for block in BLOCKS)


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_a_python_example_of_the_research_page_runs(block: str) -> None:
    exec(compile(block, str(DOC), "exec"), {"__name__": "docs_research_example"})


def _shown_output(command: str) -> list[str]:
    """The lines the page shows under ``$ command`` in a text block."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"$ {command}\n") + len(command) + 3
    return text[start:text.index("```", start)].strip().splitlines()


@pytest.mark.slow
def test_the_cfr_report_on_the_page_is_what_the_example_prints(capsys: pytest.CaptureFixture[str]) -> None:
    """The report's NashConv and calls are the seeded example's own (its CPU time varies with the machine,
    as the page says)."""
    from piquet.research.examples import cfr

    assert cfr.main(["--deals", "12"]) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    shown = _shown_output("python3 -m piquet.research.examples.cfr --deals 12")
    assert printed[0] == shown[0]
    assert printed[1].split(";")[0] == shown[1].split(";")[0]
