"""Dadox solvers: the golden maximum expected turn scores, and the two-player win solver against an
independent brute-force value iteration and its own Bellman equation."""

from __future__ import annotations

import itertools
from math import factorial

import numpy as np
import pytest

from sim.core.config import CONFIG_DIR, DicesimError, load_config
from sim.games.dadox import rules as R
from sim.games.dadox.config import DadoxConfig, freeze
from sim.games.dadox.describe import optimal_thresholds
from sim.games.dadox.solve import Pairs, need_range, solve_turn
from sim.games.dadox.solve_win import _improve, solve_win
from sim.games.dadox.tables import build_tables


def cfg_of(preset: str | None = None, sets: list[str] | None = None) -> DadoxConfig:
    path = CONFIG_DIR / "dadox" / f"{preset}.toml" if preset else None
    return load_config(DadoxConfig, "dadox", path, sets)


# computed independently by two different solvers (issue 4; the default's and lenient's: the rules file's solver)
@pytest.mark.parametrize(("preset", "golden", "digits"), [
    (None, 365.918, 3), ("lenient", 382.912791, 6), ("classic", 478.0, 1), ("farkle-minimal", 446.6, 1),
])
def test_max_expected_turn_score(preset, golden, digits):
    cfg = cfg_of(preset)
    ts = solve_turn(freeze(cfg), cfg.solver.turn_cap)
    assert round(float(ts.value[1]), digits) == golden


def test_default_bank_thresholds():
    """The rules file's bank thresholds of the default, by dice to throw next (with six, where banking would pay:
    hot dice are thrown again, so no bank happens there)."""
    cfg = cfg_of()
    ts = solve_turn(freeze(cfg), cfg.solver.turn_cap)
    want = {"1": 150, "2": 150, "3": 200, "4": 500, "5": 1450, "6": 5200}
    assert optimal_thresholds(ts, cfg) == want


@pytest.mark.parametrize(("sets", "golden"), [
    (["turn.hot_dice=optional"], 365.918),  # banking hot dice hardly pays below 5200 points
    (["turn.later_throws_need_1_or_5=true", "turn.hot_dice=optional"], 326.663),  # the rules file: 326.66
    (["turn.later_throws_need_1_or_5=true"], 326.638),
])
def test_each_switch_moves_the_turn_value(sets, golden):
    cfg = cfg_of(None, sets)
    assert round(float(solve_turn(freeze(cfg), cfg.solver.turn_cap).value[1]), 3) == golden


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


