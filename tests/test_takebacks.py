"""Takebacks against the computer (``piquet.ui.takebacks``): the one policy of the terminal and the browser.

A fair takeback never goes back past anything the player had not seen: checked against the knowledge oracle of
``tests/drivers.py`` (what each seat may know, worked out from the actions alone), on random parties of every
variant. A free one goes back to the last decision with a choice; the cut, a deal, the choice of dealer and a card
the law forces are never one; a decision the interface made for the player on his standing instruction is gone
past.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from drivers import NAMES, Chooser, Drawn, knowledge, parties
from helpers import ANN, BASE_ANN, BASE_BILL, BASE_TALON, BILL, act, cs, examples, make_deal, new_partie
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.engine.actions import Action, ChooseDealer, Cut, Deal, Declare, Play
from piquet.engine.cards import CardSet
from piquet.engine.partie import Partie, Phase
from piquet.ui.takebacks import Step, entry, push, refusal, target

Known = tuple[CardSet, CardSet, CardSet]


def _play(chooser: Chooser, variant: str, options: dict[str, object],
          after: Callable[[Partie, list[Step], list[Known]], None], max_deals: int = 2) -> None:
    """A partie (its first ``max_deals`` deals) applied through the takebacks' ``push``, ``after`` called after
    each action with the steps and what each seat knew before each action (the oracle of ``tests/drivers.py``)."""
    p = Partie(NAMES, variant, options)
    steps: list[Step] = []
    known: list[Known] = []
    while not p.is_over and len(p.deal_scores) < max_deals:
        if p.phase is Phase.CUT:
            action: Action = chooser.cut(p)
        elif p.phase is Phase.DEAL:
            action = chooser.deal(p)
        else:
            assert p.to_act is not None
            action = chooser.choose(p, p.to_act)
        known.append(knowledge(p))
        steps.append(push(p, action))
        after(p, steps, known)


def _declaration(action: Action) -> bool:
    return isinstance(action, Declare)


@settings(max_examples=examples(40))
@given(st.data(), parties())
def test_a_fair_takeback_goes_back_past_nothing_the_player_had_not_seen(
        data: st.DataObject, variant: tuple[str, dict[str, object]]) -> None:
    def after(p: Partie, steps: list[Step], known: list[Known]) -> None:
        for seat in (0, 1):
            for automatic in (None, _declaration):
                keep = target(p, steps, seat, "fair", automatic)
                if keep is None:
                    continue
                taken = p.actions[keep:]
                # His own moves only, the first a decision with a choice, and nothing he saw since.
                assert all(a.player == seat for a in taken) and steps[keep].choice
                assert knowledge(p)[seat] == known[keep][seat]
                assert automatic is None or not isinstance(p.actions[keep], Declare)

    _play(Drawn(data), variant[0], variant[1], after)


@pytest.mark.parametrize(("variant", "shown"), [("rubicon", True), ("au-cent", False)])
def test_law_55_option_calls_shown_at_once_a_trio_shown_at_once_is_final_for_a_fair_takeback(
        variant: str, shown: bool) -> None:
    # Law 55 with the option calls_shown_at_once: elder's combinations allowed good are shown as soon as younger
    # has answered, so her answer showed her his cards and a fair takeback stops there. Piquet au Cent shows no
    # trio ("must show the cards called, except in the case of quatorzes and trios"): there her answer showed her
    # nothing, and a fair takeback may take it back; what the knowledge oracle says she knows agrees with her view.
    p = new_partie({"calls_shown_at_once": True}, variant=variant)
    steps = [push(p, make_deal(BASE_ANN, BASE_BILL, BASE_TALON, ANN, packets=2))]
    # Bill keeps three aces (AS AH AC) and three kings; Ann draws the QC and JC to three queens and three knaves.
    for text in ("Bill: x AD KH", "Ann: x 9D 8D 8S", "Bill: point -", "Ann: point -",
                 "Bill: sequences -", "Ann: sequences -", "Bill: sets AS AH AC"):
        steps.append(push(p, act(text)))
    knew = knowledge(p)[ANN]
    assert len(list(p.legal_actions(ANN))) > 1  # her answer is a decision with a choice
    steps.append(push(p, act("Ann: sets -")))
    trio = cs("AS AH AC")
    assert trio.issubset(p.view(ANN).revealed[BILL]) is shown
    assert steps[-1].reveals is shown
    assert knowledge(p)[ANN] == (knew | trio if shown else knew)
    assert target(p, steps, ANN, "fair") == (None if shown else len(p.actions) - 1)


@settings(max_examples=examples(25))
@given(st.data())
def test_a_free_takeback_goes_to_the_last_choice_and_never_to_a_chance_event_or_a_forced_card(
        data: st.DataObject) -> None:
    def after(p: Partie, steps: list[Step], known: list[Known]) -> None:
        for seat in (0, 1):
            keep = target(p, steps, seat, "free")
            mine = [i for i, a in enumerate(p.actions) if a.player == seat and steps[i].choice]
            assert keep == (mine[-1] if mine and not p.is_over else None)
            if keep is not None:
                taken = p.actions[keep]
                assert not isinstance(taken, (Cut, Deal, ChooseDealer))
                if isinstance(taken, Play):  # a card among several, never the only one the law allowed
                    before = Partie(NAMES)
                    for a in p.actions[:keep]:
                        before.push(a)
                    assert len(list(before.legal_actions(seat))) > 1
                deals = [i for i, a in enumerate(p.actions[:keep]) if isinstance(a, Deal)]
                assert entry(p.actions, keep, p.players[seat]) == {
                    "player": p.players[seat], "deal": len(deals), "action": keep - deals[-1] - 1,
                    "undone": len(p.actions) - keep}
            assert target(p, steps, seat, "off") is None

    _play(Drawn(data), "rubicon", {}, after)


def test_the_reasons_a_takeback_is_refused_are_for_the_player() -> None:
    partie = Partie(("Ann", "Computer"), first_dealer=1)
    assert refusal(partie, [], 0, "off") == "this game allows no takebacks (chosen when it was created)"
    assert refusal(partie, [], 0, "free").startswith("there is nothing of yours to take back")
    assert refusal(partie, [], 0, "fair").startswith("there is nothing of yours to take back")
