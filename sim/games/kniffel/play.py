"""The Kniffel run kernel: sheets played turn by turn under a policy.

Dice of turn ``t`` for seat ``s`` of run ``i`` come from the stream (seed, i, s, 2t); a policy's own
random choices from (seed, i, s, 2t + 1). Every policy therefore sees the same first roll of every
turn, and two policies that keep the same dice see the same rerolls (common random numbers).

Below full skill (``[skill]``, ``sim.core.skill``) a seat's skilled decisions draw from the stream
(seed, i, ``SKILL_STREAM`` + s, t) instead; at level 1 nothing of it runs, so every table is the plain
policy's. ``optimal`` below full skill needs each state's keep values, not only its plan: its sheets
are then grouped by state and each group plays right after its widget (``skilled_state``).

Planned policies (``optimal``) are played in lockstep: all sheets of a chunk take turn ``t``
together, each distinct state's turn plan is built once (in parallel) and shared by every sheet
in that state. Other policies play each sheet to the end in one go. Both paths call ``play_turn``,
which ``replay`` also uses with its event log switched on.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from policies.kniffel.bots import OPTIMAL, RANDOM, build_plan, decide_category, decide_keep
from policies.kniffel.skill import skill_box, skill_keep
from policies.skill import SKILL_STREAM, record_level
from sim.core.dice import code_of_faces
from sim.core.rng import next_die, stream_key
from sim.games.kniffel import rules as R
from sim.games.kniffel.solve import widget

# event log rows: [kind, turn, level, d0, d1, d2, d3, d4, a, b, c, d]
EV_ROLL, EV_KEEP, EV_SCORE = 0, 1, 2
LOG_WIDTH = 12


@njit(cache=True, inline="always")
def dice_index(dice: np.ndarray, ioc: np.ndarray) -> int:
    """Multiset index of five dice."""
    return ioc[code_of_faces(dice, 5)]


@njit(cache=True)
def turn_scratch():
    """Scratch arrays of one thread's turns: dice, counts, keep, held."""
    return np.empty(5, np.int64), np.empty(6, np.int64), np.empty(6, np.int64), np.empty(5, np.int64)


@njit("int64(int64[:, ::1], int64, int64, int64, int64, int64[::1], int64, int64, int64, int64)", cache=True)
def _log(log, n, kind, turn, level, dice, a, b, c, d):
    """Write one event row; returns the next row. One explicit signature: its call sites pass constants (event
    kinds, zeros) that would otherwise compile one specialization per mix of literal arguments."""
    row = log[n]
    row[0] = kind
    row[1] = turn
    row[2] = level
    for i in range(5):
        row[3 + i] = dice[i]
    row[8] = a
    row[9] = b
    row[10] = c
    row[11] = d
    return n + 1


@njit(cache=True, inline="always")
def play_turn(pid, key, seed, run, seat, turn, plan_keep, plan_cat, T, ioc, rp, sc, ws, log, nlog, lv, E, kv):
    """One turn from state ``key``. Returns (box, points, upper bonus, Kniffel bonus, next key, log rows).

    ``ws`` is the scratch of ``turn_scratch``; ``log`` gets events when it has rows. ``lv``: the seat's
    skill level; below 1 the decisions are ``policies.kniffel.skill``'s, reading the solved values ``E``
    and the turn's keep values ``kv`` (optimal; an empty ``kv`` elsewhere).
    """
    dice, counts, keep, held = ws
    mcounts = T[0]
    r0 = T[4][0]
    s = stream_key(seed, run, seat, 2 * turn)
    sd = stream_key(seed, run, seat, 2 * turn + 1) if pid == RANDOM else np.uint64(0)  # only random draws
    skilled = lv < 1.0 and pid != RANDOM
    sk = stream_key(seed, run, SKILL_STREAM + seat, turn) if skilled else np.uint64(0)
    mask = R.key_mask(key)
    flag = R.key_flag(key)
    logging = log.shape[0] > 0
    for i in range(5):
        s, dice[i] = next_die(s)
    n_rolls = rp.turn_rolls
    r = 0
    for level in range(n_rolls):
        for f in range(6):
            counts[f] = 0
        for i in range(5):
            counts[dice[i] - 1] += 1
        r = dice_index(dice, ioc)
        if logging and (level == 0 or log[nlog - 1, 9] < 5):  # after a hold of all five dice nothing was rolled
            nlog = _log(log, nlog, EV_ROLL, turn, level, dice, r, 0, 0, 0)
        if level == n_rolls - 1 or (sc[R.KNIFFEL, r] > 0 and R.must_score_now(counts, mask, flag, rp)):
            break
        if skilled:
            sk = skill_keep(pid, lv, dice, level, r, r0, plan_keep, kv, mcounts, ioc, sk, keep)
        else:
            sd = decide_keep(pid, counts, dice, key, level, r, r0, plan_keep, mcounts, rp, sc, sd, keep)
        nheld = 0
        for i in range(5):
            f = dice[i] - 1
            if keep[f] > 0:
                keep[f] -= 1
                held[i] = 1
                nheld += 1
            else:
                held[i] = 0
        if logging:
            hm = 0
            for i in range(5):
                hm |= held[i] << i
            nlog = _log(log, nlog, EV_KEEP, turn, level, dice, hm, nheld, 0, 0)
        if nheld == 5:
            continue  # nothing to reroll and no dice drawn: the decision passes to the next level with the same dice
        for i in range(5):
            if held[i] == 0:
                s, dice[i] = next_die(s)
    if skilled:
        sk, c = skill_box(pid, lv, counts, key, r, E, rp, sc, sk)
    else:
        sd, c = decide_category(pid, counts, key, r, r0, plan_cat, rp, sc, sd)
    pts, ub, kb, nk = R.apply_move_fast(counts, r, c, key, rp, sc)
    if logging:
        nlog = _log(log, nlog, EV_SCORE, turn, n_rolls, dice, c, pts, ub, kb)
    return c, pts, ub, kb, nk, nlog


