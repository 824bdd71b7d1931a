"""dicesim: a Monte Carlo balance simulator for dice games (numba core).

Compiled kernels are cached in the user's cache directory (``sim.core.cache``), each under a key of its
module's source and of every project module it imports (``sim.jit.jitcache``): a change to code a kernel
can reach recompiles it, any other edit leaves it warm. Numba must learn this before it creates its
first cache, which importing ``sim`` (or ``policies``) guarantees.
"""

from __future__ import annotations

import os
import sys

__version__ = "0.1.0"


def _use_project_cache() -> None:
    if "numba" in sys.modules:  # numba imported first: it still reads the setting per cached function
        from sim.jit.jitcache import install

        install()
    else:
        os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = "sim.jit.jitcache.ProjectLocator"


_use_project_cache()

_API = ("play", "compare", "sweep", "calibrate", "solve")


def __getattr__(name: str):
    """The notebook API (``sim.play``, ``sim.compare``, ``sim.sweep``, ``sim.calibrate``, ``sim.solve`` from
    ``sim.api``), reached lazily so that ``import sim`` stays cheap."""
    if name in _API:
        from sim import api

        return getattr(api, name)
    raise AttributeError(f"module 'sim' has no attribute {name!r}")
