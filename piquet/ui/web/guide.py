"""The player's guide to each variant (``/guide/{variant}``, in French ``/guide/{variant}?lang=fr``): the markdown
``piquet/data/guide/{variant}.md`` (in French ``piquet/data/guide/fr/{variant}.md``) made into a page.

The guides are markdown written for a player, with two additions:

- ``{hand: AS KS QS JS TS}`` draws the cards named (record notation) as a row of card pictures;
- a fenced block whose info string is ``example`` is a worked example: lines of ``Label: value``, where a value
  made only of cards is drawn as cards, and the labels that claim points (``Elder scores``, ``Scores``, ...)
  are checked against the engine by ``tests/test_guide.py``, so the guide cannot drift from the rules. A guide in
  another language writes its examples' labels and words in that language (:data:`LABELS`, :data:`VALUE_WORDS`):
  :meth:`Example.english` reads them back, so one parser and one check serve every language.

The page draws the cards' faces with the table's own drawing (``static/cards.js``, through ``static/guide.js``);
the server writes each card as an element that names it, so a screen reader reads "ace of spades" where the
picture shows A♠ (and a browser without scripts shows "A♠"); on a French page "as de pique", and the court cards'
indices R, D, V.

>>> import re; re.findall(r'aria-label="([^"]+)"', hand_html("AS TH"))
['two cards', 'ace of spades', 'ten of hearts']
>>> re.findall(r'aria-label="([^"]+)"|>([^<>]+)</span>', hand_html("KH", "fr"))
[('une carte', ''), ('roi de cœur', ''), ('', 'R♥')]
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass, replace
from importlib import resources

import markdown

from piquet.engine.cards import Card
from piquet.engine.language import LANGUAGES, words_in
from piquet.engine.variants import VARIANTS
from piquet.engine.words import card_name, pretty_card

__all__ = ["GUIDE_HEAD", "LABELS", "SPOKEN", "VALUE_WORDS", "Example", "GuideError", "examples", "guide_href",
           "guide_html", "guide_index_html", "guide_index_page", "guide_page", "guide_text", "hand_html",
           "no_language_page", "parse_cards", "rules_markup", "rules_page", "text_page", "unknown_guide_html",
           "unknown_guide_page"]

#: ``{hand: AS KS QS}`` in a guide's text.
_HAND = re.compile(r"\{hand:\s*([^}]*)\}")
#: A fenced worked example: ```` ```example Title ```` ... ```` ``` ````.
_EXAMPLE = re.compile(r"^```example[ \t]*(?P<title>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_CARD = re.compile(r"^[AKQJT987][SHDC]$")

#: The worked examples' labels, each by its English name (the one the tests check it by) with its words in each
#: other language the guides are written in. A label not here is refused: an example is there to be checked.
LABELS: dict[str, dict[str, str]] = {
    "Hand": {"fr": "Main"},
    "The combination": {"fr": "La combinaison"},
    "Called": {"fr": "Annonce"},
    "Pips": {"fr": "Valeur"},
    "Scores": {"fr": "Compte"},
    "Elder is dealt": {"fr": "Le premier reçoit"},
    "Younger is dealt": {"fr": "Le second reçoit"},
    "The talon": {"fr": "Le talon"},
    "Bids": {"fr": "Enchères"},
    "Elder discards": {"fr": "Le premier écarte"},
    "Younger discards": {"fr": "Le second écarte"},
    "Elder's hand": {"fr": "Main du premier"},
    "Younger's hand": {"fr": "Main du second"},
    "What is said": {"fr": "Ce qui se dit"},
    "Cards played": {"fr": "Cartes jouées"},
    "Elder scores": {"fr": "Le premier marque"},
    "Younger scores": {"fr": "Le second marque"},
    "Contract": {"fr": "Contrat"},
    "Tricks won": {"fr": "Levées gagnées"},
    "Elder scores after the play": {"fr": "Le premier marque après le jeu de la carte"},
    "Younger scores after the play": {"fr": "Le second marque après le jeu de la carte"},
    "Scores at the end of the partie": {"fr": "Scores à la fin de la partie"},
    "The loser is rubiconed": {"fr": "Le perdant est rubiconé"},
    "The winner scores": {"fr": "Le gagnant marque"},
    "Scores in the game when the deal begins": {"fr": "Scores du jeu au début de la donne"},
    "The deal's points, in the order of reckoning": {"fr": "Les points de la donne, dans l'ordre du compte"},
    "The game is won by": {"fr": "Le jeu est gagné par"},
    "A double game": {"fr": "Jeu double"},
    "Scores when the game is won": {"fr": "Scores quand le jeu est gagné"},
}
#: The words the examples' values are made of besides numbers and cards, each by its English with its words in each
#: other language: the players' roles, a bid's and a contract's words, and a score's categories as the game's
#: catalogue names them on the score sheet (``piquet/data/locale``).
VALUE_WORDS: dict[str, dict[str, str]] = {
    "elder": {"fr": "premier"}, "younger": {"fr": "second"}, "nothing": {"fr": "rien"}, "and": {"fr": "et"},
    "yes": {"fr": "oui"}, "no": {"fr": "non"}, "pass": {"fr": "passe"}, "doubled": {"fr": "contré"},
    "redoubled": {"fr": "surcontré"}, "point": {"fr": "point"}, "sequences": {"fr": "séquences"},
    "sets": {"fr": "quatorzes et brelans"}, "play": {"fr": "jeu de la carte"}, "the cards": {"fr": "les cartes"},
    "capot": {"fr": "capot"}, "repique": {"fr": "repic"}, "pique": {"fr": "pic"}, "contract": {"fr": "contrat"},
}
#: The labels whose values are what the table says (a combination's call, the declarations' calls and answers): in
#: the guide's language, checked against what the engine says in it, and never read back into English.
SPOKEN = frozenset({"Called", "What is said"})


class GuideError(ValueError):
    """A guide that cannot be shown: an unknown variant or language, or a guide's markup that names no cards."""


