"""Dungeon24's display names for readers (reports, charts, the studio): code name -> the game's own word."""

from __future__ import annotations

from sim.games.dungeon24.options import PEOPLE_WORDS

POLICY_WORDS = {"random": "Random", "greedy": "Greedy", "heuristic": "Heuristic", "exact-exchange": "Exact exchange",
                "expectimax": "Expectimax"}
WORDS = {"dungeon24": "Dungeon24", **PEOPLE_WORDS, **POLICY_WORDS}
