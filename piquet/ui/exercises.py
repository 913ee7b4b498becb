"""``piquet exercises ANNOTATED.json``: a player's worst decisions from a review, practised again in the terminal.

Each exercise (:mod:`piquet.coach.exercises`) shows the position as the player saw it (his own view only: his hand,
what was shown and played, the deal so far), the choice he made and its loss, and asks for a better play
(discard, declaration). An answer is graded against the review: right (the best, or as good), wrong (and what it
gives up), or not allowed (the engine's reason); ``show me`` gives the best and the review's explanation. Input
and output are injectable, as in :mod:`piquet.ui.terminal`, whose drawing of cards this module reuses::

    run(exercises, console=Console(file=io.StringIO()), input_fn=answers)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from piquet.coach.exercises import (
    AnswerError,
    Exercise,
    Grade,
    Verdict,
    doing,
    grade,
    read_answer,
    show_me,
    valued_again,
)
from piquet.coach.review import Lens
from piquet.engine.actions import Action, Bid, Declare, Play
from piquet.engine.words import deal_lines
from piquet.ui.menus import declaration_menu, describe_declaration
from piquet.ui.terminal_text import card_text, cards_text, pretty_tokens, status_panel

__all__ = ["InputFn", "position", "run", "task_lines"]

InputFn = Callable[[str], str]

_HELP = """\
Type a better choice than the one made: a card (QS, 10S or 10♠), a discard (KD 9D 8C; 'none' for no card),
a declaration (its number in the list, or its cards, combinations apart by '/': KS QS JS / AC KC QC;
'nothing' to sink or say good), or in Auction Piquet a call (pass, double, redouble, 8+, 7-).
  show me   the best, and why (then the next exercise)
  next      the next exercise
  help      this help
  quit      stop"""

_STYLES = {Grade.RIGHT: "green", Grade.WRONG: "yellow", Grade.ILLEGAL: "red", Grade.UNGRADED: "yellow"}


class _Quit(Exception):
    """The person asked to stop (quit, or the end of the input)."""


def position(exercise: Exercise) -> Panel:
    """The table at the exercise's decision as its player saw it: his view only (no card he could not know)."""
    return status_panel(exercise.view, exercise.names)


def _menu(exercise: Exercise) -> list[Declare]:
    return declaration_menu(exercise.partie, exercise.seat) if isinstance(exercise.choice, Declare) else []


def task_lines(exercise: Exercise) -> list[Text]:
    """The choice made, its mark and loss, and the task with what may be answered (the player's own cards)."""
    lens = exercise.lens
    average = " on average" if lens is Lens.FAIR else ""
    loss = f"{exercise.loss:.0f}" if lens is Lens.OPEN else f"{exercise.loss:g}"
    mark = {"??": "a blunder (??)", "?": "a mistake (?)", "?!": "an inaccuracy (?!)"}.get(exercise.mark, "a loss")
    lines = [Text.assemble("Your choice here: ", (doing(exercise.choice, exercise.leading), "bold"),
                           f": {mark}, {loss} point{'' if loss == '1' else 's'} lost{average}.")]
    task = Text(f"{exercise.task}", style="bold")
    view = exercise.view
    if isinstance(exercise.choice, Play):
        cards = [a.card for a in exercise.partie.legal_actions(exercise.seat) if isinstance(a, Play)]
        if view.trick:
            task.append(" to ")
            task.append_text(card_text(view.trick[0]))
        task.append(": ")
        task.append_text(cards_text(cards, sep="  "))
        lines.append(task)
    elif isinstance(exercise.choice, Declare):
        lines.append(task.append(":"))
        for i, option in enumerate(_menu(exercise), start=1):
            words = describe_declaration(option.category, option.combinations) if option.combinations else "nothing"
            lines.append(Text(f"  {i}. ") + pretty_tokens(words))
    elif isinstance(exercise.choice, Bid):
        calls = [a.call for a in exercise.partie.legal_actions(exercise.seat) if isinstance(a, Bid)]
        lines.append(task.append(f": {', '.join(calls)}."))
    else:
        lo, hi = view.exchange_range or (0, 0)
        span = f"{lo}" if lo == hi else f"{lo} to {hi}"
        lines.append(task.append(f": discard {span} card{'s' if hi != 1 else ''} (e.g. 7D 8C 9H)."))
    return lines


