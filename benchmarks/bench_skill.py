"""What the skill model (``sim.core.skill``) costs: runs per second at each named level, per game and policy.

Usage: ``python benchmarks/bench_skill.py [n_scale]`` (``run_all.py skill`` records it). Level 1 (expert) is
the plain policy's path; the lower levels add the lapse coin, the softmax and (Kniffel optimal) a widget per state
and turn with its keep values. Each figure: best of 2 batches after a warm-up batch; the mean outcome shows the level
at work. Same seeds at every level.
"""

from __future__ import annotations

import json
import os
import sys
import time

import numba

from sim.core.batch import run_batch
from sim.core.skill import LEVELS
from sim.games import get_game

CASES = (  # game, policy, options, runs (x n_scale)
    ("kniffel", "greedy", {"players": 1}, 100_000),
    ("kniffel", "optimal", {"players": 1}, 40_000),
    ("dadox", "threshold", {"players": 2}, 100_000),
    ("dadox", "optimal-turn", {"players": 2}, 50_000),
    ("dungeon24", "greedy", {"opponent": "greedy"}, 100_000),
    ("dungeon24", "heuristic", {"opponent": "heuristic"}, 20_000),
)


def outcome(game: str, table) -> float:
    if game == "kniffel":
        return float(table["score"].mean())
    if game == "dadox":
        return float((table[table["seat"] == 0]["win"] == 1).mean())
    return float((table["winner"] == 0).mean())


def main(scale: float = 1.0) -> dict:
    out: dict = {"threads": numba.get_num_threads(), "load_average_before": round(os.getloadavg()[0], 2),
                 "levels": LEVELS, "runs_per_second": {}, "outcome": {}}
    for game, policy, opts, n in CASES:
        g = get_game(game)
        options = g.check_options(dict(opts))
        seats = g.seat_policies(policy, options)
        m = max(1000, int(n * scale))
        key = f"{game}_{policy}"
        out["runs_per_second"][key] = {}
        out["outcome"][key] = {}
        for name, level in LEVELS.items():
            cfg = g.load(None, [f"skill.level={level}"])
            g.prepare(cfg, seats, options)
            run_batch(g, cfg, seats, 500, 9, options, chunk=g.chunk, progress=False)  # warm
            best = 0.0
            for _ in range(2):
                b = run_batch(g, cfg, seats, m, 1, options, chunk=g.chunk, progress=False)
                best = max(best, m / b.seconds)
            out["runs_per_second"][key][name] = round(best)
            out["outcome"][key][name] = round(outcome(game, b.table), 4)
    out["outcome_means"] = "Kniffel: mean score; Dadox, Dungeon24: the player's (seat 1's) win rate against the full-" \
        "strength policy"
    out["load_average_after"] = round(os.getloadavg()[0], 2)
    return out


if __name__ == "__main__":
    start = time.perf_counter()
    res = main(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0)
    res["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(res))
