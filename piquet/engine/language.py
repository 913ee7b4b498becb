"""The languages the game speaks: English (the code's own words) and French, by the standard library's
:mod:`gettext`.

Every sentence the game says is written in English in the code, as a :meth:`str.format` template, and looked
up in the language's catalogue, ``piquet/data/locale/<lang>/LC_MESSAGES/piquet.po``: the catalogue is read
as it is (the ``.po`` text, compiled in memory to the form :class:`gettext.GNUTranslations` reads), so no
compiled ``.mo`` file sits in the repository to drift from its source. What cannot be a sentence of a
catalogue, a language's way of saying numbers, is here.

>>> fr = words_in("fr")
>>> fr("Point of {number}", number=fr.number(5))
'Point de cinq'
>>> fr.number(71), fr.number(80), fr.number(91), fr.number(21)
('soixante et onze', 'quatre-vingts', 'quatre-vingt-onze', 'vingt et un')
>>> words_in("en")("Point of {number}", number=words_in("en").number(5))
'Point of five'
"""

from __future__ import annotations

import ast
import gettext
import io
import re
import struct
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

__all__ = ["LANGUAGES", "Words", "check_language", "compile_po", "read_po", "words_in"]

#: The languages the game speaks, by their ISO 639-1 codes, with each one's name in itself.
LANGUAGES: Final[dict[str, str]] = {"en": "English", "fr": "Français"}

_EN_NUMBERS = (
    "nought one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen"
).split()
_EN_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_FR_NUMBERS = (
    "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize dix-sept "
    "dix-huit dix-neuf"
).split()
_FR_TENS = ["_", "_", "vingt", "trente", "quarante", "cinquante", "soixante"]


