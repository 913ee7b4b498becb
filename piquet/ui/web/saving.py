"""How a table commits a change to the store: awaited off the event loop, and refused in the protocol's words.

Every change of a table (an action, a takeback, a seat taken, a secret replaced) is saved before it is applied:
:func:`store_call` awaits the store and turns its failure into the ``not_saved`` error the player is sent, so
nothing is applied that the store did not keep.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar, cast

from piquet.ui.web.protocol import ProtocolError
from piquet.ui.web.store import AsyncStore, InThread, Store, StoreUnavailable

__all__ = ["NOT_SAVED", "awaited", "store_call"]

log = logging.getLogger("piquet.ui.web")
T = TypeVar("T")

#: What a player is told when his action could not be saved (and so was not applied).
NOT_SAVED = "the table could not be saved; try again"


async def store_call(call: Coroutine[Any, Any, T]) -> T:
    """A change of the store awaited (never on the event loop: :class:`~piquet.ui.web.store.AsyncStore`); a
    :class:`ProtocolError` ``not_saved`` if the store could not make it."""
    try:
        return await call
    except StoreUnavailable as e:
        log.warning("the store could not save: %s", e)
        raise ProtocolError("not_saved", NOT_SAVED) from None


def awaited(store: AsyncStore | Store) -> AsyncStore:
    """``store`` as the server awaits it: itself if it is an :class:`~piquet.ui.web.store.AsyncStore`, else called in
    a thread of its own (:class:`~piquet.ui.web.store.InThread`)."""
    if asyncio.iscoroutinefunction(getattr(store, "append", None)):
        return cast(AsyncStore, store)
    return InThread(cast(Store, store))
