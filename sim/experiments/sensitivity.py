"""Sensitivity of a grid sweep: how much each metric moves per swept field (elasticities, tornado).

For each policy, metric and numeric swept field, the other fields are held at the base point (the
base config's value when the grid contains it, else the grid's middle value). The elasticity is the
relative change of the metric per relative change of the field around the base, from the grid
neighbours on either side (a central difference; one-sided at the grid's ends):

    elasticity = ((m(f_hi) - m(f_lo)) / m(f_base)) / ((f_hi - f_lo) / f_base)

``slope`` is the same change in absolute units (metric per field unit), defined also where the base
value or metric is 0, between ``below``/``above`` (the neighbours it is taken between). ``low``/``high``
are the metric at the field's smallest and largest grid value (with their 95 % intervals): the tornado
chart draws those swings around the base value. All points
share their seeds, so these differences carry far less sampling noise than each point's own interval
(not none: a field that changes who throws which dice, as the table size, shares less).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.core import atomic
from sim.experiments.sweep_spec import toml_text
from sim.report.mpl import plt, ticker


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, int | float | np.integer | np.floating) and not isinstance(v, bool) for v in values)


def _plain(v: Any) -> Any:
    """A value as read back from ``sweep.parquet`` (a list as a numpy array, a table as a dict with numpy values)
    in plain Python; a table's keys that the file fills with null for other rows are left out."""
    if isinstance(v, np.ndarray | list | tuple):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items() if x is not None}
    return v.item() if isinstance(v, np.generic) else v


def value_text(v: Any) -> Any:
    """A swept value as the analysis compares and the page shows it: a list or a table (``policies.threshold``, a
    boss card) as the TOML that writes it, which can be compared and counted; a number or a name as it is."""
    v = _plain(v)
    return toml_text(v) if isinstance(v, list | dict) else v


def comparable(table: pd.DataFrame, fields: list[str]) -> pd.DataFrame:
    """``table`` with each swept field whose values are lists or tables written as text (:func:`value_text`)."""
    table = table.copy()
    for f in fields:
        if table[f].map(lambda v: isinstance(v, np.ndarray | list | tuple | dict)).any():
            table[f] = table[f].map(value_text)
    return table


