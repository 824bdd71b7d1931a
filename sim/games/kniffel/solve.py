"""Exact solitaire optimum of Kniffel by dynamic programming (expectimax over the whole game).

``E[key]`` is the expected final score still to come from the start of a turn in state ``key``
(see ``rules``). States are solved from the full sheet backwards, one count of filled boxes at a
time (each level in parallel). One turn (a "widget") is solved with the multiset recursions of
``sim.core.dice``: final values per roll, then per remaining reroll the expectation over each keep and
the best keep of each roll. Only reachable upper subtotals are solved. The table is filled ``LANES``
states at a time (``widget_lanes``): the recursions' index tables are the same for every state, so with
the state as the innermost array axis they run as vector instructions (bit for bit ``widget``'s values;
``widget`` itself stays for the plans of play and replay).

``table.py`` caches the table on disk, keyed by the config hash and this solver's code version.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from sim.core.dice import best_subkeep, best_subkeep_value, expect_over_rerolls, multisets
from sim.games.kniffel import rules as R
from sim.games.kniffel.states import reachable_uppers as reachable_uppers
from sim.games.kniffel.states import state_levels

T5 = multisets(5)
NEG = -1e18


@njit(cache=True)
def score_table(counts, rolls, rp):
    """Normal-rule box scores ``[category, multiset]`` of every full roll (jokers aside)."""
    sc = np.zeros((R.N_CAT, counts.shape[0]), np.int64)
    for r in rolls:
        for c in range(R.N_CAT):
            sc[c, r] = R.category_score(counts[r], c, rp)
    return sc


@njit(cache=True)
def final_values(key, E, counts, rolls, kniffel_rolls, sc, rp, val, cat, want_cat):
    """Best value of scoring each roll now: box + bonuses + E[next]; ``cat`` gets the category.

    All table lookups: ``vu[c, n]`` is the value of scoring ``n`` dice in upper box ``c``,
    ``base[c]`` the future value after filling lower box ``c``. The six Kniffel rolls then get
    the joker rules and the Kniffel bonus (``tests`` check this against ``rules.apply_move``).
    """
    counts_t = counts.T
    mask = R.key_mask(key)
    up = R.key_up(key)
    flag = R.key_flag(key)
    cap = rp.up_cap
    thr = rp.bonus_threshold
    bonus = rp.bonus_value
    vu = np.empty((6, 6))
    base = np.empty(R.N_CAT)
    r0 = rolls[0]
    r1 = rolls[-1] + 1  # full rolls are the last multisets, contiguous
    for r in range(r0, r1):
        val[r] = NEG
        cat[r] = -1
    for c in range(R.N_CAT):
        if (mask >> c) & 1:
            continue
        nmask = mask | (1 << c)
        if c < 6:
            for n in range(6):
                pts = n * (c + 1)
                ub = bonus if (bonus > 0 and up < thr <= up + pts) else 0
                vu[c, n] = pts + ub + E[R.make_key(nmask, min(cap, up + pts), flag)]
            vc = vu[c]
            cnt = counts_t[c]
            if want_cat:
                for r in range(r0, r1):
                    v = vc[cnt[r]]
                    if v > val[r]:
                        val[r] = v
                        cat[r] = c
            else:
                for r in range(r0, r1):
                    val[r] = max(val[r], vc[cnt[r]])
        else:
            b = E[R.make_key(nmask, up, flag)]
            base[c] = b
            scc = sc[c]
            if want_cat:
                for r in range(r0, r1):
                    v = scc[r] + b
                    if v > val[r]:
                        val[r] = v
                        cat[r] = c
            else:
                for r in range(r0, r1):
                    val[r] = max(val[r], scc[r] + b)
    # Kniffel rolls: joker scoring, forced order, Kniffel bonus
    mode = rp.joker_mode
    kniffel_filled = (mask >> R.KNIFFEL) & 1
    joker = mode != R.JOKER_OFF and kniffel_filled == 1 and (flag == 1 or rp.joker_when_zero == 1)
    kb = rp.scores_kniffel_bonus if flag == 1 else 0
    lower_open = (mask >> 6) != (1 << 7) - 1
    for r in kniffel_rolls:
        f = 0
        while counts[r, f] != 5:
            f += 1
        face_open = not (mask >> f) & 1
        best = NEG
        bc = -1
        for c in range(R.N_CAT):
            if (mask >> c) & 1:
                continue
            if joker and mode == R.JOKER_FORCED:
                if face_open and c != f:
                    continue
                if not face_open and lower_open and c < 6:
                    continue
            if c < 6:
                v = vu[c, 5 if c == f else 0]
            elif c == R.KNIFFEL:
                v = sc[c, r] + E[R.make_key(mask | (1 << c), up, 1 if sc[c, r] == rp.scores_kniffel else 0)]
            else:
                s = sc[c, r]
                if joker and R.FULL_HOUSE <= c <= R.GROSSE_STRASSE and (mode == R.JOKER_FORCED or not face_open):
                    s = R.joker_score(c, rp)
                v = s + base[c]
            v += kb
            if v > best:
                best = v
                bc = c
        val[r] = best
        cat[r] = bc


@njit(cache=True)
def widget(key, E, T, rp, sc, kniffel_rolls, scratch, keep_plan, cat_plan, want_plan, kv):
    """Expected score from the start of a turn in ``key``; optionally the turn's plan.

    ``T`` is (counts, child, parent, size_start, rolls) of ``multisets(5)``. ``keep_plan[l, i]``
    is the multiset index to keep after roll ``l + 1`` showing full roll ``rolls[i]``;
    ``cat_plan[i]`` the box for final roll ``rolls[i]``. ``scratch``: see ``new_scratch``.
    ``kv`` (rows = rolls - 1), when given, receives each reroll's expected value per keep.
    """
    counts, child, parent, size_start, rolls = T
    fs, cats, args = scratch
    mask = R.key_mask(key)
    flag = R.key_flag(key)
    final = fs[0]
    val = fs[1]
    K = fs[2]
    best = fs[3]
    cat = cats
    arg = args
    final_values(key, E, counts, rolls, kniffel_rolls, sc, rp, final, cat, want_plan)
    r0 = rolls[0]
    if want_plan:
        for r in rolls:
            cat_plan[r - r0] = cat[r]
    for r in rolls:
        val[r] = final[r]
    n_rolls = rp.turn_rolls
    for level in range(n_rolls - 1, 0, -1):
        expect_over_rerolls(val, child, size_start, K)
        if kv.shape[0] > 0:
            kv[level - 1, :] = K
        if want_plan:
            best_subkeep(K, parent, size_start, best, arg)
        else:
            best_subkeep_value(K, parent, size_start, best)
        for r in rolls:
            val[r] = best[r]
        for r in kniffel_rolls:
            if R.must_score_now(counts[r], mask, flag, rp):
                val[r] = final[r]
                arg[r] = r
        if want_plan:
            for r in rolls:
                keep_plan[level - 1, r - r0] = arg[r]
    expect_over_rerolls(val, child, size_start, K)
    return K[0]


def new_scratch(m: int = len(T5.counts)):
    return (np.empty((4, m)), np.empty(m, np.int64), np.empty(m, np.int64))


LANES = 64  # states solved side by side: the keep and reroll recursions run on all of them at once (SIMD)


@njit(cache=True, inline="always")
def expect_lanes(val, child, size_start, K):
    """``expect_over_rerolls`` for ``LANES`` states at once (``[multiset, lane]``; same sums, same order).

    The lane count is read from the array (not the constant): a loop of known short length is unrolled
    into scalar code, one of unknown length is vectorized.
    """
    nl = K.shape[1]
    n = size_start.shape[0] - 2
    for k in range(size_start[n], size_start[n + 1]):
        for j in range(nl):
            K[k, j] = val[k, j]
    for s in range(n - 1, -1, -1):
        for k in range(size_start[s], size_start[s + 1]):
            c0, c1, c2, c3, c4, c5 = child[k, 0], child[k, 1], child[k, 2], child[k, 3], child[k, 4], child[k, 5]
            for j in range(nl):
                K[k, j] = (K[c0, j] + K[c1, j] + K[c2, j] + K[c3, j] + K[c4, j] + K[c5, j]) / 6.0


@njit(cache=True, inline="always")
def best_lanes(K, parent, size_start, best):
    """``best_subkeep_value`` for ``LANES`` states at once."""
    nl = K.shape[1]
    n = size_start.shape[0] - 2
    for s in range(0, n + 1):
        for k in range(size_start[s], size_start[s + 1]):
            for j in range(nl):
                best[k, j] = K[k, j]
            for f in range(6):
                p = parent[k, f]
                if p >= 0:
                    for j in range(nl):  # an unconditional store: the loop vectorizes
                        x = best[p, j]
                        y = best[k, j]
                        best[k, j] = x if x > y else y


@njit(cache=True)
def final_lanes(keys, E, counts, rolls, kniffel_rolls, sc, rp, vu, base, val):
    """``final_values`` (values only) of the ``LANES`` states ``keys`` into ``val[roll, lane]``, bit for bit.

    Each box is applied to every lane at once (a filled box is worth -inf there), so the max over the
    boxes runs on vectors; the Kniffel rolls (jokers, bonus) are then set lane by lane as in ``final_values``.
    """
    nl = val.shape[1]
    cap = rp.up_cap
    thr = rp.bonus_threshold
    bonus = rp.bonus_value
    r0 = rolls[0]
    r1 = rolls[-1] + 1
    any_open = 0
    for j in range(nl):
        key = keys[j]
        mask = R.key_mask(key)
        up = R.key_up(key)
        flag = R.key_flag(key)
        for c in range(R.N_CAT):
            if (mask >> c) & 1:
                if c < 6:
                    for n in range(6):
                        vu[c, n, j] = -np.inf
                else:
                    base[c, j] = -np.inf
                continue
            any_open |= 1 << c
            nmask = mask | (1 << c)
            if c < 6:
                for n in range(6):
                    pts = n * (c + 1)
                    ub = bonus if (bonus > 0 and up < thr <= up + pts) else 0
                    vu[c, n, j] = pts + ub + E[R.make_key(nmask, min(cap, up + pts), flag)]
            else:
                base[c, j] = E[R.make_key(nmask, up, flag)]
    for r in range(r0, r1):
        for j in range(nl):
            val[r, j] = NEG
    for c in range(R.N_CAT):
        if not (any_open >> c) & 1:
            continue
        if c < 6:
            for r in range(r0, r1):
                n = counts[r, c]
                for j in range(nl):
                    x = vu[c, n, j]
                    y = val[r, j]
                    val[r, j] = x if x > y else y
        else:
            for r in range(r0, r1):
                sr = float(sc[c, r])
                for j in range(nl):
                    x = sr + base[c, j]
                    y = val[r, j]
                    val[r, j] = x if x > y else y
    mode = rp.joker_mode
    for j in range(nl):
        key = keys[j]
        mask = R.key_mask(key)
        up = R.key_up(key)
        flag = R.key_flag(key)
        kniffel_filled = (mask >> R.KNIFFEL) & 1
        joker = mode != R.JOKER_OFF and kniffel_filled == 1 and (flag == 1 or rp.joker_when_zero == 1)
        kb = rp.scores_kniffel_bonus if flag == 1 else 0
        lower_open = (mask >> 6) != (1 << 7) - 1
        for r in kniffel_rolls:
            f = 0
            while counts[r, f] != 5:
                f += 1
            face_open = not (mask >> f) & 1
            best = NEG
            for c in range(R.N_CAT):
                if (mask >> c) & 1:
                    continue
                if joker and mode == R.JOKER_FORCED:
                    if face_open and c != f:
                        continue
                    if not face_open and lower_open and c < 6:
                        continue
                if c < 6:
                    v = vu[c, 5 if c == f else 0, j]
                elif c == R.KNIFFEL:
                    v = sc[c, r] + E[R.make_key(mask | (1 << c), up, 1 if sc[c, r] == rp.scores_kniffel else 0)]
                else:
                    sr = sc[c, r]
                    if joker and R.FULL_HOUSE <= c <= R.GROSSE_STRASSE and (mode == R.JOKER_FORCED or not face_open):
                        sr = R.joker_score(c, rp)
                    v = sr + base[c, j]
                v += kb
                if v > best:
                    best = v
            val[r, j] = best


@njit(cache=True)
def widget_lanes(keys, E, T, rp, sc, kniffel_rolls, vu, base, fin, val, K, out):
    """``widget``'s value for the ``LANES`` states ``keys`` (bit for bit): ``out[j]`` for ``keys[j]``.

    The keep/reroll recursions run with the lane innermost, so that vector instructions serve many states
    (the tables ``child``/``parent`` are the same for all of them).
    """
    counts, child, parent, size_start, rolls = T
    nl = val.shape[1]
    final_lanes(keys, E, counts, rolls, kniffel_rolls, sc, rp, vu, base, fin)
    r0 = rolls[0]
    r1 = rolls[-1] + 1
    for r in range(r0, r1):
        for j in range(nl):
            val[r, j] = fin[r, j]
    stop = np.zeros((kniffel_rolls.shape[0], LANES), np.bool_)
    for i in range(kniffel_rolls.shape[0]):
        for j in range(nl):
            stop[i, j] = R.must_score_now(counts[kniffel_rolls[i]], R.key_mask(keys[j]), R.key_flag(keys[j]), rp)
    for _ in range(rp.turn_rolls - 1, 0, -1):
        expect_lanes(val, child, size_start, K)
        best_lanes(K, parent, size_start, val)  # only the full rolls of ``val`` are read
        for i in range(kniffel_rolls.shape[0]):
            r = kniffel_rolls[i]
            for j in range(nl):
                if stop[i, j]:
                    val[r, j] = fin[r, j]
    expect_lanes(val, child, size_start, K)
    for j in range(nl):
        out[j] = K[0, j]


@njit(cache=True, parallel=True)
def solve_states(keys, E, T, rules, sc, kniffel_rolls):
    """``E`` of every state in ``keys`` (one level: they read only fuller sheets), ``LANES`` at a time.

    ``rules``: the rule record's one-element array (``rp.base``; a parallel loop cannot take a record)."""
    n = keys.shape[0]
    m = T[0].shape[0]
    groups = (n + LANES - 1) // LANES
    blocks = min(64, groups)
    step = (groups + blocks - 1) // blocks
    for b in prange(blocks):
        rp = rules[0]
        vu = np.empty((6, 6, LANES))
        base = np.empty((R.N_CAT, LANES))
        fin = np.empty((m, LANES))
        val = np.empty((m, LANES))
        K = np.empty((m, LANES))
        lk = np.empty(LANES, np.int64)
        out = np.empty(LANES)
        for g in range(b * step, min(groups, (b + 1) * step)):
            for j in range(LANES):
                lk[j] = keys[min(g * LANES + j, n - 1)]  # the last group repeats its last state
            widget_lanes(lk, E, T, rp, sc, kniffel_rolls, vu, base, fin, val, K, out)
            for j in range(LANES):
                if g * LANES + j < n:
                    E[lk[j]] = out[j]


def tables(rp: np.record):
    """The multiset tables, score table and Kniffel rolls the widget reads."""
    t = T5
    T = (t.counts, t.child, t.parent, t.size_start, t.rolls)
    sc = score_table(t.counts, t.rolls, rp)
    kn = np.array([r for r in t.rolls if t.counts[r].max() == 5], dtype=np.int64)
    return T, sc, kn


def solve(rp: np.record) -> np.ndarray:
    """The full table ``E`` (float64 over all keys; unreachable keys are 0)."""
    E = np.zeros(R.KEY_SPACE)
    T, sc, kn = tables(rp)
    for n, keys in reversed(list(enumerate(state_levels(rp)))):
        if n == R.N_CAT:
            continue  # full sheet: nothing more to score
        solve_states(keys, E, T, rp.base, sc, kn)
    return E


def start_value(E: np.ndarray) -> float:
    return float(E[0])
