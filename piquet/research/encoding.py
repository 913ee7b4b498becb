"""The research adapters' action encoding: 65 ids shared by every variant, one card at a time.

Ids 0-31 are the cards, in the engine's card order (``Card`` values: spades, hearts, diamonds, clubs,
each from the seven to the ace: 0 is 7S, 7 is AS, 31 is AC). A card id means what the phase makes of
it: dealt (a chance outcome), cut, discarded, added to the combination being declared, or played. The
other ids finish a selection or name a decision that is not a card:

========  =====================================================================================
0-31      a card
32        exchange done (discard the cards chosen)
33        exchange done and show the rest of the talon (younger, Law 36)
34        combination done, another follows (a declaration that shows further combinations)
35        declaration done
36        sink: declare nothing in this category (elder), or answer "good" (younger)
37        announce carte blanche (younger, or elder where no count is said)
38        do not announce carte blanche
39-44     announce carte blanche and exchange 0 to 5 cards (elder)
45        concede (the rulings, 18)
46, 47    accept, decline the concession
48, 49    choose the dealer: I deal, my opponent deals
50-64     the calls of Auction Piquet: pass, double, redouble, 7+, 7-, 8+, ... 12-
========  =====================================================================================

A decision that takes several cards (an exchange, a declaration) is a :class:`Selection` built one id at a
time, the cards of each combination in increasing id order. The adapter holds no rules: an id is legal when
some legal engine action (:meth:`Partie.legal_actions`) extends the selection so far with it.

>>> from piquet.engine.partie import Partie
>>> from piquet.engine.actions import Deal
>>> from piquet.engine.cards import CARDS
>>> p = Partie(first_dealer=0)
>>> _ = p.push(Deal.from_pack(0, CARDS, 3, in_packets=False))
>>> [action_name(i) for i in legal_ids(p, EMPTY)][:3]
['JH', 'QH', 'KH']
>>> encode(p.legal_actions().list()[0])
[12, 13, 14, 15, 23, 32]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
from piquet.engine.cards import Card
from piquet.engine.partie import Partie, Phase

__all__ = [
    "ACCEPT",
    "CALLS",
    "CARTE_BLANCHE",
    "CARTE_BLANCHE_COUNT",
    "COMBINATION_DONE",
    "CONCEDE",
    "DEALER_ME",
    "DEALER_OPPONENT",
    "DECLARATION_DONE",
    "DECLINE",
    "EMPTY",
    "EXCHANGE_DONE",
    "EXCHANGE_SHOW_REST",
    "FIRST_CALL",
    "NO_CARTE_BLANCHE",
    "NUM_ACTIONS",
    "SINK",
    "EncodingError",
    "Selection",
    "action_name",
    "apply_id",
    "encode",
    "legal_ids",
]

EXCHANGE_DONE = 32
EXCHANGE_SHOW_REST = 33
COMBINATION_DONE = 34
DECLARATION_DONE = 35
SINK = 36
CARTE_BLANCHE = 37
NO_CARTE_BLANCHE = 38
#: ``CARTE_BLANCHE_COUNT + n``: announce carte blanche and exchange ``n`` cards (0 to 5).
CARTE_BLANCHE_COUNT = 39
CONCEDE = 45
ACCEPT = 46
DECLINE = 47
DEALER_ME = 48
DEALER_OPPONENT = 49
#: The calls of an auction, in id order from :data:`FIRST_CALL`.
CALLS: tuple[str, ...] = ("pass", "double", "redouble", *(f"{n}{sign}" for n in range(7, 13) for sign in "+-"))
FIRST_CALL = 50
NUM_ACTIONS = FIRST_CALL + len(CALLS)

_NAMES: dict[int, str] = {
    EXCHANGE_DONE: "x done", EXCHANGE_SHOW_REST: "x done show", COMBINATION_DONE: "and",
    DECLARATION_DONE: "declared", SINK: "sink", CARTE_BLANCHE: "cb", NO_CARTE_BLANCHE: "cb no",
    CONCEDE: "concede", ACCEPT: "accept", DECLINE: "decline", DEALER_ME: "dealer me",
    DEALER_OPPONENT: "dealer opponent",
    **{CARTE_BLANCHE_COUNT + n: f"cb {n}" for n in range(6)},
    **{FIRST_CALL + i: f"bid {call}" for i, call in enumerate(CALLS)},
}


class EncodingError(ValueError):
    """An id that is not legal now, or an action the encoding does not write (a cut, a deal)."""


def action_name(action_id: int) -> str:
    """The id's short name: a card in the record notation, else the table's words.

    >>> action_name(31), action_name(33), action_name(57)
    ('AC', 'x done show', 'bid 9+')
    """
    if 0 <= action_id < 32:
        return str(Card(action_id))
    if action_id in _NAMES:
        return _NAMES[action_id]
    raise EncodingError(f"no action has id {action_id!r} (ids are 0 to {NUM_ACTIONS - 1})")


@dataclass(frozen=True, slots=True)
class Selection:
    """The cards chosen so far of a decision made card by card: the combinations finished (a
    declaration) and the cards of the one being chosen (a mask)."""

    done: tuple[int, ...] = ()
    cards: int = 0

    @property
    def empty(self) -> bool:
        return not self.done and not self.cards

    @property
    def chosen(self) -> int:
        """Every card chosen so far, as a mask."""
        mask = self.cards
        for m in self.done:
            mask |= m
        return mask


EMPTY = Selection()


def encode(action: Action) -> list[int]:
    """The ids that make ``action``, in order (the cards of a selection in increasing id order).

    >>> from piquet.engine.cards import CardSet
    >>> from piquet.engine.combinations import Category
    >>> encode(Declare(0, Category.SETS, (CardSet.parse("AS AH AD"), CardSet.parse("KS KH KD"))))
    [7, 15, 23, 34, 6, 14, 22, 35]
    >>> encode(Exchange(1, CardSet.parse("7S 8S"), True))
    [0, 1, 33]
    """
    match action:
        case Play():
            return [int(action.card)]
        case Exchange():
            return [*sorted(int(c) for c in action.discards), EXCHANGE_SHOW_REST if action.show_rest else EXCHANGE_DONE]
        case Declare():
            if not action.combinations:
                return [SINK]
            ids: list[int] = []
            for i, combination in enumerate(action.combinations):
                if i:
                    ids.append(COMBINATION_DONE)
                ids += sorted(int(c) for c in combination)
            return [*ids, DECLARATION_DONE]
        case CarteBlanche():
            if not action.announce:
                return [NO_CARTE_BLANCHE]
            return [CARTE_BLANCHE if action.will_exchange is None else CARTE_BLANCHE_COUNT + action.will_exchange]
        case Bid():
            return [FIRST_CALL + CALLS.index(action.call)]
        case Concede():
            return [CONCEDE]
        case AcceptConcession():
            return [ACCEPT if action.accept else DECLINE]
        case ChooseDealer():
            return [DEALER_ME if action.dealer == action.player else DEALER_OPPONENT]
        case Cut() | Deal():
            raise EncodingError(f"a {type(action).__name__.lower()} is chance, dealt card by card, not a player's ids")
    raise EncodingError(f"not an action: {action!r}")


def _masks(action: Action) -> tuple[int, ...] | None:
    """The selection an action of a card-by-card decision completes, as masks (``None`` for the others)."""
    if isinstance(action, Exchange):
        return (action.discards.mask,)
    if isinstance(action, Declare) and action.combinations:
        return tuple(c.mask for c in action.combinations)
    return None


def _top(mask: int) -> int:
    return mask.bit_length() - 1


def _candidates(legal: Sequence[Action], selection: Selection) -> list[tuple[Action, tuple[int, ...]]]:
    """The legal card-by-card actions the selection is a start of: those that hold its finished combinations,
    then the cards chosen and none below the highest of them."""
    k = len(selection.done)
    found = []
    floor = (1 << (_top(selection.cards) + 1)) - 1
    for action in legal:
        masks = _masks(action)
        if (masks is None or len(masks) <= k or masks[:k] != selection.done
                or masks[k] & floor != selection.cards):
            continue
        found.append((action, masks))
    return found


#: The last legal list made: (the partie, its ply, its last action, the list). A selection of an exchange
#: asks for the same list at each card (elder's lists some 1,600 exchanges), so it is made once.
_LAST: list[tuple[Partie, int, Action | None, list[Action]]] = []


def _legal(partie: Partie, seat: int) -> list[Action]:
    last = partie.peek() if partie.ply else None
    if _LAST:
        held, ply, action, legal = _LAST[0]
        if held is partie and ply == partie.ply and action is last:
            return legal
    legal = partie.legal_actions(seat).list()
    _LAST[:] = [(partie, partie.ply, last, legal)]
    return legal


def legal_ids(partie: Partie, selection: Selection) -> list[int]:
    """The ids the player to act may choose, in increasing order, given his selection so far.

    Only the player to act is offered ids (the adapters are turn by turn: a concession or Piquet au
    Cent's carte blanche out of turn waits for the player's turn). Empty when no one is to act.
    """
    seat = partie.to_act
    if seat is None or partie.phase in (Phase.CUT, Phase.DEAL):
        return []
    legal = _legal(partie, seat)
    ids: set[int] = set()
    if selection.empty:
        for action in legal:
            if _masks(action) is None:
                ids.update(encode(action))
    k = len(selection.done)
    for action, masks in _candidates(legal, selection):
        rest = masks[k] & ~selection.cards
        if rest:
            ids.add(_top(rest & -rest))  # its lowest card: the cards of a combination come in increasing order
        if masks[k] == selection.cards and selection.cards:
            if isinstance(action, Exchange):
                ids.add(EXCHANGE_SHOW_REST if action.show_rest else EXCHANGE_DONE)
            else:
                ids.add(COMBINATION_DONE if len(masks) > k + 1 else DECLARATION_DONE)
    if selection.empty:
        for action in legal:
            if isinstance(action, Exchange) and not action.discards:
                ids.add(EXCHANGE_SHOW_REST if action.show_rest else EXCHANGE_DONE)
    return sorted(ids)


def apply_id(partie: Partie, selection: Selection, action_id: int) -> tuple[Selection, Action | None]:
    """The selection after ``action_id`` and the engine action it completes (``None`` while a
    selection goes on). The partie is not changed: the caller pushes the action. An id that is not
    legal raises :class:`EncodingError` naming the id, the player and the reason."""
    seat = partie.to_act
    if seat is None or partie.phase in (Phase.CUT, Phase.DEAL):
        raise EncodingError(f"no player is to act ({partie.phase.value}): id {action_id!r} cannot be taken")
    if action_id not in legal_ids(partie, selection):
        name = action_name(action_id) if 0 <= action_id < NUM_ACTIONS else repr(action_id)
        raise EncodingError(f"{partie.player_name(seat)} cannot choose {name} now: no legal action in the "
                            f"{partie.phase.value} extends the selection so far with it")
    legal = _legal(partie, seat)
    if action_id < 32:
        grown = Selection(selection.done, selection.cards | 1 << action_id)
        if partie.phase is Phase.PLAY:
            return EMPTY, next(a for a in legal if isinstance(a, Play) and int(a.card) == action_id)
        return grown, None
    if action_id in (EXCHANGE_DONE, EXCHANGE_SHOW_REST):
        show = action_id == EXCHANGE_SHOW_REST
        return EMPTY, next(a for a in legal if isinstance(a, Exchange) and a.discards.mask == selection.cards
                           and a.show_rest == show)
    if action_id == COMBINATION_DONE:
        return Selection((*selection.done, selection.cards)), None
    if action_id == DECLARATION_DONE:
        want = (*selection.done, selection.cards)
        return EMPTY, next(a for a in legal if _masks(a) == want and isinstance(a, Declare))
    return EMPTY, next(a for a in legal if _masks(a) is None and encode(a) == [action_id])
