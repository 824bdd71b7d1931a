"""The Dadox run kernel: whole games, turn by turn, one policy per seat.

A run is one game. With different policies at the table, runs come in groups of ``players``
sharing one deal (``deal = run // players``): run ``r`` seats policy ``policies[(s + r) % players]``
at seat ``s`` (seat 0 moves first), so each policy plays every seat equally often on the same dice.
With one policy at every seat, ``deal = run``. Turn ``turn`` (counted over all seats) throws its
dice from the stream (seed, deal, turn, 0) and the random policy draws from (seed, deal, turn, 1).
Below full skill (``[skill]``: the first listed policy at ``skill.level``, the others at
``skill.opponents``; the level follows its policy when seats rotate) a turn's decisions are
``policies.dadox.skill``'s, drawing from (seed, deal, ``SKILL_STREAM``, turn); at level 1 none of it runs.

``play_game`` plays one game and is shared by the batch kernel ``play_games`` and by ``replay``
(which switches its event log on), so a replay is exactly that run of a batch.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from policies.dadox.bots import (
    LEADER_WIN,
    OPTIMAL_TURN,
    OPTIMAL_WIN,
    RANDOM,
    decide,
    decide_solved,
    make_scratch,
    next_dice,
)
from policies.dadox.skill import skill_decide, skill_decide_solved
from policies.skill import SKILL_STREAM, record_level
from sim.core.rng import next_die, stream_key
from sim.games.dadox import rules as R
from sim.games.dadox.tables import OPT_LOCK, OPT_PTS, OPT_USED

# event log: one row per throw
LOG_WIDTH = 11
L_TURN, L_SEAT, L_DICE, L_THROW, L_OPTION, L_TOTAL, L_SCORE, L_EVENT, L_LOCK, L_POLICY, L_OPP = range(LOG_WIDTH)
EV_ON, EV_BUST, EV_BANK, EV_OVERSHOOT, EV_WIN = 0, 1, 2, 3, 4

# per-seat statistics (columns of ``stat``)
S_SCORE, S_WIN, S_TURNS, S_BANKS, S_BANKED, S_OVERSHOOTS, S_HOT, S_PENALTY, S_MIN_SCORE = range(9)
S_THROWS = 9  # six columns: throws of 1..6 dice
S_BUSTS = 15  # six columns: busts with 1..6 dice
N_STAT = 21


@njit(cache=True)
def _leader(scores, opened, seat, players):
    """Best score among the other seats (and whether that player has opened)."""
    best = -(1 << 62)
    bo = True
    for s in range(players):
        if s != seat and scores[s] > best:
            best = scores[s]
            bo = opened[s]
    if players == 1:
        return 0, True
    return best, bo


@njit(cache=True)
def play_game(seed, run, pids, rotate, rp, pp, tb, sol, scr, scores, opened, stat, log):
    """Play run ``run`` to its end; fills ``stat[seat, S_*]``. Returns (turns, winner, log rows).

    ``pids`` are the policy ids in seating order before rotation; ``log`` gets one row per throw
    when it has rows (it stops quietly when full).
    """
    players = pids.shape[0]
    child, bust_plain, has15, opt_start, opt_n, opt = tb.child, tb.bust_plain, tb.has15, tb.opt_start, tb.opt_n, tb.opt
    if rotate:
        deal = run // players
        rot = run % players
    else:
        deal = run
        rot = 0
    logging = log.shape[0] > 0
    nlog = 0
    stat[:, :] = 0
    for s in range(players):
        scores[s] = 0
        opened[s] = rp.turn_opening_minimum == 0
    scr.key[0] = -1
    winner = -1
    turn = 0
    max_turns = rp.game_max_turns
    while turn < max_turns and winner < 0:
        seat = turn % players
        entry = (seat + rot) % players
        pid = pids[entry]
        st = stream_key(seed, deal, turn, 0)
        sd = stream_key(seed, deal, turn, 1) if pid == RANDOM else st
        lv = record_level(pp, entry)
        skilled = lv < 1.0 and pid != RANDOM
        sk = stream_key(seed, deal, SKILL_STREAM, turn) if skilled else st
        solved = pid == OPTIMAL_TURN or pid == OPTIMAL_WIN or pid == LEADER_WIN
        me = scores[seat]
        opp, opp_opened = _leader(scores, opened, seat, players)
        stat[seat, S_TURNS] += 1
        t = np.int64(0)  # not the literal 0: callees would compile once for Literal[int](0) and once for int64
        n = R.N_DICE
        first = True
        lock = R.LOCK_FREE
        while True:
            k = 0
            for _ in range(n):
                st, f = next_die(st)
                k = child[k, f - 1]
            stat[seat, S_THROWS + n - 1] += 1
            n_thrown = n
            need = R.needs_1_or_5(first, lock == R.LOCK_CONFIRM, rp)
            event = EV_ON
            o = -1
            if bust_plain[k] == 1 or (need and has15[k] == 0):
                stat[seat, S_BUSTS + n - 1] += 1
                ns = R.bust_result(me, t, rp)
                stat[seat, S_PENALTY] += me - ns
                scores[seat] = ns
                event = EV_BUST
            else:
                v = 1 if first else 0
                o0 = opt_start[k, v]
                if skilled and solved:
                    choice, sk = skill_decide_solved(
                        pid, lv, o0, opt_n[k, v], t, n, me, opened[seat], opp, opp_opened, opt, tb, rp, pp, sol, scr, sk
                    )
                elif skilled:
                    choice, sk = skill_decide(pid, lv, o0, opt_n[k, v], t, n, me, opened[seat], opt, rp, pp, sk)
                elif solved:
                    choice = decide_solved(
                        pid, o0, opt_n[k, v], t, n, me, opened[seat], opp, opp_opened, opt, tb, rp, sol, scr
                    )
                else:
                    choice, sd = decide(pid, o0, opt_n[k, v], t, n, me, opened[seat], opt, rp, pp, sd)
                o = o0 + choice // 2
                t += opt[o, OPT_PTS]
                if opt[o, OPT_USED] == n:
                    stat[seat, S_HOT] += 1
                n = next_dice(n, opt[o, OPT_USED])
                lock = opt[o, OPT_LOCK]
                first = False
                if choice % 2 == 1 and R.may_bank(opened[seat], t, lock != R.LOCK_FREE, rp):
                    ns, won, over = R.bank_result(me, t, rp)
                    scores[seat] = ns
                    if over:
                        stat[seat, S_OVERSHOOTS] += 1
                        stat[seat, S_PENALTY] += me - ns
                        event = EV_OVERSHOOT
                    else:
                        stat[seat, S_BANKS] += 1
                        stat[seat, S_BANKED] += t
                        opened[seat] = True
                        event = EV_BANK
                    if won:
                        winner = seat
                        event = EV_WIN
            if logging and nlog < log.shape[0]:
                row = log[nlog]
                row[L_TURN] = turn
                row[L_SEAT] = seat
                row[L_DICE] = n_thrown
                row[L_THROW] = k
                row[L_OPTION] = o
                row[L_TOTAL] = t
                row[L_SCORE] = scores[seat]
                row[L_EVENT] = event
                row[L_LOCK] = lock
                row[L_POLICY] = pid
                row[L_OPP] = opp
                nlog += 1
            if event != EV_ON:
                break
        if scores[seat] < stat[seat, S_MIN_SCORE]:
            stat[seat, S_MIN_SCORE] = scores[seat]
        turn += 1
    for s in range(players):
        stat[s, S_SCORE] = scores[s]
    if winner >= 0:
        stat[winner, S_WIN] = 1
    return turn, winner, nlog


@njit(cache=True, parallel=True)
def play_games(seed, start, count, pids, rotate, rules, params, tb, sol, turns, winners, stat):
    """Play runs ``start .. start + count - 1``: game length, winner seat and ``stat[run, seat, :]``.

    ``rules``, ``params``: the one-element arrays of the rule and policy records (``rp.base``, ``pp.base``): a
    parallel loop cannot take a record from outside (numba lowers it by value), so the loop body reads
    ``rp = rules[0]`` (a pointer, no copy)."""
    players = pids.shape[0]
    tm = sol.bank_to.shape[1]
    nb = min(count, 1024)
    step = (count + nb - 1) // nb
    no_log = np.empty((0, LOG_WIDTH), np.int64)
    for b in prange(nb):
        blk = np.int64(b)  # prange counts in uint64: int64 keeps one signature of play_game (replay's) = one compile
        rp = rules[0]
        pp = params[0]
        scr = make_scratch(tm, tb.go_pad)
        scores = np.empty(players, np.int64)
        opened = np.empty(players, np.bool_)
        for g in range(blk * step, min(count, (blk + 1) * step)):
            turns[g], winners[g], _ = play_game(
                seed, start + g, pids, rotate, rp, pp, tb, sol, scr, scores, opened, stat[g], no_log
            )


@njit(cache=True)
def replay_game(seed, run, pids, rotate, rp, pp, tb, sol, max_rows):
    """One game with its event log (the same ``play_game`` as the batch kernel)."""
    players = pids.shape[0]
    log = np.zeros((max_rows, LOG_WIDTH), np.int64)
    scr = make_scratch(sol.bank_to.shape[1], tb.go_pad)
    stat = np.zeros((players, N_STAT), np.int64)
    scores = np.empty(players, np.int64)
    opened = np.empty(players, np.bool_)
    turns, winner, nlog = play_game(seed, run, pids, rotate, rp, pp, tb, sol, scr, scores, opened, stat, log)
    return turns, winner, stat, log[:nlog]
