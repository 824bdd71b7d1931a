"""Dadox bot policies: after each scoring throw, which dice to set aside and whether to bank.

Registry ``POLICIES`` maps a name to the integer id the play kernel dispatches on (integer dispatch
keeps the compiled kernel in numba's disk cache for every policy). A decision is one integer,
``option * 2 + bank``: ``option`` indexes the throw's set-aside options (rows of ``tables.opt``:
points high first, then fewer dice) and ``bank`` asks to bank after it (ignored where the rules
forbid it). Adding a policy: one decision function here, one registry line and one branch in
``decide`` (plain policies) or ``decide_solved`` (policies that read solved tables: optimal-*).
The two dispatchers are apart because handing the tables' tuples to a function costs reference
counting on every call, which would triple the time of a threshold turn.

- ``threshold``: sets aside the most points (fewest dice on ties) and banks once the turn total
  reaches ``policies.threshold[n - 1]``, ``n`` the dice it would throw next (hot dice: 6).
- ``greedy``: sets aside every scoring die it can (most dice, then most points) and banks once the
  turn total reaches ``policies.greedy_bank_at``.
- ``optimal-turn``: the exact maximum of the expected turn score (``solve.solve_turn``).
- ``optimal-win``: the exact maximum of the chance to win a two-player game (``solve_win.solve_win``);
  each decision looks its options up in the solved plan (``winplan.win_plan``: every pair of states'
  throw values; banking values from ``V``), and rebuilds the pair's turn only past the plan's turn
  totals (or without a plan). Two players only: with more it would not be optimal, and the game refuses it.
- ``leader-win``: the same two-player plan at any table size, played against the leading other
  player (the best other score) as if the game were a duel with it: a heuristic beyond two players.
- ``random``: a uniform option; banks with chance ``policies.random_bank`` where allowed.

Every policy obeys the selection's lock (``rules.LOCK_*``): after a strong selection, a declined
triple or street, or (``turn.hot_dice = "throw"``) hot dice a bank is not allowed (the kernel throws
on whatever the policy asks), and the solved policies value such an option by the throw it obliges.

The first three play the end of the game the same way (``endgame_limit``): with an exact target
they take and bank an option that hits it, never set aside more than the points still needed
while another option fits, and otherwise give the turn up as cheaply as the rules allow; with a
plain target they bank as soon as banking wins.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.core.rng import next_below, next_float
from sim.games.dadox import rules as R
from sim.games.dadox.options import WIN_POLICIES as WIN_POLICIES
from sim.games.dadox.solve import NO_BANK, WIN, Needs, Pairs, TurnWork, pair_turn, tail_scratch
from sim.games.dadox.tables import NL, OPT_LOCK, OPT_PTS, OPT_USED, QW

POLICIES = {"threshold": 0, "greedy": 1, "optimal-turn": 2, "optimal-win": 3, "random": 4, "leader-win": 5}
THRESHOLD, GREEDY, OPTIMAL_TURN, OPTIMAL_WIN, RANDOM, LEADER_WIN = (POLICIES[p] for p in POLICIES)
NO_LIMIT = np.int64(1 << 60)  # best_by_q's points limit where none applies (int64, not a literal: one compile)

# the policy parameters: the record ``pp`` (``sim.games.dadox.config.POLICY_PARAMS``), read by config path


class Solved(NamedTuple):
    """The exact policies' tables (one-element dummies where no seat needs them)."""

    turn_q: np.ndarray  # float64 [2 opened, (cap + pad + 1) * QW]: Q of the turn objective
    turn_thr: np.ndarray  # float64 [2 opened, cap + 1, 6, 2]
    turn_cap: int  # units
    turn_bank: np.ndarray  # float64 [cap + 1]: points banked at each turn total
    turn_bank_ok: np.ndarray  # bool [2 opened, cap + 1]
    V: np.ndarray  # float64 [S, S]
    index: np.ndarray  # int64 [2, target - lo]
    lo: int
    bank_to: np.ndarray  # int64 [S, TM]
    bust_to: np.ndarray  # int64 [S, TM]
    cap: np.ndarray  # int64 [S]
    # optimal-win's lookup table (``winplan.WinPlan``); empty: every turn rebuilds its plan from ``V``
    plan: np.ndarray = np.zeros(0)
    plan_off: np.ndarray = np.zeros(0, np.int64)
    plan_rows: np.ndarray = np.zeros(0, np.int64)
    plan_cols: int = 1


