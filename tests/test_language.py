"""The game's words in French (piquet.engine.language and the catalogue piquet/data/locale/fr/LC_MESSAGES/piquet.po):
the catalogue is whole (every sentence a partie says, in each variant, is in it) and sound (each translation keeps
its template's fields), the calls are the French rule texts' ("Point de cinq." - "Pas bon."; "Quatorze d'as",
"Trois rois", "Quinte au roi"), and English is the code's own words, unchanged."""

from __future__ import annotations

import gettext
import io
import random
import re
import string
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

from piquet.ai.agent import RandomAgent, play_partie
from piquet.engine.cards import Card, CardSet, Rank
from piquet.engine.combinations import Category, call
from piquet.engine.events import DeclarationAnswered, Declared, SecondCall, SecondCallAsked
from piquet.engine.language import LANGUAGES, check_language, compile_po, french_number, read_po, words_in
from piquet.engine.scoring import ScoreEvent
from piquet.engine.words import reason_words, said
from piquet.ui.menus import describe_declaration, result_text
from piquet.ui.web.advice_messages import action_words
from piquet.ui.web.protocol import prompt_data, view_data

NAMES = ("Ann", "Bill")
CATALOGUE = resources.files("piquet").joinpath("data/locale/fr/LC_MESSAGES/piquet.po")


def catalogue() -> dict[str, str]:
    return read_po(CATALOGUE.read_text(encoding="utf-8"))


class _Missed(gettext.NullTranslations):
    """The fallback of the French catalogue while a test runs: notes each message it did not have."""

    def __init__(self) -> None:
        super().__init__()
        self.missed: set[str] = set()

    def gettext(self, message: str) -> str:
        self.missed.add(message)
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self.missed.add(msgid1)
        return msgid1 if n == 1 else msgid2


@contextmanager
def missed_in_french() -> Iterator[set[str]]:
    translation = words_in("fr").translation
    missed = _Missed()
    translation.add_fallback(missed)
    try:
        yield missed.missed
    finally:
        translation._fallback = None  # type: ignore[attr-defined]


# ---------------------------------------------------------------- the catalogue
def test_each_translation_keeps_the_fields_of_its_english_template() -> None:
    fields = string.Formatter()
    for english, french in catalogue().items():
        if not english:
            continue
        assert ({f for _, f, _, _ in fields.parse(english) if f} == {f for _, f, _, _ in fields.parse(french) if f}), \
            english


def test_the_catalogue_compiled_in_memory_reads_back_every_message() -> None:
    messages = catalogue()
    translation = gettext.GNUTranslations(io.BytesIO(compile_po(messages)))
    assert all(translation.gettext(k) == v for k, v in messages.items() if k and "\0" not in k)
    # A message with plural forms: French is singular for 0 and 1, plural from 2 (its Plural-Forms).
    plurals = {k: v for k, v in messages.items() if "\0" in k}
    assert plurals
    for key, forms in plurals.items():
        singular, plural = key.split("\0")
        one, more = forms.split("\0")
        assert [translation.ngettext(singular, plural, n) for n in (0, 1, 2, 5)] == [one, one, more, more]
    assert translation.info()["language"] == "fr"


def test_a_catalogue_line_the_reader_does_not_know_is_refused_with_its_line_number() -> None:
    with pytest.raises(ValueError, match="line 2 of the catalogue: 'msgctxt'"):
        read_po('msgid "a"\nmsgctxt "b"\n')


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.slow) for s in (1, 2))])  # more: CI
def test_every_sentence_of_a_partie_is_in_the_french_catalogue(variant: str, seed: int) -> None:
    with missed_in_french() as missed:
        def speak(partie: object) -> None:
            from piquet.engine.partie import Partie
            assert isinstance(partie, Partie)
            for seat in (0, 1, None):
                view_data(partie.view(seat), "fr")
                prompt = prompt_data(partie, seat, lang="fr")
                if prompt is not None and partie.to_act is not None:
                    for action in partie.legal_actions(partie.to_act).list()[:5]:
                        action_words(action, NAMES, "fr")

        partie = play_partie([RandomAgent(random.Random(seed)), RandomAgent(random.Random(seed + 1))],
                             random.Random(seed), NAMES, variant, on_action=speak)
        result_text(partie, "fr")
    assert not missed
    # What each score was for, said in French too (a reason the catalogue does not know is left in English).
    reasons = {e.why for e in partie.view(None).log if isinstance(e, ScoreEvent)}
    assert reasons
    assert [r for r in reasons if reason_words(r, "fr") == reason_words(r) and r not in ("capot", "carte rouge")] == []


