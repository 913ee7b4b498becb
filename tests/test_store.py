"""The store suite, run against each store: SQLite (a file) and PostgreSQL (a real server the tests start,
``tests/postgres_helpers.py``). What a store promises (``piquet.ui.web.store``): every change committed before the
call returns, a table read back exactly as it was written, an action out of order or for an unknown table refused
without a change, the version written with each change, the layout brought to the last numbered migration (and a
database written by a newer release refused). PostgreSQL's own: writes to different tables commit at the same time,
and a database that cannot be reached is said so, naming its URL without the password."""

from __future__ import annotations

import asyncio
import random
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from guard_helpers import WAIT
from postgres_helpers import Cluster
from web_helpers import FOUR_DEALS, connect, create, over, play_computer

from piquet.ui.web.app import create_app
from piquet.ui.web.migrations import MIGRATIONS, Migration, check_order
from piquet.ui.web.store import InThread, SQLiteStore, SQLStore, StoreError, TableInfo, open_store

Opener = Callable[..., SQLStore]


@pytest.fixture(params=["sqlite", "postgresql"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def opener(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Opener]:
    """Opens the test's database (the same one each time: a reopened store reads what an earlier one wrote)."""
    where = str(tmp_path / "db.sqlite3") if kind == "sqlite" else request.getfixturevalue("postgres_url")
    opened: list[SQLStore] = []

    def open_(migrations: tuple[Migration, ...] = MIGRATIONS) -> SQLStore:
        if kind == "sqlite":
            store: SQLStore = SQLiteStore(where, migrations=migrations)
        else:
            from piquet.ui.web.postgres import PostgresStore

            store = PostgresStore(where, migrations=migrations)
        opened.append(store)
        return store

    open_.where = where  # type: ignore[attr-defined]
    yield open_
    for store in opened:
        store.close()


def info(table_id: str = "t1", **changes: Any) -> TableInfo:
    table = TableInfo(table_id, "room", "rubicon", {"four_deal_partie": True, "carte_blanche": 10}, None,
                      ["Ann ♠ Zoë", None], ["s1", None], "spectate-secret", None, created=1_700_000_000.25,
                      invite="invite-secret", seed=2**63 - 1, takebacks="off", budget=1.5, tutor=None)
    for name, value in changes.items():
        setattr(table, name, value)
    return table


# ---------------------------------------------------------------- reading back what was written
def test_a_table_is_read_back_exactly_as_it_was_created(opener: Opener) -> None:
    store = opener()
    written = info(actions=[{"player": "Ann ♠ Zoë", "cut": ["7S", "AD"]}, {"player": "Bill", "cut": ["KH", "8C"]}],
                   version=2, moves=[["move-secret", 1_700_000_100.5], None])
    store.create(written)
    assert store.load("t1") == written
    computer = info("t2", kind="computer", level=5, players=["Ann", "Computer"], tokens=["s", None], computer=1,
                    invite=None, tutor=1.25, budget=None, seed=0)
    store.create(computer)
    assert store.load("t2") == computer
    assert store.exists("t1") and not store.exists("nope") and store.load("nope") is None


def test_every_change_is_committed_when_the_call_returns_and_a_new_store_reads_it(opener: Opener) -> None:
    store = opener()
    store.create(info())
    store.append("t1", 0, {"player": "Ann ♠ Zoë", "cut": ["7S", "AD"]}, version=1)
    store.append("t1", 1, {"player": "Bill", "cut": ["KH", "8C"]}, version=2)
    store.join("t1", 1, "Bill", "s2")
    store.set_move("t1", 0, ["move-secret", 1_700_000_100.5])
    again = opener()  # another connection: it sees only what is committed
    table = again.load("t1")
    assert table is not None
    assert table.actions == [{"player": "Ann ♠ Zoë", "cut": ["7S", "AD"]}, {"player": "Bill", "cut": ["KH", "8C"]}]
    assert (table.version, table.players, table.tokens, table.invite) == (2, ["Ann ♠ Zoë", "Bill"], ["s1", "s2"], None)
    assert table.moves == [["move-secret", 1_700_000_100.5], None]
    again.set_token("t1", 0, "s1-new")  # a new secret spends the seat's one-time link
    table = store.load("t1")
    assert table is not None and table.tokens == ["s1-new", "s2"] and table.moves == [None, None]


def test_an_action_at_an_index_already_stored_is_refused_and_changes_nothing(opener: Opener) -> None:
    store = opener()
    store.create(info())
    store.append("t1", 0, {"player": "Ann ♠ Zoë", "cut": ["7S", "AD"]}, version=1)
    with pytest.raises(StoreError, match="'t1' already has an action 0 stored"):
        store.append("t1", 0, {"player": "Bill", "cut": ["KH", "8C"]}, version=2)
    table = store.load("t1")
    assert table is not None and table.version == 1 and table.actions == [{"player": "Ann ♠ Zoë", "cut": ["7S", "AD"]}]


def test_a_change_to_an_unknown_table_is_refused_naming_it(opener: Opener) -> None:
    store = opener()
    calls: list[Callable[[], None]] = [
        lambda: store.append("ghost", 0, {"player": "Ann", "cut": ["7S", "AD"]}, version=1),
        lambda: store.take_back("ghost", 0, None, version=1),
        lambda: store.join("ghost", 1, "Bill", "s2"),
        lambda: store.set_token("ghost", 0, "s"),
        lambda: store.set_move("ghost", 0, None),
    ]
    for call in calls:
        with pytest.raises(StoreError, match="no table 'ghost'"):
            call()
    assert not store.exists("ghost")
    store.create(info())
    with pytest.raises(StoreError, match="'t1' is already stored"):
        store.create(info())


def test_a_takeback_keeps_the_first_actions_notes_itself_and_moves_the_version_on(opener: Opener) -> None:
    store = opener()
    store.create(info(takebacks="free"))
    for i in range(5):
        store.append("t1", i, {"player": "Ann", "index": i}, version=i + 1)
    store.take_back("t1", 3, {"player": "Ann", "deal": 1, "action": 3, "undone": 2}, version=6)
    store.take_back("t1", 2, None, version=7)  # one not written down
    table = opener().load("t1")
    assert table is not None
    assert [a["index"] for a in table.actions] == [0, 1]
    assert table.taken_back == [{"player": "Ann", "deal": 1, "action": 3, "undone": 2}]
    assert table.version == 7
    store.append("t1", 2, {"player": "Ann", "index": 2}, version=8)  # the index is free again
    assert [a["index"] for a in (store.load("t1") or info()).actions] == [0, 1, 2]


def test_the_store_answers_a_ping(opener: Opener) -> None:
    opener().ping()


# ---------------------------------------------------------------- the numbered migrations, shared
def applied(store: SQLStore) -> list[tuple[int, str]]:
    with store._reading() as execute:
        return [(int(v), t) for v, t in execute("SELECT version, title FROM schema_version ORDER BY version")
                .fetchall()]


def test_a_new_database_is_brought_to_the_last_migration_once(opener: Opener) -> None:
    store = opener()
    assert applied(store) == [(m.number, m.title) for m in MIGRATIONS]
    store.create(info())
    again = opener()  # nothing applied twice, nothing lost
    assert applied(again) == [(m.number, m.title) for m in MIGRATIONS] and again.exists("t1")


def test_a_later_migration_is_applied_to_a_database_at_an_earlier_one_and_its_tables_kept(opener: Opener) -> None:
    store = opener()
    store.create(info())
    later = (*MIGRATIONS, Migration(len(MIGRATIONS) + 1, "a note per table",
                                    ("ALTER TABLE tables ADD COLUMN note TEXT NOT NULL DEFAULT ''",)))
    upgraded = opener(later)
    assert applied(upgraded)[-1] == (len(later), "a note per table")
    assert upgraded.load("t1") == info()
    with upgraded._reading() as execute:
        assert execute("SELECT note FROM tables WHERE id = ?", ("t1",)).fetchone()[0] == ""


def test_a_database_written_by_a_newer_release_is_refused_and_left_as_it_is(opener: Opener) -> None:
    later = (*MIGRATIONS, Migration(len(MIGRATIONS) + 1, "a note per table",
                                    ("ALTER TABLE tables ADD COLUMN note TEXT",)))
    opener(later).create(info())
    with pytest.raises(StoreError, match=rf"at migration {len(later)}, and this release of piquet knows "
                                         rf"migrations up to {len(MIGRATIONS)} only"):
        opener()
    assert opener(later).load("t1") == info()


def test_migrations_are_numbered_from_one_without_a_gap() -> None:
    check_order(MIGRATIONS)
    with pytest.raises(ValueError, match="numbered from 1 without a gap"):
        check_order((Migration(2, "skipped one", ()),))


# ---------------------------------------------------------------- a game served on the store, and restarted
def test_a_game_is_served_on_the_store_and_resumes_exactly_after_a_restart(opener: Opener) -> None:
    rng = random.Random(3)
    with TestClient(create_app(opener())) as http, ExitStack() as stack:
        table = create(http, "computer", name="Ann", options=FOUR_DEALS, level=1)
        ann = connect(http, stack, table, f"token={table['token']}", "Ann")
        before = play_computer(ann, rng, stop=lambda s: s["view"]["deal_number"] >= 2 and s["prompt"] is not None)
    with TestClient(create_app(opener())) as http, ExitStack() as stack:
        again = connect(http, stack, table, f"token={table['token']}")
        assert again.current == before
        end = play_computer(again, rng)
        assert over(end)


# ---------------------------------------------------------------- PostgreSQL's own
def test_writes_to_different_tables_commit_at_the_same_time_on_postgresql(postgres_url: str) -> None:
    """While one table's row is held by another transaction (a write to it waits for the row), a write to another
    table commits: the pool's connections write side by side, not one writer after the other."""
    import psycopg

    from piquet.ui.web.postgres import PostgresStore

    store = PostgresStore(postgres_url, pool_size=4)
    try:
        store.create(info("held"))
        store.create(info("free"))
        awaited = InThread(store)
        with psycopg.connect(postgres_url) as holder, psycopg.connect(postgres_url, autocommit=True) as watcher:
            holder.execute("SELECT 1 FROM tables WHERE id = 'held' FOR UPDATE")

            def waiting_for_a_lock() -> int:
                row = watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'").fetchone()
                return int(row[0]) if row else 0

            async def both() -> None:
                held = asyncio.ensure_future(awaited.append("held", 0, {"player": "Ann", "i": 0}, version=1))
                try:
                    deadline = time.monotonic() + WAIT
                    while waiting_for_a_lock() == 0:  # the held write is in the database, waiting for the row
                        assert time.monotonic() < deadline, "the write to the held table never reached the database"
                        await asyncio.sleep(0.01)
                    await asyncio.wait_for(awaited.append("free", 0, {"player": "Ann", "i": 0}, version=1), WAIT)
                    assert not held.done()
                finally:
                    holder.commit()  # the other transaction ends: the held write goes through
                    await held

            asyncio.run(both())
        assert [(store.load(t) or info()).version for t in ("held", "free")] == [1, 1]
    finally:
        store.close()


def test_an_unreachable_database_is_said_so_naming_its_url_without_the_password(postgres_cluster: Cluster,
                                                                                 tmp_path: Path) -> None:
    url = f"postgresql://piquet:hunter2@/piquet?host={tmp_path}&port=5999"  # no server has that socket
    with pytest.raises(StoreError) as refused:
        open_store(url)
    message = str(refused.value)
    assert f"the store postgresql://piquet@/piquet?host={tmp_path}&port=5999 cannot be reached" in message
    assert "hunter2" not in message
    with pytest.raises(StoreError, match="piquet_missing") as missing:  # the server is there, the database is not
        open_store(postgres_cluster.url("piquet_missing").replace("piquet@", "piquet:hunter2@"))
    assert "hunter2" not in str(missing.value)


def test_a_pg_dump_restored_into_a_new_database_holds_every_table_and_plays_on(postgres_cluster: Cluster,
                                                                               tmp_path: Path) -> None:
    """docs/deploy.md's backup and restore: pg_dump's custom format, pg_restore into another database."""
    from piquet.ui.web.postgres import PostgresStore

    source = postgres_cluster.new_database()
    store = PostgresStore(source)
    store.create(info(actions=[{"player": "Ann ♠ Zoë", "cut": ["7S", "AD"]}], version=1))
    store.close()
    dump = tmp_path / "piquet.dump"
    binaries = postgres_cluster.binaries
    with dump.open("wb") as out:
        subprocess.run([str(binaries / "pg_dump"), "--format", "custom", "--dbname", source], stdout=out, check=True,
                       timeout=120)
    target = postgres_cluster.new_database()
    subprocess.run([str(binaries / "pg_restore"), "--dbname", target, "--clean", "--if-exists", str(dump)],
                   check=True, timeout=120)
    restored = PostgresStore(target)
    try:
        assert restored.load("t1") == info(actions=[{"player": "Ann ♠ Zoë", "cut": ["7S", "AD"]}], version=1)
        assert applied(restored) == [(m.number, m.title) for m in MIGRATIONS]
        restored.append("t1", 1, {"player": "Bill", "cut": ["KH", "8C"]}, version=2)
        assert (restored.load("t1") or info()).version == 2
    finally:
        restored.close()


# ---------------------------------------------------------------- piquet serve --db, and the store unreachable
def test_serve_says_a_database_it_cannot_reach_and_never_its_password(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("psycopg")
    from piquet.ui.cli import main

    url = f"postgresql://club:hunter2@/piquet?host={tmp_path}&port=5999"
    assert main(["serve", "--db", url, "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert f"the store postgresql://club@/piquet?host={tmp_path}&port=5999 cannot be reached" in err
    assert "hunter2" not in err and "Traceback" not in err


def test_readiness_follows_a_postgresql_that_stops_answering_and_comes_back(postgres_cluster: Cluster) -> None:
    """The database refuses connections and drops the server's: /readyz says so (503) and an action is not
    acknowledged (not saved, nothing applied); once it answers again, so does /readyz, and the game plays on."""
    import psycopg

    from piquet.ui.web.postgres import PostgresStore

    url = postgres_cluster.new_database()
    name = url.partition("@/")[2].partition("?")[0]
    admin = psycopg.connect(postgres_cluster.url(), autocommit=True)

    def answering(yes: bool) -> None:
        admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS {'true' if yes else 'false'}")
        if not yes:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))

    try:
        with TestClient(create_app(PostgresStore(url, pool_size=2), workers=0)) as http, ExitStack() as stack:
            assert http.get("/readyz").status_code == 200
            table = create(http, "room", name="Ann")
            ann = connect(http, stack, table, f"token={table['token']}", "Ann")
            answering(False)
            assert http.get("/readyz").json() == {"status": "unavailable", "store": "unreachable"}
            ann.send({"type": "move"})  # a change to store: refused, nothing changed
            assert ann.until(lambda m: m["type"] in ("error", "move"))["code"] == "not_saved"
            answering(True)
            deadline = time.monotonic() + 3 * WAIT  # the pool reconnects with a backoff of a few seconds
            while http.get("/readyz").status_code != 200:
                assert time.monotonic() < deadline, "the store did not come back"
                time.sleep(0.1)
            ann.send({"type": "move"})
            assert ann.until(lambda m: m["type"] in ("error", "move"))["type"] == "move"
    finally:
        answering(True)
        admin.close()


def test_a_sqlite_file_from_before_the_numbered_migrations_is_adopted_at_migration_one(tmp_path: Path) -> None:
    import sqlite3

    path = str(tmp_path / "old.sqlite3")
    SQLiteStore(path).close()
    with sqlite3.connect(path) as old:  # as a release before the migrations wrote it
        old.execute("DROP TABLE schema_version")
        old.execute("ALTER TABLE tables DROP COLUMN tutor")
        old.execute("DROP INDEX tables_public")  # and what later migrations add
        old.execute("ALTER TABLE tables DROP COLUMN public")
        old.execute("ALTER TABLE tables DROP COLUMN changed")
        old.execute("INSERT INTO tables (id, kind, variant, options, level, players, tokens, spectate, computer, "
                    "created, seed) VALUES ('t1', 'computer', 'rubicon', '{}', 3, '[\"Ann\", \"Computer\"]', "
                    "'[\"s\", null]', 'sp', 1, 1.0, 5)")
    store = SQLiteStore(path)
    try:
        assert applied(store) == [(m.number, m.title) for m in MIGRATIONS]
        table = store.load("t1")
        assert table is not None and table.tutor is None and table.players == ["Ann", "Computer"]
    finally:
        store.close()


def test_piquet_serve_on_postgresql_logs_json_lines_and_shows_no_password(postgres_cluster: Cluster) -> None:
    """``piquet serve --db postgresql://...`` as an administrator runs it: its first line names the database
    without the password, a table created is stored there, and its standard error has the table's event."""
    import json
    import socket
    import sys
    import urllib.request

    url = postgres_cluster.new_database().replace("piquet@", "piquet:hunter2@")  # trust: any password is taken
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "piquet", "serve", "--db", url, "--port", str(port),
                               "--workers", "0"], cwd=Path(__file__).parent.parent, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        first = server.stdout.readline()  # written once the port is listening
        assert first.startswith("Piquet is served at") and "hunter2" not in first, first
        assert url.replace(":hunter2", "") in first
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", data=b'{"kind": "room"}',
                                         headers={"Content-Type": "application/json"})
        with opener.open(request, timeout=WAIT) as answer:
            table = json.load(answer)
        with opener.open(f"http://127.0.0.1:{port}/readyz", timeout=WAIT) as answer:
            assert json.load(answer) == {"status": "ok", "store": "ok"}
    finally:
        server.terminate()
        _, err = server.communicate(timeout=WAIT)
    from piquet.ui.web.postgres import PostgresStore

    store = PostgresStore(url)
    try:
        assert store.exists(table["id"])
    finally:
        store.close()
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    created = [e for e in lines if e.get("event") == "created"]
    assert created and created[0]["table"] == table["id"] and created[0]["kind"] == "room"
    assert "hunter2" not in err and table["token"] not in err
