"""A normal install: ``python -m build`` gives an sdist and, built from it, a wheel that installs and runs from
any folder.

The wheel goes into one fresh virtual environment (``--no-deps``; a ``.pth`` file lends it this
environment's dependencies, so no registry is needed), shared by both tests, which run the real ``dicesim``
script from an empty folder with the default configs read from package data. They share this machine's compiled
kernels: the kernel cache is keyed by source content, so an installed copy of the same code is warm.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from sim import __version__
from sim.core import cache
from sim.games import GAMES
from sim.jit.codehash import code_hash
from tests.conftest import ROOT


def test_every_package_ships(monkeypatch):
    """setup.py finds the packages (so configs/ can ship as ``sim.configs`` and a new game needs no list entry):
    every folder with an ``__init__.py`` under sim/ and policies/ is among them, and pyproject.toml keeps no list."""
    import runpy

    import setuptools

    given: dict = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kw: given.update(kw))
    monkeypatch.chdir(ROOT)
    runpy.run_path(str(ROOT / "setup.py"))
    listed = set(given["packages"])
    inits = [p for pkg in ("sim", "policies") for p in (ROOT / pkg).rglob("__init__.py")]
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in inits}
    assert found | {"sim.configs"} == listed
    assert "packages" not in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def _build_args() -> list[str]:
    """``python -m build`` (the sdist, then the wheel built from that sdist, each in an isolated environment);
    with uv at hand those environments are made by uv (seconds instead of pip's ~10 s), the same setuptools build."""
    import importlib.util

    return ["--installer", "uv"] if importlib.util.find_spec("uv") else []


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> dict[str, Path | str]:
    out = tmp_path_factory.mktemp("dist")
    res = subprocess.run([sys.executable, "-m", "build", *_build_args(), "--outdir", str(out), str(ROOT)],
                         capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    [wheel] = out.glob("dicesim-*.whl")
    [sdist] = out.glob("dicesim-*.tar.gz")
    return {"wheel": wheel, "sdist": sdist, "log": res.stdout + res.stderr}


def _venv_with(dist: Path, where: Path) -> Path:
    """A fresh venv holding ``dist`` (not editable) and seeing this environment's dependencies; its bin folder.
    The venv gets no pip of its own: this environment's pip installs into it (``pip --python``)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=300)
    py = where / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (Path(site) / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    res = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
                          "--disable-pip-version-check", str(dist)], capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    assert (where / "bin" / "dicesim").read_text().splitlines()[0] == f"#!{py}"  # the script runs the venv's python
    return where / "bin"


@pytest.fixture(scope="module")
def installed(dists, tmp_path_factory) -> Path:
    """The wheel installed in a fresh venv (the wheel ``build`` made from the sdist: see the sdist test)."""
    return _venv_with(dists["wheel"], tmp_path_factory.mktemp("installed") / "venv")


def _run(bin_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["NUMBA_CACHE_DIR"] = str(cache.numba_dir())  # this machine's kernels (keyed by content, so warm)
    env["DICESIM_CACHE_DIR"] = str(cwd / "user-cache")
    return subprocess.run([str(bin_dir / "dicesim"), *args], cwd=cwd, capture_output=True, text=True, env=env,
                          timeout=1200)


def _run_all(bin_dir: Path, cwd: Path, *calls: tuple[str, ...]) -> list[subprocess.CompletedProcess]:
    """Independent commands side by side (each a fresh interpreter that mostly imports)."""
    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(lambda args: _run(bin_dir, cwd, *args), calls))


def _package_files(bin_dir: Path) -> set[str]:
    site = next((bin_dir.parent / "lib").glob("python3*/site-packages"))
    return {str(p.relative_to(site)) for pkg in ("sim", "policies") for p in (site / pkg).rglob("*")
            if "__pycache__" not in p.parts}


def test_wheel_installs_and_plays_from_any_folder(installed, tmp_path):
    bin_dir = installed
    work = tmp_path / "elsewhere"
    work.mkdir()
    before = _package_files(bin_dir)
    assert "sim/configs/dungeon/default.toml" in before and "sim/configs/sweeps/kniffel-bonus.toml" in before
    assert {f"sim/games/{g}/compile.toml" for g in GAMES} <= before  # each game's compile figure (sim.jit.progress)
    version, res, listed = _run_all(bin_dir, work, ("--version",), (
        "play", "dungeon", "--policy", "vorschlag", "--n", "1000", "--json", "--no-report"), ("configs",))
    assert version.returncode == 0 and version.stdout.strip() == f"dicesim {__version__} (code {code_hash()})"
    assert res.returncode == 0, res.stderr[-3000:]
    assert '"game": "dungeon"' in res.stdout
    assert listed.returncode == 0 and "site-packages/sim/configs" in listed.stdout
    assert _package_files(bin_dir) == before  # nothing written into the installed package
    assert not (work / ".cache").exists()


def test_sdist_installs_and_passes_the_smoke_test(dists, installed, tmp_path):
    """The installed wheel is the one ``build`` made from the sdist alone (what ``pip install`` of the sdist does:
    the same backend in an isolated environment), so it stands for an install from the sdist: the sdist ships the
    packages and configs, and the copied configs play."""
    assert "Building wheel from sdist" in dists["log"]
    with tarfile.open(dists["sdist"]) as tar:
        shipped = {Path(*Path(m).parts[1:]).as_posix() for m in tar.getnames()}
    assert {"pyproject.toml", "sim/cli/__init__.py", "policies/kniffel/bots.py",
            "configs/kniffel/no-joker.toml"} <= shipped
    assert {str(p.relative_to(ROOT)) for p in (ROOT / "configs").rglob("*.toml")} <= shipped  # every config
    work = tmp_path / "w"
    work.mkdir()
    res, copied = _run_all(installed, work, ("play", "kniffel", "--policy", "greedy", "--n", "500", "--json",
                                             "--no-report"), ("configs", "--copy", "mine"))
    assert res.returncode == 0, res.stderr[-3000:]
    assert copied.returncode == 0 and (work / "mine" / "kniffel" / "default.toml").is_file()
    own = _run(installed, work, "play", "kniffel", "--policy", "greedy", "--n", "500", "--no-report",
               "--config", "mine/kniffel/no-joker.toml")
    assert own.returncode == 0, own.stderr[-2000:]
