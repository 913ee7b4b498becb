"""The time budget of the searching levels: the stopping rule of the play never changes the card that
all the sampled worlds would choose, the budget stops the sampling (measured by injected clocks, never
timed), and the exchange's successive elimination keeps the discard that is clearly best."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import piquet.ai.levels as levels
from piquet.ai import solver
from piquet.ai.books import SimpleAgent
from piquet.ai.budget import WALL_FACTOR, Deadline, OutOfTime, settled
from piquet.ai.exchange import ROUND_WORLDS, best_discard, worlds_after_elder
from piquet.ai.inference import CHECK_EVERY, Inference, World
from piquet.ai.kernel import KERNEL
from piquet.ai.levels import LEVELS, PlayTally, SearchAgent, equivalent_plays, make_agent, parse_spec, play_spread
from piquet.ai.solver import PlayPosition, position_from_view, solve
from piquet.engine.actions import Play
from piquet.engine.cards import CARDS, Card, CardSet
from piquet.engine.partie import LegalActions, Partie, Phase
from piquet.engine.variants import make_rules
from piquet.engine.view import PlayerView

# ---------------------------------------------------------------- the stopping rule on constructed tables

CANDIDATES = [CARDS[i] for i in (0, 9, 18, 27, 5)]


@st.composite
def value_tables(draw: st.DrawFn) -> tuple[list[dict[Card, int]], list[float], int]:
    """Worlds of values for a few cards, each world's values within ``spread`` of one another."""
    spread = draw(st.integers(1, 40))
    cards = CANDIDATES[: draw(st.integers(2, len(CANDIDATES)))]
    n = draw(st.integers(1, 30))
    tables = []
    for _ in range(n):
        low = draw(st.integers(-100, 100))
        tables.append({c: low + draw(st.integers(0, spread)) for c in cards})
    weights = [draw(st.sampled_from((0.25, 0.5, 1.0, 1.5, 3.0))) for _ in range(n)]
    return tables, weights, spread


def _full_best(tables: list[dict[Card, int]], weights: list[float]) -> Card:
    tally = PlayTally(list(tables[0]), weights, float("inf"))
    for t in tables:
        tally.add(t)
    return tally.best()


@settings(max_examples=examples(400), deadline=None)
@given(value_tables())
def test_stopping_rule_never_changes_the_card_all_the_worlds_choose(table: tuple[list[dict[Card, int]],
                                                                                 list[float], int]) -> None:
    tables, weights, spread = table
    tally = PlayTally(list(tables[0]), weights, spread)
    for i, values in enumerate(tables):
        if tally.add(values):
            assert tally.best() == _full_best(tables, weights), f"stopped after {i + 1} of {len(tables)} worlds"
            break


def test_stopping_rule_stops_when_the_lead_outgrows_what_the_rest_could_swing() -> None:
    a, b = CANDIDATES[:2]
    tally = PlayTally([a, b], [1.0] * 10, spread=10)
    # a leads by 8 a world: after k worlds 8k against 10(10 - k) still to come; 8k > 100 - 10k from k = 6.
    stops = [tally.add({a: 8, b: 0}) for _ in range(10)]
    assert stops.index(True) == 5
    # A card a world leaves out makes its bound unknown: never settled early then.
    tally = PlayTally([a, b], [1.0] * 3, spread=10)
    assert not tally.add({a: 100})


def test_settled_with_one_card_or_a_tie() -> None:
    assert settled({CANDIDATES[0]: 0.0}, 100.0, 10.0)
    assert not settled({CANDIDATES[0]: 5.0, CANDIDATES[1]: 5.0}, 0.0, 10.0)  # a tie goes to the tie-break


# ---------------------------------------------------------------- positions of real deals


