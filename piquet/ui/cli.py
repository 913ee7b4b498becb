"""The ``piquet`` command: ``piquet play``, ``piquet replay``, ``piquet analyse``, ``piquet exercises`` and
``piquet arena``."""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import logging
import os
import re
import stat
import sys
import urllib.parse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

# Each command imports what it uses, in its own function: piquet --version loads neither the engine nor the
# computer players, piquet replay no computer player, piquet play nothing of the web.
if TYPE_CHECKING:
    from piquet.coach.review import PartieReview
    from piquet.engine import record
    from piquet.engine.partie import Partie

__all__ = ["MAX_RECORD_BYTES", "main", "replay_summary", "solver_words"]

#: The largest file ``piquet replay`` reads: a whole partie's record is some tens of KiB.
MAX_RECORD_BYTES = 4 * 1024 * 1024

def _columns(partie: Partie) -> tuple[str, ...]:
    """The score categories of the variant (the contract only where there is bidding)."""
    from piquet.engine.scoring import ScoreCategory

    cats = [c.value for c in ScoreCategory if c is not ScoreCategory.CONTRACT or partie.rules.uses_bidding]
    if not partie.rules.has_carte_blanche:
        cats.remove(ScoreCategory.CARTE_BLANCHE.value)
    if not partie.rules.carte_rouge_points:
        cats.remove(ScoreCategory.CARTE_ROUGE.value)
    return (*cats, "total")


def replay_summary(partie: Partie) -> dict[str, Any]:
    """The scores of a re-played record, as ``piquet replay --json`` prints them."""
    names = partie.players
    columns = _columns(partie)
    deals: list[dict[str, Any]] = []
    for number, score in enumerate(partie.deal_scores, start=1):
        if score.annulled:
            deals.append({"deal": number, "annulled": True})
            continue
        deal: dict[str, Any] = {"deal": number, "elder": names[score.elder]}
        if score.contract is not None:
            deal["contract"] = str(score.contract)
        deal["scores"] = {names[seat]: {c: score.by_category[seat][c] for c in columns} for seat in (0, 1)}
        deal["tricks"] = {names[seat]: score.tricks[seat] for seat in (0, 1)}
        if score.multiplier != 1:
            deal["counts"] = score.multiplier
        deals.append(deal)
    out: dict[str, Any] = {
        "players": list(names),
        "variant": partie.variant,
        "options": partie.rules.changed(),
        "deals": deals,
        "totals": {names[seat]: partie.totals[seat] for seat in (0, 1)},
        "finished": partie.is_over,
    }
    if partie.rules.plays_games:
        out["games"] = [{"winner": names[g.winner], "double": g.double,
                         "scores": {names[seat]: g.scores[seat] for seat in (0, 1)},
                         "reached": {names[seat]: g.reached[seat] for seat in (0, 1)},
                         "deal": g.deal} for g in partie.games]
        won = partie.games_won()
        out["games_won"] = {names[seat]: won[seat] for seat in (0, 1)}
    if not partie.is_over and partie.deal_number > len(partie.deal_scores):
        out["unfinished_deal"] = {"deal": partie.deal_number, "phase": partie.phase.value}
    result = partie.result
    if result is not None:
        out["result"] = {
            "winner": None if result.winner is None else names[result.winner],
            "points": result.points,
            "rubiconed": result.rubiconed,
        }
    return out


def _score_table(partie: Partie) -> list[str]:
    names = partie.players
    width = max(len(n) for n in names) + 2
    head = "deal  " + "".join(f"{n:>{width}}" for n in names)
    lines = [head]
    for number, score in enumerate(partie.deal_scores, start=1):
        lines.append(f"{number:>4}  " + "".join(f"{score.totals[s]:>{width}}" for s in (0, 1)))
    lines.append("total " + "".join(f"{partie.totals[s]:>{width}}" for s in (0, 1)))
    result = partie.result
    if result is not None:
        if result.winner is None:
            lines.append("The partie is drawn.")
        else:
            rub = " (the loser is rubiconed)" if result.rubiconed else ""
            lines.append(f"{names[result.winner]} wins the partie and scores {result.points}{rub}.")
    return lines


