"""The skill model (``sim.core.skill``) at Würfel Dungeon's dispatch points: lapses into ``random``'s move.

The dungeon's policies have no action values (vorschlag and greedy are heuristics; expectimax's expectations cover
the holds of one turn, not the run), so below full skill they err by lapses only: each decision (every call of a
``decide_*`` dispatcher, the market's "buy the next item or leave" included) is ``random``'s with probability
ε(level) = (1 - level)². The lapse coin comes from the run's skill stream ``(seed, run, SKILL_STREAM, 0)``;
``random``'s move then draws from the policy stream ``(3, 0)``, which the other policies never draw from. So the
dice (streams 1, 2, 4-7) are the same draws at every level, level 0 is the random policy run for run, and at
level 1 the kernel draws nothing (``full`` is one comparison decided once per run).
"""

from __future__ import annotations

from numba import njit

from policies.dungeon.ids import RANDOM
from policies.skill import SCALE, lapse_rate
from sim.core.rng import uniform
from sim.jit.tier import INLINE


@njit(cache=True, error_model="numpy", inline=INLINE)
def full_skill(pid, level_ppm):
    """True when no decision of the run can lapse (level 1, or the policy is ``random`` already)."""
    return pid == RANDOM or level_ppm >= SCALE


@njit(cache=True, error_model="numpy", inline=INLINE)
def who(pid, level_ppm, st):
    """The policy that makes this decision: ``pid``, or ``RANDOM`` after a lapse (coin from skill stream ``st``)."""
    if uniform(st) < lapse_rate(level_ppm / SCALE):
        return RANDOM
    return pid
