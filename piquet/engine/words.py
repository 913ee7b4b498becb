"""The commentary of a deal in the traditional calls, read from its log.

Calls and answers are quoted as said ("Point of five." - "Not good."); each
player's reckoning is said as the running total of the deal ("Five, and
sixteen, twenty-one."), with what it was for in brackets for the learner.

>>> from piquet.engine.view import Speech
>>> from piquet.engine.scoring import ScoreEvent, ScoreCategory
>>> log = (Speech(1, "Point of five."), Speech(0, "Good."),
...        ScoreEvent(1, 5, ScoreCategory.POINT, "point of five"),
...        Speech(1, "Sixième."), Speech(0, "Good."),
...        ScoreEvent(1, 16, ScoreCategory.SEQUENCES, "sixième to the king"),
...        ScoreEvent(1, 3, ScoreCategory.SEQUENCES, "tierce to the queen"))
>>> for line in deal_lines(log, ("Ann", "Bill")): print(line)
Bill: "Point of five."
Ann: "Good."
Bill: "Five." [point of five 5]
Bill: "Sixième."
Ann: "Good."
Bill: "Sixteen, twenty-one, and three, twenty-four." [sixième to the king 16; tierce to the queen 3]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from piquet.engine.cards import Card
from piquet.engine.combinations import number_word
from piquet.engine.scoring import ScoreCategory, ScoreEvent
from piquet.engine.view import Speech

__all__ = ["deal_lines", "partie_lines"]


def _reckoning(events: Sequence[ScoreEvent], before: int) -> str:
    words = []
    total = before
    for i, e in enumerate(events):
        total += e.points
        if total == e.points and i == 0:
            words.append(number_word(e.points).capitalize())
        elif i == 0:
            words.append(f"{number_word(e.points).capitalize()}, {number_word(total)}")
        else:
            words.append(f"and {number_word(e.points)}, {number_word(total)}")
    return ", ".join(words) + "."


def deal_lines(log: Iterable[Speech | ScoreEvent], names: tuple[str, str]) -> Iterator[str]:
    """The lines of one deal's commentary: the calls as said, then a line per trick."""
    totals = [0, 0]
    pending: list[ScoreEvent] = []
    trick: list[tuple[int, Card]] = []
    trick_events: list[ScoreEvent] = []
    number = 0

    def flush() -> Iterator[str]:
        if not pending:
            return
        who = pending[0].player
        text = _reckoning(pending, totals[who])
        why = "; ".join(f"{e.reason} {e.points}" for e in pending)
        totals[who] += sum(e.points for e in pending)
        pending.clear()
        yield f'{names[who]}: "{text}" [{why}]'

    def trick_line() -> str:
        (leader, lead), (second, card) = trick
        winner = second if card.suit == lead.suit and card.rank > lead.rank else leader
        for e in trick_events:
            totals[e.player] += e.points
        extras = [f"{names[e.player]} {e.reason} {e.points}" for e in trick_events
                  if e.category is not ScoreCategory.PLAY or e.reason == "the last trick"]
        extra = f" ({'; '.join(extras)})" if extras else ""
        trick.clear()
        trick_events.clear()
        return (f"Trick {number}: {names[leader]} leads {lead.pretty()}, {names[second]} plays {card.pretty()}; "
                f"{names[winner]} wins{extra}. {names[0]} {totals[0]}, {names[1]} {totals[1]}.")

    for entry in log:
        if isinstance(entry, ScoreEvent):
            if number and (trick or entry.category is not ScoreCategory.CARDS or trick_events):
                trick_events.append(entry)
                continue
            if pending and pending[-1].player != entry.player:
                yield from flush()
            pending.append(entry)
            continue
        if entry.kind == "play" and entry.speaker is not None:
            yield from flush()
            if len(trick) == 2 or (not trick and trick_events):
                yield trick_line()
            if not trick:
                number += 1
            trick.append((entry.speaker, Card.parse(entry.text)))
            continue
        if trick and len(trick) == 2:
            yield trick_line()
        yield from flush()
        if entry.speaker is None:
            yield entry.text
        else:
            yield f'{names[entry.speaker]}: "{entry.text}"'
    if len(trick) == 2:
        yield trick_line()
    yield from flush()


def partie_lines(logs: Iterable[Sequence[Speech | ScoreEvent]], names: tuple[str, str]) -> Iterator[str]:
    """The commentary of every deal, a blank line between deals."""
    for i, log in enumerate(logs):
        if i:
            yield ""
        yield from deal_lines(log, names)
