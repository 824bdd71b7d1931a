"""Würfel Dungeon Justieren at any moment of the turn: before a hold decision (then the hold is chosen on the
adjusted dice) and after the last roll; the bounds, the per-fight limit and expectimax's in-turn search."""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement, product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.dungeon.bots import (
    ADJ_GAIN_HOLD,
    EXPECTIMAX,
    GREEDY,
    MAX_ADJ,
    N_HOLD,
    VORSCHLAG,
    decide_adjust_hold,
    decide_keep,
    expectation_table,
    expectation_tables,
    leaf_value,
)
from sim.games.dungeon import play as P
from sim.games.dungeon import rules as R
from sim.games.dungeon import runs as RUNS
from sim.games.dungeon.game import GAME, TM, frozen
from sim.games.dungeon.rows import EFF, N_EFF
from sim.games.dungeon.tables import build_profile
from sim.games.dungeon.words import FS_ATT_MUL, FS_EHP, FS_INCOMING, FS_LP, FS_MAXLP, FS_SIZE

CFG = GAME.load()
FZ, _ = frozen(CFG, "leicht")


def profile():
    """Shown partitions, partition classes, hold tables and combo values of the start loadout."""
    part = np.zeros((R.N_MS, 4), np.int8)
    pcl = np.zeros(R.N_MS, np.int16)
    hold = np.zeros((N_HOLD, R.N_MS), np.int16)
    eatt = np.zeros((R.MAX_DICE + 1, 2))
    ab = FZ.rp[0].coins_action_base
    build_profile(FZ.base2, FZ.coin_bonus, ab, 0.0, 1.0, 0.0, FZ.cstart, FZ.cn, FZ.cand, TM, part, pcl, hold, eatt)
    mods = np.zeros(N_EFF)
    mods[EFF.pasch_attack_mul] = 1.0
    cv = np.zeros((R.N_COMBO, 4))
    R.effective_values(FZ.base2[0], R.C_KIND, mods, 0.0, ab, FZ.coin_bonus, cv)
    return part, pcl, hold, cv


PART, PCL, HOLD, CV = profile()
WORK = np.zeros(16, np.int64)
NOTAB = np.zeros((1, 1, 1))


def attack(dice):
    return sum(CV[c, 0] for c in PART[R.ms_index(dice), 1 : 1 + PART[R.ms_index(dice), 0]])


def adjust(pid, dice, cursed_mask=0, adjusts=2, step=1, rolls_left=1, etabs=NOTAB):
    d = np.array(dice, np.int64)
    return decide_adjust_hold(pid, d, len(dice), cursed_mask, step, rolls_left, adjusts, etabs.shape[0] - 1, PART, CV,
                              etabs, TM, WORK)


# --- vorschlag and greedy: a hand-built turn ----------------------------------------------------------


def test_adjust_before_a_reroll_completes_a_vierling_and_the_hold_keeps_it():
    dice = [4, 4, 4, 3, 1]
    assert attack([4, 4, 4, 4, 1]) - attack(dice) >= ADJ_GAIN_HOLD
    for pid in (VORSCHLAG, GREEDY):
        assert adjust(pid, dice) == (3, 4)
        adjusted = [4, 4, 4, 4, 1]
        roll = R.ms_index(adjusted)
        cursed = R.ms_index([])
        for r in (1, 2):
            keep = decide_keep(pid, roll, cursed, r, HOLD, NOTAB[0], TM, np.zeros(1, np.uint64), WORK)
            assert TM[0][keep, 3] == 4  # all four 4s held: the reroll keeps the adjusted die
    # the same hand without the adjust keeps only the Drilling
    keep = decide_keep(VORSCHLAG, R.ms_index(dice), R.ms_index([]), 2, HOLD, NOTAB[0], TM, np.zeros(1, np.uint64),
                       WORK)
    assert TM[0][keep, 3] == 3


def test_adjust_before_a_reroll_is_refused_on_cursed_dice_without_adjusts_and_for_small_gains():
    assert adjust(VORSCHLAG, [4, 4, 4, 3, 1], cursed_mask=1 << 3) == (-1, 0)
    assert adjust(VORSCHLAG, [4, 4, 4, 3, 1], adjusts=0) == (-1, 0)
    assert adjust(GREEDY, [4, 4, 4, 3, 1], adjusts=0) == (-1, 0)
    # before the last reroll only; greedy only with a spare adjust (its last one stays for the end of a turn)
    assert adjust(VORSCHLAG, [4, 4, 4, 3, 1], rolls_left=2) == (-1, 0)
    assert adjust(GREEDY, [4, 4, 4, 3, 1], rolls_left=2) == (-1, 0)
    assert adjust(VORSCHLAG, [4, 4, 4, 3, 1], adjusts=1) == (3, 4)
    assert adjust(GREEDY, [4, 4, 4, 3, 1], adjusts=1) == (-1, 0)
    assert adjust(VORSCHLAG, [1, 1, 2, 4, 6]) == (-1, 0)  # Pasch of 1s into a Drilling of 1s: +2 only
    # a 6 is never turned to 7: 6-6-6-5 → the 5 goes up, not a 6
    assert adjust(VORSCHLAG, [6, 6, 6, 5, 1]) == (3, 6)
    # step 2 (config turn.adjust_step) reaches a face two away
    assert adjust(VORSCHLAG, [4, 4, 4, 2, 1], step=2) == (3, 4)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=5, max_size=6), st.integers(0, 63), st.sampled_from([1, 2]),
       st.sampled_from([VORSCHLAG, GREEDY]))
