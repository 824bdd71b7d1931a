"""Dungeon24's move ratings and search, for the ``heuristic``, ``exact-exchange`` and ``expectimax`` policies.

The value scale in LP (``W_*``), a creature's and a position's value, the hit chance and the exact exchange over
both dice (with focus rerolls), the attack and deploy ratings, and the search across turns (``search_turn``,
``search_blocker``). The dispatchers that turn these ratings into each policy's decisions are in
``policies.dungeon24.bots``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.rng import below
from sim.games.dungeon24 import rules as R

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
S_ = "int64[::1]"  # the state vector and the rule array


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
def hit_base(S: np.ndarray, p: int, dpos: int, rp: np.ndarray):
    """``(const, lethal)``: a hit by ``diff`` on ``dpos`` is worth ``diff * W_LP + const`` to attacker ``p``,
    or ``W_GAME`` when ``diff >= lethal`` (``lethal`` 0: every hit ends the game)."""
    o = 1 - p
    if dpos == R.BOSS and rp[R.RP_BOSS_LOSS] == R.BOSSLOSS_DEFEAT:
        return 0.0, 0
    if R.n_active(S, o) == 1 and R.next_reveal(S, o) < 0:
        return 0.0, 0
    g = pos_value(S, o, dpos) + W_WIN
    if S[R.S_LOST + p] == 0 and S[R.S_ABIL + p] != R.AB_NONE and (S[R.S_WINS + p] + 1) % rp[R.RP_CHARGE_EVERY] == 0:
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
def hit_gain(S: np.ndarray, p: int, dpos: int, diff: int, rp: np.ndarray) -> float:
    """Value for attacker ``p`` of a hit by ``diff`` on the opponent's ``dpos`` (value scale ``W_*``)."""
    const, lethal = hit_base(S, p, dpos, rp)
    return gain_of(const, lethal, diff)


@njit(cache=True)
def focus_cost_value(S: np.ndarray, p: int, rp: np.ndarray) -> float:
    """Value of the reserve card(s) a focus reroll of ``p`` costs (the weakest first)."""
    pos = weakest_reserve(S, p)
    if pos < 0:
        return 0.0
    return pos_value(S, p, pos) * rp[R.RP_FOCUS_COST]


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
                   c_att: float, c_def: float, rp: np.ndarray) -> float:
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


@njit(f"({S_}, int64, int64, int64, int64, {S_})", cache=True)
def attack_value(S: np.ndarray, p: int, f: int, dpos: int, extra_dice: int, rp: np.ndarray) -> float:
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


@njit(f"({S_}, int64, int64, {S_})", cache=True)
def best_attack_exact(S: np.ndarray, p: int, extra_dice: int, rp: np.ndarray):
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
def attack_rating(S: np.ndarray, p: int, f: int, b: int, extra: float, rp: np.ndarray) -> float:
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
def best_attack_rating(S: np.ndarray, p: int, extra: float, rp: np.ndarray):
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


@njit(f"({S_}, int64, float64, boolean, {S_})", cache=True)
def deploy_rating(S: np.ndarray, p: int, now: float, exact: bool, rp: np.ndarray) -> float:
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


# --- expectimax: a search across turns -----------------------------------------------------
# Nodes: the mover's action (attack with a fighter, or deploy), the defender's blocker, the dice of the exchange
# (Blutrausch dice, both d6, both focus rerolls die by die) as chance nodes, then the opponent's whole reply turn
# (its curses, its action, its defender choice, its dice) and the static value ``static_value`` at the start of
# the searching player's next turn. Maximising for the searching seat ``r``, minimising for the other. Focus
# decisions inside the tree follow ``exact-exchange``'s rule; charges do not fire inside the tree.

MAX_DIFF = 96  # bound of an exchange difference in the outcome table (A, V <= 30, a few Blutrausch dice)


@njit(cache=True)
def static_value(S: np.ndarray, r: int, rp: np.ndarray) -> float:
    """Value of a position for seat ``r`` on the ``W_*`` scale: LP (after the curses still running), the cards
    still in play, wins, charges and the progress to the next charge; a finished game is worth ``±W_GAME``."""
    if S[R.S_END] != R.END_NONE:
        w = S[R.S_WINNER]
        return W_GAME if w == r else (-W_GAME if w >= 0 else 0.0)
    v = 0.0
    for s in range(2):
        x = W_LP * (S[R.S_LP + s] - R.curse_pending(S, s, rp))
        for pos in range(R.N_POS):
            st = R.status(S, s, pos)
            if st == R.ACTIVE or st == R.DOWN:
                x += pos_value(S, s, pos)
        x += W_WIN * S[R.S_WINS + s] + W_CHARGE * S[R.S_CHARGES + s]
        if S[R.S_LOST + s] == 0 and S[R.S_ABIL + s] != R.AB_NONE:
            x += W_CHARGE * (S[R.S_WINS + s] % rp[R.RP_CHARGE_EVERY]) / rp[R.RP_CHARGE_EVERY]
        v += x if s == r else -x
    return v


