"""The server's collector (piquet.ui.web.collector): what starting made is set aside once, and what is made after
is collected as before."""

from __future__ import annotations

import gc
import weakref

from piquet.ui.web import collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_what_starting_made_is_set_aside_and_what_comes_after_is_collected_as_before() -> None:
    before = Node()
    threshold = gc.get_threshold()
    frozen = gc.get_freeze_count()
    try:
        assert collector.settle() > 0
        assert gc.get_threshold() == (collector.YOUNG, *threshold[1:])
        assert id(before) not in {id(o) for o in gc.get_objects(generation=2)}  # out of a full collection's walk
        a, b = Node(), Node()
        a.other, b.other = b, a
        young = {id(o) for o in gc.get_objects(generation=0)}
        assert id(a) in young and id(b) in young
        gone = weakref.ref(a)
        del a, b
        gc.collect(0)
        assert gone() is None
        assert isinstance(before, Node)  # set aside, not collected
    finally:
        # The collector left as the run had it: unfrozen, or (the run having set aside what its collection
        # imported, tests/conftest.py) with what settle set aside kept aside too.
        if not frozen:
            gc.unfreeze()
        gc.set_threshold(*threshold)