def english_number(n: int) -> str:
    """A number in English words, as the traditional calls say them.

    >>> english_number(49), english_number(21), english_number(160)
    ('forty-nine', 'twenty-one', 'one hundred and sixty')
    """
    if n < 0:
        return "minus " + english_number(-n)
    if n < 20:
        return _EN_NUMBERS[n]
    if n < 100:
        tens, units = divmod(n, 10)
        return _EN_TENS[tens] + ("-" + _EN_NUMBERS[units] if units else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return _EN_NUMBERS[hundreds] + " hundred" + (" and " + english_number(rest) if rest else "")
    return str(n)


def french_number(n: int) -> str:
    """A number in French words (the traditional spelling: "vingt et un", "quatre-vingts").

    >>> french_number(48), french_number(77), french_number(200), french_number(101)
    ('quarante-huit', 'soixante-dix-sept', 'deux cents', 'cent un')
    """
    if n < 0:
        return "moins " + french_number(-n)
    if n < 20:
        return _FR_NUMBERS[n]
    if n < 70:
        tens, units = divmod(n, 10)
        if units == 0:
            return _FR_TENS[tens]
        return _FR_TENS[tens] + (" et un" if units == 1 else "-" + _FR_NUMBERS[units])
    if n < 80:
        return "soixante" + (" et onze" if n == 71 else "-" + _FR_NUMBERS[n - 60])
    if n < 100:
        return "quatre-vingts" if n == 80 else "quatre-vingt-" + _FR_NUMBERS[n - 80]
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        head = "cent" if hundreds == 1 else _FR_NUMBERS[hundreds] + (" cents" if rest == 0 else " cent")
        return head + (" " + french_number(rest) if rest else "")
    return str(n)


_NUMBER_WORDS = {"en": english_number, "fr": french_number}


def check_language(lang: object) -> str:
    """``lang`` if the game speaks it; else a :class:`ValueError` that names it and the languages there are.

    >>> check_language("fr")
    'fr'
    >>> check_language("de")
    Traceback (most recent call last):
    ...
    ValueError: language 'de' is not one the game speaks (en, fr)
    """
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not one the game speaks ({', '.join(LANGUAGES)})")
    return lang


#: A plural form's field in a catalogue: ``msgstr[0]``, ``msgstr[1]``...
_PLURAL_FORM = re.compile(r"msgstr\[[0-9]\]")


def read_po(text: str) -> dict[str, str]:
    """The translations of a ``.po`` catalogue's text, message by message (the header's ``""`` included; an
    untranslated message, ``msgstr ""``, left out, so that it falls back to the English). A message with plural
    forms (``msgid_plural``, ``msgstr[0]``, ``msgstr[1]``) is keyed, as the ``.mo`` form has it, by its two English
    forms joined by a NUL, its forms joined the same way.

    >>> read_po('msgid "Good."\\nmsgstr "Bon."\\n\\nmsgid "Bad"\\nmsgstr ""\\n')
    {'Good.': 'Bon.'}
    >>> read_po('msgid "{n} trick"\\nmsgid_plural "{n} tricks"\\nmsgstr[0] "{n} levée"\\nmsgstr[1] "{n} levées"\\n')
    {'{n} trick\\x00{n} tricks': '{n} levée\\x00{n} levées'}
    """
    messages: dict[str, str] = {}
    key: str | None = None
    current: dict[str, str] = {}
    field = ""

    def flush() -> None:
        if "msgid_plural" in current:
            # A message with plural forms: the key and the forms joined by NUL, as the .mo format stores them.
            forms = [current[f] for f in sorted(f for f in current if f.startswith("msgstr["))]
            if forms and all(forms):
                messages[current["msgid"] + "\0" + current["msgid_plural"]] = "\0".join(forms)
        elif "msgid" in current and (current.get("msgstr") or current["msgid"] == ""):
            messages[current["msgid"]] = current.get("msgstr", "")
        current.clear()

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            key = field
        else:
            key, _, line = line.partition(" ")
            if key == "msgid":
                flush()
            if key not in ("msgid", "msgid_plural", "msgstr") and not _PLURAL_FORM.fullmatch(key):
                raise ValueError(f"line {number} of the catalogue: {key!r} is not a field this reader knows")
            field = key
        value = ast.literal_eval(line)
        if not isinstance(value, str):
            raise ValueError(f"line {number} of the catalogue: {line!r} is not a quoted string")
        current[key] = current.get(key, "") + value
    flush()
    return messages


def compile_po(messages: dict[str, str]) -> bytes:
    """The messages in the GNU ``.mo`` form that :class:`gettext.GNUTranslations` reads."""
    keys = sorted(messages)
    ids = [k.encode("utf-8") for k in keys]
    strs = [messages[k].encode("utf-8") for k in keys]
    header = 7 * 4
    id_table = header
    str_table = id_table + 8 * len(keys)
    data = str_table + 8 * len(keys)
    offsets: list[int] = []
    blob = b""
    for chunk in ids + strs:
        offsets += [len(chunk), data + len(blob)]
        blob += chunk + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, len(keys), id_table, str_table, 0, 0)
    return out + struct.pack(f"<{len(offsets)}I", *offsets) + blob


@dataclass(frozen=True)
class Words:
    """The words of one language: call it with an English template and its parameters."""

    lang: str
    translation: gettext.NullTranslations

    def __call__(self, message: str, **params: Any) -> str:
        text = self.translation.gettext(message)
        return text.format(**params) if params else text

    def plural(self, singular: str, plural: str, n: int, **params: Any) -> str:
        """The form of a message for ``n`` (its plural rule the catalogue's ``Plural-Forms``; English: one is
        singular), with ``n`` and ``params`` filled in.

        >>> words_in("fr").plural("{n} undertrick", "{n} undertricks", 2), words_in("en").plural("{n} undertrick",
        ...                                                                                     "{n} undertricks", 1)
        ('2 levées de moins', '1 undertrick')
        """
        return self.translation.ngettext(singular, plural, n).format(n=n, **params)

    def number(self, n: int) -> str:
        """``n`` in words."""
        return _NUMBER_WORDS[self.lang](n)


@cache
def words_in(lang: str = "en") -> Words:
    """The words of ``lang`` (a :class:`ValueError` for a language the game does not speak)."""
    check_language(lang)
    if lang == "en":
        return Words(lang, gettext.NullTranslations())
    path = resources.files("piquet").joinpath(f"data/locale/{lang}/LC_MESSAGES/piquet.po")
    mo = compile_po(read_po(path.read_text(encoding="utf-8")))
    return Words(lang, gettext.GNUTranslations(io.BytesIO(mo)))