def _read(exercise: Exercise, text: str) -> Action:
    """The answer typed: a declaration's number in the list, or the record's notation."""
    menu = _menu(exercise)
    t = text.strip()
    if menu and t.isascii() and t.isdigit():
        if not 1 <= int(t) <= len(menu):
            raise AnswerError(f"choose 1 to {len(menu)}, or type the cards")
        return menu[int(t) - 1]
    return read_answer(exercise, t)


class _Practice:
    def __init__(self, console: Console, input_fn: InputFn) -> None:
        self.console = console
        self.input_fn = input_fn

    def say(self, text: str | Text, style: str = "") -> None:
        self.console.print(Text(text) if isinstance(text, str) else text, style=style, highlight=False)

    def ask(self, prompt: str) -> str:
        try:
            return self.input_fn(prompt)
        except (EOFError, KeyboardInterrupt):
            self.say("")
            raise _Quit from None

    def exercise(self, exercise: Exercise, number: int, total: int) -> str:
        """Practise one exercise: ``"right"``, ``"shown"`` or ``"skipped"``."""
        self.say("")
        where = f"deal {exercise.deal}"
        if isinstance(exercise.choice, Play):
            where += f", trick {len(exercise.view.tricks) + 1}"
        self.say(Text(f"Exercise {number} of {total}: {where}, {exercise.names[exercise.seat]}'s {exercise.kind}",
                      style="bold"))
        self.console.print(position(exercise))
        lines = list(deal_lines(exercise.view.log, exercise.names))
        if lines:
            self.say("The deal so far:", style="dim")
            for line in lines:
                self.say(Text("  ") + pretty_tokens(line))
        for told in task_lines(exercise):
            self.say(told)
        last: Verdict | None = None
        prompt = f"Your {exercise.kind} (or 'show me', 'next', 'help', 'quit')> "
        while True:
            word = " ".join(self.ask(prompt).lower().split())
            if word in ("quit", "exit", "q"):
                raise _Quit
            if word in ("help", "?"):
                self.say(_HELP)
                continue
            if word in ("next", "skip"):
                return "skipped"
            if word in ("show me", "show", "showme"):
                self.say(pretty_tokens(show_me(exercise)), style="magenta")
                if last is not None and last.explanation:
                    self.say(pretty_tokens(f"Your answer: {last.explanation}"), style="magenta")
                return "shown"
            try:
                answer = _read(exercise, word)
            except AnswerError as e:
                self.say(f"Sorry: {e}", style="red")
                continue
            if valued_again(exercise, answer):
                self.say("Valuing your answer as the review valued the decision...", style="dim")
            verdict = grade(exercise, answer)
            self.say(pretty_tokens(verdict.said), style=_STYLES[verdict.grade])
            if verdict.grade is Grade.RIGHT:
                return "right"
            if verdict.grade is Grade.WRONG:
                last = verdict
                self.say("Try again, or type 'show me'.", style="dim")


def run(found: Sequence[Exercise], console: Console | None = None, input_fn: InputFn | None = None) -> int:
    """Practise ``found`` (:func:`piquet.coach.exercises.exercises`) one after the other; returns the exit status."""
    console = console or Console(highlight=False)
    out = console

    def ask_console(prompt: str) -> str:
        return out.input(Text(prompt, style="bold"))

    practice = _Practice(console, input_fn or ask_console)
    if not found:
        practice.say("Nothing to practise: the review found no decision of this player's worse than the best.")
        return 0
    name = found[0].names[found[0].seat]
    practice.say(Text(f"{len(found)} of {name}'s worst decision{'s' if len(found) != 1 else ''}, the worst first. "
                     "Type 'help' at any prompt.", style="bold"))
    outcomes: list[str] = []
    try:
        for number, exercise in enumerate(found, start=1):
            outcomes.append(practice.exercise(exercise, number, len(found)))
    except _Quit:
        pass
    right = outcomes.count("right")
    practice.say("")
    practice.say(f"Found {right} of {len(outcomes)} exercise{'s' if len(outcomes) != 1 else ''} tried"
                f"{f' ({len(found)} in all)' if len(outcomes) < len(found) else ''}.")
    return 0
