"""Shared pytest configuration: make ``tests/helpers.py`` importable and keep hypothesis quick."""

from __future__ import annotations

import os
import sys

from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile(
    "piquet", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=False
)
# The inner loop's (docs/developing.md): ``--hypothesis-profile=quick`` draws a fifth of each property test's
# examples (tests/helpers.py, ``examples``); CI and the README's test command draw them all.
settings.register_profile("quick", parent=settings.get_profile("piquet"), max_examples=20)
settings.load_profile("piquet")

# A real PostgreSQL server, started by the tests that need one (tests/postgres_helpers.py).
from postgres_helpers import postgres_cluster, postgres_url  # noqa: E402, F401