@dataclass(frozen=True)
class Example:
    """A worked example of a guide: its title and its ``Label: value`` lines, in order, as the guide writes them in
    its language ``lang``."""

    variant: str
    title: str
    lines: tuple[tuple[str, str], ...]
    lang: str = "en"

    def get(self, label: str) -> str | None:
        """The value of the line labelled ``label`` (case as written), or ``None``."""
        return next((value for key, value in self.lines if key == label), None)

    def english(self) -> Example:
        """The example in English words (an English example as it is): its labels, and its values but for what the
        table says (:data:`SPOKEN`), which stay in the guide's language, ``lang``, the example's still.

        >>> Example("rubicon", "Les cartes", (("Levées gagnées", "premier 8, second 4"),), "fr").english().lines
        (('Tricks won', 'elder 8, younger 4'),)
        """
        if self.lang == "en":
            return self
        labels = _english_labels(self.lang)
        pattern, words = _english_words(self.lang)
        lines = []
        for label, value in self.lines:
            english = labels[label]
            lines.append((english, value if english in SPOKEN else pattern.sub(lambda m: words[m[0]], value)))
        return replace(self, lines=tuple(lines))


@functools.cache
def _english_labels(lang: str) -> dict[str, str]:
    return {label: label for label in LABELS} if lang == "en" else {
        words[lang]: label for label, words in LABELS.items()}


@functools.cache
def _english_words(lang: str) -> tuple[re.Pattern[str], dict[str, str]]:
    words = {said[lang]: english for english, said in VALUE_WORDS.items()}
    longest_first = sorted(words, key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in longest_first) + r")\b"), words


def parse_cards(text: str) -> list[Card] | None:
    """The cards a text names in record notation, in its order, if it names nothing else (``None`` if it does).

    >>> parse_cards("AS TD 7C"), parse_cards("point 5"), parse_cards("")
    ([Card.parse('AS'), Card.parse('TD'), Card.parse('7C')], None, None)
    """
    words = text.replace(",", " ").split()
    if not words or not all(_CARD.match(w) for w in words):
        return None
    return [Card.parse(w) for w in words]


def _no_guide(variant: str, lang: str = "en") -> str:
    words = words_in(lang)
    return words("there is no guide to {variant}: the variants are {variants}", variant=repr(variant),
                 variants=", ".join(VARIANTS))


def _no_language(lang: str) -> str:
    return f"language {lang[:20]!r} is not one the guides are written in ({', '.join(LANGUAGES)})"


def _check_language(lang: str) -> None:
    if lang not in LANGUAGES:
        raise GuideError(_no_language(lang))


def guide_text(variant: str, lang: str = "en") -> str:
    """The markdown of a variant's guide in ``lang``; :class:`GuideError` for a variant the engine does not play or a
    language the guides are not written in."""
    _check_language(lang)
    if variant not in VARIANTS:
        raise GuideError(_no_guide(variant))
    folder = "data/guide" if lang == "en" else f"data/guide/{lang}"
    return resources.files("piquet").joinpath(f"{folder}/{variant}.md").read_text(encoding="utf-8")


