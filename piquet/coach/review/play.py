"""The review of the card play: one card played and scored as the solver scores it (:func:`advance`), the
principal line after a card and its breakdown by part (:func:`principal_line`), each legal card of a decision
valued through a lens (:func:`review_decision`, :func:`review_position`), and the explanation built from the
breakdowns of the choice and the best (:func:`explain`)."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from piquet.ai.budget import Deadline
from piquet.ai.levels import partie_utility, sample_opponent_hands
from piquet.ai.solver import PlayPosition, play, position_from_partie, position_from_view, solve
from piquet.coach.review.grading import (
    DEFAULT_WORLDS,
    EPSILON,
    PLAY_PARTS,
    Lens,
    Part,
    card_text,
    figure,
    listed,
    mark,
    named_parts,
    percent,
    points_words,
    signed,
    stakes,
    unit,
)
from piquet.engine.cards import CARDS, Card, CardSet
from piquet.engine.language import words_in
from piquet.engine.partie import Partie, Phase
from piquet.engine.scoring import (
    ContractMadeReason,
    ContractTricksReason,
    LeadReason,
    OwnLeadReason,
    PlainReason,
    Reason,
    TrickReason,
)
from piquet.engine.variants import Rules

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


def best_card(position: PlayPosition, rules: Rules, cache: BestCache) -> Card:
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
        best = best_card(current, rules, cache)
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
    best = choice if values[choice] >= top - EPSILON else order[0]
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


def differences(review: PlayReview) -> list[tuple[Part, float]]:
    """What the choice brings, part by part, less what the best brings: the parts an explanation names,
    largest first (:func:`named_parts`: those that differ by half a point or more, and as many more as it takes for the
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
    return named_parts(diffs, review.lens)


def explain(review: PlayReview, names: tuple[str, str], lang: str = "en") -> str:
    """The review in a sentence, computed from the breakdowns of the choice and the best
    (:func:`differences`): what the choice gives up and what it gains against the best, by how much,
    and for the cards and capot the tricks each ends the deal with. A best choice says by how much it is
    better than the next card, or which cards are as good. In ``lang`` (:mod:`piquet.engine.language`)."""
    w = words_in(lang)
    lens = review.lens
    choice, best = review.worth(review.choice), review.worth(review.best)
    average = (w(" on average") if lens is Lens.FAIR else "") + stakes(review.utility, lang)
    verb = w("Leading the {card}" if review.leading else "Playing the {card}", card=card_text(review.choice, lang))
    if figure(review.loss, lens) == "0" and review.loss >= EPSILON:  # less than the lens shows
        return w("{verb}: as good as the best, the {best}, to {unit}{average}.", verb=verb,
                 best=card_text(review.best, lang), unit=unit(lens, lang), average=average)
    if review.loss < EPSILON:
        others = [x for x in review.cards if x.card != review.choice]
        if not others:
            return w("{verb}: the only card.", verb=verb)
        ties = [card_text(x.card, lang) for x in others if choice.value - x.value < EPSILON]
        if len(ties) > 2:
            return w("{verb}: one of {count} cards as good as any.", verb=verb, count=len(ties) + 1)
        if ties:
            return w("{verb}: as good as the {cards}.", verb=verb, cards=listed(ties, lang))
        margin = figure(choice.value - others[0].value, lens, lang)
        other = card_text(others[0].card, lang)
        if margin == "0":
            return w("{verb}: as good as the {other}, to {unit}{average}.", verb=verb, other=other,
                     unit=unit(lens, lang), average=average)
        return w("{verb}: the best, by {points}{average} over the {other}.", verb=verb,
                 points=points_words(margin, lang), average=average, other=other)
    lost: list[str] = []
    gained: list[str] = []
    for part, x in differences(review):
        said = f"{part.said(lang)} ({signed(x, lens, lang)}"
        if part in (Part.CARDS, Part.CAPOT) and choice.tricks is not None and best.tricks is not None \
                and abs(choice.tricks - best.tricks) >= 0.5:
            said += w("; {tricks} tricks instead of {other}", tricks=figure(choice.tricks, lens, lang),
                      other=figure(best.tricks, lens, lang))
        (lost if x < 0 else gained).append(said + ")")
    clauses = []
    if lost:
        clauses.append(w("it gives up {parts}", parts=listed(lost, lang)))
    if gained:
        clauses.append(w("and gains {parts}" if lost else "it gains {parts}", parts=listed(gained, lang)))
    text = w("{verb} rather than the {best} costs {name} {points}{average}: {clauses}.", verb=verb,
             best=card_text(review.best, lang), name=names[review.seat],
             points=points_words(figure(review.loss, lens, lang), lang), average=average, clauses=" ".join(clauses))
    return text + _trick_taken(review, names[1 - review.seat], lang)


def _trick_taken(review: PlayReview, opponent: str, lang: str = "en") -> str:
    """A sentence on the trick itself, when the choice lets the opponent take it more often than the best
    does (by a quarter of the worlds or more): with open hands, with which card."""
    w = words_in(lang)
    choice, best = review.worth(review.choice), review.worth(review.best)
    if choice.lost_trick is None or best.lost_trick is None or choice.lost_trick - best.lost_trick < 0.25:
        return ""
    if review.lens is Lens.OPEN:
        if review.leading and choice.line is not None:
            return w(" {name} takes the trick with the {card}.", name=opponent, card=card_text(choice.line[1], lang))
        return w(" {name} takes the trick.", name=opponent)
    return w(" {name} takes the trick in {share} of the hands sampled ({best} after the {card}).", name=opponent,
             share=percent(choice.lost_trick, lang), best=percent(best.lost_trick, lang),
             card=card_text(review.best, lang))
