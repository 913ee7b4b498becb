"""The review in the browser: a finished deal, or a finished partie, reviewed in the background.

A player asks for the review of a deal of his table (``POST /api/tables/{id}/reviews``); the
server takes the record up to the end of that deal, and a worker process of its own
(:class:`Reviews`, apart from the computer's thinking, :mod:`piquet.ui.web.thinking`) reviews it
with :func:`piquet.coach.review.review_partie`, telling its progress as it goes (decisions done of
the deal's decisions). The page asks for the progress, then the result (``GET
/api/tables/{id}/reviews/{review}``): the review's JSON (``piquet analyse --json``) and, decision by
decision, the hands as they were, the cards on the table, the deal's points so far, the
open-hands value of each legal card and the expected score of the deal
(:func:`review_data`).

What each one may see (``docs/security.md``): only finished deals are reviewed (a deal in
progress would show the cards still hidden). While the partie goes on, a player is shown his own
decisions only, through the fair lens (what he could know), the opponent's cards as those the
opponent went on to play, and the open-hands values only where every card of the opponent's hand was
played later in the deal (a conceded deal leaves some unseen); the opponent's decisions, the
open-hands lens and the luck, which would tell his discards, wait until the partie is over. Once
the partie is over, the review is everyone's who may download the record: both players and the
spectators.

Limits: one review at a time per table (the others wait), :data:`PER_CLIENT` unfinished reviews per
seat (or spectator secret), :data:`MAX_WAITING` in the whole server; a review asked again is the one
already made or under way (cached by table, deal, lens and the record's text, for
:data:`KEEP_SECONDS`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, cast

from piquet.coach.review import PLAY_ON, BestCache, Lens, decisions_in, replayed_steps, review_decision, review_partie
from piquet.engine import record
from piquet.engine.actions import Deal, Play
from piquet.engine.cards import Card
from piquet.engine.partie import Partie, reckoning_at_first_lead
from piquet.engine.view import PlayerView
from piquet.ui.web.errors import Reason, Said
from piquet.ui.web.thinking import _context, _start_worker

__all__ = ["KEEP_SECONDS", "MAX_WAITING", "PER_CLIENT", "REVIEW_WORKERS", "ReviewJob", "ReviewRefused", "Reviews",
           "for_viewer", "may_review", "review_data", "review_record", "to_review"]

#: Worker processes for the reviews (apart from the computer's): a deal's review takes some seconds of CPU.
REVIEW_WORKERS = 1
#: Reviews one seat (or spectator secret) may have queued or running at once.
PER_CLIENT = 2
#: Reviews queued or running in the whole server; past it a new one is refused (``busy``).
MAX_WAITING = 16
#: Seconds a finished review is kept (for the page's progress requests and as a cache).
KEEP_SECONDS = 3600.0
#: Finished reviews kept at most (the oldest forgotten first).
KEEP_REVIEWS = 64

#: The lenses of a review request (:data:`piquet.engine.record.LENSES`, as a type: a test holds them equal).
LensName = Literal["fair", "open-hands"]
T = TypeVar("T")
Status = Literal["queued", "running", "done", "failed"]

log = logging.getLogger("piquet.ui.web")


class ReviewRefused(Reason):
    """A review that cannot be given: ``status`` is the HTTP status, ``message`` says why in English, :meth:`words` in
    the asker's language."""

    def __init__(self, status: int, template: str, /, **params: Said) -> None:
        super().__init__(template, **params)
        self.status = status


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _points(view: PlayerView) -> list[int]:
    """Each player's points in the deal so far, what elder's first lead reckons among them (younger's won in the
    declarations, and a repique or pique the hand decides: public, since elder heard her answers), as the solver
    counts them."""
    points = list(view.deal_points)
    for event in reckoning_at_first_lead(view):
        points[event.player] += event.points
    return points


