"""The Vorschlag rating of a turn and the assignment search every policy but random builds on.

``rate(fs, dmg, sh, he)`` scores a turn's outcome on the fight-state vector (``words.FS_*``); ``best_assignment``
tries every role for the shown combos, a Full House split, and a Vierling or larger that the shown partition splits
rejoined (the seed's "Vereinen"); ``leaf_value`` is the rating of a multiset's best
assignment, the leaf of expectimax's search. The rating weights ``W_*`` are part of the rating's definition.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.dungeon import rules as R
from sim.games.dungeon.words import FS_ATT_MUL, FS_EBLOCK, FS_EHP, FS_EPOISON, FS_INCOMING, FS_LP, FS_MAXLP, FS_SHIELD
from sim.jit.scalar import smax, smin
from sim.jit.tier import INLINE

# Vorschlag rating weights
W_KILL = 1000.0
W_LP0 = 0.8
W_LP1 = 1.2


@njit(cache=True, error_model="numpy", inline=INLINE)
def rate(fs, dmg, sh, he):
    """Vorschlag rating of a turn that deals ``dmg``, adds ``sh`` shield and heals ``he``."""
    ehp = fs[FS_EHP]
    eblock = fs[FS_EBLOCK]
    lp = fs[FS_LP]
    maxlp = fs[FS_MAXLP]
    lp1 = smin(maxlp, lp + he)
    hpd = smax(0.0, dmg - eblock)
    w = W_LP0 + W_LP1 * (1.0 - lp / maxlp)
    if dmg >= ehp + eblock or ehp - hpd - fs[FS_EPOISON] <= 0:
        return W_KILL + w * (lp1 - lp)
    loss = smax(0.0, fs[FS_INCOMING] - fs[FS_SHIELD] - sh)
    lp2 = lp1 - loss
    if lp2 <= 0:
        return -W_KILL + lp2
    return hpd + w * (lp2 - lp)


@njit(cache=True, error_model="numpy", inline=INLINE)
def _expand(ids, n, split, lst):
    """The combo list with the Full House at position ``split`` split into Drilling + Pasch."""
    m = 0
    for j in range(n):
        c = ids[j]
        if j == split:
            lst[m] = R.C_SPLIT[c, 0]
            lst[m + 1] = R.C_SPLIT[c, 1]
            m += 2
        else:
            lst[m] = c
            m += 1
    return m


@njit(cache=True, error_model="numpy", inline=INLINE)
def _rejoin(ids, n, lst):
    """The combo list with the n-of-a-kind combos of one face rejoined into one Vierling or larger ("Vereinen
    macht es rückgängig": the shown partition split it because the parts bring more attack, e.g. two Pasch with
    Paschmeister), or 0 when no face has two of them."""
    for j in range(n):
        w = R.C_FA[ids[j]]
        if R.C_OAK[ids[j]] == 0:
            continue
        dice = 0
        parts = 0
        for q in range(n):
            if R.C_OAK[ids[q]] > 0 and R.C_FA[ids[q]] == w:
                dice += R.C_OAK[ids[q]]
                parts += 1
        if parts < 2 or dice < 4:
            continue
        lst[0] = R.OAK_ID[dice, w]
        m = 1
        for q in range(n):
            if not (R.C_OAK[ids[q]] > 0 and R.C_FA[ids[q]] == w):
                lst[m] = ids[q]
                m += 1
        return m
    return 0

# ``best_assignment``'s modes, int64 (a literal would compile it once per mode where it is called, not inlined)
RATING, SURVIVAL = np.int64(0), np.int64(1)


@njit(cache=True, error_model="numpy", inline=INLINE)
def best_assignment(fs, ids, n, cv, out_ids, out_roles, mode, work):
    """Best roles for the shown combos (optionally one Full House split, or a split Vierling or larger rejoined:
    "Vereinen", where the whole is worth more on shield or heal); returns (m, value).

    ``mode`` ``RATING`` (0): the Vorschlag rating; ``SURVIVAL`` (1): greedy's survival rule (survive first, then
    most damage).
    ``work``: int64 scratch of 8.
    """
    if n == 0:
        return 0, (rate(fs, 0.0, 0.0, 0.0) if mode == 0 else 0.0)
    lst = work[:4]
    roles = work[4:8]
    best = -1e18
    bm = 0
    mul = fs[FS_ATT_MUL]
    for split in range(-1, n + 1):
        if split == n:  # Vereinen: the whole of a split Vierling or larger
            m = _rejoin(ids, n, lst)
            if m == 0:
                continue
        elif split >= 0 and R.C_KIND[ids[split]] != R.FULL_HOUSE:
            continue
        else:
            m = _expand(ids, n, split, lst)
        total = 1
        for _ in range(m):
            total *= 3
        for code in range(total):
            x = code
            dmg = 0.0
            sh = 0.0
            he = 0.0
            for j in range(m):
                r = x % 3 + 1
                x //= 3
                roles[j] = r
                c = lst[j]
                if r == R.ATTACK:
                    dmg += R.player_attack(cv[c, 0], mul, 1.0, 1.0)
                elif r == R.SHIELD:
                    sh += cv[c, 1]
                else:
                    he += cv[c, 2]
            if mode == 0:
                v = rate(fs, dmg, sh, he)
            else:
                loss = smax(0.0, fs[FS_INCOMING] - fs[FS_SHIELD] - sh)
                alive = smin(fs[FS_MAXLP], fs[FS_LP] + he) - loss > 0 or dmg >= fs[FS_EHP] + fs[FS_EBLOCK]
                v = dmg + (1e6 if alive else 0.0)
            if v > best:
                best = v
                bm = m
                for j in range(m):
                    out_ids[j] = lst[j]
                    out_roles[j] = roles[j]
    return bm, best


@njit(cache=True, error_model="numpy", inline=INLINE)
def leaf_value(fs, k, part, cv, work):
    """Vorschlag rating of the best assignment of multiset ``k``'s shown combos (``work``: int64[16])."""
    if part[k, 0] == 0:
        return rate(fs, 0.0, 0.0, 0.0)
    return best_assignment(fs, part[k, 1:], part[k, 0], cv, work[8:12], work[12:16], RATING, work)[1]


@njit(cache=True, error_model="numpy", inline=INLINE)
def _attack_of(k, part, cv):
    a = 0.0
    for j in range(part[k, 0]):
        a += cv[part[k, 1 + j], 0]
    return a
