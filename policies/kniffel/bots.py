"""Kniffel bot policies: what to keep after each roll and which box to score.

Registry ``POLICIES`` maps a name to the integer id the play kernel dispatches on (integer dispatch
keeps the compiled kernel in numba's disk cache for every policy). Adding a policy: one decision
function here, one registry line, one branch in ``decide_keep`` / ``decide_category``.

- ``random``: uniform legal choices — each die kept with probability 1/2 before each reroll, the
  box drawn uniformly from the legal open ones. Its draws come from a stream apart from the dice.
- ``greedy``: targets the open box whose box points are highest right now (ties go to the earlier
  box on the sheet; the upper bonus is not looked ahead to), keeps the dice that serve that box
  (the face for an upper box; the most frequent face for Pasch boxes and Kniffel; triple + pair
  for Full House; the best window of distinct faces for the straights; 4s, 5s and 6s for Chance),
  stops rolling once a fixed-score box is made, and scores the best box at the end. Its choices
  depend only on (open boxes, Kniffel box holds 50, roll), so ``greedy_tables`` precomputes them.
- ``optimal``: the exact solitaire optimum (``sim.games.kniffel.solve``), read from a turn plan
  built per state by ``build_plan``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from sim.core.cache import digest, load_table, save_table, table_path
from sim.core.rng import next_below
from sim.games.kniffel import rules as R
from sim.games.kniffel.solve import widget
from sim.jit.codehash import code_version

POLICIES = {"random": 0, "greedy": 1, "optimal": 2}
RANDOM, GREEDY, OPTIMAL = POLICIES["random"], POLICIES["greedy"], POLICIES["optimal"]


# --- greedy -----------------------------------------------------------------------------------


@njit(cache=True)
def best_box(counts: np.ndarray, r: int, key: int, rp: np.record, sc: np.ndarray) -> int:
    """The legal open box with the most box points now; ties go to the earlier box.

    ``r`` is the roll's multiset index; plain rolls read the score table ``sc``, Kniffel rolls
    (jokers) go through the full rules.
    """
    mask = R.key_mask(key)
    best = -1
    bc = -1
    if sc[R.KNIFFEL, r] > 0:
        flag = R.key_flag(key)
        for c in range(R.N_CAT):
            if (mask >> c) & 1 or not R.legal(counts, c, mask, flag, rp):
                continue
            pts = R.box_score(counts, c, mask, flag, rp)
            if pts > best:
                best = pts
                bc = c
        return bc
    for c in range(R.N_CAT):
        if (mask >> c) & 1:
            continue
        pts = sc[c, r]
        if pts > best:
            best = pts
            bc = c
    return bc


@njit(cache=True)
def _most_frequent(counts: np.ndarray, skip: int) -> int:
    """Face index with the most dice (ties: higher face), ignoring face ``skip``."""
    bf = -1
    for f in range(5, -1, -1):
        if f != skip and (bf < 0 or counts[f] > counts[bf]):
            bf = f
    return bf


@njit(cache=True)
def greedy_keep(counts: np.ndarray, r: int, key: int, rp: np.record, sc: np.ndarray, keep: np.ndarray) -> None:
    """Fill ``keep`` (counts per face) with the dice that serve the best box now."""
    for f in range(6):
        keep[f] = 0
    c = best_box(counts, r, key, rp, sc)
    made = c >= R.FULL_HOUSE and c <= R.KNIFFEL and (sc[c, r] > 0 or sc[R.KNIFFEL, r] > 0)
    if made or c < 0:
        for f in range(6):
            keep[f] = counts[f]
    elif c < 6:
        keep[c] = counts[c]
    elif c == R.DREIERPASCH or c == R.VIERERPASCH or c == R.KNIFFEL:
        f = _most_frequent(counts, -1)
        keep[f] = counts[f]
    elif c == R.FULL_HOUSE:
        f = _most_frequent(counts, -1)
        g = _most_frequent(counts, f)
        keep[f] = min(3, counts[f])
        keep[g] = min(2, counts[g])
    elif c == R.KLEINE_STRASSE or c == R.GROSSE_STRASSE:
        width = 4 if c == R.KLEINE_STRASSE else 5
        best_lo = 0
        best_n = -1
        for lo in range(6 - width, -1, -1):  # higher windows win ties
            n = 0
            for f in range(lo, lo + width):
                if counts[f] > 0:
                    n += 1
            if n > best_n:
                best_n = n
                best_lo = lo
        for f in range(best_lo, best_lo + width):
            keep[f] = min(1, counts[f])
    else:  # Chance: keep the high dice
        for f in range(3, 6):
            keep[f] = counts[f]


def greedy_tables(T: tuple, ioc: np.ndarray, rules: np.ndarray, sc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Greedy's decision tables (``_greedy_tables``), from the disk cache when present.

    They are a pure function of the kernel's inputs and code, so the file is keyed by a hash of the inputs and the
    code version of this module's import closure (like the solved tables); a damaged file is removed and rebuilt.
    Reading them (~12 MB) takes milliseconds where building them took ~0.4 s and a kernel load per process.
    """
    inputs = {**{f"T{i}": t for i, t in enumerate(T)}, "ioc": ioc, "rules": rules, "sc": sc}
    path = table_path("kniffel", "greedy", digest(inputs)[:16], code_version("policies.kniffel.bots"))
    stored = load_table(path)
    if stored is not None and {"gk", "gc"} <= stored.keys():
        return stored["gk"], stored["gc"]
    gk, gc = _greedy_tables(T, ioc, rules, sc)
    save_table(path, {"gk": gk, "gc": gc})
    return gk, gc


