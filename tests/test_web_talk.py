"""The whole talk of the partie on reconnection (issue 36): a page that joins a table once a deal is over is sent,
after the state, the table talk of every finished deal (``talk``, docs/protocol.md), the same a page that watched
the whole partie kept deal by deal: from another tab or device, over the server's socket and the offline worker's,
in the seat's language. Everything in it was public once its deal was over."""

from __future__ import annotations

import asyncio
import json
import random
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from helpers import random_step
from web_helpers import FOUR_DEALS, connect, create, db, play_computer, query

from piquet.engine.partie import Partie
from piquet.ui.web.app import create_app
from piquet.ui.web.offline import Host
from piquet.ui.web.protocol import ViewData, talk_message, view_data


def _agrees(deals: list[dict[str, Any]], states: list[dict[str, Any]], finished: int) -> None:
    """The talk holds the cut and each of the ``finished`` deals whole (its twelve tricks), and every state a page
    saw of those deals said the beginning of it (a page may miss a deal's last state: the next deal's replaced it
    in the connection's queue, which is why the talk is read from the deal's log, not kept from the states)."""
    assert [d["deal"] for d in deals] == list(range(finished + 1))
    assert deals[0]["tricks"] == [] and all(len(d["tricks"]) == 12 for d in deals[1:])
    by_deal = {d["deal"]: d for d in deals}
    seen = 0
    for state in states:
        view = state["view"]
        if view is not None and view["deal_number"] in by_deal and view["log"]:
            told = by_deal[view["deal_number"]]
            assert told["log"][:len(view["log"])] == view["log"]
            assert told["tricks"][:len(view["tricks"])] == view["tricks"]
            seen += 1
    assert seen > 0


def _after_two_deals(state: dict[str, Any]) -> bool:
    return bool(state["view"]) and state["view"]["deal_number"] >= 3


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_page_that_joins_later_is_sent_the_talk_the_page_that_played_kept(tmp_path: Path, lang: str) -> None:
    app = create_app(db(tmp_path))
    with TestClient(app) as http, ExitStack() as stack:
        table = create(http, name="Ann", options=FOUR_DEALS)
        ann = connect(http, stack, table, f"{query(table['links']['play'])}&lang={lang}", "Ann")
        play_computer(ann, random.Random(7), stop=_after_two_deals)
        # Another device: the state first, then the finished deals' talk (the cut, then two deals).
        other = connect(http, stack, table, f"{query(table['links']['play'])}&lang={lang}", "Ann elsewhere")
        assert [m["type"] for m in other.messages] == ["state", "talk"]
        talk = other.messages[1]
        _agrees(talk["deals"], ann.states(), 2)
        assert other.current["view"]["deal_number"] == 3
        if lang == "fr":
            assert talk["deals"][1]["log"][0]["text"].startswith("Donne 1 : ")
        # A spectator is told the same: nothing in it was hidden once its deal was over.
        watcher = connect(http, stack, table, f"{query(table['links']['spectate'])}&lang={lang}", "watcher")
        assert watcher.messages[1]["deals"] == talk["deals"]


def test_before_any_deal_is_over_nothing_is_sent_but_the_state(tmp_path: Path) -> None:
    app = create_app(db(tmp_path))
    with TestClient(app) as http, ExitStack() as stack:
        table = create(http, name="Ann")
        first = connect(http, stack, table, query(table["links"]["play"]), "Ann")
        assert first.current["view"]["deal_number"] <= 1
        first.send({"type": "hint"})  # answered by something: the first message after the state is not a talk
        assert first.recv()["type"] != "talk"


def test_the_talk_of_each_finished_deal_is_its_last_state_s_log_and_tricks() -> None:
    """Read from the deal's log alone (the engine's ``finished_logs``): the tricks pair its cards played, the
    second card's ``winner`` saying who took it, as the view's tricks had them."""
    partie = Partie(("Ann", "Bill"), "rubicon")
    rng = random.Random(3)
    last_views: dict[int, ViewData] = {}
    while partie.deal_number < 4:
        view = view_data(partie.view(0))
        last_views[view["deal_number"]] = view
        random_step(partie, rng)
    deals = talk_message(partie)["deals"]
    assert [d["deal"] for d in deals] == [0, 1, 2, 3]
    for deal in deals:
        last = last_views[deal["deal"]]
        assert deal["log"] == last["log"] and deal["tricks"] == last["tricks"]


def test_the_offline_worker_sends_the_talk_as_the_server_does() -> None:
    """The offline site's worker (``Host``) greets a page with the same ``talk`` (one table, two transports)."""
    kept: dict[str, str] = {}
    sent: list[tuple[int, str, str]] = []

    async def read(key: str) -> str | None:
        return kept.get(key)

    async def write(key: str, text: str) -> None:
        kept[key] = text

    def messages(number: int) -> list[dict[str, Any]]:
        return [json.loads(t) for n, k, t in sent if n == number and k == "message"]

    async def play() -> None:
        host = Host(read, write, lambda n, kind, text: sent.append((n, kind, text)))
        created = json.loads(await host.create(json.dumps({"kind": "computer", "level": 1, "name": "Ann"})))
        await host.connect(1, created["id"], "token", created["token"], "en")
        rng = random.Random(5)
        for _ in range(400):
            await host.idle()
            state = [m for m in messages(1) if m["type"] == "state"][-1]
            if state["view"]["deal_number"] >= 2:
                break
            if state["prompt"] is not None:
                await host.receive(1, json.dumps({"type": "action", "version": state["version"],
                                                  "action": _first_choice(state, rng)}))
        else:
            raise AssertionError("the first deal did not end")
        await host.connect(2, created["id"], "token", created["token"], "en")
        await host.idle()
        greeting = messages(2)
        assert [m["type"] for m in greeting[:2]] == ["state", "talk"]
        _agrees(greeting[1]["deals"], [m for m in messages(1) if m["type"] == "state"], 1)

    asyncio.run(play())


def _first_choice(state: dict[str, Any], rng: random.Random) -> Any:
    prompt = state["prompt"]
    if prompt["kind"] == "play":
        return {"play": rng.choice(prompt["cards"])}
    if prompt["kind"] == "exchange":
        return {"exchange": state["view"]["hand"][:max(1, prompt["min"])], "show_rest": False}
    if prompt["kind"] in ("choose_dealer", "packets"):
        return {prompt["kind"]: prompt["options"][0]}
    option = prompt["options"][0]
    return option["action"] if prompt["kind"] == "declare" else option


