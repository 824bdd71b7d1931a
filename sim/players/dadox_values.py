"""The jitted half of Dadox's logged decisions: every set-aside option's solved turn value in each logged state, as
``policies.dadox.skill.soft_turn`` values it, and the parts of the model's chance of the logged choice (the lapse's
chance, a forced end-game move, the bank-or-throw softmax). A module of its own: the play kernels never compile it.

``loss[d]``: the turn points the choice cost against the best option the policy may take (its end game's points
limit; a forced move followed costs nothing, and no choice gains), so the policy's own log loses nothing.

``status[d]``: 0 a decision; 1 the dice set aside do not all score; 2 they are not an option of the throw; 3 banked
where banking is not allowed (a confirmation or a declined group obliges a throw, or the opening minimum is not met).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from policies.dadox.bots import endgame_limit, next_dice
from sim.games.dadox import rules as R
from sim.games.dadox.tables import NL, OPT_LOCK, OPT_PTS, OPT_USED, QW


class Logged(NamedTuple):
    """The logged decisions, one row each: the throw's multiset index ``k``, whether it is the turn's first throw, the
    turn total, the player's score, whether the player has opened, the dice set aside (face counts) and the bank."""

    k: np.ndarray
    first: np.ndarray
    turn_total: np.ndarray
    score: np.ndarray
    opened: np.ndarray
    set_aside: np.ndarray
    bank: np.ndarray


class Valued(NamedTuple):
    """What ``option_values`` writes per decision ``d`` (see the module docstring): each option's turn value
    ``vals[d, i]``, whether the policy may take it (``valid``), the chosen one (``chosen``), the lapse's chance,
    ``gate`` (0 where the softmax never takes the choice), ``forced`` (1 a forced move followed, 0 not, -1 none),
    the bank-or-throw softmax's value difference ``binary``, ``loss`` and ``status``."""

    vals: np.ndarray
    valid: np.ndarray
    chosen: np.ndarray
    lapse: np.ndarray
    gate: np.ndarray
    forced: np.ndarray
    binary: np.ndarray
    loss: np.ndarray
    status: np.ndarray


@njit(cache=True)
def option_values(log, tb, rp, sol, random_bank, out):
    """Value the logged decisions ``log`` into ``out``: the throw tables ``tb`` (``tables.build_tables``), the
    optimal-turn solution ``sol`` (``policies.dadox.bots.Solved``), the lapse's chance to bank ``random_bank``."""
    ks, firsts, ts, mes, openeds, sels, banks = log
    counts, opt_start, opt_n, opt = tb.counts, tb.opt_start, tb.opt_n, tb.opt
    turn_q, turn_thr, turn_bank, turn_bank_ok = sol.turn_q, sol.turn_thr, sol.turn_bank, sol.turn_bank_ok
    cap = sol.turn_cap
    vals, valid, chosen, lapse, gate, forced, binary, loss, status = out
    unit = rp.unit
    later = rp.turn_later_throws_need_1_or_5
    for d in range(ks.shape[0]):
        k = ks[d]
        first = firsts[d]
        v = 1 if first else 0
        o0 = opt_start[k, v]
        no = opt_n[k, v]
        t = ts[d]
        opened = openeds[d]
        n = 0
        for f in range(6):
            n += counts[k, f]
        sel = sels[d]
        pts = R.selection_score(sel, rp)
        if pts < 0 or no == 0:
            status[d] = 1
            continue
        used = 0
        for f in range(6):
            used += sel[f]
        lock = R.lock_of(sel, counts[k], first, rp)
        ci = -1
        for i in range(no):
            o = o0 + i
            if opt[o, OPT_PTS] == pts and opt[o, OPT_USED] == used and opt[o, OPT_LOCK] == lock:
                ci = i
        if ci < 0:
            status[d] = 2
            continue
        mb = R.may_bank(opened, t + pts, lock != R.LOCK_FREE, rp)
        b = banks[d]
        if b and not mb:
            status[d] = 3
            continue
        lapse[d] = (random_bank if b else 1.0 - random_bank) / no if mb else 1.0 / no
        fo, limit = endgame_limit(o0, no, t, mes[d], opened, opt, rp)
        q = turn_q[1 if opened else 0]
        thr = turn_thr[1 if opened else 0]
        bank_ok = turn_bank_ok[1 if opened else 0]
        best = -np.inf
        for i in range(no):
            o = o0 + i
            tc = min((t + opt[o, OPT_PTS]) // unit, cap)
            x = q[tc * QW + (next_dice(n, opt[o, OPT_USED]) - 1) * NL + opt[o, OPT_LOCK]]
            if opt[o, OPT_PTS] <= limit:  # the policy's end game: only these are its options
                vals[d, i] = x
                valid[d, i] = True
                best = max(best, x)
        chosen[d, ci] = True
        tc = min((t + pts) // unit, cap)
        nd = next_dice(n, used)
        vb = turn_bank[tc]
        vt = thr[tc, nd - 1, later]
        q_ci = q[tc * QW + (nd - 1) * NL + lock]
        if lock == R.LOCK_FREE and bank_ok[tc]:
            if mb:  # the two-way softmax decides
                binary[d] = vt - vb if b else vb - vt
            value = vb if b else vt
        else:  # the softmax never banks here: a bank is a lapse's
            if b:
                gate[d] = 0.0
            value = vb if b else q_ci
        if fo >= 0:
            fi = fo // 2
            of = o0 + fi
            fb = fo % 2 == 1 and R.may_bank(opened, t + opt[of, OPT_PTS], opt[of, OPT_LOCK] != R.LOCK_FREE, rp)
            forced[d] = 1 if (fi == ci and fb == b) else 0
        loss[d] = 0.0 if forced[d] == 1 else max(0.0, best - value)  # an option past the limit: turn values
        # count its points, not that the end game voids them (an overshoot), so it is never a gain
