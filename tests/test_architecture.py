"""The floors (docs/architecture.md): the engine imports neither the computer players nor anything above them;
the computer players import neither the review and coaching nor the measurement nor the interfaces; the review
and coaching import neither the interfaces nor the measurement nor the research adapters; the measurement does
not import the interfaces. Every import counts, a lazy one inside a function too. And every module of the
package reads at a sitting (under 900 lines)."""

from __future__ import annotations

import ast
import copy
import enum
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "piquet"
#: What each floor may not import.
FORBIDDEN = {
    "engine": ("piquet.ai", "piquet.coach", "piquet.measure", "piquet.ui", "piquet.research"),
    "ai": ("piquet.coach", "piquet.measure", "piquet.ui", "piquet.research"),
    # The review and the coaching stand on the players (a choice is valued as the strongest level values it),
    # below the interfaces that show them.
    "coach": ("piquet.measure", "piquet.ui", "piquet.research"),
    # Measurement (the arena, the SPRT, the Ray backend) stands on the players and measures them from outside.
    "measure": ("piquet.ui", "piquet.research"),
    # The research adapters (an optional extra) stand on the engine and the players, beside the interfaces.
    "research": ("piquet.ui",),
}


def imports(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, with its line (``from piquet import ai`` counts as ``piquet.ai``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def crossings(floor: str) -> list[str]:
    out = []
    for path in sorted((PACKAGE / floor).rglob("*.py")):
        for line, module in imports(path):
            if any(module == bad or module.startswith(bad + ".") for bad in FORBIDDEN[floor]):
                out.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {module}")
    return out


@pytest.mark.parametrize("floor", sorted(FORBIDDEN))
def test_a_floor_imports_nothing_from_the_floors_above_it(floor: str) -> None:
    assert (PACKAGE / floor).is_dir()
    assert crossings(floor) == []


def test_the_boundary_check_sees_a_crossing(tmp_path: Path) -> None:
    # The check itself, on a file that reaches up: a lazy import inside a function is found.
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from piquet.ui.web import app\n    import piquet.ai.solver\n", encoding="utf-8")
    assert (2, "piquet.ui.web") in imports(bad) and (3, "piquet.ai.solver") in imports(bad)


def test_every_floor_but_the_top_one_is_checked() -> None:
    # A new floor (a package of piquet) is one the checks above know; the interfaces (piquet.ui) are the top.
    floors = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert floors - {"ui"} == set(FORBIDDEN), floors


def test_the_build_ships_every_package_of_code() -> None:
    # pyproject.toml names the packages the wheel ships: a package of code left out would be missing once installed.
    import tomllib

    shipped = set(tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"]["packages"])
    code = {".".join(p.parent.relative_to(PACKAGE.parent).parts) for p in PACKAGE.rglob("__init__.py")}
    assert sorted(code - shipped) == []


def test_every_module_of_the_package_lives_on_a_floor() -> None:
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert loose == []


def test_nothing_above_the_engine_reaches_into_the_partie_s_private_state() -> None:
    # The solver once read ``partie._s``; the partie's own properties say what a position needs.
    private = {"_s", "_stack", "_generate", "_apply", "_reckon_hand"}
    found = []
    for floor in ("ai", "coach", "measure", "research", "ui"):
        for path in sorted((PACKAGE / floor).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                own = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
                if isinstance(node, ast.Attribute) and node.attr in private and not own:
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} .{node.attr}")
    assert found == []


def test_the_core_and_the_interfaces_load_without_the_research_frameworks() -> None:
    # piquet[research] is optional: nothing but piquet.research imports OpenSpiel, PettingZoo or Gymnasium.
    code = ("import sys, piquet, piquet.ai.levels, piquet.measure.arena, piquet.ui.cli\n"
            "print(sorted(m for m in ('pyspiel', 'pettingzoo', 'gymnasium', 'piquet.research') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=PACKAGE.parent)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------- the engine in plain Python
#: The longest a module of the package may be: a reader takes one in at a sitting.
MODULE_LINES = 900


def _engine_sources() -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in sorted((PACKAGE / "engine").glob("*.py"))]


def interpreter_tricks(path: Path, tree: ast.Module) -> list[str]:
    """What in ``tree`` (the source of ``path``) rests on how one interpreter runs Python rather than on the
    language: an object made without its constructor (``object.__new__``), an instance's ``__dict__`` read or
    written (a frozen record changed behind its back, a dict swapped in for speed), an enum member bound to a
    module name (a second spelling of it), a property whose getter is an ``attrgetter``."""
    found = []
    enums = _enum_names(tree)
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Attribute) and node.attr == "__new__" and isinstance(node.value, ast.Name) \
                and node.value.id == "object":
            found.append(f"{where} object.__new__")
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            found.append(f"{where} .__dict__")
        if isinstance(node, ast.Constant) and node.value == "__dict__":
            found.append(f"{where} '__dict__'")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "property" \
                and node.args and isinstance(node.args[0], ast.Call) and isinstance(node.args[0].func, ast.Name) \
                and node.args[0].func.id == "attrgetter":
            found.append(f"{where} property(attrgetter(...))")
    for statement in tree.body:
        if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
            values = statement.value.elts if isinstance(statement.value, ast.Tuple) else [statement.value]
            for value in values:
                if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id in enums:
                    found.append(f"{path.name}:{statement.lineno} {value.value.id}.{value.attr} bound to a module name")
    return found


def _enum_names(tree: ast.Module) -> set[str]:
    """The names in ``tree`` that are enum classes: those it defines as enums, and those it imports from the
    package."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any("Enum" in ast.unparse(base) for base in node.bases):
            names.add(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("piquet."):
            source = importlib.import_module(node.module)
            for alias in node.names:
                value = getattr(source, alias.name, None)
                if isinstance(value, type) and issubclass(value, enum.Enum):
                    names.add(alias.asname or alias.name)
    return names


def test_the_engine_is_plain_python_without_interpreter_tricks() -> None:
    found = []
    for path, tree in _engine_sources():
        found += interpreter_tricks(path, tree)
    assert found == []


def test_the_trick_check_sees_each_trick(tmp_path: Path) -> None:
    bad = tmp_path / "engine" / "bad.py"
    bad.parent.mkdir()
    bad.write_text(
        "import enum\nfrom operator import attrgetter\nfrom piquet.engine.state import Phase\n"
        "class Colour(enum.Enum):\n    RED = 1\n"
        "_RED = Colour.RED\n_PLAY, _OVER = Phase.PLAY, Phase.OVER\n"
        "def make(cls):\n    new = object.__new__(cls)\n    new.__dict__.update(a=1)\n"
        "    object.__setattr__(new, '__dict__', {})\n    return new\n"
        "class A:\n    phase = property(attrgetter('_s.phase'))\n",
        encoding="utf-8")
    kinds = sorted(t.split(" ", 1)[1] for t in interpreter_tricks(bad, ast.parse(bad.read_text(encoding="utf-8"))))
    assert kinds == ["'__dict__'", ".__dict__", "Colour.RED bound to a module name",
                     "Phase.OVER bound to a module name", "Phase.PLAY bound to a module name", "object.__new__",
                     "property(attrgetter(...))"]


@pytest.mark.parametrize("path", sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.c"), *PACKAGE.rglob("*.h"),
                                         *(p for p in PACKAGE.rglob("*.js") if "node_modules" not in p.parts)]),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_module_of_the_package_reads_at_a_sitting(path: Path) -> None:
    """Python, the kernel's C and the page's scripts alike."""
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines < MODULE_LINES, f"{path.relative_to(PACKAGE.parent)} has {lines} lines"


def undo_by_shape_and_writes_into_a_partie(path: Path, tree: ast.Module) -> list[str]:
    """What in ``tree`` tells an undo record by its shape rather than its type (``len(undo)``, ``undo[0]``), or
    writes into a partie from outside it (as a listing once marked the action it listed as checked)."""
    found = []
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and node.args \
                and "undo" in ast.unparse(node.args[0]).lower():
            found.append(f"{where} len({ast.unparse(node.args[0])})")
        if isinstance(node, ast.Subscript) and "undo" in ast.unparse(node.value).lower():
            found.append(f"{where} {ast.unparse(node)}")
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and ast.unparse(node.value).split(".")[-1] in ("partie", "_partie"):
            found.append(f"{where} {ast.unparse(node)} written")
    return found


def test_undo_records_are_matched_by_type_and_no_one_writes_into_a_partie() -> None:
    found = []
    for path, tree in _engine_sources():
        found += undo_by_shape_and_writes_into_a_partie(path, tree)
    assert found == []


def test_the_shape_check_sees_each_shape(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def pop(self, undo, stack):\n    if len(undo) == 3:\n        return stack[-1][0]\n"
                   "    action = undo[0]\n    self.partie.trusted = action\n", encoding="utf-8")
    found = undo_by_shape_and_writes_into_a_partie(bad, ast.parse(bad.read_text(encoding="utf-8")))
    assert sorted(f.split(" ", 1)[1] for f in found) == ["len(undo)", "self.partie.trusted written", "undo[0]"]


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_push_checks_every_action_once_however_it_was_obtained(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # One path: push asks checks.why_not once, for an action from a listing as for one made by hand.
    import random

    from piquet.engine import partie as partie_module
    from piquet.engine.actions import Action
    from piquet.engine.checks import why_not as real
    from piquet.engine.refusals import Refusal

    calls: list[object] = []

    def counted(*args: object) -> Refusal | None:
        calls.append(args[-1])
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(partie_module, "why_not", counted)
    rng = random.Random(variant)
    p = partie_module.Partie(("Ann", "Bill"), variant)
    pushed = 0
    action: Action
    while not p.is_over and pushed < 400:
        if p.phase is partie_module.Phase.CUT:
            action = p.random_cut(rng)
        elif p.phase is partie_module.Phase.DEAL:
            action = p.random_deal(rng)
        else:
            listed = p.legal_actions().list()
            action = rng.choice(listed)
            if pushed % 2:  # an equal action made anew, not the listing's own object
                action = copy.copy(action)
        calls.clear()
        p.push(action)
        assert calls == [action], (action, calls)
        pushed += 1
    assert pushed >= 100


def _loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after ``code``."""
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint('\\n'.join(sys.modules))"],
                         capture_output=True, text=True, check=True, cwd=PACKAGE.parent)
    return set(out.stdout.split())


def _under(loaded: set[str], *packages: str) -> list[str]:
    return sorted(m for m in loaded if any(m == p or m.startswith(p + ".") for p in packages))


def test_version_loads_neither_the_engine_nor_the_players() -> None:
    loaded = _loaded_after("from piquet.ui.cli import main\ntry:\n    main(['--version'])\n"
                           "except SystemExit:\n    pass")
    assert "piquet.ai.kernel" in loaded  # it says which solver is in use
    assert _under(loaded, "piquet.engine", "piquet.ai.solver", "piquet.ai.levels", "piquet.ui.web",
                  "piquet.ui.terminal", "rich", "fastapi") == []


def test_play_loads_nothing_of_the_web_the_arena_or_research() -> None:
    # What piquet play imports: its arguments, then the terminal (run here without a partie).
    loaded = _loaded_after("from piquet.ui import cli\ncli.build_parser(cli._command(['play'])).parse_args(['play'])\n"
                           "import piquet.ui.terminal")
    assert {"piquet.ui.terminal", "piquet.ai.levels", "rich"} <= loaded
    assert _under(loaded, "piquet.ui.web", "fastapi", "starlette", "uvicorn", "piquet.measure",
                  "piquet.coach.annotate", "piquet.coach.exercises", "piquet.ui.exercises",
                  "piquet.research", "sqlite3", "multiprocessing") == []


def test_serve_loads_nothing_of_the_terminal_the_arena_or_research() -> None:
    loaded = _loaded_after("from piquet.ui import cli\n"
                           "cli.build_parser(cli._command(['serve'])).parse_args(['serve'])\nimport uvicorn\n"
                           "import piquet.ui.web.app, piquet.ui.web.guard, piquet.ui.web.store")
    assert {"piquet.ui.web.app", "fastapi"} <= loaded
    assert _under(loaded, "piquet.ui.terminal", "piquet.ui.exercises", "rich", "piquet.measure",
                  "piquet.coach.annotate", "piquet.coach.exercises",
                  "piquet.research") == []


def test_a_command_fills_in_only_its_own_arguments() -> None:
    from piquet.ui import cli

    assert cli._command(["--no-color", "play", "--level", "5"]) == "play" and cli._command(["--version"]) is None
    assert cli.build_parser("replay").parse_args(["replay", "x.json"]).file == "x.json"
    assert cli.build_parser().parse_args(["play", "--level", "5"]).level == 5  # every command, for tests and docs


# ---------------------------------------------------------------- the page's "ready" signal (issue 32, item 10)
TESTS = Path(__file__).resolve().parent
STATIC = PACKAGE / "ui" / "web" / "static"
#: Where each page's script says it is ready: once it listens (the table's, once its first state is drawn).
READY_SET = {"index.html": "lobby/main.js", "table.html": "table/render.js", "review.html": "review/main.js"}
#: What once stood for "the page is there" and is not: the attribute is in the HTML before any script runs.
NOT_READY = ("dataset.version !== undefined", "!!document.body.dataset.version", 'dataset.version", timeout',
             # A document mid-navigation may have no body yet: the signal is read through _ready (or READY).
             '"document.body.dataset.ready')


def _browser_tests() -> list[Path]:
    """The browser tests, and the helper that makes their tables on both transports (``table_sites``)."""
    return sorted(p for p in [*TESTS.glob("test_*.py"), TESTS / "table_sites.py"] if p.name != Path(__file__).name and (
        "test_web_browser" in p.read_text(encoding="utf-8") or "sync_playwright" in p.read_text(encoding="utf-8")))


def test_every_page_says_when_it_is_ready() -> None:
    sets = re.compile(r'(dataset|\bb)\.ready = "1"')
    for page, script in READY_SET.items():
        assert 'data-ready=""' in (STATIC / page).read_text(encoding="utf-8"), page
        assert sets.search((STATIC / script).read_text(encoding="utf-8")), script
    assert sets.search((STATIC / "guide.js").read_text(encoding="utf-8"))  # the guide's pages


def test_every_browser_test_acts_on_a_page_only_once_it_says_it_is_ready() -> None:
    """Pages are loaded through test_web_browser's ``_open``, ``_goto`` and ``_reload``, which wait for the page's
    ready signal (``<body data-ready="1">``), never by ``page.goto`` or ``page.reload`` alone (but in the test of
    the signal itself, which looks at a page before it is ready, and says so on the line)."""
    found = _browser_tests()
    assert len(found) >= 10
    wrong = []
    for path in found:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        helpers = {n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name in ("_goto", "_reload")}
        allowed = {id(c) for h in helpers for c in ast.walk(h)}
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("goto", "reload") and id(node) not in allowed
                    and "on purpose, before the page is ready" not in lines[node.lineno - 1]):
                wrong.append(f"{path.name}:{node.lineno}: {node.func.attr}() without waiting for the page")
        text = path.read_text(encoding="utf-8")
        wrong += [f"{path.name}: waits on {bad!r}" for bad in NOT_READY if bad in text]
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------- what the web extra declares (issue 32, item 4)
def _web_extra(name: str = "web") -> dict[str, str]:
    import tomllib

    extra = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"][name]
    return {re.split(r"[\[<>=!~ ;]", r, maxsplit=1)[0].lower(): r for r in extra}


