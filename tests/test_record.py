"""Game records: the reference deal, round trips, malformed records, the JSON Schema."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from drivers import Seeded, drive
from helpers import agents
from schema_helpers import validate_record

from piquet.ai.agent import play_partie
from piquet.engine.actions import Cut
from piquet.engine.partie import Phase
from piquet.engine.record import RecordError, dumps, from_data, loads
from piquet.ui.cli import replay_summary

RECORDS = Path(__file__).parent / "records"
REFERENCE = json.loads((RECORDS / "rubicon-deal.json").read_text())


@pytest.mark.parametrize("path", sorted(RECORDS.glob("rubicon-*.scores.json")), ids=lambda p: p.name)
def test_record_reference_deals_replay_to_reference_scores(path: Path) -> None:
    expected = json.loads(path.read_text())
    partie = loads(path.with_name(path.name.replace(".scores.json", ".json")).read_text())
    got = replay_summary(partie)["deals"]
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert g["elder"] == e["elder"]
        assert g["scores"] == e["scores"]
        assert sum(g["tricks"].values()) == e["tricks"]


@pytest.mark.parametrize("path", sorted(p for p in RECORDS.glob("*.json") if not p.name.endswith(".scores.json")),
                         ids=lambda p: p.name)
def test_record_stored_records_valid_against_schema_and_round_trip(path: Path) -> None:
    data = json.loads(path.read_text())
    validate_record(data)
    partie = loads(path.read_text())
    assert json.loads(dumps(partie, meta=data.get("meta"))) == json.loads(json.dumps(data)) or \
        loads(dumps(partie)).totals == partie.totals


@pytest.mark.parametrize("seed", range(4))
def test_record_dumps_loads_round_trip_random_parties(seed: int) -> None:
    p = play_partie(agents(seed), random.Random(seed), players=("Ann", "Bill"))
    text = dumps(p, meta={"seed": seed})
    q = loads(text)
    assert dumps(q, meta={"seed": seed}) == text
    assert q.totals == p.totals and q.result == p.result and q.deal_scores == p.deal_scores
    assert q.logs() == p.logs()
    validate_record(json.loads(text))


def test_record_written_between_a_games_fresh_cut_and_its_deal_keeps_the_cut() -> None:
    p = drive(Seeded(3), "au-cent", {"fresh_cut_each_game": True},
              until=lambda p: bool(p.games) and isinstance(p.actions[-1], Cut))
    assert p.phase is Phase.DEAL
    q = loads(dumps(p))
    assert (q.actions, q.phase, q.to_act) == (p.actions, p.phase, p.to_act)


def test_record_round_trip_with_options_and_unfinished_deal() -> None:
    from helpers import base, run
    p = base({"minimum_point": 4, "younger_may_stand_pat": True}, show_rest=True)
    run(p, ["Bill: point AS KS QS JS"])
    text = dumps(p)
    data = json.loads(text)
    assert data["options"] == {"minimum_point": 4, "younger_may_stand_pat": True}
    validate_record(data)
    q = loads(text)
    assert dumps(q) == text and q.view(0) == p.view(0) and q.view(1) == p.view(1)


def bad(mutate: Callable[[dict[str, Any]], object]) -> RecordError:
    data = copy.deepcopy(REFERENCE)
    mutate(data)
    with pytest.raises(RecordError) as exc:
        from_data(data)
    return exc.value


def acts(data: dict[str, Any]) -> Any:
    return data["deals"][0]["actions"]


def test_record_rejects_bad_card() -> None:
    e = bad(lambda d: acts(d)[10].__setitem__("play", "ZZ"))
    assert (e.deal, e.action) == (1, 10) or "deal 1, action 10" in str(e)
    assert "ZZ" in str(e)
    e = bad(lambda d: d["deals"][0]["talon"].__setitem__(0, "1S"))
    assert "deal 1" in str(e)


def test_record_rejects_unknown_verb_and_two_verbs() -> None:
    e = bad(lambda d: acts(d).__setitem__(8, {"player": "Bill", "lead": "AC"}))
    assert "deal 1, action 8" in str(e) and "verb" in str(e)
    e = bad(lambda d: acts(d).__setitem__(8, {"player": "Bill", "play": "AC", "concede": True}))
    assert "deal 1, action 8" in str(e) and "verb" in str(e)


def test_record_rejects_wrong_player() -> None:
    e = bad(lambda d: acts(d)[9].__setitem__("player", "Bill"))
    assert "deal 1, action 9" in str(e) and "Bill" in str(e)
    assert e.deal == 1 and e.action == 9
    e = bad(lambda d: acts(d)[9].__setitem__("player", "Carol"))
    assert "Carol" in str(e)


def test_record_rejects_illegal_play_at_its_index() -> None:
    # Ann holds clubs (7C) and must follow to the AC led
    e = bad(lambda d: acts(d)[9].__setitem__("play", "AS"))
    assert "deal 1, action 9" in str(e) and "follow suit" in str(e)
    e = bad(lambda d: acts(d)[2]["combinations"][0].append("AD"))
    assert "deal 1, action 2" in str(e)


def test_record_rejects_wrong_version_or_format() -> None:
    assert "version" in str(bad(lambda d: d.__setitem__("version", 2)))
    assert "format" in str(bad(lambda d: d.__setitem__("format", "chess-record")))
    assert "format" in str(bad(lambda d: d.pop("format")))
    with pytest.raises(RecordError, match="not JSON"):
        loads("{not json")


def test_record_rejects_unfinished_deal_followed_by_another() -> None:
    def mutate(d: dict[str, Any]) -> None:
        second = copy.deepcopy(d["deals"][0])
        second["dealer"] = "Bill"
        second["actions"] = []
        d["deals"][0]["actions"] = d["deals"][0]["actions"][:20]
        d["deals"].append(second)
    e = bad(mutate)
    assert "deal 1" in str(e) and "unfinished" in str(e)


def test_record_rejects_other_malformations() -> None:
    assert "unknown" in str(bad(lambda d: d.__setitem__("colour", "red")))
    assert "players" in str(bad(lambda d: d.__setitem__("players", ["Ann", "Ann"])))
    assert "hand" in str(bad(lambda d: d["deals"][0]["hands"]["Ann"].pop()))
    e = bad(lambda d: d.__setitem__("options", {"no_such": True}))
    assert "no_such" in str(e)
    e = bad(lambda d: d["deals"][0].__setitem__("dealer", "Bill"))
    assert "deal 1" in str(e)
    e = bad(lambda d: acts(d)[0].__setitem__("show_rest", "yes"))
    assert "deal 1, action 0" in str(e)


def test_record_schema_rejects_shapes() -> None:
    schema_breaks: tuple[Callable[[dict[str, Any]], object], ...] = (
                   lambda d: d.__setitem__("version", 2),
                   lambda d: acts(d)[0].__setitem__("exchange", ["1S"]),
                   lambda d: acts(d).__setitem__(8, {"player": "Bill", "lead": "AC"}),
                   lambda d: d.__setitem__("extra", 1))
    for mutate in schema_breaks:
        data = copy.deepcopy(REFERENCE)
        mutate(data)
        with pytest.raises(jsonschema.ValidationError):
            validate_record(data)
