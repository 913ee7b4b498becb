"""The books' heuristics and :class:`SimpleAgent`, the simple computer player (level 2).

It follows the plain advice of the rule books (keep the longest suit, aces, sets and sequences;
declare in full; lead from the longest suit; win as cheaply as possible), bids in Auction Piquet by
counting likely tricks, and tries to lose them in a minus contract. The other players build on
these heuristics (:func:`keep_values`, :func:`discard_choice`, :func:`choose_bid`).

>>> import random
>>> from piquet.ai.agent import play_partie
>>> partie = play_partie([SimpleAgent(), SimpleAgent()], random.Random(5))
>>> partie.is_over
True
"""

from __future__ import annotations

import random

from piquet.engine.actions import Action, Bid, CarteBlanche, ChooseDealer, Concede, Declare, Exchange, Play
from piquet.engine.cards import FULL_PACK, Card, CardSet, Rank, Suit
from piquet.engine.combinations import Category, maximal, pips
from piquet.engine.partie import LegalActions, Phase
from piquet.engine.view import PlayerView

__all__ = [
    "SimpleAgent",
    "choose_bid",
    "choose_card",
    "discard_choice",
    "keep_values",
    "minus_discards",
    "minus_tricks",
    "plus_tricks",
]

def _suit_strength(cards: CardSet) -> tuple[int, int, int]:
    """How good a suit is to keep and to play: length, pips, then its top cards."""
    top = sum(1 << c.rank for c in cards)
    return len(cards), pips(cards), top


def _runs(cards: CardSet) -> list[CardSet]:
    """Runs of two or more consecutive cards within one suit's cards."""
    out: list[CardSet] = []
    run: list[Card] = []
    for card in sorted(cards, key=lambda c: c.rank):
        if run and card.rank == run[-1].rank + 1:
            run.append(card)
        else:
            if len(run) >= 2:
                out.append(CardSet(run))
            run = [card]
    if len(run) >= 2:
        out.append(CardSet(run))
    return out


def keep_values(hand: CardSet, younger: bool = False) -> dict[Card, float]:
    """How much each card of the hand is worth keeping in the exchange (higher: keep).

    The longest suit (ties: the better pips and top cards) is kept whole; aces,
    sets and likely sets of tens and up, sequences and near-sequences score
    next; younger keeps guards (Kx, Qxx); the rest is worth its rank, less if
    its suit is short.

    >>> values = keep_values(CardSet.parse("AS KS QS JS 7S AH 8H 9D 7D TC JC 8C"))
    >>> min(values, key=values.__getitem__) in CardSet.parse("9D 7D 8H 8C")
    True
    """
    by_suit = {s: hand.suit(s) for s in Suit}
    longest = max(Suit, key=lambda s: _suit_strength(by_suit[s]))
    values: dict[Card, float] = {}
    for card in hand:
        values[card] = card.rank / 4 + len(by_suit[card.suit]) / 2
    for card in by_suit[longest]:
        values[card] += 10
    for card in hand.rank(Rank.ACE):
        values[card] += 6
    for rank in (Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN):
        held = hand.rank(rank)
        bonus = {4: 9, 3: 6, 2: 1.5}.get(len(held), 0)
        for card in held:
            values[card] += bonus
    for suit in Suit:
        for run in _runs(by_suit[suit]):
            top = max(c.rank for c in run)
            bonus = (5 if top >= Rank.TEN else 3) if len(run) >= 3 else 1
            for card in run:
                values[card] += bonus
    if younger:
        # A guard: the king with one small card, the queen with two (the small ones are the lowest).
        for suit in Suit:
            cards = sorted(by_suit[suit], key=lambda c: c.rank)
            for rank, needed, bonus in ((Rank.KING, 1, 5), (Rank.QUEEN, 2, 4)):
                guard = Card.of(rank, suit)
                others = [c for c in cards if c != guard]
                if guard in cards and len(others) >= needed:
                    values[guard] += bonus
                    for card in others[:needed]:
                        values[card] += bonus - 1
    return values


def discard_choice(hand: CardSet, count: int, younger: bool = False) -> CardSet:
    """The ``count`` cards least worth keeping, thrown one at a time so that a card
    kept only for a combination its fellows were thrown from goes next.

    >>> str(discard_choice(CardSet.parse("AS QS 9S 8S KH 9H 8H KD 9D KC QC JC"), 5))
    '9H 8H 9D QC JC'
    """
    left = hand
    thrown: list[Card] = []
    for _ in range(count):
        values = keep_values(left, younger)
        card = min(left, key=lambda c: (values[c], c.rank))
        thrown.append(card)
        left = left - CardSet([card])
    return CardSet(thrown)



