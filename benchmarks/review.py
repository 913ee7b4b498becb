"""How long the review of a partie's card play takes (``piquet analyse``): open hands and the fair lens.

Usage::

    python3 benchmarks/review.py                      # 3 six-deal parties, the fair lens at its default worlds
    python3 benchmarks/review.py --parties 1 --worlds 8 --players level5 level4

Each partie is played whole by two computer players (by default level 3 against the simple player), then
reviewed as ``piquet analyse`` reviews it: once with open hands, once with the fair lens (each card played
valued over ``--worlds`` hands the opponent may hold, the choice and the best broken down; each
declaration over 64). The time is the
process's CPU time, the figure the issue sets its bounds in (5 s with open hands, 60 s fair).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from piquet.ai.agent import play_partie
from piquet.ai.levels import make_agent
from piquet.ai.review import DEFAULT_WORLDS, Lens, review_partie
from piquet.engine.actions import Play
from piquet.engine.partie import Partie


def partie(seed: int, players: tuple[str, str]) -> Partie:
    return play_partie([make_agent(players[0], seed), make_agent(players[1], seed + 1)], random.Random(seed))


def timed(p: Partie, lens: Lens, worlds: int) -> tuple[float, float]:
    """CPU seconds for the review (the play and the declarations), and the points the players lost in the
    play together."""
    start = time.process_time()
    review = review_partie(p, lens, worlds)
    seconds = time.process_time() - start
    loss = sum(review.summary(seat).loss for seat in (0, 1))
    return seconds, loss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--parties", type=int, default=3)
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", nargs=2, default=["level3", "simple"])
    args = parser.parse_args()
    players = (args.players[0], args.players[1])
    rows: dict[Lens, list[float]] = {Lens.OPEN: [], Lens.FAIR: []}
    for i in range(args.parties):
        p = partie(args.seed + i, players)
        cards = sum(isinstance(a, Play) for a in p.actions)
        line = [f"partie {i + 1}: {len(p.deal_scores)} deals, {cards} cards played"]
        for lens, worlds in ((Lens.OPEN, 1), (Lens.FAIR, args.worlds)):
            seconds, loss = timed(p, lens, worlds)
            rows[lens].append(seconds)
            line.append(f"{lens.value} {seconds:.1f} s (points lost in the play {loss:.1f})")
        print("; ".join(line), flush=True)
    for lens, times in rows.items():
        worlds = f", {args.worlds} worlds" if lens is Lens.FAIR else ""
        print(f"{lens.value}{worlds}: median {statistics.median(times):.1f} s, max {max(times):.1f} s of CPU "
              f"for a partie")
    print(f"({platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
          f"players {players[0]} and {players[1]}, seeds from {args.seed})")


if __name__ == "__main__":
    main()
