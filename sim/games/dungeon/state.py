"""The typed state of one Würfel Dungeon run: numpy records the kernel's phase functions share.

``RUN_DTYPE`` is everything a run carries from room to room (LP, coins, the joker stack, the loadout's profile
key, the policy's random stream, counters of the table row) plus the room being entered (its path card, enemy,
event). ``FIGHT_DTYPE`` is the state of the fight in progress (enemy LP, block, poison, shield, the dice, the
turn's rolls and the assignment). A record is passed to a compiled function by pointer and carries no reference
count, nor do the arrays nested in it (``s.jokers``, ``f.dice``), so a phase helper that takes records and
scalars costs no atomic operation however it is compiled.

Resuming a run (issue 18's ``rollout``): at a run-level decision (path card, event, reward, market) the whole
run is ``run`` (this record), ``owned`` (the loadout counts), the table row so far and the room number; the
streams of later rooms are keyed by (seed, run, purpose, room), so a copy of these resumes the run exactly, and
a continuation with another choice meets the same rooms (common random numbers). The policy's own stream
``st_pol`` is in the record too: a rollout reseeds it per continuation.
"""

from __future__ import annotations

import numpy as np

from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R

RUN_DTYPE = np.dtype([
    ("seed", np.int64), ("run", np.int64),  # which run: the streams are keyed by them
    ("room", np.int64),  # the room being played (1-based)
    ("lp", np.float64), ("maxlp", np.float64), ("coins", np.float64), ("seconds", np.float64),
    ("altar", np.int64),  # Opferaltar attack bonus
    ("nj", np.int64), ("jokers", np.int64, (C.MAX_JOKERS,)),  # the joker stack (the last one is sold first)
    ("db_left", np.int64),  # dice-bonus fights left
    ("truhe_mask", np.int64),  # dice the Verfluchte Truhe curses in the next fight
    ("rooms_cleared", np.int64), ("death", np.int64), ("mk_index", np.int64),
    # the loadout's effects were changed (fold again); the profile key the combo values were last computed for
    ("dirty", np.bool_), ("slot", np.int64),
    ("k_att", np.float64), ("k_altar", np.int64), ("k_sh", np.float64), ("k_he", np.float64), ("k_pm", np.float64),
    ("k_lk", np.float64),
    ("nd_base", np.int64),  # dice per roll with this loadout
    ("nl", np.int64),  # event-log rows written
    # the room entered: path card, enemy, the third card, the Geheimnis event
    ("card", np.int64), ("enemy", np.int64), ("third", np.int64), ("event", np.int64), ("cards", np.int64, (3,)),
    # the fight's outcome, read after the room
    ("won", np.bool_), ("turn", np.int64), ("fight_coins", np.float64), ("stolen", np.float64),
    ("kinds_used", np.int64), ("healed", np.bool_),
    # where the row's column groups start (``table``)
    ("b_lp", np.int64), ("b_coins", np.int64), ("b_turns", np.int64), ("b_combo", np.int64), ("b_path", np.int64),
    ("b_mk", np.int64), ("b_up", np.int64),
    # random streams (one-element arrays for sim.rng's in-place helpers): policy, map, dice, enemy, crits, offers
    ("st_pol", np.uint64, (1,)), ("st_map", np.uint64, (1,)), ("st_dice", np.uint64, (1,)),
    ("st_en", np.uint64, (1,)), ("st_crit", np.uint64, (1,)), ("st_off", np.uint64, (1,)),
])

FIGHT_DTYPE = np.dtype([
    ("ehp", np.float64), ("ehp_max", np.float64), ("eblock", np.float64), ("epoison", np.float64),
    ("shield", np.float64), ("scale", np.float64), ("sec_bonus", np.int64), ("ebase", np.float64),
    ("cap", np.float64), ("boss", np.bool_), ("elite", np.bool_),
    ("i0", np.int64), ("ni", np.int64), ("rnd_mode", np.bool_), ("ii", np.int64),  # the enemy's intents
    ("ebuff", np.int64), ("weak", np.int64), ("eat_next", np.int64), ("cursed_next", np.int64),
    ("adjusts", np.int64), ("rerolls", np.int64), ("lc_left", np.int64), ("extra_ok", np.bool_),
    ("hero_left", np.int64),
    # this turn: the intent, dice, cursed dice, rolls made
    ("it", np.int64), ("hit", np.int64), ("hits", np.int64), ("berserk", np.float64), ("weak_mul", np.float64),
    ("nd", np.int64), ("cmask", np.int64), ("cursed", np.int64), ("nroll", np.int64), ("na", np.int64),
    ("dice", np.int64, (R.MAX_DICE,)), ("kc", np.int64, (6,)), ("idx", np.int64, (R.MAX_DICE,)),
    # the assignment: combos, roles, hero, per action damage and crits
    ("m", np.int64), ("hero_j", np.int64), ("aid", np.int64, (4,)), ("arole", np.int64, (4,)),
    ("dealt", np.int64, (4,)), ("crit", np.int64, (4,)), ("cdraw", np.float64, (4,)), ("nact", np.int64, (4,)),
    ("rstate", np.float64, (3,)),
])


def new_records() -> tuple[np.ndarray, np.ndarray]:
    """One run record and one fight record (1-element arrays; the kernel works on element 0)."""
    return np.zeros(1, RUN_DTYPE), np.zeros(1, FIGHT_DTYPE)
