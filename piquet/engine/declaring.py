"""The declarations (Laws 37-57): elder calls, younger answers, the better combination scores.

In each category in turn (point, sequences, sets: ruling 10) elder calls his first combination (what both hear
is an :class:`~piquet.engine.view.Announcement` and a :class:`~piquet.engine.events.Declared` in the log), and
younger answers with what she shows: "good", "not good" or "equal", after a second call where the lengths are
equal and the rules do not tell all at once. Elder scores what he showed when his call wins; younger reckons
what she won after elder's first lead (the rulings, 10 and 12). Combinations scored, or tied (Law 55), are shown.

:func:`apply_declare` applies one declaration, already found legal (:mod:`piquet.engine.checks`), to the partie's
present state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from piquet.engine.actions import Declare
from piquet.engine.cards import FULL_PACK, CardSet, Rank
from piquet.engine.checks import DECLARATION_ORDER, declaration_slot
from piquet.engine.combinations import Category, best_shown, good_against_the_cards, key
from piquet.engine.events import Answer, DeclarationAnswered, Declared, SecondCall, SecondCallAsked
from piquet.engine.scoring import CombinationReason, CombinationScored, ScoreCategory, ScoreEvent
from piquet.engine.state import Phase, with_seat
from piquet.engine.view import Announcement

if TYPE_CHECKING:
    from piquet.engine.state import PartieState
    from piquet.engine.variants import Contract, Rules

__all__ = ["Telling", "apply_declare", "telling_for"]

_SCORE_CATEGORY = {
    Category.POINT: ScoreCategory.POINT,
    Category.SEQUENCES: ScoreCategory.SEQUENCES,
    Category.SETS: ScoreCategory.SETS,
}

#: Younger's answers, by seat, category and answer, made once.
_ANSWERED: dict[tuple[int, Category, Answer], DeclarationAnswered] = {
    (seat, category, answer): DeclarationAnswered(seat, category, answer)
    for seat in (0, 1) for category in Category for answer in ("good", "not good", "equal")}
#: Elder's call of nothing in each category, by seat and category: what both hear, and the event.
_NOTHING_CALLED: dict[tuple[int, Category], tuple[Announcement, Declared]] = {
    (seat, category): (Announcement(category, None), Declared(seat, category, None))
    for seat in (0, 1) for category in Category}


class Telling:
    """What elder's calls tell and what each combination scored is worth, under one set of rules and one
    contract: asked of the rules once and kept (the values are immutable, so shared by every deal)."""

    def __init__(self, rules: Rules, contract: Contract | None) -> None:
        self.rules = rules
        self.contract = contract
        self._calls: dict[tuple[int, Category, int, bool], tuple[Announcement, Declared, int]] = {}
        self._scores: dict[tuple[int, Category, int], ScoreEvent] = {}

    def call(self, elder: int, category: Category, first: CardSet,
             good: bool = False) -> tuple[Announcement, Declared, int]:
        """Elder's call of ``first``: what both players hear of it, the event, and the cards it names (Laws
        46-48: the length, and what the rules have told at once, unless the call is ``good`` against the cards
        and the rules let such a call give its length alone; "fourteen aces" names all four)."""
        told = self._calls.get((elder, category, first.mask, good))
        if told is None:
            at_once = self.rules.call_names(category, self.contract, good)
            rank = first.cards()[0].rank if category is Category.SETS and at_once else None
            said = key(category, first)[1] if at_once else 0
            detail = said if at_once and category is not Category.SETS else None
            top = Rank(said) if at_once and category is not Category.POINT else None
            pips = said if at_once and category is Category.POINT else None
            named = first.mask if category is Category.SETS and len(first) == 4 and at_once else 0
            told = self._calls[elder, category, first.mask, good] = (
                Announcement(category, len(first), rank, detail),
                Declared(elder, category, len(first), at_once, pips, top), named)
        return told

    def score(self, holder: int, category: Category, cards: CardSet, players: tuple[str, str]) -> ScoreEvent:
        """The points of ``holder``'s combination ``cards``, scored (Law 55): to him, or in Auction's minus
        contracts to his opponent, whose words then name him."""
        found = self._scores.get((holder, category, cards.mask))
        if found is not None:
            return found
        scorer = self.rules.combination_scorer(holder, self.contract)
        length = len(cards)
        # A sequence's top card, or a set's rank: its highest card's rank (one suit, or one rank).
        top = None if category is Category.POINT else Rank((cards.mask.bit_length() - 1) & 7)
        # Its call names it, and in Auction's minus contracts the holder whose opponent scores it.
        why = CombinationReason(category, length, top, None if scorer == holder else players[holder])
        event = ScoreEvent(scorer, self.rules.combination_points(category, cards), _SCORE_CATEGORY[category], why,
                           CombinationScored(holder, length, top))
        if scorer == holder:
            self._scores[holder, category, cards.mask] = event
        return event


_TELLINGS: dict[tuple[str, tuple[tuple[str, bool | int], ...], Contract | None], Telling] = {}


def telling_for(rules: Rules, contract: Contract | None) -> Telling:
    """What calls tell and combinations score under ``rules`` and ``contract``, made once and shared."""
    key = (rules.name, rules.key, contract)
    found = _TELLINGS.get(key)
    if found is None:
        found = _TELLINGS[key] = Telling(rules, contract)
    return found


def apply_declare(s: PartieState, rules: Rules, players: tuple[str, str], action: Declare) -> None:
    d = s.deal
    category, seat = declaration_slot(d)
    d.calls += (action,)
    d.declaration_step += 1
    elder, younger = d.elder, 1 - d.elder
    if seat == elder:
        _call(s, rules, category, action)
    else:
        _answer(s, rules, players, category, d.calls[-2], action)
    if d.declaration_step == len(DECLARATION_ORDER):
        s.phase, s.to_act = Phase.PLAY, elder
        d.leader = elder
    else:
        _, next_is_elder = DECLARATION_ORDER[d.declaration_step]
        s.to_act = elder if next_is_elder else younger


def _call(s: PartieState, rules: Rules, category: Category, action: Declare) -> None:
    """Elder's call: his first combination, or nothing."""
    d = s.deal
    elder = d.elder
    if not action.combinations:
        heard, said = _NOTHING_CALLED[elder, category]
        d.announcements += (heard,)
        d.tell(said)
        return
    first = action.combinations[0]
    # Law 48 by the letter (option calls_named_unless_good): a call good against the cards gives its length alone.
    good = (rules.calls_named_unless_good and category is not Category.POINT
            and good_against_the_cards(category, first, CardSet(FULL_PACK & ~d.hands[elder] & ~d.discards[elder])))
    heard, said, named = telling_for(rules, d.contract).call(elder, category, first, good)
    if named:
        d.revealed = with_seat(d.revealed, elder, d.revealed[elder] | named)
    d.announcements += (heard,)
    d.tell(said)


