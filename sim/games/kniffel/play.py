"""The Kniffel run kernel: sheets played turn by turn under a policy.

Dice of turn ``t`` for seat ``s`` of run ``i`` come from the stream (seed, i, s, 2t); a policy's own
random choices from (seed, i, s, 2t + 1). Every policy therefore sees the same first roll of every
turn, and two policies that keep the same dice see the same rerolls (common random numbers).

Below full skill (``[skill]``, ``sim.core.skill``) a seat's skilled decisions draw from the stream
(seed, i, ``SKILL_STREAM`` + s, t) instead; at level 1 nothing of it runs, so every table is the plain
policy's. ``optimal`` below full skill needs each state's keep values, not only its plan: its sheets
are then grouped by state and each group plays right after its widget (``skilled_state``).

The kernels take a few named records (namedtuples, which numba passes as their fields: no copy, no cost in the
loop): ``Player`` (the seat's policy and its decision tables), ``Rules`` (the frozen rule tables), ``Sheets``
(the sheets played and their outcomes), and inside ``Groups`` (the sheets grouped by state), ``Plans`` (the
states' turn plans), ``Plan`` (one turn's), ``TurnScratch`` (one thread's turn arrays and event log).

Planned policies (``optimal``) are played in lockstep: all sheets of a chunk take turn ``t``
together, each distinct state's turn plan is built once (in parallel) and shared by every sheet
in that state. Other policies play each sheet to the end in one go. Both paths call ``play_turn``,
which ``replay`` also uses with its event log switched on.
"""

from __future__ import annotations

from typing import NamedTuple

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


class Player(NamedTuple):
    """A seat and its policy: the policy id, the batch's seed, the seat and its skill level (``player``: from the rule
    record), the solved values ``E`` (optimal and skilled decisions), greedy's state-indexed tables ``gk``/``gc``
    (indexed ``mask << 1 | flag``); one-row dummies where a policy has none."""

    pid: int
    seed: int
    seat: int
    level: float
    E: np.ndarray
    gk: np.ndarray
    gc: np.ndarray


def player(pid: int, seed: int, seat: int, rp: np.record, E: np.ndarray, gk: np.ndarray, gc: np.ndarray) -> Player:
    """The ``Player`` of seat ``seat``, its skill level read from the rule record ``rp``."""
    return Player(pid, seed, seat, float(record_level(rp, seat)), E, gk, gc)


class Rules(NamedTuple):
    """The frozen rule tables: ``rules`` the one-element array of the rule record (``rp.base``: a parallel loop
    cannot take a record from outside, numba 0.68 lowers it by value, so a kernel reads ``rp = rules[0]``, a pointer),
    the transition tables ``T``, the multiset index of a dice code ``ioc``, the scores ``sc`` and Kniffel flags
    ``kn`` (``solve.tables``)."""

    rules: np.ndarray
    T: tuple
    ioc: np.ndarray
    sc: np.ndarray
    kn: np.ndarray


class Sheets(NamedTuple):
    """The sheets played, runs ``start ..`` (one row each), and what the kernel writes: per-box points ``cat``, the
    turn each box was filled ``turn`` (from 1), upper and Kniffel bonus points, turns that ended on a Kniffel."""

    start: int
    cat: np.ndarray
    turn: np.ndarray
    upper_bonus: np.ndarray
    kniffel_bonus: np.ndarray
    kniffels: np.ndarray


class Groups(NamedTuple):
    """The sheets grouped by state (``group_states``): each sheet's state ``keys`` and its group ``gslot``, the
    distinct states ``uniq`` with their sheets ``order[first[u]:first[u + 1]]``; ``slot`` maps a state to its group
    while grouping (-1 elsewhere)."""

    keys: np.ndarray
    slot: np.ndarray
    gslot: np.ndarray
    uniq: np.ndarray
    first: np.ndarray
    order: np.ndarray


class Plans(NamedTuple):
    """One turn plan per distinct state: keeps ``[state, level, roll]`` and boxes ``[state, roll]``."""

    keep: np.ndarray
    cat: np.ndarray


class Plan(NamedTuple):
    """What one turn's decisions read: the keeps ``[level, roll]``, the boxes ``[roll]`` and, for ``optimal`` below
    full skill, the keep values ``[level, multiset]`` (empty elsewhere)."""

    keep: np.ndarray
    cat: np.ndarray
    values: np.ndarray


