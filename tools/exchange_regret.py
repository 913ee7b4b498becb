"""How good is an exchange? Its regret against the exact worth of every candidate discard.

The arena judges an exchange only through whole deals, where the luck of the talon swamps it. This
tool judges the choice itself. Deals are dealt at random and brought to an exchange (elder's, or
younger's after the books' elder has exchanged); for each, the candidate discards
(:func:`piquet.ai.exchange.candidate_discards`) are all tried on the same ``--truth`` deals drawn from
what the exchanging player may know (:mod:`piquet.ai.inference`, or
:func:`piquet.ai.exchange.worlds_after_elder` for younger), the opponent exchanging as the books
advise, the declarations scored in full and the card play solved exactly
(:mod:`piquet.ai.solver`). A candidate's average over those deals is its worth.

Each method's regret at a position is the best candidate's worth less the worth of the one the
method chose; the tool reports each method's mean regret over the positions, with a 95%
confidence interval of the difference from the books. The methods are the books' discard
(:func:`piquet.ai.books.discard_choice`) and the sampled exchange
(:func:`piquet.ai.exchange.choose_exchange`) with ``--worlds`` deals, judged on deals of its own.

    python3 tools/exchange_regret.py --positions 120 --truth 24 --jobs 2

The best of noisy averages is flattered, so the regrets themselves are a little too high; their
differences are not (the methods never see the truth deals). The held-out regret is not
flattered: the truth deals are split in two halves, the candidate best on one half is judged on the
other, and the method's choice likewise; it is what choosing by half the truth deals would gain
over the method, and so a floor of what a perfect exchange among the candidates would gain.
``--method-candidates`` lets the sampled exchange try fewer discards than the truth judges, to see
whether the discards it never tries hold better ones.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from piquet.ai.books import SimpleAgent
from piquet.ai.exchange import (
    candidate_discards,
    choose_exchange,
    declarations,
    drawn,
    worlds_after_elder,
    younger_takes,
)
from piquet.ai.inference import Inference
from piquet.ai.solver import PlayPosition, solve
from piquet.engine.partie import Partie, Phase
from piquet.engine.variants import Rules
from piquet.engine.view import PlayerView

METHODS = ("books", "sampled")


@dataclass(frozen=True)
class Position:
    """One exchange judged: whose it is, the candidates' worths, and each method's choice."""

    younger: bool
    worths: tuple[float, ...]
    chosen: tuple[int, ...]  # index of each method's choice among the candidates
    #: The candidates' worths on each half of the truth deals (even and odd draws).
    halves: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())

    def regret(self, method: int) -> float:
        return max(self.worths) - self.worths[self.chosen[method]]

    def held_out_regret(self, method: int) -> float:
        """The worth of the candidate best on one half of the truth deals, judged on the other,
        less the worth of the method's choice there; both ways round, averaged."""
        chosen = self.chosen[method]
        total = 0.0
        for pick, judge_by in ((0, 1), (1, 0)):
            seen, unseen = self.halves[pick], self.halves[judge_by]
            best = max(range(len(seen)), key=lambda i: seen[i])
            total += unseen[best] - unseen[chosen]
        return total / 2


def deal_worth(elder: int, younger: int, rules: Rules) -> int:
    """Elder's points less younger's for a deal whose hands are settled: the declarations in full,
    then the card play solved exactly (a pique still possible while nobody has scored it)."""
    a, b = declarations(elder, younger, rules)
    threshold = rules.repique_threshold(None)
    repique = (b == 0 and a >= threshold) or (a == 0 and b >= threshold)
    position = PlayPosition((elder, younger), 0, 0, scores=(a, b), pique_done=repique)
    return a - b + solve(position, rules, all_best=False).value


def exchange_view(seed: int, index: int) -> PlayerView | None:
    """A random deal brought to an exchange: elder's for even ``index``, younger's (after the
    books' elder) for odd; ``None`` when the deal has none to judge (a carte blanche)."""
    rng = random.Random(f"exchange-regret:{seed}:{index}")
    partie = Partie(("Elder", "Younger"), first_dealer=rng.randrange(2))
    partie.push(partie.random_deal(rng))
    books = SimpleAgent(random.Random(0))
    younger = index % 2 == 1
    while True:
        seat = partie.to_act
        if seat is None or partie.phase is Phase.PLAY:
            return None
        view = partie.view(seat)
        if (partie.phase is Phase.EXCHANGE and view.exchange_range is not None and view.will_exchange is None
                and (seat != partie.elder) == younger):
            return None if any(view.carte_blanche) else view
        partie.push(books.choose(view, partie.legal_actions(seat)))


