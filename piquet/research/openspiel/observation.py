"""What a player of ``python_piquet`` observes: the information-state and observation tensors (their layout,
the fixed part kept up to date as the partie moves on, the deal's history of ids) and strings."""

from __future__ import annotations

import operator
import struct
from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from piquet.engine.cards import Card, CardSet
from piquet.engine.combinations import Category
from piquet.engine.partie import Phase
from piquet.engine.view import PlayerView
from piquet.research.encoding import (
    CALLS,
    EMPTY,
    NUM_ACTIONS,
    Selection,
)

if TYPE_CHECKING:  # the state reads its tensors here, and they read the state
    from piquet.research.openspiel.game import PiquetState, Run

#: The most ids of one deal the information-state tensor recalls (a deal takes some 60 to 150).
HISTORY = 256
#: The phases between deals (a deal's scores and the partie's totals change as one ends).
_BETWEEN_DEALS = (Phase.CUT, Phase.CHOOSE_DEALER, Phase.DEAL, Phase.OVER)
_PHASES = tuple(Phase)
_CATEGORIES = tuple(Category)
_ANSWERS = ("good", "not good", "equal")


def selection_text(selection: Selection) -> str:
    parts = [str(CardSet(m)) for m in (*selection.done, selection.cards) if m]
    return " | ".join(parts) or "-"


# ---------------------------------------------------------------------- observations
def _pieces(perfect_recall: bool) -> list[tuple[str, tuple[int, ...]]]:
    pieces: list[tuple[str, tuple[int, ...]]] = [
        ("player", (2,)),
        ("phase", (len(_PHASES),)),
        ("roles", (3,)),  # to act, elder, dealer: each 1 if this player
        ("cards", (len(_CARD_PLANES), 32)),
        ("counts", (8,)),
        ("scores", (7,)),
        ("announcements", (len(_CATEGORIES), 2 + len(_ANSWERS))),
        ("bids", (2, len(CALLS))),
    ]
    if perfect_recall:
        pieces.append(("history", (HISTORY, 2, NUM_ACTIONS)))
    return pieces


#: The card planes of the tensors, in order ("me" is the observing player).
_CARD_PLANES = ("hand", "dealt", "discards", "peeked", "rest", "opponent shown dealt", "revealed by me",
                "revealed by opponent", "played by me", "played by opponent", "trick", "selection",
                "selection done")
#: Where the card planes begin and end in the tensor, and where the tensor's fixed part ends (the counts,
#: scores, announcements and bids follow the planes; then, in the information state, the history).
_PLANES_AT = 2 + len(_PHASES) + 3
_PLANES_END = _PLANES_AT + 32 * len(_CARD_PLANES)
_FIXED_END = _PLANES_END + 8 + 7 + 3 * (2 + len(_ANSWERS)) + 2 * len(CALLS)
#: Where some figures are in the tensor: the roles (to act first), the counts (tricks won first), the scores
#: (the deal's points first).
_ROLES = 2 + len(_PHASES)
_COUNTS = _PLANES_END
_SCORES = _COUNTS + 8
#: The selection's two planes (the combination under way, the combinations finished), the last: where they are.
_SELECTION_PLANE = _CARD_PLANES.index("selection")
_SELECTION_AT = _PLANES_AT + 32 * _SELECTION_PLANE
#: The floats before the card planes and after them, as the scene writes them (a number each, packed at once).
_HEAD = struct.Struct(f"{_PLANES_AT}f")
_TAIL = struct.Struct(f"{_FIXED_END - _PLANES_END}f")
#: Those after the planes as the other player sees them: each pair of figures (his, his opponent's) the other
#: way round, and the calls of each.
_CALLS_AT = 8 + 7 + 3 * (2 + len(_ANSWERS))
_OTHER_ORDER = [1, 0, 2, 4, 3, 5, 7, 6, 9, 8, 11, 10, 13, 12, 14, *range(15, _CALLS_AT),
                *range(_CALLS_AT + len(CALLS), _CALLS_AT + 2 * len(CALLS)), *range(_CALLS_AT, _CALLS_AT + len(CALLS))]
_OTHER_SIDE: Callable[[list[float]], tuple[float, ...]] = operator.itemgetter(*_OTHER_ORDER)


