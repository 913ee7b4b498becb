"""The games an arena plays: its agents by name, and one mirrored sample, a deal (or a partie) between a pair
played twice with the seats swapped, as a :class:`Task` a worker plays by itself (:func:`run_task`). Every
shuffle comes from the seed and the sample's place, so the results depend on the seed alone."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from piquet.ai.agent import Agent, RandomAgent, play_deal
from piquet.ai.books import SimpleAgent
from piquet.ai.levels import AGENT_NAMES
from piquet.ai.levels import make_agent as make_level
from piquet.engine.actions import Deal
from piquet.engine.cards import shuffled_pack
from piquet.engine.partie import Partie
from piquet.engine.scoring import counted_deals
from piquet.engine.variants import make_rules

__all__ = ["AGENTS", "DEALER", "MAX_DEALS", "Game", "Sample", "Task", "UnknownAgentError", "agent_names",
           "check_agents", "make_agent", "mirrored_deal", "play_mirror", "run_task"]


#: The seat that deals a single deal (and the first deal of a partie): the first agent listed
#: sits in the other, seat 0, and is elder (or bids first) in the first game of each mirrored pair.
DEALER = 1

#: No partie may run longer than this many deals (the laws end every partie much sooner).
MAX_DEALS = 1000


class UnknownAgentError(ValueError):
    """An agent name the arena does not know; the message lists the known ones."""


def _random_agent(seed: int) -> Agent:
    return RandomAgent(random.Random(seed))


def _simple_agent(seed: int) -> Agent:
    return SimpleAgent(random.Random(seed))


def _level_agent(name: str) -> Callable[[int], Agent]:
    def make(seed: int) -> Agent:
        return make_level(name, seed)

    return make


#: Agent factories by name, each taking a seed: the two plain agents and the computer levels.
AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": _random_agent, "simple": _simple_agent,
    **{name: _level_agent(name) for name in AGENT_NAMES if name not in ("random", "simple")},
}


def agent_names() -> list[str]:
    """The names the arena knows."""
    return list(AGENTS)


def _factory(name: str) -> Callable[[int], Agent]:
    if name in AGENTS:
        return AGENTS[name]
    base = name.partition(":")[0]
    if ":" in name and base in AGENTS:
        # A level with settings (``level5:play=48``): piquet.ai.levels parses and checks them.
        try:
            make_level(name)
        except ValueError as e:
            raise UnknownAgentError(str(e)) from None
        return lambda seed: make_level(name, seed)
    if ":" in name and "." in base:
        return _loaded_factory(name)
    raise UnknownAgentError(f"unknown agent {name!r} (known agents: {', '.join(AGENTS)}, or MODULE:CALLABLE)")


def _loaded_factory(name: str) -> Callable[[int], Agent]:
    """An agent of another package named ``package.module:callable``: the callable takes a seed and returns
    an agent (``piquet.research.examples.ismcts:agent``). Imported when named, so the arena itself needs no
    more than the engine and the levels."""
    module_name, _, attribute = name.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise UnknownAgentError(f"agent {name!r}: cannot import {module_name} ({e})") from None
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise UnknownAgentError(f"agent {name!r}: {module_name} has no callable {attribute!r}")
    return cast(Callable[[int], Agent], factory)


def make_agent(name: str, seed: int) -> Agent:
    """A fresh agent by name, seeded."""
    return _factory(name)(seed)


def check_agents(names: Sequence[str]) -> None:
    """Raise :class:`UnknownAgentError` for the first unknown name."""
    for name in names:
        _factory(name)


# ---------------------------------------------------------------- tasks
@dataclass(frozen=True, slots=True)
class Task:
    """One mirrored sample: deal (or partie) ``index`` between a pair, played twice."""

    pair: int
    index: int
    first: str
    second: str
    variant: str = "rubicon"
    options: tuple[tuple[str, object], ...] = ()
    seed: int = 0
    parties: bool = False


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a mirrored pair, from the pair's side: ``points`` are the first agent's
    and the second's (deal totals, or for a partie what the settlement gives the winner);
    ``winner`` is 0 (the first agent), 1 (the second) or ``None`` (a tie or draw)."""

    first_seat: int
    points: tuple[int, int]
    winner: int | None
    elder: int
    deals: int = 1
    totals: tuple[int, int] = (0, 0)
    annulled: bool = False

    @property
    def diff(self) -> int:
        return self.points[0] - self.points[1]


