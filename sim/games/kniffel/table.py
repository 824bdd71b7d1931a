"""Kniffel's solved table on disk (``sim.core.cache``): keyed by the rules and the solver's code version.

Kept out of ``solve.py`` so that the solver's compiled kernels do not depend on the cache code.
"""

from __future__ import annotations

import time

import numpy as np

from sim.core.cache import load_table, save_table, table_path
from sim.games.kniffel.solve import solve
from sim.jit.codehash import code_version
from sim.jit.progress import compile_seconds


def solved_table(rp: np.record, cfg_hash: str, use_cache: bool = True) -> tuple[np.ndarray, float, bool]:
    """The table for these rules, from the disk cache when present. Returns (E, seconds, cached).

    ``use_cache=False`` solves afresh (and replaces the cached table); ``seconds`` excludes numba compiling.
    """
    path = table_path("kniffel", "optimal", cfg_hash, code_version("sim.games.kniffel.solve"))
    stored = load_table(path) if use_cache else None
    if stored is not None:
        return stored["E"], 0.0, True
    with compile_seconds() as compiling:
        t0 = time.perf_counter()
        E = solve(rp)
        secs = time.perf_counter() - t0 - compiling()
    save_table(path, {"E": E.astype(np.float64)})
    return E, secs, False
