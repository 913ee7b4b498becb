"""Before the declarations: carte blanche (Laws 18-20) and the exchange (Laws 21-36).

Each ``apply_`` function applies one action, already found legal (:mod:`piquet.engine.checks`), to the partie's
present state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from piquet.engine.actions import CarteBlanche, Exchange
from piquet.engine.cards import CardSet, Rank
from piquet.engine.events import CarteBlancheAnnounced, CarteBlancheShown, Exchanged
from piquet.engine.scoring import PlainReason, ScoreCategory, ScoreEvent
from piquet.engine.state import Phase, with_seat

if TYPE_CHECKING:
    from piquet.engine.state import DealRecord, PartieState
    from piquet.engine.variants import Rules

__all__ = ["apply_carte_blanche", "apply_exchange", "begin_carte_blanche", "exchange_limits"]

#: The kings, queens and knaves (a hand without any is carte blanche, Laws 18-20).
COURT_CARDS = Rank.JACK.mask | Rank.QUEEN.mask | Rank.KING.mask


# ---------------------------------------------------------------- carte blanche
def begin_carte_blanche(s: PartieState, rules: Rules) -> None:
    """Before the exchange: each player dealt no king, queen or knave may announce carte blanche, elder first
    (Laws 18-20); then the exchange."""
    d = s.deal
    if rules.has_carte_blanche:
        d.carte_blanche_pending = tuple(seat for seat in (d.elder, 1 - d.elder) if not d.dealt[seat] & COURT_CARDS)
    next_carte_blanche(s, rules)


def next_carte_blanche(s: PartieState, rules: Rules) -> None:
    """The next player to decide on his carte blanche, or the exchange. In Piquet au Cent younger's decision
    waits, unless elder announced one, until elder has discarded (she may still announce it before)."""
    d = s.deal
    pending = d.carte_blanche_pending
    younger = 1 - d.elder
    defer = (rules.younger_carte_blanche_after_elder_discards and pending == (younger,)
             and not d.carte_blanche[d.elder] and d.exchanged[d.elder] is None)
    if pending and not defer:
        s.phase, s.to_act = Phase.CARTE_BLANCHE, pending[0]
    elif d.exchanged[d.elder] is not None:
        s.phase, s.to_act = Phase.EXCHANGE, younger
    else:
        s.phase = Phase.EXCHANGE
        # Law 20: elder with carte blanche has younger set her discards aside before he shows.
        s.to_act = younger if d.carte_blanche[d.elder] else d.elder


def announce_carte_blanche(s: PartieState, rules: Rules, seat: int, will_exchange: int | None) -> None:
    """``seat`` announces carte blanche and scores it (Law 18)."""
    d = s.deal
    d.carte_blanche = with_seat(d.carte_blanche, seat, True)
    if will_exchange is not None:
        d.will_exchange = d.elder_count = will_exchange
    d.tell(CarteBlancheAnnounced(seat, will_exchange))
    d.score(ScoreEvent(seat, rules.carte_blanche_points, ScoreCategory.CARTE_BLANCHE, PlainReason.CARTE_BLANCHE))


def apply_carte_blanche(s: PartieState, rules: Rules, action: CarteBlanche) -> None:
    seat = action.player
    d = s.deal
    d.carte_blanche_pending = tuple(p for p in d.carte_blanche_pending if p != seat)
    if action.announce:
        announce_carte_blanche(s, rules, seat, action.will_exchange)
        if d.exchanged[1 - seat] is not None:
            # Announced after the opponent discarded (au Cent's younger): the proof is shown at once.
            _show_carte_blanche(s, seat)
    if s.phase is Phase.EXCHANGE and seat != s.to_act:
        return  # au Cent's younger, announcing before elder's exchange: elder is still to exchange
    next_carte_blanche(s, rules)


def _show_carte_blanche(s: PartieState, seat: int) -> None:
    """The proof of carte blanche: the hand as dealt, shown once the opponent has discarded (Laws 19-20)."""
    d = s.deal
    d.shown_dealt = with_seat(d.shown_dealt, seat, d.dealt[seat])
    d.tell(CarteBlancheShown(seat, CardSet(d.dealt[seat])))


# ---------------------------------------------------------------- the exchange
def exchange_limits(rules: Rules, d: DealRecord, seat: int) -> tuple[int, int]:
    """The fewest and most cards ``seat`` may exchange in the deal ``d`` (Laws 21-22; Law 20: elder with carte
    blanche exchanges what he said)."""
    if seat == d.elder:
        if d.will_exchange is not None:
            return d.will_exchange, d.will_exchange
        return rules.elder_minimum_exchange, rules.elder_maximum_exchange
    taken = d.elder_count if d.elder_count is not None else 0
    return rules.younger_minimum_exchange, len(d.talon) - taken


def apply_exchange(s: PartieState, rules: Rules, action: Exchange) -> None:
    """The discards set aside and as many cards drawn from the talon, elder from the top, younger from what he
    left (Laws 21-33); younger may elect to show the rest of the talon (Law 36)."""
    d = s.deal
    seat = action.player
    n = len(action.discards)
    is_elder = seat == d.elder
    start = 0 if is_elder else d.elder_count or 0
    drawn = 0
    for card in d.talon[start : start + n]:
        drawn |= 1 << card
    left, looked = 0, False
    if is_elder:
        top = rules.elder_maximum_exchange  # Law 33: the cards he left "of the top five"
        left = top - n if n < top else 0
        if left and rules.elder_sees_cards_left:
            for card in d.talon[n:top]:
                d.peeked |= 1 << card
            looked = True
        d.elder_count = n
    else:
        d.show_rest = action.show_rest
    d.hands = with_seat(d.hands, seat, (d.hands[seat] & ~action.discards.mask) | drawn)
    d.discards = with_seat(d.discards, seat, action.discards.mask)
    d.drawn = with_seat(d.drawn, seat, drawn)
    d.exchanged = with_seat(d.exchanged, seat, n)
    d.tell(Exchanged(seat, n, left, looked))
    other = 1 - seat
    if d.carte_blanche[other] and not d.shown_dealt[other]:
        _show_carte_blanche(s, other)
    if d.exchanged[0] is not None and d.exchanged[1] is not None:
        taken = (d.exchanged[d.elder] or 0) + (d.exchanged[1 - d.elder] or 0)
        d.rest = CardSet(d.talon[taken:]).mask
        s.phase, s.to_act = Phase.DECLARE, d.elder
    elif d.carte_blanche_pending:
        next_carte_blanche(s, rules)  # au Cent: younger decides on her carte blanche now
    else:
        s.to_act = other
