"""What a connection at a table says and is answered, whatever carries it: the server's WebSocket
(:mod:`piquet.ui.web.app`) or the browser's worker (:mod:`piquet.ui.web.offline`, ``docs/offline.md``).

One home for the table's side of ``docs/protocol.md`` beyond the table itself: :func:`handle` answers a client's
message, :func:`setup_answer` says what a table may be made of (``GET /api/setup``). Neither needs a web framework.
"""

from __future__ import annotations

import json
import logging
from typing import assert_never

from piquet.ai.levels import LEVEL_NAMES
from piquet.coach import hints
from piquet.engine.language import words_in
from piquet.engine.variants import VARIANTS
from piquet.ui.web.api_types import BudgetSetup, LevelSetup, SetupAnswer, VariantSetup
from piquet.ui.web.budgets import DEFAULT_BUDGET, LEVELS, MIN_BUDGET
from piquet.ui.web.clients import Client
from piquet.ui.web.events import event
from piquet.ui.web.protocol import ProtocolError, ServerMessage, read_message
from piquet.ui.web.tables import Table

__all__ = ["handle", "message_text", "setup_answer"]

log = logging.getLogger("piquet.ui.web")


def message_text(data: ServerMessage) -> str:
    """A server's message as the JSON text a client is sent."""
    return json.dumps(data, separators=(",", ":"))


def setup_answer(max_budget: float, lang: str = "en", public_rooms: bool = False) -> SetupAnswer:
    """The variants, their rule options, the computer's levels and the thinking time a table may give it, on a
    server whose cap on that time is ``max_budget`` (0: none); the variants' titles, the options' names and
    descriptions and the levels' names in ``lang``; whether the server lists ``public_rooms`` in its lobby."""
    words = words_in(lang)
    variants: list[VariantSetup] = []
    for name, cls in VARIANTS.items():
        rules = cls()
        variants.append({
            "name": name, "title": words(cls.title),
            "options": [{"name": o.name, "label": words(o.name.replace("_", " ").capitalize()),
                         "default": o.default, "description": words(o.description),
                         "source": o.source, "minimum": o.minimum, "maximum": o.maximum} for o in rules.OPTIONS],
        })
    levels: list[LevelSetup] = [{"level": n, "name": words(LEVEL_NAMES[n])} for n in LEVELS]
    budget: BudgetSetup = {"default": min(DEFAULT_BUDGET, max_budget) if max_budget > 0 else DEFAULT_BUDGET,
                           "minimum": MIN_BUDGET, "maximum": max_budget if max_budget > 0 else None}
    return {"variants": variants, "levels": levels, "budget": budget, "tutor": hints.TUTOR_THRESHOLD,
            "public_rooms": public_rooms}


async def handle(table: Table, client: Client, text: str | bytes) -> None:
    """Answer one message of ``client`` at ``table``: apply it, or post the client the error that says why not (and,
    for a ``stale`` one, the table's state now). A fault of the table's own is logged and answered ``internal``."""
    if client not in table.clients:  # its seat moved to another device, or its invite was spent: it is closing
        return
    try:
        message = read_message(text)
        if message["type"] == "action":
            warning = await table.act(client.seat, message["action"], message["version"],
                                      message.get("confirm", False), client.lang, client.address)
            if warning is not None:
                client.post(message_text(warning))
        elif message["type"] == "hint":
            client.post(message_text(await table.hint(client.seat, client.lang, client.address)))
        elif message["type"] == "undo":
            await table.undo(client.seat, message["version"], message.get("declare_best", False))
        elif message["type"] == "move":
            client.post(message_text(await table.move_link(client.seat)))
        elif message["type"] == "say":
            await table.say(client.seat, message["phrase"])
        elif message["type"] == "join":
            await table.join(client.seat, message["name"], client)
        else:
            assert_never(message)
    except ProtocolError as e:
        client.post(message_text(e.to_data(client.lang)))
        if e.code == "stale":  # the client answered an old state: here is the table's now
            table.post_state(client)
    except Exception as error:  # a fault of the server's: the client is told no more, the log has the details
        log.error("table %s: a message could not be handled (%s)", table.id, type(error).__name__)
        event("error", table.id, seat=client.seat, severity=logging.ERROR, error=type(error).__name__)
        log.debug("the message's traceback", exc_info=True)
        client.post(message_text(ProtocolError("internal", "the server could not handle that message")
                                 .to_data(client.lang)))
