"""The golden playthroughs of ``python_piquet`` (``tests/playthroughs/``) are what the game plays now:
regenerate them with ``python3 -m piquet.research.playthrough --write`` after a deliberate change."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

from piquet.research.playthrough import GOLDEN, playthrough

pytestmark = pytest.mark.research

FOLDER = Path(__file__).resolve().parent / "playthroughs"


@pytest.mark.parametrize(("name", "params", "seed"), GOLDEN, ids=[g[0] for g in GOLDEN])
def test_the_game_plays_its_golden_playthrough(name: str, params: dict[str, object], seed: int) -> None:
    assert playthrough(params, seed) == (FOLDER / name).read_text(encoding="utf-8")


def test_a_playthrough_differs_with_its_seed() -> None:
    name, params, seed = GOLDEN[0]
    assert playthrough(params, seed + 1) != (FOLDER / name).read_text(encoding="utf-8")
