"""A damaged compiled-kernel cache file is reported in one warning line, removed and compiled again
(``sim.jit.cacheheal``), for each kind of file: the index (``.nbi``) and the data (``.nbc``), truncated or garbage,
or a folder in the file's place, and a data file whose LLVM bitcode is damaged inside an intact pickle.

Each case runs a small real project kernel (``sim.core.rng.new_stream``) in a fresh process on a private cache
folder: the damaged run must print exactly one ``warning:`` line and the same number as a clean run, and leave a
cache that the next process loads without a word.
"""

from __future__ import annotations

import inspect
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from numba.core import caching

from sim.jit import cacheheal
from tests.conftest import ROOT

KERNEL = "from sim.core import rng; print(rng.new_stream(1, 2, 3, 4)[0])"


def run(cache: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(DICESIM_CACHE_DIR=str(cache), NUMBA_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-c", KERNEL], cwd=ROOT, capture_output=True, text=True, env=env,
                          timeout=300)


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """(a cache folder holding the compiled kernel, its number)."""
    cache = tmp_path_factory.mktemp("kernels")
    r = run(cache)
    assert r.returncode == 0 and r.stderr.strip() == "", r.stderr
    for suffix in ("nbi", "nbc"):
        assert list((cache / "numba").rglob(f"rng.new_stream-*.{suffix}"))
    return cache, r.stdout.strip()


def _truncate(p: Path) -> None:
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])


def _garbage(p: Path) -> None:
    p.write_bytes(bytes((i * 97 + 13) % 256 for i in range(300)))


def _bitcode(p: Path) -> None:
    """Flip 200 bytes a third of the way in: the pickle still loads, LLVM's parser does not."""
    b = bytearray(p.read_bytes())
    start = len(b) // 3
    b[start:start + 200] = bytes(x ^ 0x5A for x in b[start:start + 200])
    p.write_bytes(bytes(b))


def _folder(p: Path) -> None:
    """A folder (not empty) where the file belongs: numba failed reading the index and writing the data file, on
    every run (IsADirectoryError)."""
    p.unlink()
    (p / "inside").mkdir(parents=True)
    (p / "inside" / "x").write_text("x")


@pytest.mark.parametrize("suffix, damage", [("nbi", _truncate), ("nbi", _garbage), ("nbc", _truncate),
                                            ("nbc", _garbage), ("nbc", _bitcode), ("nbi", _folder), ("nbc", _folder)],
                         ids=["index-truncated", "index-garbage", "data-truncated", "data-garbage", "data-bitcode",
                              "index-folder", "data-folder"])
def test_a_damaged_cache_file_is_compiled_again_with_one_warning(clean, tmp_path, suffix, damage):
    good, number = clean
    cache = tmp_path / "cache"
    shutil.copytree(good, cache)
    (target,) = (cache / "numba").rglob(f"rng.new_stream-*.{suffix}")
    damage(target)
    r = run(cache)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip() == number
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("warning: the compiled kernel sim.core.rng.new_stream "), r.stderr
    assert "compiling it again" in lines[0] and "Traceback" not in r.stderr and len(lines[0]) < 300
    again = run(cache)  # healed: loads (no warning), same number
    assert again.returncode == 0 and again.stderr.strip() == "" and again.stdout.strip() == number
    assert target.is_file() and target.read_bytes() != b""


@pytest.mark.parametrize("up", [0, 2], ids=["version-folder", "kernels-folder"])  # a module's folder: the same path
def test_a_file_where_a_kernel_folder_belongs_is_replaced_with_one_warning(clean, tmp_path, up):
    """A file standing where the function's folder, its module's or the kernels' folder belongs: every run failed
    with a traceback (NotADirectoryError from numba's makedirs)."""
    good, number = clean
    cache = tmp_path / "cache"
    shutil.copytree(good, cache)
    (index,) = (cache / "numba").rglob("rng.new_stream-*.nbi")
    folder = index.parents[up]
    shutil.rmtree(folder)
    folder.write_text("x")
    r = run(cache)
    assert r.returncode == 0 and r.stdout.strip() == number, r.stderr[-3000:]
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert lines == [f"warning: a file stood where the cache folder {folder} belongs; removed it"], r.stderr
    again = run(cache)
    assert again.returncode == 0 and again.stderr.strip() == "" and again.stdout.strip() == number
    assert folder.is_dir()


def test_the_project_cache_heals_on_the_numba_it_was_written_for():
    """Fails when numba changes what the healing relies on: rerun these tests and read ``sim/jit/cacheheal.py``."""
    from sim.core import rng
    from sim.jit.jitcache import ProjectCache

    assert list(inspect.signature(caching.Cache.load_overload).parameters) == ["self", "sig", "target_context"]
    assert "load_overload" in ProjectCache.__dict__  # the project's own cache class heals, numba's is left as it is
    assert not hasattr(caching.Cache.load_overload, "__wrapped__")
    cache = rng.new_stream._cache  # the dispatcher's cache
    assert isinstance(cache, ProjectCache) and isinstance(cache, caching.FunctionCache)
    name, files = cacheheal.kernel_files(cache)
    assert name == "sim.core.rng.new_stream"
    assert any(f.suffix == ".nbi" and f.name.startswith("rng.new_stream-") for f in files)


def test_without_the_function_name_every_kernel_file_of_the_module_version_goes(tmp_path):
    folder = tmp_path / "sim.core.x" / "key"
    folder.mkdir(parents=True)
    for name in ("a-x.py311.nbi", "a-x.py311.1.nbc", "b-x.py311.nbi", "notes.txt"):
        (folder / name).write_text("x")
    name, files = cacheheal.kernel_files(SimpleNamespace(cache_path=str(folder)))
    assert name == "sim.core.x" and [f.name for f in files] == ["a-x.py311.1.nbc", "a-x.py311.nbi", "b-x.py311.nbi"]
