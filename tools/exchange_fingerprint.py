"""One hash of what the exchange decides over many seeded positions: level 5's choice and the review of the
exchange made. A change that must not alter the exchange (a speed-up) keeps it identical.

Usage::

    python3 tools/exchange_fingerprint.py                       # 40 parties per variant
    python3 tools/exchange_fingerprint.py --parties 10 --variant rubicon --per-position

For each variant it plays ``--parties`` seeded parties between two books' players (level 2), then replays each
and, at every exchange, hashes: level 5's choice with every discard tried on every world (``budget=0``), and with
the successive elimination of the timed level but a budget too large to bind (``budget=1000``), so that neither
depends on the machine's speed; and the review of the exchange made, with open hands and with the fair lens
(``--worlds`` talons and hands), every value, part and share it reports. Only public interfaces are read, so
the same file run in an older tree hashes that tree's exchange: copy it there and compare.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

# The tree this tool lives in, not whichever piquet is installed: a fingerprint measures the tree it is run from.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from piquet.ai.agent import play_partie
from piquet.ai.levels import SearchAgent, make_agent
from piquet.coach.review import Lens, review_exchange
from piquet.engine.actions import Exchange
from piquet.engine.partie import Partie
from piquet.engine.variants import VARIANTS


def positions(variant: str, parties: int, seed: int) -> list[tuple[Partie, Exchange]]:
    """Every exchange of ``parties`` seeded parties of the books' players, as a partie waiting for it and the
    exchange made."""
    out = []
    for i in range(parties):
        played = play_partie([make_agent("level2", seed + i), make_agent("level2", seed + i + 1)],
                             random.Random(seed + i), ("Ann", "Bill"), variant)
        replay = played.copy()
        while replay.ply:
            replay.pop()
        for action in played.actions:
            if isinstance(action, Exchange):
                out.append((replay.copy(), action))
            replay.push(action)
    return out


def fingerprint(variant: str, parties: int, seed: int, worlds: int, per_position: bool) -> tuple[str, int]:
    """The hash of one variant's exchanges, and how many were hashed."""
    digest = hashlib.md5()
    found = positions(variant, parties, seed)
    for k, (partie, made) in enumerate(found):
        seat = partie.to_act
        assert seat is not None
        view = partie.view(seat)
        line = []
        for spec in ("level5:budget=0", "level5:budget=1000"):
            agent = make_agent(spec, seed + k)
            assert isinstance(agent, SearchAgent)
            line.append(repr(agent.choose(view, partie.legal_actions(seat))))
        for lens, count in ((Lens.OPEN, 1), (Lens.FAIR, worlds)):
            review = review_exchange(partie, made, lens, count, random.Random(seed + k))
            line.append(repr(review))
        text = "\n".join(line)
        digest.update(text.encode())
        if per_position:
            print(f"{variant} {k}: {hashlib.md5(text.encode()).hexdigest()}", flush=True)
    return digest.hexdigest(), len(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--parties", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=200, help="talons and hands of the fair review")
    parser.add_argument("--variant", choices=sorted(VARIANTS), help="one variant (default: each in turn)")
    parser.add_argument("--per-position", action="store_true", help="a hash for each position too")
    args = parser.parse_args()
    for variant in [args.variant] if args.variant else sorted(VARIANTS):
        digest, count = fingerprint(variant, args.parties, args.seed, args.worlds, args.per_position)
        print(f"{variant}: {count} exchanges, {digest}", flush=True)


if __name__ == "__main__":
    main()
