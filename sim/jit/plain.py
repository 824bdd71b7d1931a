"""``njit`` for the rule functions that commands read tables from without playing: plain Python where asked.

``dicesim describe`` and ``dicesim combos`` compute a few rule tables and exit; importing numba (~0.2 s) and
setting up its compiler (~0.3 s on the first compiled or cached function) would be most of their wait (issue 30:
≤ 0.5 s). Inside :func:`plain_rules` the rule modules' ``njit`` hands back the function itself, numba is never
imported, and the rules run as the Python they are written in (the same source the kernels compile:
``tests/test_plain_tables.py`` compares the tables both ways). Everywhere else ``njit`` is numba's, with the same
arguments.

Only the modules a table command reads use this ``njit`` (the rules and their helpers); kernel modules import
numba's own, and a plain block must not import one.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

_PLAIN = False
_PROJECT = ("sim.", "policies.")


@contextmanager
def plain_rules() -> Iterator[bool]:
    """Rule modules imported inside stay plain Python (yields True), unless numba is loaded already (the rules
    imported so far are compiled ones, and mixing the two would break the kernels: yields False, nothing changes).
    On leaving, the project modules imported inside are forgotten again (``sys.modules`` and their package's
    attribute), so a kernel imported later in the same process gets them compiled."""
    global _PLAIN
    if _PLAIN or "numba" in sys.modules:
        yield _PLAIN
        return
    before = set(sys.modules)
    _PLAIN = True
    try:
        yield True
    finally:
        _PLAIN = False
        for name in sorted(set(sys.modules) - before, reverse=True):
            if not name.startswith(_PROJECT):
                continue
            mod = sys.modules.pop(name)
            parent, _, child = name.rpartition(".")
            if getattr(sys.modules.get(parent), child, None) is mod:
                delattr(sys.modules[parent], child)


def njit(*args: Any, **kwargs: Any) -> Any:
    """numba's ``njit`` (``@njit``, ``@njit(cache=True, …)``, ``@njit("signature", …)``), or inside
    :func:`plain_rules` the function unchanged."""
    if _PLAIN:
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]

        def keep(fn: Callable) -> Callable:
            return fn

        return keep
    from numba import njit as numba_njit

    return numba_njit(*args, **kwargs)
