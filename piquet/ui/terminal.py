"""``piquet play``: a partie of Piquet in the terminal against the computer.

Any variant: Rubicon Piquet (the default), Auction Piquet (an auction before
each deal, plus and minus contracts) or Piquet au Cent (games of a hundred,
the first to win three).

The person plays seat 0 against a computer opponent of the chosen level (:mod:`piquet.ai.levels`). The table is
drawn with ``rich`` (the ``terminal`` extra; with :mod:`piquet.ui.terminal_text`, which draws cards, hands and
the table, and the exercises, the only modules of the package that need it). Every decision is a prompt; at any
prompt ``hint``, ``undo``, ``score``, ``help`` and ``quit`` work too (``undo`` as ``--takebacks`` allows:
``fair`` by default, never back past something the person had not seen; the browser's policy,
:mod:`piquet.ui.takebacks`). Input and output are injectable, so tests drive a whole partie with scripted
answers::

    run(args, console=Console(file=io.StringIO()), input_fn=answers)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table
from rich.text import Text

from piquet.ai.agent import Agent
from piquet.ai.levels import make_agent
from piquet.coach import hints
from piquet.engine import record
from piquet.engine.actions import (
    AcceptConcession,
    Action,
    Bid,
    CarteBlanche,
    ChooseDealer,
    Concede,
    Cut,
    Deal,
    Declare,
    Exchange,
    NotationError,
    Play,
    parse_action,
)
from piquet.engine.cards import Card, CardError, CardSet, shuffled_pack
from piquet.engine.events import CardPlayed, LogEntry
from piquet.engine.partie import IllegalActionError, Partie, Phase
from piquet.engine.scoring import ScoreEvent
from piquet.engine.variants import OptionError, parse_bid, parse_options
from piquet.engine.words import deal_notes, said, second_person
from piquet.ui import takebacks as policy
from piquet.ui.menus import declaration_menu, nothing_words, result_text
from piquet.ui.takebacks import Takeback, Takebacks
from piquet.ui.terminal_text import (
    auction_text,
    card_text,
    cards_text,
    contract_holder,
    contract_text,
    describe_combos,
    points_text,
    pretty_tokens,
    reckon,
    status_panel,
)

__all__ = ["InputFn", "parse_options", "run"]

InputFn = Callable[[str], str]

COMPUTER = "Computer"
HUMAN = 0

_HELP = """\
Type your answer at each prompt. Cards are written rank then suit, in any case:
  AS  KH  QD  JC  10S (or TS)  9h  8♦  7♣
Any decision may also be typed in the game's notation:
  QS (play)  x 7D 8C (discard)  point AS KS QS  sets AS AH AD | KS KH KD  cb 3  bid 8+  concede
