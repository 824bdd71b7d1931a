"""Dungeon24's move ratings, for the ``heuristic`` and ``exact-exchange`` policies (and ``expectimax``'s focus).

The value scale in LP (``W_*``), a creature's and a position's value, the hit chance and the exact exchange over
both dice (with focus rerolls), the attack and deploy ratings. ``expectimax``'s search across turns and its fitted
value are in ``policies.dungeon24.search``; the dispatchers that turn these ratings into each policy's decisions
are in ``policies.dungeon24.bots``.
"""

from __future__ import annotations

import numpy as np
from numba import from_dtype, njit, types

from sim.core.rng import below
from sim.games.dungeon24 import rules as R
from sim.games.dungeon24.config import RULES

# the value scale (in LP) of heuristic and exact-exchange
W_LP = 1.0
W_CARD0 = 2.0
W_CARD1 = 0.5
W_WIN = 0.5
W_CHARGE = 3.0
W_GAME = 100.0
H = 3  # horizon (own turns) of the deploy rating
# SIGNATURES: functions that callers pass constants (``True``, ``0``) get one explicit signature. Without it numba
# compiles one specialization per literal value, each costing a compile of its own (the cold start of issue 16).
S_ = types.int64[::1]  # the state vector
RULES_TYPE = from_dtype(RULES.dtype)  # the rule record ``rp`` (numba passes it by pointer)


@njit(cache=True, inline="always")
def card_value(a: int, v: int) -> float:
    return W_CARD0 + W_CARD1 * (a + v)


@njit(cache=True)
def pos_value(S: np.ndarray, p: int, pos: int) -> float:
    return card_value(R.attack_of(S, p, pos), R.defence_of(S, p, pos))


# --- shared helpers ------------------------------------------------------------------------


@njit(cache=True)  # no signature (SIGNATURES): greedy calls it per decision, the literal ``defence`` specialises it
def best_active(S: np.ndarray, p: int, defence: bool) -> int:
    """Active position of ``p`` with the highest A (or V); ties: the earlier position."""
    best = -1
    bv = -1
    for pos in range(R.N_POS):
        if R.status(S, p, pos) == R.ACTIVE:
            x = R.defence_of(S, p, pos) if defence else R.attack_of(S, p, pos)
            if x > bv:
                bv = x
                best = pos
    return best


@njit(cache=True)
def random_active(S: np.ndarray, p: int, st: np.ndarray) -> int:
    """A uniformly drawn active position of ``p``."""
    return R.kth_with_status(S, p, R.ACTIVE, below(st, R.n_active(S, p)), R.N_POS)


@njit(cache=True)
def weakest_reserve(S: np.ndarray, p: int) -> int:
    """Reserve position with the lowest A+V; ties: the later position (revealed last)."""
    best = -1
    bv = 1 << 30
    for pos in range(R.BOSS):
        if R.status(S, p, pos) == R.DOWN:
            x = R.attack_of(S, p, pos) + R.defence_of(S, p, pos)
            if x <= bv:
                bv = x
                best = pos
    return best


@njit(cache=True)
def hit_chance(diff0: int) -> float:
    """P(a + d1 > d2) for two fair d6 and a fixed advantage ``diff0`` = A - V (+ bonus)."""
    n = 0
    for a in range(1, 7):
        for d in range(1, 7):
            if diff0 + a > d:
                n += 1
    return n / 36.0


