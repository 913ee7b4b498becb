"""The review of Auction Piquet's calls: each call worth trying valued as the strongest level values it (the
declarations the contract reached brings, and the play in it), and the explanation."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from piquet.ai.bidding import (
    _candidates,
    _Deal,
)
from piquet.ai.budget import Deadline
from piquet.ai.inference import Inference, World
from piquet.ai.levels import LEVELS
from piquet.coach.review.grading import EPSILON, Lens, Part, figure, listed, mark, percent, points_words, signed
from piquet.engine.actions import (
    Bid,
    Deal,
)
from piquet.engine.cards import CardSet
from piquet.engine.language import words_in
from piquet.engine.partie import Partie, Phase
from piquet.engine.scoring import (
    ScoreCategory,
)

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
    best = choice if worth[choice].value >= top - EPSILON else max(options, key=lambda o: worth[o].value)
    order = sorted(options, key=lambda o: (-worth[o].value, o != choice))
    return CallReview(seat, lens, used, choice, best, max(0.0, top - worth[choice].value),
                      tuple(worth[o] for o in order))


def _called(bid: Bid, lang: str = "en") -> str:
    """A call as a sentence names it: "passing", "doubling", "bidding 8+"."""
    w = words_in(lang)
    named = {"pass": "passing", "double": "doubling", "redouble": "redoubling"}.get(bid.call)
    return w(named) if named is not None else w("bidding {call}", call=bid.call)


def explain_call(review: CallReview, names: tuple[str, str], lang: str = "en") -> str:
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
    >>> print(explain_call(review, ("Ann", "Bill"), "fr"))
    La passe plutôt que l'annonce 7+ coûte 6,5 points en moyenne à Ann : on y perd le contrat (−7) et gagne le point \
(+0,5). Après la passe, Ann tient le contrat dans 0 % des donnes tirées, et les deux passent dans 30 % ; après \
l'annonce 7+, dans 90 % des donnes tirées.
    """
    w = words_in(lang)
    me = names[review.seat]
    average = w(" on average") if review.lens is Lens.FAIR else ""
    chosen = review.worth(review.choice)
    others = [x for x in review.options if x.call != review.choice]
    verb = _called(review.choice, lang).capitalize()
    if review.loss < 0.05:
        if not others:
            return w("{verb}: the only call.", verb=verb)
        other = others[0]
        margin = chosen.value - other.value
        if margin < 0.05:
            return w("{verb}: as good as any.", verb=verb)
        head = w("{verb}: the best, by {points}{average} over {other}", verb=verb,
                 points=points_words(figure(margin, review.lens, lang), lang), average=average,
                 other=_called(other.call, lang))
        compared = other
    else:
        compared = review.worth(review.best)
        head = w("{verb} rather than {best} costs {name} {points}{average}", verb=verb,
                 best=_called(review.best, lang), name=me,
                 points=points_words(figure(review.loss, review.lens, lang), lang), average=average)
    diffs = sorted(((p, chosen.parts.get(p, 0.0) - compared.parts.get(p, 0.0)) for p in CALL_PARTS),
                   key=lambda pd: -abs(pd[1]))
    lost = [f"{p.said(lang)} ({signed(d, review.lens, lang)})" for p, d in diffs if d <= -0.05]
    won = [f"{p.said(lang)} ({signed(d, review.lens, lang)})" for p, d in diffs if d >= 0.05]
    effects = []
    if lost:
        effects.append(w("gives up {parts}", parts=listed(lost, lang)))
    if won:
        effects.append(w("gains {parts}", parts=listed(won, lang)))
    text = head + (w(": it {effects}.", effects=w(" and ").join(effects)) if effects else ".")
    return f"{text} {_endings(review, chosen, compared, names, lang)}"


def _share(x: float, lang: str = "en", of_deals: bool = True) -> str:
    """How many of the deals drawn: "30% of the deals drawn", or (``of_deals`` false, the deals said before)
    "30%"."""
    w = words_in(lang)
    if x < 0.005:
        return w("none of the deals drawn") if of_deals else w("none")
    if x > 0.995:
        return w("every deal drawn")
    return w("{share} of the deals drawn", share=percent(x, lang)) if of_deals else percent(x, lang)


def _endings(review: CallReview, chosen: CallWorth, compared: CallWorth, names: tuple[str, str],
             lang: str = "en") -> str:
    """How the auction ends after the call made and after the one it is compared with: whose the contract is
    (open hands), or how often the player holds it and both pass (the deals drawn)."""
    w = words_in(lang)
    me = names[review.seat]
    if review.lens is Lens.OPEN:
        def whose(x: CallWorth) -> str:
            return w("{name}'s", name=me) if x.held > 0.5 else w("nobody's: both pass") if x.annulled > 0.5 else \
                w("{name}'s", name=names[1 - review.seat])
        return w("After {call} the contract is {whose}; after {other}, {other_whose}.", call=_called(chosen.call, lang),
                 whose=whose(chosen), other=_called(compared.call, lang), other_whose=whose(compared))

    def share(x: CallWorth) -> str:
        text = _share(x.held, lang)
        if x.annulled >= 0.005:
            text += w(", and both pass in {share}", share=_share(x.annulled, lang, of_deals=False))
        return text
    return w("After {call} {name} holds the contract in {share}; after {other}, in {other_share}.",
             call=_called(chosen.call, lang), name=me, share=share(chosen), other=_called(compared.call, lang),
             other_share=share(compared))
