"""Dadox charts: win rate by seat, game length distribution, the optimal bank thresholds."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from sim import stats  # noqa: E402


def _save(fig, out_dir: Path, name: str) -> Path:
    fig.tight_layout()
    path = Path(out_dir) / name
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def win_rate_by_seat(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    """Share of games each seat wins (95% intervals), per policy or match."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.8 / max(1, len(tables))
    k = 1
    for i, (label, t) in enumerate(tables.items()):
        k = int(t["seat"].max()) + 1
        rates = [stats.rate(t.loc[t["seat"] == s, "win"] == 1) for s in range(k)]
        v = np.array([r["value"] for r in rates])
        err = np.array([[r["value"] - r["ci95"][0], r["ci95"][1] - r["value"]] for r in rates]).T
        ax.bar(np.arange(k) + i * width, v, width, yerr=err, capsize=3, label=label)
    ax.axhline(1 / k, color="grey", linestyle=":", linewidth=1, label="fair share")
    ax.set_xticks(np.arange(k) + width * (len(tables) - 1) / 2, [f"seat {s + 1}" for s in range(k)])
    ax.set_ylabel("win rate")
    ax.set_title("Dadox: win rate by seat (seat 1 throws first)")
    ax.legend(fontsize=8)
    return _save(fig, out_dir, "win_rate_by_seat.png")


def game_length(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    """Distribution of the game length in turns (all seats counted)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    games = {label: t.loc[t["seat"] == 0, "game_turns"] for label, t in tables.items()}
    hi = max(int(np.quantile(g, 0.995)) for g in games.values())
    bins = np.arange(0, hi + 2, max(1, (hi + 1) // 60))
    for label, g in games.items():
        ax.hist(g.clip(upper=hi), bins=bins, histtype="step", density=True, linewidth=1.6,
                label=f"{label} (mean {g.mean():.1f})")
    ax.set_xlabel("turns in the game (all seats)")
    ax.set_ylabel("share of games")
    ax.set_title("Dadox: game length")
    ax.legend(fontsize=8)
    return _save(fig, out_dir, "game_length.png")


def bank_thresholds(thresholds: dict[str, int | None], cfg, out_dir: Path) -> Path:
    """optimal-turn's bank thresholds by dice to throw next, beside the threshold policy's."""
    fig, ax = plt.subplots(figsize=(7, 4.2))
    n = np.arange(1, 7)
    opt = [thresholds[str(i)] if thresholds[str(i)] is not None else np.nan for i in n]
    ax.plot(n, opt, "o-", label="optimal-turn: banks from")
    ax.plot(n, cfg.policies.threshold, "s--", label="threshold policy")
    ax.set_xlabel("dice to throw next")
    ax.set_ylabel("turn total (points)")
    ax.set_yscale("log")
    ax.set_title("Dadox: when to bank")
    ax.legend()
    return _save(fig, out_dir, "bank_thresholds.png")
