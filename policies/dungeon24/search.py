"""Dungeon24's ``expectimax``: a search across turns whose leaf is a value fitted to measured win chances.

Value function (the leaf). ``win_value(S, mover, r, rp)`` is the chance that seat ``r`` wins from position ``S``
at the start of ``mover``'s turn (before the curses on it tick; the point where ``play.play_game`` traces its
positions). It is a logistic regression of the game's winner on features of the position::

    P(mover wins) = 1 / (1 + exp(-z)),   z = c0 + sum_k w_k * phi_k(mover) + sum_k u_k * phi_k(other)

and ``1 - P`` for the other seat; a finished game is worth 1 (won), 0 (lost) or 1/2 (a draw). The coefficients
(``c0``, ``w``, ``u``: ``policies.dungeon24.value_coef.COEF``) are fitted by ``benchmarks/fit_dungeon24_value.py``
(deterministic: fixed seeds, Newton's method on the log-likelihood with a small ridge) on positions of
self-play games of every pairing of peoples; that file says which games, how many, and the fit's quality.
The features ``phi(s)`` of seat ``s`` (``FEATURES``, in this order), all unchanged by a deploy (whose worth the
search itself measures, through the exchanges that follow):

- ``lp``: LP after the curses still running on ``s``, over the starting LP; ``log_lp``: log(1 + that LP, >= 0);
- ``cards``: creatures left (active or face down, the boss included); ``cards_av``: their A + V, over 10;
- ``wins``: exchanges won; ``ability``: the people ability still alive (the boss has not fallen);
- ``charges_blut`` / ``charges_auf``: charges held (Blutrausch / Auferstehung; Schattenschmerz never waits);
  ``charge_progress``: wins towards the next charge, over ``charge_every``;
- ``blut_dice``: Blutrausch dice pending for the next attack; ``auf_fallen``: a fallen creature that
  Auferstehung could return.

``features`` gives these numbers through the same code as the leaf (``_logit`` with a one-hot coefficient
vector), so the fit and the search cannot disagree on them.

Search (``search_turn``, ``search_blocker``). Nodes: the mover's action (attack with a fighter, or deploy), the
defender's blocker, the dice of the exchange (Blutrausch dice, both d6, both focus rerolls die by die) as chance
nodes, then the opponent's whole reply turn (its curses, its action, its defender choice, its dice), and
``win_value`` at the start of the searching player's next turn. Maximising ``r``'s win chance, the other seat
minimising it. Focus rerolls inside the tree follow ``heuristic``'s rule, which ``expectimax`` also plays (as it
fires its charges as ``heuristic`` does); charges do not fire inside the tree.

Measured (issue 27; ``benchmarks/results.json``, ``dungeon24.issue27_expectimax``): against ``heuristic`` on seeds
0..1999, each in both seatings (4,000 games), Grünlinge mirror, it wins 0.521 [0.515, 0.526] (the paired
difference to ``heuristic``'s win rate 0.042 [0.030, 0.053]); ``tests/games/test_dungeon24_policies.py`` checks
that interval on other seeds. Before, with a hand-set leaf on the LP scale of ``policies.dungeon24.rating`` and
``exact-exchange``'s focus and firing rules, it won 0.499 [0.491, 0.508]. Those rules were most of the loss: on
1,000 seed pairs, the hand-set leaf with ``heuristic``'s rules won 0.5225, this fitted leaf 0.5235 (the same
within the noise: the fit calibrates the value to win chances rather than outplaying the hand-set one).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from policies.dungeon24.rating import (
    bonus_dist,
    focus_cost_value,
    gain_of,
    hit_base,
    weakest_reserve,
)
from policies.dungeon24.value_coef import COEF as _COEF
from sim.games.dungeon24 import rules as R

FEATURES = ("lp", "log_lp", "cards", "cards_av", "wins", "ability", "charges_blut", "charges_auf",
            "charge_progress", "blut_dice", "auf_fallen")
NF = len(FEATURES)  # per seat; the coefficient vector is [c0, w (mover), u (other)]
N_COEF = 1 + 2 * NF
COEF = np.array(_COEF, np.float64)
assert COEF.shape == (N_COEF,), "policies/dungeon24/value_coef.py does not match FEATURES: refit it"


@njit(cache=True, inline="always")
def _seat(S: np.ndarray, s: int, rp: np.record):
    """``(lp, cards, cards_av)`` of seat ``s``."""
    lp = S[R.S_LP + s] - R.curse_pending(S, s, rp)
    cards = 0
    av = 0
    for pos in range(R.N_POS):
        st = R.status(S, s, pos)
        if st == R.ACTIVE or st == R.DOWN:
            cards += 1
            av += R.attack_of(S, s, pos) + R.defence_of(S, s, pos)
    return lp, cards, av


@njit(cache=True, inline="always")
def _terms(S: np.ndarray, s: int, mine, rp: np.record, W: np.ndarray, off: int) -> float:
    """``sum_k W[off + k] * phi_k(s)`` (``mine``: ``_seat`` of ``s``)."""
    lp, cards, av = mine
    ab = S[R.S_ABIL + s]
    alive = 1.0 if S[R.S_LOST + s] == 0 and ab != R.AB_NONE else 0.0
    ch = S[R.S_CHARGES + s] * alive
    z = W[off] * lp / rp.start_lp + W[off + 1] * math.log(1.0 + max(lp, 0))
    z += W[off + 2] * cards + W[off + 3] * av / 10.0 + W[off + 4] * S[R.S_WINS + s] + W[off + 5] * alive
    z += W[off + 6] * ch * (ab == R.AB_BLUTRAUSCH) + W[off + 7] * ch * (ab == R.AB_AUFERSTEHUNG)
    z += W[off + 8] * alive * (S[R.S_WINS + s] % rp.rules_charge_every) / rp.rules_charge_every
    z += W[off + 9] * S[R.S_BLUT + s]
    z += W[off + 10] * alive * (ab == R.AB_AUFERSTEHUNG) * (S[R.S_NFALLEN + s] > 0)
    return z


@njit(cache=True)
def _logit(S: np.ndarray, mover: int, rp: np.record, W: np.ndarray) -> float:
    """``z`` of ``P(mover wins)`` under coefficients ``W`` (``[c0, w, u]``, see the module docstring)."""
    m = _seat(S, mover, rp)
    o = _seat(S, 1 - mover, rp)
    return W[0] + _terms(S, mover, m, rp, W, 1) + _terms(S, 1 - mover, o, rp, W, 1 + NF)


@njit(cache=True)
def features(S: np.ndarray, mover: int, rp: np.record, out: np.ndarray) -> None:
    """``out[0..N_COEF-1]``: the regressors of ``P(mover wins)`` (1, ``phi(mover)``, ``phi(other)``), read off
    ``_logit`` with one-hot coefficients: the numbers the leaf weighs, by construction."""
    e = np.zeros(N_COEF)
    for j in range(N_COEF):
        e[j] = 1.0
        out[j] = _logit(S, mover, rp, e)
        e[j] = 0.0


@njit(cache=True)
def win_value(S: np.ndarray, mover: int, r: int, rp: np.record) -> float:
    """The chance that ``r`` wins position ``S`` at the start of ``mover``'s turn (finished: 1 / 0 / 1/2)."""
    if S[R.S_END] != R.END_NONE:
        w = S[R.S_WINNER]
        return 1.0 if w == r else (0.0 if w >= 0 else 0.5)
    q = 1.0 / (1.0 + math.exp(-_logit(S, mover, rp, COEF)))
    return q if mover == r else 1.0 - q