def _play_decisions(seed: int, most_cards: int = 12) -> Iterator[tuple[PlayerView, LegalActions]]:
    """Play decisions of a Rubicon deal between two simple players, from the first with at most
    ``most_cards`` cards in hand."""
    partie = Partie(("Ann", "Bill"), first_dealer=seed % 2)
    partie.push(partie.random_deal(random.Random(seed)))
    players = [SimpleAgent(random.Random(seed)), SimpleAgent(random.Random(seed + 1))]
    while not partie.deal_scores:
        seat = partie.to_act
        assert seat is not None
        view, legal = partie.view(seat), partie.legal_actions(seat)
        if partie.phase is Phase.PLAY and len(view.hand) <= most_cards:
            yield view, legal
        partie.push(players[seat].choose(view, legal))


class Clocks:
    """A CPU clock and a wall clock that move only when a world is solved (by ``cpu`` and ``wall``)."""

    def __init__(self, cpu: float, wall: float = 0.0) -> None:
        self.cpu, self.wall = cpu, wall
        self.now = [0.0, 0.0]
        self.solved = 0

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        def timed_solve(*args: object, **kwargs: object) -> object:
            self.solved += 1
            self.now[0] += self.cpu
            self.now[1] += self.wall
            return solve(*args, **kwargs)  # type: ignore[arg-type]
        monkeypatch.setattr(levels, "solve", timed_solve)

    def agent(self, budget: float, worlds: int = 12, seed: int = 1) -> SearchAgent:
        settings_ = levels.Level(play_worlds=worlds, exchange_worlds=0, exchange_candidates=0, budget=budget)
        return SearchAgent(5, random.Random(seed), settings_, clock=lambda: self.now[0], wall=lambda: self.now[1])


def _a_choice(most_cards: int = 8) -> tuple[PlayerView, LegalActions]:
    """The first play decision with a real choice (cards of two suits)."""
    for seed in range(40):
        for view, legal in _play_decisions(seed, most_cards):
            plays = [a for a in legal if isinstance(a, Play)]
            if len({p.card.suit for p in plays}) > 1:
                return view, legal
    raise AssertionError("no choice found")


def test_budget_stops_the_play_before_a_world_it_cannot_pay_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levels, "settled", lambda *args: False)
    view, legal = _a_choice()
    clocks = Clocks(cpu=0.3)
    clocks.install(monkeypatch)
    agent = clocks.agent(budget=1.0)
    assert agent.choose(view, legal) in legal
    # 0.3 s a world: after 3 worlds (0.9 s) a fourth would end at 1.2 s, past the budget.
    assert clocks.solved == 3 and agent.budget_stops == 1


def test_without_a_budget_every_sampled_world_is_solved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levels, "settled", lambda *args: False)
    view, legal = _a_choice()
    clocks = Clocks(cpu=5.0, wall=5.0)
    clocks.install(monkeypatch)
    agent = clocks.agent(budget=0, worlds=12)
    agent.choose(view, legal)
    assert clocks.solved == 12 and agent.budget_stops == 0


def test_wall_clock_cap_stops_a_decision_on_a_busy_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levels, "settled", lambda *args: False)
    view, legal = _a_choice()
    # The process gets no CPU to speak of, but each world takes a second of wall time.
    clocks = Clocks(cpu=0.0, wall=1.0)
    clocks.install(monkeypatch)
    agent = clocks.agent(budget=1.0)
    agent.choose(view, legal)
    assert clocks.solved == int(WALL_FACTOR) + 1 and agent.budget_stops == 1


def test_a_budget_that_does_not_bind_changes_no_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same seed, the stopping rule on and off, a budget far off and none: the same cards.
    checked = 0
    for seed in (3, 4):
        for view, legal in _play_decisions(seed, most_cards=7):
            plays = [a for a in legal if isinstance(a, Play)]
            if len(plays) < 2:
                continue
            ruled = make_agent("level4:budget=1000", seed).choose(view, legal)
            with monkeypatch.context() as m:
                m.setattr(levels, "settled", lambda *args: False)
                full = make_agent("level4:budget=0", seed).choose(view, legal)
            assert ruled == full
            checked += 1
    assert checked >= 5


