"""The engine's refusals are typed reasons said in each language (issue 36): every kind has its English template and
its French translation; a refusal met in a real partie says in English what the engine always said (the law tests
match those words) and in French the same reason, its laws by their numbers, its cards with the French indices, and
no English word."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from importlib import resources

import pytest
from helpers import (
    ANN,
    BASE_ANN,
    BASE_BILL,
    BASE_TALON,
    BILL,
    CB_ANN,
    CB_BILL,
    CB_TALON,
    NAMES,
    act,
    base,
    card,
    cs,
    dealt,
    declare_nothing,
    examples,
    new_partie,
    play_out,
    run,
)

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
from piquet.engine.cards import CARDS, CardSet, Rank
from piquet.engine.combinations import Category
from piquet.engine.language import english_number, french_number, read_po
from piquet.engine.partie import IllegalActionError, Partie, Phase
from piquet.engine.refusals import CONCESSION_SOURCE, TEMPLATES, Refusal, Why, attempt_words

CATALOGUE = resources.files("piquet").joinpath("data/locale/fr/LC_MESSAGES/piquet.po")
PAGE = resources.files("piquet").joinpath("ui/web/static/i18n")
#: Words as tests/test_web_french_words.py reads them: a card in record notation and a template's field left out.
CARD = re.compile(r"\b[AKQJT987][SHDC]\b")
WORD = re.compile(r"[^\W\d_]+")
#: The words the refusals' own French uses that are English words too and no other French text of the game's uses:
#: "option" (a rule option named, "option « nouvelle coupe à chaque jeu »"), the same word in both languages.
SAME_IN_BOTH = frozenset({"option"})


#: What an action gave, quoted as it gave it ("écrivez l'enchère 'pass'"): an identifier of the notation, not a word.
QUOTED = re.compile(r"(?<!\w)'[^'\s]*'")


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(CARD.sub(" ", re.sub(r"\{\w+\}", " ", QUOTED.sub(" ", text))))}


#: The French catalogue's messages, read once.
PO = read_po(CATALOGUE.read_text(encoding="utf-8"))


def _vocabularies() -> tuple[set[str], set[str]]:
    """The French words of every catalogue but the refusals' own translations (so that a refusal's French is checked
    against the rest of the game's French, not against itself), and every English word of the catalogues."""
    refusal_ids = set(TEMPLATES.values())
    french_texts = [v for k, v in PO.items() if k not in refusal_ids]
    english_texts = [part for key in PO for part in key.split("\0")] + list(TEMPLATES.values())
    french_texts += json.loads(PAGE.joinpath("fr.json").read_text(encoding="utf-8")).values()
    english_texts += json.loads(PAGE.joinpath("en.json").read_text(encoding="utf-8")).values()
    french, english = set(), set()
    for text in [*french_texts, *(french_number(n) for n in range(200))]:
        french |= _words(text)
    for text in [*english_texts, *(english_number(n) for n in range(200))]:
        english |= _words(text)
    return french, english


FRENCH, ENGLISH = _vocabularies()


def english_in(text: str, names: tuple[str, ...] = NAMES) -> set[str]:
    """The words of a French text that are English and no word of the game's other French."""
    allowed = SAME_IN_BOTH | {w for name in names for w in _words(name)}
    return {w for w in _words(text) - allowed if w in ENGLISH and w not in FRENCH}


def test_the_check_finds_english_out() -> None:
    assert english_in("must follow suit to the R♠ led") >= {"must", "follow", "suit", "the", "led"}
    assert english_in("il faut fournir à la couleur du R♠ entamé") == set()


# ---------------------------------------------------------------- every kind
def test_every_kind_has_one_template() -> None:
    assert set(TEMPLATES) == set(Why) and len(set(TEMPLATES.values())) == len(Why)