def _zero_or_more(unit: str, what: str) -> Callable[[str], float]:
    """argparse's type for a number of ``unit`` zero or more, ``what`` naming it in the refusal."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {unit}") from None
        if not 0 <= value < float("inf"):
            raise argparse.ArgumentTypeError(f"{text!r}: {what} is zero or more {unit}")
        return value

    return parse


#: ``--budget`` (0: no limit) and ``--tutor``.
_seconds = _zero_or_more("seconds", "the budget (zero: no limit)")
_points = _zero_or_more("points", "the tutor's threshold")


def _replay(args: argparse.Namespace) -> int:
    from piquet.engine import record
    from piquet.engine.words import partie_lines, second_person

    text = _read_text(args.file, "replay")
    if isinstance(text, int):
        return text
    try:
        partie, notes = record.loads_annotated(text)
    except record.RecordError as e:
        print(f"piquet replay: {args.file}: {e}", file=sys.stderr)
        return 1
    if args.json:
        json.dump(replay_summary(partie), sys.stdout, indent=1, ensure_ascii=False)
        print()
        return 0
    names = partie.players
    for line in partie_lines(partie.logs(), names):
        print(line)
    print()
    for line in _score_table(partie):
        print(second_person(line, names))
    if notes is not None and notes.notes:
        print()
        for line in _annotation_lines(notes, names):
            print(second_person(line, names))
    return 0


def _annotation_lines(notes: record.Annotations, names: tuple[str, str]) -> list[str]:
    """The record's annotations in words (``piquet replay`` of an annotated record): each action annotated,
    its mark and loss, and the explanation (or, without one, the best where it was not the choice)."""
    lens = {"fair": " (the fair lens", "open-hands": " (with open hands"}.get(notes.lens or "", "")
    if lens and notes.lens == "fair" and notes.worlds is not None:
        lens += f", over {notes.worlds} hand{'s' if notes.worlds != 1 else ''} of the opponent"
    lines = [f"Annotations{lens + ')' if lens else ''}:"]
    deal = None
    for note in notes.notes:
        if note.deal != deal:
            deal = note.deal
            lines.append(f"Deal {deal}")
        head = f"  {note.action:>2}. {note.describe(names)}"
        said = [f"{note.mark} −{note.loss:g}" if note.mark and note.loss is not None else (note.mark or "")]
        if note.text:
            said.append(note.text)
        elif note.best is not None and note.best != note.choice:  # the explanation names the best
            said.append(f"best: {note.describe_best(names)}")
        lines.append(head + "  " + "  ".join(s for s in said if s) if any(said) else head)
    return lines


def _read_record(path: str, command: str) -> Partie | int:
    """The partie of the record at ``path`` re-played, or the exit status after saying why it cannot be read."""
    from piquet.engine import record

    text = _read_text(path, command)
    if isinstance(text, int):
        return text
    try:
        return record.loads(text)
    except record.RecordError as e:
        print(f"piquet {command}: {path}: {e}", file=sys.stderr)
        return 1


#: What a record's text may not put on a terminal: the C0 and C1 controls (escape sequences that move the cursor,
#: retitle the window, rewrite the screen) and the bidirectional controls that reorder what is shown.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` as it may be shown on a terminal: tabs and line ends as spaces, every other control character left
    out.

    >>> printable("Ann\x1b]0;pwned\x07\u202e")
    'Ann]0;pwned'
    """
    return _UNPRINTABLE.sub(lambda m: " " if m.group() in "\t\n\r" else "", text)


def _printable_strings(value: Any) -> Any:
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list):
        return [_printable_strings(v) for v in value]
    if isinstance(value, dict):
        return {printable(k): _printable_strings(v) for k, v in value.items()}
    return value


