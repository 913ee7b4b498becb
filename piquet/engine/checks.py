"""Why an action may not be taken now: each law's check, one path for every action.

:func:`why_not` answers for any action in a partie's present state: the law or the fact it breaks, or ``None``
if it may be taken. :meth:`Partie.push <piquet.engine.partie.Partie.push>` applies nothing it has not asked; the
legal listings (:mod:`piquet.engine.listings`) list what it allows.
"""

from __future__ import annotations

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
from piquet.engine.combinations import Category, call, good_against_the_cards, invalid_reason, key, maximal
from piquet.engine.events import CutMade, DealAnnulled, DealerChosen
from piquet.engine.exchange import exchange_limits
from piquet.engine.play import concession_totals
from piquet.engine.scoring import counted_deals
from piquet.engine.state import Phase
from piquet.engine.variants import parse_bid

if TYPE_CHECKING:
    from piquet.engine.state import DealRecord, PartieState
    from piquet.engine.variants import Rules

__all__ = ["DECLARATION_ORDER", "declaration_slot", "deferred_carte_blanche", "why_not", "why_not_dealer"]

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

#: Where the rule that a concession breaks is stated (the rulings, 18).
CONCESSION_SOURCE = "ruling 18 (Cavendish's treatise, Scoring; Case XXII)"


def why_not(s: PartieState, rules: Rules, players: tuple[str, str], action: Action) -> str | None:
    """Why ``action`` may not be taken in the state ``s`` of a partie between ``players`` under ``rules``, or
    ``None`` if it may: first what holds for every action (a seat, a partie not over, the action's phase, the
    player's turn), then the action's own laws."""
    kind = type(action)
    expected = EXPECTED_PHASE.get(kind)
    if expected is None and kind is not Concede:
        raise TypeError(f"not an action: {action!r}")
    if action.player not in (0, 1):
        return f"there is no seat {action.player!r}"
    if s.phase is Phase.OVER:
        return "the partie is over"
    if kind is Concede:
        return _why_not_concede(s, rules, players, action)  # type: ignore[arg-type]
    if kind is CarteBlanche and deferred_carte_blanche(s, rules, action.player):
        return _why_not_carte_blanche(s, rules, action)  # type: ignore[arg-type]
    if s.phase is not expected:
        assert expected is not None
        what = {Phase.PLAY: "the play", Phase.DECLARE: "the declaration"}.get(expected, f"the {expected.value}")
        reason = f"it is the {s.phase.value}, not {what}"
        if kind is CarteBlanche and s.phase in (Phase.EXCHANGE, Phase.DECLARE, Phase.PLAY):
            reason += (" (Laws 18-20, ruling 6: carte blanche is announced before the exchange; in Piquet au "
                       "Cent younger may wait until elder has discarded)")
        elif s.phase is Phase.CARTE_BLANCHE:
            reason += (f" (Laws 18-20, ruling 6: {_name(players, s.to_act)} first says whether he announces "
                       "carte blanche)")
        return reason
    if kind is Cut:
        a, b = action.cards  # type: ignore[union-attr]
        return "both players cannot cut the same card" if a == b else None
    if action.player != s.to_act:
        if kind is Deal:
            return why_not_dealer(s, rules, players, action.player)
        return f"it is {_name(players, s.to_act)}'s turn"
    match action:
        case Play():
            return _why_not_play(s.deal, action)
        case ChooseDealer():
            return f"there is no seat {action.dealer!r}" if action.dealer not in (0, 1) else None
        case Deal():
            return _why_not_deal(s, rules, players, action)
        case Bid():
            return _why_not_bid(s, rules, action)
        case CarteBlanche():
            return _why_not_carte_blanche(s, rules, action)
        case Exchange():
            return _why_not_exchange(s, rules, action)
        case Declare():
            return _why_not_declare(s, rules, action)
    return None


def _name(players: tuple[str, str], seat: int | None) -> str:
    return "nobody" if seat is None else players[seat]


def why_not_dealer(s: PartieState, rules: Rules, players: tuple[str, str], seat: int) -> str | None:
    """Why ``seat`` may not deal now: the law that makes the other player the dealer (the lower cut, the cut's
    winner's choice, an annulled deal dealt again, the deal alternating), or ``None`` if ``seat`` deals."""
    if s.phase is not Phase.DEAL or s.dealer is None:
        return f"no deal is due: it is the {s.phase.value}"
    if seat == s.dealer:
        return None
    dealer = players[s.dealer]
    log = s.deal.log
    last = log[-1] if log else None
    if isinstance(last, CutMade) and last.dealer is not None:
        again = " for the new game (option fresh_cut_each_game)" if s.deal_number else ""
        return (f"{dealer} cut the lower card{again}, and in {rules.title} the lower cut deals "
                f"(Laws of {rules.title})")
    if isinstance(last, DealerChosen):
        return f"{players[last.player]}, who cut the higher card, chose {dealer} to deal (Law 4)"
    if isinstance(last, DealAnnulled):
        return f"the deal was annulled, and the same dealer, {dealer}, deals again (Lunn)"
    if s.deal_number == 0:
        return f"{dealer} deals first"
    return f"the deal alternates ({rules.alternate_deal_source}), and it is {dealer}'s deal"