def test_equivalent_cards_are_equal_in_every_world(monkeypatch: pytest.MonkeyPatch) -> None:
    found = 0
    for seed in range(12):
        for view, legal in _play_decisions(seed, most_cards=6):
            plays = [a for a in legal if isinstance(a, Play)]
            if len(plays) < 2 or not equivalent_plays(view, plays):
                continue
            found += 1
            for hand, _ in levels.sample_opponent_hands(view, random.Random(seed), 6):
                values = solve(position_from_view(view, hand), view.rules, all_values=True).values
                assert len({values[p.card] for p in plays}) == 1
            # Played at once, the card all the worlds would choose among equals.
            quick = make_agent("level4", seed).choose(view, legal)
            with monkeypatch.context() as m:
                m.setattr(levels, "equivalent_plays", lambda *args: False)
                assert make_agent("level4", seed).choose(view, legal) == quick
    assert found >= 3


def test_cards_apart_are_not_equivalent() -> None:
    view, legal = _a_choice()
    assert not equivalent_plays(view, [a for a in legal if isinstance(a, Play)])


def test_play_spread_bounds_the_values_of_real_positions() -> None:
    for seed in (5, 6):
        for view, _legal in _play_decisions(seed, most_cards=6):
            spread = play_spread(view.rules, view.contract, (1, -1), len(view.hand))
            for hand, _ in levels.sample_opponent_hands(view, random.Random(seed), 3):
                values = solve(position_from_view(view, hand), view.rules, all_values=True).values.values()
                assert max(values) - min(values) <= spread


# ---------------------------------------------------------------- the exchange


def _worlds(n: int) -> list[World]:
    talon = tuple(CARDS[24:32])
    return [World(CardSet(CARDS[12:24]), CardSet(), talon, 1.0) for _ in range(n)]


def test_exchange_drops_a_discard_clearly_behind_and_keeps_the_best() -> None:
    options = [CardSet([CARDS[i]]) for i in range(4)]
    noise = random.Random(1)
    calls = [0] * 4

    def score(mine: int, _hers: int) -> float:
        i = next(j for j in range(4) if not mine >> j & 1)  # the card thrown
        calls[i] += 1
        return (10.0 if i == 2 else 0.0) + noise.gauss(0, 3)

    deadline = Deadline(1000.0, clock=lambda: 0.0, wall=lambda: 0.0)
    best = best_discard((1 << 12) - 1, options, _worlds(1000), lambda hers, _rest: hers, score, deadline)
    assert best == options[2]
    # All three others dropped after the first round: the one left needs no more worlds.
    assert calls == [ROUND_WORLDS] * 4 and not deadline.binding
    # Without a budget, as before it: every discard on every world.
    calls[:] = [0] * 4
    unlimited = Deadline(0.0)
    assert best_discard((1 << 12) - 1, options, _worlds(1000), lambda hers, _rest: hers, score, unlimited) == best
    assert calls == [1000] * 4


def test_exchange_stops_its_rounds_when_the_budget_is_spent() -> None:
    options = [CardSet([CARDS[i]]) for i in range(3)]
    now = [0.0]
    calls = [0]

    def score(_mine: int, _hers: int) -> float:
        calls[0] += 1
        now[0] += 0.01
        return 0.0  # all alike: nothing is dropped

    deadline = Deadline(1.0, clock=lambda: now[0], wall=lambda: 0.0)
    best_discard((1 << 12) - 1, options, _worlds(1000), lambda hers, _rest: hers, score, deadline)
    # 0.01 s a score, 3 discards: 1.92 s after the first round of 64 worlds, past the budget.
    assert calls[0] == 3 * ROUND_WORLDS and deadline.binding


# ---------------------------------------------------------------- the wall-clock cap inside the work
# The cap is asked inside the long pieces of work (drawing worlds, the solver's search, the exchange's talons), so
# that a decision ends within a fraction of a second of it however little of a core the process gets. Measured here
# by wall clocks that move when read, never timed.


