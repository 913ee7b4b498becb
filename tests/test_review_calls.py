"""The review of Auction Piquet's calls: each call worth trying valued as the strongest level values it, the
loss of the call made, and why (Lunn's laws of the auction; the level's valuation in piquet.ai.bidding)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from helpers import cs

from piquet.ai.agent import play_deal
from piquet.ai.bidding import _candidates, _Deal, choose_call
from piquet.ai.books import SimpleAgent, choose_bid
from piquet.ai.inference import World
from piquet.ai.levels import make_agent
from piquet.coach.annotate import review_annotations
from piquet.coach.review import CALL_PARTS, Lens, Part, explain_call, review_call, review_partie
from piquet.engine import record
from piquet.engine.actions import Bid, Deal
from piquet.engine.cards import Card
from piquet.engine.partie import Partie, Phase
from piquet.engine.scoring import ScoreCategory
from piquet.ui.cli import main


def _strong_elder() -> Partie:
    """Ann deals; Bill, elder and first to call, holds a quint major in hearts and four aces."""
    partie = Partie(("Ann", "Bill"), "auction", first_dealer=0)
    bill = cs("AH KH QH JH TH AS AD AC KS KD QC QS")
    ann = cs("9H 8H 7H JS TS 9S 8S 7S JD TD 9D 8D")
    talon = tuple(cs("7D JC TC 9C 8C 7C KC QD").cards())
    partie.push(Deal(0, (ann, bill), talon))
    return partie


def test_lunn_passing_with_a_quint_major_and_four_aces_gives_up_the_contract() -> None:
    partie = _strong_elder()
    assert partie.phase is Phase.BID and partie.to_act == 1
    review = review_call(partie, Bid(1, "pass"), Lens.OPEN)
    assert review.best != Bid(1, "pass") and review.best.tricks is not None and not review.best.minus
    assert review.loss > 10 and review.mark == "??"
    lost = review.worth(review.best).parts[Part.CONTRACT] - review.worth(Bid(1, "pass")).parts[Part.CONTRACT]
    assert lost > 0
    said = explain_call(review, partie.players)
    assert said.startswith(f"Passing rather than bidding {review.best.call} costs Bill")
    assert "the contract (−" in said
    # After passing he takes the contract back in a minus one (the repique at 21 counted), where his high cards
    # lose: the explanation names the holder after each call.
    assert f"After passing the contract is Bill's; after bidding {review.best.call}, Bill's." in said


def _auction_partie(seed: int, deals: int = 2) -> Partie:
    partie = Partie(("Ann", "Bill"), "auction", first_dealer=0)
    rng = random.Random(seed)
    for _ in range(deals):
        play_deal(partie, [make_agent("level2", seed), make_agent("level3", seed + 1)], rng)
    return partie


def _calls(partie: Partie) -> list[tuple[Partie, Bid]]:
    """Each call of the record with a choice, and the partie as it was before it."""
    replay = Partie(partie.players, partie.variant, first_dealer=0)
    found = []
    for action in partie.actions:
        if isinstance(action, Bid) and len([a for a in replay.legal_actions() if isinstance(a, Bid)]) > 1:
            found.append((replay.copy(), action))
        replay.push(action)
    return found


@pytest.mark.parametrize("lens", [Lens.OPEN, Lens.FAIR])
def test_a_call_s_parts_sum_to_its_value_and_the_choice_is_valued(lens: Lens) -> None:
    calls = [c for seed in (1, 2) for c in _calls(_auction_partie(seed))]
    assert len(calls) >= 4
    for at, call in calls:
        review = review_call(at, call, lens, worlds=6, rng=random.Random(0))
        assert review.worth(call).call == call and review.loss >= 0
        for w in review.options:
            assert set(w.parts) == set(CALL_PARTS)
            assert sum(w.parts.values()) == pytest.approx(w.value)
            assert 0 <= w.held <= 1 and 0 <= w.annulled <= 1 and w.held + w.annulled <= 1 + 1e-9


def test_the_open_lens_values_the_real_hand_and_talon_as_the_level_values_a_deal() -> None:
    at, call = _calls(_auction_partie(3))[0]
    seat = call.player
    review = review_call(at, call, Lens.OPEN)
    dealt = next(a for a in at.actions if isinstance(a, Deal))
    deal = _Deal(at.view(seat), World(at.hand(1 - seat), cs(""), dealt.talon), at.rules)
    for w in review.options:
        assert w.value == pytest.approx(deal.value([*at.view(seat).bids, w.call]))


def test_the_fair_lens_best_call_is_the_level_s_own_choice_over_the_same_deals() -> None:
    for at, call in _calls(_auction_partie(4))[:3]:
        seat = call.player
        legal = at.legal_actions(seat)
        chosen = choose_call(at.view(seat), legal, random.Random(7), 12)
        review = review_call(at, call, Lens.FAIR, worlds=12, rng=random.Random(7))
        assert chosen is not None and chosen in _candidates(legal)
        assert review.worth(chosen).value == pytest.approx(review.options[0].value)


def test_a_call_is_reviewed_only_in_the_auction_and_only_if_legal() -> None:
    partie = _strong_elder()
    with pytest.raises(ValueError, match="not a legal call"):
        review_call(partie, Bid(0, "pass"))  # Ann does not call first
    rubicon = Partie(("Ann", "Bill"), first_dealer=0)
    with pytest.raises(ValueError, match="no call to review: it is the deal"):
        review_call(rubicon, Bid(1, "pass"))


def test_analyse_lists_every_call_once_and_annotates_the_graded_ones(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    partie = _auction_partie(5)
    path = tmp_path / "auction.json"
    path.write_text(record.dumps(partie))
    assert main(["analyse", str(path), "--open-hands", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    bids = [a for a in partie.actions if isinstance(a, Bid)]
    assert len(data["calls"]) == len(bids)
    assert all(c["kind"] != "call" for c in data["not_reviewed"])
    graded = [c for c in data["calls"] if not c["forced"]]
    assert graded and all(c["call"] in {v["call"] for v in c["values"]} for c in graded)
    review = review_partie(partie, Lens.OPEN)
    notes = review_annotations(review, partie)
    assert len(notes.notes) == sum(1 for r in review.actions if r.review is not None)
    assert main(["analyse", str(path), "--open-hands"]) == 0
    assert "Points lost in the auction" in capsys.readouterr().out


def test_lunn_call_value_counts_the_repique_a_plus_contract_decides() -> None:
    """Lunn: in Auction Piquet either player may repique, with 30 in hand before the opponent scores. Bill, first
    to call, holds the spades and the knaves that the talon fills: should Ann hold a plus contract (he is then
    younger and draws after her), his point, sixième and quatorze of knaves come first and make a repique at her
    first lead, which the engine scores. Bidding 7+ (which Ann, as the books, overcalls to 8+) is the best call
    once it is counted; left out, the best was to hold 8- himself."""
    partie = Partie(("Ann", "Bill"), "auction", first_dealer=0)
    ann = cs("8S QH TH AD KD QD TD 9D 7D AC TC 7C")
    bill = cs("AS JS TS 9S 7S KH JH 7H JD QC 9C 8C")
    talon = tuple(Card.parse(c) for c in "9H KC 8D AH 8H JC QS KS".split())  # in the order drawn
    partie.push(Deal(0, (ann, bill), talon))
    review = review_call(partie, Bid(1, "8-"), Lens.OPEN)
    best = review.worth(review.best)
    assert review.best == Bid(1, "7+") or best.value == pytest.approx(review.worth(Bid(1, "7+")).value)
    assert best.held == 0 and best.parts[Part.REPIQUE] == 60
    without = max(review.options, key=lambda w: w.value - w.parts[Part.REPIQUE] - w.parts[Part.PIQUE])
    assert without.call == Bid(1, "8-") and review.loss > 40
    # The engine: Ann overcalls as the books do, Bill passes, and his hand's repique is scored at the first lead.
    partie.push(Bid(1, "7+"))
    answer = choose_bid(partie.view(0), partie.legal_actions(0))
    assert answer == Bid(0, "8+")
    partie.push(answer)
    partie.push(Bid(1, "pass"))
    books = SimpleAgent(random.Random(0))
    while partie.phase is not Phase.PLAY:
        who = partie.to_act
        assert who is not None
        partie.push(books.choose(partie.view(who), partie.legal_actions(who)))
    partie.push(partie.legal_actions().list()[0])
    assert [(e.player, e.points) for e in partie.view(1).events if e.category is ScoreCategory.REPIQUE] == [(1, 60)]
