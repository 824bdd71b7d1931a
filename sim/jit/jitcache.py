"""Numba's disk cache, keyed so that it can never serve a stale kernel and survives unrelated edits.

Numba keys a cached kernel by the modification time of its own source file only: a kernel that
inlines a function from another module would keep running the old code after that module changed.
Here a kernel of project module ``M`` is cached under ``<cache>/numba/M/<key>`` where ``key`` hashes
the source of ``M`` and of every project module ``M`` imports, transitively (read from the import
statements, so it covers whatever numba can reach from ``M``'s globals). Editing ``sim/report/outputs.py``
therefore recompiles nothing, editing ``sim/core/dice.py`` recompiles the kernels that import it, and two
checkouts of the same source share one cache. Numba's own locators still handle every other file.

``sim`` registers :class:`ProjectLocator` through ``NUMBA_CACHE_LOCATOR_CLASSES`` before numba is
imported, or with :func:`install` when numba came first.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from numba.core import caching

from sim.core.cache import numba_dir
from sim.jit import cacheheal, inlinecopy
from sim.jit.codehash import PROJECT_ROOT, module_file, module_name, source_key

inlinecopy.install()  # numba loads this module before it compiles a project kernel: its inliner copies fast
cacheheal.install()  # ... and before it loads one: a damaged cache file is compiled again, with one warning

PRUNE_AFTER_S = 86_400


def kernel_key(path: Path) -> str:
    """The source key of ``path``, tagged with the compile tier when its kernels depend on it (``sim.jit.tier``)."""
    from sim.jit.tier import tag

    return source_key(path) + tag(path)


def kernel_dir(path: Path) -> Path:
    """Where the kernels of project file ``path`` are cached for its current source (and tier)."""
    return numba_dir() / module_name(path) / kernel_key(path)


def _prune(module_dir: Path, current: str) -> None:
    """Remove other source versions of one module's kernels that were unused for a day."""
    try:
        for old in module_dir.iterdir():
            if old.name != current and time.time() - old.stat().st_mtime > PRUNE_AFTER_S:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:
        pass


class ProjectLocator(caching._CacheLocator):
    """Caches kernels of ``sim`` and ``policies`` under their import-closure key; others go to numba's locators."""

    def __init__(self, py_file: Path):
        self._path = py_file
        self._py_file = str(py_file)  # numba names the file in its "Cannot cache compiled function" warning
        self._key = kernel_key(py_file)
        self._dir = kernel_dir(py_file)

    def ensure_cache_path(self) -> None:
        super().ensure_cache_path()
        os.utime(self._dir)  # marks this source version as in use (pruning keeps it)
        _prune(self._dir.parent, self._key)

    def get_cache_path(self) -> str:
        return str(self._dir)

    def get_source_stamp(self) -> str:
        return self._key

    def get_disambiguator(self) -> str:
        return self._path.stem

    @classmethod
    def from_function(cls, py_func, py_file):
        path = Path(py_file).resolve()
        if path.suffix == ".py" and path.is_relative_to(PROJECT_ROOT) and module_file(module_name(path)) == path:
            return cls(path)
        for other in caching.CacheImpl._locator_classes:  # numba's own locators for every other file
            locator = other.from_function(py_func, py_file)
            if locator is not None:
                return locator
        return None


LOCATOR = f"{__name__}.ProjectLocator"


def install() -> None:
    """Make an already imported numba use :class:`ProjectLocator` (it reads this setting per cached function)."""
    from numba.core import config

    config.CACHE_LOCATOR_CLASSES = LOCATOR
