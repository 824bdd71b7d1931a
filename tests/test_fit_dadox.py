"""Fitting Dadox players (issue 32): known levels of optimal-turn come back; regret telescopes per turn; a
population's mixture plays each player at its group's level."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from sim.core.batch import run_batch
from sim.core.skill import Group, group_of
from sim.games.dadox.game import GAME
from sim.players import dadox
from sim.players.fit import fit
from sim.players.regret import regret
from tests.conftest import cli_here

PLAYERS, GAMES = 100, 2


def config(level: float, gpp: int = GAMES, **rules):
    cfg = GAME.load(overrides=[f"{k.replace('__', '.')}={v}" for k, v in rules.items()])
    return cfg.model_copy(update={"skill": cfg.skill.model_copy(update={"level": level, "games_per_player": gpp})})


def logged(level: float, n: int = PLAYERS * GAMES, policy: str = "optimal-turn", prefix: str = "", seed: int = 11,
           options=None, **rules):
    dec, out = dadox.record(config(level, **rules), policy, n, seed, options or {})
    dec["player"] = prefix + dec["player"]
    out["player"] = prefix + out["player"]
    return dec, out


@pytest.mark.parametrize("level", [0.35, 0.8])
def test_one_level_comes_back_within_its_interval(level):
    dec, out = logged(level)
    f = fit(dadox.load(GAME.load(), dec, out, "log"))
    assert f.level.lo <= level <= f.level.hi, f.level
    assert len(f.chosen.levels) == 1, [m.bic for m in f.mixtures]
    g = f.chosen.groups()[0]
    assert g["ci95"][0] <= level <= g["ci95"][1]


def test_a_mixture_comes_back_as_two_groups():
    cfg = config(1.0)
    cfg = cfg.model_copy(update={"skill": cfg.skill.model_copy(update={
        "groups": [Group(level=0.35, weight=0.5), Group(level=0.8, weight=0.5)]})})
    dec, out = dadox.record(cfg, "optimal-turn", 2 * PLAYERS * GAMES, 11, {})
    assert sorted(set(out["level"])) == [0.35, 0.8]
    f = fit(dadox.load(GAME.load(), dec, out, "log"))
    groups = f.chosen.groups()
    assert len(groups) == 2, [m.bic for m in f.mixtures]
    for g, truth in zip(groups, (0.35, 0.8), strict=True):
        assert g["ci95"][0] <= truth <= g["ci95"][1], groups
        assert g["weight_ci95"][0] <= 0.5 <= g["weight_ci95"][1], groups
    # the batch plays the same runs: each run's rows are those of a batch at its group's level
    opts = GAME.check_options({})
    t = run_batch(GAME, cfg, ["optimal-turn"] * 2, 40, 11, opts, progress=False).table
    grp = np.repeat(group_of(cfg.skill, np.arange(40)), 2)
    for k, lv in enumerate((0.35, 0.8)):
        plain = run_batch(GAME, config(lv), ["optimal-turn"] * 2, 40, 11, opts, progress=False).table
        assert (t["score"].to_numpy()[grp == k] == plain["score"].to_numpy()[grp == k]).all()
    assert (t[t["seat"] == 0]["score"].to_numpy() == out["score"].to_numpy()[:40]).all()


def test_the_policys_own_log_loses_nothing_and_randoms_loss_is_its_turn_score_gap():
    short = {"game__max_turns": 40}  # no game gets near the target: every turn is played for its points
    dec, out = logged(1.0, n=60, gpp=1, options={"players": 1}, **short)
    d = dadox.load(config(1.0, **short), dec, out, "log")
    assert abs(regret(d)["total"]) < 1e-9
    assert fit(d).level.value > 0.99
    n = 300
    dec, out = logged(1.0, n=n, gpp=1, policy="random", options={"players": 1}, **short)
    cfg = config(1.0, **short)
    d = dadox.load(cfg, dec, out, "log")
    v0 = float(GAME.turn_solution(cfg).value[1])  # optimal-turn's expected points of a turn
    per_game = 40 * v0 - out["score"].to_numpy(np.float64)  # each turn's expected shortfall against the optimum
    r = regret(d)["total"]
    assert abs(r - per_game.mean()) < 4 * per_game.std() / np.sqrt(n), (r, per_game.mean())
    assert fit(d).level.value < 0.05


def test_bad_rows_are_refused_naming_the_row():
    dec, out = logged(0.5, n=20, gpp=1)
    bad = dec.copy()
    j = int(bad.index[bad["dice"].str.contains("2")][0])
    bad.loc[j, "set_aside"] = "2"
    with pytest.raises(dadox.LogError, match=f"row {j + 1}: the dice set aside, 2, do not all score"):
        dadox.load(GAME.load(), bad, out, "log")
    hot = dec.index[dec["set_aside"].str.len() == dec["dice"].str.len()]  # hot dice: all six are thrown again
    assert len(hot)
    bad = dec.copy()
    bad.loc[hot[0], "bank"] = 1
    with pytest.raises(dadox.LogError, match=f"row {hot[0] + 1}: banked where the rules oblige a throw"):
        dadox.load(GAME.load(), bad, out, "log")
    bad = dec.copy()
    bad.loc[3, "turn_total"] = 250
    bad.loc[3, "throw"] = 1
    with pytest.raises(dadox.LogError, match="row 4: a turn's first throw is six dice at turn total 0"):
        dadox.load(GAME.load(), bad, out, "log")
    first = dec.index[(dec["throw"] == 1) & (dec["dice"].str.len() == 6)]  # six dice at turn total 0, read as throw 5
    bad = dec.copy()
    bad.loc[first[0], "throw"] = 5
    with pytest.raises(dadox.LogError, match=f"row {first[0] + 1}: throw 5 at turn total 0: only a turn's first throw "
                                             "has nothing set aside"):
        dadox.load(GAME.load(), bad, out, "log")



@pytest.mark.parametrize("column, value, said", [
    ("score", 50_000, "score 50,000 before a turn: reaching goal.target 10,000 ends the game"),
    ("score", 1001, "score 1,001 is not a multiple of 50 (as every score here)"),
    ("turn_total", 1001, "turn_total 1,001 is not a multiple of 50 (as every score here)"),
])
def test_a_score_the_rules_cannot_give_is_refused(column, value, said):
    """A banked 50,000 under a target of 10,000 was fitted (it moved the level from 1.0 to 0.97), as were turn totals
    off the 50-point grid."""
    dec, out = logged(0.5, n=20, gpp=1)
    row = int(dec.index[dec["throw"] > 1][0]) if column == "turn_total" else 3
    bad = dec.copy()
    bad.loc[row, column] = value
    with pytest.raises(dadox.LogError, match=re.escape(f"row {row + 1}: {said}")):
        dadox.load(GAME.load(), bad, out, "log")
    below = dec.copy()
    below.loc[3, "score"] = -500  # the default rules subtract a bust's turn total (Minusbetrag): a score may be < 0
    dadox.load(GAME.load(), below, out, "log")
    with pytest.raises(dadox.LogError, match="row 4: score -500: no score of these rules falls below 0"):
        dadox.load(GAME.load(overrides=["bust.penalty=lose"]), below, out, "log")
    final = out.copy()
    final.loc[0, "score"] = 10_050
    with pytest.raises(dadox.LogError, match="outcomes row 1: score 10,050 is past the exact goal.target 10,000"):
        dadox.load(GAME.load(), dec, final, "log")

def test_play_logs_dadox_and_fit_reads_it(tmp_path):
    log = tmp_path / "dx.csv"
    play = cli_here("play", "dadox", "--policy", "optimal-turn", "--n", "40", "--set", "skill.level=0.6", "--log",
                    str(log), "--no-report", "--json")
    assert play.returncode == 0, play.stderr
    r = cli_here("fit", "dadox", str(log), "--out", str(tmp_path / "fit"), "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s["game"] == "dadox" and s["players"] == 40 and s["level"]["ci95"][0] <= 0.6 <= s["level"]["ci95"][1]
    assert set(s["regret"]["by_kind"]) == {"bank", "throw on"} and "by_state" in s["regret"]
    pop = tmp_path / "fit" / "population.toml"
    assert "optimal-turn" in pop.read_text()
    assert cli_here("play", "dadox", "--policy", "optimal-turn", "--n", "10", "--config", str(pop),
                    "--no-report").returncode == 0


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_logged_game_with_no_outcome_row_is_refused(tmp_path, suffix):
    """Dadox shares Kniffel's outcome check (``logs.outcome_columns``): a (player, game) with decisions but no
    outcome row is one ``error:`` line naming the first such decision row, exit 2, nothing written."""
    dec, out = logged(0.5, n=6, gpp=2)
    gone = out.iloc[3]
    out = out.drop(index=3)
    first = int(dec.index[(dec["player"] == gone["player"]) & (dec["game"] == gone["game"])][0])
    log, outcomes = tmp_path / f"dx{suffix}", tmp_path / f"dx.outcomes{suffix}"
    for df, path in ((dec, log), (out, outcomes)):
        df.to_csv(path, index=False) if suffix == ".csv" else df.to_parquet(path, index=False)
    r = cli_here("fit", "dadox", str(log), "--out", str(tmp_path / "fit"), "--json")
    assert r.returncode == 2, r.stderr
    assert r.stdout == "" and r.stderr.count("\n") == 1 and r.stderr.startswith("error: "), r.stderr
    assert f"row {first + 1}: player {gone['player']!r} game {gone['game']} has no row in" in r.stderr
    assert not (tmp_path / "fit").exists()
