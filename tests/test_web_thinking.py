"""The computer thinks outside the server (``piquet.ui.web.thinking``): in worker processes that decide as the agent
would have in the server, are replaced when they die, never make a level-1 reply wait behind level 5, and end with the
server; at a table, one hint at a time, a limited number of them, and a failed decision told to the players."""

from __future__ import annotations

import asyncio
import copy
import itertools
import os
import pickle
import random
import threading
from contextlib import ExitStack
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from guard_helpers import WAIT
from thinking_agents import DyingAgent, NotingAgent, WaitingAgent, WhereAgent
from web_helpers import Client, choose, create, play_computer, seed_tables

from piquet.ai.agent import Agent, RandomAgent
from piquet.ai.levels import make_agent
from piquet.coach import hints
from piquet.engine.actions import Action, Bid, ChooseDealer, Concede, Declare, Exchange, Play
from piquet.engine.cards import CARDS, CardSet
from piquet.engine.language import words_in
from piquet.engine.partie import LegalActions, Partie, Phase
from piquet.engine.view import PlayerView
from piquet.ui.web import advice as advice_module
from piquet.ui.web import tables as tables_module
from piquet.ui.web import thinking
from piquet.ui.web.app import create_app
from piquet.ui.web.thinking import Legal, Thinker, ThinkingFailed

#: The worlds a review draws here: few, to keep the tests quick.
FEW = hints.Worlds(4, 30, 4, 4)
#: A level-5 agent that samples little, to keep the tests quick (the deep lane all the same).
LIGHT_LEVEL5 = "level5:play=3,exchange=20,candidates=3,bids=4"


def decision() -> tuple[PlayerView, LegalActions]:
    """The view and legal actions of the first decision of a partie (choosing the dealer)."""
    partie = Partie(("Ann", "Bill"))
    partie.push(partie.random_cut(random.Random(1)))
    assert partie.to_act is not None
    return partie.view(partie.to_act), partie.legal_actions(partie.to_act)


@pytest.fixture
def thinker() -> Any:
    thinker = Thinker(workers=1)
    yield thinker
    thinker.close()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# ---------------------------------------------------------------- the workers
