"""The review of the declarations: each declaration the engine allows valued as the levels weigh them (the
points the declarations score in hand, by the partie's stakes), and the explanation."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from piquet.ai.declaring import declaration_parts
from piquet.ai.inference import Inference, World
from piquet.ai.levels import DECLARATION_WORLDS, partie_utility, sample_opponent_hands
from piquet.coach.review.grading import (
    EPSILON,
    Lens,
    Part,
    cards_text,
    figure,
    mark,
    named_parts,
    parts_clauses,
    points_words,
    stakes,
    unit,
)
from piquet.engine.actions import (
    Declare,
)
from piquet.engine.cards import CardSet
from piquet.engine.combinations import Category
from piquet.engine.language import words_in
from piquet.engine.partie import Partie, Phase


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
    rows = declaration_parts(view, options, sampled, mine)  # an option's value is the sum of its parts
    values = [sum(row) / total_weight for row in rows]
    parts = {o: {part: x / total_weight for part, x in zip(DECLARATION_PARTS, row, strict=True)}
             for o, row in zip(options, rows, strict=True)}
    worth = dict(zip(options, values, strict=True))
    top = max(values)
    best = choice if worth[choice] >= top - EPSILON else max(options, key=lambda o: worth[o])
    order = sorted(options, key=lambda o: (-worth[o], o != choice))
    return DeclarationReview(seat, lens, len(sampled), mine, choice, best, max(0.0, top - worth[choice]),
                             tuple((o, worth[o]) for o in order), parts)


def declaration_differences(review: DeclarationReview) -> list[tuple[Part, float]]:
    """What the choice brings, part by part, less what the best brings (for a best choice: less what the next
    brings), the parts an explanation names (:func:`named_parts`), largest first."""
    compared = review.best if review.best != review.choice else next(
        (o for o, _ in review.options if o != review.choice), review.choice)
    mine, other = review.parts.get(review.choice), review.parts.get(compared)
    if mine is None or other is None:
        return []
    return named_parts({part: mine[part] - other[part] for part in DECLARATION_PARTS}, review.lens)


def _declaration_effects(review: DeclarationReview, lang: str = "en") -> str:
    """``: it gives up ... and gains ...`` from :func:`declaration_differences`, or nothing."""
    said = parts_clauses(declaration_differences(review), review.lens, lang)
    return words_in(lang)(": {clauses}", clauses=said) if said else ""


def _declared(declare: Declare, lang: str = "en") -> str:
    w = words_in(lang)
    shown = w(" and ").join(cards_text(c, lang) for c in declare.combinations) or w("nothing")
    return w(_CATEGORY_WORDS[declare.category], cards=shown)


_CATEGORY_WORDS: Final = {Category.POINT: "{cards} for the point", Category.SEQUENCES: "{cards} for sequences",
                          Category.SETS: "{cards} for sets"}


def explain_declaration(review: DeclarationReview, names: tuple[str, str], lang: str = "en") -> str:
    """The declaration's review in a sentence: what was declared against the best, and what it cost in the
    points the declarations score (the partie's stakes where they are not the score difference). In ``lang``
    (:mod:`piquet.engine.language`)."""
    w = words_in(lang)
    said_stakes = stakes(review.utility, lang)
    average = w(" on average") if review.lens is Lens.FAIR else ""
    verb = w("Declaring {declared}", declared=_declared(review.choice, lang))
    if review.loss < EPSILON:
        others = [(o, v) for o, v in review.options if o != review.choice]
        value = dict(review.options)[review.choice]
        if not others:
            return w("{verb}: the only declaration.", verb=verb)
        if value - others[0][1] < EPSILON:
            return w("{verb}: as good as any{stakes}.", verb=verb, stakes=said_stakes)
        margin = figure(value - others[0][1], review.lens, lang)
        if margin == "0":
            return w("{verb}: as good as {other}, to {unit}{average}{stakes}.", verb=verb,
                     other=_declared(others[0][0], lang), unit=unit(review.lens, lang), average=average,
                     stakes=said_stakes)
        return w("{verb}: the best, by {points}{average}{stakes}{effects}.", verb=verb,
                 points=points_words(margin, lang), average=average, stakes=said_stakes,
                 effects=_declaration_effects(review, lang))
    if figure(review.loss, review.lens) == "0":  # less than the lens shows
        return w("{verb}: as good as the best, {best}, to {unit}{average}{stakes}.", verb=verb,
                 best=_declared(review.best, lang), unit=unit(review.lens, lang), average=average, stakes=said_stakes)
    return w("{verb} rather than {best} costs {name} {points}{average}{stakes} in what the declarations score"
             "{effects}.", verb=verb, best=_declared(review.best, lang), name=names[review.seat],
             points=points_words(figure(review.loss, review.lens, lang), lang), average=average, stakes=said_stakes,
             effects=_declaration_effects(review, lang))
