"""Calibration: bracketing root search on paired seeds, for integer (Kniffel) and float fields."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from pydantic import Field

from sim.core import stats
from sim.core.batch import run_batch
from sim.core.config import ConfigError, DicesimError, Strict, parse_override, set_path, validate
from sim.core.schema import Column
from sim.experiments.calibrate import calibrate, field_bounds, parse_target
from sim.games import get_game
from sim.games.base import Game
from tests.conftest import cli_here


def uniforms(seed: int, runs: np.ndarray) -> np.ndarray:
    """A splitmix64 hash of (seed, run) as floats in [0, 1): one per run, independent of chunking."""
    with np.errstate(over="ignore"):
        z = runs * np.uint64(0x9E3779B97F4A7C15) + np.uint64(seed * 0xBF58476D1CE4E5B9 % 2**64)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * 2.0**-53


class Coin(Strict):
    p: float = Field(0.3, ge=0.0, le=1.0)


class CoinConfig(Strict):
    coin: Coin = Coin()
    flips: int = Field(1, ge=1, le=10)


class CoinGame(Game):
    """A game whose win rate is exactly the config's ``coin.p`` in expectation: a float field to tune."""

    name = "coin"
    title = "Coin"
    Config = CoinConfig
    policies = ("flip",)
    report_policies = ("flip",)
    columns = (Column("run", "int64", "run index"), Column("win", "bool", "the flip came up heads"))

    def load(self, path=None, overrides=None):
        data = CoinConfig().model_dump()
        for item in overrides or []:
            keys, value = parse_override(item)
            set_path(data, keys, value)
        return validate(CoinConfig, data)

    def play_chunk(self, cfg, policies, seed, start, count, options):
        u = uniforms(seed, np.arange(start, start + count, dtype=np.uint64))
        return [np.arange(start, start + count), u < cfg.coin.p]

    def metrics(self, table, options, cfg):
        return {"win_rate": stats.rate(table["win"].to_numpy())}


def test_parse_target_and_bounds():
    assert parse_target("win_rate=0.5") == ("win_rate", 0.5)
    # a rate's target as the pages print it: a percentage
    assert parse_target("win_rate=60 %") == parse_target("win_rate=60%") == ("win_rate", 0.6)
    assert parse_target("mean_score=212.5") == ("mean_score", 212.5)
    for bad, says in (("win_rate", "metric=value"), ("win_rate=lots", "a number or a percentage (60 %)"),
                      ("=3", "metric=value"), ("win_rate=60", "or is a percentage (60 %), got '60'"),
                      ("win_rate=120 %", "lies in [0, 1]"), ("mean_score=20 %", "mean_score' is not a rate"),
                      ("win_rate=nan", "finite"), ("mean_score=inf", "finite")):
        with pytest.raises(DicesimError, match=re.escape(says)):
            parse_target(bad)
    assert field_bounds(CoinConfig, "coin.p") == (0.0, 1.0)
    assert field_bounds(get_game("kniffel").Config, "bonus.threshold") == (1.0, 105.0)
    assert field_bounds(CoinConfig, "coin.nothing") == (-math.inf, math.inf)
    # an open end (gt=0): the nearest value the config accepts, never the end itself (a hp multiplier of 0 is refused)
    assert field_bounds(get_game("dungeon").Config, "difficulty.normal.hp") == (1e-6, 100.0)


def test_a_target_out_of_the_fields_reach_is_said_so():
    """The Würfel Dungeon's win rate on normal tops out near 40 % however weak the enemies (traps and events still
    kill): a 50 % target walks down to the smallest hp multiplier the config accepts and says the target is out of
    reach, instead of trying the multiplier 0 the config refuses ('invalid value … 0.0', after all that play). The
    input was good and the search played: exit 1, as tune's unreached target (2 is a refusal before any play)."""
    r = cli_here("calibrate", "dungeon", "--target", "win_rate=50 %", "--field", "difficulty.normal.hp", "--policy",
                 "vorschlag", "--difficulty", "normal", "--n", "400")
    assert r.returncode == 1, r.stderr
    said = r.stderr.strip().splitlines()[-1]
    assert said.startswith("error: wins 50.0 % not reached: difficulty.normal.hp 1e-06.."), said  # words, not code
    assert re.search(r" gave \d+\.\d\.\.\d+\.\d % \(\d+ tries\)", said), said  # what the search got, in its unit
    assert said.endswith("; give --lo and --hi to search a range of your own"), said  # the advice was cut off


