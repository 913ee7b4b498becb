"""The solver's model of the play: a position with every card known (:class:`PlayPosition`), the variant's scoring
in the play compiled to tables for the search (:class:`Model`, made from the engine's
:mod:`piquet.engine.reckoning`, the one home of what the play scores and in which order), and the step that plays
one card and scores it as the engine does (:func:`play`). The search (:mod:`piquet.ai.solver`) and the review
(:mod:`piquet.coach.review`) stand on it; the compiled kernel receives its tables from a :class:`Model`.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from piquet.engine.cards import CARDS, Card, CardSet
from piquet.engine.reckoning import PiqueRule, reckoning_at_first_lead, scoring_for
from piquet.engine.scoring import PlainReason, ScoreCategory, ScoreEvent
from piquet.engine.variants import Contract, Rules
from piquet.engine.view import PlayerView

if TYPE_CHECKING:
    from piquet.ai import _kernel as _compiled

__all__ = ["MODEL_LIMIT", "Model", "PlayPosition", "model_for", "pique_possible", "play", "position_from_partie",
           "position_from_view", "step"]

_SUIT_MASKS = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)


@dataclass(frozen=True)
class PlayPosition:
    """A moment of the play with every card known.

    ``hands`` are the two players' remaining cards (masks, by seat); ``to_act``
    is the seat to play; ``lead`` the card already led to the current trick
    (``None`` at the start of a trick, when ``to_act`` leads); ``tricks_won``
    and ``scores`` what each seat has so far in this deal (the scores matter
    for a pique that is still possible); ``pique_done`` whether a pique or
    repique has been scored.
    """

    hands: tuple[int, int]
    to_act: int
    elder: int
    tricks_won: tuple[int, int] = (0, 0)
    scores: tuple[int, int] = (0, 0)
    lead: Card | None = None
    pique_done: bool = False
    contract: Contract | None = None
    #: What a point scored by seat 0 and by seat 1 is worth to seat 0 (seat 1 values it the
    #: opposite way): ``(1, -1)``, the score difference, by default; ``(1, 1)`` when seat 0 wants
    #: the sum of both scores (a winner whose opponent stays under the rubicon, Law 73).
    utility: tuple[int, int] = (1, -1)
    #: Piquet au Cent with the option ``play_ceases_at_the_target``: the points of the deal each seat still needs
    #: to reach the game's target, every point counting; the deal ends as soon as one needs none (``None``: it
    #: is played to its end).
    target: tuple[int, int] | None = None

    @property
    def over(self) -> bool:
        """Whether the deal is over: every card played, or the game's target reached (:attr:`target`)."""
        return not (self.hands[0] or self.hands[1]) or (
            self.target is not None and (self.target[0] <= 0 or self.target[1] <= 0))


def _points(event: ScoreEvent | None) -> int:
    return 0 if event is None else event.points


