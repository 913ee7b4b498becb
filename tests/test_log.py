"""The partie's log: typed events, the same for both players and the spectator, with each trick's winner in the
card that completes it, and said in the game's English by ``words`` as before the log was typed."""

from __future__ import annotations

from pathlib import Path

import pytest
from drivers import Drawn, current_deal, drive, parties
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.engine.actions import Play
from piquet.engine.events import CardPlayed
from piquet.engine.partie import Partie
from piquet.engine.record import loads
from piquet.engine.words import partie_lines

RECORDS = Path(__file__).parent / "records"


@pytest.mark.parametrize("name", ["rubicon-deal", "auction-minus-doubled-down", "au-cent-game"])
def test_the_commentary_of_a_recorded_partie_reads_as_the_string_log_read(name: str) -> None:
    # The expected lines were written by the commentary of the log of strings, before the log was typed.
    partie = loads((RECORDS / f"{name}.json").read_text())
    expected = (RECORDS / f"{name}.commentary.txt").read_text().splitlines()
    assert list(partie_lines(partie.logs(), partie.players)) == expected


def plays_logged(p: Partie) -> None:
    """The log is public, and holds each card played in this deal, in order; the card that completes a trick
    names the winner the cards give (from the actions alone) and the partie recorded."""
    log = p.view(None).log
    assert p.view(0).log == p.view(1).log == log
    found = current_deal(p)
    if found is None:
        return
    plays = [a for a in found[1] if isinstance(a, Play)]
    logged = [e for e in log if isinstance(e, CardPlayed)]
    assert [(e.player, e.card) for e in logged] == [(a.player, a.card) for a in plays]
    tricks = p.view(None).tricks
    for i, entry in enumerate(logged):
        if i % 2 == 0:
            assert entry.leads and entry.winner is None
            continue
        lead, card = plays[i - 1], plays[i]
        won = card.card.suit == lead.card.suit and card.card.rank > lead.card.rank
        assert not entry.leads
        assert entry.winner == (card.player if won else lead.player) == tricks[i // 2].winner


@settings(max_examples=10, deadline=None)
@given(data=st.data(), partie=parties())
def test_each_card_played_is_logged_and_the_second_names_the_tricks_winner(
        data: st.DataObject, partie: tuple[str, dict[str, object]]) -> None:
    drive(Drawn(data), *partie, after=plays_logged, max_deals=2)
