"""Steps per second of random play through the research adapters, against the engine alone.

Usage::

    python benchmarks/research.py                      # each variant, 30 deals
    python benchmarks/research.py --deals 100 --variant auction

Four ways of playing the same random deals, timed by CPU time (``time.process_time``), side by side:

- ``engine``: the engine alone, a uniformly random legal engine action at each decision (the deal one
  ``Deal`` action);
- ``ids``: the OpenSpiel state (:mod:`piquet.research.openspiel`), a uniformly random legal id at each
  step, the deal's 32 chance cards one at a time;
- ``ids+observation``: the same, with both players' observation tensors read at each step;
- ``ids+information state``: the same, with both players' information-state tensors (perfect recall).

A step is one applied action: an engine action for ``engine``, an id or a chance card for the others (so a
deal has more steps through the adapter: the exchange and the declarations card by card, and the deal).
The figures to compare are deals per second; steps per second are printed too.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

import pyspiel

from piquet.engine.partie import Partie, Phase
from piquet.research import openspiel as _registers  # noqa: F401  (registers python_piquet)


def engine_deals(variant: str, deals: int, seed: int) -> tuple[int, float]:
    """Random deals by the engine alone: (steps, CPU seconds)."""
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    for _ in range(deals):
        p = Partie(variant=variant, first_dealer=0)
        p.push(p.random_deal(rng))
        steps += 1
        while not p.deal_scores:
            p.push(rng.choice(p.legal_actions().list()))
            steps += 1
            if p.phase is Phase.DEAL:
                break
    return steps, time.process_time() - start


def adapter_deals(variant: str, deals: int, seed: int, tensors: str) -> tuple[int, float]:
    """Random deals through the OpenSpiel state, reading ``tensors`` ("", "observation", "information")."""
    rng = random.Random(seed)
    game = pyspiel.load_game("python_piquet", {"variant": variant})
    steps = 0
    start = time.process_time()
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
            if tensors == "observation":
                state.observation_tensor(0)
                state.observation_tensor(1)
            elif tensors == "information":
                state.information_state_tensor(0)
                state.information_state_tensor(1)
    return steps, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--variant", choices=["rubicon", "auction", "au-cent"], action="append")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    variants = args.variant or ["rubicon", "auction", "au-cent"]
    print(f"python {platform.python_version()} on {platform.machine()}, {args.deals} random deals each, CPU time")
    print(f"{'variant':9} {'way':24} {'steps':>7} {'CPU s':>7} {'steps/s':>9} {'deals/s':>8}")
    for variant in variants:
        rows = [("engine", engine_deals(variant, args.deals, args.seed))]
        for label, tensors in (("ids", ""), ("ids+observation", "observation"),
                               ("ids+information state", "information")):
            rows.append((label, adapter_deals(variant, args.deals, args.seed, tensors)))
        for label, (steps, seconds) in rows:
            print(f"{variant:9} {label:24} {steps:7d} {seconds:7.2f} {steps / seconds:9.0f} "
                  f"{args.deals / seconds:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
