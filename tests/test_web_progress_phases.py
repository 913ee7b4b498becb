"""Progress by phase (issue 36, "What a player keeps"): each finished partie of a player's seat reviewed once through
the fair lens, off the event loop, its losses by phase (the exchange, the declarations, the play) kept in the store
(SQLite and, where a PostgreSQL server is installed, PostgreSQL), and drawn partie after partie with the level of
the ladder the play resembles (docs/review.md, "Played like level N")."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from helpers import played_by_chance
from web_helpers import FOUR_DEALS, db, review_phases_lightly

from piquet.coach.ladder import describe, played_like
from piquet.coach.phases import PHASES, PhaseLosses
from piquet.coach.review import Lens, review_partie
from piquet.engine import record
from piquet.engine.partie import Partie
from piquet.engine.record import action_to_data
from piquet.ui.web import phases as phases_module
from piquet.ui.web.app import create_app
from piquet.ui.web.history import summary
from piquet.ui.web.offline import BrowserStore
from piquet.ui.web.phases import METHOD, review_phases
from piquet.ui.web.progress import BOTTOM, PLOT_HEIGHT, TOP, phase_rows, phases_svg
from piquet.ui.web.store import SQLiteStore, SQLStore, StoreError, TableInfo


def _over(seed: int) -> Partie:
    """A Rubicon partie of four deals (the option the tables' tests use to keep them short) played to its end by
    random choices."""
    return played_by_chance(Partie(("Ann", "Computer"), "rubicon", FOUR_DEALS), random.Random(seed))


def _losses(deals: int, exchange: tuple[int, float], declarations: tuple[int, float],
            play: tuple[int, float]) -> PhaseLosses:
    pairs = {"exchange": exchange, "declarations": declarations, "play": play}
    return PhaseLosses(deals, {p: n for p, (n, _) in pairs.items()}, {p: x for p, (_, x) in pairs.items()})


# ---------------------------------------------------------------- the summary by phase
def test_a_seats_review_alone_grades_its_decisions_as_the_review_of_both_seats_does() -> None:
    """Reviewing one seat's decisions only (what Progress needs) values each on the worlds the whole review draws for
    it: the same losses, by phase, for a deal."""
    partie = _over(5)
    both = review_partie(partie, Lens.FAIR, deal=1, luck=False)
    mine = review_partie(partie, Lens.FAIR, deal=1, luck=False, seat=0)
    assert {r.seat for r in mine.actions} == {0}
    assert PhaseLosses.of_review(mine, 0) == PhaseLosses.of_review(both, 0)
    assert review_phases(record.dumps(partie), 0, 1) == PhaseLosses.of_review(mine, 0).to_json()  # the server's
    losses = PhaseLosses.of_review(both, 0)
    assert losses.deals == 1 and losses.decisions["play"] > 0
    assert sum(losses.lost.values()) == pytest.approx(both.lost_a_deal(0))  # one deal: its loss is the deal's
    with pytest.raises(ValueError, match="seat is 0, 1 or None"):
        review_partie(partie, deal=1, seat=2)


def test_the_losses_of_parties_add_up_phase_by_phase() -> None:
    a = _losses(4, (4, 8.0), (2, 1.0), (30, 15.0))
    b = _losses(2, (2, 1.0), (0, 0.0), (10, 5.0))
    both = a + b
    assert (both.deals, both.per_decision("exchange"), both.per_decision("play")) == (6, 1.5, 0.5)
    assert b.per_decision("declarations") is None  # no choice there: no figure, not a zero
    assert both.lost_a_deal == round(30.0 / 6, 4)
    assert PhaseLosses() + a == a
    with pytest.raises(ValueError, match="phase: one of exchange, declarations, play"):
        a.per_decision("cut")
    with pytest.raises(ValueError, match="one figure for each phase"):
        PhaseLosses(1, {"play": 1}, {"play": 1.0})
    with pytest.raises(ValueError, match="a phase summary needs deals"):
        PhaseLosses.from_json({"deals": 1})


# ---------------------------------------------------------------- the plots
def _party(n: int, variant: str = "rubicon", seat: int = 0) -> dict[str, Any]:
    return {"id": f"t{n}", "seat": seat, "variant": variant, "finished": 1_700_000_000.0 + n}


def test_each_variants_parties_are_plotted_oldest_first_with_the_level_the_play_resembles() -> None:
    parties = [_party(3), _party(1), _party(2, "au-cent"), _party(4)]  # History's order is newest first
    reviewed = {("t1", 0): _losses(6, (6, 12.0), (3, 0.0), (60, 30.0)),
                ("t3", 0): _losses(6, (6, 6.0), (0, 0.0), (60, 18.0)),
                ("t2", 0): _losses(2, (2, 1.0), (1, 0.5), (20, 2.0))}  # t4 not yet reviewed: not drawn
    rows = phase_rows(parties, reviewed, "en")
    assert [r["variant"] for r in rows] == ["rubicon", "au-cent"]  # the variants' own order
    rubicon = rows[0]
    assert [p["id"] for p in rubicon["parties"]] == ["t1", "t3"]
    assert rubicon["parties"][0]["per_decision"] == {"exchange": 2.0, "declarations": 0.0, "play": 0.5}
    assert rubicon["parties"][1]["per_decision"]["declarations"] is None
    assert rubicon["per_decision"] == {"exchange": 1.5, "declarations": 0.0, "play": 0.4}
    assert rubicon["lost_a_deal"] == 5.5
    assert rubicon["played_like"] == round(played_like(5.5), 2)
    assert rubicon["played_like_words"] == describe(5.5)
    picture = phases_svg(rubicon, "en")
    assert picture.startswith("<svg") and picture.endswith("</svg>")
    series = re.findall(r'data-testid="phases-series" data-phase="(\w+)" data-points="(\d+)"', picture)
    assert series == [("exchange", "2"), ("declarations", "1"), ("play", "2")]  # no choice, no point
    assert picture.count('data-testid="phases-point"') == 5 and picture.count("<polyline") == 2
    assert "<title id=\"phases-rubicon-title\">Points lost a decision by phase, Rubicon Piquet: 2 parties" in picture
    assert "Exchange: 1.50 on average; Declarations: 0.00 on average; Play: 0.40 on average" in picture
    assert f"5.50 points lost a deal, {describe(5.5)}" in picture
    assert "<title>Partie 1, Exchange: 2.00 points lost a decision</title>" in picture
    # Every point within the plot's frame, and the higher loss drawn higher (a smaller y).
    ys = [float(y) for y in re.findall(r'</title><circle cx="[\d.]+" cy="([\d.]+)"', picture)]  # the exchange's
    assert len(ys) == 2 and TOP <= ys[0] < ys[1] <= PLOT_HEIGHT - BOTTOM


def test_the_plot_speaks_french_with_french_numbers() -> None:
    row = phase_rows([_party(1)], {("t1", 0): _losses(4, (4, 5.0), (2, 1.0), (40, 10.0))}, "fr")[0]
    picture = phases_svg(row, "fr")
    assert "Points perdus par décision selon la phase, Piquet rubicon : 1 parties revues" in picture
    assert "Écart : 1,25 en moyenne" in picture and "Jeu de la carte" in picture
    assert row["played_like_words"] == describe(4.0, lang="fr")
    assert "Exchange" not in picture and "lost a decision" not in picture


# ---------------------------------------------------------------- the store
@pytest.fixture
def store(sql_store: SQLStore) -> SQLStore:
    """An empty store of each kind (SQLite, PostgreSQL): ``sql_store``."""
    return sql_store


def _table(table_id: str, partie: Partie | None = None, tokens: list[str | None] | None = None) -> TableInfo:
    actions = [action_to_data(a, partie.players) for a in partie.actions] if partie is not None else []
    options = dict(FOUR_DEALS) if partie is not None else {}
    return TableInfo(table_id, "computer", "rubicon", options, 3, ["Ann", "Computer"],
                     tokens or ["s-" + table_id, None], "sp", 1, created=1_700_000_000.0, actions=actions,
                     version=len(actions))


def test_the_store_keeps_a_seats_review_by_phase_once_and_by_its_method(store: SQLStore) -> None:
    for n in range(3):
        store.create(_table(f"t{n}"))
    a, b = _losses(2, (2, 1.0), (1, 0.0), (20, 4.0)), _losses(2, (2, 3.0), (1, 1.0), (20, 2.0))
    store.keep_review("t0", 0, METHOD, 1.0, a.to_json())
    store.keep_review("t1", 1, "another way", 1.0, b.to_json())
    found = store.reviewed([("t0", 0), ("t0", 1), ("t1", 1), ("t2", 0), ("t9", 0)], METHOD)
    assert found == {("t0", 0): a.to_json()}  # the other seat, another method, none made, no table: nothing
    store.keep_review("t1", 1, METHOD, 2.0, b.to_json())  # made again the server's way: it replaces the other
    assert store.reviewed([("t1", 1)], METHOD) == {("t1", 1): b.to_json()}
    with pytest.raises(StoreError, match="no table 'nope'"):
        store.keep_review("nope", 0, METHOD, 1.0, a.to_json())
    with pytest.raises(ValueError, match="seat: 0 or 1"):
        store.keep_review("t0", 2, METHOD, 1.0, a.to_json())


def test_the_offline_store_keeps_a_review_by_phase_beside_its_table() -> None:
    kept: dict[str, str] = {}
    offline = BrowserStore(kept.get, kept.__setitem__)
    a = _losses(1, (1, 1.0), (0, 0.0), (10, 2.0))

    async def run() -> dict[tuple[str, int], dict[str, Any]]:
        await offline.create(_table("t0"))
        await offline.keep_review("t0", 0, METHOD, 1.0, a.to_json())
        with pytest.raises(StoreError):
            await offline.keep_review("nope", 0, METHOD, 1.0, a.to_json())
        return await offline.reviewed([("t0", 0), ("t0", 1)], METHOD)

    assert asyncio.run(run()) == {("t0", 0): a.to_json()}


# ---------------------------------------------------------------- the server: off the event loop, once
def _settle(http: TestClient) -> None:
    """Wait, on the application's own loop, until no partie waits for its review by phase."""
    assert http.portal is not None
    app: Any = http.app
    http.portal.call(app.state.phases.idle)


def _ask(http: TestClient, seats: list[tuple[str, str]], lang: str = "en") -> Any:
    answer = http.post("/api/history", json={"seats": [{"table": t, "token": s} for t, s in seats], "lang": lang})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_each_finished_partie_is_reviewed_off_the_event_loop_once_and_kept(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    where = db(tmp_path)
    store = SQLiteStore(where)
    parties = [_over(n) for n in (1, 2)]
    for n, partie in enumerate(parties):
        store.create(_table(f"t{n}", partie))
        store.finish(f"t{n}", 1_700_000_100.0 + n, summary(partie))
    store.close()
    seats = [("t0", "s-t0"), ("t1", "s-t1")]
    calls: list[tuple[str, int, int]] = []

    def watched(text: str, seat: int, deal: int) -> dict[str, Any]:
        with pytest.raises(RuntimeError):  # no event loop runs in this thread: the server's is elsewhere
            asyncio.get_running_loop()
        calls.append((text[:10], seat, deal))
        return review_phases_lightly(text, seat, deal)

    monkeypatch.setattr(phases_module, "review_phases", watched)
    app = create_app(where, workers=0, review_workers=0)
    with TestClient(app) as http:
        first = _ask(http, seats)["phases"]
        assert (first["reviewed"], first["waiting"], first["variants"]) == (0, 2, [])
        _settle(http)
        assert len(calls) == 8 and {c[1:] for c in calls} == {(0, d) for d in (1, 2, 3, 4)}  # each deal, Ann's seat
        second = _ask(http, seats)["phases"]
        assert (second["reviewed"], second["waiting"], second["failed"]) == (2, 0, 0)
        [row] = second["variants"]
        assert [p["id"] for p in row["parties"]] == ["t0", "t1"]
        assert row["svg"].count('data-testid="phases-series"') == 3
        assert len(calls) == 8 and app.state.phases.made == 2  # the second request computed nothing
    kept = SQLiteStore(where).reviewed([("t0", 0), ("t1", 0)], METHOD)
    total = PhaseLosses.from_json(kept["t0", 0]) + PhaseLosses.from_json(kept["t1", 0])
    assert total.deals == 8 and row["lost_a_deal"] == total.lost_a_deal
    with TestClient(create_app(where, workers=0, review_workers=0)) as http:  # a new server reads them kept
        again = _ask(http, seats, "fr")["phases"]
        assert (again["reviewed"], again["waiting"], len(calls)) == (2, 0, 8)
        assert "Piquet rubicon" in again["variants"][0]["svg"]


def test_a_partie_whose_review_fails_is_said_so_and_not_queued_again(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    where = db(tmp_path)
    store = SQLiteStore(where)
    partie = _over(3)
    store.create(_table("t0", partie))
    store.finish("t0", 1_700_000_100.0, summary(partie))
    store.close()
    calls: list[int] = []

    def broken(text: str, seat: int, deal: int) -> dict[str, Any]:
        calls.append(deal)
        raise RuntimeError("no review")

    monkeypatch.setattr(phases_module, "review_phases", broken)
    app = create_app(where, workers=0, review_workers=0)
    with TestClient(app) as http:
        assert _ask(http, [("t0", "s-t0")])["phases"]["waiting"] == 1
        _settle(http)
        answer = _ask(http, [("t0", "s-t0")])["phases"]
        assert (answer["reviewed"], answer["waiting"], answer["failed"]) == (0, 0, 1)
        _settle(http)
        assert calls == [1]


def test_a_process_remembers_only_its_latest_failed_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    """The failures a process keeps (not to queue them again) are bounded: past :data:`MAX_FAILED` the oldest is
    forgotten, and its partie is queued again when a page asks for it."""

    class Gone:  # a store whose tables are all gone: each review fails
        async def reviewed(self, seats: Any, method: str) -> dict[tuple[str, int], Any]:
            return {}

        async def load(self, table_id: str) -> TableInfo:
            raise StoreError(f"table {table_id!r} is gone")

    async def run(*args: Any) -> Any:
        raise AssertionError("no review reaches a worker")

    monkeypatch.setattr(phases_module, "MAX_FAILED", 2)
    seats = [("t0", 0), ("t1", 0), ("t2", 1)]

    async def main() -> None:
        reviews = phases_module.PhaseReviews(Gone(), run)  # type: ignore[arg-type]
        assert (await reviews.kept(seats))[1] == 3
        await reviews.idle()
        assert list(reviews.failed) == seats[1:]
        assert (await reviews.kept(seats))[1] == 1  # the forgotten one, queued again
        await reviews.idle()
        assert list(reviews.failed) == [seats[2], seats[0]]

    asyncio.run(main())


@pytest.mark.slow
def test_the_review_by_phase_is_made_in_a_worker_process(tmp_path: Path) -> None:
    """With the server's own worker process (not a thread): the review is made there and kept."""
    where = db(tmp_path)
    store = SQLiteStore(where)
    partie = _over(4)
    store.create(_table("t0", partie))
    store.finish("t0", 1_700_000_100.0, summary(partie))
    store.close()
    app = create_app(where, workers=0, review_workers=1)
    with TestClient(app) as http:
        assert _ask(http, [("t0", "s-t0")])["phases"]["waiting"] == 1
        _settle(http)
        assert app.state.reviews._pool is not None  # the pool's process made it
        done = _ask(http, [("t0", "s-t0")])["phases"]
        assert (done["reviewed"], done["waiting"]) == (1, 0)
    kept = SQLiteStore(where).reviewed([("t0", 0)], METHOD)
    assert set(PhaseLosses.from_json(kept["t0", 0]).decisions) == set(PHASES)
