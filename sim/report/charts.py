"""The common charts every game draws, written once: a distribution per label, survival with Wilson bands,
quantile bands by step, bars with 95 % intervals and a heatmap. Games pass data and words; every interval comes
from ``sim.core.stats``, so a chart and the metric table beside it always show the same numbers.

Each function writes one PNG and returns its path (matplotlib's Agg backend: no display needed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sim.core import atomic, stats
from sim.report import words
from sim.report.mpl import colors, plt, ticker
from sim.report.words import DRAWS_SAID

DPI = 110


def in_units(axis: Any, unit: str) -> None:
    """Tick labels of a share in the pages' units: ``40 %`` (``unit`` ``%``), a difference of shares ``+10 pp``
    (``pp``); any other unit leaves the axis as it is. ``axis``: an axis (``ax.yaxis``) or a colour bar's."""
    if unit == "%":
        axis.set_major_formatter(ticker.FuncFormatter(_pct))
    elif unit == "pp":
        axis.set_major_formatter(ticker.FuncFormatter(_pp))


def _pct(v: float, _pos: Any = None) -> str:
    """A tick of a share: ``40%``, ``50.5%`` (a decimal only where the tick has one: a colour bar from 48.7 to 52.3 %
    read 49%, 49%, 50%, 50% at whole percent)."""
    x = v * 100
    return f"{x:.0f}%" if abs(x - round(x)) < 1e-6 else f"{x:.1f}%"


def _pp(v: float, _pos: Any = None) -> str:
    """A tick of a difference of shares: ``+10 pp``, ``−1.5 pp`` (whole points where the tick is whole: ticks every
    half point read −2, −2, −1, −1 at whole points), ``0``."""
    x = v * 100
    if abs(x) < 1e-9:
        return "0"
    return words.signed(f"{x:+.0f} pp" if abs(x - round(x)) < 1e-6 else f"{x:+.1f} pp")


def named(game: str, by_label: Mapping[str, Any]) -> dict[str, Any]:
    """The same series keyed by the policies' display names (``optimal-turn`` -> ``Optimal turn``, ``vorschlag@
    heilkraeuter`` -> ``Vorschlag with Heilkräuter``) for a legend: a chart never shows a code name."""
    return {words.policy_name(game, label): v for label, v in by_label.items()}


def save(fig: Any, path: str | Path, tight: bool = True) -> Path:
    """Write (atomically: ``sim.core.atomic``) and close a figure; creates the folder."""
    path = Path(path)
    atomic.make_folder(path.parent, "the chart folder")
    try:
        if tight:
            fig.tight_layout()
            atomic.save_figure(fig, path, dpi=DPI)
        else:  # a layout tight_layout cannot arrange (a colorbar shared by panels): crop to what was drawn
            atomic.save_figure(fig, path, dpi=DPI, bbox_inches="tight", pad_inches=0.15)
    finally:
        plt.close(fig)
    return path


def distribution(samples: Mapping[str, Any], path: str | Path, xlabel: str, title: str, bins: Any = None,
                 ylabel: str = "share of runs", legend: Mapping[str, str] | None = None,
                 figsize: tuple[float, float] = (8, 4.5)) -> Path:
    """One step histogram per label (density, in % per unit of x), e.g. final scores or game lengths per policy.
    ``bins``: edges, or ``None`` for one bin per integer value: whole values, so the x ticks are whole numbers too
    (matplotlib's own put a game of whole turns at 7.5 and 12.5)."""
    fig, ax = plt.subplots(figsize=figsize)
    if bins is None:
        hi = max(int(np.max(s)) for s in samples.values())
        lo = min(int(np.min(s)) for s in samples.values())
        bins = np.arange(lo - 0.5, hi + 1.5)
    if all(np.all(np.mod(np.asarray(s, dtype=float), 1) == 0) for s in samples.values()):  # whole turns, points
        ax.xaxis.set_major_locator(ticker.MaxNLocator(integer=True))
    for label, s in samples.items():
        ax.hist(np.asarray(s), bins=bins, histtype="step", density=True, linewidth=1.6,
                label=(legend or {}).get(label, label))
    ax.yaxis.set_major_formatter(ticker.PercentFormatter(xmax=1, decimals=1))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    return save(fig, path)


