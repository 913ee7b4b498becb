"""The compiled search kernel against the pure-Python search (its oracle), and the fallback to pure Python.

The comparisons need the kernel built (``pip install .`` where a C compiler is); without it they skip,
unless ``PIQUET_REQUIRE_KERNEL`` is set (CI sets it), when they fail.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from drivers import packs
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.ai import kernel, solver
from piquet.ai.play_model import model_for
from piquet.ai.solver import PlayPosition, _solve
from piquet.engine.cards import CARDS
from piquet.engine.variants import Contract, Rules, make_rules

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

requires_kernel = pytest.mark.skipif(
    kernel.KERNEL is None and not os.environ.get("PIQUET_REQUIRE_KERNEL"),
    reason="the compiled kernel is not built (no C compiler at install) or PIQUET_PURE_SOLVER is set")


class Case(NamedTuple):
    rules: Rules
    position: PlayPosition
    all_values: bool


#: Rule options that change the play's scoring, by variant.
PLAY_OPTIONS: dict[str, list[dict[str, object]]] = {
    "rubicon": [{}, {"points_for_winning_opponents_lead": 2}, {"lead_point_only_if_won": True},
                {"ten_for_the_last_trick": True}],
    "auction": [{}],
    "au-cent": [{}, {"low_cards_score_nothing_in_play": True}],
}


@st.composite
def cases(draw: st.DrawFn, most_tricks: int = 12) -> Case:
    """A deal drawn from a shuffled pack, some tricks played at random (legal plays, perhaps a card
    led to the next), any variant and scoring option, a contract in Auction Piquet, scores with a
    pique still possible or not, and any utility."""
    variant = draw(st.sampled_from(sorted(PLAY_OPTIONS)))
    rules = make_rules(variant, draw(st.sampled_from(PLAY_OPTIONS[variant])))
    contract = (draw(st.builds(Contract, st.integers(0, 1), st.integers(7, 12), st.booleans(), st.integers(0, 2)))
                if variant == "auction" else None)
    pack = draw(packs())
    hands = [sum(1 << c for c in pack[:12]), sum(1 << c for c in pack[12:24])]
    elder = draw(st.integers(0, 1))
    leader = elder
    won = [0, 0]
    rng = draw(st.randoms(use_true_random=False))
    played = draw(st.integers(12 - most_tricks, 11))
    for _ in range(played):
        lead = rng.choice([c for c in range(32) if hands[leader] >> c & 1])
        follower = 1 - leader
        suit = hands[follower] & (0xFF << (8 * (lead >> 3)))
        follow = rng.choice([c for c in range(32) if (suit or hands[follower]) >> c & 1])
        hands[leader] &= ~(1 << lead)
        hands[follower] &= ~(1 << follow)
        if follow >> 3 == lead >> 3 and follow > lead:
            leader = follower
        won[leader] += 1
    scores = [draw(st.sampled_from([0, 0, 0, 4, 17, 26, 28, 40])), draw(st.sampled_from([0, 0, 0, 3, 25, 27, 28, 35]))]
    to_act, led = leader, None
    if draw(st.booleans()):
        card = rng.choice([c for c in range(32) if hands[leader] >> c & 1])
        hands[leader] &= ~(1 << card)
        scores[leader] += rules.lead_points(CARDS[card], contract)
        to_act, led = 1 - leader, CARDS[card]
    position = PlayPosition((hands[0], hands[1]), to_act, elder, (won[0], won[1]), (scores[0], scores[1]), led,
                            draw(st.booleans()), contract, draw(st.sampled_from([(1, -1), (1, 1), (-1, -1)])))
    return Case(rules, position, draw(st.booleans()))


def agree(case: Case) -> None:
    assert kernel.KERNEL is not None, "PIQUET_REQUIRE_KERNEL is set but the kernel is not built"
    rules, position, all_values = case
    for all_best in (True, False):
        compiled = _solve(position, rules, all_values, all_best, True)
        pure = _solve(position, rules, all_values, all_best, False)
        assert (compiled.value, compiled.best, compiled.values) == (pure.value, pure.best, pure.values)


@requires_kernel
@settings(max_examples=examples(200), deadline=None)
@given(cases(most_tricks=8))
def test_kernel_equals_the_pure_search_on_drawn_positions(case: Case) -> None:
    """Same value, same best cards and (with ``all_values``) the same value of every card."""
    agree(case)


@requires_kernel
@settings(max_examples=examples(15), deadline=None)
@given(cases())
def test_kernel_equals_the_pure_search_from_early_in_the_deal(case: Case) -> None:
    agree(case)


@pytest.mark.slow  # whole deals searched both ways
@requires_kernel
def test_kernel_equals_the_pure_search_on_full_deals_of_the_contracts() -> None:
    """Every kind of contract (plus, minus, doubled) from the first lead, where the pique matters too."""
    import random

    rng = random.Random(19)
    rules = make_rules("auction")
    for i in range(12):
        cards = rng.sample(range(32), 24)
        hands = (sum(1 << c for c in cards[:12]), sum(1 << c for c in cards[12:]))
        contract = Contract(i % 2, 7 + i % 6, i % 3 == 0, i % 3)
        position = PlayPosition(hands, i % 2, i % 2, contract=contract)
        agree(Case(rules, position, i % 4 == 0))


@requires_kernel
def test_kernel_rejects_what_is_not_a_position() -> None:
    from piquet.ai import _kernel

    model = model_for(make_rules("rubicon"), None, 0).kernel(_kernel)
    assert isinstance(model, _kernel.Model)
    search = _kernel.Search(model)
    with pytest.raises(ValueError, match="not a position"):
        search.value(0b11, 0b1, 0, 0, None, -100, 100)  # two cards against one
    with pytest.raises(ValueError, match="not in the leader's hand"):
        search.lead_value(0b1, 0b10, 0, 0, None, 5, -100, 100)
    assert search.value(0b1 << 7, 0b1, 0, 6, None, -100, 100) == 1 + 1 + 10  # lead, last trick, the cards
    with pytest.raises(ValueError, match="not a position"):
        search.mtdf(0b11, 0b1, 0, 0, None, 0)
    with pytest.raises(ValueError, match="not a position"):
        model.solve(0b11, 0b1, 0, 0, None, 0, True, None)
    with pytest.raises(ValueError, match="32-bit mask"):
        model.solve(1 << 32, 0b1, 0, 11, None, 0, True, None)
    with pytest.raises(TypeError, match="check must be callable"):
        model.solve(0b1 << 7, 0b1, 0, 6, None, 0, True, 5)  # type: ignore[arg-type]
    assert search.mtdf(0b1 << 7, 0b1, 0, 6, None, 0) == 12
    # The ace and king of spades touch (the other holds neither): one lead standing for both, listed from the ace.
    # Two leads (a point each), the last trick and the cards (seven tricks to five).
    assert model.solve(0b11 << 6, 0b11, 0, 5, None, 0, True, None)[:2] == (1 + 1 + 1 + 10, [CARDS[7], CARDS[6]])


@requires_kernel
def test_kernel_s_solve_is_stopped_by_its_check() -> None:
    """An exception the check raises stops a solve in one kernel call and comes out of it; the next solve (its table
    reused) is exact."""
    from piquet.ai import _kernel

    rules = make_rules("rubicon")
    model = model_for(rules, None, 0)
    compiled = model.kernel(_kernel)

    def stop() -> None:
        raise TimeoutError("out of time")

    rng = random.Random(4)
    stopped = 0
    for _ in range(30):
        cards = rng.sample(range(32), 24)
        hands = (sum(1 << c for c in cards[:12]), sum(1 << c for c in cards[12:]))
        try:
            compiled.solve(*hands, 0, 0, None, 0, True, stop)
        except TimeoutError:
            stopped += 1
        exact = solver._Search(model).mtdf(*hands, 0, 0, None, 0)
        assert compiled.solve(*hands, 0, 0, None, 0, True, None)[0] == exact
    assert stopped >= 1  # the deals whose search is long enough to be checked (every 4096 positions): two


@requires_kernel
@settings(max_examples=examples(40), deadline=None)
@given(cases())
def test_kernel_s_solve_is_the_pure_search_s_best_leads(case: Case) -> None:
    """A solve in one kernel call (MTD(f), then each lead's null-window test, the best cards merged) gives the pure
    search's value and the cards of the leads it finds (all, or the first's), by rank from the ace, then by suit."""
    position = case.position
    if position.lead is not None:
        return
    model = model_for(case.rules, position.contract, position.elder, position.utility)
    pk = model.pique_key(position.scores, position.pique_done)
    assert kernel.KERNEL is not None
    for all_best in (True, False):
        args = (*position.hands, position.to_act, position.tricks_won[0], pk, 0, all_best)
        value, leads = solver._Search(model).best_leads(*args)
        cards = [CARDS[i] for i in solver._HIGH_FIRST if any(mask >> i & 1 for mask in leads)]
        assert model.kernel(kernel.KERNEL).solve(*args, None)[:2] == (value, cards)


def test_solver_falls_back_to_pure_python_without_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a machine where the kernel could not be built: the import fails, the pure search solves."""
    monkeypatch.setitem(sys.modules, "piquet.ai._kernel", None)  # the import raises ImportError
    assert kernel.load_kernel() is None
    monkeypatch.delitem(sys.modules, "piquet.ai._kernel")
    monkeypatch.setenv("PIQUET_PURE_SOLVER", "1")
    assert kernel.load_kernel() is None