@njit(cache=True, inline="always")
def _record(g, turn, c, pts, ub, kb, counts, out_cat, out_turn, out_ub, out_kb, out_kn):
    out_cat[g, c] = pts
    out_turn[g, c] = turn + 1
    out_ub[g] += ub
    out_kb[g] += kb
    if R.is_kniffel(counts):
        out_kn[g] += 1


@njit(cache=True)
def plan_state(u, pid, uniq, E, T, rp, sc, kn, plan_keep, plan_cat):
    """The turn plan of state ``uniq[u]`` into ``plan_keep[u]``, ``plan_cat[u]``."""
    m = T[0].shape[0]
    scratch = (np.empty((4, m)), np.empty(m, np.int64), np.empty(m, np.int64))
    build_plan(pid, uniq[u], E, T, rp, sc, kn, scratch, plan_keep[u], plan_cat[u])


@njit(cache=True)
def skilled_state(u, pid, seed, start, seat, turn, lv, keys, uniq, first, order, E, T, ioc, rp, sc, kn, out_cat,
                  out_turn, out_ub, out_kb, out_kn):
    """``optimal`` below full skill: the widget of state ``uniq[u]`` (plan and keep values), then
    turn ``turn`` of its sheets ``order[first[u]:first[u + 1]]``. A function of its own, called from the parallel
    loop over states: the widget dominates, so the call costs nothing, and it compiles its inlined turn outside the
    parallel body (much cheaper to compile than a turn inlined into a ``prange`` body)."""
    n_levels = max(1, rp.turn_rolls - 1)
    m = T[0].shape[0]
    nr = T[4].shape[0]
    scratch = (np.empty((4, m)), np.empty(m, np.int64), np.empty(m, np.int64))
    plan_keep = np.empty((n_levels, nr), np.int16)
    plan_cat = np.empty(nr, np.int8)
    kv = np.zeros((n_levels, m))
    widget(uniq[u], E, T, rp, sc, kn, scratch, plan_keep, plan_cat, True, kv)
    ws = turn_scratch()
    no_log = np.empty((0, LOG_WIDTH), np.int64)
    for j in range(first[u], first[u + 1]):
        g = order[j]
        c, pts, ub, kb, nk, _ = play_turn(
            pid, uniq[u], seed, start + g, seat, turn, plan_keep, plan_cat, T, ioc, rp, sc, ws, no_log, 0, lv, E, kv
        )
        keys[g] = nk
        _record(g, turn, c, pts, ub, kb, ws[1], out_cat, out_turn, out_ub, out_kb, out_kn)


