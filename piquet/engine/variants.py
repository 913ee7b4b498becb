"""Variants and rule options.

A variant is a :class:`Rules` subclass found by name in :data:`VARIANTS`:
``"rubicon"`` (:class:`Rubicon`, the default), ``"auction"`` (:class:`Auction`)
and ``"au-cent"`` (:class:`AuCent`). Its rule options are data
(:class:`RuleOption`), each with its default, its type, and the source of the
reading it selects. The engine asks the rules object, never
``if variant == ...``.

>>> rules = make_rules("rubicon", {"minimum_point": 4})
>>> rules.minimum_point, rules.changed()
(4, {'minimum_point': 4})
>>> make_rules("rubicon", {"minimum_point": "four"})
Traceback (most recent call last):
...
piquet.engine.variants.OptionError: option 'minimum_point' must be an integer from 1 to 8, not 'four'
>>> make_rules("auction").younger_minimum_exchange, make_rules("au-cent").packet_sizes()
(0, (2,))
"""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from piquet.engine.cards import Card, CardSet, Rank
from piquet.engine.combinations import Category, pips
from piquet.engine.combinations import value as combination_value
from piquet.engine.scoring import (
    ContractMadeReason,
    ContractTricksReason,
    OwnLeadReason,
    PlainReason,
    Reason,
    TrickReason,
)

__all__ = [
    "OPTIONS",
    "VARIANTS",
    "AuCent",
    "Auction",
    "Award",
    "Contract",
    "GameResult",
    "OptionError",
    "Rubicon",
    "RuleOption",
    "Rules",
    "games_won",
    "make_rules",
    "parse_bid",
    "parse_options",
    "rules_for",
]


class OptionError(ValueError):
    """An unknown variant or rule option, or a value it cannot take."""


@dataclass(frozen=True)
class RuleOption:
    """One named rule option: its default, what it means, and where the reading comes from."""

    name: str
    default: bool | int
    description: str
    source: str
    minimum: int = 0
    maximum: int = 0

    def check(self, value: object) -> bool | int:
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name!r} must be true or false, not {value!r}")
            return value
        if isinstance(value, bool) or not isinstance(value, int) or not self.minimum <= value <= self.maximum:
            raise OptionError(
                f"option {self.name!r} must be an integer from {self.minimum} to {self.maximum}, not {value!r}"
            )
        return value


