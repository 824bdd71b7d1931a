"""What a person waits for at the command line (issue 30): each command's wall time from start to exit.

Every row of issue 30's table that is a CLI command, run as a real ``dicesim`` process, warm caches (each command
runs once unmeasured first, so its kernels are compiled and cached; an "empty cache folder" row runs each time with a
new one, as the first command after an install; a "first ask" row asks ``combos``/``describe`` a
question not stored yet each time), ``--repeat`` times each way with Python's
bytecode cache on (``PYTHONDONTWRITEBYTECODE`` unset, as a user has it) and off (set, as the development machines
have it); the median and the spread. The load average is recorded beside them: on a shared machine, compare
figures taken in one run only. The studio's click-to-result is ``benchmarks/studio_click.py``, the first run's
compile ``benchmarks/compile_times.py``.

Run: ``python -m benchmarks.latency [--repeat 5] [--record]`` (``--record`` writes ``latency`` into
``benchmarks/results.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from benchmarks.record import record

ROOT = Path(__file__).resolve().parent.parent
# (row, goal in seconds, the command's arguments, expected exit code)
ROWS: list[tuple[str, float, list[str], int]] = [
    ("dicesim --help", 0.5, ["--help"], 0),
    ("refused input: play kniffel --policy nope", 0.5, ["play", "kniffel", "--policy", "nope"], 2),
    ("refused input: play dungeon --n -3", 0.5, ["play", "dungeon", "--n", "-3"], 2),
    # the first command after an install or a code edit: an empty cache folder each time ({empty-cache})
    ("refused input, empty cache folder: play dadox --policy nope", 0.5,
     ["{empty-cache}", "play", "dadox", "--policy", "nope"], 2),
    ("refused input: calibrate dungeon --target nosuch=3", 0.5,
     ["calibrate", "dungeon", "--target", "nosuch=3", "--field", "difficulty.normal.hp", "--policy", "vorschlag"], 2),
    ("refused input: play dadox --policy optimal-win --players 3", 0.5,
     ["play", "dadox", "--policy", "optimal-win", "--players", "3"], 2),
    # the example tune file with a metric typo (written into the working folder: ``_bad_files``)
    ("refused input: tune a file with a metric typo", 0.5, ["tune", "bad-tune.toml"], 2),
    # configs/sweeps/kniffel-bonus.toml with a field misspelt in its [grid] (``_bad_files``)
    ("refused input: sweep a file with a field typo", 0.5, ["sweep", "bad-sweep.toml"], 2),
    ("refused input: play dungeon24 --opponent nope", 0.5,
     ["play", "dungeon24", "--policy", "greedy", "--opponent", "nope"], 2),
    ("refused input: play --out where no folder can be made", 0.5,
     ["play", "kniffel", "--policy", "greedy", "--out", "/proc/dicesim-out"], 2),
    ("refused input: fit a log without its columns", 0.5, ["fit", "kniffel", "no-columns.csv"], 2),
    ("refused input: calibrate --lo the field does not take", 0.5,
     ["calibrate", "dungeon", "--field", "difficulty.normal.hp", "--target", "win_rate=0.5", "--policy", "vorschlag",
      "--lo", "-1", "--hi", "3"], 2),
    ("combos 5 5 5 2 2", 0.5, ["combos", "5", "5", "5", "2", "2"], 0),
    ("describe kniffel", 0.5, ["describe", "kniffel"], 0),
    ("describe dungeon", 0.5, ["describe", "dungeon"], 0),
    # a first ask: a rules value asked nowhere before ({new}), so the answer is computed, not read back
    # another cup under rules asked before: read from the kept cup table ({cup}: five faces at random)
    ("combos, a cup not asked before", 0.5, ["combos", "{cup}"], 0),
    ("combos 5 5 5 2 2, first ask", 0.5, ["combos", "5", "5", "5", "2", "2", "--set", "difficulty.leicht.hp={new}"], 0),
    ("describe dungeon, first ask", 0.5, ["describe", "dungeon", "--set", "difficulty.leicht.hp={new}"], 0),
    ("describe kniffel, first ask", 0.5, ["describe", "kniffel", "--set", "scores.kniffel={int}"], 0),
    # a new goal: its derived tables (the optimal turn) read only the scoring, turn and bust rules, kept already
    ("describe dadox, a new goal", 0.5, ["describe", "dadox", "--set", "goal.target={goal}"], 0),
    # new turn rules: the optimal turn is solved again (numba loads)
    ("describe dadox, first ask", 0.5, ["describe", "dadox", "--set", "turn.opening_minimum={opening}"], 0),
    ("play kniffel --policy greedy --n 1000", 1.5,
     ["play", "kniffel", "--policy", "greedy", "--n", "1000", "--no-report"], 0),
    ("play dungeon --policy vorschlag --n 1000", 1.5,
     ["play", "dungeon", "--policy", "vorschlag", "--n", "1000", "--no-report"], 0),
    # as typed without --no-report: the report (charts, pages) is drawn after the answer is printed; the row's
    # answer_* figures are when the answer's first line came, the others when the command ended
    ("play kniffel --policy greedy --n 1000, with its report", 1.5,
     ["play", "kniffel", "--policy", "greedy", "--n", "1000", "--out", "{out}"], 0),
    ("play dungeon --policy vorschlag --n 1000, with its report", 1.5,
     ["play", "dungeon", "--policy", "vorschlag", "--n", "1000", "--out", "{out}"], 0),
]


def _dicesim() -> list[str]:
    exe = Path(sys.executable).with_name("dicesim")
    return [str(exe)] if exe.is_file() else [sys.executable, "-m", "sim.cli"]


def _fresh(args: list[str]) -> list[str]:
    """``{new}`` replaced by a hit point factor not asked before (the answer cache keys on the config), ``{int}`` and
    ``{goal}``, ``{opening}`` by a Kniffel box value, a Dadox goal and opening minimum at random, ``{cup}`` by five
    faces at random."""
    out: list[str] = []
    for a in args:
        if a == "{cup}":
            out += [str(random.randint(1, 6)) for _ in range(5)]
        else:
            a = a.replace("{int}", str(random.randint(0, 1000)))  # a box's points (Kniffel: 0..1000)
            a = a.replace("{goal}", str(50 * random.randint(60, 400)))  # a Dadox goal on its 50-point grid
            a = a.replace("{opening}", str(50 * random.randint(1, 180)))  # an opening minimum, below the goal
            a = a.replace("{out}", f"report-{uuid.uuid4().hex[:12]}")  # a new report folder
            out.append(a.replace("{new}", f"0.8{uuid.uuid4().int % 10**8:08d}"))
    return out


def _bad_files(cwd: Path) -> None:
    """``bad-tune.toml``: configs/tune/kniffel-bonus.toml with ``mean_score`` misspelt; ``bad-sweep.toml``:
    configs/sweeps/kniffel-bonus.toml with ``bonus.value`` misspelt in its grid; ``no-columns.csv``: a log that is
    not a Kniffel decision log."""
    text = (ROOT / "configs" / "tune" / "kniffel-bonus.toml").read_text()
    (cwd / "bad-tune.toml").write_text(text.replace('metric = "mean_score"', 'metric = "mean_scor"', 1))
    text = (ROOT / "configs" / "sweeps" / "kniffel-bonus.toml").read_text()
    (cwd / "bad-sweep.toml").write_text(text.replace('"bonus.value"', '"bonus.valu"', 1))
    (cwd / "no-columns.csv").write_text("player,round,dice\np1,1,12345\n")  # a log of some other tool


def _once(args: list[str], bytecode: bool, cwd: Path, expect: int) -> tuple[float, float, float | None]:
    """(wall seconds, CPU seconds of the process: user + system, every thread, seconds until its first line on
    stdout: None where it printed none)."""
    args = _fresh(args)
    env = dict(os.environ)
    if args[:1] == ["{empty-cache}"]:
        args = args[1:]
        env["DICESIM_CACHE_DIR"] = tempfile.mkdtemp(prefix="empty-cache-", dir=cwd)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    with subprocess.Popen([*_dicesim(), *args], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as proc:
        first_line = proc.stdout.readline()
        first = time.perf_counter() - t0 if first_line else None
        _, err = proc.communicate(timeout=1200)
    dt, r1 = time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != expect:
        raise SystemExit(f"dicesim {' '.join(args)}: exit {proc.returncode}, expected {expect}\n{err[-2000:]}")
    return dt, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime, first


def measure(repeat: int) -> dict:
    """The rows, each warmed once, then measured alternating bytecode on and off (the same load for both)."""
    rows = {}
    load_start = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory() as d:
        cwd = Path(d)
        _bad_files(cwd)
        for name, goal, args, expect in ROWS:
            _once(args, True, cwd, expect)  # compiles and caches what the command needs; writes the .pyc files
            on_t, off_t = [], []
            for _ in range(repeat):
                on_t.append(_once(args, True, cwd, expect))
                off_t.append(_once(args, False, cwd, expect))
            on, off = [w for w, _, _ in on_t], [w for w, _, _ in off_t]
            rows[name] = {
                "goal_s": goal,
                "bytecode_on_s": round(statistics.median(on), 3),
                "bytecode_off_s": round(statistics.median(off), 3),
                "bytecode_on_range_s": [round(min(on), 3), round(max(on), 3)],
                "bytecode_off_range_s": [round(min(off), 3), round(max(off), 3)],
                "bytecode_on_cpu_s": round(statistics.median(c for _, c, _ in on_t), 3),
                "bytecode_off_cpu_s": round(statistics.median(c for _, c, _ in off_t), 3),
                "meets_goal": statistics.median(on) <= goal,
            }
            if "--out" in args and expect == 0:  # a report after the answer: when the answer came
                rows[name]["answer_on_s"] = round(statistics.median(f for _, _, f in on_t if f is not None), 3)
                rows[name]["answer_off_s"] = round(statistics.median(f for _, _, f in off_t if f is not None), 3)
            print(f"{name:48s} on {rows[name]['bytecode_on_s']:6.2f} s  off {rows[name]['bytecode_off_s']:6.2f} s"
                  f"  cpu {rows[name]['bytecode_on_cpu_s']:5.2f} / {rows[name]['bytecode_off_cpu_s']:5.2f} s"
                  f"  (goal {goal} s)", file=sys.stderr)
    return {"rows": rows, "repeat": repeat, "load_average_start": load_start,
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "what": "wall seconds (and CPU seconds, *_cpu_s) of a real dicesim process, warm caches, median of the "
                    "repeats; bytecode on = "
                    "PYTHONDONTWRITEBYTECODE unset (a user's setting), off = set (the development machines)"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--record", action="store_true", help="write the figures into benchmarks/results.json")
    a = ap.parse_args()
    out = measure(a.repeat)
    print(json.dumps(record("latency", out) if a.record else out, indent=2))


if __name__ == "__main__":
    main()
