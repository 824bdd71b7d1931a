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

from policies.dungeon24 import bots as P
from policies.dungeon24 import rating as PR
from policies.dungeon24 import search as PS
from sim.core.config import load_config
from sim.games.dungeon24 import rules as R
from sim.games.dungeon24.config import Dungeon24Config, freeze

CFG = load_config(Dungeon24Config, "dungeon24")
RP, CARDS, ABIL = freeze(CFG)


def brute_attack_value(S: np.ndarray, p: int, f: int, dpos: int, extra: int, rp: np.record) -> float:
    o = 1 - p
    k = int(S[R.S_BLUT + p]) + extra
    A, V = int(R.attack_of(S, p, f)), int(R.defence_of(S, o, dpos))
    att_roll, def_roll = R.can_focus(S, p, rp), R.can_focus(S, o, rp)
    c_att, c_def = PR.focus_cost_value(S, p, rp), PR.focus_cost_value(S, o, rp)

    @functools.cache
    def val(a_tot: int, d_tot: int) -> float:
        return PR.hit_gain(S, p, dpos, R.exchange(a_tot, d_tot), rp)

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
        rec = RP.base.copy()
        rec["rules_focus_cost"] = rng.integers(1, 3)
        rp = rec.view(np.recarray)[0]
        extra = int(rng.integers(0, 2))
        f = int(rng.choice([pos for pos in range(6) if R.status(S, p, pos) == R.ACTIVE]))
        b = int(rng.choice([pos for pos in range(6) if R.status(S, 1 - p, pos) == R.ACTIVE]))
        got = PR.attack_value(S, p, f, b, extra, rp)
        assert got == pytest.approx(brute_attack_value(S, p, f, b, extra, rp), rel=1e-12, abs=1e-12)
        both = R.can_focus(S, p, rp) and R.can_focus(S, 1 - p, rp)
        checked["focus_both"] += both
        checked["focus_none"] += not (R.can_focus(S, p, rp) or R.can_focus(S, 1 - p, rp))
        checked["blut"] += S[R.S_BLUT + p] + extra > 0
        checked["lethal"] += PR.hit_base(S, p, b, rp)[1] <= 10
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
        value, fighter = PR.best_attack_exact(S, p, 0, RP)
        assert value == pytest.approx(best, abs=1e-12)
        assert min(table[fighter, b] for b in bs) == pytest.approx(best, abs=1e-12)
        blocker = P.choose_blocker(P.EXACT_EXCHANGE, S, o, fighter, RP, np.zeros(1, np.uint64))
        assert table[fighter, blocker] == pytest.approx(min(table[fighter, b] for b in bs), abs=1e-12)


def test_policy_names_say_how_far_they_look():
    """exact-exchange looks at one exchange; expectimax searches through the opponent's reply turn."""
    assert P.POLICIES["exact-exchange"] == P.EXACT_EXCHANGE and P.POLICIES["expectimax"] == P.EXPECTIMAX


# --- expectimax: the search across turns ---------------------------------------------------------------------


def bf_exchange(S: np.ndarray, p: int, f: int, b: int, rp: np.record):
    """Every way the exchange can go, die by die, as the kernel plays it: ``(probability, state after)``.

    Blutrausch dice, both dice, the attacker's focus (``want_reroll``, seeing both dice), then the defender's
    (seeing the attacker's final die), each paid with ``choose_discard``'s card."""
    o = 1 - p
    k = int(S[R.S_BLUT + p])
    A, V = int(R.attack_of(S, p, f)), int(R.defence_of(S, o, b))
    st = np.zeros(1, np.uint64)
    X = P.EXPECTIMAX
    for seq in itertools.product(range(1, 7), repeat=k):
        ab = A + sum(seq)
        for da in range(1, 7):
            for dd in range(1, 7):
                base = S.copy()
                base[R.S_BLUT + p] = 0
                att = [(1.0, da, base)]
                if R.can_focus(base, p, rp) and P.want_reroll(X, base, p, True, ab, b, da, dd, rp, st):
                    Sa = base.copy()
                    R.pay_focus(Sa, p, P.choose_discard(X, Sa, p, rp, st), rp)
                    att = [(1 / 6, x, Sa) for x in range(1, 7)]
                for qa, a2, Sa in att:
                    dfn = [(1.0, dd, Sa)]
                    if R.can_focus(Sa, o, rp) and P.want_reroll(X, Sa, o, False, ab, b, a2, dd, rp, st):
                        Sd = Sa.copy()
                        R.pay_focus(Sd, o, P.choose_discard(X, Sd, o, rp, st), rp)
                        dfn = [(1 / 6, x, Sd) for x in range(1, 7)]
                    for qd, d2, Sd in dfn:
                        S2 = Sd.copy()
                        diff = R.exchange(ab + a2, V + d2)
                        if diff > 0:
                            R.apply_hit(S2, p, b, diff, rp)
                        yield qa * qd / 6 ** (k + 2), S2