def test_adjust_before_a_reroll_bounds(dice, cmask, step, pid):
    cmask &= (1 << len(dice)) - 1
    i, f = adjust(pid, dice, cursed_mask=cmask, step=step)
    if i < 0:
        return
    assert not (cmask >> i) & 1
    assert 1 <= f <= 6 and abs(f - dice[i]) == step
    new = list(dice)
    new[i] = f
    assert attack(new) - attack(dice) >= ADJ_GAIN_HOLD - 1e-9


# --- expectimax: the in-turn search equals a brute-force enumeration -----------------------------------


def fight_state():
    fs = np.zeros(FS_SIZE)
    fs[FS_EHP] = 30.0
    fs[FS_LP] = 20.0
    fs[FS_MAXLP] = 50.0
    fs[FS_INCOMING] = 14.0
    fs[FS_ATT_MUL] = 1.0
    return fs


@pytest.mark.parametrize("cursed_faces, m, step", [((), 3, 1), ((5,), 2, 1), ((), 3, 2)])
def test_expectimax_tables_with_adjusts_equal_brute_force(cursed_faces, m, step):
    fs = fight_state()
    levels = 2
    cursed = R.ms_index(list(cursed_faces))
    etabs = np.zeros((MAX_ADJ + 1, levels + 1, R.N_MS))
    scratch = np.zeros((2 * MAX_ADJ + 2, R.N_MS))
    expectation_tables(fs, cursed, m, levels, MAX_ADJ, step, PART, PCL, CV, TM, etabs, scratch, np.zeros(R.N_MS),
                       WORK)
    # no adjusts left: the table without adjusts
    etab = np.zeros((levels + 1, R.N_MS))
    expectation_table(fs, cursed, m, levels, PART, PCL, CV, TM, etab, np.zeros(R.N_MS), np.zeros(R.N_MS), WORK)
    lo, hi = TM[3][m], TM[3][m + 1]
    assert np.array_equal(etabs[0, 0, lo:hi], etab[0, lo:hi])
    for lv in range(1, levels + 1):
        assert np.array_equal(etabs[0, lv, :hi], etab[lv, :hi])

    def leaf(free):
        return leaf_value(fs, R.ms_index(list(free) + list(cursed_faces)), PART, CV, WORK)

    def neighbours(free):
        for j, f in enumerate(free):
            for g in (f - step, f + step):
                if 1 <= g <= 6:
                    yield tuple(sorted(free[:j] + (g,) + free[j + 1 :]))

    def subkeeps(free):
        out = set()
        for mask in range(1 << len(free)):
            out.add(tuple(f for j, f in enumerate(free) if (mask >> j) & 1))
        return out

    @cache
    def V(free, lv, a):
        """Value at a decision point: full free roll ``free``, ``lv`` rolls to come, ``a`` adjusts left."""
        best = leaf(free) if lv == 0 else max(E(k, lv, a) for k in subkeeps(free))
        if a > 0:
            for nb in neighbours(free):
                best = max(best, V(nb, lv, a - 1))
        return best

    @cache
    def E(keep, lv, a):
        n = m - len(keep)
        tot = sum(V(tuple(sorted(keep + roll)), lv - 1, a) for roll in product(range(1, 7), repeat=n))
        return tot / 6**n

    for a in range(MAX_ADJ + 1):
        for free in combinations_with_replacement(range(1, 7), m):
            assert etabs[a, 0, R.ms_index(list(free))] == pytest.approx(V(free, 0, a), abs=1e-9)
        for lv in range(1, levels + 1):
            for size in range(m + 1):
                for keep in combinations_with_replacement(range(1, 7), size):
                    assert etabs[a, lv, R.ms_index(list(keep))] == pytest.approx(E(keep, lv, a), abs=1e-9)
    # the decision before a hold reaches the brute-force value; an adjust kept for a later hold or the last roll
    # can always reproduce the adjusted dice (held dice do not change), so adjusting before a reroll never pays
    # strictly: the search finds the best value without it, and expectimax keeps its adjust for later
    nd = m + len(cursed_faces)
    cmask = ((1 << len(cursed_faces)) - 1) << m
    for free in combinations_with_replacement(range(1, 7), m):
        dice = np.array(list(free) + list(cursed_faces), np.int64)
        for a in (1, 2):
            for lv in (1, 2):
                now = max(V(nb, lv, a - 1) for nb in neighbours(free))
                keep_it = max(E(k, lv, a) for k in subkeeps(free))
                assert now <= keep_it + 1e-9 and keep_it == pytest.approx(V(free, lv, a), abs=1e-9)
                got = decide_adjust_hold(EXPECTIMAX, dice, nd, cmask, step, lv, a, MAX_ADJ, PART, CV, etabs, TM, WORK)
                assert got == (-1, 0)
    # what the adjust changes is the holds: with an adjust left for the end, 4-4-3 holds the 3 (to turn it into
    # the Drilling) where without one it is rerolled
    if m == 3 and step == 1:
        for a, held in ((0, 2), (1, 3)):
            keep = decide_keep(EXPECTIMAX, R.ms_index([4, 4, 3]), cursed, 1, HOLD, etabs[a], TM,
                               np.zeros(1, np.uint64), WORK)
            assert TM[0][keep].sum() == held
