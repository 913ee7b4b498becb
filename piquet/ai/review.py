"""The review of the card play, the declarations and the exchange: what each card a player could have
played (each declaration, each discard) was worth, and why.

For one decision of the play, every legal card is valued in points of the deal (the player's points
from here to the end of the deal less the opponent's), through two lenses:

- **open hands** (:attr:`Lens.OPEN`): every card known, exact, from the solver
  (:func:`piquet.ai.solver.solve` with all values), for hindsight;
- **fair** (:attr:`Lens.FAIR`): what the player could know: the mean over the opponent's hands his
  view allows, drawn as the strongest level draws them (:func:`piquet.ai.levels.sample_opponent_hands`,
  seeded), each solved exactly. This one grades.

Each value is **broken down** (:class:`Part`) into where its points come from, by following the
principal line after the card (both sides playing a best card, as the solver finds it, to the end
of the deal) and totalling what each kind of point brings; the parts sum to the value. The
explanation (:func:`explain`) is built from that breakdown alone.

The declarations (:func:`review_declaration`) are valued as the levels weigh them: the points the
declarations score in hand, by the partie's stakes. The exchange (:func:`review_exchange`): the
strongest level's candidate discards and the choice made, each valued over the talons and hands the
view allows as that level values them (fair), or against the real talon and hand with the play solved
(open hands), broken down by :class:`Part` (the declarations' categories, the repique, the pique, the
play) and explained from that breakdown (:func:`explain_exchange`). :func:`review_partie` reviews a
whole record, with the luck of each deal (:mod:`piquet.ai.luck`). How, and the marks' thresholds: docs/review.md.

Two tricks to play, five won by each: leading the ace of spades takes both, and the last trick and the
cards' ten with them; leading the queen gives the king the trick, the lead to the seven of hearts,
which the ace cannot follow, and the cards to the opponent.

>>> from piquet.ai.solver import PlayPosition
>>> from piquet.engine.cards import Card, CardSet
>>> from piquet.engine.variants import make_rules
>>> position = PlayPosition(hands=(CardSet.parse("AS QS").mask, CardSet.parse("KS 7H").mask),
...                         to_act=0, elder=0, tricks_won=(5, 5), scores=(20, 15))
>>> review = review_position(position, make_rules("rubicon"), Card.parse("QS"))
>>> [(str(w.card), w.value) for w in review.cards]
[('AS', 13.0), ('QS', -12.0)]
>>> review.loss, review.mark
(25.0, '??')
>>> {part.value: v for part, v in review.worth(Card.parse("AS")).parts.items() if v}
{'lead': 2.0, 'last_trick': 1.0, 'cards': 10.0}
>>> print(explain(review, ("Ann", "Bill")))
Leading the Q♠ rather than the A♠ costs Ann 25 points: it gives up the cards (−20; 5 tricks instead \
of 7), the points for leading (−2), the last trick (−2) and the points for tricks won (−1). Bill takes \
the trick with the K♠.
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from piquet.ai.bidding import (
    TRICK_SPREAD,
    _candidates,
    _Deal,
    _spread,
    auction_weight,
    contract_discards,
    contract_points,
    estimate_tricks,
)
from piquet.ai.books import SimpleAgent, discard_choice, minus_discards
from piquet.ai.budget import Deadline
from piquet.ai.declaring import declaration_parts, declaration_values
from piquet.ai.exchange import (
    candidate_discards,
    decided_by_hands,
    drawn,
    talon_tops,
    valuation,
    worlds_after_elder,
    younger_takes,
)
from piquet.ai.inference import Inference, World
from piquet.ai.ladder import describe, played_like
from piquet.ai.levels import DECLARATION_WORLDS, LEVELS, partie_utility, sample_opponent_hands
from piquet.ai.luck import DealLuck, LuckSummary, partie_luck, summarise
from piquet.ai.solver import PlayPosition, play, position_from_partie, position_from_view, solve
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
from piquet.engine.cards import CARDS, FULL_PACK, Card, CardSet
from piquet.engine.combinations import Category, call, maximal
from piquet.engine.partie import Partie, Phase
from piquet.engine.record import playing_on
from piquet.engine.scoring import (
    ContractMadeReason,
    ContractTricksReason,
    LeadReason,
    OwnLeadReason,
    PlainReason,
    Reason,
    ScoreCategory,
    TrickReason,
)
from piquet.engine.variants import Rules
from piquet.engine.view import PlayerView

__all__ = [
    "ACCEPT",
    "CONCEDE",
    "DECLINE",
    "DEFAULT_WORLDS",
    "EXCHANGE_CANDIDATES",
    "EXCHANGE_PARTS",
    "EXCHANGE_WORLDS",
    "MARKS",
    "PLAY_ON",
    "PLAY_PARTS",
    "WON_PARTS",
    "BestCache",
    "CardWorth",
    "ConcessionReview",
    "DeclarationReview",
    "DiscardWorth",
    "ExchangeReview",
    "Lens",
    "Line",
    "Part",
    "PartieReview",
    "PlayReview",
    "Reviewed",
    "Summary",
    "advance",
    "differences",
    "exchange_differences",
    "explain",
    "explain_concession",
    "explain_declaration",
    "explain_exchange",
    "mark",
    "parts_clauses",
    "principal_line",
    "review_concession",
    "review_decision",
    "review_declaration",
    "review_exchange",
    "review_partie",
    "review_position",
    "stakes",
]

#: The worlds the fair lens averages over, by default: as many as the strongest level samples for a card.
DEFAULT_WORLDS: Final = LEVELS[5].play_worlds

#: The marks, by the loss of the choice against the best (points of the deal), largest first: ``??`` a
#: blunder (the cards' ten, a pique, a capot), ``?`` a mistake (a few tricks' points), ``?!`` an
#: inaccuracy (about a trick changing hands). Provisional: docs/review.md says why these, and they are
#: to be calibrated on the levels' own losses.
MARKS: Final[tuple[tuple[float, str], ...]] = ((10.0, "??"), (5.0, "?"), (2.0, "?!"))

#: A loss smaller than this is no loss (the fair lens's means are floats).
_EPSILON: Final = 1e-9


class Lens(enum.Enum):
    """What the values may know: every card (open hands) or what the player's view allows (fair)."""

    OPEN = "open-hands"
    FAIR = "fair"


class Part(enum.Enum):
    """Where the points come from: in the play (the scoring of Laws 65-69 and Auction's contract,
    :data:`PLAY_PARTS`), and before it, in the exchange's value (the declarations, a carte blanche, the
    repique, and the play as the exchange estimates it, :data:`EXCHANGE_PARTS`)."""

    LEAD = "lead"
    TRICKS = "tricks"
    LAST_TRICK = "last_trick"
    CARDS = "cards"
    CAPOT = "capot"
    PIQUE = "pique"
    CONTRACT = "contract"
    CARTE_BLANCHE = "carte_blanche"
    POINT = "point"
    SEQUENCES = "sequences"
    SETS = "sets"
    REPIQUE = "repique"
    PLAY = "play"
    CARTE_ROUGE = "carte_rouge"

    @property
    def words(self) -> str:
        """The part in the game's words, as a sentence names it."""
        return _PART_WORDS[self]


_PART_WORDS: Final = {
    Part.LEAD: "the points for leading", Part.TRICKS: "the points for tricks won", Part.LAST_TRICK: "the last trick",
    Part.CARDS: "the cards", Part.CAPOT: "the capot", Part.PIQUE: "the pique", Part.CONTRACT: "the contract",
    Part.CARTE_BLANCHE: "the carte blanche", Part.POINT: "the point", Part.SEQUENCES: "the sequences",
    Part.SETS: "the sets", Part.REPIQUE: "the repique", Part.PLAY: "the play", Part.CARTE_ROUGE: "the carte rouge",
}

#: The parts of a card's value in the play, in the order they are scored.
PLAY_PARTS: Final = (Part.LEAD, Part.TRICKS, Part.LAST_TRICK, Part.CARDS, Part.CAPOT, Part.PIQUE, Part.CONTRACT)

#: One scoring in the play: who scores, how many points, and where they come from.
Scored = tuple[int, int, Part]


# ---------------------------------------------------------------- one card played, scored as the solver scores it
def advance(position: PlayPosition, card: Card, rules: Rules) -> tuple[PlayPosition, tuple[Scored, ...]]:
    """The position after the player to act plays ``card``, and what it scores, in the order it is scored: the
    lead, the trick, the last trick, a pique when one is reached, and at the end of the deal the cards (or capot)
    and the contract. The scoring is the solver's own (:func:`piquet.ai.solver.play`, made from the engine's), so
    that the points along a line of play add up to the solver's value.

    >>> from piquet.engine.variants import make_rules
    >>> p = PlayPosition((CardSet.parse("AS").mask, CardSet.parse("KS").mask), 0, 0, (6, 5), (20, 20))
    >>> q, scored = advance(p, Card.parse("AS"), make_rules("rubicon"))
    >>> q.to_act, str(q.lead), [(who, pts, part.value) for who, pts, part in scored]
    (1, 'AS', [(0, 1, 'lead')])
    >>> r, scored = advance(q, Card.parse("KS"), make_rules("rubicon"))
    >>> r.tricks_won, [(who, pts, part.value) for who, pts, part in scored]
    ((7, 5), [(0, 1, 'last_trick'), (0, 10, 'cards')])
    """
    after, events = play(position, card, rules)
    return after, tuple((e.player, e.points, _part(e.why)) for e in events if e.points)


def _part(why: Reason) -> Part:
    """Where the points a reason gives come from, as a review breaks a card's value down."""
    match why:
        case LeadReason():
            return Part.LEAD
        case TrickReason() | OwnLeadReason() | PlainReason.WINS_A_TRICK | PlainReason.LOSES_A_TRICK:
            return Part.TRICKS
        case PlainReason.LAST_TRICK:
            return Part.LAST_TRICK
        case PlainReason.CARDS:
            return Part.CARDS
        case PlainReason.CAPOT:
            return Part.CAPOT
        case PlainReason.PIQUE:
            return Part.PIQUE
        case ContractTricksReason() | ContractMadeReason():
            return Part.CONTRACT
    raise ValueError(f"not a score of the play: {why!r}")


def _worth_to(position: PlayPosition, seat: int, who: int, points: int) -> int:
    """What ``points`` scored by ``who`` are worth to ``seat`` by the position's utility."""
    u = position.utility[who] * points
    return u if seat == 0 else -u


# ---------------------------------------------------------------- the principal line and its breakdown
@dataclass(frozen=True)
class Line:
    """A card and the best play after it to the end of the deal: the cards in the order played, what
    the line brings the player who played the first card, part by part (which sum to its value), and
    the tricks each seat has at the end."""

    cards: tuple[Card, ...]
    parts: Mapping[Part, int]
    tricks_won: tuple[int, int]
    #: The points each seat scores along the line (the parts are these by the position's utility).
    points: tuple[int, int] = (0, 0)

    @property
    def value(self) -> int:
        return sum(self.parts.values())


#: Best cards found, by position: a review's many lines pass through the same positions.
BestCache = dict[PlayPosition, Card]


def _best_card(position: PlayPosition, rules: Rules, cache: BestCache) -> Card:
    found = cache.get(position)
    if found is not None:
        return found
    me = position.to_act
    hand = position.hands[me]
    if position.lead is not None:
        hand = hand & (0xFF << (8 * position.lead.suit)) or hand
    # One card: no search.
    found = CARDS[hand.bit_length() - 1] if hand & (hand - 1) == 0 else solve(position, rules, all_best=False).best[0]
    cache[position] = found
    return found


def principal_line(position: PlayPosition, card: Card, rules: Rules, cache: BestCache | None = None) -> Line:
    """``card`` played, then a best card by whoever is to play, to the end of the deal, with the points
    each part brings the player who played ``card`` (the position's utility); the parts sum to the
    solver's value of ``card``. ``cache`` keeps the best cards found for other lines.

    >>> from piquet.engine.variants import make_rules
    >>> p = PlayPosition((CardSet.parse("AS QS").mask, CardSet.parse("KS 7H").mask), 0, 0, (5, 5), (20, 15))
    >>> line = principal_line(p, Card.parse("QS"), make_rules("rubicon"))
    >>> [str(c) for c in line.cards], line.value, line.tricks_won
    (['QS', 'KS', '7H', 'AS'], -12, (5, 7))
    """
    cache = {} if cache is None else cache
    seat = position.to_act
    parts = dict.fromkeys(PLAY_PARTS, 0)
    raw = [0, 0]
    played = [card]
    current, scored = advance(position, card, rules)
    while True:
        for who, points, part in scored:
            parts[part] += _worth_to(position, seat, who, points)
            raw[who] += points
        if current.over:
            break
        best = _best_card(current, rules, cache)
        played.append(best)
        current, scored = advance(current, best, rules)
    return Line(tuple(played), parts, current.tricks_won, (raw[0], raw[1]))