def _layout(perfect_recall: bool, out: np.ndarray[Any, Any] | None = None,
            ) -> tuple[np.ndarray[Any, Any], dict[str, np.ndarray[Any, Any]]]:
    """A zero tensor (``out``, zeroed, if given) and its named pieces (views of it)."""
    pieces = _pieces(perfect_recall)
    size = sum(int(np.prod(shape)) for _, shape in pieces)
    if out is None:
        tensor = np.zeros(size, np.float32)
    else:
        if out.shape != (size,) or out.dtype != np.float32 or not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError(f"python_piquet's observer writes into a writeable, contiguous float32 array of {size} "
                             f"floats, not {out.dtype} of shape {out.shape}")
        tensor = out
        tensor.fill(0)
    named: dict[str, np.ndarray[Any, Any]] = {}
    index = 0
    for name, shape in pieces:
        size = int(np.prod(shape))
        named[name] = tensor[index:index + size].reshape(shape)
        index += size
    return tensor, named


def _trick_mask(trick: tuple[Card, ...]) -> int:
    """The cards of the trick on the table, as a mask."""
    mask = 0
    for card in trick:
        mask |= 1 << card
    return mask


def _write_cards(row: memoryview[float], at: int, was: int, now: int) -> None:
    """Card planes that held ``was`` (plane after plane, 32 bits each, the first at ``row[at]``) made to hold
    ``now``: only the cards that changed are written (a card played changes a few of their hundreds of floats)."""
    at -= 1
    added = now & ~was
    while added:
        low = added & -added
        row[at + low.bit_length()] = 1.0
        added ^= low
    removed = was & ~now
    while removed:
        low = removed & -removed
        row[at + low.bit_length()] = 0.0
        removed ^= low


#: The card planes a card played on changes (the hand, the cards played by each player, the trick), as bits of
#: a row's planes held in one number, 32 a plane; and those it leaves.
_PLAY_PLANES = sum(0xFFFFFFFF << 32 * plane for plane in (0, 8, 9, 10))
_OTHER_PLANES = ((1 << 32 * _SELECTION_PLANE) - 1) & ~_PLAY_PLANES


def _floats(buffer: memoryview | array[float]) -> memoryview[float]:
    """A buffer of float32 numbers as a view that reads and writes them one by one or a run at a time."""
    return memoryview(buffer).cast("B").cast("f")


