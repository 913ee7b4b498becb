"""Why the server refuses, said in the language of the client it answers: the errors of the browser table
(``docs/protocol.md``, ``error``: :class:`ProtocolError`) and the reasons of its HTTP API's refusals (``detail``).

A reason (:class:`Reason`) is an English :meth:`str.format` template, the catalogues' key, looked up in the
language's catalogue (:mod:`piquet.engine.language`) as the engine's refusals are, with the values it names: a value
a client sent is quoted back as it was sent. An error's ``code`` is its stable key, the same in every language, for a
page or a program to act on; its ``message`` is for people. This module needs nothing but the engine's languages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, TypedDict

from piquet.engine.language import words_in

__all__ = ["ErrorCode", "ErrorMessage", "OpenRefused", "ProtocolError", "Reason", "Refusal", "Said", "said_in"]

#: Why the server would not act on a message (:class:`ProtocolError`).
ErrorCode = Literal["malformed", "too_large", "not_your_turn", "illegal", "not_allowed", "stale", "busy",
                    "computer_failed", "not_saved", "internal"]


class ErrorMessage(TypedDict):
    type: Literal["error"]
    code: ErrorCode
    message: str


#: A value a :class:`Reason`'s template names: one the same in every language (a value a client sent, quoted
#: back as it was sent; a number; a player's name as the connection is told it), or words, said by a function in the
#: language it is given (the phase, the engine's refusal).
Said = str | int | Callable[[str], str]


def said_in(english: str) -> Callable[[str], str]:
    """A word or phrase a reason names ("nobody", "one address"), said in the asker's language: ``english`` is its
    key in the catalogue."""
    return lambda lang: words_in(lang)(english)


class Reason(Exception):
    """Why the server refuses something, said in each language: ``template`` is its English :meth:`str.format`
    template (the catalogues' key, as the engine's refusals have theirs), ``params`` the values it names; said in
    English by ``str()``, in another language by :meth:`words`.

    >>> refused = Reason("{field}: deals are counted from 1, not {deal}", field="deal", deal=0)
    >>> str(refused), refused.words("fr")
    ('deal: deals are counted from 1, not 0', 'deal : les donnes se comptent à partir de 1, pas 0')
    """

    def __init__(self, template: str, /, **params: Said) -> None:
        self.template = template
        self.params = params
        super().__init__(self.words())

    @property
    def message(self) -> str:
        """Why, in English (the code's own words)."""
        return self.words("en")

    def words(self, lang: str = "en") -> str:
        """Why, in ``lang``."""
        said = {key: value(lang) if callable(value) else value for key, value in self.params.items()}
        return words_in(lang)(self.template, **said)


class Refusal(Reason, ValueError):
    """A request the server refuses for what it asks (a table of an unknown variant, a rematch before the end):
    the answer says why in the asker's language."""


class ProtocolError(Reason, ValueError):
    """A message the server will not act on: ``code`` is one of ``malformed``, ``too_large``,
    ``not_your_turn``, ``illegal``, ``not_allowed``, ``stale`` (it answers a state that is no longer the
    table's), ``busy``, ``computer_failed``, ``not_saved``, ``internal``; the message says why (a :class:`Reason`),
    in the language of the client it is sent to. Nothing changed.

    >>> refused = ProtocolError("stale", "this answers the state of version {version}, but the table is at "
    ...                                  "version {now}: the current state follows", version=3, now=5)
    >>> refused.message
    'this answers the state of version 3, but the table is at version 5: the current state follows'
    >>> refused.to_data("fr")["message"]
    "ceci répond à l'état de la version 3, mais la table en est à la version 5 : voici l'état actuel"
    """

    def __init__(self, code: ErrorCode, template: str, /, **params: Said) -> None:
        self.code = code
        super().__init__(template, **params)
        self.args = (f"{code}: {self.message}",)

    def to_data(self, lang: str = "en") -> ErrorMessage:
        """The ``error`` message, its words in ``lang`` (the language of the client it is sent to)."""
        return {"type": "error", "code": self.code, "message": self.words(lang)}


class OpenRefused(Reason):
    """Too many tables read from the store for one address (or its network) lately: try again in ``retry_after``
    seconds."""

    def __init__(self, retry_after: float, template: str, /, **params: Said) -> None:
        super().__init__(template, **params)
        self.retry_after = retry_after
