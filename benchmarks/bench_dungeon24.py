"""Dungeon24 throughput: games per second per policy pair (warm kernels); prints one JSON object.

Usage: ``NUMBA_NUM_THREADS=2 .venv/bin/python benchmarks/bench_dungeon24.py [n]`` (default n = 400000
for greedy vs greedy, a tenth of it for the slower pairs, n / 400 for expectimax's search). Best of 3 repeats.
"""

from __future__ import annotations

import json
import sys
import time

import numba

from sim.games import get_game
from sim.games.dungeon24.game import run_games


def main(n: int = 400_000) -> dict:
    g = get_game("dungeon24")
    cfg = g.load()
    t0 = time.perf_counter()
    run_games(cfg, ["greedy", "greedy"], [0, 0], 0, 0, 100)
    warmup = time.perf_counter() - t0
    out = {"game": "dungeon24", "threads": numba.get_num_threads(), "first_call_seconds": round(warmup, 3),
           "games_per_second": {}}
    pairs = [("greedy", "greedy", n), ("random", "random", n), ("heuristic", "greedy", n // 10),
             ("heuristic", "heuristic", n // 10), ("exact-exchange", "greedy", n // 10),
             ("exact-exchange", "exact-exchange", n // 10), ("expectimax", "heuristic", n // 400),
             ("expectimax", "expectimax", n // 400)]
    for a, b, m in pairs:
        best = 0.0
        for rep in range(3):
            t = time.perf_counter()
            run_games(cfg, [a, b], [0, 0], 1, rep * m, m)  # default people: Grünlinge mirror
            best = max(best, m / (time.perf_counter() - t))
        out["games_per_second"][f"{a}_vs_{b}"] = round(best)
    out["n_greedy"] = n
    return out


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 400_000)))