def survival(last_index: Mapping[str, Any], n_points: int, path: str | Path, xlabel: str, title: str,
             ylabel: str = "share of runs still going", labels: Sequence[str] | None = None) -> Path:
    """Share of runs alive entering each point 0..n_points-1 (``stats.survival``) with Wilson 95 % bands."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    x = np.arange(n_points)
    for label, last in last_index.items():
        s = stats.survival(np.asarray(last), n_points)
        v = np.array([r["value"] for r in s])
        ax.plot(x, v, marker="o", markersize=3, label=label)
        ax.fill_between(x, [r["ci95"][0] for r in s], [r["ci95"][1] for r in s], alpha=0.2)
    if labels is not None:
        ax.set_xticks(x, labels)
    ax.set_ylim(0, 1.02)
    in_units(ax.yaxis, "%")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    return save(fig, path)


def quantile_bands(values: Mapping[str, Any], path: str | Path, xlabel: str, ylabel: str, title: str,
                   qs: tuple[float, float, float] = (0.1, 0.5, 0.9), labels: Sequence[str] | None = None) -> Path:
    """Median line and the band between the outer quantiles (``stats.bands``) of a ``[runs, steps]`` array per
    label, NaN where a run did not reach the step (e.g. life points per room of the runs still alive)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, v in values.items():
        lo, mid, hi = stats.bands(np.asarray(v, dtype=np.float64), qs)
        x = np.arange(len(mid))
        (line,) = ax.plot(x, mid, label=f"{label} (median)")
        ax.fill_between(x, lo, hi, alpha=0.2, color=line.get_color())
    if labels is not None:
        ax.set_xticks(np.arange(len(labels)), labels)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{title} (band: {round(qs[0] * 100)}-{round(qs[-1] * 100)} % of runs)")
    ax.legend(fontsize=8)
    return save(fig, path)


def seat_bars(groups: Mapping[str, Sequence[dict[str, Any]]], categories: Sequence[str], path: str | Path,
              title: str) -> Path:
    """Each seat's win rate per label against its fair share: ``1 / seats`` where every game has a winner; where
    games end drawn (a turn limit), the seats share only the games won, so a label's fair share is the sum of its
    seats' win rates over the seats, drawn across its own bars ("fair share" at 50 % read as a loss for both)."""
    fair = [sum(float(m["value"]) for m in ms) / len(categories) for ms in groups.values()]
    even = 1 / len(categories)
    if all(abs(f - even) < DRAWS_SAID * even for f in fair):
        return bars(groups, categories, path, "win rate", title, reference=(even, "fair share"), unit="%")
    return bars(groups, categories, path, "win rate", title, unit="%",
                reference=(fair, "fair share of the games won (draws are no seat's)"))


