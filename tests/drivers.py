"""The one drive loop of the property tests, the oracles they check at each step, and the Hypothesis strategies
they draw from.

A partie is driven by a *chooser*: :class:`Drawn` draws every cut, every shuffle of the pack and every choice
among the legal actions from Hypothesis (a failure shrinks toward the pack in order and the first legal
action at each step, so toward a small deal); :class:`Seeded` plays computer agents from an RNG seed (for the
long self-play runs and for tests that need a particular player).  The oracles (:func:`conservation`,
:func:`chosen_is_legal`, :func:`knowledge`, :func:`check_no_leak`) recompute what they check from the actions
alone, never from the partie's state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from helpers import agents, cards_in_text, log_texts
from hypothesis import strategies as st

from piquet.ai.agent import Agent, RandomAgent
from piquet.engine.actions import Action, Bid, CarteBlanche, Concede, Cut, Deal, Declare, Exchange, Play
from piquet.engine.cards import CARDS, FULL_PACK, Card, CardSet
from piquet.engine.combinations import Category, best_shown, key
from piquet.engine.partie import LegalActions, Partie, Phase
from piquet.engine.scoring import ScoreEvent
from piquet.engine.variants import make_rules
from piquet.engine.view import PlayerView

NAMES = ("Ann", "Bill")
VARIANTS = ("rubicon", "auction", "au-cent")

# ---------------------------------------------------------------- strategies

#: Rubicon option sets under which the play still scores as Law 65 says.
OPTION_SETS: list[dict[str, object] | None] = [
    None, {"minimum_point": 4}, {"younger_may_stand_pat": True, "elder_may_stand_pat": True},
    {"cards_count_toward_pique": True}]


def packs() -> st.SearchStrategy[list[Card]]:
    """A shuffled pack, top card first (shrinks toward the pack in order)."""
    return st.permutations(CARDS)


def cuts() -> st.SearchStrategy[Cut]:
    """Each player cuts a card."""
    return st.lists(st.sampled_from(CARDS), min_size=2, max_size=2, unique=True).map(lambda c: Cut(0, (c[0], c[1])))


def deals(dealer: int | None = None) -> st.SearchStrategy[Deal]:
    """A deal: a dealer, a packet size and a shuffled pack dealt as Law 9 says (hands and talon)."""
    dealers = st.sampled_from((0, 1)) if dealer is None else st.just(dealer)
    return st.builds(Deal.from_pack, dealers, packs(), st.sampled_from((2, 3)))


def hands(n: int) -> st.SearchStrategy[tuple[CardSet, CardSet]]:
    """Two hands of ``n`` cards each, no card in both (shrinks toward the lowest spades)."""
    return st.lists(st.sampled_from(CARDS), min_size=2 * n, max_size=2 * n, unique=True).map(
        lambda c: (CardSet(c[:n]), CardSet(c[n:])))


def options(variant: str = "rubicon", exclude: tuple[str, ...] = ()) -> st.SearchStrategy[dict[str, object]]:
    """Any values of the rule options ``variant`` offers (but ``exclude``); shrinks toward its defaults."""
    def values(default: bool | int, lo: int, hi: int) -> st.SearchStrategy[object]:
        return st.booleans() if isinstance(default, bool) else st.integers(lo, hi)

    offered = {o.name: values(o.default, o.minimum, o.maximum)
               for o in make_rules(variant).OPTIONS if o.name not in exclude}
    return st.fixed_dictionaries({}, optional=offered)


def parties(variants: tuple[str, ...] = VARIANTS,
            exclude: tuple[str, ...] = ()) -> st.SearchStrategy[tuple[str, dict[str, object]]]:
    """A variant and its rule options."""
    return st.sampled_from(variants).flatmap(lambda v: st.tuples(st.just(v), options(v, exclude)))


# ---------------------------------------------------------------- choosers
class Chooser(Protocol):
    def cut(self, p: Partie) -> Cut: ...

    def deal(self, p: Partie) -> Deal: ...

    def choose(self, p: Partie, seat: int) -> Action: ...


def menu(legal: list[Action]) -> list[Action]:
    """The legal actions in the order a drawn index reads them, index 0 the simplest way on: a concession and a
    pass in the auction last (two passes annul the deal, so a partie of first choices would never end)."""
    def last(a: Action) -> bool:
        return isinstance(a, Concede) or (isinstance(a, Bid) and a.call == "pass")

    return [a for a in legal if not last(a)] + [a for a in legal if last(a)]


class Drawn:
    """Draws the cuts, the shuffles and each choice among the legal actions from ``data`` (``st.data()``).

    An exchange draws how many cards first, so that short and long exchanges are equally likely.
    """

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def cut(self, p: Partie) -> Cut:
        return self.data.draw(cuts(), label="cut")

    def deal(self, p: Partie) -> Deal:
        assert p.dealer is not None
        packets = self.data.draw(st.sampled_from(p.legal_packets()), label="packets")
        return Deal.from_pack(p.dealer, self.data.draw(packs(), label="pack"), packets)

    def choose(self, p: Partie, seat: int) -> Action:
        legal = menu(p.legal_actions(seat).list())
        if p.phase is Phase.EXCHANGE and len(legal) > 1:
            sizes = sorted({len(a.discards) for a in legal if isinstance(a, Exchange)})
            n = self.data.draw(st.sampled_from(sizes), label="discards")
            legal = [a for a in legal if isinstance(a, Exchange) and len(a.discards) == n] or legal
        if len(legal) == 1:
            return legal[0]
        return legal[self.data.draw(st.integers(0, len(legal) - 1), label=p.phase.value)]


class Seeded:
    """Computer agents (by default :class:`RandomAgent`) and an RNG for the cuts and shuffles, from one seed."""

    def __init__(self, seed: int, cls: type[RandomAgent] = RandomAgent, players: tuple[Agent, Agent] | None = None):
        self.rng = random.Random(seed)
        self.agents: tuple[Agent, Agent] = players or agents(seed, cls)

    def cut(self, p: Partie) -> Cut:
        return p.random_cut(self.rng)

    def deal(self, p: Partie) -> Deal:
        return p.random_deal(self.rng, self.rng.choice(p.legal_packets()))

    def choose(self, p: Partie, seat: int) -> Action:
        return self.agents[seat].choose(p.view(seat), p.legal_actions(seat))


def drive(chooser: Chooser | int, variant: str = "rubicon", options: dict[str, object] | None = None,
          after: Callable[[Partie], None] | None = None, before: Callable[[Partie, Action], None] | None = None,
          max_deals: int = 99, partie: Partie | None = None, until: Callable[[Partie], bool] | None = None) -> Partie:
    """Play a partie (or go on with ``partie``) step by step, calling ``before(partie, action)`` and
    ``after(partie)``, until it is over, ``max_deals`` deals are scored or ``until(partie)`` holds.  An int is a
    :class:`Seeded` seed."""
    if isinstance(chooser, int):
        chooser = Seeded(chooser)
    p = partie if partie is not None else Partie(NAMES, variant, options)
    while not p.is_over and len(p.deal_scores) < max_deals and not (until and until(p)):
        if p.phase is Phase.CUT:
            action: Action = chooser.cut(p)
        elif p.phase is Phase.DEAL:
            action = chooser.deal(p)
        else:
            seat = p.to_act
            assert seat is not None
            action = chooser.choose(p, seat)
        if before:
            before(p, action)
        p.push(action)
        if after:
            after(p)
    return p


class Checked:
    """Wraps an agent: every choice must be legal."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.decisions = 0

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        action = self.agent.choose(view, legal)
        self.decisions += 1
        assert action in legal, f"illegal choice {action!r} in phase {view.phase}"
        return action

    def choose_packets(self, view: PlayerView, sizes: tuple[int, ...]) -> int:
        packets = self.agent.choose_packets(view, sizes)
        assert packets in sizes
        return packets