def _read_text(path: str, command: str) -> str | int:
    """The text of the record at ``path``, or the exit status after saying why it cannot be read. Only a regular
    file is read (a FIFO or a device would block, or never end); every string in it is made :func:`printable`, so
    nothing a record holds (a player's name, above all) can send a terminal its control sequences."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        print(f"piquet {command}: cannot read {path}: {e.strerror}", file=sys.stderr)
        return 2
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        print(f"piquet {command}: {path} is not a regular file (a record is one), so it is not read", file=sys.stderr)
        return 1
    with os.fdopen(fd, "rb") as fp:
        data = fp.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        print(f"piquet {command}: {path} is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MiB, and not read: a "
              "record of a whole partie is a few tens of KiB, so this is not one", file=sys.stderr)
        return 1
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        print(f"piquet {command}: {path} is not UTF-8 text (byte {e.start} is 0x{data[e.start]:02x}), so not a "
              "record", file=sys.stderr)
        return 1
    if not _UNPRINTABLE.search(text.replace("\n", "").replace("\t", "").replace("\r", "")) and "\\u" not in text:
        return text
    try:
        data_read = json.loads(text)
    except (ValueError, RecursionError):  # not JSON: the record's reader says where and why
        return text
    return json.dumps(_printable_strings(data_read), ensure_ascii=False, indent=1)


def _analyse(args: argparse.Namespace) -> int:
    from piquet.coach.annotate import annotated_record
    from piquet.coach.review import Lens, review_partie
    from piquet.engine import record
    from piquet.engine.words import second_person

    if args.worlds < 1:
        print(f"piquet analyse: --worlds is at least 1, not {args.worlds}", file=sys.stderr)
        return 2
    text = _read_text(args.file, "analyse")
    if isinstance(text, int):
        return text
    try:
        partie = record.loads(text)
    except record.RecordError as e:
        print(f"piquet analyse: {args.file}: {e}", file=sys.stderr)
        return 1
    lens = Lens.OPEN if args.open_hands else Lens.FAIR
    on_terminal = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        print(f"\ranalysing: decision {done} of {total}", end="", file=sys.stderr, flush=True)

    try:
        review = review_partie(partie, lens, args.worlds, args.seed, args.deal, "all" if args.all_cards else "choice",
                               progress if on_terminal else None)
    except ValueError as e:
        print(f"piquet analyse: {args.file}: {e}", file=sys.stderr)
        return 1
    finally:
        if on_terminal:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
    if args.output is not None:
        try:
            with open(args.output, "w", encoding="utf-8") as fp:
                fp.write(annotated_record(text, review))
        except OSError as e:
            print(f"piquet analyse: cannot write {args.output}: {e.strerror}", file=sys.stderr)
            return 2
    if args.json:
        json.dump(review.to_json(), sys.stdout, indent=1, ensure_ascii=False)
        print()
        return 0
    for line in _review_lines(review):
        print(second_person(line, review.players))
    return 0


def _review_lines(review: PartieReview) -> list[str]:
    """``piquet analyse`` in words: each declaration and card played, then what each player lost."""
    from piquet.ai.levels import DECLARATION_WORLDS
    from piquet.coach.ladder import describe
    from piquet.coach.review import DEFAULT_WORLDS, MARKS, CarteBlancheReviewed, Lens, PlayReviewed

    names = review.players
    width = max(len(n) for n in names)
    if review.lens is Lens.OPEN:
        lines = ["The exchanges, the declarations and the card play with open hands (every card known: hindsight)."]
    else:
        hands = f"{review.worlds} hand{'s' if review.worlds > 1 else ''}"
        talons = next((r.review.worlds for r in review.exchanges if r.review is not None), None)
        exchanges = f"; the exchanges over {talons} talons and hands" if talons else ""
        deals = next((r.review.worlds for r in review.calls if r.review is not None), None)
        calls = f"; the calls over {deals} deals" if deals else ""
        lines = [f"The card play as each player could know it: each card valued over {hands} the opponent may "
                 f"hold (seed {review.seed}); the declarations over {DECLARATION_WORLDS}{exchanges}{calls}."]
    deal = None
    for r in review.actions:
        if r.deal != deal:
            deal = r.deal
            lines += ["", f"Deal {deal}"]
        found = r.review
        if isinstance(r, PlayReviewed):
            head = f"  {r.trick:>2}. {names[r.seat]:<{width}}  {r.card.pretty():<5}  "
        else:
            head = f"      {names[r.seat]:<{width}}  {'':<5}  "
        if found is None:
            only = {"play": "the only card", "declaration": f"the only declaration: {r.text}",
                    "exchange": f"the only exchange: {r.text}", "call": f"the only call: {r.text}",
                    "carte blanche": f"the only choice: {r.text}"}
            lines.append(head + only[r.kind])
        elif found.loss < 0.05:
            lines.append(head + f"best      {r.explanation}")
        else:
            loss = f"{found.loss:.0f}" if review.lens is Lens.OPEN else f"{found.loss:.1f}"
            lines.append(head + f"−{loss:<5} {found.mark:<2}  {r.explanation}")
    stages = [("exchange", "the exchange"), ("declaration", "the declarations"), ("play", "the play")]
    if review.calls:
        stages.insert(0, ("call", "the auction"))
    if review.of(CarteBlancheReviewed):
        stages.insert(0, ("carte blanche", "carte blanche"))
    if review.concessions:
        stages.append(("concession", "the concessions"))
    for kind, title in stages:
        lines += ["", f"Points lost in {title}" + (" (with open hands)" if review.lens is Lens.OPEN else "") + ":"]
        for seat in (0, 1):
            s = review.summary(seat, kind)
            counts = ", ".join(f"{s.marks[sign]} {sign}" for _, sign in reversed(MARKS))
            lines.append(f"  {names[seat]:<{width}}  {s.loss:.1f} in {s.choices} choice{'' if s.choices == 1 else 's'} "
                         f"({s.loss_per_choice:.2f} a choice; {counts})")
    if review.actions:
        deals = len({r.deal for r in review.actions})
        why_not = ("" if review.on_the_ladder else " (not placed on the levels' ladder: it was measured through the "
                   f"fair lens at {DEFAULT_WORLDS} hands a card)")
        lines += ["", f"Points lost a deal to one's own decisions ({deals} deal{'s' if deals != 1 else ''})"
                      f"{why_not}:"]
        for seat in (0, 1):
            lost = review.lost_a_deal(seat)
            low, high = review.lost_a_deal_interval(seat)
            placed = ""
            if review.on_the_ladder:
                placed = f": played {describe(lost)}"
                if describe(max(low, 0.0)) != describe(high):
                    placed += f" (within the interval, from {describe(high)} to {describe(max(low, 0.0))})"
            lines.append(f"  {names[seat]:<{width}}  {lost:.2f} [{low:.2f}, {high:.2f}]{placed}")
    if review.luck:
        ended = review.luck_summary(0).deals
        lines += ["", f"Luck in {ended} deal{'s' if ended != 1 else ''} (points of the deal: the hands dealt against "
                      "the seat's average, each draw against the talons it could have brought):"]
        for seat in (0, 1):
            luck = review.luck_summary(seat)
            lines.append(f"  {names[seat]:<{width}}  luck {luck.luck:+.1f} (dealt {luck.deal:+.1f}, drawn "
                         f"{luck.draws:+.1f}); result {luck.result:+d}, adjusted for luck {luck.adjusted:+.1f}")
    return lines


def _exercises(args: argparse.Namespace) -> int:
    """``piquet exercises ANNOTATED.json``: the player's worst decisions in a reviewed record, practised again."""
    from piquet.coach.exercises import exercises, seat_of
    from piquet.engine import record

    if args.count < 1:
        print(f"piquet exercises: --count is at least 1, not {args.count}", file=sys.stderr)
        return 2
    text = _read_text(args.file, "exercises")
    if isinstance(text, int):
        return text
    try:
        partie, notes = record.loads_annotated(text)
    except record.RecordError as e:
        print(f"piquet exercises: {args.file}: {e}", file=sys.stderr)
        return 1
    if notes is None or not notes.notes:
        print(f"piquet exercises: {args.file} holds no review to practise on: review it first with "
              f"`piquet analyse {args.file} -o ANNOTATED.json`, then run `piquet exercises ANNOTATED.json`",
              file=sys.stderr)
        return 1
    try:
        seat = seat_of(partie.players, args.player)
    except ValueError as e:
        print(f"piquet exercises: --player: {e}", file=sys.stderr)
        return 2
    try:
        import piquet.ui.exercises as practice
    except ImportError as e:  # rich is an optional extra
        print(f"piquet exercises needs the terminal extra: pip install 'piquet[terminal]' ({e})", file=sys.stderr)
        return 2
    found = exercises(partie, notes, seat, args.count)
    if not found:
        print(f"Nothing to practise: the review found no decision of {partie.players[seat]}'s worse than the best.")
        return 0
    code: int = practice.run(found)
    return code


