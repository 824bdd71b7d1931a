"""Shared fixtures: the repository root and a runner for the real ``dicesim`` command.

On a cold kernel cache the session compiles the games whose ``tests/games`` files are selected in
background processes (one core left to the tests, the slowest game first), and a game's tests wait for
its compile, or compile it here if it has not started yet (``sim.jit.warmup``).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The Würfel Dungeon's quick compile tier (``sim.jit.tier``): the kernels a first run gets, a third of the full tier's
# compile. ``make test-full`` sets DICESIM_TIER=full for the golden and contract tests. No test leaves a background
# compile behind.
os.environ.setdefault("DICESIM_TIER", "quick")
os.environ["DICESIM_BACKGROUND_COMPILE"] = "0"


def run_cli(*args: str, env: dict | None = None, timeout: int = 600) -> subprocess.CompletedProcess:
    """Run ``dicesim`` in a subprocess (the real entry point), from the repository root."""
    e = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-c", "from sim.cli import main; main()", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=e,
    )


def cli_json(*args: str, env: dict | None = None) -> dict:
    out = run_cli(*args, "--json", env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def here_json(*args: str, env: dict | None = None) -> dict:
    """``dicesim ARGS --json`` in this process (:func:`cli_here`): exit code 0 and its one JSON object."""
    out = cli_here(*args, "--json", env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def run_clis(*calls: tuple[str, ...], env: dict | None = None, timeout: int = 600) -> list[subprocess.CompletedProcess]:
    """Several independent ``dicesim`` subprocesses, three at a time (each pays a fresh interpreter's numba and
    pandas import, about 2 s of CPU, which the second core absorbs while this process only waits)."""
    with ThreadPoolExecutor(min(3, len(calls))) as pool:
        return list(pool.map(lambda args: run_cli(*args, env=env, timeout=timeout), calls))


def cli_here(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``dicesim ARGS`` in this process: ``sim.cli.main`` (the console script's function) with ``sys.argv``,
    stdout, stderr, the working folder and the environment as a subprocess would have them, and the exit code from
    ``SystemExit``; an uncaught exception prints its traceback and exits 1, as the interpreter would.

    The same code path as :func:`run_cli` without a fresh interpreter's numba and pandas import (about 2 s of CPU
    per call): for tests about what a command says or writes (the bad-input matrices, the report pages), not about
    the process. Tests that need a process of their own (a kill, a cold kernel cache, same numbers in two
    processes, an installed script) keep :func:`run_cli`; ``test_cli.py`` checks that both print the same error."""
    from sim.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved_env, saved_argv = dict(os.environ), sys.argv
    os.environ.update(env or {})
    sys.argv = ["dicesim", *args]
    code = 0
    try:
        with contextlib.chdir(ROOT), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as e:
                if isinstance(e.code, str):
                    print(e.code, file=err)
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except Exception:
                err.write(traceback.format_exc())
                code = 1
    finally:
        sys.argv = saved_argv
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess(["dicesim", *args], code, out.getvalue(), err.getvalue())


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def dask_cluster():
    """One Dask LocalCluster (2 worker processes on loopback) for every test that sends work to a scheduler: started
    once, and its workers load the kernels once."""
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    # the dashboard on a free port: 8787 (the default, also taken with None) stays free for test_game_api's cluster
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=":0") as c:
        yield c


@pytest.fixture(scope="session")
def calibrate_run(tmp_path_factory) -> tuple[dict, Path]:
    """One ``dicesim calibrate ... --out --json`` run (its JSON and folder), read by the JSON contract test
    (``test_calibrate.py``) and the page test (``test_pages.py``)."""
    out = tmp_path_factory.mktemp("calibrate")
    return here_json("calibrate", "kniffel", "--target", "mean_score=209", "--field", "bonus.value", "--policy",
                    "greedy", "--n", "1000", "--seed", "3", "--out", str(out)), out


