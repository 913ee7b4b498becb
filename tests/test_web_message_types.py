"""The protocol's TypedDicts (``piquet/ui/web/protocol.py``) are the messages the server really sends and reads, and
``docs/protocol.md`` names every field of them: real messages from whole games at the server are checked, field by
field and value by value, against the types, so the types, the wire and the doc cannot drift apart."""

from __future__ import annotations

import json
import random
import re
import types
import typing
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Literal, cast, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from fastapi.testclient import TestClient
from web_helpers import (
    FOUR_DEALS,
    Client,
    connect,
    create,
    db,
    error,
    play_computer,
    play_room,
    query,
    room,
    seed_tables,
)

from piquet.ui.takebacks import Takebacks
from piquet.ui.web import advice as advice_module
from piquet.ui.web import protocol
from piquet.ui.web.api_types import CreatedTable, SetupAnswer
from piquet.ui.web.app import create_app
from piquet.ui.web.protocol import ClientMessage, ErrorCode, Prompt, ServerMessage, read_message

DOC = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text(encoding="utf-8")


def mismatch(value: object, hint: Any, where: str = "message") -> str | None:
    """Where ``value`` is not of the type ``hint`` (a TypedDict's keys exactly, each value of its field's type), or
    ``None`` if it is."""
    if hint is Any or hint is object:
        return None
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return f"{where}: {value!r} is not an object ({hint.__name__})"
        keys = set(value)
        missing = hint.__required_keys__ - keys
        extra = keys - hint.__required_keys__ - hint.__optional_keys__
        if missing or extra:
            return f"{where} ({hint.__name__}): missing {sorted(missing)}, not in the type {sorted(extra)}"
        fields = get_type_hints(hint)
        for key in keys:
            wrong = mismatch(value[key], fields[key], f"{where}.{key}")
            if wrong:
                return wrong
        return None
    origin = get_origin(hint)
    if origin is Literal:
        if any(value == word and type(value) is type(word) for word in get_args(hint)):
            return None
        return f"{where}: {value!r} is not one of {get_args(hint)}"
    if origin in (typing.Union, types.UnionType):
        members = _tagged(value, get_args(hint))
        wrongs = [mismatch(value, member, where) for member in members]
        return None if not all(wrongs) else " or ".join(w for w in wrongs if w)
    if origin in (list, Sequence):
        if not isinstance(value, list):
            return f"{where}: {value!r} is not an array"
        (item,) = get_args(hint)
        return next((w for i, v in enumerate(value) if (w := mismatch(v, item, f"{where}[{i}]"))), None)
    if origin in (dict, Mapping):
        if not isinstance(value, dict):
            return f"{where}: {value!r} is not an object"
        _, item = get_args(hint)
        return next((w for k, v in value.items() if (w := mismatch(v, item, f"{where}.{k}"))), None)
    if hint is type(None):
        return None if value is None else f"{where}: not null"
    if hint is int:
        return None if isinstance(value, int) and not isinstance(value, bool) else f"{where}: {value!r} is not a number"
    if hint is float:  # a number of seconds: JSON writes a whole one as 5 or 5.0
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        return None if number else f"{where}: {value!r} is not a number"
    if hint in (str, bool):
        return None if isinstance(value, hint) else f"{where}: {value!r} is not a {hint.__name__}"
    raise AssertionError(f"the checker does not know the type {hint!r} (at {where})")


def _tagged(value: object, members: tuple[Any, ...]) -> tuple[Any, ...]:
    """The members of a union of TypedDicts that ``value``'s tag (``type`` or ``kind``) names; all if none does."""
    if value is not None and type(None) in members:
        members = tuple(m for m in members if m is not type(None))
    if isinstance(value, dict):
        for tag in ("type", "kind"):
            named = tuple(m for m in members if is_typeddict(m) and tag in get_type_hints(m)
                          and value.get(tag) in get_args(get_type_hints(m)[tag]))
            if named:
                return named
    return members


def test_the_checker_refuses_a_missing_key_an_extra_key_and_a_value_of_the_wrong_type() -> None:
    good = {"type": "error", "code": "stale", "message": "..."}
    assert mismatch(good, ServerMessage) is None
    assert mismatch({"type": "error", "code": "stale"}, ServerMessage)
    assert mismatch({**good, "extra": 1}, ServerMessage)
    assert mismatch({**good, "code": "no such code"}, ServerMessage)
    assert mismatch({"kind": "play", "cards": ["QS"], "concede": 0}, Prompt)
    assert mismatch({"kind": "play", "cards": ["QS"], "concede": False}, Prompt) is None


