"""A playthrough of ``python_piquet``, as OpenSpiel keeps playthroughs of its games: a seeded random game
written step by step, checked in under ``tests/playthroughs/`` so that any change to the encoding, the
chance, the strings or the returns shows in review. Regenerate them with::

    python3 -m piquet.research.playthrough --write

Each decision line gives the player, his legal ids and the one chosen, then his observation string; the
chance cards are listed as dealt; the end gives both information states and the returns.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import pyspiel

from piquet.research import openspiel as _registers  # noqa: F401  (registers python_piquet)
from piquet.research.encoding import action_name

__all__ = ["GOLDEN", "playthrough"]

#: The checked-in playthroughs: file name, parameters, seed.
GOLDEN: tuple[tuple[str, dict[str, object], int], ...] = (
    ("python_piquet_rubicon_deal.txt", {"variant": "rubicon", "scope": "deal"}, 7),
    ("python_piquet_auction_deal.txt", {"variant": "auction", "scope": "deal", "first_dealer": 1}, 8),
)


def playthrough(params: dict[str, object], seed: int) -> str:
    """The text of a random game of ``python_piquet`` with ``params``, its choices drawn from ``seed``."""
    rng = random.Random(seed)
    game = pyspiel.load_game("python_piquet", params)
    state = game.new_initial_state()
    lines = [f"game: python_piquet {sorted(params.items())}", f"seed: {seed}",
             f"num_distinct_actions: {game.num_distinct_actions()}",
             f"observation_tensor_size: {game.observation_tensor_size()}",
             f"information_state_tensor_size: {game.information_state_tensor_size()}", ""]
    dealt: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            card = rng.choice(state.chance_outcomes())[0]
            dealt.append(state.action_to_string(state.current_player(), card).removeprefix("chance "))
            state.apply_action(card)
            continue
        if dealt:
            lines.append(f"chance: {' '.join(dealt)}")
            dealt = []
        player = state.current_player()
        legal = state.legal_actions()
        chosen = rng.choice(legal)
        lines.append(f"player {player}: {action_name(chosen)}  (of {', '.join(action_name(a) for a in legal)})")
        lines.append(f"  {state.observation_string(player)}")
        state.apply_action(chosen)
    for player in (0, 1):
        lines.append(f"information state {player}: {state.information_state_string(player)}")
    lines.append(f"returns: {state.returns()}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write or check the playthroughs of python_piquet.")
    parser.add_argument("--write", action="store_true", help="rewrite the checked-in files")
    parser.add_argument("--dir", type=Path, default=Path("tests/playthroughs"))
    args = parser.parse_args(argv)
    changed = 0
    for name, params, seed in GOLDEN:
        text = playthrough(params, seed)
        path = args.dir / name
        if args.write:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            print(f"{path} differs from the playthrough", file=sys.stderr)
            changed += 1
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
