"""Laws 65-69 and Lunn's contracts have one home (piquet.engine.reckoning): what the play scores and in which order.
The solver's model of the play (its step, its search's tables and pique reckoning, in Python and in the compiled
kernel) and the review's line of play are made from it; these tests change nothing but prove it, card by card, on
seeded deals of every variant with every rule option that touches the play, against what the engine scored."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from helpers import examples

from piquet.ai.agent import RandomAgent
from piquet.ai.play_model import PlayPosition, model_for, play, position_from_view
from piquet.ai.solver import _solve
from piquet.coach.review import advance
from piquet.engine.actions import Action, Declare, Play
from piquet.engine.cards import CARDS
from piquet.engine.events import CardPlayed
from piquet.engine.partie import LegalActions, Partie, Phase
from piquet.engine.reckoning import scoring_for
from piquet.engine.scoring import ScoreCategory, ScoreEvent
from piquet.engine.variants import Contract, Rules, make_rules
from piquet.engine.view import PlayerView

try:
    from piquet.ai import _kernel
except ImportError:  # not built: the pure search alone is checked
    _kernel = None  # type: ignore[assignment]

#: The rule options of each variant that change what the play scores, when, or for whom (an Auction contract is
#: drawn by the bidding itself, plus and minus, doubled and redoubled).
PLAY_OPTIONS: dict[str, dict[str, list[object]]] = {
    "rubicon": {"lead_point_only_if_won": [True], "points_for_winning_opponents_lead": [2],
                "low_cards_score_nothing_in_play": [True], "cards_count_toward_pique": [True],
                "ten_for_the_last_trick": [True], "carte_rouge": [True], "minimum_point": [4],
                "four_deal_partie": [True]},
    "auction": {"minimum_point": [4], "redouble_counts_as_double": [True], "carte_blanche": [True]},
    "au-cent": {"low_cards_score_nothing_in_play": [True], "cards_count_toward_pique": [True],
                "play_ceases_at_the_target": [True], "game_of_101": [True],
                "points_ending_in_four_count_one_less": [True]},
}


def _options(variant: str, rng: random.Random) -> dict[str, object]:
    """Each play option of the variant on in half the parties."""
    return {name: rng.choice(values) for name, values in PLAY_OPTIONS[variant].items() if rng.random() < 0.5}


def _card_events(partie: Partie, card_at: int) -> tuple[ScoreEvent, ...]:
    """What the card said at ``card_at`` in the deal's log scored: the score events after it, to the log's end."""
    log = partie.logs()[-1]
    assert isinstance(log[card_at], CardPlayed)
    return tuple(e for e in log[card_at + 1:] if isinstance(e, ScoreEvent))


def _key(events: tuple[ScoreEvent, ...]) -> list[tuple[int, int, str, str]]:
    return sorted((e.player, e.points, e.category.value, e.reason) for e in events if e.points)


class _Trick:
    """A trick's lead as the search sees it: the position before it, and the pique state there."""

    def __init__(self, position: PlayPosition, lead: int, lead_events: tuple[ScoreEvent, ...],
                 solved: list[int]) -> None:
        self.position = position
        self.lead = lead
        self.lead_events = lead_events
        #: At the last trick, where only one line remains: the search's values of the lead, pure and compiled.
        self.solved = solved


