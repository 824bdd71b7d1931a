"""Dadox speed: turns per second per policy, and the time to solve optimal-turn and optimal-win.

Usage: ``NUMBA_NUM_THREADS=2 .venv/bin/python benchmarks/bench_dadox.py [--n 200000] [--n-win 100000]
[--win-target 10000] [--no-win]``; prints one JSON object (``run_all.py dadox`` records it). Each
policy is warmed up first (compile or disk-cache load); a timed batch is ``sim.core.batch.run_batch`` as
the CLI plays it, two-player games under the default rules, on all numba threads and then (a quarter
of the games) on one. optimal-win is solved from scratch (no disk cache) for the given target.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time

import numba

TURN_TARGETS = {"threshold": 10_000_000, "optimal-win": 1_000_000}
SOLVE_TARGETS = {"optimal-turn": 1.0, "optimal-win": 30.0}


def turns_per_second(game, cfg, policy: str, n: int, seed: int) -> dict:
    from sim.core.batch import run_batch

    opts = game.check_options({"players": 2})
    seats = [policy, policy]
    run_batch(game, cfg, seats, 256, seed, opts, progress=False)  # warm
    b = run_batch(game, cfg, seats, n, seed, opts, progress=False)
    turns = int(b.table.loc[b.table["seat"] == 0, "game_turns"].sum())
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    n1 = max(256, n // 4)
    b1 = run_batch(game, cfg, seats, n1, seed, opts, progress=False)
    numba.set_num_threads(threads)
    turns1 = int(b1.table.loc[b1.table["seat"] == 0, "game_turns"].sum())
    out = {
        "games": n,
        "turns": turns,
        "seconds": round(b.seconds, 3),
        "turns_per_second": round(turns / b.seconds),
        "games_per_second": round(n / b.seconds, 1),
        "turns_per_second_1_thread": round(turns1 / b1.seconds),
    }
    if policy in TURN_TARGETS:
        out["target"] = TURN_TARGETS[policy]
        out["meets_target"] = out["turns_per_second"] >= TURN_TARGETS[policy]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200_000, help="games per plain policy")
    ap.add_argument("--n-win", type=int, default=100_000, help="games of optimal-win (plan table built in the warm-up)")
    ap.add_argument("--win-target", type=int, default=10_000)
    ap.add_argument("--no-win", action="store_true", help="skip solving optimal-win")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    t0 = time.perf_counter()
    from sim.games.dadox.config import freeze
    from sim.games.dadox.game import GAME
    from sim.games.dadox.solve import solve_turn
    from sim.games.dadox.tables import build_tables

    cfg = GAME.load()
    rp = freeze(cfg)
    build_tables(rp)
    solve_turn(rp, cfg.solver.turn_cap)
    startup = time.perf_counter() - t0
    result: dict = {"game": "dadox", "config": "default", "players": 2, "threads": numba.get_num_threads(),
                    "startup_seconds": round(startup, 2), "load_average_before": round(os.getloadavg()[0], 2),
                    "policies": {}, "solve": {}}

    t1 = time.perf_counter()
    ts = solve_turn(rp, cfg.solver.turn_cap)
    secs = time.perf_counter() - t1
    result["solve"]["optimal-turn"] = {
        "seconds": round(secs, 4), "target_seconds": SOLVE_TARGETS["optimal-turn"],
        "meets_target": secs < SOLVE_TARGETS["optimal-turn"], "expected_turn_score": round(float(ts.value[1]), 4),
        "states": int((ts.cap + 1) * 12),
    }
    for policy in ("threshold", "greedy", "optimal-turn", "random"):
        result["policies"][policy] = turns_per_second(GAME, cfg, policy, args.n, args.seed)

    if not args.no_win:
        wcfg = GAME.load(None, [f"goal.target={args.win_target}"])
        rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        cpu0 = time.process_time()
        res = GAME.solve(wcfg, {"objective": "win", "no_cache": True})
        cpu = time.process_time() - cpu0  # both threads' CPU seconds: what other jobs on the machine change least
        rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        result["solve"]["optimal-win"] = {
            "target_points": args.win_target,
            "seconds": round(res["seconds"], 1),
            "cpu_seconds": round(cpu, 1),
            "target_seconds": SOLVE_TARGETS["optimal-win"],
            "meets_target": res["seconds"] < SOLVE_TARGETS["optimal-win"],
            "first_player_win_probability": round(res["first_player_win_probability"], 6),
            **{k: res[k] for k in ("player_states", "states", "turn_states", "iterations", "residual", "tolerance",
                                   "score_range", "memory_mb", "floor_share")},
            "peak_rss_mb": round(max(rss0, rss1) / 1024, 1),
        }
        if args.win_target == cfg.goal.target:
            t2 = time.perf_counter()
            # the plan table the policy reads, as a long play builds it before its first chunk (``winplan``)
            sol = GAME.solved(cfg, ["optimal-win", "optimal-win"], runs=10**9)
            result["solve"]["optimal-win"]["plan_seconds"] = round(time.perf_counter() - t2, 1)
            result["solve"]["optimal-win"]["plan_mb"] = round(sol.plan.nbytes / 2**20, 1)
            result["policies"]["optimal-win"] = turns_per_second(GAME, cfg, "optimal-win", args.n_win, args.seed)
    result["load_average_after"] = round(os.getloadavg()[0], 2)
    result["note"] = "load average: other jobs sharing the 2 cores (2 means both busy before this one)"
    print(json.dumps(result))


if __name__ == "__main__":
    main()
