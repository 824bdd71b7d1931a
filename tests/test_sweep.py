"""Sweeps: grid expansion, up-front validation, the tidy table, paired seeds, resume safety, threads, SIGKILL."""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from sim.core.batch import run_batch
from sim.core.config import ConfigError, DicesimError, config_hash
from sim.experiments.sweep import load_sweep, run_sweep
from sim.games import get_game
from tests.conftest import ROOT, cli_here, run_cli

# 4 points x 2 policies x 8 chunks = 64 atomic parts: long enough to be killed mid-way
SWEEP = """
game = "kniffel"
policies = ["random", "greedy"]
n = 2000
seed = 7
chunk = 250
[grid]
"bonus.value" = [25, 45]
"bonus.threshold" = [60, 63]
"""

SMALL = """
game = "kniffel"
policies = ["random", "greedy"]
n = 1500
seed = 3
chunk = 500
[grid]
"bonus.value" = [25, 35, 45]
"bonus.threshold" = [60, 63]
"""


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return run_cli(*args, env=env, timeout=300)


# --- the sweep file -------------------------------------------------------------------------------


def test_grid_expands_every_combination_in_file_order(tmp_path):
    s = load_sweep(write(tmp_path, SMALL))
    assert s.fields == ["bonus.value", "bonus.threshold"]
    assert [p.values for p in s.points] == [
        {"bonus.value": v, "bonus.threshold": t} for v in (25, 35, 45) for t in (60, 63)
    ]
    assert [p.cfg.bonus.value for p in s.points] == [25, 25, 35, 35, 45, 45]
    assert len({p.config_hash for p in s.points}) == 6
    assert s.plan == [("random", ["random"]), ("greedy", ["greedy"])]
    assert s.spans() == [(0, 500), (500, 500), (1000, 500)]
    assert len(s.tasks()) == 6 * 2 * 3
    assert s.base_values == {"bonus.value": 35, "bonus.threshold": 63}


def test_unquoted_dotted_keys_and_variants(tmp_path):
    s = load_sweep(write(tmp_path, 'game = "kniffel"\npolicies = ["greedy"]\nn = 10\n[grid]\nbonus.value = [1, 2]\n'))
    assert s.fields == ["bonus.value"]
    v = load_sweep(write(tmp_path, """
game = "kniffel"
policies = ["greedy"]
n = 10
[[variants]]
name = "official"
[[variants]]
name = "free joker, big bonus"
set = {"joker.mode" = "free", bonus = {value = 50}}
[[variants]]
name = "no joker file"
config = "configs/kniffel/no-joker.toml"
""", "v.toml"))
    assert [p.label for p in v.points] == ["official", "free joker, big bonus", "no joker file"]
    assert v.points[1].cfg.joker.mode == "free" and v.points[1].cfg.bonus.value == 50
    assert v.points[2].cfg.joker.mode == "off"
    assert v.fields == []


def test_fingerprint_ignores_titles_but_not_numbers(tmp_path):
    a = load_sweep(write(tmp_path, SMALL)).fingerprint()
    b = load_sweep(write(tmp_path, 'title = "x"\nmetrics = ["mean_score"]\n' + SMALL, "b.toml")).fingerprint()
    c = load_sweep(write(tmp_path, SMALL.replace("n = 1500", "n = 1501"), "c.toml")).fingerprint()
    d = load_sweep(write(tmp_path, SMALL.replace("[25, 35, 45]", "[25, 35, 46]"), "d.toml")).fingerprint()
    assert a == b and len({a, c, d}) == 3


BAD = [
    ('"bonus.valeu" = [1, 2]', "bonus.valeu"),
    ("", "[grid] is empty"),
    ('"bonus.value" = []', "bonus.value has no values"),
    ('"bonus.value" = [25, "many"]', "bonus.value"),
    ('"bonus.value" = 25', "bonus.value must be a list"),
    ('"bonus.value" = [25, 2000]', "bonus.value"),
    ('"joker.mode" = ["forced", "sometimes"]', "joker.mode"),
    ('"options.players" = [1, 9]', r"options.players = 9: --players"),
    ('"options.speed" = [1, 2]', "options.speed"),
]


@pytest.mark.parametrize(("grid", "needle"), BAD)
def test_bad_grids_name_the_field(tmp_path, grid, needle):
    with pytest.raises(ConfigError, match=needle.replace("[", r"\[").replace("]", r"\]")):
        load_sweep(write(tmp_path, f'game = "kniffel"\npolicies = ["greedy"]\nn = 10\n[grid]\n{grid}\n'))


