"""The table protocol's reading and writing (``piquet.ui.web.protocol``, ``docs/protocol.md``): every message a client
sends is checked strictly and a rejected one changes nothing; every prompt offers only what the engine accepts."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping

import pytest
from helpers import CB_ANN, CB_BILL, CB_TALON, base, dealt, declare_nothing
from helpers import act as parse_action

from piquet.ai.agent import RandomAgent
from piquet.engine.actions import Action, CarteBlanche
from piquet.engine.cards import CARDS
from piquet.engine.partie import Partie, Phase
from piquet.engine.record import dumps
from piquet.ui.web.protocol import MAX_MESSAGE, ProtocolError, prompt_data, read_action, read_message, view_data

ANN, BILL = 0, 1


def rejected(code: str, data: object, partie: Partie, seat: int) -> str:
    """read_action refuses ``data`` with ``code``, and the partie is exactly as before; the reason."""
    before, actions = dumps(partie), partie.actions
    with pytest.raises(ProtocolError) as exc:
        read_action(data, partie, seat)
    assert exc.value.code == code, exc.value
    assert dumps(partie) == before and partie.actions == actions
    assert exc.value.to_data() == {"type": "error", "code": code, "message": exc.value.message}
    return exc.value.message


def at_the_first_trick() -> Partie:
    """The BASE deal with nothing declared: Bill (elder) to lead; Ann holds only hearts and diamonds."""
    partie = base()
    declare_nothing(partie)
    assert partie.phase is Phase.PLAY and partie.to_act == BILL
    return partie


# ---------------------------------------------------------------- read_message
@pytest.mark.parametrize("text, code", [
    ("hello", "malformed"),                                     # not JSON
    ("{'type': 'undo'}", "malformed"),                          # not JSON either
    (b"\xff\xfe", "malformed"),                                 # not UTF-8
    ("[1, 2]", "malformed"),                                    # not an object
    ('"undo"', "malformed"),
    ("null", "malformed"),
    ("{}", "malformed"),                                        # no type
    ('{"type": "shout"}', "malformed"),                         # unknown type
    ('{"type": ["undo"]}', "malformed"),                        # a type that is no string
    ('{"type": {"undo": 1}}', "malformed"),
    ('{"type": "undo", "version": 3, "now": true}', "malformed"),  # extra field
    ('{"type": "hint", "action": {}}', "malformed"),
    ('{"type": "action"}', "malformed"),                        # missing field
    ('{"type": "join"}', "malformed"),
    ('{"type": "action", "action": {"play": "QS"}, "version": 3, "player": "Ann"}', "malformed"),
    ('{"type": "move", "seat": 1}', "malformed"),
    ('{"type": "join", "name": "   "}', "malformed"),           # a name is 1 to 40 characters
    ('{"type": "join", "name": 7}', "malformed"),
    ('{"type": "join", "name": "' + "A" * 41 + '"}', "malformed"),
    pytest.param("[" * 6000 + "]" * 6000, "malformed", id="nested deeper than the decoder goes"),
    pytest.param('{"type": "join", "name": "' + "A" * MAX_MESSAGE + '"}', "too_large", id="over 16 KiB"),
    pytest.param(" " * (MAX_MESSAGE + 1), "too_large", id="one character over"),
])
def test_read_message_rejects_what_is_not_a_documented_message(text: str | bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as exc:
        read_message(text)
    assert exc.value.code == code, exc.value


@pytest.mark.parametrize("data", [
    {"type": "action", "action": {"play": "QS"}, "version": 57},
    {"type": "action", "action": {"exchange": ["7S", "8D"], "show_rest": False}, "version": 0},
    {"type": "action", "action": {"play": "7H"}, "version": 9, "confirm": True},
    {"type": "hint"},
    {"type": "undo", "version": 12},
    {"type": "join", "name": "Bill"},
    {"type": "move"},
])
def test_read_message_accepts_every_documented_message(data: dict[str, object]) -> None:
    assert read_message(json.dumps(data)) == data
    assert read_message(json.dumps(data).encode()) == data


@pytest.mark.parametrize("confirm", ["yes", 1, None, [True]])
def test_a_confirm_that_is_not_true_or_false_is_refused(confirm: object) -> None:
    with pytest.raises(ProtocolError) as exc:
        read_message(json.dumps({"type": "action", "action": {"play": "QS"}, "version": 3, "confirm": confirm}))
    assert exc.value.code == "malformed" and "confirm is true or false" in exc.value.message, exc.value
    with pytest.raises(ProtocolError) as exc:
        read_message(json.dumps({"type": "undo", "version": 3, "confirm": True}))
    assert exc.value.code == "malformed", exc.value


@pytest.mark.parametrize("text", [
    '{"type": "action", "action": {"bid": "pass"}}',
    '{"type": "undo"}',
])
def test_an_action_or_undo_without_the_version_it_answers_is_refused_as_missing_version(text: str) -> None:
    with pytest.raises(ProtocolError) as exc:
        read_message(text)
    assert exc.value.code == "malformed" and exc.value.message.startswith("missing version"), exc.value


@pytest.mark.parametrize("version", ["3", 3.0, True, -1, None, [3], 10**7])
def test_a_version_that_is_not_a_whole_number_from_0_is_refused(version: object) -> None:
    with pytest.raises(ProtocolError) as exc:
        read_message(json.dumps({"type": "undo", "version": version}))
    assert exc.value.code == "malformed" and "version" in exc.value.message, exc.value


def test_read_message_accepts_a_message_of_exactly_the_largest_size() -> None:
    text = '{"type": "join", "name": "Bill"}'
    message = read_message(text + " " * (MAX_MESSAGE - len(text)))
    assert message["type"] == "join" and message["name"] == "Bill"


# ---------------------------------------------------------------- read_action
def test_read_action_rejects_an_action_naming_a_player_even_his_own() -> None:
    partie = at_the_first_trick()
    rejected("malformed", {"player": "Bill", "play": "AH"}, partie, BILL)
    rejected("malformed", {"player": "Ann", "play": "AH"}, partie, BILL)
    rejected("malformed", {"player": "Bill", "play": "AH"}, partie, ANN)


def test_read_action_rejects_an_action_out_of_turn() -> None:
    partie = at_the_first_trick()
    rejected("not_your_turn", {"play": "QH"}, partie, ANN)  # her own card, but Bill leads
    # A concession may come out of turn (the rulings, 18), so the engine judges it: not in the first deal.
    assert "only in the last deal" in rejected("illegal", {"concede": True}, partie, ANN)
    partie.push(read_action({"play": "AH"}, partie, BILL))  # type: ignore[arg-type]
    rejected("not_your_turn", {"play": "KH"}, partie, BILL)


def test_read_action_rejects_an_illegal_action_not_following_suit_or_a_card_not_in_hand() -> None:
    partie = at_the_first_trick()
    rejected("illegal", {"play": "QH"}, partie, BILL)  # Ann's card
    partie.push(read_action({"play": "AH"}, partie, BILL))  # type: ignore[arg-type]
    assert "follow" in rejected("illegal", {"play": "QD"}, partie, ANN)
    rejected("illegal", {"play": "KH"}, partie, ANN)  # Bill's card
    rejected("illegal", {"exchange": ["QH"]}, partie, ANN)  # the exchange is over
    assert read_action({"play": "7H"}, partie, ANN) == parse_action("Ann: 7H")


def test_read_action_rejects_an_illegal_exchange() -> None:
    from helpers import BASE_ANN, BASE_BILL, BASE_TALON, dealt
    partie = dealt(BASE_ANN, BASE_BILL, BASE_TALON)
    rejected("illegal", {"exchange": ["AS", "KS", "QS", "JS", "TS", "9S"]}, partie, BILL)  # six: elder takes five
    rejected("illegal", {"exchange": ["QH"]}, partie, BILL)  # not his card
    rejected("not_your_turn", {"exchange": ["QH"]}, partie, ANN)  # elder exchanges first
    assert read_action({"exchange": ["7C"]}, partie, BILL) == parse_action("Bill: x 7C")


@pytest.mark.parametrize("data", [
    {"play": "QZ"}, {"play": "1S"}, {"play": 12}, {"play": None}, {"play": ["AH"]},
    {"play": "AH", "concede": True}, {"play": "AH", "show_rest": True}, {},
    {"concede": "yes"}, {"bid": [8]}, {"declare": "point"}, {"declare": "trumps", "combinations": []},
    {"exchange": ["AH", "AH"]}, {"exchange": "AH"}, {"choose_dealer": 2}, {"choose_dealer": True},
    {"choose_dealer": "Ann"}, "play AH", ["AH"], None,
])
def test_read_action_rejects_a_malformed_action(data: object) -> None:
    rejected("malformed", data, at_the_first_trick(), BILL)


def test_read_action_rejects_a_dealer_sending_his_own_deal_or_cut() -> None:
    """The chance events are the server's: a dealer who may choose his packets sends ``packets``, never cards."""
    partie = Partie(("Ann", "Bill"), first_dealer=ANN)
    assert partie.phase is Phase.DEAL and partie.to_act == ANN and partie.legal_packets() == (2, 3)
    pack = [str(c) for c in CARDS]
    stacked = {"deal": {"hands": {"Ann": pack[:12], "Bill": pack[12:24]}, "talon": pack[24:], "packets": 3}}
    rejected("malformed", stacked, partie, ANN)
    rejected("malformed", {"cut": ["AS", "7H"]}, partie, ANN)
    rejected("illegal", {"packets": 4}, partie, ANN)
    rejected("illegal", {"packets": True}, partie, ANN)
    rejected("not_your_turn", {"packets": 3}, partie, BILL)
    assert read_action({"packets": 2}, partie, ANN) == 2