def test_an_unreached_target_with_json_prints_its_one_object():
    """``--json`` promises one JSON object on stdout: an unreached target printed none (tune printed its own)."""
    r = cli_here("calibrate", "kniffel", "--target", "mean_score=-5", "--field", "bonus.value", "--policy", "greedy",
                 "--n", "200", "--json")
    assert r.returncode == 1 and r.stderr.startswith("error: mean score -5 points not reached"), r.stderr
    said = json.loads(r.stdout)
    assert said["converged"] is False and said["target"] == -5 and said["field"] == "bonus.value"
    assert said["error"] == r.stderr.strip().removeprefix("error: ")


def test_float_field_hits_target_within_tolerance():
    g = CoinGame()
    c = calibrate(g, "coin.p", "win_rate", 0.62, "flip", n=4000, seed=5, tol=0.002)
    assert c.converged and c.stop == "within tolerance"
    assert abs(c.estimate["value"] - 0.62) <= 0.002
    assert c.estimate["ci95"][0] < 0.62 < c.estimate["ci95"][1]
    assert 0.58 < c.value < 0.66  # the empirical distribution of 4000 uniforms is close to the identity
    lo, hi = c.field_ci95
    assert lo < c.value < hi and hi - lo < 0.06
    # paired: the estimate equals a fresh batch at the chosen value with the same seed
    b = run_batch(g, g.load(None, [f"coin.p={c.value!r}"]), ["flip"], 4000, 5, {}, progress=False)
    assert b.table["win"].mean() == c.estimate["value"]
    assert len(c.evaluations) <= 30


def test_float_bracket_from_lo_hi_and_errors():
    g = CoinGame()
    c = calibrate(g, "coin.p", "win_rate", 0.25, "flip", n=2000, lo=0.1, hi=0.9, tol=0.001)
    assert c.converged and abs(c.estimate["value"] - 0.25) <= 0.001
    with pytest.raises(DicesimError, match=r"wins 95.0 % not crossed: coin.p=0.1 gives .* %, coin.p=0.5 .* % \(both"):
        calibrate(g, "coin.p", "win_rate", 0.95, "flip", n=500, lo=0.1, hi=0.5)
    with pytest.raises(DicesimError, match="win_rate is a rate"):  # out of reach: refused before any batch
        calibrate(g, "coin.p", "win_rate", 1.5, "flip", n=200)
    with pytest.raises(ConfigError, match="coin.p"):
        calibrate(g, "coin.p", "win_rate", 0.5, "flip", n=200, lo=-1.0, hi=0.5)
    with pytest.raises(DicesimError, match="unknown metric 'loss_rate'"):
        calibrate(g, "coin.p", "loss_rate", 0.5, "flip", n=200)


def test_integer_field_on_kniffel_bracket_is_adjacent_and_paired():
    """Greedy's upper-bonus rate falls with the threshold: the answer is the closer of two neighbours."""
    g = get_game("kniffel")
    c = calibrate(g, "bonus.threshold", "upper_bonus_rate", 0.3, "greedy", n=3000, seed=2)
    assert c.converged and isinstance(c.value, int)
    a, b = c.bracket
    assert b - a == 1 or c.stop == "within tolerance"
    evals = {e.x: e.value for e in c.evaluations}
    assert (evals[a] - 0.3) * (evals[b] - 0.3) <= 0
    assert abs(c.estimate["value"] - 0.3) == min(abs(evals[a] - 0.3), abs(evals[b] - 0.3))
    cfg = g.load(None, [f"bonus.threshold={c.value}"])
    batch = run_batch(g, cfg, ["greedy"], 3000, 2, {"players": 1}, progress=False)
    assert g.metrics(batch.table, {"players": 1}, cfg)["upper_bonus_rate"]["value"] == c.estimate["value"]
    assert 50 <= c.value <= 62


def test_cli_calibrate_json_and_errors(calibrate_run):
    out, _ = calibrate_run
    for key in ("value", "estimate", "tolerance", "bracket", "field_ci95", "evaluations", "converged", "config_hash"):
        assert key in out
    assert out["field"] == "bonus.value" and out["metric"] == "mean_score" and out["converged"]
    assert len(out["estimate"]["ci95"]) == 2 and isinstance(out["value"], int)
    pd.DataFrame(out["evaluations"])  # one row per evaluation
    for args, needle in [
        (["--field", "bonus.valeu"], "unknown config field: bonus.valeu"),
        (["--field", "joker.mode"], "not numeric"),
        (["--field", "bonus.value", "--policy", "superbot"], "unknown policy 'superbot'"),
    ]:
        policy = [] if "--policy" in args else ["--policy", "greedy"]  # an option given twice is refused itself
        full = ["calibrate", "kniffel", "--target", "mean_score=210", *policy, "--n", "200", *args]
        res = cli_here(*full)
        lines = res.stderr.strip().splitlines()
        assert res.returncode == 2 and len(lines) == 1 and needle in lines[0], (args, res.stderr)
    json.dumps(out)


