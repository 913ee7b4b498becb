"""The sampled exchange (levels 4-5): its quick scoring of declarations agrees with the engine's
laws, and its choice is always a legal exchange."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from piquet.ai.books import SimpleAgent, discard_choice
from piquet.ai.exchange import (
    candidate_discards,
    choose_exchange,
    declarations,
    drawn,
    elder_pique,
    estimate,
    play_estimate,
    worlds_after_elder,
    younger_takes,
)
from piquet.ai.inference import Inference, World
from piquet.ai.solver import PlayPosition, solve
from piquet.engine.actions import Exchange
from piquet.engine.cards import Card, CardSet, Suit
from piquet.engine.partie import Partie, Phase
from piquet.engine.scoring import ScoreCategory
from piquet.engine.variants import make_rules
from piquet.engine.view import PlayerView

_DECLARED = (ScoreCategory.POINT, ScoreCategory.SEQUENCES, ScoreCategory.SETS, ScoreCategory.REPIQUE)


def _to_play(seed: int, options: dict[str, object] | None = None, variant: str = "rubicon") -> Partie | None:
    """A deal exchanged and declared in full by the simple player, stopped at elder's first lead."""
    rng = random.Random(seed)
    partie = Partie(("Ann", "Bill"), variant, options, first_dealer=seed % 2)
    partie.push(partie.random_deal(rng))
    agent = SimpleAgent()
    while partie.phase is not Phase.PLAY:
        if partie.phase is not Phase.EXCHANGE and partie.phase is not Phase.DECLARE:
            return None  # a carte blanche: not what the estimate covers
        seat = partie.to_act
        assert seat is not None
        partie.push(agent.choose(partie.view(seat), partie.legal_actions(seat)))
    return partie


def _at_exchange(seed: int) -> Partie | None:
    """A Rubicon deal dealt in threes, waiting for elder's exchange; ``None`` for a carte blanche."""
    partie = Partie(("Ann", "Bill"), first_dealer=seed % 2)
    partie.push(partie.random_deal(random.Random(seed), 3))
    return partie if partie.phase is Phase.EXCHANGE else None


def _hand_points(partie: Partie) -> tuple[int, int]:
    """Elder's and younger's points for combinations and repique, reckoned at elder's first lead."""
    seat = partie.elder
    partie.push(next(iter(partie.legal_actions(seat))))  # the repique is decided at the first lead
    scored = [0, 0]
    for event in partie.events:
        if event.category in _DECLARED:
            scored[event.player] += event.points
    partie.pop()
    return scored[seat], scored[1 - seat]


@pytest.mark.parametrize(("variant", "options"), [
    ("rubicon", {}), ("rubicon", {"minimum_point": 4}), ("au-cent", {"points_ending_in_four_count_one_less": True}),
])
def test_laws_62_to_68_declarations_scored_as_the_engine_scores_them(variant: str, options: dict[str, object]) -> None:
    """Point, sequences and sets won by the better (Laws 62-64), all scored by their winner, and a
    repique at thirty (Law 68): the quick count matches the engine's on 300 deals."""
    rules = make_rules(variant, options)
    checked = 0
    for seed in range(300):
        partie = _to_play(seed, options, variant)
        if partie is None:
            continue
        elder = partie.elder
        quick = declarations(partie.hand(elder).mask, partie.hand(1 - elder).mask, rules)
        assert quick == _hand_points(partie), f"deal {seed}"
        checked += 1
    assert checked > 250


def test_lunn_auction_declarations_scored_as_the_engine_scores_them() -> None:
    """Auction Piquet (rules/004): in a plus contract the better combination scores as in
    Rubicon; in a minus contract its holder's opponent scores it, and a repique comes at
    twenty-one. The quick count matches the engine's on deals bid, exchanged and declared by
    the books."""
    rules = make_rules("auction")
    checked = {False: 0, True: 0}
    for seed in range(200):
        partie = Partie(("Ann", "Bill"), "auction", first_dealer=seed % 2)
        partie.push(partie.random_deal(random.Random(seed)))
        agent = SimpleAgent()
        while partie.phase not in (Phase.PLAY, Phase.DEAL):
            seat = partie.to_act
            assert seat is not None
            partie.push(agent.choose(partie.view(seat), partie.legal_actions(seat)))
        contract = partie.contract
        if partie.phase is not Phase.PLAY or contract is None:
            continue  # both passed: the deal is annulled
        elder = partie.elder
        quick = declarations(partie.hand(elder).mask, partie.hand(1 - elder).mask, rules, contract)
        assert quick == _hand_points(partie), f"deal {seed}, {contract}"
        checked[contract.minus] += 1
    assert checked[False] > 30 and checked[True] > 30


