"""A deal begun and ended: the cut for the deal (Law 4), the choice of dealer, the deal (Laws 9-16), Auction
Piquet's auction (Lunn), and the end of a deal: its score, Piquet au Cent's games, the partie's end (Laws 71-73).

Each ``apply_`` function applies one action, already found legal (:mod:`piquet.engine.checks`), to the partie's
present state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from piquet.engine.actions import Bid, ChooseDealer, Cut, Deal
from piquet.engine.events import (
    AuctionWon,
    BidCalled,
    CutMade,
    DealAnnulled,
    DealBegun,
    DealEnded,
    DealerChosen,
    GameWon,
    NewGameCut,
    PartieEnded,
)
from piquet.engine.exchange import begin_carte_blanche
from piquet.engine.reckoning import scoring_for
from piquet.engine.scoring import DealScore, Settlement, counted_deals, settle
from piquet.engine.state import DealRecord, Phase, with_seat
from piquet.engine.variants import Contract, games_won

if TYPE_CHECKING:
    from piquet.engine.state import PartieState
    from piquet.engine.variants import Rules

__all__ = ["apply_bid", "apply_choose_dealer", "apply_cut", "apply_deal", "end_deal"]

def apply_cut(s: PartieState, rules: Rules, action: Cut) -> None:
    a, b = action.cards
    if a.rank == b.rank:
        s.deal.tell(CutMade((a, b), again=True))
        return
    s.cut_winner = 0 if a.rank > b.rank else 1
    if rules.lower_cut_deals:
        s.dealer = 1 - s.cut_winner
        s.deal.tell(CutMade((a, b), dealer=s.dealer))
        s.phase, s.to_act = Phase.DEAL, s.dealer
        return
    s.deal.tell(CutMade((a, b)))
    s.phase, s.to_act = Phase.CHOOSE_DEALER, s.cut_winner


def apply_choose_dealer(s: PartieState, rules: Rules, action: ChooseDealer) -> None:
    s.deal.tell(DealerChosen(action.player, action.dealer))
    s.dealer = action.dealer
    s.phase, s.to_act = Phase.DEAL, action.dealer


def apply_deal(s: PartieState, rules: Rules, action: Deal) -> None:
    """A new deal, its record made whole: nothing of the last deal is carried over."""
    dealer = action.player
    if action.packets is not None:
        s.packets = with_seat(s.packets, dealer, action.packets)
    s.deal_number += 1
    s.dealer = dealer
    if s.deal.log:
        s.past_logs += (s.deal.log,)
    elder = rules.elder_of(dealer)
    dealt = (action.hands[0].mask, action.hands[1].mask)
    begun = DealBegun(s.deal_number, dealer, elder, action.packets, rules.uses_bidding)
    s.deal = DealRecord(elder=elder, scoring=scoring_for(rules, None), dealt=dealt, hands=dealt, talon=action.talon,
                        log=(begun,))
    if rules.uses_bidding:
        s.phase, s.to_act = Phase.BID, elder
        return
    begin_carte_blanche(s, rules)


# ---------------------------------------------------------------- the auction (Lunn)
def apply_bid(s: PartieState, rules: Rules, action: Bid) -> None:
    d = s.deal
    call = action.call
    d.bids += (action,)
    if call == "double" or (call == "redouble" and rules.redouble_counts_as_double):
        d.doubles_used += 1
    d.tell(BidCalled(action.player, call))
    if call == "pass" and all(b.call == "pass" for b in d.bids):
        if len(d.bids) == 2:
            _annul_deal(s)
        else:
            s.to_act = 1 - action.player
        return
    if call in ("pass", "redouble"):
        _close_auction(s, rules)
        return
    s.to_act = 1 - action.player


def _close_auction(s: PartieState, rules: Rules) -> None:
    """The highest bidder holds the contract and becomes elder (Lunn)."""
    d = s.deal
    last = d.last_bid()
    assert last is not None and last.tricks is not None
    after = [b.call for b in d.bids[d.bids.index(last) + 1:]]
    doubles = 2 if "redouble" in after else 1 if "double" in after else 0
    contract = Contract(last.player, last.tricks, last.minus, doubles)
    d.contract, d.scoring, d.elder = contract, scoring_for(rules, contract), last.player
    d.tell(AuctionWon(contract))
    # With the option carte_blanche, it is announced once the holder is known, before the exchange.
    begin_carte_blanche(s, rules)


def _annul_deal(s: PartieState) -> None:
    """Both passed: the deal is annulled, does not count, and the same dealer deals again (Lunn)."""
    s.deal.tell(DealAnnulled())
    s.deal_scores += (DealScore.from_events((), s.deal.elder, (0, 0), annulled=True),)
    s.phase, s.to_act = Phase.DEAL, s.dealer


# ---------------------------------------------------------------- the end of a deal
def end_deal(s: PartieState, rules: Rules) -> None:
    """The deal is over: its score counted into the partie (as many times as the deal counts), then the game won
    (Piquet au Cent), the partie over (Laws 71-73), or the next deal due."""
    d = s.deal
    before = s.totals
    multiplier = rules.deal_multiplier(counted_deals(s.deal_scores) + 1)
    score = DealScore.from_events(d.events, d.elder, d.tricks_won, d.contract, multiplier=multiplier)
    s.deal_scores += (score,)
    s.totals = (s.totals[0] + multiplier * score.totals[0], s.totals[1] + multiplier * score.totals[1])
    d.tell(DealEnded(s.deal_number, score.totals, multiplier, s.totals))
    over = rules.partie_over(counted_deals(s.deal_scores), s.totals)
    if rules.plays_games:
        game = rules.game_over((before[0] - s.game_start[0], before[1] - s.game_start[1]),
                               [(e.player, multiplier * e.points) for e in d.events])
        if game is not None:
            game = replace(game, deal=len(s.deal_scores))
            s.games += (game,)
            s.game_start = s.totals
            d.tell(GameWon(game))
            won = games_won(s.games)
            if max(won) >= rules.games_to_win:
                winner = 0 if won[0] > won[1] else 1
                _partie_over(s, Settlement(winner, won[winner], False, won))
                return
    if over:
        _partie_over(s, settle(s.totals, rules.rubicon, rules.settlement_bonus))
    elif rules.fresh_cut_each_game and s.games and s.games[-1].deal == len(s.deal_scores):
        d.tell(NewGameCut())
        s.phase, s.to_act = Phase.CUT, None
    else:
        s.dealer = 1 - (s.dealer if s.dealer is not None else 0)
        s.phase, s.to_act = Phase.DEAL, s.dealer


def _partie_over(s: PartieState, settled: Settlement) -> None:
    s.result = settled
    s.phase, s.to_act = Phase.OVER, None
    s.deal.tell(PartieEnded(settled))