#: Every rule option, by name; each variant offers some of them, with its own defaults.
OPTIONS: dict[str, RuleOption] = {
    o.name: o
    for o in (
        RuleOption(
            "minimum_point", 1, "The shortest point that may be declared and scored.",
            "A common house rule (a minimum point of four), the project's rulings, 7; Cavendish sets no minimum.",
            1, 8,
        ),
        RuleOption(
            "cards_count_toward_pique", False,
            "The ten for the cards is scored as soon as a player has won seven tricks, and counts toward a pique "
            "(and in Piquet au Cent toward the hundred, at that moment).",
            "The reading of Law 69 that pagat's Piquet page describes as a misinterpretation (rules/000, "
            "Variations); Law 67 reckons the cards after the play.",
        ),
        RuleOption(
            "elder_may_stand_pat", False, "Elder may exchange no cards.",
            "Auction Piquet (Lunn) lets elder discard none; Cavendish's Law 21 requires at least one.",
        ),
        RuleOption(
            "younger_may_stand_pat", False, "Younger may exchange no cards.",
            "Piquet au Cent and Auction Piquet let younger stand pat; Cavendish's Law 22 requires at least one.",
        ),
        RuleOption(
            "lead_point_only_if_won", False,
            "The leader scores his point for a lead only when he wins the trick he led.",
            "A reading some sources give, noted in the footnote on trick scoring in rules/002.",
        ),
        RuleOption(
            "points_for_winning_opponents_lead", 1,
            "What winning a trick the opponent led scores (1 or 2).",
            "Some sources score 2, as noted in the footnote on trick scoring in rules/002; Law 65 scores 1.",
            1, 2,
        ),
        RuleOption(
            "low_cards_score_nothing_in_play", False,
            "Nines, eights and sevens score nothing when led or when they win a trick (younger can then pique).",
            "Cavendish's Laws of Piquet au Cent, \"by agreement\"; Hoyle's Games, Improved and Enlarged (\"counting "
            "one for each, except it be a nine or an inferior card\"); pagat's Variations (rules/000).",
        ),
        RuleOption(
            "points_ending_in_four_count_one_less", False,
            "A point whose pips end in four (44, 54, ...) scores one less than its number of cards.",
            "Cavendish's Laws of Piquet au Cent, \"by agreement\".",
        ),
        RuleOption(
            "four_deal_partie", False,
            "A partie of four deals, the first and the last counting double; after a tie each deals once more, "
            "the extra deals counting single.",
            "Cavendish's note to Law 71: \"By agreement, a partie may consist of four deals, the score in the "
            "first and last deals counting double. In case of a tie, each deals once more, the scores in the extra "
            "deals counting single\" (the project's rulings, 16).",
        ),
        RuleOption(
            "deal_in_threes_only", False, "The dealer must deal in packets of three.",
            "An alternative in the project's rulings, 2 (Law 9 allows twos or threes).",
        ),
        RuleOption(
            "concession_may_be_declined", False,
            "The opponent of a player who concedes the last deal may decline the concession and play on "
            "(for a capot).",
            "Cavendish's treatise, Scoring: of the player who concedes, \"Or, his adversary may play for a "
            "capot\"; the project's rulings, 18, make the concession final by default.",
        ),
        RuleOption(
            "carte_blanche", True,
            "A hand dealt without king, queen or knave may be announced as carte blanche and scores 10.",
            "Cavendish's Laws 18-20 (always in Rubicon Piquet and Piquet au Cent); Lunn's Auction laws do not "
            "mention it, so it is off in Auction Piquet by default. With it there, that it is announced once the "
            "auction is over and scores for its holder in a minus contract too are ours.",
        ),
        RuleOption(
            "elder_sees_cards_left", True,
            "Elder, exchanging fewer than five, may look at the cards he left of the top five.",
            "Cavendish's Law 33; Lunn's Auction laws give elder no such look, so it is off in Auction Piquet by "
            "default.",
        ),
        RuleOption(
            "redouble_counts_as_double", False,
            "A redouble counts as one of the two doubles an auction allows.",
            "Lunn's \"no more than two doubles are allowed in any round of bidding\" does not say whether a "
            "redouble is one of them; by default it is not.",
        ),
        RuleOption(
            "fresh_cut_each_game", False,
            "The players cut again for the deal at the start of every game after the first; the lower cut deals.",
            "Hoyle's Games, Improved and Enlarged (Piquet): \"When you begin another game, the cards must be cut "
            "afresh for the deal, unless it be agreed upon at first, that the deal shall go on\". Cavendish's Laws "
            "of Piquet au Cent do not mention it: by default the deal alternates through the partie (Law 16).",
        ),
        RuleOption(
            "carte_rouge", False,
            "Carte rouge: a hand every card of which is part of a combination its holder scores (point, "
            "sequences or sets) scores 40 more, reckoned after the sets and counting toward pique and repique.",
            "Parlett (The Penguin Book of Card Games, Piquet, Variations: \"a bonus of 40 for carte rouge, "
            "defined as a hand of which every single card forms part of at least one scoring combination\"); "
            "that the combinations must be scored, and where it is reckoned, are ours: the source does not say.",
        ),
        RuleOption(
            "ten_for_the_last_trick", False,
            "The play scores a flat 1 for each trick won (nothing for leading) and 10 more for the last trick; "
            "there is no ten for the cards (a capot still scores 40).",
            "Parlett (The Penguin Book of Card Games, Piquet, Variations, \"10 for last\"); the capot's 40 is "
            "ours: the source does not say.",
        ),
        RuleOption(
            "play_ceases_at_the_target", False,
            "The deal stops the moment a player reaches the game's target in the order of reckoning: the "
            "declaration or the card that reaches it is scored (with a repique or pique it makes), and the rest of "
            "the hand is neither declared nor played, and scores nothing.",
            "Parlett (Historic Card Games, Piquet, How to play it: \"If you are playing up to a target score, play "
            "ceases the moment one player reaches that total, leaving the rest of the hand unplayed\"; he adds "
            "that no source he consulted is explicit on the point). Cavendish's Laws of Piquet au Cent give no way "
            "to break a deal off, so by default it is played to its end.",
        ),
        RuleOption(
            "game_of_101", False,
            "A game is 101 up, not 100 (a double game still if the loser has under 50 when the winner reaches it).",
            "Hoffmann, Hoyle's Games Modernized (Piquet, The final score): \"Hoyle adhered to this [100], but at "
            "some later period the 100 was altered to 101. This was also the ordinary way of playing the game in "
            "France\"; Hoyle's Games, Improved and Enlarged: \"The game consists of 101 points\". That the double "
            "game stays under 50 is ours: the sources do not say.",
        ),
        RuleOption(
            "calls_named_unless_good", False,
            "Elder calls a sequence with its top card (\"Quart to the king\") and a trio or quatorze with its rank "
            "(\"Three kings\"), unless the call is good against the cards, when he says its length alone (\"Quart\", "
            "\"Set of three\"); nobody asks \"How high?\". By default a sequence is called by its length, its top "
            "card said only when younger asks at an equal length, and a set always with its rank.",
            "Cavendish's Law 48: \"It is sufficient to call the number of cards of a sequence if the call be good "
            "against the cards. If not good against the cards, the elder hand is bound to state to what card his "
            "sequence is. And similarly, in calling a quatorze or trio, the elder hand is bound to state the value "
            "of the cards of which it consists, unless the call is good against the cards\". The default is the "
            "project's rulings, 11.",
        ),
        RuleOption(
            "calls_shown_at_once", False,
            "Elder's combinations allowed good or equal are shown as soon as younger has answered, before he "
            "leads (younger's still once he has led); by default both are shown once he has led.",
            "Cavendish's Law 55: a player \"must show the cards called at any time they are asked for, or in the "
            "case of the younger hand, at any time after the elder hand has led a card\": with the option younger "
            "always asks at once. The Laws of Piquet au Cent: elder \"must show the cards called, except in the "
            "case of quatorzes and trios. If he lead a card without showing his call, he cannot reckon it\".",
        ),
        RuleOption(
            "carte_blanche_must_be_announced", False,
            "A player dealt carte blanche must announce it.",
            "Cavendish's Law 20 binds the holder to announce it; the project's default leaves it optional.",
        ),
    )
}