Commands, at any prompt:
  hint   the best choice here, why, and by how much it beats the next
  undo   take back your last decision (as --takebacks allows: fair, off or free)
  score  the score sheet
  help   this help
  quit   stop (the record is saved if you gave --record)"""


def _in_notation(text: str) -> Action | None:
    """The person's action written in the game's notation, or ``None`` if ``text`` is not one."""
    try:
        return parse_action(text, HUMAN)
    except (NotationError, CardError):
        return None


class _Quit(Exception):
    """The person asked to stop (quit, end of input or Ctrl-C)."""

    def __init__(self, code: int = 0) -> None:
        super().__init__(code)
        self.code = code


class _UndoRequest(Exception):
    """The person typed ``undo``."""


class _BadInput(ValueError):
    """An answer that could not be read; the message says why."""












#: The narration in the second person for a player called "You" (the engine's words, one home for every command).
_grammar = second_person


def _sentence(reason: str) -> str:
    """A reason given as a clause (``"there is nothing ..."``) as a sentence."""
    return reason[:1].upper() + reason[1:] + ("" if reason.endswith((".", "!", "?")) else ".")








def _yes_no(text: str, default: bool | None) -> bool:
    t = text.strip().lower()
    if not t and default is not None:
        return default
    if t in ("y", "yes"):
        return True
    if t in ("n", "no"):
        return False
    raise _BadInput("answer y or n")








@dataclass
class _Decision:
    """A prompt: how to read the answer, and what the computer would answer. ``words``: an action of this
    decision in words and as typed, where the review values it (the hint then explains its choice)."""

    prompt: str
    parse: Callable[[str], Action | None]
    hint: Callable[[], tuple[str, str]]
    words: Callable[[Action], tuple[str, str]] | None = None


#: The most worlds a hint and the tutor's check value (hands for the play, talons for the exchange, deals for the
#: calls): the review's own; the budget stops them sooner.
HINT_WORLDS = hints.WORLDS


def _spec(level: int, budget: float | None) -> str:
    """The agent of a level, with the thinking time asked for (only levels 3-5 search and take one)."""
    return f"level{level}:budget={budget}" if budget is not None and level >= 3 else f"level{level}"




class _Game:
    def __init__(self, console: Console, input_fn: InputFn, partie: Partie, seed: int,
                 record_path: str | None, level: int = 2, hint_level: int = 2,
                 budget: float | None = None, tutor: float | None = None, takebacks: Takebacks = "fair") -> None:
        self.console = console
        self.input_fn = input_fn
        self.partie = partie
        self.seed = seed
        self.rng = random.Random(seed)
        # The computer plays at the chosen level; hints come from the strongest level asked for.
        self.level = level
        self.agent: Agent = make_agent(_spec(level, budget), seed)
        self.adviser: Agent = make_agent(_spec(hint_level, budget), seed + 1)
        #: The CPU seconds a hint and the tutor's check think (``--budget``, else a level 5's second; 0: no limit).
        self.hint_budget = hints.HINT_BUDGET if budget is None else budget
        #: The tutor's threshold in points (``None``: no tutor).
        self.tutor = tutor
        #: The last hint's best choice, and the decision (the partie's ply) it was for: not questioned by the tutor.
        self.advised: tuple[int, Action] | None = None
        self.record_path = record_path
        self.names = partie.players
        self.computer = 1 - HUMAN
        #: What ``undo`` may take back (:mod:`piquet.ui.takebacks`, the browser's policy too): ``off``, ``fair`` or
        #: ``free``; for each action applied, what a takeback needs to know of it (whether it was a decision with a
        #: choice, where a takeback goes back to); and the takebacks written down (free ones, in the record and
        #: under the score sheet).
        self.takebacks: Takebacks = takebacks
        self.steps: list[policy.Step] = []
        self.taken_back: list[Takeback] = []
        #: Chance events already drawn, so an undone deal comes again the same (its cards whatever the packets).
        self.packs: dict[int, list[Card]] = {}
        self.cuts: dict[int, Cut] = {}
        self.concession_offered: set[int] = set()
        self.log_deal = -1
        self.log_count = 0
        self.scored_deals = len(partie.deal_scores)
        #: The deal whose contract was last announced (Auction Piquet).
        self.contract_shown = -1

    # ------------------------------------------------------------ output
    def say(self, text: str | Text, style: str = "") -> None:
        # Plain strings are not rich markup: a name such as "[Ann]" is printed as it is.
        self.console.print(Text(text) if isinstance(text, str) else text, style=style, highlight=False)

    def flush_log(self) -> None:
        """Print what was said and scored since the last call (the current deal's dialogue)."""
        view = self.partie.view(HUMAN)
        if view.deal_number != self.log_deal:
            self.log_deal, self.log_count = view.deal_number, 0
        log = view.log
        for i in range(self.log_count, len(log)):
            self._render(log, i)
        self.log_count = len(log)

    def _render(self, log: Sequence[LogEntry], i: int) -> None:
        entry = log[i]
        names = self.names
        if isinstance(entry, ScoreEvent):
            total = sum(e.points for e in log[: i + 1] if isinstance(e, ScoreEvent) and e.player == entry.player)
            line = Text(f'  {names[entry.player]}: "{reckon(entry.points, total)}"', style="yellow")
            line.append(second_person(f" [{entry.reason} {entry.points}]", names), style="dim")
            self.say(line)
            return
        if isinstance(entry, CardPlayed):
            verb = "leads" if entry.leads else "plays"
            line = Text(_grammar(f"  {names[entry.player]} {verb} ", names))
            line.append_text(card_text(entry.card))
            line.append(".")
            if entry.winner is not None:
                line.append(_grammar(f"  {names[entry.winner]} wins the trick.", names), style="dim")
            self.say(line)
            return
        for said_line in said(entry, names):
            if said_line.speaker is None:
                self.say(Text("  ") + pretty_tokens(_grammar(said_line.text, names)), style="italic")
            else:
                style = "green" if said_line.speaker == HUMAN else "cyan"
                self.say(Text(f"  {names[said_line.speaker]}: ", style=style) + pretty_tokens(f'"{said_line.text}"'))

    def status(self) -> None:
        """The table as the person sees it."""
        self.console.print(status_panel(self.partie.view(HUMAN), self.names))

    def score_sheet(self) -> None:
        partie = self.partie
        rules = partie.rules
        names = self.names
        table = Table(title="Score sheet", show_footer=True)
        table.add_column("Deal", footer="Partie")
        table.add_column("Elder")
        if rules.uses_bidding:
            table.add_column("Contract")
        for seat in (HUMAN, self.computer):
            table.add_column(Text(names[seat]), justify="right", footer=str(partie.totals[seat]))
        table.add_column("Notes")
        won_in = {game.deal: game for game in partie.games}
        for number, score in enumerate(partie.deal_scores, start=1):
            cells: list[str | Text] = [str(number)]
            if score.annulled:
                cells.append(Text("annulled: both passed", style="dim"))
                if rules.uses_bidding:
                    cells.append("")
                cells += ["", "", ""]
                table.add_row(*cells)
                continue
            cells.append(Text(names[score.elder]))
            if rules.uses_bidding:
                cells.append(contract_holder(score.contract, names))
            cells += [str(score.totals[HUMAN]), str(score.totals[self.computer])]
            cells.append(Text(second_person("; ".join(deal_notes(score, names, won_in.get(number))), names)))
            table.add_row(*cells)
        self.console.print(table)
        if self.taken_back:
            by_deal: dict[int, int] = {}
            for taken in self.taken_back:
                by_deal[taken["deal"]] = by_deal.get(taken["deal"], 0) + 1
            listed = "; ".join(f"deal {deal}: {n}" for deal, n in by_deal.items())
            self.say(f"Takebacks by {names[HUMAN]}, noted in the record: {listed}.", style="dim")
        if rules.plays_games:
            won = partie.games_won()
            game_scores = partie.view(HUMAN).game_scores
            line = (f"Games won: {names[HUMAN]} {won[HUMAN]}, {names[self.computer]} {won[self.computer]} "
                    f"(a double game counts two; the first to {rules.games_to_win} wins).")
            if not partie.is_over:
                line += (f" The game in progress: {names[HUMAN]} {game_scores[HUMAN]}, "
                         f"{names[self.computer]} {game_scores[self.computer]}.")
            self.say(line)
        result = partie.result
        if result is not None:
            self.say(_grammar(result_text(partie), names), style="bold")

    def deal_summary(self) -> None:
        score = self.partie.deal_scores[-1]
        names = self.names
        title = f"Deal {len(self.partie.deal_scores)}"
        if score.contract is not None:
            title += f": {contract_holder(score.contract, names)}"
        table = Table(title=title)
        table.add_column("")
        for seat in (HUMAN, self.computer):
            table.add_column(Text(names[seat]), justify="right")
        for category, pair in score.count():
            table.add_row(category.label, str(pair[HUMAN]), str(pair[self.computer]))
        table.add_row("total", str(score.totals[HUMAN]), str(score.totals[self.computer]), style="bold")
        table.add_row("tricks", str(score.tricks[HUMAN]), str(score.tricks[self.computer]), style="dim")
        self.console.print(table)

    def save(self) -> None:
        if not self.record_path:
            return
        text = record.dumps(self.partie, meta={"program": "piquet play", "seed": self.seed,
                                               "computer": f"level {self.level}", "takebacks": self.takebacks},
                            takebacks=self.taken_back)
        tmp = self.record_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fp:
            fp.write(text)
        os.replace(tmp, self.record_path)

    # ------------------------------------------------------------ input
    def ask(self, decision: _Decision) -> Action | None:
        """Prompt until the answer is a legal action (or a command ends the prompt)."""
        while True:
            try:
                text = self.input_fn(decision.prompt)
            except (EOFError, KeyboardInterrupt) as e:
                self.say("")
                raise _Quit(130 if isinstance(e, KeyboardInterrupt) else 0) from None
            word = text.strip().lower()
            if word in ("quit", "exit", "q"):
                raise _Quit(0)
            if word in ("help", "?"):
                self.say(_HELP)
                continue
            if word == "score":
                self.score_sheet()
                continue
            if word == "undo":
                raise _UndoRequest
            if word == "hint":
                self.show_hint(decision)
                continue
            try:
                try:
                    action = decision.parse(text)
                except (_BadInput, CardError):
                    # The game's notation (piquet.engine.actions.parse_action), where the prompt's own reading fails.
                    action = _in_notation(text)
                    if action is None:
                        raise
                if action is not None:
                    self.partie.verify(action)
            except (_BadInput, CardError) as e:
                self.say(f"Sorry: {e}", style="red")
                continue
            except IllegalActionError as e:  # the engine's reason, its cards drawn as the screen draws them
                self.say(Text("Not allowed: ", style="red") + pretty_tokens(e.reason))
                continue
            return action

    def _hint_seed(self) -> int:
        """The seed of a hint's and a check's worlds: the game's and the decision's place, so a hint asked again is
        the same."""
        return self.seed * 1_000_003 + self.partie.ply

    def show_hint(self, decision: _Decision) -> None:
        """The best choice, why, and by how much it beats the next (the review's fair lens, within the budget);
        where the review values nothing, the hint level's choice."""
        advice = None
        if decision.words is not None:
            advice = hints.hint(self.partie, self._hint_seed(), self.hint_budget, HINT_WORLDS)
        if advice is None or decision.words is None:
            what, typed = decision.hint()
        else:
            what, typed = decision.words(advice.best)
            self.advised = (self.partie.ply, advice.best)
        line = Text("Hint: ", style="magenta") + pretty_tokens(what)
        line.append(f"  (type: {typed})" if typed else "", style="dim")
        self.say(line)
        if advice is None or decision.words is None:
            return
        self.say(Text("  Why: ", style="magenta") + Text(advice.reason))
        if advice.next_best is not None and advice.margin is not None:
            after = decision.words(advice.next_best)[0]
            self.say(Text("  Next best: ", style="magenta") + pretty_tokens(after)
                     + Text(f", {points_text(advice.margin)} on average behind"))
        for i, shown in enumerate(advice.discards[1:], start=2):
            self.say(Text(f"  {i}. ", style="magenta") + Text(shown.says))

    def tutor_allows(self, action: Action) -> bool:
        """With the tutor on: whether ``action`` may be applied (the review finds it loses less than the threshold,
        or the player, warned, plays it anyway)."""
        if self.tutor is None or not hints.questioned(self.partie, HUMAN):
            return True
        if self.advised is not None and self.advised[0] == self.partie.ply and hints.follows(action, self.advised[1]):
            return True  # the hint's own choice
        warning = hints.check(self.partie, action, self.tutor, self._hint_seed(), self.hint_budget, HINT_WORLDS)
        if warning is None:
            return True
        self.say(Text(f"Tutor: this loses {points_text(warning.loss)} on average. ", style="bold yellow")
                 + Text(warning.reason))
        answer: list[bool] = []

        def parse(text: str) -> None:
            answer.append(_yes_no(text, False))

        better = warning.better
        self.ask(_Decision("Play it anyway? [y/N]> ", parse,
                           lambda: (f"think again: {better.describe(self.names)}", "n")))
        return bool(answer and answer[-1])

    def _agent_action(self, seat: int) -> Action:
        agent = self.adviser if seat == HUMAN else self.agent
        return agent.choose(self.partie.view(seat), self.partie.legal_actions(seat))

    # ------------------------------------------------------------ the loop
    def play(self) -> int:
        partie = self.partie
        self.say(Text.assemble((partie.rules.title, "bold"), f": {self.names[HUMAN]} against the computer. "
                               f"Seed {self.seed}. Type 'help' at any prompt."))
        try:
            while not partie.is_over:
                try:
                    self.step()
                except _UndoRequest:
                    self.undo()
                    continue
                self.flush_log()
                self.announce_contract()
                if len(partie.deal_scores) > self.scored_deals:
                    self.scored_deals = len(partie.deal_scores)
                    self.save()
                    if partie.deal_scores[-1].annulled:
                        dealer = partie.dealer
                        self.say(_grammar(f"Both passed: deal {partie.deal_number} is annulled and does not count; "
                                          f"{self.partie.player_name(dealer)} deals again.", self.names),
                                 style="bold")
                        continue
                    self.deal_summary()
                    self.score_sheet()
                    if not partie.is_over:
                        self.pause()
        except (_Quit, KeyboardInterrupt) as q:
            self.save()
            if self.record_path:
                self.say(f"Record saved to {self.record_path}.")
            self.say("Goodbye.")
            return q.code if isinstance(q, _Quit) else 130
        self.save()
        if self.record_path:
            self.say(f"Record saved to {self.record_path}.")
        return 0

    def announce_contract(self) -> None:
        """Once an auction is over: the contract, and who is elder."""
        partie = self.partie
        contract = partie.contract
        if contract is None or partie.phase is Phase.BID or self.contract_shown == partie.deal_number:
            return
        self.contract_shown = partie.deal_number
        names = self.names
        view = partie.view(HUMAN)
        line = contract_text(view, names)
        elder = ("You are elder and exchange" if partie.elder == HUMAN
                 else f"{names[partie.elder]} is elder and exchanges")
        self.say(Text(f"Contract {line}. {elder} first.", style="bold"))

    def pause(self) -> None:
        decision = _Decision("Press Enter for the next deal> ", lambda _t: None,
                             lambda: ("press Enter to go on", ""))
        while True:
            try:
                self.ask(decision)
                return
            except _UndoRequest:
                if self.undo():
                    # Back inside the deal just finished: the loop goes on from there.
                    self.scored_deals = len(self.partie.deal_scores)
                    return

    def push(self, action: Action) -> None:
        """Apply an action (verified by the engine), noting what a takeback needs to know of it."""
        self.steps.append(policy.push(self.partie, action))

    def undo(self) -> bool:
        """Take back the person's last decision with a choice, as ``--takebacks`` allows (the browser's policy,
        :mod:`piquet.ui.takebacks`); a free one is written down, in the record."""
        partie = self.partie
        keep = policy.target(partie, self.steps, HUMAN, self.takebacks)
        if keep is None:
            self.say(_sentence(policy.refusal(partie, self.steps, HUMAN, self.takebacks)), style="red")
            return False
        if self.takebacks == "free":
            self.taken_back.append(policy.entry(partie.actions, keep, self.names[HUMAN]))
        while len(partie.actions) > keep:
            partie.pop()
            self.steps.pop()
        self.scored_deals = len(partie.deal_scores)
        self.log_deal, self.log_count = partie.deal_number, len(partie.view(HUMAN).log)
        self.contract_shown = -1
        noted = ""
        if self.taken_back:
            count = len(self.taken_back)
            noted = f" ({count} takeback{'s' if count > 1 else ''} so far, noted in the record)"
        self.say(f"Taken back: your previous decision again{noted}.", style="magenta")
        self.save()
        return True

    def step(self) -> None:
        partie = self.partie
        phase = partie.phase
        if phase is Phase.CUT:
            number = sum(1 for a in partie.actions if isinstance(a, Cut))
            if number not in self.cuts:
                self.cuts[number] = partie.random_cut(self.rng)
            self.push(self.cuts[number])
            return
        seat = partie.to_act
        assert seat is not None
        if phase is Phase.DEAL:
            sizes = partie.legal_packets()
            if len(sizes) == 1:
                packets = sizes[0]
            elif seat == HUMAN:
                packets = self.ask_packets(sizes)
            else:
                packets = self.agent.choose_packets(partie.view(seat), sizes)
            number = partie.deal_number + 1
            if number not in self.packs:
                self.packs[number] = shuffled_pack(self.rng)
            # The same cards whoever deals and in whatever packets: no takeback deals a hand anew.
            self.push(Deal.from_pack(seat, self.packs[number], packets, in_packets=False))
            return
        if seat != HUMAN:
            if (phase is Phase.PLAY and partie.deal_number not in self.concession_offered
                    and partie.can(Concede(HUMAN))):
                # The rulings, 18: either player may concede before the first card, in turn or not.
                self.concession_offered.add(partie.deal_number)
                self.flush_log()
                if self.offer_concession():
                    self.push(Concede(HUMAN))
                    return
            self.push(self._agent_action(seat))
            return
        self.flush_log()
        decision = {
            Phase.CHOOSE_DEALER: self.choose_dealer,
            Phase.BID: self.bid,
            Phase.CARTE_BLANCHE: self.carte_blanche,
            Phase.EXCHANGE: self.exchange,
            Phase.DECLARE: self.declare,
            Phase.PLAY: self.play_card,
            Phase.CONCESSION: self.answer_concession,
        }[phase]
        if phase is not Phase.CHOOSE_DEALER:
            self.status()
        while True:
            action = decision()
            if self.tutor_allows(action):
                break
            self.say("Think again.", style="magenta")
        self.push(action)

    def must(self, decision: _Decision) -> Action:
        action = self.ask(decision)
        assert action is not None
        return action

    # ------------------------------------------------------------ decisions
    def ask_packets(self, sizes: tuple[int, ...]) -> int:
        chosen: list[int] = []

        def parse(text: str) -> None:
            t = text.strip() or "3"
            if not (t.isascii() and t.isdigit()) or int(t) not in sizes:
                raise _BadInput(f"deal in packets of {' or '.join(map(str, sizes))}")
            chosen.append(int(t))

        best = self.adviser.choose_packets(self.partie.view(HUMAN), sizes)
        self.say("You deal. Law 9: you deal in packets of 2 or of 3, the same in all your deals.")
        self.ask(_Decision("Packets of 2 or 3? [3]> ", lambda t: parse(t),
                           lambda: (f"deal in packets of {best}", str(best))))
        return chosen[-1]

    def choose_dealer(self) -> Action:
        me, him = HUMAN, self.computer

        def parse(text: str) -> Action:
            return ChooseDealer(me, me if _yes_no(text, True) else him)

        def hint() -> tuple[str, str]:
            a = self._agent_action(me)
            deal = isinstance(a, ChooseDealer) and a.dealer == me
            return ("deal first (Cavendish advises it)" if deal else "let the computer deal", "y" if deal else "n")

        self.say("You cut the higher card: you choose who deals first.")
        return self.must(_Decision("Will you deal first? [Y/n]> ", parse, hint))

    def bid(self) -> Action:
        """A call in the auction of Auction Piquet."""
        partie = self.partie
        view = partie.view(HUMAN)
        calls = [a.call for a in partie.legal_actions(HUMAN) if isinstance(a, Bid)]
        numbered = [c for c in calls if c[-1] in "+-"]
        other = [c for c in calls if c[-1] not in "+-"]
        if view.bids:
            self.say(Text("The auction so far: ") + Text(auction_text(view.bids, self.names)))
        else:
            self.say("You bid first: how many tricks you contract to win (+) or to lose (-), 7 to 12.")
        self.say(Text("Your calls: ", style="bold") + Text(" ".join(numbered + other)))

        def parse(text: str) -> Action:
            t = " ".join(text.strip().lower().split())
            t = {"p": "pass", "d": "double", "dbl": "double", "rd": "redouble", "r": "redouble"}.get(t, t)
            t = t.replace("plus", "+").replace("minus", "-")
            try:
                return Bid(HUMAN, parse_bid(t))
            except ValueError as e:
                raise _BadInput(str(e).replace("not a bid: " + repr(t), "not a bid: " + repr(text.strip())))\
                    from None

        def words(a: Action) -> tuple[str, str]:
            assert isinstance(a, Bid)
            what = {"pass": "pass", "double": "double", "redouble": "redouble"}.get(a.call)
            if what is None:
                aim = "lose" if a.minus else "win"
                what = f"bid {a.call} (to {aim} {a.tricks} tricks)"
            return what, a.call

        return self.must(_Decision("Your call (e.g. 8+, 9 minus, pass)> ", parse,
                                   lambda: words(self._agent_action(HUMAN)), words))

    def offer_concession(self) -> bool:
        """The human, not to lead, may concede the last deal before the first card."""
        answer: list[bool] = []

        def parse(text: str) -> None:
            answer.append(_yes_no(text, False))

        rules = self.partie.rules
        self.say("You cannot save the rubicon: you may concede before the first card, and "
                 f"{self.names[self.computer]} counts {rules.conceded_play_points} for the play and "
                 f"{rules.cards_points} for the cards.", style="bold")
        self.ask(_Decision("Concede? [y/N]> ", parse, lambda: ("play on", "n")))
        return bool(answer and answer[-1])

    def answer_concession(self) -> Action:
        him = self.names[self.computer]
        rules = self.partie.rules
        self.say(f"{him} concedes: you may count {rules.conceded_play_points} for the play and {rules.cards_points} "
                 "for the cards, or decline and play on "
                 "for a capot (Cavendish, Case XXII).", style="bold")

        def parse(text: str) -> Action:
            return AcceptConcession(HUMAN, _yes_no(text.strip().lower() or "y", True))

        def hint() -> tuple[str, str]:
            a = self._agent_action(HUMAN)
            accept = not isinstance(a, AcceptConcession) or a.accept
            return ("accept", "y") if accept else ("decline and play on", "n")

        return self.must(_Decision("Accept the concession? [Y/n]> ", parse, hint))

    def carte_blanche(self) -> Action:
        view = self.partie.view(HUMAN)
        elder = view.elder == HUMAN
        # The engine's limits of the exchange elder may announce (Law 20): the counts it allows.
        counts = [a.will_exchange for a in self.partie.legal_actions(HUMAN)
                  if isinstance(a, CarteBlanche) and a.will_exchange is not None] or [0]
        lo, hi = min(counts), max(counts)
        worth = self.partie.rules.carte_blanche_points
        self.say(f"You hold no king, queen or knave: carte blanche, worth {worth} (Laws 18-20, 61).", style="bold")

        def parse(text: str) -> Action:
            parts = text.strip().lower().split()
            if not parts:
                parts = ["y"]
            if parts[0].isascii() and parts[0].isdigit():
                parts = ["y", parts[0]]
            yes = _yes_no(parts[0], True)
            if not yes:
                return CarteBlanche(HUMAN, False)
            if not elder:
                return CarteBlanche(HUMAN, True)
            n = hi
            if len(parts) > 1:
                if not (parts[1].isascii() and parts[1].isdigit()):
                    raise _BadInput(f"say how many cards you will exchange, {lo} to {hi}")
                n = int(parts[1])
            return CarteBlanche(HUMAN, True, n)

        def hint() -> tuple[str, str]:
            a = self._agent_action(HUMAN)
            assert isinstance(a, CarteBlanche)
            if not a.announce:
                return "do not announce it", "n"
            if a.will_exchange is not None:
                return f"announce it and take {a.will_exchange}", f"y {a.will_exchange}"
            return "announce it", "y"

        prompt = (f"Announce carte blanche? y (or y N: you will take N cards, {lo}-{hi}; default {hi}), or n> "
                  if elder else "Announce carte blanche? [Y/n]> ")
        return self.must(_Decision(prompt, parse, hint))

    def exchange(self) -> Action:
        partie = self.partie
        view = partie.view(HUMAN)
        elder = view.elder == HUMAN
        # The engine's limits, with the carte blanche's (Law 20) and the Auction's: the view of the player
        # to exchange always has them.
        assert view.exchange_range is not None
        lo, hi = view.exchange_range
        span = f"{lo}" if lo == hi else f"{lo} to {hi}"
        who = "You are elder" if elder else "You are younger"
        pat = " (or none: Enter, 'none' or '-' to stand pat)" if lo == 0 < hi else ""
        self.say(f"{who}: discard {span} card{'s' if hi != 1 else ''}, and draw as many from the talon{pat}.")
        advice: list[Exchange] = []

        def advised() -> Exchange:
            if not advice:
                a = self._agent_action(HUMAN)
                assert isinstance(a, Exchange)
                advice.append(a)
            return advice[0]

        def parse(text: str) -> Action:
            t = text.strip().lower()
            if not t and lo > 0:
                raise _BadInput(f"discard {span} cards (e.g. {example})")
            discards = CardSet() if t in ("", "none", "-", "0") else CardSet.parse(text)
            if not lo <= len(discards) <= hi:
                raise _BadInput(f"discard {span} cards, not {len(discards)}")
            return Exchange(HUMAN, discards)

        def words(a: Action) -> tuple[str, str]:
            assert isinstance(a, Exchange)
            return f"discard {a.discards}", str(a.discards) or "none"

        example = "7D 8C 9H" if hi else "none"
        default = " [none]" if lo == 0 else ""
        action = self.must(_Decision(f"Discard {span} (e.g. {example}){default}> ", parse,
                                     lambda: words(advised()), words))
        assert isinstance(action, Exchange)
        left = hi - len(action.discards)
        if elder or left <= 0:
            return action

        def parse_rest(text: str) -> Action:
            return Exchange(HUMAN, action.discards, _yes_no(text, False))

        def hint_rest() -> tuple[str, str]:
            yes = advised().show_rest
            return ("show them" if yes else "keep them hidden"), ("y" if yes else "n")

        self.say(f"{left} card{'s' if left != 1 else ''} will be left in the talon (Law 36).")
        return self.must(_Decision("Show them to both of you after elder leads? [y/N]> ", parse_rest, hint_rest))

    def declare(self) -> Action:
        partie = self.partie
        view = partie.view(HUMAN)
        first = next(iter(partie.legal_actions(HUMAN)))
        assert isinstance(first, Declare)
        category = first.category
        elder = view.elder == HUMAN
        menu = declaration_menu(partie, HUMAN)
        nothing = nothing_words(menu, elder)
        self.say(Text(f"Declare your {category.value}:", style="bold"))
        if partie.rules.must_declare_in_full(partie.contract):
            self.say("In a minus contract nothing may be sunk: you declare your best and show every other.",
                     style="dim")
        if len(menu) == 1:  # one choice (nothing held, or a minus contract's declaration in full): made, not asked
            only = menu[0]
            self.say(Text("  You declare ") + describe_combos(category, only.combinations) if only.combinations
                     else Text(f"  You have no {category.value} to declare."))
            return only
        for i, option in enumerate(menu, start=1):
            label = describe_combos(category, option.combinations) if option.combinations else Text(nothing)
            self.say(Text(f"  {i}. ") + label)

        def parse(text: str) -> Action:
            t = text.strip()
            if not t:
                return menu[0]
            if t.isascii() and t.isdigit():
                i = int(t)
                if not 1 <= i <= len(menu):
                    raise _BadInput(f"choose 1 to {len(menu)}")
                return menu[i - 1]
            if t.lower() in ("good", "sink", "nothing", "none"):
                return Declare(HUMAN, category, ())
            combos = tuple(CardSet.parse(part) for part in t.split("/") if part.strip())
            return Declare(HUMAN, category, combos)

        def words(a: Action) -> tuple[str, str]:
            assert isinstance(a, Declare)
            what = f"declare {describe_combos(category, a.combinations).plain}" if a.combinations \
                else f"declare {nothing}"
            if a in menu:
                return what, str(menu.index(a) + 1)
            return what, " / ".join(str(c) for c in a.combinations) or "good"

        return self.must(_Decision(f"Your choice, 1-{len(menu)} [1] (or cards, e.g. AS KS QS)> ", parse,
                                   lambda: words(self._agent_action(HUMAN)), words))

    def play_card(self) -> Action:
        partie = self.partie
        view = partie.view(HUMAN)
        legal = partie.legal_actions(HUMAN)
        cards = [a.card for a in legal if isinstance(a, Play)]
        can_concede = Concede(HUMAN) in legal
        if view.trick:
            head = Text("Play to ")
            head.append_text(card_text(view.trick[0]))
            head.append(": ")
        else:
            head = Text("Your lead: ")
        head.append_text(cards_text(cards, sep="  "))
        if can_concede:
            head.append("   (or 'concede': you cannot save the rubicon)", style="dim")
        self.say(head)

        if len(cards) == 1 and not can_concede:
            # One card is all the law allows (the last trick, or the only card of the suit led): played
            # without asking, as a player at a table would.
            self.say(Text("You play ") + card_text(cards[0])
                     + Text(", your only card." if len(view.hand) == 1 else ", your only card of the suit."))
            return Play(HUMAN, cards[0])

        def parse(text: str) -> Action:
            t = text.strip()
            if not t:
                raise _BadInput("type the card you play, e.g. " + str(cards[0]))
            if t.lower() == "concede":
                return Concede(HUMAN)
            return Play(HUMAN, Card.parse(t))

        def words(a: Action) -> tuple[str, str]:
            if isinstance(a, Play):
                return f"play {a.card}", str(a.card)
            return "concede", "concede"

        prompt = f"Your card (e.g. {cards[0]})> "
        return self.must(_Decision(prompt, parse, lambda: words(self._agent_action(HUMAN)), words))


def run(args: argparse.Namespace, console: Console | None = None, input_fn: InputFn | None = None) -> int:
    """Play a partie in the terminal; returns the exit status."""
    no_color = bool(getattr(args, "no_color", False))
    if console is None:
        console = Console(no_color=no_color, highlight=False) if no_color else Console(highlight=False)
    out = console

    def ask_console(prompt: str) -> str:
        return out.input(Text(prompt, style="bold"))

    name = (getattr(args, "name", None) or "You").strip() or "You"
    computer = COMPUTER if name != COMPUTER else "The computer"
    try:
        options = parse_options(getattr(args, "option", None) or [])
        variant = getattr(args, "variant", None) or "rubicon"
        partie = Partie((name, computer), variant, options)
    except (OptionError, ValueError) as e:
        console.print(Text(f"piquet play: {e}"), style="red", highlight=False)
        return 2
    seed = args.seed if getattr(args, "seed", None) is not None else random.SystemRandom().randrange(1 << 31)
    level = getattr(args, "level", None) or 2
    hint_level = getattr(args, "hint_level", None) or 2
    game = _Game(console, input_fn or ask_console, partie, seed, getattr(args, "record", None), level, hint_level,
                 getattr(args, "budget", None), getattr(args, "tutor", None),
                 getattr(args, "takebacks", None) or "fair")
    with contextlib.suppress(BrokenPipeError):
        return game.play()
    return 0
