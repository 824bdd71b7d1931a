"""Dungeon24's outcome rows checked against the rules: light (numpy, the config model and the options, no kernel),
so that ``dicesim fit`` refuses a game the rules cannot end so before the game loads (``sim.players.rows``).

What the rules (docs/rules/dungeon24.md, ``play.play_game``) allow of one game's end:

- ``turns`` is 1 .. ``rules.max_turns``, and a draw is the turn limit itself (no other end is a draw);
- the exchanges won (``score``) are one at most per own attack: a player has ``ceil(turns / 2)`` turns at most;
- LP only fall from ``start.lp``; a game ends as a player's LP reach 0, that player losing: the winner keeps 1 LP
  or more, and after a draw both do.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.games.dungeon24.config import Dungeon24Config
from sim.games.dungeon24.options import OPTIONS, PEOPLES, POLICY_NAMES
from sim.players.dungeon24_columns import OUTCOME_COLUMNS
from sim.players.logs import columns, each_game_once, one_setting, refuse, shown

RESULTS = ("loss", "draw", "win")
OPTION_COLUMNS = ("people", "opponent_people", "opponent")  # the batch's options, the same in every row
SPECS = {o.name: o for o in OPTIONS}


def check_outcomes(cfg: Dungeon24Config, out_df: pd.DataFrame, where: str) -> tuple[dict[str, np.ndarray],
                                                                                      np.ndarray, dict[str, str]]:
    """(the checked columns, each game's result as an index of ``RESULTS``, the batch's options), refused at the
    first row whose result, turns, exchanges won or LP no game under ``cfg`` ends with, or whose options differ."""
    col = columns(out_df, OUTCOME_COLUMNS, where)
    bad = np.flatnonzero(~np.isin(col["result"], RESULTS))
    if len(bad):
        raise refuse(where, bad[0], f"result {shown(col['result'][bad[0]])} is not one of win, loss, draw")
    result = np.array([RESULTS.index(r) for r in col["result"]], np.int64)
    cap = int(cfg.rules.max_turns)
    if "turns" in col:
        turns = col["turns"]
        bad = np.flatnonzero((turns < 1) | (turns > cap))
        if len(bad):
            raise refuse(where, bad[0], f"turns {turns[bad[0]]} is outside 1..{cap} (rules.max_turns)")
        bad = np.flatnonzero((result == RESULTS.index("draw")) & (turns != cap))
        if len(bad):
            raise refuse(where, bad[0], f"result draw with turns {turns[bad[0]]}: a draw is the turn limit, turns "
                         f"{cap} (rules.max_turns)")
        most = (turns + 1) // 2
    else:
        most = np.full(len(result), (cap + 1) // 2)
    bad = np.flatnonzero(col["score"] > most)
    if len(bad):
        i = bad[0]
        played = f"{col['turns'][i]} turns" if "turns" in col else f"rules.max_turns {cap}"
        raise refuse(where, i, f"score {col['score'][i]}: at most {most[i]} (one exchange won per own turn: half of "
                     f"{played})")
    _check_lp(col, result, int(cfg.start.lp), where)
    options = {name: one_setting(col, name, POLICY_NAMES if name == "opponent" else PEOPLES, SPECS[name].default,
                                 where, "matchup", SPECS[name].meant) for name in OPTION_COLUMNS}
    each_game_once(col, where)
    return col, result, options


def _check_lp(col: dict[str, np.ndarray], result: np.ndarray, start: int, where: str) -> None:
    """Each logged LP at most the start's, and the winner's (both after a draw) 1 or more."""
    keeps = {"lp": result != RESULTS.index("loss"), "opponent_lp": result != RESULTS.index("win")}
    for name, alive in keeps.items():
        if name not in col:
            continue
        lp = col[name]
        bad = np.flatnonzero(lp > start)
        if len(bad):
            raise refuse(where, bad[0], f"{name} {lp[bad[0]]} is more than the {start} LP a game starts with "
                         "(start.lp; LP only fall)")
        bad = np.flatnonzero(alive & (lp < 1))
        if len(bad):
            i = bad[0]
            whose = "a draw leaves both" if result[i] == RESULTS.index("draw") else "the winner keeps"
            raise refuse(where, i, f"{name} {lp[i]} with result {RESULTS[result[i]]}: {whose} 1 LP or more (LP 0 "
                         "ends a game, that player losing)")