#: An action of every kind, as a refusal names what it tries.
ATTEMPTS: list[tuple[Action, str, str]] = [
    (Play(ANN, card("QS")), "play QS", "jouer D♠"),
    (Exchange(ANN, cs("JH 7C")), "exchange JH 7C", "échanger V♥ 7♣"),
    (Exchange(ANN, CardSet()), "exchange no cards", "n'échanger aucune carte"),
    (Declare(ANN, Category.POINT, (cs("AS KS"),)), "declare point AS KS", "annoncer le point A♠ R♠"),
    (Declare(ANN, Category.SEQUENCES, (cs("AS KS QS"), cs("JH TH 9H"))), "declare sequences AS KS QS / JH TH 9H",
     "annoncer les séquences A♠ R♠ D♠ / V♥ 10♥ 9♥"),
    (Declare(ANN, Category.SETS, ()), "declare sets nothing", "annoncer les quatorzes et brelans rien"),
    (CarteBlanche(ANN), "announce carte blanche", "annoncer cartes blanches"),
    (CarteBlanche(ANN, False), "decline carte blanche", "ne pas annoncer cartes blanches"),
    (Deal(ANN, (CardSet(), CardSet()), ()), "deal", "donner"),
    (Cut(ANN, (card("AS"), card("KS"))), "cut", "couper"),
    (Bid(ANN, "9+"), "bid 9+", "annoncer neuf plus"),
    (Bid(ANN, "redouble"), "bid redouble", "annoncer surcontre"),
    (ChooseDealer(ANN, BILL), "choose the dealer", "choisir le donneur"),
    (AcceptConcession(ANN), "accept the concession", "accepter l'abandon"),
    (AcceptConcession(ANN, False), "decline the concession", "refuser l'abandon"),
    (Concede(ANN), "concede", "abandonner"),
]


@pytest.mark.parametrize(("action", "english", "french"), ATTEMPTS, ids=[a[1] for a in ATTEMPTS])
def test_what_an_action_tries_is_said_in_english_and_french(action: Action, english: str, french: str) -> None:
    assert attempt_words(action) == english and attempt_words(action, "fr") == french
    assert english_in(french) == set()


def _every_fact(kind: Why) -> Refusal:
    """A refusal of ``kind`` naming a fact of every sort (a kind's template uses those it names)."""
    return Refusal(kind, NAMES, seat=BILL, other=ANN, card=card("KS"), cards=cs("QH JH"), rank=Rank.NINE,
                   category=Category.SEQUENCES, combinations=(cs("QH JH TH"), cs("AS KS QS JS")),
                   phase=Phase.EXCHANGE, expected=Phase.PLAY, text="'13+'", title="Auction Piquet", source="Law 16",
                   n=4, low=1, high=5, theirs=90, sizes=(2, 3))


@pytest.mark.parametrize("kind", list(Why))
def test_every_kind_is_said_in_english_and_in_french_with_no_english_word(kind: Why) -> None:
    refusal = _every_fact(kind)
    english, french = str(refusal), refusal.words("fr")
    assert TEMPLATES[kind] in PO, f"{kind}: no French translation"
    assert english == refusal.words("en") and french != english
    assert "{" not in french and "}" not in french
    assert english_in(french) == set(), (kind, french)
    # The laws cited keep their numbers.
    assert re.findall(r"\d+", re.sub(r"[\d]+[♠♥♦♣]", "", english)) == re.findall(r"\d+", re.sub(r"\d+[♠♥♦♣]", "",
                                                                                                   french)), french


def test_a_phase_and_a_category_are_said_with_their_french_article() -> None:
    for phase in Phase:
        said = Refusal(Why.NO_DEAL_DUE, NAMES, phase=phase).words("fr")
        assert said.startswith("aucune donne n'est à faire : c'est ") and english_in(said) == set(), said
    for category in Category:
        said = Refusal(Why.DECLARATION_ORDER, NAMES, category=category).words("fr")
        assert english_in(said) == set(), said


# ---------------------------------------------------------------- in real parties
Case = Callable[[], tuple[Partie, Action]]


