"""What a long step is doing, on stderr: numba compiling (once per code version) and batches played.

A first run compiles kernels for minutes; silence then looks like a hang. When numba starts compiling
inside :func:`compiling`, one line says so with an estimate (the last measured compile time of that
game, else the figure the game declares); a bar follows on a terminal, plain "still compiling" lines elsewhere
(no control codes in logs). ``--quiet`` (or ``DICESIM_QUIET=1``, inherited by worker processes)
silences all of it. :func:`compile_seconds` measures compiling inside a block, so timings can leave it out.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from sim.core.paths import numba_dir, save_note

QUIET_ENV = "DICESIM_QUIET"
PLAIN_EVERY_S = 20.0
# Each game declares the CPU seconds of its cold compile (the kernels its report plays) on the project's machine kind
# in its own folder, ``sim/games/GAME/compile.toml``: ``seconds``, and ``TIER_seconds`` for a compile tier recorded
# under ``GAME-TIER`` (``sim.jit.tier``). A data file, read without importing the game: the kernels import this module,
# and ``sim.jit.codehash`` would put every game's module it imported into each kernel's cache key.
DECLARED_FILE = "compile.toml"
UNDECLARED_S = 30.0  # a game that declares no figure
# A compile under a fifth of the declared figure was a few kernels (a new policy's, a variant's), not the game's
# cold compile: it is not kept as the game's figure, nor read as one (records from before were: a 1 s compile of one
# kernel then estimated the next cold compile, of 88 s, at "about 5 s").
WHOLE_SHARE = 0.2


def _whole(seconds: float, figure: float | None) -> bool:
    """``seconds`` of compiling can be a whole cold compile of a game declaring ``figure`` (see ``WHOLE_SHARE``)."""
    return figure is None or seconds >= WHOLE_SHARE * figure


def set_quiet(quiet: bool) -> None:
    if quiet:
        os.environ[QUIET_ENV] = "1"
    else:
        os.environ.pop(QUIET_ENV, None)


def is_quiet() -> bool:
    return os.environ.get(QUIET_ENV, "") not in ("", "0")


def say(line: str) -> None:
    """One line on stderr unless quiet."""
    if not is_quiet():
        print(line, file=sys.stderr, flush=True)


def is_terminal() -> bool:
    return sys.stderr.isatty() and os.environ.get("TERM") != "dumb"


@contextmanager
def compile_seconds() -> Iterator[Callable[[], float]]:
    """Yield a function returning the seconds numba has spent compiling (outermost compiles) inside the block."""
    from numba.core import event

    total = [0.0]
    depth = [0]
    start = [0.0]

    class Listener(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            if depth[0] == 0:
                start[0] = time.perf_counter()
            depth[0] += 1

        def on_end(self, ev: event.Event) -> None:
            depth[0] -= 1
            if depth[0] == 0:
                total[0] += time.perf_counter() - start[0]

    with event.install_listener("numba:compile", Listener()):
        yield lambda: total[0] + (time.perf_counter() - start[0] if depth[0] else 0.0)


def _estimates_file():
    return numba_dir() / "compile-seconds.json"


_KEYS: dict[str, Callable[[str], str]] = {}  # game -> its record key, for a game with compile tiers (``sim.jit.tier``)


def keyed_by(game: str, key: Callable[[str], str]) -> None:
    """Record ``game``'s compile times under ``key(game)`` (the tier module registers its game when imported, so
    the tier is decided only in a process that loads that game's kernels)."""
    _KEYS[game] = key


def _key(game: str) -> str:
    key = _KEYS.get(game)
    return game if key is None else key(game)


def declared(game: str, key: str | None = None) -> float | None:
    """The figure ``game`` declares in its folder for record ``key`` (default: this process's key for it), if any."""
    key = _key(game) if key is None else key
    field = "seconds" if key == game else f"{key.removeprefix(game + '-')}_seconds"
    return _declared_file(game).get(field)


@cache
def _declared_file(game: str) -> dict[str, float]:
    path = Path(__file__).resolve().parents[1] / "games" / game / DECLARED_FILE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return {str(k): float(v) for k, v in data.items() if isinstance(v, int | float) and v > 0}
    except (OSError, ValueError):
        return {}


def _entries() -> dict[str, dict[str, float]]:
    """The records of this machine: key -> ``seconds`` measured, and the ``declared`` figure they are compared with
    (absent in a record written before figures were kept beside them)."""
    try:
        data = json.loads(_estimates_file().read_text())
    except (OSError, ValueError):
        return {}
    out: dict[str, dict[str, float]] = {}
    for k, v in data.items() if isinstance(data, dict) else ():
        try:
            out[str(k)] = {n: float(x) for n, x in v.items()} if isinstance(v, dict) else {"seconds": float(v)}
        except (TypeError, ValueError, AttributeError):
            continue
    return out


def recorded(key: str) -> float | None:
    """Seconds the last cold compile under ``key`` (a game, or ``dungeon-quick``) took on this machine, if any (a
    record of a partial compile, see ``WHOLE_SHARE``, is none)."""
    e = _entries().get(key, {})
    seconds = e.get("seconds")
    return seconds if seconds is not None and _whole(seconds, e.get("declared")) else None


