"""Several ``piquet serve`` processes on one PostgreSQL database (``docs/deploy.md``): each table is held by one
process at a time (a session's advisory lock, :mod:`piquet.ui.web.owners`), loaded only there; another process
asked for it answers "connect again" (close code 4409, HTTP 503 with ``Retry-After``); a table forgotten is given
back; a process whose lock connection fails drops its tables before acknowledging anything more. Two applications
in one test process are two processes here: each has its own lock connection (its own session)."""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import FOUR_DEALS, WAIT, Client, choose, close_code, connect, create, room

from piquet.ui.web.app import create_app
from piquet.ui.web.owners import CLOSE_ELSEWHERE, Owners, lock_key
from piquet.ui.web.store import SQLiteStore, SQLStore, TableInfo

psycopg = pytest.importorskip("psycopg")


@contextmanager
def server(url: str) -> Iterator[tuple[FastAPI, TestClient]]:
    """One server process on ``url`` (its lifespan run: the lock connection's watch), computer in threads."""
    app = create_app(url, workers=0, review_workers=0)
    owners = app.state.tables.owners
    assert isinstance(owners, Owners)
    owners.takeover_wait = 0.2  # another live process holds the table here: no need to wait out a death
    with TestClient(app) as http:
        yield app, http


def holder(url: str, table_id: str) -> str | None:
    """The ``application_name`` of the session that holds the table's lock, as an administrator would ask."""
    key = lock_key(table_id)
    with psycopg.connect(url) as connection:
        row = connection.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.classid = %s AND l.objid = %s AND l.objsubid = 1",
            ((key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF)).fetchone()
    return None if row is None else str(row[0])


def test_a_table_is_held_by_the_process_that_opened_it_and_another_asks_for_it(postgres_url: str) -> None:
    with server(postgres_url) as (a, http_a), server(postgres_url) as (b, http_b), ExitStack() as stack:
        table, ann, bill = room(http_a, stack, options=FOUR_DEALS)
        assert holder(postgres_url, table["id"]) == a.state.tables.owners.name
        version = step(ann, bill, random.Random(1))
        assert b.state.tables.owners.listening.wait(WAIT) and a.state.tables.owners.listening.wait(WAIT)
        # Ann's page reaches B (the proxy routes the table there now): B asks A for the table, A closes its
        # connections with 4409 and gives the lock back, and B takes it; Ann and Bill connect again (to B).
        deadline = time.monotonic() + WAIT
        while True:
            try:
                ann_b = connect(http_b, stack, table, f"token={table['token']}", "Ann")
                break
            except WebSocketDisconnect as e:
                assert e.code == CLOSE_ELSEWHERE and time.monotonic() < deadline
        assert ann_b.current["version"] >= version
        for player in (ann, bill):
            with pytest.raises(WebSocketDisconnect) as closed:
                player.until(lambda _m: False)
            assert closed.value.code == CLOSE_ELSEWHERE
        assert a.state.tables.get(table["id"]) is None
        assert holder(postgres_url, table["id"]) == b.state.tables.owners.name
        bill_b = connect(http_b, stack, table, f"token={table['guest']}", "Bill")
        assert step(ann_b, bill_b, random.Random(2)) > version  # and it plays on there


def test_the_documented_query_says_which_process_holds_which_table(postgres_url: str) -> None:
    shown = re.search(r"```sql\n(.*?)```", (Path(__file__).parent.parent / "docs" / "deploy.md").read_text(), re.S)
    assert shown is not None, "docs/deploy.md shows no query of the tables' holders"
    with server(postgres_url) as (a, http_a), ExitStack() as stack:
        tables = [create(http_a, "room", name="Ann") for _ in range(2)]
        for table in tables:
            connect(http_a, stack, table, f"token={table['token']}", "Ann")
        with psycopg.connect(postgres_url) as admin:
            rows = admin.execute(shown.group(1)).fetchall()
    assert sorted(rows) == sorted((a.state.tables.owners.name, lock_key(t["id"])) for t in tables)


