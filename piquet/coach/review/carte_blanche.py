"""The review of a carte blanche decision where the rules leave it optional (Laws 18-20): each option applied and
valued by the player's best exchange after it."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from piquet.ai.books import SimpleAgent
from piquet.ai.budget import Deadline
from piquet.coach.review.exchange import EXCHANGE_WORLDS, review_exchange
from piquet.coach.review.grading import (
    EPSILON,
    Lens,
    Part,
    mark,
    named_parts,
    options_sentence,
    parts_clauses,
    stakes,
)
from piquet.engine.actions import (
    CarteBlanche,
    Exchange,
)
from piquet.engine.language import words_in
from piquet.engine.partie import Partie, Phase


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
    best_option = choice if values[choice] >= top - EPSILON else max(options, key=lambda o: values[o])
    order = sorted(options, key=lambda o: (-values[o], o != choice))
    return CarteBlancheReview(seat, lens, used, utility, choice, best_option, max(0.0, top - values[choice]),
                              tuple((o, values[o]) for o in order), parts)


def carte_blanche_words(option: CarteBlanche, lang: str = "en") -> str:
    """A carte blanche decision in words, in ``lang``: "announcing carte blanche and 3 cards to exchange"."""
    w = words_in(lang)
    if not option.announce:
        return w("not announcing carte blanche")
    if option.will_exchange is None:
        return w("announcing carte blanche")
    return w.plural("announcing carte blanche and {n} card to exchange",
                    "announcing carte blanche and {n} cards to exchange", option.will_exchange)


def explain_carte_blanche(review: CarteBlancheReview, names: tuple[str, str], lang: str = "en") -> str:
    """A carte blanche decision's review in a sentence: the choice against the best (a best one against the next),
    part by part, by the partie's stakes where they are not the score difference. In ``lang``."""
    w = words_in(lang)
    lens = review.lens
    average = (w(" on average") if lens is Lens.FAIR else "") + stakes(review.utility, lang)
    compared = review.best if review.best != review.choice else next(
        (o for o, _ in review.options if o != review.choice), review.choice)
    mine, other = review.parts[review.choice], review.parts[compared]
    diffs = {p: mine.get(p, 0.0) - other.get(p, 0.0) for p in dict.fromkeys([*mine, *other])}
    clauses = parts_clauses(named_parts(diffs, lens), lens, lang)
    verb = carte_blanche_words(review.choice, lang)
    verb = verb[0].upper() + verb[1:]
    against = carte_blanche_words(compared, lang)
    values = dict(review.options)
    return options_sentence(verb, against, names[review.seat], review.loss, values[review.choice] - values[compared],
                            clauses, lens, average, lang)
