"""The web server's errors speak the language of the page they are sent to (issue 36, docs/protocol.md): an error's
``code`` is its stable key, its ``message`` is said in the client's language, from an English template looked up in
the catalogue (``piquet/data/locale/fr/LC_MESSAGES/piquet.po``) as the engine's refusals are. A French seat, a French
spectator and a French player against the computer send every kind of bad message and are answered in French only;
and every template of the server's code is in the French catalogue, so that a new one cannot slip in untranslated.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_errors import FIELD, has_words, plain_http_refusals, server_templates
from test_language import catalogue, missed_in_french
from test_web_french_words import english_words
from web_helpers import Client, choose, connect, create, db, error, join, query, seed_tables

from piquet.engine.language import words_in
from piquet.ui.web import app as app_module
from piquet.ui.web import guard
from piquet.ui.web.app import create_app
from piquet.ui.web.protocol import _MESSAGE_FIELDS, MAX_MESSAGE, PHRASES, ProtocolError, read_message

#: The protocol's own names an error may quote (docs/protocol.md): the types of message and their fields, the
#: phrases' ids, JSON's literals, the fields of the HTTP API's bodies. They are identifiers, the same in every
#: language: a French error names them as they are sent (a page reads them, a developer writes them).
PROTOCOL_NAMES = (*_MESSAGE_FIELDS, *{f for fields in _MESSAGE_FIELDS.values() for f in fields}, *PHRASES, "confirm",
                  "declare_best", "choose_dealer", "packets", "true", "false", "null", "deal", "lens", "lang",
                  "record", "tutor")


#: A value a client sent, quoted back in an error as it was sent (JSON): the client's words, not the server's.
QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')


def _french(texts: Sequence[str], *names: str) -> None:
    """Each error's text is French: no English word in it (the players' names, the protocol's names and the values
    the client sent aside), and none is its English template as it stands."""
    assert texts
    said = [{"message": QUOTED.sub(" ", text)} for text in texts]
    assert english_words(said, (*names, *PROTOCOL_NAMES)) == {}
    english = set(catalogue())
    assert [text for text in texts if text in english] == []


# ---------------------------------------------------------------- the catalogue holds every template
def test_every_template_of_the_server_s_errors_is_in_the_french_catalogue() -> None:
    templates, unread = server_templates()
    assert unread == [], "a ProtocolError whose template this test cannot read: teach server_errors.DERIVED"
    # The reader finds them all: those written at the call, a module's constant, a name's refusals, the takebacks'.
    assert {"the partie is over", "the table could not be saved; try again",
            "a name must show something: this one is blank",
            "this game allows no takebacks (chosen when it was created)"} <= set(templates)
    assert len(templates) >= 50
    french = catalogue()
    missing = {t: [str(s) for s in sites] for t, sites in templates.items() if has_words(t) and t not in french}
    assert missing == {}
    # Translated, not copied: each says in French what its template says in English.
    assert [t for t in templates if has_words(t) and FIELD.sub("", french[t]) == FIELD.sub("", t)] == []


#: The HTTP refusals said in English only, each with its reason: a language the server does not speak is named in
#: the one it falls back on; the laws' pages are English (docs/playing.md), and so is their "no such variant".
ENGLISH_ONLY = {"is not one the server speaks": "a language the server does not speak",
                "is not a language the server speaks": "a language the server does not speak",
                "unknown variant {variant!r}": "the laws' page of a variant, an English page"}


def test_no_http_refusal_is_written_in_english_alone_but_those_that_must_be() -> None:
    plain = plain_http_refusals()
    assert plain, "the reader finds the HTTP refusals"
    assert [str(site) for site in plain if not any(phrase in site.source for phrase in ENGLISH_ONLY)] == []


def test_the_check_finds_a_template_the_catalogue_lacks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader sees a new error's template, and one given in a way it does not know."""
    import server_errors
    web = tmp_path / "piquet" / "ui" / "web"
    web.mkdir(parents=True)
    (web / "new.py").write_text('raise ProtocolError("busy", "a brand new refusal")\n'
                                'raise ProtocolError("busy", reasons[0])\n', encoding="utf-8")
    monkeypatch.setattr(server_errors, "PACKAGE", tmp_path / "piquet")
    monkeypatch.setattr(server_errors, "WEB", web)
    templates, unread = server_templates()
    assert list(templates) == ["a brand new refusal"] and "a brand new refusal" not in catalogue()
    assert [u.source for u in unread] == ["reasons[0]"]