# --- the search ------------------------------------------------------------------------------------------------

MAX_DIFF = 96  # bound of an exchange difference in the outcome table (A, V <= 30, a few Blutrausch dice)


@njit(cache=True)
def exchange_outcomes(S: np.ndarray, p: int, f: int, b: int, rp: np.record, prob: np.ndarray) -> None:
    """Distribution of the exchange of ``p``'s fighter ``f`` against blocker ``b``: ``prob[diff, att_paid,
    def_paid]`` (``diff`` 0: blocked), over the pending Blutrausch dice, both dice and both focus rerolls as
    ``heuristic`` (and ``expectimax`` itself) decides them (the attacker seeing both dice first, then the defender)."""
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
                reroll = att_roll and _att_rerolls(const, lethal, ab, vd, da, dd, c_att)
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
    """The defender (every rating policy): reroll when the attacker's expected gain after it plus the card is lower."""
    keep = gain_of(const, lethal, R.exchange(att_total, vd + dd))
    new = 0.0
    for x in range(1, 7):
        new += gain_of(const, lethal, R.exchange(att_total, vd + x))
    return keep - new / 6.0 > c_def


@njit(cache=True)
def _att_rerolls(const: float, lethal: int, ab: int, vd: int, da: int, dd: int, c_att: float) -> bool:
    """``heuristic``'s attacker (``want_reroll``): reroll a block when the chance to turn it, times a hit by the
    average die, beats the card it costs."""
    if ab + da > vd + dd:
        return False
    n = 0
    for a in range(1, 7):
        if ab + a > vd + dd:
            n += 1
    return n / 6.0 * gain_of(const, lethal, max(1, ab + 4 - vd - dd)) > c_att


