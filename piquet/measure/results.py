"""An arena's results: each pair's mean and interval (:func:`summarize`), the ratings (:func:`ratings`), the
whole run (:class:`ArenaResult`) as JSON, read back from its file and shards merged into the run they make up
(:func:`load_result`, :func:`merge_results`), and printed (:func:`format_result`, :func:`print_result`)."""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TextIO

from piquet.measure.mirror import Game, Sample
from piquet.measure.sprt import SprtState

__all__ = ["ANCHOR_RATING", "Z95", "ArenaResult", "MergeError", "PairResult", "PairSummary", "Rating", "assemble",
           "format_result", "load_result", "merge_results", "print_result", "ratings", "summarize"]


#: Rating given to the anchor agent ("simple" if it plays, else the first agent).
ANCHOR_RATING = 1500.0
#: Two-sided 95% normal quantile.
Z95 = 1.96


class MergeError(ValueError):
    """Results files that do not add up to one run: another match, a deal played twice, deals missing."""


# ---------------------------------------------------------------- statistics
@dataclass(frozen=True, slots=True)
class PairSummary:
    """A pair's results, from the first agent's side.

    ``mean`` is the first agent's points less the second's per game (per deal, or per partie in
    settlement points), each mirrored pair one sample; ``low`` and ``high`` its 95% confidence
    interval (mean ± 1.96·sd/√n; ``None`` with fewer than two samples).
    """

    samples: int
    games: int
    mean: float
    sd: float
    low: float | None
    high: float | None
    won: int
    lost: int
    tied: int
    mean_first: float
    mean_second: float


@dataclass(frozen=True, slots=True)
class PairResult:
    first: str
    second: str
    samples: list[Sample]
    summary: PairSummary


@dataclass(frozen=True, slots=True)
class Rating:
    agent: str
    rating: float
    games: int
    won: int
    lost: int
    tied: int
    points: float  # the agent's mean points less its opponents', per game

    @property
    def score(self) -> float:
        return (self.won + self.tied / 2) / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class ArenaResult:
    agents: list[str]
    count: int
    variant: str
    options: dict[str, object]
    seed: int
    parties: bool
    pairs: list[PairResult]
    ratings: list[Rating]
    anchor: str
    command: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
    #: The part of the run played: deals whose index is ``shard[0]`` modulo ``shard[1]``.
    shard: tuple[int, int] = (0, 1)
    #: Where the sequential test stood when the run stopped (``--sprt``), else ``None``.
    sprt: SprtState | None = None

    def to_json(self) -> dict[str, Any]:
        """Everything, the raw samples included (``--json``): also the results file that
        :func:`merge_results` adds up, each sample addressed by the seed and its index."""
        from piquet import __version__

        out: dict[str, Any] = {
            "command": self.command,
            "version": __version__,
            "shard": list(self.shard),
            "agents": self.agents,
            "mode": "parties" if self.parties else "deals",
            "count": self.count,
            "variant": self.variant,
            "options": self.options,
            "seed": self.seed,
            "anchor": self.anchor,
            "pairs": [
                {
                    "first": p.first,
                    "second": p.second,
                    "summary": asdict(p.summary),
                    "samples": [
                        {"index": s.index, "diff": s.diff, "games": [asdict(g) for g in s.games]}
                        for s in p.samples
                    ],
                }
                for p in self.pairs
            ],
            "ratings": [{**asdict(r), "score": r.score} for r in self.ratings],
        }
        if self.sprt is not None:
            t = self.sprt.test
            out["sprt"] = {
                "unit": "elo" if t.elo else "points", "mu0": t.mu0, "mu1": t.mu1, "alpha": t.alpha, "beta": t.beta,
                "lower": t.lower, "upper": t.upper, "samples": self.sprt.samples, "mean": self.sprt.mean,
                "llr": self.sprt.llr, "decision": self.sprt.decision,
            }
        return out


def summarize(samples: Sequence[Sample]) -> PairSummary:
    """Mean difference per mirrored sample with its 95% interval, and the games won, lost and tied."""
    n = len(samples)
    diffs = [s.diff for s in samples]
    mean = sum(diffs) / n if n else 0.0
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n) if n > 1 else None
    games = [g for s in samples for g in s.games]
    won = sum(1 for g in games if g.winner == 0)
    lost = sum(1 for g in games if g.winner == 1)
    mean_first = sum(g.points[0] for g in games) / len(games) if games else 0.0
    mean_second = sum(g.points[1] for g in games) / len(games) if games else 0.0
    return PairSummary(
        n, len(games), mean, sd,
        None if half is None else mean - half, None if half is None else mean + half,
        won, lost, len(games) - won - lost, mean_first, mean_second,
    )


