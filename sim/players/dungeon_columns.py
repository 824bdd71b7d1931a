"""The Würfel Dungeon's log columns (light: the command line checks a log's header with them before the game loads)."""

from __future__ import annotations

from sim.players.schema import LogColumn, level_column

OUTCOME_COLUMNS = (
    LogColumn("player", "str", "the player's id"),
    LogColumn("game", "int", "the player's game", 0),
    LogColumn("rooms_cleared", "int", "rooms won (all of them: the run won)", 0, 50),
    LogColumn("win", "int", "1 when the run cleared every room", 0, 1),
    LogColumn("coins", "int", "coins at the end", 0, 10**9, required=False),
    LogColumn("difficulty", "str", "leicht | normal | schwer (the same for every game)", required=False),
    level_column(),
)
DECISION_COLUMNS = (
    LogColumn("player", "str", "the player's id"),
    LogColumn("game", "int", "the player's game", 0),
    LogColumn("room", "int", "the room, 1, 2, …", 1),
    LogColumn("turn", "int", "the fight's turn (0: outside a fight)", 0),
    LogColumn("kind", "str", "path | secret | hold | combo | last_chance | reward | buy"),
    LogColumn("lp", "int", "the player's LP before the decision (at least 1: 0 LP ends the run)", 1, 10**6),
    LogColumn("coins", "int", "coins before the decision", 0, 10**9),
    LogColumn("enemy", "str", "the room's enemy (- outside a fight)", required=False),
    LogColumn("enemy_lp", "int", "the enemy's LP before the decision (0 outside a fight)", 0, 10**6),
    LogColumn("dice", "str", "the dice shown (hold, combo, last_chance), e.g. 3 5 5; else -", required=False),
    LogColumn("rolls_left", "int", "rolls of the turn's base allowance still to come (hold, combo)", -10, 10),
    LogColumn("offer", "str", "what was on offer: path cards, reward items, the day's stock", required=False),
    LogColumn("choice", "str", "what the player did"),
)