class Model:
    """The variant's scoring in the play, compiled to tables for the search: made from the engine's own
    (:class:`piquet.engine.reckoning.PlayScoring`, the one home of what the play scores and in which order, and its
    :class:`~piquet.engine.reckoning.PiqueRule`), never written again here."""

    def __init__(self, rules: Rules, contract: Contract | None, elder: int,
                 utility: tuple[int, int] = (1, -1)) -> None:
        self.utility = utility
        self.rules = rules
        self.contract = contract
        self.elder = elder
        scoring = self.scoring = scoring_for(rules, contract)
        self.lead_points = [_points(scoring.lead(0, CARDS[i])[1]) for i in range(32)]
        self._tricks: dict[tuple[int, int, int, bool, bool], tuple[int, tuple[tuple[int, int], ...]]] = {}
        self.last = scoring.last_trick
        #: What the cards score when a player wins his seventh trick (option cards_count_toward_pique; 0: at the
        #: end, with capot), which may make a pique.
        self.early = scoring.early_cards
        self.cards_table: dict[tuple[int, int], int] = {}  # seat-0 net points by tricks won
        for a in range(13):
            won = (a, 12 - a)
            net = sum(e.points * utility[e.player] for e in scoring.deal_end(won))
            if self.early and max(won) >= 7:
                net += self.early * utility[0 if a >= 7 else 1]  # scored at the seventh trick
            self.cards_table[won] = net
        #: The same by the tricks seat 0 has won alone.
        self.cards_net = [self.cards_table[(a, 12 - a)] for a in range(13)]
        self.pique: PiqueRule = scoring.pique_rule(elder)
        self.pique_threshold = self.pique.threshold
        self.pique_points = self.pique.points
        self.may_pique = self.pique.may
        # Whether two cards of one suit score alike in the play (for merging touching cards):
        # bit r of split[suit] set when ranks r and r-1 score differently.
        self.score_class = [self._class(i) for i in range(32)]
        self.split = [sum(1 << r for r in range(1, 8)
                          if self.score_class[8 * suit + r] != self.score_class[8 * suit + r - 1])
                      for suit in range(4)]
        self.runs: dict[int, tuple[int, ...]] = {}
        # Move orders by suit (bounded: by the ranks of one suit each): leads, sure and not, by
        # the leader's and the other's ranks; answers in the suit led, by the follower's ranks,
        # the leader's and the rank led.
        self.lead_suits: list[dict[int, tuple[tuple[int, ...], tuple[int, ...]]]] = [{}, {}, {}, {}]
        self.follow_suits: list[dict[int, tuple[int, ...]]] = [{}, {}, {}, {}]
        # Where no pique is possible a trick is its winner and its worth to its leader:
        # flat[leader][last][lead * 32 + follow], filled as the search meets them.
        self.flat: list[list[dict[int, tuple[int, int]]]] = [[{}, {}], [{}, {}]]
        self._kernel: _compiled.Model | None = None
        self._canonical: bool | None = None
        self._bounds: list[tuple[int, int, int, list[list[int]], list[list[int]]]] | None = None
        self.lo_win_last: list[int] = []
        self.lo_any_last: list[int] = []
        self.hi_any_last: list[int] = []
        #: The most points one step of a trick scores (see may_cease), found once.
        self._most: int | None = None

    @property
    def canonical(self) -> bool:
        """Whether every card scores alike (:meth:`uniform`, found once)."""
        if self._canonical is None:
            self._canonical = self.uniform()
        return self._canonical

    def _class(self, i: int) -> tuple[int, ...]:
        card = CARDS[i]
        return (self.lead_points[i], self.rules.lead_points(card, self.contract),
                *(p for _, p, _ in self.rules.trick_awards(0, (card, card), 1, self.contract)))

    def trick(self, leader: int, lead: int, follow: int, last: bool,
              lead_scored: bool = False) -> tuple[int, tuple[tuple[int, int], ...]]:
        """The winner of a trick and its points in the order they are scored: the lead (unless ``lead_scored``
        already), the trick, the last trick (the order matters for a pique); the cards a seventh trick may score are
        the search's to add (:meth:`seventh`)."""
        key = (leader, lead, follow, last, lead_scored)
        cached = self._tricks.get(key)
        if cached is not None:
            return cached
        done = self.scoring.trick(leader, CARDS[lead], CARDS[follow])
        steps = []
        if self.lead_points[lead] and not lead_scored:
            steps.append((leader, self.lead_points[lead]))
        steps += [(e.player, e.points) for e in done.awards]
        steps += [(e.player, e.points) for e in self.scoring.after_trick(done.winner, 12 if last else 0, False)]
        result = (done.winner, tuple(steps))
        self._tricks[key] = result
        return result

    def seventh(self, winner: int, won: int) -> int | None:
        """``winner``, where the trick gives him his seventh (``won``) and the cards, scored then (option
        cards_count_toward_pique), count toward a pique; else ``None``. (Their points are valued with the cards
        at the end, :attr:`cards_net`.)"""
        return winner if self.early and won == 7 else None

    def flat_trick(self, leader: int, lead: int, follow: int, last: bool) -> tuple[int, int]:
        """The winner of a trick and its worth to its leader, where no pique is possible."""
        winner, steps = self.trick(leader, lead, follow, last)
        u = 0
        for who, points in steps:
            u += self.utility[who] * points
        found = self.flat[leader][last][lead << 5 | follow] = (winner, u if leader == 0 else -u)
        return found

    def bounds(self) -> list[tuple[int, int, int, list[list[int]], list[list[int]]]]:
        """For each seat as leader, where no pique is possible: the least a trick he leads and
        wins is worth to him, the least and the most any trick (not the last) is worth to him,
        and the least and most the cards bring him by the range of tricks he may end with
        (``cmin[a][b]``: the least for ``a`` to ``b`` tricks). Also ``lo_win_last``,
        ``lo_any_last`` and ``hi_any_last``, the same for the last trick."""
        if self._bounds is None:
            out = []
            self.lo_win_last, self.lo_any_last, self.hi_any_last = [0, 0], [0, 0], [0, 0]
            for me in (0, 1):
                worth: dict[tuple[bool, bool], list[int]] = {}  # (last, won by me) -> worths to me
                for leader in (0, 1):
                    for last in (False, True):
                        for lead in range(32):
                            for follow in range(32):
                                if follow == lead:
                                    continue
                                winner, gain = self.flat_trick(leader, lead, follow, last)
                                worth.setdefault((last, winner == me and leader == me), []).append(
                                    gain if leader == me else -gain)
                wins = [worth[(False, True)], worth[(True, True)]]
                every = [worth[(False, True)] + worth[(False, False)], worth[(True, True)] + worth[(True, False)]]
                net = [c if me == 0 else -c for c in (self.cards_net if me == 0 else self.cards_net[::-1])]
                cmin = [[min(net[a:b + 1]) if a <= b <= 12 else 0 for b in range(13)] for a in range(13)]
                cmax = [[max(net[a:b + 1]) if a <= b <= 12 else 0 for b in range(13)] for a in range(13)]
                self.lo_win_last[me] = min(wins[1])
                self.lo_any_last[me], self.hi_any_last[me] = min(every[1]), max(every[1])
                out.append((min(wins[0]), min(every[0]), max(every[0]), cmin, cmax))
            self._bounds = out
        return self._bounds

    def pique_key(self, scores: tuple[int, int], done: bool) -> tuple[int, int] | None:
        """The part of the score that still matters: a pique is possible only while one
        player has scored nothing, and only for a player who may pique."""
        if done:
            return None
        a, b = scores
        if a == 0 and b == 0:
            return (0, 0) if self.may_pique[0] or self.may_pique[1] else None
        if b == 0 and self.may_pique[0] and a < self.pique_threshold:
            return (a, 0)
        if a == 0 and self.may_pique[1] and b < self.pique_threshold:
            return (0, b)
        return None

    def score_trick(self, scores: tuple[int, int] | None, steps: tuple[tuple[int, int], ...],
                    seventh: int | None = None) -> tuple[int, int, tuple[int, int] | None]:
        """A trick's points for each seat, with a pique if one fires (Law 69, :class:`PiqueRule`: a player reaching
        the threshold while the other has nothing), from the part of the scores that still matters (``scores``,
        :meth:`pique_key`; ``None``: no pique can come); ``seventh``: the seat whose seventh trick this is, where the
        cards then count toward the pique after the trick's points (:meth:`seventh`). Also the new pique key."""
        p = [0, 0]
        for who, points in steps:
            p[who] += points
        if scores is None:
            return p[0], p[1], None
        totals = [scores[0], scores[1]]
        rule = self.pique
        counted = steps if seventh is None else (*steps, (seventh, self.early))
        for who, points in counted:
            totals[who] += points
            if rule.reached(totals, who):
                p[who] += rule.points
                return p[0], p[1], None
        return p[0], p[1], self.pique_key((totals[0], totals[1]), False)

    def uniform(self) -> bool:
        """Whether every card scores alike in the play: a trick's points depend only on who
        leads, whether the leader wins and whether it is the last (then positions with the same
        cards by relative rank, in any order of the suits, have the same value)."""
        for leader in (0, 1):
            for last in (False, True):
                seen: dict[int, tuple[tuple[int, int], ...]] = {}
                for lead in range(32):
                    for follow in range(32):
                        if follow == lead:
                            continue
                        winner, steps = self.trick(leader, lead, follow, last)
                        if seen.setdefault(winner, steps) != steps:
                            return False
        return True

    def may_cease(self, position: PlayPosition) -> bool:
        """Whether the deal may stop at the game's target from ``position`` (:attr:`PlayPosition.target`): a seat
        still needs no more than the rest of the deal could bring him (a point of each trick and the last, a pique
        while one may come, the cards or capot)."""
        target = position.target
        if target is None:
            return False
        if self._most is None:
            self._most = max(sum(points for who, points in self.trick(leader, lead, follow, False)[1] if who == seat)
                             for leader in (0, 1) for lead in range(32) for follow in range(32) if lead != follow
                             for seat in (0, 1))
        tricks = 12 - position.tricks_won[0] - position.tricks_won[1]
        cards = max((e.points for a in range(13) for e in self.scoring.deal_end((a, 12 - a))), default=0)
        most = tricks * self._most + self.last + self.pique_points + cards + self.early
        return min(target) <= most

    def kernel(self, compiled: ModuleType) -> _compiled.Model:
        """This scoring as the ``compiled`` kernel's model (``piquet.ai._kernel``; built once): its tables, made
        here."""
        if self._kernel is None:
            tricks = [self.trick(leader, lead, follow, bool(last)) for leader in (0, 1) for last in (0, 1)
                      for lead in range(32) for follow in range(32)]
            self._kernel = compiled.Model(tricks, self.cards_net, self.utility, self.pique_threshold,
                                          self.pique_points, self.may_pique, self.split, self.canonical, self.early,
                                          CARDS)
        return self._kernel


