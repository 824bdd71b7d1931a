"""A sweep's one-page report: ``report.html``, one self-contained file (charts embedded; PNGs also beside it).

Built only from a finished sweep folder (``sweep.json``, ``sweep.parquet`` and, for the overlays,
the per-run parts), never by re-running:

- per swept field: each charted metric against the field, one line per policy with its 95 % band
  (other fields at their base value);
- heatmaps of each charted metric over the first two swept fields, one panel per policy;
- variants: grouped bars with 95 % intervals;
- sensitivity: elasticities table and a tornado chart;
- overlays: the game's own charts (e.g. score distributions, survival curves) with one curve per
  grid point, for the first policy.
"""

from __future__ import annotations

import functools
import html
import math
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from sim.core import atomic, stats
from sim.core.config import whole_numbers
from sim.experiments.sensitivity import _numeric, along, base_point, comparable, elasticities, tornado_chart
from sim.experiments.sweep_spec import OPTION_AXIS, point_config
from sim.experiments.sweep_store import load_result, metric_names, read_runs
from sim.games import get_game
from sim.games.base import winner_values
from sim.report import charts as common
from sim.report import pages, words
from sim.report.mpl import plt
from sim.report.outputs import safe_label

MAX_OVERLAY = 8


def chart_metrics(table: pd.DataFrame, wanted: list[str] | None = None, k: int = 3) -> list[str]:
    """The metrics to chart: those asked for (that exist), else the first ``k`` that carry an interval."""
    names = metric_names(table)
    if wanted:
        return [m for m in wanted if m in names]
    with_ci = [m for m in names if table[f"{m}_ci95_low"].notna().any()]
    return (with_ci or names)[:k]


def _positions(xs: list[Any], game: str | None = None) -> tuple[np.ndarray, list[str] | None]:
    """Where the swept values sit on an axis: numbers at their values, anything else evenly with its name in words
    as the tick (``Leicht``, not ``leicht``)."""
    if _numeric(xs):
        return np.asarray(xs, dtype=float), None
    return np.arange(len(xs), dtype=float), [str(said_value(game, x)) for x in xs]


def field_words(game: str | None, path: str) -> str:
    """A swept config field in words (``bonus.value`` -> the field's title, else ``bonus › value``); a game option
    by its name (``options.players`` -> ``players``)."""
    if path.startswith(OPTION_AXIS):
        return path[len(OPTION_AXIS):].replace("_", " ")
    model = get_game(game).Config if game else None
    return words.config_label(game, model, path)


def _metric(game: str | None, metric: str) -> str:
    """A metric's name with its unit for an axis: ``mean score (points)``, ``upper bonus (%)``."""
    unit = words.axis_unit(metric) or words.unit_of(metric, game)
    return words.with_unit(words.metric_label(game, metric), unit)


def line_chart(table: pd.DataFrame, field: str, metrics: list[str], base: dict[str, Any], path: Path,
               game: str | None = None) -> Path:
    """Each metric against ``field``, one line and 95 % band per policy (other fields at base); names in words
    (``game``: its words), shares on % axes."""
    fig, axes = plt.subplots(1, len(metrics), figsize=(4.6 * len(metrics), 3.8), squeeze=False)
    others = ", ".join(f"{field_words(game, k)} = {said_value(game, v)}" for k, v in base.items() if k != field)
    for ax, m in zip(axes[0], metrics, strict=True):
        for policy, part in table.groupby("policy", sort=False):
            rows = along(part, field, base)
            x, ticks = _positions(rows[field].tolist(), game)
            y = rows[m].to_numpy(dtype=float)
            lo, hi = rows[f"{m}_ci95_low"].to_numpy(dtype=float), rows[f"{m}_ci95_high"].to_numpy(dtype=float)
            (ln,) = ax.plot(x, y, marker="o", label=words.policy_name(game, policy))
            if np.isfinite(lo).any() and len(x) > 1:
                ax.fill_between(x, lo, hi, alpha=0.2, color=ln.get_color(), linewidth=0)
            elif np.isfinite(lo).any():  # one point has no band to fill: its interval as an error bar
                ax.errorbar(x, y, yerr=np.abs(np.vstack([y - lo, hi - y])), color=ln.get_color(), capsize=4)
            if ticks:
                ax.set_xticks(x, ticks, rotation=20)
            elif all(float(v).is_integer() for v in x):  # whole numbers (players, points): no 2.5 on the axis
                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(textwrap.fill(field_words(game, field), 45))  # a long title in lines, not over the next panel's
        ax.set_ylabel(_metric(game, m))
        common.in_units(ax.yaxis, words.axis_unit(m))
        ax.set_title(words.metric_label(game, m), fontsize=10)
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    said = ", ".join(words.metric_label(game, m) for m in metrics)
    title = f"{said} vs {field_words(game, field)} (95 % bands){' · ' + others if others else ''}"
    fig.suptitle(textwrap.fill(title, int(12 * 4.6 * len(metrics))), fontsize=10)  # in lines as wide as the figure
    fig.tight_layout()
    atomic.save_figure(fig, path, dpi=100)
    plt.close(fig)
    return path