def check_card(partie: Partie, card: Play, lead: _Trick | None) -> _Trick | None:
    """Play ``card`` in ``partie`` and check that the solver's step, the review and (at the trick's second card) the
    search's reckoning of the trick, pure and compiled, score it as the engine does. The trick's lead, for the
    second card."""
    rules = partie.rules
    seat = card.player
    position = position_from_view(partie.view(seat), partie.hand(1 - seat))
    after, events = play(position, card.card, rules)
    _, parts = advance(position, card.card, rules)
    number = partie.deal_number
    partie.push(card)
    # The card in the deal's log (at elder's first lead, what the hand reckons comes before it).
    log = partie.logs()[-1]
    at = max(i for i, entry in enumerate(log) if isinstance(entry, CardPlayed) and entry.card == card.card)
    engine = _card_events(partie, at)
    # The solver's step scores the card as the engine did, and the review's parts are those points.
    assert _key(events) == _key(engine), (partie.variant, partie.rules.changed(), card)
    assert sorted((who, points) for who, points, _ in parts) == sorted((e.player, e.points) for e in engine
                                                                       if e.points)
    # The position after it is the one the players' views give (while the play goes on); but at elder's first lead
    # where the engine scored a carte rouge (an option): what the lead reckons does not foresee one
    # (reckoning.reckoning_at_first_lead), so the position before it, and the search there, miss it.
    carte_rouge = any(isinstance(e, ScoreEvent) and e.category is ScoreCategory.CARTE_ROUGE for e in log[:at])
    if carte_rouge and sum(position.tricks_won) == 0 and position.lead is None:
        pass
    elif partie.phase is Phase.PLAY and partie.deal_number == number and not after.over:
        to_act = partie.to_act
        assert to_act is not None
        assert after == position_from_view(partie.view(to_act), partie.hand(1 - to_act))
    else:
        assert after.over or partie.phase is not Phase.PLAY
    if position.lead is None:
        solved = []
        if position.hands[0].bit_count() == position.hands[1].bit_count() == 1:
            solved = [_solve(position, rules, False, True, compiled=compiled).value
                      for compiled in ((False, True) if _kernel is not None else (False,))]
            if not model_for(rules, position.contract, position.elder, position.utility).may_cease(position):
                # The search by tricks values the cards at the end, those scored at a seventh trick too (the option
                # cards_count_toward_pique): the same for every line once they are decided. (The search by cards,
                # where play may cease at the target, scores them as the engine does.)
                log = partie.logs()[-1][:at]
                net = sum(position.utility[e.player] * e.points for e in log
                          if isinstance(e, ScoreEvent) and e.category is ScoreCategory.CARDS)
                solved = [value - (net if seat == 0 else -net) for value in solved]
        return _Trick(position, card.card, events, solved)
    assert lead is not None
    _check_trick(rules, lead, card, engine, after)
    if lead.solved:
        # The last trick: the search's value (the lead, the trick, the last trick, a pique, the cards or capot, the
        # contract) is what the engine scored for these two cards, to the leader.
        start = lead.position
        net = sum(start.utility[e.player] * e.points for e in (*lead.lead_events, *engine))
        assert lead.solved == [net if start.to_act == 0 else -net] * len(lead.solved), (partie.variant, card)
    return None


def _check_trick(rules: Rules, lead: _Trick, card: Play, engine: tuple[ScoreEvent, ...], after: PlayPosition) -> None:
    """The search values a whole trick at once (its lead's point, its own points, the last trick, a pique, the
    cards of a seventh trick toward it): the same, pure and compiled, as the engine's two cards scored."""
    start = lead.position
    if start.target is not None:
        return  # where play may cease at the target the search is the pure one (see solve), checked by its step
    model = model_for(rules, start.contract, start.elder, start.utility)
    leader = start.to_act
    last = not (after.hands[0] or after.hands[1])
    winner, steps = model.trick(leader, lead.lead, card.card, last)
    pk = model.pique_key(start.scores, start.pique_done)
    won = after.tricks_won[winner]
    seventh = model.seventh(winner, won)
    p0, p1, _ = model.score_trick(pk, steps, seventh)
    scored = [0, 0]
    for e in (*lead.lead_events, *engine):
        # The cards at a seventh trick are valued with the cards at the end; the end itself is not the trick's.
        if e.category in (ScoreCategory.CARDS, ScoreCategory.CONTRACT):
            continue
        scored[e.player] += e.points
    assert (p0, p1) == (scored[0], scored[1])
    if _kernel is not None:
        assert model.kernel(_kernel).score(leader, last, lead.lead, card.card, seventh is not None, pk)[:2] == (p0, p1)


class _Talker(RandomAgent):
    """Declaring as little (``quiet``) or as much as he may, and playing his lowest (or highest) card: one talks
    his opponent into a pique."""

    def __init__(self, rng: random.Random, quiet: bool) -> None:
        super().__init__(rng)
        self.quiet = quiet

    def choose(self, view: PlayerView, legal: LegalActions) -> Action:
        if view.phase is Phase.DECLARE:
            said = [a for a in legal if isinstance(a, Declare)]
            if said:
                return (min if self.quiet else max)(said, key=lambda a: sum(len(c) for c in a.combinations))
        if view.phase is Phase.PLAY:
            cards = [a for a in legal if isinstance(a, Play)]
            if cards:
                return (min if self.quiet else max)(cards, key=lambda a: (a.card.rank, a.card.suit))
        return super().choose(view, legal)


def seeded_deals(variant: str, deals: int, seed: int) -> Iterator[tuple[Partie, Play]]:
    """Every card of ``deals`` deals of random play (parties of ``variant`` with play options drawn), just before
    it is played."""
    rng = random.Random(f"{seed}/{variant}")
    dealt = 0
    while dealt < deals:
        partie = Partie(("Ann", "Bill"), variant, _options(variant, rng), first_dealer=rng.randrange(2))
        # A player who declares nothing now and then, so that his opponent's points in hand and play come to a pique.
        agents = [RandomAgent(random.Random(rng.random())), RandomAgent(random.Random(rng.random()))]
        if rng.random() < 0.5:
            # One declares as much and the other as little as he may: a pique or a repique comes oftener.
            quiet = rng.randrange(2)
            agents[quiet] = _Talker(random.Random(rng.random()), quiet=True)
            agents[1 - quiet] = _Talker(random.Random(rng.random()), quiet=False)
        while not partie.is_over and dealt < deals:
            if partie.phase is Phase.CUT:
                partie.push(partie.random_cut(rng))
                continue
            if partie.phase is Phase.DEAL:
                partie.push(partie.random_deal(rng))
                dealt += 1
                continue
            seat = partie.to_act
            assert seat is not None
            action = agents[seat].choose(partie.view(seat), partie.legal_actions())
            if isinstance(action, Play):
                yield partie, action
            else:
                partie.push(action)


