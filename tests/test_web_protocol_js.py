"""The page's message types (``static/table/protocol.js``, JSDoc) agree with the server's (the ``TypedDict`` s of
``piquet/ui/web/protocol.py``): the same fields, each optional on both sides or on neither, and the same literal
kinds (a message's ``type``, a prompt's ``kind``, the names of a table's kinds, statuses, phases and error codes).

The page's types are written by hand, with more precision where the page needs it (a seat is ``0 | 1``, an action
is a union of the record's actions); this test holds them to the server's shape, so a field added, renamed, made
optional or a kind added on one side and not the other fails here, naming it. ``tsc`` then checks the page against
``protocol.js`` (``tests/test_web_page_types.py``).
"""

from __future__ import annotations

import re
import types
import typing
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from piquet.ui import takebacks
from piquet.ui.web import api_types, protocol

PROTOCOL_JS = Path(__file__).resolve().parent.parent / "piquet" / "ui" / "web" / "static" / "table" / "protocol.js"

#: Each TypedDict of the server and its typedef in protocol.js (the same name where none is given).
OBJECTS: dict[str, str] = {name: name for name in (
    "CountLine", "SheetRow", "ChooseDealerPrompt", "PacketsPrompt", "BidPrompt", "CarteBlanchePrompt",
    "ExchangePrompt", "DeclareOption", "DeclarePrompt", "PlayPrompt", "ConcessionPrompt", "StateMessage",
    "ErrorMessage", "Advice", "DiscardAdvice", "HintMessage", "TutorMessage", "SeatMessage", "MoveMessage",
    "TalkMessage", "ArchivedDeal", "SaidMessage",
    "OptionSetup", "VariantSetup", "LevelSetup", "BudgetSetup", "SetupAnswer", "CreatedTable", "PublicRoom",
    "LobbyPage")} | {
    "TrickData": "Trick", "ResultData": "Result", "BidData": "BidCall", "ContractData": "Contract",
    "GameData": "Game", "RulesFacts": "Rules", "ViewData": "View", "TableData": "TableInfo", "FeatData": "Feat",
    "OutcomeData": "Outcome", "DealGameData": "DealGame"}
#: The unions of messages, told apart by their ``type``.
UNIONS = {"ClientMessage": "ClientMessage", "ServerMessage": "ServerMessage"}
#: The sets of names (Python's ``Literal`` aliases) and their typedefs.
LITERALS: dict[str, object] = {"TableKind": protocol.TableKind, "TableStatus": protocol.TableStatus,
                               "ErrorCode": protocol.ErrorCode, "Phase": protocol.PhaseName,
                               "Takebacks": takebacks.Takebacks, "DeclareCategory": protocol.DeclareCategory,
                               "Phrase": protocol.Phrase}


