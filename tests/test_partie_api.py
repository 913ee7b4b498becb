"""The partie's interface as PokerKit's operations have it: ``push`` returns what the action scored;
``why_not`` says why an action is illegal without raising; ``can`` and ``in`` agree with it."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest
from helpers import agents

from piquet.engine.actions import Bid, Declare, Play
from piquet.engine.partie import IllegalActionError, Partie, Phase
from piquet.engine.scoring import ScoreEvent


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_push_returns_every_point_each_action_scored_and_they_add_up_to_the_deal(variant: str) -> None:
    rng = random.Random(7)
    ag = agents(7)
    p = Partie(("Ann", "Bill"), variant, first_dealer=0)
    for _ in range(3):
        p.push(p.random_deal(rng))
        scored: list[ScoreEvent] = []
        deals = len(p.deal_scores)
        while len(p.deal_scores) == deals:
            seat = p.to_act
            assert seat is not None
            scored += p.push(ag[seat].choose(p.view(seat), p.legal_actions(seat)))
        d = p.deal_scores[-1]
        for seat in (0, 1):
            assert sum(e.points for e in scored if e.player == seat) == d.totals[seat]
        assert sorted(map(repr, scored)) == sorted(map(repr, p.events))


def test_why_not_says_why_without_raising_and_verify_raises_the_same_reason() -> None:
    p = Partie(("Ann", "Bill"), first_dealer=0)
    p.push(p.random_deal(random.Random(3)))
    card = p.hand(1).cards()[0]
    reason = p.why_not(Play(1, card))
    assert reason == "it is the exchange, not the play" and not p.can(Play(1, card))
    with pytest.raises(IllegalActionError) as e:
        p.push(Play(1, card))
    assert e.value.reason == reason and p.phase is Phase.EXCHANGE
    for action in p.legal_actions().list()[:50]:
        assert p.why_not(action) is None and action in p.legal_actions()


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_the_listed_legal_actions_are_those_generated_one_by_one_and_each_is_legal(variant: str) -> None:
    """``LegalActions.list`` has its own quick listings of the play and the declarations; they must list
    exactly what iterating the legal actions generates, in the same order (seeded agents rely on it),
    for the player to act and for the other, and ``push`` must take each without a complaint."""
    rng = random.Random(11)
    ag = agents(11)
    p = Partie(("Ann", "Bill"), variant, first_dealer=0)
    compared = {Phase.PLAY: 0, Phase.DECLARE: 0}
    for _ in range(4):
        if p.is_over:
            break
        p.push(p.random_deal(rng))
        deals = len(p.deal_scores)
        while len(p.deal_scores) == deals and not p.is_over:
            seat = p.to_act
            assert seat is not None
            for who in (seat, 1 - seat):
                listed = p.legal_actions(who).list()
                assert listed == list(iter(p.legal_actions(who)))
                if who == seat and p.phase in compared:
                    compared[p.phase] += 1
                    assert listed and all(p.why_not(action) is None for action in listed)
                if who == seat and p.phase is Phase.BID:
                    calls = ["pass", "double", "redouble", *(f"{n}{sign}" for n in range(7, 13) for sign in "+-")]
                    assert listed == [bid for bid in (Bid(seat, call) for call in calls) if p.why_not(bid) is None]
                    compared[Phase.BID] = compared.get(Phase.BID, 0) + 1
                if who == seat and p.phase is Phase.PLAY:
                    # Law 58: follow suit if able; the cards in the order of a hand.
                    hand = p.view(seat).hand
                    led = p.trick[0].suit if p.trick else None
                    follow = [c for c in hand if c.suit == led] or list(hand)
                    assert [a.card for a in listed if isinstance(a, Play)] == follow
            if p.phase in compared:
                for action in p.legal_actions(seat).list():
                    p.push(action)
                    p.pop()
            p.push(ag[seat].choose(p.view(seat), p.legal_actions(seat)))
    assert compared[Phase.PLAY] >= 24 and compared[Phase.DECLARE] >= 6
    assert compared.get(Phase.BID, 0) >= (4 if variant == "auction" else 0)


def _at_the_first_point(seed: int) -> Partie:
    """A partie at elder's call of his point (the exchanges made at random)."""
    p = Partie(("Ann", "Bill"), first_dealer=0)
    p.push(p.random_deal(random.Random(seed)))
    ag = agents(seed)
    while p.phase is not Phase.DECLARE:
        seat = p.to_act
        assert seat is not None
        p.push(ag[seat].choose(p.view(seat), p.legal_actions(seat)))
    return p


@pytest.mark.parametrize("seed", range(6))
def test_the_legal_actions_index_count_and_slice_as_their_list_does(seed: int) -> None:
    # The points are made one by one as they are indexed: what indexing gives is what the list holds.
    p = _at_the_first_point(seed)
    listed = p.legal_actions().list()
    legal = p.legal_actions()
    assert len(legal) == len(listed) and bool(legal)
    assert [legal[i] for i in range(len(legal))] == listed
    assert [legal[-i] for i in range(1, len(legal) + 1)] == listed[::-1]
    assert legal[1:4] == listed[1:4] and list(legal) == listed
    assert legal == p.legal_actions() and legal.index(listed[-1]) == len(listed) - 1
    with pytest.raises(IndexError):
        legal[len(listed)]
    with pytest.raises(IndexError):
        legal[-len(listed) - 1]
    played = p.legal_actions()
    played.list()
    assert played != p.copy().legal_actions()  # another partie's listing


