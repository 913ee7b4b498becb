"""Progress: a player's finished parties summed up by variant and opponent (each computer level, each friend), drawn
as a picture the server makes (SVG) for the History page.

For each group: the parties won, lost and drawn (a bar of three colours), and on average, from the player's side,
the points a partie (the settlement's points, won or lost) and the points a deal (his total less his opponent's,
over the deals scored). The picture's words are the variant's title and the opponent (the level's name, or the
friend's), in the page's language; the legend is the page's (its catalogue).

>>> rows = groups([{"variant": "rubicon", "title": "Rubicon Piquet", "kind": "computer", "level": 3,
...                 "opponent": "Computer", "seat": 0, "won": True,
...                 "result": {"points": 150, "totals": [120, 90], "deals": 6}}], "en")
>>> rows[0]["label"], rows[0]["won"], rows[0]["points_a_partie"], rows[0]["points_a_deal"]
('Rubicon Piquet · 3, club player', 1, 150.0, 5.0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any, TypedDict

from piquet.ai.levels import LEVEL_NAMES
from piquet.engine.language import words_in

__all__ = ["Group", "groups", "svg"]

#: The picture's colours: won, lost, drawn (told apart by their place and their numbers too, not by colour alone).
WON, LOST, DRAWN = "#2e7d4f", "#b03a2e", "#8d949a"
ROW, LABEL, BAR, FIGURES = 30, 250, 260, 150


class Group(TypedDict):
    """One variant against one opponent: how the player did."""

    variant: str
    opponent: str
    label: str
    parties: int
    won: int
    lost: int
    drawn: int
    points_a_partie: float
    points_a_deal: float


def groups(parties: Sequence[Mapping[str, Any]], lang: str = "en") -> list[Group]:
    """The finished ``parties`` (History's, :class:`piquet.ui.web.history.Party`) summed up by variant and opponent,
    in the order of the variants and levels, the friends after the levels."""
    words = words_in(lang)
    found: dict[tuple[str, int, str], dict[str, Any]] = {}
    for party in parties:
        computer = party["kind"] == "computer" and party["level"] is not None
        opponent = (f"{party['level']}, {words(LEVEL_NAMES[party['level']])}" if computer
                    else str(party["opponent"]))
        key = (party["variant"], 0 if computer else 1, opponent if not computer else f"{party['level']:02}")
        group = found.setdefault(key, {"variant": party["variant"], "opponent": opponent,
                                       "label": f"{party['title']} · {opponent}", "won": 0, "lost": 0, "drawn": 0,
                                       "points": 0, "margin": 0, "deals": 0, "parties": 0})
        result, seat = party["result"], party["seat"]
        won = party["won"]
        group["parties"] += 1
        group["won" if won else "drawn" if won is None else "lost"] += 1
        group["points"] += 0 if won is None else result["points"] if won else -result["points"]
        group["margin"] += result["totals"][seat] - result["totals"][1 - seat]
        group["deals"] += result["deals"]
    return [{"variant": g["variant"], "opponent": g["opponent"], "label": g["label"], "parties": g["parties"],
             "won": g["won"], "lost": g["lost"], "drawn": g["drawn"],
             "points_a_partie": round(g["points"] / g["parties"], 1),
             "points_a_deal": round(g["margin"] / max(1, g["deals"]), 1)} for _, g in sorted(found.items())]


def _signed(x: float) -> str:
    return f"{x:+.1f}".replace("+0.0", "0.0").replace("-0.0", "0.0")


def svg(rows: Sequence[Group]) -> str:
    """The picture of ``rows``: a row a group, its label, a bar of its parties won, lost and drawn (to one scale for
    every row, the numbers inside), and its averages, points a partie and a deal. Empty for no rows."""
    if not rows:
        return ""
    most = max(r["parties"] for r in rows)
    width, height = LABEL + BAR + FIGURES, ROW * len(rows) + 8
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="100%" '
             f'class="progress-plot" data-testid="progress-plot" font-family="system-ui, sans-serif" font-size="13" '
             'fill="#1f2a24">']
    for i, row in enumerate(rows):
        y = 4 + i * ROW
        parts.append(f'<g data-testid="progress-row" data-won="{row["won"]}" data-lost="{row["lost"]}" '
                     f'data-drawn="{row["drawn"]}">')
        parts.append(f'<text x="0" y="{y + 19}">{escape(row["label"])}</text>')
        x = float(LABEL)
        for count, colour in ((row["won"], WON), (row["lost"], LOST), (row["drawn"], DRAWN)):
            if count:
                w = (BAR - 10) * count / most
                parts.append(f'<rect x="{x:.1f}" y="{y + 4}" width="{w:.1f}" height="{ROW - 10}" fill="{colour}"/>')
                if w >= 16:
                    parts.append(f'<text x="{x + w / 2:.1f}" y="{y + 19}" fill="#fff" text-anchor="middle">'
                                 f'{count}</text>')
                x += w
        parts.append(f'<text x="{LABEL + BAR}" y="{y + 19}">{_signed(row["points_a_partie"])} / '
                     f'{_signed(row["points_a_deal"])}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