def _play(args: argparse.Namespace) -> int:
    try:
        import piquet.ui.terminal as terminal
    except ImportError as e:  # rich is an optional extra
        print(f"piquet play needs the terminal extra: pip install 'piquet[terminal]' ({e})", file=sys.stderr)
        return 2
    code: int = terminal.run(args)
    return code


def _write_json(data: object, path: str) -> bool:
    """Write the arena's results to ``path``; ``False`` (and a message) when it cannot."""
    try:
        with open(path, "w", encoding="utf-8") as fp:
            json.dump(data, fp, indent=1, ensure_ascii=False)
            fp.write("\n")
    except OSError as e:
        print(f"piquet arena: cannot write {path}: {e.strerror}", file=sys.stderr)
        return False
    return True


def _arena_merge(args: argparse.Namespace) -> int:
    """``piquet arena merge FILE...``: the run that shards' results files make up."""
    from piquet.measure import arena

    files = args.agents[1:]
    played = [name for name, given in (("--shard", args.shard), ("--sprt", args.sprt), ("--sprt-elo", args.sprt_elo),
                                       ("--ray", args.ray), ("--parties", args.parties)) if given]
    if played:
        print(f"piquet arena merge: {', '.join(played)} would change how a run is played, and merge plays none: "
              "it takes the files and --json", file=sys.stderr)
        return 2
    if not files:
        print("piquet arena merge: name the results files of the shards (piquet arena ... --shard K/N -o FILE)",
              file=sys.stderr)
        return 2
    loaded = []
    for path in files:
        try:
            with open(path, encoding="utf-8") as fp:
                loaded.append((path, json.load(fp)))
        except OSError as e:
            print(f"piquet arena merge: cannot read {path}: {e.strerror}", file=sys.stderr)
            return 2
        except json.JSONDecodeError as e:
            print(f"piquet arena merge: {path} is not JSON ({e})", file=sys.stderr)
            return 2
    try:
        result = arena.merge_results(loaded)
    except arena.MergeError as e:
        print(f"piquet arena merge: {e}", file=sys.stderr)
        return 2
    arena.print_result(result)
    return 0 if not args.json or _write_json(result.to_json(), args.json) else 2