class Scene:
    """What each player sees of the partie after an engine action, but his selection and his history: the fixed
    part of his tensor (player, phase, roles, the card planes but the selection's, counts, scores, announcements
    and bids), a row each (``rows``, float32 memoryviews, which :class:`PiquetObserver` copies), with the cards
    of the row's eleven card planes (``cards``, a number a row: bit ``32 * plane + card``).

    Kept by a run for the whole of it, and brought up to date, writing only what changed: from the players'
    views after any engine action but a card played on (after the first lead, the play going on), the public
    part read once for both (:meth:`settle`); after such cards, only what a card changes (:meth:`play`): the
    hands, the cards played, the trick, who is to act, the tricks won and the deal's points (the score events
    added since they were last summed). The tests hold the tensors to :func:`tensor_from_scratch` over many
    random games."""

    __slots__ = ("cards", "deal", "each_deal", "events", "points", "pushes", "rows", "version")

    def __init__(self) -> None:
        self.rows = (_floats(array("f", bytes(4 * _FIXED_END))), _floats(array("f", bytes(4 * _FIXED_END))))
        self.cards = [0, 0]
        #: The run's engine actions when it was last brought up to date.
        self.pushes = -1
        #: Changes whenever a row may (an observer that copied a row of this version need not copy it again).
        self.version = 0
        #: What changes only as a deal begins or ends (the dealer, the partie's totals and game scores, the deal's
        #: number, the hands as dealt), and the number of the deal they are of.
        self.deal = -1
        self.each_deal: tuple[Any, ...] = ()
        #: The deal's score events last summed, and each player's points from them.
        self.events: tuple[Any, ...] = ()
        self.points = (0, 0)

    def settle(self, run: Run) -> None:
        """Brought up to date from the players' views."""
        made = run.memo.views
        p = run.partie
        views = made[1] if made is not None and made[0] == run.pushes else (p.view(0), p.view(1))
        public = views[0]  # what both players see alike, read once
        phase = 2 + _PHASES.index(public.phase)
        to_act, elder = public.to_act, public.elder  # (elder: Auction Piquet's contract may change him)
        # What changes only as a deal begins or ends, read then (and between deals: the cut, the dealer chosen).
        if p.deal_number != self.deal or public.phase in _BETWEEN_DEALS:
            self.deal = p.deal_number
            self.each_deal = (public.dealer, public.totals, public.game_scores, public.deal_number / 12,
                              (views[0].dealt.mask, views[1].dealt.mask))
        dealer, totals, games, deal_number, dealt = self.each_deal
        exchanged = public.exchanged
        blanche = public.carte_blanche
        won = public.tricks_won
        points = self._points(public.events)
        announcements = [0.0] * (3 * (2 + len(_ANSWERS)))
        for a in public.announcements:
            at = (2 + len(_ANSWERS)) * _CATEGORIES.index(a.category)
            announcements[at] = a.length is not None
            announcements[at + 1] = (a.length or 0) / 8
            if a.answer is not None:
                announcements[at + 2 + _ANSWERS.index(a.answer)] = 1.0
        calls = ([0.0] * len(CALLS), [0.0] * len(CALLS))
        for bid in public.bids:
            calls[bid.player][CALLS.index(bid.call)] = 1.0
        # The figures after the card planes as player 0 sees them (his first of each pair, his calls first);
        # player 1's are the same, each pair the other way round.
        tail = [won[0] / 12, won[1] / 12, public.talon_left / 8, (exchanged[0] or 0) / 8, (exchanged[1] or 0) / 8,
                (public.will_exchange or 0) / 5, blanche[0], blanche[1], points[0] / 100, points[1] / 100,
                totals[0] / 100, totals[1] / 100, games[0] / 100, games[1] / 100, deal_number, *announcements,
                *calls[0], *calls[1]]
        rows = self.rows
        _TAIL.pack_into(rows[0], 4 * _PLANES_END, *tail)
        _TAIL.pack_into(rows[1], 4 * _PLANES_END, *_OTHER_SIDE(tail))
        head = [0.0] * _PLANES_AT
        head[phase] = 1.0
        head[0] = 1.0
        head[_ROLES:_ROLES + 3] = (to_act == 0, elder == 0, dealer == 0)
        _HEAD.pack_into(rows[0], 0, *head)
        head[:2] = (0.0, 1.0)
        head[_ROLES:_ROLES + 3] = (to_act == 1, elder == 1, dealer == 1)
        _HEAD.pack_into(rows[1], 0, *head)
        # The card planes: what both see (the rest shown, the trick, the cards each played and the hands each
        # showed, in either's order), then each player's own.
        played = run.played
        shown = public.shown_dealt
        revealed = public.revealed
        both = public.rest.mask << 128 | _trick_mask(public.trick) << 320
        seen = (revealed[0].mask << 192 | revealed[1].mask << 224 | played[0] << 256 | played[1] << 288
                | shown[1].mask << 160, revealed[1].mask << 192 | revealed[0].mask << 224 | played[1] << 256
                | played[0] << 288 | shown[0].mask << 160)
        for me in (0, 1):
            view = views[me]
            cards = (view.hand.mask | dealt[me] << 32 | view.discards.mask << 64 | view.peeked.mask << 96 | both
                     | seen[me])
            was = self.cards[me]
            if cards != was:
                _write_cards(rows[me], _PLANES_AT, was, cards)
                self.cards[me] = cards
        self.pushes = run.pushes
        self.version += 1

    def play(self, run: Run) -> None:
        """Brought up to date after cards played on in the play (and nothing else) since it was last. What a card
        changes for both players is public, read from the partie's own public figures (as every view has them):
        the trick, the tricks won, the deal's score events; the hands and the cards played, the run keeps."""
        p = run.partie
        trick = _trick_mask(p.trick) << 320
        to_act = run.player
        won = p.tricks_won
        points = self._points(p.events)
        played = run.played
        for me in (0, 1):
            opp = 1 - me
            own = run.private[me]
            assert own is not None
            row = self.rows[me]
            was = self.cards[me]
            cards = (was & _OTHER_PLANES | own.masks[0] | played[me] << 256 | played[opp] << 288 | trick)
            if cards != was:
                _write_cards(row, _PLANES_AT, was, cards)
                self.cards[me] = cards
            row[_ROLES] = to_act == me
            row[_COUNTS] = won[me] / 12
            row[_COUNTS + 1] = won[opp] / 12
            row[_SCORES] = points[me] / 100
            row[_SCORES + 1] = points[opp] / 100
        self.pushes = run.pushes
        self.version += 1

    def _points(self, events: tuple[Any, ...]) -> tuple[int, int]:
        """Each player's points in the deal (``PlayerView.deal_points``) from its score events, only those added
        since they were last summed read (a deal's events are only ever added to; another deal's start anew)."""
        summed = self.events
        count = len(summed)
        if events[:count] != summed:
            count = 0
            first, second = 0, 0
        else:
            first, second = self.points
        for event in events[count:]:
            if event.player:
                second += event.points
            else:
                first += event.points
        self.events = events
        points = self.points = (first, second)
        return points


