"""The English templates of the web server's errors, read from its code: each ``ProtocolError(code, template, ...)``
sent over a table's socket, and each reason an HTTP answer's ``detail`` says (``Reason(template, ...)`` and its kinds,
``Refusal``, ``BadName``, ``ReviewRefused``, ``OpenRefused``), so that a test can hold every one of them to the French
catalogue and a new one cannot slip in untranslated."""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

PACKAGE = Path(str(resources.files("piquet")))
#: Where the errors are raised: the web server's modules.
WEB = PACKAGE / "ui" / "web"
#: The classes whose calls give a template, and which of their arguments it is.
TEMPLATE_AT = {"ProtocolError": 1, "ReviewRefused": 1, "OpenRefused": 1, "Reason": 0, "Refusal": 0, "BadName": 0}
#: A template's fields (``{name}``) and its literal braces (``{{``), which are no words.
FIELD = re.compile(r"\{\{|\}\}|\{[^{}]*\}")


@dataclass(frozen=True)
class Site:
    """Where a template is given: the file and line, and the template's expression as written."""

    path: str
    line: int
    source: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.source}"


def _returned_strings(path: Path, function: str) -> set[str]:
    """The strings a module's function returns (each ``return "..."``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {node.value.value for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == function
             for node in ast.walk(f) if isinstance(node, ast.Return) and isinstance(node.value, ast.Constant)
             and isinstance(node.value.value, str)}
    assert found, f"{function} of {path.name} returns no string"
    return found


#: The templates given by an expression rather than written at the call, by that expression: a name's refusal
#: (``BadName``'s own templates, gathered from its calls) and the takebacks' refusals (the clauses
#: :func:`piquet.ui.takebacks.refusal` returns).
DERIVED = {
    "e.template": lambda: set[str](),
    "policy.refusal": lambda: _returned_strings(PACKAGE / "ui" / "takebacks.py", "refusal"),
}


def _module(path: Path) -> str:
    return "piquet." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)


def server_templates() -> tuple[dict[str, list[Site]], list[Site]]:
    """Each template of the server's errors with where it is given, and the calls whose template could not be read
    (an expression this reader does not know: it must be taught it, in :data:`DERIVED`)."""
    templates: dict[str, list[Site]] = {}
    unread: list[Site] = []
    for path in sorted(WEB.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # A kind of these classes may give its template as it calls its base's constructor (RecordRefused).
        bases = {id(call): TEMPLATE_AT[base.id] for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef)
                 for base in cls.bases if isinstance(base, ast.Name) and base.id in TEMPLATE_AT
                 for call in ast.walk(cls) if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                 and call.func.attr == "__init__" and isinstance(call.func.value, ast.Call)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            at = TEMPLATE_AT.get(node.func.id) if isinstance(node.func, ast.Name) else bases.get(id(node))
            if at is None or len(node.args) <= at:
                continue
            given = node.args[at]
            if id(node) in bases and not isinstance(given, ast.Constant):
                continue  # a kind passing its own template on to its base's constructor: its callers give it
            site = Site(path.relative_to(PACKAGE.parent).as_posix(), node.lineno, ast.unparse(given))
            if isinstance(given, ast.Constant) and isinstance(given.value, str):
                found = {given.value}
            elif isinstance(given, ast.Name):  # a module's constant (NOT_SAVED, INVITE_USED)
                found = {getattr(importlib.import_module(_module(path)), given.id)}
            else:
                key = ast.unparse(given.func if isinstance(given, ast.Call) else given)
                if key not in DERIVED:
                    unread.append(site)
                    continue
                found = DERIVED[key]()
            for template in found:
                templates.setdefault(template, []).append(site)
    return templates, unread


def has_words(template: str) -> bool:
    """Whether a template says anything beyond its fields (``"{reason}"`` says nothing of its own)."""
    return re.search(r"[^\W\d_]", FIELD.sub("", template)) is not None


def plain_http_refusals() -> list[Site]:
    """The HTTP refusals written as English text (``HTTPException(status, "...")``) rather than a :class:`Reason`
    said in the request's language (``Refused(status, Reason(...))``)."""
    found: list[Site] = []
    for path in sorted(WEB.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "HTTPException"
                    and len(node.args) > 1 and isinstance(node.args[1], (ast.Constant, ast.JoinedStr))):
                found.append(Site(path.relative_to(PACKAGE.parent).as_posix(), node.lineno, ast.unparse(node.args[1])))
    return found
