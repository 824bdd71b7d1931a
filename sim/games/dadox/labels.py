"""Dadox's display names for readers (reports, charts, the studio): code name -> the word a player uses."""

from __future__ import annotations

from sim.games.dadox.options import POLICY_WORDS

WORDS = {"dadox": "Dadox", **POLICY_WORDS}