def heatmap(table: pd.DataFrame, fx: str, fy: str, metric: str, base: dict[str, Any], path: Path,
            game: str | None = None) -> Path:
    """``metric`` over (fx, fy), one panel per policy (further fields at base) on one colour scale, values written
    in the cells in the pages' units (``15.0 %``, ``254.3 points``); names in words."""
    policies = list(dict.fromkeys(table["policy"]))
    fig, axes = plt.subplots(1, len(policies), figsize=(4.8 * len(policies) + 0.8, 4.2), squeeze=False)
    mask = np.ones(len(table), dtype=bool)
    for g, v in base.items():
        if g not in (fx, fy):
            mask &= (table[g] == v).to_numpy()
    sub = table[mask]
    xs = list(dict.fromkeys(sub[fx].tolist()))
    ys = list(dict.fromkeys(sub[fy].tolist()))
    grids, texts = [], []
    for pol in policies:
        grid = np.full((len(ys), len(xs)), np.nan)
        text: dict[tuple[int, int], str] = {}
        for r in sub[sub["policy"] == pol].to_dict("records"):
            at = (ys.index(r[fy]), xs.index(r[fx]))
            grid[at] = r[metric]
            ci = (r.get(f"{metric}_ci95_low"), r.get(f"{metric}_ci95_high"))  # rounded as the table rounds it
            text[at] = words.value_text(metric, r[metric], ci, unit=False).split(" [", 1)[0]
        grids.append(grid)
        texts.append(text)
    # one colour scale for every panel: the same colour is the same value whichever policy played it
    finite = np.concatenate([g[np.isfinite(g)] for g in grids])
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    for ax, pol, grid, text in zip(axes[0], policies, grids, texts, strict=True):
        im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis", vmin=lo, vmax=hi)
        ax.set_xticks(range(len(xs)), [str(said_value(game, x)) for x in xs])
        ax.set_yticks(range(len(ys)), [str(said_value(game, y)) for y in ys])
        ax.set_xlabel(textwrap.fill(field_words(game, fx), 45))  # a long title in lines, not past the panel
        ax.set_ylabel(textwrap.fill(field_words(game, fy), 35))
        ax.set_title(f"{words.policy_name(game, pol)}: {_metric(game, metric)}", fontsize=10)
        for (i, j), v in np.ndenumerate(grid):
            if math.isfinite(v):
                dark = hi > lo and (v - lo) / (hi - lo) > 0.6
                ax.text(j, i, text[(i, j)], ha="center", va="center", fontsize=8, color="black" if dark else "white")
        bar = fig.colorbar(im, ax=ax, shrink=0.85)
        common.in_units(bar.ax.yaxis, words.axis_unit(metric))
    fig.tight_layout()
    atomic.save_figure(fig, path, dpi=100)
    plt.close(fig)
    return path


