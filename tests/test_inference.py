"""Inference from a player's view: the hidden arrangement is always consistent, samples respect
everything known, and sampling is uniform over the hard-constrained worlds."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import combinations

import pytest
from drivers import Seeded, drive
from helpers import BILL, cs, dealt, declare_nothing

from piquet.ai.agent import Agent, RandomAgent
from piquet.ai.books import SimpleAgent
from piquet.ai.inference import Inference, World, best_key, holds
from piquet.engine.actions import Declare, Exchange, Play
from piquet.engine.cards import Card, CardSet, Suit
from piquet.engine.combinations import Category, pips
from piquet.engine.partie import Partie, Phase

ANN = 0


def truth(partie: Partie, opp: int) -> World:
    """The real arrangement of the hidden cards (test side only: read from the partie)."""
    undrawn = partie.undrawn()
    talon = tuple(c for c in partie.talon() if c in undrawn)
    return World(partie.hand(opp), partie.view(opp).discards, talon)


def known_elsewhere(view: object) -> CardSet:
    from piquet.engine.view import PlayerView

    assert isinstance(view, PlayerView)
    return view.hand | view.discards | view.dealt | view.played | view.rest


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_self_play_truth_is_consistent_and_samples_are_sound(variant: str) -> None:
    checked: list[int] = []
    for seed in range(8):
        agents: tuple[Agent, Agent] = (SimpleAgent(random.Random(seed)), RandomAgent(random.Random(seed + 100)))
        if seed % 2:
            agents = agents[::-1]
        partie = Partie(("A", "B"), variant, first_dealer=seed % 2)
        check = truth_checker(random.Random(seed), (variant, seed), checked)
        drive(Seeded(seed, players=agents), partie=partie, after=check, max_deals=2)
    assert len(checked) > 50


def truth_checker(rng: random.Random, context: tuple[str, int], checked: list[int]) -> Callable[[Partie], None]:
    """Half the time, each player's inference holds the truth and samples worlds that respect what he knows."""

    def check(partie: Partie) -> None:
        if partie.phase in (Phase.DEAL, Phase.CUT) or rng.random() < 0.5:
            return
        for seat in (0, 1):
            view = partie.view(seat)
            inf = Inference(view)
            real = truth(partie, 1 - seat)
            assert inf.consistent(real), (*context, partie.phase, [r.text for r in inf.requirements])
            assert inf.known_opponent().issubset(real.opponent_hand)
            assert real.opponent_hand.issubset(inf.possible_opponent())
            assert not real.opponent_hand.suits() & inf.voids()
            assert inf.unseen().issubset(real.opponent_hand | real.opponent_discards | CardSet(real.talon))
            elsewhere = known_elsewhere(view)
            for world in inf.sample(rng, 5):
                assert inf.consistent(world)
                assert len(world.opponent_hand) == view.hand_sizes[1 - seat]
                assert len(world.opponent_discards) == (view.exchanged[1 - seat] or 0)
                assert len(world.talon) == view.talon_left
                assert not (world.opponent_hand | world.opponent_discards) & elsewhere
                assert not CardSet(world.talon) & (elsewhere - view.rest)
                assert 0 < world.weight <= 1
            checked.append(1)

    return check


# A deal where Bill (elder) and Ann (younger) each hold a point of six, Ann's the better.
BILL_HAND = "AS KS QS JS TS 9S 8S AD KD QD AC KC"
ANN_HAND = "AH KH QH JH TH 9H 7S JD TD JC TC 9C"
TALON = "QC 7H 8H 9D 8D 7D 8C 7C"


def _point_six_not_good() -> Partie:
    partie = dealt(ANN_HAND, BILL_HAND, TALON)
    partie.push(Exchange(BILL, cs("AD")))  # draws QC, leaves (and looks at) 7H 8H 9D 8D
    partie.push(Exchange(ANN, cs("7S 9C")))  # draws 7H 8H
    partie.push(Declare(BILL, Category.POINT, (cs("KS QS JS TS 9S 8S"),)))  # six, making 57
    partie.push(Declare(ANN, Category.POINT, (cs("AH KH QH JH TH 9H"),)))  # six, making 60: not good
    return partie