def agree(variant: str, deals: int, seed: int) -> int:
    """Check every card of ``deals`` seeded deals; the cards checked."""
    cards = 0
    lead: _Trick | None = None
    for partie, card in seeded_deals(variant, deals, seed):
        if partie.trick == ():
            lead = None
        lead = check_card(partie, card, lead)
        cards += 1
    return cards


@pytest.mark.parametrize("variant", sorted(PLAY_OPTIONS))
def test_the_solver_and_the_review_score_every_card_as_the_engine_does(variant: str) -> None:
    deals = examples(60)
    assert agree(variant, deals, 1) > deals * 12


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(PLAY_OPTIONS))
def test_the_solver_and_the_review_score_every_card_as_the_engine_does_on_thousands_of_deals(variant: str) -> None:
    assert agree(variant, 1500, 2) > 1500 * 12


@pytest.mark.slow  # exhaustive: every trick from every state, some 3 s
def test_the_kernel_reckons_every_trick_from_every_pique_state_as_the_pure_model_does() -> None:
    """The kernel's one copy of the pique's reckoning (Law 69: the first to reach the threshold while the other has
    nothing, the cards of a seventh trick toward it with the option), held to the Python model's on every trick and
    every state a pique may still come from, for models of every variant and option that changes it."""
    if _kernel is None:
        pytest.skip("the kernel is not built")
    models: list[tuple[str, dict[str, object], Contract | None, int]] = [
        ("rubicon", {}, None, 0), ("rubicon", {"cards_count_toward_pique": True}, None, 1),
        ("rubicon", {"ten_for_the_last_trick": True}, None, 0),
        ("au-cent", {"low_cards_score_nothing_in_play": True, "cards_count_toward_pique": True}, None, 1)]
    models += [("auction", {}, Contract(0, 8, False), 0), ("auction", {}, Contract(1, 9, True, 1), 0)]
    for variant, options, contract, elder in models:
        model = model_for(make_rules(variant, options), contract, elder)
        kernel = model.kernel(_kernel)
        threshold = model.pique_threshold
        states = [None, (0, 0), *((a, 0) for a in range(1, threshold)), *((0, b) for b in range(1, threshold))]
        for leader in (0, 1):
            for last in (False, True):
                for lead in range(32):
                    for follow in range(32):
                        if lead == follow:
                            continue
                        winner, steps = model.trick(leader, lead, follow, last)
                        for pk in states:
                            if pk is not None and model.pique_key(pk, False) != pk:
                                continue
                            for seventh in (False, True):
                                expected = model.score_trick(pk, steps, winner if seventh else None)
                                assert kernel.score(leader, last, lead, follow, seventh, pk) == expected, (
                                    variant, options, contract, leader, last, CARDS[lead], CARDS[follow], pk, seventh)


def test_lunn_contracts_that_score_the_tricks_alike_share_one_table_and_each_scores_as_the_rules_say() -> None:
    """Law 65 and Lunn's contracts: what a card led and a trick score is kept in a table shared by the contracts
    that score them alike (``Rules.play_awards_key``: in Auction, the plus contracts, and the minus ones). Whichever
    contract filled it, each contract's answers are what the rules say for that contract."""
    rng = random.Random(65)
    auction = make_rules("auction")
    contracts = [Contract(holder, tricks, minus, doubles) for holder in (0, 1) for tricks in range(7, 13)
                 for minus in (False, True) for doubles in (0, 1, 2)]
    rng.shuffle(contracts)
    cases: list[tuple[Rules, Contract | None]] = [(auction, c) for c in contracts]
    cases += [(make_rules(name), None) for name in ("rubicon", "au-cent", "auction")]
    for rules, contract in cases:
        scoring = scoring_for(rules, contract)
        for _ in range(examples(60)):
            leader = rng.randrange(2)
            lead, card = rng.sample(CARDS, 2)
            winner = 1 - leader if card.beats(lead) else leader
            done = scoring.trick(leader, lead, card)
            assert done.winner == winner
            assert [(e.player, e.points, e.why) for e in done.awards] == rules.trick_awards(
                leader, (lead, card), winner, contract), (rules.name, contract)
            _, scored = scoring.lead(leader, lead)
            assert (scored.points if scored else 0) == rules.lead_points(lead, contract), (rules.name, contract)
    tables = {id(scoring_for(auction, c)._tricks) for c in contracts}
    assert len(tables) == 2 and len({scoring_for(auction, c) for c in contracts}) == len(contracts)
