"""The History page's cost for a player with many finished parties: the server's answer to ``POST /api/history``.

Usage::

    python benchmarks/history.py                          # 200 finished parties, SQLite (a throwaway file)
    python benchmarks/history.py --parties 200 --others 1000 --rounds 5
    python benchmarks/history.py --postgres postgresql://piquet@/piquet_bench?host=/run/postgresql

The store is filled as the server fills it: ``--parties`` parties, each a random partie played to its end through
the engine and stored action by action with its seat secret, and ``--others`` more of other players (so the
look-up finds a player's tables among many). Then the History request the page makes, the seats' table ids and
secrets, is sent to the application (FastAPI's test client: the request, its validation, the store's look-up in
its thread, the answer's JSON), and its CPU time measured (``time.process_time``: every thread of the process).

Two ways, side by side: **stored**, each partie's History line written when it ended (as the server does), and
**replayed**, the first request for parties that ended before the store kept results (each replayed once from its
actions, and its line written then). Reported: the median CPU time of ``--rounds`` requests each way (a new store
for each replayed round), and their ratio.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


from web_stores import add_store_argument, ask_history, machine, store_finished

from piquet.engine.partie import Partie, Phase
from piquet.ui.web.app import create_app
from piquet.ui.web.store import open_store


def random_partie(rng: random.Random) -> Partie:
    """A Rubicon partie played to its end by random choices."""
    partie = Partie(("Ann", "Computer"))
    while not partie.is_over:
        if partie.phase is Phase.CUT:
            partie.push(partie.random_cut(rng))
        elif partie.phase is Phase.DEAL:
            partie.push(partie.random_deal(rng))
        else:
            partie.push(rng.choice(list(partie.legal_actions())))
    return partie


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--parties", type=int, default=200, help="the player's finished parties (default 200)")
    parser.add_argument("--others", type=int, default=1000, help="other players' tables in the store (default 1000)")
    parser.add_argument("--rounds", type=int, default=5, help="requests measured each way (default 5)")
    add_store_argument(parser)
    parser.add_argument("--seed", type=int, default=36)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    distinct = [random_partie(rng) for _ in range(min(args.parties, 50))]
    parties = [distinct[n % len(distinct)] for n in range(args.parties)]
    deals = statistics.mean(len(p.deal_scores) for p in parties)
    actions = statistics.mean(len(p.actions) for p in parties)
    print(f"{machine()}; {args.parties} parties ({deals:.1f} deals, {actions:.0f} actions each) "
          f"among {args.others} others")
    with tempfile.TemporaryDirectory() as folder:
        stored: list[float] = []
        replayed: list[float] = []
        for round_ in range(args.rounds):
            for results, times in ((True, stored), (False, replayed)):
                where = args.postgres or os.path.join(folder, f"history-{round_}-{results}.sqlite3")
                store = open_store(where)
                try:
                    seats = store_finished(store, parties, len(parties), args.others, rng, "h", results)
                finally:
                    store.close()
                times.append(ask_history(create_app(where, workers=0, review_workers=0), seats)[0])
    a, b = statistics.median(stored), statistics.median(replayed)
    print(f"{'way':<10}{'median CPU ms':>15}{'rounds':>8}")
    print(f"{'stored':<10}{a * 1000:>15.1f}{len(stored):>8}")
    print(f"{'replayed':<10}{b * 1000:>15.1f}{len(replayed):>8}")
    print(f"replayed / stored: {b / a:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