def review_data(partie: Partie, deal: int | None, lens: Lens,
                progress: Callable[[int, int], None] | None = None, lang: str = "en",
                names: tuple[str, str] | None = None) -> dict[str, Any]:
    """The review of ``partie``'s deal ``deal`` (``None``: every deal) through ``lens`` as the page shows it:
    ``review``, the review's JSON (:meth:`piquet.coach.review.PartieReview.to_json`); ``decisions``, each decision
    of the deal in order with ``hands`` (both players' cards at that moment), ``played_after`` (the cards each
    went on to play in the deal from there), ``trick`` (the cards on the table), ``points`` (the deal's points
    so far, younger's not yet reckoned at elder's first lead among them), and for a card among several ``open``
    (each legal card's value with open hands) and ``expected``, seat 0's expected score of the deal: the points
    so far, his less his opponent's, and the value of the position through the lens (the best card's value,
    for the player who chose); a player's playing on where he might have conceded, no action of the record, is a
    decision of his own just before elder's first card, its ``decision`` ``"concession"`` (as the annotated record
    places it, docs/record-format.md, "Annotations"); ``scores``, each deal's points at its end.
    ``progress(done, total)`` as :func:`review_partie` calls it. Its words (the explanations, the decisions) are
    in ``lang``, the players named ``names`` (by default the partie's)."""
    names = partie.players if names is None else names
    review = review_partie(partie, lens, deal=deal, progress=progress, lang=lang, names=names)
    reviewed = review.to_json()
    plays = {(p["deal"], p["action"]): p for p in cast(list[dict[str, Any]], reviewed["plays"])}
    played_on = [c for c in cast(list[dict[str, Any]], reviewed["concessions"]) if c["choice"] == PLAY_ON]
    cache: BestCache = {}
    decisions: list[dict[str, Any]] = []
    for at, action, number, index in replayed_steps(partie):
        if deal is not None and number != deal:
            continue
        views = (at.view(0), at.view(1))
        table = {"hands": [_cards(v.hand) for v in views], "trick": _cards(views[0].trick),
                 "leader": views[0].leader, "points": _points(views[0])}
        for conceder in (c for c in played_on if (c["deal"], c["action"]) == (number, index)):
            decisions.append({"deal": number, "action": index, "decision": "concession",
                              "seat": names.index(conceder["player"]), "text": conceder["text"],
                              **table, "played_after": [[], []]})
        entry: dict[str, Any] = {"deal": number, "action": index, "seat": action.player,
                                 "text": action.describe(names, lang), **table, "played_after": [[], []]}
        play = plays.get((number, index))
        if isinstance(action, Play) and play is not None and not play["forced"]:
            # With open hands, the review's own values; else each card solved with every card known (the play
            # alone: the fair review of the exchanges and declarations needs no second lens).
            entry["open"] = play["values"] if lens is Lens.OPEN else {
                str(w.card): w.value for w in review_decision(at, action.card, Lens.OPEN, broken_down=(),
                                                              cache=cache).cards}
        decisions.append(entry)
        for earlier in reversed(decisions):  # the card is one its player went on to play, from each decision before
            if earlier["deal"] != number:
                break
            if isinstance(action, Play):
                earlier["played_after"][action.player].append(str(action.card))
    for entry in decisions:
        play = plays.get((entry["deal"], entry["action"]))
        if play is None or play.get("forced") or "decision" in entry:
            continue
        # In points of the deal: the best card's line, where the review values by the partie's stakes.
        best = play["points"].get(play["best"], play["values"][play["best"]])
        points = entry["points"]
        entry["expected"] = points[0] - points[1] + (best if entry["seat"] == 0 else -best)
    scores = partie.view(0).deal_scores
    return {"review": reviewed, "decisions": decisions,
            "scores": {str(n): list(s.totals) for n, s in enumerate(scores, start=1) if deal in (None, n)}}


def may_review(partie: Partie | None, seat: int | None, lens: str) -> Partie:
    """The partie of a table whose review ``seat`` (``None``: a spectator) asks for through ``lens``, if he may ask
    for one now; else :class:`ReviewRefused` saying why: no partie begun, the open-hands lens or a spectator's review
    before the partie is over (they would show the opponent's discards, the cards still hidden)."""
    if partie is None:
        raise ReviewRefused(409, "the partie has not begun: there is no deal to review")
    if lens == "open-hands" and not partie.is_over:
        raise ReviewRefused(403, "{field}: the open-hands lens is given once the partie is over: before, it would "
                                 "show the opponent's discards", field="lens")
    if seat is None and not partie.is_over:
        raise ReviewRefused(403, "a spectator is shown the review once the partie is over")
    return partie