@dataclass(frozen=True)
class Contract:
    """An Auction Piquet contract: who holds it, how many tricks to win (plus) or lose (minus),
    and whether it was doubled (1) or redoubled (2).

    >>> str(Contract(0, 8, True, 1)), str(Contract(1, 12, False))
    ('8- doubled', '12+')
    """

    holder: int
    tricks: int
    minus: bool
    doubles: int = 0

    @property
    def bid(self) -> str:
        return f"{self.tricks}{'-' if self.minus else '+'}"

    @property
    def multiplier(self) -> int:
        return (1, 2, 4)[self.doubles]

    def margin(self, tricks_won: tuple[int, int]) -> int:
        """By how many tricks the contract was made (0: just made; more: overtricks) or failed (negative: down),
        by the tricks each seat won: a plus contract counts the holder's tricks, a minus contract the tricks he lost.

        >>> Contract(0, 8, False).margin((10, 2)), Contract(0, 8, True).margin((6, 6))
        (2, -2)
        >>> Contract(1, 7, False).margin((7, 5))
        -2
        """
        made = tricks_won[1 - self.holder] if self.minus else tricks_won[self.holder]
        return made - self.tricks

    def __str__(self) -> str:
        return self.bid + ("", " doubled", " redoubled")[self.doubles]


def parse_bid(text: str) -> str:
    """Normalise a bid: ``"8+"``, ``"11-"``, ``"pass"``, ``"double"`` or ``"redouble"``.

    >>> parse_bid(" 9 + "), parse_bid("PASS"), parse_bid("10-")
    ('9+', 'pass', '10-')
    >>> parse_bid("13+")
    Traceback (most recent call last):
    ...
    ValueError: not a bid: '13+' (bid 7 to 12 with + or -, e.g. '8+', or pass, double, redouble)
    """
    t = text.replace(" ", "").lower() if isinstance(text, str) else ""
    if t in ("pass", "double", "redouble"):
        return t
    # ASCII digits only: "٨+" is not read as 8+, nor "²+" handed to int().
    if len(t) >= 2 and t[-1] in "+-" and t[:-1].isascii() and t[:-1].isdigit() and 7 <= int(t[:-1]) <= 12:
        return f"{int(t[:-1])}{t[-1]}"
    raise ValueError(f"not a bid: {text!r} (bid 7 to 12 with + or -, e.g. '8+', or pass, double, redouble)")


