"""The lowest versions an extra of ``pyproject.toml`` promises to work with, as pins for pip.

``python3 tools/lowest.py web`` prints one requirement a line, each of the ``web`` extra's at its declared lower
bound (``uvicorn>=0.50,<0.55`` gives ``uvicorn==0.50``): CI installs them in a virtual environment of its own and
runs the web tests against them (``.ci/run``), so that a lower bound the project declares is one it works with.
A requirement of the extra with no lower bound is an error: its oldest version is not known to work.

>>> lowest(['fastapi>=0.110', 'uvicorn>=0.50,<0.55', 'markdown[extra] >= 3.5'])
['fastapi==0.110', 'uvicorn==0.50', 'markdown[extra]==3.5']
>>> lowest(['rich'])
Traceback (most recent call last):
...
ValueError: 'rich' declares no lower bound (>=): its oldest version is not tested
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

__all__ = ["lowest"]

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
_REQUIREMENT = re.compile(r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?)\s*(?P<spec>[^;]*)")


def lowest(requirements: list[str]) -> list[str]:
    """Each requirement pinned at its lower bound (``>=``)."""
    out = []
    for requirement in requirements:
        found = _REQUIREMENT.match(requirement)
        assert found is not None, requirement
        floor = re.search(r">=\s*([^,\s]+)", found["spec"])
        if floor is None:
            raise ValueError(f"{requirement!r} declares no lower bound (>=): its oldest version is not tested")
        out.append(f"{found['name']}=={floor[1]}")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python3 tools/lowest.py EXTRA", file=sys.stderr)
        return 2
    extras = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    if argv[0] not in extras:
        print(f"tools/lowest.py: pyproject.toml has no extra {argv[0]!r} (it has {', '.join(extras)})",
              file=sys.stderr)
        return 2
    try:
        print("\n".join(lowest(list(extras[argv[0]]))))
    except ValueError as e:
        print(f"tools/lowest.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
