"""A whole partie at a French seat speaks French (issue 36): every word of every message the server sends the seat,
from its first state to the result, is a word of the French catalogues (the game's, ``piquet/data/locale/fr``, and
the page's, ``static/i18n/fr.json``), and none is a word only the English ones have. Cards travel as the records
write them ("QS": the page draws them with the French indices) and the protocol's own names of things (a phase, a
category, an action's fields) are identifiers the page reads, never shows; what else may be the same in both
languages is listed below, each with its reason."""

from __future__ import annotations

import functools
import json
import random
import re
import time
from collections.abc import Iterator
from contextlib import ExitStack
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import FOUR_DEALS, Client, choose, connect, create, db, error, play_computer, seed_tables

from piquet.engine.language import english_number, french_number, read_po
from piquet.ui.web import advice
from piquet.ui.web.app import create_app

STATIC = resources.files("piquet").joinpath("ui/web/static/i18n")
CATALOGUE = resources.files("piquet").joinpath("data/locale/fr/LC_MESSAGES/piquet.po")

#: The keys whose values are the protocol's identifiers (docs/protocol.md), read by the page and never shown as
#: they are: a message's ``type``, an error's ``code``, a prompt's ``kind``, a phase, a score's ``category``, a feat,
#: the variant's and the table's names, its status and takebacks, secrets and links, and an action as it is sent back
#: (``action``; a bid prompt's ``options`` and a bid's ``call``, "pass", "double", are actions too: the page says them
#: in its words).
IDENTIFIERS = frozenset({"type", "code", "kind", "phase", "category", "feat", "variant", "status", "takebacks", "id",
                         "token", "spectate", "invite", "link", "links", "action", "declare", "call", "bid"})
#: Words that are the same in French and English and may stand in a French text without being a catalogue's: none
#: but the players' names, added by the test (a person's name is his own in every language).
SAME_IN_BOTH: frozenset[str] = frozenset()
#: A card as the records write it, in a text ("entame de 7D"): the page shows it with the French indices.
CARD = re.compile(r"\b[AKQJT987][SHDC]\b")
WORD = re.compile(r"[^\W\d_]+")


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(CARD.sub(" ", re.sub(r"\{\w+\}", " ", text)))}


@functools.cache
def _vocabulary(lang: str) -> frozenset[str]:
    """Every word of a language's catalogues: the game's templates and the page's, and the numbers in words (read
    once a run: every message of every partie here is checked against them)."""
    po = read_po(CATALOGUE.read_text(encoding="utf-8"))
    game = po.values() if lang == "fr" else (part for key in po for part in key.split("\0"))
    page = json.loads(STATIC.joinpath(f"{lang}.json").read_text(encoding="utf-8")).values()
    number = french_number if lang == "fr" else english_number
    words: set[str] = set()
    for text in [*game, *page, *(number(n) for n in range(400))]:
        words |= _words(text)
    return frozenset(words)