@dataclass(frozen=True)
class GameResult:
    """A game of Piquet au Cent: its winner, whether it was a double game, and the scores."""

    winner: int
    double: bool
    #: The scores in the game at the end of the deal in which it was won (the score sheet).
    scores: tuple[int, int]
    #: The scores in the game at the moment the winner reached the target, in the order of reckoning.
    reached: tuple[int, int] = (0, 0)
    #: The deal (counted from 1 in the partie) in which the game was won.
    deal: int = 0


def games_won(games: Iterable[GameResult]) -> tuple[int, int]:
    """Piquet au Cent: the games each player has won, a double game counting two."""
    won = [0, 0]
    for game in games:
        won[game.winner] += 2 if game.double else 1
    return won[0], won[1]


Award = tuple[int, int, Reason]  # (seat, points, why)


def _offered(variant: type[Rules]) -> tuple[dict[str, RuleOption], dict[str, bool | int]]:
    """The options a variant offers, by name, with the variant's defaults, and those defaults: made once for
    each variant (a partie makes its rules when it begins). Read only."""
    found = _OFFERED.get(variant)
    if found is None:
        offered = {name: replace(OPTIONS[name], default=variant.DEFAULTS.get(name, OPTIONS[name].default))
                   for name in variant.OPTION_NAMES}
        found = _OFFERED[variant] = offered, {name: option.default for name, option in offered.items()}
    return found


_OFFERED: dict[type[Rules], tuple[dict[str, RuleOption], dict[str, bool | int]]] = {}


