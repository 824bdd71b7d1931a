"""Where dicesim's caches live: the user cache folder (``DICESIM_CACHE_DIR`` moves it) and its parts.

Light on purpose (the standard library and ``platformdirs`` only): the command line looks up its stored answers
there, before it knows whether a command needs numpy (``sim.core.cache`` holds what reads and writes
the cached tables).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir

from sim.core.errors import DicesimError

ENV = "DICESIM_CACHE_DIR"


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


def save_note(path: Path, data: Any, sort_keys: bool = True) -> None:
    """A small JSON note in the cache (the games catalog, measured compile times) written whole (a temporary
    name, then a rename) or not at all: a cache that cannot be written only costs the next start its shortcut."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=sort_keys))
        tmp.replace(path)
    except OSError:
        pass
