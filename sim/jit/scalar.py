"""Scalar helpers for the hot numba kernels: min, max and int() that compile to one instruction.

numba implements the builtins ``min``, ``max`` and ``int(float)`` as separate compiled functions that return an
error status. In a small function LLVM inlines them; in a large kernel (the Würfel Dungeon run is one inlined
function of ~150 KB) it leaves them as calls, and each such call is a possible exception exit: numba's
reference-count pruning then keeps the two atomic reference counts of every array passed to an inlined helper
around it. These helpers have the builtins' results (``smax(a, b)`` is ``a`` unless ``b > a``, as ``max``;
``trunc`` rounds toward zero, as ``int``) and never raise.
"""

from __future__ import annotations

import numpy as np

from sim.jit.plain import njit


@njit(cache=True, inline="always")
def smax(a, b):
    """``max(a, b)``."""
    return b if b > a else a


@njit(cache=True, inline="always")
def smin(a, b):
    """``min(a, b)``."""
    return b if b < a else a


@njit(cache=True, inline="always")
def trunc(x):
    """``int(x)``: toward zero, as an int64."""
    return np.int64(x)
