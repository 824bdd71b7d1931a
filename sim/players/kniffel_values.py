"""The jitted half of Kniffel's logged decisions: each box's exact value in each logged state (its points, bonuses
and the solved value of the next state, as ``policies.kniffel.skill.skill_box`` values it) and whether the joker
ends the turn there. A module of its own so that the play kernels never compile it."""

from __future__ import annotations

from numba import njit

from sim.games.kniffel import rules as R


@njit(cache=True)
def box_values(keys, counts, rolls, E, rp, sc, vals, valid, stop):
    """For decision ``d`` in state ``keys[d]`` with dice ``counts[d]`` (multiset index ``rolls[d]``):
    ``vals[d, c]`` the value of scoring box ``c`` (where ``valid[d, c]``: open and legal) and ``stop[d]``: the joker
    is in play and ends the turn (no hold is legal)."""
    for d in range(keys.shape[0]):
        key = keys[d]
        mask = R.key_mask(key)
        flag = R.key_flag(key)
        cd = counts[d]
        r = rolls[d]
        stop[d] = sc[R.KNIFFEL, r] > 0 and R.must_score_now(cd, mask, flag, rp)
        for c in range(R.N_CAT):
            if (mask >> c) & 1 or not R.legal(cd, c, mask, flag, rp):
                valid[d, c] = False
                vals[d, c] = 0.0
                continue
            pts, ub, kb, nk = R.apply_move_fast(cd, r, c, key, rp, sc)
            vals[d, c] = pts + ub + kb + E[nk]
            valid[d, c] = True
