"""Takebacks against the computer: which of a person's decisions may be taken back, one policy for every interface.

A table against the computer (in the terminal or the browser) is created with one of three choices:

- ``off``: nothing is taken back;
- ``fair`` (the default): a person's last decision with a choice is taken back only if nothing since it (the
  decision included) showed him something he did not know at that decision: a move of the computer (a card, a
  declaration, a bid), a cut, a deal, his own exchange (the cards drawn), or any move of his own that showed him
  cards he had not seen (elder's first lead, at which the hands are reckoned and what scored is shown, Law 55;
  a call shown at once, where the rules show them so). Which cards a player has seen is the engine's to say (his
  :class:`~piquet.engine.view.PlayerView`): it is measured as each action is applied, not reckoned here again.
  In practice: a card he followed with, when he won the trick and is to lead; never an exchange, nor anything
  the computer has answered;
- ``free`` (for practice): any decision of his, as far back as he likes, one at a time; each takeback is written
  down (:class:`Takeback`: in the record's ``takebacks``, ``docs/record-format.md``, and on the score sheet).

Decisions *with a choice* are what a takeback goes back to: the cut, a deal, the choice of dealer and a card that
is the only one the law allows are not; they are taken back with what follows them. An interface that makes some
decisions for the person on his standing instruction (the browser's "Declare my best") names them, and a
takeback goes past them to the decision before (:func:`target`'s ``automatic``).

An interface applies each action through :func:`push`, which keeps what a takeback needs to know of it (a
:class:`Step`), and takes back with :func:`target` (how many actions to keep), :func:`refusal` (why none may be)
and :func:`entry` (the takeback as the record writes it).

A deal taken back is dealt again with the same cards: an interface fixes each deal's cards by the game's seed and
the deal's number, whoever deals and in whatever packets (:meth:`~piquet.engine.actions.Deal.from_pack` with
``in_packets=False``), so that no takeback deals a hand anew.

>>> import random
>>> from piquet.engine.actions import Deal, Exchange
>>> from piquet.engine.cards import CardSet
>>> from piquet.engine.partie import Partie
>>> partie = Partie(("Ann", "Computer"), first_dealer=1)              # the computer deals: Ann is elder
>>> steps = [push(partie, Deal.shuffled(random.Random(2), 1, 3, in_packets=False))]
>>> steps.append(push(partie, Exchange(0, CardSet(list(partie.view(0).hand)[:3]))))
>>> [step.choice for step in steps], steps[1].reveals                # her exchange drew three cards
([False, True], True)
>>> target(partie, steps, 0, "free"), target(partie, steps, 0, "fair")
(1, None)
>>> print(refusal(partie, steps, 0, "fair"))  # doctest: +NORMALIZE_WHITESPACE
a fair takeback stops where you were shown something new (a card the computer played or showed, cards drawn, a
deal, the hands reckoned at the first lead): that decision is final
>>> entry(partie.actions, 1, "Ann")
{'player': 'Ann', 'deal': 1, 'action': 0, 'undone': 1}
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple, TypedDict, get_args

from piquet.engine.actions import Action, ChooseDealer, Concede, Cut, Deal, Exchange, Play
from piquet.engine.partie import Partie
from piquet.engine.view import PlayerView

__all__ = ["TAKEBACKS", "Step", "Takeback", "Takebacks", "entry", "push", "refusal", "target"]

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


class Step(NamedTuple):
    """What a takeback needs to know of an action applied."""

    #: A person's decision with a choice (what a takeback goes back to): not a cut, a deal or the choice of
    #: dealer, nor the only action the law allowed; an exchange always (which cards is a choice).
    choice: bool
    #: It showed its own player cards he had not seen, or it reckoned the hands (elder's first lead, a concession),
    #: at which what scored may be asked to be shown (Law 55) and the rest of the talon is shown if younger chose.
    reveals: bool


def _seen(view: PlayerView) -> int:
    """Every card the view shows its player, as a mask: his own, those he drew or looked at, those shown or
    played."""
    mask = view.dealt.mask | view.hand.mask | view.discards.mask | view.peeked.mask | view.rest.mask
    for cards in (*view.revealed, *view.shown_dealt):
        mask |= cards.mask
    for card in view.trick:
        mask |= card.mask
    for trick in view.tricks:
        for card in trick.cards:
            mask |= card.mask
    return mask


def push(partie: Partie, action: Action) -> Step:
    """Apply ``action`` (verified by the engine) to ``partie``, and say what a takeback needs of it."""
    if isinstance(action, (Cut, Deal, ChooseDealer)):
        partie.push(action)
        return Step(False, True)
    seat = action.player
    choice = isinstance(action, Exchange) or len(list(itertools.islice(iter(partie.legal_actions(seat)), 2))) > 1
    view = partie.view(seat)
    # Elder's first lead, or a concession, reckons the hands: what scored may be asked to be shown (Law 55).
    reckons = isinstance(action, Concede) or (isinstance(action, Play) and not view.tricks and not view.trick)
    before = _seen(view)
    partie.push(action)
    return Step(choice, reckons or bool(_seen(partie.view(seat)) & ~before))


def _shows_something_new(action: Action, step: Step, seat: int) -> bool:
    """Whether ``action`` showed ``seat`` something he did not know before it: any move of the other player (a
    card, a declaration, a bid, an exchange), a cut or a deal, his own exchange (the cards drawn, or those elder
    may look at of the ones he left), or another move of his own that showed him cards."""
    return isinstance(action, (Cut, Deal, Exchange)) or action.player != seat or step.reveals


def _last_choice(actions: Sequence[Action], steps: Sequence[Step], seat: int,
                 automatic: Callable[[Action], bool] | None) -> int | None:
    for i in range(len(actions) - 1, -1, -1):
        if actions[i].player == seat and steps[i].choice and (automatic is None or not automatic(actions[i])):
            return i
    return None


def target(partie: Partie, steps: Sequence[Step], seat: int, takebacks: Takebacks,
           automatic: Callable[[Action], bool] | None = None) -> int | None:
    """How many of the partie's actions to keep to take back ``seat``'s last decision with a choice, as
    ``takebacks`` allows (``None``: none may be taken back). ``steps`` are the actions' (:func:`push`);
    ``automatic`` says which of the person's actions the interface made for him on his standing instruction
    (gone past, to the decision before: taken back with it)."""
    if takebacks == "off" or partie.is_over:
        return None
    actions = partie.actions
    i = _last_choice(actions, steps, seat, automatic)
    if i is None:
        return None
    if takebacks == "fair" and any(_shows_something_new(a, step, seat)
                                   for a, step in zip(actions[i:], steps[i:], strict=True)):
        return None
    return i


def refusal(partie: Partie, steps: Sequence[Step], seat: int, takebacks: Takebacks,
            automatic: Callable[[Action], bool] | None = None) -> str:
    """Why :func:`target` takes nothing back, as a reason is given (a clause: an interface makes it a sentence)."""
    if takebacks == "off":
        return "this game allows no takebacks (chosen when it was created)"
    if takebacks == "free" or partie.is_over or _last_choice(partie.actions, steps, seat, automatic) is None:
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
