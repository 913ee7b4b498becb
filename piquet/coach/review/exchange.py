"""The review of the exchange: the strongest level's candidate discards and the choice made, each valued over
the talons and hands the view allows as that level values them (fair), or against the real talon and hand with
the play solved (open hands), broken down by part, and explained from that breakdown (docs/review.md, "The
exchange")."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from piquet.ai.bidding import (
    TRICK_SPREAD,
    _spread,
    auction_weight,
    contract_discards,
    contract_points,
    estimate_tricks,
)
from piquet.ai.books import discard_choice, minus_discards
from piquet.ai.budget import Deadline
from piquet.ai.exchange import (
    candidate_discards,
    decided_by_hands,
    drawn,
    talon_tops,
    valuation,
    worlds_after_elder,
    younger_takes,
)
from piquet.ai.inference import Inference, World
from piquet.ai.levels import LEVELS, partie_utility
from piquet.ai.solver import PlayPosition
from piquet.coach.review.grading import (
    EPSILON,
    PLAY_PARTS,
    Lens,
    Part,
    cards_text,
    figure,
    listed,
    mark,
    named_parts,
    percent,
    points_words,
    signed,
    stakes,
    unit,
)
from piquet.coach.review.play import BestCache, best_card, principal_line
from piquet.engine.actions import (
    Exchange,
)
from piquet.engine.cards import FULL_PACK, Card, CardSet
from piquet.engine.combinations import Category, call, maximal
from piquet.engine.language import words_in
from piquet.engine.partie import Partie, Phase
from piquet.engine.scoring import (
    ScoreCategory,
)
from piquet.engine.view import PlayerView

# ---------------------------------------------------------------- the exchange
#: Talons and opponent's hands the fair lens values an exchange over, by default: as many as the strongest
#: level samples for its own exchange.
EXCHANGE_WORLDS: Final = LEVELS[5].exchange_worlds

#: The discards valued, by default: as many as the strongest level tries (the choice made is added to them).
EXCHANGE_CANDIDATES: Final = LEVELS[5].exchange_candidates

#: The parts an exchange's value is broken down into, in the order they are reckoned: a carte blanche already
#: scored, the declarations, the repique and the pique, then the play (one estimate in the fair lens; the
#: solver's line, by its own parts, with open hands) and Auction's contract.
EXCHANGE_PARTS: Final = (Part.CARTE_BLANCHE, Part.POINT, Part.SEQUENCES, Part.SETS, Part.REPIQUE, Part.PIQUE,
                         Part.PLAY, Part.CONTRACT, Part.LEAD, Part.TRICKS, Part.LAST_TRICK, Part.CARDS, Part.CAPOT)

#: The parts whose winning an exchange review counts (the share of the worlds in which the player scores them).
WON_PARTS: Final = (Part.POINT, Part.SEQUENCES, Part.SETS, Part.REPIQUE, Part.PIQUE)

_AT: Final = {part: i for i, part in enumerate(EXCHANGE_PARTS)}
_BIT: Final = {part: 1 << i for i, part in enumerate(WON_PARTS)}
# The same, read once for the loop over worlds and discards (an enum member hashes in Python).
_AT_CARTE_BLANCHE: Final = _AT[Part.CARTE_BLANCHE]
_AT_PIQUE: Final = _AT[Part.PIQUE]
_AT_PLAY: Final = _AT[Part.PLAY]
_AT_CONTRACT: Final = _AT[Part.CONTRACT]
_DECLARED_AT: Final = tuple(_AT[part] for part in (Part.POINT, Part.SEQUENCES, Part.SETS, Part.REPIQUE))
_WON_BITS: Final = tuple(_BIT[part] for part in WON_PARTS)
_POINT_BIT: Final = _BIT[Part.POINT]
_SEQUENCES_BIT: Final = _BIT[Part.SEQUENCES]
_SETS_BIT: Final = _BIT[Part.SETS]
_REPIQUE_BIT: Final = _BIT[Part.REPIQUE]
_PIQUE_BIT: Final = _BIT[Part.PIQUE]


@dataclass(frozen=True)
class DiscardWorth:
    """One discard's value for the player at the exchange: his points of the deal from the exchange on less
    the opponent's (or by the partie's stakes), a mean over the worlds in the fair lens; its breakdown by
    :class:`Part` (the parts sum to the value); and for each of :data:`WON_PARTS` the share of the worlds in
    which he scores it (0 or 1 with open hands)."""

    discard: CardSet
    value: float
    parts: Mapping[Part, float]
    won: Mapping[Part, float]


@dataclass(frozen=True)
class ExchangeReview:
    """An exchange reviewed: the discards valued (the level's candidates and the choice made; best first),
    the choice, the best (the choice itself when it is as good as any), the loss and the mark. ``utility`` is
    the player's worth of a point of his and of one of his opponent's (``(1, -1)`` but in a partie's last
    deal); ``play`` says how the play was valued (``"estimate"``: the levels' fitted estimate; ``"solver"``:
    solved exactly, with open hands); ``parts`` the parts this review breaks values into. ``compared``: the
    discard the choice is compared with, the best, or where the choice is the best the next discard (the
    choice itself where it is the only one). ``given_up`` and ``gained``: the share of the worlds in which
    ``compared`` scores a part of :data:`WON_PARTS` and the choice does not, and the other way round.
    ``elder``: whether the player is elder. ``hand``: the player's twelve cards before the exchange."""

    seat: int
    elder: bool
    lens: Lens
    worlds: int
    utility: tuple[int, int]
    play: str
    hand: CardSet
    minimum_point: int
    choice: CardSet
    best: CardSet
    loss: float
    options: tuple[DiscardWorth, ...]
    parts: tuple[Part, ...]
    compared: CardSet
    given_up: Mapping[Part, float]
    gained: Mapping[Part, float]

    @property
    def mark(self) -> str:
        return mark(self.loss)

    def worth(self, discard: CardSet) -> DiscardWorth:
        for w in self.options:
            if w.discard == discard:
                return w
        raise KeyError(f"{discard} was not among the discards valued")


def uniform_worlds(view: PlayerView, rng: random.Random, count: int) -> list[World]:
    """Talons and opponent's hands dealt uniformly from the cards the view does not show (where the
    inference finds none): her hand as large as it is, the rest the talon."""
    opponent = view.opponent
    assert opponent is not None
    unseen = list(CardSet(FULL_PACK & ~view.known_cards().mask))
    size = view.hand_sizes[opponent]
    out = []
    for _ in range(count):
        rng.shuffle(unseen)
        out.append(World(CardSet(unseen[:size]), CardSet(), tuple(unseen[size:size + view.talon_left])))
    return out


def _exchange_worlds(view: PlayerView, lens: Lens, partie: Partie, count: int, rng: random.Random) -> list[World]:
    """The worlds an exchange is valued over: the talon left and the opponent's hand as they are (open
    hands), or as the strongest level draws them for its own exchange (fair)."""
    seat, opponent = view.seat, view.opponent
    assert seat is not None and opponent is not None
    if lens is Lens.OPEN:
        left = partie.undrawn()
        return [World(partie.hand(opponent), CardSet(), tuple(c for c in partie.talon() if c in left))]
    contract = view.contract
    sampled: list[World] | None = None
    if seat != view.elder and view.exchanged[view.elder] is not None:
        if view.rules.uses_bidding and contract is not None:
            minus = contract.minus
            sampled = worlds_after_elder(
                view, rng, count,
                lambda dealt, taken: minus_discards(dealt, taken, taken) if minus else discard_choice(dealt, taken),
                lambda dealt, talon: auction_weight(view, dealt, talon))
        else:
            sampled = worlds_after_elder(view, rng, count)
    if not sampled:
        sampled = Inference(view).sample(rng, count)
        if sampled and view.rules.uses_bidding and contract is not None:
            sampled = [replace(w, weight=w.weight * auction_weight(view, w.opponent_hand, w.talon)) for w in sampled]
    return sampled or uniform_worlds(view, rng, count)


def _carte_blanche_points(view: PlayerView) -> tuple[int, int]:
    """The points each seat has scored for a carte blanche in this deal."""
    before = [0, 0]
    for event in view.events:
        if event.category is ScoreCategory.CARTE_BLANCHE:
            before[event.player] += event.points
    return before[0], before[1]


def review_exchange(partie: Partie, choice: Exchange, lens: Lens = Lens.FAIR, worlds: int = EXCHANGE_WORLDS,
                    rng: random.Random | None = None, candidates: int = EXCHANGE_CANDIDATES,
                    deadline: Deadline | None = None) -> ExchangeReview:
    """The review of the player to act in ``partie`` (at the exchange) making ``choice``: the discards the
    strongest level would try (``candidates`` of them, :func:`~piquet.ai.exchange.candidate_discards`, or in an
    Auction contract :func:`~piquet.ai.bidding.contract_discards`) and the choice made, each valued over
    ``worlds`` talons and opponent's hands the view allows, drawn by ``rng`` as the level draws them, each
    world valued as the level values it (:attr:`Lens.FAIR`: :func:`~piquet.ai.exchange.estimate`, or the
    contract's worth), or against the talon and the hand she really held, the declarations reckoned exactly
    and the play solved (:attr:`Lens.OPEN`). In points of the deal from the player's side, by the partie's
    stakes (:func:`~piquet.ai.levels.partie_utility`) where they are not the score difference. A ``deadline``
    stops the worlds when it is spent (never before the first). How, and why: docs/review.md, "The exchange"."""
    seat = partie.to_act
    if partie.phase is not Phase.EXCHANGE or seat is None:
        raise ValueError(f"no exchange to review: it is the {partie.phase.value}")
    if not isinstance(choice, Exchange) or choice.player != seat or not partie.can(choice):
        raise ValueError(f"{choice.describe(partie.players)}: not a legal exchange here")
    if lens is Lens.FAIR and worlds < 1:
        raise ValueError("the fair lens needs at least one world")
    view = partie.view(seat)
    rules = view.rules
    contract = view.contract
    bidding = rules.uses_bidding and contract is not None
    options = list(dict.fromkeys(contract_discards(view, candidates) if bidding
                                 else candidate_discards(view, candidates)))
    if choice.discards not in options:
        options.append(choice.discards)
    u = (1, -1) if bidding else partie_utility(view, rules)
    m, h = mine = u if seat == 0 else (-u[1], -u[0])
    elder = view.elder
    is_elder = seat == elder
    sampled = _exchange_worlds(view, lens, partie, worlds, rng or random.Random(0))
    solver = lens is Lens.OPEN
    before = _carte_blanche_points(view)
    cb_e, cb_y = before[elder], before[1 - elder]
    cb_part = m * before[seat] + h * before[1 - seat]
    hand = view.hand.mask
    # Elder with carte blanche exchanges after younger has set hers aside: she draws after his cards.
    ahead = 0 if is_elder or view.exchanged[elder] is not None else view.will_exchange or 0
    her_turn_done = view.exchanged[1 - seat] is not None
    minus = bidding and contract is not None and contract.minus
    net = [0.0] * 13
    sigma = 0.0
    if bidding and contract is not None:
        sigma = TRICK_SPREAD[minus]
        net = [float(a - b) for a, b in (contract_points(rules, contract, k) for k in range(13))]

    def answer(hers: int, rest: Sequence[Card]) -> int:
        """Younger's hand after she takes what elder left, as the books (and the levels' model) exchange."""
        if not rest:
            return hers
        if minus:
            return drawn(hers, minus_discards(CardSet(hers), 0, len(rest)), rest)
        return younger_takes(hers, rest)

    used: tuple[Part, ...]
    if solver:
        used = (Part.CARTE_BLANCHE, Part.POINT, Part.SEQUENCES, Part.SETS, Part.REPIQUE, *PLAY_PARTS)
    elif bidding:
        used = (Part.CARTE_BLANCHE, Part.POINT, Part.SEQUENCES, Part.SETS, Part.REPIQUE, Part.PIQUE, Part.CONTRACT)
    else:
        used = (Part.CARTE_BLANCHE, Part.POINT, Part.SEQUENCES, Part.SETS, Part.REPIQUE, Part.PIQUE, Part.PLAY)
    used_at = [_AT[part] for part in used]
    value = valuation(rules, contract)
    before_deal = (cb_e, cb_y)
    cache: BestCache = {}

    def in_hand(de: tuple[int, ...], dy: tuple[int, ...]) -> tuple[list[float], int]:
        """The parts (by :data:`EXCHANGE_PARTS`) the declarations give the player, and the bits of
        :data:`WON_PARTS` he wins."""
        own, other = (de, dy) if is_elder else (dy, de)
        parts = [0.0] * len(EXCHANGE_PARTS)
        parts[_AT_CARTE_BLANCHE] = cb_part
        bits = 0
        for k in range(4):
            parts[_DECLARED_AT[k]] = m * own[k] + h * other[k]
            if own[k]:
                bits |= _WON_BITS[k]
        return parts, bits

    def fair(e: int, y: int) -> tuple[Sequence[float], int]:
        """A world's parts (as ``used`` lists them) and won bits as the level values it: the declarations, the
        pique, the play's estimate."""
        de, dy, pique, play = value.reckon(e, y, before_deal)
        own, other = (de, dy) if is_elder else (dy, de)
        bits = ((_POINT_BIT if own[0] else 0) | (_SEQUENCES_BIT if own[1] else 0) | (_SETS_BIT if own[2] else 0)
                | (_REPIQUE_BIT if own[3] else 0) | (_PIQUE_BIT if pique and is_elder else 0))
        return (cb_part, m * own[0] + h * other[0], m * own[1] + h * other[1], m * own[2] + h * other[2],
                m * own[3] + h * other[3], (m if is_elder else h) * pique,
                (m - h) * (play if is_elder else -play) / 2), bits

    def solved(e: int, y: int) -> tuple[Sequence[float], int]:
        """With open hands: the declarations, then the play solved, by the principal line's parts."""
        de, dy = value.by_category(e, y, before_deal)
        parts, bits = in_hand(de, dy)
        a, b = cb_e + sum(de), cb_y + sum(dy)
        scores = (a, b) if elder == 0 else (b, a)
        hands = (e, y) if elder == 0 else (y, e)
        position = PlayPosition(hands, elder, elder, (0, 0), scores, None, bool(de[3] or dy[3]), contract, u)
        line = principal_line(position, best_card(position, rules, cache), rules, cache)
        sign = 1 if is_elder else -1
        for part, points in line.parts.items():
            parts[_AT[part]] += sign * points
            if part is Part.PIQUE and sign * points > 0 and m > h:
                bits |= _PIQUE_BIT
        return [parts[k] for k in used_at], bits

    def contracted(e: int, y: int) -> tuple[Sequence[float], int]:
        """In an Auction contract: the declarations, the pique the hands decide, the contract's worth."""
        de, dy = value.by_category(e, y, before_deal)
        parts, bits = in_hand(de, dy)
        chances = _spread(estimate_tricks(e, y, minus), sigma)
        worth = sum(p * v for p, v in zip(chances, net, strict=True))  # the holder's (elder's)
        parts[_AT_CONTRACT] = worth if is_elder else -worth
        if not (de[3] or dy[3]):  # the pique the hands decide in order, as the level counts it
            decided = decided_by_hands(e, y, rules, contract, before_deal)
            if decided is not None and decided.category is ScoreCategory.PIQUE:
                own_pique = (decided.player == 0) == is_elder
                parts[_AT_PIQUE] = (m if own_pique else h) * decided.points
                if own_pique:
                    bits |= _PIQUE_BIT
        return [parts[k] for k in used_at], bits

    judge = solved if solver else contracted if bidding else fair
    count = len(options)
    # Each discard as the cards it keeps and how many it draws: the hand after it is those and the talon's top.
    kept = [hand & ~discard.mask for discard in options]
    sizes = [len(discard) for discard in options]
    most = max(sizes)
    totals = [[0.0] * len(used) for _ in range(count)]
    flags: list[list[int]] = [[] for _ in range(count)]
    weights: list[float] = []
    start = deadline.elapsed() if deadline is not None else 0.0
    for at, world in enumerate(sampled):
        # The next world costs what the worlds so far did, on average.
        if at and deadline is not None and deadline.spent(ahead=(deadline.elapsed() - start) / at):
            break
        weight = world.weight
        weights.append(weight)
        theirs: dict[int, int] = {}
        opponent_hand = world.opponent_hand.mask
        talon = world.talon
        if not is_elder and ahead:  # elder's cards come off the top first
            opponent_hand = drawn(opponent_hand, discard_choice(CardSet(opponent_hand), ahead), talon)
            talon = talon[ahead:]
        tops = talon_tops(talon, most)
        for i in range(count):
            n = sizes[i]
            me = kept[i] | tops[n]
            if not is_elder:
                parts, bits = judge(opponent_hand, me)
            else:
                if n not in theirs:  # younger who exchanged first (his carte blanche) holds her hand already
                    theirs[n] = answer(opponent_hand, talon[n:]) if not her_turn_done else opponent_hand
                parts, bits = judge(me, theirs[n])
            totals[i] = [total + weight * x for total, x in zip(totals[i], parts, strict=True)]
            flags[i].append(bits)
    won = [[0.0] * len(WON_PARTS) for _ in range(count)]
    for i in range(count):
        for k, bit in enumerate(_WON_BITS):
            for weight, bits in zip(weights, flags[i], strict=True):
                if bits & bit:
                    won[i][k] += weight
    total_weight = sum(weights)
    worths = []
    for i, discard in enumerate(options):
        parts_mean = {part: total / total_weight for part, total in zip(used, totals[i], strict=True)}
        worths.append(DiscardWorth(discard, sum(parts_mean.values()), parts_mean,
                                   {part: won[i][k] / total_weight for k, part in enumerate(WON_PARTS)}))
    at_choice = options.index(choice.discards)
    chosen = worths[at_choice]
    top = max(w.value for w in worths)
    order = sorted(range(count), key=lambda i: (-worths[i].value, i != at_choice, i))
    best_at = at_choice if chosen.value >= top - EPSILON else order[0]

    def share(have: list[int], lack: list[int], bit: int) -> float:
        return sum(w for w, x, y in zip(weights, have, lack, strict=True) if x & bit and not y & bit) / total_weight

    # The choice against the best, or the best choice against the next.
    versus = best_at if best_at != at_choice else next((i for i in order if i != at_choice), at_choice)
    given_up = {part: share(flags[versus], flags[at_choice], _BIT[part]) for part in WON_PARTS}
    gained = {part: share(flags[at_choice], flags[versus], _BIT[part]) for part in WON_PARTS}
    return ExchangeReview(seat, is_elder, lens, len(weights), mine, "solver" if solver else "estimate", view.hand,
                          rules.minimum_point, choice.discards, options[best_at], max(0.0, top - chosen.value),
                          tuple(worths[i] for i in order), used, options[versus], given_up, gained)


def _kept(review: ExchangeReview, discard: CardSet, category: Category) -> list[CardSet]:
    """The player's combinations of ``category`` (as the hand held them, before the exchange) that ``discard``
    leaves whole."""
    return [c for c in maximal(category, review.hand, review.minimum_point) if not c.mask & discard.mask]


def _combination_words(category: Category, cards: CardSet, lang: str = "en") -> str:
    """A combination as the game names it: "quint major in hearts", "fourteen kings", "point of five in spades"."""
    said = call(category, cards, lang)
    said = said[0].lower() + said[1:]
    if category is Category.SETS:
        return said
    words = words_in(lang)
    return words("{combination} in {suit}", combination=said, suit=words(next(iter(cards)).suit.name.lower()))


_CATEGORY_OF: Final = {Part.POINT: Category.POINT, Part.SEQUENCES: Category.SEQUENCES, Part.SETS: Category.SETS}


def exchange_differences(review: ExchangeReview) -> list[tuple[Part, float]]:
    """What the choice brings, part by part, less what the discard it is compared with (the best, or the next
    where the choice is the best) brings: the parts an exchange's explanation names, largest first (:func:`named_parts`:
    those that differ by half a point or more, and as many more as it takes to add up to the whole difference)."""
    choice, other = review.worth(review.choice), review.worth(review.compared)
    diffs = {part: choice.parts[part] - other.parts[part] for part in sorted(review.parts, key=EXCHANGE_PARTS.index)}
    return named_parts(diffs, review.lens)


def explain_exchange(review: ExchangeReview, names: tuple[str, str], lang: str = "en") -> str:
    """The exchange's review in sentences, built from the breakdowns of the choice and the discard it is
    compared with (:func:`exchange_differences`: the best, or the next where the choice is the best), the shares
    of the worlds in which each scores a category, and the combinations of the hand each breaks up: what the
    choice gives up and gains against the other. In ``lang`` (:mod:`piquet.engine.language`)."""
    w = words_in(lang)
    lens = review.lens
    average = w(" on average") if lens is Lens.FAIR else ""
    verb = (w("Discarding the {cards}", cards=cards_text(review.choice, lang)) if review.choice
            else w("Exchanging no card"))
    choice = review.worth(review.choice)
    said_stakes = stakes(review.utility, lang)
    other = cards_text(review.compared, lang) or w("no card")
    if review.loss < EPSILON:
        if review.compared == review.choice:
            return w("{verb}: the only discard valued.", verb=verb)
        ties = [x for x in review.options if x.discard != review.choice and choice.value - x.value < EPSILON]
        if ties:
            return w.plural("{verb}: as good as {n} other discard valued.", "{verb}: as good as {n} other discards "
                            "valued.", len(ties), verb=verb)
        margin = figure(choice.value - review.worth(review.compared).value, lens, lang)
        if margin == "0":
            return w("{verb}: as good as the {other}, to {unit}{average}.", verb=verb, other=other,
                     unit=unit(lens, lang), average=average)
        effects, combinations = _exchange_effects(review, lang)
        return w("{verb}: the best, by {points}{average}{stakes} over the {other}: {effects}.{combinations}", verb=verb,
                 points=points_words(margin, lang), average=average, stakes=said_stakes, other=other, effects=effects,
                 combinations=combinations)
    loss = figure(review.loss, lens, lang)
    if loss == "0":  # a loss of less than a twentieth of a point
        return w("{verb}: as good as the best, the {other}, to a tenth of a point{average}.", verb=verb, other=other,
                 average=average)
    effects, combinations = _exchange_effects(review, lang)
    return w("{verb} rather than the {other} costs {name} {points}{average}{stakes}: {effects}.{combinations}",
             verb=verb, other=other, name=names[review.seat], points=points_words(loss, lang), average=average,
             stakes=said_stakes, effects=effects, combinations=combinations)


def _exchange_effects(review: ExchangeReview, lang: str = "en") -> tuple[str, str]:
    """What the choice gives up and gains against the discard it is compared with, part by part, and (a
    sentence, or nothing) the combinations it breaks up or keeps."""
    w = words_in(lang)
    lens = review.lens
    broken: list[str] = []
    kept: list[str] = []
    lost: list[str] = []
    gained: list[str] = []
    against: list[str] = []
    own_worth, her_worth = review.utility
    for part, x in exchange_differences(review):
        if part is Part.PIQUE and lens is Lens.FAIR and not review.elder:  # elder's pique, as the estimate has it
            more = x * her_worth > 0  # his pique more often where it is worth to her what it was
            against.append(w("lets in elder's pique more often ({points})" if more
                             else "keeps off elder's pique more often ({points})", points=signed(x, lens, lang)))
            continue
        said = f"{part.said(lang)} ({signed(x, lens, lang)}"
        # How often: where the player's points count for him and hers against him (else scoring a category
        # is not simply winning it).
        if lens is Lens.FAIR and part in review.given_up and own_worth > 0 > her_worth:
            share = review.given_up[part] if x < 0 else review.gained[part]
            if round(share * 100) >= 1:
                said += w("; in {share} of the talons", share=percent(share, lang))
        (lost if x < 0 else gained).append(said + ")")
        category = _CATEGORY_OF.get(part)
        if category is not None and own_worth > 0:
            mine = _kept(review, review.choice, category)
            other = _kept(review, review.compared, category)
            if x < 0:
                broken += [_combination_words(category, c, lang) for c in other if c not in mine][:1]
            else:
                kept += [_combination_words(category, c, lang) for c in mine if c not in other][:1]
    effects = []
    # Where his own points do not simply count for him (a partie's last deal), what the choice loses or gains
    # on a part is not simply giving it up or gaining it.
    plain = own_worth > 0 > her_worth
    if lost:
        effects.append(w("it gives up {parts}" if plain else "it loses on {parts}", parts=listed(lost, lang)))
    if gained:
        template = ("and gains {parts}" if lost else "it gains {parts}") if plain else \
            ("and gains on {parts}" if lost else "it gains on {parts}")
        effects.append(w(template, parts=listed(gained, lang)))
    if against:
        effects.append(w("and {clauses}" if effects else "it {clauses}", clauses=listed(against, lang)))
    combinations = []
    if broken:
        combinations.append(w("breaks up {combinations}", combinations=listed(
            [w("your {combination}", combination=c) for c in broken], lang)))
    if kept:
        combinations.append(w("keeps {combinations}", combinations=listed(
            [w("your {combination}", combination=c) for c in kept], lang)))
    return " ".join(effects), w(" It {clauses}.", clauses=w(" and ").join(combinations)) if combinations else ""
