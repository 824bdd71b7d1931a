"""Dadox charts: win rate by seat, game length distribution, the optimal bank thresholds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim.core import stats
from sim.report import charts, words
from sim.report.mpl import plt


def win_rate_by_seat(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    """Share of games each seat wins (95% intervals), per policy or match."""
    k = max(int(t["seat"].max()) + 1 for t in tables.values())
    groups = {label: [stats.rate(t.loc[t["seat"] == s, "win"] == 1) for s in range(k)] for label, t in tables.items()}
    return charts.bars(charts.named("dadox", groups), [f"seat {s + 1}" for s in range(k)],
                       Path(out_dir) / "win_rate_by_seat.png", "win rate",
                       "Dadox: win rate by seat (seat 1 throws first)", reference=(1 / k, "fair share"), unit="%")


def game_length(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    """Distribution of the game length in turns (all seats counted)."""
    games = {label: t.loc[t["seat"] == 0, "game_turns"] for label, t in tables.items()}
    hi = max(int(np.quantile(g, 0.995)) for g in games.values())
    step = max(1, (hi + 1) // 60)
    bins = np.arange(0, hi + step + 1, step)  # the last bin holds hi, where the longest games are clipped
    return charts.distribution(charts.named("dadox", {label: g.clip(upper=hi) for label, g in games.items()}),
                               Path(out_dir) / "game_length.png",
                               f"turns in the game (all seats; the last bar: {hi} or more)", "Dadox: game length",
                               bins=bins, ylabel="share of games",
                               legend=charts.named("dadox", {label: f"{words.policy_name('dadox', label)} (mean "
                                                                    f"{g.mean():.1f})" for label, g in games.items()}))


def bank_thresholds(thresholds: dict[str, int | None], cfg, out_dir: Path) -> Path:
    """optimal-turn's bank thresholds by dice to throw next, beside the threshold policy's."""
    fig, ax = plt.subplots(figsize=(7, 4.2))
    n = np.arange(1, 7)
    opt = [thresholds[str(i)] if thresholds[str(i)] is not None else np.nan for i in n]
    ax.plot(n, opt, "o-", label="Optimal turn: banks from")
    ax.plot(n, cfg.policies.threshold, "s--", label="Threshold policy")
    ax.set_xlabel("dice to throw next")
    ax.set_ylabel("turn total (points)")
    ax.set_yscale("log")
    ax.set_title("Dadox: when to bank")
    ax.legend()
    return charts.save(fig, Path(out_dir) / "bank_thresholds.png")
