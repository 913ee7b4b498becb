"""How long the review of a partie takes (``piquet analyse``): open hands and the fair lens.

Usage::

    python3 benchmarks/review.py                      # 3 six-deal parties, the fair lens at its default worlds
    python3 benchmarks/review.py --parties 1 --worlds 8 --players level5 level4

Each partie is played whole by two computer players (by default level 3 against the simple player), then
reviewed as ``piquet analyse`` reviews it: once with open hands, once with the fair lens (each card played
valued over ``--worlds`` hands the opponent may hold, the choice and the best broken down; each
declaration over 64; each exchange's discards over ``--exchange-worlds`` talons and hands). The time is the
process's CPU time, the figure the issue sets its bounds in (5 s with open hands, 60 s fair): of the whole
review, and apart, of its exchanges alone (:func:`piquet.coach.review.review_exchange` on each); the whole review
with the luck of each deal (:mod:`piquet.coach.luck`, the default) and without it (``luck=False``), and the luck
alone (:func:`piquet.coach.luck.partie_luck`).

``--web``: each deal instead as the web server's review worker reviews it (:func:`piquet.ui.web.reviews.review_data`:
the fair lens, and open hands for the values of the cards shown beside it), the CPU seconds of each deal::

    python3 benchmarks/review.py --web --parties 2
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from piquet.ai.agent import play_partie
from piquet.ai.levels import make_agent
from piquet.ai.solver import SOLVER
from piquet.coach.luck import partie_luck
from piquet.coach.review import DEFAULT_WORLDS, EXCHANGE_WORLDS, Lens, review_exchange, review_partie
from piquet.engine.actions import Exchange, Play
from piquet.engine.partie import Partie


def partie(seed: int, players: tuple[str, str]) -> Partie:
    return play_partie([make_agent(players[0], seed), make_agent(players[1], seed + 1)], random.Random(seed))


def exchanges_alone(p: Partie, lens: Lens, worlds: int) -> float:
    """CPU seconds for reviewing the partie's exchanges alone, as the whole review reviews them."""
    replay = p.copy()
    while replay.ply:
        replay.pop()
    seconds = 0.0
    for i, action in enumerate(p.actions):
        if isinstance(action, Exchange):
            start = time.process_time()
            review_exchange(replay, action, lens, worlds, random.Random(i))
            seconds += time.process_time() - start
        replay.push(action)
    return seconds


def luck_alone(p: Partie) -> float:
    """CPU seconds for reckoning the luck of the partie's deals alone."""
    start = time.process_time()
    partie_luck(p)
    return time.process_time() - start


def timed(p: Partie, lens: Lens, worlds: int, exchange_worlds: int) -> tuple[float, float, float, float, float]:
    """CPU seconds for the whole review (the exchanges, the declarations, the play and the luck), for the same
    without the luck, and for its exchanges alone, and the points the players lost together in the play and in
    the exchanges."""
    start = time.process_time()
    review = review_partie(p, lens, worlds, exchange_worlds=exchange_worlds)
    seconds = time.process_time() - start
    start = time.process_time()
    review_partie(p, lens, worlds, exchange_worlds=exchange_worlds, luck=False)
    without = time.process_time() - start
    loss = sum(review.summary(seat).loss for seat in (0, 1))
    in_exchanges = sum(review.summary(seat, "exchange").loss for seat in (0, 1))
    return seconds, without, exchanges_alone(p, lens, exchange_worlds), loss, in_exchanges


def web(parties: int, seed: int, players: tuple[str, str]) -> None:
    """The CPU seconds of each deal's review as the web server's worker makes it (:mod:`piquet.ui.web.reviews`)."""
    from piquet.ui.web.reviews import review_data

    seconds: list[float] = []
    for i in range(parties):
        p = partie(seed + i, players)
        for deal in range(1, len(p.deal_scores) + 1):
            start = time.process_time()
            review_data(p, deal, Lens.FAIR)
            seconds.append(time.process_time() - start)
            print(f"partie {i + 1}, deal {deal}: {seconds[-1]:.1f} s", flush=True)
    print(f"a deal's review in the web server's worker: median {statistics.median(seconds):.1f} s, max "
          f"{max(seconds):.1f} s of CPU over {len(seconds)} deals ({platform.machine()}, "
          f"{platform.python_implementation()} {platform.python_version()}, solver: {SOLVER}, players {players[0]} "
          f"and {players[1]}, seeds from {seed})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--parties", type=int, default=3)
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    parser.add_argument("--exchange-worlds", type=int, default=EXCHANGE_WORLDS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", nargs=2, default=["level3", "simple"])
    parser.add_argument("--web", action="store_true", help="each deal as the web server's review worker reviews it")
    args = parser.parse_args()
    players = (args.players[0], args.players[1])
    if args.web:
        web(args.parties, args.seed, players)
        return
    rows: dict[Lens, list[tuple[float, float, float]]] = {Lens.OPEN: [], Lens.FAIR: []}
    lucks: list[float] = []
    for i in range(args.parties):
        p = partie(args.seed + i, players)
        cards = sum(isinstance(a, Play) for a in p.actions)
        exchanges = sum(isinstance(a, Exchange) for a in p.actions)
        line = [f"partie {i + 1}: {len(p.deal_scores)} deals, {exchanges} exchanges, {cards} cards played"]
        for lens, worlds in ((Lens.OPEN, 1), (Lens.FAIR, args.worlds)):
            seconds, without, alone, loss, exchange_loss = timed(p, lens, worlds, args.exchange_worlds)
            rows[lens].append((seconds, without, alone))
            line.append(f"{lens.value} {seconds:.1f} s ({without:.1f} s without the luck), the exchanges alone "
                        f"{alone:.1f} s (points lost in the play {loss:.1f}, in the exchanges {exchange_loss:.1f})")
        lucks.append(luck_alone(p))
        line.append(f"the luck alone {lucks[-1]:.2f} s")
        print("; ".join(line), flush=True)
    for lens, times in rows.items():
        worlds = f", {args.worlds} worlds, {args.exchange_worlds} for an exchange" if lens is Lens.FAIR else ""
        whole, bare, apart = [t for t, _, _ in times], [w for _, w, _ in times], [a for _, _, a in times]
        print(f"{lens.value}{worlds}: median {statistics.median(whole):.1f} s, max {max(whole):.1f} s of CPU "
              f"for a partie (without the luck median {statistics.median(bare):.1f} s, max {max(bare):.1f} s); "
              f"the exchanges alone median {statistics.median(apart):.1f} s, max {max(apart):.1f} s")
    print(f"the luck alone: median {statistics.median(lucks):.2f} s, max {max(lucks):.2f} s of CPU for a partie")
    print(f"({platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
          f"solver: {SOLVER}, players {players[0]} and {players[1]}, seeds from {args.seed})")


if __name__ == "__main__":
    main()