# ---------------------------------------------------------------- one decision
@dataclass(frozen=True)
class CardWorth:
    """One legal card's value for the player to act (points of the deal from here, his less the
    opponent's; a mean over the worlds in the fair lens), its breakdown by :class:`Part` (``None`` where
    it was not asked for), the tricks the player ends the deal with on its line, (open hands) the line,
    and how often the opponent takes its trick."""

    card: Card
    value: float
    parts: Mapping[Part, float] | None = None
    tricks: float | None = None
    line: tuple[Card, ...] | None = None
    #: The share of the worlds in which the opponent takes this card's trick on its line (0 or 1 with open hands).
    lost_trick: float | None = None
    #: Where broken down: the player's points less the opponent's along its line(s), in points of the deal (the
    #: value itself where the utility is the score difference).
    points: float | None = None


@dataclass(frozen=True)
class PlayReview:
    """A play decision reviewed: the card chosen, the best card (the choice itself when it is as good as
    any), the loss (the best value less the choice's), the mark, and every legal card's worth, best first."""

    seat: int
    lens: Lens
    worlds: int
    leading: bool
    choice: Card
    best: Card
    loss: float
    cards: tuple[CardWorth, ...]
    #: The player's worth of a point of his and of one of the opponent's: ``(1, -1)``, points of the deal, except
    #: where the partie's stakes make it otherwise (the last deal, :func:`~piquet.ai.levels.partie_utility`).
    utility: tuple[int, int] = (1, -1)

    @property
    def mark(self) -> str:
        """``??``, ``?``, ``?!`` or ``""`` by :data:`MARKS`."""
        return mark(self.loss)

    def worth(self, card: Card) -> CardWorth:
        for w in self.cards:
            if w.card == card:
                return w
        raise KeyError(f"{card} was not a legal card here")


def mark(loss: float) -> str:
    """The mark a loss earns (:data:`MARKS`).

    >>> mark(0.0), mark(2.0), mark(7.5), mark(20)
    ('', '?!', '?', '??')
    """
    for threshold, sign in MARKS:
        if loss >= threshold - _EPSILON:
            return sign
    return ""


def _legal_cards(position: PlayPosition) -> list[Card]:
    hand = position.hands[position.to_act]
    if position.lead is not None:
        hand = hand & (0xFF << (8 * position.lead.suit)) or hand
    return list(CardSet(hand))


def _summarise(seat: int, lens: Lens, worlds: Sequence[tuple[PlayPosition, float]], choice: Card, rules: Rules,
               broken_down: Collection[Card] | None, cache: BestCache, runner_up: bool = False,
               deadline: Deadline | None = None) -> PlayReview:
    """The mean over ``worlds`` (positions and weights) of each card's solver value, and of the
    breakdown of the cards in ``broken_down`` (all with ``None``; the choice and the best always, and with
    ``runner_up`` the best card after the best). A ``deadline`` stops the solving before a world it cannot
    pay for, the breakdown's work counted (never before the first world): the worlds solved are the review's."""
    legal = _legal_cards(worlds[0][0])
    if choice not in legal:
        raise ValueError(f"{choice} is not a legal card here")
    solved: list[dict[Card, int]] = []
    start = deadline.elapsed() if deadline is not None else 0.0
    for i, (position, _) in enumerate(worlds):
        # The next world costs what the worlds so far did, on average; the breakdown follows a line for a few cards
        # in each world solved: about as much again.
        if i and deadline is not None and deadline.spent(ahead=2 * (deadline.elapsed() - start) / i):
            break
        solved.append(solve(position, rules, all_values=True).values)
    worlds = worlds[:len(solved)]
    total_weight = sum(w for _, w in worlds)
    values = dict.fromkeys(legal, 0.0)
    for (_, weight), solution in zip(worlds, solved, strict=True):
        for card in legal:
            values[card] += weight * solution[card] / total_weight
    top = max(values.values())
    order = sorted(legal, key=lambda c: (-values[c], c != choice, -c.rank, c.suit))
    best = choice if values[choice] >= top - _EPSILON else order[0]
    wanted = set(legal if broken_down is None else broken_down) | {choice, best}
    if runner_up and len(order) > 1:
        wanted.add(next(c for c in order if c != best))
    parts: dict[Card, dict[Part, float]] = {c: dict.fromkeys(PLAY_PARTS, 0.0) for c in wanted}
    tricks = dict.fromkeys(wanted, 0.0)
    net = dict.fromkeys(wanted, 0.0)
    lost = dict.fromkeys(wanted, 0.0)
    lines: dict[Card, tuple[Card, ...]] = {}
    for position, weight in worlds:
        share = weight / total_weight
        for card in wanted:
            line = principal_line(position, card, rules, cache)
            for part, points in line.parts.items():
                parts[card][part] += share * points
            tricks[card] += share * line.tricks_won[seat]
            net[card] += share * (line.points[seat] - line.points[1 - seat])
            lead, follow = (card, line.cards[1]) if position.lead is None else (position.lead, card)
            if follow.beats(lead) == (position.lead is None):
                lost[card] += share
            if lens is Lens.OPEN:
                lines[card] = line.cards
    cards = tuple(CardWorth(c, values[c], parts.get(c), tricks.get(c), lines.get(c), lost.get(c), net.get(c))
                  for c in order)
    first = worlds[0][0]
    u = first.utility
    mine = u if seat == 0 else (-u[1], -u[0])
    return PlayReview(seat, lens, len(worlds), first.lead is None, choice, best, max(0.0, top - values[choice]), cards,
                      mine)


def review_position(position: PlayPosition, rules: Rules, choice: Card, broken_down: Collection[Card] | None = None,
                    cache: BestCache | None = None) -> PlayReview:
    """The open-hands review of playing ``choice`` in ``position`` (every card known): each legal card's
    exact value, the breakdown of those in ``broken_down`` (``None``: all), the best, the loss."""
    return _summarise(position.to_act, Lens.OPEN, [(position, 1.0)], choice, rules, broken_down,
                      {} if cache is None else cache)


def review_decision(partie: Partie, choice: Card, lens: Lens = Lens.FAIR, worlds: int = DEFAULT_WORLDS,
                    rng: random.Random | None = None, broken_down: Collection[Card] | None = None,
                    cache: BestCache | None = None, runner_up: bool = False,
                    deadline: Deadline | None = None) -> PlayReview:
    """The review of the player to act in ``partie`` (in the play) playing ``choice``: with every card
    known (:attr:`Lens.OPEN`, exact), or over ``worlds`` hands the opponent may hold as the player's view
    allows them, drawn by ``rng`` as the strongest level draws them (:attr:`Lens.FAIR`). The values are
    in points of the deal, or by the partie's stakes where the levels play for them (the last deal,
    :func:`~piquet.ai.levels.partie_utility`); what elder's first lead reckons counts, as it does for
    whether a pique may come. ``runner_up``: break down the best card after the best too (a hint's reason).
    ``deadline``: the fair lens solves worlds until it is spent (at least one; the review says how many).
    """
    if partie.phase is not Phase.PLAY:
        raise ValueError(f"no card to review: it is the {partie.phase.value}")
    seat = partie.to_act
    assert seat is not None
    cache = {} if cache is None else cache
    view = partie.view(seat)
    utility = partie_utility(view, partie.rules)
    if lens is Lens.OPEN:
        return _summarise(seat, lens, [(position_from_partie(partie, utility), 1.0)], choice, partie.rules,
                          broken_down, cache)
    if worlds < 1:
        raise ValueError("the fair lens needs at least one world")
    drawn = sample_opponent_hands(view, rng or random.Random(0), worlds)
    positions = [(position_from_view(view, hand, utility), weight) for hand, weight in drawn]
    return _summarise(seat, lens, positions, choice, partie.rules, broken_down, cache, runner_up, deadline)


# ---------------------------------------------------------------- the explanation
def _number(x: float, lens: Lens | None) -> str:
    """A number of points as the lens gives it: whole with open hands, to a tenth in the fair lens."""
    text = f"{x:.0f}" if lens is Lens.OPEN or abs(x - round(x)) < 0.05 else f"{x:.1f}"
    return "0" if text in ("-0", "-0.0") else text


def _signed(x: float, lens: Lens | None) -> str:
    text = _number(abs(x), lens)
    return ("−" if x < 0 else "+") + text


def differences(review: PlayReview) -> list[tuple[Part, float]]:
    """What the choice brings, part by part, less what the best brings: the parts an explanation names,
    largest first (:func:`_named`: those that differ by half a point or more, and as many more as it takes for the
    parts named to add up to the whole difference as the lens shows it). Where the capot differs, the cards'
    difference is counted in it (a capot is scored instead of the cards).

    >>> from piquet.ai.solver import PlayPosition
    >>> from piquet.engine.variants import make_rules
    >>> p = PlayPosition((CardSet.parse("AS QS").mask, CardSet.parse("KS 7H").mask), 0, 0, (5, 5), (20, 15))
    >>> [(part.value, x) for part, x in differences(review_position(p, make_rules("rubicon"), Card.parse("QS")))]
    [('cards', -20.0), ('lead', -2.0), ('last_trick', -2.0), ('tricks', -1.0)]
    """
    choice, best = review.worth(review.choice), review.worth(review.best)
    if choice.parts is None or best.parts is None:
        raise ValueError("the choice and the best were not broken down")
    diffs = {part: choice.parts[part] - best.parts[part] for part in PLAY_PARTS}
    if abs(diffs[Part.CAPOT]) >= 0.5:
        # A capot is scored instead of the cards: what it costs or brings is its own less the cards'.
        diffs[Part.CAPOT] += diffs[Part.CARDS]
        diffs[Part.CARDS] = 0.0
    return _named(diffs, review.lens)


def _unit(lens: Lens | None) -> str:
    """What a number of points is given to in the lens (:func:`_number`)."""
    return "a point" if lens is Lens.OPEN else "a tenth of a point"


def _plural(text: str, word: str) -> str:
    return f"{text} {word}{'' if text == '1' else 's'}"


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def stakes(utility: tuple[int, int]) -> str:
    """The words a value's units add: none for points of the deal (the player's less the opponent's), else that
    they are weighed by the partie's stakes (:func:`~piquet.ai.levels.partie_utility`).

    >>> stakes((1, -1)), stakes((1, 1))
    ('', " by the partie's stakes")
    """
    return "" if utility == (1, -1) else " by the partie's stakes"


def explain(review: PlayReview, names: tuple[str, str]) -> str:
    """The review in a sentence, computed from the breakdowns of the choice and the best
    (:func:`differences`): what the choice gives up and what it gains against the best, by how much,
    and for the cards and capot the tricks each ends the deal with. A best choice says by how much it is
    better than the next card, or which cards are as good."""
    lens = review.lens
    verb = "Leading" if review.leading else "Playing"
    choice, best = review.worth(review.choice), review.worth(review.best)
    average = (" on average" if lens is Lens.FAIR else "") + stakes(review.utility)
    card = review.choice.pretty()
    if _number(review.loss, lens) == "0" and review.loss >= _EPSILON:  # less than the lens shows
        return f"{verb} the {card}: as good as the best, the {review.best.pretty()}, to {_unit(lens)}{average}."
    if review.loss < _EPSILON:
        others = [w for w in review.cards if w.card != review.choice]
        if not others:
            return f"{verb} the {card}: the only card."
        ties = [w.card.pretty() for w in others if choice.value - w.value < _EPSILON]
        if len(ties) > 2:
            return f"{verb} the {card}: one of {len(ties) + 1} cards as good as any."
        if ties:
            return f"{verb} the {card}: as good as the {_listed(ties)}."
        margin = _number(choice.value - others[0].value, lens)
        other = others[0].card.pretty()
        if margin == "0":
            return f"{verb} the {card}: as good as the {other}, to {_unit(lens)}{average}."
        return f"{verb} the {card}: the best, by {_plural(margin, 'point')}{average} over the {other}."
    lost: list[str] = []
    gained: list[str] = []
    for part, x in differences(review):
        said = f"{part.words} ({_signed(x, lens)}"
        if part in (Part.CARDS, Part.CAPOT) and choice.tricks is not None and best.tricks is not None \
                and abs(choice.tricks - best.tricks) >= 0.5:
            said += f"; {_number(choice.tricks, lens)} tricks instead of {_number(best.tricks, lens)}"
        (lost if x < 0 else gained).append(said + ")")
    clauses = []
    if lost:
        clauses.append(f"it gives up {_listed(lost)}")
    if gained:
        clauses.append(f"{'and ' if lost else 'it '}gains {_listed(gained)}")
    loss = _number(review.loss, lens)
    text = (f"{verb} the {card} rather than the {review.best.pretty()} costs {names[review.seat]} "
            f"{_plural(loss, 'point')}{average}: {' '.join(clauses)}.")
    return text + _trick_taken(review, names[1 - review.seat])