class Scratch(NamedTuple):
    """One thread's optimal-win turn plan where ``Solved.plan`` does not reach (rebuilt when ``key`` =
    (own, opponent) state changes)."""

    key: np.ndarray  # int64 [2]
    thr: np.ndarray
    q: np.ndarray
    bank_val: np.ndarray
    bank_ok: np.ndarray
    bust_val: np.ndarray


@njit(cache=True)
def make_scratch(tm: int, pad: int) -> Scratch:
    """Scratch for turn totals up to ``tm`` (``Solved.bank_to`` columns) and option pad ``pad``."""
    return Scratch(
        np.full(2, -1, np.int64), np.empty((tm, R.N_DICE, 2)), np.empty((tm + pad + 1) * QW),
        np.empty(tm), np.empty(tm, np.bool_), np.empty(tm),
    )


@njit(cache=True, inline="always")
def next_dice(n: int, used: int) -> int:
    """Dice thrown next after setting ``used`` of ``n`` aside (hot dice: all six again)."""
    return n - used if used < n else R.N_DICE


# --- the endgame all heuristic policies share ---------------------------------------------------


@njit(cache=True)
def endgame_limit(o0, no, t, me, opened, opt, rp):
    """(forced decision or -1, points limit): the end-of-game play of threshold/greedy/optimal-turn.

    The limit is the most points an option may add (some option always fits it). A decision is
    forced where an option wins by banking, and where every option passes an exact target or hits it
    only with a selection that obliges a throw (the fewest points that may be banked, banked unless
    busting costs less than an overshoot; the fewest points, thrown on, where none may be banked).
    """
    need = rp.goal_target - me - t
    big = 1 << 60
    if opt[o0, OPT_PTS] < need:  # options are sorted by points: none reaches the target
        return -1, big
    for i in range(no):
        o = o0 + i
        pts = opt[o, OPT_PTS]
        hit = pts == need if rp.goal_exact == 1 else pts >= need
        if hit and R.may_bank(opened, t + pts, opt[o, OPT_LOCK] != R.LOCK_FREE, rp):
            return i * 2 + 1, big
    if rp.goal_exact == 0:
        return -1, big
    if opt[o0 + no - 1, OPT_PTS] < need:
        return -1, need - 1
    # no option fits below the target and none that hits it may be banked: the fewest points, banked
    # (an overshoot) where that is allowed, unless busting costs less than an overshoot
    cheap_bust = rp.bust_penalty == R.PENALTY_LOSE and rp.goal_overshoot == R.OVERSHOOT_SUBTRACT
    if not cheap_bust:
        best = -1
        for i in range(no):  # sorted by points, then fewer dice: the first of the fewest points
            o = o0 + i
            if R.may_bank(opened, t + opt[o, OPT_PTS], opt[o, OPT_LOCK] != R.LOCK_FREE, rp) and (
                best < 0 or opt[o, OPT_PTS] < opt[o0 + best, OPT_PTS]
            ):
                best = i
        if best >= 0:
            return best * 2 + 1, big
    i = no - 1
    while i > 0 and opt[o0 + i - 1, OPT_PTS] == opt[o0 + i, OPT_PTS]:
        i -= 1
    return i * 2, big


# --- the policies ---------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def bank_threshold(nd: int, pp: np.record) -> float:
    """``policies.threshold[nd - 1]``: the threshold policy's bank total with ``nd`` dice to throw next."""
    if nd == 1:
        return pp.policies_threshold_1
    if nd == 2:
        return pp.policies_threshold_2
    if nd == 3:
        return pp.policies_threshold_3
    if nd == 4:
        return pp.policies_threshold_4
    if nd == 5:
        return pp.policies_threshold_5
    return pp.policies_threshold_6