def _arena(args: argparse.Namespace) -> int:
    import os

    from piquet.engine.variants import OptionError
    from piquet.measure import arena
    from piquet.measure.arena_ray import RayMissingError, RayUnreachableError  # Ray itself is imported only if used
    from piquet.measure.sprt import Sprt, parse_bounds

    if args.agents and args.agents[0] == "merge":
        return _arena_merge(args)
    if len(args.agents) < 2:
        print("piquet arena: name at least two agents (known agents: "
              f"{', '.join(arena.agent_names())})", file=sys.stderr)
        return 2
    try:
        arena.check_agents(args.agents)
        options = arena.parse_options(args.option)
        shard = arena.parse_shard(args.shard) if args.shard else (0, 1)
        sprt = None
        if args.sprt is not None:
            sprt = Sprt(*parse_bounds(args.sprt), alpha=args.alpha, beta=args.beta)
        elif args.sprt_elo is not None:
            sprt = Sprt(*parse_bounds(args.sprt_elo, "--sprt-elo"), alpha=args.alpha, beta=args.beta, elo=True)
    except (arena.UnknownAgentError, OptionError, ValueError) as e:
        print(f"piquet arena: {e}", file=sys.stderr)
        return 2
    if args.deals < 1 or (args.jobs is not None and args.jobs < 1):
        print("piquet arena: --deals and --jobs must be at least 1", file=sys.stderr)
        return 2
    command = arena.command_line(args.agents, args.deals, args.variant, args.seed, args.parties, args.option,
                                 shard, sprt)
    try:
        result = arena.run_arena(args.agents, args.deals, args.variant, options, args.seed,
                                 args.jobs or os.cpu_count() or 1, args.parties,
                                 None if args.quiet else sys.stderr, command, shard, sprt, args.ray)
    except (OptionError, ValueError) as e:
        print(f"piquet arena: {e}", file=sys.stderr)
        return 2
    except (RayMissingError, RayUnreachableError) as e:
        print(f"piquet arena: {e}", file=sys.stderr)
        return 2
    except arena.WorkerDiedError as e:
        print(f"piquet arena: {e}", file=sys.stderr)
        return 1
    arena.print_result(result)
    return 0 if not args.json or _write_json(result.to_json(), args.json) else 2


def _serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from piquet.ui.web import collector, events
        from piquet.ui.web.app import create_app
        from piquet.ui.web.guard import (
            ConnectionLedger,
            Forwarded,
            listen,
            raise_file_limit,
            server_config,
        )
        from piquet.ui.web.logs import install_log_limit
        from piquet.ui.web.store import StoreError, redacted
    except ImportError as e:
        print(f"piquet serve needs the web extra ({e.name} is missing): "
              "python3 -m pip install 'piquet[web]'", file=sys.stderr)
        return 2
    if args.workers is not None and args.workers < 0:
        print(f"piquet serve: --workers is 0 or more, not {args.workers}", file=sys.stderr)
        return 2
    if args.max_connections is not None and args.max_connections < 1:
        print(f"piquet serve: --max-connections is 1 or more, not {args.max_connections}", file=sys.stderr)
        return 2
    try:
        forwarded = Forwarded(p for proxies in args.trust_proxy for p in proxies.split(","))
    except ValueError as e:
        print(f"piquet serve: --trust-proxy: {e}", file=sys.stderr)
        return 2
    try:
        app = create_app(args.db, workers=args.workers, max_budget=args.max_budget, public_rooms=args.public_rooms)
    except StoreError as e:
        print(f"piquet serve: {e}", file=sys.stderr)
        return 2
    # The port is taken before the address is announced, so that a busy port is said, not served at.
    try:
        listening = listen(args.host, args.port)
    except OSError as e:
        print(f"piquet serve: cannot listen on {args.host} port {args.port}: {e.strerror or e}"
              + (" (another server has it: choose another with --port)" if e.errno == errno.EADDRINUSE else ""),
              file=sys.stderr)
        return 2
    host = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
    print(f"Piquet is served at http://{host}:{args.port}/ (stop it with Ctrl-C); games are kept in "
          f"{redacted(args.db)}; "
          f"{solver_words()}", flush=True)
    # The server counts its connections below the limit on open files (piquet.ui.web.guard), lifted first.
    raise_file_limit()
    ledger = ConnectionLedger(forwarded=forwarded)
    if args.max_connections is not None:
        ledger.max_connections = min(ledger.max_connections, args.max_connections)
    listening.ledger = ledger  # each connection admitted or refused as it is accepted
    config = server_config(app, host=args.host, port=args.port, log_level=args.log_level, ledger=ledger)
    if args.events:  # one JSON line per table event and error, on standard error
        events.install(logging.StreamHandler(sys.stderr))
    install_log_limit()  # after the configuration, which sets the loggers up
    collector.settle()  # what starting made, out of every later collection's walk
    with listening, contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: uvicorn has shut down and re-raised it
        uvicorn.Server(config).run(sockets=[listening])
    return 0


