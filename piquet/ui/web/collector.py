"""The server's garbage collector, set for an event loop that must answer in milliseconds.

CPython's cyclic collector walks every container object of its generation; a full collection walks them all.
A serving process holds some 70,000 of them before its first connection (the modules, classes and functions of
the server, the engine and the computer players, imported once and kept to the end), and each full collection
walked them again, holding up every table at once: under the attacks of ``benchmarks/load.py`` the full
collections took tens of milliseconds each on an idle machine, among the longest stalls of the event loop.

:func:`settle` collects once and moves what is left, everything made while starting, out of the collector's
sight (:func:`gc.freeze`): the objects of the tables, connections and messages made afterwards are collected as
before, and a full collection walks only them.
"""

from __future__ import annotations

import gc

__all__ = ["settle"]


def settle() -> int:
    """Collect what starting left, and keep the rest out of every later collection: called once, when the server
    is ready to serve and before its first connection. The number of objects set aside."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