class Reads:
    """A wall clock that moves ``step`` seconds at each read after the deadline's own (the start), and a CPU clock
    that stands still: each look at the clock is one more piece of work done."""

    def __init__(self, step: float) -> None:
        self.step, self.now, self.count = step, 0.0, 0

    def __call__(self) -> float:
        self.count += 1
        if self.count > 1:
            self.now += self.step
        return self.now

    def deadline(self, budget: float = 1.0) -> Deadline:
        return Deadline(budget, clock=lambda: 0.0, wall=self)


def _overdue_after(reads: int, budget: float = 1.0) -> Deadline:
    """A deadline whose wall clock passes its cap at the ``reads``-th look after the start."""
    return Reads(WALL_FACTOR * budget / (reads - 0.5)).deadline(budget)


def test_a_deadline_past_its_cap_says_so_and_binds() -> None:
    deadline = _overdue_after(3)
    assert [deadline.overdue() for _ in range(4)] == [False, False, True, True]
    assert deadline.binding
    with pytest.raises(OutOfTime, match="wall-clock cap of 3 s"):
        deadline.check()
    assert not Deadline(0.0).overdue()  # no budget, no cap


def test_worlds_are_drawn_until_the_cap_and_no_further() -> None:
    view = next(v for v, _ in _play_decisions(2) if len(v.hand) == 10)
    inference = Inference(view)
    # The cap is asked before each CHECK_EVERY proposals: past it at the third look, two rounds were drawn.
    drawn = inference.sample(random.Random(1), 500, deadline=_overdue_after(3))
    assert 0 < len(drawn) <= 2 * CHECK_EVERY
    assert len(inference.sample(random.Random(1), 500, deadline=_overdue_after(1))) == 0
    assert len(inference.resample(random.Random(1), 24, deadline=_overdue_after(1))) == 0


def test_the_exchange_stops_inside_a_round_at_the_cap() -> None:
    options = [CardSet([CARDS[i]]) for i in range(3)]
    scored = [0]

    def score(_mine: int, _hers: int) -> float:
        scored[0] += 1
        return 0.0

    # Past the cap at the third look: two looks' worth of worlds (CHECK_EVERY each) tried, then the first option.
    best = best_discard((1 << 12) - 1, options, _worlds(1000), lambda hers, _rest: hers, score, _overdue_after(3))
    assert scored[0] == 3 * 2 * CHECK_EVERY and best == options[0]
    scored[0] = 0
    assert best_discard((1 << 12) - 1, options, _worlds(1000), lambda hers, _rest: hers, score,
                        _overdue_after(1)) == options[0]
    assert scored[0] == 0


def test_younger_s_worlds_stop_at_the_cap() -> None:
    for seed in range(20):
        partie = Partie(("Ann", "Bill"), first_dealer=seed % 2)
        partie.push(partie.random_deal(random.Random(seed)))
        if partie.phase is not Phase.EXCHANGE:
            continue
        elder = partie.elder
        partie.push(SimpleAgent().choose(partie.view(elder), partie.legal_actions(elder)))
        younger = partie.to_act
        assert younger is not None
        found = worlds_after_elder(partie.view(younger), random.Random(seed), 1000, deadline=_overdue_after(2))
        assert found is not None and len(found) == CHECK_EVERY
        return
    raise AssertionError("no younger's exchange found")


class _Stop(Exception):
    pass


# With the kernel built, the pure search's run (some 3 s) is left to CI.
@pytest.mark.parametrize("compiled",
                         [True, pytest.param(False, marks=pytest.mark.slow)] if KERNEL is not None else [False])
