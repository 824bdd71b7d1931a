"""Dadox's display names for readers (reports, charts, the studio): code name -> the word a player uses."""

from __future__ import annotations

POLICY_WORDS = {"threshold": "Threshold", "greedy": "Greedy", "optimal-turn": "Optimal turn",
                "optimal-win": "Optimal win", "random": "Random", "leader-win": "Leader win"}
WORDS = {"dadox": "Dadox", **POLICY_WORDS}
