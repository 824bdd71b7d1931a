"""The Dask path: a sweep sent to a LocalCluster (2 worker processes on loopback) equals the local run."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest

from sim.experiments.sweep import load_sweep, run_sweep
from tests.conftest import run_cli

distributed = pytest.importorskip("distributed")

SWEEP = """
game = "kniffel"
policies = ["random", "greedy"]
n = 1200
seed = 11
chunk = 400
[grid]
"bonus.value" = [25, 45]
"bonus.threshold" = [60, 63]
"""


@pytest.fixture
def cluster(dask_cluster):
    return dask_cluster


@pytest.mark.slow
def test_sweep_on_local_cluster_equals_local_run(cluster, tmp_path):
    sweep = tmp_path / "s.toml"
    sweep.write_text(SWEEP)
    with ThreadPoolExecutor(1) as pool:  # the command waits on the workers while this process plays the local run
        remote = pool.submit(run_cli, "sweep", str(sweep), "--out", str(tmp_path / "dask"), "--scheduler",
                             cluster.scheduler_address, "--no-report", "--json", timeout=300)
        local = run_sweep(load_sweep(sweep), tmp_path / "local", progress=False, report=False)
        res = remote.result()
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    assert s["chunks_run"] == 4 * 2 * 3 and s["rows"] == 8
    remote = pd.read_parquet(tmp_path / "dask" / "sweep.parquet")
    pd.testing.assert_frame_equal(local.table, remote)
    assert (tmp_path / "local" / "sweep.csv").read_bytes() == (tmp_path / "dask" / "sweep.csv").read_bytes()
    # the parts themselves (per-run tables) are identical too
    for part in sorted((tmp_path / "local" / "parts").glob("*.arrow")):
        pd.testing.assert_frame_equal(pd.read_feather(part), pd.read_feather(tmp_path / "dask" / "parts" / part.name))


def test_resume_on_the_cluster_after_a_lost_part(cluster, tmp_path):
    sweep = tmp_path / "s.toml"
    sweep.write_text(SWEEP)
    first = run_sweep(load_sweep(sweep), tmp_path / "out", scheduler=cluster.scheduler_address, progress=False,
                      report=False)
    (tmp_path / "out" / "rows" / "p0002-s01.json").unlink()  # as if killed before this point finished
    (tmp_path / "out" / "parts" / "p0002-s01-c00001.arrow").unlink()
    again = run_sweep(load_sweep(sweep), tmp_path / "out", resume=True, scheduler=cluster.scheduler_address,
                      progress=False, report=False)
    assert again.chunks_run == 1
    pd.testing.assert_frame_equal(first.table, again.table)


ANALYSIS = """
game = "dungeon"
policies = ["vorschlag"]
n = 300
seed = 5
chunk = 150
options = { difficulty = "leicht" }
[[variants]]
name = "seed flags"
[[variants]]
name = "every offered upgrade a trap"
set = { "analysis.trap_lift" = 1.0, "analysis.trap_pick_rate" = 0.0, "analysis.min_offers" = 1 }
"""


def test_analysis_fields_decide_the_metrics_locally_on_dask_and_after_resume(cluster, tmp_path):
    """Games hold no per-run state: an ``analysis.*`` field reaches the metrics wherever the runs were played
    (this process, Dask workers) and when a resumed sweep computes them from stored parts without playing."""
    from sim.core.batch import run_batch
    from sim.games import get_game

    sweep = tmp_path / "a.toml"
    sweep.write_text(ANALYSIS)
    local = run_sweep(load_sweep(sweep), tmp_path / "local", progress=False, report=False).table
    remote = run_sweep(load_sweep(sweep), tmp_path / "dask", scheduler=cluster.scheduler_address, progress=False,
                       report=False).table
    for row in (tmp_path / "dask" / "rows").glob("*.json"):
        row.unlink()  # as if killed after the parts were written: resume computes every row from the parts
    resumed = run_sweep(load_sweep(sweep), tmp_path / "dask", resume=True, progress=False, report=False)
    assert resumed.chunks_run == 0
    pd.testing.assert_frame_equal(local, remote)
    pd.testing.assert_frame_equal(local, resumed.table)
    g = get_game("dungeon")
    opts = g.check_options({"difficulty": "leicht"})
    traps = [c for c in local.columns if c.startswith("upgrade_") and c.endswith("_trap")]
    assert traps
    for i, sets in enumerate(([], ["analysis.trap_lift=1.0", "analysis.trap_pick_rate=0.0", "analysis.min_offers=1"])):
        cfg = g.load(None, sets)
        expected = g.metrics(run_batch(g, cfg, ["vorschlag"], 300, 5, opts, progress=False).table, opts, cfg)
        assert [local[c].iloc[i] for c in traps] == [expected[c]["value"] for c in traps]
    assert local[traps].iloc[1].sum() > local[traps].iloc[0].sum()  # the field changed the flags
