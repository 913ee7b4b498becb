"""The rule facts the browser page shows come from the engine in the state (``view.games_won``,
``view.rules``, and ``table.rules`` from the start), so the page reckons no rule itself (docs/protocol.md)."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import connect, create, db, join, query

from piquet.ai.agent import RandomAgent, play_deal, play_partie
from piquet.engine.actions import Concede
from piquet.engine.partie import Partie, Phase
from piquet.engine.variants import VARIANTS, AuCent
from piquet.ui.web.app import create_app
from piquet.ui.web.protocol import view_data


def _noting(states: list[tuple[tuple[int, int], list[int]]]) -> Callable[[Partie], None]:
    """After each action: the games won as the engine counts them, and as the view says them."""
    return lambda p: states.append((p.games_won(), view_data(p.view(None))["games_won"]))


def test_games_won_in_the_view_are_the_partie_s_with_a_double_game_counting_two() -> None:
    seen_double = False
    for seed in range(6):
        states: list[tuple[tuple[int, int], list[int]]] = []
        agents = (RandomAgent(random.Random(seed)), RandomAgent(random.Random(seed + 100)))
        partie = play_partie(agents, random.Random(seed), variant="au-cent", on_action=_noting(states))
        for engine, page in states:
            assert page == list(engine)
        final = view_data(partie.view(None))
        assert max(final["games_won"]) >= 3
        seen_double = seen_double or any(g["double"] for g in final["games"])
    assert seen_double, "no double game among the seeds: the test would not see one count two"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_view_carries_the_variant_s_rules_as_the_engine_has_them(variant: str) -> None:
    partie = Partie(("Ann", "Bill"), variant, first_dealer=0)
    rules = view_data(partie.view(0))["rules"]
    cls = VARIANTS[variant]
    assert rules["plays_games"] is cls.plays_games
    assert rules["games_to_win"] == cls.games_to_win
    assert rules["game_target"] == (AuCent.game_target if cls is AuCent else None)
    assert rules["cards_points"] == cls.cards_points
    assert rules["carte_blanche_points"] == cls.carte_blanche_points
    assert view_data(partie.view(0))["games_won"] == [0, 0]


def test_the_concession_s_points_in_the_rules_are_what_the_engine_scores_for_it() -> None:
    for seed in range(20):
        partie = Partie(("Ann", "Bill"), first_dealer=0)
        players = tuple(RandomAgent(random.Random(seed * 2 + s)) for s in (0, 1))
        for d in range(5):
            play_deal(partie, players, random.Random(seed * 10 + d))
        partie.push(partie.random_deal(random.Random(seed)))
        while partie.phase is not Phase.PLAY:
            seat = partie.to_act
            assert seat is not None
            partie.push(players[seat].choose(partie.view(seat), partie.legal_actions(seat)))
        loser = next((s for s in (0, 1) if partie.can(Concede(s))), None)
        if loser is not None:
            break
    else:  # pragma: no cover - the seeds above find one
        pytest.fail("no last deal where a player may concede")
    rules = view_data(partie.view(loser))["rules"]
    before = partie.view(None).deal_points[1 - loser]
    partie.push(Concede(loser))
    conceded = [e for e in partie.view(None).events if e.player == 1 - loser and e.reason.startswith("conceded")]
    assert [e.points for e in conceded] == [rules["conceded_play"], rules["cards_points"]]
    assert partie.view(None).deal_points[1 - loser] - before >= rules["conceded_play"] + rules["cards_points"]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_table_in_every_state_carries_the_variant_s_rules_a_waiting_room_s_included(
        variant: str, tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path), workers=0)) as http, ExitStack() as stack:
        created = create(http, "room", variant=variant, name="Ann")
        ann = connect(http, stack, created, f"token={created['token']}", "Ann")
        waiting = ann.current
        assert waiting["table"]["status"] == "waiting" and waiting["view"] is None
        rules = waiting["table"]["rules"]
        cls = VARIANTS[variant]
        assert rules["bidding"] is cls.uses_bidding is (variant == "auction")
        assert rules["plays_games"] is cls.plays_games is (variant == "au-cent")
        assert (rules["games_to_win"], rules["game_target"]) == (cls.games_to_win, cls.game_target)
        # Once the partie starts the view's rules are the same facts.
        bill = connect(http, stack, created, query(created["links"]["invite"]), "Bill")
        join(bill)
        started = ann.until(lambda m: m["type"] == "state" and m["view"] is not None)
        assert started["table"]["rules"] == started["view"]["rules"] == rules