def test_not_good_to_a_point_of_six() -> None:
    partie = _point_six_not_good()
    view = partie.view(BILL)
    assert view.announcements[0].answer == "not good" and view.announcements[0].detail == 57
    inf = Inference(view)
    assert inf.consistent(truth(partie, ANN))
    worlds = inf.sample(random.Random(1), 300)
    assert len(worlds) == 300
    for world in worlds:
        hand = world.opponent_hand
        # Ann took two: the first two of the four Bill left and looked at.
        assert len(hand & cs("7H 8H 9D 8D")) == 2
        assert any(len(hand.suit(s)) >= 7 or (len(hand.suit(s)) == 6 and pips(hand.suit(s)) > 57) for s in Suit)
        assert holds(Category.POINT, hand.mask, "gt_len", 6, 57)
    # A hand with no such point is rejected.
    fake = World(CardSet.parse("7H 8H 9H TH JH 7D 8D 9D JD TD JC TC"), worlds[0].opponent_discards,
                 worlds[0].talon)
    assert not inf.consistent(fake)


def test_cavendish_calling_younger_s_not_good_shown_after_a_lower_sequence_puts_the_better_one_in_her_hand() -> None:
    # Ann shows a tierce minor, then her quart: "Not good" to Bill's tierce major (the engine answers on her best,
    # Cavendish, Calling). Bill's inference reads the answer: every hand it gives her beats a tierce major.
    partie = dealt("9H 8H 7H JD TD 9D 8D JS TS 8S KH QH", "AS KS QS 9S 7S AH JH 7D AC JC 9C 7C",
                   "TH 8C AD KD QD KC QC TC")
    for action in (Exchange(BILL, cs("7D")), Exchange(ANN, cs("8S")), Declare(BILL, Category.POINT, ()),
                   Declare(ANN, Category.POINT, ()), Declare(BILL, Category.SEQUENCES, (cs("AS KS QS"),)),
                   Declare(ANN, Category.SEQUENCES, (cs("9H 8H 7H"), cs("JD TD 9D 8D")))):
        partie.push(action)
    view = partie.view(BILL)
    assert view.announcements[1].answer == "not good"
    inf = Inference(view)
    assert inf.consistent(truth(partie, ANN))
    for world in inf.sample(random.Random(2), 200):
        assert holds(Category.SEQUENCES, world.opponent_hand.mask, "gt", 3, 7)  # better than a tierce major


def test_void_is_respected() -> None:
    partie = dealt("AH KH QH JH TH 9H 8H 7H JS TS 9S 8S", "AS KS QS AD KD QD JD TD AC KC QC JC",
                   "7S TC 9C 8C 9D 8D 7D 7C")
    partie.push(Exchange(BILL, cs("JC")))  # draws 7S, looks at TC 9C 8C 9D
    partie.push(Exchange(ANN, cs("8S")))  # draws TC
    declare_nothing(partie)
    partie.push(Play(BILL, Card.parse("AD")))
    partie.push(Play(ANN, Card.parse("7H")))  # no diamond
    view = partie.view(BILL)
    inf = Inference(view)
    assert inf.voids() == {Suit.DIAMONDS}
    assert not inf.possible_opponent().suit(Suit.DIAMONDS)
    assert inf.consistent(truth(partie, ANN))
    for world in inf.sample(random.Random(2), 200):
        assert not world.opponent_hand.suit(Suit.DIAMONDS)
        # Bill looked at TC 9C 8C 9D; Ann took one of them (the view does not keep their order),
        # and the other three stay on top of the talon.
        assert len(world.opponent_hand & cs("TC 9C 8C 9D")) == 1
        assert set(world.talon[:3]) == set(cs("TC 9C 8C 9D") - world.opponent_hand)


def test_quatorze_called_puts_the_four_in_her_hand() -> None:
    partie = dealt("JD 9S 8S 7S TH 9H 8H 7H TD 9D 8D 7D", "AS AH AD AC KS QS JS KH QH JH KD QD",
                   "TS TC 9C 8C 7C KC QC JC")
    partie.push(Exchange(BILL, cs("QD")))
    partie.push(Exchange(ANN, cs("7D")))
    for seat, category in ((BILL, Category.POINT), (ANN, Category.POINT),
                           (BILL, Category.SEQUENCES), (ANN, Category.SEQUENCES)):
        partie.push(Declare(seat, category, ()))
    partie.push(Declare(BILL, Category.SETS, (cs("AS AH AD AC"),)))
    inf = Inference(partie.view(ANN))
    aces = cs("AS AH AD AC")
    assert aces.issubset(inf.known_opponent())
    assert inf.consistent(truth(partie, BILL))
    for world in inf.sample(random.Random(3), 100):
        assert aces.issubset(world.opponent_hand)


