"""Why the engine refuses an action, as a typed reason said in each language the game speaks.

:func:`~piquet.engine.checks.why_not` answers a :class:`Refusal`: the kind of reason (:class:`Why`) and the facts
it names, typed (the players by seat, the cards, the numbers, the category, the phase, the variant's title and
the laws it cites). Said in English (``str(refusal)``) it is the English template of its kind filled in; said in
another language (:meth:`Refusal.words`), the same template looked up in the language's catalogue
(:mod:`piquet.engine.language`), its cards with that language's indices, its phases and categories in its words.
The laws cited keep their numbers in every language.

>>> from piquet.engine.cards import Card
>>> refusal = Refusal(Why.MUST_FOLLOW, ("Ann", "Bill"), card=Card.parse("KS"))
>>> str(refusal), refusal.words("fr")
('must follow suit to the KS led', 'il faut fournir à la couleur du R♠ entamé')
>>> Refusal(Why.NOT_YOUR_TURN, ("Ann", "Bill"), seat=1).words("fr", ("Anne", "l'ordinateur"))
"c'est à l'ordinateur de jouer"
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, assert_never

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
from piquet.engine.cards import Card, CardSet, Rank
from piquet.engine.combinations import Category, call
from piquet.engine.language import Words, words_in
from piquet.engine.variants import parse_bid
from piquet.engine.words import bid_words, pretty_card

if TYPE_CHECKING:
    from piquet.engine.state import Phase

__all__ = ["CONCESSION_SOURCE", "TEMPLATES", "Refusal", "Why", "attempt_words", "illegal_words"]

#: Where the rule that a concession breaks is stated (the rulings, 18).
CONCESSION_SOURCE: Final = "ruling 18 (Cavendish's treatise, Scoring; Case XXII)"


class Why(enum.Enum):
    """The kinds of reason an action is refused for, each said by its template (:data:`TEMPLATES`); a kind's value
    is its identifier, the same in every language."""

    # What holds for every action.
    NO_SEAT = "no_seat"
    PARTIE_OVER = "partie_over"
    WRONG_PHASE = "wrong_phase"
    CARTE_BLANCHE_PASSED = "carte_blanche_passed"
    CARTE_BLANCHE_FIRST = "carte_blanche_first"
    NOT_YOUR_TURN = "not_your_turn"
    # The cut and the deal.
    SAME_CUT = "same_cut"
    NO_DEAL_DUE = "no_deal_due"
    LOWER_CUT_DEALS = "lower_cut_deals"
    LOWER_CUT_DEALS_AGAIN = "lower_cut_deals_again"
    DEALER_CHOSEN = "dealer_chosen"
    ANNULLED_DEALS_AGAIN = "annulled_deals_again"
    DEALS_FIRST = "deals_first"
    DEAL_ALTERNATES = "deal_alternates"
    PACKET_SIZE = "packet_size"
    PACKETS_ALIKE = "packets_alike"
    HAND_SIZE = "hand_size"
    DEALT_TO_BOTH = "dealt_to_both"
    TALON_SIZE = "talon_size"
    DEALT_TWICE = "dealt_twice"
    MISSING_FROM_DEAL = "missing_from_deal"
    # The auction.
    NOT_A_BID = "not_a_bid"
    BID_SPELLING = "bid_spelling"
    DOUBLE_ONLY_OPPONENT = "double_only_opponent"
    TWO_DOUBLES = "two_doubles"
    REDOUBLE_ONLY_DOUBLE = "redouble_only_double"
    REDOUBLE_COUNTS = "redouble_counts"
    BID_NOT_HIGHER = "bid_not_higher"
    # Carte blanche and the exchange.
    MUST_ANNOUNCE_CARTE_BLANCHE = "must_announce_carte_blanche"
    COUNT_WITHOUT_CARTE_BLANCHE = "count_without_carte_blanche"
    ELDER_CARTE_BLANCHE_COUNT = "elder_carte_blanche_count"
    YOUNGER_CARTE_BLANCHE_COUNT = "younger_carte_blanche_count"
    NOT_IN_HAND = "not_in_hand"
    CARTE_BLANCHE_EXCHANGE = "carte_blanche_exchange"
    ELDER_EXCHANGE_COUNT = "elder_exchange_count"
    YOUNGER_EXCHANGE_COUNT = "younger_exchange_count"
    ONLY_YOUNGER_SHOWS = "only_younger_shows"
    NOTHING_TO_SHOW = "nothing_to_show"
    # The declarations.
    DECLARATION_ORDER = "declaration_order"
    ONE_POINT = "one_point"
    NO_CARDS = "no_cards"
    NOT_A_POINT = "not_a_point"
    SHORT_POINT = "short_point"
    NOT_A_SEQUENCE = "not_a_sequence"
    BROKEN_SEQUENCE = "broken_sequence"
    NOT_A_SET = "not_a_set"
    RANK_NOT_A_SET = "rank_not_a_set"
    SHOWN_TWICE = "shown_twice"
    DECLARE_IN_FULL = "declare_in_full"
    DECLARE_AND_SHOW_IN_FULL = "declare_and_show_in_full"
    CALL_BINDS = "call_binds"
    # The play and the concession.
    CARD_NOT_IN_HAND = "card_not_in_hand"
    MUST_FOLLOW = "must_follow"
    NO_CONCESSION = "no_concession"
    CONCESSION_AWAITS = "concession_awaits"
    NO_DEAL_TO_CONCEDE = "no_deal_to_concede"
    CONCEDE_IN_LAST_DEAL = "concede_in_last_deal"
    CONCEDE_AFTER_DECLARATIONS = "concede_after_declarations"
    CONCEDE_BEFORE_FIRST_CARD = "concede_before_first_card"
    CONCESSION_DECLINED = "concession_declined"
    CONCEDE_RUBICON_SAVED = "concede_rubicon_saved"
    CONCEDE_ONLY_LOSER = "concede_only_loser"


#: What each kind says, as an English :meth:`str.format` template (the catalogues' key). Its fields: ``name`` and
#: ``other`` (the players it names), ``card``, ``cards``, ``shown`` (combinations), ``phase`` and ``expected``
#: (with their article), ``category``, ``first`` and ``better`` (calls), ``title`` and ``source`` (the variant's
#: title and the law that alternates its deal), ``ruling`` (:data:`CONCESSION_SOURCE`), ``ranks``, ``text`` (a
#: seat or a bid as the action gave it), ``sizes``, and the numbers ``n``, ``low``, ``high``, ``theirs``.
TEMPLATES: Final[dict[Why, str]] = {
    Why.NO_SEAT: "there is no seat {text}",
    Why.PARTIE_OVER: "the partie is over",
    Why.WRONG_PHASE: "it is {phase}, not {expected}",
    Why.CARTE_BLANCHE_PASSED: ("it is {phase}, not {expected} (Laws 18-20, ruling 6: carte blanche is announced "
                               "before the exchange; in Piquet au Cent younger may wait until elder has discarded)"),
    Why.CARTE_BLANCHE_FIRST: ("it is {phase}, not {expected} (Laws 18-20, ruling 6: {name} first says whether he "
                              "announces carte blanche)"),
    Why.NOT_YOUR_TURN: "it is {name}'s turn",
    Why.SAME_CUT: "both players cannot cut the same card",
    Why.NO_DEAL_DUE: "no deal is due: it is {phase}",
    Why.LOWER_CUT_DEALS: "{name} cut the lower card, and in {title} the lower cut deals (Laws of {title})",
    Why.LOWER_CUT_DEALS_AGAIN: ("{name} cut the lower card for the new game (option fresh_cut_each_game), and in "
                                "{title} the lower cut deals (Laws of {title})"),
    Why.DEALER_CHOSEN: "{other}, who cut the higher card, chose {name} to deal (Law 4)",
    Why.ANNULLED_DEALS_AGAIN: "the deal was annulled, and the same dealer, {name}, deals again (Lunn)",
    Why.DEALS_FIRST: "{name} deals first",
    Why.DEAL_ALTERNATES: "the deal alternates ({source}), and it is {name}'s deal",
    Why.PACKET_SIZE: "cards are dealt in packets of {sizes}, not {n}",
    Why.PACKETS_ALIKE: "Law 9: a dealer deals all his hands alike, and he dealt in packets of {n}",
    Why.HAND_SIZE: "{name}'s hand has {n} cards, not 12",
    Why.DEALT_TO_BOTH: "{cards} dealt to both players",
    Why.TALON_SIZE: "the talon has {n} cards, not 8",
    Why.DEALT_TWICE: "{card} is dealt twice",
    Why.MISSING_FROM_DEAL: "{cards} missing from the deal",
    Why.NOT_A_BID: "not a bid: {text} (bid 7 to 12 with + or -, e.g. '8+', or pass, double, redouble)",
    Why.BID_SPELLING: "write the bid as {text}",
    Why.DOUBLE_ONLY_OPPONENT: "only the opponent's last bid can be doubled",
    Why.TWO_DOUBLES: "no more than two doubles in an auction",
    Why.REDOUBLE_ONLY_DOUBLE: "only a double can be redoubled",
    Why.REDOUBLE_COUNTS: ("no more than two doubles in an auction, and a redouble counts as one (option "
                          "redouble_counts_as_double)"),
    Why.BID_NOT_HIGHER: "a bid must be higher than {text} (plus and minus of one number are equal)",
    Why.MUST_ANNOUNCE_CARTE_BLANCHE: "Law 20: a player dealt carte blanche must announce it",
    Why.COUNT_WITHOUT_CARTE_BLANCHE: "only a player announcing carte blanche says how many he will exchange",
    Why.ELDER_CARTE_BLANCHE_COUNT: ("elder announcing carte blanche first says how many cards, {low} to {high}, he "
                                    "will exchange (ruling 6; Case V under Law 20)"),
    Why.YOUNGER_CARTE_BLANCHE_COUNT: "younger does not announce her exchange with carte blanche",
    Why.NOT_IN_HAND: "{cards} not in hand",
    Why.CARTE_BLANCHE_EXCHANGE: "having announced carte blanche, elder exchanges the {low} cards he said (Law 20, "
                                "Case V)",
    Why.ELDER_EXCHANGE_COUNT: "Law 21: elder exchanges {low} to {high} cards, not {n}",
    Why.YOUNGER_EXCHANGE_COUNT: "Law 22: younger exchanges {low} to {high} cards, not {n}",
    Why.ONLY_YOUNGER_SHOWS: "only younger elects to show the rest of the talon (Law 36)",
    Why.NOTHING_TO_SHOW: "no cards are left in the talon to show",
    Why.DECLARATION_ORDER: ("{category} is declared now (point, sequences, sets in that order, elder before "
                            "younger)"),
    Why.ONE_POINT: "a point is one suit: there are no further points to show",
    Why.NO_CARDS: "no cards",
    Why.NOT_A_POINT: "{cards} is not a point: a point is cards of one suit",
    Why.SHORT_POINT: "a point of {n} is shorter than the minimum point of {low}",
    Why.NOT_A_SEQUENCE: "{cards} is not a sequence: three or more cards following one another in one suit",
    Why.BROKEN_SEQUENCE: "{cards} is not a sequence: the cards must follow one another in one suit",
    Why.NOT_A_SET: "{cards} is not a set: three or four cards of one rank",
    Why.RANK_NOT_A_SET: "{ranks} do not count as a set: only aces, kings, queens, knaves and tens do",
    Why.SHOWN_TWICE: "{cards} shown in two {category}",
    Why.DECLARE_IN_FULL: "in a minus contract nothing may be sunk: declare {first}",
    Why.DECLARE_AND_SHOW_IN_FULL: "in a minus contract nothing may be sunk: declare {first} and show {shown}",
    Why.CALL_BINDS: ("Law 49 (Laws 46-50): having called {first}, he may not also score the better {better}, since "
                     "his call was not good against the cards"),
    Why.CARD_NOT_IN_HAND: "{card} is not in hand",
    Why.MUST_FOLLOW: "must follow suit to the {card} led",
    Why.NO_CONCESSION: "there is no concession in {title}",
    Why.CONCESSION_AWAITS: "a concession already awaits the opponent's answer",
    Why.NO_DEAL_TO_CONCEDE: "there is no deal in progress to concede",
    Why.CONCEDE_IN_LAST_DEAL: "{ruling}: a player may concede only in the last deal of the partie",
    Why.CONCEDE_AFTER_DECLARATIONS: "{ruling}: the concession comes after the six declarations, and it is {phase}",
    Why.CONCEDE_BEFORE_FIRST_CARD: "{ruling}: the concession is made before the first card is played",
    Why.CONCESSION_DECLINED: "the concession was declined: the deal is played out",
    Why.CONCEDE_RUBICON_SAVED: ("Law 73 and {ruling}: only a player who cannot save the rubicon may concede, and he "
                                "would have {n}"),
    Why.CONCEDE_ONLY_LOSER: "{ruling}: only the loser may concede, and he would have {n} to {other}'s {theirs}",
}


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action may not be taken: its kind and the facts the reason names, said by :meth:`words` (in English
    by ``str``). ``players`` are the partie's names; the reason names players by seat: ``seat`` the one it is about
    (whose turn it is, who deals, whose hand; ``None`` where nobody is to act), ``other`` a second one (who chose
    the dealer, the opponent of a concession). ``text`` is what the action gave as it gave it (a seat that is none,
    a bid), quoted. The numbers: ``n`` the action's count (cards, packets, a point's length, the conceder's score),
    ``low`` and ``high`` the limits it breaks, ``theirs`` the opponent's score; ``sizes`` the packet sizes allowed.
    ``combinations`` are those a call names: the first the one called or owed, then the rest (in a refusal of a
    call that binds, the better one it may not also score). ``title`` and ``source`` are the variant's title and
    the law its deal alternates by, said in the language's words."""

    kind: Why
    players: tuple[str, str] = ("", "")
    seat: int | None = None
    other: int | None = None
    card: Card | None = None
    cards: CardSet | None = None
    rank: Rank | None = None
    category: Category | None = None
    combinations: tuple[CardSet, ...] = ()
    phase: Phase | None = None
    expected: Phase | None = None
    text: str = ""
    title: str = ""
    source: str = ""
    n: int | None = None
    low: int | None = None
    high: int | None = None
    theirs: int | None = None
    sizes: tuple[int, ...] = ()

    def __str__(self) -> str:
        return self.words()

    def words(self, lang: str = "en", names: Sequence[str] | None = None) -> str:
        """The reason said in ``lang``, the players named ``names`` (by default the partie's)."""
        w = words_in(lang)
        return w(TEMPLATES[self.kind], **self._fields(w, self.players if names is None else names))

    def _fields(self, w: Words, names: Sequence[str]) -> dict[str, Any]:
        lang = w.lang
        fields: dict[str, Any] = {
            "name": w("nobody") if self.seat is None else names[self.seat],
            "text": self.text, "title": w(self.title) if self.title else "",
            "source": w(self.source) if self.source else "",
            "ruling": w(CONCESSION_SOURCE), "n": self.n, "low": self.low, "high": self.high, "theirs": self.theirs,
            "sizes": w(" or ").join(str(n) for n in self.sizes),
        }
        if self.other is not None:
            fields["other"] = names[self.other]
        if self.card is not None:
            fields["card"] = _card(self.card, lang)
        if self.cards is not None:
            fields["cards"] = _cards(self.cards, lang)
        if self.rank is not None:
            fields["ranks"] = w(self.rank.plural)
        if self.phase is not None:
            fields["phase"] = w("the " + self.phase.value)
        if self.expected is not None:
            fields["expected"] = w("the " + self.expected.value)
        if self.category is not None:
            fields["category"] = (w("the " + self.category.value) if self.kind is Why.DECLARATION_ORDER
                                  else w(self.category.value))
            combos = self.combinations
            if combos:
                fields["first"] = call(self.category, combos[0], lang).lower()
                fields["better"] = call(self.category, combos[-1], lang).lower()
                fields["shown"] = "; ".join(_cards(c, lang) for c in combos[1:])
        return fields