def variants_chart(table: pd.DataFrame, metrics: list[str], path: Path, game: str | None = None) -> Path:
    """Grouped bars per variant and policy with 95 % intervals, one panel per metric (names in words)."""
    variants = list(dict.fromkeys(table["label"]))
    policies = list(dict.fromkeys(table["policy"]))
    fig, axes = plt.subplots(1, len(metrics), figsize=(max(4.6, 1.1 * len(variants) * len(policies)) * len(metrics)
                                                       / max(1, len(metrics)) + 1, 4.2), squeeze=False)
    width = 0.8 / len(policies)
    for ax, m in zip(axes[0], metrics, strict=True):
        for k, pol in enumerate(policies):
            p = table[table["policy"] == pol].set_index("label").reindex(variants)
            y = p[m].to_numpy(dtype=float)
            err = np.abs(np.nan_to_num(np.vstack([y - p[f"{m}_ci95_low"].to_numpy(dtype=float),
                                                  p[f"{m}_ci95_high"].to_numpy(dtype=float) - y])))
            ax.bar(np.arange(len(variants)) + (k - (len(policies) - 1) / 2) * width, y, width, yerr=err,
                   capsize=3, label=words.policy_name(game, pol))
        ax.set_xticks(range(len(variants)), variants, rotation=20, fontsize=8)
        ax.set_title(_metric(game, m), fontsize=10)
        common.in_units(ax.yaxis, words.axis_unit(m))
        ax.grid(alpha=0.3, axis="y")
    axes[0][0].legend(fontsize=8)
    fig.suptitle("variants (95 % intervals)", fontsize=10)
    fig.tight_layout()
    atomic.save_figure(fig, path, dpi=100)
    plt.close(fig)
    return path


def overlay_points(table: pd.DataFrame, fields: list[str], base: dict[str, Any],
                   game: str | None = None) -> list[tuple[int, str]]:
    """(point, chart label in words) pairs to overlay: along the first field (others at base), or every variant; at
    most 8."""
    first = table[table["policy"] == table["policy"].iloc[0]]
    if fields:
        rows = along(first, fields[0], base)
        said = field_words(game, fields[0])
        pts = [(int(r["point"]), _overlay_label(said, said_value(game, r[fields[0]]))) for r in rows.to_dict("records")]
    else:
        pts = [(int(r["point"]), _legend_text(r["label"])) for r in first.to_dict("records")]
    if len(pts) > MAX_OVERLAY:
        idx = np.unique(np.linspace(0, len(pts) - 1, MAX_OVERLAY).round().astype(int))
        pts = [pts[i] for i in idx]
    return pts


def _overlay_label(said: str, value: Any) -> str:
    """A curve's legend entry: ``field = value``, or where that would not fit a legend's column (a long title, a list
    or a table of values) the value alone in lines (the page names the field above the charts). The games' charts
    read a label as a policy's (``sim.report.charts.named``: a comma joins seats, a hyphen is a space), so a list's
    commas are semicolons and a negative number's sign the minus sign."""
    shown = _legend_text(value)
    text = f"{said} = {shown}"
    return text if len(text) <= 40 else textwrap.fill(shown, 40)


def _legend_text(value: Any) -> str:
    text = str(value).replace(",", ";")
    return text.replace("-", "\u2212") if _numeric([value]) else text


def overlays(
    out: Path, meta: dict[str, Any], table: pd.DataFrame, fields: list[str], base: dict[str, Any]
) -> list[Path]:
    """The game's own charts with one curve per grid point (first policy), from the kept per-run parts."""
    canon = meta["canonical"]
    tables = {}
    points = overlay_points(table, fields, base, canon["game"])
    for point, label in points:
        runs = read_runs(out, point, 0, canon["n"], canon["chunk"])
        if runs is None:
            return []
        tables[label] = runs
    dest = out / "overlays"
    dest.mkdir(exist_ok=True)
    for old in dest.glob("*.png"):
        old.unlink()
    game = get_game(canon["game"])
    first = points[0][0]
    cfg = point_config(game, meta.get("base_config"), canon["points"][first]["sets"])  # rules the charts draw
    drawn = [Path(p) for p in game.charts(tables, dest, canon["points"][first].get("options") or canon["options"], cfg)]
    for p in drawn:
        if p.name in game.rule_charts:  # the first point's rules alone, under every point's name
            p.unlink(missing_ok=True)
    return [p for p in drawn if p.name not in game.rule_charts]


def overlay_caption(name: str, notes: dict[str, str]) -> str:
    """A game chart's sentence where its curves are grid points, not policies."""
    said = pages.caption_of(name, notes)
    for policy, point in (("per policy", "per grid point"), ("each policy", "each grid point"),
                          ("by policy", "by grid point")):
        said = said.replace(policy, point)
    return said