@njit(cache=True)
def exchange_outcomes(S: np.ndarray, p: int, f: int, b: int, rp: np.ndarray, prob: np.ndarray) -> None:
    """Distribution of the exchange of ``p``'s fighter ``f`` against blocker ``b``: ``prob[diff, att_paid,
    def_paid]`` (``diff`` 0: blocked), over the pending Blutrausch dice, both dice and both focus rerolls as
    ``exact-exchange`` decides them (the attacker seeing both dice first, then the defender)."""
    prob[:] = 0.0
    o = 1 - p
    k = S[R.S_BLUT + p]
    att_roll = R.can_focus(S, p, rp)
    def_roll = R.can_focus(S, o, rp)
    c_att = focus_cost_value(S, p, rp)
    c_def = focus_cost_value(S, o, rp)
    vd = R.defence_of(S, o, b)
    const, lethal = hit_base(S, p, b, rp)
    dist = bonus_dist(k)
    for bonus in range(dist.shape[0]):
        if dist[bonus] <= 0:
            continue
        ab = R.attack_of(S, p, f) + bonus
        for da in range(1, 7):
            for dd in range(1, 7):
                q = dist[bonus] / 36.0
                reroll = att_roll and _att_rerolls(const, lethal, ab, vd, da, dd, def_roll, c_att, c_def)
                for a2 in range(1, 7):
                    if not reroll and a2 != da:
                        continue
                    qa = q / 6.0 if reroll else q
                    drl = def_roll and _def_rerolls(const, lethal, ab + a2, vd, dd, c_def)
                    for d2 in range(1, 7):
                        if not drl and d2 != dd:
                            continue
                        qd = qa / 6.0 if drl else qa
                        diff = min(R.exchange(ab + a2, vd + d2), MAX_DIFF - 1)
                        prob[diff, int(reroll), int(drl)] += qd


@njit(cache=True)
def _def_rerolls(const: float, lethal: int, att_total: int, vd: int, dd: int, c_def: float) -> bool:
    """``exact-exchange``'s defender: reroll when the attacker's expected gain after it plus the card is lower."""
    keep = gain_of(const, lethal, R.exchange(att_total, vd + dd))
    new = 0.0
    for x in range(1, 7):
        new += gain_of(const, lethal, R.exchange(att_total, vd + x))
    return keep - new / 6.0 > c_def


@njit(cache=True)
def _att_rerolls(const: float, lethal: int, ab: int, vd: int, da: int, dd: int, def_roll: bool, c_att: float,
                 c_def: float) -> bool:
    """``exact-exchange``'s attacker: reroll when the expectation after the defender's reply less the card is higher."""
    keep = after_defender(const, lethal, ab + da, vd, dd, def_roll, c_def)
    new = 0.0
    for a in range(1, 7):
        new += after_defender(const, lethal, ab + a, vd, dd, def_roll, c_def)
    return new / 6.0 - c_att > keep


@njit(cache=True)
def _apply_outcome(S: np.ndarray, S2: np.ndarray, p: int, b: int, diff: int, pa: int, pd: int,
                   rp: np.ndarray) -> None:
    """``S2`` = ``S`` after an exchange of ``p`` against blocker ``b`` that ended by ``diff`` (0: blocked), with
    the focus rerolls paid (each side's weakest reserve card) and the Blutrausch dice spent."""
    S2[:] = S
    S2[R.S_BLUT + p] = 0
    if pa:
        R.pay_focus(S2, p, weakest_reserve(S2, p), rp)
    if pd:
        R.pay_focus(S2, 1 - p, weakest_reserve(S2, 1 - p), rp)
    if diff > 0:
        R.apply_hit(S2, p, b, diff, rp)


@njit(cache=True, inline="always")
def _over_outcomes(S: np.ndarray, p: int, b: int, prob: np.ndarray, r: int, rp: np.ndarray, leaf) -> float:
    """Expected ``leaf(S2, p, r, rp)`` over the exchange outcomes ``prob`` of ``p`` against blocker ``b`` (``S2``:
    the state after one). Inlined, each caller's ``leaf`` fixed: a flag choosing the leaf would make a recursion
    (``reply_value`` -> ``turn_static`` -> here), which numba 0.68 compiles but crashes loading from its cache."""
    S2 = np.empty_like(S)
    tot = 0.0
    for diff in range(MAX_DIFF):
        for pa in range(2):
            for pd in range(2):
                if prob[diff, pa, pd] > 0:
                    _apply_outcome(S, S2, p, b, diff, pa, pd, rp)
                    tot += prob[diff, pa, pd] * leaf(S2, p, r, rp)
    return tot


