"""What each upgrade is worth, measured causally: win rate started with it vs without, on the same seeds.

The per-upgrade metrics of a batch (win rate when picked vs not) are observational: a run that is offered
and takes an upgrade differs in more than the upgrade. Here every upgrade is forced into the start loadout
(``policy@upgrade``) and played on exactly the seeds of the plain policy, so the dice, rooms and offers
match and the paired difference in wins is the upgrade's own effect (its interval from the paired
differences). The Vorschlag rating of the same upgrade (``policies.dungeon.bots.offer_value`` at full LP,
as offered at the start) is set beside it: the rank correlation says whether the Vorschlag button's
offer rating orders upgrades the way they actually pay off.

Beside both, ``pick_rates`` says what players pick when offered each upgrade as a reward: the rated policy and
the ``rollout`` expert (which tries every offer on continuations and keeps what wins most), so a designer sees
where the Vorschlag rating and an expert disagree.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from policies.dungeon.bots import ITEM_UPGRADE, POLICIES, offer_value
from sim.core import stats
from sim.core.batch import run_batch
from sim.games.base import Game
from sim.games.dungeon import config as C
from sim.games.dungeon.freeze import freeze, upgrade_names
from sim.report import charts, words
from sim.report.mpl import plt


def start_ratings(cfg: C.DungeonConfig, policy: str, difficulty: str) -> dict[str, float]:
    """``policy``'s offer rating of each upgrade as offered at the start of a run (full LP, no gain tables:
    the static part of the rating)."""
    fz = freeze(cfg, difficulty)
    rp = fz.rp[0]
    lp = float(rp.start_lp)
    pid = POLICIES[policy]
    return {
        name: float(offer_value(pid, ITEM_UPGRADE, fz.up_eff, i, fz.jk, 0, rp.dice_bonus_rerolls, lp, lp, 0.0, 0.0,
                                0.0, rp.combat_crit_mul, rp))
        for i, name in enumerate(upgrade_names(cfg))
    }


def upgrade_lift(game: Game, cfg: C.DungeonConfig, policy: str, n: int, seed: int, difficulty: str) -> pd.DataFrame:
    """One row per upgrade: win rate without / with it at the start (same ``n`` seeds), the paired lift with
    its 95 % interval, the policy's start rating, and both ranks (1 = most valuable)."""
    opts = game.check_options({"difficulty": difficulty})
    base = run_batch(game, cfg, [policy], n, seed, opts, chunk=game.chunk, progress=False).table
    won = (base["win"].to_numpy() > 0).astype(np.float64)
    ratings = start_ratings(cfg, policy, difficulty)
    rows = []
    for name in upgrade_names(cfg):
        if cfg.upgrades[name].unique and name in cfg.loadout.upgrades or cfg.too_many_dice([name]):
            t = base  # owned already (a second copy is no copy), or a die more than a hand holds: no start with it
        else:
            t = run_batch(game, cfg, [f"{policy}@{name}"], n, seed, opts, chunk=game.chunk, progress=False).table
        lift = stats.paired_difference((t["win"].to_numpy() > 0).astype(np.float64), won)
        rows.append({
            "upgrade": name, "rarity": cfg.upgrades[name].rarity, "win_rate_without": float(won.mean()),
            "win_rate_with": float(won.mean() + lift["value"]), "win_lift": lift["value"],
            "ci95_low": lift["ci95"][0], "ci95_high": lift["ci95"][1],
            "rating": ratings[name], "n": n, "seed": seed, "policy": policy, "difficulty": difficulty,
        })
    table = pd.DataFrame(rows)
    table["rank_lift"] = table["win_lift"].rank(ascending=False, method="min").astype(int)
    table["rank_rating"] = table["rating"].rank(ascending=False, method="min").astype(int)
    return table.sort_values("win_lift", ascending=False, kind="mergesort").reset_index(drop=True)