def base_point(table: pd.DataFrame, fields: list[str], base_values: dict[str, Any] | None = None) -> dict[str, Any]:
    """The value of each field at the base point: the base config's value if swept, else the middle value (a list or
    a table as :func:`value_text` writes it)."""
    table = comparable(table, fields)
    base_values = {k: value_text(v) for k, v in (base_values or {}).items()}
    out = {}
    for f in fields:
        values = list(dict.fromkeys(table[f].tolist()))
        b = base_values.get(f)
        if b is not None and b in values:
            out[f] = b
        else:
            ordered = sorted(values) if _numeric(values) else values
            out[f] = ordered[(len(ordered) - 1) // 2]
    return out


def along(table: pd.DataFrame, field: str, base: dict[str, Any]) -> pd.DataFrame:
    """Rows where every swept field except ``field`` sits at its base value, sorted by ``field``."""
    mask = np.ones(len(table), dtype=bool)
    for g, v in base.items():
        if g != field:
            mask &= (table[g] == v).to_numpy()
    rows = table[mask]
    if _numeric(rows[field].tolist()):
        rows = rows.sort_values(field, kind="stable")
    return rows


def elasticities(
    table: pd.DataFrame, fields: list[str], metrics: list[str], base_values: dict[str, Any] | None = None
) -> pd.DataFrame:
    """One row per (policy, metric, numeric field): base, low/high swings with intervals, slope, elasticity. A field
    of names, lists or tables has no relative change: it has no rows."""
    table = comparable(table, fields)
    base = base_point(table, fields, base_values)
    rows = []
    for policy, part in table.groupby("policy", sort=False):
        for f in fields:
            line = along(part, f, base)
            xs = line[f].tolist()
            if len(xs) < 2 or not _numeric(xs):
                continue
            i = xs.index(base[f])
            lo_i, hi_i = max(0, i - 1), min(len(xs) - 1, i + 1)
            for m in metrics:
                ys = line[m].to_numpy(dtype=float)
                x0, y0 = float(xs[i]), ys[i]
                dx = float(xs[hi_i]) - float(xs[lo_i])
                dy = ys[hi_i] - ys[lo_i]
                slope = dy / dx if dx else math.nan
                el = slope * x0 / y0 if (x0 != 0 and y0 != 0 and math.isfinite(slope)) else math.nan
                first, last = line.iloc[0], line.iloc[-1]
                rows.append({
                    "policy": policy, "metric": m, "field": f,
                    "base_field_value": xs[i], "base": y0,
                    "low_field_value": xs[0], "low": float(first[m]),
                    "low_ci95_low": float(first[f"{m}_ci95_low"]), "low_ci95_high": float(first[f"{m}_ci95_high"]),
                    "high_field_value": xs[-1], "high": float(last[m]),
                    "high_ci95_low": float(last[f"{m}_ci95_low"]), "high_ci95_high": float(last[f"{m}_ci95_high"]),
                    "slope": slope, "elasticity": el, "swing": float(last[m]) - float(first[m]),
                    # the grid neighbours the slope is taken between (the base itself at an end of the grid)
                    "below_field_value": xs[lo_i], "below": float(ys[lo_i]),
                    "above_field_value": xs[hi_i], "above": float(ys[hi_i]),
                })
    return pd.DataFrame(rows)


def _end(value: Any, base: Any) -> str:
    """A grid end's value under its bar; an end that is the base point has no bar (the legend promised one), so it
    says so."""
    return f"{value} (base)" if value == base else f"{value}"


def tornado_chart(sens: pd.DataFrame, metric: str, path: Path, words: Mapping[str, str] | None = None,
                  percent: bool = False) -> Path | None:
    """Bars from the metric at each field's lowest to highest grid value, around the base; one panel per policy.

    No level intervals are drawn: all points share their runs, so the swings are far more precise than
    the interval of each level (see the ``low_ci95_*``/``high_ci95_*`` columns for those). ``words``: the fields,
    the metric and the policies as a person reads them (code names where it has none); ``percent``: the metric is
    a share, its axis in %.
    """
    said = dict(words or {})

    def name(code: str) -> str:
        return said.get(code, code)

    part = sens[sens["metric"] == metric]
    if part.empty:
        return None
    policies = list(dict.fromkeys(part["policy"]))
    fig, axes = plt.subplots(1, len(policies), figsize=(5.5 * len(policies), 0.6 * part["field"].nunique() + 2.2),
                             squeeze=False)
    for ax, pol in zip(axes[0], policies, strict=True):
        p = part[part["policy"] == pol].copy()
        p["size"] = p["swing"].abs()
        p = p.sort_values("size", kind="stable")
        base = float(p["base"].iloc[0])
        for y, r in enumerate(p.itertuples()):
            ax.barh(y, r.low - base, left=base, color="#4c72b0", alpha=0.85)
            ax.barh(y, r.high - base, left=base, color="#dd8452", alpha=0.85)
        ax.set_yticks(range(len(p)))
        ax.set_yticklabels([f"{name(r.field)}\n{_end(r.low_field_value, r.base_field_value)} → "
                            f"{_end(r.high_field_value, r.base_field_value)}" for r in p.itertuples()], fontsize=8)
        ax.axvline(base, color="#333", linewidth=1)
        if percent:
            ax.xaxis.set_major_formatter(ticker.PercentFormatter(xmax=1, decimals=0))
        ax.set_xlabel(f"{name(metric)} (base {base * 100:.1f} %)" if percent else f"{name(metric)} (base {base:.4g})")
        ax.set_title(f"{name(pol)}: lowest (blue) / highest (orange) grid value", fontsize=10)
    # two lines: one panel is only 5.5 inches wide
    fig.suptitle(f"Sensitivity of {name(metric)} to each swept field\n(every point plays the same seeds)",
                 fontsize=10)
    fig.tight_layout()
    atomic.save_figure(fig, path, dpi=100)
    plt.close(fig)
    return Path(path)
