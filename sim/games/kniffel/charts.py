"""Kniffel charts: score distribution per policy and the box-by-turn usage heatmap."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from sim.games.kniffel import rules as R  # noqa: E402


def score_distribution(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    fig, ax = plt.subplots(figsize=(8, 4.5))
    hi = max(int(t["score"].max()) for t in tables.values())
    bins = np.arange(0, hi + 10, 5)
    for label, t in tables.items():
        ax.hist(
            t["score"],
            bins=bins,
            histtype="step",
            density=True,
            linewidth=1.6,
            label=f"{label} (mean {t['score'].mean():.1f})",
        )
    ax.set_xlabel("final score")
    ax.set_ylabel("share of games per point")
    ax.set_title("Kniffel: score distribution per policy")
    ax.legend()
    fig.tight_layout()
    path = Path(out_dir) / "score_distribution.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def category_heatmap(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    n = len(tables)
    fig, axes = plt.subplots(1, n, figsize=(4.2 * n + 1, 5), squeeze=False)
    grids = {}
    for label, t in tables.items():
        grid = np.zeros((R.N_CAT, R.N_CAT))
        for c, name in enumerate(R.CATEGORIES):
            counts = np.bincount(t[f"t_{name}"].to_numpy(), minlength=R.N_CAT + 1)[1 : R.N_CAT + 1]
            grid[c] = counts / max(1, len(t))
        grids[label] = grid
    vmax = max(0.01, max(g.max() for g in grids.values()))
    for ax, (label, grid) in zip(axes[0], grids.items(), strict=True):
        im = ax.imshow(grid, cmap="viridis", vmin=0, vmax=vmax, aspect="auto")
        ax.set_yticks(range(R.N_CAT), R.CATEGORY_LABELS if ax is axes[0][0] else [""] * R.N_CAT)
        ax.set_xticks(range(R.N_CAT), [str(i + 1) for i in range(R.N_CAT)])
        ax.set_xlabel("turn")
        ax.set_title(label)
    fig.colorbar(im, ax=axes[0].tolist(), label="share of games filling the box in that turn")
    fig.suptitle("Kniffel: which box is filled in which turn")
    path = Path(out_dir) / "category_heatmap.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
