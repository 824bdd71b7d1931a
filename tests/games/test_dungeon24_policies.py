"""Dungeon24 policies: ``exact-exchange``'s expectation against a brute-force enumeration of the exchange tree.

The brute force walks every Blutrausch dice sequence and both dice one by one, the attacker's focus decision
seeing both dice (maximising), then the defender's seeing the attacker's final die (minimising), each reroll
enumerated die by die and paid with the weakest reserve card's value, with the policy's value scale at the leaves.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from policies import dungeon24 as P
from sim.config import load_config
from sim.games.dungeon24 import rules as R
from sim.games.dungeon24.config import Dungeon24Config, freeze

CFG = load_config(Dungeon24Config, "dungeon24")
RP, CARDS, ABIL = freeze(CFG)


def brute_attack_value(S: np.ndarray, p: int, f: int, dpos: int, extra: int, rp: np.ndarray) -> float:
    o = 1 - p
    k = int(S[R.S_BLUT + p]) + extra
    A, V = int(R.attack_of(S, p, f)), int(R.defence_of(S, o, dpos))
    att_roll, def_roll = R.can_focus(S, p, rp), R.can_focus(S, o, rp)
    c_att, c_def = P.focus_cost_value(S, p, rp), P.focus_cost_value(S, o, rp)

    @functools.cache
    def val(a_tot: int, d_tot: int) -> float:
        return P.hit_gain(S, p, dpos, R.exchange(a_tot, d_tot), rp)

    def defender(a_tot: int, dd: int) -> float:
        keep = val(a_tot, V + dd)
        if not def_roll:
            return keep
        return min(keep, sum(val(a_tot, V + x) for x in range(1, 7)) / 6 + c_def)

    def attacker(base: int, da: int, dd: int) -> float:
        keep = defender(base + da, dd)
        if not att_roll:
            return keep
        return max(keep, sum(defender(base + x, dd) for x in range(1, 7)) / 6 - c_att)

    tot = 0.0
    for bonus in itertools.product(range(1, 7), repeat=k):
        for da in range(1, 7):
            for dd in range(1, 7):
                tot += attacker(A + sum(bonus), da, dd)
    return tot / 6 ** (k + 2)


def random_position(rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """A small random position: peoples, pyramids, stats, LP, fallen and discarded cards, charges and pending dice."""
    people = rng.integers(0, 3, 2)
    perm = np.array([rng.permutation(5), rng.permutation(5)], np.int64)
    S = np.zeros(R.S_SIZE, np.int64)
    R.init_state(S, RP, CARDS, people.astype(np.int64), ABIL[people].copy(), perm)
    for s in range(2):
        S[R.S_LP + s] = rng.integers(1, 25)
        S[R.S_WINS + s] = rng.integers(0, 6)
        S[R.S_CHARGES + s] = rng.integers(0, 2)
        for pos in range(2, 6):
            S[R.S_STATUS + 6 * s + pos] = rng.choice([R.DOWN, R.DOWN, R.ACTIVE, R.FALLEN, R.DISCARDED])
        for pos in range(6):
            S[R.S_A + 6 * s + pos] = rng.integers(0, 9)
            S[R.S_V + 6 * s + pos] = rng.integers(0, 9)
    p = int(rng.integers(0, 2))
    S[R.S_BLUT + p] = rng.integers(0, 2)
    return S, p


def test_attack_value_equals_the_brute_force_tree():
    rng = np.random.default_rng(14)
    checked = {"focus_both": 0, "focus_none": 0, "blut": 0, "lethal": 0}
    for _ in range(60):
        S, p = random_position(rng)
        rp = RP.copy()
        rp[R.RP_FOCUS_COST] = rng.integers(1, 3)
        extra = int(rng.integers(0, 2))
        f = int(rng.choice([pos for pos in range(6) if R.status(S, p, pos) == R.ACTIVE]))
        b = int(rng.choice([pos for pos in range(6) if R.status(S, 1 - p, pos) == R.ACTIVE]))
        got = P.attack_value(S, p, f, b, extra, rp)
        assert got == pytest.approx(brute_attack_value(S, p, f, b, extra, rp), rel=1e-12, abs=1e-12)
        both = R.can_focus(S, p, rp) and R.can_focus(S, 1 - p, rp)
        checked["focus_both"] += both
        checked["focus_none"] += not (R.can_focus(S, p, rp) or R.can_focus(S, 1 - p, rp))
        checked["blut"] += S[R.S_BLUT + p] + extra > 0
        checked["lethal"] += P.hit_base(S, p, b, rp)[1] <= 10
    assert min(checked.values()) >= 5, checked  # the positions covered each kind of tree


def test_fighter_and_blocker_are_the_minimax_of_the_brute_force():
    """``best_attack_exact`` takes the fighter whose worst blocker is best; ``choose_blocker`` that worst blocker."""
    rng = np.random.default_rng(7)
    for _ in range(12):
        S, p = random_position(rng)
        o = 1 - p
        fs = [pos for pos in range(6) if R.status(S, p, pos) == R.ACTIVE]
        bs = [pos for pos in range(6) if R.status(S, o, pos) == R.ACTIVE]
        table = {(f, b): brute_attack_value(S, p, f, b, 0, RP) for f in fs for b in bs}
        best = max(min(table[f, b] for b in bs) for f in fs)
        value, fighter = P.best_attack_exact(S, p, 0, RP)
        assert value == pytest.approx(best, abs=1e-12)
        assert min(table[fighter, b] for b in bs) == pytest.approx(best, abs=1e-12)
        blocker = P.choose_blocker(P.EXACT_EXCHANGE, S, o, fighter, RP, np.zeros(1, np.uint64))
        assert table[fighter, blocker] == pytest.approx(min(table[fighter, b] for b in bs), abs=1e-12)


def test_exact_exchange_is_the_registered_name():
    """The policy searches one exchange, so it is no longer called expectimax."""
    assert "exact-exchange" in P.POLICIES and "expectimax" not in P.POLICIES
