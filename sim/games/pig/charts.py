"""Pig charts: win rate by seat, game length, and where the solved policies hold."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from sim.core import stats  # noqa: E402
from sim.report import charts  # noqa: E402


def win_rate_by_seat(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    """Share of games each seat wins (95 % intervals), per policy or match."""
    groups = {label: [stats.rate(t.loc[t["seat"] == s, "win"] == 1) for s in range(2)] for label, t in tables.items()}
    return charts.bars(groups, ["seat 1 (rolls first)", "seat 2"], Path(out_dir) / "win_rate_by_seat.png",
                       "win rate", "Pig: win rate by seat", reference=(0.5, "fair share"))


def game_length(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    """Distribution of the game length in turns (both seats counted)."""
    games = {label: t.loc[t["seat"] == 0, "game_turns"] for label, t in tables.items()}
    hi = max(int(np.quantile(g, 0.995)) for g in games.values())
    bins = np.arange(0, hi + 2, max(1, (hi + 1) // 60))
    return charts.distribution({label: g.clip(upper=hi) for label, g in games.items()},
                               Path(out_dir) / "game_length.png", "turns in the game (both seats)", "Pig: game length",
                               bins=bins, ylabel="share of games",
                               legend={label: f"{label} (mean {g.mean():.1f})" for label, g in games.items()})


def hold_totals(turn_hold: np.ndarray, win_hold: np.ndarray, hold_at: int, out_dir: Path,
                others: tuple[int, ...] = (0, 50, 90)) -> Path:
    """The smallest turn total each policy holds at, by own score: optimal-win for a few opponent scores."""
    g = turn_hold.shape[0]
    own = np.arange(g)

    def first(row: np.ndarray, i: int) -> float:
        ks = np.nonzero(row[1:g - i])[0]
        return float(ks[0] + 1) if len(ks) else float(g - i)  # no hold before the goal: it rolls to the goal

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for j in others:
        if j < g:
            ax.plot(own, [first(win_hold[i, j], i) for i in own], label=f"optimal-win, other at {j}")
    ax.plot(own, [first(turn_hold[i], i) for i in own], "k--", linewidth=1, label="optimal-turn")
    ax.plot(own, np.minimum(hold_at, g - own), ":", color="grey", label=f"hold-20 (holds at {hold_at})")
    ax.set_xlabel("own score before the turn")
    ax.set_ylabel("holds from this turn total")
    ax.set_title("Pig: when to hold")
    ax.legend(fontsize=8)
    return charts.save(fig, Path(out_dir) / "hold_totals.png")