CAPTIONS = {
    "line": "Each charted metric against the swept field, one line per policy with its 95 % band.",
    "heatmap": "The metric over both swept fields (values in the cells), one panel per policy.",
    "tornado": "Which field moves the metric most around the base point (elasticities).",
    "variants": "Each variant's metrics per policy with 95 % intervals.",
}


def game_notes(name: str) -> dict[str, str]:
    return get_game(name).chart_notes


Change = Callable[[int, int, str], "list[float] | None"]


def paired_change(out: Path, meta: dict[str, Any], metric: str) -> Change:
    """The 95 % interval of ``metric``'s change from one grid point to another for one policy, from the runs the
    sweep kept (every point plays the same seeds, so the change is paired: far narrower than either point's own
    interval); a seat's share of the games and the draws from each run's winner; None where no runs were kept or
    the metric is no per-run mean of a one-seat game (a quantile)."""
    canon = meta["canonical"]
    game = get_game(canon["game"])
    slots = {label: i for i, (label, _) in enumerate(canon["plan"])}

    @functools.cache  # the base point's runs serve every swept field's sentence: read once
    def values(point: int, slot: int) -> np.ndarray | None:
        runs = read_runs(out, point, slot, canon["n"], canon["chunk"])
        if runs is None or "run" not in runs.columns:
            return None
        won = winner_values(runs, metric)  # a seat's share or the draws: from each game's winner
        if won is not None:
            return won
        if not runs["run"].is_unique:
            return None
        cfg = point_config(game, meta.get("base_config"), canon["points"][point]["sets"])
        per_run = game.run_values(runs, cfg)
        return per_run[metric].to_numpy() if metric in per_run.columns else None

    def change(a: int, b: int, policy: str) -> list[float] | None:
        if policy not in slots:
            return None
        va, vb = values(a, slots[policy]), values(b, slots[policy])
        if va is None or vb is None or va.shape != vb.shape:
            return None
        return [float(x) for x in stats.paired_difference(vb, va)["ci95"]]

    return change


def sweep_answers(table: pd.DataFrame, fields: list[str], metric: str, base: dict[str, Any],
                  game: str | None = None, change: Change | None = None) -> list[str]:
    """The sweep's answer first, one sentence per swept field: its metric at the field's two ends of the grid, the
    other fields held at ``base`` (named: the base config's value, or the grid's middle where the grid lacks it), per
    policy, with the change and, from the kept runs (``paired_change``), its paired
    interval (``Upper bonus points 25 → 45: mean score, Optimal 244.1 → 257.9 points (+13.8 points [+12.9, +14.7]);
    Greedy …``); none for names (no ends to compare) or a variants sweep."""
    out = []
    table = comparable(table, fields)
    for f in fields:
        rows = along(table, f, base)
        if rows.empty or not _numeric(rows[f].tolist()) or rows[f].iloc[0] == rows[f].iloc[-1]:
            continue
        bits = []
        for policy, part in rows.groupby("policy", sort=False):
            a, b = float(part[metric].iloc[0]), float(part[metric].iloc[-1])
            ci = change(int(part["point"].iloc[0]), int(part["point"].iloc[-1]), str(policy)) if change else None
            moved = (words.value_text(metric, b - a, ci, diff=True, game=game) if ci else
                     words.value_text(metric, b - a, diff=True, game=game, like=[a - 1, a + 1]))
            ends = [_interval(part, metric, i) for i in (0, -1)]  # each end to its interval's decimals: 210.0, not 210
            bits.append(f"{words.policy_name(game, policy)} {words.value_text(metric, a, game=game, like=ends[0])} → "
                        f"{words.value_text(metric, b, game=game, like=ends[1])} ({moved})")
        held = [f"{words.without_hint(field_words(game, g))} at {_held(said_value(game, base[g]))}"
                for g in fields if g != f]  # the values held, named: "at their base" read as the config's
        others = f" ({', '.join(held)})" if held else ""  # where the grid holds no base value (its middle then)
        name = words.without_hint(field_words(game, f))  # "(0: no bonus)" before "25 → 45" read as a value
        said = f"{name} {_held(rows[f].iloc[0])} → {_held(rows[f].iloc[-1])}{others}: "
        out.append(said[:1].upper() + said[1:] + f"{words.metric_label(game, metric)}, " + "; ".join(bits) + ".")
    return out


