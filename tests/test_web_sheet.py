"""The score sheet says what happened (issue 36): each deal's row the server sends carries its feats (carte blanche,
repique, pique, capot: Laws 31, 66, 68, 69), an Auction contract's outcome (made, or down by how many; doubled or
redoubled: Lunn's laws), and in Piquet au Cent the game won in the deal, as data and as notes in the seat's language;
the terminal's sheet writes the same notes."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from helpers import CB_ANN, CB_BILL, CB_TALON, base, dealt, run
from test_auction import nine
from test_law_reckoning_play import BILL_WINNERS, FULL_BILL, bill_leads

from piquet.engine import record
from piquet.engine.partie import Partie
from piquet.ui.web.protocol import sheet_rows, view_data

RECORDS = Path(__file__).parent / "records"


def repique_and_capot() -> Partie:
    """The BASE deal: Bill (elder) declares a point of six, a sixième and two quatorzes (repique), then leads his
    winners and takes every trick (capot)."""
    p = base()
    run(p, [*FULL_BILL])
    bill_leads(p, BILL_WINNERS)
    assert p.deal_scores
    return p


def test_a_repique_and_a_capot_are_on_the_deal_s_row_in_each_language() -> None:
    p = repique_and_capot()
    row = view_data(p.view(0))["sheet"][0]
    assert row["feats"] == [{"feat": "repique", "player": 1}, {"feat": "capot", "player": 1}]
    assert row["notes"] == "repique to Bill; capot to Bill"
    assert row["contract"] is None and row["outcome"] is None and row["game"] is None
    french = view_data(p.view(0), "fr")["sheet"][0]
    assert french["notes"] == "repic pour Bill ; capot pour Bill"
    assert french["feats"] == row["feats"]


def test_carte_blanche_is_on_the_deal_s_row() -> None:
    p = dealt(CB_ANN, CB_BILL, CB_TALON)
    run(p, ["Bill: cb 3"])  # Bill (elder) announces carte blanche and will take three
    while not p.deal_scores:
        p.push(next(iter(p.legal_actions())))
    row = sheet_rows(p.view(1))[0]
    assert {"feat": "carte_blanche", "player": 1} in row["feats"]
    assert row["notes"].startswith("carte blanche to Bill")
    assert sheet_rows(p.view(1), "fr")[0]["notes"].startswith("cartes blanches pour Bill")


def test_an_auction_contract_down_two_says_so_doubled_or_not() -> None:
    # Bill wins exactly nine tricks: 11+ is down two.
    plain = sheet_rows(nine(["Bill: bid 11+", "Ann: bid pass"]).view(0))[0]
    assert plain["contract"] == "11+"
    assert plain["outcome"] == {"holder": 1, "bid": "11+", "doubles": 0, "margin": -2}
    assert plain["notes"] == "11+ down two"
    doubled = nine(["Bill: bid 11+", "Ann: bid double", "Bill: bid pass"])
    row = sheet_rows(doubled.view(0))[0]
    assert row["outcome"] == {"holder": 1, "bid": "11+", "doubles": 1, "margin": -2}
    assert row["notes"] == "11+ doubled down two"
    assert sheet_rows(doubled.view(0), "fr")[0]["notes"] == "11+ contré chuté de deux"
    assert sheet_rows(doubled.view(0), "fr")[0]["contract"] == "11+ contré"


def test_an_auction_contract_made_with_overtricks_redoubled() -> None:
    p = nine(["Bill: bid 8+", "Ann: bid double", "Bill: bid redouble"])
    row = sheet_rows(p.view(1))[0]
    assert row["outcome"] is not None and row["outcome"]["margin"] == 1 and row["outcome"]["doubles"] == 2
    assert row["notes"] == "8+ redoubled made, 1 overtrick"
    exact = sheet_rows(nine(["Bill: bid 9+", "Ann: bid pass"]).view(1))[0]
    assert exact["notes"] == "9+ made"


def test_an_au_cent_row_names_the_game_won_in_its_deal() -> None:
    partie = record.loads((RECORDS / "au-cent-game.json").read_text(encoding="utf-8"))
    rows = sheet_rows(partie.view(0))
    games = [row for row in rows if row["game"] is not None]
    assert len(games) == len(partie.games) >= 1
    for row, game in zip(games, partie.games, strict=True):
        assert row["deal"] == game.deal
        assert row["game"] == {"winner": game.winner, "double": game.double, "reached": list(game.reached)}
        kind = "a double game" if game.double else "the game"
        winner, loser = partie.players[game.winner], partie.players[1 - game.winner]
        assert (f"{winner} reaches {game.reached[game.winner]} with {loser} at {game.reached[1 - game.winner]} "
                f"and wins {kind}") in row["notes"]


def test_the_terminal_sheet_writes_the_same_notes() -> None:
    # The terminal is the terminal extra's (rich): the web tests also run where only the web extra is installed.
    console = pytest.importorskip("rich.console")
    from piquet.ui.terminal import _Game

    p = nine(["Bill: bid 11+", "Ann: bid double", "Bill: bid pass"])
    out = io.StringIO()
    game = _Game(console.Console(file=out, width=200), lambda _prompt: "", p, seed=1, record_path=None, level=1)
    game.score_sheet()
    assert "11+ doubled down two" in out.getvalue()
