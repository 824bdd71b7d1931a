"""Würfel Dungeon's balance-report charts: survival, LP and coin bands, death rooms, win rate by difficulty,
and each upgrade's win-rate lift with its pick rate.

Survival, the bands and the upgrade bars are the engine's common charts (``sim.report.charts``), so their intervals are
the ones in the metric table; the two left here (win rate by difficulty, death rooms) have no common form.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from sim.core import stats
from sim.games.dungeon.config import DIFFICULTIES
from sim.games.dungeon.labels import UPGRADE_WORDS as UP_LABELS
from sim.games.dungeon.upgrade_stats import upgrade_names_of, upgrade_stats
from sim.report import charts, words

if TYPE_CHECKING:
    import pandas as pd  # only in annotations: describe, combos and replay load no table library


def _n_rooms(table: pd.DataFrame) -> int:
    return sum(1 for c in table.columns if c.startswith("lp_room_"))


def last_point(table: pd.DataFrame, n_rooms: int) -> np.ndarray:
    """Per run, the last survival point it reached: room ``r`` entered is point ``r - 1``, a won run reaches
    point ``n_rooms`` (so ``stats.survival`` gives the share alive entering each room, then the win rate)."""
    death = table["death_room"].to_numpy()
    return np.where(table["win"].to_numpy(), n_rooms, np.where(death > 0, death - 1, n_rooms - 1))


def survival_chart(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    nr = max(_n_rooms(t) for t in tables.values())
    return charts.survival(charts.named("dungeon", {label: last_point(t, nr) for label, t in tables.items()}), nr + 1,
                           Path(out_dir) / "dungeon_survival.png", "room entered (last point: run won)",
                           "Survival curve", ylabel="share of runs alive",
                           labels=[str(r) for r in range(1, nr + 1)] + ["won"])


def band_charts(tables: dict[str, pd.DataFrame], out_dir: Path) -> list[Path]:
    """LP and coins after each room won: median and p10-p90 band of the runs that won the room."""
    nr = max(_n_rooms(t) for t in tables.values())
    rooms = [str(r) for r in range(1, nr + 1)]
    return [charts.quantile_bands(charts.named("dungeon", {label: t[[f"{col}_{r}" for r in rooms]].to_numpy(dtype=float)
                                                          for label, t in tables.items()}),
                                  Path(out_dir) / f"dungeon_{col}_bands.png", "room", unit,
                                  f"{unit} after each room won", labels=rooms)
            for col, unit in (("lp_room", "LP"), ("coins_room", "Coins"))]


def difficulty_bars(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    """Win rate per policy and difficulty played: only the difficulties the tables hold, centred on each policy
    (a batch plays one difficulty; the balance report's difficulty chart plays all three on the same seeds)."""
    import matplotlib.pyplot as plt

    labels = list(tables)
    played = [d for d in DIFFICULTIES if any((t["difficulty"] == d).any() for t in tables.values())]
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / max(1, len(played))
    for j, diff in enumerate(played):
        xs, ms = [], []
        for i, label in enumerate(labels):
            t = tables[label]
            sub = t[t["difficulty"] == diff]
            if len(sub):
                xs.append(i + (j - (len(played) - 1) / 2) * width)
                ms.append(stats.rate(sub["win"].to_numpy()))
        if xs:
            ax.bar(xs, [m["value"] for m in ms], width=width, yerr=stats.error_bars(ms),
                   label=words.word("dungeon", diff), capsize=3)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels([words.policy_name("dungeon", lab) for lab in labels])
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    charts.in_units(ax.yaxis, "%")
    if len(played) == 1:
        ax.set_title(f"Win rate at {words.word('dungeon', played[0])} (the difficulty played)")
    else:
        ax.set_title("Win rate by difficulty")
        ax.legend()
    return charts.save(fig, Path(out_dir) / "dungeon_win_rate_by_difficulty.png")


def death_chart(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for label, t in tables.items():
        nr = _n_rooms(t)
        counts = np.bincount(t["death_room"].to_numpy().astype(int), minlength=nr + 1)[1:]
        ax.plot(np.arange(1, nr + 1), counts / max(1, len(t)), marker="o", label=words.policy_name("dungeon", label))
    ax.set_xlabel("room")
    ax.set_ylabel("share of runs dying here")
    charts.in_units(ax.yaxis, "%")
    ax.set_title("Death room distribution")
    ax.legend()
    return charts.save(fig, Path(out_dir) / "dungeon_death_rooms.png")


def make_charts(tables: dict[str, pd.DataFrame], out_dir: Path) -> list[Path]:
    """Survival, LP and coin bands, win rate by difficulty and death rooms, in that order."""
    out_dir = Path(out_dir)
    return [survival_chart(tables, out_dir), *band_charts(tables, out_dir), difficulty_bars(tables, out_dir),
            death_chart(tables, out_dir)]


def upgrade_chart(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path | None:
    """Per upgrade, the win-rate lift of taking it at its first offer over leaving it (observational, 95 %), one
    bar per policy; under each upgrade its pick rate (reward picks per offer) per policy."""
    stats_of = {label: upgrade_stats(t) for label, t in tables.items() if upgrade_names_of(t)}
    if not stats_of:
        return None
    ups = list(next(iter(stats_of.values())))
    labels = []
    for u in ups:
        picks = [f"{st[u]['pick_rate']['value']:.0%}" if np.isfinite(st[u]["pick_rate"]["value"]) else "–"
                 for st in stats_of.values()]
        rows = ([f"picked {picks[0]}"] if len(picks) == 1  # else two policies a line, in legend order
                else [" · ".join(picks[i:i + 2]) for i in range(0, len(picks), 2)])
        missing = [not np.isfinite(st[u]["win_lift"]["value"]) for st in stats_of.values()]
        why = (["(no lift)"] if all(missing)  # a bar left out: that policy always (or never) took it, no comparison
               else ["(– : always or", "never taken)"] if any(missing) else [])
        labels.append("\n".join([UP_LABELS.get(u, u), *rows, *why]))
    lifts = {label: [st[u]["win_lift"] for u in ups] for label, st in stats_of.items()}
    return charts.bars(charts.named("dungeon", lifts), labels,
                       Path(out_dir) / "dungeon_upgrades_pick_vs_lift.png",
                       "win-rate lift (taken at first offer − left)",
                       "Upgrades: win-rate lift when taken at the first offer (95 %); under each, its pick rate per "
                       "offer" + (" (policies in legend order)" if len(stats_of) > 1 else ""),
                       figsize=(max(8.0, 1.3 * len(ups)), 5.0), unit="pp")


def difficulty_sentence(table: pd.DataFrame, policy: str = "vorschlag") -> str:
    """How the difficulty steps scale, one sentence: ``Difficulty steps (Vorschlag): wins 52.6 % [49.5, 55.7] at
    Leicht, 28.8 % […] at Normal (−23.8 pp), …`` from the balance report's difficulty table."""
    part = table[table["policy"] == policy]
    if part.empty:
        return ""
    bits, before = [], None
    for r in part.itertuples():
        step = f" ({words.value_text('win_rate', r.win_rate - before, diff=True)})" if before is not None else ""
        bits.append(f"{words.value_text('win_rate', r.win_rate, (r.ci95_low, r.ci95_high))} at "
                    f"{words.word('dungeon', r.difficulty)}{step}")
        before = r.win_rate
    runs = f", {int(part['n'].iloc[0]):,} runs each" if "n" in part.columns else ""  # its own, smaller probe
    return f"Difficulty steps ({words.policy_name('dungeon', policy)}{runs}): wins " + ", ".join(bits) + "."


def upgrade_sentence(lift: pd.DataFrame) -> str:
    """What an upgrade is worth, one sentence: the most and the least valuable by the paired lift of starting a run
    with it (same seeds), in pp with their intervals."""
    if lift.empty:
        return ""
    t = lift.sort_values("win_lift", ascending=False)

    def one(r: pd.Series) -> str:
        return (f"{words.word('dungeon', r['upgrade'])} "
                f"{words.value_text('win', r['win_lift'], (r['ci95_low'], r['ci95_high']), diff=True)}")

    policy = words.policy_name("dungeon", t["policy"].iloc[0]) if "policy" in t else ""
    return (f"Upgrades ({policy}, a run started with each, same seeds): worth most {one(t.iloc[0])}, "
            f"least {one(t.iloc[-1])}.")