# ---------------------------------------------------------------- reading protocol.js
def typedefs(text: str) -> dict[str, str]:
    """Every ``@typedef {type} Name`` of a JSDoc text: the type's text (its braces balanced) by name."""
    body = re.sub(r"^\s*\*\s?", " ", text, flags=re.MULTILINE)  # the comment's leading stars
    found: dict[str, str] = {}
    for match in re.finditer(r"@typedef\s*\{", body):
        depth, i = 1, match.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(body[i], 0)
            i += 1
        name = re.match(r"\s*(\w+)", body[i:])
        assert name, f"a typedef without a name at {body[match.start():match.start() + 60]!r}"
        found[name.group(1)] = " ".join(body[match.end():i - 1].split())
    return found


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` where no bracket is open."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "{[(<":
            depth += 1
        elif ch in "}])>":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def fields(obj: str) -> dict[str, tuple[bool, str]]:
    """An object type's fields (``{a: T, b?: U}``): by name, whether it may be left out, and its type's text."""
    obj = obj.strip()
    assert obj.startswith("{") and obj.endswith("}"), obj
    out = {}
    for part in split_top(obj[1:-1], ","):
        name, _, kind = part.partition(":")
        out[name.strip().rstrip("?")] = (name.strip().endswith("?"), kind.strip())
    return out


def literals(kind: str) -> set[str] | None:
    """The string literals of a union of them (``"a" | "b"``), else ``None`` (a type that is not only literals)."""
    parts = split_top(kind, "|")
    if not all(re.fullmatch(r'"[^"]*"', p) for p in parts):
        return None
    return {p.strip('"') for p in parts}


# ---------------------------------------------------------------- reading the TypedDicts
def py_fields(cls: Any) -> dict[str, tuple[bool, Any]]:
    hints = get_type_hints(cls)
    return {name: (name in cls.__optional_keys__, hints[name]) for name in hints}


def py_literal(kind: Any) -> set[str] | None:
    """The values of a ``Literal`` type (or of a union of them), else ``None``."""
    if get_origin(kind) is Literal:
        return {str(v) for v in get_args(kind)}
    return None


def _members(union: Any) -> list[Any]:
    return list(get_args(union)) if get_origin(union) in (typing.Union, types.UnionType) else [union]


# ---------------------------------------------------------------- the comparison
def drift(py: Any, js: str, where: str, defs: dict[str, str]) -> list[str]:
    """How the TypedDict ``py`` and the object type ``js`` differ: fields on one side only, optional on one side
    only, literal kinds that differ; nested TypedDicts compared with their inline or named typedefs."""
    out = []
    mine, theirs = py_fields(py), fields(js)
    for name in sorted(mine.keys() - theirs.keys()):
        out.append(f"{where}.{name}: sent by the server, missing from protocol.js")
    for name in sorted(theirs.keys() - mine.keys()):
        out.append(f"{where}.{name}: in protocol.js, not in the server's {py.__name__}")
    for name in sorted(mine.keys() & theirs.keys()):
        (py_optional, py_kind), (js_optional, js_kind) = mine[name], theirs[name]
        if py_optional != js_optional:
            out.append(f"{where}.{name}: optional in {'the server' if py_optional else 'protocol.js'} only")
        values = py_literal(py_kind)
        if values is not None and js_kind in defs:
            js_kind = defs[js_kind]
        if values is not None and values != literals(js_kind):
            out.append(f"{where}.{name}: the server's kinds {sorted(values)}, protocol.js's {js_kind}")
        if is_typeddict(py_kind) and js_kind.startswith("{"):
            out += drift(py_kind, js_kind, f"{where}.{name}", defs)
    return out


def union_drift(py: Any, js: str, where: str, defs: dict[str, str]) -> list[str]:
    """A union of messages: the same ``type`` s on both sides, and each member the same message."""
    py_members = {next(iter(py_literal(get_type_hints(m)["type"]) or ())): m for m in _members(py)}
    js_members: dict[str, str] = {}
    for member in split_top(js, "|"):
        obj = defs.get(member, member)
        js_members[next(iter(literals(fields(obj)["type"][1]) or {"?"}))] = obj
    out = [f"{where}: type {k!r} only in {'the server' if k in py_members else 'protocol.js'}"
           for k in sorted(py_members.keys() ^ js_members.keys())]
    for key in sorted(py_members.keys() & js_members.keys()):
        out += drift(py_members[key], js_members[key], f"{where}[{key}]", defs)
    return out


def _typed(name: str) -> Any:
    """The server's TypedDict ``name``: the table's messages' (protocol) or the lobby's HTTP answers' (api_types)."""
    return getattr(protocol, name, None) or getattr(api_types, name)


def all_drift(text: str) -> list[str]:
    defs = typedefs(text)
    out = []
    for py_name, js_name in OBJECTS.items():
        if js_name not in defs:
            out.append(f"{js_name}: no typedef in protocol.js for the server's {py_name}")
            continue
        out += drift(_typed(py_name), defs[js_name], js_name, defs)
    for py_name, js_name in UNIONS.items():
        out += union_drift(getattr(protocol, py_name), defs[js_name], js_name, defs)
    for js_name, alias in LITERALS.items():
        values = py_literal(alias)
        assert values is not None, js_name
        if values != literals(defs[js_name]):
            out.append(f"{js_name}: the server's {sorted(values)}, protocol.js's {defs[js_name]}")
    return out


def test_protocol_js_agrees_with_the_server_s_typed_dicts() -> None:
    assert all_drift(PROTOCOL_JS.read_text(encoding="utf-8")) == []


def test_every_typed_dict_of_the_protocol_is_compared() -> None:
    """A TypedDict added to the server's protocol is compared with the page's types, or said to be the server's
    own (the page reads it inline, or never)."""
    own = {"JoinMessage", "ActionMessage", "HintRequest", "UndoMessage", "MoveRequest", "SayMessage",  # ClientMessage
           "TableLinks",  # CreatedTable's links, inline in protocol.js
           "RematchAnswer"}  # read inline by the page's rematch button (main.js)
    typed = {name for module in (protocol, api_types) for name, value in vars(module).items()
             if is_typeddict(value) and not name.startswith("_")}
    assert typed - own - set(OBJECTS) == set()


@pytest.mark.parametrize(("change", "found"), [
    # A field renamed, a field made optional, a kind added, a message type dropped: each is found.
    (('{{type: "seat", seat: Seat, token: string}}', '{{type: "seat", seat: Seat, secret: string}}'),
     "SeatMessage.token: sent by the server, missing from protocol.js"),
    (("version: number, view: View | null", "version?: number, view: View | null"),
     "StateMessage.version: optional in protocol.js only"),
    (('@typedef {"computer" | "room"} TableKind', '@typedef {"computer" | "room" | "club"} TableKind'),
     "TableKind: the server's ['computer', 'room'], protocol.js's \"computer\" | \"room\" | \"club\""),
    (("| SeatMessage | MoveMessage | TalkMessage\n *   | SaidMessage} ServerMessage",
      "| SeatMessage | TalkMessage\n *   | SaidMessage} ServerMessage"),
     "ServerMessage: type 'move' only in the server"),
])
def test_the_check_finds_a_drift(change: tuple[str, str], found: str) -> None:
    text = PROTOCOL_JS.read_text(encoding="utf-8")
    assert change[0] in text, change[0]
    assert found in all_drift(text.replace(change[0], change[1]))
