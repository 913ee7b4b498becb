"""The play (Laws 58-70): elder's first lead reckons the hand, each card scores as the play's scoring has it
(:mod:`piquet.engine.reckoning`), a pique comes where it is made, the last trick ends the deal; and the
concession of the last deal (the rulings, 18).

Each ``apply_`` function applies one action, already found legal (:mod:`piquet.engine.checks`), to the partie's
present state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from piquet.engine.actions import AcceptConcession, Concede, Play
from piquet.engine.cards import CardSet
from piquet.engine.deals import end_deal
from piquet.engine.events import CardsDivided, Conceded, ConcessionAnswered, FirstLead, RestShown
from piquet.engine.reckoning import pique_in_order, repique_in_order, target_reached
from piquet.engine.scoring import PlainReason, ScoreCategory, ScoreEvent, counted_deals, placed
from piquet.engine.state import Phase, with_seat

if TYPE_CHECKING:
    from piquet.engine.state import DealRecord, PartieState
    from piquet.engine.variants import Rules

__all__ = ["apply_accept_concession", "apply_card", "apply_concede", "concession_totals", "play_ceases",
           "reckon_hand"]


def apply_card(s: PartieState, rules: Rules, action: Play) -> None:
    """A card played: led (its point, Law 65), or completing the trick (its winner, Law 59, and what the trick
    scores); a pique checked after each score (Law 69); after the twelfth trick the cards and the contract, and
    the deal's end."""
    seat, card = action.player, action.card
    d = s.deal
    if not d.hand_reckoned:
        if not d.concession_declined:  # a hand reckoned at a concession was told there
            d.tell(FirstLead(seat, card))
        reckon_hand(s, rules)
    scoring = d.scoring
    assert scoring is not None
    d.hands = with_seat(d.hands, seat, d.hands[seat] & ~(1 << card))
    if not d.trick:
        played, point = scoring.lead(seat, card)
        d.trick = (card,)
        d.tell(played)
        if point is not None:
            d.score(point)
            check_pique(d)
        s.to_act = 1 - seat
        return
    done = scoring.trick(d.leader, d.trick[0], card)
    winner = done.winner
    d.tricks_won = with_seat(d.tricks_won, winner, d.tricks_won[winner] + 1)
    d.trick = ()
    d.tricks += (done.trick,)
    d.leader = s.to_act = winner
    d.tell(done.played)
    for award in done.awards:
        d.score(award)
        check_pique(d)
    number, won = len(d.tricks), d.tricks_won[winner]
    if number < 12 and not (scoring.early_cards and won == 7):
        return  # the common trick
    # With the option play_ceases_at_the_target nothing more is scored once the target is reached (push then ends
    # the deal): the trick's points, the last trick's with them (Law 65: "scores two instead of one"), but not the
    # cards.
    ceases = rules.play_ceases_at_target
    seventh = won == 7 and not (ceases and _target_reached(s, rules))
    extra = scoring.after_trick(winner, number, seventh)
    for event in extra:
        d.score(event)
    if extra:
        check_pique(d)
    if number == 12 and not (ceases and _target_reached(s, rules)):
        if scoring.cards_divided(d.tricks_won):
            d.tell(CardsDivided())
        for event in scoring.deal_end(d.tricks_won):
            d.score(event)
        end_deal(s, rules)


def reckon_hand(s: PartieState, rules: Rules, lead: bool = True) -> None:
    """At elder's first lead (or a concession, ``lead`` false): younger reckons, the combinations are open to
    inspection, the rest of the talon is shown if she elected it (at a lead only: Law 36 shows it once elder has
    led, so a concession accepted ends the deal with it unseen), and the repique is decided (Laws 55, 36, 67,
    68)."""
    d = s.deal
    if d.hand_reckoned:
        return
    shows_rest = lead and bool(d.show_rest and d.rest)
    pending = d.pending_events
    d.hand_reckoned = True
    d.revealed = (d.revealed[0] | d.pending_reveal[0], d.revealed[1] | d.pending_reveal[1])
    d.pending_events, d.pending_reveal = (), (0, 0)
    d.rest_public = d.rest_public or shows_rest
    for event in pending:
        d.score(event)
    if shows_rest:
        d.tell(RestShown(1 - d.elder, CardSet(d.rest)))
    if d.concession_declined:
        return  # elder's lead after a concession declined: the rest was all the concession left to reckon
    if rules.carte_rouge_points:
        for seat in (d.elder, 1 - d.elder):
            if d.hands[seat] and not d.hands[seat] & ~d.scored_cards[seat]:
                d.score(ScoreEvent(seat, rules.carte_rouge_points, ScoreCategory.CARTE_ROUGE, PlainReason.CARTE_ROUGE))
    repique = repique_in_order(d.events, rules, d.contract)
    if repique is not None:
        p, at = repique
        d.repique = p
        d.score(ScoreEvent(p, rules.repique_points, ScoreCategory.REPIQUE, PlainReason.REPIQUE), at=at)
    # Where the pique needs less than the repique (Auction plus contracts: 29), the hand alone may reach it before
    # the opponent scores.
    check_pique(d)