# ---------------------------------------------------------------- prompts and views
@functools.cache
def random_parties() -> list[tuple[Partie, int]]:
    """Every decision of a random partie in each variant (a few deals), with the seat to act."""
    out: list[tuple[Partie, int]] = []
    for variant in ("rubicon", "auction", "au-cent"):
        rng = random.Random(len(variant))
        agent = RandomAgent(rng)
        partie = Partie(("Ann", "Bill"), variant)
        while not partie.is_over and partie.deal_number <= 2:
            if partie.phase is Phase.CUT:
                partie.push(partie.random_cut(rng))
                continue
            seat = partie.to_act
            assert seat is not None
            out.append((partie.copy(), seat))
            action: Action = partie.random_deal(rng) if partie.phase is Phase.DEAL else \
                agent.choose(partie.view(seat), partie.legal_actions(seat))
            partie.push(action)
    return out


def prompt_actions(prompt: Mapping[str, object]) -> list[dict[str, object]]:
    kind = prompt["kind"]
    options: list[object] = prompt.get("options", [])  # type: ignore[assignment]
    if kind in ("choose_dealer", "packets", "bid"):
        return [{kind: o} for o in options]
    if kind == "carte_blanche":
        return list(options)  # type: ignore[arg-type]
    if kind == "declare":
        return [o["action"] for o in options]  # type: ignore[index]
    if kind == "exchange":
        return [{"exchange": prompt["advice"], "show_rest": False}]
    return [{"play": c} for c in prompt["cards"]] + ([{"concede": True}] if prompt["concede"] else [])  # type: ignore[attr-defined]


