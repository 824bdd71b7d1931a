"""Shared fixtures: the repository root and a runner for the real ``dicesim`` command."""

from __future__ import annotations

import json
import os
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
