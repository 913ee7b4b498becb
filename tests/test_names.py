"""Players' names at the browser table (``docs/security.md``, "Names"): Unicode's confusables (the skeleton of UTS
#39) and its default-ignorable code points, from the table ``tools/unicode_tables.py`` made from Unicode's files."""

from __future__ import annotations

import re
import unicodedata
from importlib import resources

import pytest
from fastapi.testclient import TestClient
from web_helpers import Client, create

from piquet.ui.web.app import create_app
from piquet.ui.web.names import BadName, clean_name, ignorable, imitates, name_key, skeleton


def test_the_unicode_table_says_where_it_comes_from_and_is_whole() -> None:
    text = resources.files("piquet").joinpath("data/names-unicode.txt").read_text(encoding="ascii")
    head = [line for line in text.splitlines() if line.startswith("#")]
    assert any(re.search(r"Version: \d+\.\d+\.\d+", line) for line in head)  # confusables.txt's version
    assert any("DerivedCoreProperties-" in line for line in head)
    assert sum("SHA-256" in line for line in head) == 2 and any("Unicode License" in line for line in head)
    body = text.split("[confusables]", 1)[1].split()
    assert len(body) > 2 * 6000  # every mapping of confusables.txt, not a hand-picked few
    # Unicode's own examples of UTS #39 (section 4): skeleton("paypal") == skeleton("pаypаl") with Cyrillic a.
    assert skeleton("paypal") == skeleton("p\u0430yp\u0430l") and skeleton("1") == skeleton("l")


@pytest.mark.parametrize("char", ["\u3164", "\u115f", "\u1160", "\uffa0", "\u034f", "\u180b", "\ufe00", "\u00ad",
                                  "\u2060", "\u200b", "\u061c", "\U000e0001", "\u17b4"])
def test_default_ignorable_code_points_are_refused_anywhere_in_a_name(char: str) -> None:
    clean = unicodedata.normalize("NFKC", char)
    assert all(ignorable(c) or unicodedata.category(c) == "Cf" for c in clean)
    for name in (char, f"Ann{char}", f"{char}Ann", f"A{char}nn"):
        with pytest.raises(BadName, match="invisible or control"):
            clean_name(name)


@pytest.mark.parametrize("name", ["\u2800", "\u2800\u2800 \u2800", "\u0301\u0301", " \u3000 "],
                         ids=["braille blank", "blanks and spaces", "marks alone", "ideographic space"])
def test_a_blank_name_is_refused(name: str) -> None:
    with pytest.raises(BadName):
        clean_name(name)


def test_marks_piled_on_a_letter_are_refused_and_a_few_are_a_name() -> None:
    assert clean_name("Zoe\u0308") == "Zoë" and clean_name("Ann ❤️") == "Ann ❤"
    with pytest.raises(BadName, match="marks"):
        clean_name("Z" + "\u0301\u0302\u0303\u0304\u0306" + "oe")


@pytest.mark.parametrize("name, other", [
    ("ᏟᎾᎷᏢᏌᎢᎬᎡ", "Computer"),      # Cherokee
    ("ΒΙLL", "Bill"),               # Greek capitals
    ("Вill", "Bill"),               # a Cyrillic capital
    ("𝐀𝐧𝐧", "Ann"),                  # mathematical bold (NFKC)
    ("Ꭺnn", "Ann"),                 # a Cherokee A
    ("C0MPUTER", "Computer"),
    ("Cornputer", "Computer"),      # rn and m
    ("Ａｎｎ", "Ann"),
    ("ann.", "Ann"),
])
def test_look_alike_alphabets_imitate_the_name_they_copy(name: str, other: str) -> None:
    assert imitates(name, [other]) and name_key(name) == name_key(other)


@pytest.mark.parametrize("name, other", [("Ann", "Anne"), ("Bill", "Bell"), ("Zoé", "Zoë Two"), ("José", "Joss")])
def test_different_names_stay_different(name: str, other: str) -> None:
    assert not imitates(name, [other])


@pytest.mark.parametrize("name, code", [
    ("\u3164", "malformed"),           # a Hangul filler: the name looks blank
    ("Bill\u3164", "malformed"),
    ("\u2800\u2800", "malformed"),     # braille blanks
    ("ᎪᏁᏁ".replace("Ꮑ", "n"), "not_allowed"),  # Cherokee A with Latin n: Ann
    ("ΑΝΝ", "not_allowed"),            # Greek capitals
])
def test_a_guest_name_that_is_blank_or_imitates_in_another_alphabet_is_refused(
        tmp_path: object, name: str, code: str) -> None:
    with TestClient(create_app(str(tmp_path) + "/db.sqlite3")) as http:
        table = create(http, "room", name="Ann")
        with http.websocket_connect(f"/ws/{table['id']}?{table['links']['invite'].split('#')[1]}") as ws:
            bill = Client(ws)
            bill.recv_state()
            bill.send({"type": "join", "name": name})
            assert bill.recv()["code"] == code
