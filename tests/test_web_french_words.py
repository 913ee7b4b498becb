"""A whole partie at a French seat speaks French (issue 36): every word of every message the server sends the seat,
from its first state to the result, is a word of the French catalogues (the game's, ``piquet/data/locale/fr``, and
the page's, ``static/i18n/fr.json``), and none is a word only the English ones have. Cards travel as the records
write them ("QS": the page draws them with the French indices) and the protocol's own names of things (a phase, a
category, an action's fields) are identifiers the page reads, never shows; what else may be the same in both
languages is listed below, each with its reason."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from contextlib import ExitStack
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import FOUR_DEALS, connect, create, db, play_computer, seed_tables

from piquet.engine.language import english_number, french_number, read_po
from piquet.ui.web.app import create_app

STATIC = resources.files("piquet").joinpath("ui/web/static/i18n")
CATALOGUE = resources.files("piquet").joinpath("data/locale/fr/LC_MESSAGES/piquet.po")

#: The keys whose values are the protocol's identifiers (docs/protocol.md), read by the page and never shown as
#: they are: a message's ``type``, a prompt's ``kind``, a phase, a score's ``category``, a feat, the variant's and the
#: table's names, its status and takebacks, secrets and links, and an action as it is sent back (``action``; a bid
#: prompt's ``options`` and a bid's ``call``, "pass", "double", are actions too: the page says them in its words).
IDENTIFIERS = frozenset({"type", "kind", "phase", "category", "feat", "variant", "status", "takebacks", "id",
                         "token", "spectate", "invite", "link", "links", "action", "declare", "call", "bid"})
#: Words that are the same in French and English and may stand in a French text without being a catalogue's: none
#: but the players' names, added by the test (a person's name is his own in every language).
SAME_IN_BOTH: frozenset[str] = frozenset()
#: A card as the records write it, in a text ("entame de 7D"): the page shows it with the French indices.
CARD = re.compile(r"\b[AKQJT987][SHDC]\b")
WORD = re.compile(r"[^\W\d_]+")


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(CARD.sub(" ", re.sub(r"\{\w+\}", " ", text)))}


def _vocabulary(lang: str) -> set[str]:
    """Every word of a language's catalogues: the game's templates and the page's, and the numbers in words."""
    po = read_po(CATALOGUE.read_text(encoding="utf-8"))
    game = po.values() if lang == "fr" else (part for key in po for part in key.split("\0"))
    page = json.loads(STATIC.joinpath(f"{lang}.json").read_text(encoding="utf-8")).values()
    number = french_number if lang == "fr" else english_number
    words: set[str] = set()
    for text in [*game, *page, *(number(n) for n in range(400))]:
        words |= _words(text)
    return words


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
