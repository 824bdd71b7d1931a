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


def test_a_sweep_axis_from_nan_or_to_inf_is_refused_in_words():
    """NaN in "from" did nothing on the page (the grid's int() raised in the server's log)."""
    from types import SimpleNamespace

    import pytest

    from sim.core.errors import DicesimError
    from sim.studio.sweep_view import SweepPanel

    panel = SweepPanel.__new__(SweepPanel)
    panel.studio = SimpleNamespace(form=SimpleNamespace(specs={"start.lp": SimpleNamespace(kind="int")}))
    box = SimpleNamespace
    for lo, hi in (("NaN", "60"), ("40", "inf")):
        with pytest.raises(DicesimError, match=r"^start.lp: from and to must be finite numbers, got "):
            panel._grid_axis(box(value="start.lp"), box(value=lo), box(value=hi), box(value="5"))
    assert panel._grid_axis(box(value="start.lp"), box(value="40"), box(value="60"), box(value="3")) == [40, 50, 60]
