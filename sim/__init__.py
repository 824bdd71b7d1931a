"""dicesim: a Monte Carlo balance simulator for dice games (numba core).

Compiled kernels are cached in the user's cache directory (``sim.core.cache``), each under a key of its
module's source and of every project module it imports (``sim.jit.jitcache``): a change to code a kernel
can reach recompiles it, any other edit leaves it warm. Importing ``sim`` (or ``policies``) arranges that for the
project's own functions before numba decorates the first of them (``sim.jit.hook``): numba itself is imported only
when a command needs it, a user's own ``@njit(cache=True)`` code keeps numba's caching, and nothing is written into
``os.environ``.
"""

from __future__ import annotations

from sim.jit.hook import when_numba_loads

__version__ = "0.1.0"

when_numba_loads()

_API = ("play", "compare", "sweep", "calibrate", "solve")


def __getattr__(name: str):
    """The notebook API (``sim.play``, ``sim.compare``, ``sim.sweep``, ``sim.calibrate``, ``sim.solve`` from
    ``sim.api``), reached lazily so that ``import sim`` stays cheap; ``sim.DicesimError``: what every refused input
    raises (a config's fault is its subclass ``ConfigError``), for a notebook to catch."""
    if name in _API:
        from sim import api

        return getattr(api, name)
    if name == "DicesimError":
        from sim.core.errors import DicesimError

        return DicesimError
    raise AttributeError(f"module 'sim' has no attribute {name!r}")
