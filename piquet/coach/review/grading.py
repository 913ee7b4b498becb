"""What a review grades by: the two lenses, the parts a value is broken down into, the marks a loss earns, and
the numbers and clauses every explanation says (a number as the lens gives it, the parts named, the stakes)."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Final

from piquet.ai.levels import LEVELS
from piquet.engine.cards import Card, CardSet
from piquet.engine.language import words_in
from piquet.engine.words import pretty_card

#: The worlds the fair lens averages over, by default: as many as the strongest level samples for a card.
DEFAULT_WORLDS: Final = LEVELS[5].play_worlds

#: The marks, by the loss of the choice against the best (points of the deal), largest first: ``??`` a
#: blunder (the cards' ten, a pique, a capot), ``?`` a mistake (a few tricks' points), ``?!`` an
#: inaccuracy (about a trick changing hands). Provisional: docs/review.md says why these, and they are
#: to be calibrated on the levels' own losses.
MARKS: Final[tuple[tuple[float, str], ...]] = ((10.0, "??"), (5.0, "?"), (2.0, "?!"))

#: A loss smaller than this is no loss (the fair lens's means are floats).
EPSILON: Final = 1e-9


class Lens(enum.Enum):
    """What the values may know: every card (open hands) or what the player's view allows (fair)."""

    OPEN = "open-hands"
    FAIR = "fair"


class Part(enum.Enum):
    """Where the points come from: in the play (the scoring of Laws 65-69 and Auction's contract,
    :data:`PLAY_PARTS`), and before it, in the exchange's value (the declarations, a carte blanche, the
    repique, and the play as the exchange estimates it, :data:`~piquet.coach.review.exchange.EXCHANGE_PARTS`)."""

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

    def said(self, lang: str = "en") -> str:
        """The part in ``lang``'s words, as a sentence names it.

        >>> Part.SETS.said("fr"), Part.LAST_TRICK.said()
        ('les quatorzes et brelans', 'the last trick')
        """
        return words_in(lang)(_PART_WORDS[self])


_PART_WORDS: Final = {
    Part.LEAD: "the points for leading", Part.TRICKS: "the points for tricks won", Part.LAST_TRICK: "the last trick",
    Part.CARDS: "the cards", Part.CAPOT: "the capot", Part.PIQUE: "the pique", Part.CONTRACT: "the contract",
    Part.CARTE_BLANCHE: "the carte blanche", Part.POINT: "the point", Part.SEQUENCES: "the sequences",
    Part.SETS: "the sets", Part.REPIQUE: "the repique", Part.PLAY: "the play", Part.CARTE_ROUGE: "the carte rouge",
}

#: The parts of a card's value in the play, in the order they are scored.
PLAY_PARTS: Final = (Part.LEAD, Part.TRICKS, Part.LAST_TRICK, Part.CARDS, Part.CAPOT, Part.PIQUE, Part.CONTRACT)


def mark(loss: float) -> str:
    """The mark a loss earns (:data:`MARKS`).

    >>> mark(0.0), mark(2.0), mark(7.5), mark(20)
    ('', '?!', '?', '??')
    """
    for threshold, sign in MARKS:
        if loss >= threshold - EPSILON:
            return sign
    return ""


# ---------------------------------------------------------------- the explanation
# Every sentence of an explanation is an English template of the catalogue (:mod:`piquet.engine.language`), said in
# the language asked for; the numbers a lens gives are written as that language writes them (a decimal comma in
# French).
def figure(x: float, lens: Lens | None, lang: str = "en") -> str:
    """A number of points as the lens gives it: whole with open hands, to a tenth in the fair lens; in ``lang``'s
    digits.

    >>> figure(2.46, Lens.FAIR), figure(2.46, Lens.FAIR, "fr"), figure(2.46, Lens.OPEN)
    ('2.5', '2,5', '2')
    """
    text = f"{x:.0f}" if lens is Lens.OPEN or abs(x - round(x)) < 0.05 else f"{x:.1f}"
    text = "0" if text in ("-0", "-0.0") else text
    return text.replace(".", ",") if lang == "fr" else text


def signed(x: float, lens: Lens | None, lang: str = "en") -> str:
    text = figure(abs(x), lens, lang)
    return ("−" if x < 0 else "+") + text


def unit(lens: Lens | None, lang: str = "en") -> str:
    """What a number of points is given to in the lens (:func:`figure`)."""
    return words_in(lang)("a point" if lens is Lens.OPEN else "a tenth of a point")


def _count(text: str, lang: str) -> int:
    """The whole number a plural rule is asked about for a figure: English makes any fraction plural ("1.5
    points"), French counts its whole part ("1,5 point")."""
    whole, _, fraction = text.replace(",", ".").partition(".")
    return 2 if fraction and lang == "en" else int(whole)


