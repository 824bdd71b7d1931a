"""The Würfel Dungeon's outcome rows checked against the rules: light (numpy, the config model and the options, no
kernel), so that ``dicesim fit`` refuses a run the dungeon cannot end so before the game loads."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.games.dungeon.config import DungeonConfig
from sim.games.dungeon.options import DIFFICULTIES, OPTIONS
from sim.players.dungeon_columns import OUTCOME_COLUMNS
from sim.players.logs import columns, each_game_once, one_setting, refuse

DIFFICULTY = next(o for o in OPTIONS if o.name == "difficulty")


def check_outcomes(cfg: DungeonConfig, out_df: pd.DataFrame, where: str) -> tuple[dict[str, np.ndarray], str]:
    """(the checked columns, the difficulty), refused at the first row with more rooms than the dungeon has, a win
    that did not clear every room (or every room cleared without a win), or another difficulty."""
    col = columns(out_df, OUTCOME_COLUMNS, where)
    rooms = int(cfg.rooms.count)
    bad = np.flatnonzero(col["rooms_cleared"] > rooms)
    if len(bad):
        raise refuse(where, bad[0], f"rooms_cleared {col['rooms_cleared'][bad[0]]}: the dungeon has {rooms} rooms")
    bad = np.flatnonzero(col["win"] != (col["rooms_cleared"] == rooms))
    if len(bad):
        raise refuse(where, bad[0], f"win {col['win'][bad[0]]} with {col['rooms_cleared'][bad[0]]} of {rooms} rooms "
                     "cleared (a win clears every room)")
    level = one_setting(col, "difficulty", DIFFICULTIES, DIFFICULTY.default, where, "difficulty", DIFFICULTY.meant)
    each_game_once(col, where)
    return col, level