def _trick_taken(review: PlayReview, opponent: str) -> str:
    """A sentence on the trick itself, when the choice lets the opponent take it more often than the best
    does (by a quarter of the worlds or more): with open hands, with which card."""
    choice, best = review.worth(review.choice), review.worth(review.best)
    if choice.lost_trick is None or best.lost_trick is None or choice.lost_trick - best.lost_trick < 0.25:
        return ""
    if review.lens is Lens.OPEN:
        if review.leading and choice.line is not None:
            return f" {opponent} takes the trick with the {choice.line[1].pretty()}."
        return f" {opponent} takes the trick."
    return (f" {opponent} takes the trick in {choice.lost_trick:.0%} of the hands sampled "
            f"({best.lost_trick:.0%} after the {review.best.pretty()}).")


# ---------------------------------------------------------------- the declarations
@dataclass(frozen=True)
class DeclarationReview:
    """A declaration reviewed: each declaration the engine allowed (in full, a smaller call, nothing),
    valued as :mod:`piquet.ai.declaring` reckons them: the mean over ``worlds`` hands the opponent may hold
    of the points the declarations score in hand (this one, those already made, the rest in full, hers as
    heard or as the books make them; the repique, and elder's pique as the exchange estimates it), each
    seat's points valued by the partie's stakes (``utility``: the player's worth of a point of his and of
    one of hers; ``(1, -1)`` but in a partie's last deal). Best first."""

    seat: int
    lens: Lens
    worlds: int
    utility: tuple[int, int]
    choice: Declare
    best: Declare
    loss: float
    options: tuple[tuple[Declare, float], ...]
    #: Each option's value by part (:data:`DECLARATION_PARTS`: the carte blanche, the point, the sequences, the
    #: sets, the repique, elder's pique), summing to its value.
    parts: Mapping[Declare, Mapping[Part, float]] = field(default_factory=dict)

    @property
    def mark(self) -> str:
        return mark(self.loss)


#: Where a declaration's value comes from (:func:`piquet.ai.declaring.declaration_parts`' order).
DECLARATION_PARTS: Final = (Part.CARTE_BLANCHE, Part.POINT, Part.SEQUENCES, Part.SETS, Part.REPIQUE, Part.PIQUE)


def review_declaration(partie: Partie, choice: Declare, lens: Lens = Lens.FAIR, worlds: int = DECLARATION_WORLDS,
                       rng: random.Random | None = None) -> DeclarationReview:
    """The review of the player to act in ``partie`` (at a declaration) making ``choice``: every legal
    declaration of that category valued over ``worlds`` hands the opponent may hold (:attr:`Lens.FAIR`,
    as the levels weigh them) or against the hand she holds (:attr:`Lens.OPEN`) (:class:`DeclarationReview`)."""
    seat = partie.to_act
    if partie.phase is not Phase.DECLARE or seat is None:
        raise ValueError(f"no declaration to review: it is the {partie.phase.value}")
    options = [a for a in partie.legal_actions(seat) if isinstance(a, Declare)]
    if choice not in options:
        raise ValueError(f"{choice.describe(partie.players)}: not a legal declaration here")
    view = partie.view(seat)
    opponent = 1 - seat
    rules = view.rules
    u = partie_utility(view, rules)
    mine = u if seat == 0 else (-u[1], -u[0])
    if lens is Lens.OPEN:
        sampled = [World(partie.hand(opponent), CardSet(), ())]
    else:
        sampled = Inference(view).sample(rng or random.Random(0), worlds)
    if not sampled:  # the constraints too rare to sample: the hands as the view allows, uniformly
        sampled = [World(hand, CardSet(), ()) for hand, _ in sample_opponent_hands(view, rng or random.Random(0),
                                                                                    worlds, False)]
    total_weight = sum(w.weight for w in sampled)
    values = [v / total_weight for v in declaration_values(view, options, sampled, mine)]
    parts = {o: {part: x / total_weight for part, x in zip(DECLARATION_PARTS, row, strict=True)}
             for o, row in zip(options, declaration_parts(view, options, sampled, mine), strict=True)}
    worth = dict(zip(options, values, strict=True))
    top = max(values)
    best = choice if worth[choice] >= top - _EPSILON else max(options, key=lambda o: worth[o])
    order = sorted(options, key=lambda o: (-worth[o], o != choice))
    return DeclarationReview(seat, lens, len(sampled), mine, choice, best, max(0.0, top - worth[choice]),
                             tuple((o, worth[o]) for o in order), parts)


def declaration_differences(review: DeclarationReview) -> list[tuple[Part, float]]:
    """What the choice brings, part by part, less what the best brings (for a best choice: less what the next
    brings), the parts an explanation names (:func:`_named`), largest first."""
    compared = review.best if review.best != review.choice else next(
        (o for o, _ in review.options if o != review.choice), review.choice)
    mine, other = review.parts.get(review.choice), review.parts.get(compared)
    if mine is None or other is None:
        return []
    return _named({part: mine[part] - other[part] for part in DECLARATION_PARTS}, review.lens)


def parts_clauses(diffs: Sequence[tuple[Part, float]], lens: Lens | None) -> str:
    """``it gives up A (−x) and gains B (+y)``: the parts in which a choice differs from another, as named (nothing
    where none differs)."""
    said = [(f"{p.words} ({_signed(x, lens)})", x) for p, x in diffs if abs(x) >= _EPSILON]
    lost = [t for t, x in said if x < 0]
    gained = [t for t, x in said if x > 0]
    clauses = []
    if lost:
        clauses.append(f"it gives up {_listed(lost)}")
    if gained:
        clauses.append(f"{'and ' if lost else 'it '}gains {_listed(gained)}")
    return " ".join(clauses)


def _named(diffs: Mapping[Part, float], lens: Lens | None) -> list[tuple[Part, float]]:
    """The parts an explanation names, largest first (ties in the order given): those differing by half a point or
    more (the largest always), then the next largest for as long as the parts named leave out something the lens
    shows of the whole difference (a tenth of a point in the fair lens, a point with open hands), so that the
    parts an explanation names add up to the total it explains.

    >>> [(p.value, x) for p, x in _named({Part.POINT: -1.0, Part.REPIQUE: 0.6, Part.PIQUE: 0.43}, Lens.FAIR)]
    [('point', -1.0), ('repique', 0.6), ('pique', 0.43)]
    >>> [(p.value, x) for p, x in _named({Part.POINT: -1.0, Part.REPIQUE: 0.6, Part.PIQUE: 0.02}, Lens.FAIR)]
    [('point', -1.0), ('repique', 0.6)]
    """
    order = sorted(diffs, key=lambda p: -abs(diffs[p]))
    named = [p for p in order if abs(diffs[p]) >= 0.5] or order[:1]
    half_a_unit = 0.5 if lens is Lens.OPEN else 0.05
    total = sum(diffs.values())
    for part in order[len(named):]:
        if abs(total - sum(diffs[p] for p in named)) < half_a_unit:
            break
        named.append(part)
    return [(p, diffs[p]) for p in named]


def _declaration_effects(review: DeclarationReview) -> str:
    """``: it gives up ... and gains ...`` from :func:`declaration_differences`, or nothing."""
    said = parts_clauses(declaration_differences(review), review.lens)
    return f": {said}" if said else ""


def _declared(declare: Declare) -> str:
    shown = " and ".join(c.pretty() for c in declare.combinations) or "nothing"
    return f"{shown} for {_CATEGORY_WORDS[declare.category]}"


_CATEGORY_WORDS: Final = {Category.POINT: "the point", Category.SEQUENCES: "sequences", Category.SETS: "sets"}


def explain_declaration(review: DeclarationReview, names: tuple[str, str]) -> str:
    """The declaration's review in a sentence: what was declared against the best, and what it cost in the
    points the declarations score (the partie's stakes where they are not the score difference)."""
    said_stakes = stakes(review.utility)
    average = " on average" if review.lens is Lens.FAIR else ""
    if review.loss < _EPSILON:
        others = [(o, v) for o, v in review.options if o != review.choice]
        value = dict(review.options)[review.choice]
        if not others:
            return f"Declaring {_declared(review.choice)}: the only declaration."
        if value - others[0][1] < _EPSILON:
            return f"Declaring {_declared(review.choice)}: as good as any{said_stakes}."
        margin = _number(value - others[0][1], review.lens)
        if margin == "0":
            return (f"Declaring {_declared(review.choice)}: as good as {_declared(others[0][0])}, to "
                    f"{_unit(review.lens)}{average}{said_stakes}.")
        return (f"Declaring {_declared(review.choice)}: the best, by {_plural(margin, 'point')}{average}{said_stakes}"
                f"{_declaration_effects(review)}.")
    if _number(review.loss, review.lens) == "0":  # less than the lens shows
        return (f"Declaring {_declared(review.choice)}: as good as the best, {_declared(review.best)}, to "
                f"{_unit(review.lens)}{average}{said_stakes}.")
    loss = _plural(_number(review.loss, review.lens), "point")
    return (f"Declaring {_declared(review.choice)} rather than {_declared(review.best)} costs "
            f"{names[review.seat]} {loss}{average}{said_stakes} in what the declarations score"
            f"{_declaration_effects(review)}.")


# ---------------------------------------------------------------- the exchange
#: Talons and opponent's hands the fair lens values an exchange over, by default: as many as the strongest
#: level samples for its own exchange.
EXCHANGE_WORLDS: Final = LEVELS[5].exchange_worlds

#: The discards valued, by default: as many as the strongest level tries (the choice made is added to them).
EXCHANGE_CANDIDATES: Final = LEVELS[5].exchange_candidates

#: The parts an exchange's value is broken down into, in the order they are reckoned: a carte blanche already
#: scored, the declarations, the repique and the pique, then the play (one estimate in the fair lens; the
#: solver's line, by its own parts, with open hands) and Auction's contract.
EXCHANGE_PARTS: Final = (Part.CARTE_BLANCHE, Part.POINT, Part.SEQUENCES, Part.SETS, Part.REPIQUE, Part.PIQUE,
                         Part.PLAY, Part.CONTRACT, Part.LEAD, Part.TRICKS, Part.LAST_TRICK, Part.CARDS, Part.CAPOT)

#: The parts whose winning an exchange review counts (the share of the worlds in which the player scores them).
WON_PARTS: Final = (Part.POINT, Part.SEQUENCES, Part.SETS, Part.REPIQUE, Part.PIQUE)

_AT: Final = {part: i for i, part in enumerate(EXCHANGE_PARTS)}
_BIT: Final = {part: 1 << i for i, part in enumerate(WON_PARTS)}
# The same, read once for the loop over worlds and discards (an enum member hashes in Python).
_AT_CARTE_BLANCHE: Final = _AT[Part.CARTE_BLANCHE]
_AT_PIQUE: Final = _AT[Part.PIQUE]
_AT_PLAY: Final = _AT[Part.PLAY]
_AT_CONTRACT: Final = _AT[Part.CONTRACT]
_DECLARED_AT: Final = tuple(_AT[part] for part in (Part.POINT, Part.SEQUENCES, Part.SETS, Part.REPIQUE))
_WON_BITS: Final = tuple(_BIT[part] for part in WON_PARTS)
_POINT_BIT: Final = _BIT[Part.POINT]
_SEQUENCES_BIT: Final = _BIT[Part.SEQUENCES]
_SETS_BIT: Final = _BIT[Part.SETS]
_REPIQUE_BIT: Final = _BIT[Part.REPIQUE]
_PIQUE_BIT: Final = _BIT[Part.PIQUE]



