# The compiled kernel of piquet.ai.solver (piquet/ai/_kernel.c), optional: built where a C compiler is.
from collections.abc import Callable, Sequence

class Model:
    def __init__(self, tricks: Sequence[tuple[int, Sequence[tuple[int, int]]]], cards: Sequence[int],
                 utility: tuple[int, int], threshold: int, pique_points: int, may_pique: tuple[bool, bool],
                 split: Sequence[int], canonical: bool, early: int, /) -> None: ...
    def score(self, leader: int, last: int, lead: int, follow: int, seventh: bool, pique: tuple[int, int] | None,
              /) -> tuple[int, int, tuple[int, int] | None]: ...

class Search:
    nodes: int
    def __init__(self, model: Model, check: Callable[[], object] | None = None, /) -> None: ...
    def value(self, h0: int, h1: int, leader: int, won0: int, pk: tuple[int, int] | None,
              alpha: int, beta: int, /) -> int: ...
    def lead_value(self, h0: int, h1: int, leader: int, won0: int, pk: tuple[int, int] | None, lead: int,
                   alpha: int, beta: int, /) -> int: ...
