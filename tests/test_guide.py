"""The player's guide (``/guide/{variant}``, in French ``?lang=fr``): every worked example's claims, in each
language, are what the engine scores, the pictures name their cards, every term the table links to has its anchor,
and the routes answer as they should. The French guides' own tests are in ``test_guide_french.py``."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from web_helpers import db

from piquet.engine import combinations
from piquet.engine.actions import Bid, Deal, Declare, Exchange, Play
from piquet.engine.cards import CARDS, Card, CardSet
from piquet.engine.combinations import Category
from piquet.engine.language import LANGUAGES
from piquet.engine.partie import Partie, Phase
from piquet.engine.scoring import ScoreEvent, settle
from piquet.engine.variants import VARIANTS, AuCent, Auction, Contract
from piquet.engine.words import said
from piquet.ui.web.app import create_app
from piquet.ui.web.guide import Example, GuideError, examples, guide_html, hand_html, parse_cards

GLOSSARY = Path(__file__).parent.parent / "piquet" / "ui" / "web" / "static" / "table" / "glossary.js"
ELDER, YOUNGER = 0, 1
ROLE = {"elder": ELDER, "younger": YOUNGER}


def _cards(example: Example, label: str) -> CardSet:
    value = example.get(label)
    cards = parse_cards(value or "")
    assert cards is not None, f"{example.title!r}: {label!r} names no cards ({value!r})"
    return CardSet(cards)


def _claimed(text: str) -> dict[str, int]:
    """``"point 5, sequences 18, the cards 10"`` as ``{"point": 5, "sequences": 18, "cards": 10}``."""
    if text.strip() == "nothing":
        return {}
    claims: dict[str, int] = {}
    for part in text.split(","):
        words = part.split()
        category = "_".join(w for w in words[:-1] if w != "the")
        claims[category] = claims.get(category, 0) + int(words[-1])
    return claims


def _pair(text: str) -> tuple[int, int]:
    a, b = (int(n) for n in re.findall(r"\d+", text))
    return a, b


def _categories_by_call(cards: CardSet, called: str, lang: str) -> list[Category]:
    return [c for c in Category if combinations.is_valid(c, cards) and combinations.call(c, cards, lang) == called]


def check_combination(example: Example) -> None:
    hand = _cards(example, "Hand")
    combo = _cards(example, "The combination")
    assert combo.mask & ~hand.mask == 0, f"{example.title!r}: the combination is not in the hand"
    called = example.get("Called") or ""
    found = _categories_by_call(combo, called, example.lang)
    assert found, f"{example.title!r}: the engine does not call {combo} {called!r}"
    category = found[0]
    assert combinations.best(category, hand) == combo, f"{example.title!r}: not the hand's best {category.value}"
    assert _claimed(example.get("Scores") or "") == {category.value: combinations.value(category, combo)}
    if example.get("Pips") is not None:
        assert int(example.get("Pips") or "") == combinations.pips(combo)


def _best_declaration(partie: Partie) -> Declare:
    """The declaration worth most (then with the most combinations): each player declares his best."""
    declares = [a for a in partie.legal_actions() if isinstance(a, Declare)]
    return max(declares, key=lambda a: (sum(combinations.value(a.category, c) for c in a.combinations),
                                        len(a.combinations)))


def check_deal(example: Example) -> None:
    """Deal the hands (elder is seat 0), bid (Auction Piquet) and exchange as written, each player declares his
    best, the cards named are played in order: what each player has scored is what the example says, category by
    category, and what is said is what the table says in the guide's language."""
    partie = Partie(("Elder", "Younger"), example.variant, first_dealer=YOUNGER)
    hands = (_cards(example, "Elder is dealt"), _cards(example, "Younger is dealt"))
    talon = parse_cards(example.get("The talon") or "")
    assert talon is not None and len(talon) == 8, f"{example.title!r}: the talon is eight cards, top first"
    partie.push(Deal(YOUNGER, hands, tuple(talon), partie.rules.packet_sizes()[-1]))
    for part in (example.get("Bids") or "").split(","):  # Auction Piquet: elder is the non-dealer who holds it
        if part.strip():
            role, call = part.split()
            partie.push(Bid(ROLE[role], call))
    while partie.phase is Phase.CARTE_BLANCHE:
        partie.push(next(a for a in partie.legal_actions() if getattr(a, "announce", False)))
    for seat, role in ((ELDER, "Elder"), (YOUNGER, "Younger")):
        partie.push(Exchange(seat, _cards(example, f"{role} discards"), False))
    for seat, role in ((ELDER, "Elder"), (YOUNGER, "Younger")):
        if example.get(f"{role}'s hand") is not None:
            assert partie.hand(seat) == _cards(example, f"{role}'s hand"), f"{example.title!r}: {role}'s hand"
    while partie.phase is Phase.DECLARE:
        partie.push(_best_declaration(partie))
    if example.get("What is said") is not None:  # the calls and answers, as the table says them
        spoken = [line.text for entry in partie.view(None).log if not isinstance(entry, ScoreEvent)
                  for line in said(entry, partie.players, example.lang) if line.kind == "say"]
        assert " ".join(spoken) == example.get("What is said"), f"{example.title!r}: what is said"
    for card in parse_cards(example.get("Cards played") or "") or []:
        partie.push(Play(partie.to_act, card))  # type: ignore[arg-type]
    scored: dict[int, dict[str, int]] = defaultdict(dict)
    for event in partie.events:
        if event.points:
            mine = scored[event.player]
            mine[event.category.value] = mine.get(event.category.value, 0) + event.points
    for seat, role in ((ELDER, "Elder"), (YOUNGER, "Younger")):
        assert scored[seat] == _claimed(example.get(f"{role} scores") or ""), f"{example.title!r}: {role}"


