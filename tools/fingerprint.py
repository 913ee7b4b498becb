"""One hash of everything the engine says over many seeded random parties: a change that must not alter the
engine's behaviour (a refactoring, a speed-up) keeps it byte-identical.

Usage::

    python3 tools/fingerprint.py                      # 300 parties per variant, default and drawn options
    python3 tools/fingerprint.py --parties 50 --variant auction
    python3 tools/fingerprint.py --per-variant         # one hash per variant, to see which one moved

For each variant it plays ``--parties`` seeded parties between two random players: half with the variant's
defaults, half with rule options drawn from those the variant offers. At every step it hashes the action, what
``push`` returned, the legal listing, each seat's and a spectator's view (every field, read late), and checks
that ``pop`` then ``push`` gives the same state again; at the end of each partie, its record (``record.to_data``),
its logs and its deal scores. Only the engine's public interface is read, so the hash survives a rewrite of
its inside.

What is hashed is the text of each value (its ``repr``), with one exception: a score event is written as its
player, points, category and the English words of its reason (``ScoreEvent.reason``), whatever form the event
keeps its reason in, so that the hash follows what the engine says rather than how it keeps it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

# The engine of the checkout this tool lives in, not whichever piquet is installed: a fingerprint measures
# the tree it is run from.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from piquet.ai.agent import RandomAgent, play_partie
from piquet.engine import record
from piquet.engine.partie import Partie, Phase
from piquet.engine.scoring import ScoreEvent
from piquet.engine.variants import VARIANTS, make_rules


def _text(value: object) -> str:
    """``repr(value)``, but a score event (in a tuple, a list or a dict, as the engine gives them) as its seat, points,
    category and reason in words."""
    if isinstance(value, ScoreEvent):
        return (f"ScoreEvent(player={value.player!r}, points={value.points!r}, category={value.category!r}, "
                f"reason={value.reason!r})")
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        items = [_text(item) for item in value]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if isinstance(value, list):
        return f"[{', '.join(_text(item) for item in value)}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_text(k)}: {_text(v)}" for k, v in value.items()) + "}"
    text = repr(value)
    assert "ScoreEvent(" not in text, f"a score event inside a {type(value).__name__}: add it to _text"
    return text


def _view_text(partie: Partie, seat: int | None) -> str:
    view = partie.view(seat)
    return _text([(f.name, getattr(view, f.name)) for f in fields(view)])


def drawn_options(variant: str, rng: random.Random) -> dict[str, object]:
    """Rule options drawn at random from those ``variant`` offers (each kept at its default half the time)."""
    options: dict[str, object] = {}
    for option in make_rules(variant).OPTIONS:
        if rng.random() < 0.5:
            continue
        if isinstance(option.default, bool):
            options[option.name] = not option.default
        else:
            options[option.name] = rng.randint(option.minimum, option.maximum)
    return options


def _step_hasher(digest: hashlib._Hash) -> Callable[[Partie], None]:
    def on_action(partie: Partie) -> None:
        last = partie.peek()
        # pop then push: the same events, and the same state after (read through the views below).
        partie.pop()
        returned = partie.push(last)
        digest.update(_text((last, returned)).encode())
        if partie.phase in (Phase.OVER,):
            return
        if partie.to_act is not None and partie.phase not in (Phase.CUT, Phase.DEAL):
            digest.update(_text(list(partie.legal_actions())).encode())
        for seat in (0, 1, None):
            digest.update(_view_text(partie, seat).encode())

    return on_action


def fingerprint(variant: str, parties: int, seed: int = 2026) -> str:
    digest = hashlib.sha256()
    for index in range(parties):
        rng = random.Random(f"{seed}/{variant}/{index}")
        options = drawn_options(variant, rng) if index % 2 else {}
        agents = [RandomAgent(random.Random(rng.random())), RandomAgent(random.Random(rng.random()))]
        digest.update(repr(sorted(options.items())).encode())
        partie = play_partie(agents, rng, ("Ann", "Bill"), variant, options, on_action=_step_hasher(digest))
        digest.update(json.dumps(record.to_data(partie), sort_keys=True).encode())
        digest.update(_text(partie.logs()).encode())
        digest.update(_text(partie.deal_scores).encode())
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parties", type=int, default=300, help="parties per variant (default 300)")
    parser.add_argument("--variant", choices=sorted(VARIANTS), help="one variant only")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--per-variant", action="store_true", help="print each variant's hash")
    args = parser.parse_args()
    variants = [args.variant] if args.variant else sorted(VARIANTS)
    total = hashlib.sha256()
    for variant in variants:
        value = fingerprint(variant, args.parties, args.seed)
        total.update(value.encode())
        if args.per_variant:
            print(f"{variant}: {value}")
    print(total.hexdigest())


if __name__ == "__main__":
    main()