def test_the_fields_interval_stays_within_what_the_field_takes_and_the_start_is_kept():
    """A coin near certainty: the slope's interval ran past p = 1 (a hold threshold read [−11.57, 55.57] for a field of
    1 and more). It ends at the field's bounds; the answer keeps the config's value for reference and the CLI says the
    value to the decimals its interval supports."""
    g = CoinGame()
    c = calibrate(g, "coin.p", "win_rate", 0.995, "flip", n=400, seed=5, tol=0.002)
    lo, hi = c.field_ci95
    assert 0.0 <= lo <= c.value <= hi <= 1.0, c.field_ci95
    assert c.start == 0.3
    from sim.report.words import field_value_text

    assert field_value_text(0.983368, [0.9693, 0.9974]) == "0.98" and field_value_text(25, [20.5, 29.5]) == "25"
    assert field_value_text(0.983368, [math.nan, math.nan]) == "0.983368"


def test_a_value_that_flips_the_seeds_difficulty_order_is_noted():
    """Calibrating Normal's enemy LP factor to a win rate moved it below Leicht's without a word (the seed's table
    raises every factor from Leicht to Schwer); the answer, its JSON and its page now say so."""
    g = get_game("dungeon")
    assert g.load(None, []).notes() == []
    notes = g.load(None, ["difficulty.normal.hp=1.0", "difficulty.schwer.points=1.1"]).notes()
    assert notes == ["Normal's enemy LP factor 1 (difficulty.normal.hp) lies below Leicht's 1.05: the seed's table "
                     "raises it from Leicht to Normal to Schwer",
                     "Schwer's score factor 1.1 (difficulty.schwer.points) lies below Normal's 1.25: the seed's table "
                     "raises it from Leicht to Normal to Schwer"]
    res = cli_here("calibrate", "dungeon", "--difficulty", "normal", "--target", "win_rate=0.4", "--field",
                   "difficulty.normal.hp", "--policy", "vorschlag", "--n", "200", "--lo", "0.6", "--hi", "1.0",
                   "--tol", "0.2")
    lines = [ln.strip() for ln in res.stdout.splitlines() if ln.strip().startswith("note: Normal")]
    assert len(lines) == 1 and "(difficulty.normal.hp) lies below Leicht's 1.05" in lines[0], res.stdout
    # the bracket in the interval line's digits (it read "bracket [1.01235, 1.03441]")
    tight = cli_here("calibrate", "dungeon", "--difficulty", "normal", "--target", "win_rate=0.35", "--field",
                     "difficulty.normal.hp", "--policy", "vorschlag", "--n", "1000")
    assert tight.returncode == 0, tight.stderr
    bracket = re.search(r"· bracket \[([\d.]+), ([\d.]+)\]$", tight.stdout, re.M)
    assert bracket and all(len(b.replace(".", "").lstrip("0")) <= 4 for b in bracket.groups()), tight.stdout


def test_a_list_of_known_policies_where_one_belongs_is_said_so():
    """``calibrate --policy hold-20,optimal-turn`` read "unknown policy 'hold-20,optimal-turn' (choose from hold-20,
    optimal-turn, …)", listing both names it refused."""
    from sim.games import GAMES

    fifth = next(g for g in GAMES if g not in ("kniffel", "dungeon", "dadox", "dungeon24"))  # the one-die game
    done = cli_here("calibrate", fifth, "--field", "goal.target", "--target", "win_rate_seat_0=0.5", "--policy",
                    "hold-20,optimal-turn", "--n", "100")
    assert done.returncode == 2 and done.stderr == ("error: 'hold-20,optimal-turn' names 2 policies where one belongs "
                                                    "(one seat's; a two-player game's other seat is --opponent)\n")
    done = cli_here("calibrate", fifth, "--field", "goal.target", "--target", "win_rate_seat_0=0.5", "--policy",
                    "hold-20,nosuch", "--n", "100")
    assert done.returncode == 2 and "unknown policy" in done.stderr, done.stderr


def test_a_quantiles_progress_lines_have_no_interval():
    """A quantile has no interval (``check`` and the pages show it bare); the search's progress read
    'score, 50th percentile 208 points [208, 208]', an interval of nothing."""
    r = cli_here("calibrate", "kniffel", "--policy", "greedy", "--n", "50", "--field", "bonus.value",
                 "--target", "score_p50=210", "--max-evals", "3")
    lines = [ln for ln in r.stderr.splitlines() if "  ->  " in ln]
    assert lines and all(re.fullmatch(r"  bonus\.value = +\d+  ->  score, 50th percentile \d+ points", ln)
                         for ln in lines), r.stderr
