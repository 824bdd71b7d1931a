"""The Dadox optimal-win solver: the best chance to win a two-player game.

States are a player's (score, opened) pairs, the score from ``solver.score_floor`` (lower scores count as the
floor; only rules that subtract reach below 0) to the target. ``V[a, b]`` is the chance that the player to move in
state ``a`` beats the opponent in state ``b``; a turn (``solve.pair_turn``, the turn recursion of ``solve``) banks
or busts into ``a'`` for ``1 - V[b, a']`` (1 for a win). Solved by modified policy iteration: each step plays every
pair's best turn against the current ``V`` and records where that turn ends (``_end_of_turn``), then evaluates
those plans by Gauss-Seidel sweeps in order of falling score sum; it stops when a step moves no value by
``solver.tolerance`` or more, and raises when ``max_iter`` steps do not get there. It starts from the value of a
coarse policy (``_coarse_start``: the turn plans of a subset of opponent states, each used for its neighbours),
which cuts the exact steps from seven to three under the default rules. A step that the last two residuals
predict to be the last computes the values alone first (``LAST_MARGIN``): where they move by less than the
tolerance it is the last, and where each turn ends is not needed. ``floor_share`` follows a game of two optimal
players from the start (``_turn_visits``, with the plans of the last evaluated step) and gives the share of its
turns begun at the floor: how much the truncation of lower scores can matter.

Speed (about 120 us a pair and step under the default rules): the turn recursion's (``solve``), and the locks of
one (t, n) that throw the same table are followed together (``_end_of_turn``).

``winplan.win_plan`` stores every pair's throw values against the solved ``V`` for the optimal-win policy, which
then decides by lookups instead of solving a pair's turn whenever the pair of states changes.

``game.py`` keeps the optimal-win values on disk (``sim.core.cache``), keyed by the rules and the code of this module
(with the turn recursion it imports).
"""

from __future__ import annotations

import os
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from sim.core.config import DicesimError
from sim.games.dadox import rules as R
from sim.games.dadox.solve import (
    CAP_SWEEPS,
    NO_BANK,
    WIN,
    Needs,
    Pairs,
    best_locked,
    closed_from,
    need_range,
    pair_scratch,
    pair_turn,
)
from sim.games.dadox.tables import FIRST_TAB, LK_GROUP, NL, QW, Tables, build_tables

EVAL_SWEEPS = 300  # Gauss-Seidel sweeps per plan evaluation at most (modified policy iteration)
# A step whose largest change the last two predict below tolerance / LAST_MARGIN (policy iteration converges about
# quadratically: r3 ~ r2 * (r2 / r1 ** 2) * r2) computes the values alone first; only if they still move by the
# tolerance does it also follow where each turn ends (the plan the next evaluation needs).
LAST_MARGIN = 2.0


class WinSolution(NamedTuple):
    """The two-player solution: ``V[a, b]`` over player states and the turn transitions of each state."""

    V: np.ndarray  # float64 [S, S]
    score: np.ndarray  # int64 [S]: points
    opened: np.ndarray  # int64 [S]
    index: np.ndarray  # int64 [2, target - lo]: state of (opened, score units - lo), -1 if none
    lo: int  # lowest score in units (the floor)
    bank_to: np.ndarray  # int64 [S, TM]: state after banking t units (WIN, NO_BANK)
    bust_to: np.ndarray  # int64 [S, TM]: state after busting with t units on the table
    cap: np.ndarray  # int64 [S]: turn totals from cap[a] on all lead to the same states
    start: int  # both players' state at the start of a game
    iterations: int  # policy improvement steps
    residual: float  # largest change of a value by the last improvement step
    floor_share: float = float("nan")  # share of turns begun at the score floor under optimal play (truncation)