@dataclass(frozen=True)
class DiscardWorth:
    """One discard's value for the player at the exchange: his points of the deal from the exchange on less
    the opponent's (or by the partie's stakes), a mean over the worlds in the fair lens; its breakdown by
    :class:`Part` (the parts sum to the value); and for each of :data:`WON_PARTS` the share of the worlds in
    which he scores it (0 or 1 with open hands)."""

    discard: CardSet
    value: float
    parts: Mapping[Part, float]
    won: Mapping[Part, float]


@dataclass(frozen=True)
class ExchangeReview:
    """An exchange reviewed: the discards valued (the level's candidates and the choice made; best first),
    the choice, the best (the choice itself when it is as good as any), the loss and the mark. ``utility`` is
    the player's worth of a point of his and of one of his opponent's (``(1, -1)`` but in a partie's last
    deal); ``play`` says how the play was valued (``"estimate"``: the levels' fitted estimate; ``"solver"``:
    solved exactly, with open hands); ``parts`` the parts this review breaks values into. ``compared``: the
    discard the choice is compared with, the best, or where the choice is the best the next discard (the
    choice itself where it is the only one). ``given_up`` and ``gained``: the share of the worlds in which
    ``compared`` scores a part of :data:`WON_PARTS` and the choice does not, and the other way round.
    ``elder``: whether the player is elder. ``hand``: the player's twelve cards before the exchange."""

    seat: int
    elder: bool
    lens: Lens
    worlds: int
    utility: tuple[int, int]
    play: str
    hand: CardSet
    minimum_point: int
    choice: CardSet
    best: CardSet
    loss: float
    options: tuple[DiscardWorth, ...]
    parts: tuple[Part, ...]
    compared: CardSet
    given_up: Mapping[Part, float]
    gained: Mapping[Part, float]

    @property
    def mark(self) -> str:
        return mark(self.loss)

    def worth(self, discard: CardSet) -> DiscardWorth:
        for w in self.options:
            if w.discard == discard:
                return w
        raise KeyError(f"{discard} was not among the discards valued")


def _uniform_worlds(view: PlayerView, rng: random.Random, count: int) -> list[World]:
    """Talons and opponent's hands dealt uniformly from the cards the view does not show (where the
    inference finds none): her hand as large as it is, the rest the talon."""
    opponent = view.opponent
    assert opponent is not None
    unseen = list(CardSet(FULL_PACK & ~view.known_cards().mask))
    size = view.hand_sizes[opponent]
    out = []
    for _ in range(count):
        rng.shuffle(unseen)
        out.append(World(CardSet(unseen[:size]), CardSet(), tuple(unseen[size:size + view.talon_left])))
    return out


def _exchange_worlds(view: PlayerView, lens: Lens, partie: Partie, count: int, rng: random.Random) -> list[World]:
    """The worlds an exchange is valued over: the talon left and the opponent's hand as they are (open
    hands), or as the strongest level draws them for its own exchange (fair)."""
    seat, opponent = view.seat, view.opponent
    assert seat is not None and opponent is not None
    if lens is Lens.OPEN:
        left = partie.undrawn()
        return [World(partie.hand(opponent), CardSet(), tuple(c for c in partie.talon() if c in left))]
    contract = view.contract
    sampled: list[World] | None = None
    if seat != view.elder and view.exchanged[view.elder] is not None:
        if view.rules.uses_bidding and contract is not None:
            minus = contract.minus
            sampled = worlds_after_elder(
                view, rng, count,
                lambda dealt, taken: minus_discards(dealt, taken, taken) if minus else discard_choice(dealt, taken),
                lambda dealt, talon: auction_weight(view, dealt, talon))
        else:
            sampled = worlds_after_elder(view, rng, count)
    if not sampled:
        sampled = Inference(view).sample(rng, count)
        if sampled and view.rules.uses_bidding and contract is not None:
            sampled = [replace(w, weight=w.weight * auction_weight(view, w.opponent_hand, w.talon)) for w in sampled]
    return sampled or _uniform_worlds(view, rng, count)


def _carte_blanche_points(view: PlayerView) -> tuple[int, int]:
    """The points each seat has scored for a carte blanche in this deal."""
    before = [0, 0]
    for event in view.events:
        if event.category is ScoreCategory.CARTE_BLANCHE:
            before[event.player] += event.points
    return before[0], before[1]


def review_exchange(partie: Partie, choice: Exchange, lens: Lens = Lens.FAIR, worlds: int = EXCHANGE_WORLDS,
                    rng: random.Random | None = None, candidates: int = EXCHANGE_CANDIDATES,
                    deadline: Deadline | None = None) -> ExchangeReview:
    """The review of the player to act in ``partie`` (at the exchange) making ``choice``: the discards the
    strongest level would try (``candidates`` of them, :func:`~piquet.ai.exchange.candidate_discards`, or in an
    Auction contract :func:`~piquet.ai.bidding.contract_discards`) and the choice made, each valued over
    ``worlds`` talons and opponent's hands the view allows, drawn by ``rng`` as the level draws them, each
    world valued as the level values it (:attr:`Lens.FAIR`: :func:`~piquet.ai.exchange.estimate`, or the
    contract's worth), or against the talon and the hand she really held, the declarations reckoned exactly
    and the play solved (:attr:`Lens.OPEN`). In points of the deal from the player's side, by the partie's
    stakes (:func:`~piquet.ai.levels.partie_utility`) where they are not the score difference. A ``deadline``
    stops the worlds when it is spent (never before the first). How, and why: docs/review.md, "The exchange"."""
    seat = partie.to_act
    if partie.phase is not Phase.EXCHANGE or seat is None:
        raise ValueError(f"no exchange to review: it is the {partie.phase.value}")
    if not isinstance(choice, Exchange) or choice.player != seat or not partie.can(choice):
        raise ValueError(f"{choice.describe(partie.players)}: not a legal exchange here")
    if lens is Lens.FAIR and worlds < 1:
        raise ValueError("the fair lens needs at least one world")
    view = partie.view(seat)
    rules = view.rules
    contract = view.contract
    bidding = rules.uses_bidding and contract is not None
    options = list(dict.fromkeys(contract_discards(view, candidates) if bidding
                                 else candidate_discards(view, candidates)))
    if choice.discards not in options:
        options.append(choice.discards)
    u = (1, -1) if bidding else partie_utility(view, rules)
    m, h = mine = u if seat == 0 else (-u[1], -u[0])
    elder = view.elder
    is_elder = seat == elder
    sampled = _exchange_worlds(view, lens, partie, worlds, rng or random.Random(0))
    solver = lens is Lens.OPEN
    before = _carte_blanche_points(view)
    cb_e, cb_y = before[elder], before[1 - elder]
    cb_part = m * before[seat] + h * before[1 - seat]
    hand = view.hand.mask
    # Elder with carte blanche exchanges after younger has set hers aside: she draws after his cards.
    ahead = 0 if is_elder or view.exchanged[elder] is not None else view.will_exchange or 0
    her_turn_done = view.exchanged[1 - seat] is not None
    minus = bidding and contract is not None and contract.minus
    net = [0.0] * 13
    sigma = 0.0
    if bidding and contract is not None:
        sigma = TRICK_SPREAD[minus]
        net = [float(a - b) for a, b in (contract_points(rules, contract, k) for k in range(13))]

    def answer(hers: int, rest: Sequence[Card]) -> int:
        """Younger's hand after she takes what elder left, as the books (and the levels' model) exchange."""
        if not rest:
            return hers
        if minus:
            return drawn(hers, minus_discards(CardSet(hers), 0, len(rest)), rest)
        return younger_takes(hers, rest)

    used: tuple[Part, ...]
    if solver:
        used = (Part.CARTE_BLANCHE, Part.POINT, Part.SEQUENCES, Part.SETS, Part.REPIQUE, *PLAY_PARTS)
    elif bidding:
        used = (Part.CARTE_BLANCHE, Part.POINT, Part.SEQUENCES, Part.SETS, Part.REPIQUE, Part.PIQUE, Part.CONTRACT)
    else:
        used = (Part.CARTE_BLANCHE, Part.POINT, Part.SEQUENCES, Part.SETS, Part.REPIQUE, Part.PIQUE, Part.PLAY)
    used_at = [_AT[part] for part in used]
    value = valuation(rules, contract)
    before_deal = (cb_e, cb_y)
    cache: BestCache = {}

    def in_hand(de: tuple[int, ...], dy: tuple[int, ...]) -> tuple[list[float], int]:
        """The parts (by :data:`EXCHANGE_PARTS`) the declarations give the player, and the bits of
        :data:`WON_PARTS` he wins."""
        own, other = (de, dy) if is_elder else (dy, de)
        parts = [0.0] * len(EXCHANGE_PARTS)
        parts[_AT_CARTE_BLANCHE] = cb_part
        bits = 0
        for k in range(4):
            parts[_DECLARED_AT[k]] = m * own[k] + h * other[k]
            if own[k]:
                bits |= _WON_BITS[k]
        return parts, bits

    def fair(e: int, y: int) -> tuple[Sequence[float], int]:
        """A world's parts (as ``used`` lists them) and won bits as the level values it: the declarations, the
        pique, the play's estimate."""
        de, dy, pique, play = value.reckon(e, y, before_deal)
        own, other = (de, dy) if is_elder else (dy, de)
        bits = ((_POINT_BIT if own[0] else 0) | (_SEQUENCES_BIT if own[1] else 0) | (_SETS_BIT if own[2] else 0)
                | (_REPIQUE_BIT if own[3] else 0) | (_PIQUE_BIT if pique and is_elder else 0))
        return (cb_part, m * own[0] + h * other[0], m * own[1] + h * other[1], m * own[2] + h * other[2],
                m * own[3] + h * other[3], (m if is_elder else h) * pique,
                (m - h) * (play if is_elder else -play) / 2), bits

    def solved(e: int, y: int) -> tuple[Sequence[float], int]:
        """With open hands: the declarations, then the play solved, by the principal line's parts."""
        de, dy = value.by_category(e, y, before_deal)
        parts, bits = in_hand(de, dy)
        a, b = cb_e + sum(de), cb_y + sum(dy)
        scores = (a, b) if elder == 0 else (b, a)
        hands = (e, y) if elder == 0 else (y, e)
        position = PlayPosition(hands, elder, elder, (0, 0), scores, None, bool(de[3] or dy[3]), contract, u)
        line = principal_line(position, _best_card(position, rules, cache), rules, cache)
        sign = 1 if is_elder else -1
        for part, points in line.parts.items():
            parts[_AT[part]] += sign * points
            if part is Part.PIQUE and sign * points > 0 and m > h:
                bits |= _PIQUE_BIT
        return [parts[k] for k in used_at], bits

    def contracted(e: int, y: int) -> tuple[Sequence[float], int]:
        """In an Auction contract: the declarations, the pique the hands decide, the contract's worth."""
        de, dy = value.by_category(e, y, before_deal)
        parts, bits = in_hand(de, dy)
        chances = _spread(estimate_tricks(e, y, minus), sigma)
        worth = sum(p * v for p, v in zip(chances, net, strict=True))  # the holder's (elder's)
        parts[_AT_CONTRACT] = worth if is_elder else -worth
        if not (de[3] or dy[3]):  # the pique the hands decide in order, as the level counts it
            decided = decided_by_hands(e, y, rules, contract, before_deal)
            if decided is not None and decided.category is ScoreCategory.PIQUE:
                own_pique = (decided.player == 0) == is_elder
                parts[_AT_PIQUE] = (m if own_pique else h) * decided.points
                if own_pique:
                    bits |= _PIQUE_BIT
        return [parts[k] for k in used_at], bits

    judge = solved if solver else contracted if bidding else fair
    count = len(options)
    # Each discard as the cards it keeps and how many it draws: the hand after it is those and the talon's top.
    kept = [hand & ~discard.mask for discard in options]
    sizes = [len(discard) for discard in options]
    most = max(sizes)
    totals = [[0.0] * len(used) for _ in range(count)]
    flags: list[list[int]] = [[] for _ in range(count)]
    weights: list[float] = []
    start = deadline.elapsed() if deadline is not None else 0.0
    for at, world in enumerate(sampled):
        # The next world costs what the worlds so far did, on average.
        if at and deadline is not None and deadline.spent(ahead=(deadline.elapsed() - start) / at):
            break
        weight = world.weight
        weights.append(weight)
        theirs: dict[int, int] = {}
        opponent_hand = world.opponent_hand.mask
        talon = world.talon
        if not is_elder and ahead:  # elder's cards come off the top first
            opponent_hand = drawn(opponent_hand, discard_choice(CardSet(opponent_hand), ahead), talon)
            talon = talon[ahead:]
        tops = talon_tops(talon, most)
        for i in range(count):
            n = sizes[i]
            me = kept[i] | tops[n]
            if not is_elder:
                parts, bits = judge(opponent_hand, me)
            else:
                if n not in theirs:  # younger who exchanged first (his carte blanche) holds her hand already
                    theirs[n] = answer(opponent_hand, talon[n:]) if not her_turn_done else opponent_hand
                parts, bits = judge(me, theirs[n])
            totals[i] = [total + weight * x for total, x in zip(totals[i], parts, strict=True)]
            flags[i].append(bits)
    won = [[0.0] * len(WON_PARTS) for _ in range(count)]
    for i in range(count):
        for k, bit in enumerate(_WON_BITS):
            for weight, bits in zip(weights, flags[i], strict=True):
                if bits & bit:
                    won[i][k] += weight
    total_weight = sum(weights)
    worths = []
    for i, discard in enumerate(options):
        parts_mean = {part: total / total_weight for part, total in zip(used, totals[i], strict=True)}
        worths.append(DiscardWorth(discard, sum(parts_mean.values()), parts_mean,
                                   {part: won[i][k] / total_weight for k, part in enumerate(WON_PARTS)}))
    at_choice = options.index(choice.discards)
    chosen = worths[at_choice]
    top = max(w.value for w in worths)
    order = sorted(range(count), key=lambda i: (-worths[i].value, i != at_choice, i))
    best_at = at_choice if chosen.value >= top - _EPSILON else order[0]

    def share(have: list[int], lack: list[int], bit: int) -> float:
        return sum(w for w, x, y in zip(weights, have, lack, strict=True) if x & bit and not y & bit) / total_weight

    # The choice against the best, or the best choice against the next.
    versus = best_at if best_at != at_choice else next((i for i in order if i != at_choice), at_choice)
    given_up = {part: share(flags[versus], flags[at_choice], _BIT[part]) for part in WON_PARTS}
    gained = {part: share(flags[at_choice], flags[versus], _BIT[part]) for part in WON_PARTS}
    return ExchangeReview(seat, is_elder, lens, len(weights), mine, "solver" if solver else "estimate", view.hand,
                          rules.minimum_point, choice.discards, options[best_at], max(0.0, top - chosen.value),
                          tuple(worths[i] for i in order), used, options[versus], given_up, gained)


