"""Pig's exact solvers: the turn that maximises the expected score, and the play that maximises the chance to win.

``solve_turn``: per own score ``i`` a backward recursion over the turn total ``k`` gives ``T[i, k]``, the expected
points the turn adds to the score counted up to the goal (points past the goal are worth nothing), and
``hold[i, k]`` where holding is at least as good as rolling. Away from the goal a roll from ``k`` gains
``(sum of the scoring faces - k) / sides`` in expectation, so with a six-sided die and bust face 1 it holds from 20
(at exactly 20 rolling and holding are worth the same; ties hold).

``solve_win`` (Neller & Presser 2004, "Optimal play of the dice game Pig"): ``W[i, j]`` is the chance that the
player about to roll, at score ``i`` against ``j``, wins when both play optimally. Within a turn,
``P(i, j, k) = max(hold, roll)`` with ``hold = 1 - W[j, i + k]`` (1 once ``i + k`` reaches the goal) and
``roll = (1 - W[j, i] + sum over scoring faces f of P(i, j, k + f)) / sides`` (a roll past the goal wins: 1),
and ``W[i, j] = P(i, j, 0)`` (a turn begins with a roll). The equations are not acyclic (a bust hands the turn
over at the same scores), so ``W`` is found by value iteration: sweeps over the score pairs, largest sums first,
updating in place, each pair's turn solved backwards in ``k``, until no ``W`` moves by ``tolerance``.
``win_hold`` turns the converged ``W`` into the decision table ``hold[i, j, k]``.
"""

from __future__ import annotations

import numpy as np

from sim.jit.plain import njit

TIE = 1e-12  # a hold worth this much less than a roll still counts as a tie (hold): float sums of exact ties


@njit(cache=True)
def solve_turn(rp):
    """``(T, hold)``: ``T[i, k]`` the expected points the turn adds to the score (capped at the goal: ``i + k``
    plus more than ``goal - i`` is worth ``goal - i``) from own score ``i`` at turn total ``k`` under the best
    play; ``hold[i, k]`` 1 where holding is at least as good as rolling (``k >= 1``; ``k = 0`` rolls)."""
    g, sides, bust = rp.goal_target, rp.dice_sides, rp.dice_bust_face
    T = np.zeros((g, g))
    hold = np.zeros((g, g), np.int8)
    for i in range(g):
        for k in range(g - 1 - i, -1, -1):
            s = 0.0  # the bust face adds nothing
            for f in range(1, sides + 1):
                if f == bust:
                    continue
                s += g - i if i + k + f >= g else T[i, k + f]
            roll = s / sides
            if k > 0 and k >= roll - TIE * (1.0 + k):
                hold[i, k] = 1
                T[i, k] = k
            else:
                T[i, k] = roll
    return T, hold


@njit(cache=True)
def _turn(i, j, W, g, sides, bust, P):
    """``P[k]`` for one score pair under the current ``W`` (backwards in ``k``); returns ``P[0]``."""
    give = 1.0 - W[j, i]
    for k in range(g - 1 - i, -1, -1):
        s = give
        for f in range(1, sides + 1):
            if f == bust:
                continue
            s += 1.0 if i + k + f >= g else P[k + f]
        roll = s / sides
        if k == 0:
            P[k] = roll
        else:
            h = 1.0 - W[j, i + k]
            P[k] = h if h >= roll - TIE else roll
    return P[0]


@njit(cache=True)
def solve_win(rp, tolerance, max_sweeps):
    """``(W, sweeps, residual)``: the optimal win chances of the player to move, by value iteration."""
    g, sides, bust = rp.goal_target, rp.dice_sides, rp.dice_bust_face
    W = np.zeros((g, g))
    P = np.zeros(g)
    residual = 1.0
    sweeps = 0
    while residual >= tolerance and sweeps < max_sweeps:
        residual = 0.0
        for total in range(2 * g - 2, -1, -1):
            for i in range(max(0, total - g + 1), min(g - 1, total) + 1):
                j = total - i
                v = _turn(i, j, W, g, sides, bust, P)
                d = abs(v - W[i, j])
                if d > residual:
                    residual = d
                W[i, j] = v
        sweeps += 1
    return W, sweeps, residual


@njit(cache=True)
def win_hold(rp, W):
    """``hold[i, j, k]``: 1 where holding is optimal under ``W`` (ties hold; ``k = 0`` rolls: a turn's first roll)."""
    g, sides, bust = rp.goal_target, rp.dice_sides, rp.dice_bust_face
    hold = np.zeros((g, g, g), np.int8)
    P = np.zeros(g)
    for i in range(g):
        for j in range(g):
            give = 1.0 - W[j, i]
            for k in range(g - 1 - i, 0, -1):
                s = give
                for f in range(1, sides + 1):
                    if f == bust:
                        continue
                    s += 1.0 if i + k + f >= g else P[k + f]
                roll = s / sides
                h = 1.0 - W[j, i + k]
                if h >= roll - TIE:
                    hold[i, j, k] = 1
                    P[k] = h
                else:
                    P[k] = roll
    return hold


def hold_thresholds(hold: np.ndarray, i: int, j: int) -> list[int]:
    """The turn totals ``k >= 1`` at which the table holds, for scores ``(i, j)`` (a policy need not be one
    threshold: a list keeps it honest)."""
    g = hold.shape[0]
    return [int(k) for k in range(1, g - i) if hold[i, j, k]]
