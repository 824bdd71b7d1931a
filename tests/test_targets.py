"""Target bands: verdicts with intervals, shared batches, exit 1 with a table of the failing bands."""

from __future__ import annotations

import json
import re

import pytest

from sim.core.config import ConfigError
from sim.experiments.targets import check_targets, load_targets, verdict
from tests.conftest import ROOT, cli_here, run_cli


@pytest.mark.parametrize(
    ("value", "ci", "lo", "hi", "status", "failing", "strict_failing"),
    [
        (0.55, [0.53, 0.57], 0.50, 0.65, "pass", False, False),
        (0.51, [0.49, 0.53], 0.50, 0.65, "pass (unsure)", False, True),
        (0.49, [0.47, 0.51], 0.50, 0.65, "fail (unsure)", True, True),
        (0.40, [0.38, 0.42], 0.50, 0.65, "fail", True, True),
        (0.70, [0.66, 0.74], 0.50, 0.65, "fail", True, True),
        (0.25, [0.22, 0.28], None, 0.30, "pass", False, False),
        (0.29, [0.27, 0.31], None, 0.30, "pass (unsure)", False, True),
        (0.31, [0.31, 0.31], None, 0.30, "fail", True, True),  # an interval of no width
        # a metric without an interval (a quantile): never sure, so strict fails it (it read [202, 202], a pass)
        (202.0, None, 190.0, 210.0, "pass (no interval)", False, True),
        (212.0, None, 190.0, 210.0, "fail (no interval)", True, True),
        (9.00, [8.00, 10.0], 5.0, None, "pass", False, False),
    ],
)
def test_verdicts(value, ci, lo, hi, status, failing, strict_failing):
    assert verdict(value, ci, lo, hi, strict=False) == (status, failing)
    # under --strict a band counted failing never reads "pass" (it read "pass (no interval)" in the failing list)
    strict = status.replace("pass (", "fail (strict: ") if strict_failing else status
    assert verdict(value, ci, lo, hi, strict=True) == (strict, strict_failing)
    assert strict.startswith("fail") == strict_failing


TARGETS = """
game = "kniffel"
n = 2000
seed = 4

[[target]]
name = "greedy averages 200-215"
policy = "greedy"
metric = "mean_score"
min = 200
max = 215

[[target]]
name = "greedy kniffel rate at most 10 %"
policy = "greedy"
metric = "kniffel_rate"
max = 0.10

[[target]]
name = "random scores at least 100"
policy = "random"
metric = "mean_score"
min = 100

[[target]]
name = "with a 45 bonus greedy averages 200-215"
policy = "greedy"
set = {"bonus.value" = 45}
metric = "mean_score"
min = 200
max = 215
"""


def test_targets_share_batches_and_judge_each_band(tmp_path):
    p = tmp_path / "t.toml"
    p.write_text(TARGETS)
    bands = load_targets(p)
    assert len({b.key() for b in bands}) == 3  # the first two share one greedy batch
    vs = check_targets(bands)
    assert [v.failing for v in vs] == [False, True, True, False]
    assert vs[1].status == "fail" and vs[1].value > 0.1 and vs[1].ci95[0] > 0.1
    assert vs[0].config_hash != vs[3].config_hash and vs[0].n == 2000 and vs[0].seed == 4


def test_cli_check_exit_1_and_failing_table(tmp_path):
    p = tmp_path / "t.toml"
    p.write_text(TARGETS)
    ok = tmp_path / "ok.toml"
    ok.write_text(TARGETS.split("[[target]]\nname = \"greedy kniffel")[0])
    res = run_cli("check", str(p), "--out", str(tmp_path / "v.csv"))  # a real process: its exit code 1
    good = cli_here("check", str(ok), "--json")
    assert res.returncode == 1, res.stderr
    failing = res.stdout.split("2 failing:")[1]
    assert "greedy kniffel rate at most 10 %" in failing and "random scores at least 100" in failing
    assert "greedy averages 200-215" not in failing
    assert "2 of 4 bands hold" in res.stdout
    # in words and units, as the reports read: a rate's band and estimate in %, a score in points
    rate = next(line for line in failing.splitlines() if "kniffel rate at most" in line)
    v = check_targets(load_targets(p))[1]
    lo, hi = (x * 100 for x in v.ci95)
    assert " ".join(rate.split()[-16:]) == (f"Kniffel Greedy players: 1 at least one Kniffel rolled ≤ 10.0 % "
                                            f"{v.value * 100:.1f} % [{lo:.1f}, {hi:.1f}]"), rate  # the setting too
    assert "mean_score" not in res.stdout and "200 points .. 215 points" in res.stdout
    page = (tmp_path / "v.html").read_text()
    assert "≤ 10.0 %" in page and "kniffel_rate" not in page.replace("title='kniffel_rate'", "")
    assert (tmp_path / "v.csv").read_text().count("\n") == 5
    assert good.returncode == 0, good.stderr
    out = json.loads(good.stdout)
    assert out["passed"] == 1 and out["failed"] == 0 and out["verdicts"][0]["status"].startswith("pass")
    assert out["verdicts"][0]["setting"] == "players: 1" and "<td>players: 1</td>" in page


def test_bad_targets_files(tmp_path):
    cases = [
        (TARGETS.replace('policy = "random"', 'policy = "superbot"'), "target 3 (random scores at least 100)"),
        (TARGETS.replace('"bonus.value" = 45', '"bonus.valeu" = 45'), "unknown config field: bonus.valeu"),
        (TARGETS.replace("max = 0.10", ""), "give min, max or both"),
        (TARGETS.replace('metric = "kniffel_rate"', 'metric = "kniffel_rate"\ncolour = 1'),
         "unknown targets file field: colour of target 2"),  # counted from 1, as the file's own messages count
        (TARGETS.replace('game = "kniffel"', 'game = "schach"'), "unknown game 'schach'"),
    ]
    for text, needle in cases:
        p = tmp_path / "bad.toml"
        p.write_text(text)
        with pytest.raises(ConfigError, match=re.escape(needle)):
            load_targets(p)
    p.write_text(TARGETS.replace('metric = "kniffel_rate"', 'metric = "kniffel_rat"'))
    res = cli_here("check", str(p))
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2 and len(lines) == 1 and "unknown metric 'kniffel_rat'" in lines[0], res.stderr


def test_shipped_targets_files_validate():
    """Every targets file under configs/targets/ whose game is built validates."""
    import tomllib

    from sim.games import available

    built = set(available())
    files = sorted((ROOT / "configs" / "targets").glob("*.toml"))
    assert files
    for path in files:
        if tomllib.loads(path.read_text()).get("game") in built:
            assert load_targets(path), path


def test_a_files_whole_numbered_option_reads_as_a_count_in_every_kind_of_file(tmp_path):
    """``players = 2.0`` was taken in a sweep's [options] and refused in a targets or tune file ("--players must be
    int"): every file reads it as the count it is; a fraction is refused in the file's words."""
    head = 'game = "kniffel"\nn = 40\n[options]\nplayers = {}\n'
    band = '[[target]]\nname = "a"\npolicy = "greedy"\nmetric = "mean_score"\nmin = 0\nmax = 400\n'
    for players, ok in (("2.0", True), ("2.5", False)):
        f = tmp_path / f"t{players}.toml"
        f.write_text(head.format(players) + band, encoding="utf-8")
        done = cli_here("check", str(f), "--out", str(tmp_path / f"v{players}.csv"))
        if ok:
            assert done.returncode == 0, done.stderr
        else:
            assert done.returncode == 2 and "options: players = 2.5: must be a whole number" in done.stderr, done.stderr
