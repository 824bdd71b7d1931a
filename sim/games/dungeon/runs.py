"""Many runs and one run of the Würfel Dungeon: the batch over ``play.play_block`` and the replay's single run.

Its own module because both policies of a run reach it here: a plain policy plays ``play.play_block`` directly, the
``rollout`` policy plays it through its driver (``rollout.rollout_block``), which itself calls ``play_block``;
putting the dispatch above both keeps ``play`` and ``rollout`` free of a cycle, and a report that plays no rollout
never compiles its driver.

The batch runs one block of strided runs per row of the profile cache, each in a thread of its own (the blocks'
kernels release the GIL): the same runs on the same cache rows as a ``prange`` over the blocks, without the
parallel kernel, whose compile optimised and emitted the whole run's code twice more (its outlined loop body and
its wrapper each link a copy).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from policies.dungeon.ids import ROLLOUT
from sim.games.dungeon import rollout as RO
from sim.games.dungeon.eventlog import LOG_W
from sim.games.dungeon.play import play_block
from sim.games.dungeon.scratch import new_scratch
from sim.games.dungeon.table import n_columns


def play_batch(pid: int, seed: int, start: int, count: int, fz, cache, tm, out: np.ndarray) -> None:
    """Runs ``start .. start + count - 1`` into the rows of ``out``: block ``t`` plays runs ``t, t + nblk, …`` on
    row ``t`` of the profile cache (each block owns its row), on numba's number of threads. ``rollout`` runs
    ``RO.rollout_run`` over its base policy."""
    nblk = min(count, cache[0].shape[0])
    if nblk <= 0:
        return
    n_all = fz.loadout.shape[0]
    ro = pid == ROLLOUT
    base = int(fz.rp[0].rollout_base) if ro else int(pid)
    k = int(fz.rp[0].rollout_k)
    nolog = np.zeros((0, LOG_W), np.int64)
    seed, start, count = int(seed), int(start), int(count)

    def block(t: int) -> None:
        sc = new_scratch(base, n_all)
        if ro:
            forced, rc = RO.new_rollout_scratch()
            RO.rollout_block(base, k, seed, start, t, count, nblk, t, fz, cache, tm, out, nolog, sc, forced, rc)
        else:
            none = np.zeros(0, np.int64)
            play_block(base, seed, start, t, count, nblk, t, fz, cache, tm, out, nolog, sc, none, none)

    workers = min(nblk, numba.get_num_threads())  # numba's thread count, as a ``prange`` would use (set_num_threads)
    if workers <= 1:
        for t in range(nblk):
            block(t)
        return
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(block, range(nblk)))  # list(): a block's exception is raised here


def run_one(pid: int, seed: int, run: int, fz, cache, tm, n_cols: int, log_rows: int = 0):
    """One run outside the batch (replay), on cache row 0: its table row and event log."""
    out = np.zeros(max(n_cols, n_columns(fz)))
    log = np.zeros((log_rows, LOG_W), np.int64)
    if pid == ROLLOUT:
        base = int(fz.rp[0].rollout_base)
        forced, rc = RO.new_rollout_scratch()
        n = RO.rollout_block(base, int(fz.rp[0].rollout_k), seed, run, 0, 1, 1, 0, fz, cache, tm, out.reshape(1, -1),
                             log, new_scratch(base, fz.loadout.shape[0]), forced, rc)
    else:
        none = np.zeros(0, np.int64)
        n = play_block(pid, seed, run, 0, 1, 1, 0, fz, cache, tm, out.reshape(1, -1), log,
                       new_scratch(pid, fz.loadout.shape[0]), none, none)
    return out, log[:n]


__all__ = ["play_batch", "run_one"]
