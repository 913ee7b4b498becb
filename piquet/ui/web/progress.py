"""Progress: a player's finished parties summed up by variant and opponent (each computer level, each friend), drawn
as a picture the server makes (SVG) for the History page; and, from the review of each (:mod:`piquet.ui.web.phases`),
the points he lost a decision in each phase of the deal, partie after partie, with the level of the computer his play
resembles (:func:`phase_rows`, :func:`phases_svg`).

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
from piquet.coach.ladder import describe, played_like
from piquet.coach.phases import PHASES, PhaseLosses
from piquet.engine.language import words_in
from piquet.engine.variants import VARIANTS

__all__ = ["Group", "PhasePoint", "PhaseRow", "groups", "phase_rows", "phases_svg", "svg"]

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


class PhasePoint(TypedDict):
    """One partie reviewed: when it ended, its deals, the points lost a decision in each phase (``None``: no decision
    there was a choice) and the points lost a deal."""

    id: str
    finished: float
    deals: int
    per_decision: dict[str, float | None]
    lost_a_deal: float


class PhaseRow(TypedDict):
    """One variant's parties reviewed, oldest first, and over them all: the points lost a decision in each phase,
    the points lost a deal, and the level of the ladder that places (:func:`piquet.coach.ladder.played_like`)."""

    variant: str
    title: str
    parties: list[PhasePoint]
    per_decision: dict[str, float | None]
    lost_a_deal: float
    played_like: float
    played_like_words: str


def phase_rows(parties: Sequence[Mapping[str, Any]], reviewed: Mapping[tuple[str, int], PhaseLosses],
               lang: str = "en") -> list[PhaseRow]:
    """The finished ``parties`` (History's) whose seat was ``reviewed`` (by ``(table id, seat)``), by variant in the
    order of the variants, each variant's parties in the order they ended."""
    words = words_in(lang)
    by_variant: dict[str, list[tuple[Mapping[str, Any], PhaseLosses]]] = {}
    for party in parties:
        losses = reviewed.get((party["id"], party["seat"]))
        if losses is not None:
            by_variant.setdefault(party["variant"], []).append((party, losses))
    rows: list[PhaseRow] = []
    for variant in (v for v in VARIANTS if v in by_variant):
        found = sorted(by_variant[variant], key=lambda pair: float(pair[0]["finished"]))
        total = PhaseLosses()
        points: list[PhasePoint] = []
        for party, losses in found:
            total += losses
            points.append({"id": party["id"], "finished": party["finished"], "deals": losses.deals,
                           "per_decision": {p: losses.per_decision(p) for p in PHASES},
                           "lost_a_deal": losses.lost_a_deal})
        rows.append({"variant": variant, "title": words(VARIANTS[variant].title), "parties": points,
                     "per_decision": {p: total.per_decision(p) for p in PHASES}, "lost_a_deal": total.lost_a_deal,
                     "played_like": round(played_like(total.lost_a_deal), 2),
                     "played_like_words": describe(total.lost_a_deal, lang=lang)})
    return rows


#: Each phase's line: its colour, its dashes and its marker (told apart by all three, not by colour alone).
PHASE_STYLE: dict[str, tuple[str, str, str]] = {
    "exchange": ("#1f5fa8", "", "circle"),
    "declarations": ("#a86b00", "7 4", "square"),
    "play": ("#7a2f8f", "2 3", "diamond"),
}
PHASE_NAMES = {"exchange": "Exchange", "declarations": "Declarations", "play": "Play"}
PLOT_WIDTH, PLOT_HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 660, 250, 52, 16, 34, 34


def _number(x: float, lang: str) -> str:
    text = f"{x:.2f}"
    return text.replace(".", ",") if lang == "fr" else text


def _step(most: float) -> float:
    """A round step for about four gridlines up to ``most``."""
    for step in (0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 25, 50, 100):
        if most / step <= 5:
            return step
    return 200.0


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    if shape == "square":
        return f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="{colour}"/>'
    if shape == "diamond":
        return (f'<path d="M{x:.1f} {y - 5.5:.1f}L{x + 5.5:.1f} {y:.1f}L{x:.1f} {y + 5.5:.1f}L{x - 5.5:.1f} {y:.1f}Z" '
                f'fill="{colour}"/>')
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="{colour}"/>'


def phases_svg(row: PhaseRow, lang: str = "en") -> str:
    """The picture of one variant's :class:`PhaseRow`: the points lost a decision in each phase (a line a phase),
    partie after partie from the left (the oldest) to the right, to one scale from 0; its title and description
    say it in words (``lang``), and each point's own title its figure."""
    words = words_in(lang)
    points = row["parties"]
    values = [v for p in points for v in p["per_decision"].values() if v is not None]
    step = _step(max([*values, 0.1]))
    top = step * max(1, -(-max([*values, 0.1]) // step))
    inner_w, inner_h = PLOT_WIDTH - LEFT - RIGHT, PLOT_HEIGHT - TOP - BOTTOM

    def x_at(i: int) -> float:
        return LEFT + (inner_w / 2 if len(points) == 1 else inner_w * i / (len(points) - 1))

    def y_at(v: float) -> float:
        return TOP + inner_h * (1 - v / top)

    title = words("Points lost a decision by phase, {variant}: {n} parties reviewed, the oldest on the left",
                  variant=row["title"], n=len(points))
    means = "; ".join(words("{phase}: {value} on average", phase=words(PHASE_NAMES[p]),
                            value="—" if (v := row["per_decision"][p]) is None else _number(v, lang)) for p in PHASES)
    summary = words("Your play, all phases together: {lost} points lost a deal, {like}",
                    lost=_number(row["lost_a_deal"], lang), like=row["played_like_words"])
    ident = f"phases-{escape(row['variant'])}"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {PLOT_WIDTH} {PLOT_HEIGHT}" width="100%" '
             f'role="img" aria-labelledby="{ident}-title {ident}-desc" class="phases-plot" data-testid="phases-plot" '
             f'data-variant="{escape(row["variant"])}" data-played-like="{row["played_like"]}" '
             'font-family="system-ui, sans-serif" font-size="12" fill="#1f2a24">',
             f'<title id="{ident}-title">{escape(title)}</title>',
             f'<desc id="{ident}-desc">{escape(means)}. {escape(summary)}.</desc>']
    tick = 0.0
    while tick <= top + 1e-9:
        y = y_at(tick)
        parts.append(f'<line x1="{LEFT}" x2="{PLOT_WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#d5dbd7"/>'
                     f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{_number(tick, lang)}</text>')
        tick += step
    parts.append(f'<text x="{LEFT}" y="{PLOT_HEIGHT - 10}">{escape(words("older"))}</text>'
                 f'<text x="{PLOT_WIDTH - RIGHT}" y="{PLOT_HEIGHT - 10}" text-anchor="end">'
                 f'{escape(words("newer"))}</text>'
                 f'<text x="{LEFT + inner_w / 2:.1f}" y="{PLOT_HEIGHT - 10}" text-anchor="middle">'
                 f'{escape(words("points lost a decision, partie after partie"))}</text>')
    legend_x = float(LEFT)
    for phase in PHASES:
        colour, dashes, shape = PHASE_STYLE[phase]
        dash = f' stroke-dasharray="{dashes}"' if dashes else ""
        parts.append(f'<line x1="{legend_x:.1f}" x2="{legend_x + 26:.1f}" y1="14" y2="14" stroke="{colour}" '
                     f'stroke-width="2"{dash}/>{_marker(shape, legend_x + 13, 14, colour)}'
                     f'<text x="{legend_x + 32:.1f}" y="18">{escape(words(PHASE_NAMES[phase]))}</text>')
        legend_x += 150
    for phase in PHASES:
        colour, dashes, shape = PHASE_STYLE[phase]
        dash = f' stroke-dasharray="{dashes}"' if dashes else ""
        placed = [(x_at(i), y_at(v), i, v) for i, p in enumerate(points) if (v := p["per_decision"][phase]) is not None]
        parts.append(f'<g data-testid="phases-series" data-phase="{phase}" data-points="{len(placed)}">')
        if len(placed) > 1:
            line = " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in placed)
            parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        for x, y, i, v in placed:
            said = words("Partie {n}, {phase}: {value} points lost a decision", n=i + 1,
                         phase=words(PHASE_NAMES[phase]), value=_number(v, lang))
            parts.append(f'<g data-testid="phases-point" data-value="{v}"><title>{escape(said)}</title>'
                         f'{_marker(shape, x, y, colour)}</g>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
