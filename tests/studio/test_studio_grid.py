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
    with pytest.raises(DicesimError, match=r"steps must be 1 \.\. 10,000 \(a sweep's points\), got 0"):
        grid_values(0, 1, 0, integer=False)
    with pytest.raises(DicesimError, match="got 1,000,000,000$"):  # a billion values built before any check
        grid_values(0, 1, 10**9, integer=True)


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
    panel.fewer = []
    assert panel._grid_axis(box(value="start.lp"), box(value="40"), box(value="60"), box(value="3")) == [40, 50, 60]
    assert panel.fewer == []


def test_a_whole_number_axis_of_fewer_points_than_steps_says_so():
    """1,000 steps from 20 to 40 of a whole-number field are its 21 whole numbers: said, not silently played."""
    from types import SimpleNamespace

    from sim.studio.sweep_view import SweepPanel

    panel = SweepPanel.__new__(SweepPanel)
    panel.studio = SimpleNamespace(form=SimpleNamespace(specs={"start.lp": SimpleNamespace(kind="int")}))
    panel.fewer = []
    box = SimpleNamespace
    assert panel._grid_axis(box(value="start.lp"), box(value="20"), box(value="40"), box(value="1000")) == list(
        range(20, 41))
    assert panel.fewer == ["start.lp takes whole numbers: 21 of them from 20 to 40, not 1,000 steps"]
