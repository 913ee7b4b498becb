"""What a test module's markers are, read from its source without importing it (tests/conftest.py leaves out
the modules ``-m`` deselects; tests/test_markers.py checks each module is marked for what it needs)."""

from __future__ import annotations

import ast
from pathlib import Path


def module_marks(module: ast.Module | Path) -> set[str]:
    """The markers of a test module's ``pytestmark`` (one marker or a list of them), read from its source."""
    tree = module if isinstance(module, ast.Module) else ast.parse(module.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            return {n.attr for n in ast.walk(node.value) if isinstance(n, ast.Attribute) and n.attr != "mark"}
    return set()
