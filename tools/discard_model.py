"""Choose how sharp the discard model of the inference is (``piquet.ai.inference.DISCARD_BETA``).

Deals are dealt at random and exchanged and declared by the simple player, who throws as the
books advise. At elder's first lead, younger's inference resamples elder's possible hands
(``Inference.resample``) with each sharpness tried, and the frequency of each hidden card in
elder's hand across the worlds is scored against where the card really is: the mean log loss
per hidden card (lower is better; 0 sharpness is the uniform sampler).

    python3 tools/discard_model.py --deals 200 --worlds 60

A sharpness that is too high is worse than none: it trusts a model of the exchange that judges
the cards elder threw in the hand he ended with, not the one he held.
"""

from __future__ import annotations

import argparse
import math
import random

from piquet.ai.books import SimpleAgent
from piquet.ai.inference import Inference, World
from piquet.engine.partie import Partie, Phase


def exchanged_deal(seed: int) -> Partie | None:
    """A deal exchanged and declared by the simple player, at elder's first lead (``None`` if the
    deal ended before the play, as with a carte blanche conceded)."""
    rng = random.Random(seed)
    partie = Partie(("Elder", "Younger"), first_dealer=rng.randrange(2))
    partie.push(partie.random_deal(rng))
    agents = (SimpleAgent(random.Random(seed + 1)), SimpleAgent(random.Random(seed + 2)))
    while partie.phase is not Phase.PLAY:
        seat = partie.to_act
        if seat is None or partie.phase is Phase.DEAL:
            return None
        partie.push(agents[seat].choose(partie.view(seat), partie.legal_actions(seat)))
    return partie


def log_loss(worlds: list[World], partie: Partie) -> tuple[float, int]:
    """The summed log loss of the worlds' card frequencies in elder's hand, and the cards scored."""
    elder = partie.elder
    assert elder is not None
    held = partie.hand(elder)
    hidden = set(worlds[0].opponent_hand) | set(worlds[0].opponent_discards) | set(worlds[0].talon)
    total = 0.0
    for card in hidden:
        p = (sum(card in w.opponent_hand for w in worlds) + 0.5) / (len(worlds) + 1)
        total -= math.log(p if card in held else 1 - p)
    return total, len(hidden)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=60)
    parser.add_argument("--betas", default="0,0.05,0.1,0.15,0.25,0.4")
    args = parser.parse_args()
    betas = [float(b) for b in args.betas.split(",")]
    deals = [p for p in (exchanged_deal(seed) for seed in range(args.deals)) if p is not None]
    print(f"{len(deals)} deals exchanged by the simple player; {args.worlds} worlds each")
    print("sharpness  log loss per hidden card")
    for beta in betas:
        loss = 0.0
        cards = 0
        for seed, partie in enumerate(deals):
            elder = partie.elder
            assert elder is not None
            inference = Inference(partie.view(1 - elder))
            worlds = inference.resample(random.Random(seed), args.worlds, beta=beta)
            summed, n = log_loss(worlds, partie)
            loss += summed
            cards += n
        print(f"{beta:9.2f}  {loss / cards:.4f}")


if __name__ == "__main__":
    main()
