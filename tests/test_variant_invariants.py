"""Invariants of Auction Piquet and Piquet au Cent over random self-play (hypothesis chooses the seeds):
the pack is conserved, every action is legal, records replay to the same scores, views leak nothing,
and the play scores what each variant's laws say."""

from __future__ import annotations

import random
from collections.abc import Callable

from helpers import agents, cards_in_text
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.ai.agent import play_partie
from piquet.engine.actions import Action, Bid, CarteBlanche, ChooseDealer, Cut, Deal, Declare, Exchange, Play
from piquet.engine.cards import FULL_PACK, CardSet
from piquet.engine.combinations import Category, key
from piquet.engine.partie import Partie, Phase
from piquet.engine.record import dumps, loads
from piquet.engine.scoring import ScoreCategory, ScoreEvent
from piquet.engine.view import Speech

VARIANTS = ("auction", "au-cent")
NAMES = ("Ann", "Bill")


def drive(seed: int, variant: str, options: dict[str, object] | None = None,
          after: Callable[[Partie], None] | None = None,
          before: Callable[[Partie, Action], None] | None = None, max_deals: int = 99) -> Partie:
    """A random partie of ``variant`` from the cut, step by step."""
    rng = random.Random(seed)
    ag = agents(seed)
    p = Partie(NAMES, variant, options)
    while not p.is_over and len(p.deal_scores) < max_deals:
        if p.phase is Phase.CUT:
            action: Action = p.random_cut(rng)
        elif p.phase is Phase.CHOOSE_DEALER:
            raise AssertionError("no variant here lets the higher cut choose")  # both: lower cut / Lunn's choice
        elif p.phase is Phase.DEAL:
            sizes = p.legal_packets()
            action = p.random_deal(rng, rng.choice(sizes))
        else:
            seat = p.to_act
            assert seat is not None
            action = ag[seat].choose(p.view(seat), p.legal_actions(seat))
        if before:
            before(p, action)
        p.push(action)
        if after:
            after(p)
    return p


def drive_auction_choice(seed: int, after: Callable[[Partie], None] | None = None,
                         before: Callable[[Partie, Action], None] | None = None, max_deals: int = 99) -> Partie:
    """Auction Piquet starts with the cut and the higher cut's choice of dealer (Lunn)."""
    rng = random.Random(seed)
    ag = agents(seed)
    p = Partie(NAMES, "auction")
    while not p.is_over and len(p.deal_scores) < max_deals:
        if p.phase is Phase.CUT:
            action: Action = p.random_cut(rng)
        elif p.phase is Phase.CHOOSE_DEALER:
            assert p.to_act is not None
            action = ChooseDealer(p.to_act, rng.choice((0, 1)))
        elif p.phase is Phase.DEAL:
            action = p.random_deal(rng, rng.choice(p.legal_packets()))
        else:
            seat = p.to_act
            assert seat is not None
            action = ag[seat].choose(p.view(seat), p.legal_actions(seat))
        if before:
            before(p, action)
        p.push(action)
        if after:
            after(p)
    return p


def run_variant(seed: int, variant: str, **kw: object) -> Partie:
    if variant == "auction":
        return drive_auction_choice(seed, **kw)  # type: ignore[arg-type]
    return drive(seed, variant, **kw)  # type: ignore[arg-type]


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


def conservation(p: Partie) -> None:
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


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(VARIANTS))
def test_variant_invariants_32_cards_conserved_at_every_step(seed: int, variant: str) -> None:
    run_variant(seed, variant, after=conservation)


def chosen_is_legal(p: Partie, action: Action) -> None:
    if isinstance(action, (Cut, Deal)):
        return
    assert p.can(action), action
    listed = p.legal_actions(p.to_act).list()
    assert action in p.legal_actions(p.to_act) and action in listed
    if p.phase is Phase.BID:
        assert all(p.can(a) for a in listed) and len(set(listed)) == len(listed)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(VARIANTS))
def test_variant_invariants_every_action_chosen_is_legal(seed: int, variant: str) -> None:
    run_variant(seed, variant, before=chosen_is_legal)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(VARIANTS))