def legal_or(wanted: Action | None, legal: LegalActions) -> Action:
    """``wanted`` if it is legal, else the first legal action that is not a concession (the computer
    players never concede: a player who cannot save his rubicon loses no more by playing on)."""
    if wanted is not None and wanted in legal:
        return wanted
    for action in legal:
        if not isinstance(action, Concede):
            return action
    return next(iter(legal))

class SimpleAgent:
    """The project's simple computer player (see the module docstring).

    It is deterministic: ``rng`` is kept for agents that want to vary their
    play, but the present rules need no chance.
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    # ------------------------------------------------------------ protocol
    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        seat = view.seat
        assert seat is not None, "SimpleAgent plays a seat, not a spectator's view"
        wanted: Action | None = None
        if view.phase is Phase.CHOOSE_DEALER:
            wanted = ChooseDealer(seat, seat)
        elif view.phase is Phase.BID:
            wanted = choose_bid(view, legal)
        elif view.phase is Phase.CARTE_BLANCHE:
            wanted = self._carte_blanche(view, legal)
        elif view.phase is Phase.EXCHANGE:
            wanted = self._exchange(view, legal)
        elif view.phase is Phase.DECLARE:
            wanted = self._declare(view, legal)
        elif view.phase is Phase.PLAY:
            wanted = self._play(view)
        return legal_or(wanted, legal)

    def choose_packets(self, view: PlayerView, sizes: tuple[int, ...]) -> int:
        return 3 if 3 in sizes else sizes[0]

    # ------------------------------------------------------------ decisions
    def _carte_blanche(self, view: PlayerView, legal: LegalActions) -> Action:
        seat = view.seat
        assert seat is not None
        if seat != view.elder:
            return CarteBlanche(seat, True)
        # Elder announces the most cards the engine lets him say he will exchange.
        counts = [a.will_exchange for a in legal
                  if isinstance(a, CarteBlanche) and a.announce and a.will_exchange is not None]
        return CarteBlanche(seat, True, max(counts)) if counts else CarteBlanche(seat, False)

    def _exchange(self, view: PlayerView, legal: LegalActions) -> Action | None:
        seat = view.seat
        assert seat is not None
        hand = view.hand
        younger = seat != view.elder
        if view.exchange_range is None:
            return None  # not this player's exchange
        # The engine's limits (Laws 21-22, a carte blanche's count, what elder left younger).
        least, most = view.exchange_range
        if view.contract is not None and view.contract.minus:
            # Both players try to lose tricks: away with the high cards, keep the low ones.
            return Exchange(seat, minus_discards(hand, least, most))
        for n in range(most, -1, -1):
            action = Exchange(seat, discard_choice(hand, n, younger))
            if action in legal:
                return action
        return None

    def _declare(self, view: PlayerView, legal: LegalActions) -> Action | None:
        seat = view.seat
        assert seat is not None
        first = next(iter(legal), None)
        if not isinstance(first, Declare):
            return None
        category = first.category
        if view.contract is not None and view.contract.minus:
            # Auction minus contracts: nothing may be sunk; the engine lists the one full declaration.
            return first
        return Declare(seat, category, declaration_in_full(category, view.hand, view.rules.minimum_point))

    def _play(self, view: PlayerView) -> Action | None:
        seat = view.seat
        assert seat is not None
        if view.to_act != seat:
            return None
        if view.contract is not None and view.contract.minus:
            return Play(seat, minus_card(view))
        return Play(seat, choose_card(view))


def declaration_in_full(category: Category, hand: CardSet, minimum_point: int = 1) -> tuple[CardSet, ...]:
    """What the books declare in a category: every combination held, the best first (of the
    point, the best suit only).

    >>> declaration_in_full(Category.SETS, CardSet.parse("AS AH AD KS KH KD QS 7H 8H 9H 7D 8D"))
    (CardSet.parse('AS AH AD'), CardSet.parse('KS KH KD'))
    """
    found = maximal(category, hand, minimum_point)
    return tuple(found[:1] if category is Category.POINT else found)


def _opponent_may_hold(view: PlayerView) -> CardSet:
    """Cards the opponent may still hold: not in own hand or discards, not played, not the shown rest."""
    out = view.hand | view.discards | view.played | view.rest
    return CardSet(FULL_PACK & ~out.mask)


def _sure_winner(card: Card, unknown: CardSet) -> bool:
    """No higher card of the suit can be in the opponent's hand."""
    higher = sum(1 << (card.suit * 8 + r) for r in range(card.rank + 1, 8))
    return not unknown.mask & higher


