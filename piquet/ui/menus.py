"""What a person is offered at a decision, in words: shared by the terminal and the browser table.

The engine lists every legal action (:meth:`piquet.engine.partie.Partie.legal_actions`);
a person wants a short menu of the sensible ones, said as the table says them.

>>> from piquet.engine.cards import CardSet
>>> describe_declaration(Category.POINT, (CardSet.parse("AS KS QS JS 9S"),))
'Point of five, making fifty (AS KS QS JS 9S)'
"""

from __future__ import annotations

from collections.abc import Sequence

from piquet.engine.actions import Declare
from piquet.engine.cards import CardSet, Suit
from piquet.engine.combinations import Category, call, candidates, maximal, pips
from piquet.engine.language import words_in
from piquet.engine.partie import Partie

__all__ = ["declaration_menu", "describe_declaration", "result_text"]


def describe_declaration(category: Category, combos: Sequence[CardSet], lang: str = "en") -> str:
    """A declaration in words (in ``lang``), its cards in record notation; ``"nothing"`` for none.

    >>> describe_declaration(Category.SETS, (CardSet.parse("KS KH KD"),), "fr")
    'Trois rois (KS KH KD)'
    """
    words = words_in(lang)
    if not combos:
        return words("nothing")
    parts = []
    for i, cards in enumerate(combos):
        name = call(category, cards, lang)
        if category is Category.POINT:
            name += words(", making {number}", number=words.number(pips(cards)))
        parts.append(f"{name if i == 0 else name[0].lower() + name[1:]} ({cards})")
    return " + ".join(parts)


def declaration_menu(partie: Partie, seat: int) -> list[Declare]:
    """The declarations to offer ``seat`` in the category now declared: the full declaration first,
    then each smaller call, then nothing (sinking, or "good"); short, legal and distinct.

    In an Auction minus contract nothing may be sunk, and the full declaration is the only one.
    """
    legal = [a for a in partie.legal_actions(seat) if isinstance(a, Declare)]
    if not legal:
        raise ValueError(f"{partie.player_name(seat)} has no declaration to make now")
    category = legal[0].category
    if partie.rules.must_declare_in_full(partie.contract):
        return legal
    hand = partie.hand(seat)
    minimum = partie.rules.minimum_point
    full = maximal(category, hand, minimum)
    options: list[Declare]
    if category is Category.POINT:
        suits = [hand.suit(s) for s in Suit if len(hand.suit(s)) >= max(minimum, 1)]
        suits.sort(key=lambda cs: (len(cs), pips(cs)), reverse=True)
        # Short points only when there is nothing longer (a menu, not every possibility).
        suits = suits[:1] + [cs for cs in suits[1:] if len(cs) >= 3]
        options = [Declare(seat, category, (cs,)) for cs in suits]
        if suits and len(suits[0]) > max(minimum, 1):
            # A shorter point out of the best suit (the best of one card fewer).
            shorter = [c for c in candidates(category, suits[0], minimum) if len(c) == len(suits[0]) - 1]
            options.insert(1, Declare(seat, category, (shorter[0],)))
    else:
        options = [Declare(seat, category, tuple(full))] if full else []
        options += [Declare(seat, category, (cs,)) for cs in full]
        # Shorter calls within the best combination (a quart out of a quint, three of four aces).
        if full:
            inner = [c for c in candidates(category, full[0], minimum) if c.issubset(full[0]) and c != full[0]]
            lengths: set[int] = set()
            for c in inner:
                if len(c) not in lengths:
                    lengths.add(len(c))
                    options.append(Declare(seat, category, (c,)))
    menu: list[Declare] = []
    for option in [*options, Declare(seat, category, ())]:
        if option not in menu and partie.can(option):
            menu.append(option)
    return menu


def nothing_words(menu: Sequence[Declare], elder: bool, lang: str = "en") -> str:
    """What declaring nothing is called in ``menu``: sinking for elder, saying good for younger, where the
    player holds something to declare; where he holds nothing, just that.

    >>> nothing = Declare(0, Category.POINT, ())
    >>> nothing_words([nothing], True)
    'nothing to declare'
    >>> nothing_words([Declare(0, Category.POINT, (CardSet.parse("AS KS QS"),)), nothing], True)
    'nothing (sink)'
    """
    words = words_in(lang)
    if len(menu) == 1:
        return words("nothing to declare")
    return words("nothing (sink)") if elder else words("nothing (say good)")


def result_text(partie: Partie, lang: str = "en", names: Sequence[str] | None = None) -> str:
    """The settlement of a finished partie in words (in ``lang``), the players named ``names`` (by default the
    partie's)."""
    words = words_in(lang)
    rules = partie.rules
    names = names or partie.players
    result = partie.result
    if result is None:
        raise ValueError("the partie is not over")
    if result.winner is None:
        return words("The partie is drawn.")
    winner, loser = names[result.winner], names[1 - result.winner]
    if result.games is not None:
        won = result.games
        return words("{winner} wins the partie, {a} games to {b} (a double game counting two).", winner=winner,
                     a=won[result.winner], b=won[1 - result.winner])
    a, b = partie.totals
    bonus = rules.settlement_bonus
    if result.rubiconed:
        return words("{winner} wins the partie and scores {points}: the sum of both scores, {sum}, and {bonus}; "
                     "{loser} is rubiconed (under {rubicon}).", winner=winner, points=result.points, sum=a + b,
                     bonus=bonus, loser=loser, rubicon=rules.rubicon)
    return words("{winner} wins the partie and scores {points}: the difference, {difference}, and {bonus}.",
                 winner=winner, points=result.points, difference=abs(a - b), bonus=bonus)
