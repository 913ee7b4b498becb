"""The tables of rule options in the docs, written from their one home: ``OPTIONS`` and each variant's
``OPTION_NAMES`` and ``DEFAULTS`` in ``piquet/engine/variants.py``.

Usage::

    python3 tools/options_table.py --write   # rewrite the tables in piquet/data/rules.md and docs/record-format.md
    python3 tools/options_table.py --check   # exit 1, naming the file, if a table differs from the options

``piquet/data/rules.md`` lists every option with its type, its default in each variant (``—``: not offered;
``(always)``: not offered, and always played), its meaning and its source; ``docs/record-format.md`` the types and
defaults. Each table stands between two comment lines (:data:`BEGIN`, :data:`END`); the text around it is the
docs' own. An option's meaning and source are edited in ``variants.py``, never in the docs: a test holds the docs
to this tool's output.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from piquet.engine.variants import OPTIONS, VARIANTS, RuleOption, make_rules

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = ROOT / "piquet" / "data" / "rules.md"
RECORD_FORMAT_MD = ROOT / "docs" / "record-format.md"
BEGIN = ("<!-- The table below is written from OPTIONS in piquet/engine/variants.py by "
         "`python3 tools/options_table.py --write`: edit the options there. -->")
END = "<!-- End of the table of options. -->"
#: Each variant's column heading in rules.md.
TITLES = {"rubicon": "Rubicon", "auction": "Auction", "au-cent": "au Cent"}


def _type(option: RuleOption) -> str:
    return "boolean" if isinstance(option.default, bool) else f"integer, {option.minimum}-{option.maximum}"


def _value(value: bool | int) -> str:
    return f"`{str(value).lower()}`" if isinstance(value, bool) else f"`{value}`"


def _default(variant: str, option: RuleOption, always: bool) -> str:
    """The option's default in ``variant``: ``—`` where it is not offered, or with ``always`` ``(always)`` where
    it is not offered but always played (a boolean the variant holds true)."""
    rules = make_rules(variant)
    if option.name in rules.values:
        return _value(rules.values[option.name])
    return "(always)" if always and rules.option(option.name) is True else "—"


def rules_table() -> str:
    """The table of ``piquet/data/rules.md``: every option, its type, its default in each variant, its meaning
    and its source."""
    lines = ["| Option | Type | " + " | ".join(TITLES[v] for v in VARIANTS) + " | Meaning | Source |",
             "|---|---|" + "---|" * len(VARIANTS) + "---|---|"]
    for option in OPTIONS.values():
        defaults = " | ".join(_default(v, option, always=True) for v in VARIANTS)
        lines.append(f"| `{option.name}` | {_type(option)} | {defaults} | {option.description} | {option.source} |")
    return "\n".join(lines)


def record_table() -> str:
    """The table of ``docs/record-format.md``: every option, its type and its default in each variant."""
    lines = ["| Option | Type | " + " | ".join(f"`{v}`" for v in VARIANTS) + " |",
             "|---|---|" + "---|" * len(VARIANTS)]
    for option in OPTIONS.values():
        defaults = " | ".join(_default(v, option, always=False) for v in VARIANTS)
        lines.append(f"| `{option.name}` | {_type(option)} | {defaults} |")
    return "\n".join(lines)


def with_table(text: str, table: str, where: str) -> str:
    """``text`` with the block between :data:`BEGIN` and :data:`END` replaced by ``table``."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"{where} has no table of options between the comment lines {BEGIN!r} and {END!r}")
    return f"{text[:start]}{BEGIN}\n\n{table}\n\n{text[end:]}"


def expected() -> dict[Path, str]:
    """Each doc's text as it should read, its table written from the options."""
    return {path: with_table(path.read_text(encoding="utf-8"), table, str(path.relative_to(ROOT)))
            for path, table in ((RULES_MD, rules_table()), (RECORD_FORMAT_MD, record_table()))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="rewrite the tables")
    action.add_argument("--check", action="store_true", help="exit 1 if a table differs from the options")
    args = parser.parse_args()
    stale = []
    for path, text in expected().items():
        if path.read_text(encoding="utf-8") != text:
            stale.append(path)
            if args.write:
                path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{path.relative_to(ROOT)}: {'rewritten' if args.write else 'differs from the options'}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