class TurnScratch(NamedTuple):
    """One thread's turn arrays (dice, face counts, keep counts, held flags) and the event log (no rows: none)."""

    dice: np.ndarray
    counts: np.ndarray
    keep: np.ndarray
    held: np.ndarray
    log: np.ndarray


@njit(cache=True)
def turn_scratch(log):
    """Scratch arrays of one thread's turns, writing events into ``log``."""
    return TurnScratch(np.empty(5, np.int64), np.empty(6, np.int64), np.empty(6, np.int64), np.empty(5, np.int64), log)


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
def play_turn(pl, rt, key, run, turn, plan, ws, nlog):
    """Turn ``turn`` of run ``run`` from state ``key``. Returns (box, points, upper bonus, Kniffel bonus, next key,
    log rows).

    ``ws`` is the scratch of ``turn_scratch``; its log gets events when it has rows. Below skill level 1 (the seat's
    in ``pl``) the decisions are ``policies.kniffel.skill``'s, reading the solved values ``pl.E`` and the
    turn's keep values ``plan.values`` (optimal; empty elsewhere).
    """
    pid = pl.pid
    dice, counts, keep, held, log = ws
    T, ioc, sc, rp = rt.T, rt.ioc, rt.sc, rt.rules[0]
    plan_keep = plan.keep
    mcounts = T[0]
    r0 = T[4][0]
    lv = pl.level
    s = stream_key(pl.seed, run, pl.seat, 2 * turn)
    sd = stream_key(pl.seed, run, pl.seat, 2 * turn + 1) if pid == RANDOM else np.uint64(0)  # only random draws
    skilled = lv < 1.0 and pid != RANDOM
    sk = stream_key(pl.seed, run, SKILL_STREAM + pl.seat, turn) if skilled else np.uint64(0)
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
            sk = skill_keep(pid, lv, dice, level, r, r0, plan_keep, plan.values, mcounts, ioc, sk, keep)
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
        sk, c = skill_box(pid, lv, counts, key, r, pl.E, rp, sc, sk)
    else:
        sd, c = decide_category(pid, counts, key, r, r0, plan.cat, rp, sc, sd)
    pts, ub, kb, nk = R.apply_move_fast(counts, r, c, key, rp, sc)
    if logging:
        nlog = _log(log, nlog, EV_SCORE, turn, n_rolls, dice, c, pts, ub, kb)
    return c, pts, ub, kb, nk, nlog




@njit(cache=True, inline="always")
def _record(sh, g, turn, c, pts, ub, kb, counts):
    sh.cat[g, c] = pts
    sh.turn[g, c] = turn + 1
    sh.upper_bonus[g] += ub
    sh.kniffel_bonus[g] += kb
    if R.is_kniffel(counts):
        sh.kniffels[g] += 1


@njit(cache=True)
def plan_state(u, pl, rt, grp, plans):
    """The turn plan of state ``grp.uniq[u]`` into ``plans.keep[u]``, ``plans.cat[u]``."""
    m = rt.T[0].shape[0]
    scratch = (np.empty((4, m)), np.empty(m, np.int64), np.empty(m, np.int64))
    build_plan(pl.pid, grp.uniq[u], pl.E, rt.T, rt.rules[0], rt.sc, rt.kn, scratch, plans.keep[u], plans.cat[u])


@njit(cache=True)
def skilled_state(u, turn, pl, rt, grp, plans, sh):
    """``optimal`` below full skill: the widget of state ``grp.uniq[u]`` (plan and keep values), then turn ``turn`` of
    its sheets ``grp.order[grp.first[u]:grp.first[u + 1]]`` (``play_block``). A function of its own, called from the
    parallel loop over states: the widget dominates, so the call costs nothing."""
    rp = rt.rules[0]
    n_levels = max(1, rp.turn_rolls - 1)
    m = rt.T[0].shape[0]
    nr = rt.T[4].shape[0]
    plan = Plan(np.empty((n_levels, nr), np.int16), np.empty(nr, np.int8), np.zeros((n_levels, m)))
    scratch = (np.empty((4, m)), np.empty(m, np.int64), np.empty(m, np.int64))
    widget(grp.uniq[u], pl.E, rt.T, rp, rt.sc, rt.kn, scratch, plan.keep, plan.cat, True, plan.values)
    play_block(grp.first[u], grp.first[u + 1], turn, pl, rt, grp, plans, plan, sh)


