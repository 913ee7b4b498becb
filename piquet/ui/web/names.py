r"""Players' names at the browser table: what a name may hold, and when it imitates another.

A name is read in Unicode's NFKC form (compatibility characters such as full-width letters become the plain
ones), its ends stripped of spaces; it is 1 to :data:`MAX_NAME` characters, none of them a control, format
(zero-width spaces and joiners, right-to-left overrides), surrogate, private-use or unassigned character, nor
a line or paragraph separator. Two names are the same person's to the eye when their :func:`name_key` agree:
letters with their accents taken off, case folded, the common look-alikes of Latin letters in Cyrillic and
Greek (and a few digits) read as those letters, and everything but letters and digits left out. A name may
not be the other player's, nor the computer's, by that measure.

>>> clean_name("  Ｂｉｌｌ ")
'Bill'
>>> name_key("Аnn") == name_key("ann") == name_key("A n n.")   # the first letter is Cyrillic
True
>>> imitates("Cоmputer", ["Computer"])                           # an omicron-like Cyrillic o
True
>>> clean_name("Bi\u200bll")
Traceback (most recent call last):
...
piquet.ui.web.names.BadName: a name may not hold invisible or control characters (U+200B ZERO WIDTH SPACE)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

__all__ = ["MAX_NAME", "BadName", "clean_name", "imitates", "name_key"]

#: The longest name, in characters (after NFKC).
MAX_NAME = 40

_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}

# Letters that look like Latin ones (Cyrillic, Greek, Latin variants) and digits read as letters.
_LOOK_ALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ь": "b", "һ": "h",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x", "ω": "w", "ϲ": "c", "ɡ": "g", "ı": "i", "ł": "l", "ø": "o", "ß": "ss",
    "0": "o", "1": "l", "3": "e", "5": "s", "i": "l", "|": "l",
})


class BadName(ValueError):
    """A name that is not one (empty, too long, invisible characters): the message says why."""


def clean_name(name: str) -> str:
    """The name as the table keeps it (NFKC, stripped); raises :class:`BadName` if it is no name."""
    clean = unicodedata.normalize("NFKC", name).strip()
    for char in clean:
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            label = unicodedata.name(char, "unnamed")
            raise BadName(f"a name may not hold invisible or control characters (U+{ord(char):04X} {label})")
    if not clean or len(clean) > MAX_NAME:
        raise BadName(f"a name is 1 to {MAX_NAME} characters, not {len(clean)}")
    return clean


def name_key(name: str) -> str:
    """What a name looks like: the same key for names a reader would take for one another."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold().translate(_LOOK_ALIKES)
    text = "".join(c for c in text if c.isalnum())
    return text.replace("rn", "m").replace("vv", "w")


def imitates(name: str, others: Iterable[str | None]) -> bool:
    """Whether ``name`` looks like any of ``others``."""
    key = name_key(name)
    return any(other is not None and name_key(other) == key for other in others)
