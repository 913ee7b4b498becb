"""A record file opened in the browser, replayed and reviewed (``docs/playing.md``, "A record file").

A player opens a record (``docs/record-format.md``: a file ``piquet replay`` reads, downloaded from a table, written by
``piquet play --record``, or sent by anyone) on the review page, from a file picker or by dropping it on the page. The
page sends its text to the server (``POST /api/records/reviews``), which reads it with the engine's reader
(:func:`piquet.engine.record.loads`) and has it reviewed by the same workers, with the same limits, as a table's
deal (:class:`piquet.ui.web.reviews.Reviews`); the offline site's worker does the same in the browser
(:meth:`piquet.ui.web.offline.Host.review_record`). No table is made and nothing is stored: the review is kept a
while as any other, under the record's digest.

Whoever holds a record sees every card of it, so its review is shown whole (both hands, the open-hands lens, the
luck), as a finished table's is. A record that is not one is refused with where and why (:func:`refusal`), and
changes nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from piquet.coach.review import Lens
from piquet.engine import record
from piquet.engine.partie import Partie
from piquet.engine.record import LENSES
from piquet.engine.record_actions import RecordError
from piquet.ui.web.reviews import ReviewRefused, Reviews, review_data, to_review

__all__ = ["MAX_RECORD_BYTES", "MAX_RECORD_REVIEWS", "RecordRefused", "check_room", "deals_ended", "read_record",
           "record_key", "refusal", "review_of_record"]

#: The largest record read, in bytes of its text: a partie of eight deals is about 15 KB, 60 KB with its review's
#: annotations (``piquet analyse -o``); a file larger than this is no record of ours.
MAX_RECORD_BYTES = 512 * 1024

#: Reviews of records queued or running at once in the whole server, of the reviews'
#: :data:`~piquet.ui.web.reviews.MAX_WAITING`: anyone may send a record, so records never take every place from the
#: tables' players.
MAX_RECORD_REVIEWS = 4


class RecordRefused(ReviewRefused):
    """A record that cannot be read: ``where`` it goes wrong (``"deal 2, action 5"``, ``"line 3, column 9"``) and
    ``why`` (the engine's reason), and where known the deal and action (counted from 1 and 0, as in the file)."""

    def __init__(self, error: RecordError) -> None:
        super().__init__(422, "not a record this game can read: {error}", error=str(error))
        self.where = error.where
        self.why = error.reason
        self.deal = error.deal
        self.action = error.action


def refusal(refused: ReviewRefused, lang: str = "en") -> dict[str, Any]:
    """The JSON of a refusal: ``detail`` (a sentence in ``lang``) and for a record that cannot be read ``where`` and
    ``why``, apart, for the page to say in its own language.

    >>> refusal(RecordRefused(RecordError("deal 2", "a deal is an object", 2)))["where"]
    'deal 2'
    """
    answer: dict[str, Any] = {"detail": refused.words(lang)}
    if isinstance(refused, RecordRefused):
        answer.update(where=refused.where, why=refused.why, deal=refused.deal, action=refused.action)
    return answer


def read_record(text: str | bytes) -> Partie:
    """The partie of the record ``text`` (its bytes UTF-8), replayed by the engine's reader; :class:`RecordRefused`
    naming where and why for a file that is not one, :class:`ReviewRefused` (413) for one too large to be one."""
    size = len(text if isinstance(text, bytes) else text.encode("utf-8"))
    if size > MAX_RECORD_BYTES:
        raise ReviewRefused(413, "{field}: {size} bytes is more than a record of Piquet holds (at most {most} bytes)",
                            field="record", size=size, most=MAX_RECORD_BYTES)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordRefused(RecordError(f"byte {e.start}", "not text: a record is UTF-8 JSON")) from None
    try:
        return record.loads(text)
    except RecordError as e:
        raise RecordRefused(e) from None


def record_key(partie: Partie) -> str:
    """What a record's reviews are kept under (in place of a table's id): the digest of the partie as the engine writes
    it, so the same partie sent twice, however its file was spaced, is reviewed once."""
    return "record:" + hashlib.sha256(record.dumps(partie).encode("utf-8")).hexdigest()[:24]


def check_room(reviews: Reviews, key: str) -> None:
    """:class:`ReviewRefused` (503) if :data:`MAX_RECORD_REVIEWS` reviews of records are queued or running and none of
    them is of the record ``key`` (:func:`record_key`; a review of it made or under way is given again)."""
    waiting = [j for j in reviews.jobs.values() if j.table.startswith("record:") and j.status in ("queued", "running")]
    if len(waiting) >= MAX_RECORD_REVIEWS and all(j.table != key for j in waiting):
        raise ReviewRefused(503, "the server is reviewing {n} records already: send yours again shortly",
                            n=len(waiting))


def deals_ended(partie: Partie) -> int:
    """The deals of ``partie`` that have ended (those a review may be asked of)."""
    return len(partie.view(0).deal_scores)


def review_of_record(text: str, deal: int | None, lens: str, lang: str = "en",
                     progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """In one go (the offline site's worker): the review of the record ``text``'s deal ``deal`` (``None``: the whole
    partie, once over) through ``lens``, in ``lang`` (:func:`piquet.ui.web.reviews.review_data`), with the
    partie's players and its deals ended (``players``, ``deals``); :class:`ReviewRefused` as the server refuses."""
    partie = read_record(text)
    if lens not in LENSES:
        raise ReviewRefused(422, "{field}: {lens} is not a lens ({lenses})", field="lens", lens=repr(lens[:20]),
                            lenses=", ".join(LENSES))
    reviewed = to_review(partie, deal)
    return {"players": list(partie.players), "deals": deals_ended(partie),
            "result": review_data(reviewed, deal, Lens(lens), progress, lang)}