def asked_of(partie: Partie, seat: int, legal: LegalActions, rng: random.Random) -> list[Action]:
    """Actions an agent may ask ``in`` about: the legal ones, each declaration with its combinations in every
    order, the books' choice, random exchanges, every card, every call, and the other seat's."""
    asked: list[Action] = list(legal)
    for action in legal:
        if isinstance(action, Declare) and len(action.combinations) > 1:
            # Every order: elder's call (his first) binds him, younger reckons in any order (the rulings, 10).
            asked += [Declare(seat, action.category, tuple(order))
                      for order in itertools.permutations(action.combinations)]
    asked.append(make_agent("level2", 0).choose(partie.view(seat), legal))
    hand = partie.view(seat).hand.cards()
    for _ in range(20):
        discards = CardSet(rng.sample(hand, rng.randint(0, min(len(hand), 8))))
        asked += [Exchange(seat, discards), Exchange(seat, discards, show_rest=True)]
    asked += [Play(seat, c) for c in CARDS] + [Bid(seat, c) for c in ("pass", "7+", "8-", "12+", "double")]
    asked += [ChooseDealer(seat, 0), ChooseDealer(seat, 1), Concede(seat), Play(1 - seat, CARDS[0])]
    return asked


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_the_legal_actions_a_worker_gets_are_the_engines_answer_in_alike_and_carry_no_partie(variant: str) -> None:
    """What goes to a worker: the legal actions in the engine's order, ``in`` answered as by the engine for every
    action an agent may ask about, and nothing in it that names the partie (which holds the hidden cards)."""
    rng = random.Random(variant)
    players = [RandomAgent(random.Random(1)), make_agent("level2", 2)]
    partie = Partie(("Ann", "Bill"), variant)
    checked = 0
    while len(partie.deal_scores) < 3 and not partie.is_over:
        if partie.phase is Phase.CUT:
            partie.push(partie.random_cut(rng))
            continue
        seat = partie.to_act
        assert seat is not None
        if partie.phase is Phase.DEAL:
            partie.push(partie.random_deal(rng))
            continue
        legal = partie.legal_actions(seat)
        sent = pickle.dumps((partie.view(seat), Legal(legal)))
        assert b"Partie" not in sent and b"LegalActions" not in sent
        _, listed = pickle.loads(sent)  # as the worker has them
        assert list(listed) == legal.list() and len(listed) == len(legal)
        for action in asked_of(partie, seat, legal, rng):
            assert (action in listed) == (action in legal), action
        checked += 1
        partie.push(players[seat].choose(partie.view(seat), legal))
    assert checked > 50


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_a_hint_and_a_check_cross_as_the_seats_view_and_give_what_the_partie_would(variant: str) -> None:
    """What a hint or a tutor's check sends a worker: the seat's view and legal actions, nothing that names the partie
    or the memo every partie with the same rules shares; and the review made from them is the partie's own."""
    rng = random.Random(variant)
    players = [make_agent("level2", 1), make_agent("level2", 2)]
    partie = Partie(("Ann", "Bill"), variant)
    checked = 0
    while checked < 4 and not partie.is_over:
        if partie.phase is Phase.CUT:
            partie.push(partie.random_cut(rng))
            continue
        seat = partie.to_act
        assert seat is not None
        if partie.phase is Phase.DEAL:
            partie.push(partie.random_deal(rng))
            continue
        legal = partie.legal_actions(seat)
        if thinking.reviewed(partie.phase) and len(legal) > 1 and rng.random() < 0.4:
            view = partie.view(seat)
            choice = legal.list()[-1]
            for task, args in ((thinking._hint, (view, Legal(legal), 5, 0.0)),
                               (thinking._check, (view, Legal(legal), choice, 0.0, 5, 0.0))):
                sent = pickle.dumps((task, args))
                assert b"Partie" not in sent and b"_PlayMemo" not in sent and b"LegalActions" not in sent
                assert len(sent) < 200_000
            crossed_view, crossed_legal = pickle.loads(pickle.dumps((view, Legal(legal))))
            decision = cast(Partie, thinking.SeatDecision(crossed_view, crossed_legal))
            assert hints.hint(decision, 5, 0.0, worlds=FEW) == hints.hint(partie, 5, 0.0, worlds=FEW)
            assert hints.check(decision, choice, 0.0, 5, 0.0, worlds=FEW) == \
                hints.check(partie, choice, 0.0, 5, 0.0, worlds=FEW)
            checked += 1
        partie.push(players[seat].choose(partie.view(seat), legal))
    assert checked == 4


@pytest.mark.slow  # a whole partie (or several): the inner loop leaves it to CI
def test_hints_made_in_a_worker_while_the_loop_plays_other_parties_all_come_back(thinker: Thinker) -> None:
    """The memo of leads and tricks that parties with the same rules share grows while hints are sent (it made
    pickling the partie fail under load): what crosses now is the view, pickled on the loop, and no hint fails."""
    rng = random.Random(4)

    async def run() -> None:
        stop = asyncio.Event()

        async def play() -> None:  # other tables, on the loop
            while not stop.is_set():
                other = Partie(("Cy", "Di"), first_dealer=0)
                other.push(other.random_deal(rng))
                while not other.deal_scores and not stop.is_set():
                    seat = other.to_act
                    assert seat is not None
                    other.push(rng.choice(other.legal_actions(seat).list()))
                    await asyncio.sleep(0)

        player = asyncio.ensure_future(play())
        partie = Partie(("Ann", "Bill"), first_dealer=0)
        partie.push(partie.random_deal(rng))
        asked = 0
        while not partie.deal_scores:
            seat = partie.to_act
            assert seat is not None
            legal = partie.legal_actions(seat)
            if thinking.reviewed(partie.phase):
                await thinker.hint(partie.view(seat), legal, asked, 0.05, table="t", address="a")
                asked += 1
            partie.push(rng.choice(legal.list()))
        stop.set()
        await player
        assert asked > 10

    asyncio.run(run())


