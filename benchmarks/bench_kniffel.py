"""Kniffel speed: solve time, games/s per policy, CLI cold/warm start, and the public peer side by side.

Run: ``python benchmarks/bench_kniffel.py [--games N] [--no-peer] [--solve-only | --play-only]``; records into
results.json (``--solve-only``: the solve figures and the whole-process solve alone, the section's other figures
kept; ``--play-only``: games/s per policy, printed only).
The whole process is ``dicesim solve kniffel --fresh`` with the compiled kernels cached, timed from outside
(median of several runs, with the load average: other jobs on the machine lengthen it).
The peer is yatzy-solver 1.0.0 (Rust core, Python bindings) installed from PyPI into
``.cache/peer-venv`` and run on the same machine in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PY = sys.executable

SOLVE_SNIPPET = """
import json, time
from sim.games import get_game
from sim.games.kniffel.config import freeze
from sim.games.kniffel.solve import solve
g = get_game("kniffel"); cfg = g.load("configs/kniffel/forced-joker.toml"); rp = freeze(cfg)
t = time.perf_counter(); solve(rp); first = time.perf_counter() - t
t = time.perf_counter(); E = solve(rp); warm = time.perf_counter() - t
print(json.dumps({"first_call_s": first, "warm_s": warm, "value": float(E[0])}))
"""

PEER_SNIPPET = """
import json, time, yatzy_solver as ys
v = ys.Variant("american+forced-joker")
t = time.perf_counter(); s = ys.Solver.build(v); build = time.perf_counter() - t
n = {games}
t = time.perf_counter(); r = s.simulate(n, seed=1); play = time.perf_counter() - t
print(json.dumps({{"solve_s": build, "value": s.state_value("upper 0 | filled -"),
                  "games_per_s": n / play, "mean": float(r["scores"].mean())}}))