@njit(cache=True)
def sheet_scratch(sh):
    """``play_sheets``' per-sheet arrays (the fields of ``Groups``), the bonus counters zeroed. Outside the parallel
    kernel: there every array expression (``np.zeros``, a slice assignment) would compile into a parallel loop of its
    own, seconds of compile each for microseconds of work."""
    count = sh.cat.shape[0]
    for g in range(count):
        sh.upper_bonus[g] = 0
        sh.kniffel_bonus[g] = 0
        sh.kniffels[g] = 0
    return (np.zeros(count, np.int64), np.full(R.KEY_SPACE, -1, np.int32), np.zeros(count, np.int32),
            np.empty(count, np.int64), np.zeros(count + 1, np.int64), np.empty(count, np.int64))


@njit(cache=True)
def group_states(grp, by_state):
    """Group the sheets by state: ``uniq[:nu]`` the distinct states, ``gslot[g]`` sheet ``g``'s; with ``by_state``
    also ``order[first[u]:first[u + 1]]`` the sheets in state ``u`` (a counting sort). Returns ``nu``."""
    keys, slot, gslot, uniq, first, order = grp
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
def play_block(lo, hi, t0, pl, rt, grp, plans, fixed, sh):
    """Turns from ``t0`` (one planned, else all) of sheets ``lo .. hi - 1``, each playing its state's plan in
    ``plans`` (planned), its table row (greedy) or its own choices; with a ``fixed`` plan that has keep values
    (``skilled_state``: one state's widget) sheets ``grp.order[lo:hi]``, all playing it. The one place the turn
    compiles (inlined), outside the ``prange`` body of ``play_sheets`` (a turn inlined into a parallel body costs
    several times the compile); the call costs nothing (one per block of sheets)."""
    planned = pl.pid == OPTIMAL
    per = 1 if planned else R.N_CAT
    tabled = pl.gk.shape[0] > 1
    by_state = fixed.values.shape[0] > 0
    keys, gslot, order = grp.keys, grp.gslot, grp.order
    gk, gc = pl.gk, pl.gc
    ws = turn_scratch(np.empty((0, LOG_WIDTH), np.int64))
    no_kv = np.empty((0, 0))
    for j in range(lo, hi):
        g = order[j] if by_state else j
        key = keys[g]
        for turn in range(t0, t0 + per):
            if by_state:
                plan = fixed
            elif planned:
                plan = Plan(plans.keep[gslot[g]], plans.cat[gslot[g]], no_kv)
            else:
                idx = ((R.key_mask(key) << 1) | R.key_flag(key)) if tabled else 0
                plan = Plan(gk[idx], gc[idx], no_kv)
            c, pts, ub, kb, key, _ = play_turn(pl, rt, key, sh.start + g, turn, plan, ws, 0)
            _record(sh, g, turn, c, pts, ub, kb, ws.counts)
        keys[g] = key


PLAN_STATE, SKILLED_STATE, PLAY_BLOCK = 0, 1, 2  # the work items of ``play_sheets``' parallel loop



