"""The server's garbage collector, set for an event loop that must answer in milliseconds.

CPython's cyclic collector walks every container object of its generation; a full collection walks them all.
A serving process holds some 70,000 of them before its first connection (the modules, classes and functions of
the server, the engine and the computer players, imported once and kept to the end), and each full collection
walked them again, holding up every table at once: under the attacks of ``benchmarks/load.py`` (one deal, the
machine shared) a full collection took 90 to 350 ms, among the longest stalls of the event loop.

:func:`settle` collects once and moves what is left, everything made while starting, out of the collector's
sight (:func:`gc.freeze`): the objects of the tables, connections and messages made afterwards are collected as
before, and a full collection walks only them. And it lets more objects be made between two collections of the
youngest (:data:`YOUNG`, 700 by default): most of what a message makes (its text, its JSON, the view and state
built for it) is gone before the next one, where with the default a collection came every few messages and moved
whatever was still alive then to the older generations, whose collections walk more, and so to a full one sooner.
Under the attacks of ``benchmarks/load.py`` (one deal, the machine shared) the server spent 0.44 s in its
collector instead of 1.43 s, in 2 full collections instead of 5.
"""

from __future__ import annotations

import gc

__all__ = ["YOUNG", "settle"]

#: How many more objects made than freed between two collections of the youngest generation (CPython's own: 700);
#: the older generations' thresholds are CPython's (10 each).
YOUNG = 20_000


def settle() -> int:
    """Collect what starting left, keep the rest out of every later collection, and collect the youngest every
    :data:`YOUNG` objects: called once, when the server is ready to serve and before its first connection. The
    number of objects set aside."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG, older, oldest)
    return gc.get_freeze_count()
