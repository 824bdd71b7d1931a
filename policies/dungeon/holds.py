"""Hold decisions: which dice to keep before a reroll (``decide_keep``), and the tables behind them.

Vorschlag and greedy read static hold tables per modifier profile (``build_holds``, built by
``sim.games.dungeon.tables``); expectimax searches exact per-turn expectation tables (``expectation_tables``: over
every multiset of rerolled dice, with 0..``MAX_ADJ`` adjusts left); random keeps each free die with chance 1/2.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.dungeon.ids import BROKEN, EXPECTIMAX, GREEDY, VORSCHLAG
from policies.dungeon.rating import leaf_value
from sim.core.dice import best_subkeep, best_subkeep_value, expect_over_rerolls
from sim.core.rng import below
from sim.games.dungeon import rules as R
from sim.jit.scalar import smax, smin
from sim.jit.tier import INLINE

MAX_ADJ = 2  # expectimax: adjusts left its per-turn tables search (Glücksmünze's two)
# hold tables: [profile, HOLD_*, multiset] -> kept multiset
HOLD_VORSCHLAG, HOLD_GREEDY1, HOLD_GREEDY2 = 0, 1, 2
N_HOLD = 3
MAX_LEVELS = 4  # expectation levels kept per turn (rerolls + last chance)


@njit(cache=True, error_model="numpy", inline=INLINE)
def _keep_static(tab, roll, cursed, tm):
    """Table keep of ``roll`` widened to hold every cursed die."""
    counts = tm[0]
    k = tab[roll]
    code = 0
    p = 1
    for f in range(6):
        code += smax(counts[k, f], counts[cursed, f]) * p
        p *= 7
    return tm[4][code]


@njit(cache=True, error_model="numpy")
def _keep_random(roll, cursed, tm, st):
    counts = tm[0]
    code = 0
    p = 1
    for f in range(6):
        c = counts[cursed, f]
        for _ in range(counts[roll, f] - counts[cursed, f]):
            if below(st, 2) == 1:
                c += 1
        code += c * p
        p *= 7
    return tm[4][code]


@njit(cache=True, error_model="numpy")
def best_subset(E, free, tm, work):
    """Sub-multiset ``K`` of ``free`` with the highest ``E[K]`` (ties: the larger keep); ``work``: int64[16]."""
    counts = tm[0]
    ioc = tm[4]
    lim = work[:6]
    cur = work[6:12]
    for f in range(6):
        lim[f] = counts[free, f]
        cur[f] = lim[f]
    best = -1e18
    bk = free
    bs = -1
    while True:
        code = 0
        p = 1
        s = 0
        for f in range(6):
            code += cur[f] * p
            s += cur[f]
            p *= 7
        k = ioc[code]
        v = E[k]
        if v > best or (v == best and s > bs):
            best = v
            bk = k
            bs = s
        f = 0
        while f < 6 and cur[f] == 0:
            cur[f] = lim[f]
            f += 1
        if f == 6:
            break
        cur[f] -= 1
    return bk


@njit(cache=True, error_model="numpy")
def expectation_table(fs, cursed, m, levels, part, pclass, cv, tm, etab, scratch, memo, work):
    """``etab[l, K]`` (l = 1..levels): expected leaf value keeping free dice ``K`` with ``l`` rolls left.

    The free dice are ``m`` dice beside the fixed ``cursed`` multiset; ``etab[0, F]`` is the leaf
    value of full free roll ``F``. Exact over all multisets of rerolled dice (``sim.core.dice``). Leaf
    values are memoised per class of equal shown partitions (``pclass``; ``memo``: float[N_MS]).
    """
    counts, child, parent, size_start, ioc = tm
    ss = size_start[: m + 2]
    memo[:] = np.nan
    base = 0
    p = 1
    for f in range(6):
        base += counts[cursed, f] * p
        p *= 7
    for F in range(size_start[m], size_start[m + 1]):
        code = base
        p = 1
        for f in range(6):
            code += counts[F, f] * p
            p *= 7
        k = ioc[code]
        cl = pclass[k]
        v = memo[cl]
        if np.isnan(v):
            v = leaf_value(fs, k, part, cv, work)
            memo[cl] = v
        etab[0, F] = v
        scratch[F] = v
    for lv in range(1, levels + 1):
        expect_over_rerolls(scratch, child, ss, etab[lv])
        if lv < levels:
            best_subkeep_value(etab[lv], parent, ss, scratch)


@njit(cache=True, error_model="numpy", inline=INLINE)
def _adj_best(src, F, counts, ioc, step):
    """Highest ``src`` over the multisets one ±``step`` turn of one die away from ``F`` (faces within 1..6);
    -1e18 when there is none."""
    code = 0
    for f in range(6):
        code += counts[F, f] * R.POW7_T[f]
    best = -1e18
    for f in range(6):
        if counts[F, f] == 0:
            continue
        for g in (f - step, f + step):
            if 0 <= g < 6:
                v = src[ioc[code - R.POW7_T[f] + R.POW7_T[g]]]
                if v > best:
                    best = v
    return best


@njit(cache=True, error_model="numpy")
def expectation_tables(fs, cursed, m, levels, na, step, part, pclass, cv, tm, etabs, scratch, memo, work):
    """``etabs[a]``: ``expectation_table`` when ``a`` adjusts (a ±``step`` turn of one free die, within 1..6) are
    left this turn, ``a`` = 0..``na``; an adjust may come before any hold decision (then the hold is chosen on the
    adjusted dice) or after the last roll. ``etabs[a, 0, F]`` is the leaf value of full free roll ``F`` with ``a``
    adjusts still to use, ``etabs[a, l, K]`` the expected value keeping ``K`` with ``l`` rolls left. Exact within
    the turn; an adjust kept for a later turn of the fight is worth nothing here. ``etabs[0]`` equals
    ``expectation_table``. ``scratch``: float[2 * (MAX_ADJ + 1), N_MS]."""
    counts, child, parent, size_start, ioc = tm
    ss = size_start[: m + 2]
    lo = size_start[m]
    hi = size_start[m + 1]
    memo[:] = np.nan
    base = 0
    for f in range(6):
        base += counts[cursed, f] * R.POW7_T[f]
    S = scratch[: MAX_ADJ + 1]
    B = scratch[MAX_ADJ + 1 :]
    for F in range(lo, hi):
        code = base
        for f in range(6):
            code += counts[F, f] * R.POW7_T[f]
        k = ioc[code]
        cl = pclass[k]
        v = memo[cl]
        if np.isnan(v):
            v = leaf_value(fs, k, part, cv, work)
            memo[cl] = v
        etabs[0, 0, F] = v
        S[0, F] = v
    for a in range(1, na + 1):
        for F in range(lo, hi):
            v = smax(S[0, F], _adj_best(S[a - 1], F, counts, ioc, step))
            etabs[a, 0, F] = v
            S[a, F] = v
    for lv in range(1, levels + 1):
        for a in range(na + 1):
            expect_over_rerolls(S[a], child, ss, etabs[a, lv])
        if lv < levels:
            for a in range(na + 1):
                best_subkeep_value(etabs[a, lv], parent, ss, B[a])
            for a in range(na + 1):
                for F in range(lo, hi):
                    v = B[a, F]
                    if a > 0:
                        v = smax(v, _adj_best(B[a - 1], F, counts, ioc, step))
                    S[a, F] = v


@njit(cache=True, error_model="numpy", inline=INLINE)
def decide_keep(pid, roll, cursed, rolls_left, hold, etab, tm, st, work):
    """Multiset to keep from ``roll`` (⊇ ``cursed``) with ``rolls_left`` rolls to come."""
    if pid == VORSCHLAG:
        return _keep_static(hold[HOLD_VORSCHLAG], roll, cursed, tm)
    if pid == GREEDY:
        return _keep_static(hold[HOLD_GREEDY1 if rolls_left <= 1 else HOLD_GREEDY2], roll, cursed, tm)
    if pid == EXPECTIMAX:
        counts = tm[0]
        ioc = tm[4]
        code = 0
        cc = 0
        p = 1
        for f in range(6):
            code += (counts[roll, f] - counts[cursed, f]) * p
            cc += counts[cursed, f] * p
            p *= 7
        free = ioc[code]
        lv = smin(rolls_left, etab.shape[0] - 1)
        k = best_subset(etab[lv], free, tm, work)
        kc = 0
        p = 1
        for f in range(6):
            kc += counts[k, f] * p
            p *= 7
        return ioc[kc + cc]
    if pid == BROKEN and cursed > 0:  # the test policy: a hold that rerolls the cursed dice (the kernel refuses it)
        counts = tm[0]
        code = 0
        p = 1
        for f in range(6):
            code += (counts[roll, f] - counts[cursed, f]) * p
            p *= 7
        return tm[4][code]
    return _keep_random(roll, cursed, tm, st)


@njit(cache=True, error_model="numpy")
def _vorschlag_holds(part, counts, ioc, out):
    for k in range(part.shape[0]):
        kc = np.zeros(6, np.int64)
        for j in range(part[k, 0]):
            c = part[k, 1 + j]
            for f in range(6):
                kc[f] += R.C_COUNTS_T[c, f]
        if part[k, 0] == 0:
            bs = -1
            bl = 0
            s = 0
            ln = 0
            for f in range(6):
                if counts[k, f] > 0:
                    if ln == 0:
                        s = f
                    ln += 1
                    if ln > bl:
                        bl = ln
                        bs = s
                else:
                    ln = 0
            if bl >= 3:
                for f in range(bs, bs + bl):
                    kc[f] = 1
        code = 0
        p = 1
        for f in range(6):
            code += kc[f] * p
            p *= 7
        out[k] = ioc[code]


@njit(cache=True, error_model="numpy")
def build_holds(part, cv, counts, child, parent, size_start, ioc, out, eatt):
    """Hold tables ``out[HOLD_*, multiset]`` of one profile, and ``eatt[m, r]``: expected shown attack of a
    turn of ``m`` dice with 3 (``r`` 0) or 4 (``r`` 1) rolls under greedy's holds."""
    _vorschlag_holds(part, counts, ioc, out[HOLD_VORSCHLAG])
    n = part.shape[0]
    att = np.zeros(n)
    for k in range(n):
        for j in range(part[k, 0]):
            att[k] += cv[part[k, 1 + j], 0]
    best = np.zeros(n)
    arg = np.zeros(n, np.int64)
    e = np.zeros(n)
    val = np.zeros(n)
    eatt[0, 0] = 0.0
    eatt[0, 1] = 0.0
    for m in range(1, R.MAX_DICE + 1):
        ss = size_start[: m + 2]
        lo = size_start[m]
        hi = size_start[m + 1]
        val[:] = att
        for row in (HOLD_GREEDY1, HOLD_GREEDY2):
            expect_over_rerolls(val, child, ss, e)
            best_subkeep(e, parent, ss, best, arg)
            out[row, lo:hi] = arg[lo:hi]
            val[lo:hi] = best[lo:hi]
        expect_over_rerolls(val, child, ss, e)
        eatt[m, 0] = e[0]
        best_subkeep_value(e, parent, ss, best)
        val[lo:hi] = best[lo:hi]
        expect_over_rerolls(val, child, ss, e)
        eatt[m, 1] = e[0]


