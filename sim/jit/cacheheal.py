"""A compiled kernel whose cache file cannot be loaded is compiled again, with one warning line.

numba reads a cached kernel in one place, the cache's ``load_overload(sig, target_context)``: a truncated or
damaged index (``.nbi``) or data (``.nbc``) file makes it raise (``UnpicklingError``, ``EOFError``, LLVM's "bitcode
parsing error"), and so does every later run, until the cache is cleared. The project's own cache class
(``sim.jit.jitcache.ProjectCache``, the only one that uses this module) catches that: :func:`heal` removes that
function's index and data files and says so in one ``warning:`` line, and the load answers ``None``, numba's own
answer for a cache miss, so numba compiles the kernel and writes fresh files (as damaged solved tables are rebuilt,
``sim.core.cache.load_table``). A folder where one of those files belongs (numba reads a data file it cannot open as
a miss, then fails writing it) is removed the same way, after a miss and before numba writes: :func:`clear_folders`;
a folder is only ever removed inside the kernels' folder (``sim.core.paths.clear_folder``), and so is a file where
the function's folder belongs (``sim.core.paths.make_cache_folder``). numba's own caches, a
user's included, are left to fail as numba makes them fail.

The function's file names come from the cache's ``_impl.filename_base`` where numba still has it, else every kernel
file of that module version is removed (more to recompile, still correct). ``tests/test_kernel_cache_heal.py``
damages each kind of file, and fails when numba changes what this reads.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any

from sim.core.paths import clear_folder, make_cache_folder, numba_dir

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
    if isinstance(e, IsADirectoryError) and e.filename:
        return _in_the_way(Path(e.filename))
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0][:80]}" if text else type(e).__name__


def _in_the_way(f: Path) -> str:
    return f"a folder stands where its file {f.name} belongs"


def _remove(f: Path) -> None:
    """Remove one kernel file, or the folder standing in its place (inside the kernels' folder only); what cannot be
    removed is left for numba to report when it writes there."""
    if not clear_folder(f, numba_dir()):
        with contextlib.suppress(OSError):
            f.unlink(missing_ok=True)


def _say(name: str, why: str) -> None:
    if name not in _warned:
        _warned.add(name)
        print(f"warning: the compiled kernel {name} could not be loaded from its cache ({why}); "
              "removed it and compiling it again", file=sys.stderr)


def heal(cache: Any, e: BaseException) -> None:
    """Remove the damaged cache files of ``cache``'s function and say so once; a file standing where the function's
    folder belongs is removed instead (``make_cache_folder`` says so), a miss."""
    if isinstance(e, NotADirectoryError):
        make_cache_folder(Path(cache.cache_path))
        return
    name, files = kernel_files(cache)
    for f in files:
        _remove(f)
    _say(name, _why(e))


def clear_folders(cache: Any) -> None:
    """After a cache miss, before numba compiles and writes the function's files: a folder where one of them belongs
    is removed, and said once. numba reads such a data file as a miss and then fails writing it, on every run."""
    name, files = kernel_files(cache)
    for f in files:
        if f.is_dir() and clear_folder(f, numba_dir()):
            _say(name, _in_the_way(f))
