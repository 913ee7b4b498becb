"""The simple computer player: always legal and sensible in constructed positions.

How long it takes to decide is measured by ``benchmarks/decisions.py``, never asserted here.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from drivers import Checked

from piquet.ai.agent import Agent, RandomAgent, play_partie
from piquet.ai.books import SimpleAgent
from piquet.engine.actions import Action, CarteBlanche, ChooseDealer, Deal, Declare, Exchange, Play
from piquet.engine.cards import CARDS, Card, CardSet
from piquet.engine.combinations import Category
from piquet.engine.partie import DECLARATION_ORDER, Partie, Phase


def deal(dealer: int, elder_hand: str, younger_hand: str, talon: str = "") -> tuple[Partie, Deal]:
    """A partie at the start of a deal with chosen hands; the talon is the rest of the pack
    (``talon`` gives its top cards in order)."""
    elder = 1 - dealer
    hands = [CardSet(), CardSet()]
    hands[elder] = CardSet.parse(elder_hand)
    hands[dealer] = CardSet.parse(younger_hand)
    top = [Card.parse(t) for t in talon.split()]
    used = hands[0] | hands[1] | CardSet(top)
    rest = [c for c in CARDS if c not in used]
    action = Deal(dealer, (hands[0], hands[1]), tuple(top + rest), packets=3)
    partie = Partie(("North", "South"), first_dealer=dealer)
    return partie, action


def agent_choice(partie: Partie, seat: int | None = None) -> Action:
    seat = partie.to_act if seat is None else seat
    assert seat is not None
    legal = partie.legal_actions(seat)
    action = SimpleAgent().choose(partie.view(seat), legal)
    assert action in legal
    return action


def declare_nothing(partie: Partie) -> None:
    for _ in DECLARATION_ORDER:
        seat = partie.to_act
        assert seat is not None and partie.phase is Phase.DECLARE
        category = next(iter(partie.legal_actions(seat)))
        assert isinstance(category, Declare)
        partie.push(Declare(seat, category.category, ()))


@pytest.mark.parametrize("opponent", ["random", "simple"])
def test_never_illegal(opponent: str) -> None:
    deals = 0
    for game in range(5):
        rng = random.Random(1000 + game)
        simple = Checked(SimpleAgent(random.Random(game)))
        other = Checked(RandomAgent(random.Random(game)) if opponent == "random" else SimpleAgent())
        agents: Sequence[Agent] = (simple, other) if game % 2 else (other, simple)
        partie = play_partie(agents, rng)
        assert partie.is_over
        deals += len(partie.deal_scores)
    assert deals >= 30


def test_beats_random_agent() -> None:
    diff = deals = 0
    for game in range(7):
        simple_seat = game % 2
        agents: list[Agent] = [RandomAgent(random.Random(game)), RandomAgent(random.Random(game))]
        agents[simple_seat] = SimpleAgent()
        partie = play_partie(agents, random.Random(50 + game))
        for score in partie.deal_scores:
            diff += score.totals[simple_seat] - score.totals[1 - simple_seat]
            deals += 1
    assert deals >= 40
    assert diff / deals > 0


def test_chooses_to_deal_and_packets_of_three() -> None:
    partie = Partie(("North", "South"))
    partie.push(partie.random_cut(random.Random(2)))
    while partie.phase is Phase.CUT:
        partie.push(partie.random_cut(random.Random(len(partie.actions))))
    seat = partie.to_act
    assert seat is not None
    assert agent_choice(partie) == ChooseDealer(seat, seat)
    assert SimpleAgent().choose_packets(partie.view(seat), (2, 3)) == 3


def test_elder_exchanges_five_and_keeps_a_six_card_suit() -> None:
    partie, action = deal(0, "QS JS TS 9S 8S 7S 8H 7H 9D 8D 9C 7C", "AS KS AH KH QH JH AD KD QD AC KC QC")
    partie.push(action)
    exchange = agent_choice(partie)
    assert isinstance(exchange, Exchange)
    assert len(exchange.discards) == 5
    assert not exchange.discards & CardSet.parse("QS JS TS 9S 8S 7S")


def test_elder_keeps_aces_and_sets() -> None:
    partie, action = deal(0, "AS KS 9S 7S KH 9H 8H KD 9D AC 8C 7C", "QS JS TS 8S AH QH JH AD QD JD KC QC")
    partie.push(action)
    exchange = agent_choice(partie)
    assert isinstance(exchange, Exchange)
    assert len(exchange.discards) == 5
    kept = partie.view(1).hand - exchange.discards
    # The longest suit whole, the other ace, and the three kings.
    assert kept == CardSet.parse("AS KS 9S 7S KH KD AC")


def test_younger_takes_all_that_remain_and_keeps_a_guard() -> None:
    partie, action = deal(0, "AS KS QS JS TS AH KH QH AD KD QD AC", "9S 8S 7S JH TH 9H KC 7C 9D 8D 7D JC")
    partie.push(action)
    partie.push(Exchange(1, CardSet.parse("AS KS QS JS TS")))
    exchange = agent_choice(partie)
    assert isinstance(exchange, Exchange)
    assert len(exchange.discards) == 3
    assert Card.parse("KC") not in exchange.discards


def test_carte_blanche_is_announced() -> None:
    partie, action = deal(0, "AS TS 9S 8S AH TH 9H AD TD 9D AC TC", "KS QS JS KH QH JH KD QD JD KC QC JC")
    partie.push(action)
    assert partie.phase is Phase.CARTE_BLANCHE
    assert agent_choice(partie) == CarteBlanche(1, True, 5)


def test_younger_discards_first_after_elders_carte_blanche() -> None:
    partie, action = deal(0, "AS TS 9S 8S AH TH 9H AD TD 9D AC TC", "KS QS JS KH QH JH KD QD JD KC QC JC")
    partie.push(action)
    partie.push(agent_choice(partie))
    assert partie.phase is Phase.EXCHANGE and partie.to_act == 0
    exchange = agent_choice(partie)
    assert isinstance(exchange, Exchange) and len(exchange.discards) == 3


def test_declares_its_best_in_full() -> None:
    partie, action = deal(0, "AS KS QS JS 9S AH KH QH AD KD TC 9C", "TS 8S 7S JH TH 9H QD JD TD AC KC QC",
                          talon="8H 7H 9D 8D 7D JC 8C 7C")
    partie.push(action)
    partie.push(Exchange(1, CardSet.parse("TC 9C")))
    partie.push(Exchange(0, CardSet.parse("7S")))
    point = agent_choice(partie)
    assert point == Declare(1, Category.POINT, (CardSet.parse("AS KS QS JS 9S"),))
    partie.push(point)
    partie.push(agent_choice(partie))  # younger answers
    sequences = agent_choice(partie)
    assert sequences == Declare(
        1, Category.SEQUENCES, (CardSet.parse("AS KS QS JS"), CardSet.parse("AH KH QH"))
    )
    partie.push(sequences)
    partie.push(agent_choice(partie))
    sets = agent_choice(partie)
    assert isinstance(sets, Declare) and sets.combinations[:2] == (
        CardSet.parse("AS AH AD"), CardSet.parse("KS KH KD"))


def test_follows_with_the_cheapest_winner_or_lowest_card() -> None:
    partie, action = deal(0, "9S 8S AH KH QH AD KD QD AC KC QC JC", "KS JS TS 7S JH TH 9H JD TD 9D TC 9C",
                          talon="AS QS 8H 7H 8D 7D 8C 7C")
    partie.push(action)
    partie.push(Exchange(1, CardSet.parse("JC")))
    partie.push(Exchange(0, CardSet.parse("9C")))
    declare_nothing(partie)
    partie.push(Play(1, Card.parse("9S")))
    assert agent_choice(partie) == Play(0, Card.parse("TS"))
    partie.push(Play(0, Card.parse("JS")))  # South wins and leads
    partie.push(Play(0, Card.parse("7S")))
    assert agent_choice(partie) == Play(1, Card.parse("8S"))  # the cheapest winner
    partie.push(Play(1, Card.parse("8S")))
    # North leads the ace of hearts: South follows with her lowest heart.
    partie.push(Play(1, Card.parse("AH")))
    assert agent_choice(partie) == Play(0, Card.parse("9H"))


def test_leads_a_sure_winner_from_the_longest_suit() -> None:
    partie, action = deal(0, "AS KS QS JS TS AH 9H 8H 7H KD 9C 8C", "9S 8S 7S KH QH JH AD QD JD AC KC QC")
    partie.push(action)
    partie.push(Exchange(1, CardSet.parse("8C")))
    partie.push(Exchange(0, CardSet.parse("7S")))
    declare_nothing(partie)
    assert agent_choice(partie) == Play(1, Card.parse("AS"))