MODELS: dict[tuple[object, ...], Model] = {}

#: The same models by the rules object itself (hashed by identity, so no option is read: the lookup of every
#: solve), the contract, elder and utility. Its models are among :data:`MODELS`' (both are cleared together).
_BY_RULES: dict[tuple[object, ...], Model] = {}


#: The most compiled models kept (Auction Piquet makes one for every contract and utility). Each
#: holds tables bounded by the ranks of one suit (move orders by suit, some 100 kB when full), never
#: move lists of whole hands: those grew a level-5 process to some 0.8 GB.
MODEL_LIMIT = 256


def model_for(rules: Rules, contract: Contract | None, elder: int, utility: tuple[int, int] = (1, -1)) -> Model:
    """The compiled scoring for these rules, contract and elder (cached, at most
    :data:`MODEL_LIMIT` of them, all dropped together beyond it)."""
    quick = (rules, contract, elder, utility)
    model = _BY_RULES.get(quick)
    if model is None:
        if len(MODELS) >= MODEL_LIMIT or len(_BY_RULES) >= MODEL_LIMIT:
            MODELS.clear()
            _BY_RULES.clear()
        key = (rules.name, rules.key, contract, elder, utility)  # rules alike, made apart, share a model
        model = MODELS.get(key)
        if model is None:
            model = MODELS[key] = Model(rules, contract, elder, utility)
        _BY_RULES[quick] = model
    return model


