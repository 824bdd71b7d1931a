"""Numba's disk cache for the project's own kernels, keyed so that it can never serve a stale kernel and survives
unrelated edits.

Numba keys a cached kernel by the modification time of its own source file only: a kernel that
inlines a function from another module would keep running the old code after that module changed.
Here a kernel of project module ``M`` is cached under ``<cache>/numba/M/<key>`` where ``key`` hashes
the source of ``M`` and of every project module ``M`` imports, transitively (read from the import
statements, so it covers whatever numba can reach from ``M``'s globals). Editing ``sim/report/outputs.py``
therefore recompiles nothing, editing ``sim/core/dice.py`` recompiles the kernels that import it, and two
checkouts of the same source share one cache.

Only the project's own functions get this cache, one dispatcher at a time: :func:`install` (run when this module
is imported, which ``sim.jit.hook`` does as soon as numba is) makes numba's ``Dispatcher.enable_caching``, which
``@njit(cache=True)`` calls once per function, give a function defined in a project module a :class:`ProjectCache`
(numba's own ``FunctionCache`` with :class:`ProjectLocator` as its only locator, numba's way of choosing where a cache
lives) and hand every other function to numba's own ``enable_caching`` unchanged: a user's ``@njit(cache=True)`` code
in the same process caches exactly where plain numba puts it, and nothing is written into ``os.environ``.

What this relies on in numba (pinned to 0.68.x in pyproject.toml): the locator base class ``caching._CacheLocator``,
``caching.FunctionCache`` and ``caching.CompileResultCacheImpl`` with its ``_locator_classes``, and
``Dispatcher.enable_caching`` setting the dispatcher's ``_cache``. Where one is missing :func:`install` changes
nothing and says so in one warning line: the project's kernels then cache as plain numba caches them.
``tests/test_jitcache.py`` fails when numba changes any of them.
"""

from __future__ import annotations

import inspect
import os
import shutil
import sys
import time
from functools import cache
from pathlib import Path

from numba.core import caching
from numba.core.dispatcher import Dispatcher

from sim.core.paths import make_cache_folder, numba_dir
from sim.jit import cacheheal, inlinecopy
from sim.jit.codehash import PROJECT_ROOT, module_file, module_name, source_key
from sim.jit.tier import tag

PRUNE_AFTER_S = 86_400
# what this module builds on, as (owner, attribute): checked by :func:`missing` before anything is changed
NEEDS = ((caching, "_CacheLocator"), (caching, "FunctionCache"), (caching, "CompileResultCacheImpl"),
         (getattr(caching, "CompileResultCacheImpl", None), "_locator_classes"), (Dispatcher, "enable_caching"))


def missing() -> str | None:
    """The first piece of numba this module needs that the installed numba lacks (a dotted name), else None."""
    for owner, name in NEEDS:
        if owner is None or not hasattr(owner, name):
            return f"numba.core.caching.{name}" if owner is not Dispatcher else f"Dispatcher.{name}"
    return None


@cache
def kernel_key(path: Path) -> str:
    """The source key of ``path``, tagged with the compile tier when its kernels depend on it (``sim.jit.tier``)."""
    return source_key(path) + tag(path)


def kernel_dir(path: Path) -> Path:
    """Where the kernels of project file ``path`` are cached for its current source (and tier)."""
    return numba_dir() / module_name(path) / kernel_key(path)


@cache
def project_file(py_file: str) -> Path | None:
    """The project module file ``py_file`` names (a module of ``sim`` or ``policies`` in this checkout), else None
    (asked once per function numba decorates: remembered per file)."""
    path = Path(py_file).resolve()
    if path.suffix == ".py" and path.is_relative_to(PROJECT_ROOT) and module_file(module_name(path)) == path:
        return path
    return None


def _prune(module_dir: Path, current: str) -> None:
    """Remove other source versions of one module's kernels that were unused for a day."""
    try:
        for old in module_dir.iterdir():
            if old.name != current and time.time() - old.stat().st_mtime > PRUNE_AFTER_S:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:
        pass


class ProjectLocator(getattr(caching, "_CacheLocator", object)):
    """Caches the kernels of one project module under its import-closure key (in ``sim.core.cache.numba_dir``)."""

    def __init__(self, py_file: Path):
        self._path = py_file
        self._py_file = str(py_file)  # numba names the file in its "Cannot cache compiled function" warning
        self._key = kernel_key(py_file)
        self._dir = kernel_dir(py_file)

    def ensure_cache_path(self) -> None:
        make_cache_folder(self._dir)  # a file where one of its folders belongs is removed first
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
        path = project_file(py_file)
        return None if path is None else cls(path)


class ProjectCacheImpl(getattr(caching, "CompileResultCacheImpl", object)):
    """numba's cache of compile results, located by :class:`ProjectLocator` alone."""

    _locator_classes = [ProjectLocator]


class ProjectCache(getattr(caching, "FunctionCache", object)):
    """A project function's cache: numba's ``FunctionCache`` in the project's folder; a cache file that cannot be
    loaded is removed and compiled again with one warning (``sim.jit.cacheheal``)."""

    _impl_class = ProjectCacheImpl

    def load_overload(self, sig, target_context):
        inlinecopy.install()  # numba loads or compiles a project kernel next: its inliner copies fast
        try:
            loaded = super().load_overload(sig, target_context)
        except Exception as e:  # noqa: BLE001 - any unloadable cache file is treated the same: compile again
            cacheheal.heal(self, e)
            return None
        if loaded is None:  # a miss: numba compiles and writes the files next, so no folder may stand in their way
            cacheheal.clear_folders(self)
        return loaded


_numba_enable_caching = getattr(Dispatcher, "enable_caching", None)


def enable_caching(self: Dispatcher) -> None:
    """``Dispatcher.enable_caching`` as installed: a project function gets a :class:`ProjectCache`, any other one
    numba's own cache."""
    try:
        ours = project_file(inspect.getfile(self.py_func)) is not None
    except TypeError:  # no source file (a built-in, an interactive definition): numba decides
        ours = False
    if ours:
        self._cache = ProjectCache(self.py_func)
    else:
        _numba_enable_caching(self)


def install() -> bool:
    """Give the project's functions decorated from now on their own cache (once per process); False, after one
    warning line, when this numba lacks what that needs: they then cache as plain numba caches them."""
    if getattr(Dispatcher, "enable_caching", None) is enable_caching:
        return True
    gap = missing()
    if gap is not None:
        import numba

        print(f"warning: numba {numba.__version__} has no {gap}: dicesim's kernels use numba's own disk cache "
              "(next to their source, keyed by its time stamp)", file=sys.stderr)
        return False
    Dispatcher.enable_caching = enable_caching
    return True


install()  # importing this module is installing it (``sim.jit.hook`` imports it once numba is there)
