"""Kniffel's per-run table: one row per (run, seat), runs in order; with more than one seat who won."""

from __future__ import annotations

from typing import Any

from sim.core.schema import CATEGORY, Column, columns_of
from sim.games.kniffel import rules as R

# the per-run table: one row per (run, seat), runs in order
COLUMNS = (
    Column("run", "int64", "run index"),
    Column("seat", "int8", "seat (0 plays first)"),
    Column("policy", CATEGORY, "the seat's policy"),
    Column("score", "int16", "final score (boxes + upper bonus + Kniffel bonuses)"),
    Column("upper_sum", "int16", "points in the six upper boxes"),
    Column("upper_bonus", "int16", "upper bonus scored"),
    Column("kniffel_bonus", "int16", "Kniffel bonuses scored"),
    Column("kniffels", "int8", "Kniffels rolled and scored in the Kniffel box or as a bonus"),
)
SEAT_RESULT = (Column("win", "bool", "the seat alone has the top score"),
               Column("tie", "bool", "the seat shares the top score"))
BOX_COLUMNS = (columns_of([f"s_{n}" for n in R.CATEGORIES], "int16", "points written in the box ({name})")
               + columns_of([f"t_{n}" for n in R.CATEGORIES], "int8", "turn (1..13) the box was filled ({name})"))


def table_columns(cfg: Any, options: dict[str, Any]) -> tuple[Column, ...]:
    """The batch table's columns for these options (``win``/``tie`` with two or more players)."""
    return COLUMNS + (SEAT_RESULT if int(options.get("players", 1)) > 1 else ()) + BOX_COLUMNS