def pick_rates(game: Game, cfg: C.DungeonConfig, policies: list[str], n: int, seed: int,
               difficulty: str) -> pd.DataFrame:
    """One row per upgrade: for each policy its reward pick rate (picks per offer) with the 95 % interval and the
    number of offers, from ``n`` runs on the same seeds (columns ``pick_rate_<policy>``, ``..._low/_high``,
    ``offers_<policy>``)."""
    from sim.games.dungeon.upgrade_stats import upgrade_names_of

    opts = game.check_options({"difficulty": difficulty})
    rows: dict[str, dict] = {}
    for policy in policies:
        t = run_batch(game, cfg, [policy], n, seed, opts, chunk=game.chunk, progress=False).table
        for name in upgrade_names_of(t):
            offers = int(t[f"offered_{name}"].sum())
            rate = stats.share(int(t[f"picked_{name}"].sum()), offers)
            rows.setdefault(name, {"upgrade": name}).update({
                f"pick_rate_{policy}": rate["value"], f"pick_rate_{policy}_low": rate["ci95"][0],
                f"pick_rate_{policy}_high": rate["ci95"][1], f"offers_{policy}": offers})
    return pd.DataFrame(list(rows.values()))


def pick_rate_chart(lift: pd.DataFrame, picks: pd.DataFrame, policies: list[str], path: Path) -> Path:
    """Per upgrade (ordered by its measured lift, most valuable on top): each policy's reward pick rate with its
    95 % interval: what the rating recommends beside what the expert picks."""
    t = lift[["upgrade", "win_lift"]].merge(picks, on="upgrade", how="left").iloc[::-1].reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(7.5, 0.42 * len(t) + 1.6))
    y = np.arange(len(t))
    h = 0.8 / max(1, len(policies))
    for i, policy in enumerate(policies):
        v = t[f"pick_rate_{policy}"].to_numpy(dtype=float)
        err = [v - t[f"pick_rate_{policy}_low"].to_numpy(dtype=float),
               t[f"pick_rate_{policy}_high"].to_numpy(dtype=float) - v]
        ax.barh(y + (i - (len(policies) - 1) / 2) * h, v, height=h, xerr=err, capsize=2,
                label=words.policy_name("dungeon", policy))
    ax.set_yticks(y, [f"{words.word('dungeon', u)}  ({words.value_text('win', w, diff=True)})"
                      for u, w in zip(t["upgrade"], t["win_lift"], strict=True)])
    ax.set_xlim(0, 1)
    charts.in_units(ax.xaxis, "%")
    ax.set_xlabel("picked when offered as a reward (95 %)")
    ax.set_title("Würfel Dungeon: what players pick\n(upgrades ordered by their measured win-rate lift, in brackets)")
    ax.legend(loc="lower right", fontsize=8)
    return charts.save(fig, path)


def rank_agreement(table: pd.DataFrame) -> float:
    """Spearman rank correlation between the rating and the measured lift (NaN with fewer than 3 upgrades)."""
    if len(table) < 3:
        return float("nan")
    return float(table["rating"].rank().corr(table["win_lift"].rank()))  # Spearman = Pearson of the ranks


def upgrade_lift_chart(table: pd.DataFrame, path: Path) -> Path:
    """Measured win-rate lift in pp (with 95 % intervals) against the policy's rating, one labelled point each
    (a label moved down off a neighbour's, with a leader line, so close upgrades stay readable)."""
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    lift, lo, hi = (100 * table[c].to_numpy(dtype=float) for c in ("win_lift", "ci95_low", "ci95_high"))
    ax.errorbar(table["rating"], lift, yerr=[lift - lo, hi - lift], fmt="o", capsize=3)
    xs = table["rating"].to_numpy(dtype=float)
    span_x = float(np.ptp(xs)) or 1.0
    span_y = float(np.ptp(lift)) or 1.0
    placed: list[tuple[float, float]] = []  # label anchors in axis fractions
    for k in np.argsort(-lift):
        fx, fy = (xs[k] - xs.min()) / span_x, (lift[k] - lift.min()) / span_y
        dy = 0.0
        while any(abs(fx - px) < 0.2 and abs(fy + dy - py) < 0.07 for px, py in placed):
            dy -= 0.035
        placed.append((fx, fy + dy))
        ax.annotate(words.word("dungeon", table["upgrade"].iloc[k]), (xs[k], lift[k]), textcoords="offset points",
                    xytext=(7, dy * 300), va="center", fontsize=7,
                    arrowprops={"arrowstyle": "-", "color": "#999", "lw": 0.5} if dy else None)
    ax.axhline(0.0, color="grey", lw=0.8)
    policy = table["policy"].iloc[0] if len(table) else ""
    ax.set_xlabel(f"{words.policy_name('dungeon', policy)} offer rating at the start")
    ax.set_ylabel("win-rate lift when started with it (pp, 95 %)")
    ax.set_title(f"Würfel Dungeon: upgrade value, measured vs rated (Spearman {rank_agreement(table):.2f})")
    return charts.save(fig, path)