def points_words(text: str, lang: str = "en") -> str:
    """A figure (:func:`figure`) of points, the word in the plural its number asks for.

    >>> points_words("1"), points_words("1.5"), points_words("1,5", "fr"), points_words("2", "fr")
    ('1 point', '1.5 points', '1,5 point', '2 points')
    """
    return words_in(lang).plural("{number} point", "{number} points", _count(text, lang), number=text)


def plural(text: str, word: str) -> str:
    return f"{text} {word}{'' if text == '1' else 's'}"


def listed(items: Sequence[str], lang: str = "en") -> str:
    """Items as a sentence lists them.

    >>> listed(["a", "b", "c"]), listed(["a", "b"], "fr")
    ('a, b and c', 'a et b')
    """
    if len(items) == 1:
        return items[0]
    return words_in(lang)("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


def percent(share: float, lang: str = "en") -> str:
    """A share as a percentage, as ``lang`` writes it.

    >>> percent(0.344), percent(0.344, "fr")
    ('34%', '34 %')
    """
    text = f"{share:.0%}"
    return text.replace("%", " %") if lang == "fr" else text


def card_text(card: Card, lang: str = "en") -> str:
    """A card as an explanation shows it (its index in ``lang``: :func:`~piquet.engine.words.pretty_card`)."""
    return pretty_card(card, lang)


def cards_text(cards: CardSet, lang: str = "en") -> str:
    """Cards as an explanation shows them (an empty string for none)."""
    return " ".join(pretty_card(c, lang) for c in cards)


def stakes(utility: tuple[int, int], lang: str = "en") -> str:
    """The words a value's units add: none for points of the deal (the player's less the opponent's), else that
    they are weighed by the partie's stakes (:func:`~piquet.ai.levels.partie_utility`).

    >>> stakes((1, -1)), stakes((1, 1))
    ('', " by the partie's stakes")
    """
    return "" if utility == (1, -1) else words_in(lang)(" by the partie's stakes")


def parts_clauses(diffs: Sequence[tuple[Part, float]], lens: Lens | None, lang: str = "en") -> str:
    """``it gives up A (−x) and gains B (+y)``: the parts in which a choice differs from another, as named (nothing
    where none differs)."""
    words = words_in(lang)
    said = [(f"{p.said(lang)} ({signed(x, lens, lang)})", x) for p, x in diffs if abs(x) >= EPSILON]
    lost = [t for t, x in said if x < 0]
    gained = [t for t, x in said if x > 0]
    clauses = []
    if lost:
        clauses.append(words("it gives up {parts}", parts=listed(lost, lang)))
    if gained:
        clauses.append(words("and gains {parts}" if lost else "it gains {parts}", parts=listed(gained, lang)))
    return " ".join(clauses)


def named_parts(diffs: Mapping[Part, float], lens: Lens | None) -> list[tuple[Part, float]]:
    """The parts an explanation names, largest first (ties in the order given): those differing by half a point or
    more (the largest always), then the next largest for as long as the parts named leave out something the lens
    shows of the whole difference (a tenth of a point in the fair lens, a point with open hands), so that the
    parts an explanation names add up to the total it explains.

    >>> [(p.value, x) for p, x in named_parts({Part.POINT: -1.0, Part.REPIQUE: 0.6, Part.PIQUE: 0.43}, Lens.FAIR)]
    [('point', -1.0), ('repique', 0.6), ('pique', 0.43)]
    >>> [(p.value, x) for p, x in named_parts({Part.POINT: -1.0, Part.REPIQUE: 0.6, Part.PIQUE: 0.02}, Lens.FAIR)]
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


def options_sentence(verb: str, against: str, name: str, loss: float, margin: float, clauses: str, lens: Lens,
                     average: str, lang: str = "en") -> str:
    """The review in a sentence of a choice between a few named options (a carte blanche decision, a concession):
    ``verb`` (the choice in words) against ``against`` (the best, or the next where the choice is the best),
    ``name`` the player's; the choice costing ``loss``, or being the best by ``margin``; ``clauses`` the parts
    that make the difference (:func:`parts_clauses`), ``average`` what the value is a mean of. In ``lang``."""
    w = words_in(lang)
    if loss < EPSILON:
        shown = figure(margin, lens, lang)
        if shown == "0":
            return w("{verb}: as good as {other}, to {unit}{average}.", verb=verb, other=against,
                     unit=unit(lens, lang), average=average)
        return w("{verb}: the best, by {points}{average} over {other}: {clauses}.", verb=verb,
                 points=points_words(shown, lang), average=average, other=against, clauses=clauses)
    if figure(loss, lens) == "0":  # less than the lens shows
        return w("{verb}: as good as the best, {best}, to {unit}{average}.", verb=verb, best=against,
                 unit=unit(lens, lang), average=average)
    return w("{verb} rather than {best} costs {name} {points}{average}: {clauses}.", verb=verb, best=against,
             name=name, points=points_words(figure(loss, lens, lang), lang), average=average, clauses=clauses)
