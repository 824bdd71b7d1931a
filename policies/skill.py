"""The skill model's jitted half: lapses, softmax choices and where kernels find the levels.

The model is documented in ``sim.core.skill`` (the ``[skill]`` config section). Here:

- levels travel in a game's rule record as int64 parts per million (``SCALE``): ``skill_level_ppm`` (the
  player's seat) and ``skill_opponents_ppm`` (every other seat) (``sim.core.skill.SKILL_RECORD``, ``record_level``);
- a skilled decision draws from its own stream ``stream_key(seed, run, SKILL_STREAM + k, b)``
  (``k``, ``b``: the game's seat or turn keys). No game uses so large an ``a`` key for its dice or
  policy streams, so the dice stay the same draws at every level (common random numbers);
- ``lapses`` is the ε coin; ``softmax_pick`` the value-weighted choice.
"""

from __future__ import annotations

import numpy as np

from sim.core.rng import next_below, next_float
from sim.jit.plain import njit

SCALE = 1_000_000  # a level's unit in the frozen arrays: parts per million
SKILL_STREAM = 0x5C111_0000  # added to the stream key ``a`` of every skill stream


@njit(cache=True, inline="always")
def record_ppm(rec, entry: int):
    """The level of policy entry ``entry`` (0: the player, others: opponents) in parts per million, from a rule
    record holding ``sim.core.skill.SKILL_RECORD`` (``rec.skill_level_ppm``, ``rec.skill_opponents_ppm``)."""
    return rec.skill_level_ppm if entry == 0 else rec.skill_opponents_ppm


@njit(cache=True, inline="always")
def record_level(rec, entry: int) -> float:
    """``record_ppm`` as a level in [0, 1]."""
    return record_ppm(rec, entry) / SCALE


@njit(cache=True, inline="always")
def lapse_rate(level: float) -> float:
    """ε(ℓ) = (1 - ℓ)²: the chance that a decision is a random legal move."""
    return (1.0 - level) * (1.0 - level)


@njit(cache=True, inline="always")
def temperature(level: float, unit: float) -> float:
    """τ(ℓ) = unit · (1 - ℓ) / ℓ (infinite at 0: uniform)."""
    if level <= 0.0:
        return np.inf
    return unit * (1.0 - level) / level


@njit(cache=True, inline="always")
def lapses(s: np.uint64, level: float):
    """Draw the lapse coin: returns (stream, True when this decision is a random move)."""
    s, u = next_float(s)
    return s, u < lapse_rate(level)


@njit(cache=True)
def softmax_pick(vals: np.ndarray, n: int, tau: float, s: np.uint64):
    """Index into ``vals[:n]`` drawn with weights ``exp((v - max) / tau)``; uniform for an infinite ``tau``.

    Returns (stream, index). The best value has weight 1, so the sum is at least 1 and never underflows.
    """
    if not tau < np.inf:
        return next_below(s, n)
    vmax = vals[0]
    for i in range(1, n):
        if vals[i] > vmax:
            vmax = vals[i]
    if not vmax > -np.inf:  # nothing has a finite value: uniform
        return next_below(s, n)
    total = 0.0
    for i in range(n):
        total += np.exp((vals[i] - vmax) / tau)
    s, u = next_float(s)
    target = u * total
    acc = 0.0
    for i in range(n):
        acc += np.exp((vals[i] - vmax) / tau)
        if target < acc:
            return s, i
    return s, n - 1  # rounding: the last one


@njit(cache=True)
def soft_binary(v_yes: float, v_no: float, tau: float, s: np.uint64):
    """Two-way softmax (yes/no); an infinite ``tau`` is a fair coin. Returns (stream, yes)."""
    s, u = next_float(s)
    if not tau < np.inf:
        return s, u < 0.5
    d = (v_no - v_yes) / tau
    if d > 700.0:
        return s, False
    return s, u < 1.0 / (1.0 + np.exp(d))