def _cut() -> Partie:
    return Partie(NAMES, "au-cent")


def _annulled() -> Partie:
    p = dealt(BASE_ANN, BASE_BILL, BASE_TALON, variant="auction")
    run(p, ["Bill: bid pass", "Ann: bid pass"])
    return p


def _auction(*bids: str) -> Partie:
    p = dealt(BASE_ANN, BASE_BILL, BASE_TALON, variant="auction")
    return run(p, [act(b) for b in bids])


def _carte_blanche(options: dict[str, object] | None = None) -> Partie:
    return dealt(CB_ANN, CB_BILL, CB_TALON, options)


def _minus(*declarations: str) -> Partie:
    """BASE in a minus contract held by Bill (Lunn: nothing may be sunk), after the exchange."""
    return run(_auction("Bill: bid 8-", "Ann: bid pass"), ["Bill: x 7C", "Ann: x 8S", *declarations])


FULL_POINT_AND_SEQUENCES = ["Bill: point AS KS QS JS TS 9S", "Ann: point QH JH TH 9H 8H 7H",
                            "Bill: sequences AS KS QS JS TS 9S", "Ann: sequences QH JH TH 9H 8H 7H | QD JD TD 9D 8D 7D"]


def _second_deal() -> Partie:
    p = _at_play()
    play_out(p)
    return p


def _at_play() -> Partie:
    p = base()
    declare_nothing(p)
    return p


