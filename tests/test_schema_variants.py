"""The JSON Schema of the record format covers the variants: records the engine writes for random
Auction Piquet and Piquet au Cent parties are valid, and the bid verb is checked by its pattern."""

from __future__ import annotations

import copy
import functools
import json
import random
from typing import Any

import jsonschema
import pytest
from schema_helpers import RECORD_SCHEMA as SCHEMA
from schema_helpers import RECORD_VALIDATOR as VALIDATOR

from piquet.ai.agent import RandomAgent, play_partie
from piquet.engine import record


@functools.cache
def _record_text(variant: str, seeds: tuple[int, int, int], options: str) -> str:
    partie = play_partie([RandomAgent(random.Random(seeds[0])), RandomAgent(random.Random(seeds[1]))],
                         random.Random(seeds[2]), ("Ann", "Bill"), variant, json.loads(options))
    assert partie.is_over
    return record.dumps(partie)


def random_record(variant: str, seed: int, options: dict[str, object] | None = None,
                  seeds: tuple[int, int, int] | None = None) -> dict[str, Any]:
    """The record the engine writes for a random partie (a fresh copy each time)."""
    text = _record_text(variant, seeds or (seed, seed + 1, seed + 2), json.dumps(options or {}, sort_keys=True))
    data: dict[str, Any] = json.loads(text)
    return data


def actions(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for deal in data["deals"] for a in deal["actions"]]


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("seed", [1, 7, 30])
@pytest.mark.parametrize("variant", ["auction", "au-cent"])
def test_engine_records_of_random_parties_are_valid(variant: str, seed: int) -> None:
    data = random_record(variant, seed)
    VALIDATOR.validate(data)
    assert data["variant"] == variant
    bids = [a for a in actions(data) if "bid" in a]
    if variant == "auction":
        assert bids, "an Auction record opens every deal with bids"
        assert not any("carte_blanche" in a or "concede" in a for a in actions(data))
    else:
        assert not bids
        assert all(deal.get("packets", 2) == 2 for deal in data["deals"])
    # The record re-plays through the engine, which writes it again unchanged.
    assert record.to_data(record.from_data(copy.deepcopy(data))) == data


def test_an_annulled_auction_deal_is_valid() -> None:
    # These seeds give a partie whose sixth deal is annulled: both players pass.
    data = random_record("auction", 0, seeds=(1, 2, 16))
    annulled = [d for d in data["deals"] if [a.get("bid") for a in d["actions"]] == ["pass", "pass"]]
    assert annulled
    VALIDATOR.validate(data)
    i = data["deals"].index(annulled[0])
    assert data["deals"][i + 1]["dealer"] == annulled[0]["dealer"]


@pytest.mark.parametrize(("variant", "options"), [
    ("auction", {"elder_may_stand_pat": False, "minimum_point": 4}),
    ("auction", {"deal_in_threes_only": True}),
    ("au-cent", {"low_cards_score_nothing_in_play": True, "points_ending_in_four_count_one_less": True}),
    ("rubicon", {"four_deal_partie": True, "points_for_winning_opponents_lead": 2}),
])
def test_records_with_options_are_valid(variant: str, options: dict[str, object]) -> None:
    data = random_record(variant, 5, options)
    assert data["options"] == options
    VALIDATOR.validate(data)


@pytest.mark.parametrize("call", ["7+", "7-", "8+", "10-", "11-", "12+", "12-", "pass", "double", "redouble"])
def test_every_call_is_valid(call: str) -> None:
    data = random_record("auction", 1)
    actions(data)[0]["bid"] = call
    VALIDATOR.validate(data)


@pytest.mark.parametrize("call", ["13+", "6-", "0+", "12", "+8", "8 +", "1-", "pass!", "", 8])
def test_bad_calls_fail_the_schema(call: object) -> None:
    data = random_record("auction", 1)
    first = data["deals"][0]["actions"][0]
    assert "bid" in first
    first["bid"] = call
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate(data)


def test_a_bid_with_an_extra_field_fails_the_schema() -> None:
    data = random_record("auction", 1)
    data["deals"][0]["actions"][0]["tricks"] = 8
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate(data)


@pytest.mark.parametrize("options", [{"minimum_point": 9}, {"points_for_winning_opponents_lead": 3},
                                     {"four_deal_partie": 1}, {"some_new_option": "yes"}])
def test_bad_option_values_fail_the_schema(options: dict[str, object]) -> None:
    data = random_record("au-cent", 2)
    data["options"] = options
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate(data)
