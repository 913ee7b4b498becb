"""Why an action may not be taken now: each law's check, one path for every action.

:func:`why_not` answers for any action in a partie's present state: the law or the fact it breaks, as a typed
:class:`~piquet.engine.refusals.Refusal` said in each language, or ``None`` if it may be taken.
:meth:`Partie.push <piquet.engine.partie.Partie.push>` applies nothing it has not asked; the legal listings
(:mod:`piquet.engine.listings`) list what it allows.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from piquet.engine.actions import (
    AcceptConcession,
    Action,
    Bid,
    CarteBlanche,
    ChooseDealer,
    Concede,
    Cut,
    Deal,
    Declare,
    Exchange,
    Play,
)
from piquet.engine.cards import FULL_PACK, CardSet
from piquet.engine.combinations import Category, good_against_the_cards, invalid_combination, key, maximal
from piquet.engine.events import CutMade, DealAnnulled, DealerChosen
from piquet.engine.exchange import exchange_limits
from piquet.engine.play import concession_totals
from piquet.engine.refusals import CONCESSION_SOURCE, Refusal, Why
from piquet.engine.scoring import counted_deals
from piquet.engine.state import Phase
from piquet.engine.variants import parse_bid

if TYPE_CHECKING:
    from piquet.engine.state import DealRecord, PartieState
    from piquet.engine.variants import Rules

__all__ = ["CONCESSION_SOURCE", "DECLARATION_ORDER", "declaration_slot", "deferred_carte_blanche", "why_not",
           "why_not_dealer"]

#: The phase in which each kind of action is taken.
EXPECTED_PHASE: dict[type, Phase] = {
    Cut: Phase.CUT,
    ChooseDealer: Phase.CHOOSE_DEALER,
    Deal: Phase.DEAL,
    Bid: Phase.BID,
    CarteBlanche: Phase.CARTE_BLANCHE,
    Exchange: Phase.EXCHANGE,
    Declare: Phase.DECLARE,
    Play: Phase.PLAY,
    AcceptConcession: Phase.CONCESSION,
}

#: The declarations of a deal in order: elder's then younger's, point, sequences, sets.
DECLARATION_ORDER: tuple[tuple[Category, bool], ...] = tuple(
    (category, is_elder) for category in Category for is_elder in (True, False)
)

def why_not(s: PartieState, rules: Rules, players: tuple[str, str], action: Action) -> Refusal | None:
    """Why ``action`` may not be taken in the state ``s`` of a partie between ``players`` under ``rules``, or
    ``None`` if it may: first what holds for every action (a seat, a partie not over, the action's phase, the
    player's turn), then the action's own laws."""
    kind = type(action)
    expected = EXPECTED_PHASE.get(kind)
    if expected is None and kind is not Concede:
        raise TypeError(f"not an action: {action!r}")
    if action.player not in (0, 1):
        return Refusal(Why.NO_SEAT, players, text=repr(action.player))
    if s.phase is Phase.OVER:
        return Refusal(Why.PARTIE_OVER, players)
    if kind is Concede:
        return _why_not_concede(s, rules, players, action)  # type: ignore[arg-type]
    if kind is CarteBlanche and deferred_carte_blanche(s, rules, action.player):
        return _why_not_carte_blanche(s, rules, players, action)  # type: ignore[arg-type]
    if s.phase is not expected:
        assert expected is not None
        why = Why.WRONG_PHASE
        if kind is CarteBlanche and s.phase in (Phase.EXCHANGE, Phase.DECLARE, Phase.PLAY):
            why = Why.CARTE_BLANCHE_PASSED
        elif s.phase is Phase.CARTE_BLANCHE:
            why = Why.CARTE_BLANCHE_FIRST
        return Refusal(why, players, seat=s.to_act, phase=s.phase, expected=expected)
    if kind is Cut:
        a, b = action.cards  # type: ignore[union-attr]
        return Refusal(Why.SAME_CUT, players) if a == b else None
    if action.player != s.to_act:
        if kind is Deal:
            return why_not_dealer(s, rules, players, action.player)
        return Refusal(Why.NOT_YOUR_TURN, players, seat=s.to_act)
    match action:
        case Play():
            return _why_not_play(s.deal, players, action)
        case ChooseDealer():
            return Refusal(Why.NO_SEAT, players, text=repr(action.dealer)) if action.dealer not in (0, 1) else None
        case Deal():
            return _why_not_deal(s, rules, players, action)
        case Bid():
            return _why_not_bid(s, rules, players, action)
        case CarteBlanche():
            return _why_not_carte_blanche(s, rules, players, action)
        case Exchange():
            return _why_not_exchange(s, rules, players, action)
        case Declare():
            return _why_not_declare(s, rules, players, action)
    return None


def why_not_dealer(s: PartieState, rules: Rules, players: tuple[str, str], seat: int) -> Refusal | None:
    """Why ``seat`` may not deal now: the law that makes the other player the dealer (the lower cut, the cut's
    winner's choice, an annulled deal dealt again, the deal alternating), or ``None`` if ``seat`` deals."""
    if s.phase is not Phase.DEAL or s.dealer is None:
        return Refusal(Why.NO_DEAL_DUE, players, phase=s.phase)
    if seat == s.dealer:
        return None
    dealer = s.dealer
    log = s.deal.log
    last = log[-1] if log else None
    if isinstance(last, CutMade) and last.dealer is not None:
        why = Why.LOWER_CUT_DEALS_AGAIN if s.deal_number else Why.LOWER_CUT_DEALS
        return Refusal(why, players, seat=dealer, title=rules.title)
    if isinstance(last, DealerChosen):
        return Refusal(Why.DEALER_CHOSEN, players, seat=dealer, other=last.player)
    if isinstance(last, DealAnnulled):
        return Refusal(Why.ANNULLED_DEALS_AGAIN, players, seat=dealer)
    if s.deal_number == 0:
        return Refusal(Why.DEALS_FIRST, players, seat=dealer)
    return Refusal(Why.DEAL_ALTERNATES, players, seat=dealer, source=rules.alternate_deal_source)


def _why_not_deal(s: PartieState, rules: Rules, players: tuple[str, str], action: Deal) -> Refusal | None:
    if action.packets is not None:
        sizes = rules.packet_sizes()
        if action.packets not in sizes:
            return Refusal(Why.PACKET_SIZE, players, seat=action.player, n=action.packets, sizes=sizes)
        fixed = s.packets[action.player]
        if fixed is not None and fixed != action.packets:
            return Refusal(Why.PACKETS_ALIKE, players, seat=action.player, n=fixed)
    seen = 0
    for seat, hand in enumerate(action.hands):
        if len(hand) != 12:
            return Refusal(Why.HAND_SIZE, players, seat=seat, n=len(hand))
        if seen & hand.mask:
            return Refusal(Why.DEALT_TO_BOTH, players, cards=CardSet(seen & hand.mask))
        seen |= hand.mask
    if len(action.talon) != 8:
        return Refusal(Why.TALON_SIZE, players, n=len(action.talon))
    for card in action.talon:
        if seen >> card & 1:
            return Refusal(Why.DEALT_TWICE, players, card=card)
        seen |= 1 << card
    if seen != FULL_PACK:
        return Refusal(Why.MISSING_FROM_DEAL, players, cards=CardSet(FULL_PACK & ~seen))
    return None


def _why_not_bid(s: PartieState, rules: Rules, players: tuple[str, str], action: Bid) -> Refusal | None:
    """Lunn's auction: bids 7 to 12, plus or minus, each higher in number than the last; a bid may be doubled, a
    double redoubled, at most two doubles in the auction."""
    d = s.deal
    try:
        called = parse_bid(action.call)
    except ValueError:
        return Refusal(Why.NOT_A_BID, players, seat=action.player, text=repr(action.call))
    if called != action.call:
        return Refusal(Why.BID_SPELLING, players, seat=action.player, text=repr(called))
    last = d.last_bid()
    if called == "pass":
        return None
    if called == "double":
        if last is None or d.bids[-1].player == action.player or d.bids[-1].call != last.call:
            return Refusal(Why.DOUBLE_ONLY_OPPONENT, players, seat=action.player)
        if d.doubles_used >= 2:
            return Refusal(Why.TWO_DOUBLES, players, seat=action.player)
        return None
    if called == "redouble":
        if not d.bids or d.bids[-1].call != "double":
            return Refusal(Why.REDOUBLE_ONLY_DOUBLE, players, seat=action.player)
        if rules.redouble_counts_as_double and d.doubles_used >= 2:
            return Refusal(Why.REDOUBLE_COUNTS, players, seat=action.player)
        return None
    tricks = int(called[:-1])
    if last is not None and last.tricks is not None and tricks <= last.tricks:
        return Refusal(Why.BID_NOT_HIGHER, players, seat=action.player, text=last.call)
    return None


def deferred_carte_blanche(s: PartieState, rules: Rules, seat: int) -> bool:
    """Piquet au Cent: younger with carte blanche need not announce it until elder has discarded; she may
    announce it at any moment before her own exchange."""
    return (s.phase is Phase.EXCHANGE and seat in s.deal.carte_blanche_pending
            and rules.younger_carte_blanche_after_elder_discards)


def _why_not_carte_blanche(s: PartieState, rules: Rules, players: tuple[str, str],
                           action: CarteBlanche) -> Refusal | None:
    seat = action.player
    if not action.announce:
        if rules.carte_blanche_compulsory:
            return Refusal(Why.MUST_ANNOUNCE_CARTE_BLANCHE, players, seat=seat)
        if action.will_exchange is not None:
            return Refusal(Why.COUNT_WITHOUT_CARTE_BLANCHE, players, seat=seat)
        return None
    if action.player == s.deal.elder:
        lo, hi = rules.elder_minimum_exchange, rules.elder_maximum_exchange
        if action.will_exchange is None or not lo <= action.will_exchange <= hi:
            return Refusal(Why.ELDER_CARTE_BLANCHE_COUNT, players, seat=seat, n=action.will_exchange, low=lo,
                           high=hi)
    elif action.will_exchange is not None:
        return Refusal(Why.YOUNGER_CARTE_BLANCHE_COUNT, players, seat=seat, n=action.will_exchange)
    return None


def _why_not_exchange(s: PartieState, rules: Rules, players: tuple[str, str], action: Exchange) -> Refusal | None:
    d = s.deal
    seat = action.player
    hand = d.hands[seat]
    if action.discards.mask & ~hand:
        return Refusal(Why.NOT_IN_HAND, players, seat=seat, cards=action.discards - CardSet(hand))
    lo, hi = exchange_limits(rules, d, seat)
    n = len(action.discards)
    if not lo <= n <= hi:
        if lo == hi:
            return Refusal(Why.CARTE_BLANCHE_EXCHANGE, players, seat=seat, n=n, low=lo, high=hi)
        why = Why.ELDER_EXCHANGE_COUNT if seat == d.elder else Why.YOUNGER_EXCHANGE_COUNT
        return Refusal(why, players, seat=seat, n=n, low=lo, high=hi)
    if action.show_rest:
        if seat == d.elder:
            return Refusal(Why.ONLY_YOUNGER_SHOWS, players, seat=seat)
        taken = d.elder_count if d.elder_count is not None else 0
        if taken + n >= len(d.talon):
            return Refusal(Why.NOTHING_TO_SHOW, players, seat=seat)
    return None


def declaration_slot(d: DealRecord) -> tuple[Category, int]:
    """The category declared now and the seat who declares it."""
    category, is_elder = DECLARATION_ORDER[d.declaration_step]
    return category, d.elder if is_elder else 1 - d.elder


def _why_not_declare(s: PartieState, rules: Rules, players: tuple[str, str], action: Declare) -> Refusal | None:
    d = s.deal
    category, seat = declaration_slot(d)
    if action.category is not category:
        return Refusal(Why.DECLARATION_ORDER, players, seat=seat, category=category)
    hand = d.hands[seat]
    combos = action.combinations
    if category is Category.POINT and len(combos) > 1:
        return Refusal(Why.ONE_POINT, players, seat=seat)
    used = 0
    for cards in combos:
        if cards.mask & ~hand:
            return Refusal(Why.NOT_IN_HAND, players, seat=seat, cards=cards - CardSet(hand))
        refusal = invalid_combination(category, cards, rules.minimum_point)
        if refusal:
            return replace(refusal, players=players, seat=seat)
        if used & cards.mask:
            return Refusal(Why.SHOWN_TWICE, players, seat=seat, cards=CardSet(used & cards.mask), category=category)
        used |= cards.mask
    if rules.must_declare_in_full(d.contract):
        full = _why_not_in_full(rules, action, category, CardSet(hand), seat == d.elder)
        if full:
            why = Why.DECLARE_AND_SHOW_IN_FULL if len(full) > 1 else Why.DECLARE_IN_FULL
            return Refusal(why, players, seat=seat, category=category, combinations=full)
    if len(combos) > 1 and seat == d.elder:
        # Law 49 binds elder, whose call younger answered; younger reckons in any order.
        first = combos[0]
        possible = CardSet(FULL_PACK & ~hand & ~d.discards[seat])
        if rules.short_calls_bind or not good_against_the_cards(category, first, possible):
            for extra in combos[1:]:
                if key(category, extra) > key(category, first):
                    return Refusal(Why.CALL_BINDS, players, seat=seat, category=category,
                                   combinations=(first, extra))
    return None


def _why_not_in_full(rules: Rules, action: Declare, category: Category, hand: CardSet,
                     elder: bool) -> tuple[CardSet, ...]:
    """Auction minus contracts: no sinking; the best combination is called and every other that can score is shown
    (Lunn). Younger, who is only reckoning, may show hers in any order. What must be declared, if the declaration
    sinks any of it (else nothing)."""
    full = maximal(category, hand, rules.minimum_point)
    combos = action.combinations
    if not full:
        return ()
    owed = tuple(full)
    if not combos or ((elder or category is Category.POINT) and key(category, combos[0]) != key(category, full[0])):
        return owed
    if category is Category.POINT:
        if combos[0] != hand.suit(combos[0].cards()[0].suit):
            return owed
    elif set(combos) != set(full):
        return owed
    return ()


def _why_not_play(d: DealRecord, players: tuple[str, str], action: Play) -> Refusal | None:
    """Law 58: a card in hand, following suit if he can."""
    hand = d.hands[action.player]
    card = action.card
    if not hand >> card & 1:
        return Refusal(Why.CARD_NOT_IN_HAND, players, seat=action.player, card=card)
    if d.trick:
        lead = d.trick[0]  # a card of another suit (index // 8) while the hand holds the suit led
        if card >> 3 != lead >> 3 and hand >> (lead & ~7) & 0xFF:
            return Refusal(Why.MUST_FOLLOW, players, seat=action.player, card=lead)
    return None


def _why_not_concede(s: PartieState, rules: Rules, players: tuple[str, str], action: Concede) -> Refusal | None:
    """The rulings, 18: only in the partie's last deal, after the six declarations and before the first card, and
    only by the loser, who cannot save his rubicon (Law 73) once the opponent has counted what the concession gives
    him."""
    d = s.deal
    seat = action.player
    if not rules.allows_concession:
        return Refusal(Why.NO_CONCESSION, players, seat=seat, title=rules.title)
    if s.phase is Phase.CONCESSION:
        return Refusal(Why.CONCESSION_AWAITS, players, seat=seat)
    if s.phase not in (Phase.BID, Phase.CARTE_BLANCHE, Phase.EXCHANGE, Phase.DECLARE, Phase.PLAY):
        return Refusal(Why.NO_DEAL_TO_CONCEDE, players, seat=seat)
    if not rules.is_last_deal(counted_deals(s.deal_scores) + 1):
        return Refusal(Why.CONCEDE_IN_LAST_DEAL, players, seat=seat)
    if s.phase is not Phase.PLAY:
        return Refusal(Why.CONCEDE_AFTER_DECLARATIONS, players, seat=seat, phase=s.phase)
    if d.tricks or d.trick:
        return Refusal(Why.CONCEDE_BEFORE_FIRST_CARD, players, seat=seat)
    if d.concession_declined:
        return Refusal(Why.CONCESSION_DECLINED, players, seat=seat)
    own, other = concession_totals(s, rules, seat)
    if own >= rules.rubicon:
        return Refusal(Why.CONCEDE_RUBICON_SAVED, players, seat=seat, n=own, high=rules.rubicon)
    if own >= other:
        return Refusal(Why.CONCEDE_ONLY_LOSER, players, seat=seat, other=1 - seat, n=own, theirs=other)
    return None