def _messages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], CreatedTable, list[Client]]:
    """Real messages: the setup, a room from its waiting to the end of a short partie (with its seat, move and error
    messages), and tables against the computer in every variant (a hint asked at each)."""
    seed_tables(monkeypatch, 3)
    monkeypatch.setattr(advice_module, "HINT_LEVEL", 1)  # the hint's message is the same at any level; level 1 is quick
    rng = random.Random(5)
    clients: list[Client] = []
    with TestClient(create_app(db(tmp_path), workers=0)) as http, ExitStack() as stack:
        setup = http.get("/api/setup").json()
        created = create(http, "room", name="Ann")
        waiting = connect(http, stack, created, f"token={created['token']}", "Ann")
        assert waiting.current["table"]["status"] == "waiting" and waiting.current["view"] is None
        clients.append(waiting)
        table, ann, bill = room(http, stack, options=FOUR_DEALS)
        spectator = connect(http, stack, table, query(table["links"]["spectate"]))
        ann.send({"type": "move"})
        ann.until(lambda m: m["type"] == "move")
        bill.send({"type": "say", "phrase": "good_luck"})
        for client in (ann, bill, spectator):
            client.until(lambda m: m["type"] == "said")
        bill.send({"type": "undo", "version": 0})
        error(bill, "not_allowed")
        play_room([ann, bill], rng)
        clients += [ann, bill, spectator]
        for variant in ("rubicon", "auction", "au-cent"):
            game = create(http, "computer", variant=variant, name="Ann")
            player = connect(http, stack, game, f"token={game['token']}", "Ann")
            player.until(lambda m: m["type"] == "state" and m["prompt"] is not None)
            player.send({"type": "hint"})
            player.until(lambda m: m["type"] == "hint")
            play_computer(player, rng, stop=lambda s: len(s["view"]["sheet"]) >= 2 if s["view"] else False)
            clients.append(player)
    return setup, cast(CreatedTable, created), clients


@pytest.mark.slow  # a whole partie (or several): the inner loop leaves it to CI
def test_every_message_the_server_sent_in_whole_games_is_of_its_typed_dict(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    setup, created, clients = _messages(tmp_path, monkeypatch)
    assert mismatch(setup, SetupAnswer) is None
    assert mismatch(created, CreatedTable) is None
    kinds: set[str] = set()
    prompts: set[str] = set()
    contracts = 0
    for client in clients:
        for message in client.messages:
            assert mismatch(message, ServerMessage) is None, mismatch(message, ServerMessage)
            kinds.add(message["type"])
            if message["type"] == "state" and message["prompt"] is not None:
                prompts.add(message["prompt"]["kind"])
            if message["type"] == "state" and message["view"] is not None and message["view"]["contract"]:
                contracts += 1
    # Not vacuous: every type of message, and the prompts of every variant's decisions, were seen.
    assert kinds == {"state", "error", "hint", "seat", "move", "said"}
    assert {"bid", "exchange", "declare", "play"} <= prompts, prompts
    assert contracts, "no Auction contract among the states: the test would not check one"


@pytest.mark.parametrize("text", [
    '{"type": "action", "action": {"play": "QS"}, "version": 3}',
    '{"type": "action", "action": [1, 2], "version": 0}',
    '{"type": "hint"}', '{"type": "undo", "version": 12}', '{"type": "join", "name": "Bill"}', '{"type": "move"}',
    '{"type": "say", "phrase": "well_played"}',
])
def test_what_read_message_returns_is_a_client_message(text: str) -> None:
    message = read_message(text)
    assert mismatch(message, ClientMessage) is None
    assert message == json.loads(text)


def _typed_dicts() -> list[type]:
    return [v for v in vars(protocol).values() if is_typeddict(v) and v.__module__ == protocol.__name__]


def test_docs_protocol_md_names_every_field_and_every_error_code_of_the_types() -> None:
    named = set(re.findall(r'`([a-z_]+)`|"([a-z_]+)"', DOC))
    words = {a or b for a, b in named}
    assert len(_typed_dicts()) >= 30
    for typed in _typed_dicts():
        missing = sorted(k for k in get_type_hints(typed) if k not in words)
        assert not missing, f"docs/protocol.md does not name {missing} of {typed.__name__}"
    assert not [code for code in get_args(ErrorCode) if f"`{code}`" not in DOC]
    for alias in (protocol.PhaseName, protocol.PromptKind, protocol.TableStatus, Takebacks, protocol.Phrase,
                  protocol.ClientType):
        assert not [word for word in get_args(alias) if f"`{word}`" not in DOC], alias
