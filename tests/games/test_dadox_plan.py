"""Dadox optimal-win play from the solved plan table (``winplan.win_plan``): the lookups decide exactly as the
turn plan rebuilt from ``V`` for each pair of states did, so whole games are identical."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from policies.dadox.bots import POLICIES
from sim.core.config import CONFIG_DIR
from sim.games.dadox import play as P
from sim.games.dadox.config import freeze, freeze_policies
from sim.games.dadox.game import GAME
from sim.games.dadox.solve import Needs, Pairs, TurnWork, need_range, pair_turn, tail_scratch
from sim.games.dadox.tables import QW, build_tables
from sim.games.dadox.winplan import PLAN_ROWS, win_plan

SMALL = ["goal.target=2000", "solver.score_floor=-1000"]


def cfg_of(preset: str | None, sets: list[str]):
    return GAME.load(CONFIG_DIR / "dadox" / f"{preset}.toml" if preset else None, sets)


@cache
def plan_of(preset: str | None, sets: tuple[str, ...], max_rows: int):
    """The plan table of a rules config, built once for the cases that share it."""
    cfg = cfg_of(preset, list(sets))
    return win_plan(freeze(cfg), GAME.win_solution(cfg)[0], max_rows)


def play(cfg, policies, solved, n, seed):
    rp = freeze(cfg)
    pids = np.array([POLICIES[p] for p in policies], np.int64)
    turns = np.zeros(n, np.int64)
    winners = np.zeros(n, np.int64)
    stat = np.zeros((n, len(policies), P.N_STAT), np.int64)
    P.play_games(seed, 0, n, pids, len(set(policies)) > 1, rp.base, freeze_policies(cfg).base, build_tables(rp), solved,
                 turns, winners, stat)
    return turns, winners, stat


@pytest.mark.parametrize(
    ("preset", "sets", "policies"),
    [
        (None, SMALL, ["optimal-win", "optimal-win"]),
        (None, SMALL, ["optimal-win", "threshold"]),
        ("classic", ["goal.target=1500"], ["optimal-win", "greedy"]),
        ("lenient", SMALL, ["leader-win", "threshold", "greedy"]),
    ],
)
@pytest.mark.parametrize("max_rows", [1000, 6])
def test_plan_lookup_plays_as_the_rebuilt_plan(preset, sets, policies, max_rows):
    """``max_rows=6`` keeps only turn totals below 300 in the table: most turns then fall back to the rebuild."""
    cfg = cfg_of(preset, sets)
    solved = GAME.solved(cfg, policies)
    plan = plan_of(preset, tuple(sets), max_rows)
    bare = solved._replace(plan=np.zeros(0), plan_off=np.zeros(0, np.int64), plan_rows=np.zeros(0, np.int64))
    looked = solved._replace(plan=plan.plan, plan_off=plan.off, plan_rows=plan.rows, plan_cols=plan.cols)
    a = play(cfg, policies, bare, 400, 7)
    b = play(cfg, policies, looked, 400, 7)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)
    assert a[0].sum() > 400 * 5  # real games were played


def test_plan_holds_the_rebuilt_throw_values():
    cfg = cfg_of(None, SMALL)
    rp = freeze(cfg)
    ws = GAME.win_solution(cfg)[0]
    plan = plan_of(None, tuple(SMALL), PLAN_ROWS)
    tb = build_tables(rp)
    later, lo, hi = need_range(rp)
    tm = ws.bank_to.shape[1]
    thr = np.empty((tm, 6, 2))
    q = np.empty((tm + tb.go_pad + 1) * QW)
    n = ws.V.shape[0]
    assert (plan.rows == np.minimum(ws.cap + 1, 64)).all()
    for a, b in [(0, 0), (n - 1, 3), (ws.start, ws.start), (n // 2, n - 2)]:
        pair_turn(a, b, Pairs(ws.V, ws.bank_to, ws.bust_to, ws.cap), tb, Needs(later, lo, hi),
                  TurnWork(np.empty(tm), np.empty(tm, np.bool_), np.empty(tm), thr, q, np.empty((0, 0), np.int64),
                           *tail_scratch(tb)))
        r = plan.rows[a]
        k = plan.off[a] + b * r * 6 * plan.cols
        got = plan.plan[k : k + r * 6 * plan.cols].reshape(r, 6, plan.cols)
        np.testing.assert_array_equal(got, thr[:r, :, lo : hi + 1])


def test_plan_rows_shrink_to_the_memory_budget(monkeypatch):
    from sim.games.dadox import winplan

    cfg = cfg_of(None, SMALL)
    rp = freeze(cfg)
    ws = GAME.win_solution(cfg)[0]
    n = ws.V.shape[0]
    _, lo, hi = need_range(rp)
    assert hi - lo + 1 == 2  # the default: ordinary and confirmation throws
    row_mb = n * n * 6 * (hi - lo + 1) * 8 / 2**20
    monkeypatch.setattr(winplan, "PLAN_MB", 5 * row_mb)
    plan = win_plan(rp, ws)
    assert plan.rows.max() == 5 and plan.plan.nbytes <= 5 * row_mb * 2**20


def test_the_plan_is_built_once_the_runs_would_pay_for_it():
    """A play of a few hundred optimal-win games built the whole plan first (12 s for 200 games at the defaults);
    now a process plays without it until its runs would have solved as many pairs as the plan holds, then builds
    it once; the games are the same either way (``test_plan_lookup_plays_as_the_rebuilt_plan``)."""
    from sim.games.dadox.game import Dadox
    from sim.games.dadox.winplan import worth_building

    cfg = cfg_of(None, SMALL)
    game = Dadox()  # a process of its own: no plan built yet
    pols = ["optimal-win", "greedy"]
    states = game.win_solution(cfg)[0].V.shape[0]
    enough = next(r for r in range(1, 100 * states) if worth_building(states, 1, r))
    assert abs(enough - 12 * states) <= 1  # 12 runs a state heads-up (~22 turns over 260 states)
    assert worth_building(states, 2, enough // 2 + 1) and not worth_building(states, 2, enough // 2 - 2)
    assert game.solved(cfg, pols).plan.size == 0  # a prepare, a replay: no runs said, no plan
    assert game.solved(cfg, pols, enough - 1).plan.size == 0
    first = game.play_chunk(cfg, pols, 7, 0, 300, {})  # these runs make it enough: built before they play
    assert game.solved(cfg, pols).plan.size > 0
    bare = Dadox().play_chunk(cfg, pols, 7, 0, 300, {})
    for x, y in zip(first, bare, strict=True):
        np.testing.assert_array_equal(x, y)
