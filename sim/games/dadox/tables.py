"""Per-rules lookup tables: every throw's bust status and set-aside options, and the solver's groups.

A throw of ``n`` dice is a multiset index of ``sim.core.dice.multisets(6)`` (``child`` adds one die, so a
throw is ``n`` lookups). For each throw and for "first throw of the turn" or "later throw" the
distinct set-aside options are listed as rows (points, dice used, lock, selected multiset), sorted by
points (high first), then dice used (few first). The solver instead reads, per (dice thrown, 1-or-5
needed) and for the first throw, the throws grouped by identical option lists with their summed
probability, in points units of ``rp.unit`` and with hot dice as 6 dice left. A group whose every
option is locked (a street; a first throw holding a triple; with ``turn.hot_dice = "throw"`` a throw whose
every option sets all its dice aside, such as one die showing a 5) obliges another throw whatever the player
picks; the solver's closed-form rows follow those groups alone (``tab_free``, ``lk_g``).

A throw's best option per group is a maximum over the group's option list, and the lists of a table
share their tails (a throw with one more scoring die adds options in front of another's list). So the
solver takes each distinct tail's maximum once (``sn``: one node per distinct tail, its first option and
the node of the rest; a group's whole list is a node too), about half the comparisons. They are packed
into one array, ``tails`` (every array of ``Tables`` costs the policies a reference count per decision).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from sim.core.dice import multisets
from sim.games.dadox import rules as R

T6 = multisets(6)
MAX_OPTS = 64
N_TABS = 13  # (n - 1) * 2 + need for later throws; FIRST_TAB for the turn's first throw
FIRST_TAB = 12
OPT_PTS, OPT_USED, OPT_LOCK, OPT_SEL = 0, 1, 2, 3
SN_OFF, SN_OPT, SN_NEXT = 0, 1, 2  # fields of a node in ``Tables.tails``
LK_GROUP, LK_FIRST, LK_END = 0, 1, 2  # columns of ``Tables.lk_g``
TL_GROUPS = N_TABS + 1  # ``Tables.tails``: where the groups' nodes begin (the nodes follow them)
NL = R.N_LOCKS
QW = NL * R.N_DICE  # a flat Q table holds (dice to throw, lock) per turn total: q[t * QW + (n - 1) * NL + lock]


class Tables(NamedTuple):
    """Arrays the kernels and policies read (indices: multiset ``k`` of up to six dice)."""

    counts: np.ndarray  # int64 [M, 6]
    child: np.ndarray  # int64 [M, 6]
    has15: np.ndarray  # int64 [M]: holds a 1 or a 5
    bust_plain: np.ndarray  # int64 [M]: no scoring group at all (size >= 1)
    opt_start: np.ndarray  # int64 [M, 2]: first option of throw k, later (0) / first throw (1)
    opt_n: np.ndarray  # int64 [M, 2]
    opt: np.ndarray  # int64 [K, 4]: OPT_PTS, OPT_USED, OPT_LOCK (R.LOCK_*), OPT_SEL (dice set aside)
    tab_bust: np.ndarray  # float64 [N_TABS]: bust probability
    tab_g: np.ndarray  # int64 [N_TABS + 1]: groups of table i are tab_g[i]:tab_g[i + 1]
    g_prob: np.ndarray  # float64 [G]
    go_pts: np.ndarray  # int64 [GO]: points in units
    go_nd: np.ndarray  # int64 [GO]: dice to throw next (hot dice: 6)
    go_lock: np.ndarray  # int64 [GO]: R.LOCK_*
    go_off: np.ndarray  # int64 [GO]: offset of the option's next state in a flat Q table (see QW)
    go_pad: int  # the most units one option adds
    tab_free: np.ndarray  # float64 [N_TABS]: chance of a throw with an option that leaves banking allowed
    tab_lk: np.ndarray  # int64 [N_TABS + 1]: the all-locked groups of table i are lk_g[tab_lk[i]:tab_lk[i + 1]]
    lk_g: np.ndarray  # int64 [L, 3]: LK_GROUP, and its options LK_FIRST:LK_END (the solver's closed-form rows)
    # int64: the option lists' tail nodes (``_tails``): [0, N_TABS]: first node of each table (and the end);
    # then per group its whole list's node; then per node k at TL_NODES + G + 3 k: SN_OFF (``go_off``), SN_OPT
    # (an option ``o`` with it), SN_NEXT (the rest's node; K, the sentinel, if none). A node's rest precedes it.
    tails: np.ndarray


def tab_index(n: int, need: int) -> int:
    return (n - 1) * 2 + need


@njit(cache=True)
def throw_options(counts, index_of_code, first, rp, o_pts, o_used, o_lock, o_sel):
    """Distinct (points, used, lock) set-asides of one throw, sorted; returns how many."""
    pow7 = np.array([1, 7, 49, 343, 2401, 16807], np.int64)
    sub = np.zeros(6, np.int64)
    m = 0
    while True:
        pts = R.selection_score(sub, rp)
        if pts >= 0:
            used = 0
            code = 0
            for f in range(6):
                used += sub[f]
                code += sub[f] * pow7[f]
            lock = R.lock_of(sub, counts, first, rp)
            seen = False
            for i in range(m):
                if o_pts[i] == pts and o_used[i] == used and o_lock[i] == lock:
                    seen = True
                    break
            if not seen:
                # insertion by (points desc, used asc, lock asc)
                j = m
                while j > 0 and (
                    o_pts[j - 1] < pts
                    or (o_pts[j - 1] == pts and o_used[j - 1] > used)
                    or (o_pts[j - 1] == pts and o_used[j - 1] == used and o_lock[j - 1] > lock)
                ):
                    o_pts[j] = o_pts[j - 1]
                    o_used[j] = o_used[j - 1]
                    o_lock[j] = o_lock[j - 1]
                    o_sel[j] = o_sel[j - 1]
                    j -= 1
                o_pts[j] = pts
                o_used[j] = used
                o_lock[j] = lock
                o_sel[j] = index_of_code[code]
                m += 1
        # next sub-multiset (mixed radix over counts)
        f = 0
        while f < 6:
            if sub[f] < counts[f]:
                sub[f] += 1
                break
            sub[f] = 0
            f += 1
        if f == 6:
            return m


@njit(cache=True)
def fill_options(counts, size, index_of_code, rp, opt_start, opt_n, pts, used, lock, sel):
    """Options of every throw (both variants) into flat arrays; returns how many were written."""
    o_pts = np.empty(MAX_OPTS, np.int64)
    o_used = np.empty(MAX_OPTS, np.int64)
    o_lock = np.empty(MAX_OPTS, np.int64)
    o_sel = np.empty(MAX_OPTS, np.int64)
    k = 0
    for r in range(counts.shape[0]):
        for v in range(2):
            opt_start[r, v] = k
            opt_n[r, v] = 0
            if size[r] == 0 or (v == 1 and size[r] != R.N_DICE):
                continue
            m = throw_options(counts[r], index_of_code, v == 1, rp, o_pts, o_used, o_lock, o_sel)
            for i in range(m):
                pts[k] = o_pts[i]
                used[k] = o_used[i]
                lock[k] = o_lock[i]
                sel[k] = o_sel[i]
                k += 1
            opt_n[r, v] = m
    return k


@lru_cache(maxsize=16)
def _build(dtype: np.dtype, rp_key: tuple[int, ...]) -> Tables:
    rp = np.array([rp_key], dtype).view(np.recarray)[0]
    t = T6
    m = len(t.counts)
    cap = m * 2 * MAX_OPTS
    opt_start = np.zeros((m, 2), np.int64)
    opt_n = np.zeros((m, 2), np.int64)
    pts, used, lock, sel = (np.zeros(cap, np.int64) for _ in range(4))
    k = fill_options(t.counts, t.size, t.index_of_code, rp, opt_start, opt_n, pts, used, lock, sel)
    pts, used, lock, sel = pts[:k], used[:k], lock[:k], sel[:k]
    has15 = ((t.counts[:, 0] + t.counts[:, 4]) > 0).astype(np.int64)
    bust_plain = np.array([int(s > 0 and R.busts(c, False, rp)) for c, s in zip(t.counts, t.size, strict=True)])

    unit = int(rp.unit)
    tab_bust = np.zeros(N_TABS)
    tab_g = [0]
    g_prob: list[float] = []
    g_o = [0]
    go: list[tuple[int, int, int]] = []
    for tab in range(N_TABS):
        if tab == FIRST_TAB:
            n, need, v = R.N_DICE, 0, 1
        else:
            n, need, v = tab // 2 + 1, tab % 2, 0
        groups: dict[tuple, float] = {}
        for r in range(t.size_start[n], t.size_start[n + 1]):
            if bust_plain[r] or (need and not has15[r]):
                tab_bust[tab] += t.prob[r]
                continue
            a, b = opt_start[r, v], opt_start[r, v] + opt_n[r, v]
            key = tuple(
                (int(pts[i]) // unit, (n - int(used[i])) or R.N_DICE, int(lock[i])) for i in range(a, b)
            )
            groups[key] = groups.get(key, 0.0) + float(t.prob[r])
        for key, p in groups.items():
            g_prob.append(p)
            go.extend(key)
            g_o.append(len(go))
        tab_g.append(len(g_prob))
    goa = np.array(go, dtype=np.int64).reshape(-1, 3)
    gl = np.array(g_o, np.int64)
    g_locked = [bool((goa[gl[g] : gl[g + 1], 2] != R.LOCK_FREE).all()) for g in range(len(g_prob))]
    tab_free = np.zeros(N_TABS)
    tab_lk = [0]
    lk_g: list[tuple[int, int, int]] = []
    for tab in range(N_TABS):
        for g in range(tab_g[tab], tab_g[tab + 1]):
            if g_locked[g]:
                lk_g.append((g, int(gl[g]), int(gl[g + 1])))
            else:
                tab_free[tab] += g_prob[g]
        tab_lk.append(len(lk_g))
    go_off = goa[:, 0] * QW + (goa[:, 1] - 1) * NL + goa[:, 2]
    sn, tab_sn, g_sn = _tails(go_off, tab_g, gl)
    tails = np.concatenate((tab_sn, g_sn, sn.ravel()))
    return Tables(
        t.counts, t.child, has15, bust_plain.astype(np.int64), opt_start, opt_n,
        np.stack((pts, used, lock, sel), axis=1),
        tab_bust, np.array(tab_g, np.int64), np.array(g_prob),
        goa[:, 0].copy(), goa[:, 1].copy(), goa[:, 2].copy(),
        go_off, int(goa[:, 0].max()),
        tab_free, np.array(tab_lk, np.int64), np.array(lk_g, np.int64).reshape(-1, 3), tails,
    )


def _tails(go_off: np.ndarray, tab_g: list[int], g_o: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(nodes [K, 3], first node per table, node per group) for ``Tables.tails``: every distinct tail of each
    table's option lists once, by length
    (a node's rest precedes it, and nodes of one length do not wait for each other). An option is its
    ``go_off`` (one per points, dice, lock)."""
    rows: list[tuple[int, int, int]] = []
    tab_sn = [0]
    g_sn = np.empty(len(g_o) - 1, np.int64)
    for tab in range(N_TABS):
        first: dict[tuple[int, ...], int] = {}  # tail -> its first option index
        for g in range(tab_g[tab], tab_g[tab + 1]):
            offs = tuple(int(x) for x in go_off[g_o[g] : g_o[g + 1]])
            for k in range(len(offs)):
                first.setdefault(offs[k:], int(g_o[g]) + k)
        tails = sorted(first, key=len)  # stable: ties keep their first appearance
        node = {tail: len(rows) + i for i, tail in enumerate(tails)}
        rows += [(tail[0], first[tail], node[tail[1:]] if len(tail) > 1 else -1) for tail in tails]
        for g in range(tab_g[tab], tab_g[tab + 1]):
            g_sn[g] = node[tuple(int(x) for x in go_off[g_o[g] : g_o[g + 1]])]
        tab_sn.append(len(rows))
    sn = np.array(rows, np.int64).reshape(-1, 3)
    sn[sn[:, SN_NEXT] < 0, SN_NEXT] = len(sn)  # one-option tails: the rest is the sentinel node (-inf)
    return sn, np.array(tab_sn, np.int64), g_sn


def build_tables(rp: np.record) -> Tables:
    """The lookup tables for these rules (built once per rule record and kept)."""
    return _build(rp.dtype, rp.item())


def bust_probabilities(rp: np.record, need_1_or_5: bool) -> dict[int, float]:
    """Exact chance that a throw of n dice busts, n = 1..6, by enumeration of the multisets."""
    tb = build_tables(rp)
    return {n: float(tb.tab_bust[tab_index(n, int(need_1_or_5))]) for n in range(1, R.N_DICE + 1)}
