"""Piquet: a rules engine exact to the published laws, game records, and play.

>>> from piquet import Partie, CardSet
>>> partie = Partie(("Ann", "Bill"), first_dealer=0)
>>> partie.phase.value, partie.player_name(partie.to_act)
('deal', 'Ann')
"""

from piquet.actions import (
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
from piquet.cards import CARDS, Card, CardError, CardSet, Rank, Suit
from piquet.combinations import Category
from piquet.game import IllegalActionError, LegalActions, Partie, Phase
from piquet.scoring import DealScore, ScoreCategory, ScoreEvent, Settlement
from piquet.variant import OptionError, Rules, make_rules
from piquet.view import PlayerView, Speech, Trick

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
