"""Shared builders for the law tests: hand-picked deals, and actions in the engine's notation.

Seat 0 is Ann, seat 1 is Bill.  With ``first_dealer=0`` Ann deals the first deal, so she
is younger and Bill is elder.
"""

from __future__ import annotations

import importlib.util
import random
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType

from hypothesis import settings

from piquet.ai.agent import RandomAgent
from piquet.engine.actions import Action, CarteBlanche, Concede, Deal, Declare, Play, parse_action
from piquet.engine.cards import FULL_PACK, Card, CardSet
from piquet.engine.events import LogEntry
from piquet.engine.partie import Partie, Phase
from piquet.engine.scoring import ScoreCategory, ScoreEvent
from piquet.engine.words import said

NAMES = ("Ann", "Bill")
TOOLS = Path(__file__).resolve().parent.parent / "tools"


def examples(n: int) -> int:
    """How many examples a property test draws: ``n`` under the default profile, scaled with the profile's
    ``max_examples`` (100 by default; the inner loop's ``quick`` profile, 20, draws a fifth), at least one."""
    drawn: int = settings().max_examples  # the loaded profile's
    return max(1, n * drawn // 100)


def load_tool(name: str) -> ModuleType:
    """A measuring tool of ``tools/`` by its name, imported as a module."""
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module
ANN, BILL = 0, 1


def cs(text: str) -> CardSet:
    return CardSet.parse(text)


def card(text: str) -> Card:
    return Card.parse(text)


def make_deal(ann: str, bill: str, talon: str, dealer: int = ANN, packets: int | None = 3) -> Deal:
    """A deal from strings: Ann's 12 cards, Bill's 12 cards, the talon top first."""
    return Deal(dealer, (cs(ann), cs(bill)), tuple(card(c) for c in talon.replace(",", " ").split()), packets)


def new_partie(options: dict[str, object] | None = None, first_dealer: int = ANN,
               variant: str = "rubicon") -> Partie:
    return Partie(NAMES, variant, options=options, first_dealer=first_dealer)


def dealt(ann: str, bill: str, talon: str, options: dict[str, object] | None = None,
          packets: int | None = 3, variant: str = "rubicon") -> Partie:
    """A partie with Ann dealing the given deal (Bill elder, or in Auction Piquet Bill bids first)."""
    partie = new_partie(options, variant=variant)
    partie.push(make_deal(ann, bill, talon, ANN, packets))
    return partie


def act(text: str) -> Action:
    """An action in the engine's notation with its player named first (:func:`piquet.engine.actions.parse_action`):
    ``"Bill: x 7D 8D"``, ``"Ann: x 9S show"``, ``"Bill: point AS KS QS"``, ``"Ann: sets -"``, ``"Bill: AS"``,
    ``"Bill: cb 3"``, ``"Ann: cb no"``, ``"Ann: concede"``, ``"Bill: bid 8+"``."""
    return parse_action(text, names=NAMES)


def run(partie: Partie, actions: Iterable[str | Action]) -> Partie:
    """Push each of ``actions``, those given as text read by :func:`act`."""
    for a in actions:
        partie.push(act(a) if isinstance(a, str) else a)
    return partie


def declare_nothing(partie: Partie) -> None:
    """Both players declare nothing in every category still to declare."""
    while partie.phase is Phase.DECLARE:
        seat = partie.to_act
        declaration = next(iter(partie.legal_actions()))
        assert seat is not None and isinstance(declaration, Declare)
        partie.push(Declare(seat, declaration.category, ()))


def first_legal(partie: Partie) -> Action:
    return next(iter(partie.legal_actions()))


def play_out(partie: Partie) -> None:
    """Finish the current deal deterministically: each player plays his first legal card."""
    number = partie.deal_number
    while partie.phase is Phase.PLAY and partie.deal_number == number:
        legal = [a for a in partie.legal_actions() if isinstance(a, Play)]
        assert legal, "no legal play"
        partie.push(legal[0])


def random_step(partie: Partie, rng: random.Random) -> None:
    """One step of a partie played by chance: the cut and the deal drawn, any other choice one of the legal ones."""
    if partie.phase is Phase.CUT:
        partie.push(partie.random_cut(rng))
    elif partie.phase is Phase.DEAL:
        partie.push(partie.random_deal(rng))
    else:
        partie.push(rng.choice(list(partie.legal_actions())))


def played_by_chance(partie: Partie, rng: random.Random) -> Partie:
    """``partie`` played to its end by chance (:func:`random_step`)."""
    while not partie.is_over:
        random_step(partie, rng)
    return partie


def events_of(partie: Partie, category: ScoreCategory, seat: int | None = None) -> list[ScoreEvent]:
    return [e for e in partie.events if e.category is category and (seat is None or e.player == seat)]


def points(partie: Partie, category: ScoreCategory, seat: int) -> int:
    return sum(e.points for e in events_of(partie, category, seat))


def log_texts(log: Iterable[LogEntry], names: Sequence[str] = NAMES) -> list[str]:
    """What a log says, line by line, as the table shows it (a card played in record notation); scores
    are left out."""
    return [line.text for entry in log if not isinstance(entry, ScoreEvent) for line in said(entry, names)]


def says(partie: Partie) -> list[str]:
    """What the current deal's log says (:func:`log_texts`)."""
    return log_texts(partie.view(None).log, partie.players)


def all_views(partie: Partie) -> tuple[object, ...]:
    return (partie.view(0), partie.view(1), partie.view(None))


class SinkingAgent(RandomAgent):
    """Random play that declares nothing and never announces carte blanche: keeps scores low."""

    def choose(self, view, legal):  # type: ignore[no-untyped-def]
        actions = legal.list()
        if view.phase is Phase.DECLARE:
            return next(a for a in actions if isinstance(a, Declare) and not a.combinations)
        if view.phase is Phase.CARTE_BLANCHE:
            return next(a for a in actions if isinstance(a, CarteBlanche) and not a.announce)
        actions = [a for a in actions if not isinstance(a, Concede)]
        if view.phase is Phase.EXCHANGE:
            sizes = sorted({len(a.discards) for a in actions})
            n = self.rng.choice(sizes)
            actions = [a for a in actions if len(a.discards) == n]
        return self.rng.choice(actions)


def agents(seed: int, cls: type[RandomAgent] = RandomAgent) -> tuple[RandomAgent, RandomAgent]:
    return cls(random.Random(seed * 2 + 1)), cls(random.Random(seed * 2 + 2))


_CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(10|[AKQJT987])([SHDC♠♥♦♣])(?![A-Za-z])")


def cards_in_text(text: str) -> CardSet:
    """Every card named in a text (record notation or with suit symbols)."""
    mask = 0
    for rank, suit in _CARD_TOKEN.findall(text):
        mask |= Card.parse(rank + suit).mask
    return CardSet(mask)


def full(cards: Sequence[CardSet]) -> bool:
    m = 0
    for c in cards:
        m |= c.mask
    return m == FULL_PACK


# ---------------------------------------------------------------- hand-picked deals
# BASE: Ann deals (younger), Bill is elder.  Bill discards 7C and draws KC; Ann discards 8S and
# draws 7D.  After the exchange:
#   Bill: AS KS QS JS TS 9S  AH KH  AD KD  AC KC   (point of six making 60, sixieme major,
#         fourteen aces, fourteen kings)
#   Ann:  QH JH TH 9H 8H 7H  QD JD TD 9D 8D 7D     (two points of six making 54, two sixiemes
#         to the queen)
#   rest of the talon: 7S QC JC TC 9C 8C
BASE_BILL = "AS KS QS JS TS 9S AH AD AC KH KD 7C"
BASE_ANN = "QH JH TH 9H 8H 7H QD JD TD 9D 8D 8S"
BASE_TALON = "KC 7D 7S QC JC TC 9C 8C"
BASE_EXCHANGE = ("Bill: x 7C", "Ann: x 8S")
BILL_POINT6 = "AS KS QS JS TS 9S"
BILL_SIXIEME = "AS KS QS JS TS 9S"
BILL_ACES = "AS AH AD AC"
BILL_KINGS = "KS KH KD KC"
ANN_HEARTS = "QH JH TH 9H 8H 7H"
ANN_DIAMONDS = "QD JD TD 9D 8D 7D"


def base(options: dict[str, object] | None = None, show_rest: bool = False) -> Partie:
    """The BASE deal after both exchanges (Bill to declare his point)."""
    partie = dealt(BASE_ANN, BASE_BILL, BASE_TALON, options)
    run(partie, ["Bill: x 7C", "Ann: x 8S" + (" show" if show_rest else "")])
    return partie


# CB: Bill (elder) is dealt carte blanche (no king, queen or knave); Ann holds every court card.
CB_BILL = "AS TS 9S 8S 7S AH TH 9H AD TD AC TC"
CB_ANN = "KS QS JS KH QH JH KD QD JD KC QC JC"
CB_TALON = "8H 7H 9D 8D 7D 9C 8C 7C"


# THIRTY: Ann deals; Bill (elder) discards the 7D and draws the 7H: a point of eight and a huitième in spades and a
# quart in hearts make his thirty (8 + 18 + 4) by his sequences. Ann stands pat with four trios (12), which come
# after his sequences in the order of reckoning.
THIRTY_BILL = "AS KS QS JS TS 9S 8S 7S TH 9H 8H 7D"
THIRTY_ANN = "AH KH QH JH AD KD QD JD AC KC QC JC"
THIRTY_TALON = "7H TD TC 9D 8D 9C 8C 7C"
THIRTY_DECLARE = ["Bill: x 7D", "Ann: x -", "Bill: point AS KS QS JS TS 9S 8S 7S",
                  "Ann: point -", "Bill: sequences AS KS QS JS TS 9S 8S 7S | TH 9H 8H 7H",
                  "Ann: sequences -", "Bill: sets -", "Ann: sets AH AD AC | KH KD KC |"
                  "QH QD QC | JH JD JC"]
# TWENTY_NINE: the same, but the 9D drawn: his tierce in hearts makes 29 in hand, and Ann sinks her trios, so his
# first lead makes thirty before she has scored.
TWENTY_NINE_TALON = "9D TD TC 7H 8D 9C 8C 7C"
TWENTY_NINE_DECLARE = ["Bill: x 7D", "Ann: x -", "Bill: point AS KS QS JS TS 9S 8S 7S",
                       "Ann: point -", "Bill: sequences AS KS QS JS TS 9S 8S 7S | TH 9H 8H",
                       "Ann: sequences -", "Bill: sets -", "Ann: sets -"]