"""


def run_py(code: str, env: dict | None = None, python: str = PY) -> dict:
    out = subprocess.run(
        [python, "-c", code], cwd=ROOT, capture_output=True, text=True, env={**os.environ, **(env or {})}, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def games_per_second(policy: str, n: int) -> dict:
    from sim.core.batch import run_batch
    from sim.games import get_game

    g = get_game("kniffel")
    cfg = g.load()
    g.prepare(cfg, [policy], {})
    run_batch(g, cfg, [policy], min(n, 20_000), 99, {"players": 1}, progress=False)  # compile/warm
    b = run_batch(g, cfg, [policy], n, 1, {"players": 1}, chunk=g.chunk, progress=False)
    return {"n": n, "games_per_s": round(n / b.seconds), "mean_score": round(float(b.table["score"].mean()), 4)}


def cli_start(cache_dir: str) -> float:
    t = time.perf_counter()
    subprocess.run(
        [
            str(Path(PY).parent / "dicesim"),
            "play",
            "kniffel",
            "--policy",
            "greedy",
            "--n",
            "1000",
            "--no-report",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        check=True,
        env={**os.environ, "NUMBA_CACHE_DIR": cache_dir},
    )
    return time.perf_counter() - t


WHOLE_PROCESS_TARGET_S = 1.5


def solve_whole_process(runs: int = 7) -> dict:
    """Wall time of ``dicesim solve kniffel --fresh`` (imports, cached kernels, the solve, the table written)."""
    cmd = [str(Path(PY).parent / "dicesim"), "solve", "kniffel", "--fresh", "--json"]
    env = {**os.environ, "NUMBA_NUM_THREADS": "2"}
    subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True, env=env)  # compile or load: warm
    times, cpus = [], []
    load = os.getloadavg()[0]
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True, env=env)
        times.append(time.perf_counter() - t)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
    times.sort()
    cpus.sort()
    return {
        "command": "dicesim solve kniffel --fresh (NUMBA_NUM_THREADS=2, kernels cached)",
        "median_s": round(times[len(times) // 2], 3),
        "best_s": round(times[0], 3),
        "cpu_s_median": round(cpus[len(cpus) // 2], 3),  # both threads: the figure other jobs change least
        "runs": runs,
        "target_s": WHOLE_PROCESS_TARGET_S,
        "meets_target": times[len(times) // 2] <= WHOLE_PROCESS_TARGET_S,
        "load_average": [round(load, 2), round(os.getloadavg()[0], 2)],
    }


def peer(games: int) -> dict:
    venv = ROOT / ".cache" / "peer-venv"
    py = venv / "bin" / "python"
    if not py.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", "yatzy-solver==1.0.0", "numpy"], check=True)
    two = run_py(PEER_SNIPPET.format(games=games), {"RAYON_NUM_THREADS": "2"}, python=str(py))
    one = run_py(PEER_SNIPPET.format(games=min(games, 20_000)), {"RAYON_NUM_THREADS": "1"}, python=str(py))
    return {
        "solve_s_2_cores": round(two["solve_s"], 3),
        "solve_s_1_core": round(one["solve_s"], 3),
        "games_per_s_2_cores": round(two["games_per_s"]),
        "value": two["value"],
        "mean": two["mean"],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--solve-only", action="store_true", help="only the solve figures (others kept as recorded)")
    ap.add_argument("--play-only", action="store_true",
                    help="only games/s per policy with the load average, printed and not recorded (A/B comparisons)")
    args = ap.parse_args()
    from benchmarks.record import RESULTS, record

    if args.play_only:
        load = os.getloadavg()[0]
        play = {p: games_per_second(p, args.games) for p in ("greedy", "random", "optimal")}
        print(json.dumps({"play": play, "load_average": [round(load, 2), round(os.getloadavg()[0], 2)]}, indent=2))
        return

    res: dict = {}
    if args.solve_only:
        old = json.loads(RESULTS.read_text()).get("kniffel", {}) if RESULTS.is_file() else {}
        res = {k: v for k, v in old.items() if k not in ("measured_at", "machine")}
    two = run_py(SOLVE_SNIPPET, {"NUMBA_NUM_THREADS": "2"})
    one = run_py(SOLVE_SNIPPET, {"NUMBA_NUM_THREADS": "1"})
    with tempfile.TemporaryDirectory() as tmp:
        cold = run_py(SOLVE_SNIPPET, {"NUMBA_CACHE_DIR": tmp, "NUMBA_NUM_THREADS": "2"})
    res["solve"] = {
        "value": two["value"],
        "warm_s_2_cores": round(two["warm_s"], 3),
        "warm_s_1_core": round(one["warm_s"], 3),
        "compile_s": round(cold["first_call_s"] - cold["warm_s"], 2),
        "load_average": round(os.getloadavg()[0], 2),
    }
    res["solve_whole_process"] = solve_whole_process()
    if args.solve_only:
        if "peer_yatzy_solver_1_0_0" in res:
            p = res["peer_yatzy_solver_1_0_0"]
            res["ratios_ours_over_peer"]["solve_speed_2_cores"] = round(p["solve_s_2_cores"] / two["warm_s"], 2)
            res["ratios_ours_over_peer"]["solve_speed_1_core"] = round(p["solve_s_1_core"] / one["warm_s"], 2)
        print(json.dumps(record("kniffel", res), indent=2))
        return
    res["play"] = {p: games_per_second(p, args.games) for p in ("greedy", "random", "optimal")}
    with tempfile.TemporaryDirectory() as tmp:
        res["cli"] = {
            "cold_start_s": round(cli_start(tmp), 2),
            "warm_start_s": round(cli_start(tmp), 2),
            "command": "dicesim play kniffel --policy greedy --n 1000 --no-report --json",
        }
    if not args.no_peer:
        p = peer(min(args.games, 200_000))
        res["peer_yatzy_solver_1_0_0"] = p
        res["ratios_ours_over_peer"] = {
            "solve_speed_2_cores": round(p["solve_s_2_cores"] / res["solve"]["warm_s_2_cores"], 2),
            "solve_speed_1_core": round(p["solve_s_1_core"] / res["solve"]["warm_s_1_core"], 2),
            "optimal_games_per_s": round(res["play"]["optimal"]["games_per_s"] / p["games_per_s_2_cores"], 2),
        }
    print(json.dumps(record("kniffel", res), indent=2))


if __name__ == "__main__":
    main()