def ratings(agents: Sequence[str], pairs: Sequence[PairResult], anchor: str | None = None) -> list[Rating]:
    """Elo-scale ratings from the games won (a tie half each way) by Bradley-Terry, fitted by
    minorization-maximization with one drawn game of prior between each pair (so a clean sweep
    gives a finite rating); ``anchor`` (default "simple" if it plays, else the first agent) is 1500.
    Sorted best first."""
    names = list(dict.fromkeys(agents))
    anchor = anchor if anchor in names else ("simple" if "simple" in names else names[0])
    idx = {a: i for i, a in enumerate(names)}
    k = len(names)
    wins = [[0.0] * k for _ in range(k)]
    played = [[0.0] * k for _ in range(k)]
    stats = {a: [0, 0, 0, 0, 0.0] for a in names}  # games, won, lost, tied, point difference
    for p in pairs:
        i, j = idx[p.first], idx[p.second]
        s = p.summary
        if i == j:
            continue
        wins[i][j] += s.won + s.tied / 2 + 0.5
        wins[j][i] += s.lost + s.tied / 2 + 0.5
        played[i][j] += s.games + 1
        played[j][i] += s.games + 1
        for name, w, lo, sign in ((p.first, s.won, s.lost, 1), (p.second, s.lost, s.won, -1)):
            st = stats[name]
            st[0] += s.games
            st[1] += w
            st[2] += lo
            st[3] += s.tied
            st[4] += sign * s.mean * s.games
    gamma = [1.0] * k
    for _ in range(10000):
        new = []
        for i in range(k):
            total = sum(wins[i])
            denom = sum(played[i][j] / (gamma[i] + gamma[j]) for j in range(k) if j != i and played[i][j])
            new.append(total / denom if denom else gamma[i])
        norm = math.exp(sum(math.log(g) for g in new) / k)
        new = [g / norm for g in new]
        done = max(abs(math.log(a / b)) for a, b in zip(new, gamma, strict=True)) < 1e-10
        gamma = new
        if done:
            break
    base = gamma[idx[anchor]]
    out = []
    for name in names:
        games, won, lost, tied, diff = stats[name]
        rating = ANCHOR_RATING + 400 * math.log10(gamma[idx[name]] / base)
        out.append(Rating(name, rating, int(games), int(won), int(lost), int(tied), diff / games if games else 0.0))
    out.sort(key=lambda r: (-r.rating, names.index(r.agent)))
    return out


def assemble(agents: Sequence[str], count: int, variant: str, opts: dict[str, object], seed: int, parties: bool,
              samples: Sequence[Sample], command: str, shard: tuple[int, int] = (0, 1),
              sprt: SprtState | None = None) -> ArenaResult:
    """The result of a run from its samples, in whatever order they came."""
    pairs = [(i, j) for i in range(len(agents)) for j in range(i + 1, len(agents))]
    by_pair: list[list[Sample]] = [[] for _ in pairs]
    for sample in sorted(samples, key=lambda s: (s.pair, s.index)):
        by_pair[sample.pair].append(sample)
    pair_results = [
        PairResult(agents[i], agents[j], by_pair[p], summarize(by_pair[p])) for p, (i, j) in enumerate(pairs)
    ]
    table = ratings(agents, pair_results)
    anchor = "simple" if "simple" in agents else agents[0]
    return ArenaResult(list(agents), count, variant, opts, seed, parties, pair_results, table, anchor, command,
                       shard=shard, sprt=sprt)


