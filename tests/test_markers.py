"""The suite's markers say what each test needs, so the everyday loop can leave out what it does not run.

``browser``: drives a page in chromium (``-m "not slow and not browser"`` is the inner loop of
docs/developing.md); ``research``: the research adapters and the arena's Ray backend (the ``research`` extra).
A test module that drives a browser or imports a research library without its marker would run, slowly or not at
all, in a loop that means to leave it out.
"""

from __future__ import annotations

import ast
from pathlib import Path

from marker_helpers import module_marks

TESTS = Path(__file__).resolve().parent
#: What a browser test's module uses: Playwright, or the browser tests' own helpers.
BROWSER = ("playwright", "test_web_browser")
#: What a research test's module imports.
RESEARCH = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium", "ray", "piquet.research")


def _uses(tree: ast.Module) -> set[str]:
    """The modules ``tree`` imports or skips without (``pytest.importorskip``)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "importorskip"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.add(node.args[0].value)
    return found


def _needs(used: set[str], roots: tuple[str, ...]) -> bool:
    return any(name == root or name.startswith(root + ".") for name in used for root in roots)


def test_every_module_that_drives_a_browser_or_a_research_library_is_marked_so() -> None:
    wrong = []
    checked = {"browser": 0, "research": 0}
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        used, marks = _uses(tree), module_marks(tree)
        for marker, roots in (("browser", BROWSER), ("research", RESEARCH)):
            if _needs(used, roots):
                checked[marker] += 1
                if marker not in marks:
                    wrong.append(f"{path.name}: uses {marker} libraries but is not marked {marker}")
    assert not wrong, "\n".join(wrong)
    assert checked["browser"] >= 10 and checked["research"] >= 5, checked


def test_the_markers_are_registered() -> None:
    import tomllib

    config = tomllib.loads((TESTS.parent / "pyproject.toml").read_text(encoding="utf-8"))
    markers = {m.split(":")[0] for m in config["tool"]["pytest"]["ini_options"]["markers"]}
    assert {"slow", "browser", "research"} <= markers
