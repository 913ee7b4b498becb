"""Random deals through the research adapters against the engine's own random self-play, side by side.

Usage::

    PYTHONPATH=. python3 benchmarks/research.py                       # Rubicon: 8 rounds of 50 deals
    PYTHONPATH=. python3 benchmarks/research.py --variant auction --rounds 4 --deals 20

The same deals (a seeded shuffle each) are played in every way, each way once a round, the rounds one after the
other, timed by CPU time (``time.process_time``):

- ``engine``: the engine's own random self-play, as ``benchmarks/selfplay.py`` plays it: a ``RandomAgent`` at
  each seat chooses from its view and the legal actions (an exchange by drawing its size, then its cards,
  never listing every exchange), and the loop pushes it;
- ``ids``: the OpenSpiel game ``python_piquet``: the deal's 32 cards applied one at a time as chance, then at
  each decision a uniformly random legal id (``state.legal_actions()``);
- ``ids + observation``: the same, and after every step both players' observation tensors read through the
  observer (``make_observation``, one for each player, ``set_from``);
- ``ids + information state``: the same with both players' information-state tensors;
- ``ids + information state, one observer``: the same, one observer read for both players in turn;
- ``ids + information state, player to act``: the information-state tensor of the player to act only, at each
  decision (what a learner reads to choose), through one observer.

``--only WAY`` plays the deals once in that one way and prints nothing: for counting instructions, which the
machine's load does not change (``valgrind --tool=cachegrind``, less the same command with ``--deals 0``).

The figure to compare is the CPU time of a way against the engine's in the same round (its median over the
rounds, and the range); deals and steps per CPU second are printed too (a step is an applied action: an engine
action for the engine, an id or a chance card for the adapter). Then the cost of one call of OpenSpiel's
``state.information_state_tensor(player)``, which returns a Python list of 33,771 floats, against the
observer's ``set_from``; and the vector environment (``PiquetVectorEnv``, random legal ids against the random
opponent, observation tensors): steps per CPU second with 64 games and with one, in rounds side by side.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation

from piquet.ai.agent import RandomAgent, play_deal
from piquet.engine.actions import Deal
from piquet.engine.cards import Card, CardSet
from piquet.engine.partie import Partie
from piquet.research.openspiel import PiquetState

INFO_STATE = pyspiel.IIGObservationType(perfect_recall=True)
OBSERVATION = pyspiel.IIGObservationType(perfect_recall=False)
#: The adapter's ways by their --only name: what is read after each step (see adapter).
READS = {"ids": "", "observation": "observation", "information": "information", "shared": "shared",
         "to-act": "to act"}


def shuffles(count: int, seed: int) -> list[list[int]]:
    """``count`` seeded orders of the 32 cards: a deal each (the non-dealer's twelve, the dealer's, the talon)."""
    rng = random.Random(seed)
    orders = []
    for _ in range(count):
        order = list(range(32))
        rng.shuffle(order)
        orders.append(order)
    return orders


def engine(variant: str, orders: list[list[int]], seed: int) -> tuple[int, float]:
    """The engine's random self-play of the deals: (steps, CPU seconds)."""
    rng = random.Random(seed)
    agents = [RandomAgent(random.Random(rng.random())), RandomAgent(random.Random(rng.random()))]
    steps = 0
    start = time.process_time()
    for order in orders:
        partie = Partie(variant=variant, first_dealer=0)
        hands = (CardSet(order[12:24]), CardSet(order[:12]))  # seat 0 deals: seat 1 is dealt first
        play_deal(partie, agents, rng, Deal(0, hands, tuple(Card(c) for c in order[24:])))
        steps += partie.ply
    return steps, time.process_time() - start