def play(position: PlayPosition, card: Card, rules: Rules) -> tuple[PlayPosition, tuple[ScoreEvent, ...]]:
    """The position after the player to act plays ``card``, and what it scores, in the order the engine scores it
    (:class:`piquet.engine.reckoning.PlayScoring`): the lead's point; or the trick's points, the last trick and, with
    the option ``cards_count_toward_pique``, the cards at a seventh trick; a pique, where the search sees one made
    (:meth:`Model.score_trick`); after the last trick the cards (or capot) and the contract. Where play ceases at
    the game's target (:attr:`PlayPosition.target`), nothing more once it is reached. A line of play scored so adds
    up to the solver's value of its first card.

    >>> from piquet.engine.variants import make_rules
    >>> p = PlayPosition((CardSet.parse("AS").mask, CardSet.parse("KS").mask), 0, 0, (6, 5), (20, 20))
    >>> q, scored = play(p, Card.parse("AS"), make_rules("rubicon"))
    >>> q.to_act, str(q.lead), [e.reason for e in scored]
    (1, 'AS', ['lead of AS'])
    >>> r, scored = play(q, Card.parse("KS"), make_rules("rubicon"))
    >>> r.tricks_won, r.over, [(e.player, e.points, e.reason) for e in scored]
    ((7, 5), True, [(0, 1, 'the last trick'), (0, 10, 'the cards')])
    """
    return step(model_for(rules, position.contract, position.elder, position.utility), position, card)


def step(model: Model, position: PlayPosition, card: Card) -> tuple[PlayPosition, tuple[ScoreEvent, ...]]:
    """:func:`play` by ``model``."""
    me = position.to_act
    if position.over:
        raise ValueError("the deal is over")
    if not position.hands[me] >> card & 1:
        raise ValueError(f"{card} is not in the hand of seat {me}")
    scoring = model.scoring
    hands = [position.hands[0], position.hands[1]]
    hands[me] &= ~card.mask
    won = [position.tricks_won[0], position.tricks_won[1]]
    lead = position.lead
    pk = model.pique_key(position.scores, position.pique_done)
    events: tuple[ScoreEvent, ...]
    if lead is None:
        point = scoring.lead(me, card)[1]
        events = _piqued(model, pk, () if point is None else (point,))
        to_act, led = 1 - me, card
    else:
        if position.hands[me] & _SUIT_MASKS[lead.suit] and card.suit != lead.suit:
            raise ValueError(f"{card} does not follow the {lead}")
        done = scoring.trick(1 - me, lead, card)
        winner = done.winner
        won[winner] += 1
        # The cards at a seventh trick, unless play has ceased at the target by the trick's points.
        seventh = won[winner] == 7 and not _reached(position.target, _piqued(model, pk, done.awards))
        events = _piqued(model, pk, done.awards + scoring.after_trick(winner, won[0] + won[1], seventh))
        to_act, led = winner, None
    target = _less(position.target, events)
    if not hands[0] and not hands[1] and not _reached(position.target, events):
        events += scoring.deal_end((won[0], won[1]))
        target = _less(position.target, events)
    scores = [position.scores[0], position.scores[1]]
    for e in events:
        if model.pique.counts(e):
            scores[e.player] += e.points
    piqued = any(e.category is ScoreCategory.PIQUE for e in events)
    return PlayPosition((hands[0], hands[1]), to_act, position.elder, (won[0], won[1]), (scores[0], scores[1]), led,
                        position.pique_done or piqued, position.contract, position.utility, target), events