#: Refusals met in real parties: the action, the kind, and what a French seat is told.
CASES: list[tuple[str, Case, Why, str]] = [
    ("same cut", lambda: (_cut(), Cut(ANN, (card("9H"), card("9H")))), Why.SAME_CUT,
     "les deux joueurs ne peuvent pas couper la même carte"),
    ("lower cut", lambda: (run(_cut(), [Cut(ANN, (card("KS"), card("9H")))]), Deal(ANN, (CardSet(), CardSet()), ())),
     Why.LOWER_CUT_DEALS, "Bill a coupé la plus basse carte, et au Piquet au cent la plus basse coupe donne (lois du "
                          "Piquet au cent)"),
    ("chosen", lambda: (run(Partie(NAMES), [Cut(ANN, (card("AS"), card("9H"))), ChooseDealer(ANN, BILL)]),
                        Deal(ANN, (CardSet(), CardSet()), ())),
     Why.DEALER_CHOSEN, "Ann, qui a coupé la plus haute carte, a choisi Bill pour donner (loi 4)"),
    ("deals first", lambda: (new_partie(), Deal(BILL, (CardSet(), CardSet()), ())), Why.DEALS_FIRST,
     "Ann donne le premier"),
    ("annulled", lambda: (_annulled(), Deal(BILL, (CardSet(), CardSet()), ())), Why.ANNULLED_DEALS_AGAIN,
     "la donne a été annulée, et le même donneur, Ann, redonne (Lunn)"),
    ("packets", lambda: (new_partie(), Deal(ANN, (cs(BASE_ANN), cs(BASE_BILL)),
                                            tuple(cs(BASE_TALON)), 4)), Why.PACKET_SIZE,
     "les cartes se donnent par paquets de 2 ou 3, pas de 4"),
    ("hand size", lambda: (new_partie(), Deal(ANN, (cs("AS"), cs(BASE_BILL)), ())), Why.HAND_SIZE,
     "la main de Ann a 1 cartes, pas 12"),
    ("not a bid", lambda: (_auction(), Bid(BILL, "13+")), Why.NOT_A_BID,
     "pas une enchère : '13+' (on annonce de 7 à 12 avec + ou -, par exemple « 8+ », ou l'on passe, contre ou "
     "surcontre)"),
    ("bid not higher", lambda: (_auction("Bill: bid 8+"), Bid(ANN, "8-")), Why.BID_NOT_HIGHER,
     "une enchère doit être plus haute que 8+ (le plus et le moins d'un même nombre sont égaux)"),
    ("redouble", lambda: (_auction("Bill: bid 8+"), Bid(ANN, "redouble")), Why.REDOUBLE_ONLY_DOUBLE,
     "seul un contre peut être surcontré"),
    ("carte blanche count", lambda: (_carte_blanche(), CarteBlanche(BILL, True)), Why.ELDER_CARTE_BLANCHE_COUNT,
     "le premier qui annonce cartes blanches dit d'abord combien de cartes, de 1 à 5, il échangera (décision 6 ; cas V "
     "de la loi 20)"),
    ("carte blanche first", lambda: (_carte_blanche(), Exchange(BILL, cs("9S"))), Why.CARTE_BLANCHE_FIRST,
     "c'est la carte blanche, pas l'écart (lois 18-20, décision 6 : Bill dit d'abord s'il annonce cartes blanches)"),
    ("not in hand", lambda: (dealt(BASE_ANN, BASE_BILL, BASE_TALON), Exchange(BILL, cs("QH 7C"))), Why.NOT_IN_HAND,
     "pas dans sa main : D♥"),
    ("elder exchange", lambda: (dealt(BASE_ANN, BASE_BILL, BASE_TALON), Exchange(BILL, cs("AS KS QS JS TS 9S"))),
     Why.ELDER_EXCHANGE_COUNT, "loi 21 : le premier échange de 1 à 5 cartes, pas 6"),
    ("younger exchange", lambda: (run(dealt(BASE_ANN, BASE_BILL, BASE_TALON), ["Bill: x 7C"]),
                                  Exchange(ANN, cs("QH JH TH 9H 8H 7H QD JD"))), Why.YOUNGER_EXCHANGE_COUNT,
     "loi 22 : le second échange de 1 à 7 cartes, pas 8"),
    ("only younger shows", lambda: (dealt(BASE_ANN, BASE_BILL, BASE_TALON), Exchange(BILL, cs("7C"), True)),
     Why.ONLY_YOUNGER_SHOWS, "seul le second peut choisir de montrer le reste du talon (loi 36)"),
    ("wrong phase", lambda: (dealt(BASE_ANN, BASE_BILL, BASE_TALON), Play(BILL, card("AS"))), Why.WRONG_PHASE,
     "c'est l'écart, pas le jeu de la carte"),
    ("not your turn", lambda: (dealt(BASE_ANN, BASE_BILL, BASE_TALON), Exchange(ANN, cs("8S"))), Why.NOT_YOUR_TURN,
     "c'est à Bill de jouer"),
    ("declaration order", lambda: (base(), Declare(BILL, Category.SETS, ())), Why.DECLARATION_ORDER,
     "on annonce maintenant le point (le point, les séquences, les quatorzes et brelans dans cet ordre, le premier "
     "avant le second)"),
    ("one point", lambda: (base(), Declare(BILL, Category.POINT, (cs("AS KS"), cs("AH")))), Why.ONE_POINT,
     "un point est d'une seule couleur : il n'y a pas d'autre point à montrer"),
    ("not a point", lambda: (base(), Declare(BILL, Category.POINT, (cs("AS AH"),))), Why.NOT_A_POINT,
     "A♠ A♥ n'est pas un point : un point est fait de cartes d'une seule couleur"),
    ("broken sequence", lambda: (run(base(), ["Bill: point -", "Ann: point -"]),
                                 Declare(BILL, Category.SEQUENCES, (cs("AS KS JS"),))), Why.BROKEN_SEQUENCE,
     "A♠ R♠ V♠ n'est pas une séquence : les cartes doivent se suivre dans une couleur"),
    ("card not in hand", lambda: (_at_play(), Play(BILL, card("QH"))), Why.CARD_NOT_IN_HAND,
     "D♥ n'est pas dans sa main"),
    ("must follow", lambda: (run(_at_play(), ["Bill: AH"]), Play(ANN, card("QD"))), Why.MUST_FOLLOW,
     "il faut fournir à la couleur du A♥ entamé"),
    ("concede early", lambda: (_at_play(), Concede(ANN)), Why.CONCEDE_IN_LAST_DEAL,
     "décision 18 (traité de Cavendish, la marque ; cas XXII) : on ne peut abandonner que dans la dernière donne de "
     "la partie"),
    ("no concession", lambda: (_auction(), Concede(ANN)), Why.NO_CONCESSION, "il n'y a pas d'abandon au Piquet aux "
                                                                              "enchères"),
    ("dealt twice", lambda: (new_partie(), Deal(ANN, (cs(BASE_ANN), cs(BASE_BILL)), (*cs(BASE_TALON).cards()[:7],
                                                                                        card("AS")))),
     Why.DEALT_TWICE, "la carte A♠ est donnée deux fois"),
    ("dealt to both", lambda: (new_partie(), Deal(ANN, (cs(BASE_ANN), cs(BASE_ANN)), ())), Why.DEALT_TO_BOTH,
     "cartes données aux deux joueurs : 8♠ D♥ V♥ 10♥ 9♥ 8♥ 7♥ D♦ V♦ 10♦ 9♦ 8♦"),
    ("talon size", lambda: (new_partie(), Deal(ANN, (cs(BASE_ANN), cs(BASE_BILL)), ())), Why.TALON_SIZE,
     "le talon a 0 cartes, pas 8"),
    ("alternates", lambda: (_second_deal(), Deal(ANN, (CardSet(), CardSet()), ())), Why.DEAL_ALTERNATES,
     "la donne alterne (loi 16), et c'est à Bill de donner"),
    ("count without carte blanche", lambda: (_carte_blanche(), CarteBlanche(BILL, False, 3)),
     Why.COUNT_WITHOUT_CARTE_BLANCHE, "seul un joueur qui annonce cartes blanches dit combien il échangera"),
    ("no cards", lambda: (base(), Declare(BILL, Category.POINT, (CardSet(),))), Why.NO_CARDS, "aucune carte"),
    ("shown twice", lambda: (run(base(), ["Bill: point -", "Ann: point -"]),
                             Declare(BILL, Category.SEQUENCES, (cs("AS KS QS"), cs("QS JS TS")))), Why.SHOWN_TWICE,
     "cartes montrées deux fois (séquences) : D♠"),
    ("declare in full", lambda: (_minus(), Declare(BILL, Category.POINT, ())), Why.DECLARE_IN_FULL,
     "dans un contrat moins rien ne peut être caché : annoncez point de six"),
    ("declare and show in full", lambda: (_minus(*FULL_POINT_AND_SEQUENCES),
                                          Declare(BILL, Category.SETS, (cs("AS AH AD AC"),))),
     Why.DECLARE_AND_SHOW_IN_FULL, "dans un contrat moins rien ne peut être caché : annoncez quatorze d'as et montrez "
                                   "R♠ R♥ R♦ R♣"),
    ("nothing to concede", lambda: (new_partie(), Concede(ANN)), Why.NO_DEAL_TO_CONCEDE,
     "il n'y a pas de donne en cours à abandonner"),
]


