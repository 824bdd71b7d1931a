"""Dadox's per-run table: one row per (run, seat)."""

from __future__ import annotations

from sim.core.schema import Column, columns_of
from sim.games.dadox.codes import N_DICE

# the per-run table: one row per (run, seat); after ``winner`` the kernel's per-seat statistics in ``play.S_*`` order
COLUMNS = (
    Column("run", "int64", "game index"),
    Column("seat", "int64", "seat (0 throws first)"),
    Column("policy", "str", "the seat's policy (seats rotate over the games when policies differ)"),
    Column("game_turns", "int64", "turns in the game (all seats)"),
    Column("winner", "int64", "winning seat, -1 without a winner (turn limit)"),
    Column("score", "int64", "final score"),
    Column("win", "int64", "1 if the seat won"),
    Column("turns", "int64", "turns the seat played"),
    Column("banks", "int64", "turns banked"),
    Column("banked", "int64", "points banked"),
    Column("overshoots", "int64", "banks past the target (exact finish)"),
    Column("hot_dice", "int64", "throws that scored every die (all six back)"),
    Column("penalty", "int64", "points lost to bust penalties"),
    Column("min_score", "int64", "lowest score during the game"),
    *columns_of([f"throws_{n}" for n in range(1, N_DICE + 1)], "int64", "throws with this many dice ({name})"),
    *columns_of([f"busts_{n}" for n in range(1, N_DICE + 1)], "int64", "busts with this many dice ({name})"),
)
