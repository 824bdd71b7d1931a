"""Würfel Dungeon's balance-report charts: survival, LP and coin bands, death rooms, win rate by difficulty,
and each upgrade's pick rate against its win-rate lift."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim import stats
from sim.games.dungeon.config import DIFFICULTIES
from sim.games.dungeon.replay_text import UP_LABELS
from sim.games.dungeon.upgrade_stats import upgrade_stats


def _n_rooms(table: pd.DataFrame) -> int:
    return sum(1 for c in table.columns if c.startswith("lp_room_"))


def make_charts(tables: dict[str, pd.DataFrame], out_dir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    # survival curve with intervals
    fig, ax = plt.subplots(figsize=(7, 4))
    for label, t in tables.items():
        nr = _n_rooms(t)
        death = t["death_room"].to_numpy()
        surv = [stats.rate((death == 0) | (death >= r)) for r in range(1, nr + 1)] + [stats.rate(t["win"].to_numpy())]
        x = np.arange(1, nr + 2)
        v = [s["value"] for s in surv]
        ax.plot(x, v, marker="o", label=label)
        ax.fill_between(x, [s["ci95"][0] for s in surv], [s["ci95"][1] for s in surv], alpha=0.2)
    ax.set_xlabel("room entered (last point: run won)")
    ax.set_ylabel("share of runs alive")
    ax.set_ylim(0, 1.02)
    ax.set_title("Survival curve")
    ax.legend()
    p = out_dir / "dungeon_survival.png"
    fig.tight_layout()
    fig.savefig(p, dpi=110)
    plt.close(fig)
    paths.append(p)
    # LP and coin bands
    for col, title in (("lp_room", "LP after each room won (p10/p50/p90)"),
                       ("coins_room", "Coins after each room won (p10/p50/p90)")):
        fig, ax = plt.subplots(figsize=(7, 4))
        for label, t in tables.items():
            nr = _n_rooms(t)
            vals = t[[f"{col}_{r}" for r in range(1, nr + 1)]].to_numpy(dtype=float)
            b = stats.bands(vals)
            x = np.arange(1, nr + 1)
            ax.plot(x, b[1], marker="o", label=label)
            ax.fill_between(x, b[0], b[2], alpha=0.2)
        ax.set_xlabel("room")
        ax.set_title(title)
        ax.legend()
        p = out_dir / f"dungeon_{col}_bands.png"
        fig.tight_layout()
        fig.savefig(p, dpi=110)
        plt.close(fig)
        paths.append(p)
    # win rate by difficulty per policy
    fig, ax = plt.subplots(figsize=(7, 4))
    labels = list(tables)
    width = 0.8 / max(1, len(DIFFICULTIES))
    for j, diff in enumerate(DIFFICULTIES):
        xs, vs, lo, hi = [], [], [], []
        for i, label in enumerate(labels):
            t = tables[label]
            sub = t[t["difficulty"] == diff] if "difficulty" in t.columns else t.iloc[0:0]
            if len(sub) == 0:
                continue
            r = stats.rate(sub["win"].to_numpy())
            xs.append(i + (j - 1) * width)
            vs.append(r["value"])
            lo.append(r["value"] - r["ci95"][0])
            hi.append(r["ci95"][1] - r["value"])
        if xs:
            ax.bar(xs, vs, width=width, yerr=[lo, hi], label=diff, capsize=3)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels)
    ax.set_ylabel("win rate")
    ax.set_title("Win rate by difficulty and policy")
    ax.legend()
    p = out_dir / "dungeon_win_rate_by_difficulty.png"
    fig.tight_layout()
    fig.savefig(p, dpi=110)
    plt.close(fig)
    paths.append(p)
    # where runs die
    fig, ax = plt.subplots(figsize=(7, 4))
    for label, t in tables.items():
        nr = _n_rooms(t)
        counts = np.bincount(t["death_room"].to_numpy().astype(int), minlength=nr + 1)[1:]
        ax.plot(np.arange(1, nr + 1), counts / max(1, len(t)), marker="o", label=label)
    ax.set_xlabel("room")
    ax.set_ylabel("share of runs dying here")
    ax.set_title("Death room distribution")
    ax.legend()
    p = out_dir / "dungeon_death_rooms.png"
    fig.tight_layout()
    fig.savefig(p, dpi=110)
    plt.close(fig)
    paths.append(p)
    return paths


# --- progression: per-upgrade analysis ---------------------------------------------------------



def upgrade_chart(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path | None:
    """Scatter of pick rate vs win-rate lift per upgrade (one colour per policy), lift intervals as bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if not any("rewards" in t.columns for t in tables.values()):
        return None
    fig, ax = plt.subplots(figsize=(8, 5))
    for label, t in tables.items():
        if "rewards" not in t.columns:
            continue
        st = upgrade_stats(t)
        xs = [v["pick_rate"]["value"] for v in st.values()]
        ys = [v["win_lift"]["value"] for v in st.values()]
        err = [[v["win_lift"]["value"] - v["win_lift"]["ci95"][0] for v in st.values()],
               [v["win_lift"]["ci95"][1] - v["win_lift"]["value"] for v in st.values()]]
        ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=2, label=label, alpha=0.8)
        for u, x, y in zip(st, xs, ys, strict=True):
            if np.isfinite(x) and np.isfinite(y):
                ax.annotate(UP_LABELS.get(u, u), (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("pick rate (reward picks per offer)")
    ax.set_ylabel("win-rate lift (taken at first offer − left)")
    ax.set_title("Upgrades: pick rate vs win-rate lift")
    ax.legend()
    p = Path(out_dir) / "dungeon_upgrades_pick_vs_lift.png"
    fig.tight_layout()
    fig.savefig(p, dpi=110)
    plt.close(fig)
    return p
