"""The advice a table gives a person, as the messages of ``docs/protocol.md`` say it: a hint (``hint``) and the
tutor's warning (``tutor``), each choice named in words and as the action a client sends.

Their types are the protocol's (:mod:`piquet.ui.web.protocol`); the advice itself is :mod:`piquet.ui.web.advice`'s.
"""

from __future__ import annotations

from piquet.coach.hints import Hint, TutorWarning
from piquet.engine.actions import (
    AcceptConcession,
    Action,
    Bid,
    CarteBlanche,
    ChooseDealer,
    Concede,
    Declare,
    Exchange,
    Play,
)
from piquet.engine.language import words_in
from piquet.ui.menus import describe_declaration
from piquet.ui.web.protocol import ActionData, Advice, HintMessage, TutorMessage, action_message

__all__ = ["action_words", "hint_message", "tutor_message"]


def action_words(action: Action, names: tuple[str, str], lang: str = "en") -> str:
    """A player's decision as a hint names it ("play QS", "exchange 2: discard 7S 8S"), in ``lang``."""
    w = words_in(lang)
    if isinstance(action, Play):
        return w("play {card}", card=action.card)
    if isinstance(action, Exchange):
        return w("exchange {count}: discard {cards}", count=len(action.discards), cards=action.discards)
    if isinstance(action, Declare):
        return w("declare {what}", what=describe_declaration(action.category, action.combinations, lang))
    if isinstance(action, Bid):
        return w("bid {call}", call=action.call) if action.tricks is not None else w(action.call)
    if isinstance(action, ChooseDealer):
        return (w("deal first yourself") if action.dealer == action.player
                else w("let {name} deal first", name=names[action.dealer]))
    if isinstance(action, CarteBlanche):
        return w("announce carte blanche") if action.announce else w("do not announce carte blanche")
    if isinstance(action, Concede):
        return w("concede")
    if isinstance(action, AcceptConcession):
        return w("accept the concession") if action.accept else w("decline the concession and play on")
    return action.describe(names)  # pragma: no cover - no other action is a player's decision


def _advice(action: Action, names: tuple[str, str], lang: str) -> Advice:
    return {"text": action_words(action, names, lang), "action": action_message(action, names)}


def hint_message(action: Action | int | Hint, names: tuple[str, str], lang: str = "en") -> HintMessage:
    """A hint: the review's (a :class:`~piquet.coach.hints.Hint`: the best choice, why, the next best and the margin,
    the exchange's best discards) or, where the review values nothing, the computer's choice alone (an ``int``: the
    packets to deal in); its choices named in ``lang``, as the review's reasons are (the hint made them in it)."""
    if isinstance(action, int):
        return {"type": "hint", "text": words_in(lang)("deal in packets of {packets}", packets=action),
                "action": {"packets": action}, "reason": None, "next": None, "margin": None, "discards": []}
    if isinstance(action, Hint):
        advice = action
        return {"type": "hint", **_advice(advice.best, names, lang), "reason": advice.reason,
                "next": None if advice.next_best is None else _advice(advice.next_best, names, lang),
                "margin": advice.margin,
                "discards": [{**_advice(d.discard, names, lang), "value": d.value, "says": d.says}
                             for d in advice.discards]}
    return {"type": "hint", **_advice(action, names, lang), "reason": None, "next": None, "margin": None,
            "discards": []}


def tutor_message(warning: TutorWarning, action: ActionData, names: tuple[str, str], version: int,
                  lang: str = "en") -> TutorMessage:
    """The tutor's warning about ``action`` (as the client sent it), answering the state of ``version``."""
    return {"type": "tutor", "text": action_words(warning.choice, names, lang), "action": action,
            "loss": warning.loss, "better": _advice(warning.better, names, lang), "reason": warning.reason,
            "version": version}
