"""Where dicesim keeps what it computes once: compiled kernels and solved tables.

Everything lives in the user's cache directory (``platformdirs``; ``DICESIM_CACHE_DIR`` overrides
it), never inside the installed package, so a read-only install works and ``dicesim cache clear``
is the one place to reset. A solved table's file name carries the hash of the rules it solves and
the code version of its solver (``sim.jit.codehash``): a changed solver never reads an old table. Each
table file stores a SHA-256 of its arrays; a corrupt or truncated file is reported in one line,
removed and rebuilt by the caller. The tables are kept within a budget (``sim.core.paths.TABLES_BUDGET``), the
least recently used removed first.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import shutil
import sys
import time
from pathlib import Path

import numpy as np

from sim.core.paths import (  # noqa: F401  (ENV, cache_root: their home before)
    ENV,
    TABLES_BUDGET,
    answers_dir,
    cache_root,
    files_below,
    imports_note,
    keep_within,
    mark_used,
    numba_dir,
    tables_dir,
    write_whole,
)

TABLE = re.compile(r"[\w.-]+\.npz")  # a solved table's file (``table_path``)


def table_path(game: str, name: str, rules_key: str, code: str) -> Path:
    """The file of one solved table: ``tables/<game>/<name>-<rules hash>-<solver code version>.npz``."""
    return tables_dir() / game / f"{name}-{rules_key}-{code}.npz"


def digest(arrays: dict[str, np.ndarray]) -> str:
    """The sha256 of named arrays (names, dtypes, shapes, bytes): a table's checksum, or a key of a kernel's inputs."""
    h = hashlib.sha256()
    for k in sorted(arrays):
        a = np.ascontiguousarray(arrays[k])
        h.update(f"{k}:{a.dtype.str}:{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def save_table(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write arrays compressed and atomically (temp file, then rename; the temp file removed on any failure) with
    their checksum; a folder where the file belongs is removed (inside the cache folder only); an unwritable cache
    only warns. The tables folder is then kept within ``TABLES_BUDGET``, least recently used tables first.

    Compressed because the tables are mostly repeats: Kniffel's greedy tables shrink from 12.4 MB to 0.26 MB and read
    faster than raw (less to read), its solved table from 16.8 MB to 2.5 MB for ~0.01 s more per read."""
    arrays = {k: np.asarray(v) for k, v in arrays.items()}
    meta = json.dumps({"sha256": digest(arrays), "written": time.time()})
    try:
        write_whole(path, lambda f: np.savez_compressed(f, __meta__=np.frombuffer(meta.encode(), np.uint8), **arrays))
    except OSError as e:
        print(f"warning: cannot write the cache file {path}: {e.strerror or e}", file=sys.stderr)
        return
    if path.is_relative_to(tables_dir()):
        keep_within(tables_dir(), TABLES_BUDGET, keep=path)


def load_table(path: Path) -> dict[str, np.ndarray] | None:
    """The arrays of a table file; None when absent. A damaged file is reported in one line and removed."""
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        meta = json.loads(arrays.pop("__meta__").tobytes())
        if meta.get("sha256") != digest(arrays):
            raise ValueError("checksum mismatch")
        mark_used(path)  # kept longest when the folder is over its budget
        return arrays
    except FileNotFoundError:  # removed since (another process kept the folder within its budget): solved again
        return None
    except Exception as e:  # noqa: BLE001 - any unreadable file is treated the same: rebuild it
        why = "truncated" if isinstance(e, EOFError) else str(e).splitlines()[0] if str(e) else type(e).__name__
        print(f"warning: cache file {path} is corrupt ({why}); rebuilding it", file=sys.stderr)
        path.unlink(missing_ok=True)
        return None


def dir_size(path: Path) -> tuple[int, int]:
    """(files, bytes) below ``path``."""
    sizes = [st.st_size for _, st in files_below(str(path))]  # a file removed meanwhile (a budget) is passed over
    return len(sizes), sum(sizes)


KERNEL_PACKAGES = ("sim.", "policies.")  # a kernel folder is named after its module (``sim.jit.jitcache``)
NUMBA_NOTES = ("warm", "compile-seconds.json")  # dicesim's notes beside its kernels (``sim.jit.tier``, ``progress``)
ANSWER = re.compile(r"[0-9a-f]{24}\.json")  # a stored answer's file (``sim.cli.answers``)
OURS_TMP = re.compile(r"\..+\.tmp")  # a write cut short (``write_whole``): ``.<name>.<pid>.<time>.tmp``


def _kernel_folders() -> list[Path]:
    """dicesim's kernel folders in ``numba_dir()``, which ``NUMBA_CACHE_DIR`` may share with other projects."""
    ndir = numba_dir()
    if not ndir.is_dir():
        return []
    return sorted(p for p in ndir.iterdir() if p.is_dir() and p.name.startswith(KERNEL_PACKAGES))


def _own_files(folder: Path, name: re.Pattern[str]) -> list[Path]:
    """The files below ``folder`` whose names dicesim gives (``name``) or a write of its left cut short."""
    return [Path(f) for f, _ in files_below(str(folder))
            if name.fullmatch(Path(f).name) or OURS_TMP.fullmatch(Path(f).name)]


def info() -> dict:
    """What is cached: the kernels per module and every solved table, with sizes."""
    root = cache_root()
    kernels = []
    ndir = numba_dir()
    if ndir.is_dir():
        for mod in _kernel_folders():
            files, size = dir_size(mod)
            kernels.append({"module": mod.name, "versions": sum(1 for p in mod.iterdir() if p.is_dir()),
                            "files": files, "bytes": size})
    tables = []
    tdir = tables_dir()
    if tdir.is_dir():
        for p in sorted(tdir.rglob("*.npz")):
            with contextlib.suppress(OSError):  # removed meanwhile by another process's budget
                tables.append({"game": p.parent.name, "file": p.name, "bytes": p.stat().st_size})
    answers = sum(_size(p) for p in _own_files(answers_dir(), ANSWER))
    total = sum(k["bytes"] for k in kernels) + sum(t["bytes"] for t in tables) + answers
    return {"root": str(root), "numba": str(ndir), "kernels": kernels, "tables": tables, "answers_bytes": answers,
            "bytes": total}


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:  # removed meanwhile (another process's budget)
        return 0


def clear() -> int:
    """Remove every compiled kernel, solved table and stored answer (and the note of the kernels' imports): the files
    dicesim names, nothing else of the folders ``DICESIM_CACHE_DIR`` and ``NUMBA_CACHE_DIR`` name (it removed those
    folders whole: another project's kernels in a shared ``NUMBA_CACHE_DIR``, a file of the user's among the
    tables); returns the bytes freed."""
    freed = 0
    for mod in _kernel_folders():
        freed += dir_size(mod)[1]
        shutil.rmtree(mod, ignore_errors=True)
    notes = [numba_dir() / n for n in NUMBA_NOTES]
    files = [*_own_files(tables_dir(), TABLE), *_own_files(answers_dir(), ANSWER), imports_note()]
    for path in notes + files:
        freed += dir_size(path)[1] if path.is_dir() else _size(path)
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    for folder in (*sorted(p for p in tables_dir().glob("*") if p.is_dir()), tables_dir(), answers_dir(),
                   cache_root() / "numba"):
        with contextlib.suppress(OSError):  # left where something else is in it
            folder.rmdir()
    return freed