def test_every_call_and_question_of_the_declarations_is_in_the_french_catalogue() -> None:
    with missed_in_french() as missed:
        for category in Category:
            said(Declared(0, category, None), NAMES, "fr")
            for question in ("making", "how high"):
                said(SecondCallAsked(1, category, question), NAMES, "fr")
            for answer in ("good", "not good", "equal"):
                said(DeclarationAnswered(1, category, answer), NAMES, "fr")
        for n in range(3, 9):
            said(Declared(0, Category.SEQUENCES, n), NAMES, "fr")
            for top in range(max(Rank.NINE, n - 1), Rank.ACE + 1):
                said(Declared(0, Category.SEQUENCES, n, top=Rank(top), at_once=True), NAMES, "fr")
                said(SecondCall(0, Category.SEQUENCES, top=Rank(top)), NAMES, "fr")
        for n in (3, 4):
            said(Declared(0, Category.SETS, n), NAMES, "fr")
            for top in range(Rank.TEN, Rank.ACE + 1):
                said(Declared(0, Category.SETS, n, top=Rank(top), at_once=True), NAMES, "fr")
                said(SecondCall(0, Category.SETS, top=Rank(top)), NAMES, "fr")
    assert not missed


# ---------------------------------------------------------------- the calls as the French say them
def test_the_point_is_called_and_answered_in_french() -> None:
    lines = [said(e, NAMES, "fr")[0].text for e in (
        Declared(0, Category.POINT, 5), DeclarationAnswered(1, Category.POINT, "not good"),
        DeclarationAnswered(1, Category.POINT, "good"), DeclarationAnswered(1, Category.POINT, "equal"),
        SecondCallAsked(1, Category.POINT, "making"), SecondCall(0, Category.POINT, pips=48))]
    assert lines == ["Point de cinq.", "Pas bon.", "Bon.", "Égal.", "Combien ?", "Quarante-huit."]


@pytest.mark.parametrize(("category", "cards", "french"), [
    (Category.SETS, "AS AH AD AC", "Quatorze d'as"),
    (Category.SETS, "KS KH KD KC", "Quatorze de rois"),
    (Category.SETS, "KS KH KD", "Trois rois"),
    (Category.SETS, "TS TH TD", "Trois dix"),
    (Category.SEQUENCES, "KH QH JH TH 9H", "Quinte au roi"),
    (Category.SEQUENCES, "QH JH TH", "Tierce à la dame"),
    (Category.SEQUENCES, "AH KH QH JH", "Quarte majeure"),
    (Category.SEQUENCES, "AH KH QH JH TH 9H", "Sixième majeure"),
    (Category.POINT, "AH KH QH JH TH", "Point de cinq"),
])
def test_combinations_have_their_french_names(category: Category, cards: str, french: str) -> None:
    assert call(category, CardSet.parse(cards), "fr") == french


def test_a_point_described_in_french_says_what_it_makes() -> None:
    assert describe_declaration(Category.POINT, (CardSet.parse("AS KS QS JS 9S"),), "fr") \
        == "Point de cinq, valant cinquante (AS KS QS JS 9S)"


def test_english_is_the_code_s_own_words() -> None:
    assert said(Declared(0, Category.POINT, 5), NAMES)[0].text == "Point of five."
    assert call(Category.SETS, CardSet.parse("AS AH AD AC")) == "Fourteen aces"


@given(st.integers(0, 999))
def test_french_numbers_are_words_joined_by_hyphens_and_et(n: int) -> None:
    word = french_number(n)
    assert re.fullmatch(r"[a-zéèê]+(?:[- ][a-zéèê]+)*", word), word
    assert word.endswith("-un") == (n % 100 == 81)  # "et un" but after quatre-vingt


@pytest.mark.parametrize(("n", "french"), [(0, "zéro"), (17, "dix-sept"), (21, "vingt et un"), (61, "soixante et un"),
                                           (70, "soixante-dix"), (71, "soixante et onze"), (80, "quatre-vingts"),
                                           (81, "quatre-vingt-un"), (99, "quatre-vingt-dix-neuf"), (100, "cent"),
                                           (180, "cent quatre-vingts"), (300, "trois cents"), (-5, "moins cinq")])
def test_french_numbers(n: int, french: str) -> None:
    assert french_number(n) == french


def test_a_language_the_game_does_not_speak_is_refused_by_name() -> None:
    assert set(LANGUAGES) == {"en", "fr"}
    with pytest.raises(ValueError, match="language 'xx' is not one the game speaks"):
        check_language("xx")
    with pytest.raises(ValueError, match="'de'"):
        words_in("de")


def test_a_card_led_is_named_with_its_article() -> None:
    from piquet.engine.events import FirstLead
    assert said(FirstLead(0, Card.parse("AH")), NAMES, "fr")[0].text == "J'entame l'as de cœur."