def examples(variant: str, lang: str = "en") -> list[Example]:
    """The worked examples of a variant's guide in ``lang``, in order."""
    labels = _english_labels(lang) if lang in LANGUAGES else {}
    found: list[Example] = []
    for match in _EXAMPLE.finditer(guide_text(variant, lang)):
        lines: list[tuple[str, str]] = []
        for raw in match["body"].splitlines():
            if not raw.strip():
                continue
            label, sep, value = raw.partition(":")
            where = f"the example {match['title']!r} of the {variant} guide ({LANGUAGES[lang]})"
            if not sep:
                raise GuideError(f"{where} has a line without 'Label: value': {raw!r}")
            if label.strip() not in labels:
                raise GuideError(f"{where} has a label no check knows: {label.strip()!r} (they are "
                                 f"{', '.join(map(repr, labels))})")
            lines.append((label.strip(), value.strip()))
        found.append(Example(variant, match["title"].strip(), tuple(lines), lang))
    return found


def _card_html(card: Card, lang: str) -> str:
    red = " red" if card.suit.is_red else ""
    return (f'<span class="card" data-card="{card}" role="img" aria-label="{html.escape(card_name(card, lang))}">'
            f'<span class="card-label{red}">{pretty_card(card, lang)}</span></span>')


def hand_html(text: str, lang: str = "en") -> str:
    """Cards in record notation (``"AS KS QS"``) as a row of card elements, each named for a screen reader in
    ``lang``."""
    cards = parse_cards(text)
    if cards is None:
        raise GuideError(f"{{hand: {text}}} names something that is not a card (cards are written AS, TD, 7C)")
    words = words_in(lang)
    count = words("one card") if len(cards) == 1 else words("{number} cards", number=words.number(len(cards)))
    return (f'<span class="guide-hand" role="group" aria-label="{html.escape(count)}">'
            + "".join(_card_html(c, lang) for c in cards) + "</span>")


def _example_html(example: Example) -> str:
    rows = []
    for label, value in example.lines:
        shown = hand_html(value, example.lang) if parse_cards(value) is not None else html.escape(value)
        rows.append(f"<dt>{html.escape(label)}</dt><dd>{shown}</dd>")
    caption = f"<figcaption>{html.escape(example.title)}</figcaption>" if example.title else ""
    return f'<figure class="guide-example">{caption}<dl>{"".join(rows)}</dl></figure>'


def guide_href(variant: str | None, lang: str = "en", anchor: str = "") -> str:
    """The address of a variant's guide (``None``: of the guides' index) in ``lang``, at ``anchor`` (``"#talon"``).

    >>> guide_href("rubicon"), guide_href("rubicon", "fr", "#talon"), guide_href(None, "fr")
    ('/guide/rubicon', '/guide/rubicon?lang=fr#talon', '/guide?lang=fr')
    """
    path = "/guide" if variant is None else f"/guide/{variant}"
    return path + ("" if lang == "en" else f"?lang={lang}") + anchor


#: A link of a guide's text to a guide (the markdown is the same in every language: the page sends it to its own).
_GUIDE_LINK = re.compile(r'href="/guide(?:/([\w-]+))?(#[\w-]+)?"')


def guide_html(variant: str, lang: str = "en") -> str:
    """A variant's guide in ``lang`` as HTML (the page's body; the headings carry the anchors the table links to, the
    same in every language), its links to the guides to theirs in ``lang``."""
    text = guide_text(variant, lang)
    blocks = {f"@@example{i}@@": _example_html(e) for i, e in enumerate(examples(variant, lang))}
    counter = iter(blocks)
    text = _EXAMPLE.sub(lambda _m: "\n" + next(counter) + "\n", text)
    text = _HAND.sub(lambda m: hand_html(m[1], lang), text)
    body = _markdown(text, "tables", "attr_list", "toc")
    for key, block in blocks.items():
        body = body.replace(f"<p>{key}</p>", block)
    body = _GUIDE_LINK.sub(lambda m: f'href="{guide_href(m[1], lang, m[2] or "")}"', body)
    return _nav(lang) + body


#: What a guide's page loads besides the site's style: the guide's own style, and the table's card drawing.
GUIDE_HEAD = ('<link rel="stylesheet" href="/static/guide.css">'
              '<script type="module" src="/static/guide.js"></script>')


def _nav(lang: str, index: bool = True) -> str:
    """The links back: to the tables and (``index``) to all the guides."""
    words = words_in(lang)
    guides = f' · <a href="{guide_href(None, lang)}">{words("All the guides")}</a>' if index else ""
    return f'<p class="guide-nav"><a href="/">{words("Back to the tables")}</a>{guides}</p>'


