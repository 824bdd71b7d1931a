"""Dadox solvers: the golden maximum expected turn scores, and the two-player win solver against an
independent brute-force value iteration and its own Bellman equation."""

from __future__ import annotations

import itertools
from math import factorial

import numpy as np
import pytest

from sim.config import CONFIG_DIR, load_config
from sim.games.dadox import rules as R
from sim.games.dadox.config import DadoxConfig, freeze
from sim.games.dadox.solve import _improve, need_range, solve_turn, solve_win
from sim.games.dadox.tables import build_tables


def cfg_of(preset: str | None = None, sets: list[str] | None = None) -> DadoxConfig:
    path = CONFIG_DIR / "dadox" / f"{preset}.toml" if preset else None
    return load_config(DadoxConfig, "dadox", path, sets)


# computed independently by two different solvers (issue 4)
@pytest.mark.parametrize(("preset", "golden"), [("classic", 478.0), ("farkle-minimal", 446.6)])
def test_max_expected_turn_score(preset, golden):
    cfg = cfg_of(preset)
    ts = solve_turn(freeze(cfg), cfg.solver.turn_cap)
    assert ts.value[1] == pytest.approx(golden, abs=0.1)


def test_turn_cap_does_not_matter():
    cfg = cfg_of("classic")
    a = solve_turn(freeze(cfg), 100_000).value[1]
    b = solve_turn(freeze(cfg), 200_000).value[1]
    assert a == pytest.approx(b, abs=1e-9)


def test_opening_minimum_costs_expected_score():
    ts = solve_turn(freeze(cfg_of("classic", ["turn.opening_minimum=1000"])), 100_000)
    assert ts.value[0] < ts.value[1]  # not yet on the board: banking needs 1000


def throws(n: int):
    """(probability, face counts) of every multiset of n dice."""
    for combo in itertools.combinations_with_replacement(range(6), n):
        c = np.bincount(np.array(combo), minlength=6).astype(np.int64)
        p = factorial(n) / np.prod([factorial(int(x)) for x in c]) / 6**n
        yield p, c


def brute_force_classic(target_units: int, unit: int, rp: np.ndarray, sweeps: int = 60) -> np.ndarray:
    """Plain value iteration for the classic rules (reach the target; a bust loses the turn only),
    throws and set-asides enumerated from scratch with the rules' selection score."""
    outcomes = {}
    for n in range(1, 7):
        rows = []
        for p, c in throws(n):
            opts = set()
            for sub in itertools.product(*(range(x + 1) for x in c)):
                s = np.array(sub, dtype=np.int64)
                pts = R.selection_score(s, rp)
                if pts >= 0:
                    opts.add((int(pts) // unit, n - int(s.sum()) or 6))
            rows.append((p, sorted(opts)))
        outcomes[n] = rows
    G = target_units
    V = np.full((G, G), 0.5)
    for _ in range(sweeps):
        new = np.empty_like(V)
        for a in range(G):
            for b in range(G):
                memo: dict[tuple[int, int], float] = {}

                def q(t, n, a=a, b=b, memo=memo, V=V):
                    if a + t >= G:
                        return 1.0  # banking wins
                    if (t, n) not in memo:
                        thr = 0.0
                        for p, opts in outcomes[n]:
                            thr += p * (max(q(t + dt, nd) for dt, nd in opts) if opts else 1.0 - V[b, a])
                        memo[(t, n)] = thr if t == 0 else max(1.0 - V[b, a + t], thr)
                    return memo[(t, n)]

                new[a, b] = q(0, 6)
        V = new
    return V


def test_win_solver_matches_brute_force():
    cfg = cfg_of("classic", ["goal.target=150"])
    rp = freeze(cfg)
    ws = solve_win(rp, cfg.solver.score_floor, 1e-12)
    ref = brute_force_classic(3, 50, rp)
    assert ws.V.shape == (3, 3)
    np.testing.assert_allclose(ws.V, ref, atol=1e-9)


def test_win_solver_is_a_fixed_point_under_the_default_rules():
    cfg = cfg_of(None, ["goal.target=1000", "solver.score_floor=-500"])
    rp = freeze(cfg)
    ws = solve_win(rp, cfg.solver.score_floor, 1e-9)
    assert ws.residual < 1e-9
    n = len(ws.score)
    new = np.empty((n, n))
    later, lo, hi = need_range(rp)
    _improve(ws.V, ws.bank_to, ws.bust_to, ws.cap, build_tables(rp), later, lo, hi, new, np.empty((n * n, n + 1)))
    assert np.abs(new - ws.V).max() < 1e-8
    assert 0.5 < ws.V[ws.start, ws.start] < 1.0  # the first player is favoured
    assert ((ws.V >= 0) & (ws.V <= 1)).all()
    # one step from an exact 1000: any throw with a 5 wins at once
    a = ws.index[1, 950 // 50 - ws.lo]
    assert (ws.V[a] > 1 - (5 / 6) ** 6).all()