# ---------------------------------------------------------------- results files
def load_result(data: Mapping[str, Any], name: str = "results") -> ArenaResult:
    """An arena's result read back from its JSON (``--json FILE``); ``name`` (the file's)
    names it in the error a malformed one raises."""
    try:
        agents = [str(a) for a in data["agents"]]
        pairs = [(i, j) for i in range(len(agents)) for j in range(i + 1, len(agents))]
        if len(data["pairs"]) != len(pairs):
            raise ValueError(f"{len(data['pairs'])} pairs for {len(agents)} agents")
        samples = []
        for p, ((i, j), pair) in enumerate(zip(pairs, data["pairs"], strict=True)):
            if (pair["first"], pair["second"]) != (agents[i], agents[j]):
                raise ValueError(f"pair {p} is {pair['first']} vs {pair['second']}, not {agents[i]} vs {agents[j]}")
            for s in pair["samples"]:
                games = tuple(
                    Game(int(g["first_seat"]), (int(g["points"][0]), int(g["points"][1])),
                         None if g["winner"] is None else int(g["winner"]), int(g["elder"]), int(g["deals"]),
                         (int(g["totals"][0]), int(g["totals"][1])), bool(g["annulled"]))
                    for g in s["games"]
                )
                if len(games) != 2:
                    raise ValueError(f"sample {s['index']} of pair {p} has {len(games)} games, not 2")
                if not 0 <= int(s["index"]) < int(data["count"]):
                    raise ValueError(f"sample {s['index']} of pair {p} is outside the run's {data['count']} deals")
                samples.append(Sample(p, int(s["index"]), (games[0], games[1])))
        if data["mode"] not in ("deals", "parties"):
            raise ValueError(f"mode {data['mode']!r}")
        shard = data.get("shard", [0, 1])
        return assemble(agents, int(data["count"]), str(data["variant"]), dict(data["options"]), int(data["seed"]),
                         data["mode"] == "parties", samples, str(data.get("command", "")),
                         (int(shard[0]), int(shard[1])))
    except (KeyError, TypeError, ValueError, IndexError) as e:
        what = f"no {e}" if isinstance(e, KeyError) else str(e)
        raise MergeError(f"{name} is not an arena's results file ({what})") from None


def _ranges(indices: Sequence[int]) -> str:
    """Indices as runs of consecutive ones.

    >>> _ranges([7, 0, 1, 2, 5, 8])
    '0-2, 5, 7-8'
    """
    runs: list[list[int]] = []
    for index in sorted(indices):
        if runs and index == runs[-1][1] + 1:
            runs[-1][1] = index
        else:
            runs.append([index, index])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


#: What two results files must share to be parts of the same run.
_SAME_MATCH = ("version", "agents", "mode", "count", "variant", "options", "seed")


def merge_results(files: Sequence[tuple[str, Mapping[str, Any]]]) -> ArenaResult:
    """The run that results files (each a name and its JSON) make up together: they must be
    parts of the same match (the same version, agents, mode, number of deals, variant, options and
    seed), no deal may be in two of them, and none may be missing; else a :class:`MergeError`
    that says which file differs and how, or which deals. The result is the one the whole run
    gives, sample for sample."""
    if not files:
        raise MergeError("no results files to merge")
    for name, data in files:
        if not isinstance(data, Mapping):
            raise MergeError(f"{name} is not an arena's results file (not a JSON object)")
    first_name, first = files[0]
    for name, data in files:
        if "sprt" in data:
            raise MergeError(f"{name} is a run the sequential test stopped, not a shard of a fixed run")
        for field_name in _SAME_MATCH:
            if data.get(field_name) != first.get(field_name):
                raise MergeError(f"{name} is another match: its {field_name} is {data.get(field_name)!r}, "
                                 f"{first_name}'s {first.get(field_name)!r}")
    results = [(name, load_result(data, name)) for name, data in files]
    seen: dict[tuple[int, int], str] = {}
    samples: list[Sample] = []
    for name, result in results:
        for pair in result.pairs:
            for sample in pair.samples:
                key = (sample.pair, sample.index)
                if key in seen:
                    raise MergeError(f"deal {sample.index} of {pair.first} vs {pair.second} is in both "
                                     f"{seen[key]} and {name}")
                seen[key] = name
                samples.append(sample)
    base = results[0][1]
    for p, pair in enumerate(base.pairs):
        missing = [i for i in range(base.count) if (p, i) not in seen]
        if missing:
            raise MergeError(f"{len(missing)} of the {base.count} deals of {pair.first} vs {pair.second} are in "
                             f"none of the files: {_ranges(missing)}")
    command = re.sub(r" --shard \d+/\d+", "", base.command)
    return assemble(base.agents, base.count, base.variant, base.options, base.seed, base.parties, samples, command)


# ---------------------------------------------------------------- output
def _signed(x: float | None, places: int = 2) -> str:
    return "-" if x is None else f"{x:+.{places}f}"


def _ci(s: PairSummary) -> str:
    return "n/a" if s.low is None or s.high is None else f"[{s.low:+.2f}, {s.high:+.2f}]"


