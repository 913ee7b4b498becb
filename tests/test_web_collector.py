"""The server's collector (piquet.ui.web.collector): what starting made is set aside once, and what is made after
is collected as before."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from piquet.ui.web import collector


@pytest.fixture
def settled() -> Iterator[int]:
    try:
        yield collector.settle()
    finally:
        gc.unfreeze()


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_what_starting_made_is_set_aside_and_kept() -> None:
    before = Node()
    try:
        assert collector.settle() > 0
        after = Node()
        walked = {id(o) for o in gc.get_objects()}  # what a full collection walks
        assert id(before) not in walked and id(after) in walked
        assert isinstance(before, Node)  # set aside, not collected
    finally:
        gc.unfreeze()


def test_a_cycle_made_after_settling_is_still_collected(settled: int) -> None:
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    gc.collect()
    assert gone() is None
