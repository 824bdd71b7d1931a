"""A normal install: ``python -m build`` gives a wheel and an sdist that install and run from any folder.

The installs go into fresh virtual environments (``--no-deps``; a ``.pth`` file lends them this
environment's dependencies, so no registry is needed) and run the real ``dicesim`` script from an
empty folder with the default configs read from package data. They share this machine's compiled
kernels: the kernel cache is keyed by source content, so an installed copy of the same code is warm.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

from sim import __version__, cache
from sim.codehash import code_hash
from tests.conftest import ROOT


def test_every_package_is_listed_in_pyproject():
    """pyproject lists the packages (so configs/ can ship as ``sim.configs``): a new package must be added there."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    inits = [p for pkg in ("sim", "policies") for p in (ROOT / pkg).rglob("__init__.py")]
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in inits}
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    res = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], capture_output=True,
                         text=True, timeout=900)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    [wheel] = out.glob("dicesim-*.whl")
    [sdist] = out.glob("dicesim-*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


def _venv_with(dist: Path, where: Path) -> Path:
    """A fresh venv holding ``dist`` (not editable) and seeing this environment's dependencies; its bin folder."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=300)
    py = where / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (Path(site) / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    res = subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", str(dist)], capture_output=True,
                         text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    return where / "bin"


def _run(bin_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["NUMBA_CACHE_DIR"] = str(cache.numba_dir())  # this machine's kernels (keyed by content, so warm)
    env["DICESIM_CACHE_DIR"] = str(cwd / "user-cache")
    return subprocess.run([str(bin_dir / "dicesim"), *args], cwd=cwd, capture_output=True, text=True, env=env,
                          timeout=1200)


def _package_files(bin_dir: Path) -> set[str]:
    site = next((bin_dir.parent / "lib").glob("python3*/site-packages"))
    return {str(p.relative_to(site)) for pkg in ("sim", "policies") for p in (site / pkg).rglob("*")
            if "__pycache__" not in p.parts}


def test_wheel_installs_and_plays_from_any_folder(dists, tmp_path):
    bin_dir = _venv_with(dists["wheel"], tmp_path / "venv")
    work = tmp_path / "elsewhere"
    work.mkdir()
    before = _package_files(bin_dir)
    assert "sim/configs/dungeon/default.toml" in before and "sim/configs/sweeps/kniffel-bonus.toml" in before
    version = _run(bin_dir, work, "--version")
    assert version.returncode == 0 and version.stdout.strip() == f"dicesim {__version__} (code {code_hash()})"
    res = _run(bin_dir, work, "play", "dungeon", "--policy", "vorschlag", "--n", "1000", "--json", "--no-report")
    assert res.returncode == 0, res.stderr[-3000:]
    assert '"game": "dungeon"' in res.stdout
    listed = _run(bin_dir, work, "configs")
    assert listed.returncode == 0 and "site-packages/sim/configs" in listed.stdout
    assert _package_files(bin_dir) == before  # nothing written into the installed package
    assert not (work / ".cache").exists()


def test_sdist_installs_and_passes_the_smoke_test(dists, tmp_path):
    bin_dir = _venv_with(dists["sdist"], tmp_path / "venv")
    work = tmp_path / "w"
    work.mkdir()
    res = _run(bin_dir, work, "play", "kniffel", "--policy", "greedy", "--n", "500", "--json", "--no-report")
    assert res.returncode == 0, res.stderr[-3000:]
    copied = _run(bin_dir, work, "configs", "--copy", "mine")
    assert copied.returncode == 0 and (work / "mine" / "kniffel" / "default.toml").is_file()
    own = _run(bin_dir, work, "play", "kniffel", "--policy", "greedy", "--n", "500", "--no-report",
               "--config", "mine/kniffel/no-joker.toml")
    assert own.returncode == 0, own.stderr[-2000:]