def test_an_action_taken_from_an_earlier_listing_is_checked_again_when_pushed() -> None:
    # push trusts an action indexed from a listing of the position it is in, and only that.
    p = _at_the_first_point(1)
    legal = p.legal_actions()
    stale = legal[len(legal) - 1]
    assert isinstance(stale, Declare) and stale.combinations  # elder calls a point
    p.push(legal[0])  # elder sinks his point instead: younger answers now
    with pytest.raises(IllegalActionError) as e:
        p.push(stale)
    assert "Ann" in str(e.value) and e.value.reason
    assert p.phase is Phase.DECLARE and p.to_act == 0 and len(p.actions) == 4
    p.pop()
    p.push(stale)  # back in the position it was listed in, it is legal again
    assert p.actions[-1] is stale


def _in_the_play(seed: int, variant: str = "rubicon") -> Partie:
    """A partie at the second trick of its first deal, played by random agents."""
    rng = random.Random(seed)
    ag = agents(seed)
    p = Partie(("Ann", "Bill"), variant, first_dealer=0)
    p.push(p.random_deal(rng))
    while not (p.phase is Phase.PLAY and p.tricks_won != (0, 0)):
        seat = p.to_act
        assert seat is not None
        p.push(ag[seat].choose(p.view(seat), p.legal_actions(seat)))
    return p


def test_a_card_taken_from_a_listing_made_before_the_last_card_is_checked_again() -> None:
    # A card played changes the partie's present state in place (Partie.push): a listing made before it
    # must not be trusted after it, though the state is the same object.
    p = _in_the_play(3)
    leader = p.to_act
    assert leader is not None
    legal = p.legal_actions()
    p.push(legal[0])
    stale = legal[len(legal) - 1]  # indexed after the card: the listing is of the position before it
    with pytest.raises(IllegalActionError) as e:
        p.push(stale)  # the leader's other card: it is the follower's turn now
    assert p.players[leader] in str(e.value)
    assert p.to_act == 1 - leader and len(p.trick) == 1
    p.pop()
    p.push(stale)
    assert p.actions[-1] is stale


def _inside(p: Partie) -> tuple[dict[str, object], dict[str, object]]:
    """Everything the partie holds of its position, field by field: the state and the deal's record."""
    state = {f.name: getattr(p._s, f.name) for f in fields(p._s)}
    deal = state.pop("deal")
    return state, {f.name: getattr(deal, f.name) for f in fields(deal)}


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
@pytest.mark.parametrize("seed", range(3))
def test_pop_puts_back_every_field_of_the_position_a_card_or_any_action_changed(variant: str, seed: int) -> None:
    # Make/unmake as python-chess has it: each action taken back leaves the partie exactly as it was
    # before it, though a card played is applied in place and taken back from what it changed.
    rng = random.Random(seed)
    ag = agents(seed)
    p = Partie(("Ann", "Bill"), variant)
    positions = []
    while not p.is_over:
        positions.append(_inside(p))
        phase = p.phase
        if phase is Phase.CUT:
            p.push(p.random_cut(rng))
        elif phase is Phase.DEAL:
            p.push(p.random_deal(rng))
        else:
            seat = p.to_act
            assert seat is not None
            p.push(ag[seat].choose(p.view(seat), p.legal_actions(seat)))
        if rng.random() < 0.2:  # taken back and played again now and then, as a search does
            action = p.pop()
            assert _inside(p) == positions[-1]
            p.push(action)
    actions = p.actions
    for back in range(len(actions) - 1, -1, -1):
        assert p.pop() == actions[back]
        assert _inside(p) == positions[back]


def test_a_copy_played_on_and_taken_back_leaves_the_original_as_it_was() -> None:
    p = _in_the_play(5)
    before = _inside(p)
    views = [p.view(seat) for seat in (0, 1)]
    q = p.copy()
    for partie in (q, p, q):
        seat = partie.to_act
        assert seat is not None
        partie.push(partie.legal_actions()[0])
    assert len(q.actions) == len(p.actions) + 1
    q.pop()
    q.pop()
    assert _inside(q) == before
    p.pop()
    assert _inside(p) == before
    # Views made before any of it still say what they said.
    assert [v.trick for v in views] == [p.trick, p.trick] and views[0].hand == p.hand(0)


def test_a_listing_is_of_its_position_and_serves_again_once_the_partie_is_taken_back_there() -> None:
    # A listing is made when first used, from the partie's present position: used in another, it would list that
    # one's actions as this one's; it says so instead. Back in its position (a search pushes and pops), it serves.
    p = _at_the_first_point(2)
    legal = p.legal_actions()
    p.push(p.legal_actions()[0])
    with pytest.raises(ValueError, match="a position the partie has left"):
        len(legal)
    with pytest.raises(ValueError, match="a position the partie has left"):
        legal[0] in legal  # noqa: B015
    p.pop()
    assert len(legal) == len(p.legal_actions().list()) and legal[0] in legal
    p.push(legal[0])
    p.pop()
    p.push(legal[len(legal) - 1])  # another action from the same position: a position numbered anew
    stale = p.legal_actions()
    p.pop()
    p.push(legal[0])
    with pytest.raises(ValueError, match="a position the partie has left"):
        stale.list()