@pytest.mark.parametrize(
    ("head", "needle"),
    [
        ('game = "kniffel"\npolicies = ["greedy", "superbot"]\nn = 10', "policies: unknown policy 'superbot'"),
        ('game = "schach"\npolicies = ["greedy"]\nn = 10', "game: unknown game 'schach'"),
        ('game = "kniffel"\npolicies = ["greedy"]\nn = "many"', "invalid value for n"),
        ('game = "kniffel"\npolicies = ["greedy"]\nn = 0', "invalid value for n"),
        ('game = "kniffel"\npolicies = ["greedy"]\nn = 10\nspeed = 3', "unknown sweep file field: speed"),
        ('game = "kniffel"\npolicies = []\nn = 10', "policies"),
        ('game = "kniffel"\npolicies = ["greedy"]\nn = 10\noptions = {players = 9}', r"\[options\]: --players"),
        ('game = "kniffel"\npolicies = ["greedy"]\nn = 10\noptions = {difficulty = "leicht"}', "difficulty"),
    ],
)
def test_bad_sweep_headers_name_the_field(tmp_path, head, needle):
    with pytest.raises(DicesimError, match=needle):
        load_sweep(write(tmp_path, head + '\n[grid]\n"bonus.value" = [25]\n'))


def test_bad_variants(tmp_path):
    base = 'game = "kniffel"\npolicies = ["greedy"]\nn = 10\n'
    with pytest.raises(ConfigError, match="variant 'a': unknown config field: joker.mood"):
        load_sweep(write(tmp_path, base + '[[variants]]\nname = "a"\nset = {"joker.mood" = "free"}\n'))
    with pytest.raises(ConfigError, match="used twice"):
        load_sweep(write(tmp_path, base + '[[variants]]\nname = "a"\n[[variants]]\nname = "a"\n'))
    with pytest.raises(ConfigError, match="not both"):
        load_sweep(write(tmp_path, base + '[grid]\n"bonus.value" = [1]\n[[variants]]\nname = "a"\n'))
    with pytest.raises(ConfigError, match="needs a"):
        load_sweep(write(tmp_path, base))


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ('policies = ["greedy"]\nn = 10\n[grid]\n"bonus.valeu" = [1, 2]', "bonus.valeu"),
        ('policies = ["greedy", "superbot"]\nn = 10\n[grid]\n"bonus.value" = [1]', "superbot"),
        ('policies = ["greedy"]\nn = 10\n[grid]\n"bonus.value" = [1, "x"]', "bonus.value"),
        ('policies = ["greedy"]\nn = 10\n[grid]\n', "[grid] is empty"),
    ],
)
def test_cli_bad_sweep_file_one_error_line_exit_2_no_work(tmp_path, body, needle):
    out = tmp_path / "out"
    res = cli_here("sweep", str(write(tmp_path, 'game = "kniffel"\n' + body + "\n")), "--out", str(out))
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0], res.stderr
    assert not out.exists()


# --- running ----------------------------------------------------------------------------------------


