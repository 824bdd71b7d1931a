"""A compiled kernel whose cache file cannot be loaded is compiled again, with one warning line.

numba reads a cached kernel in one place, the cache's ``load_overload(sig, target_context)``: a truncated or
damaged index (``.nbi``) or data (``.nbc``) file makes it raise (``UnpicklingError``, ``EOFError``, LLVM's "bitcode
parsing error"), and so does every later run, until the cache is cleared. :func:`install` (called by
``sim.jit.jitcache``, before any project kernel loads) wraps that one driver method: for a kernel cached under the
project's folder (``sim.core.cache.numba_dir``) a load that raises removes that function's index and data files,
says so in one ``warning:`` line and returns ``None``, numba's own answer for a cache miss, so numba compiles the
kernel and writes fresh files (as damaged solved tables are rebuilt, ``sim.core.cache.load_table``).

The wrapper reads the cache's public ``cache_path``; the function's file names come from its ``_impl.filename_base``
where numba still has it, else every kernel file of that module version is removed (more to recompile, still
correct). When numba's cache class no longer has ``load_overload`` the wrapper is not installed and loading is
numba's own. ``tests/test_kernel_cache_heal.py`` damages each kind of file, and fails when numba changes either.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

from numba.core import caching

from sim.core.cache import numba_dir

_warned: set[str] = set()


def kernel_files(cache: Any) -> tuple[str, list[Path]]:
    """(a readable name, the index and data files) of one function's cache (``caching.Cache``)."""
    folder = Path(cache.cache_path)
    module = folder.parent.name
    base = getattr(getattr(cache, "_impl", None), "filename_base", None)
    if not isinstance(base, str):  # numba changed: every kernel of this module version
        return module, sorted(p for p in folder.glob("*.nb[ic]"))
    qualname = base.split("-", 1)[0].split(".", 1)[-1]
    return f"{module}.{qualname}", sorted([folder / f"{base}.nbi", *folder.glob(f"{base}.*.nbc")])


def _why(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0][:80]}" if text else type(e).__name__


def heal(cache: Any, e: BaseException) -> None:
    """Remove the damaged cache files of ``cache``'s function and say so once."""
    name, files = kernel_files(cache)
    for f in files:
        f.unlink(missing_ok=True)
    if name not in _warned:
        _warned.add(name)
        print(f"warning: the compiled kernel {name} could not be loaded from its cache ({_why(e)}); "
              "removed it and compiling it again", file=sys.stderr)


def _ours(cache: Any) -> bool:
    try:
        return Path(cache.cache_path).resolve().is_relative_to(numba_dir().resolve())
    except (OSError, TypeError, ValueError):
        return False


def install() -> bool:
    """Wrap ``caching.Cache.load_overload`` once; False when numba no longer has it (nothing changed then)."""
    original = getattr(caching.Cache, "load_overload", None)
    if original is None or getattr(original, "_dicesim_heal", False):
        return original is not None

    @functools.wraps(original)
    def load_overload(self, sig, target_context):
        try:
            return original(self, sig, target_context)
        except Exception as e:  # noqa: BLE001 - any unloadable cache file is treated the same: compile again
            if not _ours(self):
                raise
            heal(self, e)
            return None

    load_overload._dicesim_heal = True  # type: ignore[attr-defined]
    caching.Cache.load_overload = load_overload
    return True