def test_variant_invariants_record_round_trip_gives_the_same_scores_result_and_games(seed: int, variant: str) -> None:
    def mid(p: Partie) -> None:
        if len(p.actions) % 41 == 0:
            q = loads(dumps(p))
            assert (q.totals, q.deal_scores, q.events, q.phase, q.to_act, q.contract, q.games) == \
                   (p.totals, p.deal_scores, p.events, p.phase, p.to_act, p.contract, p.games)

    p = run_variant(seed, variant, after=mid)
    text = dumps(p)
    q = loads(text)
    assert q.deal_scores == p.deal_scores and q.result == p.result and q.totals == p.totals
    assert q.games == p.games and q.games_won() == p.games_won()
    assert dumps(q) == text
    assert p.is_over and p.result is not None


# ---------------------------------------------------------------- views
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
    led = False
    draws = iter(talon_draws(deal, after))

    def tell(seats: list[int], mask: int) -> None:
        for s in seats:
            know[s] |= mask

    for a in after:
        if isinstance(a, CarteBlanche) and a.announce:
            cb[a.player] = True
        elif isinstance(a, Exchange):
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
        elif isinstance(a, Play):
            if not led:
                led = True
                for i in range(0, len(calls), 2):
                    e, y = calls[i], calls[i + 1]
                    ec, yc = e.called, y.called
                    if ec is None and yc is None:
                        continue
                    if ec is not None and yc is not None and key(e.category, ec) == key(e.category, yc):
                        tell([0, 1, 2], ec.mask | yc.mask)
                        continue
                    win = e if yc is None or (ec is not None and key(e.category, ec) > key(e.category, yc)) else y
                    for combo in win.combinations:
                        tell([0, 1, 2], combo.mask)
                if show_rest:
                    tell([0, 1, 2], CardSet(deal.talon[taken:]).mask)
            tell([0, 1, 2], a.card.mask)
    return CardSet(know[0]), CardSet(know[1]), CardSet(know[2])


def check_no_leak(p: Partie) -> None:
    allowed = knowledge(p)
    for seat, may in ((0, allowed[0]), (1, allowed[1]), (None, allowed[2])):
        v = p.view(seat)
        assert v.known_cards().issubset(may), (seat, str(v.known_cards() - may))
        named = CardSet()
        for entry in v.log:
            text = entry.text if isinstance(entry, Speech) else entry.reason if isinstance(entry, ScoreEvent) else ""
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


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(VARIANTS))
def test_variant_invariants_views_leak_nothing_during_random_play(seed: int, variant: str) -> None:
    run_variant(seed, variant, after=check_no_leak, max_deals=4)


def test_variant_invariants_the_leak_check_detects_a_leak() -> None:
    p = drive(5, "au-cent", max_deals=0)
    while p.phase is not Phase.EXCHANGE:
        p.push(p.random_cut(random.Random(1)) if p.phase is Phase.CUT else p.random_deal(random.Random(1), 2))
    ann, _, spectator = knowledge(p)
    assert p.hand(1) - ann and not (spectator & (p.hand(0) | p.hand(1)))


