"""Würfel Dungeon policy ids: the integers the run kernel dispatches on (``POLICIES`` maps the names)."""

from __future__ import annotations

POLICIES = {"vorschlag": 0, "greedy": 1, "expectimax": 2, "random": 3, "rollout": 4}
VORSCHLAG, GREEDY, EXPECTIMAX, RANDOM, ROLLOUT = 0, 1, 2, 3, 4  # ROLLOUT: the driver (``sim.games.dungeon.rollout``)
NEEDS_ETAB = (EXPECTIMAX,)  # policies that read the per-turn expectation table
