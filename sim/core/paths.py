"""Where dicesim's caches live: the user cache folder (``DICESIM_CACHE_DIR`` moves it) and its parts.

Light on purpose (the standard library and ``platformdirs`` only): the command line reads its catalog of the games
there at every start, before it knows whether a command needs numpy (``sim.core.cache`` holds what reads and writes
the cached tables).
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_dir

ENV = "DICESIM_CACHE_DIR"


def cache_root() -> Path:
    """``$DICESIM_CACHE_DIR``, else the platform's user cache directory for dicesim."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV]).expanduser()
    return Path(user_cache_dir("dicesim", appauthor=False))


def numba_dir() -> Path:
    """Compiled kernels (``NUMBA_CACHE_DIR`` when set, as numba itself would use it)."""
    return Path(os.environ["NUMBA_CACHE_DIR"]) if os.environ.get("NUMBA_CACHE_DIR") else cache_root() / "numba"


def tables_dir() -> Path:
    return cache_root() / "tables"