def _kept(review: ExchangeReview, discard: CardSet, category: Category) -> list[CardSet]:
    """The player's combinations of ``category`` (as the hand held them, before the exchange) that ``discard``
    leaves whole."""
    return [c for c in maximal(category, review.hand, review.minimum_point) if not c.mask & discard.mask]


def _combination_words(category: Category, cards: CardSet) -> str:
    """A combination as the game names it: "quint major in hearts", "fourteen kings", "point of five in spades"."""
    said = call(category, cards)
    said = said[0].lower() + said[1:]
    if category is Category.SETS:
        return said
    return f"{said} in {next(iter(cards)).suit.name.lower()}"


_CATEGORY_OF: Final = {Part.POINT: Category.POINT, Part.SEQUENCES: Category.SEQUENCES, Part.SETS: Category.SETS}


def exchange_differences(review: ExchangeReview) -> list[tuple[Part, float]]:
    """What the choice brings, part by part, less what the discard it is compared with (the best, or the next
    where the choice is the best) brings: the parts an exchange's explanation names, largest first (:func:`_named`:
    those that differ by half a point or more, and as many more as it takes to add up to the whole difference)."""
    choice, other = review.worth(review.choice), review.worth(review.compared)
    diffs = {part: choice.parts[part] - other.parts[part] for part in sorted(review.parts, key=EXCHANGE_PARTS.index)}
    return _named(diffs, review.lens)


def explain_exchange(review: ExchangeReview, names: tuple[str, str]) -> str:
    """The exchange's review in sentences, built from the breakdowns of the choice and the discard it is
    compared with (:func:`exchange_differences`: the best, or the next where the choice is the best), the shares
    of the worlds in which each scores a category, and the combinations of the hand each breaks up: what the
    choice gives up and gains against the other."""
    lens = review.lens
    average = " on average" if lens is Lens.FAIR else ""
    discard = review.choice.pretty() or "nothing"
    verb = f"Discarding the {discard}" if review.choice else "Exchanging no card"
    choice = review.worth(review.choice)
    said_stakes = stakes(review.utility)
    other = review.compared.pretty() or "no card"
    if review.loss < _EPSILON:
        if review.compared == review.choice:
            return f"{verb}: the only discard valued."
        ties = [w for w in review.options if w.discard != review.choice and choice.value - w.value < _EPSILON]
        if ties:
            return f"{verb}: as good as {_plural(str(len(ties)), 'other discard')} valued."
        margin = _number(choice.value - review.worth(review.compared).value, lens)
        if margin == "0":
            return f"{verb}: as good as the {other}, to {_unit(lens)}{average}."
        effects, combinations = _exchange_effects(review)
        return (f"{verb}: the best, by {_plural(margin, 'point')}{average}{said_stakes} over the {other}: "
                f"{effects}.{combinations}")
    loss = _number(review.loss, lens)
    if loss == "0":  # a loss of less than a twentieth of a point
        return f"{verb}: as good as the best, the {other}, to a tenth of a point{average}."
    effects, combinations = _exchange_effects(review)
    return (f"{verb} rather than the {other} costs {names[review.seat]} {_plural(loss, 'point')}{average}"
            f"{said_stakes}: "
            f"{effects}.{combinations}")


def _exchange_effects(review: ExchangeReview) -> tuple[str, str]:
    """What the choice gives up and gains against the discard it is compared with, part by part, and (a
    sentence, or nothing) the combinations it breaks up or keeps."""
    lens = review.lens
    broken: list[str] = []
    kept: list[str] = []
    lost: list[str] = []
    gained: list[str] = []
    against: list[str] = []
    own_worth, her_worth = review.utility
    for part, x in exchange_differences(review):
        if part is Part.PIQUE and lens is Lens.FAIR and not review.elder:  # elder's pique, as the estimate has it
            more = x * her_worth > 0  # his pique more often where it is worth to her what it was
            against.append(f"{'lets in' if more else 'keeps off'} elder's pique more often ({_signed(x, lens)})")
            continue
        said = f"{part.words} ({_signed(x, lens)}"
        # How often: where the player's points count for him and hers against him (else scoring a category
        # is not simply winning it).
        if lens is Lens.FAIR and part in review.given_up and own_worth > 0 > her_worth:
            share = review.given_up[part] if x < 0 else review.gained[part]
            if round(share * 100) >= 1:
                said += f"; in {share:.0%} of the talons"
        (lost if x < 0 else gained).append(said + ")")
        category = _CATEGORY_OF.get(part)
        if category is not None and own_worth > 0:
            mine = _kept(review, review.choice, category)
            other = _kept(review, review.compared, category)
            if x < 0:
                broken += [_combination_words(category, c) for c in other if c not in mine][:1]
            else:
                kept += [_combination_words(category, c) for c in mine if c not in other][:1]
    effects = []
    # Where his own points do not simply count for him (a partie's last deal), what the choice loses or gains
    # on a part is not simply giving it up or gaining it.
    plain = own_worth > 0 > her_worth
    if lost:
        effects.append(f"it {'gives up' if plain else 'loses on'} {_listed(lost)}")
    if gained:
        effects.append(f"{'and ' if lost else 'it '}{'gains' if plain else 'gains on'} {_listed(gained)}")
    if against:
        effects.append(f"{'and ' if effects else 'it '}{_listed(against)}")
    combinations = []
    if broken:
        combinations.append(f"breaks up {_listed(['your ' + c for c in broken])}")
    if kept:
        combinations.append(f"keeps {_listed(['your ' + c for c in kept])}")
    return " ".join(effects), f" It {' and '.join(combinations)}." if combinations else ""


# ---------------------------------------------------------------- the auction (Auction Piquet)
#: Deals the fair lens values a call over, by default: as many as the strongest level samples for its own.
CALL_WORLDS: Final = LEVELS[5].bid_worlds

#: Where a call's points come from: the declarations the deal brings in the contract it ends in (by category, with
#: the repique or pique the hand decides at elder's first lead), and the play in that contract (its tricks, the cards
#: and the contract's own points, as the level estimates them).
CALL_PARTS: Final = (Part.CARTE_BLANCHE, Part.POINT, Part.SEQUENCES, Part.SETS, Part.CARTE_ROUGE, Part.REPIQUE,
                     Part.PIQUE, Part.CONTRACT)
_CALL_PART: Final = {ScoreCategory.CARTE_BLANCHE: Part.CARTE_BLANCHE, ScoreCategory.POINT: Part.POINT,
                     ScoreCategory.SEQUENCES: Part.SEQUENCES, ScoreCategory.SETS: Part.SETS,
                     ScoreCategory.CARTE_ROUGE: Part.CARTE_ROUGE, ScoreCategory.REPIQUE: Part.REPIQUE,
                     ScoreCategory.PIQUE: Part.PIQUE}


@dataclass(frozen=True)
class CallWorth:
    """One call's value for the player calling (points of the deal, his less the opponent's; a mean over the
    deals in the fair lens), its breakdown by :data:`CALL_PARTS` (summing to the value), and how the auction
    ends after it: the share of the deals in which he holds the contract, and in which both pass (the deal
    annulled)."""

    call: Bid
    value: float
    parts: Mapping[Part, float]
    held: float
    annulled: float


@dataclass(frozen=True)
class CallReview:
    """A call in the auction reviewed: the call made, the best (the choice itself when it is as good as any),
    the loss, the mark, and the worth of each call worth trying (and of the one made), best first."""

    seat: int
    lens: Lens
    worlds: int
    choice: Bid
    best: Bid
    loss: float
    options: tuple[CallWorth, ...]

    @property
    def mark(self) -> str:
        return mark(self.loss)

    def worth(self, call: Bid) -> CallWorth:
        for w in self.options:
            if w.call == call:
                return w
        raise KeyError(f"{call.call} was not valued here")


def review_call(partie: Partie, choice: Bid, lens: Lens = Lens.FAIR, worlds: int = CALL_WORLDS,
                rng: random.Random | None = None, deadline: Deadline | None = None) -> CallReview:
    """The review of the player to act in ``partie`` (in Auction Piquet's auction) making the call ``choice``.

    The calls valued are those the strongest level tries (pass, double and redouble where allowed, and of
    each sign the lowest bids: :func:`piquet.ai.bidding.choose_call`) and the one made. Each is valued as the
    level values it: in each deal, the opponent answers as the books do, the player may call once more
    knowing her hand, and the contract reached is worth the declarations both would make in it and the
    tricks its holder is expected to win (:class:`piquet.ai.bidding._Deal`). **Fair**: over ``worlds`` hands
    and talons the view allows, weighted by how well the books explain her calls so far, as the level weighs
    them; **open hands**: her hand and the talon as they are. In points of the deal: an Auction deal's stakes
    are its points. A ``deadline`` stops the deals when it is spent (never before the first)."""
    seat = partie.to_act
    if partie.phase is not Phase.BID or seat is None:
        raise ValueError(f"no call to review: it is the {partie.phase.value}")
    legal = partie.legal_actions(seat)
    if choice not in legal:
        raise ValueError(f"{choice.describe(partie.players)}: not a legal call here")
    view = partie.view(seat)
    rules = view.rules
    options = list(dict.fromkeys([*_candidates(legal), choice]))
    calls = list(view.bids)
    if lens is Lens.OPEN:
        dealt = next(a for a in reversed(partie.actions) if isinstance(a, Deal))
        sampled = [World(partie.hand(1 - seat), CardSet(), dealt.talon)]
    else:
        sampled = Inference(view).sample(rng or random.Random(0), worlds)
    if not sampled:
        raise ValueError("no deal the view allows could be drawn")
    totals = {o: 0.0 for o in options}
    parts = {o: dict.fromkeys(CALL_PARTS, 0.0) for o in options}
    held = dict.fromkeys(options, 0.0)
    annulled = dict.fromkeys(options, 0.0)
    weights = 0.0
    used = 0
    start = deadline.elapsed() if deadline is not None else 0.0
    for world in sampled:
        # The next deal costs what the deals so far did, on average.
        if used and deadline is not None and deadline.spent(ahead=(deadline.elapsed() - start) / used):
            break
        used += 1
        deal = _Deal(view, world, rules)
        weight = world.weight * (deal.likelihood(calls) if lens is Lens.FAIR else 1.0)
        weights += weight
        for option in options:
            value, contract = deal.outcome([*calls, option])
            totals[option] += weight * value
            if contract is None:
                annulled[option] += weight
                continue
            held[option] += weight * (contract.holder == seat)
            declared = 0
            for category, points in deal.declared(contract).items():
                if category in _CALL_PART:
                    parts[option][_CALL_PART[category]] += weight * points
                    declared += points
            parts[option][Part.CONTRACT] += weight * (value - declared)
    if weights <= 0:
        raise ValueError("the deals drawn all have weight 0")
    worth = {o: CallWorth(o, totals[o] / weights, {p: v / weights for p, v in parts[o].items()},
                          held[o] / weights, annulled[o] / weights) for o in options}
    top = max(w.value for w in worth.values())
    best = choice if worth[choice].value >= top - _EPSILON else max(options, key=lambda o: worth[o].value)
    order = sorted(options, key=lambda o: (-worth[o].value, o != choice))
    return CallReview(seat, lens, used, choice, best, max(0.0, top - worth[choice].value),
                      tuple(worth[o] for o in order))


