"""The engine's declaration helpers on their own: table packing (``sim.core.schema``), event decoding
(``sim.core.events``), game options, the interval helpers in ``sim.core.stats`` and the common charts
(``sim.report.charts``)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sim.core import stats
from sim.core.config import DicesimError
from sim.core.events import EventKind, EventLog, render_generic
from sim.core.schema import Column, columns_of, pack, validate
from sim.games.base import Option
from sim.report import charts

COLS = (Column("run", "int64"), Column("a", "int16"), *columns_of(["b0", "b1"], "int8", "box {name}"))


def test_pack_names_blocks_in_declared_order_and_casts():
    part = pack(COLS, [np.arange(3), np.array([5, 6, 7]), np.array([[1, 2], [3, 4], [5, 6]])])
    assert list(part) == ["run", "a", "b0", "b1"]
    assert part["a"].dtype == np.int16 and part["b1"].dtype == np.int8
    assert part["b0"].tolist() == [1, 3, 5] and part["b1"].tolist() == [2, 4, 6]
    assert COLS[3].doc == "box b1"


def test_pack_refuses_a_miscount_and_unequal_lengths():
    with pytest.raises(ValueError, match="3 columns, 4 are declared .next: b1"):
        pack(COLS, [np.arange(3), np.arange(3), np.arange(3)])
    with pytest.raises(ValueError, match="more than the 4"):
        pack(COLS, [np.arange(3), np.zeros((3, 4))])
    with pytest.raises(ValueError, match="unequal length"):
        pack(COLS, [np.arange(3), np.arange(2), np.zeros((3, 2))])


def test_validate_names_missing_and_undeclared_columns():
    good = {"run": np.arange(2), "a": np.arange(2), "b0": np.arange(2), "b1": np.arange(2)}
    assert validate(COLS, good)["a"].dtype == np.int16
    with pytest.raises(ValueError, match=r"missing \['b1'\], undeclared \['c'\]"):
        validate(COLS, {**{k: v for k, v in good.items() if k != "b1"}, "c": np.arange(2)})
    with pytest.raises(ValueError, match="declared order"):
        validate(COLS, dict(reversed(list(good.items()))))


LOG = EventLog((EventKind(0, "roll", ("turn", "dice:3", "_"), "turn {turn}: {dice}"),
                EventKind(7, "stop", ("turn", "why", "_", "_", "points"))), kind_column=1)


def test_events_decode_by_the_kind_column_with_spans_and_skips():
    rows = np.array([[2, 0, 4, 5, 6, 99], [3, 7, 1, 0, 0, 12]])
    assert LOG.decode(rows) == [{"event": "roll", "turn": 2, "dice": [4, 5, 6]},
                                {"event": "stop", "turn": 3, "why": 1, "points": 12}]
    with pytest.raises(ValueError, match="unknown event code 5"):
        LOG.decode(np.array([[0, 5, 0, 0, 0, 0]]))
    with pytest.raises(ValueError, match="codes repeat"):
        EventLog((EventKind(1, "a", ()), EventKind(1, "b", ())))


def test_generic_render_uses_templates_then_fields():
    from sim.core.events import Replay

    rep = Replay("x", 1, 0, ["p"], {}, [{"facts": {}, "events": LOG.decode(np.array([[2, 0, 4, 5, 6, 0],
                                                                                     [3, 7, 1, 0, 0, 12]]))}], [])
    assert render_generic(rep, LOG) == "turn 2: [4, 5, 6]\nstop turn=3 why=1 points=12"


def test_option_checks_type_and_choices():
    o = Option("people", "a", str, "who", ("a", "b"))
    assert o.flag == "--people" and o.check("b") == "b"
    with pytest.raises(DicesimError, match="--people must be one of a, b, got 'c'"):
        o.check("c")
    with pytest.raises(DicesimError, match="--players must be int"):
        Option("players", 1, int).check(True)
    assert Option("opponent", None, str).check(None) is None


def test_a_choice_may_be_typed_in_another_case_or_by_its_display_name():
    o = Option("people", "gruenlinge", str, "who", ("gruenlinge", "normal"), words={"gruenlinge": "Grünlinge"})
    assert o.check("Normal") == o.check(" NORMAL ") == "normal"
    assert o.check("Grünlinge") == o.check("GRUENLINGE") == "gruenlinge"
    with pytest.raises(DicesimError, match="--people must be one of gruenlinge, normal, got 'Normale'"):
        o.check("Normale")


def test_ratio_share_and_shifted_intervals():
    # ratio of sums with the delta-method interval, by hand for three runs
    y, x = np.array([2.0, 4.0, 9.0]), np.array([1.0, 2.0, 3.0])
    r = 15 / 6
    se = math.sqrt(((y - r * x) ** 2).sum() / (3 * 2)) / x.mean()
    m = stats.ratio(y, x)
    assert m["value"] == pytest.approx(r) and m["ci95"] == pytest.approx([r - stats.Z95 * se, r + stats.Z95 * se])
    assert stats.share(30, 100)["ci95"] == list(stats.wilson(30, 100))
    s = stats.shifted(stats.rate(np.array([True, False, True, True])), 0.5)
    assert s["value"] == pytest.approx(0.25) and s["ci95"][0] == pytest.approx(stats.wilson(3, 4)[0] - 0.5)
    bars = stats.error_bars([{"value": 0.5, "ci95": [0.4, 0.7]}])
    assert bars[:, 0].tolist() == pytest.approx([0.1, 0.2])


def _png(p):
    data = open(p, "rb").read()
    return data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000


def test_common_charts_write_pngs(tmp_path):
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 10, 500), rng.integers(2, 12, 500)
    assert _png(charts.distribution({"a": a, "b": pd.Series(b)}, tmp_path / "d.png", "x", "t"))
    assert _png(charts.survival({"a": a, "b": b}, 12, tmp_path / "s.png", "room", "t"))
    lp = rng.normal(10, 2, (200, 6))
    lp[rng.random((200, 6)) < 0.2] = np.nan
    assert _png(charts.quantile_bands({"a": lp}, tmp_path / "q.png", "room", "LP", "t"))
    groups = {"x": [stats.rate(a > 4), stats.rate(a > 6)], "y": [stats.rate(b > 4), stats.rate(b > 6)]}
    assert _png(charts.bars(groups, ["> 4", "> 6"], tmp_path / "b.png", "share", "t", reference=(0.5, "half")))
    assert _png(charts.heatmap({"p": rng.random((3, 4)), "q": rng.random((3, 4))}, tmp_path / "h.png",
                               ["r0", "r1", "r2"], ["c0", "c1", "c2", "c3"], "t", "share", annotate=True))