@pytest.mark.slow
def test_play_estimate_follows_the_exact_solver() -> None:
    """The fitted estimate of the play explains much of what the solver finds the play worth."""
    found, guessed = [], []
    for seed in range(300, 340):
        partie = _to_play(seed)
        if partie is None:
            continue
        e, y = partie.hand(partie.elder).mask, partie.hand(1 - partie.elder).mask
        hands = (e, y) if partie.elder == 0 else (y, e)
        position = PlayPosition(hands, partie.elder, partie.elder, pique_done=True)
        found.append(solve(position, partie.rules, all_best=False).value)
        guessed.append(play_estimate(e, y))
    mean = sum(found) / len(found)
    residual = sum((f - g) ** 2 for f, g in zip(found, guessed, strict=True))
    total = sum((f - mean) ** 2 for f in found)
    assert 1 - residual / total > 0.4


@pytest.mark.parametrize("seat_role", ["elder", "younger"])
def test_sampled_exchange_is_legal_and_among_its_candidates(seat_role: str) -> None:
    for seed in range(12):
        partie = _at_exchange(seed)
        if partie is None:
            continue
        if seat_role == "younger":
            elder = partie.to_act
            assert elder is not None
            partie.push(SimpleAgent().choose(partie.view(elder), partie.legal_actions(elder)))
        seat = partie.to_act
        assert seat is not None
        view = partie.view(seat)
        action = choose_exchange(view, partie.rules, random.Random(seed), worlds=30, candidates=8)
        assert isinstance(action, Exchange) and action in partie.legal_actions(seat)
        assert action.discards in candidate_discards(view, 8)


def test_law_58_elder_foresees_youngers_exchange_as_the_books_make_it() -> None:
    """Elder judges a discard by the hand younger will hold after taking what he left (Law 58);
    against the books she holds exactly that: the model is the simple player's own exchange."""
    tried = 0
    for seed in range(40):
        partie = _at_exchange(seed)
        if partie is None:
            continue
        elder, younger = partie.elder, 1 - partie.elder
        taken = 4 + seed % 2
        partie.push(Exchange(elder, discard_choice(partie.hand(elder), taken)))
        before, rest = partie.hand(younger), partie.talon()[taken:]
        partie.push(SimpleAgent().choose(partie.view(younger), partie.legal_actions(younger)))
        assert younger_takes(before.mask, rest) == partie.hand(younger).mask
        tried += 1
    assert tried > 30


def _hands_after(view: PlayerView, world: World, discard: CardSet) -> tuple[int, int]:
    """Elder's and younger's hands once the player at ``view`` throws ``discard`` in ``world``, the
    books' younger answering elder."""
    mine = drawn(view.hand.mask, discard, world.talon)
    if view.seat != view.elder:
        return world.opponent_hand.mask, mine
    return mine, younger_takes(world.opponent_hand.mask, world.talon[len(discard):])


@pytest.mark.slow
def test_law_73_the_last_deals_exchange_weighs_each_sides_points_as_the_partie_does() -> None:
    """A winner against a loser sure to stay under scores both scores (Law 73): he wants every
    point made, the loser as few as possible. On the same sampled deals, the discard chosen for
    every point to count (worth (1, 1)) makes at least as many points in hand (and elder's pique),
    both sides', as the one chosen for none to (worth (-1, -1)), in elder's exchange and in
    younger's; and for the score difference the choice is the best candidate by its difference."""
    rules = make_rules("rubicon")
    differed = 0
    for seed in range(16):
        partie = _at_exchange(seed)
        if partie is None:
            continue
        if seed % 2:
            elder = partie.elder
            partie.push(SimpleAgent().choose(partie.view(elder), partie.legal_actions(elder)))
        seat = partie.to_act
        assert seat is not None
        view = partie.view(seat)
        younger = seat != view.elder
        worlds = (worlds_after_elder(view, random.Random(seed), 200) if younger else None) or \
            Inference(view).sample(random.Random(seed), 200)
        made, difference = {}, {}
        for discard in candidate_discards(view, 8):
            made[discard] = difference[discard] = 0.0
            for world in worlds:
                e, y = _hands_after(view, world, discard)
                a, b = declarations(e, y)
                made[discard] += world.weight * (elder_pique(a, b, e, y) + b)
                difference[discard] += world.weight * (-1 if younger else 1) * estimate(e, y)
        chosen = {}
        for worth in ((1, 1), (-1, -1), (1, -1)):
            action = choose_exchange(view, rules, random.Random(seed), 200, 8, worth)
            assert action is not None and action in partie.legal_actions(seat)
            chosen[worth] = action.discards
        assert made[chosen[(1, 1)]] >= made[chosen[(-1, -1)]]
        assert difference[chosen[(1, -1)]] == max(difference.values())
        differed += chosen[(1, 1)] != chosen[(-1, -1)]
    assert differed >= 3


