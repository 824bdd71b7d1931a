"""Where cold start goes: numba compile time per kernel (inclusive and exclusive), per game.

Run with an empty cache (``DICESIM_CACHE_DIR=$(mktemp -d)``); each game is played in its own process
exactly as the balance report plays it (``--n`` runs per report policy), and numba's compile events
are recorded. Prints one JSON object: per game the wall and CPU seconds and the kernels by
exclusive compile time, in CPU seconds of the compiling thread (``time.thread_time``: wall-clock seconds would
count other jobs' time on a shared machine). ``llvm_s``: of that, the seconds spent holding numba's LLVM lock
(optimising and emitting machine code), attributed to the kernel being compiled. The Würfel Dungeon compiles in
the tier a fresh process would pick (``sim.jit.tier``: quick on an empty cache); ``DICESIM_TIER=full`` measures the
optimised kernels.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


def _one(game: str, n: int) -> dict:
    from numba.core import event

    from sim.report.balance import game_report

    stack: list[list] = []
    rows: dict[str, list[float]] = {}

    class Listener(event.Listener):
        def on_start(self, ev):  # noqa: D102 - numba's listener API
            stack.append([time.thread_time(), 0.0])

        def on_end(self, ev):  # noqa: D102
            t0, child = stack.pop()
            incl = time.thread_time() - t0
            if stack:
                stack[-1][1] += incl
            d = ev.data["dispatcher"]
            name = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
            r = rows.setdefault(name, [0.0, 0.0, 0, 0.0])
            r[0] += incl
            r[1] += incl - child
            r[2] += 1
            r[3] += llvm.pop(id(ev.data["dispatcher"]), 0.0)

    llvm: dict[int, float] = {}  # LLVM seconds (``numba:llvm_lock`` held) per kernel, exclusive
    current: list = []  # the kernels being compiled, innermost last

    class Tracker(event.Listener):
        def on_start(self, ev):  # noqa: D102
            current.append(id(ev.data["dispatcher"]))

        def on_end(self, ev):  # noqa: D102
            current.pop()

    class LlvmTimer(event.Listener):
        def on_start(self, ev):  # noqa: D102
            self.t0 = time.thread_time()

        def on_end(self, ev):  # noqa: D102
            if current:
                llvm[current[-1]] = llvm.get(current[-1], 0.0) + time.thread_time() - self.t0

    import tempfile
    from pathlib import Path

    c0 = time.process_time()
    w0 = time.perf_counter()
    with event.install_listener("numba:compile", Tracker()), event.install_listener("numba:compile", Listener()), \
            event.install_listener("numba:llvm_lock", LlvmTimer()), tempfile.TemporaryDirectory() as out:
        game_report(game, Path(out), n, 1)
    kernels = sorted(
        ({"kernel": k, "inclusive_s": round(v[0], 2), "exclusive_s": round(v[1], 2), "llvm_s": round(v[3], 2),
          "compiles": v[2]}
         for k, v in rows.items()),
        key=lambda r: -r["exclusive_s"],
    )
    return {"game": game, "tier": os.environ.get("DICESIM_TIER", ""),  # set once a tiered game's kernels load
            "wall_s": round(time.perf_counter() - w0, 1), "cpu_s": round(time.process_time() - c0, 1),
            "compile_s": round(sum(r["exclusive_s"] for r in kernels), 1),
            "llvm_s": round(sum(r["llvm_s"] for r in kernels), 1), "kernels": kernels}


def main() -> None:
    args = sys.argv[1:]
    if args and args[0] == "--one":
        print(json.dumps(_one(args[1], int(args[2]))))
        return
    n = int(os.environ.get("N", "2000"))
    from sim.games import available

    games = args or available()
    result = []
    for g in games:
        p = subprocess.run([sys.executable, __file__, "--one", g, str(n)], capture_output=True, text=True, check=True)
        result.append(json.loads(p.stdout.strip().splitlines()[-1]))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
