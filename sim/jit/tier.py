"""Two compile tiers of the Würfel Dungeon kernels: *quick* for a first run, *full* for every run after it.

numba's IR inlining (``inline="always"``) makes the Würfel Dungeon kernel about 1.5× faster, but it about triples
its cold compile (3× the quick tier's CPU even with :mod:`sim.jit.inlinecopy`, which removed most of the inliner's own
cost: numba types and lowers every inlined helper again at each call site). A designer's first
``make run`` should not wait minutes for speed that a 20,000-run report does not need. So the same source compiles
in one of two tiers, chosen once per process:

- **quick**: the helpers are called, not inlined (``INLINE == "never"``; the phases of a room, one call site
  each, stay inlined). Same code, same numbers, about two thirds of the speed.
- **full**: the helpers are inlined (``INLINE == "always"``): the benchmarks' throughput.

A process uses *full* once its kernels are cached for the current source (the warm-up marker), else
*quick*; ``DICESIM_TIER=quick|full`` forces one. The choice is made on first use (a process that plays no Würfel
Dungeon never makes it) and stays in this module, never in ``os.environ``: the processes this code starts get it in
their environment explicitly (:func:`child_env`: the warm-ups), so they compile and load the same tier. Nothing
compiles that a user did not ask for: a command that ran on the quick tier says once (per source version) how to
get the full tier: ``dicesim cache warm`` compiles it in the foreground, and ``DICESIM_BACKGROUND_COMPILE=1`` makes
a quick run start it when the command ends (one detached process at the lowest CPU priority, at most one at a
time: a lock file with its pid, logged in the cache folder). Each tier caches its kernels under its own key
(``sim.jit.jitcache`` adds :func:`tag`), so neither can load the other's. A warm-up process that compiles the
quick tier does so at LLVM level ``QUICK_OPT`` (:func:`compile_env`): a first run's critical path is that compile.
"""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

from sim.core.config import DicesimError
from sim.core.paths import clear_folder, numba_dir
from sim.jit.codehash import closure, module_file, source_key
from sim.jit.progress import UNDECLARED_S, declared, keyed_by, machine_factor, recorded, say

ENV = "DICESIM_TIER"
BACKGROUND_ENV = "DICESIM_BACKGROUND_COMPILE"
QUICK, FULL = "quick", "full"
TIERED_GAME = "dungeon"  # the one game whose kernels the tiers change (the others compile in 20-25 s)


def warm_dir() -> Path:
    return numba_dir() / "warm"


def _game_key() -> str:
    return source_key(module_file(f"sim.games.{TIERED_GAME}.game"))


def full_marker() -> Path:
    """Written by the warm-up once the full tier's kernels are cached for the current source."""
    return warm_dir() / f"{TIERED_GAME}-{_game_key()}"


def _decide() -> str:
    forced = os.environ.get(ENV, "")
    if forced:
        if forced not in (QUICK, FULL):
            raise DicesimError(f"{ENV} must be {QUICK!r} or {FULL!r}, not {forced!r}")
        return forced
    return FULL if full_marker().is_file() else QUICK


def current() -> str:
    """This process's tier, decided on first use (the decision hashes the tiered game's source: a process that
    never plays it does not pay for that)."""
    tier = globals().get("TIER")
    if tier is None:
        tier = globals()["TIER"] = _decide()
    return tier


def __getattr__(name: str) -> str:
    """``TIER`` and ``INLINE`` (what the tiered game's kernel modules read at import), decided on first use."""
    if name == "TIER":
        return current()
    if name == "INLINE":
        return "always" if current() == FULL else "never"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


QUICK_OPT = "1"
"""LLVM's optimisation level (numba's ``NUMBA_OPT``, default 3) of a process that compiles the quick tier for another
(``sim.jit.warmup``): measured 2026-12-06, the quick tier's cold compile 52.8 s of numba's CPU instead of 64.7 s
(-18 %), its play as fast within the noise (Vorschlag, Greedy, rollout) but Expectimax 10 % slower; the same
numbers (no fast-math: LLVM keeps every floating-point result at any level). The full tier keeps level 3."""


def compile_env(game: str, env: dict[str, str]) -> dict[str, str]:
    """``child_env`` for a process that compiles ``game``'s kernels: the tiered game's quick tier at ``QUICK_OPT``
    unless the environment names a level itself."""
    env = child_env(env)
    if game == TIERED_GAME and env[ENV] == QUICK and "NUMBA_OPT" not in env:
        env["NUMBA_OPT"] = QUICK_OPT
    return env