@pytest.mark.parametrize(("spec", "level"), [("level3", 3), (LIGHT_LEVEL5, 5)])
def test_a_worker_decides_as_the_agent_would_in_the_server_and_moves_its_state_on_alike(
        thinker: Thinker, spec: str, level: int) -> None:
    """A deal's decisions made in the quick or deep lane are the in-server agent's, and the agent that comes back
    draws its next random numbers as the in-server one does: play stays the same, decision for decision."""
    here = make_agent(spec, 5)
    there: Agent = copy.deepcopy(here)
    partie = Partie(("Ann", "Bill"), first_dealer=1)
    rng = random.Random(8)
    other = make_agent("level2", 0)
    decisions = 0
    while not partie.deal_scores:
        seat = partie.to_act
        assert seat is not None
        if partie.phase is Phase.DEAL:
            partie.push(partie.random_deal(rng, partie.legal_packets()[0]))
            continue
        view, legal = partie.view(seat), partie.legal_actions(seat)
        if seat == 0:
            mine = here.choose(view, legal)
            theirs, there = asyncio.run(thinker.choose(there, view, legal, level))
            assert theirs == mine
            decisions += 1
        else:
            mine = other.choose(view, legal)
        partie.push(mine)
    assert decisions > 5
    assert there.rng.getstate() == here.rng.getstate()  # type: ignore[attr-defined]


def test_levels_three_to_five_think_in_worker_processes_and_levels_one_and_two_in_the_server(
        thinker: Thinker) -> None:
    view, legal = decision()
    where = {}
    for level in (1, 2, 3, 4, 5):
        _, agent = asyncio.run(thinker.choose(WhereAgent(), view, legal, level))
        assert isinstance(agent, WhereAgent)
        where[level] = agent.pids[0]
    assert where[1] == where[2] == os.getpid()
    assert os.getpid() not in (where[3], where[4], where[5]) and where[3] != where[4] == where[5]


def test_a_level_one_or_three_decision_does_not_wait_behind_level_five_thinking(
        thinker: Thinker, tmp_path: Path) -> None:
    view, legal = decision()
    go = tmp_path / "go"

    async def run() -> None:
        deep = asyncio.ensure_future(thinker.choose(WaitingAgent(go), view, legal, 5))
        await asyncio.sleep(0)
        quick = await thinker.choose(WhereAgent(), view, legal, 3)
        here = await thinker.choose(WhereAgent(), view, legal, 1)
        assert quick[0] == here[0] and not deep.done()  # level 5 is still thinking
        go.touch()
        assert (await deep)[0] == here[0]

    asyncio.run(run())


def test_a_worker_killed_while_thinking_is_replaced_and_the_decision_made_again(
        thinker: Thinker, tmp_path: Path) -> None:
    view, legal = decision()
    action, agent = asyncio.run(thinker.choose(DyingAgent(tmp_path, 1), view, legal, 5))
    assert action in legal and len(list(tmp_path.iterdir())) == 1
    assert isinstance(agent, WhereAgent) and agent.pids[0] != os.getpid()


def test_a_decision_whose_worker_dies_each_time_fails_with_a_reason_and_the_lane_serves_on(
        thinker: Thinker, tmp_path: Path) -> None:
    view, legal = decision()
    with pytest.raises(ThinkingFailed, match="died twice"):
        asyncio.run(thinker.choose(DyingAgent(tmp_path, 10), view, legal, 5))
    action, _ = asyncio.run(thinker.choose(WhereAgent(), view, legal, 5))
    assert action in legal