def _heard(heard: Announcement, rank: Rank | None = None, detail: int | None = None,
           answer: Answer | None = None) -> Announcement:
    """``heard`` with what younger's answer adds."""
    return Announcement(heard.category, heard.length, heard.rank if rank is None else rank,
                        heard.detail if detail is None else detail, heard.answer if answer is None else answer)


def _answer(s: PartieState, rules: Rules, players: tuple[str, str], category: Category,
            elder_call: Declare | None, answer: Declare) -> None:
    """Younger's answer to elder's call: good, not good or equal (the rulings, 10). Elder's call is his first
    combination; younger's answer rests on the best she shows, in whatever order she shows them: she "is only
    reckoning" (Cavendish, *Calling*: "The younger hand is not bound to call his best sequence first")."""
    d = s.deal
    elder, younger = d.elder, 1 - d.elder
    e = elder_call.combinations[0] if elder_call is not None and elder_call.combinations else None
    y = best_shown(category, answer.combinations)
    winner: int | None
    heard = d.announcements[-1]
    if e is None:
        winner = younger if y is not None else None
    elif y is None:
        d.tell(_ANSWERED[younger, category, "good"])
        heard = _heard(heard, answer="good")
        winner = elder
    else:
        ke, ky = key(category, e), key(category, y)
        reply: Answer = "good" if ke > ky else "not good" if ke < ky else "equal"
        if ke[0] == ky[0] and not rules.told_at_once(category, d.contract):
            making = category is Category.POINT and not rules.uses_bidding
            d.tell(SecondCallAsked(younger, category, "making" if making else "how high"))
            if category is Category.POINT:
                d.tell(SecondCall(elder, category, pips=ke[1]))
            else:
                d.tell(SecondCall(elder, category, top=Rank(ke[1])))
            heard = _heard(heard, rank=e.cards()[0].rank) if category is Category.SETS else _heard(heard, detail=ke[1])
        d.tell(_ANSWERED[younger, category, reply])
        heard = _heard(heard, answer=reply)
        winner = elder if ke > ky else younger if ke < ky else None
    d.announcements = (*d.announcements[:-1], heard)
    at_once = rules.calls_shown_at_once
    if e is not None and y is not None and winner is None:
        # An exact tie cancels the category; both combinations are open to inspection (Law 55): elder's at
        # once with the option calls_shown_at_once, younger's (and by default elder's) once elder has led.
        if at_once:
            d.revealed = with_seat(d.revealed, elder, d.revealed[elder] | e.mask)
            d.pending_reveal = with_seat(d.pending_reveal, younger, d.pending_reveal[younger] | y.mask)
        else:
            d.pending_reveal = (d.pending_reveal[0] | (e.mask if elder == 0 else y.mask),
                                d.pending_reveal[1] | (e.mask if elder == 1 else y.mask))
        return
    if winner is None:
        return
    shown = elder_call if winner == elder else answer
    assert shown is not None
    telling = telling_for(rules, d.contract)
    # Law 55 shows what was scored; au Cent: "except in the case of quatorzes and trios".
    shown_cards = category is not Category.SETS or rules.shows_sets
    scored, reveal = d.scored_cards[winner], d.pending_reveal[winner]
    for cards in shown.combinations:
        event = telling.score(winner, category, cards, players)
        scored |= cards.mask
        if shown_cards:
            reveal |= cards.mask
        if winner == elder:
            d.score(event)  # now, in its place in the order of reckoning (Law 67)
        else:
            d.pending_events += (event,)  # younger reckons what she won after elder's lead (the rulings, 10, 12)
    d.scored_cards = with_seat(d.scored_cards, winner, scored)
    if winner == elder and at_once:
        # The option calls_shown_at_once (Law 55: shown "at any time they are asked for"): at once.
        d.revealed = with_seat(d.revealed, winner, d.revealed[winner] | reveal)
    else:
        d.pending_reveal = with_seat(d.pending_reveal, winner, reveal)
