"""Choosing what to declare in a partie's last deal, where the points scored are not simply for or against.

:func:`choose_declaration` weighs each declaration the engine allows (in full, a smaller call, or
nothing) over hands the opponent may hold, by what the declarations then score valued by the
partie's utility (:func:`piquet.ai.levels.partie_utility`). Why, and how well: docs/players.md.

>>> import random
>>> from piquet.engine.actions import Deal, Exchange
>>> from piquet.engine.cards import CardSet
>>> from piquet.engine.partie import Partie
>>> partie = Partie(("Ann", "Bill"), first_dealer=0)
>>> hands = (CardSet.parse("AS KS QS 7H 8H 9H 7D 8D 9D 7C 8C JC"),
...          CardSet.parse("JS TS 9S AH KH QH AD KD QD AC KC QC"))
>>> _ = partie.push(Deal(0, hands, tuple(CardSet.parse("8S 7S JH TH JD TD TC 9C"))))
>>> _ = partie.push(Exchange(1, CardSet.parse("JS TS 9S")))
>>> _ = partie.push(Exchange(0, CardSet.parse("7C 8C JC")))
>>> view, legal = partie.view(1), partie.legal_actions(1)
>>> choose_declaration(view, legal, random.Random(1), 16, (1, -1)) is None  # in full, as the books
True

Bill (elder) holds a point of four in hearts and Ann a point of five. Should he be the loser
of the partie, sure to stay under the rubicon, every point scored costs him, and he sinks it (it
cannot be good against her five; had it been, it would have cost him four):

>>> choose_declaration(view, legal, random.Random(1), 16, (1, 1)).combinations
()
>>> choose_declaration(view, legal, random.Random(1), 16, (-1, -1)) is None  # the winner: in full
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from piquet.ai.books import declaration_in_full
from piquet.ai.budget import Deadline
from piquet.ai.exchange import elder_pique
from piquet.ai.inference import Inference, World
from piquet.engine.actions import Declare
from piquet.engine.cards import CardSet
from piquet.engine.combinations import Category, best_shown, candidates, key
from piquet.engine.partie import LegalActions, Phase
from piquet.engine.scoring import ScoreCategory
from piquet.engine.variants import Contract, Rules
from piquet.engine.view import Announcement, PlayerView

__all__ = ["DECLARED_PARTS", "choose_declaration", "declaration_parts", "declaration_values", "declared_by_category",
           "declared_points"]

#: One player's combinations declared in a category, the call first (empty: nothing declared).
Calls = tuple[CardSet, ...]


def _called_so(category: Category, hand: CardSet, heard: Announcement, minimum: int) -> Calls:
    """Elder's declaration as it was heard, in a hand she may hold: the best combination of the
    length (and pips, top card or rank) she named, then the rest of her combinations in full."""
    if heard.length is None:
        return ()
    full = declaration_in_full(category, hand, minimum)
    for combination in candidates(category, hand, minimum):
        if len(combination) != heard.length:
            continue
        if heard.rank is not None and max(c.rank for c in combination) != heard.rank:
            continue
        if heard.detail is not None and key(category, combination)[1] != heard.detail:
            continue
        rest = tuple(c for c in full if c != combination and not c.mask & combination.mask
                     and key(category, c) <= key(category, combination))
        return (combination, *rest)
    return full


def declared_points(calls: Sequence[tuple[Calls, Calls]], rules: Rules, before: tuple[int, int] = (0, 0),
                    contract: Contract | None = None) -> tuple[int, int]:
    """What elder and younger score in hand for the declarations ``calls`` (elder's and
    younger's, by category in :class:`~piquet.engine.combinations.Category` order): elder's call (his first
    combination) against the best younger shows, as the engine judges them; the better scores every
    combination its player showed (for its holder, or in an Auction minus contract his opponent), an equal one
    nothing; then a repique (Law 68) to the player whose points reach the rules' threshold while the other has
    nothing, reckoned in the order carte blanche, point, sequences, sets (Law 67). ``before``: what each scored
    in hand before the declarations (a carte blanche).

    >>> from piquet.engine.cards import CardSet
    >>> from piquet.engine.variants import make_rules
    >>> quint, aces = CardSet.parse("AS KS QS JS TS"), CardSet.parse("AS AH AD AC")
    >>> declared_points([((quint,), ()), ((quint,), ()), ((aces,), ())], make_rules("rubicon"))
    (94, 0)
    >>> declared_points([((), ()), ((), ()), ((aces,), ())], make_rules("rubicon"))
    (14, 0)
    """
    e, y = declared_by_category(calls, rules, before, contract)
    return sum(e), sum(y)


def declared_by_category(calls: Sequence[tuple[Calls, Calls]], rules: Rules, before: tuple[int, int] = (0, 0),
                         contract: Contract | None = None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`declared_points` by part: elder's and younger's points before the declarations (a carte blanche),
    for the point, the sequences, the sets and the repique, in that order (:data:`DECLARED_PARTS`); each side's
    parts sum to its points.

    >>> from piquet.engine.cards import CardSet
    >>> from piquet.engine.variants import make_rules
    >>> quint, aces = CardSet.parse("AS KS QS JS TS"), CardSet.parse("AS AH AD AC")
    >>> declared_by_category([((quint,), ()), ((quint,), ()), ((aces,), ())], make_rules("rubicon"))
    ((0, 5, 15, 14, 60), (0, 0, 0, 0, 0))
    >>> tierce, quart = CardSet.parse("9H 8H 7H"), CardSet.parse("JD TD 9D 8D")   # younger's best shown last
    >>> declared_by_category([((), ()), ((CardSet.parse("AS KS QS"),), (tierce, quart)), ((), ())],
    ...                      make_rules("rubicon"))
    ((0, 0, 0, 0, 0), (0, 0, 7, 0, 0))
    """
    parts = [[before[0], 0, 0, 0, 0], [before[1], 0, 0, 0, 0]]
    scored = [before[0], before[1]]
    threshold = rules.repique_threshold(contract)
    repique: int | None = None
    for n, (category, (e, y)) in enumerate(zip(Category, calls, strict=False), start=1):
        called, answer = (e[0] if e else None), best_shown(category, y)
        if called is not None and (answer is None or key(category, called) > key(category, answer)):
            holder, shown = 0, e
        elif answer is not None and (called is None or key(category, answer) > key(category, called)):
            holder, shown = 1, y
        else:
            continue
        scorer = rules.combination_scorer(holder, contract)
        points = sum(rules.combination_points(category, c) for c in shown)
        parts[scorer][n] += points
        scored[scorer] += points
        if repique is None and scored[scorer] >= threshold and scored[1 - scorer] == 0:
            repique = scorer
    if repique is not None:
        parts[repique][4] = rules.repique_points
    return tuple(parts[0]), tuple(parts[1])


#: What the declarations score, part by part (:func:`declared_by_category`, then elder's pique as
#: :func:`piquet.ai.exchange.elder_pique` estimates it): :func:`declaration_parts`' order.
DECLARED_PARTS = ("carte_blanche", "point", "sequences", "sets", "repique", "pique")


def choose_declaration(view: PlayerView, legal: LegalActions, rng: random.Random, worlds: int,
                       utility: tuple[int, int], deadline: Deadline | None = None) -> Declare | None:
    """The declaration with the best average worth over ``worlds`` hands the opponent may hold,
    each seat's points valued by ``utility`` (seat 0's worth of a point scored by seat 0 and by
    seat 1, as :attr:`piquet.ai.solver.PlayPosition.utility`). ``None``, to declare in full, unless
    every point scored costs this player (a loser sure to stay under the rubicon); and where this
    does not apply (not this player's declaration; an Auction minus contract, where nothing may
    be sunk) or there is nothing to choose. Over fewer hands where the ``deadline``'s wall-clock cap
    comes first (``None`` where it comes before the first)."""
    seat, opponent = view.seat, view.opponent
    if seat is None or opponent is None or view.phase is not Phase.DECLARE or view.to_act != seat:
        return None
    mine = utility if seat == 0 else (-utility[1], -utility[0])  # my worth of my point, of hers
    if mine != (-1, -1) or (view.contract is not None and view.contract.minus):
        return None  # in full: the score difference, or a winner (see the module's account)
    options = [a for a in legal if isinstance(a, Declare)]
    if len(options) < 2:
        return None
    sampled = Inference(view).sample(rng, worlds, deadline=deadline)
    if not sampled or (deadline is not None and deadline.overdue()):
        return None
    totals = declaration_values(view, options, sampled, mine, deadline)
    best = max(range(len(options)), key=lambda i: (totals[i], -i))
    return options[best]


def declaration_values(view: PlayerView, options: Sequence[Declare], sampled: Sequence[World],
                       mine: tuple[int, int], deadline: Deadline | None = None) -> list[float]:
    """Each of ``options`` (declarations of the category due) valued over the hands ``sampled``
    for the opponent: the points the declarations then score in hand (and an elder's pique),
    this player's worth ``mine`` of his own point and of hers, summed with the worlds' weights.
    Her calls are taken as heard where she is elder and has called, else in full as the books do.
    The ``deadline``'s wall-clock cap, asked at each hand, stops the sum where it is."""
    totals = [0.0] * len(options)
    for i, weight, ours, theirs in _declared_worlds(view, options, sampled, deadline):
        totals[i] += weight * (mine[0] * sum(ours) + mine[1] * sum(theirs))
    return totals


def declaration_parts(view: PlayerView, options: Sequence[Declare], sampled: Sequence[World],
                      mine: tuple[int, int]) -> list[list[float]]:
    """:func:`declaration_values` by part (:data:`DECLARED_PARTS`): for each option, what each part brings this
    player (his points of it by ``mine[0]``, hers by ``mine[1]``), summed with the worlds' weights; an option's
    parts sum to its value."""
    totals = [[0.0] * len(DECLARED_PARTS) for _ in options]
    for i, weight, ours, theirs in _declared_worlds(view, options, sampled):
        row = totals[i]
        for k, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            row[k] += weight * (mine[0] * a + mine[1] * b)
    return totals


def _declared_worlds(view: PlayerView, options: Sequence[Declare], sampled: Sequence[World],
                     deadline: Deadline | None = None
                     ) -> Iterator[tuple[int, float, tuple[int, ...], tuple[int, ...]]]:
    """For each world and option: the option's index, the world's weight, and this player's and the opponent's
    points in hand by part (:data:`DECLARED_PARTS`), as :func:`declaration_values` reckons them."""
    seat, opponent = view.seat, view.opponent
    assert seat is not None and opponent is not None
    rules = view.rules
    minimum = rules.minimum_point
    elder = seat == view.elder
    category = options[0].category
    made = {c.category: c.combinations for c in view.own_calls}
    own_calls = {c: made[c] if c in made else declaration_in_full(c, view.hand, minimum) for c in Category}
    heard = {a.category: a for a in view.announcements}
    before = [0, 0]
    for event in view.events:
        if event.category is ScoreCategory.CARTE_BLANCHE:
            before[event.player] += event.points
    first = (before[seat], before[opponent]) if elder else (before[opponent], before[seat])
    for world in sampled:
        if deadline is not None and deadline.overdue():
            return
        hers = world.opponent_hand
        her_calls = {c: _called_so(c, hers, heard[c], minimum) if not elder and c in heard
                     else declaration_in_full(c, hers, minimum) for c in Category}
        e_hand, y_hand = (view.hand, hers) if elder else (hers, view.hand)
        for i, option in enumerate(options):
            calls = []
            for c in Category:
                own = option.combinations if c is category else own_calls[c]
                calls.append((own, her_calls[c]) if elder else (her_calls[c], own))
            de, dy = declared_by_category(calls, rules, first, view.contract)
            a, b = sum(de), sum(dy)
            e_parts, y_parts = (*de, elder_pique(a, b, e_hand.mask, y_hand.mask, rules, view.contract) - a), (*dy, 0)
            yield (i, world.weight, e_parts, y_parts) if elder else (i, world.weight, y_parts, e_parts)
