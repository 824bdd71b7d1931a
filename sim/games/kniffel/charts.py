"""Kniffel charts: score distribution per policy and the box-by-turn usage heatmap."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim.core import atomic
from sim.games.kniffel import rules as R
from sim.games.kniffel.labels import display_label
from sim.report import charts, words
from sim.report.mpl import plt


def by_policy(tables: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """Each label's table, a mixed table's (``optimal,greedy``: seats keep their policies) split into its policies'
    sheets: one curve of both sheets pooled said nothing, and its legend read 'optimal,greedy'."""
    out = {}
    for label, t in tables.items():
        pols = list(dict.fromkeys(t["policy"])) if "policy" in t.columns else [label]
        if len(pols) < 2:
            out[label] = t
            continue
        for p in pols:
            out[str(p) if len(tables) == 1 else f"{p} ({label})"] = t[t["policy"] == p]
    return out


def score_distribution(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    tables = by_policy(tables)
    hi = max(int(t["score"].max()) for t in tables.values())
    return charts.distribution(
        {label: t["score"] for label, t in tables.items()}, Path(out_dir) / "score_distribution.png",
        "final score (points)",
        "Kniffel: score distribution", bins=np.arange(0, hi + 10, 5), ylabel="share of games per point",
        legend={label: f"{display_label(label)}, mean {t['score'].mean():.1f} points" for label, t in tables.items()})


def category_heatmap(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    tables = by_policy(tables)
    grids = {}
    for label, t in tables.items():
        grid = np.zeros((R.N_CAT, R.N_CAT))
        for c, name in enumerate(R.CATEGORIES):
            counts = np.bincount(t[f"t_{name}"].to_numpy(), minlength=R.N_CAT + 1)[1 : R.N_CAT + 1]
            grid[c] = counts / max(1, len(t))
        grids[display_label(label)] = grid
    return charts.heatmap(grids, Path(out_dir) / "category_heatmap.png", R.CATEGORY_LABELS,
                          [str(i + 1) for i in range(R.N_CAT)], "Kniffel: which box is filled in which turn",
                          "share of games filling the box in that turn (square-root scale)", xlabel="turn",
                          percent=True, gamma=0.5)


def two_player_chart(result: dict, path: Path) -> Path:
    """Stacked bars per pairing: seat 1 wins, ties, seat 2 wins, with the seat advantage and its interval."""
    rows = result["pairings"]
    fig, ax = plt.subplots(figsize=(9, 1.0 + 0.75 * len(rows)))
    for i, r in enumerate(rows):
        w0, tie, w1 = r["win_rate_seat_1"]["value"], r["tie_rate"]["value"], r["win_rate_seat_2"]["value"]
        ax.barh(i, w0, color="#4c72b0")
        ax.barh(i, tie, left=w0, color="#bbbbbb")
        ax.barh(i, w1, left=w0 + tie, color="#dd8452")
        adv = r["seat_advantage"]
        ax.text(1.01, i, f"seat 1 − seat 2: {words.value_text('win', adv['value'], adv['ci95'], diff=True)}"
                f"\nties {tie * 100:.2f} %", va="center", fontsize=8)
        ax.text(w0 / 2, i, f"{w0 * 100:.1f} %", ha="center", va="center", color="white", fontsize=8)
        ax.text(w0 + tie + w1 / 2, i, f"{w1 * 100:.1f} %", ha="center", va="center", color="white", fontsize=8)
    ax.set_yticks(range(len(rows)),
                  [f"{display_label(r['seats'][0])}\nvs {display_label(r['seats'][1])}" for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    charts.in_units(ax.xaxis, "%")
    ax.set_xlabel("share of games: seat 1 wins (blue) · tie (grey) · seat 2 wins (orange)")
    ax.set_title(f"Kniffel, two players (the seed's Dice Party), {result['n']:,} games per pairing")
    fig.tight_layout()
    atomic.save_figure(fig, path, dpi=charts.DPI, bbox_inches="tight")
    plt.close(fig)
    return Path(path)