def _json_errors() -> Iterator[str]:
    """Texts that are not JSON, one for each reason Python's decoder gives."""
    yield from ("", "{", '{"a" 1}', '{"a": 1 "b": 2}', '"abc', '"a\x01"', '"\\q"', '"\\u12"', "1 2")


def test_an_error_s_words_and_the_json_decoder_s_reasons_are_in_the_french_catalogue() -> None:
    """What an error says of a value (its kind, the phase, nobody) and why the JSON decoder could not read a text
    are said in French too."""
    with missed_in_french() as missed:
        said = []
        for text in [*_json_errors(), "[1]", '"a"', "true", "3", "null", "1.5"]:
            with pytest.raises(ProtocolError) as refused:
                read_message(text)
            said.append(refused.value.to_data("fr"))
    assert not missed
    assert said[0]["message"] == "ce n'est pas du JSON : valeur attendue à la ligne 1, colonne 1"
    assert [s["message"].rsplit(" ", 2)[-2:] for s in said[-6:]] == [
        ["un", "tableau"], ["une", "chaîne"], ["un", "booléen"], ["un", "nombre"], ["pas", "null"], ["un", "nombre"]]
    _french([s["message"] for s in said])


def test_an_error_is_english_by_default_and_in_the_language_asked_for() -> None:
    refused = ProtocolError("stale", "this answers the state of version {version}, but the table is at version "
                                     "{now}: the current state follows", version=3, now=5)
    assert refused.to_data() == {"type": "error", "code": "stale", "message": refused.message}
    assert str(refused) == f"stale: {refused.message}" and refused.message.startswith("this answers the state of")
    assert refused.to_data("fr")["message"] == words_in("fr")(refused.template, version=3, now=5)
    assert refused.to_data("fr")["code"] == "stale"


def test_a_frame_too_large_to_read_is_refused_in_the_page_s_language() -> None:
    """The guard answers a frame it will not read before the application sees it: in the language the page's
    WebSocket query names (its last ``lang``, as the application reads it), English for one the server does not
    speak."""
    assert guard._language({"query_string": b"token=x&lang=fr"}) == "fr"
    assert guard._language({"query_string": b"lang=fr&lang=en"}) == "en"
    assert guard._language({"query_string": b"lang=de"}) == guard._language({}) == "en"
    french = json.loads(guard._TOO_LARGE_TEXT["fr"])
    assert french["code"] == "too_large" and french["message"].startswith(f"un message fait au plus {MAX_MESSAGE} ")
    assert json.loads(guard._TOO_LARGE_TEXT["en"])["message"].startswith(f"a message may be at most {MAX_MESSAGE} ")
    _french([french["message"]])


# ---------------------------------------------------------------- a French seat's bad messages, at the table
def _to_act(bill: Client, ann: Client, seat: int, rng: random.Random) -> dict[str, Any]:
    """Play the room on (each player choosing at random) until ``seat`` is to act: Bill's state then."""
    for _ in range(200):
        state = bill.current
        to_act = None if state["view"] is None else state["view"]["to_act"]
        if to_act == seat and (seat == 0 or state["prompt"] is not None):
            return state
        if to_act == 0:
            while ann.current["version"] < state["version"]:
                ann.recv_state()
            if ann.current["prompt"] is not None:
                ann.act(choose(ann.current, rng))
        elif to_act == 1 and state["prompt"] is not None:
            bill.act(choose(state, rng))
        bill.recv_state()  # the table's next state (an action's, or the table's own: the cut, a deal)
    raise AssertionError(f"seat {seat} was never to act")


def _error(client: Client, code: str) -> dict[str, Any]:
    """The client's next error (what the table says meanwhile, a state or a phrase, read past), with ``code``."""
    message = client.until(lambda m: m["type"] == "error")
    assert message["code"] == code, message
    return message