@njit(cache=True)
def sheet_scratch(count, out_ub, out_kb, out_kn):
    """``play_sheets``' per-sheet arrays (keys, slot, gslot, uniq, first, order), the bonus counters zeroed. Outside
    the parallel kernel: there every array expression (``np.zeros``, a slice assignment) would compile into a
    parallel loop of its own, seconds of compile each for microseconds of work."""
    for g in range(count):
        out_ub[g] = 0
        out_kb[g] = 0
        out_kn[g] = 0
    return (np.zeros(count, np.int64), np.full(R.KEY_SPACE, -1, np.int32), np.zeros(count, np.int32),
            np.empty(count, np.int64), np.zeros(count + 1, np.int64), np.empty(count, np.int64))


@njit(cache=True)
def group_states(keys, slot, gslot, uniq, first, order, by_state):
    """Group the sheets by state: ``uniq[:nu]`` the distinct states, ``gslot[g]`` sheet ``g``'s; with ``by_state``
    also ``order[first[u]:first[u + 1]]`` the sheets in state ``u`` (a counting sort). Returns ``nu``."""
    count = keys.shape[0]
    nu = 0
    for g in range(count):
        k = keys[g]
        if slot[k] < 0:
            slot[k] = nu
            uniq[nu] = k
            nu += 1
        gslot[g] = slot[k]
    for u in range(nu):
        slot[uniq[u]] = -1
    if by_state:
        first[: nu + 1] = 0
        for g in range(count):
            first[gslot[g] + 1] += 1
        for u in range(nu):
            first[u + 1] += first[u]
        fill = first[:nu].copy()
        for g in range(count):
            order[fill[gslot[g]]] = g
            fill[gslot[g]] += 1
    return nu


@njit(cache=True)
def play_block(b, step, count, t0, per, planned, tabled, pid, seed, start, seat, keys, gslot, plan_keep, plan_cat, gk,
               gc, E, T, ioc, rp, sc, lv, out_cat, out_turn, out_ub, out_kb, out_kn):
    """Turns ``t0 .. t0 + per - 1`` of the sheets of block ``b`` (``b * step ..``), called from ``play_sheets``'
    parallel loop: the turn compiles inlined here, outside the ``prange`` body (a turn inlined into a parallel body
    costs several times the compile), and the call costs nothing (one per block of sheets)."""
    ws = turn_scratch()
    no_log = np.empty((0, LOG_WIDTH), np.int64)
    no_kv = np.empty((0, 0))
    for g in range(b * step, min(count, (b + 1) * step)):
        key = keys[g]
        for turn in range(t0, t0 + per):
            if planned:
                pk = plan_keep[gslot[g]]
                pc = plan_cat[gslot[g]]
            else:
                idx = ((R.key_mask(key) << 1) | R.key_flag(key)) if tabled else 0
                pk = gk[idx]
                pc = gc[idx]
            c, pts, ub, kb, key, _ = play_turn(
                pid, key, seed, start + g, seat, turn, pk, pc, T, ioc, rp, sc, ws, no_log, 0, lv, E, no_kv
            )
            _record(g, turn, c, pts, ub, kb, ws[1], out_cat, out_turn, out_ub, out_kb, out_kn)
        keys[g] = key


PLAN_STATE, SKILLED_STATE, PLAY_BLOCK = 0, 1, 2  # the work items of ``play_sheets``' parallel loop


