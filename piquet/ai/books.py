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
from typing import Final

from piquet.engine.actions import Action, Bid, CarteBlanche, ChooseDealer, Concede, Declare, Exchange, Play
from piquet.engine.cards import CARDS, FULL_PACK, SUIT_PIPS, Card, CardSet, Rank, Suit
from piquet.engine.combinations import Category, maximal, pips, runs
from piquet.engine.partie import LegalActions, Phase
from piquet.engine.view import PlayerView

__all__ = [
    "SimpleAgent",
    "choose_bid",
    "choose_card",
    "discard_choice",
    "discard_order",
    "keep_values",
    "minus_discards",
    "minus_tricks",
    "plus_tricks",
]

def _suit_strength(cards: CardSet) -> tuple[int, int, int]:
    """How good a suit is to keep and to play: length, pips, then its top cards."""
    top = sum(1 << c.rank for c in cards)
    return len(cards), pips(cards), top


# ---------------------------------------------------------------- the exchange: keep values
# The keep values are reckoned on the hand's mask, in quarter points (every part of a value is a multiple of a
# quarter, so the sums are exact). What a card's own suit gives it (its rank, the suit's length, an ace, the runs
# and, for younger, the guards) is a table by the suit's 8-bit rank mask; what the whole hand gives it (the
# longest suit, the sets) is added to that.

#: The quarter points of being in the longest suit, and of a rank held four, three and two times.
_LONGEST_Q: Final = 40
_SET_Q: Final = (0, 0, 6, 24, 36)
#: The ranks whose sets count (kings to tens) and the ace's quarter points.
_SET_BONUS_RANKS: Final = (Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)
_ACE_Q: Final = 24


def _suit_quarters(byte: int, younger: bool) -> tuple[int, ...]:
    """What each rank held in one suit (the 8-bit rank mask ``byte``) is worth keeping from its suit alone, in
    quarter points (0 for a rank not held): a quarter for each rank above the seven, two for each card of the
    suit, six points for an ace; a run of two a point, of three or more three points (five to the ten or
    higher) for each of its cards; younger's guards (a king with one small card, a queen with two) five and four
    points, the small cards guarding them a point less."""
    held = [r for r in range(8) if byte >> r & 1]
    quarters = [0] * 8
    for r in held:
        quarters[r] = r + 2 * len(held)
    if Rank.ACE in held:
        quarters[Rank.ACE] += _ACE_Q
    for low, length in runs(byte):
        if length >= 2:
            bonus = 4 * ((5 if low + length - 1 >= Rank.TEN else 3) if length >= 3 else 1)
            for r in range(low, low + length):
                quarters[r] += bonus
    if younger:
        for rank, needed, bonus in ((Rank.KING, 1, 5), (Rank.QUEEN, 2, 4)):
            others = [r for r in held if r != rank]
            if rank in held and len(others) >= needed:
                quarters[rank] += 4 * bonus
                for r in others[:needed]:
                    quarters[r] += 4 * (bonus - 1)
    return tuple(quarters)


#: :func:`_suit_quarters` by rank mask, elder's (the books' exchange) then younger's (with the guards).
_SUIT_QUARTERS: Final = tuple(tuple(_suit_quarters(byte, younger) for byte in range(256)) for younger in (False, True))
#: A suit's strength by rank mask (:func:`_suit_strength` as one number): its length, its pips, its top cards.
_STRENGTH: Final = tuple(byte.bit_count() << 16 | SUIT_PIPS[byte] << 8 | byte for byte in range(256))
#: The ranks held in a suit by rank mask, low to high.
_HELD: Final = tuple(tuple(r for r in range(8) if byte >> r & 1) for byte in range(256))


def _hand_quarters(mask: int, younger: bool) -> list[int]:
    """The keep value of each card of the hand ``mask``, in quarter points, by card index (0 where not held)."""
    table = _SUIT_QUARTERS[younger]
    suits = [mask >> shift & 0xFF for shift in (0, 8, 16, 24)]
    longest = max(range(4), key=lambda s: _STRENGTH[suits[s]])  # the first of equals, as the suits go
    sets = [0] * 8
    for rank in _SET_BONUS_RANKS:
        sets[rank] = _SET_Q[(mask & rank.mask).bit_count()]
    out = [0] * 32
    for s, byte in enumerate(suits):
        quarters = table[byte]
        extra = _LONGEST_Q if s == longest else 0
        for r in _HELD[byte]:
            out[s * 8 + r] = quarters[r] + extra + sets[r]
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
    quarters = _hand_quarters(hand.mask, younger)
    return {card: quarters[card] / 4 for card in hand}