def judge(job: tuple[int, int, int, int, int, int]) -> Position | None:
    """The worths of one position's candidates and the methods' choices (the sampled exchange
    trying the first ``method_candidates`` of them)."""
    seed, index, truth, worlds, candidates, method_candidates = job
    view = exchange_view(seed, index)
    if view is None:
        return None
    rules = view.rules
    options = candidate_discards(view, candidates)
    if len(options) < 2:
        return None
    rng = random.Random(f"exchange-regret:truth:{seed}:{index}")
    younger = view.seat != view.elder
    deals = worlds_after_elder(view, rng, truth) if younger else Inference(view).sample(rng, truth)
    if not deals:
        return None
    hand = view.hand.mask
    worths: list[float] = []
    halves: tuple[list[float], list[float]] = ([], [])
    for discard in options:
        n = len(discard)
        totals, weights = [0.0, 0.0], [0.0, 0.0]
        for i, world in enumerate(deals):
            mine = drawn(hand, discard, world.talon)
            opponent = world.opponent_hand.mask
            if younger:
                value = -deal_worth(opponent, mine, rules)
            else:
                value = deal_worth(mine, younger_takes(opponent, world.talon[n:]), rules)
            totals[i % 2] += world.weight * value
            weights[i % 2] += world.weight
        worths.append(sum(totals) / sum(weights))
        for half in (0, 1):
            halves[half].append(totals[half] / weights[half] if weights[half] else worths[-1])
    sampled = choose_exchange(view, rules, random.Random(f"exchange-regret:method:{seed}:{index}"),
                              worlds, method_candidates)
    chosen = (0, options.index(sampled.discards) if sampled is not None else 0)
    return Position(younger, tuple(worths), chosen, (tuple(halves[0]), tuple(halves[1])))


def report(positions: list[Position], label: str) -> None:
    if not positions:
        return
    print(f"{label}: {len(positions)} positions")
    for m, name in enumerate(METHODS):
        regrets = [p.regret(m) for p in positions]
        held_out = [p.held_out_regret(m) for p in positions]
        half = 1.96 * statistics.stdev(held_out) / len(held_out) ** 0.5 if len(held_out) > 1 else float("nan")
        line = (f"  {name:8s} regret {statistics.mean(regrets):6.2f}, held out {statistics.mean(held_out):+.2f}"
                f" [{statistics.mean(held_out) - half:+.2f}, {statistics.mean(held_out) + half:+.2f}]")
        if m:
            gains = [p.regret(0) - p.regret(m) for p in positions]
            mean = statistics.mean(gains)
            half = 1.96 * statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else float("nan")
            same = sum(p.chosen[m] == p.chosen[0] for p in positions)
            line += (f"   better than the books by {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}],"
                     f" same choice {same}")
        print(line)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=120, help="exchanges judged (half elder's)")
    parser.add_argument("--truth", type=int, default=24, help="deals each candidate is solved on")
    parser.add_argument("--worlds", type=int, default=1000, help="deals the sampled exchange judges on")
    parser.add_argument("--candidates", type=int, default=20, help="discards the truth judges")
    parser.add_argument("--method-candidates", type=int, default=None,
                        help="discards the sampled exchange tries (default: --candidates)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args(argv)
    method_candidates = args.method_candidates or args.candidates
    if method_candidates > args.candidates:
        parser.error("--method-candidates cannot exceed --candidates: the truth must judge its choice")
    jobs = [(args.seed, i, args.truth, args.worlds, args.candidates, method_candidates)
            for i in range(args.positions)]
    with ProcessPoolExecutor(args.jobs) as pool:
        positions = [p for p in pool.map(judge, jobs) if p is not None]
    report([p for p in positions if not p.younger], "elder")
    report([p for p in positions if p.younger], "younger")
    report(positions, "all")


if __name__ == "__main__":
    main()