def child_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a process that compiles or plays kernels for this one: ``env`` (default this process's)
    with this process's tier, so that both use the same kernels."""
    return {**(os.environ if env is None else env), ENV: current()}


@cache
def _reads_inline(path: Path) -> bool:
    return path != Path(__file__).resolve() and b"inline=INLINE" in path.read_bytes()


def tag(path: Path) -> str:
    """``"-quick"`` in a quick process for a project module whose kernels depend on the tier (it or a project
    module it imports compiles with ``inline=INLINE``), else ``""``: part of its kernel cache key and marker."""
    if not any(_reads_inline(p) for p in closure(path)):
        return ""
    return f"-{QUICK}" if current() == QUICK else ""


def compile_key(game: str) -> str:
    """The name a game's compile estimate and warm-up marker go by: the tiered game's quick tier has its own."""
    return f"{game}-{QUICK}" if game == TIERED_GAME and current() == QUICK else game


_played = False  # this process set the tiered game's runs going (``played``)


def played() -> None:
    """Called where the tiered game's runs are set going (its ``Game.prepare``, in the process that asked for them,
    whichever processes then play them)."""
    global _played
    _played = True


def used_quick() -> bool:
    """True when this process ran the Würfel Dungeon on quick kernels (a call that was refused after importing its
    kernels, followed by a Kniffel play, said it had)."""
    return _played and current() == QUICK


def _lock() -> Path:
    return warm_dir() / f"{TIERED_GAME}-{_game_key()}.compiling"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _take_lock(lock: Path) -> bool:
    """Create ``lock`` unless a live compile holds it (a lock left by a killed one is taken over)."""
    lock.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(2):
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            try:
                pid = int(lock.read_text() or "0")
            except (OSError, ValueError):
                pid = 0
            if pid and _alive(pid):
                return False
            if not clear_folder(lock):  # a folder in the lock's place would refuse every later compile
                lock.unlink(missing_ok=True)
            continue
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        return True
    return False


def background_asked() -> bool:
    """``DICESIM_BACKGROUND_COMPILE=1``: the user asked quick runs to start the full tier's compile when they end."""
    return os.environ.get(BACKGROUND_ENV, "0") == "1"


def force(name: str) -> None:
    """Use tier ``name`` in this process (``dicesim cache warm`` compiles the full one); before any kernel loads."""
    if name not in (QUICK, FULL):
        raise ValueError(name)
    globals()["TIER"] = name


def compile_full_in_background() -> Path | None:
    """Start compiling the full tier (detached, lowest priority) when the user asked for it
    (:func:`background_asked`) and it is neither cached nor compiling; returns its log file when started."""
    if current() != QUICK or not background_asked() or full_marker().is_file():
        return None
    lock = _lock()
    try:
        if not _take_lock(lock):
            return None
        log = warm_dir() / f"{TIERED_GAME}-full.log"
        clear_folder(log)
        env = {**os.environ, ENV: FULL, "DICESIM_QUIET": "1"}
        pid = _spawn([sys.executable, "-m", "sim.jit.warmup", TIERED_GAME, "--release", str(lock)], env, log)
        lock.write_text(str(pid))
    except OSError as e:  # an unwritable cache folder: later runs stay on the quick tier
        print(f"warning: cannot start the background compile: {e.strerror or e}", file=sys.stderr)
        return None
    return log


def _spawn(args: list[str], env: dict[str, str], log: Path) -> int:
    """Start ``args`` detached from this process and its terminal (it outlives the command), at the lowest CPU
    priority, writing to ``log``; returns its pid."""
    with open(log, "w") as out:
        proc = subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True, preexec_fn=_lowest_priority if hasattr(os, "nice") else None)
    return proc.pid


def _lowest_priority() -> None:
    os.nice(19)


def after_command() -> None:
    """Called when a command ends: a run on quick kernels starts the full tier's compile and says so."""
    if not used_quick():
        return
    log = compile_full_in_background()
    if log is not None:
        say("note: the Würfel Dungeon ran on its quick kernels this time (same numbers, about 2/3 of the speed); "
            "its optimised kernels now compile in the background at low priority "
            f"(about {full_compile_minutes()} min of CPU, once), and later runs use them (log: {log})")
    elif not background_asked() and not full_marker().is_file():
        _suggest_once()


def _suggest_once() -> None:
    """Say, once per source version of the kernels, how to get the full tier (nothing starts on its own)."""
    told = warm_dir() / f"{TIERED_GAME}-{_game_key()}.told"
    if told.is_file():
        return
    say("note: the Würfel Dungeon ran on its quick kernels (same numbers, about 2/3 of the speed); "
        f"`dicesim cache warm` compiles its optimised kernels once (about {full_compile_minutes()} min of CPU), "
        "or DICESIM_BACKGROUND_COMPILE=1 starts that in the background after a run")
    try:
        told.parent.mkdir(parents=True, exist_ok=True)
        clear_folder(told)
        told.touch()
    except OSError:  # an unwritable cache folder: the note comes again next time, nothing else changes
        pass


def full_compile_minutes() -> int:
    """The full tier's compile time on this machine, in minutes: its own record if it compiled here before, else
    the figure the game declares for it, scaled by how this machine's compiles compared with their figures
    (``progress.machine_factor``: a slow machine is slow at all of them; a fixed "4 min" read as 8 on a busy laptop)."""
    seconds = recorded(TIERED_GAME) or (declared(TIERED_GAME, TIERED_GAME) or UNDECLARED_S) * machine_factor()
    return max(1, round(seconds / 60))


def state() -> dict:
    """What ``dicesim cache info`` shows: this process's tier and whether the full tier is cached or compiling."""
    lock = _lock()
    compiling = False
    if lock.exists():
        try:
            compiling = _alive(int(lock.read_text() or "0"))
        except (OSError, ValueError):
            pass
    return {"game": TIERED_GAME, "tier": current(), "full_cached": full_marker().is_file(), "full_compiling": compiling}


keyed_by(TIERED_GAME, compile_key)  # its compile times are kept per tier ("dungeon-quick" for the quick one)
