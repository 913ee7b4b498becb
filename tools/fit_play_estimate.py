"""Fit the play estimate of the sampled exchange (``piquet.ai.exchange.PLAY_WEIGHTS``).

Deals are dealt at random, exchanged and declared by the simple player (so the hands are the
kind an exchange produces), and the card play of each is solved exactly with both hands known
(``piquet.ai.solver``, the pique left out: the estimate adds it itself). The weights of
``piquet.ai.exchange.play_features`` are then fitted by least squares on four fifths of the deals
and judged on the last fifth.

    python3 tools/fit_play_estimate.py --deals 3000 --jobs 2

It prints the weights to paste into ``piquet/ai/exchange.py`` and how well they predict the held-out
deals (R squared and the root mean square error, in points), with the same for the weights in use.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

from piquet.ai.books import SimpleAgent
from piquet.ai.exchange import PLAY_WEIGHTS, play_features
from piquet.ai.solver import PlayPosition, solve
from piquet.engine.partie import Partie, Phase

T = TypeVar("T")


def solved_deal(seed: int) -> tuple[int, int, int] | None:
    """Elder's and younger's hands at the first lead, and the play's exact worth to elder."""
    rng = random.Random(seed)
    partie = Partie(("Elder", "Younger"), first_dealer=rng.randrange(2))
    partie.push(partie.random_deal(rng))
    agent = SimpleAgent()
    while partie.phase is not Phase.PLAY:
        seat = partie.to_act
        if seat is None or partie.phase is Phase.DEAL:
            return None
        partie.push(agent.choose(partie.view(seat), partie.legal_actions(seat)))
    elder = partie.elder
    hands = (partie.hand(0).mask, partie.hand(1).mask)
    position = PlayPosition(hands, elder, elder, pique_done=True)
    value = solve(position, partie.rules, all_best=False).value
    return hands[elder], hands[1 - elder], value


def least_squares(rows: Sequence[Sequence[float]], targets: Sequence[float]) -> list[float]:
    """The weights minimising the squared error, by the normal equations (a small ridge keeps
    them well posed)."""
    k = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) + (1e-6 if i == j else 0.0) for j in range(k)] for i in range(k)]
    b = [float(sum(r[i] * t for r, t in zip(rows, targets, strict=True))) for i in range(k)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        for r in range(k):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] for i in range(k)]


def judge(weights: Sequence[float], rows: Sequence[Sequence[float]], targets: Sequence[float]) -> tuple[float, float]:
    """R squared and root mean square error of ``weights`` on these deals."""
    predicted = [sum(w * x for w, x in zip(weights, r, strict=True)) for r in rows]
    mean = sum(targets) / len(targets)
    residual = sum((p - t) ** 2 for p, t in zip(predicted, targets, strict=True))
    total = sum((t - mean) ** 2 for t in targets)
    return 1 - residual / total, (residual / len(targets)) ** 0.5


def solve_many(function: Callable[[int], T | None], description: str, deals: int,
               argv: list[str] | None, chunksize: int = 16) -> list[T]:
    """The command line of a fitting tool (``--deals``, ``--seed``, ``--jobs``) read from ``argv``,
    and ``function`` run on that many seeds over the processes, its ``None`` results dropped."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=deals)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: one per core)")
    args = parser.parse_args(argv)
    seeds = [args.seed * 1_000_003 + i for i in range(args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        return [d for d in pool.map(function, seeds, chunksize=chunksize) if d is not None]


def main(argv: list[str] | None = None) -> int:
    deals = solve_many(solved_deal, __doc__ or "", 3000, argv)
    rows = [play_features(e, y) for e, y, _ in deals]
    targets = [v for _, _, v in deals]
    cut = len(rows) * 4 // 5
    weights = least_squares(rows[:cut], targets[:cut])
    r2, rmse = judge(weights, rows[cut:], targets[cut:])
    r2_now, rmse_now = judge(PLAY_WEIGHTS, rows[cut:], targets[cut:])
    print(f"{len(deals)} deals solved; held-out fifth: R2 {r2:.3f}, RMSE {rmse:.2f} points "
          f"(the weights in use: R2 {r2_now:.3f}, RMSE {rmse_now:.2f})")
    print("PLAY_WEIGHTS = (" + ", ".join(f"{w:.2f}" for w in weights) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