@njit(cache=True, parallel=True)
def play_sheets(pl, rt, sh):
    """Play the sheets ``sh`` of seat ``pl.seat`` under its policy to the end, writing their outcomes into ``sh``.

    Unplanned policies play each sheet to the end in one pass over blocks of sheets. Planned ones (``optimal``) take
    13 passes of one turn: the sheets are grouped by state, each state's plan is built (``plan_state``), then the
    sheets play; below full skill each state's widget is built and its sheets play right away (``skilled_state``,
    sheets sorted by state), so memory stays one widget per thread.

    Compile time: one ``prange`` loop (each compiles into a gufunc of its own, seconds each) serves both phases of
    a pass, its items are calls (``plan_state``, ``skilled_state``, ``play_block``: a turn inlined into a parallel
    body cost several times its compile in a called function, and one call per block of sheets costs nothing; the
    turn compiles once, in ``play_block``, which ``skilled_state`` calls too), and
    the array set-up is in plain kernels (``sheet_scratch``, ``group_states``: here every ``np.zeros`` and slice
    assignment would compile into a parallel loop too).
    """
    rp = rt.rules[0]
    n_levels = max(1, rp.turn_rolls - 1)
    nr = rt.T[4].shape[0]
    planned = pl.pid == OPTIMAL
    skilled = planned and pl.level < 1.0
    count = sh.cat.shape[0]
    grp = Groups(*sheet_scratch(sh))  # made here: a parallel loop rebuilds a namedtuple by the name it was made with
    passes = R.N_CAT if planned else 1
    nblocks = max(1, min(count, 1024))
    step = (count + nblocks - 1) // nblocks
    rules, T, ioc, sc, kn = rt  # a parallel loop takes no tuple inside a tuple (``T``): ``Rules`` is rebuilt in it
    no_plan = Plan(np.empty((0, 0), np.int16), np.empty(0, np.int8), np.empty((0, 0)))  # the blocks' (no fixed plan)
    for ps in range(passes):
        nu = group_states(grp, skilled) if planned else 0
        # states whose turn plan the sheets read (none unplanned or below full skill); allocated on every pass, not in
        # a branch: arrays reassigned only in a branch before a ``prange`` corrupted memory (numba 0.68 parfors)
        n_plans = 0 if skilled else nu
        plans = Plans(np.empty((n_plans, n_levels, nr), np.int16), np.empty((n_plans, nr), np.int8))
        t0 = ps if planned else 0
        for phase in range(2):  # one ``prange`` for both phases: each parallel loop compiles into a gufunc of its own
            if phase == 0:  # one item per state: its plan, or below full skill its widget and its sheets' turn
                kind = SKILLED_STATE if skilled else PLAN_STATE
                n = nu
            else:  # one item per block of sheets (none below full skill: those sheets played in phase 0)
                kind = PLAY_BLOCK
                n = 0 if skilled else nblocks
            for i in prange(n):  # the gufunc types ``i`` as uint64, the callees int64: np.int64 keeps one compile
                u = np.int64(i)
                tables = Rules(rules, T, ioc, sc, kn)
                if kind == PLAY_BLOCK:
                    play_block(u * step, min(count, (u + 1) * step), t0, pl, tables, grp, plans, no_plan, sh)
                elif kind == SKILLED_STATE:
                    skilled_state(u, t0, pl, tables, grp, plans, sh)
                else:
                    plan_state(u, pl, tables, grp, plans)


@njit(cache=True)
def replay_sheet(pl, rt, run):
    """One sheet with its event log (the same ``play_turn`` calls as the batch kernel)."""
    rp = rt.rules[0]
    n_levels = max(1, rp.turn_rolls - 1)
    m = rt.T[0].shape[0]
    nr = rt.T[4].shape[0]
    skilled = pl.level < 1.0 and pl.pid == OPTIMAL
    plan = Plan(np.empty((n_levels, nr), np.int16), np.empty(nr, np.int8),
                np.zeros((n_levels, m)) if skilled else np.empty((0, 0)))
    scratch = (np.empty((4, m)), np.empty(m, np.int64), np.empty(m, np.int64))
    ws = turn_scratch(np.zeros((R.N_CAT * (2 * rp.turn_rolls + 1), LOG_WIDTH), np.int64))
    key = R.make_key(0, 0, 0)  # nothing filled (a computed int64: a literal 0 would specialise the callees)
    nlog = 0
    for turn in range(R.N_CAT):
        if pl.gk.shape[0] > 1:
            idx = (R.key_mask(key) << 1) | R.key_flag(key)
            turn_plan = Plan(pl.gk[idx], pl.gc[idx], plan.values)
        else:
            if skilled:
                widget(key, pl.E, rt.T, rp, rt.sc, rt.kn, scratch, plan.keep, plan.cat, True, plan.values)
            else:
                build_plan(pl.pid, key, pl.E, rt.T, rp, rt.sc, rt.kn, scratch, plan.keep, plan.cat)
            turn_plan = plan
        c, pts, ub, kb, key, nlog = play_turn(pl, rt, key, run, turn, turn_plan, ws, nlog)
    return ws.log[:nlog]
