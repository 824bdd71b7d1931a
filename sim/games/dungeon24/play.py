"""The Dungeon24 run kernel: one game per run, every draw from the run's own ``sim.core.rng`` streams.

Streams of run ``r`` (keys ``(seed, r, a, b)``): ``(1, 0)`` the roll-off, ``(2, seat)`` the seat's
dice (attack/defence die, focus rerolls, Blutrausch dice), ``(3, seat)`` the seat's policy choices,
``(SKILL_STREAM + seat, 0)`` the seat's skill draws: below full skill (``[skill]``: seat 0 at
``skill.level``, seat 1 at ``skill.opponents``) every decision lapses into ``random``'s move with
probability ε(level) (``sim.core.skill``), drawn from that stream; at level 1 none of it runs.
``play_game`` plays one run and, when given a non-empty ``log``, writes its events (the replay), and given a
non-empty ``trace``, the state at the start of each turn (the positions ``benchmarks/fit_dungeon24_value.py``
fits expectimax's value to); ``play_batch`` runs it over a chunk with ``prange``, so tables never depend on
chunking or threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from policies.dungeon24 import bots as P
from policies.skill import SCALE, SKILL_STREAM, lapse_rate, record_level, record_ppm
from sim.core.rng import die, stream_key, uniform
from sim.games.dungeon24 import rules as R

COLUMNS = (
    "winner", "first_attacker", "turns", "end",
    "lp0", "lp1", "wins0", "wins1", "ability_uses0", "ability_uses1", "boss_lost0", "boss_lost1",
    "charges0", "charges1", "focus0", "focus1", "deploys0", "deploys1", "counters0", "counters1",
    "people0", "people1",
)
N_COL = len(COLUMNS)

# event kinds of the replay log (row: kind, turn, seat, a, b, c, d, e); EV_FIRE: a ability, b effect (the
# returned position), c charges left, d the decision point R.W_*
EV_ROLLOFF, EV_CURSE, EV_FIRE, EV_COUNTER, EV_DEPLOY, EV_ATTACK, EV_REROLL, EV_HIT, EV_BLOCK = range(9)
EV_REINFORCE, EV_END = 9, 10
LOG_WIDTH = 8
BLOCK = 256  # runs per parallel work item


@njit(cache=True, inline="always")
def _ev(log, n, kind, turn, p, a, b, c, d, e):
    if n < log.shape[0]:
        log[n, 0] = kind
        log[n, 1] = turn
        log[n, 2] = p
        log[n, 3] = a
        log[n, 4] = b
        log[n, 5] = c
        log[n, 6] = d
        log[n, 7] = e
        return n + 1
    return n


@njit(cache=True, inline="always")
def who(pols, s, st, rp):
    """``(policy, stream slot)`` that makes seat ``s``'s next decision: its policy and stream ``st[3 + s]``, or
    below full skill, after a lapse (``policies.skill``), ``random`` drawing from its skill stream ``st[5 + s]``."""
    if pols[s] != P.RANDOM and record_ppm(rp, s) < SCALE:  # below full skill (an integer test: level 1 costs nothing)
        if uniform(st[5 + s : 6 + s]) < lapse_rate(record_level(rp, s)):
            return P.RANDOM, 5 + s
    return pols[s], 3 + s


@njit(cache=True, inline="always")
def _rerolls(pols, S, s, is_att, ab, bl, da, dd, rp, st):
    """Seat ``s``'s focus reroll decision (through ``who``)."""
    pol, k = who(pols, s, st, rp)
    return P.want_reroll(pol, S, s, is_att, ab, bl, da, dd, rp, st[k : k + 1])


@njit(cache=True)
def fire_window(S, s, w, t, pols, st, rp, log, n):
    """Decision point ``w`` (``R.W_*``) for seat ``s``: it fires charges one by one while its policy wants
    (several stack in one window); after each fire the opponent may answer with a Boss-Konter.
    Returns the number of log rows written so far."""
    o = 1 - s
    while R.can_fire(S, s, rp):
        pol, k = who(pols, s, st, rp)
        if not P.want_fire(pol, S, s, w, rp, st[k : k + 1]):
            break
        eff = R.fire(S, s, rp)
        n = _ev(log, n, EV_FIRE, t, s, S[R.S_ABIL + s], eff, S[R.S_CHARGES + s], w, 0)
        if R.counter_allowed(S, o, rp):
            pol, k = who(pols, o, st, rp)
            if P.want_counter(pol, S, o, rp, st[k : k + 1]):
                R.activate_boss(S, o)
                n = _ev(log, n, EV_COUNTER, t, o, R.BOSS, 0, 0, 0, 0)
    return n