def test_a_french_seat_and_spectator_are_refused_in_french_whatever_they_send(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bill's page and a spectator's speak French in a room Ann's page plays in English: each kind of bad message
    (not JSON, not UTF-8, too large, an unknown type, a field missing or too many, a version that is stale, an action
    out of turn, one the table cannot read, one the engine refuses, a phrase of his own, a phrase too soon, a
    spectator acting, a hint or a takeback between two people) is answered in French, Ann's in English."""
    seed_tables(monkeypatch, 5)
    rng = random.Random(5)
    app = create_app(db(tmp_path))
    with missed_in_french() as missed, TestClient(app) as http, ExitStack() as stack:
        table = create(http, "room", name="Ann")
        app.state.tables.get(table["id"]).clock = lambda: 1000.0  # the phrases' allowance: no time passes
        ann = connect(http, stack, table, f"token={table['token']}", "Ann")
        bill = connect(http, stack, table, query(table["links"]["invite"]) + "&lang=fr", "Guillaume")
        join(bill, "Guillaume")
        ann.recv_state()
        watcher = connect(http, stack, table, query(table["links"]["spectate"]) + "&lang=fr", "spectator")
        state = _to_act(bill, ann, 1, rng)
        version = state["version"]
        errors: dict[str, dict[str, Any]] = {}

        def refused(name: str, code: str, message: object, client: Client = bill) -> None:
            if isinstance(message, bytes):
                client.ws.send_bytes(message)
            elif isinstance(message, str):
                client.ws.send_text(message)
            else:
                client.send(message)
            errors[name] = _error(client, code)

        refused("not JSON", "malformed", "{pas du json")
        refused("not UTF-8", "malformed", b'\xff\xfe{"type": "hint"}')
        refused("too large", "too_large", json.dumps({"type": "say", "phrase": "é" * MAX_MESSAGE}))
        refused("not an object", "malformed", [1, 2])
        refused("unknown type", "malformed", {"type": "crier"})
        refused("missing version", "malformed", {"type": "action", "action": {"play": "7S"}})
        refused("bad version", "malformed", {"type": "action", "action": {"play": "7S"}, "version": -1})
        refused("a field too many", "malformed", {"type": "hint", "version": version})
        refused("no fields", "malformed", {"type": "say"})
        refused("wrong fields", "malformed", {"type": "action", "version": version, "carte": "7S"})
        refused("confirm", "malformed", {"type": "action", "action": {}, "version": version, "confirm": "oui"})
        refused("declare_best", "malformed", {"type": "undo", "version": version, "declare_best": 1})
        refused("phrase", "malformed", {"type": "say", "phrase": "bonne chance"})
        refused("bad name", "malformed", {"type": "join", "name": ""})
        refused("stale", "stale", {"type": "action", "action": {"concede": True}, "version": version - 1})
        dealing = state["view"]["phase"] == "deal"  # Bill deals: packets of 2 or 3, not 5; else no packets at all
        for name, action in [("not an action", "sept"), ("names a player", {"player": "Guillaume", "play": "7S"}),
                             ("stacks the pack", {"cut": ["7S", "8S"]}), ("unreadable", {"jouer": "7S"}),
                             ("packets", {"packets": 5 if dealing else 2}), ("concedes", {"concede": True})]:
            code = "malformed" if name not in ("packets", "concedes") else "illegal"
            refused(name, code, {"type": "action", "action": action, "version": version})
        refused("a hint between two people", "not_allowed", {"type": "hint"})
        refused("a takeback between two people", "not_allowed", {"type": "undo", "version": version})
        refused("joins again", "not_allowed", {"type": "join", "name": "Guillaume"})
        bill.send({"type": "say", "phrase": "good_luck"})
        bill.until(lambda m: m["type"] == "said")
        refused("a phrase too soon", "busy", {"type": "say", "phrase": "thank_you"})
        bill.act(choose(bill.current, rng))
        bill.recv_state()
        state = _to_act(bill, ann, 0, rng)
        refused("out of turn", "not_your_turn", {"type": "action", "action": {"play": "7S"},
                                                  "version": state["version"]})
        refused("a spectator acts", "not_allowed", {"type": "action", "action": {"concede": True},
                                                    "version": state["version"]}, watcher)
        refused("a spectator speaks", "not_allowed", {"type": "say", "phrase": "well_played"}, watcher)
        refused("a spectator moves", "not_allowed", {"type": "move"}, watcher)
        ann.send({"type": "action", "action": {"play": "7S"}, "version": 0})
        english = _error(ann, "stale")
    assert not missed, missed
    assert english["message"].startswith("this answers the state of version 0, but the table is at version ")
    assert errors["stale"]["message"].startswith(f"ceci répond à l'état de la version {version - 1}, mais la table ")
    assert errors["out of turn"]["message"].startswith("ce n'est pas à Guillaume de jouer (")
    assert errors["concedes"]["message"].startswith("Guillaume ne peut pas abandonner : ")
    assert errors["packets"]["message"] == ("Guillaume donne par paquets de 2 ou 3, pas de 5" if dealing else
                                            "Guillaume ne peut pas choisir les paquets : c'est le choix du donneur")
    assert errors["phrase"]["message"].startswith('phrase inconnue "bonne chance" : ')
    assert errors["unreadable"]["message"] == 'cette action est illisible : {"jouer": "7S"}'
    _french([e["message"] for e in errors.values()], "Ann", "Guillaume")


def test_a_french_player_against_the_computer_is_refused_in_french(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """At a table against the computer: a phrase (said only between two people), and a takeback where none may be
    (the table allows none; nothing of hers to take back yet), in French."""
    seed_tables(monkeypatch, 11)
    errors = []
    with missed_in_french() as missed, TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        for takebacks in ("off", "fair"):
            table = create(http, "computer", name="Anne", takebacks=takebacks)
            anne = connect(http, stack, table, f"token={table['token']}&lang=fr", "Anne")
            anne.send({"type": "say", "phrase": "good_luck"})
            errors.append(error(anne, "not_allowed"))
            if anne.current["prompt"] is None:
                anne.until(lambda m: m["type"] == "state" and m["prompt"] is not None)
            anne.undo()
            errors.append(error(anne, "not_allowed"))
    assert not missed, missed
    assert errors[1]["message"] == "cette partie n'admet aucune reprise (choix fait à sa création)"
    assert errors[3]["message"] == "vous n'avez rien à reprendre (et plus rien une fois la partie finie)"
    _french([e["message"] for e in errors], "Anne")


# ---------------------------------------------------------------- the HTTP API's refusals
def test_the_http_api_refuses_a_french_page_in_french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the French pages ask of the HTTP API (a table, a rematch, the record, a review, a record's review),
    refused, is refused in French: the language the query names (``?lang=fr``, as the lobby and the table page send
    it) or the body's ``lang`` (a review's); without, in English."""
    seed_tables(monkeypatch, 11)
    # The fourth table at once is refused, however long the test takes (an allowance that grows back in hours).
    monkeypatch.setattr(app_module, "TABLE_BURST_PER_ADDRESS", 3.0)
    monkeypatch.setattr(app_module, "TABLES_PER_MINUTE_PER_ADDRESS", 0.01)
    details: dict[str, str] = {}

    def refused(name: str, status: int, answer: Any) -> None:
        assert answer.status_code == status, (name, answer.text)
        details[name] = answer.json()["detail"]

    with missed_in_french() as missed, TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        piling = "e" + "\u0301" * 9  # more marks on one letter than a name may pile
        refused("name", 422, http.post("/api/tables?lang=fr", json={"kind": "computer", "level": 1, "name": piling}))
        refused("the computer's name", 422, http.post("/api/tables?lang=fr", json={"kind": "computer", "level": 1,
                                                                                   "name": "Computer"}))
        table = create(http, "computer", name="Anne")
        connect(http, stack, table, f"token={table['token']}&lang=fr", "Anne")  # the partie begins
        french = {"token": table["token"], "lang": "fr"}
        rematch, reviews = f"/api/tables/{table['id']}/rematch", f"/api/tables/{table['id']}/reviews"
        refused("no such table", 404, http.post("/api/tables/nope/rematch", params={**french, "token": "x"}))
        refused("no seat", 403, http.post(rematch, params={**french, "token": "x"}))
        refused("a rematch too soon", 409, http.post(rematch, params=french))
        refused("the record too soon", 403, http.get(f"/api/tables/{table['id']}/record", params=french))
        refused("a deal not ended", 409, http.post(reviews, params={"token": table["token"]},
                                                   json={"deal": 3, "lang": "fr"}))
        refused("deal 0", 422, http.post(reviews, params={"token": table["token"]}, json={"deal": 0, "lang": "fr"}))
        refused("no such review", 404, http.get(f"{reviews}/nope", params=french))
        refused("no such review of a record", 404, http.get("/api/records/reviews/nope", params={"lang": "fr"}))
        unreadable = http.post("/api/records/reviews", json={"record": "{}", "lang": "fr"})
        refused("too many tables", 429, http.post("/api/tables?lang=fr", json={"kind": "room", "name": "Anne"}))
        english = http.post(rematch, params={"token": table["token"]})
    assert not missed, missed
    assert english.status_code == 409 and english.json()["detail"] == "a rematch is asked for once the partie is over"
    assert details["a rematch too soon"] == "une revanche se demande une fois la partie finie"
    assert details["a deal not ended"].startswith("la donne 3 n'est pas finie (les donnes finies : ")
    assert details["too many tables"].startswith("au plus 0.01 nouvelles tables par minute depuis une même adresse")
    # A record the engine cannot read: said in French, the reader's own where and why (English, the records'
    # language) apart, for the page to say in its words.
    assert unreadable.status_code == 422 and unreadable.json()["detail"].startswith("ce n'est pas un relevé que ")
    assert {"where", "why"} <= set(unreadable.json())
    _french(list(details.values()), "Anne", "Computer")  # the name she sent, quoted back