def test_the_solver_s_search_stops_when_its_check_says_so(compiled: bool) -> None:
    """The check is called every so many positions; what it raises comes out of the solve, and the next solve
    (the kernel reuses its tables) is exact."""
    rng = random.Random(4)
    rules = make_rules("rubicon")
    calls = [0]

    def check() -> None:
        calls[0] += 1
        raise _Stop

    stopped = 0
    for _ in range(30):
        cards = rng.sample(range(32), 24)
        position = PlayPosition((sum(1 << c for c in cards[:12]), sum(1 << c for c in cards[12:])), 0, 0)
        calls[0] = 0
        try:
            solver._solve(position, rules, True, True, compiled, check)
        except _Stop:
            stopped += 1
            assert calls[0] == 1  # stopped at the first check
        exact = solver._solve(position, rules, True, True, False)  # pure Python, a table of its own
        for again in (solver._solve(position, rules, True, True, compiled),
                      solver._solve(position, rules, True, True, compiled, lambda: None)):
            assert (again.value, again.best, again.values) == (exact.value, exact.best, exact.values)
    # The deals whose search is long enough to be checked (every 4096 positions in the kernel, 128 in Python).
    assert stopped >= (5 if compiled else 25)


def _exchange_views() -> Iterator[tuple[PlayerView, LegalActions]]:
    """Elder's and younger's exchanges of seeded Rubicon deals."""
    for seed in range(8):
        partie = Partie(("Ann", "Bill"), first_dealer=seed % 2)
        partie.push(partie.random_deal(random.Random(seed)))
        if partie.phase is not Phase.EXCHANGE:
            continue
        elder = partie.elder
        yield partie.view(elder), partie.legal_actions(elder)
        partie.push(SimpleAgent().choose(partie.view(elder), partie.legal_actions(elder)))
        if partie.phase is Phase.EXCHANGE and partie.to_act is not None:
            yield partie.view(partie.to_act), partie.legal_actions(partie.to_act)


def test_a_decision_whose_cap_has_passed_stops_at_its_next_look(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the wall clock past the cap from its first look on, level 5 solves no world, values no talon and
    plays or exchanges as the books do, having looked at the clock but a few times."""
    solved = [0]
    real_solve = solve

    def counted(*args: object, **kwargs: object) -> object:
        result = real_solve(*args, **kwargs)  # type: ignore[arg-type]
        solved[0] += 1
        return result

    monkeypatch.setattr(levels, "solve", counted)
    books = SimpleAgent()
    checked = 0
    for seed in (1, 2):
        for view, legal in _play_decisions(seed, most_cards=11):
            plays = [a for a in legal if isinstance(a, Play)]
            if len(plays) < 2 or equivalent_plays(view, plays):
                continue
            clock = Reads(10.0)
            agent = SearchAgent(5, random.Random(seed), clock=lambda: 0.0, wall=clock)
            assert agent.choose(view, legal) == books.choose(view, legal)
            assert solved[0] == 0 and agent.budget_stops == 1 and clock.count <= 4
            checked += 1
    for view, legal in _exchange_views():
        clock = Reads(10.0)
        agent = SearchAgent(5, random.Random(3), clock=lambda: 0.0, wall=clock)
        assert agent.choose(view, legal) == books.choose(view, legal)
        assert agent.budget_stops == 1 and clock.count <= 4
        checked += 1
    assert checked >= 12


# ---------------------------------------------------------------- the spec


def test_budget_in_the_agent_spec() -> None:
    assert parse_spec("level5:budget=0.25") == ("level5", {"budget": 0.25})
    agent = make_agent("level5:budget=0.25")
    assert isinstance(agent, SearchAgent) and agent.settings.budget == 0.25
    assert agent.settings.play_worlds == LEVELS[5].play_worlds
    unlimited = make_agent("level5:budget=0")
    assert isinstance(unlimited, SearchAgent) and unlimited.settings.budget == 0


@pytest.mark.parametrize("spec", ["level5:budget=-1", "level5:budget=soon", "level5:budget", "level5:budget=inf"])
def test_a_bad_budget_is_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="number of seconds"):
        parse_spec(spec)
