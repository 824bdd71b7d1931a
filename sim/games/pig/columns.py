"""Pig's per-run table: one row per (run, seat)."""

from __future__ import annotations

from sim.core.schema import Column

# the per-run table: one row per (run, seat); after ``winner`` the kernel's per-seat statistics in ``play.S_*`` order
COLUMNS = (
    Column("run", "int64", "game index"),
    Column("seat", "int64", "seat (0 rolls first)"),
    Column("policy", "str", "the seat's policy (seats alternate over pairs of games when policies differ)"),
    Column("game_turns", "int64", "turns in the game (both seats)"),
    Column("winner", "int64", "winning seat, -1 without a winner (turn limit)"),
    Column("score", "int64", "final score"),
    Column("win", "int64", "1 if the seat won"),
    Column("turns", "int64", "turns the seat played"),
    Column("rolls", "int64", "rolls of the die"),
    Column("busts", "int64", "turns lost to the bust face"),
    Column("holds", "int64", "turns held"),
    Column("held", "int64", "points held (the score)"),
    Column("lost", "int64", "turn totals lost to busts"),
    Column("best_turn", "int64", "largest turn total held"),
)