def _greedy_tables(T: tuple, ioc: np.ndarray, rules: np.ndarray, sc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Greedy's keep (multiset index) and box for every (open boxes, Kniffel flag) and full roll.

    Indexed ``[mask << 1 | flag, roll position]``; the keep is the same after either roll. The arrays are allocated
    here, not in the parallel kernel: there each ``np.zeros`` would compile into a parallel loop of its own.
    """
    n_rolls = T[4].shape[0]
    gk = np.zeros((1 << (R.N_CAT + 1), 1, n_rolls), np.int16)
    gc = np.zeros((1 << (R.N_CAT + 1), n_rolls), np.int8)
    _fill_greedy_tables(T, ioc, rules, sc, gk, gc)
    return gk, gc


@njit(cache=True, parallel=True)
def _fill_greedy_tables(T, ioc, rules, sc, gk, gc):
    """``_greedy_tables``' rows in parallel. ``rules``: the rule record's one-element array (``rp.base``; a parallel
    loop cannot take a record)."""
    counts_tab = T[0]
    rolls = T[4]
    for idx in prange(gk.shape[0]):
        rp = rules[0]
        mask = idx >> 1
        flag = idx & 1
        if mask == R.ALL_FILLED:
            continue
        key = R.make_key(mask, 0, flag)
        keep = np.empty(6, np.int64)  # greedy_keep zeroes it first
        for i in range(rolls.shape[0]):
            r = rolls[i]
            counts = counts_tab[r]
            gc[idx, i] = best_box(counts, r, key, rp, sc)
            greedy_keep(counts, r, key, rp, sc, keep)
            code = 0
            p = 1
            for f in range(6):
                code += keep[f] * p
                p *= 7
            gk[idx, 0, i] = ioc[code]


# --- random -----------------------------------------------------------------------------------


@njit(cache=True)
def random_keep(dice: np.ndarray, s: np.uint64, keep: np.ndarray):
    """Keep each die with probability 1/2; returns the advanced decision stream."""
    for f in range(6):
        keep[f] = 0
    s, bits = next_below(s, 32)
    for i in range(5):
        if (bits >> i) & 1:
            keep[dice[i] - 1] += 1
    return s


@njit(cache=True)
def random_box(counts: np.ndarray, key: int, rp: np.record, s: np.uint64):
    """A uniformly drawn legal open box; returns (stream, box)."""
    mask = R.key_mask(key)
    flag = R.key_flag(key)
    n = 0
    for c in range(R.N_CAT):
        if not (mask >> c) & 1 and R.legal(counts, c, mask, flag, rp):
            n += 1
    s, j = next_below(s, n)
    for c in range(R.N_CAT):
        if not (mask >> c) & 1 and R.legal(counts, c, mask, flag, rp):
            if j == 0:
                return s, c
            j -= 1
    return s, -1


# --- dispatch ---------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def decide_keep(pid, counts, dice, key, level, r, r0, plan_keep, mcounts, rp, sc, s, keep):
    """Fill ``keep`` for the reroll after roll ``level`` (0-based) of roll ``r`` (multiset index).

    ``r0`` is the index of the first full roll (plans are indexed by ``r - r0``). Returns the
    policy's decision stream.
    """
    if pid == OPTIMAL:
        k = plan_keep[level, r - r0]
        for f in range(6):
            keep[f] = mcounts[k, f]
    elif pid == GREEDY:
        k = plan_keep[0, r - r0]
        for f in range(6):
            keep[f] = mcounts[k, f]
    else:
        s = random_keep(dice, s, keep)
    return s


@njit(cache=True, inline="always")
def decide_category(pid, counts, key, r, r0, plan_cat, rp, sc, s):
    """The box to score the final roll ``r`` (multiset index) in; returns (decision stream, box)."""
    if pid == OPTIMAL:
        return s, plan_cat[r - r0]
    if pid == GREEDY:
        return s, plan_cat[r - r0]
    return random_box(counts, key, rp, s)


@njit(cache=True)
def build_plan(pid, key, E, T, rp, sc, kn, scratch, plan_keep, plan_cat):
    """Turn plan of a planned policy for state ``key`` (optimal: the exact expectimax)."""
    if pid == OPTIMAL:
        return widget(key, E, T, rp, sc, kn, scratch, plan_keep, plan_cat, True, np.empty((0, 0)))
    return 0.0
