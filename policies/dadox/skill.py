"""Dadox's decisions below full skill (the model: ``sim.core.skill``).

Every decision first draws the lapse coin: a lapse is ``random``'s move (a uniform option, banked with
``policies.random_bank`` where allowed). Otherwise ``optimal-turn`` chooses by softmax over its solved
turn values: the set-aside option by the value of the state it leads to, then bank or throw on by the
value of each (the end of the game as the policy plays it: ``endgame_limit``'s forced moves stay, the
options stay within its points limit). The plain heuristics and the two-player solutions
(``optimal-win``, ``leader-win``: their values are win chances, not points) make their own move.

The value unit of the temperature is ``UNIT`` points; the levels are the policy record's
``pp.skill_level_ppm`` and ``pp.skill_opponents_ppm`` (``policies.skill.record_level``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.dadox.bots import (
    OPTIMAL_TURN,
    decide,
    decide_solved,
    endgame_limit,
    next_dice,
    random_choice,
)
from policies.skill import lapses, soft_binary, softmax_pick, temperature
from sim.games.dadox import rules as R
from sim.games.dadox.tables import NL, OPT_LOCK, OPT_PTS, OPT_USED, QW

UNIT = 20.0  # points: Dadox's value unit of the softmax temperature (about a twentieth of optimal-turn's 366 a turn)


@njit(cache=True)
def soft_turn(lv, o0, no, t, n, me, opened, opt, rp, sol, s):
    """``optimal-turn`` by softmax over its solved turn values. Returns (decision, skill stream)."""
    forced, limit = endgame_limit(o0, no, t, me, opened, opt, rp)
    if forced >= 0:
        return forced, s
    k = 1 if opened else 0
    q = sol.turn_q[k]
    thr = sol.turn_thr[k]
    bank_ok = sol.turn_bank_ok[k]
    cap = sol.turn_cap
    unit = rp.unit
    later = rp.turn_later_throws_need_1_or_5
    tau = temperature(lv, UNIT)
    vals = np.empty(no)
    idx = np.empty(no, np.int64)
    m = 0
    for i in range(no):
        o = o0 + i
        if opt[o, OPT_PTS] > limit:
            continue
        tc = min((t + opt[o, OPT_PTS]) // unit, cap)
        vals[m] = q[tc * QW + (next_dice(n, opt[o, OPT_USED]) - 1) * NL + opt[o, OPT_LOCK]]
        idx[m] = i
        m += 1
    s, j = softmax_pick(vals, m, tau, s)
    i = idx[j]
    o = o0 + i
    tc = min((t + opt[o, OPT_PTS]) // unit, cap)
    bank = False
    if opt[o, OPT_LOCK] == R.LOCK_FREE and bank_ok[tc]:
        s, bank = soft_binary(sol.turn_bank[tc], thr[tc, next_dice(n, opt[o, OPT_USED]) - 1, later], tau, s)
    return i * 2 + (1 if bank else 0), s


@njit(cache=True)
def skill_decide(pid, lv, o0, no, t, n, me, opened, opt, rp, pp, s):
    """The decision of a plain policy ``pid`` at level ``lv`` < 1. Returns (``option * 2 + bank``, skill stream)."""
    s, lapse = lapses(s, lv)
    if lapse:
        return random_choice(o0, no, t, opened, opt, rp, pp, s)
    choice, _ = decide(pid, o0, no, t, n, me, opened, opt, rp, pp, s)
    return choice, s


@njit(cache=True)
def skill_decide_solved(pid, lv, o0, no, t, n, me, opened, opp, opp_opened, opt, tb, rp, pp, sol, scr, s):
    """``skill_decide`` for the policies that read solved tables (apart, like ``decide_solved``: handing the tables'
    tuples to a function costs reference counting on every call)."""
    s, lapse = lapses(s, lv)
    if lapse:
        return random_choice(o0, no, t, opened, opt, rp, pp, s)
    if pid == OPTIMAL_TURN:
        return soft_turn(lv, o0, no, t, n, me, opened, opt, rp, sol, s)
    return decide_solved(pid, o0, no, t, n, me, opened, opp, opp_opened, opt, tb, rp, sol, scr), s
