"""Which search the solver runs: the compiled kernel (``piquet/ai/_kernel.c``) where it was built,
else the pure-Python one, with the same results (:mod:`piquet.ai.solver`).

Apart from the solver so that ``piquet --version``, which says which one is in use, loads neither the
solver nor the engine.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["KERNEL", "SOLVER", "load_kernel"]


def load_kernel() -> ModuleType | None:
    """The compiled search, unless ``PIQUET_PURE_SOLVER`` is set or it was not built (no C
    compiler where the package was installed): then the pure-Python search, with the same results."""
    if os.environ.get("PIQUET_PURE_SOLVER", "") not in ("", "0"):
        return None
    try:
        return importlib.import_module("piquet.ai._kernel")
    except ImportError:
        return None


#: The compiled kernel's module, or ``None`` for the pure-Python search.
KERNEL = load_kernel()

#: Which search solves: ``"compiled kernel"`` or ``"pure Python"`` (``piquet --version`` says it).
SOLVER = "compiled kernel" if KERNEL is not None else "pure Python"
