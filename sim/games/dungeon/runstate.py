"""What one Würfel Dungeon run carries from phase to phase: a numpy record, read as ``s.lp``, ``s.coins``.

The run kernel is a room loop over phase functions (``room``: enter the room and the loadout's profile;
``fight``: the turns; ``after``: coins, reward, market). Each phase is its own compiled function and hands the
run on in this record. A record is passed by pointer and carries no reference count. A phase copies the fields
it works on into locals on entry and writes them back on return, so its loops work in registers (fields read in
a hot loop would be loads and stores: measured 9-15 % slower when the whole run lived in records).

Only state that crosses a phase boundary is here; a phase's own working values stay its locals.
"""

from __future__ import annotations

import numpy as np

RUN_DTYPE = np.dtype([
    ("lp", np.float64), ("maxlp", np.float64), ("coins", np.float64), ("seconds", np.float64),
    ("altar", np.int64),  # Opferaltar attack bonus
    ("nj", np.int64),  # jokers held (the stack is in the scratch ``items``)
    ("db_left", np.int64),  # dice-bonus fights left
    ("truhe_mask", np.int64),  # dice the Verfluchte Truhe curses in the next fight
    ("nl", np.int64),  # event-log rows written
    ("sa", np.int64),  # stream salt of a rollout continuation (0 in a plain run, ``rollctl``)
    ("mk_index", np.int64),  # markets visited
    # the loadout changed (fold its effects again); the profile key the combo values were last computed for and
    # the profile cache slot that holds its tables; dice per roll with this loadout
    ("dirty", np.bool_), ("slot", np.int64), ("nd_base", np.int64),
    ("k_att", np.float64), ("k_altar", np.int64), ("k_sh", np.float64), ("k_he", np.float64), ("k_pm", np.float64),
    ("k_lk", np.float64),
    # the room entered: path card, the third card, the Geheimnis event, the enemy
    ("card", np.int64), ("third", np.int64), ("event", np.int64), ("enemy", np.int64),
    # the fight's outcome, read after the room
    ("won", np.bool_), ("elite", np.bool_), ("boss", np.bool_), ("turn", np.int64), ("fight_coins", np.float64),
    ("stolen", np.float64), ("kinds_used", np.int64), ("healed", np.bool_),
    # where the row's column groups start (``table``): LP, coins and turns by room, combos, paths, markets, upgrades
    ("b_lp", np.int64), ("b_coins", np.int64), ("b_turns", np.int64), ("b_combo", np.int64), ("b_path", np.int64),
    ("b_mk", np.int64), ("b_up", np.int64),
])