# ---------------------------------------------------------------- the play
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_lunn_play_points_per_deal_are_twelve_each_trick_scoring_one(seed: int) -> None:
    seen: list[int] = []

    def after(p: Partie) -> None:
        if len(p.deal_scores) > len(seen):
            seen.append(1)
            d = p.deal_scores[-1]
            if d.annulled:
                assert d.totals == (0, 0) and p.phase is Phase.DEAL
                return
            assert d.contract is not None and d.elder == d.contract.holder
            assert d.by_category[0]["play"] + d.by_category[1]["play"] == 12
            assert d.tricks[0] + d.tricks[1] == 12
            c = d.contract
            won = d.tricks[c.holder]
            made = 12 - won if c.minus else won
            # Lunn: plus, one point a trick won; minus, one point a trick lost.
            own_tricks = d.tricks if not c.minus else (d.tricks[1], d.tricks[0])
            assert (d.by_category[0]["play"], d.by_category[1]["play"]) == own_tricks
            cards = d.by_category[0]["cards"] + d.by_category[1]["cards"]
            capot = 12 in d.tricks
            if d.tricks == (6, 6):
                assert cards == 0
            elif not capot:
                assert cards == 10
            else:
                capot_taker = 0 if own_tricks[0] == 12 else 1
                big = c.tricks == 12 and c.doubles and capot_taker == c.holder
                assert cards == ((80, 160)[c.doubles - 1] if big else 40)
            rate = 10 * c.multiplier
            expected = [0, 0]
            if made > c.tricks:
                expected[c.holder] += rate * (made - c.tricks)
            elif made < c.tricks:
                expected[1 - c.holder] += rate * (c.tricks - made)
            if made >= c.tricks and c.doubles:
                expected[c.holder] += (20, 40)[c.doubles - 1]
            assert [d.by_category[0]["contract"], d.by_category[1]["contract"]] == expected
            for seat in (0, 1):
                assert not (d.by_category[seat]["pique"] and d.by_category[seat]["repique"])
                assert d.by_category[seat]["carte_blanche"] == 0
            if not c.minus:
                assert d.by_category[1 - c.holder]["pique"] == 0  # younger never piques in plus

    drive_auction_choice(seed, after=after)
    assert seen


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_au_cent_play_points_per_deal_as_rubicon(seed: int) -> None:
    seen: list[int] = []

    def after(p: Partie) -> None:
        if len(p.deal_scores) > len(seen):
            seen.append(1)
            d = p.deal_scores[-1]
            tricks = p.view(0).tricks
            assert len(tricks) == 12
            second_wins = sum(1 for t in tricks if t.winner != t.leader)
            assert d.by_category[0]["play"] + d.by_category[1]["play"] == 12 + second_wins + 1
            cards = d.by_category[0]["cards"] + d.by_category[1]["cards"]
            assert cards == (0 if d.tricks == (6, 6) else 40 if 12 in d.tricks else 10)
            assert d.contract is None and not d.annulled and d.multiplier == 1

    p = drive(seed, "au-cent", after=after)
    assert seen and p.is_over and p.result is not None and p.result.games == p.games_won()
    assert max(p.games_won()) >= 3 and p.result.winner == (0 if p.games_won()[0] > p.games_won()[1] else 1)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), fresh_cut=st.booleans())
def test_au_cent_games_are_a_hundred_up_won_at_the_moment_the_loser_under_fifty_a_double(
        seed: int, fresh_cut: bool) -> None:
    deals: list[list[ScoreEvent]] = []

    def keep_events(p: Partie) -> None:
        if len(p.deal_scores) > len(deals):
            deals.append(list(p.events))

    p = drive(seed, "au-cent", {"fresh_cut_each_game": True} if fresh_cut else None, after=keep_events)
    order = list(ScoreCategory)
    games = iter(p.games)
    game = [0, 0]
    for number, events in enumerate(deals, start=1):
        # The events stand in the order of reckoning (Law 67); the first to 100 in it wins the game.
        assert [order.index(e.category) for e in events] == sorted(order.index(e.category) for e in events)
        won: tuple[int, bool, tuple[int, int]] | None = None
        for e in events:
            game[e.player] += e.points
            if won is None and game[e.player] >= 100:
                won = (e.player, game[1 - e.player] < 50, (game[0], game[1]))
        if won is not None:
            g = next(games)
            assert (g.winner, g.double, g.reached, g.scores, g.deal) == (*won, (game[0], game[1]), number)
            game = [0, 0]
    assert next(games, None) is None
    if fresh_cut:
        # Each game after the first opens with a cut, the lower card dealing; the record keeps it.
        cuts = sum(1 for a in p.actions if isinstance(a, Cut))
        assert cuts >= len(p.games) - (1 if p.is_over else 0)
        assert loads(dumps(p)).games == p.games


def test_variant_invariants_play_partie_takes_the_variant() -> None:
    for variant in VARIANTS:
        p = play_partie(agents(1), random.Random(1), NAMES, variant)
        assert p.variant == variant and p.is_over
        assert loads(dumps(p)).result == p.result
