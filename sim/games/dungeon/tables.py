"""Per-thread cache of modifier-profile tables: the shown partitions and hold tables of a loadout.

What a loadout changes in the tables depends only on its *profile key* (attack added per combo by
Wetzstein-like upgrades and the Opferaltar, the Pasch attack multiplier, Glückssieben): shield and heal
bonuses add the same to every combo and never change which partition has the highest attack, and every
other effect acts in the fight. When a run picks up an upgrade mid-run, the kernel looks its key up here
and builds the tables (``build_profile``, jitted, ~0.1 ms) on a miss. Each thread owns one row of slots,
so threads never share a slot; a full row evicts round-robin. Tables are pure functions of the key, so a
cache never changes a result (only how often tables are rebuilt).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.dungeon.bots import N_HOLD, build_holds
from sim.games.dungeon import rules as R
from sim.games.dungeon.rows import EFF, N_EFF
from sim.jit.scalar import trunc
from sim.jit.tier import INLINE

N_SLOTS = 512
_B = R.N_COMBO + 1  # a combo id + 1 is a digit of a partition's key
K_ATT, K_PASCH, K_LUCKY = range(3)


def new_cache(threads: int, slots: int = N_SLOTS) -> tuple:
    """Empty cache for ``threads`` threads: (keys, part, pclass, hold, eatt, next-slot)."""
    keys = np.full((threads, slots, 3), np.nan)
    part = np.zeros((threads, slots, R.N_MS, 4), np.int8)
    pcl = np.zeros((threads, slots, R.N_MS), np.int16)
    hold = np.zeros((threads, slots, N_HOLD, R.N_MS), np.int16)
    eatt = np.zeros((threads, slots, R.MAX_DICE + 1, 2))
    nxt = np.zeros(threads, np.int64)
    return keys, part, pcl, hold, eatt, nxt


@njit(cache=True, error_model="numpy")
def partition_classes(part, out):
    """``out[k]``: equal shown partitions share a class id (ids in order of first appearance by key)."""
    n = part.shape[0]
    keys = np.empty(n, np.int64)
    for k in range(n):
        keys[k] = ((part[k, 0] * _B + part[k, 1] + 1) * _B + part[k, 2] + 1) * _B + part[k, 3] + 1
    order = np.argsort(keys, kind="mergesort")
    cl = -1
    prev = -1
    for i in range(n):
        k = order[i]
        if keys[k] != prev:
            cl += 1
            prev = keys[k]
        out[k] = cl


@njit(cache=True, error_model="numpy")
def build_profile(base2, coin_bonus, action_base, att, pmul, lucky, cstart, cn, cand, tm, part, pcl, hold, eatt):
    """Tables of one profile key into the given slot arrays."""
    counts, child, parent, size_start, ioc = tm
    mods = np.zeros(N_EFF)
    mods[EFF.pasch_attack_mul] = pmul
    cv = np.zeros((R.N_COMBO, 4))
    R.effective_values(base2[1 if lucky > 0 else 0], R.C_KIND, mods, att, action_base, coin_bonus, cv)
    R.best_partitions(cstart, cn, cand, cv[:, 0].copy(), cv[:, 1].copy(), cv[:, 2].copy(), cv[:, 3].copy(), part)
    partition_classes(part, pcl)
    build_holds(part, cv, counts, child, parent, size_start, ioc, hold, eatt)


@njit(cache=True, error_model="numpy", inline=INLINE)
def _home(att, pmul, lucky, ns):
    """First slot probed for a profile key (open addressing over ``ns`` slots)."""
    return (trunc(abs(att) * 1000.0 + 0.5) * 7919 + trunc(abs(pmul) * 1000.0 + 0.5) * 104729
            + trunc(lucky > 0) * 31) % ns


@njit(cache=True, error_model="numpy", inline=INLINE)
def probe(keys, t, att, pmul, lucky):
    """Slot of thread ``t`` holding the profile (att, pmul, lucky), or -1 (``keys``: the cache's first array).

    The hit path of ``lookup`` on the one array it reads, inlined where the kernel looks a key up; ``lookup``
    itself is a real call, made only on a miss (every array argument of a call, and of an inlined helper with
    branches, costs two atomic reference counts per call)."""
    ns = keys.shape[1]
    h = _home(att, pmul, lucky, ns)
    for i in range(ns):
        q = (h + i) % ns
        k0 = keys[t, q, 0]
        if np.isnan(k0):
            return -1
        if k0 == att and keys[t, q, 1] == pmul and keys[t, q, 2] == lucky:
            return q
    return -1


@njit(cache=True, error_model="numpy")
def lookup(cache, t, att, pmul, lucky, base2, coin_bonus, action_base, cstart, cn, cand, tm):
    """Slot of thread ``t`` holding the profile (att, pmul, lucky); builds it on a miss (call it after ``probe``
    missed).

    Open addressing from a hash of the key: probing stops at the first empty slot; a full row evicts
    round-robin (an evicted key is simply rebuilt when met again: tables are pure functions of the key)."""
    keys, part, pcl, hold, eatt, nxt = cache
    ns = keys.shape[1]
    h = _home(att, pmul, lucky, ns)
    s = -1
    for i in range(ns):
        q = (h + i) % ns
        k0 = keys[t, q, 0]
        if np.isnan(k0):
            s = q
            break
        if k0 == att and keys[t, q, 1] == pmul and keys[t, q, 2] == lucky:
            return q
    if s < 0:
        s = nxt[t]
        nxt[t] = (s + 1) % ns
    keys[t, s, 0] = np.nan
    build_profile(base2, coin_bonus, action_base, att, pmul, lucky, cstart, cn, cand, tm, part[t, s], pcl[t, s],
                  hold[t, s], eatt[t, s])
    keys[t, s, K_ATT] = att
    keys[t, s, K_PASCH] = pmul
    keys[t, s, K_LUCKY] = lucky
    return s