def machine_factor() -> float:
    """How many times the declared figures this machine's compiles take: the median ratio over the compiles
    recorded here (1 before any). A first run compiles the games one after another, so the Würfel Dungeon's wait is
    estimated from what Kniffel's compile just took here, not from another machine's figure."""
    ratios = sorted(e["seconds"] / e["declared"] for e in _entries().values()
                    if e.get("declared", 0) > 0 and e.get("seconds", 0) > 0 and _whole(e["seconds"], e["declared"]))
    if not ratios:
        return 1.0
    mid = len(ratios) // 2
    return ratios[mid] if len(ratios) % 2 else (ratios[mid - 1] + ratios[mid]) / 2


def estimate(game: str) -> float:
    """Seconds the last cold compile of ``game`` (in this process's tier) took here, else the figure the game
    declares (``compile.toml``; 30 s without one) scaled to this machine (``machine_factor``)."""
    seconds = recorded(_key(game))
    if seconds is not None:
        return seconds
    return (declared(game) or UNDECLARED_S) * machine_factor()


def remember(game: str, seconds: float) -> None:
    """Keep what ``game``'s cold compile took here, beside the figure it declares (the machine's pace)."""
    path = _estimates_file()
    try:
        data = json.loads(path.read_text()) if path.is_file() else {}
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict):
        data = {}
    key = _key(game)
    entry: dict[str, float] = {"seconds": round(seconds, 1)}
    figure = declared(game, key)
    if not _whole(seconds, figure):  # a few kernels compiled, not the game: the figure of its cold compile stays
        return
    if figure is not None:
        entry["declared"] = figure
    data[key] = entry
    save_note(path, data)


def more(left: float | None) -> str:
    """How long a wait has left, in words: "about 40 s more", or that it outran its estimate."""
    return f"about {left:.0f} s more" if left is not None else "longer than estimated on this machine"


class Ticker:
    """Shows that ``label`` is still running: a bar against ``about`` seconds on a terminal, else plain lines.
    ``left`` (optional) re-estimates the seconds left at each line (None: past its estimate), so a wait that runs
    long says so instead of repeating its first guess."""

    def __init__(self, label: str, about: float, left: Callable[[], float | None] | None = None):
        self.label, self.about, self.left = label, max(1.0, about), left
        self.t0 = time.perf_counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Ticker:
        if not is_quiet():
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def line(self) -> str:
        """The plain progress line: the time so far and what is left."""
        ran = time.perf_counter() - self.t0
        if self.left is None:
            return f"  still {self.label}: {ran:.0f} s (about {self.about:.0f} s in all)"
        return f"  still {self.label}: {ran:.0f} s so far ({more(self.left())})"

    def _run(self) -> None:
        if is_terminal():
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            with Progress(TextColumn(self.label), BarColumn(), TimeElapsedColumn(),
                          console=Console(file=sys.stderr), transient=True) as bar:
                task = bar.add_task("compile", total=self.about)
                while not self._stop.wait(0.5):
                    ran = time.perf_counter() - self.t0
                    left = self.left() if self.left is not None else max(0.0, self.about - ran)
                    total = ran / 0.97 if left is None else ran + max(left, 0.03 * ran)
                    bar.update(task, total=total, completed=ran)
            return
        while not self._stop.wait(PLAIN_EVERY_S):
            say(self.line())


_spent: dict[str, float] = {}  # game -> seconds compiled in this process (a report compiles in several steps)
_expected: dict[str, float] = {}  # game -> the estimate when this process began compiling it


def compiled_elsewhere(game: str, seconds: float) -> None:
    """``game``'s kernels were compiled for this process by another (``sim.jit.warmup``) in ``seconds``: remembered
    as its estimate, and what this process compiles of it afterwards (a report's extras) counts as more of the same
    compile (announced as the rest, added to the figure) instead of replacing the figure with the rest alone."""
    _expected[game] = _spent[game] = seconds
    remember(game, seconds)


@contextmanager
def compiling(game: str, title: str) -> Iterator[None]:
    """Announce, show and time numba compiling ``game``'s kernels if any happens inside the block."""
    from numba.core import event

    state: dict = {"t0": 0.0, "ticker": None}
    label = f"compiling {title} kernels"

    class Listener(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            if state["ticker"] is None:
                state["t0"] = time.perf_counter()
                first = game not in _expected
                total = _expected.setdefault(game, estimate(game))
                about = max(5.0, total - _spent.get(game, 0.0))
                say(f"{label} (once, about {about:.0f} s)" if first else f"{label}: more of them (about {about:.0f} s)")
                state["ticker"] = Ticker(label, about).__enter__()

        def on_end(self, ev: event.Event) -> None:
            pass

    try:
        with event.install_listener("numba:compile", Listener()):
            yield
    finally:
        if state["ticker"] is not None:
            state["ticker"].__exit__(None, None, None)
            secs = time.perf_counter() - state["t0"]
            _spent[game] = _spent.get(game, 0.0) + secs
            remember(game, _spent[game])
            say(f"compiled {title} kernels in {secs:.0f} s (cached for later runs)")