def test_a_table_whose_holder_does_not_give_it_is_refused_with_connect_again(postgres_url: str) -> None:
    with server(postgres_url) as (a, http_a), ExitStack() as stack:
        table = create(http_a, "room", name="Ann")
        with psycopg.connect(postgres_url, autocommit=True) as other:  # a holder that does not listen
            other.execute("SELECT pg_advisory_lock(%s)", (lock_key(table["id"]),))
            assert close_code(http_a, f"/ws/{table['id']}?token={table['token']}") == CLOSE_ELSEWHERE
            answer = http_a.get(f"/api/tables/{table['id']}/record", params={"token": table["token"]})
            assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
            assert "another process" in answer.json()["detail"]
            assert a.state.tables.get(table["id"]) is None
        connect(http_a, stack, table, f"token={table['token']}", "Ann")  # its holder gone, it is served here


def playable(client: Client, after: int = -1) -> dict[str, Any]:
    """The client's next state past version ``after`` where someone is to act (the cut and deals are automatic)."""
    return client.until(lambda m: m["type"] == "state" and m["version"] > after and m["view"] is not None
                        and m["view"]["to_act"] is not None)


def step(ann: Client, bill: Client, rng: random.Random) -> int:
    """One action by whoever is to act, answered by the next state on Ann's socket: its version (acknowledged)."""
    state = ann.current
    if state["view"] is None or state["view"]["to_act"] is None:
        state = playable(ann)
    mover = (ann, bill)[state["view"]["to_act"]]
    mine = state if mover is ann else mover.until(
        lambda m: m["type"] == "state" and m["version"] >= state["version"])
    mover.act(choose(mine, rng), mine["version"])
    return int(playable(ann, state["version"])["version"])


def test_a_table_nobody_is_at_is_given_back_and_another_process_takes_it(postgres_url: str) -> None:
    with server(postgres_url) as (a, http_a), server(postgres_url) as (b, http_b):
        with ExitStack() as stack:
            table, ann, _bill = room(http_a, stack, options=FOUR_DEALS)
            version = ann.current["version"]
        # Both sockets closed: once its automatic moves are done, A forgets the table and gives its lock back. Ann
        # connects again as her page does after a 4409 (each try waits for the lock a moment) until B has it.
        with ExitStack() as stack:
            deadline = time.monotonic() + WAIT
            while True:
                try:
                    ann = connect(http_b, stack, table, f"token={table['token']}", "Ann")
                    break
                except WebSocketDisconnect as e:
                    assert e.code == CLOSE_ELSEWHERE and time.monotonic() < deadline
            assert a.state.tables.get(table["id"]) is None
            stored = b.state.tables.store.store.load(table["id"])
            assert stored.version >= ann.current["version"] >= version  # where A left it (the cut may follow)
            assert holder(postgres_url, table["id"]) == b.state.tables.owners.name


def test_a_new_table_is_held_by_nobody_until_it_is_opened(postgres_url: str) -> None:
    """The process that creates a table does not keep it: the proxy routes its id to the process that will."""
    with server(postgres_url) as (a, http_a), server(postgres_url) as (b, http_b), ExitStack() as stack:
        table = create(http_a, "room", name="Ann")
        assert a.state.tables.get(table["id"]) is None and holder(postgres_url, table["id"]) is None
        connect(http_b, stack, table, f"token={table['token']}", "Ann")
        assert holder(postgres_url, table["id"]) == b.state.tables.owners.name


def test_a_process_that_loses_its_lock_connection_acknowledges_nothing_more(postgres_url: str) -> None:
    with server(postgres_url) as (a, http_a), ExitStack() as stack:
        table, ann, bill = room(http_a, stack, options=FOUR_DEALS)
        owners: Owners = a.state.tables.owners
        store = a.state.tables.store.store
        assert isinstance(store, SQLStore)
        # The table at rest: a person is prompted (the cut and the deal done), nothing is being saved.
        state = playable(ann)
        mover = (ann, bill)[state["view"]["to_act"]]
        mine = mover.until(lambda m: m["type"] == "state" and m["version"] >= state["version"]
                           and m["prompt"] is not None) if mover.current["prompt"] is None else mover.current
        before = store.load(table["id"])
        assert before is not None and before.version == mine["version"]
        # An administrator (or a failure) ends A's lock session: A can no longer prove it holds the table.
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            # (waiting until the session has ended: its locks are gone)
            assert admin.execute("SELECT pg_terminate_backend(%s, 5000)", (owners.backend,)).fetchone() == (True,)
        mover.act(choose(mine, random.Random(2)), mine["version"])
        # The action is refused (not saved) if it comes before the watch has noticed, and the socket is closed
        # with 4409 either way; no state with a new version is sent (one already on its way may still come).
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                message = mover.recv()
                if message["type"] == "state":
                    assert message["version"] <= before.version, message
                else:
                    assert message["type"] == "error" and message["code"] in ("not_saved", "stale"), message
        assert closed.value.code == CLOSE_ELSEWHERE
        after = store.load(table["id"])
        assert after is not None and after.version == before.version and after.actions == before.actions
        assert a.state.tables.get(table["id"]) is None


