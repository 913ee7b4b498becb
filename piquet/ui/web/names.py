r"""Players' names at the browser table: what a name may hold, and when it imitates another.

A name is read in Unicode's NFKC form (compatibility characters such as full-width letters become the plain
ones), its ends stripped of spaces, the emoji presentation selectors (U+FE0E, U+FE0F) left out; it is 1 to
:data:`MAX_NAME` characters, none of them a control, format (zero-width spaces and joiners, right-to-left
overrides), surrogate, private-use or unassigned character, a line or paragraph separator, nor a
default-ignorable code point (a character that shows nothing: a Hangul filler, a combining grapheme joiner, a
variation selector), with at most :data:`MAX_MARKS` combining marks on one letter, and at least one character
that shows (a name of spaces, marks and blank patterns is none).

Two names are the same person's to the eye when their :func:`name_key` agree: the *skeleton* of Unicode's
Technical Standard #39 (each character replaced by the prototype it may be confused with, so that Latin,
Cyrillic, Greek, Cherokee... look-alikes meet), case folded, accents taken off, a few digits read as the
letters they pass for, and everything but letters and digits left out. A name may not be the other player's,
nor the computer's, by that measure. The Unicode data (the confusables and the default-ignorable code points)
is ``piquet/data/names-unicode.txt``, made from Unicode's files by ``tools/unicode_tables.py``, which says
which files and versions.

>>> clean_name("  Ｂｉｌｌ ")
'Bill'
>>> name_key("Аnn") == name_key("ann") == name_key("A n n.")   # the first letter is Cyrillic
True
>>> imitates("Cоmputer", ["Computer"]), imitates("ᏟᎾᎷᏢᏌᎢᎬᎡ", ["Computer"])  # a Cyrillic o; Cherokee letters
(True, True)
>>> clean_name("Bi\u200bll")
Traceback (most recent call last):
...
piquet.ui.web.names.BadName: a name may not hold invisible or control characters (U+200B ZERO WIDTH SPACE)
>>> clean_name("\u3164Ann")  # a Hangul filler (NFKC: U+1160)
Traceback (most recent call last):
...
piquet.ui.web.names.BadName: a name may not hold invisible or control characters (U+1160 HANGUL JUNGSEONG FILLER)
"""

from __future__ import annotations

import bisect
import functools
import unicodedata
from collections.abc import Iterable
from importlib import resources

from piquet.ui.web.errors import Refusal

__all__ = ["MAX_MARKS", "MAX_NAME", "BadName", "clean_name", "imitates", "name_key", "skeleton"]

#: The longest name, in characters (after NFKC).
MAX_NAME = 40
#: The most combining marks one letter may carry.
MAX_MARKS = 3

_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
#: The emoji presentation selectors, left out of a name (the emoji shows the same without them).
_PRESENTATION = str.maketrans({"\ufe0e": None, "\ufe0f": None})
#: Characters that are drawn blank though Unicode calls them symbols (a name of them is no name).
_BLANK = frozenset("\u2800")

# Digits and signs read as the letters they pass for, beyond Unicode's confusables.
_LOOK_ALIKES = str.maketrans({"3": "e", "5": "s", "ß": "ss", "i": "l"})


class BadName(Refusal):
    """A name that is not one (empty, too long, invisible characters): the message says why."""


@functools.cache
def _tables() -> tuple[list[int], list[int], dict[str, str]]:
    """The default-ignorable code points (the starts and ends of their ranges) and the confusables' prototypes."""
    text = resources.files("piquet").joinpath("data/names-unicode.txt").read_text(encoding="ascii")
    starts: list[int] = []
    ends: list[int] = []
    prototypes: dict[str, str] = {}
    section = ""
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line
        elif section == "[ignorable]":
            first, _, last = line.partition("..")
            starts.append(int(first, 16))
            ends.append(int(last or first, 16))
        elif section == "[confusables]":
            source, target = line.split(" ", 1)
            prototypes[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in target.split())
    return starts, ends, prototypes


def ignorable(char: str) -> bool:
    """Whether ``char`` is a default-ignorable code point (Unicode's ``Default_Ignorable_Code_Point``)."""
    starts, ends, _ = _tables()
    at = bisect.bisect_right(starts, ord(char)) - 1
    return at >= 0 and ord(char) <= ends[at]


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, each character replaced by its confusables' prototype, NFD again."""
    prototypes = _tables()[2]
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def clean_name(name: str) -> str:
    """The name as the table keeps it (NFKC, stripped); raises :class:`BadName` if it is no name."""
    clean = unicodedata.normalize("NFKC", name).translate(_PRESENTATION).strip()
    marks = 0
    for char in clean:
        if unicodedata.category(char) in _REFUSED_CATEGORIES or ignorable(char):
            label = unicodedata.name(char, "unnamed")
            raise BadName("a name may not hold invisible or control characters (U+{code} {label})",
                          code=f"{ord(char):04X}", label=label)
        marks = marks + 1 if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise BadName("a name may not pile more than {most} marks on one letter", most=MAX_MARKS)
    if not clean or len(clean) > MAX_NAME:
        raise BadName("a name is 1 to {most} characters, not {n}", most=MAX_NAME, n=len(clean))
    if not any(unicodedata.category(c)[0] in "LNPS" and c not in _BLANK for c in clean):
        raise BadName("a name must show something: this one is blank")
    return clean


def name_key(name: str) -> str:
    """What a name looks like: the same key for names a reader would take for one another."""
    text = unicodedata.normalize("NFKC", name)
    for _ in range(3):  # the skeleton and case folding, until each leaves the other nothing to change
        folded = skeleton(text).casefold()
        if folded == text:
            break
        text = folded
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return "".join(c for c in text.translate(_LOOK_ALIKES) if c.isalnum())


def imitates(name: str, others: Iterable[str | None]) -> bool:
    """Whether ``name`` looks like any of ``others``."""
    key = name_key(name)
    return any(other is not None and name_key(other) == key for other in others)
