"""Where dicesim's caches live: the user cache folder (``DICESIM_CACHE_DIR`` moves it) and its parts.

Light on purpose (the standard library and ``platformdirs`` only): the command line looks up its stored answers
there, before it knows whether a command needs numpy (``sim.core.cache`` holds what reads and writes
the cached tables).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from platformdirs import user_cache_dir

from sim.core.errors import DicesimError

ENV = "DICESIM_CACHE_DIR"

# What the cache keeps at most: beyond it the least recently used files go first (a read marks its file as used).
# Solved tables are ~0.3-3 MB each once compressed (a Kniffel sweep over its rules stores one per value; they once
# grew to 29 GB on a test machine), stored answers a few kB.
TABLES_BUDGET = 1 << 30
ANSWERS_BUDGET = 64 << 20
STALE_TEMPORARY_S = 3600  # a temporary file this old was left by a writer that was killed


def cache_root() -> Path:
    """``$DICESIM_CACHE_DIR``, else the platform's user cache directory for dicesim."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV]).expanduser().absolute()
    return Path(user_cache_dir("dicesim", appauthor=False))


def check_cache_root() -> None:
    """A ``$DICESIM_CACHE_DIR`` that cannot be a folder (a file, a path under one, a place where no folder can be
    made) is refused in one line before any work, instead of failing inside numba's cache on the first kernel."""
    if not os.environ.get(ENV):
        return
    root = cache_root()
    # a relative folder is this working folder's: said so to the processes this one starts (workers, a background
    # compile), which may start elsewhere
    os.environ[ENV] = str(root)
    try:
        root.mkdir(parents=True, exist_ok=True)
        probe = root / f".probe-{os.getpid()}"
        probe.mkdir()
        probe.rmdir()
    except OSError as e:
        why = (e.strerror or str(e)).lower()
        raise DicesimError(f"{ENV} {root}: cannot be the cache folder ({why}); give a folder you can "
                           "write to, or unset it") from None


def numba_dir() -> Path:
    """Compiled kernels (``NUMBA_CACHE_DIR`` when set, as numba itself would use it)."""
    return Path(os.environ["NUMBA_CACHE_DIR"]) if os.environ.get("NUMBA_CACHE_DIR") else cache_root() / "numba"


def tables_dir() -> Path:
    return cache_root() / "tables"


def answers_dir() -> Path:
    """The printed answers of ``combos`` and ``describe`` (``sim.cli.answers``)."""
    return cache_root() / "answers"


def imports_note() -> Path:
    """Each kernel source's imported names (``sim.jit.codehash``: parsing is the slow part of a source key)."""
    return cache_root() / "imports.json"


def mark_used(path: Path) -> None:
    """Mark a cache file as just used (its modification time), so that :func:`keep_within` keeps it longest; a
    read-only cache is left as it is."""
    with contextlib.suppress(OSError):
        os.utime(path)


def keep_within(folder: Path, budget: int, keep: Path | None = None) -> int:
    """Keep the files below the cache folder ``folder`` within ``budget`` bytes: the least recently used
    (:func:`mark_used`) are removed first, never ``keep`` (the file just written); a temporary file a killed writer
    left (:func:`write_whole`) goes once it is an hour old. Returns the bytes removed; what cannot be read or removed
    is left (a cache that cannot be tidied still works)."""
    now, files, freed = time.time(), [], 0
    for p, st in files_below(str(folder)):  # os.scandir: 20,000 files in ~0.1 s (pathlib's rglob ~0.17)
        if os.path.basename(p).startswith(".") and p.endswith(".tmp"):
            if now - st.st_mtime > STALE_TEMPORARY_S:
                with contextlib.suppress(OSError):
                    os.unlink(p)
                    freed += st.st_size
            continue
        files.append((st.st_mtime, st.st_size, p))
    keep = None if keep is None else str(keep)
    total = sum(size for _, size, _ in files)
    for _, size, p in sorted(files, key=lambda f: f[:2]):
        if total <= budget:
            break
        if p == keep:
            continue
        with contextlib.suppress(OSError):
            os.unlink(p)
            total -= size
            freed += size
    return freed


def files_below(folder: str) -> Iterator[tuple[str, os.stat_result]]:
    """(path, stat) of every plain file below ``folder`` (links not followed); what cannot be read is passed over."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for e in entries:
        try:
            if e.is_dir(follow_symlinks=False):
                yield from files_below(e.path)
            elif e.is_file(follow_symlinks=False):
                yield e.path, e.stat(follow_symlinks=False)
        except OSError:
            continue


def clear_folder(path: Path, root: Path | None = None) -> bool:
    """Make room for the cache file ``path``: a folder standing where that file belongs (a stray ``mkdir``, a tool
    gone wrong) is removed, a link to a folder unlinked, but only inside the cache folder ``root`` (unless given: the
    cache root or the kernels' folder, ``numba_dir``), never that folder itself nor anything outside it. True when
    something was removed; anything else (a file, nothing, a folder outside, one that cannot be removed) is left."""
    try:
        if not path.is_dir():
            return False
        where = _inside(path, root)
        if where is None:
            return False
        if path.is_symlink():
            where.unlink()
        else:
            shutil.rmtree(where)
        return True
    except OSError:
        return False


def _inside(path: Path, root: Path | None) -> Path | None:
    """``path`` itself (not where a link points) when it lies strictly inside the cache folder ``root`` (unless given:
    the cache root or the kernels' folder), else None."""
    bases = [Path(os.path.realpath(b)) for b in ((root,) if root is not None else (cache_root(), numba_dir()))]
    where = Path(os.path.realpath(path.parent)) / path.name
    return where if any(where != b and where.is_relative_to(b) for b in bases) else None


def make_cache_folder(folder: Path, root: Path | None = None) -> None:
    """``mkdir -p folder`` for a cache folder: a file or a dangling link standing where one of its folders belongs
    (inside the cache folder ``root`` only, as :func:`clear_folder`) is removed, with one warning line, instead of
    failing every later write there. Anything else that stops it is raised as ``mkdir`` raises it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return
    except (FileExistsError, NotADirectoryError):
        pass
    for p in reversed((folder, *folder.parents)):
        if (p.is_symlink() or p.exists()) and not p.is_dir():
            where = _inside(p, root)
            if where is None:
                break
            where.unlink()
            print(f"warning: a file stood where the cache folder {where} belongs; removed it", file=sys.stderr)
    folder.mkdir(parents=True, exist_ok=True)


def write_whole(path: Path, write: Callable[[IO[bytes]], None], root: Path | None = None) -> None:
    """Write the cache file ``path`` whole or not at all: ``write`` fills a temporary file beside it, which is then
    renamed over ``path``. A folder where ``path`` belongs is removed first (:func:`clear_folder`, inside ``root``),
    and so is a file where one of its folders belongs (:func:`make_cache_folder`); on any failure (a full disk, a rename
    refused) the temporary file is removed and the error raised."""
    make_cache_folder(path.parent, root)
    clear_folder(path, root)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{time.time_ns()}.tmp")
    try:
        with open(tmp, "wb") as f:
            write(f)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise


def save_note(path: Path, data: Any, sort_keys: bool = True) -> None:
    """A small JSON note in the cache (the games catalog, measured compile times, stored answers) written whole (a
    temporary name, then a rename) or not at all (:func:`write_whole`: a folder in its place is removed): a cache
    that cannot be written only costs the next start its shortcut."""
    text = json.dumps(data, indent=1, sort_keys=sort_keys).encode()
    with contextlib.suppress(OSError):
        write_whole(path, lambda f: f.write(text))
