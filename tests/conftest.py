"""Shared fixtures: the repository root and a runner for the real ``dicesim`` command.

On a cold kernel cache the session compiles the games whose ``tests/games`` files are selected in
background processes (one core left to the tests, the slowest game first), and a game's tests wait for
its compile, or compile it here if it has not started yet (``sim.warmup``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


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


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


def _game_of(item: pytest.Item) -> str | None:
    from sim.games import GAMES

    if item.path.parent.name != "games":
        return None
    m = re.match(r"test_(.+?)_[a-z0-9]+\.py$", item.path.name)
    return m.group(1) if m and m.group(1) in GAMES else None


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    cores = os.cpu_count() or 1
    games = list(dict.fromkeys(g for g in map(_game_of, items) if g))
    if cores > 1 and len(games) > 1:
        from sim import warmup

        warmup.start(games, workers=cores - 1)


def pytest_runtest_setup(item: pytest.Item) -> None:
    game = _game_of(item)
    if game:
        from sim import warmup
        from sim.games import get_game

        warmup.wait_for(game, get_game(game).title)
