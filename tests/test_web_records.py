"""A record file opened in the browser, on the server's side (``docs/protocol.md``, "Records"): its text sent to
``POST /api/records/reviews``, read by the engine's reader and reviewed by the same workers as a table's deal; a
record that is not one refused with where and why, and nothing made or stored; too large a file refused before it is
read; the records one address may send limited as the other requests are."""

from __future__ import annotations

import json
import time
import typing
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import db

from piquet.engine import record
from piquet.ui.web import app as app_module
from piquet.ui.web.app import create_app
from piquet.ui.web.records import MAX_RECORD_BYTES, MAX_RECORD_REVIEWS, check_room, review_of_record
from piquet.ui.web.reviews import LensName, ReviewJob, ReviewRefused, Reviews

RECORDS = Path(__file__).parent / "records"
#: The longest a review may take here before the test fails (seconds by the wall clock).
WAIT = 300.0


def text_of(name: str) -> str:
    return (RECORDS / name).read_text(encoding="utf-8")


def send(http: TestClient, text: str, **body: Any) -> Any:
    return http.post("/api/records/reviews", json={"record": text, **body})


def finished(http: TestClient, review: str) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        answer = http.get(f"/api/records/reviews/{review}")
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        if data["status"] in ("done", "failed"):
            return data
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


@pytest.fixture
def http(tmp_path: Path) -> Any:
    with TestClient(create_app(db(tmp_path), workers=0, review_workers=0)) as client:
        yield client


def test_a_record_is_replayed_and_reviewed_whole_with_open_hands_and_no_table_made(http: TestClient) -> None:
    text = text_of("rubicon-deal.json")
    answer = send(http, text, deal=1, lens="fair", lang="en")
    assert answer.status_code in (200, 202), answer.text
    asked = answer.json()
    assert asked["players"] == ["Ann", "Bill"] and asked["deals"] == 1
    assert asked["total"] > 0
    data = finished(http, asked["id"])
    assert data["status"] == "done", data
    result = data["result"]
    assert result["review"]["players"] == ["Ann", "Bill"]
    # Whoever holds the record sees every card: both hands whole at the first decision, both players' decisions.
    first = result["decisions"][0]
    assert [len(hand) for hand in first["hands"]] == [12, 12]
    assert {d["seat"] for d in result["decisions"]} == {0, 1}
    assert "1" in result["scores"]
    # The same partie sent again, spaced otherwise, is the review already made.
    again = send(http, json.dumps(json.loads(text)), deal=1, lens="fair", lang="en")
    assert again.status_code == 200 and again.json()["id"] == asked["id"]
    # No table was made of it.
    assert not http.app.state.tables._tables  # type: ignore[attr-defined]


@pytest.mark.parametrize(("text", "where", "why"), [
    ('{"format": "piquet-record", ', "line 1, column 29", "not JSON"),
    ('["a list"]', "record", "a record is a JSON object"),
])
def test_a_text_that_is_no_record_is_refused_saying_where_and_why(http: TestClient, text: str, where: str,
                                                                   why: str) -> None:
    answer = send(http, text)
    assert answer.status_code == 422
    data = answer.json()
    assert data["where"] == where and why in data["why"]
    assert data["detail"].startswith("not a record this game can read: ")
    assert not http.app.state.reviews.jobs  # type: ignore[attr-defined]


def test_a_record_with_a_wrong_card_is_refused_naming_the_deal_and_the_action(http: TestClient) -> None:
    data = json.loads(text_of("rubicon-deal.json"))
    actions = data["deals"][0]["actions"]
    play = next(i for i, a in enumerate(actions) if "play" in a)
    actions[play]["play"] = "ZZ"
    answer = send(http, json.dumps(data))
    assert answer.status_code == 422, answer.text
    refused = answer.json()
    assert refused["where"] == f"deal 1, action {play}" and "not a card: 'ZZ'" in refused["why"]
    assert not http.app.state.reviews.jobs  # type: ignore[attr-defined]


