"""The game's English: what each event of the log says, and the commentary of a deal in the traditional calls.

:func:`said` turns an event of the log (:mod:`piquet.engine.events`) into what is said at the table: a
player's words or a line of narration (:class:`Speech`). :func:`deal_lines` reads a deal's log as a
commentary: calls and answers are quoted as said ("Point of five." - "Not good."); each player's reckoning
is said as the running total of the deal ("Five, and sixteen, twenty-one."), with what it was for in
brackets for the learner; then a line per trick.

>>> from piquet.engine.combinations import Category
>>> from piquet.engine.events import Declared, DeclarationAnswered
>>> from piquet.engine.scoring import CombinationReason, ScoreEvent, ScoreCategory
>>> log = (Declared(1, Category.POINT, 5), DeclarationAnswered(0, Category.POINT, "good"),
...        ScoreEvent(1, 5, ScoreCategory.POINT, CombinationReason(Category.POINT, 5)),
...        Declared(1, Category.SEQUENCES, 6), DeclarationAnswered(0, Category.SEQUENCES, "good"),
...        ScoreEvent(1, 16, ScoreCategory.SEQUENCES, CombinationReason(Category.SEQUENCES, 6, Rank.KING)),
...        ScoreEvent(1, 3, ScoreCategory.SEQUENCES, CombinationReason(Category.SEQUENCES, 3, Rank.QUEEN)))
>>> for line in deal_lines(log, ("Ann", "Bill")): print(line)
Bill: "Point of five."
Ann: "Good."
Bill: "Five." [point of five 5]
Bill: "Sixième."
Ann: "Good."
Bill: "Sixteen, twenty-one, and three, twenty-four." [sixième to the king 16; tierce to the queen 3]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, assert_never

from piquet.engine.cards import Card, CardSet, Rank, Suit
from piquet.engine.combinations import Category, call, number_word
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
from piquet.engine.language import Words, words_in
from piquet.engine.scoring import (
    CombinationReason,
    ContractMadeReason,
    ContractTricksReason,
    DealScore,
    LeadReason,
    OwnLeadReason,
    PlainReason,
    Reason,
    ScoreCategory,
    ScoreEvent,
    TrickReason,
)
from piquet.engine.variants import Contract, GameResult

__all__ = ["Speech", "bid_words", "card_name", "card_words", "contract_words", "deal_lines", "deal_notes",
           "partie_lines", "pretty_card", "reason_words", "said", "second_person"]


@dataclass(frozen=True, slots=True)
class Speech:
    """One line of what is said or done at the table: ``kind`` is ``"say"`` (a player's call or answer),
    ``"play"`` (a card played; ``text`` is the card in record notation) or ``"note"`` (narration, no
    speaker)."""

    speaker: int | None
    text: str
    kind: Literal["say", "play", "note"] = "say"


def _note(text: str) -> tuple[Speech, ...]:
    return (Speech(None, text, "note"),)


def _say(speaker: int, text: str) -> tuple[Speech, ...]:
    return (Speech(speaker, text),)


#: The short names of the sequences, as elder calls a length that is not told at once.
_SEQUENCE_CALLS = {3: "Tierce", 4: "Quart", 5: "Quint", 6: "Sixième", 7: "Septième", 8: "Huitième"}
_BID_CALLS = {"pass": "Pass.", "double": "Double.", "redouble": "Redouble."}


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def bid_words(bid: str, lang: str = "en") -> str:
    """A call of the auction as said.

    >>> bid_words("8-"), bid_words("pass"), bid_words("7+", "fr")
    ('Eight minus.', 'Pass.', 'Sept plus.')
    """
    words = words_in(lang)
    if bid in _BID_CALLS:
        return words(_BID_CALLS[bid])
    sign = "{number} minus." if bid[-1] == "-" else "{number} plus."
    return _capital(words(sign, number=words.number(int(bid[:-1]))))


def _shaped(category: Category, length: int, top: Rank) -> CardSet:
    """A combination of that length and top rank (a call does not name the suits)."""
    if category is Category.SETS:
        return CardSet([Card.of(top, suit) for suit in list(Suit)[:length]])
    return CardSet([Card.of(Rank(top - i), Suit.SPADES) for i in range(length)])


def _opening_call(event: Declared, words: Words) -> str:
    """What elder says first: the length of a point or sequence, or (told at once) all that decides it: the
    pips, the top card, the rank of a set."""
    n = event.length
    assert n is not None
    if event.category is Category.POINT:
        point = words("Point of {number}", number=words.number(n))
        if event.at_once and event.pips is not None:
            return point + words(", making {number}", number=words.number(event.pips))
        return point
    if event.at_once and event.top is not None:
        return call(event.category, _shaped(event.category, n, event.top), words.lang)
    if event.category is Category.SEQUENCES:
        return words(_SEQUENCE_CALLS[n])
    return words("Set of " + number_word(n))


def _second_call(event: SecondCall, words: Words) -> str:
    """What elder says when asked, after an equal length: the pips, the top card, the rank."""
    if event.category is Category.POINT:
        assert event.pips is not None
        return _capital(words("Making {number}", number=words.number(event.pips)))
    top = event.top
    assert top is not None
    if event.category is Category.SETS:
        return words(top.plural).capitalize()
    return words("Major") if top == Rank.ACE else words("To the " + top.word)


def contract_words(contract: Contract, lang: str = "en") -> str:
    """An Auction contract as the score sheet writes it: the bid, and doubled or redoubled.

    >>> contract_words(Contract(0, 8, True, 1)), contract_words(Contract(0, 8, True, 1), "fr")
    ('8- doubled', '8- contré')
    """
    if not contract.doubles:
        return contract.bid
    words = words_in(lang)
    return words("{bid} doubled" if contract.doubles == 1 else "{bid} redoubled", bid=contract.bid)


#: The feats of a deal as the score sheet notes them, each with the name of who scored it.
_FEAT_NOTES = {PlainReason.CARTE_BLANCHE: "carte blanche to {name}", PlainReason.REPIQUE: "repique to {name}",
               PlainReason.PIQUE: "pique to {name}", PlainReason.CAPOT: "capot to {name}"}


def deal_notes(score: DealScore, names: Sequence[str], game: GameResult | None = None, lang: str = "en") -> list[str]:
    """What the score sheet notes beside a deal's points, in ``lang``: its feats (carte blanche, repique, pique,
    capot: :data:`~piquet.engine.scoring.FEATS`), an Auction contract made or down and by how many, how many times
    the deal counts, and in Piquet au Cent the ``game`` won in the deal.

    >>> from piquet.engine.scoring import ScoreCategory, ScoreEvent
    >>> repique = ScoreEvent(0, 60, ScoreCategory.REPIQUE, PlainReason.REPIQUE)
    >>> deal_notes(DealScore.from_events((repique,), 0, (7, 5), Contract(0, 9, False, 1)), ("Ann", "Bill"))
    ['repique to Ann', '9+ doubled down two']
    >>> deal_notes(DealScore.from_events((repique,), 0, (5, 7), Contract(1, 7, True)), ("Ann", "Bill"), lang="fr")
    ['repic pour Ann', '7- chuté de deux']
    >>> deal_notes(DealScore.from_events((), 0, (12, 0)), ("Ann", "Bill"), GameResult(0, True, (104, 40), (100, 40)))
    ['Ann reaches 100 with Bill at 40 and wins a double game']
    """
    words = words_in(lang)
    notes = [words(_FEAT_NOTES[feat], name=names[player]) for player, feat in score.feats]
    contract = score.contract
    if contract is not None and not score.annulled:
        margin = contract.margin(score.tricks)
        said = contract_words(contract, lang)
        if margin < 0:
            notes.append(words("{contract} down {number}", contract=said, number=words.number(-margin)))
        elif margin == 0:
            notes.append(words("{contract} made", contract=said))
        else:
            notes.append(words("{contract} made, {tricks}", contract=said,
                               tricks=reason_words(ContractTricksReason(margin, True), lang)))
    if score.multiplier > 1:
        notes.append(words("counts {times} times", times=score.multiplier))
    if game is not None:
        win = game.winner
        notes.append(words("{winner} reaches {reached} with {loser} at {at} and wins {kind}", winner=names[win],
                           reached=game.reached[win], loser=names[1 - win], at=game.reached[1 - win],
                           kind=words("a double game") if game.double else words("the game")))
    return notes


def pretty_card(card: Card, lang: str = "en") -> str:
    """A card with its suit's symbol and its index in ``lang``: a French pack's court cards are marked R, D, V (roi,
    dame, valet); the ace keeps its A, as most French packs print it.

    >>> pretty_card(Card.parse("KH")), pretty_card(Card.parse("KH"), "fr"), pretty_card(Card.parse("TS"), "fr")
    ('K♥', 'R♥', '10♠')
    """
    if lang == "en" or card.rank not in _COURT_INDEX:
        return card.pretty()
    return words_in(lang)(_COURT_INDEX[card.rank]) + card.suit.symbol


#: The court cards' indices, as the catalogue translates them (a French pack's R, D, V).
_COURT_INDEX = {Rank.KING: "K", Rank.QUEEN: "Q", Rank.JACK: "J"}


def card_words(card: Card, lang: str = "en") -> str:
    """A card's name in words, with its article, as the game says it.

    >>> card_words(Card.parse("JH")), card_words(Card.parse("AS"), "fr"), card_words(Card.parse("QD"), "fr")
    ('the knave of hearts', "l'as de pique", 'la dame de carreau')
    """
    words = words_in(lang)
    return words("{rank} of {suit}", rank=words("the " + card.rank.word), suit=words(card.suit.name.lower()))


def card_name(card: Card, lang: str = "en") -> str:
    """A card's name in words, without an article, as a picture of the card is named for a screen reader.

    >>> card_name(Card.parse("JH")), card_name(Card.parse("AS"), "fr"), card_name(Card.parse("QD"), "fr")
    ('knave of hearts', 'as de pique', 'dame de carreau')
    """
    words = words_in(lang)
    return words("{rank} of {suit}", rank=words(card.rank.word), suit=words(card.suit.name.lower()))


def said(event: Event, names: Sequence[str], lang: str = "en") -> tuple[Speech, ...]:
    """What an event says at the table, line by line, the players named ``names``, in ``lang``
    (:mod:`piquet.engine.language`).

    >>> from piquet.engine.cards import Card
    >>> said(CutMade((Card.parse("9H"), Card.parse("9S")), again=True), ("Ann", "Bill"))[1].text
    'Equal cuts: they cut again.'
    >>> said(Exchanged(1, 3, left=2, looked=True), ("Ann", "Bill"))[0].text
    'Bill exchanges three, leaving two, and looks at what he left.'
    >>> said(Declared(1, Category.POINT, 5), ("Ann", "Bill"), "fr")[0].text
    'Point de cinq.'
    >>> said(DeclarationAnswered(0, Category.POINT, "not good"), ("Ann", "Bill"), "fr")[0].text
    'Pas bon.'
    """
    w = words_in(lang)
    match event:
        case CutMade(cards=(a, b)):
            lines = _note(w("{a} cuts {card_a}, {b} cuts {card_b}.", a=names[0], card_a=pretty_card(a, lang),
                            b=names[1], card_b=pretty_card(b, lang)))
            if event.again:
                return lines + _note(w("Equal cuts: they cut again."))
            if event.dealer is not None:
                return lines + _note(w("{name} cuts lower and deals.", name=names[event.dealer]))
            return lines
        case DealerChosen():
            return _say(event.player, w("I deal.") if event.dealer == event.player else w("You deal."))
        case DealBegun():
            how = w(" in packets of {packets}", packets=event.packets) if event.packets else ""
            role = w("bids first") if event.bidding else w("is elder")
            return _note(w("Deal {number}: {dealer} deals{how}; {elder} {role}.", number=event.number,
                           dealer=names[event.dealer], how=how, elder=names[event.elder], role=role))
        case BidCalled():
            return _say(event.player, bid_words(event.call, lang))
        case AuctionWon():
            return _note(w("{name} holds the contract, {contract}, and is elder.",
                           name=names[event.contract.holder], contract=contract_words(event.contract, lang)))
        case DealAnnulled():
            return _note(w("Both pass: the deal is annulled and the same dealer deals again."))
        case CarteBlancheAnnounced():
            take = (w(" I shall take {number}.", number=w.number(event.will_exchange))
                    if event.will_exchange is not None else "")
            return _say(event.player, w("Carte blanche.") + take)
        case CarteBlancheShown():
            return _say(event.player, w("My carte blanche: {cards}.", cards=event.cards))
        case Exchanged():
            name = names[event.player]
            text = (w("{name} stands pat", name=name) if event.count == 0
                    else w("{name} exchanges {number}", name=name, number=w.number(event.count)))
            if event.left:
                text += w(", leaving {number}", number=w.number(event.left))
            if event.looked:
                text += w(", and looks at what he left")
            return _note(text + ".")
        case Declared():
            if event.length is None:
                return _say(event.player, w(f"No {event.category.value}."))
            return _say(event.player, _opening_call(event, w) + ".")
        case SecondCallAsked():
            return _say(event.player, w("Making?") if event.question == "making" else w("How high?"))
        case SecondCall():
            return _say(event.player, _second_call(event, w) + ".")
        case DeclarationAnswered():
            return _say(event.player, w(event.answer.capitalize() + "."))
        case FirstLead(card=card):
            return _say(event.player, w("I lead {card}.", card=card_words(card, lang)))
        case CardPlayed():
            return (Speech(event.player, str(event.card), "play"),)
        case RestShown():
            return _say(event.player, w("The rest of the talon: {cards}.", cards=event.cards))
        case CardsDivided():
            return _note(w("The cards are divided."))
        case Conceded():
            return _say(event.player, w("I concede."))
        case ConcessionAnswered():
            return _say(event.player, w("I accept.") if event.accept else w("I decline: play on."))
        case DealEnded(points=(a, b), totals=(x, y)):
            double = w(" (counting double)") if event.multiplier > 1 else ""
            return _note(w("Deal {number}: {a} {points_a}, {b} {points_b}{double}; partie {x} to {y}.",
                           number=event.number, a=names[0], points_a=a, b=names[1], points_b=b, double=double,
                           x=x, y=y))
        case GameWon(game=game):
            kind = w("a double game") if game.double else w("the game")
            win, r = game.winner, game.reached
            return _note(w("{winner} reaches {reached} with {loser} at {at}, and wins {kind}; "
                           "{a} to {b} at the end of the deal.", winner=names[win], reached=r[win],
                           loser=names[1 - win], at=r[1 - win], kind=kind, a=game.scores[0], b=game.scores[1]))
        case PartieEnded(settlement=settled):
            if settled.winner is None:
                return _note(w("The partie is drawn."))
            if settled.games is not None:
                won = settled.games
                return _note(w("{name} wins the partie, {a} games to {b}.", name=names[settled.winner],
                               a=won[0], b=won[1]))
            how = w(" The loser is rubiconed.") if settled.rubiconed else ""
            return _note(w("{name} wins the partie and scores {points}.", name=names[settled.winner],
                           points=settled.points) + how)
        case NewGameCut():
            return _note(w("A new game: the players cut again for the deal."))
        case _:
            assert_never(event)


def reason_words(reason: Reason, lang: str = "en") -> str:
    """Why points are scored (:attr:`ScoreEvent.why <piquet.engine.scoring.ScoreEvent.why>`), in ``lang``.

    >>> from piquet.engine.scoring import CombinationReason, LeadReason, PlainReason
    >>> reason_words(CombinationReason(Category.POINT, 5), "fr"), reason_words(PlainReason.REPIQUE, "fr")
    ('point de cinq', 'repic')
    >>> reason_words(CombinationReason(Category.SETS, 4, Rank.ACE), "fr")
    "quatorze d'as"
    >>> sixieme = CombinationReason(Category.SEQUENCES, 6, Rank.KING)
    >>> reason_words(LeadReason(Card.parse("QS")), "fr"), reason_words(sixieme), reason_words(sixieme, "fr")
    ('entame de QS', 'sixième to the king', 'sixième au roi')
    >>> reason_words(ContractMadeReason(Contract(0, 8, True, 2)), "fr")
    '8- surcontré réussi'
    """
    words = words_in(lang)
    match reason:
        case PlainReason():
            return words(reason.value)
        case LeadReason(card=card):
            return words("lead of {card}", card=card)
        case TrickReason(lead=lead, card=card):
            return words("wins the {lead} with the {follow}", lead=lead, follow=card)
        case OwnLeadReason(lead=lead):
            return words("wins his lead of the {lead}", lead=lead)
        case ContractTricksReason(count=n, over=over):
            if over:
                return words.plural("{n} overtrick", "{n} overtricks", n)
            return words.plural("{n} undertrick", "{n} undertricks", n)
        case ContractMadeReason(contract=contract):
            return words("{contract} made", contract=contract_words(contract, lang))
        case CombinationReason(category=category, length=length, top=top, holder=holder):
            said = call(category, _shaped(category, length, top or Rank.ACE), lang)
            said = said[:1].lower() + said[1:]
            return said if holder is None else words("{name}'s {reason}", name=holder, reason=said)
        case _:
            assert_never(reason)


def _reckoning(events: Sequence[ScoreEvent], before: int) -> str:
    words = []
    total = before
    for i, e in enumerate(events):
        total += e.points
        if total == e.points and i == 0:
            words.append(number_word(e.points).capitalize())
        elif i == 0:
            words.append(f"{number_word(e.points).capitalize()}, {number_word(total)}")
        else:
            words.append(f"and {number_word(e.points)}, {number_word(total)}")
    return ", ".join(words) + "."


#: The verbs of the narration, as they read after "You".
_SECOND_PERSON = {
    "accepts": "accept", "announces": "announce", "bids": "bid", "chooses": "choose", "concedes": "concede",
    "cuts": "cut", "deals": "deal", "declares": "declare", "declines": "decline", "does": "do",
    "exchanges": "exchange", "has": "have", "holds": "hold", "is": "are", "leads": "lead", "looks": "look",
    "plays": "play", "reaches": "reach", "scores": "score", "stands": "stand", "takes": "take", "was": "were",
    "wins": "win",
}


def second_person(text: str, names: Sequence[str]) -> str:
    """The narration is in the third person; a player called "You" (the terminal's default name) reads it in the
    second: every interface and command that prints it goes through here.

    >>> second_person("You exchanges three, leaving two, and looks at what he left.", ("You", "Computer"))
    'You exchange three, leaving two, and look at what you left.'
    >>> second_person("Trick 1: Computer leads 7♣, You plays J♣; You wins. You 1, Computer 0.", ("You", "Computer"))
    'Trick 1: Computer leads 7♣, You play J♣; You win. You 1, Computer 0.'
    >>> second_person("Computer: 'Six.' [You's point of six 6]", ("You", "Computer"))
    "Computer: 'Six.' [your point of six 6]"
    """
    for name in names:
        if name.lower() != "you":
            continue
        text = re.sub(rf"\b{re.escape(name)} (\w+)\b",
                      lambda m: f"{m.group(0).split()[0]} {_SECOND_PERSON.get(m.group(1), m.group(1))}", text)
        # Auction's minus contracts: "You's point of six", scored by the opponent.
        text = text.replace(f"{name}'s ", "your ")
        if text.startswith("your "):
            text = "Y" + text[1:]
        if text.startswith(f"{name} "):
            text = text.replace("looks at what he left", "look at what you left").replace(" and scores ", " and score ")
            text = text.replace(", and is elder", ", and are elder").replace(" lower and deals", " lower and deal")
    return text


def deal_lines(log: Iterable[LogEntry], names: tuple[str, str]) -> Iterator[str]:
    """The lines of one deal's commentary: the calls as said, then a line per trick (a player called "You" in the
    second person: :func:`second_person`)."""
    for line in _deal_lines(log, names):
        yield second_person(line, names)


def _deal_lines(log: Iterable[LogEntry], names: tuple[str, str]) -> Iterator[str]:
    totals = [0, 0]
    pending: list[ScoreEvent] = []
    trick: list[CardPlayed] = []
    trick_events: list[ScoreEvent] = []
    number = 0

    def flush() -> Iterator[str]:
        if not pending:
            return
        who = pending[0].player
        text = _reckoning(pending, totals[who])
        why = "; ".join(f"{e.reason} {e.points}" for e in pending)
        totals[who] += sum(e.points for e in pending)
        pending.clear()
        yield f'{names[who]}: "{text}" [{why}]'

    def trick_line() -> str:
        lead, second = trick
        assert second.winner is not None
        for e in trick_events:
            totals[e.player] += e.points
        extras = [f"{names[e.player]} {e.reason} {e.points}" for e in trick_events
                  if e.category is not ScoreCategory.PLAY or e.why is PlainReason.LAST_TRICK]
        extra = f" ({'; '.join(extras)})" if extras else ""
        trick.clear()
        trick_events.clear()
        return (f"Trick {number}: {names[lead.player]} leads {lead.card.pretty()}, {names[second.player]} plays "
                f"{second.card.pretty()}; {names[second.winner]} wins{extra}. "
                f"{names[0]} {totals[0]}, {names[1]} {totals[1]}.")

    for entry in log:
        if isinstance(entry, ScoreEvent):
            if number and (trick or entry.category is not ScoreCategory.CARDS or trick_events):
                trick_events.append(entry)
                continue
            if pending and pending[-1].player != entry.player:
                yield from flush()
            pending.append(entry)
            continue
        if isinstance(entry, CardPlayed):
            yield from flush()
            if len(trick) == 2 or (not trick and trick_events):
                yield trick_line()
            if not trick:
                number += 1
            trick.append(entry)
            continue
        if trick and len(trick) == 2:
            yield trick_line()
        yield from flush()
        for line in said(entry, names):
            yield line.text if line.speaker is None else f'{names[line.speaker]}: "{line.text}"'
    if len(trick) == 2:
        yield trick_line()
    yield from flush()


def partie_lines(logs: Iterable[Sequence[LogEntry]], names: tuple[str, str]) -> Iterator[str]:
    """The commentary of every deal, a blank line between deals."""
    for i, log in enumerate(logs):
        if i:
            yield ""
        yield from deal_lines(log, names)