def check_settlement(example: Example) -> None:
    rules = VARIANTS[example.variant]()
    totals = _pair(example.get("Scores at the end of the partie") or "")
    result = settle(totals, rules.rubicon, rules.settlement_bonus)
    assert result.winner == 0 and result.points == int(example.get("The winner scores") or "")
    assert result.rubiconed is (example.get("The loser is rubiconed") == "yes")


def check_after_the_play(example: Example) -> None:
    """The cards (or capot) and, in Auction Piquet, the contract, for the tricks each player won."""
    calls = (example.get("Contract") or "").split()
    contract = None if not calls else Contract(ELDER, int(calls[0][:-1]), calls[0].endswith("-"),
                                               {"doubled": 1, "redoubled": 2}.get(calls[-1], 0))
    tricks = _pair(example.get("Tricks won") or "")
    rules = VARIANTS[example.variant]()
    assert contract is None or isinstance(rules, Auction)
    scored: dict[int, dict[str, int]] = defaultdict(dict)
    for seat, points, reason in rules.cards_awards(tricks, contract):
        key = "capot" if reason == "capot" else "cards"
        scored[seat][key] = scored[seat].get(key, 0) + points
    for seat, points, _reason in rules.contract_awards(tricks, contract):
        scored[seat]["contract"] = scored[seat].get("contract", 0) + points
    for seat, role in ((ELDER, "Elder"), (YOUNGER, "Younger")):
        assert scored[seat] == _claimed(example.get(f"{role} scores after the play") or ""), example.title


def check_game(example: Example) -> None:
    before = _pair(example.get("Scores in the game when the deal begins") or "")
    events = []
    for part in (example.get("The deal's points, in the order of reckoning") or "").split(","):
        role, points = part.split()
        events.append((ROLE[role], int(points)))
    result = AuCent().game_over(before, events)
    assert result is not None and result.winner == ROLE[example.get("The game is won by") or ""]
    assert result.double is (example.get("A double game") == "yes")
    assert result.reached == _pair(example.get("Scores when the game is won") or "")


CHECKS = {"Hand": check_combination, "Elder is dealt": check_deal, "Scores at the end of the partie": check_settlement,
          "Tricks won": check_after_the_play, "Scores in the game when the deal begins": check_game}
ALL = [pytest.param(e, id=f"{e.variant} ({lang}): {e.title}") for v in VARIANTS for lang in LANGUAGES
       for e in examples(v, lang)]


@pytest.mark.parametrize("example", ALL)
def test_each_worked_example_claims_what_the_engine_scores(example: Example) -> None:
    """In every language: the checks read the example in English words (Example.english), what the table says in
    the guide's own."""
    english = example.english()
    kinds = [label for label, _ in english.lines if label in CHECKS]
    assert len(kinds) == 1, f"{example.title!r}: an example this test cannot check (it needs one of {list(CHECKS)})"
    CHECKS[kinds[0]](english)