def adapter(variant: str, orders: list[list[int]], seed: int, read: str) -> tuple[int, float]:
    """The deals through the OpenSpiel game, a random legal id at each decision, reading after every step
    ``read``: nothing (""), "observation", "information" (an observer each) or "shared" (one for both) for both
    players, or "to act" the player to act's information state before each decision."""
    rng = random.Random(seed)
    game = pyspiel.load_game("python_piquet", {"variant": variant, "first_dealer": 0})
    kind = OBSERVATION if read == "observation" else INFO_STATE
    observers = [make_observation(game, kind), make_observation(game, kind)]
    if read == "shared":
        observers[1] = observers[0]
    both = read in ("observation", "information", "shared")
    steps = 0
    start = time.process_time()
    for order in orders:
        state = game.new_initial_state()
        for card in order:
            state.apply_action(card)
        steps += 32
        while not state.is_terminal():
            if read == "to act":
                observers[0].set_from(state, state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
            if both:
                observers[0].set_from(state, 0)
                observers[1].set_from(state, 1)
    return steps, time.process_time() - start


def call_costs(variant: str, orders: list[list[int]], seed: int) -> tuple[float, float]:
    """Microseconds of CPU a call: OpenSpiel's information_state_tensor (a list), and the observer's set_from
    of a state it has not written (both at the same states: the decisions of a few deals)."""
    rng = random.Random(seed)
    game = pyspiel.load_game("python_piquet", {"variant": variant, "first_dealer": 0})
    states: list[PiquetState] = []
    for order in orders[:4]:
        state = game.new_initial_state()
        for card in order:
            state.apply_action(card)
        while not state.is_terminal():
            if rng.random() < 0.3:
                states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    start = time.process_time()
    for state in states:
        state.information_state_tensor(state.current_player())
    listed = time.process_time() - start
    observer = make_observation(game, INFO_STATE)
    start = time.process_time()
    for state in states:
        observer.set_from(state, state.current_player())
    observed = time.process_time() - start
    return listed / len(states) * 1e6, observed / len(states) * 1e6


def vector(num_envs: int, env_steps: int, seed: int) -> tuple[int, float]:
    """``PiquetVectorEnv`` against the random opponent, random legal ids: (steps of the games, CPU seconds)."""
    from piquet.research.gymnasium import PiquetVectorEnv  # (only here: --only runs on adapters without it)

    envs = PiquetVectorEnv(num_envs, opponent="random")
    rng = np.random.default_rng(seed)
    _observations, infos = envs.reset(seed=seed)
    steps = 0
    start = time.process_time()
    while steps < env_steps:
        masks = infos["action_mask"]
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        _observations, _rewards, _terminations, _truncations, infos = envs.step(actions)
        steps += num_envs
    return steps, time.process_time() - start


def median_range(values: list[float]) -> str:
    return f"{statistics.median(values):6.2f} [{min(values):.2f}-{max(values):.2f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--variant", choices=["rubicon", "auction", "au-cent"], default="rubicon")
    parser.add_argument("--deals", type=int, default=50, help="deals a round (the same deals each round)")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--vector-steps", type=int, default=3200, help="steps of the games a round, each size")
    parser.add_argument("--only", choices=[*READS, "engine"], help="play the deals once in this way, print nothing")
    args = parser.parse_args(argv)
    orders = shuffles(args.deals, args.seed)
    if args.only == "engine":
        engine(args.variant, orders, args.seed)
        return 0
    if args.only:
        adapter(args.variant, orders, args.seed, READS[args.only])
        return 0
    ways: list[tuple[str, Callable[[], tuple[int, float]]]] = [
        ("engine", lambda: engine(args.variant, orders, args.seed)),
        ("ids", lambda: adapter(args.variant, orders, args.seed, "")),
        ("ids + observation", lambda: adapter(args.variant, orders, args.seed, "observation")),
        ("ids + information state", lambda: adapter(args.variant, orders, args.seed, "information")),
        ("ids + information state, one observer", lambda: adapter(args.variant, orders, args.seed, "shared")),
        ("ids + information state, player to act", lambda: adapter(args.variant, orders, args.seed, "to act")),
    ]
    sizes = (64, 1)
    timed: dict[str, list[tuple[int, float]]] = {name: [] for name, _ in ways}
    vectors: dict[int, list[tuple[int, float]]] = {n: [] for n in sizes}
    for _ in range(args.rounds):
        for name, run in ways:
            timed[name].append(run())
        for n in sizes:
            vectors[n].append(vector(n, args.vector_steps, args.seed))
    print(f"python {platform.python_version()} on {platform.machine()}, {args.variant}, {args.rounds} rounds of "
          f"{args.deals} deals, CPU time")
    print(f"{'way':40} {'steps/deal':>10} {'deals/s':>8} {'steps/s':>8}  CPU / engine's, median [range]")
    engine_cpu = [cpu for _, cpu in timed["engine"]]
    for name, _ in ways:
        runs = timed[name]
        steps = runs[0][0]
        cpu = statistics.median(c for _, c in runs)
        ratios = [c / e for (_, c), e in zip(runs, engine_cpu, strict=True)]
        print(f"{name:40} {steps / args.deals:10.1f} {args.deals / cpu:8.0f} {steps / cpu:8.0f}  "
              f"{median_range(ratios) if name != 'engine' else ''}")
    listed, observed = call_costs(args.variant, orders, args.seed)
    print(f"one information-state tensor of a state not yet written: OpenSpiel's information_state_tensor "
          f"{listed:.0f} us (a list), the observer's set_from {observed:.1f} us")
    rates: dict[int, list[float]] = {n: [steps / cpu for steps, cpu in vectors[n]] for n in sizes}
    gains = [many / one for many, one in zip(rates[64], rates[1], strict=True)]
    print(f"PiquetVectorEnv, random ids against the random opponent: {statistics.median(rates[64]):.0f} steps/s "
          f"with 64 games, {statistics.median(rates[1]):.0f} with one (64 games / one: {median_range(gains)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