class PiquetObserver:
    """OpenSpiel's Python observer: a flat float tensor with named views (``dict``) and a string, for a
    player at a state. With perfect recall (the information state) the tensor adds the deal's history of
    ids as the player saw them, and the string is everything he has seen, in order.

    ``set_from`` builds nothing from the whole deal: it copies the tensor's fixed part as the state keeps it up
    to date (a few hundred floats), writes the selection's cards, and of the history only the ids added since
    it last wrote the same player of the same state (all of them when it wrote another); asked again of the same
    state, player and step, it writes nothing. So the tensor is the observer's own: read it or copy it, never
    write into it (as OpenSpiel says of its observations, it is updated in place). One observer for each player
    read at every step writes least. ``out``, if given, is the array it writes into (a row of a batch), which
    it zeroes."""

    def __init__(self, perfect_recall: bool, out: np.ndarray[Any, Any] | None = None) -> None:
        self.perfect_recall = perfect_recall
        self.tensor, self.dict = _layout(perfect_recall, out)
        #: The tensor's floats, written one by one or a row at a time through this view (a float written into a
        #: numpy array by index costs several times as much).
        self._floats = _floats(self.tensor.data)
        self._history = self.dict["history"].reshape(-1) if perfect_recall else None
        #: What the tensor holds: the state (its token), player and version written last; the scene, its version
        #: and the player whose row was copied last; the selection's two planes as written (bits, as a scene's
        #: cards); the history's
        #: flat indices written from (a state's list, only ever added to) and how many of them are set.
        self._written: tuple[object, int, int] | None = None
        self._copied: tuple[Scene, int, int] | None = None
        self._selection = 0
        self._rows: list[int] = []
        self._count = 0

    def set_from(self, state: PiquetState, player: int) -> None:
        run = state._run
        written = (run.token, player, run.version)
        if written == self._written:
            return
        scene = run.memo.scene
        if scene is None or scene.pushes != run.pushes:
            scene = run.scene()
        floats = self._floats
        # The row, copied only if it changed since it was copied (not at the ids of a selection, say).
        copied = (scene, scene.version, player)
        if copied != self._copied:
            floats[:_FIXED_END] = scene.rows[player]
            self._copied = copied
            self._selection = 0  # (the scene's rows leave the selection's planes empty)
        selection = run.selection
        now = 0
        if (selection.cards or selection.done) and run.player == player:
            now = selection.cards | (selection.chosen & ~selection.cards) << 32
        if now != self._selection:
            _write_cards(floats, _SELECTION_AT, self._selection, now)
            self._selection = now
        if self._history is not None:
            rows = run.rows[player]
            count = self._count
            if rows is self._rows and len(rows) == count + 1 and count < HISTORY:
                floats[_FIXED_END + rows[count]] = 1.0  # the common step: one id more (the history's flat index)
                self._count = count + 1
            else:
                self._write_history(run, player)
        self._written = written

    def _write_history(self, run: Run, player: int) -> None:
        """The history's rows: the ids added to the list written last, or all of them anew."""
        flat = self._history
        assert flat is not None
        rows = run.rows[player]
        count = self._count
        if rows is self._rows and count <= len(rows) <= HISTORY:
            if len(rows) > count:
                flat[rows[count:]] = 1.0
        else:
            flat[self._rows[:count]] = 0.0
            if len(rows) > HISTORY:
                # A window that slid: its rows made anew, and written anew at each call.
                rows = [(2 * step + who) * NUM_ACTIONS + action
                        for step, (who, action) in enumerate(run.deal_ids[player][-HISTORY:])]
            flat[rows] = 1.0
        self._rows = rows
        self._count = len(rows)

    def string_from(self, state: PiquetState, player: int) -> str:
        if self.perfect_recall:
            return f"p{player}: " + "; ".join(str(item) for item in state.seen[player])
        return observation_text(state.partie.view(player), state.selection if state.partie.to_act == player
                                else EMPTY)