# ---------------------------------------------------------------- what the actions say
def current_deal(p: Partie) -> tuple[Deal, list[Action]] | None:
    actions = p.actions
    starts = [i for i, a in enumerate(actions) if isinstance(a, Deal)]
    if not starts:
        return None
    deal = actions[starts[-1]]
    assert isinstance(deal, Deal)
    return deal, actions[starts[-1] + 1:]


def elder_from(deal: Deal, after: list[Action]) -> int:
    """The non-dealer, or in Auction Piquet the last player to bid a number of tricks."""
    bids = [a for a in after if isinstance(a, Bid) and a.tricks is not None]
    return bids[-1].player if bids else 1 - deal.player


def talon_draws(deal: Deal, after: list[Action]) -> list[tuple[int, CardSet, int]]:
    """(seat, cards drawn, where in the talon) for each exchange, from the actions alone."""
    elder = elder_from(deal, after)
    will = None
    elder_n = None
    out = []
    for a in after:
        if isinstance(a, CarteBlanche) and a.announce and a.will_exchange is not None:
            will = a.will_exchange
        if isinstance(a, Exchange):
            n = len(a.discards)
            if a.player == elder:
                at, elder_n = 0, n
            else:
                at = will if will is not None else (elder_n or 0)
            out.append((a.player, CardSet(deal.talon[at:at + n]), at))
    return out