class BruteSearch:
    """The two-turn tree by plain enumeration: ``p``'s action (max for ``r``, min for the other), the defender's
    blocker, every die, then the opponent's whole turn, ``win_value`` at the start of the next mover's turn at the
    leaves (memoised by state)."""

    def __init__(self, rp: np.record) -> None:
        self.rp = rp
        self.memo: dict = {}

    def turn(self, S: np.ndarray, p: int, r: int, depth: int) -> float:
        sign = 1 if p == r else -1
        options = []
        if R.can_deploy(S, p):
            S2 = S.copy()
            R.deploy(S2, p)
            options.append(sign * self.after(S2, p, r, depth))
        act = [pos for pos in range(6) if R.status(S, p, pos) == R.ACTIVE]
        dfn = [pos for pos in range(6) if R.status(S, 1 - p, pos) == R.ACTIVE]
        for f in act:
            options.append(min(sign * sum(q * self.after(S2, p, r, depth) for q, S2 in bf_exchange(S, p, f, b, self.rp))
                               for b in dfn))
        return sign * max(options)

    def after(self, S2: np.ndarray, p: int, r: int, depth: int) -> float:
        key = (S2.tobytes(), p, r, depth)
        if key not in self.memo:
            if S2[R.S_END] != R.END_NONE or depth == 1:
                v = PS.win_value(S2, 1 - p, r, self.rp)
            else:
                S3 = S2.copy()
                R.curse_tick(S3, 1 - p, self.rp)
                v = PS.win_value(S3, 1 - p, r, self.rp) if S3[R.S_END] != R.END_NONE else self.turn(S3, 1 - p, r, 1)
            self.memo[key] = v
        return self.memo[key]


