"""Players the engine can ask for decisions.

An agent sees only a :class:`~piquet.engine.view.PlayerView` and the list of its
legal actions, and returns one of them. :func:`play_partie` runs a whole
partie between two agents, doing the chance events (the cut, the shuffles).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from piquet.engine.actions import Action, ChooseDealer, Deal, Exchange
from piquet.engine.cards import CardSet
from piquet.engine.partie import LegalActions, Partie, Phase
from piquet.engine.view import PlayerView

__all__ = ["Agent", "RandomAgent", "play_deal", "play_partie"]


class Agent(Protocol):
    """Anything that chooses actions from what its player may know."""

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        """One of ``legal`` (never an action outside it)."""
        ...

    def choose_packets(self, view: PlayerView, sizes: tuple[int, ...]) -> int:
        """The packet size to deal in, one of ``sizes``."""
        ...


# The phases, read as module names (a step asks for them at each action).
_CHOOSE_DEALER, _CUT, _DEAL, _EXCHANGE, _OVER = (Phase.CHOOSE_DEALER, Phase.CUT, Phase.DEAL, Phase.EXCHANGE,
                                                 Phase.OVER)


class RandomAgent:
    """Chooses uniformly among the legal actions (for tests and benchmarks).

    Exchanges are drawn by first choosing how many cards, so that short and
    long exchanges are equally likely rather than weighted by their count.
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        if view.phase is _EXCHANGE and view.exchange_range is not None and view.seat is not None:
            lo, hi = view.exchange_range
            n = self.rng.randint(lo, hi)
            discards = CardSet(self.rng.sample(view.hand.cards(), n))
            show = view.seat != view.elder and self.rng.random() < 0.5
            action = Exchange(view.seat, discards, show)
            if action in legal:
                return action
            if show:
                action = Exchange(view.seat, discards)  # the talon had no cards left to show
                if action in legal:
                    return action
        # What rng.choice(legal) draws, asking the length once: randrange(n), which for a plain random.Random
        # is Random._randbelow's draw, made here with getrandbits (a decision at every card), as
        # cards.shuffled_pack makes Random.shuffle's: as many random bits as n needs, again while too high.
        n = len(legal)
        rng = self.rng
        if type(rng) is not random.Random or not n:
            return legal[rng.randrange(n)]
        bits = n.bit_length()
        index = rng.getrandbits(bits)
        while index >= n:
            index = rng.getrandbits(bits)
        return legal[index]

    def choose_packets(self, view: PlayerView, sizes: tuple[int, ...]) -> int:
        return self.rng.choice(sizes)


def _play_on(partie: Partie, agents: Sequence[Agent], rng: random.Random, deal_number: int | None = None,
             on_action: Callable[[Partie], None] | None = None) -> None:
    """Make the moves, chance events drawn with ``rng`` and decisions asked of the agents, until the partie is
    over or, given ``deal_number``, until a deal after that one is due (``on_action`` is called after each).
    Over a whole partie (no ``deal_number``) the higher cut takes the deal (Law 4 gives him the choice; he
    deals, as Cavendish advises); within a deal, a choice of dealer is asked of the player like any other."""
    while (phase := partie.phase) is not _OVER:
        if phase is _CUT:
            partie.push(partie.random_cut(rng))
        elif phase is _DEAL:
            if deal_number is not None and partie.deal_number != deal_number:
                return
            seat = partie.to_act
            assert seat is not None
            sizes = partie.legal_packets()
            packets = sizes[0] if len(sizes) == 1 else agents[seat].choose_packets(partie.view(seat), sizes)
            partie.push(partie.random_deal(rng, packets))
        elif phase is _CHOOSE_DEALER and deal_number is None and partie.to_act is not None:
            partie.push(ChooseDealer(partie.to_act, partie.to_act))
        else:
            # A decision (the common move, in the loop itself rather than a call): the player to act chooses
            # from his view and his legal actions.
            legal = partie.legal_actions()
            seat = legal.player
            assert seat is not None
            partie.push(agents[seat].choose(partie.view(seat), legal))
        if on_action is not None:
            on_action(partie)


def play_deal(partie: Partie, agents: Sequence[Agent], rng: random.Random,
              deal: Deal | None = None) -> None:
    """Play the next deal to its end (dealing it at random unless ``deal`` is given)."""
    while (phase := partie.phase) in (_CUT, _CHOOSE_DEALER):
        if phase is _CHOOSE_DEALER and partie.to_act is not None:
            partie.push(ChooseDealer(partie.to_act, partie.to_act))
        else:
            partie.push(partie.random_cut(rng))
    number = partie.deal_number
    if deal is not None:
        partie.push(deal)
    _play_on(partie, agents, rng, number)


def play_partie(
    agents: Sequence[Agent],
    rng: random.Random,
    players: Sequence[str] = ("North", "South"),
    variant: str = "rubicon",
    options: dict[str, object] | None = None,
    on_action: Callable[[Partie], None] | None = None,
) -> Partie:
    """A whole partie between two agents, from the cut.

    Law 4 gives the higher cut the choice of deal; he deals, as Cavendish advises.
    """
    partie = Partie(players, variant, options)
    _play_on(partie, agents, rng, on_action=on_action)
    return partie