@njit(cache=True, parallel=True)
def play_sheets(
    pid, planned, seed, start, count, seat, E, gk, gc, T, ioc, rules, sc, kn, out_cat, out_turn, out_ub, out_kb, out_kn
):
    """Play ``count`` sheets (runs ``start..``) of seat ``seat`` under policy ``pid`` to the end.

    ``gk``/``gc`` are state-indexed decision tables (greedy's, indexed ``mask << 1 | flag``);
    a policy without them gets one-row dummies.
    Writes per-box points ``out_cat``, the turn each box was filled ``out_turn``, upper and Kniffel
    bonus points and the number of turns that ended on a Kniffel.

    Unplanned policies play each sheet to the end in one pass over blocks of sheets. Planned ones take 13 passes of
    one turn: the sheets are grouped by state, each state's plan is built (``plan_state``), then the sheets play;
    below full skill each state's widget is built and its sheets play right away (``skilled_state``, sheets sorted
    by state), so memory stays one widget per thread.

    Compile time: one ``prange`` loop (each compiles into a gufunc of its own, seconds each) serves both phases of
    a pass, its items are calls (``plan_state``, ``skilled_state``, ``play_block``: a turn inlined into a parallel
    body cost several times its compile in a called function, and one call per block of sheets costs nothing), and
    the array set-up is in plain kernels (``sheet_scratch``, ``group_states``: here every ``np.zeros`` and slice
    assignment would compile into a parallel loop too).

    ``rules`` is the one-element array of the rule record (``rp.base``): a parallel loop cannot take a record from
    outside (numba 0.68 lowers it by value), so each loop body reads ``rp = rules[0]`` (a pointer, no copy).
    """
    n_levels = max(1, rules[0].turn_rolls - 1)
    nr = T[4].shape[0]
    lv = record_level(rules[0], seat)
    skilled = planned and lv < 1.0
    tabled = gk.shape[0] > 1
    keys, slot, gslot, uniq, first, order = sheet_scratch(count, out_ub, out_kb, out_kn)
    passes = R.N_CAT if planned else 1
    per = 1 if planned else R.N_CAT
    nblocks = max(1, min(count, 1024))
    step = (count + nblocks - 1) // nblocks
    for ps in range(passes):
        nu = group_states(keys, slot, gslot, uniq, first, order, skilled) if planned else 0
        # states whose turn plan the sheets read (none unplanned or below full skill); allocated on every pass, not in
        # a branch: arrays reassigned only in a branch before a ``prange`` corrupted memory (numba 0.68 parfors)
        n_plans = 0 if skilled else nu
        plan_keep = np.empty((n_plans, n_levels, nr), np.int16)
        plan_cat = np.empty((n_plans, nr), np.int8)
        t0 = ps * per
        for phase in range(2):  # one ``prange`` for both phases: each parallel loop compiles into a gufunc of its own
            if phase == 0:  # one item per state: its plan, or below full skill its widget and its sheets' turn
                kind = SKILLED_STATE if skilled else PLAN_STATE
                n = nu
            else:  # one item per block of sheets (none below full skill: those sheets played in phase 0)
                kind = PLAY_BLOCK
                n = 0 if skilled else nblocks
            for i in prange(n):  # the gufunc types ``i`` as uint64, the callees int64: np.int64 keeps one compile
                rp = rules[0]
                u = np.int64(i)
                if kind == PLAY_BLOCK:
                    play_block(u, step, count, t0, per, planned, tabled, pid, seed, start, seat, keys, gslot,
                               plan_keep, plan_cat, gk, gc, E, T, ioc, rp, sc, lv, out_cat, out_turn, out_ub, out_kb,
                               out_kn)
                elif kind == SKILLED_STATE:
                    skilled_state(u, pid, seed, start, seat, t0, lv, keys, uniq, first, order, E, T, ioc, rp, sc, kn,
                                  out_cat, out_turn, out_ub, out_kb, out_kn)
                else:
                    plan_state(u, pid, uniq, E, T, rp, sc, kn, plan_keep, plan_cat)


@njit(cache=True)
def replay_sheet(pid, seed, run, seat, E, gk, gc, T, ioc, rp, sc, kn):
    """One sheet with its event log (the same ``play_turn`` calls as the batch kernel)."""
    n_levels = max(1, rp.turn_rolls - 1)
    m = T[0].shape[0]
    nr = T[4].shape[0]
    lv = record_level(rp, seat)
    kv = np.zeros((n_levels, m)) if lv < 1.0 and pid == OPTIMAL else np.empty((0, 0))
    log = np.zeros((R.N_CAT * (2 * rp.turn_rolls + 1), LOG_WIDTH), np.int64)
    plan_keep = np.empty((n_levels, nr), np.int16)
    plan_cat = np.empty(nr, np.int8)
    scratch = (np.empty((4, m)), np.empty(m, np.int64), np.empty(m, np.int64))
    ws = turn_scratch()
    key = R.make_key(0, 0, 0)  # nothing filled (a computed int64: a literal 0 would specialise the callees)
    nlog = 0
    for turn in range(R.N_CAT):
        if gk.shape[0] > 1:
            idx = (R.key_mask(key) << 1) | R.key_flag(key)
            pk = gk[idx]
            pc = gc[idx]
        else:
            if kv.shape[0] > 0:
                widget(key, E, T, rp, sc, kn, scratch, plan_keep, plan_cat, True, kv)
            else:
                build_plan(pid, key, E, T, rp, sc, kn, scratch, plan_keep, plan_cat)
            pk = plan_keep
            pc = plan_cat
        c, pts, ub, kb, key, nlog = play_turn(
            pid, key, seed, run, seat, turn, pk, pc, T, ioc, rp, sc, ws, log, nlog, lv, E, kv
        )
    return log[:nlog]