def _installed_kernels() -> list[Path]:
    """The compiled kernels the installed distributions of piquet built: in an install's files, or in the source
    tree of an editable install (``pip install -e``, which builds it there)."""
    import importlib.metadata

    found: list[Path] = []
    for dist in importlib.metadata.distributions(name="piquet"):
        for file in dist.files or ():
            if file.name.startswith("_kernel.") and file.suffix in (".so", ".pyd"):
                found.append(Path(str(dist.locate_file(file))))
        try:
            direct = json.loads(dist.read_text("direct_url.json") or "{}")
        except json.JSONDecodeError:
            continue
        if not isinstance(direct, dict):
            continue
        url = str(direct.get("url", ""))
        if (direct.get("dir_info") or {}).get("editable") and url.startswith("file://"):
            found += (Path(urllib.parse.unquote(urllib.parse.urlparse(url).path)) / "piquet" / "ai").glob("_kernel.*")
    return [p for p in found if p.is_file()]


def solver_words() -> str:
    """Which search the strongest levels solve with, said plainly (``piquet --version``, and ``piquet serve``'s first
    line): above all when a compiled kernel was built but this run does not use it, because it imports the package
    from a source tree that has none (``python3 -m piquet`` run inside a checkout)."""
    from piquet.ai import kernel

    if kernel.SOLVER == "compiled kernel":
        return "solver: compiled kernel"
    if os.environ.get("PIQUET_PURE_SOLVER", "") not in ("", "0"):
        return "solver: pure Python, as PIQUET_PURE_SOLVER asks"
    here = Path(kernel.__file__).resolve().parent
    elsewhere = [p for p in _installed_kernels() if p.resolve().parent != here]
    if elsewhere:
        return (f"solver: pure Python, NOT the compiled kernel built at install: this runs the source tree "
                f"{here.parent.parent}, which has no kernel, and not the installed package in "
                f"{elsewhere[0].resolve().parent.parent.parent} (the strongest levels think more slowly); run the "
                "installed `piquet` command instead, or build the kernel in this tree with "
                "`python3 -m pip install -e .`")
    return "solver: pure Python (no compiled kernel was built: no C compiler where piquet was installed)"


def _play_arguments(play: argparse.ArgumentParser) -> None:
    from piquet.ai.levels import LEVEL_NAMES
    from piquet.coach.hints import TUTOR_THRESHOLD
    from piquet.engine.variants import VARIANTS
    from piquet.ui.takebacks import TAKEBACKS

    play.add_argument("--variant", default="rubicon", choices=sorted(VARIANTS),
                      help="rubicon (the default), auction (Auction Piquet) or au-cent (Piquet au Cent)")
    play.add_argument("--seed", type=int, help="seed the shuffles, to play the same deals again")
    play.add_argument("--level", type=int, choices=range(1, 6), default=3, metavar="1-5",
                      help="the computer's strength: "
                           + ", ".join(f"{n} {name}" for n, name in LEVEL_NAMES.items()) + " (default 3)")
    play.add_argument("--hint-level", type=int, choices=range(1, 6), default=5, metavar="1-5",
                      help="the level whose choice a hint gives where the review values nothing (who deals, a "
                           "carte blanche, a concession; default 5, the strongest): a card, an exchange, a "
                           "declaration or a call is hinted by the review, with its reason")
    play.add_argument("--budget", type=_seconds, metavar="SECONDS",
                      help="the CPU time levels 3-5 may think for each decision, the computer's and the "
                           "hints' and the tutor's (default 1; 0: no limit); levels 1 and 2 answer at once")
    play.add_argument("--tutor", type=_points, nargs="?", const=TUTOR_THRESHOLD, metavar="POINTS",
                      help="the tutor: before a choice that loses POINTS or more on average (default "
                           f"{TUTOR_THRESHOLD:g}, the review's '?' mark), say so and why, and offer to think again")
    play.add_argument("--takebacks", choices=TAKEBACKS, default="fair",
                      help="what 'undo' may take back: fair (the default: never back past something you had not "
                           "seen, a card the computer played, cards drawn, a deal), off, or free (for practice: "
                           "any decision, each one noted in the record), as at the browser's tables")
    play.add_argument("--record", metavar="FILE", help="save the game record to FILE (JSON)")
    play.add_argument("--name", default="You", help="your name at the table")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                      help="a rule option (see piquet/data/rules.md); may be repeated")
    play.add_argument("--no-color", action="store_true", help="plain output without colours")
    play.set_defaults(func=_play)


