"""The work arrays of one thread's Würfel Dungeon runs, by name: ``sc.dice``, ``sc.jokers``, ``sc.st_dice``.

``new_scratch`` allocates them once per thread and the runs reuse them; ``play_run`` borrows the whole tuple
(``sim.jit.borrow``), so a phase reads ``sc.dice`` at no reference-count cost and no phase slices views at counted
offsets. A named tuple is a plain struct to numba: ``sc.dice`` is a field read, the same as a local.

The run record ``sc.run[0]`` (``runstate.RUN_DTYPE``) carries the state that crosses a phase; everything else here
is working space (a fight's record lives on the stack: ``runstate.new_fight``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from policies.dungeon.bots import MAX_ADJ, MAX_LEVELS, needs_etab
from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R
from sim.games.dungeon.rows import N_EFF
from sim.games.dungeon.runstate import RUN_DTYPE
from sim.games.dungeon.words import FS_SIZE
from sim.jit.scalar import smax

Scratch = namedtuple("Scratch", [
    # the loadout: owned counts of the upgrade and talent rows, the eligible-upgrade groups, the folded effects
    # (columns ``rows.EFF``), the combo values (``rules``: per combo attack, shield, heal, coins)
    "owned", "elig", "mods", "cv",
    # the fight state the policies read (``words.FS_*``); the dice of the turn; the assignment (combo, role);
    # per-action damage, crits and actions per role; the crit draws and the resolution's (LP, block, poison)
    "fs", "dice", "aid", "arole", "dealt", "crits", "nact", "cdraw", "rstate",
    # the policies' and the reroll's working space; expectimax's tables per adjusts left (1-element otherwise)
    "work", "kc6", "idx", "etabs", "exp_scratch", "memo",
    # the path cards shown; the joker stack; the reward or market stock (item, key, kind, value, price)
    "cards", "jokers", "offers", "okv", "ikind", "vals", "prices",
    # the random streams (``sim.core.rng``, one state each): the policy's own choices, the map, the dice, the enemy,
    # crits, the offers, the skill's lapses
    "st_pol", "st_map", "st_dice", "st_en", "st_crit", "st_off", "st_sk",
    # the run record
    "run",
])


@njit(cache=True, error_model="numpy")
def new_scratch(pid, n_all):
    """One thread's work arrays for policy ``pid`` (its expectation tables where it needs them, ``needs_etab``);
    ``n_all``: upgrade and talent rows of the loadout."""
    big = needs_etab(pid)
    n_own = smax(1, n_all)
    ms = C.MAX_STOCK
    etabs = np.zeros((MAX_ADJ + 1, MAX_LEVELS + 1, R.N_MS) if big else (1, 1, 1))
    exp_scratch = np.zeros((2 * MAX_ADJ + 2, R.N_MS) if big else (1, 1))
    memo = np.zeros(R.N_MS if big else 1)
    i64 = np.int64
    u64 = np.uint64
    return Scratch(
        np.zeros(n_own, i64), np.zeros(n_own + 4, i64), np.zeros(N_EFF), np.zeros((R.N_COMBO, 4)),
        np.zeros(FS_SIZE), np.zeros(6, i64), np.zeros(4, i64), np.zeros(4, i64), np.zeros(4, i64),
        np.zeros(4, i64), np.zeros(4, i64), np.zeros(4), np.zeros(3),
        np.zeros(16, i64), np.zeros(6, i64), np.zeros(6, i64), etabs, exp_scratch, memo,
        np.zeros(3, i64), np.zeros(C.MAX_JOKERS, i64), np.zeros(ms, i64), np.zeros(ms, i64), np.zeros(ms, i64),
        np.zeros(ms), np.zeros(ms),
        np.zeros(1, u64), np.zeros(1, u64), np.zeros(1, u64), np.zeros(1, u64), np.zeros(1, u64), np.zeros(1, u64),
        np.zeros(1, u64),
        np.zeros(1, RUN_DTYPE),
    )
