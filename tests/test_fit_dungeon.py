"""Fitting Würfel Dungeon players by their outcomes (issue 32): the rooms histogram gives the level back, and a
population of two groups (played as one, ``[skill] groups``) comes back as those two groups.
"""

from __future__ import annotations

import json
from collections import Counter

import pandas as pd
import pytest

from sim.core.limits import kernel_seed
from sim.core.skill import Group
from sim.games.dungeon.replay_text import EVENTS
from sim.players import dungeon
from sim.players.dungeon import GAME
from sim.players.run import population
from tests.conftest import cli_here

PLAYERS, GAMES = 200, 5


def logged(*levels: float, seed: int = 7) -> pd.DataFrame:
    """The outcomes of ``PLAYERS`` players at one level, or of a population of them in equal groups."""
    cfg = GAME.load()
    one = {"level": levels[0]} if len(levels) == 1 else {"groups": [Group(level=lv, weight=1 / len(levels))
                                                                    for lv in levels]}
    cfg = cfg.model_copy(update={"skill": cfg.skill.model_copy(update={**one, "games_per_player": GAMES})})
    out, _ = dungeon.record(cfg, "vorschlag", PLAYERS * GAMES, seed, {})
    return out


@pytest.mark.parametrize("level", [0.35, 0.8])
def test_one_level_comes_back_within_its_interval(level):
    """The level within twice its interval's half-width (about four standard errors: a test that a correct 95 %
    interval fails about once in ten thousand). The interval counts the log's noise and the simulated histograms'
    (4,000 paired runs a level, one seed shared by every log; measured by the jackknife, whose calibration
    ``test_fit.test_the_simulations_own_noise_is_measured_and_counted`` checks): 0.35 reads [0.321, 0.351] here."""
    f = dungeon.fit_outcomes(GAME.load(), dungeon.load(GAME.load(), logged(level), "log"))
    half = (f.level.hi - f.level.lo) / 2
    assert abs(f.level.value - level) <= 2 * half and f.level.lo < f.level.value < f.level.hi, f.level
    assert len(f.chosen.levels) == 1, [m.bic for m in f.mixtures]


def test_a_mixture_comes_back_as_two_groups():
    log = logged(0.35, 0.8)
    assert set(log.groupby("player")["level"].unique().map(tuple)) == {(0.35,), (0.8,)}  # a player at one level
    f = dungeon.fit_outcomes(GAME.load(), dungeon.load(GAME.load(), log, "log"))
    groups = f.chosen.groups()
    assert len(groups) == 2, [m.bic for m in f.mixtures]
    for g, truth in zip(groups, (0.35, 0.8), strict=True):
        assert g["ci95"][0] <= truth <= g["ci95"][1], groups
        assert g["weight_ci95"][0] <= 0.5 <= g["weight_ci95"][1], groups
    pop = population(GAME.load(), f).skill  # what population.toml holds: the two groups, played as they are
    assert [(x.level, x.weight) for x in pop.groups] == [(round(g["level"], 4), pytest.approx(g["weight"], abs=1e-4))
                                                         for g in groups]


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


@pytest.mark.parametrize(("spelled", "meant"), [("Leicht", "leicht"), (" SCHWER", "schwer"), ("normal", "normal")])
def test_a_difficulty_is_read_as_the_command_line_reads_it(spelled, meant):
    """``--difficulty Leicht`` plays leicht: a log that says so is read so too, in every row alike (a row's other
    spelling of the same difficulty is no second setting); what names no difficulty is still refused."""
    out = pd.DataFrame({"player": ["a", "a", "b"], "game": [0, 1, 0], "rooms_cleared": [3, 10, 0], "win": [0, 1, 0],
                        "difficulty": [spelled, meant, spelled]})
    assert dungeon.load(GAME.load(), out, "log").difficulty == meant
    out.loc[1, "difficulty"] = "easy"
    with pytest.raises(dungeon.LogError, match="^log row 2: difficulty 'easy' is not one of leicht, normal, schwer$"):
        dungeon.load(GAME.load(), out, "log")


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
    assert s["play"].endswith(f"--config {tmp_path / 'fit' / 'population.toml'}"), s["play"]  # not a bare file name


