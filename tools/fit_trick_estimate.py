"""Fit the trick estimate of the sampled Auction bidding (``piquet.ai.bidding.TRICK_WEIGHTS``).

Deals are dealt at random; a random player gets a seven-trick contract of a random sign, and
the deal is exchanged and declared by the simple player (so the hands are those a contract
produces). The card play is then solved exactly for the tricks the holder takes
(``piquet.ai.bidding.holder_tricks``), and the weights of ``piquet.ai.bidding.trick_features`` are
fitted by least squares, for plus and minus contracts apart, on four fifths of the deals and
judged on the last fifth.

    python3 tools/fit_trick_estimate.py --deals 1600 --jobs 2

It prints the weights to paste into ``piquet/ai/bidding.py`` and how well they predict the held-out
deals (R squared and the root mean square error, in tricks), with the same for the weights in use.
"""

from __future__ import annotations

import random
import sys

from fit_play_estimate import judge, least_squares, solve_many

from piquet.ai.bidding import TRICK_WEIGHTS, holder_tricks, trick_features
from piquet.ai.books import SimpleAgent
from piquet.engine.actions import Bid
from piquet.engine.partie import Partie, Phase


def solved_contract(seed: int) -> tuple[bool, int, int, int]:
    """A contract's sign, the holder's and the opponent's hands at the first lead, and the tricks
    the holder takes with both playing perfectly."""
    rng = random.Random(seed)
    partie = Partie(("A", "B"), "auction", first_dealer=rng.randrange(2))
    partie.push(partie.random_deal(rng))
    holder, minus = rng.randrange(2), rng.random() < 0.5
    first = partie.to_act
    assert first is not None
    calls = [Bid(first, "pass")] if holder != first else []
    for call in [*calls, Bid(holder, "7-" if minus else "7+"), Bid(1 - holder, "pass")]:
        partie.push(call)
    books = SimpleAgent(random.Random(seed))
    while partie.phase is not Phase.PLAY:
        seat = partie.to_act
        assert seat is not None
        partie.push(books.choose(partie.view(seat), partie.legal_actions(seat)))
    hands = (partie.hand(0).mask, partie.hand(1).mask)
    tricks = holder_tricks(hands, holder, minus)
    return minus, hands[holder], hands[1 - holder], tricks


def main(argv: list[str] | None = None) -> int:
    deals = solve_many(solved_contract, __doc__ or "", 1600, argv, chunksize=8)
    fitted = []
    for minus in (False, True):
        chosen = [d for d in deals if d[0] == minus]
        rows = [trick_features(h, o, minus) for _, h, o, _ in chosen]
        targets = [t for *_, t in chosen]
        cut = len(rows) * 4 // 5
        weights = least_squares(rows[:cut], targets[:cut])
        r2, rmse = judge(weights, rows[cut:], targets[cut:])
        r2_now, rmse_now = judge(TRICK_WEIGHTS[minus], rows[cut:], targets[cut:])
        print(f"{'minus' if minus else 'plus'}: {len(chosen)} contracts solved; held-out fifth: R2 {r2:.3f}, "
              f"RMSE {rmse:.2f} tricks (the weights in use: R2 {r2_now:.3f}, RMSE {rmse_now:.2f})")
        fitted.append("(" + ", ".join(f"{w:.3f}" for w in weights) + ")")
    print("TRICK_WEIGHTS = (\n    " + ",\n    ".join(fitted) + ",\n)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