def bars(groups: Mapping[str, Sequence[dict[str, Any]]], categories: Sequence[str], path: str | Path, ylabel: str,
         title: str, reference: tuple[float | Sequence[float], str] | None = None,
         figsize: tuple[float, float] = (8, 4.5), unit: str = "") -> Path:
    """Grouped bars: per label (``groups``) one metric per category, each ``{"value", "ci95"}`` from
    ``sim.core.stats``, drawn with its 95 % interval; ``reference`` a horizontal line (value, legend text), or with
    a value per label a line across each label's own bars;
    ``unit`` ``%`` or ``pp``: the axis of a share or of a difference of shares so (:func:`in_units`)."""
    fig, ax = plt.subplots(figsize=figsize)
    k = len(categories)
    width = 0.8 / max(1, len(groups))
    for i, (label, ms) in enumerate(groups.items()):
        v = [float(m["value"]) for m in ms]
        ax.bar(np.arange(k) + i * width, v, width, yerr=stats.error_bars(ms), capsize=3,
               label=label if len(groups) > 1 or reference else None)
    if reference is not None and isinstance(reference[0], Sequence):  # one line per label, across its own bars
        for i, level in enumerate(reference[0]):
            ax.hlines([level] * k, np.arange(k) + (i - 0.45) * width, np.arange(k) + (i + 0.45) * width,
                      color="#222", linestyle="--", linewidth=1.4, zorder=3,
                      label=reference[1] if i == 0 else None)
    elif reference is not None:
        ax.axhline(reference[0], color="grey", linestyle=":", linewidth=1, label=reference[1])
    ax.axhline(0, color="#555", linewidth=0.6)
    ax.set_xticks(np.arange(k) + width * (len(groups) - 1) / 2, list(categories))
    in_units(ax.yaxis, unit)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if len(groups) > 1 or reference:
        lo, hi = ax.get_ylim()
        ax.set_ylim(lo, hi + 0.3 * (hi - lo))  # room above the bars: the legend must not cover one
        n = len(groups) + (reference is not None)
        ax.legend(fontsize=8, ncol=min(4, n), loc="upper center")
    return save(fig, path)


def heatmap(panels: Mapping[str, Any], path: str | Path, row_labels: Sequence[str], col_labels: Sequence[str],
            title: str, colorbar: str, xlabel: str = "", ylabel: str = "", vmin: float | None = 0.0,
            vmax: float | None = None, cmap: str = "viridis", annotate: bool = False,
            panel_size: tuple[float, float] = (4.2, 5), percent: bool = False, gamma: float | None = None) -> Path:
    """One heatmap per panel (label -> ``[rows, cols]`` array) on a shared colour scale; ``annotate`` writes each
    cell's value (``percent``: a share as ``69.1 %``, as the pages write rates); ``gamma``: a power scale (0.5: the
    square root), where one bright cell would leave every other panel one dark colour."""
    n = len(panels)
    fig, axes = plt.subplots(1, n, figsize=(panel_size[0] * n + 1, panel_size[1]), squeeze=False)
    grids = {k: np.asarray(v, dtype=float) for k, v in panels.items()}
    top = vmax if vmax is not None else max(0.01, max(float(np.nanmax(g)) for g in grids.values()))
    im = None
    for j, (ax, (label, g)) in enumerate(zip(axes[0], grids.items(), strict=True)):
        scale = {"norm": colors.PowerNorm(gamma, vmin=vmin or 0.0, vmax=top)} if gamma else {"vmin": vmin, "vmax": top}
        im = ax.imshow(g, cmap=cmap, aspect="auto", **scale)
        ax.set_yticks(range(len(row_labels)), list(row_labels) if j == 0 else [""] * len(row_labels))
        ax.set_xticks(range(len(col_labels)), list(col_labels))
        ax.tick_params(axis="x", labelsize=7 if len(col_labels) * 0.32 > panel_size[0] else 9)  # 10 11 12 13 apart
        ax.set_xlabel(xlabel)
        if j == 0 and ylabel:
            ax.set_ylabel(ylabel)
        if n > 1:
            ax.set_title(label, fontsize=9)
        if annotate:
            for r in range(g.shape[0]):
                for c in range(g.shape[1]):
                    if not np.isnan(g[r, c]):
                        said = f"{g[r, c] * 100:.1f} %" if percent else f"{g[r, c]:.3f}"
                        ax.text(c, r, said, ha="center", va="center", fontsize=9)
    bar = fig.colorbar(im, ax=axes[0].tolist(), label=colorbar)
    if percent:
        in_units(bar.ax.yaxis, "%")
    fig.suptitle(title)
    return save(fig, path, tight=False)
