"""The pages' ES modules import one another without a cycle (issue 33: the page without its import loop).

The table's page draws from its state and sends what the player does out through one module (``intents.js``);
the controller (``control.js``, ``messages.js``, ``transport.js``) changes the state and draws. A drawing module
that imported the controller back would close a loop again: this test reads every module's static imports (not the
JSDoc ``import("...")`` types, which the browser never loads) and fails on any cycle, naming it.
"""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "piquet" / "ui" / "web" / "static"
#: A static import or re-export: ``import x from "./a.js"``, ``import "./a.js"``, ``export { x } from "./a.js"``.
IMPORT = re.compile(r'^\s*(?:import|export)\b[^"\'();]*?(?:\bfrom\s*)?["\']([^"\']+)["\']\s*;?', re.MULTILINE)


def imports(path: Path) -> list[Path]:
    """The modules ``path`` imports statically, as files (relative specifiers only: the pages use no others)."""
    text = path.read_text(encoding="utf-8")
    return [(path.parent / spec).resolve() for spec in IMPORT.findall(text) if spec.startswith(".")]


def graph(root: Path = STATIC) -> dict[Path, list[Path]]:
    return {path.resolve(): imports(path) for path in sorted(root.rglob("*.js"))}


def cycles(edges: dict[Path, list[Path]]) -> list[list[Path]]:
    """Each cycle found by a depth-first walk, as the modules along it (the first again at its end)."""
    found: list[list[Path]] = []
    state: dict[Path, int] = {}  # 1: on the walk's path, 2: done
    path: list[Path] = []

    def walk(node: Path) -> None:
        state[node] = 1
        path.append(node)
        for nxt in edges.get(node, []):
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                walk(nxt)
        path.pop()
        state[node] = 2

    for node in edges:
        if node not in state:
            walk(node)
    return found


def _name(path: Path) -> str:
    return path.relative_to(STATIC.resolve()).as_posix()


def test_the_reader_of_imports_finds_every_kind_of_static_import() -> None:
    table = STATIC.resolve() / "table"
    main = imports(table / "main.js")
    assert table / "control.js" in main and table / "intents.js" in main
    assert STATIC.resolve() / "display.js" in main  # a side-effect import: import "../display.js";
    assert all(p.exists() for edges in graph().values() for p in edges), "an import names a file that is not there"


def test_the_cycle_finder_finds_a_cycle() -> None:
    a, b, c = Path("a.js"), Path("b.js"), Path("c.js")
    assert cycles({a: [b], b: [c], c: [a]}) == [[a, b, c, a]]
    assert cycles({a: [b, c], b: [c], c: []}) == []


def test_no_page_module_imports_itself_back_through_others() -> None:
    edges = graph()
    assert len(edges) >= 20
    loops = [" -> ".join(_name(p) for p in cycle) for cycle in cycles(edges)]
    assert not loops, "import cycles among the pages' modules:\n" + "\n".join(loops)


def test_the_table_s_drawing_modules_send_only_through_intents() -> None:
    """Drawing reads the state and says what the player wants as an intent: no drawing module imports the socket
    or the controller."""
    table = STATIC.resolve() / "table"
    controller = {table / name for name in ("control.js", "messages.js", "transport.js", "main.js")}
    drawing = [table / name for name in ("render.js", "prompt.js", "dealend.js", "record.js", "glossary.js",
                                         "motion.js")]
    wrong = [f"{_name(d)} imports {_name(p)}" for d in drawing for p in imports(d) if p in controller]
    assert not wrong, "\n".join(wrong)