def test_pure_solver_is_forced_by_the_environment() -> None:
    """``PIQUET_PURE_SOLVER=1``: the solver and ``piquet --version`` say pure Python, and it solves."""
    code = ("from piquet.ai import solver; from piquet.engine.variants import make_rules\n"
            "p = solver.PlayPosition((0x80 | 0x8000, 0x40 | 0x1), 0, 0, (5, 5), (20, 15))\n"
            "print(solver.SOLVER, solver._kernel, solver.solve(p, make_rules('rubicon')).value)")
    env = {**os.environ, "PIQUET_PURE_SOLVER": "1", "PYTHONPATH": ROOT}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split() == ["pure", "Python", "None", "13"]
    version = subprocess.run([sys.executable, "-m", "piquet.ui.cli", "--version"], env=env, capture_output=True,
                             text=True, check=True, cwd=ROOT)
    assert "solver: pure Python" in version.stdout


def test_version_says_which_solver_is_in_use(capsys: pytest.CaptureFixture[str]) -> None:
    from piquet.ui.cli import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["--version"])
    assert f"solver: {solver.SOLVER}" in capsys.readouterr().out


def _version_in(tree: Path, site: Path) -> str:
    """``python3 -m piquet --version`` run in the checkout ``tree``, with ``site`` the only site of installed
    packages (Python's own left out: ``-S``)."""
    env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{site}"}
    env.pop("PIQUET_PURE_SOLVER", None)
    return subprocess.run([sys.executable, "-S", "-m", "piquet", "--version"], env=env, capture_output=True,
                          text=True, check=True, cwd=tree).stdout


