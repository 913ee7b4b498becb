"""Shared pytest configuration: make ``tests/helpers.py`` importable, keep hypothesis quick, and import no test
module whose every test the ``-m`` expression leaves out."""

from __future__ import annotations

import itertools
import os
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile(
    "piquet", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=False
)
# The inner loop's (docs/developing.md): ``--hypothesis-profile=quick`` draws a fifth of each property test's
# examples (tests/helpers.py, ``examples``); CI and the README's test command draw them all.
settings.register_profile("quick", parent=settings.get_profile("piquet"), max_examples=20)
settings.load_profile("piquet")

from marker_helpers import module_marks  # noqa: E402

# A real PostgreSQL server, started by the tests that need one (tests/postgres_helpers.py).
from postgres_helpers import postgres_cluster, postgres_url, sql_store  # noqa: E402, F401

from piquet.ui.web import collector  # noqa: E402 - the standard library's gc only


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave a test module unimported when ``-m`` deselects each of its tests whatever other markers they carry
    (``-m "not browser"`` and a module marked ``browser``): the inner loop of docs/developing.md then pays nothing
    for the browser and research modules it leaves out (Playwright, Ray, OpenSpiel, the rewriting of their asserts).
    Any doubt (no ``-m``, a marker with arguments, a module without ``pytestmark``) collects as pytest would."""
    expression: str = config.option.markexpr
    if not expression or not (collection_path.name.startswith("test_") and collection_path.suffix == ".py"):
        return None
    marks = module_marks(collection_path)
    names = set(re.findall(r"[^\s()]+", expression)) - {"and", "or", "not"}
    if not marks or any("=" in name for name in names) or len(names) > 8:
        return None
    try:
        from _pytest.mark.expression import Expression  # how pytest itself reads -m
        compiled = Expression.compile(expression)
    except Exception:  # an expression (or a pytest) this hook cannot read: pytest's own -m decides
        return None
    others = sorted(names - marks)
    for extra in itertools.chain.from_iterable(itertools.combinations(others, k) for k in range(len(others) + 1)):
        present = marks | set(extra)

        def carries(name: str, /, **kwargs: str | int | bool | None) -> bool:
            return name in present  # noqa: B023 - evaluated at once, in this iteration

        if compiled.evaluate(carries):
            return None  # a test of the module carrying these markers would be selected
    return True


def pytest_collection_finish(session: pytest.Session) -> None:
    """Set the collector as ``piquet serve`` sets its own (:func:`piquet.ui.web.collector.settle`, where the reasons
    and the server's figures are): what collecting imported (FastAPI, pydantic, Hypothesis, the modules and their
    tables) lives as long as the run, yet each full collection walked all of it again; it is set aside, and the
    youngest generation is collected less often, most of what a test makes being gone by then. What a test makes is
    collected as before. Together about a tenth of the everyday loop's CPU (docs/developing.md)."""
    collector.settle()