def test_the_web_extra_declares_every_package_the_server_imports() -> None:
    import importlib.metadata

    owners = importlib.metadata.packages_distributions()
    # The PostgreSQL store (piquet.ui.web.postgres) and the tables' locks on it (piquet.ui.web.owners, which imports
    # psycopg only when a lock connection is made) are the postgres extra's, beside the web extra's.
    postgres = ("postgres.py", "owners.py")
    for extra, paths in (("web", [p for p in (PACKAGE / "ui" / "web").glob("*.py") if p.name not in postgres]),
                         ("postgres", [PACKAGE / "ui" / "web" / name for name in postgres])):
        imported = set()
        for path in paths:
            for _, module in imports(path):
                top = module.split(".")[0]
                if top != "piquet" and top not in sys.stdlib_module_names and top != "__future__":
                    imported.add(top)
        declared = _web_extra() | _web_extra(extra)
        missing = sorted(f"{top} ({', '.join(owners.get(top, ['?']))})" for top in imported
                         if not any(d.lower() in declared for d in owners.get(top, [top])))
        assert not missing, f"imported by piquet.ui.web but not declared in the {extra} extra: {missing}"


def test_the_web_extra_bounds_what_it_builds_on_and_ci_installs_its_lower_bounds() -> None:
    """Every requirement has a lower bound, the one CI tests (``tools/lowest.py``, ``.ci/run``); uvicorn and
    websockets, whose internals ``piquet.ui.web.guard`` subclasses and reads, an upper bound too."""
    from helpers import load_tool

    lowest = load_tool("lowest").lowest
    declared = _web_extra()
    assert len(lowest(list(declared.values()))) == len(declared)
    for name in ("uvicorn", "websockets"):
        assert "<" in declared[name], declared[name]
    ci = (PACKAGE.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "tools/lowest.py web" in ci and "tests/test_web_*.py" in ci