class Rules:
    """The rules of Rubicon Piquet (Cavendish, 1882) with rule options applied.

    Subclasses for the other variants override what differs.
    """

    name: ClassVar[str] = "rubicon"
    title: ClassVar[str] = "Rubicon Piquet"
    #: The options this variant offers, and the defaults that differ from :data:`OPTIONS`'.
    OPTION_NAMES: ClassVar[tuple[str, ...]] = (
        "minimum_point", "cards_count_toward_pique", "elder_may_stand_pat", "younger_may_stand_pat",
        "lead_point_only_if_won", "points_for_winning_opponents_lead", "low_cards_score_nothing_in_play",
        "four_deal_partie", "deal_in_threes_only", "carte_blanche_must_be_announced",
        "concession_may_be_declined", "carte_rouge", "ten_for_the_last_trick", "calls_shown_at_once",
        "calls_named_unless_good",
    )
    DEFAULTS: ClassVar[dict[str, bool | int]] = {}

    OPTIONS: tuple[RuleOption, ...]
    values: dict[str, bool | int]
    key: tuple[tuple[str, bool | int], ...]

    uses_bidding: ClassVar[bool] = False
    #: Piquet au Cent: the lower cut deals, with no choice.
    lower_cut_deals: ClassVar[bool] = False
    allows_concession: ClassVar[bool] = True
    #: Law 55: combinations scored are shown (Piquet au Cent: sets are not).
    shows_sets: ClassVar[bool] = True
    #: Piquet au Cent: younger may announce her carte blanche after elder has discarded.
    younger_carte_blanche_after_elder_discards: ClassVar[bool] = False
    #: Piquet au Cent: the partie is played in games, won by the first to win ``games_to_win``.
    plays_games: ClassVar[bool] = False
    games_to_win: ClassVar[int] = 0
    #: Piquet au Cent: the points a game is played to (``None``: no games); with the option ``game_of_101``, 101.
    game_target: int | None = None

    #: The law that has the players deal alternately (cited when the wrong player deals).
    alternate_deal_source: ClassVar[str] = "Law 16"
    deals_after_tie: ClassVar[int] = 2
    rubicon: ClassVar[int] = 100
    settlement_bonus: ClassVar[int] = 100
    elder_maximum_exchange: ClassVar[int] = 5
    carte_blanche_points: ClassVar[int] = 10
    cards_points: ClassVar[int] = 10
    capot_points: ClassVar[int] = 40
    repique_points: ClassVar[int] = 60
    #: What the opponent of a player who concedes counts for the play (the treatise: "every trick (thirteen)").
    conceded_play_points: ClassVar[int] = 13
    pique_points: ClassVar[int] = 30

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        offered, defaults = _offered(type(self))
        self.OPTIONS = tuple(offered.values())
        values = dict(defaults)
        for name, value in (options or {}).items():
            if name not in offered:
                names = ", ".join(sorted(offered)) or "none"
                raise OptionError(f"unknown rule option {name!r} for {self.name} (known: {names})")
            values[name] = offered[name].check(value)
        self.values = values
        #: The options' values as one hashable value, in the order of their names: with the variant's name, what
        #: tells these rules from others (the engine keeps what they answer by it).
        self.key: tuple[tuple[str, bool | int], ...] = tuple(sorted(values.items()))

    def option(self, name: str) -> bool | int:
        """An option's value (its variant default if the variant does not offer it)."""
        if name in self.values:
            return self.values[name]
        return self.DEFAULTS.get(name, OPTIONS[name].default)

    def changed(self) -> dict[str, bool | int]:
        """The options whose values differ from the variant's defaults (what a record's ``options`` holds)."""
        return {o.name: self.values[o.name] for o in self.OPTIONS if self.values[o.name] != o.default}

    # ---------------------------------------------------------------- the deal
    @property
    def minimum_point(self) -> int:
        return int(self.option("minimum_point"))

    @property
    def cards_count_toward_pique(self) -> bool:
        return bool(self.option("cards_count_toward_pique"))

    @property
    def has_carte_blanche(self) -> bool:
        """Laws 18-20: a hand dealt without a court card may be announced (option ``carte_blanche``)."""
        return bool(self.option("carte_blanche"))

    @property
    def elder_sees_cards_left(self) -> bool:
        """Law 33: elder may look at the cards he left of the top five."""
        return bool(self.option("elder_sees_cards_left"))

    @property
    def redouble_counts_as_double(self) -> bool:
        return bool(self.option("redouble_counts_as_double"))

    @property
    def concession_may_be_declined(self) -> bool:
        return bool(self.option("concession_may_be_declined"))

    @property
    def carte_rouge_points(self) -> int:
        """What a carte rouge scores (0: the option is off)."""
        return 40 if self.option("carte_rouge") else 0

    @property
    def fresh_cut_each_game(self) -> bool:
        return bool(self.option("fresh_cut_each_game"))

    @property
    def play_ceases_at_target(self) -> bool:
        """Piquet au Cent, option ``play_ceases_at_the_target`` (Parlett): the deal stops the moment a player reaches
        the game's target."""
        return bool(self.option("play_ceases_at_the_target"))

    @property
    def calls_named_unless_good(self) -> bool:
        """Law 48 by the letter, option ``calls_named_unless_good``: see :meth:`call_names`."""
        return bool(self.option("calls_named_unless_good"))

    @property
    def calls_shown_at_once(self) -> bool:
        """Law 55, option ``calls_shown_at_once``: elder's combinations allowed good or equal are shown as soon as
        younger answers, not at his lead."""
        return bool(self.option("calls_shown_at_once"))

    @property
    def carte_blanche_compulsory(self) -> bool:
        return bool(self.option("carte_blanche_must_be_announced"))

    @property
    def elder_minimum_exchange(self) -> int:
        return 0 if self.option("elder_may_stand_pat") else 1

    @property
    def younger_minimum_exchange(self) -> int:
        return 0 if self.option("younger_may_stand_pat") else 1

    def packet_sizes(self) -> tuple[int, ...]:
        """The packet sizes a dealer may choose from (Law 9)."""
        return (3,) if self.option("deal_in_threes_only") else (2, 3)

    def elder_of(self, dealer: int) -> int:
        """The elder hand of a deal before any bidding: the non-dealer."""
        return 1 - dealer

    # ---------------------------------------------------------------- declarations
    def told_at_once(self, category: Category, contract: Contract | None) -> bool:
        """Whether elder's first call settles the comparison (pips, top card or rank said at once, or a call good
        against the cards); otherwise he names the length and is asked at an equal length (Laws 46-48)."""
        return category is Category.SETS or (category is not Category.POINT and self.calls_named_unless_good)

    def call_names(self, category: Category, contract: Contract | None, good: bool) -> bool:
        """Whether elder's call says at once what decides it (the pips, the top card, the rank), as
        :meth:`told_at_once` has it; with the option ``calls_named_unless_good`` (Law 48) a sequence or set call
        that is ``good`` against the cards says its length alone."""
        return self.told_at_once(category, contract) and not (
            good and category is not Category.POINT and self.calls_named_unless_good)

    def must_declare_in_full(self, contract: Contract | None) -> bool:
        """No sinking: each player declares his best and shows every other combination."""
        return False

    #: Whether a call less than the best binds even when good against the cards (Law 49's exception).
    short_calls_bind: ClassVar[bool] = False

    def combination_points(self, category: Category, cards: CardSet) -> int:
        points = combination_value(category, cards)
        if (category is Category.POINT and self.option("points_ending_in_four_count_one_less")
                and pips(cards) % 10 == 4):
            points -= 1
        return points

    def combination_scorer(self, holder: int, contract: Contract | None) -> int:
        """Who scores a combination: its holder (in Auction minus contracts, his opponent)."""
        return holder

    # ---------------------------------------------------------------- the play
    def _counts(self, card: Card) -> bool:
        return not (self.option("low_cards_score_nothing_in_play") and card.rank < Rank.TEN)

    def play_awards_key(self, contract: Contract | None) -> Hashable:
        """What of ``contract`` the points of a card led and of a trick (:meth:`lead_points`, :meth:`trick_awards`)
        depend on: contracts with the same key score them alike, and share the table of them that
        :func:`piquet.engine.reckoning.scoring_for` keeps. Here all of it (no auction: there is none)."""
        return contract

    def lead_points(self, card: Card, contract: Contract | None) -> int:
        """Points scored when a card is led (Law 65: one for every card led)."""
        if self.option("lead_point_only_if_won") or self.option("ten_for_the_last_trick"):
            return 0
        return 1 if self._counts(card) else 0

    def trick_awards(self, leader: int, cards: tuple[Card, ...], winner: int,
                     contract: Contract | None) -> list[Award]:
        """Points scored when a trick is complete, besides the last trick (Law 65)."""
        lead, follow = cards
        if self.option("ten_for_the_last_trick"):
            return [(winner, 1, PlainReason.WINS_A_TRICK)]
        if winner != leader:
            points = int(self.option("points_for_winning_opponents_lead")) if self._counts(follow) else 0
            return [(winner, points, TrickReason(lead, follow))] if points else []
        if self.option("lead_point_only_if_won") and self._counts(lead):
            return [(leader, 1, OwnLeadReason(lead))]
        return []

    def last_trick_points(self, contract: Contract | None) -> int:
        return 10 if self.option("ten_for_the_last_trick") else 1

    def cards_awards(self, tricks_won: tuple[int, int], contract: Contract | None) -> list[Award]:
        """The cards (Law 66): ten for seven tricks or more, forty for all twelve (capot)."""
        a, b = tricks_won
        if a == b:
            return []
        taker = 0 if a > b else 1
        if max(a, b) == 12:
            return [(taker, self.capot_points, PlainReason.CAPOT)]
        if self.option("ten_for_the_last_trick"):
            return []
        return [(taker, self.cards_points, PlainReason.CARDS)]

    def contract_awards(self, tricks_won: tuple[int, int], contract: Contract | None) -> list[Award]:
        return []

    # ---------------------------------------------------------------- pique and repique
    def repique_threshold(self, contract: Contract | None) -> int:
        return 30

    def pique_threshold(self, contract: Contract | None) -> int:
        return 30

    def may_pique(self, seat: int, elder: int, contract: Contract | None) -> bool:
        """Law 69 names elder, but only because elder's lead scores first; any player may reach it."""
        return True

    # ---------------------------------------------------------------- the partie
    @property
    def deals_in_partie(self) -> int:
        return 4 if self.option("four_deal_partie") else 6

    def deal_multiplier(self, counted: int) -> int:
        """How many times the ``counted``-th deal (from 1) counts in the partie."""
        if self.option("four_deal_partie") and counted in (1, 4):
            return 2
        return 1

    def partie_over(self, deals_played: int, totals: tuple[int, int]) -> bool:
        """Law 71: six deals; if the scores are equal, each deals once more; then it is drawn."""
        if deals_played < self.deals_in_partie:
            return False
        if deals_played == self.deals_in_partie:
            return totals[0] != totals[1]
        return deals_played >= self.deals_in_partie + self.deals_after_tie

    def is_last_deal(self, counted: int) -> bool:
        """Whether the ``counted``-th deal (from 1) is the partie's last, for the concession (ruling 18):
        the sixth (the fourth of a four-deal partie), or after a tie (Law 71) the last extra deal, never
        the one before it."""
        return counted in (self.deals_in_partie, self.deals_in_partie + self.deals_after_tie)

    def game_over(self, before: tuple[int, int], events: Sequence[tuple[int, int]]) -> GameResult | None:
        """Piquet au Cent: the game won in a deal, if one is. ``before`` is each player's score in the
        game when the deal began, ``events`` the deal's points as ``(seat, points)`` in the order of
        reckoning (Law 67)."""
        return None


