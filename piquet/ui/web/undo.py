"""Takebacks at a table against the computer: what a takeback goes back to, saving it, and writing it down.

The policy is every interface's (:mod:`piquet.ui.takebacks`): ``off``, ``fair`` (the default: never back past
something the player did not know at that decision: a card the computer played or showed, a card drawn, the hands
reckoned at the first lead, a deal) or ``free`` (for practice; every takeback is written down, in the record and on
the score sheet). :class:`Undo` keeps, for each action applied at the table, what the policy needs to know of it
(:class:`piquet.ui.takebacks.Step`). Every deal's cards are fixed by the table's seed and the deal's number, so no
takeback deals a hand anew.
"""

from __future__ import annotations

from piquet.engine.actions import Action, Declare
from piquet.engine.language import words_in
from piquet.engine.partie import Partie
from piquet.ui import takebacks as policy
from piquet.ui.takebacks import Takeback
from piquet.ui.web.events import event
from piquet.ui.web.protocol import ProtocolError, SheetRow
from piquet.ui.web.saving import store_call
from piquet.ui.web.store import AsyncStore, TableInfo

__all__ = ["Undo", "note_takebacks"]


def _declaration(action: Action) -> bool:
    """A declaration: what the page makes for a player with "Declare my best" (a takeback goes past it)."""
    return isinstance(action, Declare)


def note_takebacks(sheet: list[SheetRow], taken_back: list[Takeback], names: tuple[str, str],
                   lang: str = "en", shown: tuple[str, str] | None = None) -> None:
    """Write each deal's takebacks in its row's notes on the score sheet, in ``lang``, the players named ``shown``
    (by default ``names``, the names the takebacks were written down under)."""
    words = words_in(lang)
    for row in sheet:
        count = [sum(1 for t in taken_back if t["deal"] == row["deal"] and t["player"] == n) for n in names]
        notes = [words.plural("{n} takeback by {name}", "{n} takebacks by {name}", c, name=n)
                 for n, c in zip(shown or names, count, strict=True) if c]
        if notes:
            row["notes"] = words("; ").join([*([row["notes"]] if row["notes"] else []), *notes])


class Undo:
    """The takebacks of one table (its ``info``, saved to ``store``): every action applied goes through
    :meth:`apply`, so a takeback knows what each was."""

    def __init__(self, info: TableInfo, store: AsyncStore) -> None:
        self.info = info
        self.store = store
        #: For each action applied, what a takeback needs to know of it (:class:`piquet.ui.takebacks.Step`:
        #: whether it was a person's decision with a choice, whether it showed its player cards).
        self.steps: list[policy.Step] = []

    def apply(self, partie: Partie, action: Action) -> None:
        """Apply an action (already verified) to ``partie``, noting what a takeback needs to know of it."""
        self.steps.append(policy.push(partie, action))

    def target(self, partie: Partie | None, seat: int | None, declare_best: bool = False) -> int | None:
        """How many actions to keep to take back ``seat``'s last decision with a choice (against the computer
        only, as the table's takebacks allow: :func:`piquet.ui.takebacks.target`); ``None``: none may be.
        ``declare_best``: the page declares for him ("Declare my best"), and the takeback goes past his declarations
        to the decision before."""
        computer = self.info.computer
        if partie is None or computer is None or seat is None or seat == computer:
            return None
        return policy.target(partie, self.steps, seat, self.info.takebacks, _declaration if declare_best else None)

    async def take_back(self, partie: Partie, seat: int, names: tuple[str, str], declare_best: bool = False) -> None:
        """Take back ``seat``'s last decision with a choice, saved first, and move the table's version on; raises
        ``not_allowed`` with the reason where none may be (and ``not_saved`` if the store could not save it)."""
        target = self.target(partie, seat, declare_best)
        if target is None:
            raise ProtocolError("not_allowed", policy.refusal(partie, self.steps, seat, self.info.takebacks,
                                                              _declaration if declare_best else None))
        takeback = None
        if self.info.takebacks == "free":
            takeback = policy.entry(partie.actions, target, names[seat])
        version = self.info.version + 1
        await store_call(self.store.take_back(self.info.id, target, takeback, version), self.info.id, seat)
        event("takeback", self.info.id, seat=seat, version=version, undone=partie.ply - target)
        self.info.version = version
        if takeback is not None:
            self.info.taken_back.append(takeback)
        while partie.ply > target:
            partie.pop()
            self.steps.pop()