def _replay_arguments(rep: argparse.ArgumentParser) -> None:
    rep.add_argument("file", help="a record in the piquet-record format")
    rep.add_argument("--json", action="store_true", help="print the scores as JSON")
    rep.set_defaults(func=_replay)


def _analyse_arguments(ana: argparse.ArgumentParser) -> None:
    from piquet.coach.review import DEFAULT_WORLDS

    ana.add_argument("file", metavar="GAME.json", help="a record in the piquet-record format")
    ana.add_argument("--deal", type=int, metavar="N", help="review deal N only (counted from 1)")
    ana.add_argument("--open-hands", action="store_true",
                     help="value each card with every card known (exact hindsight) instead of over the hands "
                          "the player's view allows (the fair lens, the default)")
    ana.add_argument("--worlds", type=int, default=DEFAULT_WORLDS, metavar="N",
                     help=f"the fair lens: hands of the opponent sampled for each card played (default "
                          f"{DEFAULT_WORLDS}, as the strongest level samples)")
    ana.add_argument("--seed", type=int, default=0, help="seed of the fair lens's samples (default 0)")
    ana.add_argument("--all-cards", action="store_true",
                     help="break down every legal card's value, not only the choice's and the best's (slower)")
    ana.add_argument("--json", action="store_true", help="print the review as JSON, for tools")
    ana.add_argument("-o", "--output", metavar="ANNOTATED.json",
                     help="also write the record with the review's annotations (value, best, loss, mark, "
                          "explanation) on each action reviewed")
    ana.set_defaults(func=_analyse)


def _exercises_arguments(exe: argparse.ArgumentParser) -> None:
    exe.add_argument("file", metavar="ANNOTATED.json", help="a record with a review (piquet analyse GAME.json -o)")
    exe.add_argument("--player", metavar="NAME", help="whose decisions (default: the record's first player)")
    exe.add_argument("--count", type=int, default=5, metavar="N", help="how many of the worst (default 5)")
    exe.set_defaults(func=_exercises)


def _arena_arguments(are: argparse.ArgumentParser) -> None:
    from piquet.engine.variants import VARIANTS

    are.add_argument("agents", nargs="+", metavar="AGENT",
                     help="two or more agents (random, simple, and the levels of piquet.ai.levels); every pair "
                          "plays. Or: merge FILE... to add up the results files of shards")
    are.add_argument("-n", "--deals", type=int, default=100, metavar="N",
                     help="mirrored deals per pair, each played twice with the seats swapped (default 100)")
    are.add_argument("--parties", action="store_true",
                     help="play N mirrored whole parties instead of single deals")
    are.add_argument("--variant", default="rubicon", choices=sorted(VARIANTS),
                     help="rubicon (the default), auction or au-cent")
    are.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="a rule option (see piquet/data/rules.md); may be repeated")
    are.add_argument("--seed", type=int, default=0, help="seed of the deals and the agents (default 0)")
    are.add_argument("-j", "--jobs", type=int, default=None,
                     help="worker processes (default: one per core); the results do not depend on it")
    are.add_argument("-o", "--json", metavar="FILE",
                     help="save the raw results (every sample, by seed and index) to FILE: the file that "
                          "piquet arena merge adds up")
    are.add_argument("--shard", metavar="K/N",
                     help="play only the deals whose index is K modulo N (0 <= K < N), one part of a run "
                          "shared among N machines")
    test = are.add_mutually_exclusive_group()
    test.add_argument("--sprt", metavar="MU0,MU1",
                      help="stop once a sequential test accepts H0 (A-B points per deal is MU0) or H1 (it is "
                           "MU1), --deals at most; two agents only")
    test.add_argument("--sprt-elo", metavar="ELO0,ELO1",
                      help="the same test on the deals won (a tie half), H0 and H1 as A's Elo edge over B")
    are.add_argument("--alpha", type=float, default=0.05,
                     help="the test's chance of accepting H1 when H0 holds (default 0.05)")
    are.add_argument("--beta", type=float, default=0.05,
                     help="the test's chance of accepting H0 when H1 holds (default 0.05)")
    are.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                     help="play on a Ray cluster: alone, start one on this machine; auto or an address "
                          "(ray://HOST:10001) to join one (needs piquet[research])")
    are.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    are.set_defaults(func=_arena)