def _why_not_deal(s: PartieState, rules: Rules, players: tuple[str, str], action: Deal) -> str | None:
    if action.packets is not None:
        sizes = rules.packet_sizes()
        if action.packets not in sizes:
            allowed = " or ".join(str(n) for n in sizes)
            return f"cards are dealt in packets of {allowed}, not {action.packets}"
        fixed = s.packets[action.player]
        if fixed is not None and fixed != action.packets:
            return f"Law 9: a dealer deals all his hands alike, and he dealt in packets of {fixed}"
    seen = 0
    for seat, hand in enumerate(action.hands):
        if len(hand) != 12:
            return f"{players[seat]}'s hand has {len(hand)} cards, not 12"
        if seen & hand.mask:
            return f"{CardSet(seen & hand.mask)} dealt to both players"
        seen |= hand.mask
    if len(action.talon) != 8:
        return f"the talon has {len(action.talon)} cards, not 8"
    for card in action.talon:
        if seen >> card & 1:
            return f"{card} is dealt twice"
        seen |= 1 << card
    if seen != FULL_PACK:
        return f"{CardSet(FULL_PACK & ~seen)} missing from the deal"
    return None


def _why_not_bid(s: PartieState, rules: Rules, action: Bid) -> str | None:
    """Lunn's auction: bids 7 to 12, plus or minus, each higher in number than the last; a bid may be doubled, a
    double redoubled, at most two doubles in the auction."""
    d = s.deal
    try:
        called = parse_bid(action.call)
    except ValueError as e:
        return str(e)
    if called != action.call:
        return f"write the bid as {called!r}"
    last = d.last_bid()
    if called == "pass":
        return None
    if called == "double":
        if last is None or d.bids[-1].player == action.player or d.bids[-1].call != last.call:
            return "only the opponent's last bid can be doubled"
        if d.doubles_used >= 2:
            return "no more than two doubles in an auction"
        return None
    if called == "redouble":
        if not d.bids or d.bids[-1].call != "double":
            return "only a double can be redoubled"
        if rules.redouble_counts_as_double and d.doubles_used >= 2:
            return ("no more than two doubles in an auction, and a redouble counts as "
                    "one (option redouble_counts_as_double)")
        return None
    tricks = int(called[:-1])
    if last is not None and last.tricks is not None and tricks <= last.tricks:
        return f"a bid must be higher than {last.call} (plus and minus of one number are equal)"
    return None


def deferred_carte_blanche(s: PartieState, rules: Rules, seat: int) -> bool:
    """Piquet au Cent: younger with carte blanche need not announce it until elder has discarded; she may
    announce it at any moment before her own exchange."""
    return (s.phase is Phase.EXCHANGE and seat in s.deal.carte_blanche_pending
            and rules.younger_carte_blanche_after_elder_discards)


def _why_not_carte_blanche(s: PartieState, rules: Rules, action: CarteBlanche) -> str | None:
    if not action.announce:
        if rules.carte_blanche_compulsory:
            return "Law 20: a player dealt carte blanche must announce it"
        if action.will_exchange is not None:
            return "only a player announcing carte blanche says how many he will exchange"
        return None
    if action.player == s.deal.elder:
        lo, hi = rules.elder_minimum_exchange, rules.elder_maximum_exchange
        if action.will_exchange is None or not lo <= action.will_exchange <= hi:
            return (f"elder announcing carte blanche first says how many cards, {lo} to {hi}, "
                    "he will exchange (ruling 6; Case V under Law 20)")
    elif action.will_exchange is not None:
        return "younger does not announce her exchange with carte blanche"
    return None


def _why_not_exchange(s: PartieState, rules: Rules, action: Exchange) -> str | None:
    d = s.deal
    hand = d.hands[action.player]
    if action.discards.mask & ~hand:
        return f"{action.discards - CardSet(hand)} not in hand"
    lo, hi = exchange_limits(rules, d, action.player)
    n = len(action.discards)
    if not lo <= n <= hi:
        who = "elder" if action.player == d.elder else "younger"
        if lo == hi:
            return f"having announced carte blanche, elder exchanges the {lo} cards he said (Law 20, Case V)"
        law = "Law 21" if action.player == d.elder else "Law 22"
        return f"{law}: {who} exchanges {lo} to {hi} cards, not {n}"
    if action.show_rest:
        if action.player == d.elder:
            return "only younger elects to show the rest of the talon (Law 36)"
        taken = d.elder_count if d.elder_count is not None else 0
        if taken + n >= len(d.talon):
            return "no cards are left in the talon to show"
    return None


