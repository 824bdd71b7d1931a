"""Random draws of a run that belong to the game, not to a policy: enemy intents, reward and market slots
(rarity first, then uniformly among that rarity's eligible upgrades), jokers, and the joker stack's lookups.

Every draw goes through a ``sim.core.rng`` stream the caller keys by (seed, run, purpose, room).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.rng import below, uniform
from sim.games.dungeon import layout as C
from sim.games.dungeon.rows import IN
from sim.jit.tier import INLINE


@njit(cache=True, error_model="numpy", inline=INLINE)
def draw_intent(intents, i0, ni, st):
    """Index (0..ni-1) of the enemy's next intent among its ``ni`` rows from ``i0``, by their weights."""
    tot = 0.0
    for j in range(ni):
        tot += intents[i0 + j, IN.weight]
    u = uniform(st) * tot
    for j in range(ni):
        u -= intents[i0 + j, IN.weight]
        if u < 0:
            return j
    return ni - 1


@njit(cache=True, error_model="numpy")
def draw_upgrade(st, fz, owned, taken, nt):
    """An upgrade drawn as a reward/market slot (``eligible_upgrades`` then ``draw_eligible``): rarity first,
    then uniformly among that rarity's upgrades; owned unique ones and the ``taken[:nt]`` already in this
    offer are excluded. -1 when none is eligible."""
    elig = np.empty(fz.up_rarity.shape[0] + 4, np.int64)
    eligible_upgrades(fz.up_rarity, fz.up_unique, owned, elig)
    return draw_eligible(st, fz.up_rarity, fz.rarity_w, elig, taken, nt)


@njit(cache=True, error_model="numpy", inline=INLINE)
def eligible_upgrades(up_rarity, up_unique, owned, elig):
    """Fill ``elig`` with the upgrades that can be offered (owned unique ones left out), grouped by rarity in id
    order; ``elig[n_up + r]``: where rarity ``r``'s group starts (``elig[n_up + 3]``: the end)."""
    n_up = up_rarity.shape[0]
    c0 = 0
    c1 = 0
    for u in range(n_up):
        if up_unique[u] != 0 and owned[u] > 0:
            continue
        r = up_rarity[u]
        if r == 0:
            c0 += 1
        elif r == 1:
            c1 += 1
    i0 = 0
    i1 = c0
    i2 = c0 + c1
    elig[n_up] = 0
    elig[n_up + 1] = c0
    elig[n_up + 2] = c0 + c1
    for u in range(n_up):
        if up_unique[u] != 0 and owned[u] > 0:
            continue
        r = up_rarity[u]
        if r == 0:
            elig[i0] = u
            i0 += 1
        elif r == 1:
            elig[i1] = u
            i1 += 1
        else:
            elig[i2] = u
            i2 += 1
    elig[n_up + 3] = i2


@njit(cache=True, error_model="numpy", inline=INLINE)
def draw_eligible(st, up_rarity, rarity_w, elig, taken, nt):
    """One reward/market slot from the groups of ``eligible_upgrades``: rarity first (weights of the rarities
    that still have an eligible upgrade), then uniformly among that rarity's eligible upgrades not among the
    ``taken[:nt]`` already in this offer. -1 when none is eligible."""
    n_up = up_rarity.shape[0]
    cnt0 = elig[n_up + 1] - elig[n_up]
    cnt1 = elig[n_up + 2] - elig[n_up + 1]
    cnt2 = elig[n_up + 3] - elig[n_up + 2]
    for q in range(nt):
        it = taken[q]
        if 0 <= it < n_up:
            r = up_rarity[it]
            if r == 0:
                cnt0 -= 1
            elif r == 1:
                cnt1 -= 1
            else:
                cnt2 -= 1
    w0 = rarity_w[0] if cnt0 > 0 else 0.0
    w1 = rarity_w[1] if cnt1 > 0 else 0.0
    w2 = rarity_w[2] if cnt2 > 0 else 0.0
    tot = w0 + w1 + w2
    if tot <= 0:
        return -1
    x = uniform(st) * tot
    if x < w0:
        r = 0
        cnt = cnt0
    elif x < w0 + w1:
        r = 1
        cnt = cnt1
    else:
        r = 2
        cnt = cnt2
    j = below(st, cnt)
    for i in range(elig[n_up + r], elig[n_up + r + 1]):
        u = elig[i]
        dup = False
        for q in range(nt):
            if taken[q] == u:
                dup = True
        if not dup:
            if j == 0:
                return u
            j -= 1
    return -1


@njit(cache=True, error_model="numpy", inline=INLINE)
def draw_joker(st, jk):
    """A joker id drawn by the jokers' weights."""
    tot = 0.0
    for j in range(jk.shape[0]):
        tot += jk[j, C.JK_WEIGHT]
    x = uniform(st) * tot
    for j in range(jk.shape[0]):
        x -= jk[j, C.JK_WEIGHT]
        if x < 0:
            return j
    return jk.shape[0] - 1


@njit(cache=True, error_model="numpy", inline=INLINE)
def find_joker(jokers, nj, jk, kind):
    """Stack position of the most recent joker of ``kind``, or -1."""
    for q in range(nj - 1, -1, -1):
        if jk[jokers[q], C.JK_KIND] == kind:
            return q
    return -1


@njit(cache=True, error_model="numpy", inline=INLINE)
def pop_joker(jokers, nj, q):
    """Remove stack position ``q``; returns the new stack height."""
    for i in range(q, nj - 1):
        jokers[i] = jokers[i + 1]
    return nj - 1