def _called(bid: Bid) -> str:
    """A call as a sentence names it: "passing", "doubling", "bidding 8+"."""
    return {"pass": "passing", "double": "doubling", "redouble": "redoubling"}.get(bid.call, f"bidding {bid.call}")


def explain_call(review: CallReview, names: tuple[str, str]) -> str:
    """The call's review in sentences, computed from the breakdowns of the call made and the best (or the next
    best, where the call made is the best): what it changes, part by part, and how the auction ends after each.

    >>> worth = lambda call, value, contract, held, annulled: CallWorth(
    ...     Bid(0, call), value, {Part.POINT: value - contract, Part.CONTRACT: contract}, held, annulled)
    >>> review = CallReview(0, Lens.FAIR, 64, Bid(0, "pass"), Bid(0, "7+"), 6.5,
    ...                     (worth("7+", 4.0, 3.0, 0.9, 0.0), worth("pass", -2.5, -4.0, 0.0, 0.3)))
    >>> print(explain_call(review, ("Ann", "Bill")))
    Passing rather than bidding 7+ costs Ann 6.5 points on average: it gives up the contract (−7) and gains \
the point (+0.5). After passing Ann holds the contract in none of the deals drawn, and both pass in 30%; after \
bidding 7+, in 90% of the deals drawn.
    """
    me = names[review.seat]
    average = " on average" if review.lens is Lens.FAIR else ""
    chosen = review.worth(review.choice)
    others = [w for w in review.options if w.call != review.choice]
    if review.loss < 0.05:
        if not others:
            return f"{_called(review.choice).capitalize()}: the only call."
        other = others[0]
        margin = chosen.value - other.value
        if margin < 0.05:
            return f"{_called(review.choice).capitalize()}: as good as any."
        head = (f"{_called(review.choice).capitalize()}: the best, by {_plural(_number(margin, review.lens), 'point')}"
                f"{average} over {_called(other.call)}")
        compared = other
    else:
        compared = review.worth(review.best)
        head = (f"{_called(review.choice).capitalize()} rather than {_called(review.best)} costs {me} "
                f"{_plural(_number(review.loss, review.lens), 'point')}{average}")
    diffs = sorted(((p, chosen.parts.get(p, 0.0) - compared.parts.get(p, 0.0)) for p in CALL_PARTS),
                   key=lambda pd: -abs(pd[1]))
    lost = [f"{p.words} ({_signed(d, review.lens)})" for p, d in diffs if d <= -0.05]
    won = [f"{p.words} ({_signed(d, review.lens)})" for p, d in diffs if d >= 0.05]
    effects = []
    if lost:
        effects.append(f"gives up {_listed(lost)}")
    if won:
        effects.append(f"gains {_listed(won)}")
    text = head + (f": it {' and '.join(effects)}." if effects else ".")
    return f"{text} {_endings(review, chosen, compared, names)}"


def _share(x: float) -> str:
    if x < 0.005:
        return "none of the deals drawn"
    return "every deal drawn" if x > 0.995 else f"{x:.0%} of the deals drawn"


def _endings(review: CallReview, chosen: CallWorth, compared: CallWorth, names: tuple[str, str]) -> str:
    """How the auction ends after the call made and after the one it is compared with: whose the contract is
    (open hands), or how often the player holds it and both pass (the deals drawn)."""
    me = names[review.seat]
    if review.lens is Lens.OPEN:
        def whose(w: CallWorth) -> str:
            return f"{me}'s" if w.held > 0.5 else "nobody's: both pass" if w.annulled > 0.5 else \
                f"{names[1 - review.seat]}'s"
        return f"After {_called(chosen.call)} the contract is {whose(chosen)}; after {_called(compared.call)}, " \
               f"{whose(compared)}."

    def share(w: CallWorth) -> str:
        text = _share(w.held)
        if w.annulled >= 0.005:
            text += f", and both pass in {_share(w.annulled).removesuffix(' of the deals drawn')}"
        return text
    return (f"After {_called(chosen.call)} {me} holds the contract in {share(chosen)}; after "
            f"{_called(compared.call)}, in {share(compared)}.")


# ---------------------------------------------------------------- a whole partie
# ---------------------------------------------------------------- carte blanche (Laws 18-20)
@dataclass(frozen=True)
class CarteBlancheReview:
    """A carte blanche decision reviewed, where the rules leave it optional: announcing it (elder: saying how many
    cards he will exchange) or not. Each option is applied, the opponent's decisions until the player's own
    exchange made as the books make them (younger exchanging first after elder's announcement, Law 20; elder first
    otherwise), and the option is worth what the player's best exchange then is (:func:`review_exchange`: the
    carte blanche's ten, the declarations, the repique, the pique and the play, over the same talons and hands for
    every option in the fair lens). ``options``: each option's value and parts (the best exchange's), best
    first. What announcing shows the opponent (no court card) is not valued."""

    seat: int
    lens: Lens
    worlds: int
    utility: tuple[int, int]
    choice: CarteBlanche
    best: CarteBlanche
    loss: float
    options: tuple[tuple[CarteBlanche, float], ...]
    parts: Mapping[CarteBlanche, Mapping[Part, float]]

    @property
    def mark(self) -> str:
        return mark(self.loss)


def review_carte_blanche(partie: Partie, choice: CarteBlanche, lens: Lens = Lens.FAIR,
                         worlds: int = EXCHANGE_WORLDS, rng: random.Random | None = None,
                         deadline: Deadline | None = None) -> CarteBlancheReview:
    """The review of ``choice``, a carte blanche decision of its player where he has a choice (see
    :class:`CarteBlancheReview`); each option's exchange valued over ``worlds`` talons and hands drawn by ``rng``
    (from the same seed for every option). A ``deadline`` gives the first option its share of the budget, and
    every other option as many worlds as the first was valued over. Raises ``ValueError`` for a choice that is
    not legal, or no choice."""
    seed = (rng or random.Random(0)).getrandbits(32)
    seat = choice.player
    name = partie.players[seat]
    if not isinstance(choice, CarteBlanche) or not partie.can(choice):
        raise ValueError(f"{choice.describe(partie.players)}: not a legal choice for {name} here")
    options = [a for a in partie.legal_actions(seat) if isinstance(a, CarteBlanche)]
    if len(options) < 2:
        raise ValueError(f"{name} has no choice of carte blanche here: the rules bind the holder to announce it")
    books = SimpleAgent(random.Random(0))
    values: dict[CarteBlanche, float] = {}
    parts: dict[CarteBlanche, Mapping[Part, float]] = {}
    utility: tuple[int, int] = (1, -1)
    used = 1
    for k, option in enumerate(options):
        at = partie.copy()
        at.push(option)
        while not (at.phase is Phase.EXCHANGE and at.to_act == seat):
            who = at.to_act
            if who is None or at.phase not in (Phase.CARTE_BLANCHE, Phase.EXCHANGE):
                raise ValueError(f"{name}'s exchange does not follow the carte blanche (it is the {at.phase.value})")
            at.push(books.choose(at.view(who), at.legal_actions(who)))
        first = next(a for a in at.legal_actions(seat) if isinstance(a, Exchange))
        share = None
        if k == 0 and deadline is not None and deadline.seconds > 0:
            share = Deadline(deadline.seconds / len(options))
        exchange = review_exchange(at, first, lens, worlds, random.Random(seed), deadline=share)
        if k == 0 and lens is Lens.FAIR:
            worlds = exchange.worlds
        best = exchange.worth(exchange.best)
        values[option], parts[option] = best.value, dict(best.parts)
        utility, used = exchange.utility, exchange.worlds
    top = max(values.values())
    best_option = choice if values[choice] >= top - _EPSILON else max(options, key=lambda o: values[o])
    order = sorted(options, key=lambda o: (-values[o], o != choice))
    return CarteBlancheReview(seat, lens, used, utility, choice, best_option, max(0.0, top - values[choice]),
                              tuple((o, values[o]) for o in order), parts)


def _carte_blanche_words(option: CarteBlanche) -> str:
    if not option.announce:
        return "not announcing carte blanche"
    if option.will_exchange is None:
        return "announcing carte blanche"
    n = option.will_exchange
    return f"announcing carte blanche and {n} card{'s' if n != 1 else ''} to exchange"


def explain_carte_blanche(review: CarteBlancheReview, names: tuple[str, str]) -> str:
    """A carte blanche decision's review in a sentence: the choice against the best (a best one against the next),
    part by part, by the partie's stakes where they are not the score difference."""
    lens = review.lens
    average = (" on average" if lens is Lens.FAIR else "") + stakes(review.utility)
    compared = review.best if review.best != review.choice else next(
        (o for o, _ in review.options if o != review.choice), review.choice)
    mine, other = review.parts[review.choice], review.parts[compared]
    diffs = {p: mine.get(p, 0.0) - other.get(p, 0.0) for p in dict.fromkeys([*mine, *other])}
    clauses = parts_clauses(_named(diffs, lens), lens)
    verb = _carte_blanche_words(review.choice)
    verb = verb[0].upper() + verb[1:]
    values = dict(review.options)
    if review.loss < _EPSILON:
        margin = _number(values[review.choice] - values[compared], lens)
        if margin == "0":
            return f"{verb}: as good as {_carte_blanche_words(compared)}, to {_unit(lens)}{average}."
        return (f"{verb}: the best, by {_plural(margin, 'point')}{average} over {_carte_blanche_words(compared)}: "
                f"{clauses}.")
    if _number(review.loss, lens) == "0":  # less than the lens shows
        return f"{verb}: as good as the best, {_carte_blanche_words(compared)}, to {_unit(lens)}{average}."
    loss = _plural(_number(review.loss, lens), "point")
    return (f"{verb} rather than {_carte_blanche_words(compared)} costs {names[review.seat]} {loss}{average}: "
            f"{clauses}.")


# ---------------------------------------------------------------- concessions (the rulings, 18)
#: A concession decision's options: conceding (or accepting one) and playing on (declining one).
CONCEDE, PLAY_ON, ACCEPT, DECLINE = "concede", "play on", "accept", "decline"


@dataclass(frozen=True)
class ConcessionReview:
    """A concession decision reviewed (the partie's last deal, before the first card): the loser conceding or
    playing on, or, where the option lets her decline one, his opponent accepting it or playing on for a capot.
    Each option's value is by the partie's stakes (:func:`~piquet.ai.levels.partie_utility`; the utility the
    levels play the last deal for), from the player's side: conceding gives the opponent 13 for the play and the
    cards' ten, no more; playing on is worth the play from elder's first lead, solved (the best card's value, a
    mean over the opponent's hands the view allows in the fair lens). ``parts``: each option's breakdown (the
    play's along the best card's principal line), summing to its value."""

    seat: int
    lens: Lens
    worlds: int
    utility: tuple[int, int]
    choice: str
    best: str
    loss: float
    values: Mapping[str, float]
    parts: Mapping[str, Mapping[Part, float]]

    @property
    def mark(self) -> str:
        return mark(self.loss)