# ---------------------------------------------------------------- oracles
def conservation(p: Partie) -> None:
    """The 32 cards are each in exactly one place: a hand, a discard, the undrawn talon or a played trick."""
    found = current_deal(p)
    if found is None:
        return
    deal, after = found
    drawn = CardSet()
    for _, cards, _ in talon_draws(deal, after):
        drawn = drawn | cards
    v, w = p.view(0), p.view(1)
    undrawn = CardSet(deal.talon) - drawn
    parts = [p.hand(0), p.hand(1), v.discards, w.discards, undrawn, v.played]
    assert sum(len(x) for x in parts) == 32
    m = 0
    for x in parts:
        assert not (m & x.mask)
        m |= x.mask
    assert m == FULL_PACK
    assert v.talon_left == len(undrawn)
    assert v.hand_sizes == (len(p.hand(0)), len(p.hand(1)))


def chosen_is_legal(p: Partie, action: Action) -> None:
    """An action about to be pushed is legal, listed among the legal actions, and (in the auction) so is
    every call listed."""
    if isinstance(action, (Cut, Deal)):
        return
    assert p.can(action), action
    listed = p.legal_actions(p.to_act).list()
    assert action in p.legal_actions(p.to_act) and action in listed
    if p.phase is Phase.BID:
        assert all(p.can(a) for a in listed) and len(set(listed)) == len(listed)


