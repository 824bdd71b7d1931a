"""Pig's display names for readers (reports, charts, the studio): code name -> the word a player uses."""

from __future__ import annotations

POLICY_WORDS = {"hold-20": "Hold 20", "optimal-turn": "Optimal turn", "optimal-win": "Optimal win"}
WORDS = {"pig": "Pig", **POLICY_WORDS}
