"""Tuning: several fields and targets on Kniffel reach their tolerances (checked by independent batches),
resume after SIGKILL replays the identical history, Dask gives the same search, bad input is one error line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd
import pytest

from sim.core.batch import run_batch
from sim.core.config import ConfigError, DicesimError, config_hash, read_toml
from sim.experiments.tune import config_toml, run_tune
from sim.experiments.tune_file import is_rate, load_tune
from sim.games import get_game
from tests.conftest import ROOT, cli_here, run_cli

# greedy earns the upper bonus in 28 % of games and averages 215 points: the bonus rate depends on the
# threshold alone (greedy ignores the bonus), 56 is the only threshold within 0.28 ± 0.01 at these seeds,
# and the value then moves the mean score by the rate per point
TWO = """
title = "kniffel two targets"
game = "kniffel"
n = 3000
seed = 1
chunk = 1000
[fields]
"bonus.threshold" = [40, 80]
"bonus.value" = [0, 120]
[[target]]
name = "bonus rate"
policy = "greedy"
metric = "upper_bonus_rate"
value = 0.28
tol = 0.01
[[target]]
name = "mean score"
policy = "greedy"
metric = "mean_score"
value = 215
tol = 0.5
"""

ONE = """
game = "kniffel"
n = 2000
seed = 4
method = "powell"
[fields]
"bonus.threshold" = [40, 80]
[[target]]
policy = "greedy"
metric = "upper_bonus_rate"
value = 0.2
tol = 0.012
"""


def write(tmp_path: Path, text: str, name: str = "t.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def greedy_metrics(cfg, n: int, seed: int) -> dict:
    g = get_game("kniffel")
    b = run_batch(g, cfg, ["greedy"], n, seed, {"players": 1}, progress=False)
    return g.metrics(b.table, {"players": 1}, cfg)


@pytest.fixture(scope="module")
def two(tmp_path_factory):
    """The two-target tune run once, uninterrupted (the reference for the resume test)."""
    d = tmp_path_factory.mktemp("two")
    path = write(d, TWO)
    r = run_tune(load_tune(path), d / "out")
    return path, d / "out", r


def test_two_fields_two_targets_reach_their_tolerances(two):
    _, out, r = two
    assert r.converged and r.stop == "every target within its tolerance"
    assert r.values["bonus.threshold"] == 56 and isinstance(r.values["bonus.value"], int)
    # independent check: the written config, loaded as a designer would, played afresh on the same seed
    g = get_game("kniffel")
    cfg = g.load(out / "tuned.toml")
    assert (cfg.bonus.threshold, cfg.bonus.value) == (r.values["bonus.threshold"], r.values["bonus.value"])
    assert cfg.scores == g.load().scores and cfg.joker == g.load().joker
    m = greedy_metrics(cfg, 3000, 1)
    for t, (metric, target, tol) in zip(r.targets, [("upper_bonus_rate", 0.28, 0.01), ("mean_score", 215, 0.5)],
                                        strict=True):
        assert t["metric"] == metric and t["tol"] == tol and t["within"]
        assert t["value"] == m[metric]["value"] and t["ci95"] == m[metric]["ci95"]
        assert abs(m[metric]["value"] - target) <= tol
    # the neighbouring thresholds miss the rate's tolerance: the answer is the only one
    for thr in (55, 57):
        other = greedy_metrics(g.load(None, [f"bonus.threshold={thr}"]), 3000, 1)
        assert abs(other["upper_bonus_rate"]["value"] - 0.28) > 0.01


def test_history_is_paired_and_complete(two):
    _, out, r = two
    h = pd.read_csv(out / "history.csv")
    assert list(h["evaluation"]) == list(range(len(h))) == list(r.history["evaluation"])
    assert 3 <= len(h) <= 40 and bool(h["within"].iloc[-1]) and not h["within"].iloc[:-1].any()
    assert r.best == len(h) - 1 and h["loss"].idxmin() == r.best
    # same seeds every evaluation: the same threshold gives exactly the same bonus rate whatever the value
    per_threshold = h.groupby("bonus.threshold")["t1_upper_bonus_rate"].nunique()
    assert (per_threshold == 1).all() and (h.groupby("bonus.threshold").size() > 1).any()
    # rows are what a direct batch gives at those values
    row = h.iloc[0]
    cfg = get_game("kniffel").load(None, [f"bonus.threshold={row['bonus.threshold']}",
                                          f"bonus.value={row['bonus.value']}"])
    assert row["t2_mean_score"] == greedy_metrics(cfg, 3000, 1)["mean_score"]["value"]
    assert (h["bonus.threshold"].between(40, 80) & h["bonus.value"].between(0, 120)).all()
    res = json.loads((out / "result.json").read_text())
    assert res["values"] == r.values and res["evaluations"] == len(h) and res["converged"]
    assert res["config_hash"] == config_hash(get_game("kniffel").load(out / "tuned.toml"))
    page = (out / "report.html").read_text()
    assert "tune_history.png" in page and (out / "tune_history.png").stat().st_size > 10_000
    assert "tuned.toml" in page and "bonus.threshold" in page and "upper_bonus_rate" in page
    # the targets in words and units (issue 31): the policy and metric by name, the rate in %, its tolerance in pp
    targets = page.split("<h2>Targets</h2>", 1)[1].split("<h2>", 1)[0]
    rate = r.targets[0]
    assert f"{rate['value'] * 100:.1f} %" in targets and "28.0 %" in targets and "± 1.0 pp" in targets
    assert ">Greedy</span>" in targets and ">upper bonus reached</span>" in targets and "215 points" in targets
    assert "upper sum that earns the bonus <code>bonus.threshold</code>" in page


@pytest.mark.slow
def test_sigkill_then_resume_gives_the_identical_history(two, tmp_path):
    path, ref, r = two
    out = tmp_path / "killed"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from sim.cli import main; main()", "tune", str(path), "--out", str(out), "--json",
         "--no-report"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "NUMBA_NUM_THREADS": "1"},
    )
    hist = out / "history"
    deadline = time.monotonic() + 180
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if hist.is_dir() and len(list(hist.glob("e*.json"))) >= 4:
                break
            time.sleep(0.005)
        assert proc.poll() is None, "the tune finished before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    done = len(list(hist.glob("e*.json")))
    assert 4 <= done < len(r.history) and not (out / "history.csv").exists()
    res = run_cli("tune", str(path), "--out", str(out), "--resume", "--json", timeout=300)
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    assert s["evals_reused"] == done and s["evals_played"] == len(r.history) - done
    assert (out / "history.csv").read_bytes() == (ref / "history.csv").read_bytes()
    assert (out / "tuned.toml").read_bytes() == (ref / "tuned.toml").read_bytes()
    assert s["values"] == r.values
    # an existing folder needs --resume or --overwrite; a changed tune file is refused on --resume
    again = cli_here("tune", str(path), "--out", str(out))
    assert again.returncode == 2 and "--resume" in again.stderr
    changed = write(tmp_path, TWO.replace("value = 215", "value = 216"), "changed.toml")
    res = cli_here("tune", str(changed), "--out", str(out), "--resume")
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: the tune file changed")


def test_a_search_out_of_evaluations_continues_with_a_larger_budget(two, tmp_path):
    _, ref, r = two
    short = run_tune(load_tune(write(tmp_path, "max_evals = 5\n" + TWO)), tmp_path / "out", report=False)
    assert short.stop == "max evaluations" and not short.converged and len(short.history) == 5
    pd.testing.assert_frame_equal(short.history[["bonus.threshold", "bonus.value"]],
                                  r.history[["bonus.threshold", "bonus.value"]].iloc[:5])
    more = run_tune(load_tune(write(tmp_path, "max_evals = 40\n" + TWO)), tmp_path / "out", resume=True,
                    report=False)
    assert more.evals_reused == 5 and more.evals_played == len(r.history) - 5 and more.converged
    assert (tmp_path / "out" / "history.csv").read_bytes() == (ref / "history.csv").read_bytes()


def test_powell_one_field_and_the_cli_summary(tmp_path):
    path = write(tmp_path, ONE)
    res = cli_here("tune", str(path), "--out", str(tmp_path / "out"), "--json", "--no-report")
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    assert s["method"] == "powell" and s["converged"] and s["stop"] == "every target within its tolerance"
    thr = s["values"]["bonus.threshold"]
    m = greedy_metrics(get_game("kniffel").load(Path(s["config"])), 2000, 4)["upper_bonus_rate"]
    assert m["value"] == s["targets"][0]["value"] and abs(m["value"] - 0.2) <= 0.012
    assert m["ci95"][0] < 0.2 < m["ci95"][1]
    assert 40 <= thr <= 80 and not (tmp_path / "out" / "report.html").exists()


def test_unreachable_target_reports_the_best_and_exits_1(tmp_path):
    text = ONE.replace('metric = "upper_bonus_rate"\nvalue = 0.2\ntol = 0.012', 'metric = "mean_score"\nvalue = 400')
    res = run_cli("tune", str(write(tmp_path, text.replace('method = "powell"', "max_evals = 6"))), "--out",
                  str(tmp_path / "out"), "--json", "--no-report")
    assert res.returncode == 1, res.stderr
    s = json.loads(res.stdout)
    assert not s["converged"] and s["evaluations"] <= 6
    assert s["stop"] == "max evaluations" or s["stop"].startswith("optimizer")
    assert s["targets"][0]["tol_how"] == "0.25 x the 95 % half-width at the start" and not s["targets"][0]["within"]
    h = pd.read_csv(tmp_path / "out" / "history.csv")
    assert len(h) == s["evaluations"] and not h["within"].any()
    assert s["values"]["bonus.threshold"] == h.loc[h["loss"].idxmin(), "bonus.threshold"]
    assert s["targets"][0]["value"] == h["t1_mean_score"].max()  # the closest to 400 is the highest mean
    keep = tmp_path / "out" / "notes.txt"
    keep.write_text("mine")
    again = cli_here("tune", str(tmp_path / "t.toml"), "--out", str(tmp_path / "out"), "--json", "--no-report",
                     "--overwrite")
    assert again.returncode == 1
    s2 = json.loads(again.stdout)
    assert s2["evals_played"] == s["evaluations"] and s2["evals_reused"] == 0 and keep.read_text() == "mine"
    assert pd.read_csv(tmp_path / "out" / "history.csv").equals(h)


def test_a_tune_that_cannot_take_a_tolerance_leaves_no_folder(tmp_path, monkeypatch):
    """A target with no interval at its start (known only once it played): refused, and the folder it began does
    not stay behind as a tune that a rerun must --overwrite and --resume refuses."""
    from sim.experiments import tune as T

    def none_at_the_start(tune, first):
        raise DicesimError("target 1 (x): mean_score has no interval at the start; give tol")

    monkeypatch.setattr(T, "tolerances", none_at_the_start)
    res = cli_here("tune", str(write(tmp_path, HEAD + GOOD_FIELDS + GOOD_TARGET)), "--out", str(tmp_path / "out"),
                   "--no-report")
    assert res.returncode == 2 and "has no interval at the start" in res.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


# --- bad input ----------------------------------------------------------------------------------------

HEAD = 'game = "kniffel"\nn = 200\n'
GOOD_FIELDS = '[fields]\n"bonus.value" = [0, 100]\n'
GOOD_TARGET = '[[target]]\npolicy = "greedy"\nmetric = "mean_score"\nvalue = 210\n'

CLI_BAD = [
    ('[fields]\n"bonus.valeu" = [0, 100]\n' + GOOD_TARGET, "unknown config field: bonus.valeu"),
    ('[fields]\n"bonus.value" = [50, 50]\n' + GOOD_TARGET, "bonus.value has empty bounds"),
    (GOOD_FIELDS + '[[target]]\npolicy = "greedy"\nmetric = "win_chance"\nvalue = 0.5\n',
     "unknown metric 'win_chance' for kniffel"),
    (GOOD_FIELDS + '[[target]]\npolicy = "greedy"\nmetric = "upper_bonus_rate"\nvalue = 1.2\n',
     "upper_bonus_rate is a rate: its target must lie in [0, 1]"),
    (GOOD_FIELDS + GOOD_TARGET + 'name = "bonus"\n' + GOOD_TARGET.replace("mean_score", "upper_bonus_rate")
     .replace("210", "0.3") + 'name = "bonus"\n', "target 2 (bonus): target 1 has this name too"),
    # no interval to take a tolerance from: it played, wrote its folder, then refused with exit 2
    (GOOD_FIELDS + GOOD_TARGET.replace("mean_score", "score_p50"),
     "score_p50 has no 95 % interval to take a tolerance from (a quantile or a spread): give tol"),
]


@pytest.mark.parametrize(("body", "needle"), CLI_BAD)
def test_cli_bad_tune_file_one_error_line_exit_2_no_work(tmp_path, body, needle):
    out = tmp_path / "out"
    res = cli_here("tune", str(write(tmp_path, HEAD + body)), "--out", str(out))
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2 and len(lines) == 1, res.stderr
    assert lines[0].startswith("error:") and needle in lines[0], lines[0]
    assert not out.exists() and res.stdout == ""


BAD = [
    ("[fields]\n" + GOOD_TARGET, "[fields] is empty"),
    ('[fields]\n"bonus.value" = [100, 0]\n' + GOOD_TARGET, "empty bounds"),
    ('[fields]\n"bonus.value" = [0]\n' + GOOD_TARGET, "must be [low, high]"),
    ('[fields]\n"bonus.value" = [0, 2000]\n' + GOOD_TARGET, "bonus.value"),
    ('[fields]\n"bonus.value" = [0, 10.5]\n' + GOOD_TARGET, "whole-numbered"),
    ('[fields]\n"joker.mode" = [0, 1]\n' + GOOD_TARGET, "not numeric"),
    ('[fields]\n"bonus" = [0, 1]\n' + GOOD_TARGET, "not numeric"),
    (GOOD_FIELDS + "[start]\n\"bonus.value\" = 101\n" + GOOD_TARGET, "within its bounds"),
    (GOOD_FIELDS + "[start]\n\"bonus.value\" = 50.5\n" + GOOD_TARGET, "whole-numbered: its start must be a whole"),
    (GOOD_FIELDS + "[start]\n\"bonus.threshold\" = 60\n" + GOOD_TARGET, "not a tuned field"),
    (GOOD_FIELDS, "target"),
    (GOOD_FIELDS + GOOD_TARGET.replace("greedy", "superbot"), "unknown policy 'superbot'"),
    (GOOD_FIELDS + GOOD_TARGET + "options = {players = 9}\n", "--players"),
    (GOOD_FIELDS + GOOD_TARGET + "options = {difficulty = \"normal\"}\n", "difficulty"),
    (GOOD_FIELDS + GOOD_TARGET + "set = {\"bonus.value\" = 3}\n", "set fixes bonus.value, which is tuned"),
    (GOOD_FIELDS + GOOD_TARGET + "tol = 0\n", "tol"),
    (GOOD_FIELDS + GOOD_TARGET + "speed = 3\n", "unknown tune file field: speed of target 1"),
    ('set = {"bonus.value" = 3}\n' + GOOD_FIELDS + GOOD_TARGET, "also fixed by set"),
    ('method = "bisect"\n' + GOOD_FIELDS + GOOD_TARGET, "method"),
]


@pytest.mark.parametrize(("body", "needle"), BAD)
def test_bad_tune_files_name_the_problem(tmp_path, body, needle):
    with pytest.raises(DicesimError, match=needle.replace("[", r"\[").replace("]", r"\]")):
        load_tune(write(tmp_path, HEAD + body), probe=False)


def test_groups_targets_by_options_and_fixed_overrides(tmp_path):
    t = load_tune(write(tmp_path, HEAD + GOOD_FIELDS + GOOD_TARGET
                        + GOOD_TARGET.replace("mean_score", "upper_bonus_rate").replace("210", "0.2")
                        + GOOD_TARGET.replace("greedy", "random")
                        + GOOD_TARGET + 'set = {"bonus.threshold" = 60}\n'
                        + GOOD_TARGET + "options = {players = 2}\n"), probe=False)
    assert [x.group for x in t.targets] == [0, 0, 0, 1, 2]
    assert t.groups[0].policies == ["greedy", "random"] and t.groups[1].sets == {"bonus.threshold": 60}
    assert t.fields[0].start == 35 and t.fields[0].integer
    assert is_rate("win_rate") and is_rate("win_rate_seat_0") and not is_rate("mean_score")


def test_shipped_tune_files_validate():
    """Every tune file under configs/tune/ whose game is built loads and validates (without playing)."""
    from sim.games import available

    files = sorted((ROOT / "configs" / "tune").glob("*.toml"))
    assert {f.name for f in files} >= {"dungeon-difficulty.toml", "kniffel-bonus.toml"}
    for path in files:
        if tomllib.loads(path.read_text())["game"] in available():
            t = load_tune(path, probe=False)
            assert t.fields and t.targets, path
    d = load_tune(ROOT / "configs/tune/dungeon-difficulty.toml", probe=False)
    assert [f.name for f in d.fields] == ["difficulty.normal.hp", "difficulty.schwer.hp"]
    assert [(x.metric, x.value, x.tol, x.options["difficulty"]) for x in d.targets] == [
        ("win_rate", 0.35, 0.005, "normal"), ("win_rate", 0.15, 0.005, "schwer")]
    assert all(f.low < f.start < f.high for f in d.fields)  # the current multipliers lie inside the bounds
    assert len(d.groups) == 2 and all(g.policies == ["vorschlag"] for g in d.groups)


@pytest.mark.parametrize("game", ["kniffel", "dungeon"])
def test_config_toml_round_trips(game):
    data = read_toml(ROOT / "configs" / game / "default.toml")
    assert tomllib.loads(config_toml(data)) == data


def test_rejects_resume_with_overwrite(tmp_path):
    res = cli_here("tune", str(write(tmp_path, HEAD + GOOD_FIELDS + GOOD_TARGET)), "--resume", "--overwrite")
    assert res.returncode == 2 and res.stderr.strip() == "error: --resume and --overwrite exclude each other"


def test_config_error_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="broken TOML"):
        load_tune(write(tmp_path, "game = "))


@pytest.mark.slow
def test_scheduler_runs_the_evaluations_on_dask_with_the_same_history(tmp_path, dask_cluster):
    """--scheduler: every evaluation's chunks go to a LocalCluster (2 worker processes on loopback); same search."""
    text = ONE.replace("n = 2000", "n = 1200\nchunk = 400").replace('method = "powell"', "").replace("0.012", "0.02")
    path = write(tmp_path, text)
    with ThreadPoolExecutor(1) as pool:  # the command waits on the workers while this process plays the local run
        remote = pool.submit(run_cli, "tune", str(path), "--out", str(tmp_path / "dask"), "--scheduler",
                             dask_cluster.scheduler_address, "--json", "--no-report", timeout=300)
        local = run_tune(load_tune(path), tmp_path / "local", report=False)
        res = remote.result()
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["values"] == local.values
    assert (tmp_path / "dask" / "history.csv").read_bytes() == (tmp_path / "local" / "history.csv").read_bytes()
    assert local.converged and len(local.history) >= 2