def test_table_rows_match_direct_batches_on_the_same_seed(tmp_path):
    """One row per (point, policy); every point played runs 0..n-1 with the sweep's seed (paired)."""
    s = load_sweep(write(tmp_path, SMALL))
    r = run_sweep(s, tmp_path / "out", progress=False, report=False)
    t = r.table
    assert len(t) == 12 and list(t["point"]) == [i // 2 for i in range(12)]
    assert list(t["policy"]) == ["random", "greedy"] * 6
    for col in ("label", "bonus.value", "bonus.threshold", "seats", "mean_score", "mean_score_ci95_low",
                "mean_score_ci95_high", "upper_bonus_rate_ci95_high", "score_p50", "config_hash", "seed", "n",
                "code_version", "game"):
        assert col in t.columns, col
    assert (t["seed"] == 3).all() and (t["n"] == 1500).all()
    g = get_game("kniffel")
    for i in (1, 10):  # (25, 63) greedy and (45, 60) random
        row = t.iloc[i]
        cfg = g.load(None, [f"bonus.value={row['bonus.value']}", f"bonus.threshold={row['bonus.threshold']}"])
        b = run_batch(g, cfg, [row["policy"]], 1500, 3, {"players": 1}, progress=False)
        m = g.metrics(b.table, {"players": 1}, cfg)
        assert row["config_hash"] == config_hash(cfg)
        for name in ("mean_score", "upper_bonus_rate", "score_p90", "kniffel_rate"):
            assert row[name] == m[name]["value"], name
        assert [row["mean_score_ci95_low"], row["mean_score_ci95_high"]] == m["mean_score"]["ci95"]
    # paired: with no bonus reachable, random play scores identically at every bonus value
    rnd = t[t["policy"] == "random"]
    if (rnd["upper_bonus_rate"] == 0).all():
        assert rnd["mean_score"].nunique() == 1
    csv = pd.read_csv(tmp_path / "out" / "sweep.csv")
    assert len(csv) == 12 and list(csv.columns) == list(t.columns)
    assert len(list((tmp_path / "out" / "parts").glob("*.arrow"))) == 36


SKILL_BY_DIFFICULTY = """
game = "dungeon"
policies = ["vorschlag"]
n = 300
seed = 5
[grid]
"skill.level" = [0.5, 1.0]
"options.difficulty" = ["leicht", "schwer"]
"""


def test_a_game_option_is_an_axis_of_the_grid(tmp_path):
    """``options.difficulty`` sweeps the option: each point plays the runs a batch with that option and the point's
    config plays (same seed), and the report draws the skill x difficulty heatmap."""
    s = load_sweep(write(tmp_path, SKILL_BY_DIFFICULTY))
    assert [p.label for p in s.points] == ["skill.level=0.5, options.difficulty=leicht",
                                           "skill.level=0.5, options.difficulty=schwer",
                                           "skill.level=1.0, options.difficulty=leicht",
                                           "skill.level=1.0, options.difficulty=schwer"]
    assert [s.options_of(i)["difficulty"] for i in range(4)] == ["leicht", "schwer"] * 2
    assert s.points[0].sets == {"skill.level": 0.5}
    r = run_sweep(s, tmp_path / "out", progress=False, report=True)
    g = get_game("dungeon")
    for i in (1, 2):
        row = r.table.iloc[i]
        cfg = g.load(None, [f"skill.level={row['skill.level']}"])
        opts = {"difficulty": row["options.difficulty"]}
        m = g.metrics(run_batch(g, cfg, ["vorschlag"], 300, 5, opts, progress=False).table, opts, cfg)
        assert row["win_rate"] == m["win_rate"]["value"]
    win = r.table.set_index("label")["win_rate"]
    assert win["skill.level=1.0, options.difficulty=leicht"] > win["skill.level=1.0, options.difficulty=schwer"]
    assert list((tmp_path / "out").glob("sweep_heatmap_*.png"))
    # a sweep without option axes keeps its fingerprint (stored sweeps still resume)
    assert "options" not in load_sweep(write(tmp_path, SMALL, "k.toml")).canonical()["points"][0]


PLAYERS_AXIS = """
game = "kniffel"
policies = ["greedy"]
n = 200
seed = 3
[grid]
"options.players" = [1, 3]
"""


def test_a_grid_over_the_seats_plays_each_points_seats(tmp_path):
    """``options.players`` changes the seats a policy fills: each point plays its own table size (it played the
    sweep's two seats before, and the kernel's table did not fit the point's columns), as a batch with that option
    does on the same seed."""
    s = load_sweep(write(tmp_path, PLAYERS_AXIS))
    assert [s.seats_of(i, 0) for i in range(2)] == [["greedy"], ["greedy"] * 3]
    r = run_sweep(s, tmp_path / "out", progress=False, report=True)
    assert list(r.table["seats"]) == ["greedy", "greedy,greedy,greedy"]
    page = (tmp_path / "out" / "report.html").read_text()
    assert "<b>options</b> players:" not in page and "<b>options</b> none" in page  # the axis, no fixed count
    g = get_game("kniffel")
    for i, players in enumerate((1, 3)):
        opts = g.check_options({"players": players})
        batch = run_batch(g, g.load(), ["greedy"] * players, 200, 3, opts, progress=False).table
        assert r.table.iloc[i]["mean_score"] == g.metrics(batch, opts, g.load())["mean_score"]["value"]


def test_a_grid_that_changes_what_is_compared_is_refused(tmp_path):
    """Dadox alone compares each policy by itself, at a table head to head: one row per policy cannot hold both."""
    text = 'game = "dadox"\npolicies = ["greedy", "threshold"]\nn = 50\n[grid]\n"options.players" = [1, 2]\n'
    with pytest.raises(ConfigError, match="these options compare greedy, threshold instead of greedy vs threshold"):
        load_sweep(write(tmp_path, text))


def test_keep_runs_false_drops_parts(tmp_path):
    s = load_sweep(write(tmp_path, SMALL.replace("n = 1500", "n = 600\nkeep_runs = false")))
    r = run_sweep(s, tmp_path / "out", progress=False, report=False)
    assert len(r.table) == 12
    assert not list((tmp_path / "out" / "parts").glob("*.arrow"))


def test_existing_out_needs_resume_and_refuses_a_changed_file(tmp_path):
    p = write(tmp_path, SMALL.replace("n = 1500", "n = 500"))
    out = tmp_path / "out"
    first = run_sweep(load_sweep(p), out, progress=False, report=False)
    with pytest.raises(DicesimError, match="--resume"):
        run_sweep(load_sweep(p), out, progress=False, report=False)
    again = run_sweep(load_sweep(p), out, resume=True, progress=False, report=False)
    assert again.chunks_run == 0 and again.chunks_skipped == 12
    pd.testing.assert_frame_equal(first.table, again.table)
    p.write_text(SMALL.replace("n = 1500", "n = 600"))
    with pytest.raises(DicesimError, match=r"sweep file changed .*n: 500 -> 600"):
        run_sweep(load_sweep(p), out, resume=True, progress=False, report=False)
    fresh = run_sweep(load_sweep(p), out, overwrite=True, progress=False, report=False)
    assert fresh.chunks_run == 24 and (fresh.table["n"] == 600).all()


def test_a_sweep_and_a_play_keep_out_of_each_others_folders(tmp_path):
    """A sweep into a play's folder overwrote its report.html beside the play's tables; a play into a sweep's folder
    the sweep's: each is refused before any play."""
    import sim

    p = write(tmp_path, SMALL.replace("n = 1500", "n = 100"))
    played, swept = tmp_path / "played", tmp_path / "swept"
    sim.play("kniffel", "greedy", n=20, out=played)
    with pytest.raises(DicesimError, match="holds the report of a play, compare or findings: give the sweep a folder"):
        run_sweep(load_sweep(p), played, progress=False, report=False)
    run_sweep(load_sweep(p), swept, progress=False, report=False)
    with pytest.raises(DicesimError, match="holds a sweep: give the report a folder of its own"):
        sim.play("kniffel", "greedy", n=20, out=swept)


def test_changed_base_config_is_refused_on_resume(tmp_path):
    cfg = tmp_path / "k.toml"
    cfg.write_text((ROOT / "configs/kniffel/default.toml").read_text())
    p = write(tmp_path, f'config = "{cfg}"\n' + SMALL.replace("n = 1500", "n = 200"))
    run_sweep(load_sweep(p), tmp_path / "out", progress=False, report=False)
    cfg.write_text(cfg.read_text().replace("kniffel = 50", "kniffel = 60"))
    with pytest.raises(DicesimError, match="sweep file changed"):
        run_sweep(load_sweep(p), tmp_path / "out", resume=True, progress=False, report=False)


def test_report_page_and_charts(tmp_path):
    s = load_sweep(write(tmp_path, 'metrics = ["mean_score", "upper_bonus_rate"]\n' + SMALL.replace("n = 1500",
                                                                                                     "n = 500")))
    r = run_sweep(s, tmp_path / "out", progress=False, report=True)
    out = tmp_path / "out"
    page = r.report.read_text()
    for png in ("sweep_line_bonus.value.png", "sweep_line_bonus.threshold.png", "sweep_heatmap_mean_score.png",
                "sweep_heatmap_upper_bonus_rate.png", "sweep_tornado.png", "overlays/score_distribution.png"):
        assert (out / png).is_file() and base64.b64encode((out / png).read_bytes()).decode() in page, png  # embedded
    assert "<img src='data:image/png;base64," in page and "<img src='sweep_" not in page
    # the overlay's curves are grid points: its caption said "per policy" over one policy's curves
    assert "How final scores spread per grid point" in page and "spread per policy" not in page
    assert "sweep.csv" in page and "Sensitivity" in page and "bonus.threshold" in page
    sens = pd.read_csv(out / "sensitivity.csv")
    assert set(sens["field"]) == {"bonus.value", "bonus.threshold"}
    assert set(sens["metric"]) == {"mean_score", "upper_bonus_rate"}


def test_variant_report(tmp_path):
    s = load_sweep(write(tmp_path, """
game = "kniffel"
policies = ["greedy"]
n = 400
[[variants]]
name = "official"
[[variants]]
name = "free joker"
set = {"joker.mode" = "free"}
"""))
    r = run_sweep(s, tmp_path / "out", progress=False)
    assert list(r.table["variant"]) == ["official", "free joker"]
    assert json.loads(r.table["set"].iloc[1]) == {"joker.mode": "free"}
    assert (tmp_path / "out" / "sweep_variants.png").is_file()


# --- identical tables: threads, SIGKILL + resume ----------------------------------------------------


def _sweep_cli(sweep: Path, out: Path, *extra: str, env: dict | None = None) -> dict:
    res = cli("sweep", str(sweep), "--out", str(out), "--no-report", "--json", *extra, env=env)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def _same_tables(a: Path, b: Path) -> None:
    pd.testing.assert_frame_equal(pd.read_parquet(a / "sweep.parquet"), pd.read_parquet(b / "sweep.parquet"))
    assert (a / "sweep.csv").read_bytes() == (b / "sweep.csv").read_bytes()


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> tuple[Path, Path]:
    """The sweep run uninterrupted with 2 threads (the reference for the identity tests)."""
    d = tmp_path_factory.mktemp("ref")
    sweep = write(d, SWEEP)
    s = _sweep_cli(sweep, d / "out", env={"NUMBA_NUM_THREADS": "2"})
    assert s["rows"] == 8 and s["chunks_run"] == 64
    return sweep, d / "out"


def test_one_thread_equals_two_threads(reference, tmp_path):
    """The reference played on 2 threads in its own process; this process plays it again on one thread."""
    import numba

    sweep, ref = reference
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        run_sweep(load_sweep(sweep), tmp_path / "t1", progress=False, report=False)
    finally:
        numba.set_num_threads(threads)
    _same_tables(ref, tmp_path / "t1")


def test_sigkill_mid_way_then_resume_equals_uninterrupted(reference, tmp_path):
    sweep, ref = reference
    out = tmp_path / "killed"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from sim.cli import main; main()", "sweep", str(sweep), "--out", str(out),
         "--no-report", "--json"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "NUMBA_NUM_THREADS": "1"},
    )
    parts = out / "parts"
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if parts.is_dir() and len(list(parts.glob("*.arrow"))) >= 6:
                break
            time.sleep(0.005)
        assert proc.poll() is None, "the sweep finished before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    done = len(list(parts.glob("*.arrow")))
    assert 6 <= done < 64 and not (out / "sweep.parquet").exists()
    s = _sweep_cli(sweep, out, "--resume")
    assert s["chunks_skipped"] >= done and s["chunks_run"] == 64 - s["chunks_skipped"]
    _same_tables(ref, out)
    assert not list(parts.glob(".*.tmp"))


