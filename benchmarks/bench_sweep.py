"""Sweep overhead: a 20-point sweep's wall time vs the same runs as one batch; local vs a Dask LocalCluster.

    .venv/bin/python benchmarks/bench_sweep.py [--n 20000] [--policy greedy] [--no-dask]

Kniffel, grid bonus.value (5 values) x bonus.threshold (4 values), ``n`` runs per point. The baseline plays
the same number of runs (20 n) as one batch of the default config and computes its metrics once. The sweep
additionally validates 20 configs, writes every chunk atomically (Arrow IPC + fsync), computes 20 metric rows
and the final table (report charts are not timed). Both are timed warm (kernels compiled, caches loaded).
Kniffel greedy (about 1M games/s) is the worst case for the fixed per-point cost; a second case times a
typical designer's sweep: Würfel Dungeon vorschlag over difficulty.leicht.hp x difficulty.leicht.damage.
Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim.core.batch import run_batch  # noqa: E402
from sim.experiments.sweep import run_sweep, sweep_from_dict  # noqa: E402
from sim.games import get_game  # noqa: E402
from sim.report.outputs import code_version  # noqa: E402

GRID = {"bonus.value": [25, 30, 35, 40, 45], "bonus.threshold": [56, 60, 63, 66]}


def sweep_spec(n: int, policy: str) -> dict:
    return {"game": "kniffel", "policies": [policy], "n": n, "seed": 1, "grid": GRID}


def timed_sweep(spec: dict, out: Path, scheduler: str | None = None) -> tuple[float, object]:
    t0 = time.perf_counter()
    sweep = sweep_from_dict(spec, "bench")  # validating the 20 configs is part of the sweep's time
    r = run_sweep(sweep, out, overwrite=True, scheduler=scheduler, progress=False, report=False)
    return time.perf_counter() - t0, r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000, help="runs per grid point")
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--no-dask", action="store_true", help="skip the LocalCluster comparison")
    args = ap.parse_args()
    game = get_game("kniffel")
    options = game.check_options({})
    cfg = game.load()
    points = 1
    for v in GRID.values():
        points *= len(v)
    tmp = Path(tempfile.mkdtemp(prefix="bench_sweep_"))

    # warm-up: compile / load the kernels and the solved tables once
    timed_sweep(sweep_spec(200, args.policy), tmp / "warm")
    run_batch(game, cfg, [args.policy], 200, 1, options, progress=False)

    t0 = time.perf_counter()
    b = run_batch(game, cfg, [args.policy], points * args.n, 1, options, chunk=game.chunk, progress=False)
    game.metrics(b.table, options, cfg)
    batch_s = time.perf_counter() - t0

    sweep_s, local = timed_sweep(sweep_spec(args.n, args.policy), tmp / "local")
    result = {
        "benchmark": "sweep_overhead",
        "game": "kniffel", "policy": args.policy, "points": points, "n_per_point": args.n,
        "runs_total": points * args.n,
        "batch_seconds": round(batch_s, 3),
        "sweep_seconds": round(sweep_s, 3),
        "sweep_over_batch": round(sweep_s / batch_s, 3),
        "target_sweep_over_batch": 1.15,
        "cpus": os.cpu_count(), "numba_threads": os.environ.get("NUMBA_NUM_THREADS", "default"),
        "python": platform.python_version(), "code_version": code_version(),
    }
    if not args.no_dask:
        from distributed import LocalCluster

        t0 = time.perf_counter()
        with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                          dashboard_address=None) as cluster:
            start_s = time.perf_counter() - t0
            timed_sweep(sweep_spec(200, args.policy), tmp / "dwarm", cluster.scheduler_address)
            dask_s, remote = timed_sweep(sweep_spec(args.n, args.policy), tmp / "dask", cluster.scheduler_address)
        result.update({
            "dask_workers": 2,
            "dask_cluster_start_seconds": round(start_s, 3),
            "dask_sweep_seconds": round(dask_s, 3),
            "dask_over_local": round(dask_s / sweep_s, 3),
            "dask_identical_to_local": bool(remote.table.equals(local.table)),
        })
    result["typical"] = typical_case(tmp)
    print(json.dumps(result))


DUNGEON_GRID = {"difficulty.leicht.hp": [0.95, 1.0, 1.05, 1.1, 1.15], "difficulty.leicht.damage": [1.0, 1.1, 1.2, 1.3]}


def typical_case(tmp: Path, n: int = 10_000) -> dict:
    """Würfel Dungeon vorschlag, 20 points x n runs: sweep vs one batch."""
    game = get_game("dungeon")
    cfg = game.load()
    options = game.check_options({"difficulty": "leicht"})
    spec = {"game": "dungeon", "policies": ["vorschlag"], "n": n, "seed": 1, "grid": DUNGEON_GRID,
            "options": {"difficulty": "leicht"}}
    timed_sweep({**spec, "n": 100}, tmp / "dwarm-typical")
    run_batch(game, cfg, ["vorschlag"], 200, 1, options, progress=False)
    t0 = time.perf_counter()
    b = run_batch(game, cfg, ["vorschlag"], 20 * n, 1, options, chunk=game.chunk, progress=False)
    game.metrics(b.table, options, cfg)
    batch_s = time.perf_counter() - t0
    sweep_s, _ = timed_sweep(spec, tmp / "typical")
    return {
        "game": "dungeon", "policy": "vorschlag", "points": 20, "n_per_point": n,
        "batch_seconds": round(batch_s, 3), "sweep_seconds": round(sweep_s, 3),
        "sweep_over_batch": round(sweep_s / batch_s, 3),
    }


if __name__ == "__main__":
    main()
