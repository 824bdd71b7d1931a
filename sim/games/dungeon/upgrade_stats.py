"""Per-upgrade statistics of a batch table: offers, picks, buys and the (observational) win-rate lift of
taking an upgrade at its first offer, with the analysis flags (dominant, trap); the progression metrics."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from sim.core import stats

if TYPE_CHECKING:
    import pandas as pd  # only in annotations: describe, combos and replay load no table library

FLAG_DEFAULTS = {"dominant_lift": 0.05, "trap_lift": 0.0, "trap_pick_rate": 0.2, "min_offers": 200}


def upgrade_names_of(table: pd.DataFrame) -> list[str]:
    return [c[len("took_first_"):] for c in table.columns if c.startswith("took_first_")]


def stratified_lift(win: np.ndarray, first: np.ndarray, took: np.ndarray) -> dict[str, Any]:
    """Win-rate lift of taking an upgrade at its first offer over leaving it, stratified by the room of that
    first offer (runs that reach a room alive are comparable there), with a normal 95 % interval."""
    rooms = np.unique(first[first > 0])
    num = 0.0
    var = 0.0
    wsum = 0
    for r in rooms:
        sel = first == r
        a = win[sel & (took > 0)]
        b = win[sel & (took == 0)]
        if len(a) == 0 or len(b) == 0:
            continue
        w = int(sel.sum())
        pa, pb = a.mean(), b.mean()
        num += w * (pa - pb)
        var += w * w * (max(pa * (1 - pa), 0.25 / len(a)) / len(a) + max(pb * (1 - pb), 0.25 / len(b)) / len(b))
        wsum += w
    if wsum == 0:
        return {"value": float("nan"), "ci95": [float("nan"), float("nan")]}
    return stats.interval(num / wsum, float(np.sqrt(var)) / wsum)


def upgrade_stats(table: pd.DataFrame, flags: dict[str, float] | None = None) -> dict[str, dict[str, Any]]:
    """Per upgrade: offer rate (runs offered it at least once), pick rate (reward picks per offer), win rate
    when picked (reward or market) vs offered and never taken, the stratified first-offer lift, and flags."""
    f = {**FLAG_DEFAULTS, **(flags or {})}
    win = table["win"].to_numpy().astype(float)
    out: dict[str, dict[str, Any]] = {}
    for u in upgrade_names_of(table):
        offered = table[f"offered_{u}"].to_numpy()
        picked = table[f"picked_{u}"].to_numpy()
        bought = table[f"bought_{u}"].to_numpy()
        first = table[f"first_offer_{u}"].to_numpy()
        took = table[f"took_first_{u}"].to_numpy()
        n_off = int(offered.sum())
        have = (picked + bought) > 0
        left = (offered > 0) & ~have
        lift = stratified_lift(win, first, took)
        pick_rate = stats.share(int(picked.sum()), n_off)
        lo_ok = n_off >= f["min_offers"]
        dominant = bool(lo_ok and lift["ci95"][0] > f["dominant_lift"])
        trap = bool(lo_ok and lift["ci95"][1] < f["trap_lift"] and pick_rate["value"] >= f["trap_pick_rate"])
        out[u] = {
            "offer_rate": stats.rate(offered > 0),
            "offers": stats.value(n_off),
            "pick_rate": pick_rate,
            "buy_rate": stats.mean(bought > 0),
            "win_rate_picked": stats.rate(win[have] > 0) if have.any() else stats.value(float("nan")),
            "win_rate_not_picked": stats.rate(win[left] > 0) if left.any() else stats.value(float("nan")),
            "win_lift": lift,
            "dominant": stats.value(float(dominant)),
            "trap": stats.value(float(trap)),
        }
    return out


def progression_metrics(table: pd.DataFrame, options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Economy metrics: upgrades, jokers, dice bonuses, hero uses, coins spent per market, per-upgrade rows."""
    m: dict[str, dict[str, Any]] = {}
    for c in ("rewards", "upgrades_gained", "jokers_gained", "jokers_used", "jokers_set", "jokers_reroll",
              "jokers_heal", "jokers_sold", "dice_bonuses", "hero_uses", "crits", "poison_damage", "market_spent",
              "market_buys"):
        m[f"mean_{c}"] = stats.mean(table[c])
    for c in table.columns:
        if c.startswith("market_spent_"):
            room = int(c.rsplit("_", 1)[1])
            reached = table["rooms_cleared"].to_numpy() >= room
            m[f"coins_spent_market_{room}"] = stats.mean(table.loc[reached, c]) if reached.sum() > 1 else \
                stats.value(float("nan"))
    for u, row in upgrade_stats(table, options.get("flags")).items():
        for k, v in row.items():
            m[f"upgrade_{u}_{k}"] = v
    return m