def review_concession(partie: Partie, seat: int, choice: str, lens: Lens = Lens.FAIR, worlds: int = DEFAULT_WORLDS,
                      rng: random.Random | None = None) -> ConcessionReview:
    """The review of ``seat``'s concession decision in ``partie``: ``choice`` :data:`CONCEDE` or :data:`PLAY_ON`
    where he may concede (before elder's first card, the loser who cannot save the rubicon), :data:`ACCEPT` or
    :data:`DECLINE` where a concession awaits his answer. Raises ``ValueError`` where ``seat`` has no such
    decision, naming the player and why."""
    name = partie.players[seat]
    answering = partie.phase is Phase.CONCESSION
    if answering:
        if partie.to_act != seat or choice not in (ACCEPT, DECLINE):
            raise ValueError(f"{name} has no concession to answer here, or {choice!r} is not accept or decline")
        options = (ACCEPT, DECLINE)
    else:
        why = partie.why_not(Concede(seat))
        if why is not None:
            raise ValueError(f"{name} may not concede here: {why}")
        if choice not in (CONCEDE, PLAY_ON):
            raise ValueError(f"{name}'s choice is to concede or to play on, not {choice!r}")
        options = (CONCEDE, PLAY_ON)
    if lens is Lens.FAIR and worlds < 1:
        raise ValueError("the fair lens needs at least one world")
    rules = partie.rules
    view = partie.view(seat)
    u = partie_utility(view, rules)
    mine = u if seat == 0 else (-u[1], -u[0])
    # The concession: the conceder's opponent counts the play's 13 and the cards' ten (nothing else).
    gets = mine[0] if answering else mine[1]
    conceded = {Part.PLAY: float(gets * rules.conceded_play_points), Part.CARDS: float(gets * rules.cards_points)}
    elder = partie.elder
    if lens is Lens.OPEN:
        drawn = [(partie.hand(1 - seat), 1.0)]
    else:
        drawn = sample_opponent_hands(view, rng or random.Random(0), worlds)
    played = dict.fromkeys(PLAY_PARTS, 0.0)
    total = sum(w for _, w in drawn)
    cache: BestCache = {}
    for hand, weight in drawn:
        position = replace(position_from_view(view, hand, u), to_act=elder, lead=None)
        sign = 1 if seat == elder else -1
        line = principal_line(position, _best_card(position, rules, cache), rules, cache)
        for part, points in line.parts.items():
            played[part] += sign * points * weight / total
    yielding = ACCEPT if answering else CONCEDE
    parts = {yielding: conceded, options[1]: played}
    values = {option: sum(parts[option].values()) for option in options}
    top = max(values.values())
    best = choice if values[choice] >= top - _EPSILON else max(options, key=lambda o: values[o])
    return ConcessionReview(seat, lens, 1 if lens is Lens.OPEN else len(drawn), mine, choice, best,
                            max(0.0, top - values[choice]), values, parts)


_CONCESSION_WORDS: Final = {CONCEDE: "Conceding", PLAY_ON: "Playing on", ACCEPT: "Accepting the concession",
                            DECLINE: "Declining the concession"}


def explain_concession(review: ConcessionReview, names: tuple[str, str]) -> str:
    """The review of a concession decision in a sentence: the choice against the best (or the best against the
    other option), what it gives up and gains part by part, by the partie's stakes where they are not the score
    difference."""
    lens = review.lens
    average = (" on average" if lens is Lens.FAIR else "") + stakes(review.utility)
    other = next(o for o in review.values if o != review.choice)
    compared = review.best if review.best != review.choice else other
    diffs = {part: review.parts[review.choice].get(part, 0.0) - review.parts[compared].get(part, 0.0)
             for part in (*PLAY_PARTS, Part.PLAY)}
    clauses = parts_clauses(_named(diffs, lens), lens)
    verb = _CONCESSION_WORDS[review.choice]
    against = _CONCESSION_WORDS[compared].lower()
    if review.loss < _EPSILON:
        margin = _number(review.values[review.choice] - review.values[other], lens)
        if margin == "0":
            return f"{verb}: as good as {against}, to {_unit(lens)}{average}."
        return f"{verb}: the best, by {_plural(margin, 'point')}{average} over {against}: {clauses}."
    if _number(review.loss, lens) == "0":  # less than the lens shows
        return f"{verb}: as good as the best, {against}, to {_unit(lens)}{average}."
    loss = _plural(_number(review.loss, lens), "point")
    return f"{verb} rather than {against} costs {names[review.seat]} {loss}{average}: {clauses}."


@dataclass(frozen=True)
class Reviewed:
    """One action of a record in the review: where it is (the deal, counted from 1, and its index among
    the deal's actions, as in the file), who acted, what kind of decision it was, and for a card played, a
    declaration or an exchange its review and explanation (``None`` where it was the only one the player could
    make, and for what is not yet reviewed)."""

    deal: int
    action: int
    seat: int
    kind: str
    text: str
    trick: int | None = None
    card: Card | None = None
    review: PlayReview | None = None
    explanation: str = ""
    declaration: DeclarationReview | None = None
    exchange: ExchangeReview | None = None
    call: CallReview | None = None
    concession: ConcessionReview | None = None
    carte_blanche: CarteBlancheReview | None = None

    @property
    def graded(self) -> (PlayReview | DeclarationReview | ExchangeReview | CallReview | ConcessionReview
                         | CarteBlancheReview | None):
        """The review of this decision, whatever its kind (``None``: the only choice, or not reviewed)."""
        if self.kind in _CONCESSION_KINDS:
            return self.concession
        if self.kind == "carte blanche":
            return self.carte_blanche
        return self.review if self.kind == "play" else self.declaration if self.kind == "declaration" else (
            self.exchange if self.kind == "exchange" else self.call if self.kind == "call" else None)


@dataclass(frozen=True)
class Summary:
    """One player's card play or declarations in a review: the cards he played (or declarations he made), how
    many were choices (more than one legal), the points he lost in them (the sum of the losses), and how many of
    each mark."""

    actions: int
    choices: int
    loss: float
    marks: Mapping[str, int]

    @property
    def loss_per_choice(self) -> float:
        return self.loss / self.choices if self.choices else 0.0

    def to_json(self) -> dict[str, object]:
        return {"actions": self.actions, "choices": self.choices, "loss": self.loss,
                "loss_per_choice": self.loss_per_choice, "marks": dict(self.marks)}


@dataclass
class PartieReview:
    """The review of a partie's card play, action by action, and what each player lost in it; the luck of each
    deal reviewed, and each player's luck and result adjusted for it (:meth:`luck_summary`)."""

    players: tuple[str, str]
    lens: Lens
    worlds: int
    seed: int
    actions: list[Reviewed] = field(default_factory=list)
    #: The luck of each deal reviewed (:mod:`piquet.ai.luck`).
    luck: list[DealLuck] = field(default_factory=list)

    @property
    def plays(self) -> list[Reviewed]:
        """The cards played, forced or reviewed."""
        return [r for r in self.actions if r.kind == "play"]

    @property
    def declarations(self) -> list[Reviewed]:
        """The declarations, reviewed or the only one the player could make."""
        return [r for r in self.actions if r.kind == "declaration"]

    @property
    def exchanges(self) -> list[Reviewed]:
        """The exchanges, reviewed or the only one the player could make."""
        return [r for r in self.actions if r.kind == "exchange"]

    @property
    def calls(self) -> list[Reviewed]:
        """Auction Piquet: the calls in the auction, reviewed or the only one the player could make."""
        return [r for r in self.actions if r.kind == "call"]

    @property
    def concessions(self) -> list[Reviewed]:
        """The concession decisions: conceding, or playing on where the player might have conceded, and answering
        a concession (the partie's last deal)."""
        return [r for r in self.actions if r.kind in _CONCESSION_KINDS]

    @property
    def not_reviewed(self) -> list[Reviewed]:
        """The decisions not reviewed (none of the kinds the review grades: a cut, a choice of dealer...)."""
        return [r for r in self.actions if r.kind not in _GRADED]

    def summary(self, seat: int, kind: str = "play") -> Summary:
        """One player's card play (``kind`` ``"play"``), declarations (``"declaration"``), exchanges
        (``"exchange"``), calls in the auction (``"call"``) or concession decisions (``"concession"``, answers
        included): what he lost in his choices, and their marks."""
        if kind not in _GRADED:
            raise ValueError(f"kind is 'play', 'declaration', 'exchange', 'call', 'concession' or 'carte blanche', "
                             f"not {kind!r}")
        kinds = _CONCESSION_KINDS if kind in _CONCESSION_KINDS else (kind,)
        mine = [r for r in self.actions if r.seat == seat and r.kind in kinds]
        chosen = [d for r in mine if (d := r.graded) is not None]
        marks = {sign: sum(1 for r in chosen if r.mark == sign) for _, sign in MARKS}
        return Summary(len(mine), len(chosen), sum(r.loss for r in chosen), marks)

    @property
    def on_the_ladder(self) -> bool:
        """Whether the players may be placed on the levels' ladder: the ladder was measured through the fair
        lens at the review's default worlds (fewer hands a card find larger losses)."""
        return self.lens is Lens.FAIR and self.worlds == DEFAULT_WORLDS and bool(self.actions)

    def lost_a_deal(self, seat: int) -> float:
        """The points ``seat`` lost a deal to his own decisions, every kind reviewed together (what places him on
        the levels' ladder, :mod:`piquet.ai.ladder`); 0 where no deal was reviewed."""
        return self._lost(seat)[0]

    def lost_a_deal_interval(self, seat: int) -> tuple[float, float]:
        """The 95% interval of :meth:`lost_a_deal`, the decisions taken as independent (as the ladder's are)."""
        lost, half = self._lost(seat)
        return lost - half, lost + half

    def _lost(self, seat: int) -> tuple[float, float]:
        deals = len({r.deal for r in self.actions})
        losses = [graded.loss for r in self.actions if r.seat == seat and (graded := r.graded) is not None]
        if not deals or not losses:
            return 0.0, 0.0
        mean = sum(losses) / len(losses)
        spread = sum((x - mean) ** 2 for x in losses) / len(losses)
        return sum(losses) / deals, 1.96 * math.sqrt(len(losses) * spread) / deals

    def luck_summary(self, seat: int) -> LuckSummary:
        """One player's luck over the deals reviewed that ended, his result and his result adjusted for the
        luck (:func:`piquet.ai.luck.summarise`)."""
        return summarise(self.luck, seat)

    def to_json(self) -> dict[str, object]:
        """The review as JSON-ready data (``piquet analyse --json``; docs/review.md)."""
        names = self.players
        return {
            "players": list(names),
            "lens": self.lens.value,
            "worlds": self.worlds,
            "seed": self.seed,
            "plays": [_play_json(r, names) for r in self.plays],
            "declarations": [_declaration_json(r, names) for r in self.declarations],
            "exchanges": [_exchange_json(r, names) for r in self.exchanges],
            "calls": [_call_json(r, names) for r in self.calls],
            "concessions": [_concession_json(r, names) for r in self.concessions],
            "carte_blanche": [_carte_blanche_json(r, names) for r in self.actions if r.kind == "carte blanche"],
            "not_reviewed": [{"deal": r.deal, "action": r.action, "player": names[r.seat], "kind": r.kind,
                              "text": r.text} for r in self.not_reviewed],
            "luck": [d.to_json(names) for d in self.luck],
            "summary": {names[seat]: {"play": self.summary(seat).to_json(),
                                      "declarations": self.summary(seat, "declaration").to_json(),
                                      "exchange": self.summary(seat, "exchange").to_json(),
                                      "calls": self.summary(seat, "call").to_json(),
                                      "concessions": self.summary(seat, "concession").to_json(),
                                      "carte_blanche": self.summary(seat, "carte blanche").to_json(),
                                      "lost_a_deal": self.lost_a_deal(seat),
                                      "lost_a_deal_interval": list(self.lost_a_deal_interval(seat)),
                                      **({"played_like": played_like(self.lost_a_deal(seat)),
                                          "played_like_words": describe(self.lost_a_deal(seat))}
                                         if self.on_the_ladder else {}),
                                      **({"luck": self.luck_summary(seat).to_json()} if self.luck else {})}
                        for seat in (0, 1)},
        }