def score_states(rp: np.record, score_floor: int):
    """(score units, opened) of every state a player can be in, the floor, the target and the start."""
    unit = int(rp.unit)
    target = -(-int(rp.goal_target) // unit)
    negative = not rp.bust_floor_zero and (
        rp.bust_penalty == R.PENALTY_SUBTRACT or (rp.goal_exact and rp.goal_overshoot == R.OVERSHOOT_SUBTRACT)
    )
    lo = min(0, score_floor // unit) if negative else 0
    opening = rp.turn_opening_minimum > 0
    states = [(s, 1) for s in range(lo, target)]
    if opening:  # not yet banked: only scores <= 0
        states += [(s, 0) for s in range(lo, 1)]
    start = states.index((0, 0 if opening else 1))
    return np.array(states, dtype=np.int64), lo, target, start


@njit(cache=True)
def _transitions(st, index, lo, unit, rp, bank_to, bust_to, cap):
    """Fill ``bank_to``/``bust_to`` for t = 0..TM-1 and each state's cap, with the rules' functions."""
    tm = bank_to.shape[1]
    top = lo + index.shape[1] - 1
    for a in range(st.shape[0]):
        s = st[a, 0]
        o = st[a, 1]
        for t in range(tm):
            b = R.bust_result(s * unit, t * unit, rp) // unit
            bust_to[a, t] = index[o, min(max(b, lo), top) - lo]
            if t == 0 or not R.may_bank(o == 1, t * unit, False, rp):
                bank_to[a, t] = NO_BANK
                continue
            ns, won, over = R.bank_result(s * unit, t * unit, rp)
            if won:
                bank_to[a, t] = WIN
            else:
                bank_to[a, t] = index[o if over else 1, max(ns // unit, lo) - lo]
        c = tm - 1
        while c > 1 and bank_to[a, c - 1] == bank_to[a, tm - 1] and bust_to[a, c - 1] == bust_to[a, tm - 1]:
            c -= 1
        cap[a] = c


def win_structure(rp: np.record, score_floor: int):
    """States, transition tables and caps (everything of ``WinSolution`` but the values)."""
    unit = int(rp.unit)
    st, lo, target, start = score_states(rp, score_floor)
    index = np.full((2, target - lo), -1, np.int64)
    for i, (s, o) in enumerate(st):
        index[o, s - lo] = i
    opening = -(-int(rp.turn_opening_minimum) // unit)
    tm = (target - lo) + opening + 2
    bank_to = np.empty((len(st), tm), np.int64)
    bust_to = np.empty((len(st), tm), np.int64)
    cap = np.empty(len(st), np.int64)
    _transitions(st, index, lo, unit, rp, bank_to, bust_to, cap)
    return st, lo, index, bank_to, bust_to, cap, start


@njit(cache=True, inline="always")
def _pass_on(t, c, o, m, tb, pi):
    """Add mass ``m`` to the state option ``o`` leads to from turn total ``t`` (totals past ``c`` count as ``c``)."""
    r = t + tb.go_pts[o]
    if r > c:
        r = c
    pi[r * QW + tb.go_off[o] - tb.go_pts[o] * QW] += m


@njit(cache=True)
def _end_of_turn(a, pairs, tb, later, w, pi, dist):
    """Where the turn of ``pair_turn`` (its work ``w``) ends under its best play: ``dist[k]`` = chance of state ``k``.

    ``dist[S]`` is the chance to win in this turn. Follows the reach probability of every
    (t, n, lock) state up the turn totals (``pi``: flat, laid out as ``q``), with the choices recorded in
    ``arg`` (and, in the closed-form rows, the best option of each all-locked group read from ``q``). The
    locks of one (t, n) that throw the same table (the same 1-or-5 need) are thrown together. All-locked
    throws at the cap return to the cap row, which is therefore drained until its mass is negligible.
    """
    bank_to, bust_to = pairs.bank_to, pairs.bust_to
    c = pairs.cap[a]
    bank_val, bank_ok, bust_val, thr, q, arg = w.bank_val, w.bank_ok, w.bust_val, w.thr, w.q, w.arg
    win_col = dist.shape[0] - 1
    closed = closed_from(c, bank_val, bank_ok, bust_val)
    dist[:] = 0.0
    pi[: (c + 1) * QW] = 0.0
    dist[bust_to[a, 0]] += tb.tab_bust[FIRST_TAB]
    for g in range(tb.tab_g[FIRST_TAB], tb.tab_g[FIRST_TAB + 1]):
        _pass_on(0, c, arg[0, g], tb.g_prob[g], tb, pi)
    throw_on = bank_val[c] < bust_val[c]
    for t in range(1, c + 1):
        k_bank = bank_to[a, t]
        bank_col = win_col if k_bank == WIN else k_bank
        for _ in range(CAP_SWEEPS if t == c else 1):
            for n in range(1, R.N_DICE + 1):
                row = t * QW + (n - 1) * NL
                m_need = 0.0  # throwing mass that needs a 1 or 5 ...
                m_free = 0.0  # ... and that does not
                for p in range(NL):
                    m = pi[row + p]
                    if m == 0.0:
                        continue
                    pi[row + p] = 0.0
                    need = 1 if (later or p == R.LOCK_CONFIRM) else 0
                    if p == R.LOCK_FREE and bank_ok[t] and bank_val[t] >= thr[t, n - 1, need]:
                        dist[bank_col] += m
                    elif need:
                        m_need += m
                    else:
                        m_free += m
                for need in range(2):
                    m = m_need if need else m_free
                    if m == 0.0:
                        continue
                    tab = (n - 1) * 2 + need
                    if t >= closed:  # closed-form rows: bank at the first chance (or throw on until busting)
                        if throw_on:
                            dist[bust_to[a, c]] += m
                            continue
                        dist[bust_to[a, t]] += m * tb.tab_bust[tab]
                        dist[bank_col] += m * tb.tab_free[tab]
                        for j in range(tb.tab_lk[tab], tb.tab_lk[tab + 1]):
                            g = tb.lk_g[j, LK_GROUP]
                            _pass_on(t, c, best_locked(t, j, q, tb)[1], m * tb.g_prob[g], tb, pi)
                        continue
                    dist[bust_to[a, t]] += m * tb.tab_bust[tab]
                    for g in range(tb.tab_g[tab], tb.tab_g[tab + 1]):
                        _pass_on(t, c, arg[t, g], m * tb.g_prob[g], tb, pi)
            left = 0.0
            for i in range(t * QW, (t + 1) * QW):
                left += pi[i]
            if left < 1e-17:
                break


@njit(cache=True, parallel=True)
def _improve_cols(pairs, tb, need, cols, Vnew, dist, ends=True):
    """Best turn of each pair (a, cols[j]) against ``pairs.V``: ``Vnew[a, j]``, and where it ends:
    ``dist[a * nc + j]`` (left alone without ``ends``: the values alone take half the time)."""
    n = pairs.V.shape[0]
    nc = cols.shape[0]
    tm = pairs.bank_to.shape[1]
    ng = tb.g_prob.shape[0]
    nb = min(n * nc, 256)
    step = (n * nc + nb - 1) // nb
    for blk in prange(nb):
        w = pair_scratch(tm, tb, np.empty((tm if ends else 0, ng if ends else 0), np.int64))
        pi = np.empty(tm * QW)
        for i in range(blk * step, min(n * nc, (blk + 1) * step)):
            a = i // nc
            Vnew[a, i % nc] = pair_turn(a, cols[i % nc], pairs, tb, need, w)
            if ends:
                _end_of_turn(a, pairs, tb, need.later, w, pi, dist[i])


def _improve(pairs: Pairs, tb: Tables, need: Needs, Vnew, dist, ends: bool = True) -> None:
    """One improvement step: best turn of every pair against ``pairs.V`` and (``ends``) where that turn ends."""
    _improve_cols(pairs, tb, need, np.arange(pairs.V.shape[0]), Vnew, dist, ends)


@njit(cache=True, inline="always")
def _dot(x, y, n):
    """``sum(x[:n] * y[:n])`` in eight independent partial sums (a single chain waits on every add)."""
    s0 = s1 = s2 = s3 = s4 = s5 = s6 = s7 = 0.0
    m = n - n % 8
    for k in range(0, m, 8):
        s0 += x[k] * y[k]
        s1 += x[k + 1] * y[k + 1]
        s2 += x[k + 2] * y[k + 2]
        s3 += x[k + 3] * y[k + 3]
        s4 += x[k + 4] * y[k + 4]
        s5 += x[k + 5] * y[k + 5]
        s6 += x[k + 6] * y[k + 6]
        s7 += x[k + 7] * y[k + 7]
    for k in range(m, n):
        s0 += x[k] * y[k]
    return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))


@njit(cache=True)
def _evaluate(V, dist, rows, order, tol, max_sweeps):
    """Win chances of the fixed turn plans (Gauss-Seidel in ``order``); returns sweeps.

    Pair ``i = a * n + b`` ends its turn as ``dist[rows[i]]`` says (several pairs may share a plan).
    """
    n = V.shape[0]
    total = np.empty(dist.shape[0])
    for i in range(dist.shape[0]):
        total[i] = dist[i, :n].sum()
    for sweep in range(max_sweeps):
        delta = 0.0
        for i in order:
            a = i // n
            b = i % n
            r = rows[i]
            row = dist[r]
            v = (row[n] + total[r]) - _dot(row, V[b], n)
            d = abs(v - V[a, b])
            if d > delta:
                delta = d
            V[a, b] = v
        if delta < tol:
            return sweep + 1
    return max_sweeps


VISIT_TURNS = 20_000  # turns followed to count the states a game visits under optimal play at most
VISIT_MASS = 1e-9  # ... until this chance that the game is still running is left


@njit(cache=True, parallel=True)
def _turn_visits(dist, start, max_turns, mass_left):
    """Expected number of turns begun in each player state in a game of two optimal players.

    ``dist`` holds where the turn of each (mover, other) pair ends (the last plan of ``solve_win``);
    after it the other player moves: the pair (a, b) goes to (b, k) with chance ``dist[a * n + b, k]``.
    """
    n = dist.shape[1] - 1
    mass = np.zeros(n * n)
    nxt = np.zeros(n * n)
    visits = np.zeros(n)
    mass[start * n + start] = 1.0
    for _ in range(max_turns):
        if mass.sum() < mass_left:
            break
        for a in range(n):
            for b in range(n):
                visits[a] += mass[a * n + b]
        for b in prange(n):  # the pairs (b, .) after a turn: each thread fills its own row
            row = nxt[b * n : (b + 1) * n]
            row[:] = 0.0
            for a in range(n):
                m = mass[a * n + b]
                if m == 0.0:
                    continue
                d = dist[a * n + b]
                for k in range(n):
                    row[k] += m * d[k]
        mass, nxt = nxt, mass
    return visits


COARSE_STRIDE = 8  # the coarse start: one opponent state in this many (by score) gets its own turn plan ...
COARSE_DENSE = 24  # ... except the states this many units below the target or closer: each has its own
COARSE_STEPS = 12  # ... for at most this many steps
COARSE_TOL = 0.02  # ... or until no representative value moves by this much (its own error is larger)
COARSE_EVAL = (1e-6, 40)  # its plans' evaluation: tolerance and sweeps (a start needs no more)


def coarse_columns(st: np.ndarray, stride: int, dense: int) -> tuple[np.ndarray, np.ndarray]:
    """(representatives, rep_of): every ``stride``-th state of each opened status by score, all of the
    ``dense`` highest scores (how near the target the opponent is matters most there), and for every
    state the position of the nearest representative of its opened status."""
    reps: list[int] = []
    rep_of = np.empty(len(st), np.int64)
    for o in (0, 1):
        idx = np.flatnonzero(st[:, 1] == o)
        if len(idx) == 0:
            continue
        idx = idx[np.argsort(st[idx, 0], kind="stable")]
        top = st[idx[-1], 0]
        near = {p for p in range(len(idx)) if st[idx[p], 0] > top - dense}
        pick = sorted(set(range(0, len(idx), stride)) | {len(idx) - 1} | near)
        first = len(reps)
        reps += [int(idx[p]) for p in pick]
        for j, i in enumerate(idx):
            rep_of[i] = first + min(range(len(pick)), key=lambda k, j=j: (abs(pick[k] - j), pick[k]))
    return np.array(reps, np.int64), rep_of


def _coarse_start(pairs: Pairs, tb: Tables, need: Needs, st, order, log) -> None:
    """Policy iteration in which the turn plan of (a, b) is the one of (a, nearest representative of b).

    Such a plan is a real way to play, so its evaluation is the value of a real (slightly worse) policy:
    a start from which the exact iteration needs three steps instead of seven (default rules).
    """
    V = pairs.V
    n = V.shape[0]
    cols, rep_of = coarse_columns(st, COARSE_STRIDE, COARSE_DENSE)
    if len(cols) * 2 > n:
        return
    nc = len(cols)
    rows = (np.arange(n)[:, None] * nc + rep_of[None, :]).ravel().astype(np.int64)
    Vc = np.empty((n, nc))
    dist = np.empty((n * nc, n + 1))
    for step in range(COARSE_STEPS):
        _improve_cols(pairs, tb, need, cols, Vc, dist)
        moved = float(np.abs(Vc - V[:, cols]).max())
        sweeps = _evaluate(V, dist, rows, order, *COARSE_EVAL)
        if log:
            log(f"coarse step {step + 1}: largest change {moved:.3g}, plan evaluated in {sweeps} sweeps")
        if moved < COARSE_TOL:
            break


def win_bytes(n: int) -> int:
    """The policy iteration's main arrays for ``n`` score states a player, as ``memory_mb`` reports them: the values
    (n x n) and a plan's end-of-turn distribution (n² x (n + 1))."""
    return 8 * n * n * (n + 2)


def check_win_size(rp: np.record, score_floor: int) -> None:
    """Refuse, before any array, a solve larger than half this machine's memory: it grows as the goal's cube (a
    goal of 1,000,000 would need petabytes), and numpy would fail after minutes or the machine would swap."""
    n = len(score_states(rp, score_floor)[0])
    need = win_bytes(n)
    try:
        have = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not a POSIX machine: assume 8 GiB
        have = 8 * 2**30
    if need > have // 2:
        gib, states = f"{need / 2**30:,.1f} GiB", f"{n:,} score states, cubed"
        raise DicesimError(f"optimal-win needs {gib}, this machine has {have / 2**30:,.0f} ({states}, from "
                           f"solver.score_floor {score_floor:,} to goal.target {int(rp.goal_target):,} in steps of "
                           f"{int(rp.unit):,}): narrow the range or widen the steps")


# the pace of a solve for the start line: the default rules' 260 score states a player solved in about 45 s on a
# 2-core machine (benchmarks/results.json, dadox optimal_win_solve); the work grows as the states' cube
PACE_STATES, PACE_SECONDS = 260, 45.0


def pace(n: int) -> str:
    """What a solve of ``n`` score states a player will take, in words (``about 45 s``, ``about 19 min``)."""
    secs = PACE_SECONDS * (n / PACE_STATES) ** 3
    if secs < 90:
        return f"about {max(1, round(secs))} s"
    return f"about {secs / 60:,.0f} min" if secs < 5400 else f"about {secs / 3600:,.1f} h"


def solve_win(rp: np.record, score_floor: int, tol: float, max_iter: int = 200, log=None) -> WinSolution:
    """Policy iteration for the two-player game (see the module docstring)."""
    check_win_size(rp, score_floor)
    st, lo, index, bank_to, bust_to, cap, start = win_structure(rp, score_floor)
    tb, need = build_tables(rp), need_range(rp)
    n = len(st)
    if log:
        log(f"optimal-win: solving the two-player game, {n:,} score states a player ({n * n:,} pairs): "
            f"{pace(n)} at the default rules' pace, longer where games last long; stored once solved")
    level = (st[:, 0][:, None] + st[:, 0][None, :]).ravel()
    order = np.argsort(-level, kind="stable").astype(np.int64)
    V = np.full((n, n), 0.5)
    pairs = Pairs(V, bank_to, bust_to, cap)  # V changes in place
    _coarse_start(pairs, tb, need, st, order, log)
    Vnew = np.empty((n, n))
    dist = np.empty((n * n, n + 1))
    rows = np.arange(n * n, dtype=np.int64)
    residual = prev = np.inf
    it = 0
    while residual >= tol and it < max_iter:
        if it >= 2 and residual**3 / prev**2 < tol / LAST_MARGIN:  # this step is likely the last: values first
            _improve(pairs, tb, need, Vnew, dist, ends=False)
            last = float(np.abs(Vnew - V).max())
            if last < tol:  # done; floor_share follows the plan of the step before (dist is still its)
                it += 1
                residual = last
                V[:] = Vnew
                break
            if log:
                log(f"step {it + 1}: largest change {last:.3g}, not the last step: its plan too")
        it += 1
        prev = residual
        _improve(pairs, tb, need, Vnew, dist)
        residual = float(np.abs(Vnew - V).max())
        V[:] = Vnew
        if residual < tol:
            break
        sweeps = _evaluate(V, dist, rows, order, tol / 100, EVAL_SWEEPS)
        if log:
            log(f"step {it}: largest change {residual:.3g}, plan evaluated in {sweeps} sweeps")
    if residual >= tol:
        raise DicesimError(
            f"optimal-win did not converge: after {it} steps a value still moved by {residual:.3g} "
            f"(solver.tolerance {tol:g})"
        )
    unit = int(rp.unit)
    at_floor = (st[:, 0] == lo) & bool(lo < 0)
    visits = _turn_visits(dist, start, VISIT_TURNS, VISIT_MASS)
    share = float(visits[at_floor].sum() / visits.sum())
    return WinSolution(
        V, st[:, 0] * unit, st[:, 1].copy(), index, lo, bank_to, bust_to, cap, start, it, residual, share
    )