def guide_index_html(lang: str = "en") -> str:
    """The page that lists the guides, one per variant, and the laws as implemented, in ``lang``."""
    words = words_in(lang)
    items = "".join(f'<li><a href="{guide_href(name, lang)}">{html.escape(words(cls.title))}</a></li>'
                    for name, cls in VARIANTS.items())
    laws = f'<a href="/rules">{words("the laws as implemented")}</a>'
    intro = html.escape(words("A player's guide to each game this server plays:"), quote=False)
    return (f'{_nav(lang, index=False)}<h1>{words("How to play Piquet")}</h1>'
            f'<p>{intro}</p><ul>{items}</ul>'
            f'<p>{words("For the curious: {laws}, law by law, with their sources.", laws=laws)}</p>')


def unknown_guide_html(variant: str, lang: str = "en") -> str:
    """The body of the answer to a guide asked for a variant the server does not play."""
    reason = _no_guide(variant, lang)
    heading = words_in(lang)("No such guide")
    return f"{_nav(lang)}<h1>{heading}</h1><p>{html.escape(reason[:1].upper() + reason[1:])}.</p>"


def no_language_page(lang: str) -> str:
    """The whole page answering a guide asked in a language the guides are not written in (``?lang=de``)."""
    reason = _no_language(lang)
    return text_page("No such language", f"{_nav('en')}<h1>No such language</h1>"
                     f"<p>{html.escape(reason[:1].upper() + reason[1:], quote=False)}.</p>")


@functools.cache
def guide_page(variant: str, lang: str = "en") -> str:
    """A variant's guide in ``lang``, the whole page (the server's ``/guide/{variant}``, a page of the offline site):
    made once a process, however many apps it makes (the guides are the package's files)."""
    title = words_in(lang)("How to play {title}", title=words_in(lang)(VARIANTS[variant].title))
    return text_page(title, guide_html(variant, lang), GUIDE_HEAD, scripted=True, lang=lang)


@functools.cache
def guide_index_page(lang: str = "en") -> str:
    """The guides' index in ``lang``, the whole page (``/guide``), made once a process."""
    return text_page(words_in(lang)("How to play Piquet"), guide_index_html(lang), lang=lang)


def unknown_guide_page(variant: str, lang: str = "en") -> str:
    """The whole page answering a guide asked for a variant the server does not play."""
    return text_page(words_in(lang)("No such guide"), unknown_guide_html(variant, lang), lang=lang)


def rules_markup() -> str:
    """The laws as implemented (``piquet/data/rules.md``) as HTML."""
    text = resources.files("piquet").joinpath("data/rules.md").read_text(encoding="utf-8")
    # A wide table scrolls sideways on a narrow screen: a tab stop, so the keyboard can scroll it too.
    return _markdown(text, "tables", "toc").replace("<table>", '<table tabindex="0">')


@functools.lru_cache(maxsize=16)
def _markdown(text: str, *extensions: str) -> str:
    """Markdown ``text`` as HTML. The same text gives the same page, so a process renders each guide (three in each
    language) and the laws once, however many apps it makes."""
    return markdown.markdown(text, extensions=list(extensions))


def text_page(title: str, body: str, head: str = "", scripted: bool = False, lang: str = "en") -> str:
    """A page of text (the guides, the laws) in ``lang``, with the site's icon and style. ``scripted``: ``head``
    loads a script, which says when the page is ready (``data-ready``, the signal every page gives); without one it
    is at once."""
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
            f'<link rel="stylesheet" href="/static/style.css">{head}</head>'
            f'<body class="page" data-ready="{"" if scripted else "1"}"><main class="doc">{body}</main></body></html>')


#: Where each variant's own laws begin in the laws as implemented.
_RULES_ANCHOR = {"rubicon": "the-partie", "auction": "auction-piquet", "au-cent": "piquet-au-cent"}


def rules_page(rules: str, variant: str | None = None) -> tuple[str, str]:
    """The title and body of the laws' page (``rules``: :func:`rules_markup`), opened at ``variant``'s own laws."""
    if variant is None:
        return "The laws of Piquet as implemented", ('<p><a href="/">Back to the tables</a> · <a href="/guide">How to '
                                                    'play: the player\'s guides</a></p>' + rules)
    script = f"<script>location.hash = {_RULES_ANCHOR[variant]!r};</script>"
    return (f"The laws as implemented: {VARIANTS[variant].title}",
            f'<p><a href="/">Back to the tables</a> · <a href="/guide/{variant}">How to play '
            f'{html.escape(VARIANTS[variant].title)}: the player\'s guide</a></p>' + rules + script)
