"""The sweep tab's grid: evenly spaced values, whole numbers for int fields, no repeats."""

from __future__ import annotations

import pytest

from sim.core.config import DicesimError
from sim.studio.sweep_view import grid_values


def test_grid_values():
    assert grid_values(0.8, 1.2, 3, integer=False) == [0.8, 1.0, 1.2]
    assert grid_values(1, 3, 5, integer=True) == [1, 2, 3]  # 1, 1.5, 2, 2.5, 3 rounded, repeats dropped
    assert grid_values(5, 5, 1, integer=True) == [5]
    assert grid_values(0.1, 0.3, 3, integer=False) == [0.1, 0.2, 0.3]  # no 0.30000000000000004
    with pytest.raises(DicesimError, match="steps must be at least 1"):
        grid_values(0, 1, 0, integer=False)