@njit(cache=True)
def hit_base(S: np.ndarray, p: int, dpos: int, rp: np.record):
    """``(const, lethal)``: a hit by ``diff`` on ``dpos`` is worth ``diff * W_LP + const`` to attacker ``p``,
    or ``W_GAME`` when ``diff >= lethal`` (``lethal`` 0: every hit ends the game)."""
    o = 1 - p
    if dpos == R.BOSS and rp.rules_boss_loss == R.BOSSLOSS_DEFEAT:
        return 0.0, 0
    if R.n_active(S, o) == 1 and R.next_reveal(S, o) < 0:
        return 0.0, 0
    g = pos_value(S, o, dpos) + W_WIN
    if S[R.S_LOST + p] == 0 and S[R.S_ABIL + p] != R.AB_NONE and (S[R.S_WINS + p] + 1) % rp.rules_charge_every == 0:
        g += W_CHARGE
    if dpos == R.BOSS and S[R.S_LOST + o] == 0 and S[R.S_ABIL + o] != R.AB_NONE:
        g += W_CHARGE * (S[R.S_CHARGES + o] + 1)
    return g, S[R.S_LP + o]


@njit(cache=True, inline="always")
def gain_of(const: float, lethal: int, diff: int) -> float:
    """Value of an exchange by ``diff`` (0: blocked) given ``hit_base``."""
    if diff <= 0:
        return 0.0
    if diff >= lethal:
        return W_GAME
    return diff * W_LP + const


@njit(cache=True)
def hit_gain(S: np.ndarray, p: int, dpos: int, diff: int, rp: np.record) -> float:
    """Value for attacker ``p`` of a hit by ``diff`` on the opponent's ``dpos`` (value scale ``W_*``)."""
    const, lethal = hit_base(S, p, dpos, rp)
    return gain_of(const, lethal, diff)


@njit(cache=True)
def focus_cost_value(S: np.ndarray, p: int, rp: np.record) -> float:
    """Value of the reserve card(s) a focus reroll of ``p`` costs (the weakest first)."""
    pos = weakest_reserve(S, p)
    if pos < 0:
        return 0.0
    return pos_value(S, p, pos) * rp.rules_focus_cost


@njit(cache=True)
def bonus_dist(k: int) -> np.ndarray:
    """Distribution of the sum of ``k`` d6 (index = sum)."""
    dist = np.zeros(6 * k + 1)
    dist[0] = 1.0
    for _ in range(k):
        nd = np.zeros(6 * k + 1)
        for s in range(6 * k + 1):
            if dist[s] > 0:
                for f in range(1, 7):
                    if s + f <= 6 * k:
                        nd[s + f] += dist[s] / 6.0
        dist = nd
    return dist


@njit(cache=True)
def exchange_value(S: np.ndarray, p: int, att_base: int, dpos: int, att_roll: bool, def_roll: bool,
                   c_att: float, c_def: float, rp: np.record) -> float:
    """Exact expected value for attacker ``p`` of one exchange with known A (+ bonus) ``att_base``.

    Over both dice, then the attacker's reroll (``att_roll``: allowed, costing ``c_att``) and the
    defender's reroll (``def_roll``, costing the defender ``c_def``), each side best for itself.
    """
    vd = R.defence_of(S, 1 - p, dpos)
    const, lethal = hit_base(S, p, dpos, rp)
    val = np.empty((6, 6))
    for a in range(6):
        for d in range(6):
            val[a, d] = gain_of(const, lethal, R.exchange(att_base + a + 1, vd + d + 1))
    dv = np.empty((6, 6))  # after the defender's decision
    for a in range(6):
        m = 0.0
        for d in range(6):
            m += val[a, d]
        m = m / 6.0 + c_def
        for d in range(6):
            dv[a, d] = min(val[a, d], m) if def_roll else val[a, d]
    tot = 0.0
    for d in range(6):
        m = 0.0
        for a in range(6):
            m += dv[a, d]
        m = m / 6.0 - c_att
        for a in range(6):
            tot += max(dv[a, d], m) if att_roll else dv[a, d]
    return tot / 36.0