def format_result(result: ArenaResult) -> list[str]:
    """The summary as plain lines: the pairs, then the rating table."""
    unit = "partie" if result.parties else "deal"
    what = "settlement points per partie" if result.parties else "points per deal"
    opts = "".join(f", {k}={v}" for k, v in result.options.items())
    lines = []
    if result.command:
        lines.append(f"$ {result.command}")
    played = len(result.pairs[0].samples) if result.pairs else 0
    how_many = str(result.count) if played == result.count else f"{played} of {result.count}"
    lines.append(f"{result.variant}{opts}: {how_many} mirrored {unit}s per pair, each played twice with the "
                 f"seats swapped (seed {result.seed})")
    k, n = result.shard
    if n > 1:
        lines.append(f"shard {k}/{n}: the {unit}s whose index is {k} modulo {n} (piquet arena merge adds them up)")
    if result.sprt is not None:
        lines.append(result.sprt.describe())
    lines.append("")
    rows: list[tuple[str, ...]] = [
        ("pair (A vs B)", f"A-B {what}", "95% CI", "A won", "lost", "tied", "A avg", "B avg"),
    ]
    for p in result.pairs:
        s = p.summary
        rows.append((f"{p.first} vs {p.second}", _signed(s.mean), _ci(s), str(s.won), str(s.lost), str(s.tied),
                     f"{s.mean_first:.1f}", f"{s.mean_second:.1f}"))
    lines += _columns(rows, left=1)
    lines.append("")
    basis = "parties" if result.parties else "deals"
    lines.append(f"Ratings (Bradley-Terry on {basis} won, a tie half; {result.anchor} = {ANCHOR_RATING:.0f})")
    rows = [("#", "agent", "rating", "games", "won", "lost", "tied", "score", f"pts/{unit}")]
    for rank, r in enumerate(result.ratings, start=1):
        rows.append((str(rank), r.agent, f"{r.rating:.0f}", str(r.games), str(r.won), str(r.lost), str(r.tied),
                     f"{100 * r.score:.1f}%", _signed(r.points)))
    lines += _columns(rows, left=2)
    return lines


def _columns(rows: Sequence[Sequence[str]], left: int) -> list[str]:
    """Rows as aligned text: the first ``left`` columns to the left, the rest to the right."""
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [cell.ljust(w) if c < left else cell.rjust(w) for c, (cell, w) in enumerate(zip(row, widths,
                                                                                               strict=True))]
        out.append("  ".join(cells).rstrip())
    return out


def print_result(result: ArenaResult, stream: TextIO | None = None) -> None:
    """The summary on ``stream``: rich tables on a terminal when rich is importable, plain lines else."""
    out = stream or sys.stdout
    if out.isatty():
        try:
            from rich.console import Console
            from rich.table import Table
        except ImportError:
            pass
        else:
            _print_rich(result, Console(file=out), Table)
            return
    for line in format_result(result):
        print(line, file=out)


def _print_rich(result: ArenaResult, console: Any, table_type: Any) -> None:
    lines = format_result(result)
    for line in lines[:lines.index("")]:  # the command and the match, up to the tables
        console.print(line, markup=False, highlight=False)
    unit = "partie" if result.parties else "deal"
    what = "settlement/partie" if result.parties else "points/deal"
    pairs = table_type(title="Pairs (A vs B)")
    for name, justify in (("pair", "left"), (f"A-B {what}", "right"), ("95% CI", "right"), ("A won", "right"),
                          ("lost", "right"), ("tied", "right"), ("A avg", "right"), ("B avg", "right")):
        pairs.add_column(name, justify=justify)
    for p in result.pairs:
        s = p.summary
        pairs.add_row(f"{p.first} vs {p.second}", _signed(s.mean), _ci(s), str(s.won), str(s.lost), str(s.tied),
                      f"{s.mean_first:.1f}", f"{s.mean_second:.1f}")
    console.print(pairs)
    basis = "parties" if result.parties else "deals"
    table = table_type(title=f"Ratings (Bradley-Terry on {basis} won; {result.anchor} = {ANCHOR_RATING:.0f})")
    for name in ("#", "agent", "rating", "games", "won", "lost", "tied", "score", f"pts/{unit}"):
        table.add_column(name, justify="left" if name == "agent" else "right")
    for rank, r in enumerate(result.ratings, start=1):
        table.add_row(str(rank), r.agent, f"{r.rating:.0f}", str(r.games), str(r.won), str(r.lost), str(r.tied),
                      f"{100 * r.score:.1f}%", _signed(r.points))
    console.print(table)