def test_the_workers_are_replaced_by_fresh_ones_after_their_allowance_of_decisions(
        thinker: Thinker, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(thinking, "RECYCLE_AFTER", 2)
    view, legal = decision()
    pids = []
    for _ in range(5):
        action, agent = asyncio.run(thinker.choose(WhereAgent(), view, legal, 5))
        assert action in legal and isinstance(agent, WhereAgent)
        pids.append(agent.pids[0])
    assert pids[0] == pids[1] != pids[2] == pids[3] != pids[4]


def test_a_hint_is_refused_busy_once_the_hints_lane_or_its_address_has_its_queue_full(
        thinker: Thinker, tmp_path: Path) -> None:
    """Hints wait in a lane of their own: the computer's moves filling theirs make no hint wait, and a hint is refused
    once HINT_QUEUE wait, or HINT_QUEUE_PER_ADDRESS from the asking address."""
    view, legal = decision()
    go = tmp_path / "go"

    async def run() -> None:
        moves = [asyncio.ensure_future(thinker.choose(WaitingAgent(go), view, legal, 5, table=f"t{i}"))
                 for i in range(thinking.HINT_QUEUE + 2)]
        await asyncio.sleep(0)
        assert not thinker.busy("10.0.0.1")  # the deep lane is full; the hints lane is empty
        asked = [asyncio.ensure_future(thinker.choose(WaitingAgent(go), view, legal, 5, table="a",
                                                      hint_for="10.0.0.1"))
                 for _ in range(1 + thinking.HINT_QUEUE_PER_ADDRESS)]  # one thought about, the rest waiting
        await asyncio.sleep(0.05)
        assert thinker.busy("10.0.0.1") and not thinker.busy("10.0.0.2")
        asked += [asyncio.ensure_future(thinker.choose(WaitingAgent(go), view, legal, 5, table=f"b{i}",
                                                       hint_for=f"10.0.{i}.2"))
                  for i in range(thinking.HINT_QUEUE - thinking.HINT_QUEUE_PER_ADDRESS)]
        await asyncio.sleep(0.05)
        assert thinker.busy("10.0.99.3")
        go.touch()
        await asyncio.gather(*moves, *asked)
        assert not thinker.busy("10.0.0.1")

    asyncio.run(run())


def test_the_computers_move_never_waits_behind_hints(thinker: Thinker, tmp_path: Path) -> None:
    view, legal = decision()
    go = tmp_path / "go"

    async def run() -> None:
        waiting = [asyncio.ensure_future(thinker.choose(WaitingAgent(go), view, legal, 5, table=f"h{i}",
                                                      hint_for=f"10.0.{i}.1")) for i in range(4)]
        await asyncio.sleep(0.05)
        action, agent = await asyncio.wait_for(thinker.choose(WhereAgent(), view, legal, 5, table="victim"), WAIT)
        assert action in legal and isinstance(agent, WhereAgent) and not any(h.done() for h in waiting)
        go.touch()
        await asyncio.gather(*waiting)

    asyncio.run(run())


def test_each_lane_serves_its_tables_by_turns(thinker: Thinker, tmp_path: Path) -> None:
    """One table asks for three decisions, another for one, while the lane's worker is held: the other table's comes
    second, not after the first table's three."""
    view, legal = decision()
    log, go = tmp_path / "log", tmp_path / "go"

    async def run() -> None:
        held = asyncio.ensure_future(thinker.choose(NotingAgent("held", log, go), view, legal, 5, table="a"))
        await asyncio.sleep(0.05)
        queued = [asyncio.ensure_future(thinker.choose(NotingAgent(f"a{i}", log), view, legal, 5, table="a"))
                  for i in range(3)]
        queued.append(asyncio.ensure_future(thinker.choose(NotingAgent("b", log), view, legal, 5, table="b")))
        await asyncio.sleep(0)
        go.touch()
        await asyncio.gather(held, *queued)

    asyncio.run(run())
    assert log.read_text().split() == ["held", "a0", "b", "a1", "a2"]


def test_the_hints_lane_serves_its_addresses_by_turns_whatever_their_tables(thinker: Thinker, tmp_path: Path) -> None:
    """One address asks hints at three tables, another at one, while the lane's worker is held: the other address's
    hint comes second."""
    view, legal = decision()
    log, go = tmp_path / "log", tmp_path / "go"

    def hint(name: str, table: str, address: str, until: Path | None = None) -> Any:
        return asyncio.ensure_future(thinker.choose(NotingAgent(name, log, until), view, legal, 5, table=table,
                                                    hint_for=address))

    async def run() -> None:
        held = hint("held", "t0", "10.0.0.1", go)
        await asyncio.sleep(0.05)
        queued = [hint(f"a{i}", f"t{i}", "10.0.0.1") for i in range(1, 3)] + [hint("b", "u", "10.0.1.1")]
        await asyncio.sleep(0)
        go.touch()
        await asyncio.gather(held, *queued)

    asyncio.run(run())
    assert log.read_text().split() == ["held", "a1", "b", "a2"]


def test_a_task_past_its_hard_limit_is_stopped_and_fails_alone(thinker: Thinker, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(thinking, "JOB_GRACE", 0.5)
    view, legal = decision()

    async def run() -> None:
        stuck = asyncio.ensure_future(thinker.choose(WaitingAgent(tmp_path / "never"), view, legal, 5, table="a",
                                                     budget=0.1))
        behind = asyncio.ensure_future(thinker.choose(WhereAgent(), view, legal, 5, table="b"))
        with pytest.raises(ThinkingFailed, match="longer than its limit"):
            await asyncio.wait_for(stuck, WAIT)
        action, _ = await asyncio.wait_for(behind, WAIT)
        assert action in legal

    asyncio.run(run())


def test_a_decision_that_kills_its_worker_twice_fails_alone_and_those_queued_behind_it_are_made(
        thinker: Thinker, tmp_path: Path) -> None:
    view, legal = decision()

    async def run() -> None:
        dying = asyncio.ensure_future(thinker.choose(DyingAgent(tmp_path, 10), view, legal, 5, table="a"))
        behind = [asyncio.ensure_future(thinker.choose(WhereAgent(), view, legal, 5, table=f"b{i}"))
                  for i in range(3)]
        with pytest.raises(ThinkingFailed, match="died twice"):
            await asyncio.wait_for(dying, WAIT)
        for action, _ in await asyncio.wait_for(asyncio.gather(*behind), WAIT):
            assert action in legal

    asyncio.run(run())


def test_the_workers_end_when_the_server_shuts_down(tmp_path: Path) -> None:
    view, legal = decision()
    with TestClient(create_app(str(tmp_path / "db.sqlite3"), workers=1)) as http:
        thinker = http.app.state.tables.thinker  # type: ignore[attr-defined]
        pids = [http.portal.call(thinker.choose, WhereAgent(), view, legal, level)[1].pids[0]  # type: ignore[union-attr]
                for level in (3, 5)]
        assert all(alive(pid) for pid in pids)
    assert not any(alive(pid) for pid in pids)


# ---------------------------------------------------------------- at a table
def to_decide(state: dict[str, Any]) -> bool:
    """A decision of the player's that is not the packets (whose hint the server gives at once)."""
    return state["prompt"] is not None and state["prompt"]["kind"] != "packets"


def seated(http: TestClient, stack: ExitStack, level: int = 1) -> tuple[dict[str, Any], Client]:
    table = create(http, "computer", name="Ann", level=level)
    ann = Client(stack.enter_context(http.websocket_connect(f"/ws/{table['id']}?token={table['token']}")), "Ann")
    play_computer(ann, random.Random(2), stop=to_decide)
    return table, ann


def test_the_computer_of_a_table_thinks_in_a_worker_process(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seed_tables(monkeypatch, 3)
    made = lambda name, seed: WhereAgent() if name == "level3" else make_agent(name, seed)  # noqa: E731
    monkeypatch.setattr(tables_module, "make_agent", made)
    with TestClient(create_app(str(tmp_path / "db.sqlite3"), workers=1)) as http, ExitStack() as stack:
        table = create(http, "computer", name="Ann", level=3)
        ann = Client(stack.enter_context(http.websocket_connect(f"/ws/{table['id']}?token={table['token']}")))
        # by the card play, the computer has exchanged (a decision of its own, whoever dealt)
        play_computer(ann, random.Random(2), stop=lambda s: s["prompt"] is not None and s["prompt"]["kind"] == "play")
        agent = http.app.state.tables.get(table["id"]).agent  # type: ignore[attr-defined]
        assert isinstance(agent, WhereAgent) and agent.pids and os.getpid() not in agent.pids


class GatedAgent(WhereAgent):
    """Thinks (in a thread of the server) until let go."""

    started = threading.Event()
    go = threading.Event()

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        GatedAgent.started.set()
        assert GatedAgent.go.wait(20)
        return super().choose(view, legal)


def test_a_hint_asked_while_the_computer_thinks_of_one_is_refused_busy(monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path) -> None:
    seed_tables(monkeypatch, 3)
    made = lambda name, seed: GatedAgent() if name == "level5" else make_agent(name, seed)  # noqa: E731
    monkeypatch.setattr(tables_module, "make_agent", made)
    review = thinking._hint

    def gated(*args: Any) -> Any:  # the review's hint, held like the agent's
        GatedAgent.started.set()
        assert GatedAgent.go.wait(20)
        return review(*args)

    monkeypatch.setattr(thinking, "_hint", gated)
    GatedAgent.started.clear()
    GatedAgent.go.clear()
    with TestClient(create_app(str(tmp_path / "db.sqlite3"), workers=0)) as http, ExitStack() as stack:
        table, ann = seated(http, stack)
        # the same seat in another tab (one connection reads its messages one after the other)
        again = Client(stack.enter_context(http.websocket_connect(f"/ws/{table['id']}?token={table['token']}")))
        again.joined()
        ann.send({"type": "hint"})
        assert GatedAgent.started.wait(20)
        again.send({"type": "hint"})
        refused = again.recv()
        GatedAgent.go.set()
        assert refused["type"] == "error" and refused["code"] == "busy", refused
        assert ann.recv()["type"] == "hint"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_a_seat_may_ask_a_burst_of_hints_then_one_each_interval(monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    seed_tables(monkeypatch, 3)
    clock = Clock()
    monkeypatch.setattr(advice_module, "time", clock)
    monkeypatch.setattr(advice_module, "HINT_LEVEL", 1)  # an instant adviser: the limit is what is tested
    with TestClient(create_app(str(tmp_path / "db.sqlite3"), workers=0)) as http, ExitStack() as stack:
        _, ann = seated(http, stack)

        def ask() -> dict[str, Any]:
            ann.send({"type": "hint"})
            return ann.recv()

        assert [ask()["type"] for _ in range(advice_module.HINT_BURST)] == ["hint"] * advice_module.HINT_BURST
        refused = ask()
        assert refused["code"] == "busy" and "one every" in refused["message"]
        clock.now += advice_module.HINT_INTERVAL * 0.9
        assert ask()["code"] == "busy"
        clock.now += advice_module.HINT_INTERVAL * 0.1
        assert ask()["type"] == "hint"
        assert ask()["code"] == "busy"


class FailingAgent(WhereAgent):
    """Fails once (counted on the class: the agent runs in a thread of the server), then decides."""

    failures = 0

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        if FailingAgent.failures == 0:
            FailingAgent.failures += 1
            raise RuntimeError("out of ideas")
        return super().choose(view, legal)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_computer_that_cannot_decide_is_told_to_the_players_and_asked_again_on_reconnecting(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, lang: str) -> None:
    """The players are told in their page's language (a French page: "l'ordinateur n'a pas pu décider ...")."""
    seed_tables(monkeypatch, 3)
    FailingAgent.failures = 0
    made = lambda name, seed: FailingAgent() if name == "level3" else make_agent(name, seed)  # noqa: E731
    monkeypatch.setattr(tables_module, "make_agent", made)
    with TestClient(create_app(str(tmp_path / "db.sqlite3"), workers=0)) as http:
        table = create(http, "computer", name="Ann", level=3)
        with ExitStack() as stack:
            ann = Client(stack.enter_context(http.websocket_connect(f"/ws/{table['id']}?token={table['token']}"
                                                                    f"&lang={lang}")))
            rng = random.Random(2)
            failed = ann.recv()
            while failed["type"] == "state":  # Ann answers her prompts until the computer is to decide
                if failed["prompt"] is not None:
                    ann.act(choose(failed, rng))
                failed = ann.recv()
            assert failed["code"] == "computer_failed" and "RuntimeError" not in failed["message"]
            assert failed["message"] == words_in(lang)("the computer could not decide: reload the page to ask it "
                                                       "again")
            assert failed["message"].startswith("l'ordinateur n'a pas pu" if lang == "fr" else "the computer could")
            stuck = ann.current
            assert stuck["view"]["to_act"] == stuck["computer"] and stuck["prompt"] is None
        with ExitStack() as stack:
            ann = Client(stack.enter_context(http.websocket_connect(f"/ws/{table['id']}?token={table['token']}")))
            moved = ann.until(lambda m: m["type"] == "state" and m["version"] > stuck["version"])
            assert moved["version"] == stuck["version"] + 1