def test_the_decision_log_is_the_runs_events(tmp_path):
    """``play dungeon --log``: one row per decision read off each run's event log (its rooms, holds, combos, rewards,
    buys as the replay records them), the outcome table beside it; ``fit`` reads the outcomes beside the log."""
    log = tmp_path / "d.csv"
    play = cli_here("play", "dungeon", "--policy", "vorschlag", "--n", "12", "--games-per-player", "3", "--log",
                    str(log), "--no-report", "--json")
    assert play.returncode == 0, play.stderr
    dec = pd.read_csv(log, keep_default_na=False)
    out = pd.read_csv(tmp_path / "d.outcomes.csv")
    assert len(out) == 12 and json.loads(play.stdout)["log"]["decisions"] == len(dec)
    cfg = GAME.load()
    opts = GAME.check_options({})
    seats = GAME.seat_policies("vorschlag", opts)
    for run in range(12):
        events = EVENTS.decode(GAME.replay_log(cfg, seats, kernel_seed(1), run, opts).sections[0].rows)
        kinds = Counter(e["event"] for e in events)
        mine = dec[(dec["player"] == f"p{run // 3:04d}") & (dec["game"] == run % 3)]["kind"].value_counts()
        for kind, event in (("path", "room"), ("combo", "combo"), ("reward", "reward"), ("buy", "buy"),
                            ("secret", "secret"), ("last_chance", "last_chance")):
            assert mine.get(kind, 0) == kinds.get(event, 0), (run, kind)
        rerolls = sum(1 for e in events if e["event"] == "roll" and e["roll"] > 1 and e["how"] == 0)
        assert mine.get("hold", 0) == rerolls, run
        assert int(out.loc[run, "rooms_cleared"]) <= mine["path"]
    # in the order played: a secret right after its Geheimnis card, both at the LP and coins the room was entered with
    secret = dec.index[dec["kind"] == "secret"]
    assert len(secret) and (dec.loc[secret - 1, "choice"].to_numpy() == "geheimnis").all()
    assert (dec.loc[secret - 1, ["lp", "coins"]].to_numpy() == dec.loc[secret, ["lp", "coins"]].to_numpy()).all()
    assert dec["lp"].min() >= 1 and dec.loc[dec.groupby(["player", "game"]).head(1).index, "lp"].eq(50).all()
    # a Lebenselixier heals when bought: the market's next buy sees the LP after it (the kernel logs it with the buy;
    # the log kept the LP the market was entered with)
    prev = dec.shift(1)
    next_buy = (prev["kind"] == "buy") & (dec["kind"] == "buy") & (prev["player"] == dec["player"]) & (
        prev["game"] == dec["game"])
    healed = next_buy & prev["choice"].str.startswith("Lebenselixier")
    assert healed.sum() >= 3 and (dec.loc[healed, "lp"] >= prev.loc[healed, "lp"]).all()
    assert (dec.loc[healed, "lp"] > prev.loc[healed, "lp"]).any()
    r = cli_here("fit", "dungeon", str(log), "--out", str(tmp_path / "fit"), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["games"] == 12


@pytest.mark.parametrize("how", ["no outcome row", "bad kind", "missing column", "die 9", "room 0", "lp 0",
                                 "a room past the run's end"])
def test_a_bad_dungeon_decision_log_is_refused(tmp_path, how):
    log = tmp_path / "d.parquet"
    assert cli_here("play", "dungeon", "--policy", "vorschlag", "--n", "4", "--log", str(log),
                    "--no-report").returncode == 0
    dec, out = pd.read_parquet(log), pd.read_parquet(tmp_path / "d.outcomes.parquet")
    if how == "no outcome row":
        out = out[out["player"] != "p0002"]
        words = f"row {int(dec.index[dec['player'] == 'p0002'][0]) + 1}: player 'p0002' game 0 has no row in"
    elif how == "bad kind":
        dec.loc[5, "kind"] = "dance"
        words = "row 6: kind 'dance' is not one of"
    elif how == "die 9":  # the fit reads no dice, but a log showing a 9 is not a Würfel Dungeon log
        row = int(dec.index[dec["kind"] == "hold"][0])
        dec.loc[row, "dice"] = "1 3 4 4 9"
        words = f"row {row + 1}: dice '1 3 4 4 9' are not faces 1 .. 6 apart by spaces (or -)"
    elif how == "room 0":
        dec.loc[2, "room"] = 0
        words = "row 3: room = 0: must be a whole number 1 or more"  # it read "outside 1..inf"
    elif how == "lp 0":  # 0 LP ends the run: no decision is taken there
        dec.loc[2, "lp"] = 0
        words = "row 3: lp = 0 is outside 1..1000000"
    elif how == "a room past the run's end":
        lost = out[out["win"] == 0].iloc[0]
        row = int(dec.index[(dec["player"] == lost["player"]) & (dec["game"] == lost["game"])][-1])
        dec.loc[row, "room"] = int(lost["rooms_cleared"]) + 2
        words = (f"row {row + 1}: room {int(lost['rooms_cleared']) + 2}: player {lost['player']!r} game "
                 f"{lost['game']} reached room {int(lost['rooms_cleared']) + 1} at most")
    else:
        dec = dec.drop(columns=["choice"])
        words = "missing column choice"
    dec.to_parquet(log, index=False)
    out.to_parquet(tmp_path / "d.outcomes.parquet", index=False)
    r = cli_here("fit", "dungeon", str(log), "--out", str(tmp_path / "fit"))
    assert r.returncode == 2 and r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
    assert words in r.stderr, r.stderr
    assert not (tmp_path / "fit").exists()
