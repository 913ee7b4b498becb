"""Variants and rule options.

A variant is a :class:`Rules` subclass found by name in :data:`VARIANTS`; its
rule options are data (:class:`RuleOption`), each with its default, its type,
and the source of the reading it selects. The engine asks the rules object,
never ``if variant == ...``.

>>> rules = make_rules("rubicon", {"minimum_point": 4})
>>> rules.minimum_point, rules.changed()
(4, {'minimum_point': 4})
>>> make_rules("rubicon", {"minimum_point": "four"})
Traceback (most recent call last):
...
piquet.variant.OptionError: option 'minimum_point' must be an integer from 1 to 8, not 'four'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from piquet.cards import Card

__all__ = ["VARIANTS", "OptionError", "Rubicon", "RuleOption", "Rules", "make_rules"]


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


_RUBICON_OPTIONS = (
    RuleOption(
        "minimum_point",
        1,
        "The shortest point that may be declared and scored.",
        "A common house rule (a minimum point of four), listed as an alternative in the project's rulings, 7; "
        "Cavendish sets no minimum.",
        1,
        8,
    ),
    RuleOption(
        "cards_count_toward_pique",
        False,
        "The ten for the cards counts toward a pique when it is won before the opponent scores.",
        "A misreading of Law 69 described on pagat's Piquet page; Law 67 reckons the cards after the play.",
    ),
    RuleOption(
        "elder_may_stand_pat",
        False,
        "Elder may exchange no cards.",
        "Auction Piquet (Lunn) lets elder discard none; Cavendish's Law 21 requires at least one.",
    ),
    RuleOption(
        "younger_may_stand_pat",
        False,
        "Younger may exchange no cards.",
        "Piquet au Cent and Auction Piquet let younger stand pat; Cavendish's Law 22 requires at least one.",
    ),
)


class Rules:
    """The rules of Rubicon Piquet (Cavendish, 1882) with rule options applied.

    Subclasses for other variants override what differs.
    """

    name: ClassVar[str] = "rubicon"
    title: ClassVar[str] = "Rubicon Piquet"
    OPTIONS: ClassVar[tuple[RuleOption, ...]] = _RUBICON_OPTIONS

    #: Deals in a partie (Law 71) and how many more are played after a tie.
    deals_in_partie: ClassVar[int] = 6
    deals_after_tie: ClassVar[int] = 2
    #: The rubicon and the settlement bonus (Laws 72-73).
    rubicon: ClassVar[int] = 100
    settlement_bonus: ClassVar[int] = 100

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        known = {o.name: o for o in self.OPTIONS}
        values: dict[str, bool | int] = {o.name: o.default for o in self.OPTIONS}
        for name, value in (options or {}).items():
            if name not in known:
                names = ", ".join(sorted(known)) or "none"
                raise OptionError(f"unknown rule option {name!r} for {self.name} (known: {names})")
            values[name] = known[name].check(value)
        self.values = values

    # Option accessors, typed.
    @property
    def minimum_point(self) -> int:
        return int(self.values["minimum_point"])

    @property
    def cards_count_toward_pique(self) -> bool:
        return bool(self.values["cards_count_toward_pique"])

    @property
    def elder_minimum_exchange(self) -> int:
        return 0 if self.values["elder_may_stand_pat"] else 1

    @property
    def younger_minimum_exchange(self) -> int:
        return 0 if self.values["younger_may_stand_pat"] else 1

    elder_maximum_exchange: ClassVar[int] = 5

    def changed(self) -> dict[str, bool | int]:
        """The options whose values differ from the defaults (what a record's ``options`` holds)."""
        return {o.name: self.values[o.name] for o in self.OPTIONS if self.values[o.name] != o.default}

    def elder_of(self, dealer: int) -> int:
        """The elder hand of a deal: the non-dealer."""
        return 1 - dealer

    def lead_points(self, card: Card) -> int:
        """Points for leading a card (Law 65: one for every card led)."""
        return 1

    def win_points(self, card: Card) -> int:
        """Points for winning the opponent's lead with ``card`` (Law 65)."""
        return 1

    last_trick_points: ClassVar[int] = 1
    cards_points: ClassVar[int] = 10
    capot_points: ClassVar[int] = 40
    carte_blanche_points: ClassVar[int] = 10
    repique_points: ClassVar[int] = 60
    pique_points: ClassVar[int] = 30
    pique_threshold: ClassVar[int] = 30

    def partie_over(self, deals_played: int, totals: tuple[int, int]) -> bool:
        """Law 71: six deals; if the scores are equal, each deals once more; then it is drawn."""
        if deals_played < self.deals_in_partie:
            return False
        if deals_played == self.deals_in_partie:
            return totals[0] != totals[1]
        return deals_played >= self.deals_in_partie + self.deals_after_tie

    def is_last_deal(self, deal_number: int) -> bool:
        """Whether a deal is the last of the partie as scheduled (for the concession)."""
        return deal_number >= self.deals_in_partie


class Rubicon(Rules):
    """Rubicon Piquet, the default: the laws of the Portland and Turf Clubs (Cavendish, 1882)."""


VARIANTS: dict[str, type[Rules]] = {"rubicon": Rubicon}


def make_rules(variant: str = "rubicon", options: Mapping[str, object] | None = None) -> Rules:
    """The rules of a variant by name, with options applied."""
    try:
        cls = VARIANTS[variant]
    except KeyError:
        raise OptionError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})") from None
    return cls(options)
