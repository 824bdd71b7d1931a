"""Dungeon24's board sizes and rule codes, without numba: the config model reads them (a refused value is refused
without importing a kernel) and ``rules`` takes them from here as compile-time constants."""

from __future__ import annotations

N_BASIC = 5
N_POS = 6
BOSS = 5
MAXT = 20  # Schattenschmerz schedule length per player (the config caps schattenschmerz_turns at 20)
# ability kinds
AB_NONE, AB_BLUTRAUSCH, AB_AUFERSTEHUNG, AB_SCHATTENSCHMERZ = 0, 1, 2, 3
# the codes of the choices ``rp.rules_boss_counter``, ``rp.rules_fire_timing`` and ``rp.rules_boss_loss``: a choice's
# place in its ``Literal`` (``config.RULES.choice``; tests/games/test_dungeon24_rules.py holds them equal)
COUNTER_OFF, COUNTER_FIRST, COUNTER_EVERY = 0, 1, 2
FIRE_OWN_TURN, FIRE_ANY_TURN = 0, 1
BOSSLOSS_ABILITY, BOSSLOSS_DEFEAT = 0, 1
