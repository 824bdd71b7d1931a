"""Kniffel batches: determinism, pairing, replay = batch, and statistical checks against the optimum."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from sim.core.batch import run_batch
from sim.games import get_game
from tests.conftest import run_cli

GAME = get_game("kniffel")
CFG = GAME.load()
OPTIMUM = 254.5838197  # the default rules' exact expected score (see test_kniffel_solve)


def batch(policy, n, seed=7, chunk=65_536, players=1):
    opts = GAME.check_options({"players": players})
    return run_batch(GAME, CFG, GAME.seat_policies(policy, opts), n, seed, opts, chunk=chunk, progress=False).table


@pytest.mark.parametrize("policy", ["random", "greedy", "optimal"])
def test_chunking_does_not_change_results(policy):
    a = batch(policy, 3000, chunk=1000)
    b = batch(policy, 3000, chunk=4096)
    pd.testing.assert_frame_equal(a, b)


def test_sheet_invariants():
    t = batch("greedy", 2000)
    boxes = [c for c in t.columns if c.startswith("s_")]
    turns = t[[c for c in t.columns if c.startswith("t_")]].to_numpy()
    assert (np.sort(turns, axis=1) == np.arange(1, 14)).all()  # each box filled exactly once
    assert (t["score"] == t[boxes].sum(axis=1) + t["upper_bonus"] + t["kniffel_bonus"]).all()
    assert ((t["upper_bonus"] == 35) == (t["upper_sum"] >= 63)).all()
    assert (t["kniffel_bonus"] % 100 == 0).all()


def test_paired_streams_share_the_first_roll_of_each_turn():
    """Common random numbers: a run's first roll of turn 1 is the same under every policy."""
    first = []
    for policy in ("random", "greedy", "optimal"):
        text = GAME.replay(CFG, [policy], 11, 5, {"players": 1})
        first.append(re.search(r"roll 1: ([\d ]+)", text).group(1))
    assert len(set(first)) == 1


@pytest.mark.parametrize("policy", ["greedy", "optimal", "random"])
def test_replay_is_run_i_of_the_batch(policy):
    t = batch(policy, 40, seed=5)
    for run in (0, 17, 39):
        text = GAME.replay(CFG, [policy], 5, run, {"players": 1})
        assert int(re.search(r"Final score: (\d+)", text).group(1)) == t.loc[run, "score"]


def test_optimal_mean_matches_the_exact_optimum():
    """20,000 games: the sample mean lies within 4 standard errors of the solver's value."""
    t = batch("optimal", 20_000, seed=2024)
    se = t["score"].std(ddof=1) / math.sqrt(len(t))
    assert abs(t["score"].mean() - OPTIMUM) < 4 * se


def test_policies_are_ordered_on_paired_seeds():
    scores = {p: batch(p, 4000, seed=99)["score"].to_numpy() for p in ("random", "greedy", "optimal")}
    for worse, better in (("random", "greedy"), ("greedy", "optimal")):
        d = scores[better] - scores[worse]
        assert d.mean() - 4 * d.std(ddof=1) / math.sqrt(len(d)) > 0, (worse, better, d.mean())
    assert scores["greedy"].mean() < OPTIMUM - 20 and scores["random"].mean() < 100


def test_two_players_win_rates_and_ties():
    t = batch("optimal", 4000, players=2)
    assert set(t["seat"]) == {0, 1}
    per_run = t.groupby("run")
    assert ((per_run["win"].sum() == 1) | per_run["tie"].all()).all()
    m = GAME.metrics(t, {"players": 2}, CFG)
    lo0, hi0 = m["win_rate_seat_0"]["ci95"]
    assert lo0 < 0.5 < hi0 or abs(m["win_rate_seat_0"]["value"] - 0.5) < 0.03  # same policy: fair seats


@pytest.mark.slow
def test_optimal_million_games_within_its_interval():
    """The issue's check: 10^6 optimal games, the exact optimum inside the 95 % interval."""
    res = run_cli("play", "kniffel", "--policy", "optimal", "--n", "1000000", "--seed", "1", "--json", "--no-report")
    assert res.returncode == 0, res.stderr
    m = json.loads(res.stdout)["metrics"]["mean_score"]
    lo, hi = m["ci95"]
    assert lo <= OPTIMUM <= hi