# --- the kernel: adjusts between rolls, the per-fight limit from the config ---------------------------------


NO_PICKS = ["rewards.enabled=false", "market.enabled=false"]  # the loadout (and so the adjust limit) stays fixed
FIXED = GAME.load(overrides=NO_PICKS)


def logs(policy, seed, runs, cfg=FIXED, difficulty="leicht"):
    fz, cache = frozen(cfg, difficulty)
    n_cols = len(P.columns(cfg.rooms.count))
    for r in runs:
        _, log = RUNS.run_one(GAME.policies.index(policy), seed, r, fz, cache, TM, n_cols, 20_000)
        yield log


def adjust_rows(log):
    """(adjust row, the next roll row of the same turn or None) for every adjust of the run."""
    out = []
    for j, row in enumerate(log):
        if row[0] != P.LG_ADJ:
            continue
        nxt = None
        for q in range(j + 1, len(log)):
            if log[q][0] == P.LG_ROLL and log[q][1] == row[1] and log[q][2] == row[2]:
                nxt = log[q]
                break
            if log[q][0] != P.LG_ADJ and log[q][0] != P.LG_ROLL:
                break
        out.append((row, nxt))
    return out


def digits(packed, nd):
    return [int(c) for c in str(packed).zfill(nd)]


@pytest.mark.parametrize("policy, limit", [("vorschlag", 1), ("greedy", 2), ("expectimax", 1)])
def test_kernel_adjusts_before_a_reroll_and_keeps_the_limit(policy, limit):
    before = 0
    total = 0
    cfg = GAME.load(overrides=[*NO_PICKS, f"turn.adjusts={limit}"])
    for log in logs(policy, 4, range(60 if policy == "expectimax" else 150), cfg):
        turns = {(r[1], r[2]): r for r in log if r[0] == P.LG_TURN}
        per_fight: dict[int, int] = {}
        for row, nxt in adjust_rows(log):
            room, turn, die, old, new, rolls_left = row[1], row[2], row[3], row[4], row[5], row[6]
            assert 1 <= new <= 6 and abs(new - old) == CFG.turn.adjust_step
            assert not (turns[(room, turn)][11] >> die) & 1
            per_fight[room] = per_fight.get(room, 0) + 1
            total += 1
            if rolls_left > 0:
                before += 1
                if nxt is not None and (nxt[5] >> die) & 1:
                    assert digits(nxt[4], nxt[6])[die] == new  # a held adjusted die keeps its face
        assert all(v <= limit for v in per_fight.values())
    if policy == "expectimax":  # keeping the adjust for the end of the turn is never worse (see above)
        assert before == 0 and total > 0
    else:
        assert before > 0


@pytest.mark.parametrize("overrides, limit", [(["turn.adjusts=0"], 0), (["turn.adjusts=2"], 2),
                                             (["loadout.upgrades=['gluecksmuenze']"], 2)])
def test_kernel_adjust_limit_comes_from_the_config_and_gluecksmuenze(overrides, limit):
    cfg = GAME.load(overrides=NO_PICKS + overrides)
    most = 0
    for log in logs("vorschlag", 4, range(150), cfg):
        per_fight: dict[int, int] = {}
        for row, _ in adjust_rows(log):
            per_fight[row[1]] = per_fight.get(row[1], 0) + 1
        most = max([most, *per_fight.values()])
    assert most == limit
