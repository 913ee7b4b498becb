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
from piquet.engine.cards import Card, CardSet
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
    "Decision",
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


def _cards(mask: int) -> list[int]:
    """The ids of the cards of ``mask``, in increasing order."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


class Decision:
    """The decision of the player to act at one position of a partie: the ids he may choose, given his
    selection so far, and the engine action an id completes. Made once per position and asked at every id
    of a selection (:class:`~piquet.research.openspiel.PiquetState` keeps one until the partie moves on);
    :func:`legal_ids` and :func:`apply_id` make one at each call.

    The engine decides what is legal. At every phase but the exchange the decision is its list of legal
    actions (:meth:`Partie.legal_actions`: a few cards, calls or declarations), each action its ids. The
    exchange is not listed: elder's list has some 1,600 actions, every set of his hand of a size he may
    exchange, and younger's each twice (with and without showing the rest of the talon). The view gives the
    fewest and most cards the player may exchange (``PlayerView.exchange_range``, Laws 21 and 22, and 20 after
    carte blanche) and every set of his hand of such a size is a legal exchange, as the engine lists them (the
    tests hold the two equal), so a card is offered when the selection with it can still grow to a legal size.
    Whether younger may show the rest of the talon after the cards chosen, and the actions a player may take
    out of his turn's list (a concession, Piquet au Cent's younger's carte blanche), are asked of the engine
    (:meth:`Partie.can`), and the exchange completed is checked by it when it is pushed.
    """

    __slots__ = ("_actions", "_by_masks", "_exchange", "_last", "_selections", "_singles", "partie", "phase", "seat")

    def __init__(self, partie: Partie) -> None:
        seat = partie.to_act
        phase = partie.phase
        if seat is None or phase in (Phase.CUT, Phase.DEAL):
            raise EncodingError(f"no player is to act ({phase.value}): there is no decision to make")
        self.partie = partie
        self.seat = seat
        self.phase = phase
        #: The engine actions an id may complete, by index: the legal actions (a listing, whose actions taken by
        #: index the engine applies without checking them again), or at the exchange those taken out of turn.
        self._actions: Sequence[Action]
        #: The ids that are an action on their own (a card played, a call, a sink...): id -> index in _actions.
        self._singles: dict[int, int] = {}
        #: The actions made card by card (declarations of combinations): their masks, and the index.
        self._selections: list[tuple[tuple[int, ...], int]] = []
        self._by_masks: dict[tuple[int, ...], int] = {}
        #: At the exchange: the hand (a mask) and the fewest and most cards the player may exchange.
        self._exchange: tuple[int, int, int] | None = None
        #: The last selection asked about, and its ids.
        self._last: tuple[Selection, list[int]] | None = None
        if phase is Phase.EXCHANGE:
            view = partie.view(seat)
            limits = view.exchange_range
            assert limits is not None  # the player to act at the exchange has one
            self._exchange = (view.hand.mask, limits[0], limits[1])
            others: list[Action] = [a for a in (CarteBlanche(seat, True), CarteBlanche(seat, False), Concede(seat))
                                    if partie.can(a)]
            self._actions = others
            for i, action in enumerate(others):
                self._singles[encode(action)[0]] = i
            return
        legal = partie.legal_actions(seat)
        self._actions = legal
        listing = legal.list()
        # The play past the first lead (the common decision): only cards, each its own id.
        plays = {int(a.card): i for i, a in enumerate(listing) if type(a) is Play} if (
            listing and type(listing[0]) is Play) else {}
        if plays and len(plays) == len(listing):
            self._singles = plays
        else:
            for i, action in enumerate(listing):
                masks = _masks(action)
                if masks is None:
                    self._singles[encode(action)[0]] = i
                else:
                    self._selections.append((masks, i))
                    self._by_masks[masks] = i
        if not self._selections:
            self._last = (EMPTY, sorted(self._singles))

    def ids(self, selection: Selection = EMPTY) -> list[int]:
        """The ids the player may choose now, in increasing order, given his selection so far (the same list
        at each call for the same selection: do not change it)."""
        last = self._last
        if last is not None and (last[0] is selection or last[0] == selection):
            return last[1]
        ids = self._exchange_ids(selection) if self._exchange is not None else self._listed_ids(selection)
        self._last = (selection, ids)
        return ids

    def _listed_ids(self, selection: Selection) -> list[int]:
        found: set[int] = set(self._singles) if selection.empty else set()
        if self._selections:
            k = len(selection.done)
            cards = selection.cards
            floor = (1 << cards.bit_length()) - 1  # the cards up to the highest chosen
            for masks, _ in self._selections:
                # The declarations the selection is a start of: those that hold its finished combinations, then
                # the cards chosen and none below the highest of them.
                if len(masks) <= k or masks[:k] != selection.done or masks[k] & floor != cards:
                    continue
                rest = masks[k] & ~cards
                if rest:
                    found.add(_top(rest & -rest))  # its lowest: a combination's cards come in increasing order
                if masks[k] == cards and cards:
                    found.add(COMBINATION_DONE if len(masks) > k + 1 else DECLARATION_DONE)
        return sorted(found)

    def _exchange_ids(self, selection: Selection) -> list[int]:
        assert self._exchange is not None
        hand, lo, hi = self._exchange
        chosen = selection.cards
        found = list(self._singles) if selection.empty else []
        k = chosen.bit_count()
        if k < hi:
            # A card of the hand above the highest chosen, if enough cards are left above it to reach ``lo``.
            above = _cards(hand & ~((1 << chosen.bit_length()) - 1))
            short = lo - k - 1
            found += above[:len(above) - short] if short > 0 else above
        if lo <= k <= hi:
            found.append(EXCHANGE_DONE)
            if self.partie.can(Exchange(self.seat, CardSet(chosen), True)):
                found.append(EXCHANGE_SHOW_REST)
        return sorted(found)

    def apply(self, selection: Selection, action_id: int) -> tuple[Selection, Action | None]:
        """The selection after ``action_id`` and the engine action it completes (``None`` while a selection goes
        on). The partie is not changed: the caller pushes the action. An id that is not legal raises
        :class:`EncodingError` naming the id, the player and the reason."""
        if action_id not in self.ids(selection):
            name = action_name(action_id) if 0 <= action_id < NUM_ACTIONS else repr(action_id)
            raise EncodingError(f"{self.partie.player_name(self.seat)} cannot choose {name} now: no legal action "
                                f"in the {self.phase.value} extends the selection so far with it")
        if selection.empty and action_id in self._singles:
            return EMPTY, self._actions[self._singles[action_id]]
        if action_id < 32:
            return Selection(selection.done, selection.cards | 1 << action_id), None
        if action_id in (EXCHANGE_DONE, EXCHANGE_SHOW_REST):
            return EMPTY, Exchange(self.seat, CardSet(selection.cards), action_id == EXCHANGE_SHOW_REST)
        if action_id == COMBINATION_DONE:
            return Selection((*selection.done, selection.cards)), None
        # DECLARATION_DONE: the only id left that a legal selection can take.
        return EMPTY, self._actions[self._by_masks[(*selection.done, selection.cards)]]


def legal_ids(partie: Partie, selection: Selection) -> list[int]:
    """The ids the player to act may choose, in increasing order, given his selection so far.

    Only the player to act is offered ids (the adapters are turn by turn: a concession or Piquet au
    Cent's carte blanche out of turn waits for the player's turn). Empty when no one is to act.
    """
    if partie.to_act is None or partie.phase in (Phase.CUT, Phase.DEAL):
        return []
    return list(Decision(partie).ids(selection))


def apply_id(partie: Partie, selection: Selection, action_id: int) -> tuple[Selection, Action | None]:
    """The selection after ``action_id`` and the engine action it completes (``None`` while a
    selection goes on). The partie is not changed: the caller pushes the action. An id that is not
    legal raises :class:`EncodingError` naming the id, the player and the reason."""
    if partie.to_act is None or partie.phase in (Phase.CUT, Phase.DEAL):
        raise EncodingError(f"no player is to act ({partie.phase.value}): id {action_id!r} cannot be taken")
    return Decision(partie).apply(selection, action_id)