def _game_of(item: pytest.Item) -> str | None:
    from sim.games import GAMES

    if item.path.parent.name != "games":
        return None
    name = item.path.name  # test_<game>_<topic>.py (the topic may have underscores: test_kniffel_two_player.py)
    return next((g for g in sorted(GAMES, key=len, reverse=True) if name.startswith(f"test_{g}_")), None)


# Test files that play no Würfel Dungeon run: they go first while its kernels compile in the background.
NO_DUNGEON = {"test_cache.py", "test_calibrate.py", "test_declarations.py", "test_scalar.py",
              "test_sweep_sensitivity.py"}


def _rank(item: pytest.Item) -> int:
    """0: needs no Würfel Dungeon kernel; 1: the Würfel Dungeon's own tests; 2: the rest (many play every game)."""
    game = _game_of(item)
    if game == "dungeon":
        return 1
    if game is not None or item.path.name in NO_DUNGEON:
        return 0
    return 2


_COMPILING = pytest.StashKey[list]()  # the games whose kernels the xdist controller compiles
_NICE_WORKERS = "DICESIM_TEST_NICE_WORKERS"


def _distributed(config: pytest.Config) -> bool:
    """True in a pytest-xdist controller or worker (``make test`` runs ``-n auto``)."""
    return hasattr(config, "workerinput") or bool(getattr(config.option, "numprocesses", None))


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist the controller compiles every game's kernels into the shared disk cache first, one
    process per core, before any test runs: two workers would otherwise compile the same kernels twice (each pays
    its own cold compile), and a worker waiting on a compile leaves its core idle. The workers start meanwhile (an
    interpreter, the imports, the collection: ~16 s of CPU) at the lowest priority, so they take the time the
    compiles leave idle (the last compile runs alone), not time from the compiles; the tests are handed out when
    every compile is done (:func:`pytest_xdist_node_collection_finished`)."""
    if hasattr(config, "workerinput"):
        if os.environ.get(_NICE_WORKERS) and hasattr(os, "nice"):
            os.nice(19)  # its tests' processes inherit it: every one of them alike, so nothing changes between them
        return
    if not _distributed(config):
        return
    from sim.games import GAMES
    from sim.jit import warmup

    config.stash[_COMPILING] = warmup.start(list(GAMES), workers=os.cpu_count() or 1)
    if config.stash[_COMPILING]:
        os.environ[_NICE_WORKERS] = "1"  # the workers' environment is this process's when xdist starts them


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids) -> None:
    """The controller's wait for the kernels it compiles (:func:`pytest_configure`), before any test is handed
    out: the first worker to finish collecting waits, the others find them done."""
    from sim.games import get_game
    from sim.jit import warmup

    for game in node.config.stash.get(_COMPILING, []):
        warmup.wait_for(game, get_game(game).title)
    node.config.stash[_COMPILING] = []


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if _distributed(config):
        return  # the controller has compiled every game (pytest_configure)
    cores = os.cpu_count() or 1
    games = list(dict.fromkeys(g for g in map(_game_of, items) if g))
    if cores > 1 and len(games) > 1:
        from sim.jit import warmup

        started = warmup.start(games, workers=cores - 1)
        if "dungeon" in started:
            # the slowest compile runs beside the tests that don't need it, not beside a test waiting for it
            items.sort(key=_rank)


def pytest_runtest_setup(item: pytest.Item) -> None:
    game = _game_of(item)
    if game:
        from sim.games import get_game
        from sim.jit import warmup

        warmup.wait_for(game, get_game(game).title)


@pytest.fixture
def drawn(monkeypatch):
    """The figures a chart function hands to ``sim.report.charts.save``, kept open for reading (nothing written)
    and closed afterwards, so no test leaves a figure behind for the next one in its worker."""
    from sim.report import charts
    from sim.report.mpl import plt

    figs = []

    def keep(fig, path, tight=True):
        figs.append(fig)
        return path

    monkeypatch.setattr(charts, "save", keep)
    yield figs
    for fig in figs:
        plt.close(fig)
