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