def _serve_arguments(srv: argparse.ArgumentParser) -> None:
    srv.add_argument("--host", default="127.0.0.1",
                     help="the address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for all)")
    srv.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    srv.add_argument("--db", default=os.environ.get("PIQUET_DB", "piquet.sqlite3"), metavar="PATH|URL",
                     help="where every game is kept: a SQLite file (default piquet.sqlite3), or a PostgreSQL "
                          "database's URL, postgresql://user@host/dbname (needs piquet[postgres]; the password from "
                          "PGPASSWORD or ~/.pgpass rather than the URL); default: PIQUET_DB if set")
    srv.add_argument("--workers", type=int, default=None, metavar="N",
                     help="worker processes where the computer's levels 4-5 and hints think (default: one per core "
                          "but one; level 3 has one of its own); 0: in threads of the server")
    srv.add_argument("--max-budget", type=_seconds, default=5.0, metavar="SECONDS",
                     help="the most CPU time a table may give the computer and its hints for each decision "
                          "(default 5; a table's creator chooses up to it, 1 by default); 0: no cap, and a "
                          "table may let the computer think without a limit")
    srv.add_argument("--public-rooms", action=argparse.BooleanOptionalAction,
                     default=os.environ.get("PIQUET_PUBLIC_ROOMS", "") in ("1", "yes", "on", "true"),
                     help="let a room's creator list it in the lobby, where anyone who reaches the server may join "
                          "or watch it (a club's server); default: off, every room joined by its invitation link "
                          "(or PIQUET_PUBLIC_ROOMS=1)")
    srv.add_argument("--trust-proxy", action="append", default=[], metavar="ADDRESS",
                     help="a reverse proxy in front of the server (an address or a network, e.g. 127.0.0.1 or "
                          "10.0.0.0/8; may be repeated): its connections are not limited by address, and the client's "
                          "address is read from the X-Forwarded-For header it sets (from no other peer)")
    srv.add_argument("--max-connections", type=int, default=None, metavar="N",
                     help="connections open at once (default 4096, or fewer to stay under the limit on open files)")
    srv.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"],
                     help="how much the server logs (default warning)")
    srv.add_argument("--events", action=argparse.BooleanOptionalAction, default=True,
                     help="log one JSON line per table event and error on standard error: the table, the seat, the "
                          "action's kind, how long it took; never a secret nor a card (default: on)")
    srv.set_defaults(func=_serve)


def _site(args: argparse.Namespace) -> int:
    try:
        from piquet.ui.web.site import SiteError, build_site, site_bytes
    except ImportError as e:
        print(f"piquet site needs the web extra ({e.name} is missing): pip install 'piquet[web]'", file=sys.stderr)
        return 2
    target = Path(args.dir)
    try:
        version = build_site(target, Path(args.pyodide) if args.pyodide else None)
    except (SiteError, OSError) as e:
        print(f"piquet site: {e}", file=sys.stderr)
        return 2
    print(f"The offline site (version {version}, {site_bytes(target) / 1e6:.1f} MB) is in {target}: serve it with "
          f"`python3 -m http.server -d {target}` and open http://localhost:8000/ (docs/offline.md)")
    return 0


def _site_arguments(site: argparse.ArgumentParser) -> None:
    site.add_argument("dir", help="the directory to write the site into (made if need be)")
    site.add_argument("--pyodide", metavar="DIR", default=None,
                      help="Pyodide's npm package (default: node_modules/pyodide here or above, installed by npm ci)")
    site.set_defaults(func=_site)


#: Each subcommand: its summary, and what fills in its arguments.
_COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "play": ("play a partie against the computer", _play_arguments),
    "replay": ("re-play a game record through the engine and show its scores", _replay_arguments),
    "analyse": ("review a game record: what each exchange, declaration and card was worth, and why",
                _analyse_arguments),
    "exercises": ("practise a player's worst decisions from a reviewed record (piquet analyse -o)",
                  _exercises_arguments),
    "arena": ("computer players against each other on mirrored deals", _arena_arguments),
    "serve": ("serve the browser table: play the computer or a friend online", _serve_arguments),
    "site": ("write the table as a static site that plays the computer in the browser, offline", _site_arguments),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``piquet`` command's parser. Each subcommand's arguments take their defaults and help from the
    modules that run it, imported then: with ``command``, only that subcommand's are filled in (none where it
    names no subcommand, as for ``piquet --version``), so that a command loads only what it uses."""
    # The description and the version as written (the version's one line is not wrapped).
    parser = argparse.ArgumentParser(prog="piquet", description="Piquet, the classic game for two.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    from piquet import __version__

    parser.add_argument("--version", action="version", version=f"piquet {__version__} ({solver_words()})")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (summary, fill) in _COMMANDS.items():
        subparser = sub.add_parser(name, help=summary)
        if command is None or command == name:
            fill(subparser)
    return parser


def _command(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names (its first word not an option), if any."""
    return next((word for word in argv if not word.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    args = build_parser(_command(argv) or "").parse_args(argv)
    try:
        result: int = args.func(args)
    except BrokenPipeError:
        # The reader stopped reading (``piquet replay FILE | head``): not an error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return result


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