def test_the_tune_text_is_in_words_and_units(tmp_path):
    """The tuned fields by what they mean, each target by its name with its value in % and the tolerance in pp (it
    printed 'win_rate 0.3458 [0.3393, 0.3525] target 0.35 ± 0.005' for both targets alike)."""
    from tests.conftest import cli_here

    spec = tmp_path / "t.toml"
    spec.write_text('game = "kniffel"\nn = 300\nmax_evals = 4\n[fields]\n"bonus.value" = [0, 100]\n'
                    '[[target]]\nname = "greedy near 210"\npolicy = "greedy"\nmetric = "mean_score"\nvalue = 210\n'
                    'tol = 50\n')
    done = cli_here("tune", str(spec), "--out", str(tmp_path / "out"), "--no-report")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(x.startswith("  upper bonus points") and "(bonus.value) = " in x for x in lines), lines
    ok = next(x for x in lines if "greedy near 210:" in x)
    assert " mean score " in ok and " points [" in ok and ok.endswith("target 210 points ± 50 points"), ok


def test_a_damaged_tune_folder_is_refused_or_healed_never_a_traceback(tmp_path):
    """A garbage tune.json gave a JSONDecodeError traceback with --resume and --overwrite alike, a damaged history
    record a KeyError: --resume now refuses the first in one line, --overwrite starts over, and a damaged record is
    played again with one warning (the search asks for the same values: the same answer)."""
    path = write(tmp_path, ONE)
    out = tmp_path / "out"
    args = ("tune", str(path), "--out", str(out), "--json", "--no-report")
    first = cli_here(*args)
    assert first.returncode == 0, first.stderr
    (out / "tune.json").write_text("garbage")
    done = cli_here(*args, "--resume")
    said = (f"error: {out / 'tune.json'} is damaged (not JSON): --resume cannot continue from it; start over with "
            "--overwrite")
    assert done.returncode == 2 and done.stderr == said + "\n", done.stderr
    again = cli_here(*args, "--overwrite")
    assert again.returncode == 0 and json.loads(again.stdout)["values"] == json.loads(first.stdout)["values"]
    (out / "history" / "e0000.json").write_text("{}")
    healed = cli_here(*args, "--resume")
    assert healed.returncode == 0 and "e0000.json is damaged; removed it and playing that evaluation again" in \
        healed.stderr, healed.stderr
    assert json.loads(healed.stdout)["values"] == json.loads(first.stdout)["values"]