def choose_card(view: PlayerView) -> Card:
    """The card to play: lead, follow or discard (the view's player is to act)."""
    hand = view.hand
    unknown = _opponent_may_hold(view)
    suits = [s for s in Suit if hand.suit(s)]
    if not view.trick:
        by_strength = sorted(suits, key=lambda s: _suit_strength(hand.suit(s)), reverse=True)
        longest = hand.suit(by_strength[0])
        top = max(longest, key=lambda c: c.rank)
        if _sure_winner(top, unknown):
            return top
        for suit in by_strength[1:]:
            cards = hand.suit(suit)
            high = max(cards, key=lambda c: c.rank)
            if _sure_winner(high, unknown):
                return high
        return min(longest, key=lambda c: c.rank)
    lead = view.trick[0]
    follow = hand.suit(lead.suit)
    if follow:
        winners = [c for c in follow if c.beats(lead)]
        if winners:
            return min(winners, key=lambda c: c.rank)
        return min(follow, key=lambda c: c.rank)
    return _throw(hand, unknown)


def _throw(hand: CardSet, unknown: CardSet) -> Card:
    """The least useful card when void in the suit led: the lowest of the weakest suit,
    sparing sure winners and guards (a king with one card, a queen with two)."""

    def cost(suit: Suit) -> tuple[int, int, tuple[int, int, int], int]:
        cards = hand.suit(suit)
        low = min(cards, key=lambda c: c.rank)
        top = max(cards, key=lambda c: c.rank)
        winner = _sure_winner(low, unknown)
        above = sum(1 for r in range(top.rank + 1, 8) if unknown.mask >> (suit * 8 + r) & 1)
        guard = 0 < above < len(cards) <= above + 1 and top.rank >= Rank.JACK
        return int(winner), int(guard), _suit_strength(cards), low.rank

    suit = min((s for s in Suit if hand.suit(s)), key=cost)
    return min(hand.suit(suit), key=lambda c: c.rank)


# ---------------------------------------------------------------- Auction Piquet
#: What the exchange of up to five cards (and the lead) is worth to the contract holder, in tricks.
EXCHANGE_BONUS = 2.0
#: Doubling: the opponent's bid and the tricks this hand expects to take from it exceed twelve by this much.
DOUBLE_MARGIN = 2


def _top_tricks(ranks: list[int]) -> float:
    """Tricks taken by the top of a suit: a card no missing card beats counts one; one beaten
    by a single missing card, with a smaller card to guard it, a half."""
    ranks = sorted(ranks, reverse=True)
    count = 0.0
    for i, r in enumerate(ranks):
        missing_higher = (7 - r) - i
        if missing_higher <= 0:
            count += 1
        elif missing_higher == 1 and len(ranks) >= i + 2:
            count += 0.5
    return count


def _suit_winners(ranks: list[int]) -> float:
    """Tricks a suit should win when high cards win: ``ranks`` held, 0 (seven) to 7 (ace).

    A card no missing card beats counts one; one beaten by a single missing card, with a
    smaller card to guard it, a half; a long suit adds a half for every card past the fourth.
    """
    count = _top_tricks(ranks)
    long = max(0, len(ranks) - 4) * 0.5
    return count + min(long, len(ranks) - count)


def plus_tricks(hand: CardSet) -> float:
    """The tricks a hand expects to win playing to win them, before any exchange.

    >>> plus_tricks(CardSet.parse("AS KS QS JS TS AH KH AD KD AC 7C 8C"))
    10.0
    """
    return sum(_suit_winners([c.rank for c in hand.suit(s)]) for s in Suit)


def minus_tricks(hand: CardSet) -> float:
    """The tricks a hand expects to lose playing to lose them, before any exchange.

    The mirror of :func:`plus_tricks` (a seven is a sure loser as an ace is a sure winner),
    without the bonus of a long suit (the last cards of a long low suit win), and with a
    half for each void (a high card can be thrown on it).

    >>> minus_tricks(CardSet.parse("7S 8S 9S 7H 8H 9H 7D 8D 9D 7C 8C 9C"))
    12.0
    """
    total = 0.0
    for suit in Suit:
        # Mirrored ranks: a seven loses as surely as an ace wins.
        ranks = [7 - c.rank for c in hand.suit(suit)]
        if not ranks:
            total += 0.5
            continue
        losers = _top_tricks(ranks)
        # A suit loses no more tricks than the opponent can take in it: some 3/5 of the cards out.
        total += min(losers, 0.6 * (8 - len(ranks)) + 0.5)
    return min(total, 12.0)


