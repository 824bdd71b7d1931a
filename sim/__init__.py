"""dicesim: a Monte Carlo balance simulator for dice games (numba core).

Numba's disk cache keys a compiled kernel by its own source file only, so a kernel would keep
running stale code after a function it calls from another module changed. Compiled kernels are
therefore cached under ``.cache/numba/<hash of every source file of sim/ and policies/>`` (unless
``NUMBA_CACHE_DIR`` is set): any source change starts a fresh cache, unchanged code starts warm.
Caches of other source versions are pruned after a day unused. This must run before numba is
imported, which importing ``sim`` (or ``policies``) guarantees.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent


def _source_hash() -> str:
    h = hashlib.sha256()
    for pkg in ("sim", "policies"):
        for p in sorted((_ROOT / pkg).rglob("*.py")):
            h.update(str(p.relative_to(_ROOT)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _set_numba_cache() -> None:
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    base = _ROOT / ".cache" / "numba"
    current = _source_hash()
    os.environ["NUMBA_CACHE_DIR"] = str(base / current)
    try:
        for old in base.iterdir() if base.is_dir() else ():
            if old.name != current and time.time() - old.stat().st_mtime > 86_400:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:
        pass


_set_numba_cache()

# The notebook API (``sim.api``), reached lazily so that ``import sim`` stays cheap. ``sim.sweep`` and
# ``sim.calibrate`` are also submodules: they stay modules (patching and ``from sim.sweep import …`` keep
# working) and are made callable, forwarding to ``sim.api.sweep`` / ``sim.api.calibrate``.
import sys  # noqa: E402  (this block is self-contained: it only adds the API below the cache setup)
import types  # noqa: E402

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
