"""How often the inference's worlds contradict what the opponent scored in the declarations, and what that
costs the research adapters (docs/research.md, "Resampling").

Three measures, each over seeded deals:

- ``worlds``: in play by level 2 (both seats), at the decisions after the opponent scored a point, a sequence
  or a set, the share of the inference's sampled worlds in which she could not have declared what she scored
  (``quart to the king``, ``three kings``): judged from the words of the score events, with the engine's own
  calls of the combinations her hand in that world holds;
- ``resample``: ``resample_from_infostate`` at random decisions of random deals (as the tests play them:
  random ids, stopping at each decision with the chance ``--stop``), the share that found no world;
- ``view``: ``state_from_view`` at random decisions of deals played by level 2, the share that found none.

    python3 tools/reckoning_worlds.py --measure worlds resample view

The ``worlds`` measure needs only the core; the other two need the research extra (OpenSpiel).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence

from piquet.ai.books import SimpleAgent
from piquet.ai.inference import Inference, World
from piquet.engine.cards import CardSet
from piquet.engine.combinations import Category, call, candidates
from piquet.engine.partie import Partie, Phase
from piquet.engine.view import PlayerView

VARIANTS = ("rubicon", "auction", "au-cent")
#: The declarations' categories; a score category of the same name is what they score in.
_DECLARED = {c.value: c for c in Category}


def scored_by(view: PlayerView, seat: int) -> list[tuple[Category, str]]:
    """The combinations ``seat`` scored in this deal so far (younger's before she reckons them too), as the
    words that scored them, the holder's name taken off where her opponent scored them (Auction's minus)."""
    out = []
    name = f"{view.players[seat].lower()}'s "
    for event in (*view.events, *view.unreckoned):
        category = _DECLARED.get(event.category.value)
        if category is None:
            continue
        reason = event.reason
        if reason.startswith(name):
            out.append((category, reason[len(name):]))
        elif event.player == seat and "'s " not in reason:
            out.append((category, reason))
    return out


def world_declares_them(view: PlayerView, world: World) -> bool:
    """Whether the opponent's hand in ``world``, as it was at the declarations (her hand and what she has
    played), holds combinations, no two of a category sharing a card, whose calls are the words of all she scored."""
    assert view.opponent is not None
    opp = view.opponent
    played = 0
    for trick in view.tricks:
        played |= trick.cards[0 if trick.leader == opp else 1].mask
    if view.trick and view.leader == opp:
        played |= view.trick[0].mask
    hand = CardSet(world.opponent_hand.mask | played)
    wanted = scored_by(view, opp)

    def place(i: int, used: dict[Category, int]) -> bool:
        if i == len(wanted):
            return True
        category, words = wanted[i]
        for cards in candidates(category, hand):
            if (not cards.mask & used.get(category, 0) and call(category, cards).lower() == words
                    and place(i + 1, {**used, category: used.get(category, 0) | cards.mask})):
                return True
        return False

    return place(0, {})


def _level2_deal(variant: str, seed: int, at_decision: Callable[[Partie], None]) -> None:
    """One deal played by level 2 in both seats, ``at_decision`` called before each decision."""
    partie = Partie(("A", "B"), variant, first_dealer=seed % 2)
    partie.push(partie.random_deal(random.Random(seed)))
    agents = (SimpleAgent(random.Random(seed)), SimpleAgent(random.Random(seed + 1)))
    while partie.phase not in (Phase.OVER, Phase.DEAL, Phase.CUT) and partie.to_act is not None:
        at_decision(partie)
        seat = partie.to_act
        partie.push(agents[seat].choose(partie.view(seat), partie.legal_actions(seat)))


def measure_worlds(deals: int, samples: int) -> None:
    rng = random.Random(7)
    for variant in VARIANTS:
        checked = bad = decisions = touched = 0

        def at(partie: Partie) -> None:
            nonlocal checked, bad, decisions, touched
            seat = partie.to_act
            assert seat is not None
            view = partie.view(seat)
            if not scored_by(view, 1 - seat):
                return
            decisions += 1
            wrong = 0
            for world in Inference(view).sample(rng, samples):
                checked += 1
                wrong += not world_declares_them(view, world)
            bad += wrong
            touched += wrong > 0

        for seed in range(deals):
            _level2_deal(variant, seed, at)
        print(f"{variant:8} worlds: {bad} of {checked} contradict what she scored "
              f"({100 * bad / max(checked, 1):.1f}%), at {touched} of {decisions} decisions of {deals} deals")


def measure_resample(deals: int, stop: float) -> None:
    import pyspiel

    import piquet.research.openspiel  # noqa: F401  (registers the game)

    rng = random.Random(11)
    for variant in VARIANTS:
        game = pyspiel.load_game("python_piquet", {"variant": variant})
        tried = failed = 0
        for seed in range(deals):
            play = random.Random(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(play.choice(state.chance_outcomes())[0])
                    continue
                if play.random() < stop:
                    break
                state.apply_action(play.choice(state.legal_actions()))
            if state.is_terminal():
                continue
            tried += 1
            try:
                state.resample_from_infostate(state.current_player(), rng.random)
            except ValueError:
                failed += 1
        print(f"{variant:8} resample: {failed} of {tried} found no world")


def measure_view(deals: int, share: float) -> None:
    from piquet.research.openspiel import state_from_view

    rng = random.Random(5)
    for variant in VARIANTS:
        tried = failed = 0

        def at(partie: Partie) -> None:
            nonlocal tried, failed
            if rng.random() >= share:
                return
            seat = partie.to_act
            assert seat is not None
            tried += 1
            try:
                state_from_view(partie.view(seat), rng)
            except ValueError:
                failed += 1

        for seed in range(deals):
            _level2_deal(variant, seed, at)
        print(f"{variant:8} state_from_view: {failed} of {tried} found no world")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--measure", nargs="+", choices=("worlds", "resample", "view"), default=["worlds"])
    parser.add_argument("--deals", type=int, default=20, help="deals per variant (default 20)")
    parser.add_argument("--samples", type=int, default=20, help="worlds sampled per decision (default 20)")
    parser.add_argument("--stop", type=float, default=0.04,
                        help="resample: the chance of stopping at each decision of a random deal (0.04)")
    parser.add_argument("--share", type=float, default=0.2, help="share of decisions asked for a state (0.2)")
    args = parser.parse_args(argv)
    for what in args.measure:
        if what == "worlds":
            measure_worlds(args.deals, args.samples)
        elif what == "resample":
            measure_resample(args.deals, args.stop)
        else:
            measure_view(args.deals, args.share)
    return 0


if __name__ == "__main__":
    sys.exit(main())
