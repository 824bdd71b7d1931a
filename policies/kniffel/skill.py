"""Kniffel's decisions below full skill (the model: ``sim.core.skill``).

Every decision first draws the lapse coin (a random hold or box, as ``random`` plays them). Otherwise:

- holds: ``optimal`` draws one of the 32 holds of the five dice (a die kept or not, as ``random``
  chooses them) by softmax over the expected final score of the kept multiset (the turn's widget,
  ``kv[roll, keep]``); ``greedy`` has no value of a hold and keeps its own hold;
- boxes: softmax over the legal open boxes, valued by ``optimal`` at their points, bonuses and the
  solved value of the next state (``E``), by ``greedy`` at their points now.

The value unit of the temperature is ``UNIT`` points.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.kniffel.bots import OPTIMAL, random_box, random_keep
from policies.skill import lapses, softmax_pick, temperature
from sim.games.kniffel import rules as R

UNIT = 1.0  # points: Kniffel's value unit of the softmax temperature (a twentieth of optimal's mean turn score)
POW7 = np.array([1, 7, 49, 343, 2401, 16807], np.int64)


@njit(cache=True)
def skill_keep(pid, lv, dice, level, r, r0, plan_keep, kv, mcounts, ioc, s, keep):
    """Fill ``keep`` (counts per face) for the reroll after roll ``level``; returns the skill stream."""
    s, lapse = lapses(s, lv)
    if lapse:
        return random_keep(dice, s, keep)
    if pid == OPTIMAL and kv.shape[0] > 0:
        vals = np.empty(32)
        for m in range(32):
            code = 0
            for i in range(5):
                if (m >> i) & 1:
                    code += POW7[dice[i] - 1]
            vals[m] = kv[level, ioc[code]]
        s, m = softmax_pick(vals, 32, temperature(lv, UNIT), s)
        for f in range(6):
            keep[f] = 0
        for i in range(5):
            if (m >> i) & 1:
                keep[dice[i] - 1] += 1
        return s
    k = plan_keep[level if pid == OPTIMAL else 0, r - r0]
    for f in range(6):
        keep[f] = mcounts[k, f]
    return s


@njit(cache=True)
def skill_box(pid, lv, counts, key, r, E, rp, sc, s):
    """The box for the final roll ``r`` below full skill; returns (skill stream, box)."""
    s, lapse = lapses(s, lv)
    if lapse:
        return random_box(counts, key, rp, s)
    mask = R.key_mask(key)
    flag = R.key_flag(key)
    vals = np.empty(R.N_CAT)
    boxes = np.empty(R.N_CAT, np.int64)
    n = 0
    for c in range(R.N_CAT):
        if (mask >> c) & 1 or not R.legal(counts, c, mask, flag, rp):
            continue
        pts, ub, kb, nk = R.apply_move_fast(counts, r, c, key, rp, sc)
        vals[n] = pts + ub + kb + E[nk] if pid == OPTIMAL else pts
        boxes[n] = c
        n += 1
    s, j = softmax_pick(vals, n, temperature(lv, UNIT), s)
    return s, boxes[j]
