"""The simple computer player in Auction Piquet and Piquet au Cent: always legal,
bidding sensibly and trying to lose tricks in minus contracts."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from drivers import Checked, Seeded, drive

from piquet.ai.agent import Agent, RandomAgent, play_partie
from piquet.ai.books import SimpleAgent, minus_tricks, plus_tricks
from piquet.engine.actions import Action, Bid, Deal, Declare, Exchange, Play
from piquet.engine.cards import CARDS, Card, CardSet, Rank
from piquet.engine.partie import LegalActions, Partie, Phase
from piquet.engine.view import PlayerView


def auction_deal(dealer: int, first_hand: str, second_hand: str, talon: str = "") -> Partie:
    """An Auction partie dealt with chosen hands: ``first_hand`` to the non-dealer, who bids first."""
    hands = [CardSet(), CardSet()]
    hands[1 - dealer] = CardSet.parse(first_hand)
    hands[dealer] = CardSet.parse(second_hand)
    top = [Card.parse(t) for t in talon.split()]
    used = hands[0] | hands[1] | CardSet(top)
    rest = [c for c in CARDS if c not in used]
    partie = Partie(("North", "South"), "auction", first_dealer=dealer)
    partie.push(Deal(dealer, (hands[0], hands[1]), tuple(top + rest), packets=3))
    return partie


def choice(partie: Partie) -> Action:
    seat = partie.to_act
    assert seat is not None
    legal = partie.legal_actions(seat)
    action = SimpleAgent().choose(partie.view(seat), legal)
    assert action in legal
    return action


@pytest.mark.parametrize("variant", ["auction", "au-cent"])
@pytest.mark.parametrize("opponent", ["random", "simple"])
def test_never_illegal(variant: str, opponent: str) -> None:
    deals = game = 0
    while deals < 20:
        rng = random.Random(2000 + game)
        simple = Checked(SimpleAgent(random.Random(game)))
        other = Checked(RandomAgent(random.Random(game)) if opponent == "random" else SimpleAgent())
        agents: Sequence[Agent] = (simple, other) if game % 2 else (other, simple)
        partie = play_partie(agents, rng, variant=variant)
        assert partie.is_over and partie.result is not None
        deals += sum(1 for d in partie.deal_scores if not d.annulled)
        game += 1
    assert deals >= 20


class Bids:
    """Records every call the simple agent makes, and the calls legal at that moment."""

    def __init__(self) -> None:
        self.agent = SimpleAgent()
        self.calls: list[str] = []

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        action = self.agent.choose(view, legal)
        if view.phase is Phase.BID:
            assert isinstance(action, Bid) and action in legal
            self.calls.append(action.call)
        return action

    def choose_packets(self, view: PlayerView, sizes: tuple[int, ...]) -> int:
        return self.agent.choose_packets(view, sizes)


def test_bids_are_legal_and_varied() -> None:
    bids = Bids()
    for game in range(4):
        agents: list[Agent] = [RandomAgent(random.Random(game)), bids]
        if game % 2:
            agents.reverse()
        play_partie(agents, random.Random(300 + game), variant="auction")
    calls = set(bids.calls)
    assert "pass" in calls
    assert any(c.endswith("+") for c in calls) and any(c.endswith("-") for c in calls)
    assert "double" in calls


def _tricks_lost_as_minus_holder(agent_kind: str, deals: int) -> float:
    """Deals in which South (the non-dealer) holds 7- against a random opponent; the mean
    number of tricks South loses."""
    lost = 0
    for i in range(deals):
        rng = random.Random(900 + i)
        partie = Partie(("North", "South"), "auction", first_dealer=0)
        partie.push(partie.random_deal(rng, 3))
        partie.push(Bid(1, "7-"))
        partie.push(Bid(0, "pass"))
        holder: Agent = SimpleAgent() if agent_kind == "simple" else RandomAgent(random.Random(i))
        drive(Seeded(900 + i, players=(RandomAgent(random.Random(i + 1)), holder)), partie=partie, max_deals=1)
        lost += partie.deal_scores[-1].tricks[0]
    return lost / deals


@pytest.mark.slow
def test_loses_more_tricks_in_minus_contracts_than_random() -> None:
    simple = _tricks_lost_as_minus_holder("simple", 40)
    random_ = _tricks_lost_as_minus_holder("random", 40)
    assert simple > random_ + 1.5, (simple, random_)
    assert simple >= 7


def test_strong_plus_hand_bids_plus() -> None:
    partie = auction_deal(0, "AS KS QS JS TS AH KH QH AD KD AC 7C", "9S 8S 7S JH TH 9H QD JD TD KC QC JC")
    bid = choice(partie)
    assert isinstance(bid, Bid) and bid.call.endswith("+") and bid.tricks is not None
    assert plus_tricks(partie.view(1).hand) > minus_tricks(partie.view(1).hand)


def test_low_hand_bids_minus_and_weak_hand_passes() -> None:
    partie = auction_deal(0, "7S 8S 9S 7H 8H 9H 7D 8D 9D 7C 8C TC", "TS JS QS TH JH KH TD JD QD JC QC KC")
    bid = choice(partie)
    assert isinstance(bid, Bid) and bid.call == "7-"
    # The dealer, with middling cards and no ace, passes.
    partie.push(bid)
    answer = choice(partie)
    assert isinstance(answer, Bid) and answer.call == "pass"


def test_raises_only_with_a_better_estimate() -> None:
    partie = auction_deal(0, "7S 8S 9S 7H 8H 9H 7D 8D 9D 7C 8C TC", "AS KS QS JS TS AH KH QH AD KD AC KC")
    partie.push(Bid(1, "7-"))
    answer = choice(partie)
    assert isinstance(answer, Bid) and answer.call == "8+"


def test_doubles_a_bid_clearly_beyond_what_remains() -> None:
    partie = auction_deal(0, "7S 8S 9S 7H 8H 9H 7D 8D TD 7C 8C 9C", "AS KS QS JS TS AH KH QH AD KD AC KC")
    partie.push(Bid(1, "12+"))
    answer = choice(partie)
    assert answer == Bid(0, "double")


def _minus_partie() -> Partie:
    # South (non-dealer) bids 8-; North passes: South is elder in a minus contract.
    partie = auction_deal(0, "AS 7S 8S 7H 8H 9H AD 7D 8D KC 7C 8C", "KS QS JS TS AH KH QH JH KD QD JD AC",
                          talon="9S 9D 9C TH TC QC JC TD")
    partie.push(Bid(1, "8-"))
    partie.push(Bid(0, "pass"))
    return partie


def test_minus_exchange_throws_the_high_cards() -> None:
    partie = _minus_partie()
    exchange = choice(partie)
    assert isinstance(exchange, Exchange)
    # The aces go; the king of clubs, guarded by the seven and eight, stays.
    assert exchange.discards == CardSet.parse("AS AD")


def test_minus_declaration_is_the_full_one_and_play_ducks() -> None:
    partie = _minus_partie()
    partie.push(Exchange(1, CardSet.parse("AS AD KC")))  # draws 9S 9D 9C
    partie.push(Exchange(0, CardSet()))
    while partie.phase is Phase.DECLARE:
        action = choice(partie)
        assert isinstance(action, Declare)
        assert list(partie.legal_actions()) == [action]
        partie.push(action)
    assert partie.phase is Phase.PLAY and partie.to_act == 1
    lead = choice(partie)
    # The lowest card the opponent can beat.
    assert isinstance(lead, Play) and lead.card.rank == Rank.SEVEN
    partie.push(Play(1, Card.parse("7H")))
    # North follows with the highest heart under the seven? None: he must win, and wins with the ace.
    assert choice(partie) == Play(0, Card.parse("AH"))
    partie.push(Play(0, Card.parse("AH")))
    partie.push(Play(0, Card.parse("KS")))
    # South ducks under the king with her highest spade below it.
    assert choice(partie) == Play(1, Card.parse("9S"))