def knowledge(p: Partie) -> tuple[CardSet, CardSet, CardSet]:
    """What Ann, Bill and a spectator may know of the current deal, from the actions alone."""
    found = current_deal(p)
    if found is None:
        cut = CardSet([c for a in p.actions if isinstance(a, Cut) for c in a.cards])
        return cut, cut, cut
    deal, after = found
    elder = elder_from(deal, after)
    younger = 1 - elder
    know = [deal.hands[0].mask, deal.hands[1].mask, 0]
    cb = [False, False]
    show_rest = False
    taken = 0
    calls: list[Declare] = []
    led = reckoned = False
    exchanged = [False, False]
    draws = iter(talon_draws(deal, after))

    def shown(category: Category) -> bool:
        # au Cent shows no trio or quatorze scored, at once or at the lead ("except in the case of quatorzes and
        # trios"): a quatorze called names its four cards anyway (told at the call, below).
        return category is not Category.SETS or p.rules.shows_sets

    def tell(seats: list[int], mask: int) -> None:
        for s in seats:
            know[s] |= mask

    for a in after:
        if isinstance(a, CarteBlanche) and a.announce:
            cb[a.player] = True
            if exchanged[1 - a.player]:  # au Cent's younger, announcing after elder discarded: shown at once
                tell([1 - a.player, 2], deal.hands[a.player].mask)
        elif isinstance(a, Exchange):
            exchanged[a.player] = True
            seat, cards, _ = next(draws)
            n = len(a.discards)
            if a.player == elder and n < 5:  # elder may look at what he left of the top five
                tell([elder], CardSet(deal.talon[n:5]).mask)
            if a.player != elder:
                show_rest = a.show_rest
            taken += n
            tell([seat], cards.mask)
            if cb[1 - a.player]:
                tell([a.player, 2], deal.hands[1 - a.player].mask)
        elif isinstance(a, Declare):
            calls.append(a)
            if a.player == elder and a.category is Category.SETS and a.called is not None and len(a.called) == 4:
                tell([younger, 2], a.called.mask)
            if a.player == younger and p.rules.calls_shown_at_once and not reckoned and shown(a.category):
                # Law 55 read at once (option calls_shown_at_once): elder's combinations allowed good or equal
                # are shown as soon as younger has answered.
                e = calls[-2]
                ec, yc = e.called, best_shown(a.category, a.combinations)
                if ec is not None and (yc is None or key(e.category, ec) >= key(e.category, yc)):
                    tell([0, 1, 2], ec.mask if yc is not None and key(e.category, ec) == key(e.category, yc)
                         else sum(c.mask for c in e.combinations))
        elif isinstance(a, (Play, Concede)) and not reckoned:
            # Elder's first lead or a concession: the hands are reckoned, what scored or tied is shown (Law 55).
            reckoned = True
            for i in range(0, len(calls), 2):
                e, y = calls[i], calls[i + 1]
                if not shown(e.category):
                    continue
                # Elder's call is his first combination; younger's answer the best she shows (Cavendish, Calling).
                ec, yc = e.called, best_shown(y.category, y.combinations)
                if ec is None and yc is None:
                    continue
                if ec is not None and yc is not None and key(e.category, ec) == key(e.category, yc):
                    tell([0, 1, 2], ec.mask | yc.mask)
                    continue
                win = e if yc is None or (ec is not None and key(e.category, ec) > key(e.category, yc)) else y
                for combo in win.combinations:
                    tell([0, 1, 2], combo.mask)
        if isinstance(a, Play):
            if not led:
                led = True
                if show_rest:  # younger's election, seen once elder has led (Law 36): never after a concession
                    tell([0, 1, 2], CardSet(deal.talon[taken:]).mask)
            tell([0, 1, 2], a.card.mask)
        elif isinstance(a, Cut):  # au Cent's new game: both cut face up, after this deal's end (Law 4)
            tell([0, 1, 2], CardSet(a.cards).mask)
    return CardSet(know[0]), CardSet(know[1]), CardSet(know[2])


def cards_of(entry: object) -> CardSet:
    """Every card an entry of the log holds in its fields (a card, cards, a pair of cut cards)."""
    mask = 0
    for name in getattr(entry, "__slots__", ()):
        value = getattr(entry, name)
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, (Card, CardSet)):
                mask |= item.mask
    return CardSet(mask)


def check_no_leak(p: Partie) -> None:
    """No view, log entry, log text or score reason names a card its reader may not know (see
    :func:`knowledge`)."""
    allowed = knowledge(p)
    for seat, may in ((0, allowed[0]), (1, allowed[1]), (None, allowed[2])):
        v = p.view(seat)
        assert v.known_cards().issubset(may), (seat, str(v.known_cards() - may))
        named = CardSet()
        for entry in v.log:
            named = named | cards_of(entry)
            if isinstance(entry, ScoreEvent):
                named = named | cards_in_text(entry.reason)
        for text in log_texts(v.log, v.players):
            named = named | cards_in_text(text)
        for e in v.events:
            named = named | cards_in_text(e.reason)
        assert named.issubset(may), (seat, str(named - may))
        if seat is not None:
            hidden = p.hand(1 - seat) - may
            for field in (v.hand, v.dealt, v.discards, v.peeked, v.rest, v.played, *v.shown_dealt, *v.revealed):
                assert not (field & hidden)
            assert all(c.player == seat for c in v.own_calls)
            if v.exchange_range is not None:
                assert v.to_act == seat