def build_hold_tables(part: np.ndarray, cvals: np.ndarray) -> np.ndarray:
    """Static hold tables ``[profile, HOLD_*, multiset]`` for Vorschlag and greedy.

    Greedy's rows hold, for every roll of ``m`` dice, the keep that maximises the expected total
    attack of the shown partition after 1 (``HOLD_GREEDY1``) or 2 (``HOLD_GREEDY2``) more rolls.
    """
    counts, child, parent, size_start, ioc = tm_tuple()
    n_prof = part.shape[0]
    out = np.zeros((n_prof, N_HOLD, R.N_MS), np.int64)
    best = np.zeros(R.N_MS)
    arg = np.zeros(R.N_MS, np.int64)
    e = np.zeros(R.N_MS)
    for p in range(n_prof):
        _vorschlag_holds(part[p], counts, ioc, out[p, HOLD_VORSCHLAG])
        ids = part[p, :, 1:]
        att = np.where(ids >= 0, cvals[p, np.maximum(ids, 0), 0], 0.0).sum(axis=1)
        for m in range(1, R.MAX_DICE + 1):
            ss = size_start[: m + 2]
            lo, hi = size_start[m], size_start[m + 1]
            val = att.copy()
            for row in (HOLD_GREEDY1, HOLD_GREEDY2):
                expect_over_rerolls(val, child, ss, e)
                best_subkeep(e, parent, ss, best, arg)
                out[p, row, lo:hi] = arg[lo:hi]
                val[lo:hi] = best[lo:hi]
    return out


def tm_tuple():
    """The multiset tables the decision functions read."""
    T = R.TM
    return (T.counts, T.child, T.parent, T.size_start, T.index_of_code)
