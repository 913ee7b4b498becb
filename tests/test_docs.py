"""The docs' examples (issue 32): an example that prints figures is checked by a test, or says its figures vary.

The convention, held here for the docs a reader runs the commands of: an example of what the program says (a
quoted sentence, ``> ...``; a block of output, a fenced block that is not a command, a program or a format)
that holds a figure names, within a few lines, the test that checks it (``checked by tests/test_x.py``, which
then holds the example's words) or says that its figures vary (a fair review's sample, a machine's speed). The
examples checked here are made again and compared; the README's own are doctests, and its ``--version`` line is
checked below. Lab notes (``docs/notes/``) are dated records, not examples.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The docs held to the convention (docs/research.md, docs/security.md and docs/record-format.md have owners of
#: their own, and their examples their own checks).
DOCS = ["README.md", "docs/playing.md", "docs/developing.md", "docs/performance.md", "docs/review.md",
        "docs/architecture.md", "docs/players.md"]
#: Fenced blocks that are not output: commands, programs, formats.
NOT_OUTPUT = {"sh", "python", "json", "pycon", "toml", "svg", "html", "js", "tree"}
_MARK = re.compile(r"checked\s+by\s+`?(tests/[\w./]+\.py)`?|figures\s+vary|(its|their)\s+figures\s+(are|vary)"
                   r"|illustrat")
#: The examples this file makes again itself (by their first words).
MADE_HERE = ("Luck in 1 deal",)
_FIGURE = re.compile(r"\d")


def examples(text: str) -> list[tuple[int, int, str]]:
    """The examples of a Markdown text that hold a figure: (first line, last line, text), lines from 0."""
    lines = text.splitlines()
    found = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            lang = line[3:].strip()
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            body = "\n".join(lines[i + 1:j])
            if lang not in NOT_OUTPUT and _FIGURE.search(body):
                found.append((i, j, body))
            i = j + 1
            continue
        if line.startswith("> "):
            j = i
            while j + 1 < len(lines) and lines[j + 1].startswith("> "):
                j += 1
            body = " ".join(s[2:] for s in lines[i:j + 1])
            if _FIGURE.search(body):
                found.append((i, j, body))
            i = j + 1
            continue
        i += 1
    return found


def _cites(test: str, example: str) -> bool:
    """Whether the test file holds a run of the example's words (twenty characters or more, as written)."""
    if test == "tests/test_docs.py":
        return example.startswith(MADE_HERE)
    path = ROOT / test
    if not path.exists():
        return False
    words = re.sub(r"\s+", " ", example)
    text = path.read_text(encoding="utf-8")
    return any(words[k:k + 24] in text for k in range(0, max(1, len(words) - 24), 4))


@pytest.mark.parametrize("doc", DOCS)
def test_every_example_that_prints_figures_is_checked_or_says_they_vary(doc: str) -> None:
    path = ROOT / doc
    if not path.exists():
        pytest.fail(f"{doc} is gone: update DOCS")
    lines = path.read_text(encoding="utf-8").splitlines()
    wrong = []
    for first, last, body in examples(path.read_text(encoding="utf-8")):
        around = "\n".join(lines[max(0, first - 4):last + 4])
        mark = _MARK.search(around)
        if mark is None:
            wrong.append(f"{doc}:{first + 1}: an example with figures, neither checked nor said to vary")
        elif mark.group(1) and not _cites(mark.group(1), body):
            wrong.append(f"{doc}:{first + 1}: {mark.group(1)} does not hold the example's words")
    assert not wrong, "\n".join(wrong)


def test_the_convention_sees_an_example_left_unmarked() -> None:
    text = "Some words.\n\n> Leading the A♠ costs Ann 3 points.\n\nMore words.\n\n```\nAnn 3\n```\n"
    assert [(a, b) for a, b, _ in examples(text)] == [(2, 2), (6, 8)]
    assert _MARK.search(text) is None


def test_the_luck_of_the_review_s_example_is_what_piquet_analyse_says() -> None:
    """docs/review.md's lines of luck, on tests/records/rubicon-deal.json (exact: the luck samples nothing)."""
    doc = (ROOT / "docs" / "review.md").read_text(encoding="utf-8")
    shown = re.search(r"```\n(Luck in 1 deal .*?)\n```", doc, re.DOTALL)
    assert shown is not None
    out = subprocess.run([sys.executable, "-m", "piquet", "analyse", str(ROOT / "tests/records/rubicon-deal.json"),
                          "--worlds", "2"], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    said = out[out.index("Luck in 1 deal"):].strip().splitlines()[:3]
    assert said == shown[1].splitlines()


def test_the_readme_s_version_line_is_what_piquet_says_with_the_kernel() -> None:
    from piquet.ai import solver

    if solver.SOLVER != "compiled kernel":
        pytest.skip("the kernel is not built here: the README's line is for an install with a C compiler")
    from piquet import __version__

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"# piquet {__version__} (solver: compiled kernel)" in readme
