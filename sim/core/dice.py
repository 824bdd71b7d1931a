"""Dice as multisets: the indexed tables every game's kernels look up.

All multisets of 0..``n`` six-sided dice are enumerated once (``n = 5``: 462, of which 252 are
full rolls; ``n = 6``: 924 and 462). A multiset is a count vector ``c[0..5]`` (how many 1s..6s);
``code = sum(c[f] * 7**f)`` maps it to its index through ``index_of_code``. ``child[k, f]`` is ``k``
plus one die showing ``f + 1`` and ``parent[k, f]`` is ``k`` minus one such die (``-1`` where
impossible), which turns "expected value over the rerolled dice" and "best sub-keep" into short
recursions instead of 6^n enumerations.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from math import factorial
from typing import NamedTuple

import numpy as np

from sim.jit.plain import njit

POW7 = np.array([7**f for f in range(6)], dtype=np.int64)


class MultisetTables(NamedTuple):
    """Index tables of all dice multisets of size 0..n (see module docstring)."""

    n: int
    counts: np.ndarray  # int64 [M, 6]
    size: np.ndarray  # int64 [M]
    code: np.ndarray  # int64 [M]
    index_of_code: np.ndarray  # int64 [7**6], -1 where no multiset of size <= n
    child: np.ndarray  # int64 [M, 6]
    parent: np.ndarray  # int64 [M, 6]
    rolls: np.ndarray  # int64 [R]: indices of the full (size n) multisets
    roll_of: np.ndarray  # int64 [M]: position in ``rolls`` or -1
    prob: np.ndarray  # float64 [M]: probability of this multiset when rolling size(k) dice
    size_start: np.ndarray  # int64 [n + 2]: multisets of size s are size_start[s]:size_start[s+1]


@cache
def multisets(n: int) -> MultisetTables:
    """All multisets of 0..n dice, ordered by size then lexicographically by counts."""
    vecs = [c for c in product(range(n + 1), repeat=6) if sum(c) <= n]
    vecs.sort(key=lambda c: (sum(c), tuple(reversed(c))))
    counts = np.array(vecs, dtype=np.int64)
    size = counts.sum(axis=1)
    code = counts @ POW7
    index_of_code = np.full(7**6, -1, dtype=np.int64)
    index_of_code[code] = np.arange(len(vecs))
    child = np.full((len(vecs), 6), -1, dtype=np.int64)
    parent = np.full((len(vecs), 6), -1, dtype=np.int64)
    for k in range(len(vecs)):
        for f in range(6):
            if size[k] < n:
                child[k, f] = index_of_code[code[k] + POW7[f]]
            if counts[k, f] > 0:
                parent[k, f] = index_of_code[code[k] - POW7[f]]
    rolls = np.flatnonzero(size == n)
    roll_of = np.full(len(vecs), -1, dtype=np.int64)
    roll_of[rolls] = np.arange(len(rolls))
    prob = np.array(
        [
            factorial(int(s)) / np.prod([factorial(int(x)) for x in c]) / 6 ** int(s)
            for c, s in zip(counts, size, strict=False)
        ]
    )
    size_start = np.searchsorted(size, np.arange(n + 2)).astype(np.int64)
    return MultisetTables(n, counts, size, code, index_of_code, child, parent, rolls, roll_of, prob, size_start)


def index_of_dice(tables: MultisetTables, dice) -> int:
    """Index of the multiset holding these faces (1..6)."""
    c = np.bincount(np.asarray(dice, dtype=np.int64) - 1, minlength=6)
    return int(tables.index_of_code[int(c @ POW7)])


def dice_of(tables: MultisetTables, k: int) -> list[int]:
    """The sorted faces of multiset ``k``."""
    return [f + 1 for f in range(6) for _ in range(int(tables.counts[k, f]))]


@njit(cache=True, inline="always")
def code_of_faces(dice: np.ndarray, m: int) -> int:
    """Multiset code of the first ``m`` faces of ``dice`` (faces 1..6)."""
    c = 0
    for i in range(m):
        c += POW7[dice[i] - 1]
    return c


@njit(cache=True)
def expect_over_rerolls(value_full: np.ndarray, child: np.ndarray, size_start: np.ndarray, out: np.ndarray) -> None:
    """``out[k]`` = expected ``value_full`` after rolling the missing dice of keep ``k``.

    ``value_full`` is indexed by multiset (only full multisets are read). Exact: adding the
    rerolled dice one at a time gives the same distribution as rolling them together.
    """
    n = size_start.shape[0] - 2
    for k in range(size_start[n], size_start[n + 1]):
        out[k] = value_full[k]
    for s in range(n - 1, -1, -1):
        for k in range(size_start[s], size_start[s + 1]):
            acc = 0.0
            for f in range(6):
                acc += out[child[k, f]]
            out[k] = acc / 6.0


@njit(cache=True)
def best_subkeep(
    keep_value: np.ndarray, parent: np.ndarray, size_start: np.ndarray, best: np.ndarray, arg: np.ndarray
) -> None:
    """``best[k]`` = max of ``keep_value`` over all sub-multisets of ``k``; ``arg[k]`` = which one.

    Ties keep the larger sub-multiset (fewer dice rerolled), then the one found first.
    """
    n = size_start.shape[0] - 2
    for s in range(0, n + 1):
        for k in range(size_start[s], size_start[s + 1]):
            b = keep_value[k]
            a = k
            for f in range(6):
                p = parent[k, f]
                if p >= 0 and best[p] > b:
                    b = best[p]
                    a = arg[p]
            best[k] = b
            arg[k] = a


@njit(cache=True)
def best_subkeep_value(keep_value: np.ndarray, parent: np.ndarray, size_start: np.ndarray, best: np.ndarray) -> None:
    """``best_subkeep`` without the argmax (the solver's hot path)."""
    n = size_start.shape[0] - 2
    for s in range(0, n + 1):
        for k in range(size_start[s], size_start[s + 1]):
            b = keep_value[k]
            for f in range(6):
                p = parent[k, f]
                if p >= 0:
                    b = max(b, best[p])
            best[k] = b
