"""A refused Pig config value exits 2 in one ``error:`` line without importing numba, pandas or Pig's kernels
(issue 29/30: the config model reads no jitted module)."""

from __future__ import annotations

import pytest

from tests.test_cli_fast import HEAVY, _game_code, _probe


@pytest.mark.parametrize("value", ["dice.sides=0", "goal.target=nan", "policies.hold_at=-1", "dice.bust_face=9"])
def test_a_refused_pig_value_imports_no_numba(tmp_path, value):  # noqa: F811
    code, modules, stderr = _probe(tmp_path, "play", "pig", "--policy", "hold-20", "--set", value)
    assert code == 2 and stderr.startswith("error:") and len(stderr.strip().splitlines()) == 1, stderr
    assert not modules & {"numba", "pandas"}, sorted(modules & set(HEAVY))
    assert not [m for m in _game_code(modules) if not m.endswith(".config") and m != "sim.games.base"]  # no kernel
