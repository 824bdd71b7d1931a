"""A first ``combos`` or ``describe`` (a question not stored yet: ``sim.cli.answers``) runs the game's own code but
loads no table or chart library: pandas and matplotlib stay out of the process (issue 30; the seconds are
``benchmarks/latency.py``'s, never asserted here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid

import pytest

from tests.conftest import ROOT
from tests.test_cli_fast import PROBE


def _new_hp() -> str:
    """A value of difficulty.leicht.hp asked nowhere before: the answer is computed, not read back."""
    return f"0.8{uuid.uuid4().int % 10**8:08d}"


@pytest.mark.parametrize("args", [["combos", "5", "5", "5", "2", "2"], ["describe", "dungeon"]], ids=" ".join)
def test_a_first_ask_loads_no_pandas_or_matplotlib(tmp_path, args):
    out = tmp_path / "probe.json"
    r = subprocess.run([sys.executable, "-c", PROBE, *args, "--set", f"difficulty.leicht.hp={_new_hp()}"], cwd=ROOT,
                       env={**os.environ, "PROBE_OUT": str(out)}, capture_output=True, text=True, timeout=600)
    got = json.loads(out.read_text())
    assert got["code"] in (0, None), r.stderr
    modules = set(got["modules"])
    assert "sim.games.dungeon.game" in modules  # computed by the game, not read back
    assert not modules & {"pandas", "matplotlib"}, sorted(modules & {"pandas", "matplotlib"})
    assert ("total attack" in r.stdout) if args[0] == "combos" else json.loads(r.stdout)["game"] == "dungeon"
