"""Dungeon24's log columns (light: the command line checks a log's header with them before the game loads)."""

from __future__ import annotations

from sim.players.schema import LogColumn, level_column

OUTCOME_COLUMNS = (
    LogColumn("player", "str", "the player's id"),
    LogColumn("game", "int", "the player's game", 0),
    LogColumn("result", "str", "win | loss | draw (draw: the turn limit)"),
    LogColumn("score", "int", "exchanges the player won (hits landed)", 0, 10**6),
    LogColumn("lp", "int", "the player's LP at the end", -10**6, 10**6, required=False),
    LogColumn("opponent_lp", "int", "the opponent's LP at the end", -10**6, 10**6, required=False),
    LogColumn("turns", "int", "turns played (both players)", 0, 10**6, required=False),
    LogColumn("people", "str", "the player's people (gruenlinge, untote, dunkelelfen)", required=False),
    LogColumn("opponent_people", "str", "the opponent's people", required=False),
    LogColumn("opponent", "str", "the opponent's policy (the simulated opponent of the fit)", required=False),
    level_column(),
)
DECISION_COLUMNS = (
    LogColumn("player", "str", "the player's id"),
    LogColumn("game", "int", "the player's game", 0),
    LogColumn("turn", "int", "the turn (both players'; 0: before the first)", 0, 10**6),
    LogColumn("kind", "str", "arrange | fire | counter | action | block | reroll"),
    LogColumn("lp", "int", "the player's LP before the decision (at least 1: the game ends at 0)", 1, 10**6),
    LogColumn("opponent_lp", "int", "the opponent's LP (at least 1)", 1, 10**6),
    LogColumn("charges", "int", "the player's ability charges held", 0, 10**6),
    LogColumn("opponent_charges", "int", "the opponent's charges held", 0, 10**6),
    LogColumn("wins", "int", "exchanges the player has won so far", 0, 10**6),
    LogColumn("opponent_wins", "int", "exchanges the opponent has won", 0, 10**6),
    LogColumn("pyramid", "str", "the player's six positions (front 1-3, middle 1-2, boss): A/V and d (face down), "
              "a (active), f (fallen) or x (discarded)"),
    LogColumn("opponent_pyramid", "str", "the opponent's six positions, as pyramid"),
    LogColumn("dice", "str", "a reroll's dice: the player's die, the opponent's die; else -"),
    LogColumn("choice", "str", "what the player did"),
)