@pytest.mark.parametrize(("case", "kind", "french"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_refusal_in_a_real_partie_is_typed_and_said_in_french(case: Case, kind: Why, french: str) -> None:
    partie, action = case()
    refusal = partie.refusal(action)
    assert refusal is not None and refusal.kind is kind, refusal
    assert str(refusal) == partie.why_not(action)
    assert refusal.words("fr") == french
    with pytest.raises(IllegalActionError) as e:
        partie.push(action)
    assert e.value.refusal == refusal and e.value.reason == str(refusal)
    assert str(e.value).endswith(f": {refusal}")
    said = e.value.words("fr", ("Anne", "l'ordinateur"))
    assert " ne peut pas " in said and english_in(said, ("Anne", "l'ordinateur")) == set(), said


def test_the_players_are_named_as_the_seat_is_told_them() -> None:
    partie = dealt(BASE_ANN, BASE_BILL, BASE_TALON)
    with pytest.raises(IllegalActionError) as e:
        partie.push(Exchange(ANN, cs("8S")))
    assert str(e.value) == "Ann cannot exchange 8S: it is Bill's turn"
    said = e.value.words("fr", ("Anne", "l'ordinateur"))
    assert said == "Anne ne peut pas échanger 8♠ : c'est à l'ordinateur de jouer"


# ---------------------------------------------------------------- a sweep of real states
def _tries(partie: Partie, rng: random.Random) -> Iterator[Action]:
    """Actions of every kind, by both seats, most of them refused where the partie stands."""
    for seat in (ANN, BILL):
        hand = partie.hand(seat)
        held = list(hand)
        yield Play(seat, rng.choice(CARDS))
        yield from (Play(seat, c) for c in held[:3])
        for n in (0, 1, 3, 5, 6):
            if n <= len(held):
                yield Exchange(seat, CardSet(rng.sample(held, n)), rng.random() < 0.3)
        yield Exchange(seat, CardSet([rng.choice(CARDS)]))
        for category in Category:
            yield Declare(seat, category, ())
            if held:
                yield Declare(seat, category, (CardSet(rng.sample(held, min(len(held), rng.randint(1, 4)))),))
                yield Declare(seat, category, tuple(hand.suit(s) for s in {c.suit for c in held[:2]}))
        yield CarteBlanche(seat, rng.random() < 0.5, rng.choice([None, 0, 2, 7]))
        yield from (Bid(seat, call) for call in ("pass", "double", "redouble", "7+", "9-", "12+", "13+", "Pass"))
        yield Concede(seat)
        yield AcceptConcession(seat, rng.random() < 0.5)
        yield ChooseDealer(seat, rng.choice([0, 1, 2]))
    yield Cut(ANN, (CARDS[0], CARDS[0]))


@pytest.mark.parametrize("variant", ["rubicon", "auction", "au-cent"])
def test_every_refusal_met_in_a_sweep_of_real_states_is_said_in_french(variant: str) -> None:
    rng = random.Random(variant)
    seen: set[Why] = set()
    for _ in range(examples(3)):  # three parties, one in the inner loop's quick profile
        partie = Partie(NAMES, variant, options={"four_deal_partie": True} if variant == "rubicon" else None)
        for _ in range(400):
            if partie.is_over:
                break
            for action in _tries(partie, rng):
                refusal = partie.refusal(action)
                if refusal is None:
                    continue
                seen.add(refusal.kind)
                assert str(refusal) == partie.why_not(action)
                french = refusal.words("fr")
                assert english_in(french) == set(), (refusal, french)
            if partie.phase is Phase.CUT:
                partie.push(partie.random_cut(rng))
            elif partie.phase is Phase.DEAL:
                partie.push(partie.random_deal(rng))
            else:
                partie.push(rng.choice(partie.legal_actions().list()))
    expected = {Why.WRONG_PHASE, Why.NOT_YOUR_TURN, Why.CARD_NOT_IN_HAND, Why.NOT_IN_HAND, Why.DECLARATION_ORDER,
                Why.NOT_A_SEQUENCE, Why.NOT_A_SET}
    assert seen >= expected | ({Why.NOT_A_BID, Why.BID_SPELLING} if variant == "auction" else set()), seen


def test_the_concession_source_is_cited_by_its_ruling_number() -> None:
    assert CONCESSION_SOURCE.startswith("ruling 18")
    refusal = Refusal(Why.CONCEDE_ONLY_LOSER, NAMES, seat=ANN, other=BILL, n=40, theirs=90)
    assert str(refusal) == f"{CONCESSION_SOURCE}: only the loser may concede, and he would have 40 to Bill's 90"
    assert refusal.words("fr").endswith("seul le perdant peut abandonner, et il aurait 40 contre 90 pour Bill")
