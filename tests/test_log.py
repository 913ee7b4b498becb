"""The partie's log: typed events, the same for both players and the spectator, with each trick's winner in the
card that completes it, and said in the game's English by ``words`` as before the log was typed."""

from __future__ import annotations

from pathlib import Path

import pytest
from drivers import Drawn, current_deal, deals, drive, parties
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.engine.actions import Deal, Play
from piquet.engine.events import CardPlayed
from piquet.engine.partie import Partie, Phase
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


@settings(max_examples=examples(10), deadline=None)
@given(data=st.data(), partie=parties())
def test_each_card_played_is_logged_and_the_second_names_the_tricks_winner(
        data: st.DataObject, partie: tuple[str, dict[str, object]]) -> None:
    drive(Drawn(data), *partie, after=plays_logged, max_deals=2)


#: What a view holds of the deal in progress (the rest of a view is the partie's).
DEAL_FIELDS = ("elder", "hand", "dealt", "discards", "peeked", "rest", "show_rest", "talon_left", "hand_sizes",
               "exchanged", "will_exchange", "carte_blanche", "shown_dealt", "revealed", "own_calls",
               "announcements", "trick", "leader", "tricks", "tricks_won", "events", "bids", "contract")


@settings(max_examples=examples(10), deadline=None)
@given(data=st.data(), partie=parties(), deal=deals())
def test_a_new_deal_starts_afresh_nothing_of_the_last_deal_carried_over(
        data: st.DataObject, partie: tuple[str, dict[str, object]], deal: Deal) -> None:
    p = drive(Drawn(data), *partie, until=lambda q: bool(q.deal_scores) and q.phase is Phase.DEAL)
    if p.is_over:
        return
    assert p.dealer is not None
    deal = Deal(p.dealer, deal.hands, deal.talon, deal.packets if deal.packets in p.legal_packets() else None)
    fresh = Partie(p.players, *partie, first_dealer=p.dealer)
    p.push(deal)
    fresh.push(deal)
    for seat in (0, 1, None):
        played, new = p.view(seat), fresh.view(seat)
        assert {f: getattr(played, f) for f in DEAL_FIELDS} == {f: getattr(new, f) for f in DEAL_FIELDS}
