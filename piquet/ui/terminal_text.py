"""The terminal's drawing of the game (with ``rich``): cards, hands, a player's table, and the words the table
shows beside them; shared by ``piquet play`` (:mod:`piquet.ui.terminal`) and the exercises
(:mod:`piquet.ui.exercises`). Each shows a player's view, never a card he may not know."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from piquet.engine.actions import Bid
from piquet.engine.cards import Card, CardSet, Suit
from piquet.engine.combinations import Category, number_word
from piquet.engine.partie import Phase
from piquet.engine.variants import Contract
from piquet.engine.view import PlayerView
from piquet.ui.menus import describe_declaration

__all__ = ["auction_text", "card_text", "cards_text", "contract_holder", "contract_text", "describe_combos",
           "hand_text", "points_text", "pretty_tokens", "reckon", "status_panel"]

#: A card in record notation ("AS") or drawn ("A♠") within a line of speech.
CARD_TOKEN = re.compile(r"\b[AKQJT987][SHDC]\b|(?<![\w])(?:10|[AKQJ987])[♠♥♦♣]")


def card_text(card: Card) -> Text:
    return Text(card.pretty(), style="bold red" if card.suit.is_red else "bold")


def cards_text(cards: CardSet | Sequence[Card], sep: str = " ") -> Text:
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(card))
    return out


def hand_text(hand: CardSet) -> Text:
    """The hand by suit, a wider gap between suits."""
    out = Text()
    for suit in Suit:
        cards = hand.suit(suit)
        if not cards:
            continue
        if out:
            out.append("   ")
        out.append_text(cards_text(cards))
    return out if out else Text("(none)", style="dim")


def pretty_tokens(text: str) -> Text:
    """Speech with any card in record notation ("AS") drawn as a coloured card."""
    out = Text()
    pos = 0
    for m in CARD_TOKEN.finditer(text):
        out.append(text[pos : m.start()])
        out.append_text(card_text(Card.parse(m.group(0))))
        pos = m.end()
    out.append(text[pos:])
    return out


def reckon(points: int, total: int) -> str:
    if total == points:
        return number_word(points).capitalize() + "."
    return f"{number_word(points).capitalize()}, {number_word(total)}."


def describe_combos(category: Category, combos: Sequence[CardSet]) -> Text:
    return pretty_tokens(describe_declaration(category, combos))


def points_text(x: float) -> str:
    """Points of the deal as the review gives them: to a tenth, whole where they are.

    >>> points_text(23.25), points_text(1.0)
    ('23.2 points', '1 point')
    """
    text = f"{x:.1f}".removesuffix(".0")
    return f"{text} point{'' if text == '1' else 's'}"


def auction_text(bids: Sequence[Bid], names: Sequence[str]) -> str:
    """The calls of an auction so far: "Computer 7+, You 8-, Computer double"."""
    return ", ".join(f"{names[b.player]} {b.call}" for b in bids)


def contract_holder(contract: Contract | None, names: Sequence[str]) -> str:
    """The contract and its holder, "8- doubled (You)"; "" with no contract."""
    if contract is None:
        return ""
    return f"{contract} ({names[contract.holder]})"


def contract_text(view: PlayerView, names: Sequence[str]) -> str:
    contract = view.contract
    assert contract is not None
    who = "you" if contract.holder == view.seat else names[contract.holder]
    aim = "lose" if contract.minus else "win"
    text = f"{contract}: {who} must {aim} {contract.tricks} tricks"
    if contract.minus:
        text += "; both score for tricks lost, and for the other's combinations"
    return text


def status_panel(view: PlayerView, names: tuple[str, str]) -> Panel:
    """The table as a player sees it: the deal and his role, the scores, the auction and the contract, the talon,
    what he discarded and what he was shown, the trick and his hand (his view only: no card he may not know)."""
    you = view.seat
    assert you is not None
    him = 1 - you
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold cyan", justify="right")
    grid.add_column()

    def row(label: str, value: str | Text) -> None:
        grid.add_row(Text(label), Text(value) if isinstance(value, str) else value)

    rules = view.rules
    dealt = " (you dealt)" if view.dealer == you else ""
    if view.phase is Phase.BID:
        role = ("you bid first" if view.elder == you else f"{names[him]} bids first") + dealt
    else:
        role = ("you are elder" if view.elder == you else "you are younger") + dealt
    if rules.plays_games:
        row("Deal", f"{view.deal_number}, game {len(view.games) + 1}; {role}")
    else:
        n = view.counted_deals + 1
        last = rules.deals_in_partie
        of = f" of {last}" if n <= last else " (an extra deal after a tie)"
        row("Deal", f"{n}{of}; {role}")
    a, b = view.deal_points
    if rules.plays_games:
        won = view.games_won
        row("Score", f"this deal {names[you]} {(a, b)[you]}, {names[him]} {(a, b)[him]};  "
                     f"game {names[you]} {view.game_scores[you]}, {names[him]} {view.game_scores[him]} "
                     f"(to {getattr(rules, 'game_target', 100)})")
        row("Games won", f"{names[you]} {won[you]}, {names[him]} {won[him]} "
                         f"(the first to {rules.games_to_win} wins the partie)")
    else:
        row("Score", f"this deal {names[you]} {(a, b)[you]}, {names[him]} {(a, b)[him]};  "
                     f"partie {names[you]} {view.totals[you]}, {names[him]} {view.totals[him]}")
    if view.phase is Phase.BID:
        row("Auction", auction_text(view.bids, names) or "no call yet")
    if view.contract is not None:
        row("Contract", contract_text(view, names))
    talon = Text(f"{view.talon_left} card{'s' if view.talon_left != 1 else ''} left")
    if view.peeked:
        talon.append("; you looked at ")
        talon.append_text(cards_text(view.peeked))
        taken = view.exchanged[1 - view.elder]
        if taken is not None and taken >= len(view.peeked):
            talon.append(f" ({names[him]} drew them)")
    if view.rest:
        talon.append("; shown: ")
        talon.append_text(cards_text(view.rest))
    row("Talon", talon)
    if view.discards:
        row("Your discards", cards_text(view.discards))
    shown = (view.revealed[him] | view.shown_dealt[him]) - view.played
    if shown:
        row(f"{names[him]} holds", cards_text(shown))
    if view.phase is Phase.PLAY:
        row("Tricks", f"{names[you]} {view.tricks_won[you]}, {names[him]} {view.tricks_won[him]}")
        if view.trick:
            trick = Text(f"{names[view.leader]} led ")
            trick.append_text(card_text(view.trick[0]))
            row("Trick", trick)
    row("Your hand", hand_text(view.hand))
    title = f"{rules.title}: {names[you]} v {names[him]}"
    return Panel(grid, title=Text(title), expand=False)