def _interval(part: pd.DataFrame, metric: str, i: int) -> list[float] | None:
    """Row ``i``'s 95 % interval of ``metric`` where the table has one."""
    lo, hi = f"{metric}_ci95_low", f"{metric}_ci95_high"
    return [float(part[lo].iloc[i]), float(part[hi].iloc[i])] if lo in part and hi in part else None


def _held(v: Any) -> str:
    """A value a sentence holds a field at: a number with its thousands (10,000), anything else as the table shows."""
    number = isinstance(v, int | float | np.integer | np.floating) and not isinstance(v, bool | np.bool_)
    return words.num(float(v)) if number and math.isfinite(v) else _fmt(v)


def _fmt(v: Any) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, float):  # words.num: 10,000, not 1e+04 (a goal of 10000 read "1e+04 → 50.3 %")
        return words.num(v)
    return html.escape(str(v))


def said_value(game: str | None, v: Any) -> Any:
    """A swept value as the game names it (a people, a difficulty: ``Grünlinge``, ``Leicht``); numbers as written
    (an enemy's LP 23, not the float field's 23.0); a switch as yes or no (not Python's ``True``)."""
    if isinstance(v, bool | np.bool_):
        return "yes" if v else "no"
    return words.word(game, v) if isinstance(v, str) and game else whole_numbers(v)


def _head(said: str, code: str) -> str:
    """A column head in words, its code name small below where it differs (what ``sweep.csv`` calls it)."""
    small = f"<br><small>{html.escape(code)}</small>" if said != code else ""
    return f"<th title='{html.escape(code)}'>{html.escape(said)}{small}</th>"