def brute_force_classic(target_units: int, unit: int, rp: np.record, sweeps: int = 60) -> np.ndarray:
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
    dist = np.empty((n * n, n + 1))
    _improve(Pairs(ws.V, ws.bank_to, ws.bust_to, ws.cap), build_tables(rp), need_range(rp), new, dist)
    assert np.abs(new - ws.V).max() < 1e-8
    # where each turn ends (the plan the evaluation and floor_share follow) agrees with the turn's value
    assert np.abs(dist.sum(axis=1) - 1).max() < 1e-12 and dist.min() > -1e-15
    b_of = np.tile(np.arange(n), n)
    ends = dist[:, n] + (dist[:, :n] * (1 - ws.V[b_of])).sum(axis=1)
    np.testing.assert_allclose(ends, new.ravel(), atol=1e-12)
    assert 0.5 < ws.V[ws.start, ws.start] < 1.0  # the first player is favoured
    assert ((ws.V >= 0) & (ws.V <= 1)).all()
    # one step from an exact 1000: a first throw with a 5 wins at once unless it holds a triple or is a
    # street (a single 5 from such a throw obliges another throw)
    wins_now = 0
    for d in itertools.product(range(6), repeat=6):
        c = np.bincount(d, minlength=6)
        wins_now += c[4] > 0 and c.max() < 3 and not (c == 1).all()
    a = ws.index[1, 950 // 50 - ws.lo]
    assert (ws.V[a] > wins_now / 6**6).all()
    assert ws.V[a].min() < 1 - (5 / 6) ** 6  # the old bound (any 5 wins) no longer holds


def text_options(c: np.ndarray, first: bool, rp: np.record, unit: int) -> tuple[tuple[int, int, int], ...]:
    """(points units, dice to throw next, lock) of every selection from throw ``c``, from the rules' text:
    strong (street, two triples, a first-throw triple) -> confirm; only single 1s/5s from a throw holding a
    triple or street -> throw on; hot dice -> six dice, thrown on under ``turn.hot_dice = "throw"``."""
    n = int(c.sum())
    street_on = rp.scoring_street > 0
    holds = (c >= 3).any() or (street_on and (c == 1).all())
    out = set()
    for sub in itertools.product(*(range(x + 1) for x in c)):
        s = np.array(sub, dtype=np.int64)
        pts = R.selection_score(s, rp)
        if pts < 0:
            continue
        triples = int((s >= 3).sum()) + int((s == 6).sum())
        strong = rp.turn_confirm == 1 and (
            (street_on and (s == 1).all()) or triples >= 2
            or (first and (s[0] >= 3 or (rp.turn_confirm_first_throw_triples == 1 and triples >= 1)))
        )
        singles = s[[1, 2, 3, 5]].sum() == 0 and s[0] < 3 and s[4] < 3
        hot = rp.hot_throw == 1 and s.sum() == n
        declined = rp.turn_decline_forces_throw and holds and singles
        lock = R.LOCK_CONFIRM if strong else (R.LOCK_THROW if declined or hot else R.LOCK_FREE)
        out.add((int(pts) // unit, n - int(s.sum()) or 6, lock))
    return tuple(sorted(out))


def brute_force_exact(rp: np.record, lo: int, target: int, unit: int, sweeps: int = 400) -> np.ndarray:
    """Plain value iteration for the exact-target game with Minusbetrag (scores ``lo`` .. ``target - 1``
    units, lower ones count as ``lo``), confirmation, the 1-or-5 rule, both declining rules; a bust on
    a throw without a 1 or 5 where one is needed. Turn totals from ``target - lo + 1`` on lead to the same
    ends (overshoot, the floor), so they count as that total; its row is iterated to its fixed point.
    ``W[t, n - 1, lock]`` is the value of holding turn total t with n dice to throw under a lock."""
    later = int(rp.turn_later_throws_need_1_or_5)
    outcomes = {}
    for n in range(1, 7):
        for first in ((False, True) if n == 6 else (False,)):
            for need in (0, 1):
                groups: dict[tuple, float] = {}
                bust = 0.0
                for p, c in throws(n):
                    opts = text_options(c, first, rp, unit)
                    if not opts or (need and c[0] + c[4] == 0):
                        bust += p
                    else:
                        groups[opts] = groups.get(opts, 0.0) + p
                keys = list(groups)
                flat = np.array([o for k in keys for o in k], dtype=np.int64).reshape(-1, 3)
                starts = np.cumsum([0] + [len(k) for k in keys])[:-1]
                outcomes[n, first, need] = (bust, np.array([groups[k] for k in keys]), flat, starts)
    top = target - lo + 1
    m = target - lo
    V = np.full((m, m), 0.5)
    for _ in range(sweeps):  # Gauss-Seidel: each value is updated in place
        old = V.copy()
        for ai in range(m):
            s = ai + lo
            for bi in range(m):
                def bank_v(t, s=s, bi=bi):
                    return 1.0 if s + t == target else 1.0 - V[bi, (s + t if s + t < target else s) - lo]

                W = np.empty((top + 1, 6, 3))

                def throw(t, n, need, first=False, W=W, s=s, bi=bi):
                    bust, probs, flat, starts = outcomes[n, first, need]
                    vals = W[np.minimum(t + flat[:, 0], top), flat[:, 1] - 1, flat[:, 2]]
                    return bust * (1.0 - V[bi, max(s - t, lo) - lo]) + probs @ np.maximum.reduceat(vals, starts)

                def row(t, W=W, throw=throw, bank_v=bank_v):
                    new = np.empty((6, 3))
                    for n in range(1, 7):
                        for lk in range(3):
                            v = throw(t, n, 1 if lk == R.LOCK_CONFIRM else later)
                            new[n - 1, lk] = max(v, bank_v(t)) if lk == 0 else v
                    return new

                W[top] = bank_v(top)
                for _ in range(100):
                    new = row(top)
                    delta = np.abs(new - W[top]).max()
                    W[top] = new
                    if delta < 1e-15:
                        break
                for t in range(top - 1, 0, -1):
                    W[t] = row(t)
                V[ai, bi] = throw(0, 6, 0, True)
        if np.abs(V - old).max() < 1e-13:
            break
    return V


@pytest.mark.parametrize(("preset", "sets"), [
    (None, []), (None, ["turn.hot_dice=optional"]), (None, ["turn.later_throws_need_1_or_5=true"]), ("lenient", []),
])
def test_win_solver_matches_brute_force_with_the_default_rules(preset, sets):
    """Subtract, confirmation (first-throw triples), declined groups, hot dice, 1-or-5 and an exact target, void
    overshoot."""
    cfg = cfg_of(preset, ["goal.target=150", "solver.score_floor=-100", *sets])
    rp = freeze(cfg)
    assert rp.goal_exact and rp.turn_confirm and rp.bust_penalty == R.PENALTY_SUBTRACT
    ws = solve_win(rp, cfg.solver.score_floor, 1e-13)
    ref = brute_force_exact(rp, -2, 3, 50)
    assert ws.V.shape == ref.shape == (5, 5)
    np.testing.assert_allclose(ws.V, ref, atol=1e-9)


def test_stopping_short_of_the_tolerance_is_an_error():
    cfg = cfg_of(None, ["goal.target=1000", "solver.score_floor=-500"])
    with pytest.raises(DicesimError, match="did not converge"):
        solve_win(freeze(cfg), cfg.solver.score_floor, 1e-9, max_iter=1)


def test_floor_share_counts_turns_at_the_floor():
    """A floor just below zero is visited often, a deep one hardly; rules without negative scores have none."""
    shallow = cfg_of(None, ["goal.target=1000", "solver.score_floor=-100"])
    deep = cfg_of(None, ["goal.target=1000", "solver.score_floor=-2000"])
    a = solve_win(freeze(shallow), shallow.solver.score_floor, 1e-9).floor_share
    b = solve_win(freeze(deep), deep.solver.score_floor, 1e-9).floor_share
    assert 0.01 < a < 0.5 and 0 <= b < a / 10, (a, b)
    classic = cfg_of("classic", ["goal.target=300"])
    assert solve_win(freeze(classic), classic.solver.score_floor, 1e-9).floor_share == 0.0


def test_coarse_start_reaches_the_same_values(monkeypatch):
    """The coarse start (representative opponent states) changes where the exact iteration begins, not where it
    ends: the same values within the tolerance as from 0.5, in fewer exact steps; and it is a fixed point."""
    from sim.games.dadox import solve_win as S

    cfg = cfg_of(None, ["goal.target=2500", "solver.score_floor=-500"])
    rp = freeze(cfg)
    monkeypatch.setattr(S, "COARSE_STRIDE", 1)  # every state its own representative: no coarse start
    plain = solve_win(rp, cfg.solver.score_floor, 1e-10)
    monkeypatch.setattr(S, "COARSE_STRIDE", 6)
    monkeypatch.setattr(S, "COARSE_DENSE", 4)
    cols, rep_of = S.coarse_columns(np.column_stack((plain.score // 50, plain.opened)), 6, 4)
    assert 2 * len(cols) < len(plain.score) and (cols[rep_of] >= 0).all()
    coarse = solve_win(rp, cfg.solver.score_floor, 1e-10)
    assert np.abs(coarse.V - plain.V).max() < 1e-9
    assert coarse.iterations < plain.iterations
    n = len(coarse.score)
    new = np.empty((n, n))
    _improve(Pairs(coarse.V, coarse.bank_to, coarse.bust_to, coarse.cap), build_tables(rp), need_range(rp),
             new, np.empty((n * n, n + 1)))
    assert np.abs(new - coarse.V).max() < 1e-10


def test_an_optimal_win_larger_than_the_machine_is_refused_before_its_arrays(monkeypatch):
    """optimal-win's arrays grow as the cube of the goal's score states: a goal of 1,000,000 (20,060 states) needs
    60,000 GiB; refused in one line before any array (numpy failed allocating 3 GiB after the solve began); the default
    goal's solve is refused on a machine with less than twice its arrays."""
    from sim.games.dadox import solve_win as W
    from tests.conftest import cli_here

    r = cli_here("solve", "dadox", "--objective", "win", "--set", "goal.target=1000000")
    assert r.returncode == 2 and r.stderr.startswith("error: optimal-win needs 60,148.7 GiB, this machine has ")
    assert "(20,060 score states, cubed, from solver.score_floor -3,000 to goal.target 1,000,000 in steps of 50): " \
        "narrow the range or widen the steps" in r.stderr, r.stderr  # the whole line: nothing cut
    cfg = load_config(DadoxConfig, "dadox", None, [])
    n = len(W.score_states(freeze(cfg), cfg.solver.score_floor)[0])
    monkeypatch.setattr(W.os, "sysconf", lambda name: {"SC_PAGE_SIZE": 4096}.get(name, W.win_bytes(n) // 4096))
    with pytest.raises(DicesimError, match="this machine has"):
        W.solve_win(freeze(cfg), cfg.solver.score_floor, cfg.solver.tolerance)


def test_a_solve_says_its_size_and_pace_before_its_first_step():
    """A long solve (a goal of 35,000: some 19 minutes) printed nothing until its first step; the first line now
    names the states and the expected time, cubed from the default rules' pace, before any step."""
    from sim.games.dadox.solve_win import PACE_SECONDS, PACE_STATES, pace

    assert pace(PACE_STATES) == f"about {PACE_SECONDS:.0f} s" and pace(760) == "about 19 min"
    assert pace(2 * PACE_STATES) == f"about {8 * PACE_SECONDS / 60:.0f} min" and pace(20_000).endswith(" h")
    said = []
    cfg = cfg_of(None, ["goal.target=1000", "solver.score_floor=-500"])
    solve_win(freeze(cfg), cfg.solver.score_floor, 1e-9, log=said.append)
    assert said[0].startswith("optimal-win: solving the two-player game, 30 score states a player (900 pairs): "
                              "about 1 s at the default rules' pace"), said[0]
    assert said[1].startswith("coarse step 1: ") or said[1].startswith("step 1: ")


def test_the_bust_tables_note_names_only_the_tables_shown():
    """The note spoke of "the later-throw table (with turn.later_throws_need_1_or_5)" under rules that show none."""
    from sim.games.dadox.describe import bust_means

    default = bust_means(freeze(cfg_of(None, [])))
    assert default.endswith("no 1, no 5 and no triple (any throw but a confirmation); in a confirmation throw: no 1 "
                            "and no 5") and "later" not in default and "turn." not in default
    later = bust_means(freeze(cfg_of(None, ["turn.later_throws_need_1_or_5=true", "turn.confirm=false"])))
    assert later.endswith("(the turn's first throw); in every later throw of a turn (it must hold a 1 or a 5): no 1 "
                          "and no 5"), later
    assert bust_means(freeze(cfg_of(None, ["turn.confirm=false"]))).endswith("no triple (any throw)")
