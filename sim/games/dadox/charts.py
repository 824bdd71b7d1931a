"""Dadox charts: win rate by seat, game length distribution, the optimal bank thresholds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim.core import stats
from sim.report import charts, words
from sim.report.mpl import plt, ticker


def win_rate_by_seat(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    """Share of games each seat wins (95% intervals), per policy or match."""
    k = max(int(t["seat"].max()) + 1 for t in tables.values())
    groups = {label: [stats.rate(t.loc[t["seat"] == s, "win"] == 1) for s in range(k)] for label, t in tables.items()}
    return charts.seat_bars(charts.named("dadox", groups), [f"seat {s + 1}" for s in range(k)],
                            Path(out_dir) / "win_rate_by_seat.png", "Dadox: win rate by seat (seat 1 throws first)")


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
    ax.set_yscale("log")  # 150 to 5,200 points: a log axis with plain ticks (it read "2×10²"), each point's value said
    values = [float(v) for v in (*opt, *cfg.policies.threshold) if np.isfinite(v) and v > 0]
    if values:
        lo, hi = min(values), max(values)
        steps = [m * 10**e for e in range(0, 8) for m in (1, 2, 5)]
        ax.yaxis.set_major_locator(ticker.FixedLocator([v for v in steps if lo / 2.5 <= v <= hi * 2.5]))
        ax.set_ylim(lo / 1.5, hi * 1.5)
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.yaxis.set_minor_locator(ticker.NullLocator())
    for x, y in zip(n, opt, strict=True):
        if np.isfinite(y):
            ax.annotate(f"{y:,.0f}", (x, y), textcoords="offset points", xytext=(7, -12), ha="left", fontsize=8,
                        color="C0")
    ax.set_title("Dadox: when to bank")
    ax.legend()
    return charts.save(fig, Path(out_dir) / "bank_thresholds.png")
