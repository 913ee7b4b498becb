"""Piquet: a rules engine exact to the published laws, game records, and play.

>>> from piquet import Partie, CardSet
>>> partie = Partie(("Ann", "Bill"), first_dealer=0)
>>> partie.phase.value, partie.player_name(partie.to_act)
('deal', 'Ann')
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
        Play,
    )
    from piquet.engine.cards import CARDS, Card, CardError, CardSet, Rank, Suit
    from piquet.engine.combinations import Category
    from piquet.engine.events import (
        AuctionWon,
        BidCalled,
        CardPlayed,
        CardsDivided,
        CarteBlancheAnnounced,
        CarteBlancheShown,
        Conceded,
        ConcessionAnswered,
        CutMade,
        DealAnnulled,
        DealBegun,
        DealEnded,
        DealerChosen,
        DeclarationAnswered,
        Declared,
        Event,
        Exchanged,
        FirstLead,
        GameWon,
        LogEntry,
        NewGameCut,
        PartieEnded,
        RestShown,
        SecondCall,
        SecondCallAsked,
    )
    from piquet.engine.partie import IllegalActionError, LegalActions, Partie, Phase
    from piquet.engine.scoring import DealScore, ScoreCategory, ScoreEvent, Settlement
    from piquet.engine.variants import Contract, OptionError, Rules, make_rules
    from piquet.engine.view import PlayerView, Trick
    from piquet.engine.words import Speech, said

__version__ = "0.1.0"

#: Where each name of the package's top level lives: imported on first use (PEP 562), so that a command that
#: needs none of the engine (``piquet --version``) does not load it.
_MODULES: dict[str, tuple[str, ...]] = {
    "piquet.engine.actions": (
        "AcceptConcession", "Action", "Bid", "CarteBlanche", "ChooseDealer", "Concede", "Cut", "Deal", "Declare",
        "Exchange", "Play",
    ),
    "piquet.engine.cards": (
        "CARDS", "Card", "CardError", "CardSet", "Rank", "Suit",
    ),
    "piquet.engine.combinations": (
        "Category",
    ),
    "piquet.engine.events": (
        "AuctionWon", "BidCalled", "CardPlayed", "CardsDivided", "CarteBlancheAnnounced", "CarteBlancheShown",
        "Conceded", "ConcessionAnswered", "CutMade", "DealAnnulled", "DealBegun", "DealEnded", "DealerChosen",
        "DeclarationAnswered", "Declared", "Event", "Exchanged", "FirstLead", "GameWon", "LogEntry", "NewGameCut",
        "PartieEnded", "RestShown", "SecondCall", "SecondCallAsked",
    ),
    "piquet.engine.partie": (
        "IllegalActionError", "LegalActions", "Partie", "Phase",
    ),
    "piquet.engine.scoring": (
        "DealScore", "ScoreCategory", "ScoreEvent", "Settlement",
    ),
    "piquet.engine.variants": (
        "Contract", "OptionError", "Rules", "make_rules",
    ),
    "piquet.engine.view": (
        "PlayerView", "Trick",
    ),
    "piquet.engine.words": (
        "Speech", "said",
    ),
}
_HOMES: dict[str, str] = {name: module for module, names in _MODULES.items() for name in names}

__all__ = [
    "CARDS",
    "AcceptConcession",
    "Action",
    "AuctionWon",
    "Bid",
    "BidCalled",
    "Card",
    "CardError",
    "CardPlayed",
    "CardSet",
    "CardsDivided",
    "CarteBlanche",
    "CarteBlancheAnnounced",
    "CarteBlancheShown",
    "Category",
    "ChooseDealer",
    "Concede",
    "Conceded",
    "ConcessionAnswered",
    "Contract",
    "Cut",
    "CutMade",
    "Deal",
    "DealAnnulled",
    "DealBegun",
    "DealEnded",
    "DealScore",
    "DealerChosen",
    "DeclarationAnswered",
    "Declare",
    "Declared",
    "Event",
    "Exchange",
    "Exchanged",
    "FirstLead",
    "GameWon",
    "IllegalActionError",
    "LegalActions",
    "LogEntry",
    "NewGameCut",
    "OptionError",
    "Partie",
    "PartieEnded",
    "Phase",
    "Play",
    "PlayerView",
    "Rank",
    "RestShown",
    "Rules",
    "ScoreCategory",
    "ScoreEvent",
    "SecondCall",
    "SecondCallAsked",
    "Settlement",
    "Speech",
    "Suit",
    "Trick",
    "make_rules",
    "said",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'piquet' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])