def texts(message: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Each text of a message with the key it is under, the identifiers left out."""
    if key in IDENTIFIERS:
        return
    if isinstance(message, dict):
        for k, v in message.items():
            yield from texts(v, k)
    elif isinstance(message, list):
        for v in message:
            yield from texts(v, key)
    elif isinstance(message, str) and key != "options":  # a bid prompt's options: its calls, as sent back
        yield key, message


def english_words(messages: list[dict[str, Any]], names: tuple[str, ...]) -> dict[str, set[str]]:
    """The words of the messages that are not French: each with the texts it stood in."""
    french, english = _vocabulary("fr"), _vocabulary("en")
    allowed = SAME_IN_BOTH | {w for name in names for w in _words(name)}
    found: dict[str, set[str]] = {}
    for message in messages:
        for key, text in texts(message):
            for word in _words(text) - allowed:
                if word not in french or (word in english and word not in french):
                    found.setdefault(word, set()).add(f"{key}: {text}")
    return found


def test_the_vocabularies_tell_the_languages_apart() -> None:
    """The check can fail: an English sentence of the game is found out, a French one passes."""
    assert english_words([{"text": "Computer wins the partie."}], ("Anne",)).keys() >= {"computer", "wins", "the"}
    assert english_words([{"text": "L'ordinateur gagne la partie.", "kind": "note"}], ("Anne",)) == {}
    assert english_words([{"text": "Anne coupe 9D", "category": "sequences"}], ("Anne",)) == {}


@pytest.mark.parametrize(("variant", "options"), [("rubicon", FOUR_DEALS), ("auction", {}), ("au-cent", {})])
def test_a_whole_partie_at_a_french_seat_sends_it_no_english_word(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   variant: str, options: dict[str, Any]) -> None:
    seed_tables(monkeypatch, 11)
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, "computer", variant=variant, name="Anne", options=options)
        anne = connect(http, stack, table, f"token={table['token']}&lang=fr", "Anne")
        final = play_computer(anne, random.Random(3))
    assert final["view"]["result"] is not None and final["view"]["sheet"]
    assert final["players"][1 - final["seat"]] == "l'ordinateur"
    assert english_words(anne.messages, ("Anne",)) == {}



def test_an_action_the_engine_refuses_is_refused_in_french_at_a_french_seat(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's refusal (its typed reason, piquet.engine.refusals) reaches a French seat in French: who cannot do
    what and why, its law by its number, a card with the French indices."""
    seed_tables(monkeypatch, 11)
    with TestClient(create_app(db(tmp_path))) as http, ExitStack() as stack:
        table = create(http, "computer", name="Anne", options=FOUR_DEALS)
        anne = connect(http, stack, table, f"token={table['token']}&lang=fr", "Anne")
        play_computer(anne, random.Random(3), stop=lambda s: s["prompt"] is not None)  # the table waits for Anne
        anne.act({"concede": True})  # judged by the engine: not before the last deal
        conceded = error(anne, "illegal")
        state = play_computer(anne, random.Random(3), stop=lambda s: (s["prompt"] or {}).get("kind") == "play")
        foreign = next(c + s for s in "SHDC" for c in "AKQJ" if c + s not in state["view"]["hand"])
        anne.act({"play": foreign})
        played = error(anne, "illegal")
    assert conceded["message"].startswith("Anne ne peut pas abandonner : décision 18 "), conceded
    french = {"A": "A", "K": "R", "Q": "D", "J": "V"}[foreign[0]] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[foreign[1]]
    assert played["message"] == f"Anne ne peut pas jouer {french} : {french} n'est pas dans sa main", played
    assert english_words([conceded, played], ("Anne",)) == {}


# ---------------------------------------------------------------- the hints, the tutor and the review
#: The decisions the review values, for which a hint gives a reason and the tutor checks.
REASONED = ("exchange", "declare", "play")
#: The longest a review may take here before the test fails (seconds by the wall clock).
REVIEW_WAIT = 300.0
_RANKS = "AKQJT987"


def _tutored(anne: Client, rng: random.Random, deals: int | None = None) -> int:
    """Play Anne's seat, a table with the tutor, to the end of deal ``deals`` (``None``: of the partie); in the first
    deal, asking a hint before each decision the review values, the exchange the worst there is (the aces and kings
    thrown), so that the tutor warns. A choice the tutor warns of is played anyway. How many warnings came."""
    warnings = 0
    if anne.state is None:
        anne.recv_state()
    while anne.current["table"]["status"] != "over" and (deals is None or len(anne.current["view"]["sheet"]) < deals):
        state = anne.current
        prompt = state["prompt"]
        if prompt is None or state["version"] == anne.acted:
            anne.recv_state()
            continue
        anne.acted = state["version"]
        first = not state["view"]["sheet"]
        if first and prompt["kind"] in REASONED:
            anne.send({"type": "hint"})
            hint = anne.until(lambda m: m["type"] in ("hint", "error"))
            assert hint["type"] == "hint" and hint["reason"], hint
        if first and prompt["kind"] == "exchange":
            worst = sorted(state["view"]["hand"], key=lambda c: _RANKS.index(c[0]))[:prompt["max"]]
            action = {"exchange": worst, "show_rest": False}
        else:
            action = choose(state, rng)
        anne.act(action)
        answer = anne.recv()
        if answer["type"] == "tutor":
            warnings += 1
            anne.send({"type": "action", "action": action, "version": state["version"], "confirm": True})
            anne.recv_state()
        else:
            assert answer["type"] == "state", answer
    return warnings


#: In a review's JSON, besides the protocol's identifiers: the keys whose values are identifiers too, read by the
#: review page and shown in its words (a lens, a decision that is no action of the record, how an exchange's play
#: was valued), and a concession's options ("concede", "play on"), which the page names in its words.
REVIEW_IDENTIFIERS = frozenset({"lens", "decision", "play"})
CONCESSION_OPTIONS = frozenset({"concede", "play on", "accept", "decline"})


def _review_texts(answer: dict[str, Any]) -> dict[str, Any]:
    """A review's answer with its identifiers left out, for :func:`english_words`."""
    def strip(x: Any, key: str = "") -> Any:
        if isinstance(x, dict):
            return {k: strip(v, k) for k, v in x.items() if k not in REVIEW_IDENTIFIERS}
        if isinstance(x, list):
            return [strip(v, key) for v in x]
        return "" if key in ("choice", "best", "option") and x in CONCESSION_OPTIONS else x
    stripped: dict[str, Any] = strip(answer)
    return stripped


def _reviewed(http: TestClient, table: dict[str, Any], **body: Any) -> dict[str, Any]:
    """The review asked for, once made: its last answer (asked for until done, as the review page does)."""
    params = {"token": table["token"]}
    asked = http.post(f"/api/tables/{table['id']}/reviews", params=params, json=body)
    assert asked.status_code in (200, 202), asked.text
    deadline = time.monotonic() + REVIEW_WAIT
    while time.monotonic() < deadline:
        answer: dict[str, Any] = http.get(f"/api/tables/{table['id']}/reviews/{asked.json()['id']}",
                                          params=params).json()
        if answer["status"] in ("done", "failed"):
            assert answer["status"] == "done", answer
            return answer
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


@pytest.mark.slow  # a whole partie (or several): the inner loop leaves it to CI
def test_a_french_seat_s_hints_tutor_and_reviews_say_no_english_word(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Anne asks a hint at each decision of the first deal, is warned by the tutor, then opens the review of the deal
    and, once the partie is over, of the whole partie: every reason, warning, explanation and decision in words is
    French, and her name and the computer's are as the French seat is told them."""
    seed_tables(monkeypatch, 4)
    monkeypatch.setattr(advice, "HINT_BURST", 1000)  # a hint at every decision, none refused for the allowance
    with TestClient(create_app(db(tmp_path), workers=0)) as http, ExitStack() as stack:
        table = create(http, "computer", name="Anne", tutor=True, budget=0.1, options=FOUR_DEALS)
        anne = connect(http, stack, table, f"token={table['token']}&lang=fr", "Anne")
        warnings = _tutored(anne, random.Random(2), deals=1)
        deal = _reviewed(http, table, deal=1, lang="fr")
        _tutored(anne, random.Random(3))
        partie = _reviewed(http, table, lang="fr")
        english = _reviewed(http, table, deal=1)
        refused = http.post(f"/api/tables/{table['id']}/reviews", params={"token": table["token"]},
                            json={"deal": 1, "lang": "de"})
    hints = [m for m in anne.messages if m["type"] == "hint"]
    assert warnings >= 1 and len(hints) >= 13  # the exchange, the declarations, twelve cards
    assert any(h["reason"].startswith("Écarter ") for h in hints) and any(h["reason"].startswith(("Jouer ", "Entamer "))
                                                                          for h in hints)
    said = [*anne.messages, _review_texts(deal), _review_texts(partie)]
    assert english_words(said, ("Anne",)) == {}
    explained = [e["explanation"] for e in deal["result"]["review"]["exchanges"] if not e["forced"]]
    assert explained and all(e.startswith(("Écarter ", "N'échanger ")) for e in explained)
    assert deal["result"]["review"]["players"][1] == "l'ordinateur"
    assert english_words([english], ("Anne", "Computer")).keys() >= {"discarding", "the"}
    assert refused.status_code == 422 and "'de'" in refused.json()["detail"]


def test_the_lobby_s_setup_names_the_variants_and_levels_in_the_language_asked_for(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path))) as http:
        english, french = (http.get("/api/setup", params=p).json() for p in ({}, {"lang": "fr"}))
        refused = http.get("/api/setup", params={"lang": "de"})
    assert [v["title"] for v in english["variants"]] == ["Rubicon Piquet", "Auction Piquet", "Piquet au Cent"]
    assert [v["title"] for v in french["variants"]] == ["Piquet rubicon", "Piquet aux enchères", "Piquet au cent"]
    assert [lv["name"] for lv in french["levels"]] == ["débutant", "amateur", "joueur de club", "fort", "expert"]
    assert english["levels"][2]["name"] == "club player"
    # Each rule option's name and description, in French; the English ones as the engine writes them.
    options = {o["name"]: o for v in french["variants"] for o in v["options"]}
    assert options["four_deal_partie"]["label"] == "Partie en quatre donnes"
    assert english["variants"][0]["options"][0]["label"] == "Minimum point"
    found = english_words([{"text": o[k]} for o in options.values() for k in ("label", "description")], ())
    assert found == {}
    assert refused.status_code == 400 and "'de'" in refused.json()["detail"]