@njit(cache=True)
def threshold(o0, no, t, n, opened, limit, opt, rp, pp):
    """The most points within ``limit``; bank at the threshold for the dice left."""
    i = 0
    while opt[o0 + i, OPT_PTS] > limit:  # sorted by points: the first that fits is the most points
        i += 1
    o = o0 + i
    tt = t + opt[o, OPT_PTS]
    nd = next_dice(n, opt[o, OPT_USED])
    bank = R.may_bank(opened, tt, opt[o, OPT_LOCK] != R.LOCK_FREE, rp) and tt >= bank_threshold(nd, pp)
    return i * 2 + (1 if bank else 0)


@njit(cache=True)
def greedy(o0, no, t, n, opened, limit, opt, rp, pp):
    """Every scoring die within ``limit`` (most dice, then most points); bank at a fixed total."""
    best = -1
    for i in range(no):
        o = o0 + i
        if opt[o, OPT_PTS] > limit:
            continue
        if best < 0 or opt[o, OPT_USED] > opt[o0 + best, OPT_USED]:  # points high first: ties keep more
            best = i
    o = o0 + best
    tt = t + opt[o, OPT_PTS]
    bank = R.may_bank(opened, tt, opt[o, OPT_LOCK] != R.LOCK_FREE, rp) and tt >= pp.policies_greedy_bank_at
    return best * 2 + (1 if bank else 0)


@njit(cache=True)
def random_choice(o0, no, t, opened, opt, rp, pp, sd):
    """A uniform option; bank with the configured chance where allowed. Returns (decision, stream)."""
    sd, i = next_below(sd, no)
    o = o0 + i
    sd, u = next_float(sd)
    bank = R.may_bank(opened, t + opt[o, OPT_PTS], opt[o, OPT_LOCK] != R.LOCK_FREE, rp) and u < pp.policies_random_bank
    return i * 2 + (1 if bank else 0), sd


