"""The browser page is typed: every module is checked by ``tsc --noEmit`` (``tsconfig.json``) against the
JSDoc types of the protocol in ``static/table/protocol.js``, and the check catches a field the protocol
does not have. CI installs TypeScript with ``npm ci``; without it the type-check test is skipped."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "piquet" / "ui" / "web" / "static"
TSC = ROOT / "node_modules" / ".bin" / "tsc"


def _modules() -> list[Path]:
    return sorted(STATIC.rglob("*.js"))


def test_every_module_of_the_page_asks_for_the_type_check_and_tsconfig_includes_it() -> None:
    config = json.loads((ROOT / "tsconfig.json").read_text(encoding="utf-8"))
    options = config["compilerOptions"]
    assert options["checkJs"] and options["allowJs"] and options["noEmit"] and options["strict"]
    assert config["include"] == ["piquet/ui/web/static/**/*.js"]
    assert len(_modules()) >= 10
    for path in _modules():
        assert path.read_text(encoding="utf-8").startswith("// @ts-check\n"), path


def test_the_table_page_loads_its_modules_as_they_are() -> None:
    html = (STATIC / "table.html").read_text(encoding="utf-8")
    assert re.findall(r"<script[^>]*>", html) == ['<script type="module" src="/static/table/main.js">']
    assert not (STATIC / "table.js").exists()


def test_the_lobby_loads_its_modules_as_they_are_and_knows_no_variant_of_its_own() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script[^>]*>", html) == ['<script type="module" src="/static/lobby/main.js">']
    assert not (STATIC / "lobby.js").exists()
    lobby = "".join(p.read_text(encoding="utf-8") for p in sorted((STATIC / "lobby").glob("*.js")))
    # The variants, their titles and the levels are the server's (GET /api/setup), and so are the rule facts.
    for known in ("au-cent", "Rubicon Piquet", "Auction Piquet", "Piquet au Cent", "beginner"):
        assert known not in lobby and known not in html, known


def test_every_folder_of_the_page_is_shipped_with_the_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = sorted({p.parent.relative_to(STATIC.parent).as_posix() for p in _modules()})
    assert folders == ["static", "static/history", "static/lobby", "static/review", "static/site", "static/table"]
    for folder in folders:
        assert f"{folder}/*" in config["package-data"]["piquet.ui.web"], folder
        assert "piquet.ui.web." + folder.replace("/", ".") in config["packages"], folder


@pytest.mark.slow  # the type checker run once a change: the inner loop leaves it to CI
def test_the_type_check_refuses_a_field_the_protocol_does_not_have(tmp_path: Path) -> None:
    if not TSC.exists():
        pytest.skip("TypeScript is not installed here (npm ci)")
    shutil.copy(ROOT / "tsconfig.json", tmp_path / "tsconfig.json")
    copy = tmp_path / "piquet" / "ui" / "web" / "static"
    shutil.copytree(STATIC, copy)
    render = copy / "table" / "render.js"
    render.write_text(render.read_text(encoding="utf-8") + "\n/** @param {ViewSoFar} v */\n"
                      "export const gamesWon = (v) => v.games_wonn;\n", encoding="utf-8")
    broken = subprocess.run([str(TSC), "-p", str(tmp_path), "--noEmit"], capture_output=True, text=True, timeout=120)
    assert broken.returncode != 0
    # The one error is the field misspelt (CI's own tsc run checks that the page as it is has none).
    errors = [line for line in broken.stdout.splitlines() if "error TS" in line]
    assert len(errors) == 1 and "games_wonn" in errors[0] and "render.js" in errors[0], broken.stdout
