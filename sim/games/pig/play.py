"""The Pig run kernel: whole games, roll by roll, one policy per seat.

A run is one game of two seats; seat 0 rolls first. With different policies at the table, runs come in pairs
sharing one deal (``deal = run // 2``): run ``r`` seats ``policies[(s + r) % 2]`` at seat ``s``, so each policy
plays first and second equally often on the same dice. With one policy at both seats ``deal = run``. Turn ``turn``
(counted over both seats) rolls from the stream (seed, deal, turn, 0), so a pair's two games see the same rolls
turn by turn.

``play_game`` plays one game and is shared by the batch kernel ``play_games`` and by ``replay_game`` (which
switches its event log on), so a replay is exactly that run of a batch.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from policies.pig.bots import decide
from sim.core.rng import next_below, stream_key
from sim.games.pig import rules as R

# event log: one row per roll
LOG_WIDTH = 8
L_TURN, L_SEAT, L_FACE, L_TOTAL, L_SCORE, L_EVENT, L_POLICY, L_OTHER = range(LOG_WIDTH)
EV_ROLL, EV_BUST, EV_HOLD, EV_WIN = 0, 1, 2, 3

# per-seat statistics (columns of ``stat``)
S_SCORE, S_WIN, S_TURNS, S_ROLLS, S_BUSTS, S_HOLDS, S_HELD, S_LOST, S_BEST_TURN = range(9)
N_STAT = 9


@njit(cache=True)
def play_game(seed, run, pids, rotate, rp, pp, sol, stat, log):
    """Play run ``run`` to its end; fills ``stat[seat, S_*]``. Returns (turns, winner, log rows).

    ``pids`` are the policy ids in seating order before rotation; ``log`` gets one row per roll when it has rows
    (it stops quietly when full).
    """
    players = pids.shape[0]
    if rotate:
        deal = run // players
        rot = run % players
    else:
        deal = run
        rot = np.int64(0)
    logging = log.shape[0] > 0
    nlog = 0
    stat[:, :] = 0
    sides = rp.dice_sides
    max_turns = rp.game_max_turns
    winner = -1
    turn = np.int64(0)
    while turn < max_turns and winner < 0:
        seat = turn % players
        pid = pids[(seat + rot) % players]
        own = stat[seat, S_SCORE]
        other = stat[(seat + 1) % players, S_SCORE]
        st = stream_key(seed, deal, turn, 0)
        stat[seat, S_TURNS] += 1
        total = np.int64(0)
        while True:
            st, f = next_below(st, sides)
            face = f + 1
            stat[seat, S_ROLLS] += 1
            lost = total
            total, bust = R.after_roll(total, face, rp)
            event = EV_ROLL
            if bust:
                stat[seat, S_BUSTS] += 1
                stat[seat, S_LOST] += lost
                event = EV_BUST
            elif decide(pid, own, other, total, rp, pp, sol):
                stat[seat, S_SCORE] = own + total
                stat[seat, S_HOLDS] += 1
                stat[seat, S_HELD] += total
                if total > stat[seat, S_BEST_TURN]:
                    stat[seat, S_BEST_TURN] = total
                event = EV_HOLD
                if R.holding_wins(own, total, rp):
                    winner = seat
                    event = EV_WIN
            if logging and nlog < log.shape[0]:
                row = log[nlog]
                row[L_TURN] = turn
                row[L_SEAT] = seat
                row[L_FACE] = face
                row[L_TOTAL] = lost if bust else total
                row[L_SCORE] = stat[seat, S_SCORE]
                row[L_EVENT] = event
                row[L_POLICY] = pid
                row[L_OTHER] = other
                nlog += 1
            if event != EV_ROLL:
                break
        turn += 1
    if winner >= 0:
        stat[winner, S_WIN] = 1
    return turn, winner, nlog


@njit(cache=True, parallel=True)
def play_games(seed, start, count, pids, rotate, rules, pols, sol, turns, winners, stat):
    """Play runs ``start .. start + count - 1``: game length, winner seat and ``stat[run, seat, :]``.

    ``rules`` and ``pols`` are the one-element arrays of the records ``rp`` and ``pp`` (``rp.base``): numba's
    parallel loop cannot take a record from outside, so each game reads it from its array (a pointer, no copy).
    """
    no_log = np.empty((0, LOG_WIDTH), np.int64)
    for g in prange(count):
        i = np.int64(g)  # prange counts in uint64: int64 keeps one signature of play_game (replay's) = one compile
        turns[i], winners[i], _ = play_game(seed, start + i, pids, rotate, rules[0], pols[0], sol, stat[i], no_log)


@njit(cache=True)
def replay_game(seed, run, pids, rotate, rp, pp, sol, max_rows):
    """One game with its event log (the same ``play_game`` as the batch kernel)."""
    log = np.zeros((max_rows, LOG_WIDTH), np.int64)
    stat = np.zeros((pids.shape[0], N_STAT), np.int64)
    turns, winner, nlog = play_game(seed, run, pids, rotate, rp, pp, sol, stat, log)
    return turns, winner, stat, log[:nlog]
