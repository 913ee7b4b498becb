"""The review of the concession decisions of a partie's last deal (the rulings, 18): conceding or playing on,
accepting a concession or declining it, each valued by the partie's stakes."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

from piquet.ai.levels import partie_utility, sample_opponent_hands
from piquet.ai.solver import position_from_view
from piquet.coach.review.grading import (
    DEFAULT_WORLDS,
    EPSILON,
    PLAY_PARTS,
    Lens,
    Part,
    mark,
    named_parts,
    options_sentence,
    parts_clauses,
    stakes,
)
from piquet.coach.review.play import BestCache, best_card, principal_line
from piquet.engine.actions import (
    Concede,
)
from piquet.engine.language import words_in
from piquet.engine.partie import Partie, Phase

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
        line = principal_line(position, best_card(position, rules, cache), rules, cache)
        for part, points in line.parts.items():
            played[part] += sign * points * weight / total
    yielding = ACCEPT if answering else CONCEDE
    parts = {yielding: conceded, options[1]: played}
    values = {option: sum(parts[option].values()) for option in options}
    top = max(values.values())
    best = choice if values[choice] >= top - EPSILON else max(options, key=lambda o: values[o])
    return ConcessionReview(seat, lens, 1 if lens is Lens.OPEN else len(drawn), mine, choice, best,
                            max(0.0, top - values[choice]), values, parts)


_CONCESSION_WORDS: Final = {CONCEDE: "Conceding", PLAY_ON: "Playing on", ACCEPT: "Accepting the concession",
                            DECLINE: "Declining the concession"}


def explain_concession(review: ConcessionReview, names: tuple[str, str], lang: str = "en") -> str:
    """The review of a concession decision in a sentence: the choice against the best (or the best against the
    other option), what it gives up and gains part by part, by the partie's stakes where they are not the score
    difference. In ``lang``."""
    w = words_in(lang)
    lens = review.lens
    average = (w(" on average") if lens is Lens.FAIR else "") + stakes(review.utility, lang)
    other = next(o for o in review.values if o != review.choice)
    compared = review.best if review.best != review.choice else other
    diffs = {part: review.parts[review.choice].get(part, 0.0) - review.parts[compared].get(part, 0.0)
             for part in (*PLAY_PARTS, Part.PLAY)}
    clauses = parts_clauses(named_parts(diffs, lens), lens, lang)
    verb = w(_CONCESSION_WORDS[review.choice])
    against = w(_CONCESSION_WORDS[compared]).lower()
    return options_sentence(verb, against, names[review.seat], review.loss,
                            review.values[review.choice] - review.values[other], clauses, lens, average, lang)