def test_every_prompt_option_is_an_action_read_action_accepts_and_only_the_seat_to_act_is_prompted() -> None:
    kinds = set()
    for partie, seat in random_parties():
        assert prompt_data(partie, 1 - seat) is None and prompt_data(partie, None) is None
        prompt = prompt_data(partie, seat)
        if prompt is None:
            assert partie.phase is Phase.DEAL and len(partie.legal_packets()) == 1
            continue
        kinds.add(prompt["kind"])
        json.dumps(prompt)
        for data in prompt_actions(prompt):
            action = read_action(data, partie, seat)
            if not isinstance(action, int):
                assert partie.can(action)
        if prompt["kind"] == "play":
            legal = {str(a.card) for a in partie.legal_actions(seat) if hasattr(a, "card")}
            assert set(prompt["cards"]) == legal
        if prompt["kind"] == "exchange":
            low, high, advice = prompt["min"], prompt["max"], prompt["advice"]
            assert advice is not None and low <= len(advice) <= high
            assert set(advice) <= set(partie.hand(seat).strings())
    assert {"choose_dealer", "packets", "bid", "exchange", "declare", "play"} <= kinds


def test_view_phase_is_named_as_the_protocol_documents() -> None:
    documented = {"cut", "choose_dealer", "deal", "bid", "carte_blanche", "exchange", "declare", "play", "concession",
                  "over"}
    seen = set()
    for partie, seat in random_parties():
        for who in (seat, 1 - seat, None):
            data = view_data(partie.view(who))
            assert data["phase"] in documented, data["phase"]
            seen.add(data["phase"])
            json.dumps(data)
    assert {"choose_dealer", "deal", "bid", "exchange", "declare", "play"} <= seen


