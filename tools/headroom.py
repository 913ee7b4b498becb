"""How much better a searching level could do with knowledge no player has: the ceilings.

An agent plays another on the arena's mirrored deals (``piquet.measure.arena.mirrored_deal``, each deal
twice with the seats swapped) in three ways, and the points per deal of the first less the
second's are reported with a 95% confidence interval:

* ``as is``: the agent as it plays;
* ``sees her hand``: its card play judged on the opponent's true hand instead of sampled ones
  (one world, solved exactly): the ceiling of any player that samples deals and solves them;
* ``knows the deal``: that play, and an exchange that tries each candidate discard on the true
  talon and hands, lets the opponent exchange and both declare as the books advise, and solves
  the play exactly (exact for the simple opponent, who does exchange and declare so).

    python3 tools/headroom.py level5 simple --deals 300 --seed 7 --jobs 2

Only the first agent is given the knowledge. The gap between ``as is`` and ``sees her hand`` is
what better inference or search could still win in the play; the gap to ``knows the deal`` bounds
what any exchange could.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
from concurrent.futures import ProcessPoolExecutor

from piquet.ai.agent import Agent, play_deal
from piquet.ai.books import SimpleAgent
from piquet.ai.budget import Deadline
from piquet.ai.exchange import candidate_discards
from piquet.ai.levels import LEVELS, SearchAgent, make_agent, parse_spec
from piquet.ai.solver import position_from_view, solve
from piquet.engine.actions import Action, Exchange
from piquet.engine.cards import CardSet
from piquet.engine.partie import LegalActions, Partie, Phase
from piquet.engine.view import PlayerView
from piquet.measure.arena import DEALER, mirrored_deal

MODES = ("as is", "sees her hand", "knows the deal")


class Clairvoyant(SearchAgent):
    """A searching level that is shown the true deal: its play, and with ``exchange`` its exchange."""

    def __init__(self, spec: str, seed: int, partie: Partie, exchange: bool) -> None:
        base = make_agent(spec, seed)
        assert isinstance(base, SearchAgent), f"{spec!r} is not a searching level"
        super().__init__(base.level, random.Random(seed), base.settings)
        self.partie = partie
        self.exchange = exchange

    def _worlds(self, view: PlayerView, deadline: Deadline | None = None) -> list[tuple[CardSet, float]]:
        assert view.opponent is not None
        return [(self.partie.hand(view.opponent), 1.0)]

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        if self.exchange and view.phase is Phase.EXCHANGE and view.exchange_range is not None:
            chosen = self._known_exchange(view, legal)
            if chosen is not None:
                return chosen
        return super().choose(view, legal)

    def _known_exchange(self, view: PlayerView, legal: LegalActions) -> Action | None:
        seat = view.seat
        assert seat is not None
        best: tuple[float, Action] | None = None
        for discard in candidate_discards(view, self.settings.exchange_candidates or 20):
            action = Exchange(seat, discard)
            if action not in legal:
                continue
            value = _value_of(self.partie, action, seat)
            if best is None or value > best[0]:
                best = (value, action)
        return None if best is None else best[1]


def _value_of(partie: Partie, action: Action, seat: int) -> float:
    """The deal's worth to ``seat`` after ``action``: the rest of the exchange and the declarations
    as the books make them, then the play solved exactly. The partie is left as it was."""
    books = SimpleAgent(random.Random(0))
    pushed = 0
    try:
        partie.push(action)
        pushed += 1
        while partie.phase is not Phase.PLAY:
            who = partie.to_act
            if who is None or partie.phase is Phase.DEAL:
                break
            partie.push(books.choose(partie.view(who), partie.legal_actions(who)))
            pushed += 1
        if partie.phase is not Phase.PLAY:
            points = partie.view(seat).deal_points
            return points[seat] - points[1 - seat]
        to_act = partie.to_act
        assert to_act is not None
        view = partie.view(to_act)
        position = position_from_view(view, partie.hand(1 - to_act))
        value = solve(position, view.rules, all_best=False).value
        scores = position.scores
        mine = value if to_act == seat else -value
        return scores[seat] - scores[1 - seat] + mine
    finally:
        for _ in range(pushed):
            partie.pop()


def one_deal(job: tuple[str, str, int, int, int]) -> float:
    """The first agent's points less the second's over one mirrored deal, halved (per deal)."""
    first, second, index, seed, mode = job
    total = 0.0
    for first_seat in (0, 1):
        partie = Partie(("A", "B") if first_seat == 0 else ("B", "A"), first_dealer=DEALER)
        agent: Agent = (make_agent(first, 2 * index) if mode == 0
                        else Clairvoyant(first, 2 * index, partie, exchange=mode == 2))
        agents = [agent, make_agent(second, 2 * index + 1)]
        if first_seat == 1:
            agents.reverse()
        play_deal(partie, agents, random.Random(index), mirrored_deal(seed, index))
        totals = partie.deal_scores[-1].totals
        total += totals[first_seat] - totals[1 - first_seat]
    return total / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", help="a searching level or spec, e.g. level5")
    parser.add_argument("second", help="its opponent, e.g. simple")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--modes", default="0,1,2", help="which of 0 (as is), 1, 2 to run")
    args = parser.parse_args()
    if int(parse_spec(args.first)[0][-1:] or 0) not in LEVELS:
        parser.error(f"{args.first!r}: the first agent must be a searching level (level3 to level5)")
    print(f"{args.first} vs {args.second}, Rubicon, {args.deals} mirrored deals (seed {args.seed})")
    with ProcessPoolExecutor(args.jobs) as pool:
        for mode in (int(m) for m in args.modes.split(",")):
            jobs = [(args.first, args.second, i, args.seed, mode) for i in range(args.deals)]
            xs = list(pool.map(one_deal, jobs))
            mean = statistics.mean(xs)
            half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("nan")
            print(f"{MODES[mode]:15s} {mean:+7.2f}  [{mean - half:+.2f}, {mean + half:+.2f}]")


if __name__ == "__main__":
    main()
