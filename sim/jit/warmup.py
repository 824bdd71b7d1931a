"""Compile the kernels of independent games in parallel processes (a cold ``dicesim balance``, the tests).

numba compiles on one thread, so a first balance report on a multi-core machine would compile one
game after another while the other cores idle. :func:`start` launches one process per game whose
kernels are not known to be cached (``python -m sim.jit.warmup GAME`` plays one run of each report
policy, which compiles what the report needs into the shared disk cache, then leaves a marker for
this source version), at most one per core, the slowest first. :func:`wait_for` (called by
``run_batch``) waits for a game's process, showing that it compiles, then the kernels load from disk.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from sim.core.paths import clear_folder
from sim.jit.codehash import module_file, source_key
from sim.jit.progress import Ticker, compiled_elsewhere, estimate, more, remember, say
from sim.jit.tier import compile_env, tag, warm_dir

_lock = threading.Lock()
_procs: dict[str, subprocess.Popen | None] = {}  # game -> its process (None: queued, not started)
_started: dict[str, float] = {}
_born: dict[str, float] = {}  # game -> when its process started, in epoch seconds (the child reports when it ended)
_errs: dict[str, Any] = {}
_outs: dict[str, Any] = {}
_queue: list[str] = []
_slots = 1


def _marker(game: str):
    """Written once ``warm(game)`` compiled (or loaded) everything for the current source of the game's kernels."""
    path = module_file(f"sim.games.{game}.game")  # its closure holds every kernel module the game uses
    return None if path is None else warm_dir() / f"{game}-{source_key(path)}{tag(path)}"


def is_cold(game: str) -> bool:
    """True unless a warm-up of the game's kernels finished for their current source."""
    marker = _marker(game)
    return marker is not None and not marker.is_file()


def _launch(game: str) -> None:
    env = compile_env(game, {**os.environ, "DICESIM_QUIET": "1"})  # the same compile tier as this process
    _started[game] = time.perf_counter()
    _born[game] = time.time()
    _errs[game] = tempfile.TemporaryFile("w+")
    _outs[game] = tempfile.TemporaryFile("w+")
    _procs[game] = subprocess.Popen(
        [sys.executable, "-m", "sim.jit.warmup", game], env=env, stdout=_outs[game], stderr=_errs[game]
    )


def _fill() -> None:
    running = sum(1 for p in _procs.values() if p is not None and p.poll() is None)
    while _queue and running < _slots:
        _launch(_queue.pop(0))
        running += 1


def start(games: list[str], workers: int | None = None) -> list[str]:
    """Start compiling the cold ones of ``games`` in the background, ``workers`` at a time (default: one per
    core), the slowest first; returns those games."""
    global _slots
    cold = [g for g in games if g not in _procs and is_cold(g)]  # a second call (the work after the command line's)
    if len(cold) < 2:
        return []  # one game gains nothing from another process: it compiles in this one
    _slots = max(1, min(len(cold), workers or os.cpu_count() or 1))
    with _lock:
        cold.sort(key=lambda g: -estimate(g))
        for g in cold:
            _procs[g] = None
        _queue.extend(cold)
        _fill()
    threading.Thread(target=_keep_filling, daemon=True).start()
    return cold


def _keep_filling() -> None:
    """Start queued games as slots free up, also while this process is busy playing another game."""
    while True:
        with _lock:
            _fill()
            if not _queue:
                return
        time.sleep(0.5)


