"""The page's catalogues (piquet/ui/web/static/i18n/<lang>.json, read by static/i18n.js): every language has
the same keys, each translation keeps its English text's {fields}, every key the scripts and the HTML ask for
exists, and every key is asked for somewhere (no text left behind in a catalogue)."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from piquet.engine.language import LANGUAGES

STATIC = Path(__file__).resolve().parent.parent / "piquet" / "ui" / "web" / "static"
SCRIPTS = sorted(STATIC.rglob("*.js"))
PAGES = sorted(STATIC.glob("*.html"))
#: What a key looks like: dotted words ("table.hint", "glossary.carte-blanche"); a call's other strings are not keys.
KEY = re.compile(r"[a-z_]+(?:\.[\w-]+)+")


def catalogue(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def _first_argument(text: str, start: int) -> str:
    """The first argument of the call whose ``(`` is at ``start``: up to its first comma or its ``)`` at depth 0."""
    depth, quote, i = 0, "", start + 1
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'`":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return text[start + 1:i]
            depth -= 1
        elif c == "," and depth == 0:
            return text[start + 1:i]
        i += 1
    raise AssertionError(f"an unclosed call at {start}")


def asked_for() -> tuple[set[str], set[str]]:
    """The keys the page asks for: plain keys, and patterns (a template literal's ``${...}`` any word)."""
    keys: set[str] = set()
    patterns: set[str] = set()
    for path in SCRIPTS:
        text = path.read_text(encoding="utf-8")
        # The translating function is imported as t (as say where t names something else).
        names = ["t"] + re.findall(r"import \{[^}]*\bt as (\w+)", text)
        for name in names:
            for call in re.finditer(rf"(?<![\w.]){name}\(", text):
                argument = _first_argument(text, call.end() - 1)
                for template in re.findall(r"`([^`]*)`", argument):
                    pattern = re.sub(r"\\\$\\\{[^}]*\\\}", r"\\w+", re.escape(template))
                    patterns.add(pattern)
                argument = re.sub(r"`[^`]*`", "", argument)
                keys.update(k for k in re.findall(r"\"([^\"]+)\"", argument) if KEY.fullmatch(k))
        # A text by a number's plural form: plural(n, "key.one", "key.many", ...) asks for both keys.
        for one, many in re.findall(r"(?<![\w.])plural\([^,]+,\s*\"([^\"]+)\",\s*\"([^\"]+)\"", text):
            keys.update((one, many))
    for path in PAGES:
        keys.update(re.findall(r'data-i18n(?:-[a-z-]+)?="([^"]+)"', path.read_text(encoding="utf-8")))
    return keys, patterns


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_language_has_the_english_catalogue_s_keys(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    assert sorted(set(english) - set(other)) == []
    assert sorted(set(other) - set(english)) == []


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_each_translation_keeps_its_english_text_s_fields(lang: str) -> None:
    fields = string.Formatter()
    english, other = catalogue("en"), catalogue(lang)
    for key, text in english.items():
        want = {f for _, f, _, _ in fields.parse(text) if f}
        assert {f for _, f, _, _ in fields.parse(other[key]) if f} == want, key
        assert other[key].strip(), key


def test_every_key_the_page_asks_for_is_in_the_catalogue() -> None:
    english = catalogue("en")
    keys, patterns = asked_for()
    assert sorted(keys - set(english)) == []
    for pattern in patterns:
        assert any(re.fullmatch(pattern, key) for key in english), pattern


def test_every_key_of_the_catalogue_is_asked_for() -> None:
    keys, patterns = asked_for()
    unused = [k for k in catalogue("en") if k not in keys and not any(re.fullmatch(p, k) for p in patterns)]
    assert unused == []


def test_the_page_and_the_server_speak_the_same_languages() -> None:
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    listed = re.search(r"export const LANGUAGES = \{([^}]*)\}", text)
    assert listed is not None
    assert re.findall(r"(\w+): \"", listed.group(1)) == list(LANGUAGES)
    assert {p.stem for p in (STATIC / "i18n").glob("*.json")} == set(LANGUAGES)