def test_elder_call_is_held() -> None:
    """Bill's quint (length only, Rubicon) names a sequence of five he holds."""
    partie = dealt("JD 9S 8S 7S TH 9H 8H 7H TD 9D 8D 7D", "AS AH AD AC KS QS JS KH QH JH KD QD",
                   "TS TC 9C 8C 7C KC QC JC")
    partie.push(Exchange(BILL, cs("AH AD AC")))  # draws TS TC 9C
    partie.push(Exchange(ANN, cs("7D")))
    partie.push(Declare(BILL, Category.POINT, (cs("AS KS QS JS"),)))
    partie.push(Declare(ANN, Category.POINT, ()))
    partie.push(Declare(BILL, Category.SEQUENCES, (cs("KS QS JS"),)))
    inf = Inference(partie.view(ANN))
    assert inf.consistent(truth(partie, BILL))
    for world in inf.sample(random.Random(4), 200):
        hand = world.opponent_hand
        assert any(len(hand.suit(s)) >= 4 for s in Suit)
        top = best_key(Category.SEQUENCES, hand.mask)
        assert top is not None and top[0] >= 3


@pytest.mark.parametrize("taken", [1, 2])
def test_peeked_cards_drawn_by_younger(taken: int) -> None:
    partie = dealt("AH KH QH JH TH 9H 8H 7H JS TS 9S 8S", "AS KS QS AD KD QD JD TD AC KC QC JC",
                   "7S TC 9C 8C 9D 8D 7D 7C")
    partie.push(Exchange(BILL, cs("JC QC KC")))  # draws 7S TC 9C, looks at 8C 9D
    before = Inference(partie.view(BILL))
    assert not before.known_opponent()
    for world in before.sample(random.Random(5), 50):
        assert set(world.talon[:2]) == set(cs("8C 9D"))
        assert not world.opponent_hand & cs("8C 9D")
    partie.push(Exchange(ANN, CardSet(list(cs("JS TS"))[:taken])))
    inf = Inference(partie.view(BILL))
    assert inf.consistent(truth(partie, ANN))
    peeked = cs("8C 9D")
    if taken == 2:
        assert peeked.issubset(inf.known_opponent())
    seen: Counter[str] = Counter()
    for world in inf.sample(random.Random(6), 400):
        drawn = world.opponent_hand & peeked
        assert len(drawn) == taken
        seen[str(drawn)] += 1
        left = CardSet(world.talon) & peeked
        assert set(world.talon[: len(left)]) == set(left)
    if taken == 1:
        assert set(seen) == {"8C", "9D"}


def _brute_force_worlds(inf: Inference) -> set[tuple[int, int]]:
    """Every (hand, discards) meeting the hard constraints, by enumeration."""
    unseen = list(inf.unseen())
    n_h = inf.hand_size - len(inf.known_opponent())
    n_d = inf.n_d
    found: set[tuple[int, int]] = set()
    for chosen in combinations(unseen, n_h):
        h = CardSet(chosen) | inf.known_opponent()
        left = [c for c in unseen if c not in h]
        for dis in combinations(left, n_d):
            d = CardSet(dis) | CardSet(inf.fixed_d)
            t = (CardSet(left) - d) | CardSet(inf.fixed_t)
            talon = tuple(c for c in t if c in inf.view.peeked) + tuple(c for c in t if c not in inf.view.peeked)
            if inf.consistent(World(h, d, talon)):
                found.add((h.mask, d.mask))
    return found


def _chi_square(counts: Counter[tuple[int, int]], cells: set[tuple[int, int]], total: int) -> float:
    expected = total / len(cells)
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in cells)


def test_sampling_is_uniform_over_a_small_set() -> None:
    rng = random.Random(11)
    tested = 0
    for seed in range(40):
        agents = (RandomAgent(random.Random(seed)), RandomAgent(random.Random(seed + 1)))
        partie = drive(Seeded(seed, players=agents), partie=Partie(("A", "B"), "rubicon", first_dealer=seed % 2),
                       until=lambda p: p.phase is Phase.PLAY and len(p.view(0).tricks) >= 9)
        seat = partie.to_act
        assert seat is not None
        inf = Inference(partie.view(seat))
        cells = _brute_force_worlds(inf)
        if not 4 <= len(cells) <= 80:
            continue
        assert (truth(partie, 1 - seat).opponent_hand.mask, truth(partie, 1 - seat).opponent_discards.mask) in cells
        total = 200 * len(cells)
        counts = Counter((w.opponent_hand.mask, w.opponent_discards.mask) for w in inf.sample(rng, total))
        assert set(counts) <= cells
        dof = len(cells) - 1
        # Mean dof, sd sqrt(2 dof): allow a generous six standard deviations.
        assert _chi_square(counts, cells, total) < dof + 6 * (2 * dof) ** 0.5
        tested += 1
        if tested >= 3:
            break
    assert tested >= 1