def _card(card: Card, lang: str) -> str:
    """A card as the record writes it in English ("KS"), with the language's indices else ("R♠")."""
    return str(card) if lang == "en" else pretty_card(card, lang)


def _cards(cards: CardSet, lang: str) -> str:
    return str(cards) if lang == "en" else " ".join(_card(c, lang) for c in cards)


def _call(bid: str, lang: str) -> str:
    """A bid as the action gives it in English ("8+", "pass"), as said in another language ("huit plus") where it is a
    bid written as the records write it, else quoted as given."""
    if lang == "en":
        return bid
    try:
        written = parse_bid(bid)
    except ValueError:
        written = ""
    if written != bid:
        return repr(bid)
    said = bid_words(bid, lang).rstrip(".")
    return said[:1].lower() + said[1:]


def attempt_words(action: Action, lang: str = "en") -> str:
    """What an action tries, as a refusal names it ("play AS", "declare point AS KS").

    >>> from piquet.engine.cards import Card
    >>> attempt_words(Play(0, Card.parse("QH"))), attempt_words(Play(0, Card.parse("QH")), "fr")
    ('play QH', 'jouer D♥')
    >>> attempt_words(Bid(0, "8-")), attempt_words(Bid(0, "8-"), "fr"), attempt_words(Bid(0, "Pass"), "fr")
    ('bid 8-', 'annoncer huit moins', "annoncer 'Pass'")
    """
    w = words_in(lang)
    match action:
        case Play():
            return w("play {card}", card=_card(action.card, lang))
        case Exchange():
            if not action.discards:
                return w("exchange no cards")
            return w("exchange {cards}", cards=_cards(action.discards, lang))
        case Declare():
            shown = " / ".join(_cards(c, lang) for c in action.combinations) or w("nothing")
            return w("declare " + action.category.value + " {shown}", shown=shown)
        case CarteBlanche():
            return w("announce carte blanche") if action.announce else w("decline carte blanche")
        case Deal():
            return w("deal")
        case Cut():
            return w("cut")
        case Bid():
            return w("bid {call}", call=_call(action.call, lang))
        case ChooseDealer():
            return w("choose the dealer")
        case AcceptConcession():
            return w("accept the concession") if action.accept else w("decline the concession")
        case Concede():
            return w("concede")
        case _:
            assert_never(action)


def illegal_words(action: Action, player: str, refusal: Refusal | str, lang: str = "en",
                  names: Sequence[str] | None = None) -> str:
    """The whole refusal of an action: who cannot do what, and why, in ``lang`` (a reason given as text is said as
    it is). ``player`` is the name the reason's ``names`` give the player.

    >>> from piquet.engine.cards import Card
    >>> refusal = Refusal(Why.CARD_NOT_IN_HAND, ("Ann", "Bill"), card=Card.parse("AS"))
    >>> illegal_words(Play(1, Card.parse("AS")), "Bill", refusal, "fr")
    "Bill ne peut pas jouer A♠ : A♠ n'est pas dans sa main"
    """
    reason = refusal.words(lang, names) if isinstance(refusal, Refusal) else refusal
    return words_in(lang)("{player} cannot {attempt}: {reason}", player=player, attempt=attempt_words(action, lang),
                          reason=reason)
