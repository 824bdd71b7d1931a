"""Pig's display names for readers (reports, charts, the studio): code name -> the word a player uses."""

from __future__ import annotations

POLICY_WORDS = {"hold-20": "Hold 20", "optimal-turn": "Optimal turn", "optimal-win": "Optimal win"}
WORDS = {"pig": "Pig", **POLICY_WORDS}
# the units of Pig's own count metrics (``sim.report.words.unit_of``): a turn's points, a turn's rolls
UNITS = {r"^(mean_held_turn|points_lost_per_bust|best_turn)$": "points", r"^rolls_per_turn$": "rolls"}