@pytest.mark.slow  # statistical: marginals of many draws
def test_karp_luby_proposal_matches_rejection() -> None:
    """The proposal for a rare declaration gives the same marginals as plain rejection."""
    partie = dealt("AH KH QH JH TH 9H 8H 7H QC JC JD TD", "AS KS QS JS TS 9S AD KD QD AC KC 7D",
                   "8S 7S TC 9C 9D 8D 8C 7C")
    partie.push(Exchange(BILL, cs("7D")))  # draws 8S
    partie.push(Exchange(ANN, cs("QC")))  # draws 7S
    partie.push(Declare(BILL, Category.POINT, (cs("AS KS QS JS TS 9S"),)))
    partie.push(Declare(ANN, Category.POINT, (cs("AH KH QH JH TH 9H 8H 7H"),)))  # eight: not good
    view = partie.view(BILL)
    rng = random.Random(7)
    smart = Inference(view)
    worlds = smart.sample(rng, 4000)
    assert smart._strategy not in (None, False), "expected the Karp-Luby proposal for a rare point"
    plain = Inference(view)
    plain._strategy = None
    reference = plain.sample(rng, 4000, max_tries=2_000_000)
    assert len(worlds) == len(reference) == 4000
    for c in smart.unseen():
        a = sum(c in w.opponent_hand for w in worlds) / 4000
        b = sum(c in w.opponent_hand for w in reference) / 4000
        assert abs(a - b) < 0.06, (str(c), a, b)
    for w in worlds:
        assert any(len(w.opponent_hand.suit(s)) >= 7 for s in Suit)


# ---------------------------------------------------------------- her exchange as evidence
def _after_simple_exchange(seed: int) -> Partie:
    """A deal where both players exchanged and declared as the books advise, at elder's first lead."""
    partie = Partie(("Ann", "Bill"), first_dealer=0)
    partie.push(partie.random_deal(random.Random(seed), packets=3))
    agents = [SimpleAgent(random.Random(1)), SimpleAgent(random.Random(2))]
    while partie.phase is not Phase.PLAY:
        seat = partie.to_act
        assert seat is not None
        partie.push(agents[seat].choose(partie.view(seat), partie.legal_actions(seat)))
    return partie


def test_discard_model_finds_the_books_discards_likelier_than_a_random_throw() -> None:
    from piquet.ai.books import keep_values

    better = 0
    for seed in range(12):
        partie = _after_simple_exchange(seed)
        view = partie.view(ANN)  # younger, who cannot see elder's five discards
        inf = Inference(view)
        real = truth(partie, BILL)
        assert inf.discard_log_likelihood(real) < 0
        # The same world with his discards swapped for as many of his best kept cards.
        values = keep_values(real.opponent_hand | real.opponent_discards)
        best = sorted(real.opponent_hand, key=lambda c: -values[c])[: len(real.opponent_discards)]
        swapped = World(real.opponent_hand - CardSet(best) | real.opponent_discards, CardSet(best), real.talon)
        better += inf.discard_log_likelihood(real) > inf.discard_log_likelihood(swapped)
        assert inf.discard_log_likelihood(real, beta=0) == 0
    assert better == 12


def test_resampled_worlds_are_consistent_and_favour_the_likely_discards() -> None:
    from piquet.ai.books import keep_values

    def cost(world: World) -> float:
        values = keep_values(world.opponent_hand | world.opponent_discards)
        return sum(values[c] for c in world.opponent_discards)

    modelled = uniform = 0.0
    for seed in range(12):
        partie = _after_simple_exchange(seed)
        inf = Inference(partie.view(ANN))
        resampled = inf.resample(random.Random(seed), 40)
        assert len(resampled) == 40
        assert all(inf.consistent(w) and w.weight == 1 for w in resampled)
        modelled += sum(map(cost, resampled))
        uniform += sum(map(cost, inf.resample(random.Random(seed), 40, beta=0)))
    # Elder's thrown cards are worth less to keep in the resampled worlds than in uniform ones.
    assert modelled < 0.95 * uniform


def test_resample_before_any_exchange_is_plain_sampling() -> None:
    partie = Partie(("Ann", "Bill"), first_dealer=0)
    partie.push(partie.random_deal(random.Random(3), packets=3))
    inf = Inference(partie.view(ANN))
    worlds = inf.resample(random.Random(1), 10)
    assert len(worlds) == 10
    assert all(inf.consistent(w) and inf.discard_log_likelihood(w) == 0 for w in worlds)
