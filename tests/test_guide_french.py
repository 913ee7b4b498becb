"""The player's guide in French (issue 36): each variant's guide, ``piquet/data/guide/fr/{variant}.md``, served at
``/guide/{variant}?lang=fr`` and in the offline site, works the English guide's examples (the same hands, the same
points: the two cannot drift), its pictures name their cards in French, its links stay in French, and the page
shows no English word. Its examples' claims are checked against the engine with the English ones', in
``test_guide.py``."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from test_web_french_words import _vocabulary, _words
from web_helpers import db

from piquet.engine.cards import CARDS, Card
from piquet.engine.language import LANGUAGES
from piquet.engine.variants import VARIANTS
from piquet.engine.words import card_name
from piquet.ui.web.app import create_app
from piquet.ui.web.guide import (
    LABELS,
    SPOKEN,
    VALUE_WORDS,
    GuideError,
    examples,
    guide_html,
    guide_index_page,
    guide_page,
    hand_html,
)
from piquet.ui.web.site import relative_links, text_pages

#: Words of the French guides that the English catalogues have and the French ones do not, each French all the same.
FRENCH_TOO = {"long": "le plus long point"}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_french_guide_works_the_english_guide_s_examples(variant: str) -> None:
    """Example by example, in order: the same lines (the same hands, bids, cards played and points), read back into
    English words; what the table says (a call, the declarations) is in each guide's language, each checked against
    what the engine says in it."""
    english = examples(variant)
    french = [e.english() for e in examples(variant, "fr")]
    assert len(french) == len(english) >= 2
    for ours, theirs in zip(french, english, strict=True):
        assert [label for label, _ in ours.lines] == [label for label, _ in theirs.lines], theirs.title
        unspoken = [line for line in ours.lines if line[0] not in SPOKEN]
        assert unspoken == [line for line in theirs.lines if line[0] not in SPOKEN], theirs.title
        assert ours.title != theirs.title  # a title of its own, in French


def test_the_drift_check_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    import piquet.ui.web.guide as guide

    text = guide.guide_text("rubicon", "fr").replace("Le premier marque: point 5, séquences 15",
                                                     "Le premier marque: point 5, séquences 16")
    monkeypatch.setattr(guide, "guide_text", lambda _v, _lang="en": text)
    french = [e.english() for e in guide.examples("rubicon", "fr")]
    monkeypatch.undo()
    assert [e.lines for e in french] != [e.lines for e in examples("rubicon")]


def test_every_label_and_word_of_the_examples_has_its_french() -> None:
    for table in (LABELS, VALUE_WORDS):
        for english, words in table.items():
            assert set(words) == set(LANGUAGES) - {"en"}, english
        for lang in set(LANGUAGES) - {"en"}:
            said = [words[lang] for words in table.values()]
            assert len(set(said)) == len(said), f"two words the same in {lang}"
    assert set(LABELS) >= SPOKEN


def test_a_french_example_with_a_label_no_check_knows_is_refused_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import piquet.ui.web.guide as guide

    monkeypatch.setattr(guide, "guide_text", lambda _v, _lang="en": "```example Un point\nLa main: AS KS\n```\n")
    with pytest.raises(GuideError, match="'Un point'.*Français.*'La main'"):
        guide.examples("rubicon", "fr")
    monkeypatch.undo()
    with pytest.raises(GuideError, match="'de'"):
        guide.guide_text("rubicon", "de")


def test_a_french_hand_names_each_card_in_french_and_draws_the_french_indices() -> None:
    drawn = hand_html("AS TH 7C JD", "fr")
    assert re.findall(r'aria-label="([^"]+)"', drawn) == ["quatre cartes", "as de pique", "dix de cœur",
                                                          "sept de trèfle", "valet de carreau"]
    assert re.findall(r'class="card-label[^"]*">([^<]+)<', hand_html("KS QH JD", "fr")) == ["R♠", "D♥", "V♦"]
    assert 'aria-label="une carte"' in hand_html("QC", "fr")


@given(st.lists(st.sampled_from(CARDS), min_size=1, max_size=12, unique=True))
def test_any_french_hand_is_drawn_in_its_order_each_card_named_in_french(cards: list[Card]) -> None:
    text = " ".join(str(c) for c in cards)
    drawn = hand_html(text, "fr")
    assert re.findall(r'data-card="(\w\w)"', drawn) == text.split()
    assert re.findall(r'role="img" aria-label="([^"]+)"', drawn) == [card_name(c, "fr") for c in cards]


def _shown(page: str) -> str:
    """What a page shows and says to a screen reader: its text (the title too) and its labels."""
    labels = " ".join(re.findall(r'aria-label="([^"]+)"', page))
    return html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + labels)


def _english_only(text: str) -> set[str]:
    """The words of a text that the English catalogues have and the French ones do not."""
    french, english = _vocabulary("fr"), _vocabulary("en")
    return {w for w in _words(text) if w in english and w not in french} - set(FRENCH_TOO)


def test_the_french_guides_and_their_index_show_no_english_word() -> None:
    """Held to the catalogues as the French table is (test_web_french_words): every word of the page that only the
    English catalogues have is a word left in English. The English guide is found out, so the check can fail."""
    for variant in VARIANTS:
        assert _english_only(_shown(guide_page(variant, "fr"))) == set(), variant
    assert _english_only(_shown(guide_index_page("fr"))) == set()
    assert {"the", "elder", "younger"} <= _english_only(_shown(guide_page("rubicon")))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_french_guide_is_served_in_french_with_its_links_in_french(tmp_path: Path, variant: str) -> None:
    with TestClient(create_app(db(tmp_path), workers=0)) as http:
        page = http.get(f"/guide/{variant}?lang=fr").text
        english = http.get(f"/guide/{variant}").text
    assert page.startswith('<!doctype html><html lang="fr">') and "Retour aux tables" in page
    assert re.search(r"<title>[^<]*guide du joueur</title>", page)
    assert page.count('class="card"') >= 4 and "/static/guide.js" in page
    assert f'href="/rules/{variant}"' in page  # the laws as implemented, in English, and said so
    links = re.findall(r'href="(/guide[^"]*)"', page)
    assert links and all("?lang=fr" in link for link in links), links
    if variant != "rubicon":  # the variants' guides send the reader to Rubicon's for the rest, in French
        assert 'href="/guide/rubicon?lang=fr#exchange"' in page
    # The English guide is as it was.
    assert english.startswith('<!doctype html><html lang="en">') and "Back to the tables" in english
    assert "?lang=" not in english and english == guide_page(variant)


def test_the_guides_index_in_french_and_a_language_the_guides_are_not_written_in(tmp_path: Path) -> None:
    with TestClient(create_app(db(tmp_path), workers=0)) as http:
        index = http.get("/guide?lang=fr")
        german = http.get("/guide/rubicon?lang=de")
        unknown = http.get("/guide/whist?lang=fr")
        assert http.get("/guide?lang=xx").status_code == 400
    assert index.status_code == 200 and '<html lang="fr">' in index.text
    for variant in VARIANTS:
        assert f'href="/guide/{variant}?lang=fr"' in index.text
    assert "Piquet aux enchères" in index.text
    assert german.status_code == 400 and "'de'" in german.text and "en, fr" in german.text
    assert unknown.status_code == 404 and "whist" in unknown.text and "Guide introuvable" in unknown.text


def test_the_offline_site_has_each_french_guide_its_links_the_site_s() -> None:
    pages = text_pages()
    for variant in VARIANTS:
        page = pages[f"guide/{variant}.fr.html"]
        assert '<html lang="fr">' in page and not re.search(r'(href|src)="/', page)
        assert 'href="../guide/index.fr.html"' in page
    assert 'href="../guide/auction.fr.html"' in pages["guide/index.fr.html"]
    assert 'href="../guide/rubicon.fr.html#talon"' in pages["guide/auction.fr.html"]
    assert "?lang" not in pages["guide/rubicon.html"]
    assert relative_links('<a href="/guide/au-cent?lang=fr#games">') == '<a href="guide/au-cent.fr.html#games">'
    assert relative_links('<a href="/guide?lang=en">') == '<a href="guide/index.html">'


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_french_guide_has_every_anchor_of_the_english_one(variant: str) -> None:
    """A link to a section or a term (the table's, another guide's) opens either language's guide at it; only the
    title's own anchor, made from its words, differs."""
    def anchors(page: str) -> set[str]:
        return set(re.findall(r'<(?!h1)\w+[^>]* id="([\w-]+)"', page))
    assert anchors(guide_html(variant)) == anchors(guide_html(variant, "fr"))