def test_cli_resume_refuses_changed_sweep_file(reference, tmp_path):
    _, ref = reference
    changed = write(tmp_path, SWEEP.replace("seed = 7", "seed = 8"))
    res = cli_here("sweep", str(changed), "--out", str(ref), "--resume", "--no-report")
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2 and len(lines) == 1, res.stderr
    assert lines[0].startswith("error: the sweep file changed") and "seed: 7 -> 8" in lines[0]


def test_shipped_sweep_files_validate():
    """Every sweep file under configs/sweeps/ whose game is built validates (all its points' configs)."""
    from sim.games import available

    files = sorted((ROOT / "configs" / "sweeps").glob("*.toml"))
    assert files
    built = set(available())
    for path in files:
        if tomllib.loads(path.read_text())["game"] in built:
            assert load_sweep(path).points, path


def test_heatmap_panels_share_one_colour_scale(tmp_path, monkeypatch):
    """Each policy's panel had its own scale: Greedy's 60 % and Optimal's 90 % were both yellow."""
    from matplotlib.axes import Axes

    from sim.report.sweep import heatmap

    scales = []
    imshow = Axes.imshow
    monkeypatch.setattr(Axes, "imshow", lambda ax, *a, **k: scales.append((k.get("vmin"), k.get("vmax")))
                        or imshow(ax, *a, **k))
    rows = [{"policy": p, "a": a, "b": b, "rate": base + 0.01 * a + 0.02 * b}
            for p, base in (("greedy", 0.6), ("optimal", 0.9)) for a in (1, 2) for b in (1, 2)]
    heatmap(pd.DataFrame(rows), "a", "b", "rate", {"a": 1, "b": 1}, tmp_path / "h.png", "kniffel")
    assert scales == [(pytest.approx(0.63), pytest.approx(0.96))] * 2 and (tmp_path / "h.png").is_file()
