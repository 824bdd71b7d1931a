"""Fitting Dungeon24 players by their outcomes (issue 32): the histogram of (result, exchanges won) gives the level
back; the decision log is the runs' events with the board rebuilt before each decision.
A population of two groups (played as one, ``[skill] groups``) comes back as those two groups.
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from sim.core.limits import kernel_seed
from sim.core.skill import Group
from sim.games.dungeon24 import play
from sim.games.dungeon24.replay import EVENTS
from sim.players import dungeon24
from sim.players.dungeon24 import GAME
from tests.conftest import cli_here

PLAYERS, GAMES = 200, 5


def logged(*levels: float, seed: int = 7) -> pd.DataFrame:
    """The outcomes of ``PLAYERS`` players at one level, or of a population of them in equal groups."""
    cfg = GAME.load()
    one = {"level": levels[0]} if len(levels) == 1 else {"groups": [Group(level=lv, weight=1 / len(levels))
                                                                    for lv in levels]}
    cfg = cfg.model_copy(update={"skill": cfg.skill.model_copy(update={**one, "games_per_player": GAMES})})
    out, _ = dungeon24.record(cfg, dungeon24.POLICY, PLAYERS * GAMES, seed, {})
    return out


@pytest.mark.parametrize("levels", [(0.35,), (0.8,), (0.35, 0.8)])
def test_the_levels_come_back_within_their_intervals(levels):
    """One level: one group at it (the population's interval holds it); two levels side by side, half the players
    each: BIC picks two groups, each at its level with weight one half within their intervals."""
    cfg = GAME.load()
    log = logged(*levels)
    f = dungeon24.fit_outcomes(cfg, dungeon24.load(cfg, log, "log"))
    groups = f.chosen.groups()
    assert len(groups) == len(levels), [m.bic for m in f.mixtures]
    if len(levels) == 1:
        assert f.level.lo <= levels[0] <= f.level.hi, f.level
    for g, truth in zip(groups, levels, strict=True):
        assert g["ci95"][0] <= truth <= g["ci95"][1], groups
        assert g["weight_ci95"][0] <= 1 / len(levels) <= g["weight_ci95"][1], groups


@pytest.mark.parametrize("rules", [{}, {"fire_timing": "any_turn", "charge_every": 1},
                                   {"boss_loss": "defeat", "focus_cost": 2},
                                   {"focus_cost": 0, "boss_counter": "first"}])
def test_the_rebuilt_board_ends_as_the_batch_does(rules):
    """The board the log replays (the rule functions in ``play_game``'s order, the choices and dice from the events)
    ends each game exactly as the kernel's own state: every column of the batch's row, LP, wins, focus, deploys,
    counters, the end; and the choices it logs taken are as many as the kernel counted (deploys, charges fired,
    counters, focus rerolls), under rule variants that change when the questions are asked."""
    base = GAME.load()
    cfg = type(base).model_validate({**base.model_dump(mode="json"),
                                     "rules": {**base.rules.model_dump(mode="json"), **rules}})
    opts = GAME.check_options({"people": "untote", "opponent_people": "dunkelelfen"})
    seats = GAME.seat_policies("greedy,heuristic", opts)
    for run in range(40):
        rl = GAME.replay_log(cfg, seats, kernel_seed(5), run, opts)
        rows, S = dungeon24.game_rows(cfg, EVENTS.decode(rl.sections[0].rows), rl.facts["cards"], [1, 2], True)
        row = np.zeros(len(play.COLUMNS), np.int64)
        play.write_row(S, row)
        table = rl.table_rows[0]
        assert {c: int(v) for c, v in zip(play.COLUMNS, row, strict=True)} == {c: table[c] for c in play.COLUMNS}, run
        taken = Counter(f"{r[1]} {r[-1].split()[0]}" for r in rows)
        assert taken["action deploy"] == table["deploys0"] and taken["fire fire"] == table["ability_uses0"], run
        assert taken["counter boss"] == table["counters0"] and taken["reroll discard"] == table["focus0"], run
        assert taken["arrange " + rows[0][-1]] == 1, run


def test_play_logs_dungeon24_and_fit_reads_it(tmp_path):
    log = tmp_path / "d.csv"
    p = cli_here("play", "dungeon24", "--policy", "heuristic", "--n", "400", "--set", "skill.level=0.6",
                 "--games-per-player", "4", "--log", str(log), "--no-report", "--json")
    assert p.returncode == 0, p.stderr
    dec = pd.read_csv(log, keep_default_na=False)
    out = pd.read_csv(tmp_path / "d.outcomes.csv")
    assert len(out) == 400 and json.loads(p.stdout)["log"]["decisions"] == len(dec)
    assert set(dec["kind"]) <= set(dungeon24.KINDS) and (dec["kind"] == "arrange").sum() == 400
    r = cli_here("fit", "dungeon24", str(log), "--out", str(tmp_path / "fit"), "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s["game"] == "dungeon24" and s["players"] == 100 and s["games"] == 400 and s["regret"] is None
    assert s["level"]["ci95"][0] <= 0.6 <= s["level"]["ci95"][1], s["level"]
    g = s["goodness_of_fit"]
    assert sum(g["outcome_observed"]) == 400 and g["win_rate_observed"] == (out["result"] == "win").mean()
    assert (tmp_path / "fit" / "fit.html").is_file() and (tmp_path / "fit" / "population.toml").is_file()
    assert s["play"].endswith(f"--config {tmp_path / 'fit' / 'population.toml'}"), s["play"]  # not a bare file name


@pytest.mark.parametrize(("rules", "people"), [({"max_turns": 7}, ("untote", "dunkelelfen")),
                                               ({"max_turns": 12, "charge_every": 1}, ("dunkelelfen", "gruenlinge")),
                                               ({}, ("gruenlinge", "untote"))])
def test_every_simulated_game_ends_as_the_outcome_check_allows(rules, people):
    """The ends ``dungeon24_rows`` allows are the ends the kernel plays: a cap of 7 turns makes draws and games won
    on the last turn, curses end games at a turn's start, Auferstehung lets a player win more than six exchanges."""
    base = GAME.load()
    cfg = type(base).model_validate({**base.model_dump(mode="json"),
                                     "rules": {**base.rules.model_dump(mode="json"), **rules}})
    out, _ = dungeon24.record(cfg, "heuristic", 400, 3, {"people": people[0], "opponent_people": people[1]})
    assert dungeon24.load(cfg, out, "log").n_games == 400
    if rules.get("max_turns") == 7:  # draws, games won on the last turn, and the exchanges' bound reached
        assert (out["result"] == "draw").any() and ((out["result"] != "draw") & (out["turns"] == 7)).any()
        assert (out["score"] == (out["turns"] + 1) // 2).any()


@pytest.mark.parametrize(("row", "sets", "words"), [
    ({"score": 999}, [], "row 3: score 999: at most 4 (one exchange won per own turn: half of 7 turns)"),
    ({"score": 301, "turns": None}, [], "row 3: score 301: at most 300 (one exchange won per own turn: half of "
                                        "rules.max_turns 600)"),
    ({"result": "draw", "turns": 3}, [], "row 3: result draw with turns 3: a draw is the turn limit, turns "
                                         "600 (rules.max_turns)"),
    ({"result": "draw", "turns": 600}, ["rules.max_turns=500"], "row 3: turns 600 is outside 1..500 (rules.max_turns)"),
    ({"result": "win", "lp": 0, "opponent_lp": 17}, [], "row 3: lp 0 with result win: the winner keeps 1 LP or more"),
    ({"result": "loss", "lp": -3, "opponent_lp": 0}, [], "row 3: opponent_lp 0 with result loss: the winner"),
    ({"result": "draw", "lp": 0, "turns": 600}, [], "row 3: lp 0 with result draw: a draw leaves both 1 LP or more"),
    ({"lp": 25}, [], "row 3: lp 25 is more than the 24 LP a game starts with (start.lp; LP only fall)"),
    ({"opponent_lp": 31}, ["start.lp=30"], "row 3: opponent_lp 31 is more than the 30 LP"),
])
def test_an_end_the_rules_cannot_reach_is_refused(tmp_path, row, sets, words):
    """An outcome row no Dungeon24 game ends with (the bounds read from the rules: ``rules.max_turns``,
    ``start.lp``) is refused naming its row, column and value, before anything is written."""
    out = pd.DataFrame({"player": ["a", "a", "b", "b"], "game": [0, 1, 0, 1], "result": ["win", "loss", "loss", "win"],
                        "score": [4, 2, 3, 5], "lp": [9, -2, 0, 3], "opponent_lp": [-1, 5, 11, -4],
                        "turns": [9, 8, 7, 10]})
    for k, v in row.items():
        if v is None:
            out = out.drop(columns=[k])
        else:
            out.loc[2, k] = v
    path = tmp_path / "runs.csv"
    out.to_csv(path, index=False)
    sets = [a for s in sets for a in ("--set", s)]
    r = cli_here("fit", "dungeon24", str(path), "--out", str(tmp_path / "fit"), *sets)
    assert r.returncode == 2 and r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
    assert f"error: {path} {words}" in r.stderr, r.stderr
    assert not (tmp_path / "fit").exists()


def test_a_people_is_read_as_the_command_line_reads_it():
    """``--people Grünlinge`` plays gruenlinge: a log's people column takes the same spellings."""
    out = pd.DataFrame({"player": ["a", "a"], "game": [0, 1], "result": ["win", "loss"], "score": [4, 2],
                        "people": ["Grünlinge", "gruenlinge"], "opponent_people": ["UNTOTE", "Untote"]})
    o = dungeon24.load(GAME.load(), out, "log").options
    assert (o["people"], o["opponent_people"], o["opponent"]) == ("gruenlinge", "untote", "greedy")


@pytest.fixture(scope="module")
def small_log(tmp_path_factory):
    log = tmp_path_factory.mktemp("log") / "d.parquet"
    assert cli_here("play", "dungeon24", "--policy", "heuristic", "--n", "6", "--log", str(log),
                    "--no-report").returncode == 0
    return pd.read_parquet(log), pd.read_parquet(log.with_name("d.outcomes.parquet"))


def _first(dec: pd.DataFrame, kind: str, choice: str = "") -> int:
    return int(dec.index[(dec["kind"] == kind) & dec["choice"].str.startswith(choice)][0])


@pytest.mark.parametrize("how", ["attack a face-down card", "discard an active card", "counter with no boss down",
                                 "bad pyramid", "bad kind", "missing column", "no outcome row", "bad result",
                                 "two matchups", "a decision after the end"])
def test_a_bad_dungeon24_log_is_refused_naming_the_row(tmp_path, small_log, how):
    dec, out = small_log[0].copy(), small_log[1].copy()
    if how == "attack a face-down card":
        i = _first(dec, "action", "attack")
        pos = dec.loc[i, "pyramid"].split().index(next(p for p in dec.loc[i, "pyramid"].split() if p.endswith("d")))
        dec.loc[i, "choice"] = f"attack {pos + 1}"
        words = f"row {i + 1}: action 'attack {pos + 1}': an action is 'attack N'"
    elif how == "discard an active card":
        i = _first(dec, "block")
        dec.loc[i, "kind"], dec.loc[i, "choice"] = "reroll", "discard 1"
        dec.loc[i, "pyramid"] = "3/1a " + " ".join(dec.loc[i, "pyramid"].split()[1:])
        words = f"row {i + 1}: reroll 'discard 1': a reroll is 'discard N' with position N (1-6) face down"
    elif how == "counter with no boss down":
        i = _first(dec, "block")
        dec.loc[i, "kind"], dec.loc[i, "choice"] = "counter", "boss"
        dec.loc[i, "pyramid"] = " ".join(dec.loc[i, "pyramid"].split()[:5]) + " 6/4f"
        words = f"row {i + 1}: counter 'boss': a counter (boss or wait) needs the boss face down"
    elif how == "bad pyramid":
        dec.loc[3, "opponent_pyramid"] = "3/1a 2/2a"
        words = "row 4: a pyramid is six positions"
    elif how == "bad kind":
        dec.loc[5, "kind"] = "dance"
        words = "row 6: kind 'dance' is not one of"
    elif how == "missing column":
        dec = dec.drop(columns=["pyramid"])
        words = "missing column pyramid"
    elif how == "no outcome row":
        out = out[out["player"] != "p0002"]
        words = f"row {int(dec.index[dec['player'] == 'p0002'][0]) + 1}: player 'p0002' game 0 has no row in"
    elif how == "a decision after the end":
        dec.loc[7, "lp"] = 0  # "End: LP ≤ 0": a player at 0 LP decides nothing
        words = "row 8: lp = 0 is outside 1..1000000"
    elif how == "bad result":
        out.loc[2, "result"] = "tie"
        words = "row 3: result 'tie' is not one of win, loss, draw"
    else:
        out.loc[4, "opponent"] = "heuristic"
        words = "row 5: opponent heuristic after greedy: fit one matchup at a time"
    log = tmp_path / "d.parquet"
    dec.to_parquet(log, index=False)
    out.to_parquet(tmp_path / "d.outcomes.parquet", index=False)
    r = cli_here("fit", "dungeon24", str(log), "--out", str(tmp_path / "fit"))
    assert r.returncode == 2 and r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
    assert words in r.stderr and len(r.stderr) < 300, r.stderr
    assert not (tmp_path / "fit").exists()