def _longest_suit(hand: CardSet) -> int:
    return max(len(hand.suit(suit)) for suit in Suit)


def test_law_58_younger_draws_elders_hand_as_an_exchange_of_his_least_useful_cards() -> None:
    """Younger takes what elder left of the talon (Law 58). The deals she tries are those in which
    elder threw his least useful cards, of the number he took: every card in its place, and elder
    holding longer suits than twelve cards drawn at random would."""
    tried = 0
    for seed in range(20):
        partie = _at_exchange(seed)
        if partie is None:
            continue
        elder, younger = partie.elder, 1 - partie.elder
        assert worlds_after_elder(partie.view(elder), random.Random(seed), 5) is None
        partie.push(Exchange(elder, discard_choice(partie.hand(elder), 5 - seed % 2)))
        view = partie.view(younger)
        taken = view.exchanged[elder]
        assert taken == 5 - seed % 2
        modelled = worlds_after_elder(view, random.Random(seed), 200)
        uniform = Inference(view).sample(random.Random(seed), 200)
        assert modelled is not None and uniform
        for world in modelled:
            assert len(world.opponent_hand) == 12 and len(world.opponent_discards) == taken
            assert len(world.talon) == 8 - taken
            everything = view.hand | world.opponent_hand | world.opponent_discards | CardSet(world.talon)
            assert len(everything) == 32
        longest = sum(_longest_suit(w.opponent_hand) for w in modelled) / len(modelled)
        assert longest > sum(_longest_suit(w.opponent_hand) for w in uniform) / len(uniform)
        tried += 1
    assert tried > 10


def test_younger_draws_elders_hand_by_the_discard_and_weight_she_is_given() -> None:
    """In Auction Piquet elder's books throw differently by the contract, and his calls make some
    hands likelier: the deals follow the discard and carry the weight they are given."""
    partie = Partie(("Ann", "Bill"), first_dealer=0)
    partie.push(partie.random_deal(random.Random(4), 3))
    assert partie.phase is Phase.EXCHANGE
    elder = partie.elder
    partie.push(Exchange(elder, discard_choice(partie.hand(elder), 4)))
    view = partie.view(1 - elder)
    seen: list[CardSet] = []

    def lowest(dealt: CardSet, taken: int) -> CardSet:
        return CardSet(sorted(dealt, key=lambda c: (c.rank, c))[:taken])

    def weigh(dealt: CardSet, talon: Sequence[Card]) -> float:
        seen.append(dealt)
        return 0.5 if len(dealt.suit(Suit.SPADES)) > 3 else 1.0

    worlds = worlds_after_elder(view, random.Random(1), 50, lowest, weigh)
    assert worlds is not None and len(worlds) == len(seen) == 50
    for world, dealt in zip(worlds, seen, strict=True):
        assert world.opponent_discards == lowest(dealt, 4)
        assert dealt.issubset(world.opponent_hand | world.opponent_discards) and len(world.talon) == 4
        assert world.weight == (0.5 if len(dealt.suit(Suit.SPADES)) > 3 else 1.0)


def test_sampled_exchange_leaves_auction_to_the_heuristic() -> None:
    partie = Partie(("Ann", "Bill"), "auction", first_dealer=0)
    partie.push(partie.random_deal(random.Random(1), 3))
    while partie.phase is Phase.BID:
        seat = partie.to_act
        assert seat is not None
        partie.push(SimpleAgent().choose(partie.view(seat), partie.legal_actions(seat)))
    if partie.phase is Phase.EXCHANGE:
        seat = partie.to_act
        assert seat is not None
        assert choose_exchange(partie.view(seat), partie.rules, random.Random(1), 20, 8) is None
