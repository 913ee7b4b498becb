"""Takebacks against the computer: which of a person's decisions may be taken back, one policy for every interface.

A table against the computer (in the terminal or the browser) is created with one of three choices:

- ``off``: nothing is taken back;
- ``fair`` (the default): a person's last decision with a choice is taken back only if nothing since it (the
  decision included) showed him something he did not know at that decision: a move of the computer (a card, a
  declaration, a bid), a cut, a deal, the cards his own exchange drew, or elder's first lead or a concession, at
  which the hands are reckoned and what scored is shown (Law 55; and the rest of the talon, if younger chose to
  show it). In practice: a card he followed with, when he won the trick and is to lead; never an exchange, nor
  anything the computer has answered;
- ``free`` (for practice): any decision of his, as far back as he likes, one at a time; each takeback is written
  down (:class:`Takeback`: in the record's ``takebacks``, ``docs/record-format.md``, and on the score sheet).

Decisions *with a choice* are what a takeback goes back to: the cut, a deal, the choice of dealer and a card that
is the only one the law allows are not (:func:`is_choice`); they are taken back with what follows them. An
interface that makes some decisions for the person on his standing instruction (the browser's "Declare my best")
names them, and a takeback goes past them to the decision before (:func:`target`'s ``automatic``).

A deal taken back is dealt again with the same cards: an interface fixes each deal's cards by the game's seed and
the deal's number, whoever deals and in whatever packets (:meth:`~piquet.engine.actions.Deal.from_pack` with
``in_packets=False``), so that no takeback deals a hand anew.

>>> import random
>>> from piquet.engine.actions import Deal, Exchange
>>> from piquet.engine.cards import CardSet
>>> from piquet.engine.partie import Partie
>>> partie = Partie(("Ann", "Computer"), first_dealer=1)              # the computer deals: Ann is elder
>>> deal = Deal.shuffled(random.Random(2), 1, 3, in_packets=False)
>>> choices = [is_choice(partie, deal)]; _ = partie.push(deal)
>>> discard = Exchange(0, CardSet(list(partie.view(0).hand)[:3]))
>>> choices.append(is_choice(partie, discard)); _ = partie.push(discard)
>>> choices
[False, True]
>>> target(partie, choices, 0, "free"), target(partie, choices, 0, "fair")  # the exchange drew three cards
(1, None)
>>> print(refusal(partie, choices, 0, "fair"))
a fair takeback stops where you were shown something new (a card the computer played or showed, cards drawn, a \
deal, the hands reckoned at the first lead): that decision is final
>>> entry(partie.actions, 1, "Ann")
{'player': 'Ann', 'deal': 1, 'action': 0, 'undone': 1}
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Literal, TypedDict, get_args

from piquet.engine.actions import Action, ChooseDealer, Concede, Cut, Deal, Exchange, Play
from piquet.engine.partie import Partie

__all__ = ["TAKEBACKS", "Takeback", "Takebacks", "entry", "is_choice", "refusal", "shows_something_new", "target"]

#: What a table against the computer allows to take back.
Takebacks = Literal["off", "fair", "free"]
#: The three choices, ``fair`` the default.
TAKEBACKS: tuple[Takebacks, ...] = get_args(Takebacks)


class Takeback(TypedDict):
    """A takeback as the record writes it (``docs/record-format.md``): who took back, where the first action
    taken back is (the deal from 1, its index in that deal's actions from 0, as ``piquet replay`` numbers them)
    and how many actions were."""

    player: str
    deal: int
    action: int
    undone: int


def is_choice(partie: Partie, action: Action) -> bool:
    """Whether ``action``, about to be applied to ``partie``, is a person's decision with a choice (what a takeback
    goes back to): not a cut, a deal or the choice of dealer, nor the only action the law allows; an exchange
    always (which cards to discard is a choice even where their number is not)."""
    if isinstance(action, (Cut, Deal, ChooseDealer)):
        return False
    if isinstance(action, Exchange):
        return True
    return len(list(itertools.islice(iter(partie.legal_actions(action.player)), 2))) > 1


def shows_something_new(action: Action, seat: int, reckons: bool = False) -> bool:
    """Whether ``action`` showed ``seat`` something he did not know before it: any move of the other player (a
    card, a declaration, a bid, an exchange), a cut or a deal, his own exchange (the cards drawn), or (``reckons``:
    it is elder's first lead of the deal, or a concession) the reckoning of the hands, which shows what scored."""
    return reckons or isinstance(action, (Cut, Deal, Exchange)) or action.player != seat


def _reckonings(actions: Sequence[Action], start: int) -> list[bool]:
    """For each action from ``start`` on, whether the hands are reckoned at it: the deal's first card, or a
    concession (whether the deal had had a card before ``start`` is read back to its deal)."""
    led = False
    for action in reversed(actions[:start]):
        if isinstance(action, Deal):
            break
        if isinstance(action, Play):
            led = True
            break
    out = []
    for action in actions[start:]:
        if isinstance(action, Deal):
            led = False
        out.append(isinstance(action, Concede) or (isinstance(action, Play) and not led))
        led = led or isinstance(action, Play)
    return out


def _last_choice(actions: Sequence[Action], choices: Sequence[bool], seat: int,
                 automatic: Callable[[Action], bool] | None) -> int | None:
    for i in range(len(actions) - 1, -1, -1):
        if actions[i].player == seat and choices[i] and (automatic is None or not automatic(actions[i])):
            return i
    return None


def target(partie: Partie, choices: Sequence[bool], seat: int, takebacks: Takebacks,
           automatic: Callable[[Action], bool] | None = None) -> int | None:
    """How many of the partie's actions to keep to take back ``seat``'s last decision with a choice, as
    ``takebacks`` allows (``None``: none may be taken back). ``choices`` says, for each action applied, whether it
    was a decision with a choice (:func:`is_choice`); ``automatic``, which of the person's actions the interface
    made for him on his standing instruction (gone past, to the decision before: taken back with it)."""
    if takebacks == "off" or partie.is_over:
        return None
    actions = partie.actions
    i = _last_choice(actions, choices, seat, automatic)
    if i is None:
        return None
    if takebacks == "fair" and any(shows_something_new(a, seat, reckons)
                                   for a, reckons in zip(actions[i:], _reckonings(actions, i), strict=True)):
        return None
    return i


def refusal(partie: Partie, choices: Sequence[bool], seat: int, takebacks: Takebacks,
            automatic: Callable[[Action], bool] | None = None) -> str:
    """Why :func:`target` takes nothing back, as a reason is given (a clause: an interface makes it a sentence)."""
    if takebacks == "off":
        return "this game allows no takebacks (chosen when it was created)"
    if takebacks == "free" or partie.is_over or _last_choice(partie.actions, choices, seat, automatic) is None:
        return "there is nothing of yours to take back (and nothing once the partie is over)"
    return ("a fair takeback stops where you were shown something new (a card the computer played or showed, "
            "cards drawn, a deal, the hands reckoned at the first lead): that decision is final")


def entry(actions: Sequence[Action], keep: int, player: str) -> Takeback:
    """The takeback of all but the first ``keep`` actions by ``player``, as the record writes it."""
    deal, start = 0, 0
    for i, action in enumerate(actions[:keep]):
        if isinstance(action, Deal):
            deal, start = deal + 1, i + 1
    return {"player": player, "deal": deal, "action": keep - start, "undone": len(actions) - keep}
