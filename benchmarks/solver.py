"""How fast the exact play solver is: the compiled kernel, the pure-Python search, and yardsticks.

Usage::

    python benchmarks/solver.py                        # 200 full deals and 200 six-trick endgames
    python benchmarks/solver.py --reference piquet_dd.c --baseline old_solver.py
    python benchmarks/solver.py --deals 50 --all-values

The positions are real: each deal is dealt at random, then the simple computer opponent exchanges
and declares for both players, so the hands are shaped as in play; the solver then solves from
elder's first lead (full deal) and from the position after six tricks played by the simple
opponent (endgame). Every solve starts with an empty transposition table.

Each position is solved by every solver in turn before the next position (interleaved, so a busy
moment of the machine falls on all of them alike): the compiled kernel (if built), the pure-Python
search (``PIQUET_PURE_SOLVER``'s path), ``--baseline FILE`` (another version of
``piquet/ai/solver.py``, e.g. ``git show main:piquet/ai/solver.py > old_solver.py``), and
``--reference FILE``, a plain C solver (compiled here with ``cc -O2`` into a temporary directory,
fed positions one a line, ``HAND_TO_ACT OTHER_HAND 0 TRICKS_WON``, answering ``VALUE WALL_MS NODES
EXPANDED CPU_MS``). The reference knows Rubicon's scoring without the pique, so the first set of
full deals is solved with the pique off for all; the other sets keep it where it is possible. The
values of all solvers are checked equal on every position. CPU time is the solving thread's.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from types import ModuleType

from piquet.ai import solver
from piquet.ai.books import SimpleAgent
from piquet.ai.solver import PlayPosition, position_from_partie
from piquet.engine.partie import Partie, Phase
from piquet.engine.variants import Rules

#: A solver under test: a position and its rules to (value, nodes).
Solve = Callable[[PlayPosition, Rules], tuple[int, int]]


def positions(count: int, seed: int, tricks_played: int) -> list[tuple[Rules, PlayPosition]]:
    rng = random.Random(seed)
    agent = SimpleAgent()
    out: list[tuple[Rules, PlayPosition]] = []
    while len(out) < count:
        partie = Partie(("North", "South"), first_dealer=rng.randint(0, 1))
        partie.push(partie.random_deal(rng, packets=3))
        while partie.phase is not Phase.PLAY or len(partie.view(0).tricks) < tricks_played or partie.view(0).trick:
            seat = partie.to_act
            if partie.phase not in (Phase.CARTE_BLANCHE, Phase.EXCHANGE, Phase.DECLARE, Phase.PLAY) or seat is None:
                break
            partie.push(agent.choose(partie.view(seat), partie.legal_actions(seat)))
        if partie.phase is Phase.PLAY:
            out.append((partie.rules, position_from_partie(partie)))
    return out


def ours(compiled: bool, all_values: bool) -> Solve:
    def run(position: PlayPosition, rules: Rules) -> tuple[int, int]:
        result = solver._solve(position, rules, all_values, False, compiled)
        return result.value, result.nodes
    return run


def baseline(path: str, all_values: bool) -> Solve:
    spec = importlib.util.spec_from_file_location("baseline_solver", path)
    assert spec is not None and spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    sys.modules["baseline_solver"] = module
    spec.loader.exec_module(module)

    def run(position: PlayPosition, rules: Rules) -> tuple[int, int]:
        if hasattr(module, "_MODELS"):
            module._MODELS.clear()  # its move lists: none kept from an earlier solve
        result = module.solve(position, rules, all_values=all_values, all_best=False)
        return int(result.value), int(result.nodes)
    return run


class Reference:
    """The plain C solver, compiled here and fed a position a line (it times itself)."""

    def __init__(self, source: str, workdir: str) -> None:
        binary = os.path.join(workdir, "reference")
        subprocess.run(["cc", "-O2", "-o", binary, source], check=True)
        self.process = subprocess.Popen([binary, "--probe"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def solve(self, position: PlayPosition) -> tuple[int, int, float, float]:
        """(value, nodes, wall seconds, CPU seconds) from the side of the player on lead."""
        assert position.lead is None and self.process.stdin and self.process.stdout
        me = position.to_act
        line = f"{position.hands[me]} {position.hands[1 - me]} 0 {position.tricks_won[me]}\n"
        self.process.stdin.write(line)
        self.process.stdin.flush()
        value, wall_ms, _nodes, expanded, cpu_ms = self.process.stdout.readline().split()
        return int(value), int(expanded), float(wall_ms) / 1000, float(cpu_ms) / 1000

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait()


class Tally:
    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.nodes: list[int] = []

    def add(self, cpu: float, wall: float, nodes: int) -> None:
        self.cpu.append(cpu)
        self.wall.append(wall)
        self.nodes.append(nodes)


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.9 * (len(ordered) - 1))]


def measure(title: str, items: list[tuple[Rules, PlayPosition]], solvers: dict[str, Solve],
            reference: Reference | None) -> None:
    tallies = {name: Tally() for name in [*solvers, *(["reference C"] if reference else [])]}
    unequal = 0
    for rules, position in items:
        values = set()
        for name, run in solvers.items():
            wall0, cpu0 = time.perf_counter(), time.thread_time()
            value, nodes = run(position, rules)
            cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
            tallies[name].add(cpu, wall, nodes)
            values.add(value)
        if reference is not None:
            value, nodes, wall, cpu = reference.solve(position)
            tallies["reference C"].add(cpu, wall, nodes)
            values.add(value)
        unequal += len(values) > 1
    equal = "yes" if not unequal else f"NO ({unequal} differ)"
    print(f"\n{title}: {len(items)} positions; values equal on all: {equal}")
    print(f"  {'solver':<16} {'CPU median':>11} {'CPU p90':>9} {'wall median':>12} {'wall p90':>9} "
          f"{'nodes median':>13}")
    for name, t in tallies.items():
        print(f"  {name:<16} {1000 * statistics.median(t.cpu):9.3f}ms {1000 * p90(t.cpu):7.2f}ms "
              f"{1000 * statistics.median(t.wall):10.3f}ms {1000 * p90(t.wall):7.2f}ms "
              f"{statistics.median(t.nodes):13,.0f}")
    names = list(tallies)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            ratio = statistics.median(tallies[a].cpu) / statistics.median(tallies[b].cpu)
            per = statistics.median(x / y for x, y in zip(tallies[a].cpu, tallies[b].cpu, strict=True) if y > 0)
            print(f"  {a} / {b}: {ratio:.3f} (ratio of CPU medians), {per:.3f} (median of the ratios by position)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--all-values", action="store_true", help="the exact value of every card, not only the best")
    parser.add_argument("--reference", metavar="FILE", help="the plain C solver's source, piquet_dd.c")
    parser.add_argument("--baseline", metavar="FILE", help="another version of piquet/ai/solver.py to compare")
    args = parser.parse_args()
    solvers: dict[str, Solve] = {}
    if solver.SOLVER == "compiled kernel":
        solvers["kernel"] = ours(True, args.all_values)
    solvers["pure Python"] = ours(False, args.all_values)
    if args.baseline:
        solvers["baseline"] = baseline(args.baseline, args.all_values)
    what = "every card's value" if args.all_values else "value and a best card"
    print(f"solver in use: {solver.SOLVER}; {what}; seed {args.seed}")
    full = positions(args.deals, args.seed, 0)
    with tempfile.TemporaryDirectory() as workdir:
        reference = Reference(args.reference, workdir) if args.reference and not args.all_values else None
        try:
            no_pique = [(rules, replace(position, pique_done=True)) for rules, position in full]
            measure("full deals, pique off", no_pique, solvers, reference)
        finally:
            if reference is not None:
                reference.close()
    measure("full deals, pique where possible", full, solvers, None)
    measure("six-trick endgames", positions(args.deals, args.seed + 1, 6), solvers, None)
    print(f"\nmachine: {platform.machine()}, {os.cpu_count()} cores, "
          f"{platform.python_implementation()} {platform.python_version()}")


if __name__ == "__main__":
    main()
