"""The project's kernel cache is the project's alone (``sim.jit.jitcache``, installed by ``sim.jit.hook``): ``import
sim`` writes nothing into ``os.environ`` and leaves a user's own ``@njit(cache=True)`` caching to numba, in whichever
order sim and numba are imported; where numba lacks what the cache builds on, one warning and plain numba caching.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from numba.core import caching
from numba.core.dispatcher import Dispatcher

from sim.jit import jitcache
from tests.conftest import ROOT

USER_MODULE = """
from numba import njit

@njit(cache=True)
def twice(x):
    return 2 * x
"""

# numba first or sim first; then a user's module and a project kernel, each called once
PROBE = """
import json, os, sys
before = dict(os.environ)
if sys.argv[1] == "numba-first":
    import numba
import sim
after_sim = dict(os.environ)
numba_on_import = "numba" in sys.modules
import usermod
from sim.core import rng
print(json.dumps({
    "environ_unchanged": before == after_sim == dict(os.environ),
    "numba_on_import": numba_on_import,
    "user": [type(usermod.twice._cache).__name__, usermod.twice._cache.cache_path, usermod.twice(21)],
    "project": [type(rng.new_stream._cache).__name__, rng.new_stream._cache.cache_path,
                int(rng.new_stream(1, 2, 3, 4)[0])],
}))
"""


def _probe(tmp_path: Path, order: str, **env: str) -> dict:
    user_dir = tmp_path / "user"
    user_dir.mkdir(exist_ok=True)
    (user_dir / "usermod.py").write_text(USER_MODULE)
    e = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES")}
    e.update(DICESIM_CACHE_DIR=str(tmp_path / "dicesim"), PYTHONPATH=str(user_dir), NUMBA_NUM_THREADS="1", **env)
    out = subprocess.run([sys.executable, "-c", PROBE, order], cwd=ROOT, env=e, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stderr.strip() == ""
    return json.loads(out.stdout)


@pytest.mark.parametrize("order", ["sim-first", "numba-first"])
def test_import_sim_leaves_the_environment_and_a_users_numba_cache_alone(tmp_path, order):
    got = _probe(tmp_path, order)
    assert got["environ_unchanged"]
    assert got["numba_on_import"] == (order == "numba-first")  # import sim alone does not import numba
    kind, where, value = got["user"]
    assert (kind, value) == ("FunctionCache", 42)  # numba's own cache class, in numba's own place:
    assert Path(where) == tmp_path / "user" / "__pycache__"  # __pycache__ next to the user's file
    assert list(Path(where).glob("usermod.twice-*.nbi"))
    kind, where, _ = got["project"]
    assert kind == "ProjectCache" and Path(where).is_relative_to(tmp_path / "dicesim" / "numba" / "sim.core.rng")
    assert list(Path(where).glob("rng.new_stream-*.nbi"))
    assert not list((ROOT / "sim").rglob("rng.new_stream-*.nbi"))  # never in the checkout


def test_with_numba_cache_dir_a_users_kernels_go_where_numba_puts_them(tmp_path):
    numba_cache = tmp_path / "numba-cache"
    got = _probe(tmp_path, "sim-first", NUMBA_CACHE_DIR=str(numba_cache))
    kind, where, _ = got["user"]
    assert kind == "FunctionCache" and Path(where).is_relative_to(numba_cache)
    assert list(Path(where).glob("usermod.twice-*.nbi")) and not (tmp_path / "user" / "__pycache__").exists()


def test_the_pieces_of_numba_the_cache_builds_on_are_there():
    """Fails when a numba release changes what ``sim.jit.jitcache`` relies on: read its docstring, then rerun."""
    from sim.core import rng

    assert jitcache.missing() is None
    assert Dispatcher.enable_caching is jitcache.enable_caching  # installed
    assert issubclass(jitcache.ProjectLocator, caching._CacheLocator)
    assert issubclass(jitcache.ProjectCache, caching.FunctionCache)
    assert caching.CompileResultCacheImpl._locator_classes[0] is caching.UserProvidedCacheLocator  # numba's list
    cache = rng.new_stream._cache
    assert type(cache._impl.locator) is jitcache.ProjectLocator  # numba chose the locator from our list
    assert cache._impl.locator.get_source_stamp() == jitcache.kernel_key(jitcache.project_file(rng.__file__))
    assert cache.cache_path == str(jitcache.kernel_dir(jitcache.project_file(rng.__file__)))


def test_loading_a_project_kernel_installs_the_fast_inliner():
    from numba.core import inline_closurecall

    from sim.core import rng

    rng.new_stream(1, 2, 3, 4)
    assert getattr(inline_closurecall.InlineWorker.inline_ir, "dicesim_fast_copy", False)


FALLBACK = """
from numba.core import caching
del caching._CacheLocator  # as a numba release without it would be
import sim
from sim.core import rng
print(type(rng.new_stream._cache).__name__, rng.new_stream._cache.cache_path, int(rng.new_stream(1, 2, 3, 4)[0]))
"""


def test_without_a_piece_of_numba_plain_numba_caching_and_one_warning(tmp_path):
    numba_cache = tmp_path / "numba-cache"  # plain numba's cache folder (else it would write into the checkout)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_LOCATOR_CLASSES"}
    env.update(DICESIM_CACHE_DIR=str(tmp_path / "dicesim"), NUMBA_CACHE_DIR=str(numba_cache), NUMBA_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", FALLBACK], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    kind, where, value = out.stdout.split()
    assert kind == "FunctionCache" and Path(where).is_relative_to(numba_cache)
    assert int(value) == int(__import__("sim.core.rng", fromlist=["_"]).new_stream(1, 2, 3, 4)[0])
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warning: numba ") and "numba.core.caching._CacheLocator" in lines[0]