@dataclass(frozen=True, slots=True)
class Sample:
    """A mirrored pair of games: the first agent in seat 0, then in seat 1."""

    pair: int
    index: int
    games: tuple[Game, Game]

    @property
    def diff(self) -> float:
        """The first agent's points less the second's, averaged over the two games."""
        return (self.games[0].diff + self.games[1].diff) / 2

    @property
    def score(self) -> float:
        """The first agent's score over the two games, a game won counting 1 and a tie 1/2:
        0, 1/4, 1/2, 3/4 or 1 (the "pentanomial" outcome of a mirrored pair)."""
        return sum(1.0 if g.winner == 0 else 0.5 if g.winner is None else 0.0 for g in self.games) / 2


def _seed(*parts: object) -> random.Random:
    """A generator seeded from the parts (a string seed: the same in every process and run)."""
    return random.Random("piquet-arena:" + ":".join(str(p) for p in parts))


def _agent_seed(task: Task, which: int) -> int:
    return _seed(task.seed, "agent", task.pair, task.index, which).getrandbits(63)


def mirrored_deal(seed: int, index: int, variant: str = "rubicon",
                  options: Mapping[str, object] | None = None, dealer: int = DEALER) -> Deal:
    """Deal ``index`` of an arena: a seeded shuffle and packet size, the same for every pair."""
    rng = _seed(seed, "deal", index)
    pack = shuffled_pack(rng)
    packets = rng.choice(make_rules(variant, options).packet_sizes())
    return Deal.from_pack(dealer, pack, packets)


def _names(task: Task) -> tuple[str, str]:
    if task.first != task.second:
        return task.first, task.second
    return f"{task.first} (A)", f"{task.second} (B)"


def _partie_deal(partie: Partie, task: Task, number: int) -> Deal:
    """The ``number``-th deal of a mirrored partie: its shuffle and packet size come from the seed,
    the partie's index and the deal's number, so both games of the pair see the same cards."""
    rng = _seed(task.seed, "partie", task.index, "deal", number)
    pack = shuffled_pack(rng)
    sizes = partie.legal_packets()
    packets = rng.choice(sizes)
    assert partie.dealer is not None
    return Deal.from_pack(partie.dealer, pack, packets)


def play_mirror(task: Task) -> tuple[Partie, Partie]:
    """The two games of a mirrored sample, as played: in the first the task's first agent sits in
    seat 0, in the second the seats are swapped. Agents are made afresh for each game with the same
    seeds."""
    first_name, second_name = _names(task)
    options = dict(task.options)
    out: list[Partie] = []
    for first_seat in (0, 1):
        agents = [make_agent(task.first, _agent_seed(task, 0)), make_agent(task.second, _agent_seed(task, 1))]
        if first_seat == 1:
            agents.reverse()
        names = (first_name, second_name) if first_seat == 0 else (second_name, first_name)
        partie = Partie(names, task.variant, options, first_dealer=DEALER)
        chance = _seed(task.seed, "chance", task.pair, task.index)  # unused when every deal is given
        if task.parties:
            number = 0
            while not partie.is_over:
                if number >= MAX_DEALS:
                    raise RuntimeError(f"partie {task.index} ran past {MAX_DEALS} deals")
                play_deal(partie, agents, chance, _partie_deal(partie, task, number))
                number += 1
        else:
            play_deal(partie, agents, chance, mirrored_deal(task.seed, task.index, task.variant, options))
        out.append(partie)
    return out[0], out[1]


def _game(partie: Partie, first_seat: int, parties: bool) -> Game:
    """A finished game seen from the pair's side (index 0: the first agent)."""

    def ours(pair: tuple[int, int]) -> tuple[int, int]:
        return (pair[0], pair[1]) if first_seat == 0 else (pair[1], pair[0])

    def side(seat: int | None) -> int | None:
        return None if seat is None else (0 if seat == first_seat else 1)

    if parties:
        result = partie.result
        assert result is not None
        winner = side(result.winner)
        points = (0, 0) if winner is None else ((result.points, 0) if winner == 0 else (0, result.points))
        deals = counted_deals(partie.deal_scores)
        first_elder = side(partie.deal_scores[0].elder if partie.deal_scores else partie.elder)
        return Game(first_seat, points, winner, first_elder or 0, deals, ours(partie.totals))
    score = partie.deal_scores[0]
    totals = ours(score.totals)
    winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    return Game(first_seat, totals, winner, side(score.elder) or 0, 1, totals, score.annulled)


def run_task(task: Task) -> Sample:
    """Play one mirrored sample (the worker's job: agents are made here, by name)."""
    one, two = play_mirror(task)
    return Sample(task.pair, task.index, (_game(one, 0, task.parties), _game(two, 1, task.parties)))
