"""The computer opponents, level 1 (a beginner) to level 5 (the strongest), and :func:`make_agent`.

Level 1 makes a beginner's mistakes, level 2 is the books' :class:`~piquet.ai.books.SimpleAgent`,
levels 3 to 5 (:class:`SearchAgent`) sample the deals the opponent may hold and solve each exactly,
sampling more at each level; in a partie's last deal they play for the settlement
(:func:`partie_utility`). What each does and how strong it is: docs/players.md.

>>> import random
>>> from piquet.ai.agent import play_deal
>>> from piquet.engine.partie import Partie
>>> partie = Partie(("Ann", "Bill"), first_dealer=0)
>>> play_deal(partie, [make_agent("level3", 1), make_agent("simple", 2)], random.Random(3))
>>> len(partie.deal_scores)
1
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise

from piquet.ai.agent import Agent, RandomAgent
from piquet.ai.bidding import choose_call, choose_contract_exchange
from piquet.ai.books import SimpleAgent, keep_values, legal_or
from piquet.ai.budget import Deadline, OutOfTime, settled
from piquet.ai.declaring import choose_declaration
from piquet.ai.exchange import choose_exchange
from piquet.ai.inference import Inference
from piquet.ai.solver import position_from_view, solve
from piquet.engine.actions import Action, Exchange, Play
from piquet.engine.cards import CARDS, FULL_PACK, Card, CardSet, Rank
from piquet.engine.partie import LegalActions, Phase
from piquet.engine.scoring import ScoreCategory
from piquet.engine.variants import Contract, Rules
from piquet.engine.view import PlayerView

__all__ = ["LEVELS", "BeginnerAgent", "PlayTally", "SearchAgent", "Standing", "equivalent_plays", "make_agent",
           "parse_spec", "partie_utility", "play_spread", "rubicon_standing"]


@dataclass(frozen=True)
class Level:
    """How much a searching agent samples: worlds per card played, worlds and candidate
    discards for the exchange (0: the simple exchange)."""

    play_worlds: int
    exchange_worlds: int
    exchange_candidates: int
    #: Whether the worlds for the play are drawn in proportion to the likelihood of the
    #: opponent's discards (:meth:`piquet.ai.inference.Inference.resample`) or uniformly.
    discard_model: bool = True
    #: Deals sampled for each call in an Auction Piquet auction (0: the books' bidding).
    bid_worlds: int = 0
    #: Whether, in the last deal of a partie with the rubicon settled, the declarations are
    #: weighed for the settlement (:mod:`piquet.ai.declaring`) rather than made in full.
    partie_declarations: bool = True
    #: Whether, in the last deal of a partie whose loser may yet reach the rubicon, the play is for
    #: bringing him over it or keeping him under (:func:`partie_utility`) rather than for the score.
    rubicon_reach: bool = True
    #: Whether the sampled exchange in a partie's last deal weighs each side's points as the
    #: partie does (:func:`partie_utility`) rather than by the score difference (off: see docs/players.md).
    partie_exchange: bool = False
    #: CPU seconds a decision may take (0: no limit): the sampled worlds are the target, solved
    #: one at a time until they are all done, the budget is spent or the best card is settled
    #: (:mod:`piquet.ai.budget`).
    budget: float = 1.0


#: The searching levels (1 and 2 do not search). Level 3 exchanges and bids as the books advise;
#: levels 4 and 5 try candidate discards over sampled talons and opponent's hands
#: (:mod:`piquet.ai.exchange`) and, in Auction Piquet, their calls over sampled deals (:mod:`piquet.ai.bidding`).
LEVELS: dict[int, Level] = {
    3: Level(play_worlds=2, exchange_worlds=0, exchange_candidates=0),
    4: Level(play_worlds=8, exchange_worlds=300, exchange_candidates=12, bid_worlds=16),
    5: Level(play_worlds=24, exchange_worlds=1000, exchange_candidates=20, bid_worlds=64),
}


#: Each level's name as a player reads it, by how it plays rather than by its method (the lobby's list);
#: how each plays and how strong it is measured: docs/players.md.
LEVEL_NAMES: dict[int, str] = {1: "beginner", 2: "casual", 3: "club player", 4: "strong", 5: "expert"}


class BeginnerAgent(SimpleAgent):
    """Level 1: the mistakes a beginner makes, as the rule books describe them, not random blunders."""

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        seat = view.seat
        assert seat is not None
        if view.phase is Phase.EXCHANGE and view.exchange_range is not None and seat == view.elder:
            # "Beginners will often exchange only 4 in order to retain a side suit ace or king."
            lo, hi = view.exchange_range
            values = keep_values(view.hand)
            order = sorted(view.hand, key=lambda c: (values[c], c.rank))
            n = hi
            if hi > lo and any(c.rank >= Rank.KING for c in order[:hi]):
                n = hi - 1
            return legal_or(Exchange(seat, CardSet(order[:n])), legal)
        if view.phase is Phase.PLAY and view.to_act == seat and not (view.contract and view.contract.minus):
            hand = view.hand
            if not view.trick:
                # "The beginner leads the ace in the faint hope that the king will fall."
                aces = [c for c in hand if c.rank == Rank.ACE]
                if aces:
                    return legal_or(Play(seat, aces[0]), legal)
            else:
                lead = view.trick[0]
                follow = [c for c in hand if c.beats(lead)]
                if follow:
                    # Wins, but with the highest card rather than the cheapest.
                    return legal_or(Play(seat, max(follow, key=lambda c: c.rank)), legal)
        return super().choose(view, legal)


class SearchAgent(SimpleAgent):
    """Levels 3-5: sampled deals solved exactly for the play; sampled talons for the exchange.

    Each decision has ``settings.budget`` CPU seconds (:class:`~piquet.ai.budget.Deadline`, whose
    clocks ``clock`` and ``wall`` are; tests inject their own)."""

    def __init__(self, level: int, rng: random.Random | None = None, settings: Level | None = None,
                 clock: Callable[[], float] = time.process_time,
                 wall: Callable[[], float] = time.perf_counter) -> None:
        super().__init__(rng)
        self.level = level
        self.settings = settings or LEVELS[level]
        self.rng = rng or random.Random(level)
        self.clock = clock
        self.wall = wall
        #: Decisions whose budget stopped the sampling before its target (see docs/players.md).
        self.budget_stops = 0
        #: Play decisions the stopping rule settled before all their worlds were solved.
        self.settled_early = 0
        # Its own draws for the declarations (a copy of the stream), so that weighing them leaves
        # the draws of the exchange and the play as they were.
        self._declaring_rng = random.Random()
        self._declaring_rng.setstate(self.rng.getstate())

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        seat = view.seat
        assert seat is not None
        if view.phase is Phase.PLAY and view.to_act == seat:
            plays = [a for a in legal if isinstance(a, Play)]
            if len(plays) == 1:
                return plays[0]
        deadline = self._deadline()
        chosen = self._searched(view, legal, deadline)
        if deadline.binding:
            self.budget_stops += 1
        return chosen if chosen is not None and chosen in legal else super().choose(view, legal)

    def _searched(self, view: PlayerView, legal: LegalActions, deadline: Deadline) -> Action | None:
        """The decision by sampling, within ``deadline``; ``None`` where the books decide."""
        seat = view.seat
        if view.phase is Phase.PLAY and view.to_act == seat:
            return self._play_card(view, [a for a in legal if isinstance(a, Play)], deadline)
        if view.phase is Phase.EXCHANGE and view.exchange_range is not None and self.settings.exchange_worlds:
            return self._exchange_choice(view, deadline)
        if view.phase is Phase.DECLARE and view.to_act == seat and self.settings.partie_declarations:
            return choose_declaration(view, legal, self._declaring_rng, DECLARATION_WORLDS,
                                      partie_utility(view, view.rules, self.settings.rubicon_reach), deadline)
        if view.phase is Phase.BID and view.to_act == seat and self.settings.bid_worlds:
            return choose_call(view, legal, self.rng, self.settings.bid_worlds, deadline)
        return None

    def _deadline(self) -> Deadline:
        return Deadline(self.settings.budget, self.clock, self.wall)

    # ------------------------------------------------------------ the play
    def _play_card(self, view: PlayerView, plays: list[Play], deadline: Deadline) -> Play | None:
        """The card with the best total over the sampled worlds, solved one at a time within ``deadline``;
        ``None`` (the books' card) where its wall-clock cap came before a world was solved."""
        seat = view.seat
        assert seat is not None
        if equivalent_plays(view, plays):
            # Equal in every world: the lowest, the card full sampling picks among equals.
            return min(plays, key=lambda p: p.card.rank)
        rules = view.rules
        worlds = self._worlds(view, deadline)
        if not worlds:
            return None if deadline.overdue() else plays[0]
        utility = partie_utility(view, rules, self.settings.rubicon_reach)
        mine = utility if seat == 0 else (-utility[1], -utility[0])
        tally = PlayTally([p.card for p in plays], [w for _, w in worlds],
                          play_spread(rules, view.contract, mine, len(view.hand), not _pique_done(view)))
        check = deadline.check if deadline.seconds > 0 else None
        for i, (opponent_hand, _) in enumerate(worlds):
            # Never less than one world (unless the wall-clock cap comes first); then stop before a world
            # the budget cannot pay for.
            if i and deadline.spent(ahead=deadline.elapsed() / i):
                break
            try:
                solution = solve(position_from_view(view, opponent_hand, utility), rules, all_values=True,
                                 check=check)
            except OutOfTime:
                break
            if tally.add(solution.values) and i + 1 < len(worlds):
                self.settled_early += 1
                break
        return Play(seat, tally.best()) if tally.added else None

    def _worlds(self, view: PlayerView, deadline: Deadline | None = None) -> list[tuple[CardSet, float]]:
        """The opponent's hands the play is judged over, with their weights (fewer, or none, where the
        ``deadline``'s wall-clock cap stops the drawing)."""
        return sample_opponent_hands(view, self.rng, self.settings.play_worlds, self.settings.discard_model,
                                     deadline)

    # ------------------------------------------------------------ the exchange
    def _exchange_choice(self, view: PlayerView, deadline: Deadline | None = None) -> Action | None:
        """The sampled exchange (:func:`piquet.ai.exchange.choose_exchange`), or ``None`` where it
        does not apply and the books' heuristic decides."""
        rules = view.rules
        worth = (1, -1)
        if self.settings.partie_exchange:
            u = partie_utility(view, rules, self.settings.rubicon_reach)
            worth = u if view.seat == 0 else (-u[1], -u[0])  # my worth of my point, of hers
        if deadline is None:
            deadline = self._deadline()
        chosen = choose_exchange(view, rules, self.rng, self.settings.exchange_worlds,
                                 self.settings.exchange_candidates, worth, deadline)
        if chosen is None and not deadline.overdue():  # Auction Piquet: both players choose by the contract
            chosen = choose_contract_exchange(view, self.rng, self.settings.exchange_worlds,
                                              self.settings.exchange_candidates, deadline)
        return chosen


class PlayTally:
    """The weighted totals of each card over the worlds solved so far, and whether the worlds
    still to solve could change the best card.

    ``weights`` are the worlds' weights in the order they will be added; ``spread`` bounds how far
    two cards' values may lie apart in one world (:func:`play_spread`). A card a world gives no
    value counts -1000 there, as if it lost everything (and the tally stops saying it is settled).
    """

    def __init__(self, cards: Sequence[Card], weights: Sequence[float], spread: float) -> None:
        self.totals: dict[Card, float] = {c: 0.0 for c in cards}
        self.remaining = float(sum(weights))
        self._weights = list(weights)
        self.added = 0
        self.spread = spread
        self._bounded = True

    def add(self, values: dict[Card, int]) -> bool:
        """Add the next world's values; whether the best card is now settled (:func:`settled`):
        the totals of all the worlds would make it the best card too."""
        weight = self._weights[self.added]
        self.added += 1
        self.remaining -= weight
        for card in self.totals:
            value = values.get(card)
            if value is None:
                self._bounded = False
                value = -1000
            self.totals[card] += weight * value
        return self._bounded and settled(self.totals, max(self.remaining, 0.0), self.spread)

    def best(self) -> Card:
        """The card with the greatest total, the lowest rank of those tied."""
        return max(self.totals, key=lambda c: (self.totals[c], -c.rank))


@functools.lru_cache(maxsize=256)
def _trick_bounds(rules: Rules, contract: Contract | None) -> tuple[int, int, int]:
    """The most points one trick may score (its lead and its winning), the last trick's extra, and
    the most the cards and the contract may award at the end, under ``rules``."""
    lead = max(rules.lead_points(c, contract) for c in CARDS)
    trick = 0
    for first in CARDS:
        for second in CARDS:
            if first == second:
                continue
            for winner in (0, 1):
                trick = max(trick, sum(abs(p) for _, p, _ in rules.trick_awards(0, (first, second), winner, contract)))
    end = 0
    for a in range(13):
        awards = [*rules.cards_awards((a, 12 - a), contract), *rules.contract_awards((a, 12 - a), contract)]
        end = max(end, sum(abs(p) for _, p, _ in awards))
    return lead + trick, rules.last_trick_points(contract), end


def play_spread(rules: Rules, contract: Contract | None, utility: tuple[int, int], tricks_left: int,
                pique_possible: bool = True) -> float:
    """How far apart two cards' values may lie in one world: the value of either is what the
    player's points less the opponent's, weighed by ``utility``, come to over the rest of the deal,
    so it lies within the worth of every point still to be scored (the tricks left, the last trick,
    the cards and contract, a pique) of zero, either way."""
    per_trick, last, end = _trick_bounds(rules, contract)
    points = tricks_left * per_trick + abs(last) + end + (rules.pique_points if pique_possible else 0)
    return 2.0 * max(abs(utility[0]), abs(utility[1])) * points


def _pique_done(view: PlayerView) -> bool:
    return any(e.category in (ScoreCategory.PIQUE, ScoreCategory.REPIQUE) for e in view.events)


def equivalent_plays(view: PlayerView, plays: Sequence[Play]) -> bool:
    """Whether every legal card is as good as any other whatever the opponent holds: one card, or
    cards of one suit that touch (no card she may hold or the card led between them) and score
    alike when led and when winning a trick (so the solver's own groups hold in every world)."""
    cards = [p.card for p in plays]
    if len(cards) < 2:
        return True
    suit = cards[0].suit
    if any(c.suit is not suit for c in cards):
        return False
    rules, contract = view.rules, view.contract
    unseen = _unseen(view)  # what she may hold
    ranks = sorted(c.rank for c in cards)
    lead = view.trick[0] if view.trick else None
    for low, high in pairwise(ranks):
        for r in range(low + 1, high):
            between = Card.of(Rank(r), suit)
            if between in unseen or between == lead:
                return False

    def scoring(card: Card) -> tuple[int, ...]:
        return (rules.lead_points(card, contract),
                *(p for _, p, _ in rules.trick_awards(0, (card, card), 1, contract)))

    return len({scoring(c) for c in cards}) == 1


#: Opponent's hands the declarations are weighed over where the partie makes points scored by
#: both count alike (:func:`piquet.ai.declaring.choose_declaration`).
DECLARATION_WORLDS = 64

#: Points a player may still score in the rest of a deal, for judging whether a rubicon is settled.
RUBICON_MARGIN = 25

#: In the last deal, what one point of a loser who may yet reach the rubicon is worth against one
#: of the winner's. Her crossing turns her score from a gain of the winner's into a loss (Law 73),
#: about twice a hundred points; a point more for her raises the chance of it by about one in
#: fifteen (a deal's points spread over some fifteen), so each of hers weighs some ten of his.
REACH_WEIGHT = 10


class Standing(Enum):
    """Where the rubicon stands at a partie's last deal, as far as one deal's points can move it
    (:data:`RUBICON_MARGIN`): what :func:`partie_utility` plays for."""

    #: Nobody sure to win, or the loser sure to cross: the score difference is what counts.
    OPEN = "open"
    #: The leader sure to win and the loser sure to stay under the rubicon.
    SETTLED = "settled"
    #: The leader sure to win and the loser short of the rubicon but within reach of it.
    REACH = "reach"


def rubicon_standing(leader: int, trailer: int, rubicon: int) -> Standing:
    """The :class:`Standing` of a last deal begun with these totals (the deal's points so far
    included).

    >>> rubicon_standing(160, 30, 100), rubicon_standing(160, 85, 100), rubicon_standing(110, 95, 100)
    (<Standing.SETTLED: 'settled'>, <Standing.REACH: 'reach'>, <Standing.OPEN: 'open'>)
    """
    if leader <= trailer + 2 * RUBICON_MARGIN:
        return Standing.OPEN
    if trailer + RUBICON_MARGIN < rubicon:
        return Standing.SETTLED
    return Standing.REACH if trailer < rubicon else Standing.OPEN


def partie_utility(view: PlayerView, rules: Rules, reach: bool = True) -> tuple[int, int]:
    """What the solver should maximise in this deal, as seat 0's worth of a point scored by
    each seat (:attr:`piquet.ai.solver.PlayPosition.utility`).

    The score difference, except in the last deal of a partie with a rubicon: there the
    winner scores the sum of both scores and the bonus when the loser stays under the
    rubicon (Laws 72-73), so a player sure to win against a loser sure to stay under wants
    every point scored, his opponent's too, and that loser wants as few as possible
    ("each time the lead changes hand this adds one to the total score", rules/000).
    Where the loser may yet reach the rubicon (within :data:`RUBICON_MARGIN` of it), that
    is what counts: the winner should "minimise the loser's score", and the loser wants his
    own points even at the cost of some of the winner's ("the loser might try to cause [the
    lead to change hands] if it will get his score to 100"), each of the loser's points
    weighing :data:`REACH_WEIGHT` of the winner's (``reach=False``: the score difference).
    """
    seat, opponent = view.seat, view.opponent
    assert seat is not None and opponent is not None
    counted = view.counted_deals
    if rules.plays_games or counted != rules.deals_in_partie - 1:
        return (1, -1)
    points = view.deal_points
    mine = view.totals[seat] + points[seat]
    theirs = view.totals[opponent] + points[opponent]
    ahead = mine > theirs
    standing = rubicon_standing(mine, theirs, rules.rubicon) if ahead else rubicon_standing(theirs, mine, rules.rubicon)
    a, b = 1, -1  # my worth of a point I score and of a point she scores
    if standing is Standing.SETTLED:
        # she stays under and I win: her points count for me too; or I stay under and lose:
        # every point scored is paid by me
        a, b = (1, 1) if ahead else (-1, -1)
    elif standing is Standing.REACH and reach:
        # I win and keep her under; or I lose and my points may bring me over
        a, b = (1, -REACH_WEIGHT) if ahead else (REACH_WEIGHT, -1)
    return (a, b) if seat == 0 else (-b, -a)


def _unseen(view: PlayerView) -> CardSet:
    known = view.hand | view.discards | view.played | view.rest | view.peeked
    return CardSet(FULL_PACK & ~known.mask)


def sample_opponent_hands(view: PlayerView, rng: random.Random, count: int, discard_model: bool = True,
                          deadline: Deadline | None = None) -> list[tuple[CardSet, float]]:
    """Hands the opponent may hold now, the likely ones drawn more often (the declarations and
    her exchange, :meth:`~piquet.ai.inference.Inference.resample`); should the constraints be too
    rare to sample, uniform over what the view allows. None, or fewer, where the ``deadline``'s
    wall-clock cap stops the drawing."""
    inference = Inference(view)
    worlds = (inference.resample(rng, count, deadline=deadline) if discard_model
              else inference.sample(rng, count, deadline=deadline))
    if worlds:
        return [(w.opponent_hand, w.weight) for w in worlds]
    if deadline is not None and deadline.overdue():
        return []
    opponent = view.opponent
    assert opponent is not None
    size = view.hand_sizes[opponent]
    known = view.revealed[opponent] - view.played
    pool = [c for c in _unseen(view) if c not in known]
    out = []
    for _ in range(count):
        extra = rng.sample(pool, size - len(known))
        out.append((known | CardSet(extra), 1.0))
    return out


#: The settings an agent spec may change (``level5:play=48,exchange=0``), and what each sets.
SPEC_KEYS: dict[str, str] = {
    "play": "deals sampled for each card played",
    "exchange": "deals sampled for the exchange (0: the books' exchange)",
    "candidates": "discards tried in the exchange",
    "discards": "1: weigh the opponent's possible hands by her exchange; 0: uniformly",
    "bids": "deals sampled for each call in an Auction (0: the books' bidding)",
    "declare": "1: in a partie's last deal, declare for the settlement; 0: in full",
    "reach": "1: in a partie's last deal, play to bring a loser over the rubicon or keep him under; 0: for the score",
    "settle": "1: in a partie's last deal, exchange for the settlement; 0 (the default): for the score",
    "budget": "CPU seconds a decision may take, as in budget=0.5 (0: no limit, all the deals sampled)",
}

#: The settings that take a number of seconds rather than a whole number.
_SECONDS_KEYS = frozenset({"budget"})


def parse_spec(name: str) -> tuple[str, dict[str, float]]:
    """An agent spec split into its name and settings: ``level4:play=16,exchange=0`` is level 4
    sampling 16 deals for each card it plays and exchanging as the books advise; ``discards=0``
    draws the opponent's possible hands uniformly, without the model of her exchange;
    ``budget=0.5`` gives each decision half a second of CPU time (``budget=0``: no limit).

    >>> parse_spec("level5:play=48,exchange=0")
    ('level5', {'play': 48, 'exchange': 0})
    >>> parse_spec("level5:budget=0.5")
    ('level5', {'budget': 0.5})
    >>> parse_spec("level5:depth=3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: agent 'level5:depth=3': unknown setting 'depth' (known: play, exchange, ..., budget)
    """
    base, _, rest = name.partition(":")
    settings: dict[str, float] = {}
    if not rest:
        return base, settings
    for item in rest.split(","):
        key, eq, value = item.partition("=")
        key = key.strip()
        if key not in SPEC_KEYS:
            raise ValueError(f"agent {name!r}: unknown setting {key!r} (known: {', '.join(SPEC_KEYS)})")
        if key in _SECONDS_KEYS:
            try:
                seconds = float(value) if eq else -1.0
            except ValueError:
                seconds = -1.0
            if not 0 <= seconds < float("inf"):
                raise ValueError(f"agent {name!r}: {key} needs a number of seconds, as in {key}=0.5")
            settings[key] = seconds
            continue
        if not eq or not value.strip().isdigit():
            raise ValueError(f"agent {name!r}: {key} needs a whole number, as in {key}=16")
        settings[key] = int(value)
    if settings.get("play", 1) < 1:
        raise ValueError(f"agent {name!r}: play needs at least one sampled deal")
    return base, settings


def make_agent(name: str, seed: int = 0) -> Agent:
    """An agent by name: ``random``, ``simple``, ``level1`` to ``level5``; a searching level may
    take settings after a colon (:func:`parse_spec`), for measuring one change in the arena."""
    rng = random.Random(seed)
    base, settings = parse_spec(name)
    if settings:
        if base not in ("level3", "level4", "level5"):
            raise ValueError(f"agent {name!r}: only the searching levels 3-5 take settings")
        level = int(base[-1])
        base_settings = LEVELS[level]
        return SearchAgent(level, rng, Level(
            play_worlds=int(settings.get("play", base_settings.play_worlds)),
            exchange_worlds=int(settings.get("exchange", base_settings.exchange_worlds)),
            exchange_candidates=int(settings.get("candidates", base_settings.exchange_candidates)),
            discard_model=bool(settings.get("discards", base_settings.discard_model)),
            bid_worlds=int(settings.get("bids", base_settings.bid_worlds)),
            partie_declarations=bool(settings.get("declare", base_settings.partie_declarations)),
            rubicon_reach=bool(settings.get("reach", base_settings.rubicon_reach)),
            partie_exchange=bool(settings.get("settle", base_settings.partie_exchange)),
            budget=settings.get("budget", base_settings.budget),
        ))
    makers: dict[str, Callable[[], Agent]] = {
        "random": lambda: RandomAgent(rng),
        "simple": lambda: SimpleAgent(rng),
        "level1": lambda: BeginnerAgent(rng),
        "level2": lambda: SimpleAgent(rng),
        "level3": lambda: SearchAgent(3, rng),
        "level4": lambda: SearchAgent(4, rng),
        "level5": lambda: SearchAgent(5, rng),
    }
    if name not in makers:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(makers)})")
    return makers[name]()


AGENT_NAMES: Sequence[str] = ("random", "simple", "level1", "level2", "level3", "level4", "level5")