def for_viewer(data: dict[str, Any], seat: int | None, partie_over: bool) -> dict[str, Any]:
    """What of a review's :func:`review_data` ``seat`` (``None``: a spectator) is shown: all of it once the partie
    is over; before, his own decisions only, the opponent's cards those he went on to play, the open-hands values
    only where the opponent's whole hand was played later, no luck and no summary of the opponent's.

    Ann's view of a deal Bill conceded with the 7♥ still in his hand, the partie going on:

    >>> data = {"review": {"players": ["Ann", "Bill"], "plays": [{"player": "Ann"}, {"player": "Bill"}],
    ...                    "declarations": [], "exchanges": [], "calls": [], "not_reviewed": [], "luck": [{}],
    ...                    "summary": {"Ann": {"play": 1, "luck": 2}, "Bill": {"play": 3}}},
    ...         "decisions": [{"seat": 0, "hands": [["AS"], ["KS", "7H"]], "played_after": [["AS"], ["KS"]],
    ...                        "open": {"AS": 1.0}},
    ...                       {"seat": 1, "hands": [[], ["KS", "7H"]], "played_after": [[], ["KS"]]}]}
    >>> shown = for_viewer(data, 0, partie_over=False)
    >>> shown["review"]["plays"], shown["review"]["summary"], shown["review"]["luck"]
    ([{'player': 'Ann'}], {'Ann': {'play': 1}}, [])
    >>> shown["decisions"]
    [{'seat': 0, 'hands': [['AS'], ['KS']], 'played_after': [['AS'], ['KS']], 'hidden': 1}]
    >>> for_viewer(data, 0, partie_over=True) is data
    True
    """
    if partie_over:
        return data
    if seat is None:
        raise ReviewRefused(403, "a spectator is shown the review once the partie is over")
    review = dict(data["review"])
    mine = review["players"][seat]
    for kind in ("plays", "declarations", "exchanges", "calls", "concessions", "carte_blanche", "not_reviewed"):
        review[kind] = [entry for entry in review.get(kind, []) if entry["player"] == mine]
    review["luck"] = []
    review["summary"] = {mine: {k: v for k, v in review["summary"][mine].items() if k != "luck"}}
    other = 1 - seat
    decisions = []
    for entry in data["decisions"]:
        if entry["seat"] != seat:
            continue
        entry = dict(entry)
        hidden = [c for c in entry["hands"][other] if c not in entry["played_after"][other]]
        entry["hands"] = [list(h) for h in entry["hands"]]
        entry["hands"][other] = [c for c in entry["hands"][other] if c in entry["played_after"][other]]
        entry["hidden"] = len(hidden)
        if hidden:
            entry.pop("open", None)
        decisions.append(entry)
    return {**data, "review": review, "decisions": decisions}


def review_record(text: str, deal: int | None, lens: str, job: str, lang: str = "en",
                  names: tuple[str, str] | None = None) -> dict[str, Any]:
    """In a worker: the review of the record ``text`` (:func:`review_data`, in ``lang``), its progress sent to the
    server."""
    def progress(done: int, total: int) -> None:
        if _PROGRESS is not None:
            _PROGRESS.put((job, done, total))

    return review_data(record.loads(text), deal, Lens(lens), progress, lang, names)


#: In a review worker, where it tells the server its progress (set by the pool's initializer).
_PROGRESS: Any = None


def _start_review_worker(progress: Any) -> None:
    global _PROGRESS
    _start_worker()
    _PROGRESS = progress


