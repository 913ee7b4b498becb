"""The legal actions of a position, listed: what :func:`~piquet.engine.checks.why_not` allows, phase by phase,
made directly rather than by trying every action.

:class:`LegalActions` is what :meth:`Partie.legal_actions <piquet.engine.partie.Partie.legal_actions>` returns: a
sequence listed when first used (a random player asks for a length and one item; the point's forty-odd
declarations are made one by one as they are indexed, :class:`PointListing`). The plays and declarations come
from tables of shared values (an action is immutable), by the rank masks of a hand.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterator, Sequence
from itertools import combinations as _subsets
from typing import TYPE_CHECKING, overload

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
from piquet.engine.cards import CARDS, FULL_PACK, CardSet
from piquet.engine.checks import DECLARATION_ORDER, deferred_carte_blanche, why_not
from piquet.engine.combinations import COMBINATION_CARDS, Category, best_key, candidate_codes, maximal
from piquet.engine.exchange import exchange_limits
from piquet.engine.state import Phase

if TYPE_CHECKING:
    from piquet.engine.partie import Partie
    from piquet.engine.state import PartieState
    from piquet.engine.variants import Rules

__all__ = ["LegalActions", "PointListing", "decision_key", "listing"]


class LegalActions(Sequence[Action]):
    """The legal actions of one player in one position of a partie, listed on first use and kept; ``in`` checks
    with :meth:`Partie.can <piquet.engine.partie.Partie.can>`.

    A sequence: ``len``, indexing and iteration list the actions; :meth:`list` gives them all as a list. A listing
    is of the position it was asked for in: used while the partie is in another (it has moved on, and not been taken
    back there), it raises ``ValueError``.
    """

    __slots__ = ("_listing", "_position", "partie", "player")

    def __init__(self, partie: Partie, player: int | None) -> None:
        self.partie = partie
        self.player = player
        #: The listing once made (a list, or the point's lazy listing), and the position it is of.
        self._listing: list[Action] | PointListing | None = None
        self._position = partie._position

    def __repr__(self) -> str:
        return f"LegalActions(player={self.player!r}, actions={self.list()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LegalActions):
            return NotImplemented
        return self.partie is other.partie and self.player == other.player and self.list() == other.list()

    __hash__ = None  # type: ignore[assignment]

    def _made(self) -> list[Action] | PointListing:
        made = self._listing
        if made is None:
            partie = self.partie
            if self._position != partie._position:
                raise ValueError("these legal actions are of a position the partie has left: ask for them again")
            made = self._listing = listing(partie._s, partie.rules, partie.players, self.player)
        return made

    def __iter__(self) -> Iterator[Action]:
        return iter(self.list())

    def __contains__(self, action: object) -> bool:
        if self._position != self.partie._position:
            raise ValueError("these legal actions are of a position the partie has left: ask for them again")
        return (isinstance(action, Action) and action.player == self.player and not isinstance(action, (Cut, Deal))
                and self.partie.can(action))

    def list(self) -> list[Action]:
        """Every legal action, as a list (the same list at each call: do not change it)."""
        listing = self._made()
        if isinstance(listing, PointListing):
            listing = self._listing = listing.all()
        return listing

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> builtins.list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | builtins.list[Action]:
        if isinstance(index, slice):
            return self.list()[index]
        return self._made()[index]

    def __len__(self) -> int:
        return len(self._made())

    def __bool__(self) -> bool:
        return len(self._made()) > 0


def listing(s: PartieState, rules: Rules, players: tuple[str, str], seat: int | None) -> list[Action] | PointListing:
    """The legal actions of ``seat`` in the state ``s``: those he may take out of turn (a concession, au Cent's
    younger's carte blanche), then those of the phase if he is to act, each phase listed by its own function."""
    if seat is None:
        return []
    d = s.deal
    if s.phase is Phase.PLAY and seat == s.to_act and (d.tricks or d.trick):
        return _plays(s, rules, seat)  # past the first lead, only the cards may be played
    found: list[Action] = []
    if s.phase is Phase.PLAY and not d.tricks and not d.trick and rules.allows_concession:
        concede = _CONCESSIONS[seat]
        if why_not(s, rules, players, concede) is None:
            found.append(concede)
    if deferred_carte_blanche(s, rules, seat):
        found.append(CarteBlanche(seat, True))
        if not rules.carte_blanche_compulsory:
            found.append(CarteBlanche(seat, False))
    if seat != s.to_act:
        return found
    phase_listing = _LISTINGS.get(s.phase)
    if phase_listing is None:
        return found
    made = phase_listing(s, rules, seat)
    if not found:
        return made
    return found + (made.all() if isinstance(made, PointListing) else made)


def _choose_dealer(s: PartieState, rules: Rules, seat: int) -> list[Action]:
    return [ChooseDealer(seat, seat), ChooseDealer(seat, 1 - seat)]


#: Every call of an auction, in the order they are listed (Lunn).
_CALLS = ("pass", "double", "redouble", *(f"{n}{sign}" for n in range(7, 13) for sign in "+-"))
#: Every call, one value per seat (a Bid never changes), as the legal bids list them.
_BIDS: tuple[tuple[Bid, ...], tuple[Bid, ...]] = (
    tuple(Bid(0, text) for text in _CALLS), tuple(Bid(1, text) for text in _CALLS))
#: The number of tricks of each call after pass, double and redouble.
_CALL_TRICKS: tuple[int, ...] = tuple(int(text[:-1]) for text in _CALLS[3:])


def _bids(s: PartieState, rules: Rules, seat: int) -> list[Action]:
    """The calls ``seat`` may make (it is his turn in the auction), in the order of ``_CALLS``: what the checks
    allow, decided once for the auction so far rather than call by call."""
    d = s.deal
    bids = _BIDS[seat]
    last = d.last_bid()
    found: list[Action] = [bids[0]]  # pass
    if last is not None and d.bids[-1].player != seat and d.bids[-1].call == last.call and d.doubles_used < 2:
        found.append(bids[1])
    if d.bids and d.bids[-1].call == "double" and not (rules.redouble_counts_as_double and d.doubles_used >= 2):
        found.append(bids[2])
    floor = last.tricks if last is not None and last.tricks is not None else 0
    found += [bid for bid, tricks in zip(bids[3:], _CALL_TRICKS, strict=True) if tricks > floor]
    return found


def _carte_blanche(s: PartieState, rules: Rules, seat: int) -> list[Action]:
    found: list[Action]
    if seat == s.deal.elder:
        lo, hi = rules.elder_minimum_exchange, rules.elder_maximum_exchange
        found = [CarteBlanche(seat, True, n) for n in range(hi, lo - 1, -1)]
    else:
        found = [CarteBlanche(seat, True)]
    if not rules.carte_blanche_compulsory:
        found.append(CarteBlanche(seat, False))
    return found


def _exchanges(s: PartieState, rules: Rules, seat: int) -> list[Action]:
    d = s.deal
    lo, hi = exchange_limits(rules, d, seat)
    held = list(CardSet(d.hands[seat]))
    taken = d.elder_count if d.elder_count is not None else 0
    found: list[Action] = []
    for n in range(hi, lo - 1, -1):
        may_show = seat != d.elder and taken + n < len(d.talon)
        for chosen in _subsets(held, n):
            discards = CardSet(chosen)
            found.append(Exchange(seat, discards))
            if may_show:
                found.append(Exchange(seat, discards, show_rest=True))
    return found


def _declarations(s: PartieState, rules: Rules, seat: int) -> list[Action] | PointListing:
    """The declarations ``seat`` may make (it is his turn in the declarations): a list, or for the point a
    :class:`PointListing` that makes each declaration when it is asked for."""
    d = s.deal
    category = DECLARATION_ORDER[d.declaration_step][0]
    if rules.must_declare_in_full(d.contract):
        return [Declare(seat, category, tuple(maximal(category, CardSet(d.hands[seat]), rules.minimum_point)))]
    nothing = _NO_CALLS[seat, category]
    singles = _SINGLE_CALLS[seat, category]
    if category is Category.POINT:
        # Every point he may call (some forty): made into declarations only as they are asked for.
        return PointListing(nothing, candidate_codes(category, d.hands[seat], rules.minimum_point), singles)
    # The sequences or sets he may call, best first, still coded (candidate_codes): each code's low 32 bits are the
    # combination's mask and its bits from 42 up its key (length, then top rank), as an int that orders as key()'s
    # pair does.
    codes = candidate_codes(category, d.hands[seat])
    found: list[Action] = [nothing]
    if not codes:
        return found
    shared = COMBINATION_CARDS
    elder = seat == d.elder
    short_calls_bind = rules.short_calls_bind
    # Whether a call is good against the cards (good_against_the_cards) compares it with the best combination the
    # opponent could hold: found once, not once for each call.
    rival = -1
    if elder and not short_calls_bind:
        best = best_key(category, FULL_PACK & ~d.hands[seat] & ~d.discards[seat])
        if best is not None:
            rival = best[0] << 7 | best[1]
    for first in codes:
        mask = first & 0xFFFFFFFF
        found.append(singles[mask])
        first_key = first >> 42
        # Law 49: elder whose call is not good against the cards may not show a better one after it.
        good = not elder or (not short_calls_bind and rival < first_key)
        extras = [shared[code & 0xFFFFFFFF] for code in codes if not code & mask and (good or code >> 42 <= first_key)]
        if extras:
            called = shared[mask]
            found += [Declare(seat, category, (called, *more)) for more in _disjoint_collections(extras)]
    return found


def _disjoint_collections(options: builtins.list[CardSet]) -> Iterator[tuple[CardSet, ...]]:
    """Every non-empty collection of pairwise disjoint combinations from ``options``."""

    def walk(start: int, used: int, chosen: tuple[CardSet, ...]) -> Iterator[tuple[CardSet, ...]]:
        for i in range(start, len(options)):
            c = options[i]
            if c.mask & used:
                continue
            grown = (*chosen, c)
            yield grown
            yield from walk(i + 1, used | c.mask, grown)

    yield from walk(0, 0, ())


def _answers(s: PartieState, rules: Rules, seat: int) -> list[Action]:
    return [AcceptConcession(seat, True), AcceptConcession(seat, False)]


def _plays(s: PartieState, rules: Rules, seat: int) -> list[Action]:
    """The cards ``seat`` may play (it is his turn in the play), in the order of a hand: the suit led if he holds
    it (Law 58), else any."""
    d = s.deal
    hand = d.hands[seat]
    plays = _SUIT_PLAYS[seat]
    if d.trick:
        suit = d.trick[0] >> 3
        follow = hand >> (8 * suit) & 0xFF
        if follow:
            return list(plays[suit][follow])
    return [*plays[0][hand & 0xFF], *plays[1][hand >> 8 & 0xFF], *plays[2][hand >> 16 & 0xFF], *plays[3][hand >> 24]]


#: Each phase's listing of the legal actions of the player to act (the cut and the deal are chance).
_LISTINGS = {
    Phase.CHOOSE_DEALER: _choose_dealer,
    Phase.BID: _bids,
    Phase.CARTE_BLANCHE: _carte_blanche,
    Phase.EXCHANGE: _exchanges,
    Phase.DECLARE: _declarations,
    Phase.CONCESSION: _answers,
    Phase.PLAY: _plays,
}


def decision_key(action: Action, elder: int) -> object:
    """What :func:`~piquet.engine.checks.why_not` tells actions apart by, in a deal whose elder is ``elder``: two
    actions with the same key are one decision, legal or not alike. They are the actions themselves, but for a
    declaration's combinations shown in any order: younger's (she is only reckoning, in whatever order she shows
    them) and elder's after his call, his first combination.

    >>> from piquet.engine.cards import CardSet
    >>> a = Declare(1, Category.SETS, (CardSet.parse("AS AH AD"), CardSet.parse("KS KH KD")))
    >>> b = Declare(1, Category.SETS, (CardSet.parse("KS KH KD"), CardSet.parse("AS AH AD")))
    >>> decision_key(a, 0) == decision_key(b, 0), decision_key(a, 1) == decision_key(b, 1)
    (True, False)
    """
    if not isinstance(action, Declare) or len(action.combinations) < 2:
        return action
    combinations = action.combinations
    if action.player == elder:
        return Declare, action.player, action.category, combinations[0], frozenset(combinations[1:])
    return Declare, action.player, action.category, frozenset(combinations)


class PointListing:
    """The legal points of a hand: not declaring first, then every point he may call, best first, each
    declaration made when it is asked for (a random player asks for one of some forty)."""

    __slots__ = ("codes", "first", "singles")

    def __init__(self, first: Action, codes: builtins.list[int], singles: _SingleCalls) -> None:
        self.first = first
        self.codes = codes  # candidate_codes: each one's low 32 bits are the point's mask
        self.singles = singles

    def __len__(self) -> int:
        return len(self.codes) + 1

    def __getitem__(self, index: int) -> Action:
        n = len(self.codes) + 1
        if not -n <= index < n:
            raise IndexError("legal action index out of range")
        if index % n == 0:
            return self.first
        return self.singles[self.codes[index % n - 1] & 0xFFFFFFFF]

    def all(self) -> builtins.list[Action]:
        singles = self.singles
        return [self.first, *[singles[code & 0xFFFFFFFF] for code in self.codes]]


class _SingleCalls(dict[int, Declare]):
    """The declarations of one combination by one seat in one category, by its mask, made once (a Declare never
    changes, and a combination's CardSet is shared, see ``combinations.candidates``)."""

    def __init__(self, seat: int, category: Category) -> None:
        super().__init__()
        self.seat = seat
        self.category = category

    def __missing__(self, mask: int) -> Declare:
        declare = self[mask] = Declare(self.seat, self.category, (CardSet(mask),))
        return declare


_SINGLE_CALLS: dict[tuple[int, Category], _SingleCalls] = {
    (seat, category): _SingleCalls(seat, category) for seat in (0, 1) for category in Category}
#: Each seat's concession, made once.
_CONCESSIONS: tuple[Concede, Concede] = (Concede(0), Concede(1))
#: Each seat's declaration of nothing in each category, made once.
_NO_CALLS: dict[tuple[int, Category], Declare] = {
    (seat, category): Declare(seat, category, ()) for seat in (0, 1) for category in Category}

#: Every play, one value per seat and card (a play is immutable), as the legal plays list them.
_PLAYS: tuple[tuple[Play, ...], tuple[Play, ...]] = (
    tuple(Play(0, card) for card in CARDS), tuple(Play(1, card) for card in CARDS))


def _suit_plays(plays: tuple[Play, ...]) -> tuple[tuple[Play, ...], ...]:
    """One seat's plays of one suit's cards by rank mask: the highest card's play, then those of the rest."""
    table: builtins.list[tuple[Play, ...]] = [()]
    for byte in range(1, 256):
        top = byte.bit_length() - 1
        table.append((plays[top], *table[byte ^ 1 << top]))
    return tuple(table)


#: The plays of the cards of each suit's 8-bit rank mask, high to low (the order of a hand), by seat and suit.
_SUIT_PLAYS: tuple[tuple[tuple[tuple[Play, ...], ...], ...], ...] = tuple(
    tuple(_suit_plays(_PLAYS[seat][8 * suit : 8 * suit + 8]) for suit in range(4)) for seat in (0, 1))
