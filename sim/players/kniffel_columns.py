"""Kniffel's log columns (light: the command line checks a log's header with them before the game loads)."""

from __future__ import annotations

from sim.games.kniffel.codes import CATEGORIES, CATEGORY_LABELS
from sim.players.schema import LogColumn, level_column

BOXES = tuple(f"s_{n}" for n in CATEGORIES)

DECISION_COLUMNS = (
    LogColumn("player", "str", "the player's id (any text)"),
    LogColumn("game", "int", "the player's game (0, 1, …: any whole numbers that tell the player's games apart)", 0),
    LogColumn("turn", "int", "the turn, 1..13 (the number of filled boxes + 1)", 1, len(CATEGORIES)),
    LogColumn("kind", "str", "hold (the dice kept before a reroll) or box (where the final dice are scored)"),
    LogColumn("rolls_left", "int", "rerolls still allowed this turn before the decision (a hold: 1 or more)", 0, 5),
    *(LogColumn(f"d{i}", "int", f"die {i} shown, 1..6", 1, 6) for i in range(1, 6)),
    *(LogColumn(b, "int", f"the sheet before the decision: points in {lab}, -1 while open", -1, 1000)
      for b, lab in zip(BOXES, CATEGORY_LABELS, strict=True)),
    LogColumn("choice", "str", "a hold: the faces kept, e.g. 566 (in any order; - keeps none); a box: its name, "
              "e.g. full_house"),
)
OUTCOME_COLUMNS = (
    LogColumn("player", "str", "the player's id"),
    LogColumn("game", "int", "the player's game", 0),
    LogColumn("score", "int", "final score (boxes + upper bonus + Kniffel bonuses)", 0, 100_000),
    LogColumn("won", "int", "1 when the player alone had the top score (games of several players)", 0, 1,
              required=False),
    level_column('; the fit ignores it'),
)