class Rubicon(Rules):
    """Rubicon Piquet, the default: the laws of the Portland and Turf Clubs (Cavendish, 1882)."""


class Auction(Rules):
    """Auction Piquet, by the laws of the Auction Piquet Club as Lunn gives them (rules/004)."""

    name = "auction"
    title = "Auction Piquet"
    OPTION_NAMES = ("minimum_point", "elder_may_stand_pat", "younger_may_stand_pat", "deal_in_threes_only",
                    "carte_blanche", "elder_sees_cards_left", "redouble_counts_as_double")
    # Lunn's laws do not mention carte blanche and give elder no look at the cards he leaves.
    DEFAULTS: ClassVar[dict[str, bool | int]] = {
        "elder_may_stand_pat": True, "younger_may_stand_pat": True,
        "carte_blanche": False, "elder_sees_cards_left": False,
    }
    uses_bidding = True
    allows_concession = False
    alternate_deal_source = "Lunn"
    rubicon = 150
    settlement_bonus = 150

    def told_at_once(self, category: Category, contract: Contract | None) -> bool:
        # Plus contracts: the top card of a sequence and the exact set are named at once; minus
        # contracts: only lengths, and "How high?" at an equal length.
        if contract is None or contract.minus:
            return False
        return category is not Category.POINT

    def must_declare_in_full(self, contract: Contract | None) -> bool:
        return contract is not None and contract.minus

    def combination_scorer(self, holder: int, contract: Contract | None) -> int:
        return 1 - holder if contract is not None and contract.minus else holder

    def play_awards_key(self, contract: Contract | None) -> Hashable:
        """Whether the contract is a minus one: a trick's point goes to its loser (Lunn); a card led scores
        nothing whatever the contract."""
        return contract is not None and contract.minus

    def lead_points(self, card: Card, contract: Contract | None) -> int:
        return 0

    def trick_awards(self, leader: int, cards: tuple[Card, ...], winner: int,
                     contract: Contract | None) -> list[Award]:
        if contract is not None and contract.minus:
            return [(1 - winner, 1, PlainReason.LOSES_A_TRICK)]
        return [(winner, 1, PlainReason.WINS_A_TRICK)]

    def last_trick_points(self, contract: Contract | None) -> int:
        return 0

    def cards_awards(self, tricks_won: tuple[int, int], contract: Contract | None) -> list[Award]:
        a, b = tricks_won
        if a == b:
            return []
        minus = contract is not None and contract.minus
        # Plus: the player who wins the majority; minus: the player who loses it.
        taker = (0 if a < b else 1) if minus else (0 if a > b else 1)
        if max(a, b) < 12:
            return [(taker, self.cards_points, PlainReason.CARDS)]
        points = self.capot_points
        if contract is not None and contract.tricks == 12 and contract.doubles and taker == contract.holder:
            points = (80, 160)[contract.doubles - 1]
        return [(taker, points, PlainReason.CAPOT)]

    def contract_awards(self, tricks_won: tuple[int, int], contract: Contract | None) -> list[Award]:
        if contract is None:
            return []
        elder = contract.holder
        margin = contract.margin(tricks_won)
        rate = 10 * contract.multiplier
        awards: list[Award] = []
        if margin > 0:
            awards.append((elder, rate * margin, ContractTricksReason(margin, True)))
        elif margin < 0:
            awards.append((1 - elder, rate * -margin, ContractTricksReason(-margin, False)))
        if margin >= 0 and contract.doubles:
            awards.append((elder, (20, 40)[contract.doubles - 1], ContractMadeReason(contract)))
        return awards

    def repique_threshold(self, contract: Contract | None) -> int:
        return 21 if contract is not None and contract.minus else 30

    def pique_threshold(self, contract: Contract | None) -> int:
        return 21 if contract is not None and contract.minus else 29

    def may_pique(self, seat: int, elder: int, contract: Contract | None) -> bool:
        return (contract is not None and contract.minus) or seat == elder


