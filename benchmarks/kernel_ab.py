"""A/B of one game's kernel modules between two checkouts: their cold compile and the game's throughput, alternated.

Run: ``python benchmarks/kernel_ab.py --game kniffel --modules sim.games.kniffel.play --trees A B [C ...]
[--policies greedy,optimal,optimal@0.5] [--n 100000] [--rounds 2] [--warm-rounds 0] [--set key=value ...]``. Each
round plays every tree once, in turn, each in a process of its own (``NUMBA_NUM_THREADS=1``, so a shared machine's
other jobs disturb it least) with a cache folder of its own: a copy of the user cache without the named modules'
kernels, so only they compile. Per process: the named modules' compile, CPU seconds of the compiling thread
(exclusive per kernel, numba's event API), the CPU seconds of preparing each policy (solving its tables where the
copied cache lacks them, as after a code change), then games per CPU second of the process for each policy
(``name@level`` plays at that skill level, ``a+b`` seats a and b). ``--warm-rounds`` alternate the trees again on
the kernels the cold rounds cached (throughput only, cheap where a compile is not). Prints one JSON object; the load
average is read at the start and the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import json, sys, time
from numba.core import event
from sim.core.batch import run_batch
from sim.core.skill import at_level
from sim.games import get_game

modules = tuple(sys.argv[1].split(","))
policies, n = sys.argv[2].split(","), int(sys.argv[3])
stack, compile_s = [], {}

class Listener(event.Listener):
    def on_start(self, ev):
        stack.append([time.thread_time(), 0.0])

    def on_end(self, ev):
        t0, child = stack.pop()
        incl = time.thread_time() - t0
        if stack:
            stack[-1][1] += incl
        f = ev.data["dispatcher"].py_func
        if f.__module__.startswith(modules):
            key = f.__module__ + "." + f.__qualname__
            compile_s[key] = compile_s.get(key, 0.0) + incl - child

event.register("numba:compile", Listener())
g = get_game(sys.argv[4])
base = g.load(overrides=[o for o in sys.argv[5].split(";") if o])
rate, prepare_s = {}, {}
for spec in policies:
    name, _, level = spec.partition("@")
    cfg = at_level(base, float(level)) if level else base
    t = time.process_time()
    seats = name.split("+")
    g.prepare(cfg, seats, {})
    prepare_s[spec] = round(time.process_time() - t, 2)
    run_batch(g, cfg, seats, 200, 99, {}, progress=False)
    t = time.process_time()
    b = run_batch(g, cfg, seats, n, 1, {}, chunk=g.chunk, progress=False)
    cpu = time.process_time() - t
    col = next(c for c in ("score", "rooms_cleared", "won", "win") if c in b.table)
    rate[spec] = {"per_cpu_s": round(n / cpu), "mean": round(float(b.table[col].mean()), 4)}
print(json.dumps({"compile_s": round(sum(compile_s.values()), 2),
                  "kernels": {k: round(v, 2) for k, v in sorted(compile_s.items())}, "rate": rate,
                  "prepare_s": prepare_s}))
"""


def user_cache() -> Path:
    from platformdirs import user_cache_dir

    return Path(os.environ.get("DICESIM_CACHE_DIR") or user_cache_dir("dicesim"))


def one(tree: str, cache: Path, args: argparse.Namespace, cold: bool = True) -> dict:
    for m in args.modules.split(",") if cold else ():
        shutil.rmtree(cache / "numba" / m, ignore_errors=True)
    env = {**os.environ, "DICESIM_CACHE_DIR": str(cache), "NUMBA_NUM_THREADS": "1", "PYTHONPATH": tree}
    out = subprocess.run([sys.executable, "-c", CHILD, args.modules, args.policies, str(args.n), args.game,
                          ";".join(args.set)],
                         cwd=tree, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--game", required=True)
    p.add_argument("--modules", required=True, help="comma-separated module prefixes whose kernels compile cold")
    p.add_argument("--trees", nargs="+", required=True)
    p.add_argument("--policies", default="greedy")
    p.add_argument("--n", type=int, default=100_000)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--warm-rounds", type=int, default=0, help="more rounds on the cached kernels (throughput only)")
    p.add_argument("--set", action="append", default=[], help="a config override (key=value), repeatable")
    args = p.parse_args()
    src = user_cache()
    load = [os.getloadavg()[0]]
    runs: dict[str, list] = {t: [] for t in args.trees}
    with tempfile.TemporaryDirectory() as tmp:
        caches = {}
        for i, t in enumerate(args.trees):
            caches[t] = Path(tmp) / str(i)
            shutil.copytree(src, caches[t], ignore=shutil.ignore_patterns("answers"))
        for r in range(args.rounds + args.warm_rounds):
            for t in args.trees:
                runs[t].append(one(t, caches[t], args, cold=r < args.rounds))
                print(t, json.dumps(runs[t][-1]), file=sys.stderr)
    load.append(os.getloadavg()[0])
    print(json.dumps({"load_1min_start_end": load, "n": args.n, "set": args.set, "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
