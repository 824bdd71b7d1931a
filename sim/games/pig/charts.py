"""Pig charts: win rate by seat, game length, and where the solved policies hold."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from sim.core import stats  # noqa: E402
from sim.report import charts, words  # noqa: E402


def win_rate_by_seat(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    """Share of games each seat wins (95 % intervals), per policy or match."""
    groups = {label: [stats.rate(t.loc[t["seat"] == s, "win"] == 1) for s in range(2)] for label, t in tables.items()}
    return charts.seat_bars(charts.named("pig", groups), ["seat 1 (rolls first)", "seat 2"],
                            Path(out_dir) / "win_rate_by_seat.png", "Pig: win rate by seat")


def game_length(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    """Distribution of the game length in turns (both seats counted)."""
    games = {label: t.loc[t["seat"] == 0, "game_turns"] for label, t in tables.items()}
    hi = max(int(np.quantile(g, 0.995)) for g in games.values())
    step = max(1, (hi + 1) // 60)
    bins = np.arange(0, hi + step + 1, step)  # the last bin holds hi, where the longest games are clipped
    said = {label: words.policy_name("pig", label) for label in games}  # display names in the legend
    return charts.distribution({said[label]: g.clip(upper=hi) for label, g in games.items()},
                               Path(out_dir) / "game_length.png",
                               f"turns in the game (both seats; the last bar: {hi} or more)", "Pig: game length",
                               bins=bins, ylabel="share of games",
                               legend={said[lab]: f"{said[lab]} (mean {g.mean():.1f})" for lab, g in games.items()})


def hold_totals(turn_hold: np.ndarray, win_hold: np.ndarray, hold_at: int, out_dir: Path,
                others: tuple[int, ...] = (0, 30, 60)) -> Path:
    """Where each policy first holds: optimal-win over every pair of scores (left; "throws for the goal" where it
    holds at no total short of it), and by own score for a few scores of the other player beside optimal-turn and
    hold-20 (right)."""
    g = turn_hold.shape[0]
    own = np.arange(g)

    def first(row: np.ndarray, i: int) -> float:
        ks = np.nonzero(row[1:g - i])[0]
        return float(ks[0] + 1) if len(ks) else np.nan  # no hold short of the goal: it throws for the win

    grid = np.array([[first(win_hold[i, j], i) for j in range(g)] for i in range(g)])
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8), gridspec_kw={"width_ratios": [1, 1.25]})
    cmap = plt.get_cmap("viridis").with_extremes(bad="#d9d9d9")
    im = left.imshow(grid, origin="lower", cmap=cmap, vmin=0, vmax=40, aspect="auto")
    win, turn, hold = (words.policy_name("pig", p) for p in ("optimal-win", "optimal-turn", "hold-20"))
    fig.colorbar(im, ax=left, label=f"{win} holds from this turn total (points)")
    left.set_xlabel("other player's score")
    left.set_ylabel("own score before the turn")
    left.set_title(f"{win} (grey: throws for the goal)", fontsize=10)
    for j in others:
        if j < g:
            right.plot(own, [first(win_hold[i, j], i) for i in own], label=f"{win}, other at {j} points")
    right.plot(own, [first(turn_hold[i], i) for i in own], "k--", linewidth=1, label=turn)
    right.plot(own, np.where(own + hold_at < g, hold_at, np.nan), ":", color="grey", linewidth=2,
               label=f"{hold} (holds at {hold_at} points)")
    right.plot(own, g - own, color="#bbbbbb", linewidth=0.8, label="the rest to the goal")
    right.set_ylim(0, 45)
    right.set_xlabel("own score before the turn")
    right.set_ylabel("holds from this turn total (points)")
    right.set_title("by own score (a gap: throws for the goal)", fontsize=10)
    right.legend(fontsize=8)
    fig.suptitle("Pig: when to hold")
    return charts.save(fig, Path(out_dir) / "hold_totals.png")