def test_sqlite_keeps_one_process_serving_every_table(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "db.sqlite3"), workers=0, review_workers=0)
    assert app.state.tables.owners is None
    with TestClient(app) as http, ExitStack() as stack:
        table = create(http, "room", name="Ann")
        connect(http, stack, table, f"token={table['token']}", "Ann")
        assert app.state.tables.get(table["id"]) is not None  # created and kept, as before


def test_a_takeover_reads_a_table_once_a_change_in_flight_is_committed(postgres_url: str) -> None:
    """The table's row locked by a change not yet committed (a former holder's last action): the read of a process
    taking the table over waits for it, and gets the action."""
    from piquet.ui.web.postgres import PostgresStore  # the postgres extra's

    store = PostgresStore(postgres_url, pool_size=2)
    try:
        store.create(TableInfo("t1", "room", "rubicon", {}, None, ["Ann", "Bill"], ["a", "b"], "s", None))
        read: list[TableInfo | None] = []
        with psycopg.connect(postgres_url) as former:  # a transaction: the change in flight
            former.execute("UPDATE tables SET version = 1 WHERE id = 't1'")
            former.execute("INSERT INTO actions (table_id, idx, action) VALUES ('t1', 0, %s)",
                           ('{"player": "Ann", "cut": ["7S", "AD"]}',))
            reader = threading.Thread(target=lambda: read.append(store.load("t1")), daemon=True)
            reader.start()
            with psycopg.connect(postgres_url, autocommit=True) as watcher:
                deadline = time.monotonic() + WAIT
                while watcher.execute("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND "
                                      "query LIKE 'SELECT%%FROM tables WHERE id%%'").fetchone() is None:
                    assert reader.is_alive() and time.monotonic() < deadline, "the read did not wait for the row"
                    time.sleep(0.02)
            assert not read
            former.commit()
        reader.join(WAIT)
        assert read and read[0] is not None
        assert read[0].version == 1 and read[0].actions == [{"player": "Ann", "cut": ["7S", "AD"]}]
    finally:
        store.close()


def test_a_partie_that_ends_in_one_process_is_no_longer_unfinished_to_the_others_history(postgres_url: str) -> None:
    """History does not replay again a table it found unfinished (the table's process writes its line when it
    ends); the end in another process is told to every process over LISTEN/NOTIFY."""
    with server(postgres_url) as (a, http_a), server(postgres_url) as (b, _http_b), ExitStack() as stack:
        table, _ann, _bill = room(http_a, stack, options=FOUR_DEALS)
        assert a.state.tables.owners.listening.wait(WAIT) and b.state.tables.owners.listening.wait(WAIT)
        b.state.tables.history._unfinished.add(table["id"])  # as B's History found it, unfinished
        ended = a.state.tables.get(table["id"]).on_end  # what the table calls, on A's loop, when its partie ends
        assert http_a.portal is not None
        http_a.portal.call(ended, table["id"])
        deadline = time.monotonic() + WAIT
        while table["id"] in b.state.tables.history._unfinished:
            assert time.monotonic() < deadline, "B was not told"
            time.sleep(0.02)


def _sessions(url: str) -> int:
    """The sessions on ``url``'s database other than the one asking."""
    with psycopg.connect(url) as connection:
        row = connection.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                 "AND pid <> pg_backend_pid()").fetchone()
    return int(row[0]) if row else 0


def test_a_server_that_stops_closes_the_store_it_opened_and_leaves_one_it_was_given(
        postgres_url: str, tmp_path: Path) -> None:
    with server(postgres_url) as (_, http):
        create(http, kind="computer", level=1, name="Ann")
        assert _sessions(postgres_url) >= 2  # the store's pool and the lock connection
    assert _sessions(postgres_url) == 0  # stopped: every connection of the process closed, none left to the end
    given = SQLiteStore(str(tmp_path / "db.sqlite3"))
    with TestClient(create_app(given, workers=0, review_workers=0)) as http:
        table = create(http, kind="computer", level=1, name="Ann")
    assert given.load(table["id"]) is not None  # its caller's, still open
    given.close()