def declaration_slot(d: DealRecord) -> tuple[Category, int]:
    """The category declared now and the seat who declares it."""
    category, is_elder = DECLARATION_ORDER[d.declaration_step]
    return category, d.elder if is_elder else 1 - d.elder


def _why_not_declare(s: PartieState, rules: Rules, action: Declare) -> str | None:
    d = s.deal
    category, seat = declaration_slot(d)
    if action.category is not category:
        return (f"the {category.value} is declared now (point, sequences, sets in that order, elder before "
                "younger)")
    hand = d.hands[seat]
    combos = action.combinations
    if category is Category.POINT and len(combos) > 1:
        return "a point is one suit: there are no further points to show"
    used = 0
    for cards in combos:
        if cards.mask & ~hand:
            return f"{cards - CardSet(hand)} not in hand"
        reason = invalid_reason(category, cards, rules.minimum_point)
        if reason:
            return reason
        if used & cards.mask:
            return f"{CardSet(used & cards.mask)} shown in two {category.value}"
        used |= cards.mask
    if rules.must_declare_in_full(d.contract):
        reason = _why_not_in_full(rules, action, category, CardSet(hand), seat == d.elder)
        if reason:
            return reason
    if len(combos) > 1 and seat == d.elder:
        # Law 49 binds elder, whose call younger answered; younger reckons in any order.
        first = combos[0]
        possible = CardSet(FULL_PACK & ~hand & ~d.discards[seat])
        if rules.short_calls_bind or not good_against_the_cards(category, first, possible):
            for extra in combos[1:]:
                if key(category, extra) > key(category, first):
                    return (f"Law 49 (Laws 46-50): having called {call(category, first).lower()}, he may not "
                            f"also score the better {call(category, extra).lower()}, since his call was "
                            "not good against the cards")
    return None


def _why_not_in_full(rules: Rules, action: Declare, category: Category, hand: CardSet, elder: bool) -> str | None:
    """Auction minus contracts: no sinking; the best combination is called and every other that can score is shown
    (Lunn). Younger, who is only reckoning, may show hers in any order."""
    full = maximal(category, hand, rules.minimum_point)
    combos = action.combinations
    if not full:
        return None
    what = f"{call(category, full[0]).lower()}" + (
        f" and show {'; '.join(str(c) for c in full[1:])}" if len(full) > 1 else "")
    reason = f"in a minus contract nothing may be sunk: declare {what}"
    if not combos or ((elder or category is Category.POINT) and key(category, combos[0]) != key(category, full[0])):
        return reason
    if category is Category.POINT:
        if combos[0] != hand.suit(combos[0].cards()[0].suit):
            return reason
    elif set(combos) != set(full):
        return reason
    return None


def _why_not_play(d: DealRecord, action: Play) -> str | None:
    """Law 58: a card in hand, following suit if he can."""
    hand = d.hands[action.player]
    card = action.card
    if not hand >> card & 1:
        return f"{card} is not in hand"
    if d.trick:
        lead = d.trick[0]  # a card of another suit (index // 8) while the hand holds the suit led
        if card >> 3 != lead >> 3 and hand >> (lead & ~7) & 0xFF:
            return f"must follow suit to the {lead!s} led"
    return None


def _why_not_concede(s: PartieState, rules: Rules, players: tuple[str, str], action: Concede) -> str | None:
    """The rulings, 18: only in the partie's last deal, after the six declarations and before the first card, and
    only by the loser, who cannot save his rubicon (Law 73) once the opponent has counted what the concession gives
    him."""
    d = s.deal
    if not rules.allows_concession:
        return f"there is no concession in {rules.title}"
    if s.phase is Phase.CONCESSION:
        return "a concession already awaits the opponent's answer"
    if s.phase not in (Phase.BID, Phase.CARTE_BLANCHE, Phase.EXCHANGE, Phase.DECLARE, Phase.PLAY):
        return "there is no deal in progress to concede"
    if not rules.is_last_deal(counted_deals(s.deal_scores) + 1):
        return f"{CONCESSION_SOURCE}: a player may concede only in the last deal of the partie"
    if s.phase is not Phase.PLAY:
        return (f"{CONCESSION_SOURCE}: the concession comes after the six "
                f"declarations, and it is the {s.phase.value}")
    if d.tricks or d.trick:
        return f"{CONCESSION_SOURCE}: the concession is made before the first card is played"
    if d.concession_declined:
        return "the concession was declined: the deal is played out"
    own, other = concession_totals(s, rules, action.player)
    if own >= rules.rubicon:
        return (f"Law 73 and {CONCESSION_SOURCE}: only a player who cannot save the rubicon may "
                f"concede, and he would have {own}")
    if own >= other:
        return (f"{CONCESSION_SOURCE}: only the loser may concede, and he would have {own} to "
                f"{players[1 - action.player]}'s {other}")
    return None
