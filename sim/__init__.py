"""dicesim: a Monte Carlo balance simulator for dice games (numba core).

Compiled kernels are cached in the user's cache directory (``sim.cache``), each under a key of its
module's source and of every project module it imports (``sim.jitcache``): a change to code a kernel
can reach recompiles it, any other edit leaves it warm. Numba must learn this before it creates its
first cache, which importing ``sim`` (or ``policies``) guarantees.
"""

from __future__ import annotations

import os
import sys

__version__ = "0.1.0"


def _use_project_cache() -> None:
    if "numba" in sys.modules:  # numba imported first: it still reads the setting per cached function
        from sim.jitcache import install

        install()
    else:
        os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = "sim.jitcache.ProjectLocator"


_use_project_cache()

# The notebook API (``sim.api``), reached lazily so that ``import sim`` stays cheap. ``sim.sweep`` and
# ``sim.calibrate`` are also submodules: they stay modules (patching and ``from sim.sweep import …`` keep
# working) and are made callable, forwarding to ``sim.api.sweep`` / ``sim.api.calibrate``.
import types  # noqa: E402  (this block is self-contained: it only adds the API below the cache setup)

_API = ("play", "compare", "solve")
_CALLABLE_MODULES = ("sweep", "calibrate")


class _CallableModule(types.ModuleType):
    def __call__(self, *args, **kwargs):
        from sim import api

        return getattr(api, self.__name__.rsplit(".", 1)[1])(*args, **kwargs)


class _Package(types.ModuleType):
    def __getattribute__(self, name: str):
        value = super().__getattribute__(name)
        if name in _CALLABLE_MODULES and type(value) is types.ModuleType:
            value.__class__ = _CallableModule
        return value


def __getattr__(name: str):
    """``sim.play``, ``sim.compare``, ``sim.solve`` from ``sim.api``; ``sim.sweep``/``sim.calibrate`` imported."""
    if name in _API:
        from sim import api

        return getattr(api, name)
    if name in _CALLABLE_MODULES:
        import importlib

        importlib.import_module(f"sim.{name}")
        return getattr(sys.modules[__name__], name)
    raise AttributeError(f"module 'sim' has no attribute {name!r}")


sys.modules[__name__].__class__ = _Package
