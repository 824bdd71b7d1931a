"""Difficulty scaling of Würfel Dungeon: win rate by difficulty per policy (paired seeds)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from sim.core import atomic, stats
from sim.core.batch import run_batch
from sim.games.base import Game
from sim.report import words
from sim.report.mpl import plt, ticker

DIFFICULTIES = ("leicht", "normal", "schwer")


def difficulty_table(game: Game, cfg, policies: list[str], n: int, seed: int) -> pd.DataFrame:
    """One row per (policy, difficulty): win rate with its interval, rooms cleared, score."""
    rows = []
    for policy in policies:
        for d in DIFFICULTIES:
            opts = game.check_options({"difficulty": d})
            t = run_batch(game, cfg, [policy], n, seed, opts, chunk=game.chunk, progress=False).table
            w = stats.rate(t["win"] > 0)
            rows.append({
                "policy": policy, "difficulty": d, "win_rate": w["value"], "ci95_low": w["ci95"][0],
                "ci95_high": w["ci95"][1], "mean_rooms_cleared": float(t["rooms_cleared"].mean()),
                "mean_score": float(t["score"].mean()), "n": n, "seed": seed,
            })
    return pd.DataFrame(rows)


def difficulty_chart(table: pd.DataFrame, path: Path) -> Path:
    """Win rate by difficulty per policy with 95 % intervals."""
    fig, ax = plt.subplots(figsize=(7, 4.2))
    x = range(len(DIFFICULTIES))
    for policy, part in table.groupby("policy", sort=False):
        part = part.set_index("difficulty").loc[list(DIFFICULTIES)]
        lo = (part["win_rate"] - part["ci95_low"]).clip(lower=0)
        hi = (part["ci95_high"] - part["win_rate"]).clip(lower=0)
        err = [lo, hi]
        ax.errorbar(x, part["win_rate"], yerr=err, marker="o", capsize=4, label=words.policy_name("dungeon", policy))
    ax.set_xticks(list(x), [d.capitalize() for d in DIFFICULTIES])
    ax.set_ylabel("win rate (95 % interval)")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(ticker.PercentFormatter(xmax=1, decimals=0))
    ax.set_title("Würfel Dungeon: win rate by difficulty")
    ax.legend()
    fig.tight_layout()
    atomic.save_figure(fig, path, dpi=110)
    plt.close(fig)
    return Path(path)
