"""docs/research.md's examples run as written: every Python block, each in a namespace of its own (the
PettingZoo and Gymnasium loops, the observers, the vector environment)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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