def small_position(rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """One or two active creatures a side, up to two reserve cards, low LP, maybe pending dice and a curse."""
    S, p = random_position(rng)
    for s in range(2):
        n_act = int(rng.integers(1, 3))
        n_res = int(rng.choice(3, p=[0.2, 0.4, 0.4]))
        for pos in range(6):
            S[R.S_STATUS + 6 * s + pos] = (R.ACTIVE if pos < n_act else R.DOWN if pos < n_act + n_res else
                                           R.FALLEN if pos < 5 else R.DOWN)
        S[R.S_LP + s] = rng.integers(3, 15)
    if rng.random() < 0.3:
        S[R.S_CURSE + R.MAXT * (1 - p)] = 2
    S[R.S_BLUT + p] = int(rng.random() < 0.2)
    return S, p


def test_expectimax_search_equals_the_brute_force_tree():
    """``search_turn``'s value is the two-turn expectimax over the mover's action, the blocker, every die and
    focus reroll and the opponent's reply turn, as enumerated die by die; its action attains that value."""
    rng = np.random.default_rng(24)
    focus_seen = deploy_seen = 0
    for _ in range(10):
        S, p = small_position(rng)
        rp = RP
        value, act = PS.search_turn(S, p, rp)
        bf = BruteSearch(rp)
        assert value == pytest.approx(bf.turn(S, p, p, 2), rel=1e-9, abs=1e-9)
        if act < 0:
            S2 = S.copy()
            R.deploy(S2, p)
            chosen = bf.after(S2, p, p, 2)
        else:
            dfn = [pos for pos in range(6) if R.status(S, 1 - p, pos) == R.ACTIVE]
            chosen = min(sum(q * bf.after(S2, p, p, 2) for q, S2 in bf_exchange(S, p, act, b, rp)) for b in dfn)
        assert chosen == pytest.approx(value, rel=1e-9, abs=1e-9)
        focus_seen += R.can_focus(S, p, rp) and R.can_focus(S, 1 - p, rp)
        deploy_seen += R.can_deploy(S, p)
    assert focus_seen >= 3 and deploy_seen >= 3, (focus_seen, deploy_seen)


# --- expectimax's value: fitted win chances ---------------------------------------------------------------------


def test_value_features_by_hand():
    """The leaf's regressors on a hand-made position, each worked out here from the module docstring's list; the
    leaf is the logistic of their weighted sum, the two seats' chances add to 1, a finished game is 1 / 0."""
    S = np.zeros(R.S_SIZE, np.int64)
    people = np.array([0, 1], np.int64)
    R.init_state(S, RP, CARDS, people, ABIL[people].copy(), np.array([[0, 1, 2, 3, 4]] * 2, np.int64))
    S[R.S_LP + 0], S[R.S_LP + 1] = 17, 9
    S[R.S_CURSE + R.MAXT * 1 + 0] = 2  # seat 1 still takes 2 + 2 LP of Schattenschmerz
    S[R.S_CURSE + R.MAXT * 1 + 1] = 2
    S[R.S_WINS + 0], S[R.S_WINS + 1] = 4, 7
    S[R.S_CHARGES + 0] = 1
    S[R.S_BLUT + 0] = 1
    S[R.S_STATUS + 0] = R.FALLEN  # seat 0: front card 0 fell, card 3 paid a focus reroll
    S[R.S_STATUS + 3] = R.DISCARDED
    S[R.S_STATUS + 6 + 0] = R.FALLEN  # seat 1: front cards 0 and 1 fell, the boss fell (ability lost)
    S[R.S_STATUS + 6 + 1] = R.FALLEN
    S[R.S_STATUS + 6 + 5] = R.FALLEN
    S[R.S_NFALLEN + 1] = 3
    S[R.S_LOST + 1] = 1
    left0 = [1, 2, 4, 5]
    left1 = [2, 3, 4]
    av0 = sum(int(CARDS[0, c, 0] + CARDS[0, c, 1]) for c in left0)
    av1 = sum(int(CARDS[1, c, 0] + CARDS[1, c, 1]) for c in left1)
    phi0 = [17 / 24, np.log(18), 4, av0 / 10, 4, 1, 1, 0, 1 / 3, 1, 0]
    phi1 = [5 / 24, np.log(6), 3, av1 / 10, 7, 0, 0, 0, 0, 0, 0]  # Untote, but the ability is lost
    assert len(phi0) == PS.NF == len(PS.FEATURES)
    x = np.zeros(PS.N_COEF)
    PS.features(S, 0, RP, x)
    assert x == pytest.approx([1.0, *phi0, *phi1], abs=1e-12)
    PS.features(S, 1, RP, x)
    assert x == pytest.approx([1.0, *phi1, *phi0], abs=1e-12)
    z = float(PS.COEF @ np.array([1.0, *phi0, *phi1]))
    assert PS.win_value(S, 0, 0, RP) == pytest.approx(1 / (1 + np.exp(-z)), rel=1e-12)
    assert PS.win_value(S, 0, 0, RP) + PS.win_value(S, 0, 1, RP) == pytest.approx(1.0, abs=1e-12)
    R.finish(S, 1, R.END_LP)
    assert PS.win_value(S, 1, 0, RP) == 1.0 and PS.win_value(S, 0, 1, RP) == 0.0


def test_value_predicts_the_winner_of_fresh_games():
    """On games the fit never saw (another seed, one position per game, so the outcomes are independent) the fitted
    chance is calibrated (mean outcome = mean prediction overall and in the lower and upper third of predictions,
    within 4 standard errors) and beats a constant's log-loss by 0.05 (about 4 standard errors of the estimate)."""
    from sim.games.dungeon24 import play

    n = 600
    xs, ys = [], []
    ids = np.array([P.HEURISTIC, P.HEURISTIC], np.int64)
    pf = np.full((2, R.N_BASIC), -1, np.int64)
    for run in range(n):
        ppl = np.array([run % 3, run // 3 % 3], np.int64)
        final, states = play.trace_game(977, run, ids, ppl, ABIL[ppl].copy(), pf, RP, CARDS, 60)
        S = states[(7 * run) % len(states)]
        mover = int(S[R.S_TOMOVE])
        xs.append(PS.win_value(S, mover, mover, RP))
        ys.append(float(final[R.S_WINNER] == mover))
    pred, y = np.array(xs), np.array(ys)
    for sel in (np.ones(len(y), bool), pred < np.quantile(pred, 1 / 3), pred > np.quantile(pred, 2 / 3)):
        se = np.sqrt(np.mean(pred[sel] * (1 - pred[sel])) / sel.sum())
        assert abs(y[sel].mean() - pred[sel].mean()) < 4 * se, (sel.sum(), y[sel].mean(), pred[sel].mean())
    base = y.mean()
    ll = -np.mean(y * np.log(pred) + (1 - y) * np.log(1 - pred))
    ll0 = -(base * np.log(base) + (1 - base) * np.log(1 - base))
    assert ll < ll0 - 0.05, (ll, ll0)


def test_expectimax_beats_heuristic():
    """Issue 27: expectimax beats heuristic on paired seeds, seats alternated (each seed played in both seatings,
    2,000 games): the 95 % interval of the win-rate difference (expectimax's wins minus heuristic's, a draw 1/2
    each, per seed pair) lies above 0. The edge is about 4 pp with a half-width of 1.6 pp here (z about 5); a policy
    no better than heuristic fails it."""
    from sim.core import stats
    from sim.games.dungeon24.analysis import _seat_scores

    sc = _seat_scores(CFG, "expectimax", "heuristic", 0, 0, 27, 0, 1000, None)  # per seed: both seatings' mean
    d = stats.mean(2 * sc - 1)
    assert d["ci95"][0] > 0, d


@pytest.mark.slow
def test_value_coefficients_are_the_fitting_scripts_output():
    """``policies/dungeon24/value_coef.py`` is what ``benchmarks/fit_dungeon24_value.py`` writes: the fit is
    deterministic and the committed numbers were not edited by hand."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    r = subprocess.run([sys.executable, str(root / "benchmarks" / "fit_dungeon24_value.py"), "--check"], cwd=root,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