@njit(cache=True)
def play_game(S, st, perm, seed, run, pols, people, abil, perm_fixed, rp, cards, log, trace):
    """Play run ``run`` into the state ``S``; returns the number of log rows written.

    ``trace[t - 1]`` (while it has rows): the state at the start of turn ``t``, the mover in ``S[R.S_TOMOVE]``,
    before its curses tick (so ``min(S[R.S_TURN], len(trace))`` rows are written).
    ``st`` (7 uint64) and ``perm`` (int64 [2, 5]) are scratch space, overwritten.
    ``pols``/``people``/``abil``: policy id, people index and ability kind per seat;
    ``perm_fixed[seat]``: a fixed pyramid (``-1`` in slot 0: the seat's policy arranges it).
    """
    st[0] = stream_key(seed, run, 1, 0)
    st[1] = stream_key(seed, run, 2, 0)
    st[2] = stream_key(seed, run, 2, 1)
    st[3] = stream_key(seed, run, 3, 0)
    st[4] = stream_key(seed, run, 3, 1)
    st[5] = stream_key(seed, run, SKILL_STREAM, 0)
    st[6] = stream_key(seed, run, SKILL_STREAM + 1, 0)
    g = st[0:1]
    dice = (st[1:2], st[2:3])
    for s in range(2):
        if perm_fixed[s, 0] >= 0:
            perm[s] = perm_fixed[s]
        else:
            pol, k = who(pols, s, st, rp)
            P.arrange(pol, cards[people[s]], st[k : k + 1], perm[s])
    R.init_state(S, rp, cards, people, abil, perm)
    n = 0
    while True:
        a = die(g)
        b = die(g)
        n = _ev(log, n, EV_ROLLOFF, 0, -1, a, b, 0, 0, 0)
        if a != b:
            break
    p = 0 if a > b else 1
    S[R.S_FIRST] = p
    while True:
        if S[R.S_TURN] >= rp.rules_max_turns:
            S[R.S_END] = R.END_TURN_LIMIT
            S[R.S_WINNER] = -1
            break
        S[R.S_TURN] += 1
        S[R.S_TOMOVE] = p
        t = S[R.S_TURN]
        if t <= trace.shape[0]:
            trace[t - 1] = S
        o = 1 - p
        dmg, end = R.curse_tick(S, p, rp)
        if dmg > 0:
            n = _ev(log, n, EV_CURSE, t, p, dmg, S[R.S_LP + p], 0, 0, 0)
        if end != R.END_NONE:
            break
        anytime = rp.rules_fire_timing == R.FIRE_ANY_TURN
        n = fire_window(S, p, R.W_START, t, pols, st, rp, log, n)
        if anytime:
            n = fire_window(S, o, R.W_OPP_START, t, pols, st, rp, log, n)
        pol, k = who(pols, p, st, rp)
        f = P.choose_action(pol, S, p, rp, st[k : k + 1])
        if f < 0:
            pos = R.deploy(S, p)
            n = _ev(log, n, EV_DEPLOY, t, p, pos, 0, 0, 0, 0)
        else:
            att_a = R.attack_of(S, p, f)
            pol, k = who(pols, o, st, rp)
            bl = P.choose_blocker(pol, S, o, f, rp, st[k : k + 1])
            bonus = 0
            for _ in range(S[R.S_BLUT + p]):
                bonus += die(dice[p])
            S[R.S_BLUT + p] = 0
            ab = att_a + bonus
            vb = R.defence_of(S, o, bl)
            da = die(dice[p])
            dd = die(dice[o])
            n = _ev(log, n, EV_ATTACK, t, p, f, bl, da, dd, bonus)
            if R.can_focus(S, p, rp) and _rerolls(pols, S, p, True, ab, bl, da, dd, rp, st):
                pol, k = who(pols, p, st, rp)
                pos = P.choose_discard(pol, S, p, rp, st[k : k + 1])
                R.pay_focus(S, p, pos, rp)
                old = da
                da = die(dice[p])
                n = _ev(log, n, EV_REROLL, t, p, 1, old, da, pos, 0)
            if R.can_focus(S, o, rp) and _rerolls(pols, S, o, False, ab, bl, da, dd, rp, st):
                pol, k = who(pols, o, st, rp)
                pos = P.choose_discard(pol, S, o, rp, st[k : k + 1])
                R.pay_focus(S, o, pos, rp)
                old = dd
                dd = die(dice[o])
                n = _ev(log, n, EV_REROLL, t, o, 0, old, dd, pos, 0)
            diff = R.exchange(ab + da, vb + dd)
            if diff > 0:
                end, r = R.apply_hit(S, p, bl, diff, rp)
                n = _ev(log, n, EV_HIT, t, p, bl, diff, S[R.S_LP + o], S[R.S_WINS + p], S[R.S_CHARGES + p])
                if r >= 0:
                    n = _ev(log, n, EV_REINFORCE, t, o, r, 0, 0, 0, 0)
                if end != R.END_NONE:
                    break
            else:
                n = _ev(log, n, EV_BLOCK, t, p, ab + da, vb + dd, 0, 0, 0)
        n = fire_window(S, p, R.W_END, t, pols, st, rp, log, n)
        if anytime:
            n = fire_window(S, o, R.W_OPP_END, t, pols, st, rp, log, n)
        p = o
    n = _ev(log, n, EV_END, S[R.S_TURN], S[R.S_WINNER], S[R.S_END], 0, 0, 0, 0)
    return n


