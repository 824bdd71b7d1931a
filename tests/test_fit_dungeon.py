"""Fitting Würfel Dungeon players by their outcomes (issue 32): the rooms histogram gives the level back.

The dungeon plays one level per batch, so the mixture's log is two simulated logs side by side.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from sim.players import dungeon
from sim.players.dungeon import GAME
from tests.conftest import cli_here

PLAYERS, GAMES = 200, 5


def logged(level: float, prefix: str = "", seed: int = 7) -> pd.DataFrame:
    cfg = GAME.load()
    cfg = cfg.model_copy(update={"skill": cfg.skill.model_copy(update={"level": level, "games_per_player": GAMES})})
    out, _ = dungeon.record(cfg, "vorschlag", PLAYERS * GAMES, seed, {})
    return out.assign(player=prefix + out["player"])


@pytest.mark.parametrize("level", [0.35, 0.8])
def test_one_level_comes_back_within_its_interval(level):
    f = dungeon.fit_outcomes(GAME.load(), dungeon.load(GAME.load(), logged(level), "log"))
    assert f.level.lo <= level <= f.level.hi, f.level
    assert len(f.chosen.levels) == 1, [m.bic for m in f.mixtures]


def test_a_mixture_comes_back_as_two_groups():
    log = pd.concat([logged(0.35, "a"), logged(0.8, "b", seed=8)], ignore_index=True)
    f = dungeon.fit_outcomes(GAME.load(), dungeon.load(GAME.load(), log, "log"))
    groups = f.chosen.groups()
    assert len(groups) == 2, [m.bic for m in f.mixtures]
    for g, truth in zip(groups, (0.35, 0.8), strict=True):
        assert g["ci95"][0] <= truth <= g["ci95"][1], groups
        assert g["weight_ci95"][0] <= 0.5 <= g["weight_ci95"][1], groups


@pytest.mark.parametrize(("column", "value", "words"), [
    ("rooms_cleared", 11, "row 3: rooms_cleared 11: the dungeon has 10 rooms"),
    ("win", 1, "row 3: win 1 with"),
    ("difficulty", "schwer", "row 3: difficulty schwer after leicht"),
])
def test_bad_outcomes_are_refused_naming_the_row(tmp_path, column, value, words):
    out = logged(0.5).head(20).copy()
    out.loc[2, "rooms_cleared"] = min(int(out.loc[2, "rooms_cleared"]), 9)
    out.loc[2, "win"] = 0
    out.loc[2, column] = value
    path = tmp_path / "runs.csv"
    out.to_csv(path, index=False)
    r = cli_here("fit", "dungeon", str(path), "--out", str(tmp_path / "fit"))
    assert r.returncode == 2 and r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
    assert words in r.stderr, r.stderr
    assert not (tmp_path / "fit").exists()


def test_play_logs_the_dungeon_and_fit_reads_it(tmp_path):
    log = tmp_path / "runs.parquet"
    play = cli_here("play", "dungeon", "--policy", "vorschlag", "--n", "300", "--set", "skill.level=0.7",
                    "--games-per-player", "3", "--log", str(log), "--no-report", "--json")
    assert play.returncode == 0, play.stderr
    r = cli_here("fit", "dungeon", str(log), "--out", str(tmp_path / "fit"), "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s["game"] == "dungeon" and s["players"] == 100 and s["regret"] is None
    assert s["level"]["ci95"][0] <= 0.7 <= s["level"]["ci95"][1], s["level"]
    assert (tmp_path / "fit" / "fit.html").is_file() and (tmp_path / "fit" / "population.toml").is_file()
