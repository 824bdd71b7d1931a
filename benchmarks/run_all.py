"""Run every benchmark on 2 numba threads and record its figures in benchmarks/results.json.

``python benchmarks/run_all.py [name ...]`` — names: kniffel, dungeon, dadox, dungeon24, sweep, skill.
Each ``bench_<name>.py`` prints one JSON object (Kniffel's records itself).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.record import record  # noqa: E402

BENCHES = ["kniffel", "dungeon", "dadox", "dungeon24", "sweep", "skill"]


def main(names: list[str]) -> None:
    env = {**os.environ, "NUMBA_NUM_THREADS": os.environ.get("NUMBA_NUM_THREADS", "2"),
           "DICESIM_TIER": os.environ.get("DICESIM_TIER", "full")}  # the optimised kernels (sim.jit.tier)
    for name in names or BENCHES:
        script = HERE / f"bench_{name}.py"
        if not script.is_file():
            continue
        print(f"== {name}", file=sys.stderr, flush=True)
        out = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, env=env, capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stderr, file=sys.stderr)
            raise SystemExit(f"benchmark {name} failed")
        if name == "kniffel":
            continue  # records itself
        text = out.stdout.strip()
        figures = json.loads(text[text.index("{") :]) if "{" in text else {}
        print(json.dumps(record(name, figures), indent=2))


if __name__ == "__main__":
    main(sys.argv[1:])