@njit(cache=True, inline="always")
def _static_leaf(S: np.ndarray, p: int, r: int, rp: np.ndarray) -> float:
    """``turn_static``'s leaf: ``static_value`` (``p`` unused)."""
    return static_value(S, r, rp)


@njit(cache=True)
def _pick(S: np.ndarray, p: int, r: int, vals: np.ndarray, dep: float, has_dep: bool):
    """Minimax over ``vals[f, b]`` (value for ``r`` of fighter ``f`` against blocker ``b``) and a deploy worth
    ``dep``: the mover ``p`` picks its best action, the defender its best blocker. Returns ``(value, action)``."""
    sign = 1.0 if p == r else -1.0
    best = sign * dep if has_dep else -1e300
    act = -1
    for f in range(R.N_POS):
        if R.status(S, p, f) != R.ACTIVE:
            continue
        worst = 1e300
        for b in range(R.N_POS):
            if R.status(S, 1 - p, b) == R.ACTIVE and sign * vals[f, b] < worst:
                worst = sign * vals[f, b]
        if worst > best:
            best = worst
            act = f
    return sign * best, act


@njit(cache=True)
def turn_static(S: np.ndarray, p: int, r: int, rp: np.ndarray):
    """``(value for r, action)`` of ``p``'s best turn valued by ``static_value`` at its end (one turn deep)."""
    vals = np.zeros((R.N_POS, R.N_POS))
    prob = np.zeros((MAX_DIFF, 2, 2))
    for f in range(R.N_POS):
        if R.status(S, p, f) == R.ACTIVE:
            for b in range(R.N_POS):
                if R.status(S, 1 - p, b) == R.ACTIVE:
                    exchange_outcomes(S, p, f, b, rp, prob)
                    vals[f, b] = _over_outcomes(S, p, b, prob, r, rp, _static_leaf)
    dep = 0.0
    has_dep = R.can_deploy(S, p)
    if has_dep:
        S2 = S.copy()
        R.deploy(S2, p)
        dep = static_value(S2, r, rp)
    return _pick(S, p, r, vals, dep, has_dep)


@njit(cache=True)
def reply_value(S: np.ndarray, p: int, r: int, rp: np.ndarray) -> float:
    """After ``p``'s turn: the opponent's whole turn (its curses, its best action, the dice), valued for ``r`` by
    ``static_value`` at its end."""
    if S[R.S_END] != R.END_NONE:
        return static_value(S, r, rp)
    S3 = S.copy()
    R.curse_tick(S3, 1 - p, rp)
    if S3[R.S_END] != R.END_NONE:
        return static_value(S3, r, rp)
    v, _ = turn_static(S3, 1 - p, r, rp)
    return v


@njit(cache=True)
def attack_search(S: np.ndarray, p: int, f: int, b: int, r: int, rp: np.ndarray) -> float:
    """Value for ``r`` of ``p`` attacking with ``f`` against ``b``: the exchange, then ``1 - p``'s next turn (the
    opponent's reply when ``r == p``; the blocker's own turn when ``r`` is the defender)."""
    prob = np.zeros((MAX_DIFF, 2, 2))
    exchange_outcomes(S, p, f, b, rp, prob)
    return _over_outcomes(S, p, b, prob, r, rp, reply_value)


@njit(cache=True)
def search_turn(S: np.ndarray, p: int, rp: np.ndarray):
    """``(value, action)`` of ``p``'s turn searched through the opponent's reply: attack with a fighter
    (the opponent picking its best blocker) or deploy (-1)."""
    vals = np.zeros((R.N_POS, R.N_POS))
    for f in range(R.N_POS):
        if R.status(S, p, f) == R.ACTIVE:
            for b in range(R.N_POS):
                if R.status(S, 1 - p, b) == R.ACTIVE:
                    vals[f, b] = attack_search(S, p, f, b, p, rp)
    dep = 0.0
    has_dep = R.can_deploy(S, p)
    if has_dep:
        S2 = S.copy()
        R.deploy(S2, p)
        dep = reply_value(S2, p, p, rp)
    return _pick(S, p, p, vals, dep, has_dep)


@njit(cache=True)
def search_blocker(S: np.ndarray, p: int, f: int, rp: np.ndarray) -> int:
    """Blocker of ``p`` against the attacker's ``f``: the best for ``p`` over the exchange and ``p``'s own next turn."""
    o = 1 - p
    best = -1e300
    bb = -1
    for b in range(R.N_POS):
        if R.status(S, p, b) == R.ACTIVE:
            v = attack_search(S, o, f, b, p, rp)  # the exchange, then p's own next turn
            if v > best:
                best = v
                bb = b
    return bb


# --- arrangement ---------------------------------------------------------------------------


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