def test_version_says_plainly_when_a_source_tree_shadows_the_compiled_kernel(tmp_path: Path) -> None:
    """``python3 -m piquet`` in a checkout imports the checkout's package: where the kernel was built only in the
    installed package, the strongest levels solve in pure Python, and ``--version`` says so and what to do
    (issue 32, item 1: a third of the speed from the README's own command, said nowhere)."""
    tree = tmp_path / "checkout"
    shutil.copytree(Path(ROOT) / "piquet", tree / "piquet",
                    ignore=shutil.ignore_patterns("_kernel.*.so", "_kernel.*.pyd", "__pycache__"))
    site = tmp_path / "site"
    kernel = site / "piquet" / "ai" / "_kernel.cpython-311-x86_64-linux-gnu.so"
    kernel.parent.mkdir(parents=True)
    kernel.write_bytes(b"built at install")  # never imported: the checkout's package is the one imported
    info = site / "piquet-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: piquet\nVersion: 0.1.0\n")
    (info / "RECORD").write_text(f"piquet/ai/{kernel.name},,\npiquet-0.1.0.dist-info/METADATA,,\n")
    said = _version_in(tree, site)
    assert "solver: pure Python, NOT the compiled kernel built at install" in said, said
    assert str(tree) in said and str(site) in said and "`piquet` command" in said and "pip install -e ." in said
    kernel.unlink()  # nothing built anywhere: pure Python, and no word of a kernel elsewhere
    assert "solver: pure Python (no compiled kernel was built" in _version_in(tree, site)


def test_the_server_s_first_line_says_which_solver(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    import contextlib
    import socket

    import uvicorn

    from piquet.ui import cli
    from piquet.ui.web import collector, guard

    monkeypatch.setattr(guard, "listen", lambda host, port: contextlib.closing(socket.socket()))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    # The server's collector settings are its process's: not the test run's (a frozen heap and a new threshold).
    settled: list[int] = []

    def settle() -> int:
        settled.append(1)
        return 0

    monkeypatch.setattr(collector, "settle", settle)
    assert cli.main(["serve", "--db", str(tmp_path / "db.sqlite3"), "--workers", "0"]) == 0
    assert settled == [1]
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("Piquet is served at http://localhost:8000/") and first.endswith(cli.solver_words())
