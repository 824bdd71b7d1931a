"""Dadox's log columns (light: the command line checks a log's header with them before the game loads)."""

from __future__ import annotations

from sim.players.schema import LogColumn, level_column

DECISION_COLUMNS = (
    LogColumn("player", "str", "the player's id (any text)"),
    LogColumn("game", "int", "the player's game", 0),
    LogColumn("turn", "int", "the player's turn in the game, 1, 2, …", 1),
    LogColumn("throw", "int", "the throw of the turn, 1, 2, … (1: six dice, turn total 0)", 1),
    LogColumn("score", "int", "the player's banked score before the turn", -10**9, 10**9),
    LogColumn("opened", "int", "1 when the player has met the opening minimum (always 1 without one)", 0, 1),
    LogColumn("turn_total", "int", "the turn total before this throw's dice are set aside", 0, 10**9),
    LogColumn("dice", "str", "the throw: its faces, e.g. 115236 (1 to 6 dice)"),
    LogColumn("set_aside", "str", "the faces set aside from it, e.g. 11 (they must all score)"),
    LogColumn("bank", "int", "1: banked the turn total after setting aside; 0: threw on", 0, 1),
)
OUTCOME_COLUMNS = (
    LogColumn("player", "str", "the player's id"),
    LogColumn("game", "int", "the player's game", 0),
    LogColumn("score", "int", "final score", -10**9, 10**9),
    LogColumn("won", "int", "1 when the player won", 0, 1, required=False),
    level_column(),
)
