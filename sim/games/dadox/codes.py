"""Dadox's rule codes and dice count, without numba: the config model reads them (a refused value is refused without
importing a kernel) and ``rules`` takes them from here as compile-time constants."""

from __future__ import annotations

# the codes of ``rp.bust_penalty`` and ``rp.goal_overshoot``: a choice's place in its ``Literal`` (``RULES.choice``)
PENALTY_LOSE, PENALTY_SUBTRACT = 0, 1
OVERSHOOT_VOID, OVERSHOOT_SUBTRACT = 0, 1
N_DICE = 6