def test_law_36_younger_may_show_the_rest_only_if_she_leaves_some_after_elders_carte_blanche() -> None:
    # Bill (elder) announces carte blanche and will exchange five: Ann exchanges first, from the three
    # cards he leaves her; taking all three leaves nothing to show.
    partie = dealt(CB_ANN, CB_BILL, CB_TALON)
    partie.push(CarteBlanche(1, True, 5))
    prompt = prompt_data(partie, 0)
    assert prompt is not None and prompt["kind"] == "exchange"
    assert (prompt["talon_left"], prompt["min"], prompt["max"], prompt["may_show_rest"]) == (8, 1, 3, True)
    before = dumps(partie)
    with pytest.raises(ProtocolError) as refused:
        read_action({"exchange": ["KS", "QS", "JS"], "show_rest": True}, partie, 0)
    assert refused.value.code == "illegal" and dumps(partie) == before
    assert read_action({"exchange": ["KS", "QS"], "show_rest": True}, partie, 0)


def test_ruling_18_option_the_opponent_is_prompted_to_accept_or_decline_a_concession() -> None:
    from piquet.ai.agent import play_deal
    from piquet.engine.actions import AcceptConcession, Concede

    partie = Partie(("Ann", "Bill"), options={"concession_may_be_declined": True}, first_dealer=ANN)
    sinkers = tuple(RandomAgent(random.Random(seed)) for seed in (1, 2))
    for d in range(5):
        play_deal(partie, sinkers, random.Random(d))
    partie.push(partie.random_deal(random.Random(5)))
    while partie.phase is not Phase.PLAY:
        seat = partie.to_act
        assert seat is not None
        partie.push(sinkers[seat].choose(partie.view(seat), partie.legal_actions(seat)))
    loser = next(s for s in (ANN, BILL) if partie.can(Concede(s)))
    partie.push(Concede(loser))
    assert view_data(partie.view(None))["phase"] == "concession"
    prompt = prompt_data(partie, 1 - loser)
    assert prompt == {"kind": "concession",
                      "options": [{"accept_concession": True}, {"accept_concession": False}]}
    assert prompt_data(partie, loser) is None
    assert read_action({"accept_concession": False}, partie, 1 - loser) == AcceptConcession(1 - loser, False)
    rejected("not_your_turn", {"accept_concession": True}, partie, loser)


def test_ruling_18_younger_may_concede_out_of_turn_at_the_table() -> None:
    from piquet.ai.agent import play_deal
    from piquet.engine.actions import Concede

    for seed in range(20):
        partie = Partie(("Ann", "Bill"), first_dealer=ANN)
        players = tuple(RandomAgent(random.Random(seed * 2 + s)) for s in (0, 1))
        for d in range(5):
            play_deal(partie, players, random.Random(seed * 10 + d))
        if max(partie.totals) >= 100:
            continue
        partie.push(partie.random_deal(random.Random(seed)))
        while partie.phase is not Phase.PLAY:
            seat = partie.to_act
            assert seat is not None
            partie.push(players[seat].choose(partie.view(seat), partie.legal_actions(seat)))
        younger = 1 - partie.elder
        if partie.can(Concede(younger)):
            break
    else:  # pragma: no cover - the seeds above find one
        pytest.fail("no last deal where younger may concede")
    assert partie.to_act == partie.elder and prompt_data(partie, younger) is None
    assert read_action({"concede": True}, partie, younger) == Concede(younger)
    rejected("not_your_turn", {"play": str(partie.hand(younger).cards()[0])}, partie, younger)


def test_a_player_holding_nothing_to_declare_is_offered_just_that_never_a_sink() -> None:
    seen = set()
    for partie, seat in random_parties():
        prompt = prompt_data(partie, seat)
        if prompt is None or prompt["kind"] != "declare":
            continue
        labels = [o["label"] for o in prompt["options"]]
        if len(labels) == 1 and not prompt["in_full_only"]:
            assert labels == ["Nothing to declare"]
            seen.add(prompt["category"])
        else:
            assert "Nothing to declare" not in labels
            assert all("sink" not in label and "say good" not in label for label in labels[:-1])
    assert seen  # some hands held no set, or no sequence