def _play_json(r: Reviewed, names: tuple[str, str]) -> dict[str, object]:
    assert r.card is not None
    out: dict[str, object] = {"deal": r.deal, "action": r.action, "trick": r.trick, "player": names[r.seat],
                              "card": str(r.card)}
    review = r.review
    if review is None:
        out.update(forced=True, best=str(r.card), loss=0.0, mark="")
        return out
    out.update(forced=False, leading=review.leading, best=str(review.best), loss=review.loss, mark=review.mark,
               text=r.explanation, utility=list(review.utility), values={str(w.card): w.value for w in review.cards})
    out["parts"] = {str(w.card): {p.value: v for p, v in w.parts.items()}
                    for w in review.cards if w.parts is not None}
    out["points"] = {str(w.card): w.points for w in review.cards if w.points is not None}
    out["tricks"] = {str(w.card): w.tricks for w in review.cards if w.tricks is not None}
    lines = {str(w.card): [str(c) for c in w.line] for w in review.cards if w.line is not None}
    if lines:
        out["lines"] = lines
    return out


def _concession_json(r: Reviewed, names: tuple[str, str]) -> dict[str, object]:
    review = r.concession
    assert review is not None
    return {"deal": r.deal, "action": r.action, "player": names[r.seat], "kind": r.kind, "text": r.text,
            "forced": False, "choice": review.choice, "best": review.best, "loss": review.loss, "mark": review.mark,
            "explanation": r.explanation, "utility": list(review.utility), "worlds": review.worlds,
            "values": [{"option": o, "value": review.values[o],
                        "parts": {p.value: v for p, v in review.parts[o].items()}}
                       for o in sorted(review.values, key=lambda o: -review.values[o])]}


def _carte_blanche_json(r: Reviewed, names: tuple[str, str]) -> dict[str, object]:
    out: dict[str, object] = {"deal": r.deal, "action": r.action, "player": names[r.seat], "text": r.text}
    review = r.carte_blanche
    if review is None:
        out.update(forced=True, loss=0.0, mark="")
        return out
    out.update(forced=False, choice=_carte_blanche_words(review.choice), best=_carte_blanche_words(review.best),
               loss=review.loss, mark=review.mark, explanation=r.explanation, utility=list(review.utility),
               worlds=review.worlds,
               values=[{"option": _carte_blanche_words(o), "value": v,
                        "parts": {p.value: x for p, x in review.parts[o].items()}} for o, v in review.options])
    return out


def _combinations_json(declare: Declare) -> list[list[str]]:
    return [c.strings() for c in declare.combinations]


def _declaration_json(r: Reviewed, names: tuple[str, str]) -> dict[str, object]:
    out: dict[str, object] = {"deal": r.deal, "action": r.action, "player": names[r.seat], "text": r.text}
    review = r.declaration
    if review is None:
        out.update(forced=True, loss=0.0, mark="")
        return out
    out.update(forced=False, category=review.choice.category.value,
               declared=_combinations_json(review.choice), best=_combinations_json(review.best), loss=review.loss,
               mark=review.mark, explanation=r.explanation, utility=list(review.utility),
               values=[{"declare": _combinations_json(o), "value": v,
                        "parts": {p.value: x for p, x in review.parts.get(o, {}).items()}} for o, v in review.options])
    return out


def _exchange_json(r: Reviewed, names: tuple[str, str]) -> dict[str, object]:
    out: dict[str, object] = {"deal": r.deal, "action": r.action, "player": names[r.seat], "text": r.text}
    review = r.exchange
    if review is None:
        out.update(forced=True, loss=0.0, mark="")
        return out
    out.update(forced=False, discard=review.choice.strings(), best=review.best.strings(),
               compared=review.compared.strings(), loss=review.loss,
               mark=review.mark, explanation=r.explanation, utility=list(review.utility), worlds=review.worlds,
               play=review.play,
               values=[{"discard": w.discard.strings(), "value": w.value,
                        "parts": {p.value: v for p, v in w.parts.items()},
                        "won": {p.value: v for p, v in w.won.items()}} for w in review.options])
    return out


def _call_json(r: Reviewed, names: tuple[str, str]) -> dict[str, object]:
    out: dict[str, object] = {"deal": r.deal, "action": r.action, "player": names[r.seat], "text": r.text}
    review = r.call
    if review is None:
        out.update(forced=True, loss=0.0, mark="")
        return out
    out.update(forced=False, call=review.choice.call, best=review.best.call, loss=review.loss, mark=review.mark,
               explanation=r.explanation, worlds=review.worlds,
               values=[{"call": w.call.call, "value": w.value, "parts": {p.value: v for p, v in w.parts.items()},
                        "held": w.held, "annulled": w.annulled} for w in review.options])
    return out


#: The kinds of decision the review grades.
_GRADED: Final = ("play", "declaration", "exchange", "call", "concession", "answer to a concession", "carte blanche")
_CONCESSION_KINDS: Final = ("concession", "answer to a concession")

_KINDS: Final[dict[type, str]] = {Exchange: "exchange", Declare: "declaration", Bid: "call",
                                  CarteBlanche: "carte blanche", Concede: "concession",
                                  AcceptConcession: "answer to a concession"}


def replayed_steps(partie: Partie) -> Iterator[tuple[Partie, Action, int, int]]:
    """The record's actions re-played from the start: before each deal action, the partie as it was, the
    action, its deal (from 1) and its index among the deal's actions (as a record numbers them)."""
    replay = partie.copy()
    while replay.ply:
        replay.pop()
    deal, index = 0, 0
    for action in partie.actions:
        if isinstance(action, Deal):
            deal, index = deal + 1, 0
            replay.push(action)
            continue
        if isinstance(action, (Cut, ChooseDealer)) or deal == 0:  # not a deal's action in a record
            replay.push(action)
            continue
        yield replay, action, deal, index
        replay.push(action)
        index += 1


def decisions_in(partie: Partie, deal: int | None = None) -> int:
    """How many decisions :func:`review_partie` goes through in ``partie``'s deal ``deal`` (``None``: every deal):
    the deals' actions, as :func:`replayed_steps` yields them, without re-playing them."""
    total, number = 0, 0
    for action in partie.actions:
        number += isinstance(action, Deal)
        total += (number > 0 and not isinstance(action, (Deal, Cut, ChooseDealer))
                  and (deal is None or number == deal))
    return total


def decision_rng(seed: int, deal: int, index: int) -> random.Random:
    """The stream a review seeded ``seed`` draws the worlds of one decision from: by the deal (from 1) and the
    action's index in it (from 0), so that a decision is valued on the same worlds however much of the partie
    is reviewed, and again later (:mod:`piquet.ai.exercises` values an answer on them)."""
    return random.Random(seed * 1_000_003 + deal * 1_009 + index)


def review_partie(partie: Partie, lens: Lens = Lens.FAIR, worlds: int = DEFAULT_WORLDS, seed: int = 0,
                  deal: int | None = None, broken_down: str = "choice",
                  progress: Callable[[int, int], None] | None = None,
                  exchange_worlds: int = EXCHANGE_WORLDS, call_worlds: int = CALL_WORLDS,
                  luck: bool = True) -> PartieReview:
    """Review every exchange, declaration and card played in ``partie`` (a record re-played), or in its deal
    number ``deal``. The declarations are valued over :data:`~piquet.ai.levels.DECLARATION_WORLDS` hands in
    the fair lens, as the levels weigh them, the exchanges over ``exchange_worlds`` talons and hands
    (:func:`review_exchange`), Auction's calls over ``call_worlds`` deals (:func:`review_call`).

    Each decision's worlds are drawn from their own stream, seeded by ``seed`` and the decision's place,
    so that reviewing one deal gives what reviewing the whole partie gives for it. ``broken_down``:
    ``"choice"`` breaks down the choice and the best only (what the explanation needs), ``"all"`` every
    legal card. ``progress(done, total)`` is called after each decision of the deals reviewed (an exchange, a
    declaration, a call, a card played, forced or not: ``total`` counts them all). ``luck``: reckon each deal's luck
    (:func:`piquet.ai.luck.partie_luck`, the same in both lenses).
    """
    if broken_down not in ("choice", "all"):
        raise ValueError(f"broken_down is 'choice' or 'all', not {broken_down!r}")
    deals = sum(1 for a in partie.actions if isinstance(a, Deal))
    if deal is not None and not 1 <= deal <= deals:
        raise ValueError(f"there is no deal {deal}: the record has {deals} deal{'s' if deals != 1 else ''}")
    out = PartieReview(partie.players, lens, 1 if lens is Lens.OPEN else worlds, seed,
                       luck=partie_luck(partie, deal) if luck else [])
    total = decisions_in(partie, deal)
    done = 0
    cache: BestCache = {}
    for at, action, number, index in replayed_steps(partie):  # the partie ``at`` changes as the steps go on
        if deal is not None and number != deal:
            continue
        if progress is not None and done:
            progress(done, total)
        done += 1
        rng = decision_rng(seed, number, index)
        if isinstance(action, Exchange):
            exchanged: ExchangeReview | None = review_exchange(at, action, lens, exchange_worlds, rng)
            if exchanged is not None and len(exchanged.options) < 2:
                exchanged = None
            said = explain_exchange(exchanged, partie.players) if exchanged is not None else ""
            out.actions.append(Reviewed(number, index, action.player, "exchange", action.describe(partie.players),
                                        explanation=said, exchange=exchanged))
            continue
        if isinstance(action, Bid):
            calls = [a for a in at.legal_actions(action.player) if isinstance(a, Bid)]
            called = review_call(at, action, lens, call_worlds, rng) if len(calls) > 1 else None
            said = explain_call(called, partie.players) if called is not None else ""
            out.actions.append(Reviewed(number, index, action.player, "call", action.describe(partie.players),
                                        explanation=said, call=called))
            continue
        if isinstance(action, Declare):
            options = [a for a in at.legal_actions(action.player) if isinstance(a, Declare)]
            declared = review_declaration(at, action, lens, rng=rng) if len(options) > 1 else None
            said = explain_declaration(declared, partie.players) if declared is not None else ""
            out.actions.append(Reviewed(number, index, action.player, "declaration", action.describe(partie.players),
                                        explanation=said, declaration=declared))
            continue
        if isinstance(action, CarteBlanche):
            choices = [a for a in at.legal_actions(action.player) if isinstance(a, CarteBlanche)]
            blanche = review_carte_blanche(at, action, lens, exchange_worlds, rng) if len(choices) > 1 else None
            out.actions.append(Reviewed(number, index, action.player, "carte blanche", action.describe(partie.players),
                                        explanation=explain_carte_blanche(blanche, partie.players) if blanche else "",
                                        carte_blanche=blanche))
            continue
        if isinstance(action, (Concede, AcceptConcession)):
            answer = CONCEDE if isinstance(action, Concede) else ACCEPT if action.accept else DECLINE
            conceding = review_concession(at, action.player, answer, lens, worlds, rng)
            out.actions.append(Reviewed(number, index, action.player, _KINDS[type(action)],
                                        action.describe(partie.players), explanation=explain_concession(
                                            conceding, partie.players), concession=conceding))
            continue
        if not isinstance(action, Play):
            kind = next((k for t, k in _KINDS.items() if isinstance(action, t)), type(action).__name__.lower())
            out.actions.append(Reviewed(number, index, action.player, kind, action.describe(partie.players)))
            continue
        for seat in (0, 1):  # who might have conceded before this first card, and played on
            if at.rules.allows_concession and at.why_not(Concede(seat)) is None:
                played_on = review_concession(at, seat, PLAY_ON, lens, worlds, decision_rng(seed, number, index))
                out.actions.append(Reviewed(number, index, seat, "concession", playing_on(partie.players[seat]),
                                            explanation=explain_concession(played_on, partie.players),
                                            concession=played_on))
        trick = len(at.view(action.player).tricks) + 1
        legal = [a for a in at.legal_actions(action.player) if isinstance(a, Play)]
        review = None
        explanation = ""
        if len(legal) > 1:
            # With open hands the lines pass through the game's own positions, decision after decision;
            # the fair lens's sampled positions seldom meet again, and are not kept.
            review = review_decision(at, action.card, lens, worlds, rng,
                                     None if broken_down == "all" else (), cache if lens is Lens.OPEN else {})
            explanation = explain(review, partie.players)
        out.actions.append(Reviewed(number, index, action.player, "play", action.describe(partie.players), trick,
                                    action.card, review, explanation))
    if progress is not None and done:
        progress(done, total)
    return out