@njit(cache=True)
def write_row(S, row):
    """The per-run columns (``COLUMNS``) of a finished game."""
    row[0] = S[R.S_WINNER]
    row[1] = S[R.S_FIRST]
    row[2] = S[R.S_TURN]
    row[3] = S[R.S_END]
    for s in range(2):
        row[4 + s] = S[R.S_LP + s]
        row[6 + s] = S[R.S_WINS + s]
        row[8 + s] = S[R.S_USES + s]
        row[10 + s] = S[R.S_BOSSLOST + s]
        row[12 + s] = S[R.S_CHARGED + s]
        row[14 + s] = S[R.S_FOCUS + s]
        row[16 + s] = S[R.S_DEPLOYS + s]
        row[18 + s] = S[R.S_COUNTERS + s]
        row[20 + s] = S[R.S_PEOPLE + s]


@njit(cache=True, parallel=True)
def play_batch(seed, start, count, pols, people, abil, perm_fixed, rules, cards):
    """Runs ``start .. start + count - 1``: an int64 table ``[count, N_COL]``.

    ``rules`` is the rule record's one-element array (``rp.base``): a parallel loop cannot take a record from
    outside (numba lowers it by value), so each block reads ``rp = rules[0]`` (a pointer, no copy)."""
    out = np.empty((count, N_COL), np.int64)
    n_blocks = (count + BLOCK - 1) // BLOCK
    for blk in prange(n_blocks):  # scratch arrays once per block; each run still draws only from its own streams
        S = np.empty(R.S_SIZE, np.int64)
        st = np.empty(7, np.uint64)
        perm = np.empty((2, R.N_BASIC), np.int64)
        log = np.empty((0, LOG_WIDTH), np.int64)
        trace = np.empty((0, R.S_SIZE), np.int64)
        rp = rules[0]
        for i in range(blk * BLOCK, min(count, (blk + 1) * BLOCK)):
            play_game(S, st, perm, seed, start + i, pols, people, abil, perm_fixed, rp, cards, log, trace)
            write_row(S, out[i])
    return out


@njit(cache=True)
def replay_game(seed, run, pols, people, abil, perm_fixed, rp, cards, max_events):
    """One run with its event log (the same ``play_game`` as the batch): ``(state, log rows)``."""
    S = np.empty(R.S_SIZE, np.int64)
    st = np.empty(7, np.uint64)
    perm = np.empty((2, R.N_BASIC), np.int64)
    log = np.zeros((max_events, LOG_WIDTH), np.int64)
    n = play_game(S, st, perm, seed, run, pols, people, abil, perm_fixed, rp, cards, log,
                  np.empty((0, R.S_SIZE), np.int64))
    return S, log[:n]


@njit(cache=True)
def trace_game(seed, run, pols, people, abil, perm_fixed, rp, cards, max_turns):
    """One run (the same ``play_game`` as the batch) with the state at the start of each of its first ``max_turns``
    turns: ``(final state, states [min(turns, max_turns), S_SIZE])``. For fitting a value to positions."""
    S = np.empty(R.S_SIZE, np.int64)
    st = np.empty(7, np.uint64)
    perm = np.empty((2, R.N_BASIC), np.int64)
    trace = np.zeros((max_turns, R.S_SIZE), np.int64)
    play_game(S, st, perm, seed, run, pols, people, abil, perm_fixed, rp, cards, np.empty((0, LOG_WIDTH), np.int64),
              trace)
    return S, trace[: min(S[R.S_TURN], max_turns)]