def test_the_rubicon_guide_works_the_examples_the_issue_asks_for() -> None:
    titles = " ".join(e.title.lower() for e in examples("rubicon"))
    for word in ("point", "quint", "quatorze", "pique", "repique", "rubicon"):
        assert re.search(rf"\b{word}\b", titles), word
    assert any(e.get("Contract") for e in examples("auction"))
    assert any("capot" in (e.get("Elder scores after the play") or "") for e in examples("rubicon"))
    assert any(e.get("The game is won by") for e in examples("au-cent"))


def glossary_anchors(variant: str) -> dict[str, str]:
    """The glossary's terms and their anchors that the table links to in a variant's guide."""
    entries = re.findall(r'^\s*"?([\w ]+?)"?: \{ anchor: "([\w-]+)"(.*)$', GLOSSARY.read_text(encoding="utf-8"),
                         re.MULTILINE)
    return {term: anchor for term, anchor, rest in entries if "variants:" not in rest or f'"{variant}"' in rest}


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_term_the_table_links_has_its_anchor_in_every_guide(variant: str, lang: str) -> None:
    anchors = glossary_anchors(variant)
    assert len(anchors) >= 15 and {"repique", "pique", "capot", "carte blanche", "partie"} <= set(anchors)
    page = guide_html(variant, lang)
    missing = [a for a in anchors.values() if f'id="{a}"' not in page]
    assert not missing, f"the {variant} guide ({lang}) has no anchor for {missing}"


def test_a_hand_names_each_card_for_a_screen_reader() -> None:
    html = hand_html("AS TH 7C JD")
    assert re.findall(r'aria-label="([^"]+)"', html) == ["four cards", "ace of spades", "ten of hearts",
                                                         "seven of clubs", "knave of diamonds"]
    with pytest.raises(GuideError, match="not a card"):
        hand_html("AS XX")


@given(st.lists(st.sampled_from(CARDS), min_size=1, max_size=12, unique=True))
def test_any_hand_is_drawn_in_its_order_each_card_named_as_the_engine_names_it(cards: list[Card]) -> None:
    text = " ".join(str(c) for c in cards)
    html = hand_html(text)
    assert re.findall(r'data-card="(\w\w)"', html) == text.split()
    names = [c.words for c in cards]
    assert re.findall(r'role="img" aria-label="([^"]+)"', html) == names


def test_a_guide_with_bad_markup_is_refused_naming_the_example_and_the_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import piquet.ui.web.guide as guide

    monkeypatch.setattr(guide, "guide_text", lambda _v, _lang="en": "# G\n\n```example A broken one\nHand AS KS\n```\n")
    with pytest.raises(GuideError, match="'A broken one'.*'Hand AS KS'"):
        guide.examples("rubicon")
    monkeypatch.setattr(guide, "guide_text", lambda _v, _lang="en": "{hand: AS 1S}")
    with pytest.raises(GuideError, match=r"\{hand: AS 1S\}"):
        guide.guide_html("rubicon")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_guide_of_each_variant_is_served_with_its_pictures_and_a_link_to_the_laws(
        tmp_path: Path, variant: str) -> None:
    with TestClient(create_app(db(tmp_path), workers=0)) as http:
        page = http.get(f"/guide/{variant}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.text.count('class="card"') >= 4 and "/static/guide.js" in page.text
    assert f'href="/rules/{variant}"' in page.text  # the laws as implemented, for the curious
    assert "Partie._" not in page.text and "variants.py" not in page.text  # the game's words, not the code's


def test_the_guide_index_and_the_old_links_still_answer(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path), workers=0)) as http:
        index = http.get("/guide")
        assert index.status_code == 200
        for variant in VARIANTS:
            assert f'href="/guide/{variant}"' in index.text
        assert http.get("/rules").status_code == 200 and http.get("/rules/au-cent").status_code == 200


def test_an_unknown_variant_s_guide_is_a_404_naming_it(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path), workers=0)) as http:
        answer = http.get("/guide/whist")
    assert answer.status_code == 404
    assert "whist" in answer.text and "rubicon" in answer.text
