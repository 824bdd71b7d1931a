"""Pig's policies: after each scoring roll, hold (bank the turn total) or roll on.

Registry ``POLICIES`` maps a name to the integer id the play kernel dispatches on (integer dispatch keeps the
compiled kernel in numba's disk cache for every policy). Adding a policy: one decision function here, one registry
line, one branch in ``decide``. Every policy holds once holding reaches the goal (it wins at once).

- ``hold-20``: holds once the turn total reaches ``policies.hold_at`` (20 by default).
- ``optimal-turn``: maximises the expected points the turn adds to its score, counted up to the goal
  (``sim.games.pig.solve.solve_turn``): far from the goal that is "hold at 20" (a roll at turn total ``k`` gains
  ``(20 - k) / 6`` in expectation with a six-sided die; at 20 it is a tie, and ties hold); near the goal it rolls
  on where the points it could lose are fewer than the capped gain (at score 90 it holds from 9, at 95 never
  before the goal). It ignores the opponent's score.
- ``optimal-win``: maximises the chance to win the two-player game (Neller & Presser 2004): the decision table
  ``hold[own, other, turn total]`` of ``sim.games.pig.solve.win_hold`` (ties hold).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.games.pig import rules as R

POLICIES = {"hold-20": 0, "optimal-turn": 1, "optimal-win": 2}
HOLD_AT, OPTIMAL_TURN, OPTIMAL_WIN = (POLICIES[p] for p in POLICIES)
SOLVED_POLICIES = ("optimal-turn", "optimal-win")


class Solved(NamedTuple):
    """The solved decision tables (one-cell dummies where no seat needs them)."""

    turn_hold: np.ndarray  # int8 [own, turn total]: optimal-turn holds
    win_hold: np.ndarray  # int8 [own, other, turn total]: optimal-win holds


def dummy_turn() -> np.ndarray:
    return np.zeros((1, 1), np.int8)


def dummy_win() -> np.ndarray:
    return np.zeros((1, 1, 1), np.int8)


@njit(cache=True)
def hold_at(total: np.int64, pp: np.record) -> bool:
    return total >= pp.policies_hold_at  # ``sim.games.pig.config.POLICY_PARAMS``


@njit(cache=True)
def decide(pid: np.int64, own: np.int64, other: np.int64, total: np.int64, rp: np.record, pp: np.record,
           sol: Solved) -> bool:
    """Whether the seat holds after a scoring roll (turn total ``total >= 1``)."""
    if R.holding_wins(own, total, rp):
        return True
    if pid == OPTIMAL_TURN:
        return sol.turn_hold[own, total] == 1
    if pid == OPTIMAL_WIN:
        return sol.win_hold[own, other, total] == 1
    return hold_at(total, pp)
