"""Start a balance report's cold compiles before this process imports numba, pandas and the games.

Those imports take ~5 s of one core on a 2-core machine; the compiles (in parallel processes, ``sim.jit.warmup``)
would otherwise wait for them with a core idle. Only where every game declares its report policies in its light
``options`` module: the run limit is checked first, so a refused ``--n`` leaves nothing compiling.
"""

from __future__ import annotations

from sim.core.limits import check_runs
from sim.games import GAMES, declared
from sim.jit import warmup


def compile_ahead(n: int, names: list[str] | None, force: bool) -> None:
    """Check the report's runs, then start compiling the cold kernels of ``names`` (default: every game)."""
    playing = names or list(GAMES)
    policies = [declared(g, "REPORT_POLICIES") for g in playing]
    if any(p is None for p in policies):  # a game without the declaration: the work module checks and starts
        return
    check_runs(n * sum(len(p) for p in policies), force, "--n x every game's policies")
    warmup.start(playing)
