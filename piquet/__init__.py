"""Piquet: a rules engine exact to the published laws, game records, and play.

>>> from piquet import Partie, CardSet
>>> partie = Partie(("Ann", "Bill"), first_dealer=0)
>>> partie.phase.value, partie.player_name(partie.to_act)
('deal', 'Ann')
"""

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
from piquet.engine.partie import IllegalActionError, LegalActions, Partie, Phase
from piquet.engine.scoring import DealScore, ScoreCategory, ScoreEvent, Settlement
from piquet.engine.variants import Contract, OptionError, Rules, make_rules
from piquet.engine.view import PlayerView, Speech, Trick

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "AcceptConcession",
    "Action",
    "Bid",
    "Card",
    "CardError",
    "CardSet",
    "CarteBlanche",
    "Category",
    "ChooseDealer",
    "Concede",
    "Contract",
    "Cut",
    "Deal",
    "DealScore",
    "Declare",
    "Exchange",
    "IllegalActionError",
    "LegalActions",
    "OptionError",
    "Partie",
    "Phase",
    "Play",
    "PlayerView",
    "Rank",
    "Rules",
    "ScoreCategory",
    "ScoreEvent",
    "Settlement",
    "Speech",
    "Suit",
    "Trick",
    "make_rules",
]