#: Hands whose order of discards :func:`discard_order` has worked out, by mask and seat (dropped together
#: beyond :data:`_ORDER_LIMIT`): a hand's next discard is the same whatever the number thrown, so one order
#: serves every count.
_ORDERS: dict[tuple[int, bool], tuple[Card, ...]] = {}
_ORDER_LIMIT: Final = 1 << 16


def discard_order(hand: int, count: int, younger: bool = False) -> tuple[Card, ...]:
    """The first ``count`` cards the books throw from the hand ``hand`` (a mask), in the order thrown: each the
    card least worth keeping (:func:`keep_values`; ties: the lower rank, then the first suit) in what is left,
    so that a card kept only for a combination its fellows were thrown from goes next.

    >>> [str(c) for c in discard_order(CardSet.parse("AS QS 9S 8S KH 9H 8H KD 9D KC QC JC").mask, 5)]
    ['9D', '8H', '9H', 'JC', 'QC']
    """
    key = (hand, younger)
    order = _ORDERS.get(key, ())
    if len(order) >= count:
        return order[:count]
    table = _SUIT_QUARTERS[younger]
    left = hand
    for card in order:
        left &= ~(1 << card)
    thrown = list(order)
    for _ in range(count - len(order)):
        suits = [left >> shift & 0xFF for shift in (0, 8, 16, 24)]
        longest = max(range(4), key=lambda s: _STRENGTH[suits[s]])
        sets = [0] * 8
        for rank in _SET_BONUS_RANKS:
            sets[rank] = _SET_Q[(left & rank.mask).bit_count()]
        # Each card as one number, its value above its rank above its suit: the least is the card to throw.
        least = min((table[byte][r] + (_LONGEST_Q if s == longest else 0) + sets[r]) << 5 | r << 2 | s
                    for s, byte in enumerate(suits) for r in _HELD[byte])
        card = CARDS[(least & 3) << 3 | (least >> 2 & 7)]
        thrown.append(card)
        left &= ~(1 << card)
    if len(_ORDERS) >= _ORDER_LIMIT:
        _ORDERS.clear()
    _ORDERS[key] = order = tuple(thrown)
    return order


def discard_choice(hand: CardSet, count: int, younger: bool = False) -> CardSet:
    """The ``count`` cards least worth keeping, thrown one at a time so that a card
    kept only for a combination its fellows were thrown from goes next (:func:`discard_order`).

    >>> str(discard_choice(CardSet.parse("AS QS 9S 8S KH 9H 8H KD 9D KC QC JC"), 5))
    '9H 8H 9D QC JC'
    """
    return CardSet(discard_order(hand.mask, count, younger))



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


def _suit_losers(ranks: list[int]) -> float:
    """Tricks a suit should lose when low cards lose (:func:`minus_tricks`): ``ranks`` held, 0 (seven) to 7 (ace).

    Mirrored, a seven loses as surely as an ace wins; a void gives a half (a high card can be thrown on it); a
    suit loses no more tricks than the opponent can take in it, some 3/5 of the cards out."""
    if not ranks:
        return 0.5
    return min(_top_tricks([7 - r for r in ranks]), 0.6 * (8 - len(ranks)) + 0.5)


#: :func:`_suit_winners` and :func:`_suit_losers` of one suit, by its 8-bit rank mask.
_SUIT_WINNERS: Final = tuple(_suit_winners(list(_HELD[byte])) for byte in range(256))
_SUIT_LOSERS: Final = tuple(_suit_losers(list(_HELD[byte])) for byte in range(256))


def plus_tricks(hand: CardSet) -> float:
    """The tricks a hand expects to win playing to win them, before any exchange (:func:`_suit_winners`, suit
    by suit).

    >>> plus_tricks(CardSet.parse("AS KS QS JS TS AH KH AD KD AC 7C 8C"))
    10.0
    """
    mask = hand.mask
    return sum(_SUIT_WINNERS[mask >> shift & 0xFF] for shift in (0, 8, 16, 24))


def minus_tricks(hand: CardSet) -> float:
    """The tricks a hand expects to lose playing to lose them, before any exchange.

    The mirror of :func:`plus_tricks` (a seven is a sure loser as an ace is a sure winner),
    without the bonus of a long suit (the last cards of a long low suit win), and with a
    half for each void (a high card can be thrown on it); at most twelve (:func:`_suit_losers`, suit by suit).

    >>> minus_tricks(CardSet.parse("7S 8S 9S 7H 8H 9H 7D 8D 9D 7C 8C 9C"))
    12.0
    """
    mask = hand.mask
    total = 0.0
    for shift in (0, 8, 16, 24):
        total += _SUIT_LOSERS[mask >> shift & 0xFF]
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
