"""The Progress plots' cost for a player with many finished parties: reviewing one partie by phase, once, and the
History request that draws them once every review is kept.

Usage::

    python benchmarks/progress.py                          # 200 finished parties, SQLite (a throwaway file)
    python benchmarks/progress.py --parties 200 --distinct 6 --rounds 5
    python benchmarks/progress.py --postgres postgresql://piquet@/piquet_bench?host=/run/postgresql

``--distinct`` parties are played to their end by the computer's level 2 against itself and each reviewed as the
server reviews a finished partie for Progress (:func:`piquet.ui.web.phases.review_phases`, a deal at a time, the
player's seat, the fair lens), its CPU time measured (``time.process_time``, one process): the **cost of a
review**, a partie's and a deal's. The store is then filled with ``--parties`` finished parties of the player (the
distinct ones over again), each with its History line and its review kept as the server keeps them, among
``--others`` tables of other players, and the History request the page makes (``POST /api/history``, the
application in FastAPI's test client: its validation, the store's look-ups in their thread, the plots, the JSON) is
timed, CPU (every thread of the process) and wall, median of ``--rounds``, side by side with the same request for
the same parties with no review kept, the first (which queues them, and does not wait for them; none is made in
the measure: the reviews are kept off for it).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


from web_stores import add_store_argument, ask_history, machine, store_finished

from piquet.ai.agent import play_partie
from piquet.ai.levels import make_agent
from piquet.coach.phases import PhaseLosses
from piquet.engine import record
from piquet.engine.actions import Deal
from piquet.engine.partie import Partie
from piquet.ui.web import phases
from piquet.ui.web.app import create_app
from piquet.ui.web.store import open_store


def reviewed(partie: Partie) -> tuple[PhaseLosses, float, int]:
    """The partie reviewed by phase as the server does (Ann's seat, a deal at a time): the losses, the CPU seconds,
    the deals."""
    text = record.dumps(partie)
    deals = sum(1 for a in partie.actions if isinstance(a, Deal))
    began = time.process_time()
    total = PhaseLosses()
    for deal in range(1, deals + 1):
        total += PhaseLosses.from_json(phases.review_phases(text, 0, deal))
    return total, time.process_time() - began, deals


def request(where: str, seats: list[tuple[str, str]]) -> tuple[float, float, dict[str, int]]:
    """CPU and wall seconds of one History request for ``seats`` to a server on the store ``where``, and what it
    said of the reviews. The reviews it queues are not made (the server's are kept off)."""
    app = create_app(where, workers=0, review_workers=0)
    app.state.phases.closed = True  # queues nothing, reviews nothing: the request alone is measured
    cpu, wall, answer = ask_history(app, seats)
    said = answer["phases"]
    return cpu, wall, {"reviewed": said["reviewed"], "plotted": sum(len(v["parties"]) for v in said["variants"])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--parties", type=int, default=200, help="the player's finished parties (default 200)")
    parser.add_argument("--distinct", type=int, default=6, help="parties played and reviewed (default 6)")
    parser.add_argument("--others", type=int, default=1000, help="other players' tables in the store (default 1000)")
    parser.add_argument("--rounds", type=int, default=5, help="requests measured each way (default 5)")
    add_store_argument(parser)
    parser.add_argument("--seed", type=int, default=36)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(machine())
    played = [play_partie([make_agent("level2", args.seed + n), make_agent("level2", 1000 + n)],
                          random.Random(args.seed + n), ("Ann", "Computer")) for n in range(args.distinct)]
    parties, costs, deals = [], [], []
    for partie in played:
        losses, cpu, n = reviewed(partie)
        parties.append((partie, losses))
        costs.append(cpu)
        deals.append(n)
    print(f"review of a partie by phase, {len(played)} parties of {statistics.mean(deals):.1f} deals: "
          f"{statistics.mean(costs):.2f} s of CPU a partie (from {min(costs):.2f} to {max(costs):.2f}), "
          f"{sum(costs) / sum(deals):.2f} s a deal")
    kept: list[tuple[float, float]] = []
    fresh: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(args.rounds):
            for keep, times in ((True, kept), (False, fresh)):
                where = args.postgres or os.path.join(folder, f"progress-{round_}-{keep}.sqlite3")
                store = open_store(where)
                try:
                    seats = store_finished(store, [p for p, _ in parties], args.parties, args.others, rng, "p")
                    for n, (table_id, _) in enumerate(seats if keep else []):  # kept as the server keeps them
                        losses = parties[n % len(parties)][1]
                        store.keep_review(table_id, 0, phases.METHOD, time.time(), losses.to_json())
                finally:
                    store.close()
                cpu, wall, said = request(where, seats)
                assert said["reviewed"] == (args.parties if keep else 0) and said["plotted"] == said["reviewed"]
                times.append((cpu, wall))
    print(f"History and Progress, {args.parties} parties among {args.others} others, median of {args.rounds}:")
    print(f"{'reviews':<12}{'CPU ms':>10}{'wall ms':>10}")
    for name, times in (("kept", kept), ("none kept", fresh)):
        print(f"{name:<12}{statistics.median(c for c, _ in times) * 1000:>10.1f}"
              f"{statistics.median(w for _, w in times) * 1000:>10.1f}")
    ratio = statistics.median(c for c, _ in kept) / statistics.median(c for c, _ in fresh)
    print(f"kept / none kept, CPU: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
