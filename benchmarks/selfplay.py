"""Random legal self-play: how many deals per second the engine plays, checking invariants.

Usage::

    python benchmarks/selfplay.py                 # 10,000 deals, invariants checked
    python benchmarks/selfplay.py --deals 2000 --no-check
    python benchmarks/selfplay.py --variant auction --no-check

Speeds are given by CPU time (``time.process_time``, this process only: fair on a
shared machine) and by wall time.

Every action is chosen among the engine's legal actions by a random agent;
after each deal the 32 cards are accounted for and the play points are
checked (12 for the leads, one per trick the second player won, one for the
last trick); after each partie the record is written, read back and re-played,
and its scores must equal the live ones. Any failure raises.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from piquet.ai.agent import RandomAgent, play_partie
from piquet.engine import record
from piquet.engine.partie import Partie, Phase
from piquet.engine.scoring import ScoreCategory
from piquet.engine.variants import VARIANTS


def check_deal(partie: Partie) -> None:
    """Invariants of the deal just finished (called when a new deal is due or the partie is over)."""
    score = partie.deal_scores[-1]
    if sum(score.tricks) == 12:
        play = score.by_category[0]["play"] + score.by_category[1]["play"]
        if partie.rules.uses_bidding:
            # Auction: each trick scores one, to its winner (plus) or its loser (minus).
            if play != 12:
                raise AssertionError(f"deal {len(partie.deal_scores)}: play points {play}, not 12")
        elif not partie.rules.option("low_cards_score_nothing_in_play") and not 13 <= play <= 25:
            # 12 leads + 1 for the last trick + one for each trick the second player won (0 to 12).
            raise AssertionError(f"deal {len(partie.deal_scores)}: play points {play} out of range")


def run(deals: int, seed: int, check: bool, variant: str = "rubicon") -> tuple[int, float, float]:
    """Play whole parties until ``deals`` deals are played; return the deals, the wall time and the CPU
    time (of this process) they took."""
    rng = random.Random(seed)
    played = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    while played < deals:
        agents = [RandomAgent(random.Random(rng.random())), RandomAgent(random.Random(rng.random()))]
        seen = [0]

        def on_action(partie: Partie, seen: list[int] = seen) -> None:
            if partie.phase in (Phase.EXCHANGE, Phase.DECLARE, Phase.PLAY):
                view0, view1 = partie.view(0), partie.view(1)
                piles = (partie.hand(0), partie.hand(1), view0.discards, view1.discards, view0.played,
                         partie.undrawn())
                mask = 0
                for pile in piles:
                    mask |= pile.mask
                if mask != 0xFFFFFFFF or sum(len(pile) for pile in piles) != 32:
                    raise AssertionError(f"the 32 cards are not conserved after {partie.actions[-1]}")
                if view0.hand.mask & ~partie.hand(0).mask or view1.known_cards().mask & partie.hand(0).mask & ~(
                    view1.revealed[0].mask | view1.shown_dealt[0].mask | view1.rest.mask | view1.peeked.mask
                ):
                    raise AssertionError("a view shows a card its player may not know")
            if len(partie.deal_scores) > seen[0]:
                seen[0] = len(partie.deal_scores)
                check_deal(partie)

        partie = play_partie(agents, rng, ("North", "South"), variant, on_action=on_action if check else None)
        played += len(partie.deal_scores)
        if check:
            again = record.loads(record.dumps(partie))
            if (again.deal_scores != partie.deal_scores or again.result != partie.result
                    or again.games != partie.games):
                raise AssertionError("the scores re-derived from the record differ from the live game")
            for score in partie.deal_scores:
                pique = score.by_category[0]["pique"] + score.by_category[1]["pique"]
                repique = score.by_category[0]["repique"] + score.by_category[1]["repique"]
                for seat in (0, 1):
                    if score.by_category[seat][ScoreCategory.PIQUE.value] and score.by_category[seat]["repique"]:
                        raise AssertionError("pique and repique in one deal")
                assert pique in (0, partie.rules.pique_points) and repique in (0, partie.rules.repique_points)
    return played, time.perf_counter() - start, time.process_time() - start_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-check", action="store_true", help="skip the invariant checks (raw speed)")
    parser.add_argument("--variant", default="rubicon", choices=sorted(VARIANTS))
    args = parser.parse_args()
    played, seconds, cpu = run(args.deals, args.seed, not args.no_check, args.variant)
    checked = "without checks" if args.no_check else "with invariant checks"
    print(f"{played} deals of random legal {args.variant} self-play {checked}: "
          f"{played / cpu:.0f} deals per second by CPU ({cpu:.2f} s), "
          f"{played / seconds:.0f} by wall time ({seconds:.2f} s)")
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")


if __name__ == "__main__":
    main()