def table_html(table: pd.DataFrame, fields: list[str], metrics: list[str], game: str | None = None) -> str:
    """The sweep's results: fields and metrics named in words (code names small), policies by their names, each
    value in its unit with its 95 % interval (``15.0 % [14.5, 15.5]``, ``208.3 points [207.6, 209.0]``)."""
    keys = (fields or ["label"]) + ["policy"]
    head = "".join(_head(field_words(game, k) if k in fields else k, k) for k in keys)
    head += "".join(_head(words.metric_label(game, m), m) for m in metrics)
    body = []
    for r in table.to_dict("records"):
        cells = "".join(f"<td>{html.escape(words.policy_name(game, r[k]))}</td>" if k == "policy"
                        else f"<td>{_fmt(said_value(game, r[k]) if k in fields else r[k])}</td>" for k in keys)
        for m in metrics:
            lo, hi = r[f"{m}_ci95_low"], r[f"{m}_ci95_high"]
            text = words.value_text(m, r[m], None if pd.isna(lo) else (lo, hi), game=game)
            value, _, ci = text.partition(" [")
            cells += f"<td>{html.escape(value)}{f' <small>[{html.escape(ci)}</small>' if ci else ''}</td>"
        body.append(f"<tr>{cells}</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


SENSITIVITY_HEADS = {"policy": "policy", "metric": "metric", "field": "field", "base": "at base",
                     "below": "grid point below", "above": "grid point above", "slope": "slope per field unit",
                     "elasticity": "elasticity"}


def sensitivity_html(sens: pd.DataFrame, game: str | None = None) -> str:
    """Elasticities: names in words; at the base and its grid neighbours, the points the slope is taken between, the
    field's value and the metric's there (``35 → 207.6 points``: one cell, so the table fits the page; it ran off it
    in eleven columns; the grid's ends showed beside a slope taken between the neighbours), the slope per field unit
    in the metric's unit (pp for a share), the elasticity a plain ratio."""
    head = "".join(_head(said, c) for c, said in SENSITIVITY_HEADS.items())
    rows = []
    for r in sens.to_dict("records"):
        m = r["metric"]
        said = {"policy": html.escape(words.policy_name(game, r["policy"])),
                "metric": html.escape(words.metric_label(game, m)), "field": html.escape(field_words(game, r["field"])),
                "slope": html.escape(_slope_text(m, r["slope"], game)),
                "elasticity": html.escape(words.num(r["elasticity"])),
                **{c: (f"{_fmt(r[f'{c}_field_value'])} → {html.escape(words.value_text(m, r[c], game=game))}"
                       if c == "base" or r[f"{c}_field_value"] != r["base_field_value"] else "— (the grid's end)")
                   for c in ("base", "below", "above")}}
        rows.append("<tr>" + "".join(f"<td>{said[c]}</td>" for c in SENSITIVITY_HEADS) + "</tr>")
    return f"<div class='wide'><table><tr>{head}</tr>{''.join(rows)}</table></div>"


def _slope_text(metric: str, slope: Any, game: str | None) -> str:
    """A slope per field unit to four significant digits: a share's in pp (a 30 pp drop over a field's range of
    10,000 is −0.003 pp a unit, not the 0.0 pp a share's one decimal shows)."""
    if words.is_rate(metric) and slope is not None and math.isfinite(slope):
        return f"{words.num(float(slope) * 100, diff=True)} pp"
    return words.value_text(metric, slope, diff=True, game=game)


def _kind(values: list[Any]) -> str:
    """What a field's values are, in words, where they are not all numbers."""
    if all(isinstance(v, np.ndarray | list | tuple) for v in values):
        return "lists of values"
    if all(isinstance(v, dict) for v in values):
        return "tables of values"
    if all(isinstance(v, bool | np.bool_) for v in values):
        return "yes/no values"
    return "names" if all(isinstance(v, str) for v in values) else "values that are not all numbers"


def unmeasured_html(unmeasured: dict[str, str], said: dict[str, str]) -> str:
    """Why a swept field has no elasticity or tornado bar: its values are not numbers (a list, a table, a name)."""
    each = "; ".join(f"{html.escape(said[f])} <code>{html.escape(f)}</code> is swept over {kind}" for f, kind in
                     unmeasured.items())
    return (f"No sensitivity for fields whose values are not numbers: {each}. A relative change of such a value is "
            "not defined, so these fields have no elasticity and no bar in the tornado chart; the results table and "
            "the line charts show each of their values as a name.")


def build_sweep_report(out: str | Path) -> Path:
    """Write the charts, ``sensitivity.csv`` and ``report.html`` of a finished sweep folder (locked meanwhile)."""
    out = Path(out)
    with atomic.folder_lock(out):
        return _build_sweep_report(out)


def _build_sweep_report(out: Path) -> Path:
    table, meta = load_result(out)
    canon = meta["canonical"]
    game = canon["game"]
    spec = meta.get("spec", {})
    fields = list(meta.get("fields") or [])
    unmeasured = {f: _kind(table[f].tolist()) for f in fields if not _numeric(table[f].tolist())}
    table = comparable(table, fields)  # lists and tables as their TOML text: compared, charted and shown as names
    metrics = chart_metrics(table, spec.get("metrics") or None)
    for old in out.glob("sweep_*.png"):
        old.unlink()
    charts: list[tuple[str, Path]] = []
    sens = pd.DataFrame()
    base = base_point(table, fields, meta.get("base_values")) if fields else {}
    said = {**{m: words.metric_label(game, m) for m in metrics}, **{f: field_words(game, f) for f in fields}}
    if fields and metrics:
        for f in fields:
            charts.append((f"{', '.join(said[m] for m in metrics)} vs {said[f]}",
                           line_chart(table, f, metrics, base, out / f"sweep_line_{safe_label(f)}.png", game)))
        if len(fields) >= 2:
            for m in metrics:
                png = out / f"sweep_heatmap_{safe_label(m)}.png"
                hm = heatmap(table, fields[0], fields[1], m, base, png, game)
                charts.append((f"{said[m]} over {said[fields[0]]} × {said[fields[1]]}", hm))
        sens = elasticities(table, fields, metrics, meta.get("base_values"))
        if not sens.empty:
            atomic.write_csv(sens, out / "sensitivity.csv")
            names = {**said, **{p: words.policy_name(game, p) for p in sens["policy"].unique()}}
            t = tornado_chart(sens, metrics[0], out / "sweep_tornado.png", names, words.is_rate(metrics[0]))
            if t:
                charts.append((f"sensitivity of {said[metrics[0]]}", t))
    elif metrics:
        charts.append(("variants", variants_chart(table, metrics, out / "sweep_variants.png", game)))
    over = overlays(out, meta, table, fields, base) if spec.get("keep_runs", True) else []

    policies = [p[0] for p in canon["plan"]]
    facts = {
        "game": get_game(game).title, "points": len(canon["points"]),
        "policies": ", ".join(words.policy_name(game, p) for p in policies),
        "n per point": canon["n"],
        "seed (same for every point)": canon["seed"],
        # in words, as every report; an option the grid sweeps is its axis, not a fixed value beside it
        "options": ", ".join(get_game(game).setting({k: v for k, v in canon["options"].items()
                                                     if f"{OPTION_AXIS}{k}" not in fields})) or "none",
        "base config": meta.get("base_config") or f"configs/{canon['game']}/default.toml",
        "code version": meta.get("code_version"), "fingerprint": meta.get("fingerprint"),
    }
    title = f"dicesim sweep · {meta.get('name', '')}"
    parts = [f"<h1>{html.escape(title)}</h1>"]
    if spec.get("description"):
        parts.append(f"<p>{html.escape(spec['description'])}</p>")
    parts.append("<p>" + " · ".join(f"<b>{html.escape(k)}</b> {html.escape(str(v))}" for k, v in facts.items())
                 + "</p>")
    if fields:
        swept = ", ".join(f"{html.escape(said[f])} <code>{html.escape(f)}</code> (base "
                          f"{html.escape(str(said_value(game, base[f])))})" for f in fields)
        parts.append(f"<p>Swept: {swept}. Every point plays the same runs with the same seed, so differences between "
                     "points are mostly the rules' doing: far less noisy than each point's 95 % interval. The base "
                     "(each field's value in the base config where the grid holds it, else the grid's middle) is "
                     "where the line charts hold the other fields and where the sensitivity is measured.</p>")
    unknown = [m for m in spec.get("metrics") or [] if m not in metric_names(table)]
    if unknown:
        parts.append("<p><b>Not charted</b> (no such metric for this game): "
                     + ", ".join(f"<code>{html.escape(m)}</code>" for m in unknown)
                     + ". Available: " + ", ".join(html.escape(m) for m in metric_names(table)) + "</p>")
    answers = sweep_answers(table, fields, metrics[0], base, game, paired_change(out, meta, metrics[0])) \
        if fields and metrics else []
    if answers:  # the answer first, as every page: then the evidence
        parts.append("<h2>Answer</h2>" + "".join(f"<p class='answer'>{html.escape(a)}</p>" for a in answers))
    parts.append("<p>Full table (every metric with its 95 % interval): <a href='sweep.csv'>sweep.csv</a> · "
                 "<a href='sweep.parquet'>sweep.parquet</a></p>")
    parts.append("<h2>Results</h2><p>95 % intervals in brackets.</p>" + table_html(table, fields, metrics, game))
    if charts:
        parts.append("<h2>Charts</h2>")
        for cap, c in charts:
            parts.append(f"<h3>{html.escape(cap)}</h3>{pages.figure(c, CAPTIONS.get(c.name.split('_')[1], cap))}")
    if not sens.empty:
        parts.append("<h2>Sensitivity</h2><p>Elasticity: relative change of the metric per relative change of the "
                     "field around the base point (grid neighbours); slope in metric units per field unit. "
                     "<a href='sensitivity.csv'>sensitivity.csv</a></p>" + sensitivity_html(sens, game))
    if unmeasured and metrics:
        parts.append(("" if not sens.empty else "<h2>Sensitivity</h2>") + "<p>" + unmeasured_html(unmeasured, said)
                     + "</p>")
    if over:
        parts.append(f"<h2>Overlays per grid point ({html.escape(words.policy_name(game, policies[0]))})</h2>")
        along_ = f" (values of {html.escape(said[fields[0]])}, other fields at their base)" if fields else ""
        parts.append(f"<p>The game's own charts with one curve per grid point{along_}: how the swept values move "
                     "them.</p>")
        parts.extend(pages.figure(p, overlay_caption(p.name, game_notes(canon["game"]))) for p in over)
    return atomic.write_text(out / "report.html", pages.document(title, parts))