@njit(cache=True)
def best_by_q(o0, no, t, n, limit, opt, q, thr, bank_ok, bank_val, cap, rp):
    """The option with the best Q within ``limit`` (ties: more points), banked where banking is no
    worse than throwing on. ``q``/``thr`` are a solved turn; banking at the capped turn total ``tc``
    is worth ``bank_val[tc]`` and allowed where ``bank_ok[tc]``."""
    unit = rp.unit
    later = rp.turn_later_throws_need_1_or_5
    best = -np.inf
    bi = -1
    for i in range(no):
        o = o0 + i
        if opt[o, OPT_PTS] > limit:
            continue
        tc = min((t + opt[o, OPT_PTS]) // unit, cap)
        v = q[tc * QW + (next_dice(n, opt[o, OPT_USED]) - 1) * NL + opt[o, OPT_LOCK]]
        if v > best:
            best = v
            bi = i
    o = o0 + bi
    tc = min((t + opt[o, OPT_PTS]) // unit, cap)
    nd = next_dice(n, opt[o, OPT_USED])
    bank = opt[o, OPT_LOCK] == R.LOCK_FREE and bank_ok[tc] and bank_val[tc] >= thr[tc, nd - 1, later]
    return bi * 2 + (1 if bank else 0)


@njit(cache=True)
def optimal_turn(o0, no, t, n, opened, limit, opt, rp, sol):
    """Maximise the expected turn score (the solved turn table of this opened status)."""
    k = 1 if opened else 0
    return best_by_q(
        o0, no, t, n, limit, opt, sol.turn_q[k], sol.turn_thr[k], sol.turn_bank_ok[k], sol.turn_bank, sol.turn_cap, rp
    )


@njit(cache=True)
def win_state(score, opened, sol, rp):
    """The solver's state of a player (scores below the floor count as the floor)."""
    u = max(score // rp.unit, sol.lo)
    k = sol.index[1 if opened else 0, u - sol.lo]
    return k if k >= 0 else sol.index[1, u - sol.lo]


@njit(cache=True)
def best_by_plan(o0, no, t, n, opt, a, b, sol, rp):
    """``best_by_q`` read from the solved plan of the pair (``a``, ``b``): the same values, looked up.

    Returns -1 where an option reaches a turn total the plan does not store (``sol.plan_rows``).
    Q of (turn total ``tc``, ``nd`` dice, lock) is the throw value, or for a free lock the bank value
    ``1 - V[b, bank_to]`` where banking is allowed and not worse (as ``solve.q_row``).
    """
    unit = rp.unit
    cols = sol.plan_cols
    rows = sol.plan_rows[a]
    c = sol.cap[a]
    base = sol.plan_off[a] + b * rows * R.N_DICE * cols
    best = -np.inf
    bi = -1
    bank = False
    for i in range(no):
        o = o0 + i
        tc = (t + opt[o, OPT_PTS]) // unit
        if tc > c:
            tc = c
        if tc >= rows:
            return -1
        lock = opt[o, OPT_LOCK]
        k = base + (tc * R.N_DICE + next_dice(n, opt[o, OPT_USED]) - 1) * cols
        v = sol.plan[k + cols - 1] if lock == R.LOCK_CONFIRM else sol.plan[k]
        can_bank = False
        if lock == R.LOCK_FREE:
            to = sol.bank_to[a, tc]
            if to != NO_BANK:
                bv = 1.0 if to == WIN else 1.0 - sol.V[b, to]
                if bv >= v:
                    v = bv
                    can_bank = True
        if v > best:
            best = v
            bi = i
            bank = can_bank
    return bi * 2 + (1 if bank else 0)


@njit(cache=True)
def optimal_win(o0, no, t, n, me, opened, opp, opp_opened, opt, tb, rp, sol, scr):
    """Maximise the chance to win against the (leading) opponent: the solved two-player plan, looked up
    in ``sol.plan`` (or rebuilt for this pair of states where the plan does not reach)."""
    a = win_state(me, opened, sol, rp)
    b = win_state(opp, opp_opened, sol, rp)
    if sol.plan.shape[0] > 0:
        d = best_by_plan(o0, no, t, n, opt, a, b, sol, rp)
        if d >= 0:
            return d
    if scr.key[0] != a or scr.key[1] != b:
        later = rp.turn_later_throws_need_1_or_5
        need_hi = 1 if (later or rp.turn_confirm) else 0
        sv, sa = tail_scratch(tb)  # here, not in ``Scratch``: every array there costs each decision a reference count
        w = TurnWork(scr.bank_val, scr.bank_ok, scr.bust_val, scr.thr, scr.q, np.empty((0, 0), np.int64), sv, sa)
        pair_turn(a, b, Pairs(sol.V, sol.bank_to, sol.bust_to, sol.cap), tb, Needs(later, later, need_hi), w)
        scr.key[0] = a
        scr.key[1] = b
    return best_by_q(o0, no, t, n, NO_LIMIT, opt, scr.q, scr.thr, scr.bank_ok, scr.bank_val, sol.cap[a], rp)


# --- dispatch -------------------------------------------------------------------------------------


@njit(cache=True)
def decide(pid, o0, no, t, n, me, opened, opt, rp, pp, sd):
    """The decision of a plain policy for a scoring throw of ``n`` dice at turn total ``t``.

    ``o0``/``no``: the throw's option rows in ``opt``; ``me``: own score. Returns
    (``option * 2 + bank``, the decision stream).
    """
    if pid == RANDOM:
        return random_choice(o0, no, t, opened, opt, rp, pp, sd)
    forced, limit = endgame_limit(o0, no, t, me, opened, opt, rp)
    if forced >= 0:
        return forced, sd
    if pid == THRESHOLD:
        return threshold(o0, no, t, n, opened, limit, opt, rp, pp), sd
    return greedy(o0, no, t, n, opened, limit, opt, rp, pp), sd


@njit(cache=True)
def decide_solved(pid, o0, no, t, n, me, opened, opp, opp_opened, opt, tb, rp, sol, scr):
    """``decide`` for the policies that read solved tables; ``opp``: the leading opponent's score."""
    if pid == OPTIMAL_WIN or pid == LEADER_WIN:
        return optimal_win(o0, no, t, n, me, opened, opp, opp_opened, opt, tb, rp, sol, scr)
    forced, limit = endgame_limit(o0, no, t, me, opened, opt, rp)
    if forced >= 0:
        return forced
    return optimal_turn(o0, no, t, n, opened, limit, opt, rp, sol)
