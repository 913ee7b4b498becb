"""Shared pytest configuration: make ``tests/helpers.py`` importable and keep hypothesis quick."""

from __future__ import annotations

import os
import sys

from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile(
    "piquet", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=False
)
settings.load_profile("piquet")


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    """Long runs marked ``slow`` run only when asked for with ``-m slow``."""
    import pytest

    if "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
