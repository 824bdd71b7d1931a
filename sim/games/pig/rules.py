"""Pig's rules as small pure functions over the frozen rule record ``rp`` (``config.RULES``: ``rp.goal_target``).

A turn is a run of rolls of one die: a face other than the bust face adds its pips to the turn total, the bust
face ends the turn and loses the turn total, and after any scoring roll the player may hold: the turn total is
added to the score. The first to reach the goal wins.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.pig.options import PLAYERS as PLAYERS  # a duel


@njit(cache=True)
def points(face: np.int64, rp: np.record) -> np.int64:
    """What a face adds to the turn total: its pips, or 0 for the bust face (the turn is lost)."""
    return np.int64(0) if face == rp.dice_bust_face else face


@njit(cache=True)
def after_roll(total: np.int64, face: np.int64, rp: np.record):
    """The turn total after a roll and whether the roll busted (the total is then lost: 0)."""
    if face == rp.dice_bust_face:
        return np.int64(0), True
    return total + face, False


@njit(cache=True)
def holding_wins(score: np.int64, total: np.int64, rp: np.record) -> bool:
    """Whether holding this turn total reaches the goal."""
    return score + total >= rp.goal_target