def _cpu_seconds(pid: int) -> float | None:
    """CPU seconds process ``pid`` has used so far (Linux ``/proc``), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    except (OSError, ValueError, IndexError):
        return None


def _wall_left(game: str) -> float | None:
    """Seconds until ``game``'s compile is likely done, or None once it has used the CPU it was expected to need
    (a slower machine than the estimate's: no honest figure is left to give). The estimate is CPU seconds; the CPU
    the process has used so far, against the time it has run, gives the share of a core it gets on this machine now
    (other compiles, other jobs), which stretches what is left. Without ``/proc``: the estimate stretched by the
    compiles sharing the cores, less the time it has run."""
    with _lock:
        busy = sum(1 for p in _procs.values() if p is not None and p.poll() is None)
        ran = time.perf_counter() - _started.get(game, time.perf_counter())
        proc = _procs.get(game)
    cpu = _cpu_seconds(proc.pid) if proc is not None else None
    if cpu is not None and cpu >= 2.0 and ran > 0:
        if cpu >= estimate(game):
            return None
        return max(5.0, (estimate(game) - cpu) / max(0.05, min(1.0, cpu / ran)))
    share = max(1.0, busy / (os.cpu_count() or 1))
    return max(5.0, estimate(game) * share - ran)


def wait_for(game: str, title: str) -> None:
    """Block until the background compile of ``game`` is done, showing that it runs; a game still queued
    (no free core yet) is taken back to compile here rather than wait idle."""
    with _lock:
        if game not in _procs:
            return
        if _procs[game] is None:
            del _procs[game]
            _queue.remove(game)
            return
        running = _procs[game].poll() is None
    about = _wall_left(game)
    if running:  # one that ended while another was waited for gets its "compiled" line only
        say(f"compiling {title} kernels (once, {more(about)}, in a parallel process)")
    t0 = time.perf_counter()
    with Ticker(f"compiling {title} kernels", about or estimate(game), left=lambda: _wall_left(game)):
        while True:
            with _lock:
                _fill()
                p = _procs[game]
                if p is not None and p.poll() is not None:
                    break
            time.sleep(0.2)
    with _lock:
        del _procs[game]
        started = _started.pop(game, t0)
        born = _born.pop(game, None)
    with _errs.pop(game) as f:
        f.seek(0)
        err = f.read()
    with _outs.pop(game) as f:
        f.seek(0)
        said = f.read().split()
    if p.returncode != 0:  # compiling here will show the real error with the usual reporting
        last = (err.strip().splitlines() or [f"exit code {p.returncode}"])[-1]
        say(f"warning: compiling {title} in a parallel process failed ({last}); compiling here")
        return
    secs = time.perf_counter() - started  # the compile's own wall time where the child said when it ended: one
    try:  # that ended while another game was waited for did not take the time until it was waited for
        compiled_elsewhere(game, float(said[0]))  # CPU seconds: what it costs a core of its own, however busy this was
        if born is not None:
            secs = min(secs, max(0.0, float(said[1]) - born))
    except (ValueError, IndexError):
        pass
    say(f"compiled {title} kernels in {secs:.0f} s (cached for later runs)")


def warm(game: str) -> None:
    """Play one run of each of ``game``'s report policies: compiles what its report needs."""
    from sim.games import get_game

    g = get_game(game)
    cfg = g.load()
    options = g.check_options({})
    for _, seats in g.compare_plan(list(g.report_policies), options):
        g.prepare(cfg, seats, options)
        g.simulate(cfg, seats, 1, 0, 1, options)
    marker = _marker(game)
    if marker is not None:
        marker.parent.mkdir(parents=True, exist_ok=True)
        clear_folder(marker)  # a folder of its name is no marker (``is_cold``): replaced by the file
        marker.touch()


def _main(argv: list[str]) -> None:
    """``python -m sim.jit.warmup GAME [--release LOCK]``: ``--release`` removes the lock of a background compile
    (``sim.jit.tier``) when it ends, however it ends."""
    if len(argv) not in (1, 3) or (len(argv) == 3 and argv[1] != "--release"):
        sys.exit("usage: python -m sim.jit.warmup GAME [--release LOCK]")
    try:
        warm(argv[0])
        if len(argv) == 3:  # a detached compile: no parent reads its figure, so it keeps it for the next estimate
            remember(argv[0], time.process_time())
    finally:
        if len(argv) == 3:
            Path(argv[2]).unlink(missing_ok=True)
    # the CPU seconds it took (the parent remembers them as the estimate) and when it ended (epoch seconds)
    print(f"{time.process_time():.1f} {time.time():.3f}")


if __name__ == "__main__":
    _main(sys.argv[1:])
