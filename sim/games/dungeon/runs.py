"""Many runs and one run of the Würfel Dungeon: the batch kernel over ``play.play_run`` and the replay's single run.

Its own module because both policies of a run reach it here: a plain policy plays ``play.play_run`` directly, the
``rollout`` policy plays it through its driver (``rollout.rollout_run``), which itself calls ``play_run``; putting
the dispatch above both keeps ``play`` and ``rollout`` free of a cycle.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from policies.dungeon.ids import ROLLOUT
from sim.games.dungeon import rollout as RO
from sim.games.dungeon.eventlog import LOG_W
from sim.games.dungeon.play import play_run
from sim.games.dungeon.rollctl import MAX_DECISIONS, RC_SIZE
from sim.games.dungeon.scratch import new_scratch
from sim.games.dungeon.table import n_columns
from sim.jit.scalar import smin, trunc


@njit(cache=True, parallel=True, error_model="numpy")
def play_batch(pid, seed, start, count, fz, cache, tm, out):
    """Runs ``start .. start + count - 1`` into the rows of ``out``: one block of strided runs per cache row
    (each block owns its row of the profile cache). ``rollout`` runs ``RO.rollout_run`` over its base policy."""
    nblk = smin(count, cache[0].shape[0])
    n_all = fz.loadout.shape[0]
    ro = pid == ROLLOUT
    base = trunc(fz.rp[0].rollout_base) if ro else pid
    k = trunc(fz.rp[0].rollout_k)
    for b in prange(nblk):
        t = np.int64(b)  # prange counts in uint64: one signature of play_run (replay passes int64) = one compile
        nolog = np.zeros((0, LOG_W), np.int64)
        sc = new_scratch(base, n_all)
        forced = np.zeros(MAX_DECISIONS if ro else 0, np.int64)
        rc = np.zeros(RC_SIZE if ro else 0, np.int64)
        for i in range(t, count, nblk):
            if ro:
                RO.rollout_run(base, k, seed, start + i, fz, cache, t, tm, out[i], nolog, sc, forced, rc)
            else:
                play_run(base, seed, start + i, fz, cache, t, tm, out[i], nolog, sc, forced, rc)


def run_one(pid: int, seed: int, run: int, fz, cache, tm, n_cols: int, log_rows: int = 0):
    """One run outside the batch (replay), on cache row 0: its table row and event log."""
    out = np.zeros(max(n_cols, n_columns(fz)))
    log = np.zeros((log_rows, LOG_W), np.int64)
    if pid == ROLLOUT:
        base = int(fz.rp[0].rollout_base)
        forced, rc = RO.new_rollout_scratch()
        n = RO.rollout_run(base, int(fz.rp[0].rollout_k), seed, run, fz, cache, 0, tm, out, log,
                           new_scratch(base, fz.loadout.shape[0]), forced, rc)
    else:
        n = play_run(pid, seed, run, fz, cache, 0, tm, out, log, new_scratch(pid, fz.loadout.shape[0]),
                     np.zeros(0, np.int64), np.zeros(0, np.int64))
    return out, log[:n]


__all__ = ["play_batch", "run_one"]