def test_a_deal_not_in_the_record_and_a_bad_request_are_refused_with_a_reason(http: TestClient) -> None:
    text = text_of("rubicon-deal.json")
    assert send(http, text, deal=2).status_code == 409
    assert "deal 2 has not ended" in send(http, text, deal=2).json()["detail"]
    assert send(http, text, deal=0).status_code == 422
    assert send(http, text, lang="xx").status_code == 422
    bad = http.post("/api/records/reviews", json={"deal": 1})
    assert bad.status_code == 422 and "record" in bad.json()["detail"]
    assert http.get("/api/records/reviews/nothing").status_code == 404


def test_a_file_too_large_for_a_record_is_refused_unread(http: TestClient) -> None:
    text = text_of("rubicon-deal.json")
    padded = text + " " * (MAX_RECORD_BYTES + 1 - len(text.encode()))
    record.loads(padded)  # a record all the same, but more bytes than one holds
    answer = send(http, padded)
    assert answer.status_code == 413 and f"at most {MAX_RECORD_BYTES} bytes" in answer.json()["detail"]
    # A body far larger is refused before it is read whole.
    huge = http.post("/api/records/reviews", content=b"{" + b" " * (4 * MAX_RECORD_BYTES) + b"}",
                     headers={"Content-Type": "application/json"})
    assert huge.status_code == 413
    assert not http.app.state.reviews.jobs  # type: ignore[attr-defined]


def test_the_records_one_address_sends_are_limited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "RECORD_BURST", 3.0)
    monkeypatch.setattr(app_module, "RECORDS_PER_MINUTE_PER_ADDRESS", 1.0)
    with TestClient(create_app(db(tmp_path), workers=0, review_workers=0)) as http:
        for _ in range(3):
            assert send(http, "[]").status_code == 422
        refused = send(http, "[]")
        assert refused.status_code == 429
        assert "records sent for review" in refused.json()["detail"] and int(refused.headers["Retry-After"]) > 0


def test_records_never_take_every_review_s_place_from_the_tables() -> None:
    reviews = Reviews(workers=0)
    for n in range(MAX_RECORD_REVIEWS):
        reviews.jobs[str(n)] = ReviewJob(str(n), f"record:{n}", 1, "fair", (f"record:{n}", 1, "fair", "en", ""), "",
                                         status="running")
    with pytest.raises(ReviewRefused) as refused:
        check_room(reviews, "record:other")
    assert refused.value.status == 503 and "send yours again shortly" in refused.value.message
    check_room(reviews, "record:0")  # the same record's review is given again
    reviews.jobs["0"].status = "done"
    check_room(reviews, "record:other")  # a place is free again


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDS.glob("*.json") if not p.name.endswith(".scores.json")))
def test_a_record_of_every_variant_is_replayed_and_reviewed(http: TestClient, name: str) -> None:
    text = text_of(name)
    partie = record.loads(text)
    answer = send(http, text, deal=1, lens="open-hands", lang="fr")
    assert answer.status_code in (200, 202), answer.text
    assert answer.json()["deals"] == len(partie.view(0).deal_scores)
    data = finished(http, answer.json()["id"])
    assert data["status"] == "done", data
    assert data["result"]["review"]["players"] == list(partie.players)
    assert data["result"]["decisions"] and data["result"]["scores"]["1"] == list(partie.view(0).deal_scores[0].totals)


def test_the_lenses_a_request_names_are_the_records() -> None:
    """The type of a review request's lens is the record format's list of lenses, and a record sent with another
    is refused saying which there are."""
    assert typing.get_args(LensName) == record.LENSES
    text = next(p for p in sorted((Path(__file__).parent / "records").glob("*.json"))
                if not p.name.endswith(".scores.json")).read_text(encoding="utf-8")
    with pytest.raises(ReviewRefused) as refused:
        review_of_record(text, 1, "x-ray")
    assert refused.value.status == 422 and "'x-ray' is not a lens (fair, open-hands)" in refused.value.message