def tensor_from_scratch(state: PiquetState, player: int, perfect_recall: bool) -> np.ndarray[Any, Any]:
    """The tensor of ``player`` at ``state`` (the information state with ``perfect_recall``), read from his view,
    his selection and the deal's ids alone, every piece written anew: what :class:`PiquetObserver` keeps up to
    date step by step, and what the tests hold it to."""
    tensor, d = _layout(perfect_recall)
    view = state.partie.view(player)
    me, opp = player, 1 - player
    d["player"][player] = 1
    d["phase"][_PHASES.index(view.phase)] = 1
    d["roles"][:] = (view.to_act == me, view.elder == me, view.dealer == me)
    planes = d["cards"]
    played = [played_by(view, 0), played_by(view, 1)]
    own = state.selection if view.to_act == me else EMPTY
    masks = (view.hand.mask, view.dealt.mask, view.discards.mask, view.peeked.mask, view.rest.mask,
             view.shown_dealt[opp].mask, view.revealed[me].mask, view.revealed[opp].mask, played[me],
             played[opp], CardSet(view.trick).mask, own.cards, own.chosen & ~own.cards)
    for row, mask in enumerate(masks):
        for card in range(32):
            if mask >> card & 1:
                planes[row, card] = 1
    exchanged = [x if x is not None else 0 for x in (view.exchanged[me], view.exchanged[opp])]
    d["counts"][:] = (view.tricks_won[me] / 12, view.tricks_won[opp] / 12, view.talon_left / 8,
                      exchanged[0] / 8, exchanged[1] / 8, (view.will_exchange or 0) / 5,
                      view.carte_blanche[me], view.carte_blanche[opp])
    points = view.deal_points
    d["scores"][:] = (points[me] / 100, points[opp] / 100, view.totals[me] / 100, view.totals[opp] / 100,
                      view.game_scores[me] / 100, view.game_scores[opp] / 100, view.deal_number / 12)
    for a in view.announcements:
        row = d["announcements"][_CATEGORIES.index(a.category)]
        row[0] = a.length is not None
        row[1] = (a.length or 0) / 8
        if a.answer is not None:
            row[2 + _ANSWERS.index(a.answer)] = 1
    for bid in view.bids:
        d["bids"][0 if bid.player == me else 1, CALLS.index(bid.call)] = 1
    if perfect_recall:
        history = d["history"]
        for step, (who, action) in enumerate(state.deal_ids[player][-HISTORY:]):
            history[step, who, action] = 1
    return tensor


def observation_text(view: PlayerView, selection: Selection) -> str:
    """What a player sees now, in one line (the observation string)."""
    trick = " ".join(str(c) for c in view.trick) or "-"
    calls = ", ".join(f"{a.category.value} {a.length}{'' if a.answer is None else ' ' + a.answer}"
                      for a in view.announcements) or "-"
    bids = " ".join(f"{b.player}:{b.call}" for b in view.bids) or "-"
    return (f"p{view.seat} deal {view.deal_number} {view.phase.value} to act {view.to_act} elder {view.elder}; "
            f"hand {view.hand}; discards {view.discards or '-'}; peeked {view.peeked or '-'}; "
            f"rest {view.rest or '-'}; revealed {view.revealed[0] or '-'} / {view.revealed[1] or '-'}; "
            f"calls {calls}; bids {bids}; trick {trick}; tricks {view.tricks_won}; "
            f"deal points {view.deal_points}; totals {view.totals}; selection {selection_text(selection)}")


def played_by(view: PlayerView, seat: int) -> int:
    """The cards ``seat`` has played in the deal (its tricks and the trick on the table), as a mask."""
    mask = 0
    for trick in view.tricks:
        for i, card in enumerate(trick.cards):
            if (trick.leader if i == 0 else 1 - trick.leader) == seat:
                mask |= 1 << card
    for i, card in enumerate(view.trick):
        if (view.leader if i == 0 else 1 - view.leader) == seat:
            mask |= 1 << card
    return mask
