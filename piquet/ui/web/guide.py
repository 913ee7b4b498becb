"""The player's guide to each variant (``/guide/{variant}``): ``piquet/data/guide/{variant}.md`` made into a page.

The guides are markdown written for a player, with two additions:

- ``{hand: AS KS QS JS TS}`` draws the cards named (record notation) as a row of card pictures;
- a fenced block whose info string is ``example`` is a worked example: lines of ``Label: value``, where a value
  made only of cards is drawn as cards, and the labels that claim points (``Elder scores``, ``Scores``, ...)
  are checked against the engine by ``tests/test_guide.py``, so the guide cannot drift from the rules.

The page draws the cards' faces with the table's own drawing (``static/cards.js``, through ``static/guide.js``);
the server writes each card as an element that names it, so a screen reader reads "ace of spades" where the
picture shows A♠ (and a browser without scripts shows "A♠").

>>> import re; re.findall(r'aria-label="([^"]+)"', hand_html("AS TH"))
['two cards', 'ace of spades', 'ten of hearts']
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass
from importlib import resources

import markdown

from piquet.engine.cards import Card
from piquet.engine.combinations import number_word
from piquet.engine.variants import VARIANTS

__all__ = ["GUIDE_HEAD", "Example", "GuideError", "examples", "guide_html", "guide_index_html", "guide_text",
           "hand_html", "parse_cards", "rules_markup", "rules_page", "text_page", "unknown_guide_html"]

#: ``{hand: AS KS QS}`` in a guide's text.
_HAND = re.compile(r"\{hand:\s*([^}]*)\}")
#: A fenced worked example: ```` ```example Title ```` ... ```` ``` ````.
_EXAMPLE = re.compile(r"^```example[ \t]*(?P<title>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_CARD = re.compile(r"^[AKQJT987][SHDC]$")


class GuideError(ValueError):
    """A guide that cannot be shown: an unknown variant, or a guide's markup that names no cards."""


@dataclass(frozen=True)
class Example:
    """A worked example of a guide: its title and its ``Label: value`` lines, in order."""

    variant: str
    title: str
    lines: tuple[tuple[str, str], ...]

    def get(self, label: str) -> str | None:
        """The value of the line labelled ``label`` (case as written), or ``None``."""
        return next((value for key, value in self.lines if key == label), None)


def parse_cards(text: str) -> list[Card] | None:
    """The cards a text names in record notation, in its order, if it names nothing else (``None`` if it does).

    >>> parse_cards("AS TD 7C"), parse_cards("point 5"), parse_cards("")
    ([Card.parse('AS'), Card.parse('TD'), Card.parse('7C')], None, None)
    """
    words = text.replace(",", " ").split()
    if not words or not all(_CARD.match(w) for w in words):
        return None
    return [Card.parse(w) for w in words]


def _no_guide(variant: str) -> str:
    return f"there is no guide to {variant!r}: the variants are {', '.join(VARIANTS)}"


def guide_text(variant: str) -> str:
    """The markdown of a variant's guide; :class:`GuideError` for a variant the engine does not play."""
    if variant not in VARIANTS:
        raise GuideError(_no_guide(variant))
    return resources.files("piquet").joinpath(f"data/guide/{variant}.md").read_text(encoding="utf-8")


def examples(variant: str) -> list[Example]:
    """The worked examples of a variant's guide, in order."""
    found: list[Example] = []
    for match in _EXAMPLE.finditer(guide_text(variant)):
        lines: list[tuple[str, str]] = []
        for raw in match["body"].splitlines():
            if not raw.strip():
                continue
            label, sep, value = raw.partition(":")
            if not sep:
                raise GuideError(f"the example {match['title']!r} of the {variant} guide has a line without "
                                 f"'Label: value': {raw!r}")
            lines.append((label.strip(), value.strip()))
        found.append(Example(variant, match["title"].strip(), tuple(lines)))
    return found


