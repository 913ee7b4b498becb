"""Make ``piquet/data/names-unicode.txt``, the Unicode data the server's check of players' names reads
(``piquet.ui.web.names``): the confusables of UTS #39 (each character's prototype, for the skeleton) and the
default-ignorable code points (characters that show nothing), from Unicode's own files.

Usage::

    python3 tools/unicode_tables.py CONFUSABLES.txt DERIVEDCOREPROPERTIES.txt

``CONFUSABLES.txt`` is Unicode's ``confusables.txt`` (https://www.unicode.org/Public/security/, "Unicode Security
Mechanisms for UTS #39"); ``DERIVEDCOREPROPERTIES.txt`` is the Unicode Character Database's
``DerivedCoreProperties.txt`` (Debian's ``unicode-data`` package has it, in ``/usr/share/unicode/``). Each file's
version line, date line and SHA-256 are written at the head of the table, so its provenance can be checked against
unicode.org's copy; ``tests/test_names.py`` checks that the table is whole and what it says. The table keeps every
mapping of ``confusables.txt`` (as code points in hexadecimal, one line each) and the ranges of
``Default_Ignorable_Code_Point``: some 90 KB, read once when a name is first checked.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "piquet" / "data" / "names-unicode.txt"


def _head(text: str, name: str, path: Path, data: bytes) -> list[str]:
    """The file's provenance: its name, version and date lines as Unicode wrote them, and its SHA-256."""
    lines = [line for line in text.splitlines()[:12] if re.match(r"#\s*(Version|Date|[A-Za-z]+-\d+\.\d+\.\d+\.txt)",
                                                                    line)]
    return [f"# {name}: {path.name}", *[f"#   {line.lstrip('# ').strip()}" for line in lines],
            f"#   SHA-256 {hashlib.sha256(data).hexdigest()}"]


def confusables(path: Path) -> tuple[list[str], list[str]]:
    data = path.read_bytes()
    text = data.decode("utf-8-sig")
    if "Unicode Security Mechanisms for UTS #39" not in text[:1000]:
        raise SystemExit(f"{path}: not Unicode's confusables.txt (no 'Unicode Security Mechanisms for UTS #39')")
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        fields = [f.strip() for f in body.split(";")]
        if len(fields) < 3 or not re.fullmatch(r"[0-9A-F]{4,6}", fields[0]) or not re.fullmatch(
                r"[0-9A-F]{4,6}( [0-9A-F]{4,6})*", fields[1]):
            raise SystemExit(f"{path}, line {number}: not a mapping: {line!r}")
        rows.append(f"{fields[0]} {fields[1]}")
    return _head(text, "confusables (UTS #39)", path, data), rows


def ignorables(path: Path) -> tuple[list[str], list[str]]:
    data = path.read_bytes()
    text = data.decode("utf-8")
    rows = []
    for line in text.splitlines():
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        where, _, prop = (f.strip() for f in body.partition(";"))
        if prop == "Default_Ignorable_Code_Point":
            rows.append(where)
    if not rows:
        raise SystemExit(f"{path}: no Default_Ignorable_Code_Point (not DerivedCoreProperties.txt?)")
    return _head(text, "Default_Ignorable_Code_Point", path, data), rows


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    confusable_head, mappings = confusables(Path(argv[0]))
    ignorable_head, ranges = ignorables(Path(argv[1]))
    lines = ["# The Unicode data of the check of players' names (piquet.ui.web.names), made by tools/unicode_tables.py",
             "# from Unicode's files (do not edit; make it again from newer files):",
             *confusable_head, *ignorable_head,
             "# Unicode data (C) Unicode, Inc., distributed under the Unicode License: https://www.unicode.org/license.txt",
             "[ignorable]", *ranges, "[confusables]", *mappings]
    OUT.write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"{OUT}: {len(ranges)} ranges of default-ignorable code points, {len(mappings)} confusables")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
