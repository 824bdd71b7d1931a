"""Kniffel's reachable states (which upper subtotals each set of filled boxes allows), in plain numpy: the solver
walks them level by level and ``describe`` counts them without importing the solver's kernels."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from sim.games.kniffel import rules as R


def reachable_uppers(rp: np.record) -> np.ndarray:
    """``ok[upper_mask, up]``: can the capped upper subtotal be ``up`` with these boxes filled?"""
    return _reachable_uppers(int(rp.up_cap)).copy()


@lru_cache(maxsize=8)
def _reachable_uppers(cap: int) -> np.ndarray:
    ok = np.zeros((64, 128), dtype=bool)
    for um in range(64):
        sums = {0}
        for f in range(6):
            if (um >> f) & 1:
                sums = {s + n * (f + 1) for s in sums for n in range(6)}
        for s in sums:
            ok[um, min(cap, s)] = True
    return ok


def state_levels(rp: np.record) -> list[np.ndarray]:
    """Reachable state keys grouped by number of filled boxes (index = filled count).

    Within a level: by mask, then the Kniffel flag, then the upper subtotal. Cached per upper cap (the
    only rule they depend on): the CLI's solve asks twice. The arrays are shared: do not modify them.
    """
    return _state_levels(int(rp.up_cap))


@lru_cache(maxsize=8)
def _state_levels(cap: int) -> list[np.ndarray]:
    ok = _reachable_uppers(cap)
    masks = np.arange(1 << R.N_CAT, dtype=np.int64)
    filled = np.array([bin(m).count("1") for m in masks])
    levels = []
    for n in range(R.N_CAT + 1):
        ms = masks[filled == n]
        rows, ups = np.nonzero(ok[ms & 63])
        kn = np.flatnonzero((ms[rows] >> R.KNIFFEL) & 1)
        rows = np.concatenate((rows, rows[kn]))
        ups = np.concatenate((ups, ups[kn]))
        flags = np.concatenate((np.zeros(len(rows) - len(kn), np.int64), np.ones(len(kn), np.int64)))
        order = np.lexsort((ups, flags, rows))
        keys = (ms[rows[order]] << 8) | (ups[order] << 1) | flags[order]
        levels.append(keys.astype(np.int64))
    for lv in levels:
        lv.setflags(write=False)
    return levels
