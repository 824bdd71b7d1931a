"""Würfel Dungeon throughput: full 10-room runs per second per policy; prints one JSON object.

Usage: ``NUMBA_NUM_THREADS=2 .venv/bin/python benchmarks/bench_dungeon.py [--n 200000] [--n-expectimax 10000]
[--difficulty leicht]``. Each policy is warmed up (compile or disk-cache load) on a few runs first;
the timed batch is ``sim.batch.run_batch`` as the CLI plays it, on all numba threads and then (a
quarter of the runs) on one thread.
"""

from __future__ import annotations

import argparse
import json
import time

import numba

TARGETS = {"vorschlag": 50_000, "greedy": 50_000, "expectimax": 2_000, "random": None}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--n-expectimax", type=int, default=10_000)
    ap.add_argument("--difficulty", default="leicht")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    t0 = time.perf_counter()
    from sim.batch import run_batch
    from sim.games.dungeon.game import GAME

    cfg = GAME.load()
    opts = {"difficulty": args.difficulty}
    run_batch(GAME, cfg, ["vorschlag"], 64, args.seed, opts, progress=False)
    cold = time.perf_counter() - t0
    result = {"game": "dungeon", "difficulty": args.difficulty, "threads": numba.get_num_threads(),
              "startup_seconds": round(cold, 2), "policies": {}}
    for policy, target in TARGETS.items():
        n = args.n_expectimax if policy == "expectimax" else args.n
        run_batch(GAME, cfg, [policy], 256, args.seed, opts, progress=False)  # warm
        b = run_batch(GAME, cfg, [policy], n, args.seed, opts, progress=False)
        rps = n / b.seconds
        threads = numba.get_num_threads()
        numba.set_num_threads(1)
        n1 = max(256, n // 4)
        b1 = run_batch(GAME, cfg, [policy], n1, args.seed, opts, progress=False)
        numba.set_num_threads(threads)
        result["policies"][policy] = {
            "n": n,
            "seconds": round(b.seconds, 3),
            "runs_per_second": round(rps, 1),
            "target": target,
            "meets_target": None if target is None else rps >= target,
            "runs_per_second_1_thread": round(n1 / b1.seconds, 1),
            "win_rate": round(float(b.table["win"].mean()), 4),
            "mean_turns": round(float(b.table["turns"].mean()), 2),
        }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