def _piqued(model: Model, pk: tuple[int, int] | None, events: tuple[ScoreEvent, ...]) -> tuple[ScoreEvent, ...]:
    """``events`` and the pique they make, if they make one (as :meth:`Model.score_trick` reckons it)."""
    p0, p1, _ = model.score_trick(pk, tuple((e.player, e.points) for e in events))
    for seat, points in ((0, p0), (1, p1)):
        extra = points - sum(e.points for e in events if e.player == seat)
        if extra:
            return (*events, ScoreEvent(seat, extra, ScoreCategory.PIQUE, PlainReason.PIQUE))
    return events


def _less(target: tuple[int, int] | None, events: tuple[ScoreEvent, ...]) -> tuple[int, int] | None:
    """What each seat still needs to reach the target once ``events`` are scored (``None``: no target)."""
    if target is None:
        return None
    need = [target[0], target[1]]
    for e in events:
        need[e.player] -= e.points
    return need[0], need[1]


def _reached(target: tuple[int, int] | None, events: tuple[ScoreEvent, ...]) -> bool:
    """Whether ``events`` bring a seat to the target (``None``: there is none)."""
    need = _less(target, events)
    return need is not None and (need[0] <= 0 or need[1] <= 0)


def pique_possible(position: PlayPosition, rules: Rules) -> bool:
    """Whether a pique may still come in the play from ``position``, as the search reckons it:
    none scored yet, one player still with nothing and the other, allowed one, short of it."""
    model = model_for(rules, position.contract, position.elder, position.utility)
    return model.pique_key(position.scores, position.pique_done) is not None


def position_from_view(view: PlayerView, opponent_hand: CardSet, utility: tuple[int, int] = (1, -1)) -> PlayPosition:
    """The card play as the solver takes it, from the view of the player to act, the opponent
    holding ``opponent_hand``: the hands, the card led, the tricks won, and the points scored so
    far in the deal that count toward a pique (:meth:`PiqueRule.counts <piquet.engine.reckoning.PiqueRule.counts>`:
    not a contract's, nor the cards' unless they are scored at the seventh trick; what elder's first lead will
    reckon counted: younger's points won in the declarations, and a repique or a pique the hand decides,
    :func:`piquet.engine.reckoning.reckoning_at_first_lead`), which matter while a pique may come. The one place a
    play position is made from a game."""
    seat = view.seat
    assert seat is not None
    rules = view.rules
    rule = scoring_for(rules, view.contract).pique_rule(view.elder)
    scores = [0, 0]
    deal = [0, 0]
    pique_done = False
    for e in (*view.events, *reckoning_at_first_lead(view)):
        if e.category in (ScoreCategory.PIQUE, ScoreCategory.REPIQUE):
            pique_done = True
        if rule.counts(e):
            scores[e.player] += e.points
        deal[e.player] += e.points
    target = None
    if rules.play_ceases_at_target and rules.game_target is not None:
        # Every point of the deal counts, as many times as the deal does (in points of the deal).
        times = rules.deal_multiplier(view.counted_deals + 1)
        need = [-(-(rules.game_target - view.game_scores[seat]) // times) - deal[seat] for seat in (0, 1)]
        target = (need[0], need[1])
    hands = (view.hand.mask, opponent_hand.mask) if seat == 0 else (opponent_hand.mask, view.hand.mask)
    lead = view.trick[0] if view.trick else None
    return PlayPosition(hands, seat, view.elder, view.tricks_won, (scores[0], scores[1]), lead,
                        pique_done, view.contract, utility, target)


def position_from_partie(partie: object, utility: tuple[int, int] = (1, -1)) -> PlayPosition:
    """The play position of a live partie (full information: for analysis, not for agents), valued by
    ``utility`` (:attr:`PlayPosition.utility`)."""
    from piquet.engine.partie import Partie, Phase

    assert isinstance(partie, Partie)
    if partie.phase is not Phase.PLAY:
        raise ValueError(f"no play position: it is the {partie.phase.value}")
    to_act = partie.to_act
    assert to_act is not None
    return position_from_view(partie.view(to_act), partie.hand(1 - to_act), utility)

