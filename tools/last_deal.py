"""What playing the last deal for the settlement is worth: one setting of an agent against another.

Parties of Rubicon Piquet are played by the simple player up to their last deal. Where the
rubicon is then settled (one player sure to win, the other sure to stay under: the cases
:func:`piquet.ai.levels.partie_utility` names), or with ``--reach`` where the loser may yet reach it
(within :data:`~piquet.ai.levels.RUBICON_MARGIN`), the last deal is played out four times from the same
cards: the agent under test with each of the two settings, once in the leader's seat and once in
the trailer's, against the same opponent. The difference in the settlement (Laws 72-73) the
tested seat gains, the first setting less the second, is reported for each seat with its 95%
confidence interval.

    python3 tools/last_deal.py level3 level3:declare=0 --parties 2000 --jobs 2
    python3 tools/last_deal.py level3 level3:reach=0 --reach --parties 1000 --jobs 2

The opponent (``--opponent``, by default the second setting) is the same in every game.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
from concurrent.futures import ProcessPoolExecutor

from piquet.ai.agent import Agent, play_deal
from piquet.ai.books import SimpleAgent
from piquet.ai.levels import Standing, make_agent, rubicon_standing
from piquet.engine.partie import Partie
from piquet.measure.arena import DEALER

ROLES = ("leader", "trailer")


def _settled(totals: tuple[int, int], rubicon: int, reach: bool = False) -> int | None:
    """The seat sure to win with the rubicon settled (as ``partie_utility`` judges it), or with
    ``reach`` the seat sure to win against a loser who may yet reach it; ``None`` otherwise."""
    wanted = Standing.REACH if reach else Standing.SETTLED
    for seat in (0, 1):
        if rubicon_standing(totals[seat], totals[1 - seat], rubicon) is wanted:
            return seat
    return None


def _gain(partie: Partie, seat: int) -> int:
    result = partie.result
    assert result is not None
    if result.winner is None:
        return 0
    return result.points if result.winner == seat else -result.points


def one_partie(job: tuple[str, str, str, int, int, bool]) -> tuple[int, int] | None:
    """For one partie with the rubicon settled at its last deal (or with ``reach`` within the
    loser's reach): the first setting's gain in the settlement over the second's, in the leader's
    seat and in the trailer's; ``None`` otherwise."""
    first, second, opponent, index, seed, reach = job
    rng = random.Random(f"{seed}:{index}")
    partie = Partie(("A", "B"), first_dealer=DEALER)
    books = [SimpleAgent(random.Random(2 * index)), SimpleAgent(random.Random(2 * index + 1))]
    while partie.rules.deals_in_partie - 1 > len(partie.deal_scores):
        play_deal(partie, books, rng)
    leader = _settled(partie.totals, partie.rules.rubicon, reach)
    if leader is None or partie.is_over:
        return None
    deal = partie.random_deal(rng)
    gains = []
    for seat in (leader, 1 - leader):
        results = []
        for spec in (first, second):
            game = partie.copy()
            agents: list[Agent] = [make_agent(opponent, index), make_agent(opponent, index)]
            agents[seat] = make_agent(spec, index)
            play_deal(game, agents, random.Random(index), deal)
            assert game.is_over, "the last deal ends the partie"
            results.append(_gain(game, seat))
        gains.append(results[0] - results[1])
    return gains[0], gains[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", help="the agent with the setting tested, e.g. level3")
    parser.add_argument("second", help="the same agent without it, e.g. level3:declare=0")
    parser.add_argument("--opponent", help="the agent in the other seat (default: the second)")
    parser.add_argument("--parties", type=int, default=1000, help="parties dealt (only some reach a settled rubicon)")
    parser.add_argument("--reach", action="store_true",
                        help="the parties whose loser may yet reach the rubicon, not those with it settled")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args()
    opponent = args.opponent or args.second
    for spec in (args.first, args.second, opponent):
        make_agent(spec)  # a bad name or setting is refused before any work
    jobs = [(args.first, args.second, opponent, i, args.seed, args.reach) for i in range(args.parties)]
    with ProcessPoolExecutor(args.jobs) as pool:
        found = [g for g in pool.map(one_partie, jobs, chunksize=4) if g is not None]
    which = "the loser within reach of the rubicon" if args.reach else "the rubicon settled"
    print(f"{args.first} less {args.second} (opponent {opponent}), Rubicon: {len(found)} of "
          f"{args.parties} parties reach their last deal with {which} (seed {args.seed})")
    for i, role in enumerate(ROLES):
        xs = [g[i] for g in found]
        if len(xs) < 2:
            print(f"{role:8s} too few parties")
            continue
        mean = statistics.mean(xs)
        half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5
        changed = sum(1 for x in xs if x)
        print(f"{role:8s} {mean:+7.2f} settlement points  [{mean - half:+.2f}, {mean + half:+.2f}]  "
              f"({changed} of {len(xs)} last deals changed)")


if __name__ == "__main__":
    main()