class AuCent(Rules):
    """Piquet au Cent, by Cavendish's Laws of Piquet au Cent: games of a hundred, best of five."""

    name = "au-cent"
    title = "Piquet au Cent"
    OPTION_NAMES = (
        "minimum_point", "cards_count_toward_pique", "elder_may_stand_pat", "younger_may_stand_pat",
        "low_cards_score_nothing_in_play", "points_ending_in_four_count_one_less",
        "carte_blanche_must_be_announced", "fresh_cut_each_game", "play_ceases_at_the_target", "game_of_101",
        "calls_shown_at_once",
    )
    DEFAULTS: ClassVar[dict[str, bool | int]] = {"younger_may_stand_pat": True}
    lower_cut_deals = True
    allows_concession = False
    shows_sets = False
    younger_carte_blanche_after_elder_discards = True
    plays_games = True
    game_target: int | None = 100
    double_game_below: ClassVar[int] = 50
    games_to_win = 3

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        super().__init__(options)
        if self.option("game_of_101"):
            self.game_target = 101

    def packet_sizes(self) -> tuple[int, ...]:
        return (2,)

    def told_at_once(self, category: Category, contract: Contract | None) -> bool:
        # Elder names his point's value and his sequence's top card at once.
        return True

    short_calls_bind: ClassVar[bool] = True

    def partie_over(self, deals_played: int, totals: tuple[int, int]) -> bool:
        return False  # decided by games won (see game_over)

    def is_last_deal(self, counted: int) -> bool:
        return False

    def game_over(self, before: tuple[int, int], events: Sequence[tuple[int, int]]) -> GameResult | None:
        """The first to reach 100 (101 with the option ``game_of_101``) in the order of reckoning wins the game;
        a double game if the other then has under 50. The deal's later points stand but decide nothing (unless
        the option ``play_ceases_at_the_target`` ends the deal there).

        >>> AuCent().game_over((90, 40), [(1, 6), (0, 4), (0, 13), (1, 12)])
        GameResult(winner=0, double=True, scores=(107, 58), reached=(107, 46), deal=0)
        """
        scores = list(before)
        reached: GameResult | None = None
        target = self.game_target or 100
        for seat, points in events:
            scores[seat] += points
            if reached is None and scores[seat] >= target:
                reached = GameResult(seat, scores[1 - seat] < self.double_game_below, (0, 0),
                                     (scores[0], scores[1]))
        if reached is None:
            return None
        return replace(reached, scores=(scores[0], scores[1]))