def check_pique(d: DealRecord) -> None:
    """Law 69: thirty in hand and play before the opponent scores; never with a repique (ruling 13)."""
    if d.pique is not None or d.repique is not None or d.pique_closed:
        return
    assert d.scoring is not None
    rule = d.scoring.pique_rule(d.elder)
    p, closed, at = pique_in_order(d.events, rule)
    if p is not None:
        d.pique = p
        d.score(ScoreEvent(p, rule.points, ScoreCategory.PIQUE, PlainReason.PIQUE), at=at)
    elif closed and d.hand_reckoned:
        # Both have scored (points are never negative): no pique from here on. Once the hand is reckoned, what is
        # scored later (the play, the cards, the contract) takes its place after every event: so it stays so for
        # the deal.
        d.pique_closed = True


def play_ceases(s: PartieState, rules: Rules) -> None:
    """The option play_ceases_at_the_target (Parlett: "play ceases the moment one player reaches that total,
    leaving the rest of the hand unplayed"): once a player has reached the game's target in the order of
    reckoning, the hand is reckoned (younger's points won, the repique) and the deal ends there."""
    if s.phase in (Phase.CARTE_BLANCHE, Phase.EXCHANGE, Phase.DECLARE, Phase.PLAY) and _target_reached(s, rules):
        reckon_hand(s, rules, lead=False)
        end_deal(s, rules)


def _target_reached(s: PartieState, rules: Rules) -> bool:
    """Whether a player has reached the game's target by what is decided so far of the deal, in the order of
    reckoning: every category both have declared (younger's points in their place, a repique at its thirty), then
    the play as it is scored. What is declared or played later stands after them (Law 67), so it could not have
    come first."""
    d = s.deal
    events = d.events
    if not d.hand_reckoned:
        for event in d.pending_events:
            events = placed(events, event)
        repique = repique_in_order(events, rules, d.contract)
        if repique is not None:
            p, at = repique
            events = (*events[:at], ScoreEvent(p, rules.repique_points, ScoreCategory.REPIQUE, PlainReason.REPIQUE),
                      *events[at:])
    times = rules.deal_multiplier(counted_deals(s.deal_scores) + 1)
    start = (s.totals[0] - s.game_start[0], s.totals[1] - s.game_start[1])
    return target_reached(events, start, times, rules.game_target or 0)


# ---------------------------------------------------------------- the concession (the rulings, 18)
def apply_concede(s: PartieState, rules: Rules, action: Concede) -> None:
    d = s.deal
    d.tell(Conceded(action.player))
    reckon_hand(s, rules, lead=False)
    d.conceded = action.player
    if rules.concession_may_be_declined:
        s.phase, s.to_act = Phase.CONCESSION, 1 - action.player
        return
    _settle_concession(s, rules)


def apply_accept_concession(s: PartieState, rules: Rules, action: AcceptConcession) -> None:
    d = s.deal
    d.tell(ConcessionAnswered(action.player, action.accept))
    if action.accept:
        _settle_concession(s, rules)
        return
    # Play goes on: elder's lead, which shows the rest of the talon if younger elected it (reckon_hand).
    d.conceded, d.concession_declined, d.hand_reckoned = None, True, False
    s.phase, s.to_act = Phase.PLAY, d.leader


def _settle_concession(s: PartieState, rules: Rules) -> None:
    """The opponent of the player who conceded counts 13 for the play and 10 for the cards, without pique or capot
    (the rulings, 18)."""
    d = s.deal
    assert d.conceded is not None
    other = 1 - d.conceded
    d.score(ScoreEvent(other, rules.conceded_play_points, ScoreCategory.PLAY, PlainReason.CONCEDED_PLAY))
    d.score(ScoreEvent(other, rules.cards_points, ScoreCategory.CARDS, PlainReason.CONCEDED_CARDS))
    end_deal(s, rules)


def concession_totals(s: PartieState, rules: Rules, player: int) -> tuple[int, int]:
    """The partie scores of ``player`` and of his opponent if ``player`` conceded now: both hands reckoned as
    declared, then the opponent counting 13 for the play and the cards' ten, the deal counted as many times as it
    counts in the partie (the rulings, 18)."""
    trial = s.copy()
    reckon_hand(trial, rules, lead=False)
    deal = [0, 0]
    for event in trial.deal.events:
        deal[event.player] += event.points
    other = 1 - player
    deal[other] += rules.conceded_play_points + rules.cards_points
    times = rules.deal_multiplier(counted_deals(s.deal_scores) + 1)
    return s.totals[player] + times * deal[player], s.totals[other] + times * deal[other]