def _last_bid(bids: tuple[Bid, ...]) -> Bid | None:
    for bid in reversed(bids):
        if bid.tricks is not None:
            return bid
    return None


def choose_bid(view: PlayerView, legal: LegalActions) -> Bid:
    """A call in the auction: the better of a plus and a minus contract at the level the hand
    expects to make, bidding no higher than it must; a double only of a bid clearly beyond
    what the opponent can make; a redouble when it expects two tricks more than its bid."""
    seat = view.seat
    assert seat is not None
    hand = view.hand
    plus, minus = plus_tricks(hand), minus_tricks(hand)
    sign = "-" if minus > plus else "+"
    level = int(max(plus, minus) + EXCHANGE_BONUS)
    last = _last_bid(view.bids)

    def pick(call: str) -> Bid | None:
        bid = Bid(seat, call)
        return bid if bid in legal else None

    if view.bids and view.bids[-1].call == "double" and view.bids[-1].player != seat:
        # Our bid was doubled: redouble with two tricks in hand, else let it stand.
        mine = last.tricks if last is not None and last.tricks is not None else 12
        own = int((minus if last is not None and last.minus else plus) + EXCHANGE_BONUS)
        if own >= mine + 2:
            return pick("redouble") or Bid(seat, "pass")
        return Bid(seat, "pass")
    if last is not None and last.player != seat and last.tricks is not None:
        # What this hand takes from the opponent's contract: tricks won against a plus,
        # tricks lost against a minus (which the holder needs it to win).
        against = minus if last.minus else plus
        if last.tricks + against >= 12 + DOUBLE_MARGIN:
            double = pick("double")
            if double is not None:
                return double
        need = last.tricks + 1
        if need <= 12 and level >= need:
            return pick(f"{need}{sign}") or Bid(seat, "pass")
        return Bid(seat, "pass")
    if last is None:
        # Opening; after the opponent's pass a seven is enough to save the deal.
        threshold = 6 if any(b.call == "pass" for b in view.bids) else 7
        if level >= threshold:
            return pick(f"7{sign}") or Bid(seat, "pass")
    return Bid(seat, "pass")


def minus_discards(hand: CardSet, least: int, most: int) -> CardSet:
    """Discards for a minus contract: the high cards, the most dangerous first (a king or
    queen guarded by two low cards of its suit is less so), and never a seven or eight."""

    def danger(card: Card) -> float:
        lows = sum(1 for c in hand.suit(card.suit) if c.rank < card.rank and c.rank <= Rank.NINE)
        return card.rank - (1.5 * min(2, lows) if card.rank < Rank.ACE else 0.0)

    ordered = sorted(hand, key=lambda c: (-danger(c), -c.rank, c))
    wanted = [c for c in ordered if danger(c) >= Rank.QUEEN]
    count = max(least, min(most, len(wanted)))
    return CardSet(ordered[:count])


def minus_card(view: PlayerView) -> Card:
    """The card to play when both try to lose tricks (an Auction minus contract).

    Following: the highest card under the one led, else (forced to win) the highest of the
    suit; void: the highest card, a sure winner first, from the shortest suit; leading: the
    card the opponent most likely beats (most cards out above it, fewest below), else the
    highest card.
    """
    hand = view.hand
    unknown = _opponent_may_hold(view)
    if view.trick:
        lead = view.trick[0]
        follow = hand.suit(lead.suit)
        if follow:
            ducks = [c for c in follow if not c.beats(lead)]
            return max(ducks or list(follow), key=lambda c: c.rank)
        return max(hand, key=lambda c: (c.rank + 2 * _sure_winner(c, unknown), -len(hand.suit(c.suit)), c))

    def beaten_by(card: Card) -> int:
        return sum(1 for r in range(card.rank + 1, 8) if unknown.mask >> (card.suit * 8 + r) & 1)

    def below(card: Card) -> int:
        return sum(1 for r in range(card.rank) if unknown.mask >> (card.suit * 8 + r) & 1)

    beatable = [c for c in hand if beaten_by(c)]
    if not beatable:
        return max(hand, key=lambda c: (c.rank, c))
    # The more cards out above it and the fewer below, the likelier the opponent wins it.
    return max(beatable, key=lambda c: (beaten_by(c) - below(c), -c.rank, c))