@njit(cache=True)
def _apply_outcome(S: np.ndarray, S2: np.ndarray, p: int, b: int, diff: int, pa: int, pd: int,
                   rp: np.record) -> None:
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
def _over_outcomes(S: np.ndarray, p: int, b: int, prob: np.ndarray, r: int, rp: np.record, leaf) -> float:
    """Expected ``leaf(S2, p, r, rp)`` over the exchange outcomes ``prob`` of ``p`` against blocker ``b`` (``S2``:
    the state after one). Inlined, each caller's ``leaf`` fixed: a flag choosing the leaf would make a recursion
    (``reply_value`` -> ``turn_value`` -> here), which numba 0.68 compiles but crashes loading from its cache."""
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
def _value_leaf(S: np.ndarray, p: int, r: int, rp: np.record) -> float:
    """``turn_value``'s leaf: ``win_value`` at the start of the next mover's (``1 - p``'s) turn."""
    return win_value(S, 1 - p, r, rp)


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
def turn_value(S: np.ndarray, p: int, r: int, rp: np.record):
    """``(value for r, action)`` of ``p``'s best turn valued by ``win_value`` at its end (one turn deep)."""
    vals = np.zeros((R.N_POS, R.N_POS))
    prob = np.zeros((MAX_DIFF, 2, 2))
    for f in range(R.N_POS):
        if R.status(S, p, f) == R.ACTIVE:
            for b in range(R.N_POS):
                if R.status(S, 1 - p, b) == R.ACTIVE:
                    exchange_outcomes(S, p, f, b, rp, prob)
                    vals[f, b] = _over_outcomes(S, p, b, prob, r, rp, _value_leaf)
    dep = 0.0
    has_dep = R.can_deploy(S, p)
    if has_dep:
        S2 = S.copy()
        R.deploy(S2, p)
        dep = win_value(S2, 1 - p, r, rp)
    return _pick(S, p, r, vals, dep, has_dep)


@njit(cache=True)
def reply_value(S: np.ndarray, p: int, r: int, rp: np.record) -> float:
    """After ``p``'s turn: the opponent's whole turn (its curses, its best action, the dice), valued for ``r`` by
    ``win_value`` at its end."""
    if S[R.S_END] != R.END_NONE:
        return win_value(S, 1 - p, r, rp)
    S3 = S.copy()
    R.curse_tick(S3, 1 - p, rp)
    if S3[R.S_END] != R.END_NONE:
        return win_value(S3, 1 - p, r, rp)
    v, _ = turn_value(S3, 1 - p, r, rp)
    return v


@njit(cache=True)
def attack_search(S: np.ndarray, p: int, f: int, b: int, r: int, rp: np.record) -> float:
    """Value for ``r`` of ``p`` attacking with ``f`` against ``b``: the exchange, then ``1 - p``'s next turn (the
    opponent's reply when ``r == p``; the blocker's own turn when ``r`` is the defender)."""
    prob = np.zeros((MAX_DIFF, 2, 2))
    exchange_outcomes(S, p, f, b, rp, prob)
    return _over_outcomes(S, p, b, prob, r, rp, reply_value)


@njit(cache=True)
def search_turn(S: np.ndarray, p: int, rp: np.record):
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
def search_blocker(S: np.ndarray, p: int, f: int, rp: np.record) -> int:
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
