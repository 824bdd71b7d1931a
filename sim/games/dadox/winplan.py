"""The optimal-win policy's lookup table: every pair's throw values against the solved ``V``.

With it a decision of ``policies.dadox.bots.optimal_win`` is a handful of lookups (``best_by_plan``) instead of
solving the pair's whole turn (``solve.pair_turn``) whenever the pair of states changes. Built once per
solution, once a process has played enough optimal-win runs to pay for it (``worth_building``, ``game.py``); not
stored on disk (it is ``V``'s function, and big).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from sim.games.dadox import rules as R
from sim.games.dadox.solve import Pairs, need_range, pair_scratch, pair_turn
from sim.games.dadox.solve_win import WinSolution
from sim.games.dadox.tables import build_tables

# a seat's turns in a game per score state it can hold: ~22 turns over the default rules' 260 states (and fewer for
# a lower goal, which has fewer states); each turn of an optimal-win seat without the plan solves its pair of states
TURNS_PER_STATE = 1 / 12
PLAN_ROWS = 64  # turn totals (units) below which the plan stores every pair's throw values; above: rebuilt
PLAN_MB = 400  # ... fewer where the table would be larger (the state pairs grow with the square of the target)


class WinPlan(NamedTuple):
    """``thr`` of every pair's best turn against the solved ``V``, for the policy's lookups.

    The throw values of pair ``(a, b)`` at turn total ``t < rows[a]``, ``n`` dice, column
    ``need_lo + j``, are ``plan[off[a] + ((b * rows[a] + t) * 6 + n - 1) * cols + j]`` (bit for bit
    what ``pair_turn`` computes). Banking values are read from ``V`` itself. ``rows[a]`` is the cap row
    plus one, or ``PLAN_ROWS`` when that is less: the rare turn that passes it rebuilds the pair's plan.
    """

    plan: np.ndarray  # float64, flat
    off: np.ndarray  # int64 [S]
    rows: np.ndarray  # int64 [S]
    cols: int  # need columns stored: need_hi - need_lo + 1


@njit(cache=True, parallel=True)
def _fill_plan(pairs, tb, need, off, rows, plan):
    n = pairs.V.shape[0]
    tm = pairs.bank_to.shape[1]
    need_lo = need.need_lo
    cols = need.need_hi - need_lo + 1
    nb = min(n * n, 256)
    step = (n * n + nb - 1) // nb
    for blk in prange(nb):
        w = pair_scratch(tm, tb, np.empty((0, 0), np.int64))
        thr = w.thr
        for i in range(blk * step, min(n * n, (blk + 1) * step)):
            a = i // n
            b = i % n
            pair_turn(a, b, pairs, tb, need, w)
            k = off[a] + b * rows[a] * R.N_DICE * cols
            for t in range(rows[a]):
                for d in range(R.N_DICE):
                    for j in range(cols):
                        plan[k] = thr[t, d, need_lo + j]
                        k += 1


def win_plan(rp: np.record, sol: WinSolution, max_rows: int = PLAN_ROWS) -> WinPlan:
    """The optimal-win policy's lookup table for this solution (at the defaults 396 MB: two need columns, ordinary
    and confirmation throws; built in about 20 s of CPU at load 6, 198 MB and about 4 s on two cores when every
    later throw needs a 1 or 5 and one column serves both)."""
    tb, need = build_tables(rp), need_range(rp)
    cols = need.need_hi - need.need_lo + 1
    n = sol.V.shape[0]
    max_rows = max(1, min(max_rows, PLAN_MB * 2**20 // (n * n * R.N_DICE * cols * 8)))
    rows = np.minimum(sol.cap + 1, max_rows).astype(np.int64)
    sizes = rows * n * R.N_DICE * cols
    off = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    plan = np.empty(int(sizes.sum()))
    _fill_plan(Pairs(sol.V, sol.bank_to, sol.bust_to, sol.cap), tb, need, off, rows, plan)
    return WinPlan(plan, off, rows, cols)


def worth_building(states: int, win_seats: int, runs: int) -> bool:
    """Whether the plan pays for itself after ``runs`` runs: building it solves every pair of states once
    (``states``²); without it each turn of each of the ``win_seats`` optimal-win seats solves its own pair. So a
    process builds it once its runs would have solved as many pairs (at the defaults ~3,100 heads-up games), and
    never pays more than about twice the better of the two."""
    return runs * win_seats * states * TURNS_PER_STATE >= states * states