@dataclass
class ReviewJob:
    """One review, queued, running or finished: of ``table``'s deal ``deal`` (``None``: the whole partie)."""

    id: str
    table: str
    deal: int | None
    lens: LensName
    key: tuple[str, int | None, str, str, str]
    text: str
    #: The language of the review's words, and the players as they are named in it.
    lang: str = "en"
    names: tuple[str, str] | None = None
    clients: set[str] = field(default_factory=set)
    status: Status = "queued"
    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    error: str = ""
    finished: float = 0.0

    def progress(self) -> dict[str, Any]:
        return {"id": self.id, "deal": self.deal, "lens": self.lens, "status": self.status, "done": self.done,
                "total": self.total, **({"error": self.error} if self.error else {})}


class Reviews:
    """The server's reviews: a pool of :data:`REVIEW_WORKERS` processes (``workers=0``: a thread of the server,
    for tests), the jobs queued, running and kept, and the limits on them."""

    def __init__(self, workers: int = REVIEW_WORKERS, clock: Callable[[], float] = time.monotonic) -> None:
        if workers < 0:
            raise ValueError(f"the reviews need at least one worker, or workers=0 for none (got {workers})")
        self.workers = workers
        self.clock = clock
        self.jobs: dict[str, ReviewJob] = {}
        self.by_key: OrderedDict[tuple[str, int | None, str, str, str], ReviewJob] = OrderedDict()
        self._table_locks: dict[str, asyncio.Lock] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._progress: Any = None
        self._reader: threading.Thread | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.closed = False

    # ------------------------------------------------------------ asking
    def request(self, table_id: str, client: str, partie: Partie, deal: int | None, lens: LensName,
                lang: str = "en", names: tuple[str, str] | None = None) -> ReviewJob:
        """Queue the review of ``partie``'s deal ``deal`` (``None``: the whole partie, once over) for ``client`` (a
        seat's or spectator's secret), its words in ``lang``, the players named ``names`` (by default the partie's);
        the review already made or under way if there is one. Raises :class:`ReviewRefused` for a deal not
        finished, a limit reached."""
        self.sweep()
        reviewed = to_review(partie, deal)
        text = record.dumps(reviewed)
        key = (table_id, deal, lens, lang, hashlib.sha256(text.encode("utf-8")).hexdigest())
        job = self.by_key.get(key)
        if job is not None and job.status != "failed":
            self.by_key.move_to_end(key)
            return job
        mine = sum(1 for j in self.jobs.values() if client in j.clients and j.status in ("queued", "running"))
        if mine >= PER_CLIENT:
            raise ReviewRefused(429, "at most {n} reviews of yours at once: wait for one to finish", n=PER_CLIENT)
        if sum(1 for j in self.jobs.values() if j.status in ("queued", "running")) >= MAX_WAITING:
            raise ReviewRefused(503, "the server is busy with other reviews: ask again shortly")
        if self.closed:
            raise ReviewRefused(503, "the server is stopping")
        job = ReviewJob(secrets.token_urlsafe(9), table_id, deal, lens, key, text, lang, names, {client})
        job.total = decisions_in(reviewed, deal)
        self.jobs[job.id] = job
        self.by_key[key] = job
        task = asyncio.get_running_loop().create_task(self._run(job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    def get(self, table_id: str, job_id: str) -> ReviewJob | None:
        """The review ``job_id`` of table ``table_id`` (``None``: no such review of this table)."""
        job = self.jobs.get(job_id)
        return job if job is not None and job.table == table_id else None

    def sweep(self) -> None:
        """Forget the reviews finished :data:`KEEP_SECONDS` ago, and the oldest past :data:`KEEP_REVIEWS`."""
        now = self.clock()
        finished = [j for j in self.by_key.values() if j.status in ("done", "failed")]
        old = [j for j in finished if now - j.finished >= KEEP_SECONDS]
        old += finished[:max(0, len(finished) - len(old) - KEEP_REVIEWS)]
        for job in old:
            self.jobs.pop(job.id, None)
            if self.by_key.get(job.key) is job:
                del self.by_key[job.key]

    # ------------------------------------------------------------ running
    async def _run(self, job: ReviewJob) -> None:
        lock = self._table_locks.setdefault(job.table, asyncio.Lock())
        async with lock:  # one review at a time per table
            job.status = "running"
            try:
                job.result = await self._review(job)
                job.status = "done"
                job.done = job.total
            except Exception as e:
                job.status = "failed"
                job.error = "the review could not be made: ask again"
                log.error("table %s: a review failed (%s)", job.table, type(e).__name__)
                log.debug("the review's traceback", exc_info=True)
            finally:
                job.finished = self.clock()
                job.text = ""
        if not lock.locked() and not any(j.table == job.table and j.status in ("queued", "running")
                                         for j in self.jobs.values()):
            self._table_locks.pop(job.table, None)

    async def _review(self, job: ReviewJob) -> dict[str, Any]:
        if self.workers == 0:
            def progress(done: int, total: int) -> None:
                job.done, job.total = done, total

            partie = record.loads(job.text)
            return await asyncio.to_thread(review_data, partie, job.deal, Lens(job.lens), progress, job.lang,
                                           job.names)
        return await self.in_worker(review_record, job.text, job.deal, job.lens, job.id, job.lang, job.names)

    async def in_worker(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in a worker process of the reviews (in a thread of the server for ``workers=0``), in turn
        with the reviews queued before it; made again once in a new pool if the worker died."""
        if self.closed:
            raise ReviewRefused(503, "the server is stopping")
        if self.workers == 0:
            return await asyncio.to_thread(call, *args)
        for attempt in (1, 2):
            pool = self._executor()
            try:
                return await asyncio.wrap_future(pool.submit(call, *args))
            except BrokenProcessPool:
                if self._pool is pool:
                    self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
                if attempt == 2 or self.closed:
                    raise
        raise AssertionError("unreachable")

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = _context()
            if self._progress is None:
                self._progress = context.Queue()
                self._reader = threading.Thread(target=self._read_progress, args=(self._progress,),
                                                name="piquet-review-progress", daemon=True)
                self._reader.start()
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_start_review_worker,
                                             initargs=(self._progress,))
        return self._pool

    def _read_progress(self, progress: multiprocessing.Queue[Any]) -> None:
        """In a thread of the server: each worker's progress, written on its job (two numbers, no lock needed)."""
        while True:
            try:
                item = progress.get()
            except (EOFError, OSError, ValueError):
                return
            if item is None:
                return
            job_id, done, total = item
            job = self.jobs.get(job_id)
            if job is not None and job.status == "running":
                job.done, job.total = done, total

    def close(self) -> None:
        """End the workers (the reviews waiting are cancelled) and the progress reader."""
        self.closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self._progress is not None:
            self._progress.put(None)
            if self._reader is not None:
                self._reader.join(5)
            self._progress.close()
            self._progress = None


def to_review(partie: Partie, deal: int | None) -> Partie:
    """What is reviewed of ``partie`` for its deal ``deal`` (``None``: the whole partie, once over): the partie taken
    back to the end of that deal; :class:`ReviewRefused` for a deal not counted from 1, not ended, or a whole
    partie not over."""
    scored = len(partie.view(0).deal_scores)
    if deal is None:
        if not partie.is_over:
            raise ReviewRefused(409, "the whole partie is reviewed once it is over: ask for one deal that has ended")
        return partie
    if deal < 1:
        raise ReviewRefused(422, "{field}: deals are counted from 1, not {deal}", field="deal", deal=deal)
    if deal > scored:
        raise ReviewRefused(409, "deal {deal} has not ended (the deals ended: {scored}): a deal in progress is not "
                                 "reviewed, it would show the cards still hidden", deal=deal, scored=scored)
    return _to_the_end_of(partie, deal)


def _to_the_end_of(partie: Partie, deal: int) -> Partie:
    """A copy of ``partie`` taken back to the end of its deal ``deal`` (before the next deal's cards)."""
    deals = [i for i, a in enumerate(partie.actions) if isinstance(a, Deal)]
    end = deals[deal] if deal < len(deals) else len(partie.actions)
    copy = partie.copy()
    while copy.ply > end:
        copy.pop()
    return copy
