"""The terminal game, driven by scripted input into a console writing to a string."""

from __future__ import annotations

import argparse
import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("rich")

from rich.console import Console

from piquet.engine import record
from piquet.engine.actions import Play
from piquet.engine.cards import CARDS, Card, CardSet
from piquet.ui.terminal import parse_options, run


@pytest.fixture(autouse=True)
def few_hint_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints and the tutor's checks value few worlds here, without a budget: quick, and the same from run to run
    (a budget's clock would make them depend on the machine's load)."""
    import piquet.ui.terminal as terminal
    from piquet.coach import hints

    monkeypatch.setattr(terminal, "HINT_WORLDS", hints.Worlds(4, 40, 4, 8))
    monkeypatch.setattr(hints, "HINT_BUDGET", 0.0)


def make_args(seed: int = 3, record_path: Path | None = None, options: list[str] | None = None,
              name: str = "You", variant: str | None = None, takebacks: str | None = None) -> argparse.Namespace:
    args = argparse.Namespace(seed=seed, record=str(record_path) if record_path else None, name=name,
                              option=options or [], no_color=True, takebacks=takebacks)
    if variant is not None:
        args.variant = variant
    return args


def make_console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=100, no_color=True, highlight=False), buf


class Player:
    """Answers each prompt by asking for a hint and typing what it says; scripted answers go first.

    With ``misplay`` it once tries a card that does not follow suit, to see the engine refuse it.
    """

    def __init__(self, buf: io.StringIO, script: list[str] | None = None, misplay: bool = False,
                 stop_after: int | None = None) -> None:
        self.buf = buf
        self.script = list(script or [])
        self.misplay = misplay
        self.misplayed = False
        self.stop_after = stop_after
        self.prompts: list[str] = []
        self.hinted = False

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.stop_after is not None and len(self.prompts) > self.stop_after:
            raise EOFError
        assert len(self.prompts) < 5000, "the game does not end"
        if self.script:
            self.hinted = False
            return self.script.pop(0)
        if "Enter" in prompt:
            return ""
        if self.misplay and not self.misplayed and prompt.startswith("Your card"):
            wrong = self.wrong_card()
            if wrong is not None:
                self.misplayed = True
                return wrong
        if not self.hinted:
            self.hinted = True
            return "hint"
        self.hinted = False
        typed: str = re.findall(r"\(type: ([^)]*)\)", self.buf.getvalue())[-1]
        return typed

    def wrong_card(self) -> str | None:
        """A card in hand of another suit than the one led, when the hand can follow."""
        text = self.buf.getvalue()
        hand_line = re.findall(r"Your hand\s+(.*?)\s*│", text)[-1]
        legal_line = text.rstrip().splitlines()[-1]
        if not legal_line.startswith("Play to "):
            return None
        hand = _cards(hand_line)
        legal = _cards(legal_line.split(":", 1)[1])
        wrong = hand - legal
        return str(next(iter(wrong))) if wrong else None


def _cards(text: str) -> CardSet:
    return CardSet.parse(text.split())


def test_parse_options() -> None:
    assert parse_options(["minimum_point=4", "cards_count_toward_pique=True"]) == {
        "minimum_point": 4, "cards_count_toward_pique": True}


@pytest.mark.slow  # a whole partie (or several): the inner loop leaves it to CI
def test_a_whole_partie_with_hints(tmp_path: Path) -> None:
    path = tmp_path / "partie.json"
    console, buf = make_console()
    player = Player(buf, misplay=True)
    assert run(make_args(seed=3, record_path=path), console=console, input_fn=player) == 0
    out = buf.getvalue()
    assert "wins the partie" in out or "win the partie" in out or "drawn" in out
    assert "Score sheet" in out
    assert player.misplayed and "must follow suit" in out
    partie = record.loads(path.read_text(encoding="utf-8"))
    assert partie.is_over and partie.result is not None
    assert len(partie.deal_scores) >= 6
    assert json.loads(path.read_text(encoding="utf-8"))["meta"]["seed"] == 3
    # The same seed gives the same partie.
    console2, buf2 = make_console()
    path2 = tmp_path / "again.json"
    assert run(make_args(seed=3, record_path=path2), console=console2, input_fn=Player(buf2, misplay=True)) == 0
    assert path2.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_computer_moves_are_shown() -> None:
    console, buf = make_console()
    run(make_args(seed=3), console=console, input_fn=Player(buf, stop_after=60))
    out = buf.getvalue()
    assert re.search(r"Computer (leads|plays) (10|[AKQJ987])[♠♥♦♣]", out)
    assert "Computer exchanges" in out
    assert "Your hand" in out and "Declare your point:" in out


def test_bad_input_reprompts_and_undo_takes_back_nothing_not_chosen(tmp_path: Path) -> None:
    # Seed 3: the person cuts higher, deals, and is younger in the first deal.
    console, buf = make_console()
    script = ["undo", "maybe", "y", "5", "help", "3"]
    player = Player(buf, script=script, stop_after=14)
    path = tmp_path / "quit.json"
    assert run(make_args(seed=3, record_path=path), console=console, input_fn=player) == 0
    out = buf.getvalue()
    assert "There is nothing of yours to take back" in out
    assert "answer y or n" in out
    assert "deal in packets of 2 or 3" in out
    assert "Commands, at any prompt" in out
    assert "Record saved" in out
    # The record of an unfinished partie replays.
    assert not record.loads(path.read_text(encoding="utf-8")).is_over

    console, buf = make_console()
    hand_at: list[str] = []

    def answers(prompt: str) -> str:
        if prompt.startswith("Discard"):
            hand: str = re.findall(r"Your hand\s+(.*?)\s*│", buf.getvalue())[-1]
            hand_at.append(hand)
            held = _cards(hand)
            stranger = next(c for c in CARDS if c not in held)
            steps = ["ZZ", str(stranger), f"{Card(stranger)} {Card(stranger)}", "7S 7H 7D 7C 8S 8H", "hint",
                     "undo"]
            if len(hand_at) <= len(steps):
                return steps[len(hand_at) - 1]
            raise EOFError
        return {"Will": "y", "Packets": "3"}.get(prompt.split()[0], "")

    assert run(make_args(seed=3), console=console, input_fn=answers) == 0
    out = buf.getvalue()
    assert "Sorry: not a card: 'ZZ'" in out
    assert "Not allowed:" in out and "not in hand" in out
    # The engine's reason names the cards as the rest of the screen draws them (J♦, not JD).
    refused = re.findall(r"Not allowed: .*", out)
    assert refused and all(re.search("[♠♥♦♣]", r) and not re.search(r"\b[AKQJT987][SHDC]\b", r) for r in refused)
    assert "given twice" in out
    assert "Hint: discard" in out
    # The choice of dealer and of the packets are not decisions a takeback goes back to: the deal stands.
    assert "Taken back" not in out and "There is nothing of yours to take back" in out
    assert len(hand_at) == 7 and len(set(hand_at)) == 1


@pytest.mark.parametrize(("seed", "who"), [(628, "You"), (2503, "Computer"), (111, "You")])
def test_carte_blanche(seed: int, who: str, tmp_path: Path) -> None:
    # Seeds found by search: the first deal has a carte blanche (628: yours as elder; 2503: the
    # computer's as elder, so you discard first; 111: yours as younger).
    path = tmp_path / "cb.json"
    console, buf = make_console()
    run(make_args(seed=seed, record_path=path), console=console, input_fn=Player(buf, stop_after=40))
    out = buf.getvalue()
    assert f'{who}: "Carte blanche.' in out
    assert f"{who}: \"My carte blanche:" in out
    assert "Declare your point:" in out
    partie = record.loads(path.read_text(encoding="utf-8"))
    assert any(e.category.value == "carte_blanche" for e in partie.view(0).events) or partie.deal_scores


def test_ctrl_c_saves_and_exits(tmp_path: Path) -> None:
    console, _ = make_console()
    path = tmp_path / "ctrlc.json"

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    assert run(make_args(seed=5, record_path=path), console=console, input_fn=interrupt) == 130
    assert path.exists()
    record.loads(path.read_text(encoding="utf-8"))


def test_bad_options_exit_2() -> None:
    for options in (["minimum_point=99"], ["no_such_rule=1"], ["nonsense"]):
        console, buf = make_console()
        assert run(make_args(options=options), console=console, input_fn=lambda p: "quit") == 2
        assert "piquet play:" in buf.getvalue()


def test_options_reach_the_rules(tmp_path: Path) -> None:
    path = tmp_path / "opt.json"
    console, buf = make_console()
    run(make_args(seed=4, record_path=path, options=["minimum_point=4"]), console=console,
        input_fn=Player(buf, stop_after=30))
    assert json.loads(path.read_text(encoding="utf-8"))["options"] == {"minimum_point": 4}


@pytest.mark.slow  # a whole partie (or several): the inner loop leaves it to CI
def test_a_whole_auction_partie_with_hints(tmp_path: Path) -> None:
    path = tmp_path / "auction.json"
    console, buf = make_console()
    player = Player(buf)
    assert run(make_args(seed=2, record_path=path, variant="auction"), console=console, input_fn=player) == 0
    out = buf.getvalue()
    assert out.startswith("Auction Piquet:")
    assert "Your calls: 7+ 7- 8+ 8-" in out
    assert "Contract 7" in out
    assert "is elder and exchanges first" in out or "You are elder and exchange first" in out
    assert "│  Contract  " in out
    # Seed 2 has minus contracts: the declaration in full is the only choice, made without asking.
    assert "In a minus contract nothing may be sunk" in out
    after = re.findall(r"nothing may be sunk[^\n]*\n(.*)\n", out)
    assert after and all(line.startswith(("  You declare ", "  You have no ")) for line in after)
    assert "Score sheet" in out and "Contract" in out
    assert re.search(r"wins? the partie and scores? \d+: the (difference|sum of both scores)", out)
    assert not any(p.startswith("Announce carte blanche") for p in player.prompts)
    partie = record.loads(path.read_text(encoding="utf-8"))
    assert partie.variant == "auction" and partie.is_over and partie.result is not None
    assert sum(1 for d in partie.deal_scores if not d.annulled) == 6
    if any(d.annulled for d in partie.deal_scores):
        assert "Both passed: deal" in out


@pytest.mark.slow  # a whole partie (or several): the inner loop leaves it to CI
def test_a_whole_au_cent_partie_with_hints(tmp_path: Path) -> None:
    path = tmp_path / "aucent.json"
    console, buf = make_console()
    player = Player(buf)
    assert run(make_args(seed=2, record_path=path, variant="au-cent"), console=console, input_fn=player) == 0
    out = buf.getvalue()
    assert out.startswith("Piquet au Cent:")
    # The lower cut deals, in packets of two: no choice and no packet prompt.
    assert "cut lower and deal" in out or "cuts lower and deals" in out
    assert not any(p.startswith(("Packets", "Will you deal")) for p in player.prompts)
    assert "│ Games won  " in out and "game You " in out
    assert re.search(r"wins? the partie, \d games to \d", out)
    partie = record.loads(path.read_text(encoding="utf-8"))
    assert partie.variant == "au-cent" and partie.is_over
    assert max(partie.games_won()) >= 3
    assert f"Games won: You {partie.games_won()[0]}, Computer {partie.games_won()[1]}" in out


def test_bad_bids_reprompt_and_standing_pat(tmp_path: Path) -> None:
    console, buf = make_console()
    player = Player(buf)
    bad = ["13+", "banana", "7 plus"]
    discards: list[str] = []

    def answers(prompt: str) -> str:
        if prompt.startswith("Your call") and bad:
            return bad.pop(0)
        if prompt.startswith("Discard 0") and not discards:
            discards.append(prompt)
            return ""
        return player(prompt)

    path = tmp_path / "bids.json"
    run(make_args(seed=1, record_path=path, variant="auction"), console=console, input_fn=answers)
    out = buf.getvalue()
    assert "Sorry: not a bid: '13+'" in out
    assert "Sorry: not a bid: 'banana'" in out
    assert 'You: "Seven plus."' in out or "Not allowed: a bid must be higher" in out
    assert discards and "You stand pat" in out
    partie = record.loads(path.read_text(encoding="utf-8"))
    assert partie.is_over


class Conceder(Player):
    """Answers yes when offered to concede out of turn; hints for everything else."""

    def __call__(self, prompt: str) -> str:
        if prompt.startswith("Concede?"):
            self.prompts.append(prompt)
            return "y"
        return super().__call__(prompt)


def test_ruling_18_the_player_not_to_lead_is_offered_the_concession_in_the_last_deal(tmp_path: Path) -> None:
    # Seed 9: in the sixth deal the player, younger and behind under 100, is offered the concession
    # before the computer leads.
    path = tmp_path / "game.json"
    console, buf = make_console()
    player = Conceder(buf)
    assert run(make_args(seed=9, record_path=path), console, player) == 0
    assert [p for p in player.prompts if p.startswith("Concede?")] == ["Concede? [y/N]> "]
    data = json.loads(path.read_text())
    assert len(data["deals"]) == 6 and data["deals"][-1]["actions"][-1] == {"player": "You", "concede": True}
    partie = record.loads(path.read_text())
    assert partie.is_over and partie.deal_scores[-1].by_category[1]["play"] == 13


def test_the_budget_reaches_the_searching_computer_and_its_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """`piquet play --budget S`: the computer (levels 3-5) and the hints think S seconds of CPU a decision;
    levels 1 and 2 take no budget (they answer at once)."""
    import piquet.ui.terminal as terminal
    from piquet.ai.levels import SearchAgent, make_agent

    made: list[object] = []

    def recording(name: str, seed: int = 0):  # type: ignore[no-untyped-def]
        agent = make_agent(name, seed)
        made.append(agent)
        return agent

    monkeypatch.setattr(terminal, "make_agent", recording)
    args = make_args(seed=3)
    args.level, args.hint_level, args.budget = 5, 2, 0.25
    console, buf = make_console()
    run(args, console=console, input_fn=Player(buf, stop_after=3))
    computer, adviser = made
    assert isinstance(computer, SearchAgent) and computer.settings.budget == 0.25
    assert not isinstance(adviser, SearchAgent)


def test_a_budget_that_is_not_zero_or_more_seconds_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from piquet.ui.cli import main

    for bad in ("-1", "soon", "inf"):
        with pytest.raises(SystemExit) as exit_info:
            main(["play", "--budget", bad])
        assert exit_info.value.code == 2
        assert "budget" in capsys.readouterr().err


def test_a_play_with_one_legal_card_is_made_without_asking_and_an_empty_answer_asks_for_a_card() -> None:
    console, buf = make_console()
    player = Player(buf)
    emptied: list[str] = []

    def answers(prompt: str) -> str:
        if prompt.startswith("Your card") and not emptied:
            emptied.append(prompt)
            return ""
        return player(prompt)

    assert run(make_args(seed=3), console=console, input_fn=answers) == 0
    out = buf.getvalue()
    assert "Sorry: type the card you play, e.g. " in out and "not a card: ''" not in out
    # Every deal ends with a card the player must play: played for him, and said, never asked.
    deals = len(re.findall(r"^  Deal \d+: You \d+, Computer \d+; partie", out, flags=re.M))
    assert out.count("your only card.") >= deals >= 6
    assert not any(p.startswith("Your card [") for p in player.prompts)


# ---------------------------------------------------------------- hints that explain, and the tutor
def test_a_hint_says_why_and_by_how_much_it_beats_the_next() -> None:
    console, buf = make_console()
    player = Player(buf, stop_after=60)
    run(make_args(seed=3), console=console, input_fn=player)
    out = buf.getvalue()
    # A card: the best, why, and the next best with the margin.
    assert re.search(r"Hint: play (10|[AKQJ987])[♠♥♦♣]  \(type: \w\w\)\n  Why: (Leading|Playing) the ", out)
    assert re.search(r"  Next best: play (10|[AKQJ987])[♠♥♦♣], [\d.]+ points? on average behind", out)
    # The exchange: the best discard and the next ones, each with what it keeps or risks.
    assert re.search(r"Hint: discard .*\n  Why: Discarding the .*: the best, by ", out)
    assert re.search(r"\n  2\. Discarding the .* rather than the ", out)


class Blunderer(Player):
    """Plays the next best card the hint names; warned by the tutor, thinks again the first time and plays it
    anyway the second."""

    def __init__(self, buf: io.StringIO, stop_after: int) -> None:
        super().__init__(buf, stop_after=stop_after)
        self.warnings = 0
        self.chosen: str | None = None  # the card last typed
        self.played: str | None = None  # the card played anyway

    def __call__(self, prompt: str) -> str:
        if prompt.startswith("Play it anyway"):
            self.prompts.append(prompt)
            self.warnings += 1
            if self.warnings == 2:
                self.played = self.chosen
            return "n" if self.warnings == 1 else "y"
        if prompt.startswith("Your card") and self.hinted and not self.script:
            found = re.findall(r"Next best: play (\S+),", self.buf.getvalue().rsplit("Hint:", 1)[-1])
            if found:
                self.prompts.append(prompt)
                self.hinted = False
                self.chosen = str(found[0])
                return self.chosen
        return super().__call__(prompt)


def test_the_tutor_warns_before_a_costly_card_and_offers_to_think_again(tmp_path: Path) -> None:
    path = tmp_path / "tutor.json"
    console, buf = make_console()
    args = make_args(seed=3, record_path=path)
    args.tutor = 0.5
    player = Blunderer(buf, stop_after=80)
    run(args, console=console, input_fn=player)
    out = buf.getvalue()
    assert player.warnings >= 2
    warning = re.search(r"Tutor: this loses ([\d.]+) points? on average\. (Leading|Playing) the (\S+) rather than "
                        r"the (\S+) costs You", out)
    assert warning is not None and float(warning.group(1)) >= 0.5
    assert "Think again." in out
    # Played anyway: the record has it.
    partie = record.loads(path.read_text(encoding="utf-8"))
    played = [str(a.card) for a in partie.actions if isinstance(a, Play) and a.player == 0]
    assert player.played is not None and str(Card.parse(player.played)) in played


def test_without_the_tutor_no_choice_is_questioned() -> None:
    console, buf = make_console()
    player = Blunderer(buf, stop_after=80)
    run(make_args(seed=3), console=console, input_fn=player)
    assert player.warnings == 0 and "Tutor:" not in buf.getvalue()


def test_the_tutor_s_threshold_is_zero_or_more_points(capsys: pytest.CaptureFixture[str]) -> None:
    from piquet.ui.cli import build_parser

    assert build_parser().parse_args(["play", "--tutor"]).tutor == 5.0
    assert build_parser().parse_args(["play", "--tutor", "2.5"]).tutor == 2.5
    assert build_parser().parse_args(["play"]).tutor is None
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--tutor", "-1"])
    assert "the tutor's threshold is zero or more points" in capsys.readouterr().err


def test_the_tutor_does_not_question_the_choice_a_hint_gave(monkeypatch: pytest.MonkeyPatch) -> None:
    from piquet.coach import hints

    checked: list[object] = []

    def always(partie: object, action: object, *args: object) -> object:  # a tutor that warns of everything
        checked.append(action)
        return hints.TutorWarning(0, "play", action, 9.0, action, "a warning of everything")  # type: ignore[arg-type]

    monkeypatch.setattr(hints, "check", always)
    console, buf = make_console()
    args = make_args(seed=3)
    args.tutor = 5.0
    run(args, console=console, input_fn=Player(buf, stop_after=60))  # it types what each hint says
    assert checked == [] and "Tutor:" not in buf.getvalue()


def test_a_decision_may_be_typed_in_the_game_s_notation(tmp_path: Path) -> None:
    # The engine's notation (piquet.engine.actions.parse_action) is read where the prompt's own reading fails.
    from piquet.engine.actions import Exchange, action_text

    console, buf = make_console()
    typed: list[str] = []

    def answers(prompt: str) -> str:
        # The exchange typed and the declarations made, the game stops at the first card (its record kept): an
        # empty answer there is no card, and it would be asked again and again.
        if prompt.startswith(("Discard", "Your card")) and typed:
            raise EOFError
        if prompt.startswith("Discard"):
            hand = list(_cards(re.findall(r"Your hand\s+(.*?)\s*│", buf.getvalue())[-1]))
            least = re.search(r"Discard (\d+)", prompt)
            assert least is not None
            typed.append("x " + " ".join(str(c) for c in hand[:max(1, int(least.group(1)))]))
            return typed[-1]
        return {"Will": "y", "Packets": "3"}.get(prompt.split()[0], "")

    path = tmp_path / "notation.json"
    assert run(make_args(seed=3, record_path=path), console=console, input_fn=answers) == 0
    exchanges = [a for a in record.loads(path.read_text(encoding="utf-8")).actions
                 if isinstance(a, Exchange) and a.player == 0]
    assert typed and exchanges and action_text(exchanges[0]) == typed[0]
    assert "Sorry" not in buf.getvalue()


# ---------------------------------------------------------------- takebacks: the browser's policy (issue 32, item 8)
def _exchange_then(after: list[str], hands: list[str], buf: io.StringIO, packets: str = "3") -> Callable[[str], str]:
    """Answers for seed 3 (the person deals and is younger): deal in ``packets``, discard the first card of the
    hand at each exchange prompt (noting the hand), then the ``after`` answers, then stop."""
    script = list(after)

    def answers(prompt: str) -> str:
        if prompt.startswith("Discard"):
            hand: str = re.findall(r"Your hand\s+(.*?)\s*│", buf.getvalue())[-1]
            hands.append(hand)
            if len(hands) > 2:
                raise EOFError
            return hand.split()[0]
        if prompt.startswith("Will"):
            return "y"
        if prompt.startswith("Packets"):
            return packets
        if any(h for h in hands) and script:
            return script.pop(0)
        if hands:
            raise EOFError
        return ""

    return answers


def test_a_fair_undo_never_takes_back_an_exchange_whose_cards_were_seen(tmp_path: Path) -> None:
    console, buf = make_console()
    hands: list[str] = []
    path = tmp_path / "fair.json"
    assert run(make_args(seed=3, record_path=path), console=console,
               input_fn=_exchange_then(["n", "undo"], hands, buf)) == 0
    out = buf.getvalue()
    assert "A fair takeback stops where you were shown something new" in out
    assert "Taken back" not in out and len(hands) == 1  # the exchange was not made again, knowing the talon
    assert "takebacks" not in json.loads(path.read_text(encoding="utf-8"))


def test_takebacks_off_refuse_every_undo() -> None:
    console, buf = make_console()
    hands: list[str] = []
    assert run(make_args(seed=3, takebacks="off"), console=console,
               input_fn=_exchange_then(["n", "undo"], hands, buf)) == 0
    assert "This game allows no takebacks" in buf.getvalue() and len(hands) == 1


def test_a_free_undo_takes_back_the_exchange_and_the_record_notes_it(tmp_path: Path) -> None:
    console, buf = make_console()
    hands: list[str] = []
    path = tmp_path / "free.json"
    assert run(make_args(seed=3, record_path=path, takebacks="free"), console=console,
               input_fn=_exchange_then(["n", "undo"], hands, buf)) == 0
    out = buf.getvalue()
    assert "Taken back: your previous decision again (1 takeback so far, noted in the record)." in out
    assert len(hands) == 2 and hands[0] == hands[1]  # the exchange again, from the same hand
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["meta"]["takebacks"] == "free"
    assert data["takebacks"] == [{"player": "You", "deal": 1, "action": 1, "undone": 2}]
    assert record.loads(path.read_text(encoding="utf-8")).deal_number == 1  # the record still replays


def test_dealing_in_other_packets_deals_the_same_hands() -> None:
    """The dealer's choice of packets does not change the cards, so no takeback can deal a hand anew."""
    seen = []
    for packets in ("2", "3"):
        console, buf = make_console()
        hands: list[str] = []
        run(make_args(seed=3), console=console, input_fn=_exchange_then([], hands, buf, packets=packets))
        assert f"You deal in packets of {packets}" in buf.getvalue()
        seen.append(hands[0])
    assert seen[0] == seen[1]