@njit((S_, types.int64, types.int64, types.int64, types.int64, RULES_TYPE), cache=True)
def attack_value(S: np.ndarray, p: int, f: int, dpos: int, extra_dice: int, rp: np.record) -> float:
    """Exact expectation of attacking with ``f`` against ``dpos``, Blutrausch dice (pending + extra) included."""
    o = 1 - p
    k = S[R.S_BLUT + p] + extra_dice
    att_roll = R.can_focus(S, p, rp)
    def_roll = R.can_focus(S, o, rp)
    c_att = focus_cost_value(S, p, rp)
    c_def = focus_cost_value(S, o, rp)
    a = R.attack_of(S, p, f)
    if k == 0:
        return exchange_value(S, p, a, dpos, att_roll, def_roll, c_att, c_def, rp)
    dist = bonus_dist(k)
    tot = 0.0
    for b in range(dist.shape[0]):
        if dist[b] > 0:
            tot += dist[b] * exchange_value(S, p, a + b, dpos, att_roll, def_roll, c_att, c_def, rp)
    return tot


@njit((S_, types.int64, types.int64, RULES_TYPE), cache=True)
def best_attack_exact(S: np.ndarray, p: int, extra_dice: int, rp: np.record):
    """(value, fighter): the attacker's best fighter against the defender's best (minimising) blocker."""
    o = 1 - p
    best = -1e300
    bf = -1
    for f in range(R.N_POS):
        if R.status(S, p, f) != R.ACTIVE:
            continue
        worst = 1e300
        for b in range(R.N_POS):
            if R.status(S, o, b) == R.ACTIVE:
                v = attack_value(S, p, f, b, extra_dice, rp)
                if v < worst:
                    worst = v
        if worst > best:
            best = worst
            bf = f
    return best, bf


@njit(cache=True)
def attack_rating(S: np.ndarray, p: int, f: int, b: int, extra: float, rp: np.record) -> float:
    """Heuristic rating of attacking with ``f`` against ``b`` (no rerolls): E[gain] over the 36 dice pairs."""
    o = 1 - p
    a = R.attack_of(S, p, f) + extra
    v = R.defence_of(S, o, b)
    const, lethal = hit_base(S, p, b, rp)
    tot = 0.0
    for da in range(1, 7):
        for dd in range(1, 7):
            tot += gain_of(const, lethal, R.exchange(int(a) + da, v + dd))
    return tot / 36.0


@njit(cache=True)
def best_attack_rating(S: np.ndarray, p: int, extra: float, rp: np.record):
    """(rating, fighter) of the heuristic against the opponent's highest-V blocker."""
    b = best_active(S, 1 - p, True)
    best = -1.0
    bf = -1
    for f in range(R.N_POS):
        if R.status(S, p, f) == R.ACTIVE:
            r = attack_rating(S, p, f, b, extra, rp)
            if r > best:
                best = r
                bf = f
    return best, bf


@njit((S_, types.int64, types.float64, types.boolean, RULES_TYPE), cache=True)
def deploy_rating(S: np.ndarray, p: int, now: float, exact: bool, rp: np.record) -> float:
    """Rating of deploying: the next reserve card's best attack over ``H - 1`` turns vs ``H`` turns now."""
    pos = R.next_reserve(S, p)
    if pos < 0:
        return -1e300
    S[R.S_STATUS + 6 * p + pos] = R.ACTIVE
    if exact:
        new, _ = best_attack_exact(S, p, 0, rp)
    else:
        new, _ = best_attack_rating(S, p, 3.5 * S[R.S_BLUT + p], rp)
    S[R.S_STATUS + 6 * p + pos] = R.DOWN
    return (H - 1) * new - H * now


# --- focus: the defender's reply -------------------------------------------------------------


@njit(cache=True)
def after_defender(const: float, lethal: int, att_total: int, def_base: int, dd: int, def_roll: bool,
                    c_def: float) -> float:
    """Attacker's value with its final total, the defender then rerolling when that is worse for the attacker."""
    keep = gain_of(const, lethal, R.exchange(att_total, def_base + dd))
    if not def_roll:
        return keep
    new = 0.0
    for x in range(1, 7):
        new += gain_of(const, lethal, R.exchange(att_total, def_base + x))
    return min(keep, new / 6.0 + c_def)
