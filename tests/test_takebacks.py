"""Takebacks against the computer (``piquet.ui.takebacks``): the one policy of the terminal and the browser.

A fair takeback never goes back past anything the player had not seen: checked against the knowledge oracle of
``tests/drivers.py`` (what each seat may know, worked out from the actions alone), on random parties of every
variant. A free one goes back to the last decision with a choice; the cut, a deal, the choice of dealer and a card
the law forces are never one; a decision the interface made for the player on his standing instruction is gone
past.
"""

from __future__ import annotations

from drivers import Drawn, drive, knowledge, parties
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.engine.actions import Action, ChooseDealer, Cut, Deal, Declare, Play
from piquet.engine.cards import CardSet
from piquet.engine.partie import Partie
from piquet.ui.takebacks import entry, is_choice, refusal, target


def _declaration(action: Action) -> bool:
    return isinstance(action, Declare)


@settings(max_examples=40)
@given(st.data(), parties())
def test_a_fair_takeback_goes_back_past_nothing_the_player_had_not_seen(
        data: st.DataObject, variant: tuple[str, dict[str, object]]) -> None:
    choices: list[bool] = []
    known_before: list[tuple[CardSet, CardSet, CardSet]] = []
    checked = [0]

    def before(p: Partie, action: Action) -> None:
        choices.append(is_choice(p, action))
        known_before.append(knowledge(p))

    def after(p: Partie) -> None:
        for seat in (0, 1):
            for automatic in (None, _declaration):
                keep = target(p, choices, seat, "fair", automatic)
                if keep is None:
                    continue
                checked[0] += 1
                taken = p.actions[keep:]
                # His own moves only, the last one a decision with a choice, and nothing he saw since.
                assert all(a.player == seat for a in taken) and choices[keep]
                assert knowledge(p)[seat] == known_before[keep][seat]
                assert automatic is None or not isinstance(p.actions[keep], Declare)

    drive(Drawn(data), variant[0], variant[1], before=before, after=after, max_deals=2)


@settings(max_examples=25)
@given(st.data())
def test_a_free_takeback_goes_to_the_last_choice_and_never_to_a_chance_event_or_a_forced_card(
        data: st.DataObject) -> None:
    choices: list[bool] = []
    forced: list[bool] = []

    def before(p: Partie, action: Action) -> None:
        choices.append(is_choice(p, action))
        listed = list(p.legal_actions(action.player)) if not isinstance(action, (Cut, Deal)) else []
        forced.append(isinstance(action, Play) and len(listed) == 1)

    def after(p: Partie) -> None:
        for seat in (0, 1):
            keep = target(p, choices, seat, "free")
            mine = [i for i, a in enumerate(p.actions) if a.player == seat and choices[i]]
            assert keep == (mine[-1] if mine and not p.is_over else None)
            if keep is not None:
                assert not isinstance(p.actions[keep], (Cut, Deal, ChooseDealer)) and not forced[keep]
                noted = entry(p.actions, keep, p.players[seat])
                deals = [i for i, a in enumerate(p.actions[:keep]) if isinstance(a, Deal)]
                assert noted == {"player": p.players[seat], "deal": len(deals), "action": keep - deals[-1] - 1,
                                 "undone": len(p.actions) - keep}
            assert target(p, choices, seat, "off") is None

    drive(Drawn(data), before=before, after=after, max_deals=2)


def test_the_reasons_a_takeback_is_refused_are_for_the_player() -> None:
    partie = Partie(("Ann", "Computer"), first_dealer=1)
    assert refusal(partie, [], 0, "off") == "this game allows no takebacks (chosen when it was created)"
    assert refusal(partie, [], 0, "free").startswith("there is nothing of yours to take back")
    assert refusal(partie, [], 0, "fair").startswith("there is nothing of yours to take back")