def _card_html(card: Card) -> str:
    red = " red" if card.suit.is_red else ""
    return (f'<span class="card" data-card="{card}" role="img" aria-label="{card.words}">'
            f'<span class="card-label{red}">{card.pretty()}</span></span>')


def hand_html(text: str) -> str:
    """Cards in record notation (``"AS KS QS"``) as a row of card elements, each named for a screen reader."""
    cards = parse_cards(text)
    if cards is None:
        raise GuideError(f"{{hand: {text}}} names something that is not a card (cards are written AS, TD, 7C)")
    count = f"{number_word(len(cards))} card{'s' if len(cards) > 1 else ''}"
    return (f'<span class="guide-hand" role="group" aria-label="{count}">'
            + "".join(_card_html(c) for c in cards) + "</span>")


def _example_html(example: Example) -> str:
    rows = []
    for label, value in example.lines:
        shown = hand_html(value) if parse_cards(value) is not None else html.escape(value)
        rows.append(f"<dt>{html.escape(label)}</dt><dd>{shown}</dd>")
    caption = f"<figcaption>{html.escape(example.title)}</figcaption>" if example.title else ""
    return f'<figure class="guide-example">{caption}<dl>{"".join(rows)}</dl></figure>'


def guide_html(variant: str) -> str:
    """A variant's guide as HTML (the page's body; the headings carry the anchors the table links to)."""
    text = guide_text(variant)
    blocks = {f"@@example{i}@@": _example_html(e) for i, e in enumerate(examples(variant))}
    counter = iter(blocks)
    text = _EXAMPLE.sub(lambda _m: "\n" + next(counter) + "\n", text)
    text = _HAND.sub(lambda m: hand_html(m[1]), text)
    body = _markdown(text, "tables", "attr_list", "toc")
    for key, block in blocks.items():
        body = body.replace(f"<p>{key}</p>", block)
    return _BACK + body


#: What a guide's page loads besides the site's style: the guide's own style, and the table's card drawing.
GUIDE_HEAD = ('<link rel="stylesheet" href="/static/guide.css">'
              '<script type="module" src="/static/guide.js"></script>')
_BACK = '<p class="guide-nav"><a href="/">Back to the tables</a> · <a href="/guide">All the guides</a></p>'


def guide_index_html() -> str:
    """The page that lists the guides, one per variant, and the laws as implemented."""
    items = "".join(f'<li><a href="/guide/{name}">{html.escape(cls.title)}</a></li>' for name, cls in VARIANTS.items())
    return ('<p class="guide-nav"><a href="/">Back to the tables</a></p><h1>How to play Piquet</h1>'
            f'<p>A player\'s guide to each game this server plays:</p><ul>{items}</ul>'
            '<p>For the curious: <a href="/rules">the laws as implemented</a>, law by law, with their sources.</p>')


def unknown_guide_html(variant: str) -> str:
    """The body of the answer to a guide asked for a variant the server does not play."""
    reason = _no_guide(variant)
    return f"{_BACK}<h1>No such guide</h1><p>{html.escape(reason[:1].upper() + reason[1:])}.</p>"


def rules_markup() -> str:
    """The laws as implemented (``piquet/data/rules.md``) as HTML."""
    text = resources.files("piquet").joinpath("data/rules.md").read_text(encoding="utf-8")
    # A wide table scrolls sideways on a narrow screen: a tab stop, so the keyboard can scroll it too.
    return _markdown(text, "tables", "toc").replace("<table>", '<table tabindex="0">')


@functools.lru_cache(maxsize=8)
def _markdown(text: str, *extensions: str) -> str:
    """Markdown ``text`` as HTML. The same text gives the same page, so a process renders each guide and the laws
    once, however many apps it makes (``create_app`` builds every page up front)."""
    return markdown.markdown(text, extensions=list(extensions))


def text_page(title: str, body: str, head: str = "", scripted: bool = False) -> str:
    """A page of text (the guides, the laws), with the site's icon and style. ``scripted``: ``head`` loads a script,
    which says when the page is ready (``data-ready``, the signal every page gives); without one it is at once."""
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
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