VARIANTS: dict[str, type[Rules]] = {"rubicon": Rubicon, "auction": Auction, "au-cent": AuCent}


def parse_options(items: Sequence[str]) -> dict[str, object]:
    """``NAME=VALUE`` strings as rule options: ``true``/``false`` are booleans, digits integers.

    >>> parse_options(["minimum_point=4", "elder_may_stand_pat=true"])
    {'minimum_point': 4, 'elder_may_stand_pat': True}
    >>> parse_options(["nonsense"])
    Traceback (most recent call last):
    ...
    piquet.engine.variants.OptionError: option 'nonsense' is not NAME=VALUE
    """
    options: dict[str, object] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        name, raw = name.strip(), raw.strip()
        if not sep or not name:
            raise OptionError(f"option {item!r} is not NAME=VALUE")
        value: object = raw
        if raw.lower() in ("true", "yes", "on"):
            value = True
        elif raw.lower() in ("false", "no", "off"):
            value = False
        elif re.fullmatch(r"-?[0-9]+", raw):
            value = int(raw)
        options[name] = value
    return options


@functools.lru_cache(maxsize=256)
def _shared_rules(variant: str, options: tuple[tuple[str, object], ...]) -> Rules:
    return make_rules(variant, dict(options))


def rules_for(variant: str, options: Mapping[str, object]) -> Rules:
    """The rules of a variant with options, built once and shared (treat them as read-only): what a
    :class:`~piquet.engine.view.PlayerView` carries as its ``rules``."""
    return _shared_rules(variant, tuple(sorted(options.items())))


def make_rules(variant: str = "rubicon", options: Mapping[str, object] | None = None) -> Rules:
    """The rules of a variant by name, with options applied."""
    try:
        cls = VARIANTS[variant]
    except KeyError:
        raise OptionError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})") from None
    return cls(options)
