"""``economy_loop``: a sequence of purchases and sales that turns coins into more coins.

Found from the config's price tables, then confirmed by runs that do it. The loops a config can hold: an item
bought at a shop and sold to a buyer later in the same run for more than it cost (the Würfel Dungeon: a joker from
the Tagesmarkt's joker pack, ``market.joker_pack / market.joker_pack_size`` coins each, sold to the Joker-Händler
for ``path.events.joker_haendler_coins``, possible when a market comes before a room whose third path card can be a
Geheimnis and the Händler can be drawn). A priced loop is a finding only when at least ``economy_min_runs`` of the
replayed candidate runs (per-run table: a joker sold and a market item bought that is no upgrade) bought from the
pack and sold afterwards. Does not apply to a game without a market (every game but the Würfel Dungeon).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from sim.core import stats
from sim.report import words
from sim.report.findings.base import Tables, finding, replay_command
from sim.report.findings.config import FindingsConfig


def priced_loops(cfg: Any) -> list[dict[str, Any]]:
    """The buy-then-sell loops the config's prices allow, profitable or not: ``{"buy", "sell", "cost", "price",
    "profit", "where"}`` (coins per item). Empty for a config without a market and a buyer."""
    market, path = getattr(cfg, "market", None), getattr(cfg, "path", None)
    events = getattr(path, "events", None)
    if market is None or events is None or not hasattr(market, "joker_pack") or not hasattr(
            events, "joker_haendler_coins"):
        return []
    names = getattr(sys.modules.get(type(cfg).__module__), "EVENTS", ("opferaltar", "joker_haendler"))
    rooms = int(cfg.rooms.count)
    before_a_room = [r for r in market.after_rooms if r < rooms]
    haendler = list(names).index("joker_haendler") if "joker_haendler" in names else 1
    possible = (bool(market.enabled) and bool(before_a_room) and bool(cfg.jokers) and cfg.rewards.max_jokers > 0
                and events.weights[haendler] > 0 and cfg.path.rest_chance < 1)
    if not possible:
        return []
    cost = float(market.joker_pack) / int(market.joker_pack_size)
    price = float(events.joker_haendler_coins)
    return [{"buy": "joker_pack", "sell": "joker_haendler", "cost": cost, "price": price, "profit": price - cost,
             "where": f"Tagesmarkt after room {min(before_a_room)}, then a Geheimnis"}]


def _did_loop(records: list[dict[str, Any]]) -> bool:
    """Whether a run's events buy a joker from a pack and later sell a joker to the Händler."""
    bought = False
    for ev in records:
        if ev.get("event") == "buy" and ev.get("from_pack"):
            bought = True
        elif bought and ev.get("event") == "secret" and ev.get("accepted") and int(ev.get("sold_joker", -1)) >= 0:
            return True
    return False


def _candidates(t: Tables) -> list[tuple[str, int]]:
    """(label, run) of runs that sold a joker and bought a market item that is no upgrade, in table order."""
    out = []
    for label, runs in t.runs.items():
        if "jokers_sold" not in runs.columns or "market_buys" not in runs.columns:
            continue
        upgrades = runs[[c for c in runs.columns if c.startswith("bought_")]].sum(axis=1).to_numpy()
        mask = (runs["jokers_sold"].to_numpy() > 0) & (runs["market_buys"].to_numpy() > upgrades)
        out += [(label, int(r)) for r in runs["run"].to_numpy()[mask]]
    return out


def economy_loop(t: Tables, f: FindingsConfig) -> list[dict[str, Any]]:
    """Loops priced at more than ``economy_min_profit`` coins, confirmed by replayed runs (see the module)."""
    out = []
    for loop in priced_loops(t.cfg):
        if loop["profit"] <= f.economy_min_profit:
            continue
        cands = _candidates(t)
        checked = cands[: f.economy_check_runs]
        confirmed = [(lab, run) for lab, run in checked
                     if t.events is not None and _did_loop(t.events((t.seats.get(lab) or [lab])[0], run))]
        if len(confirmed) < f.economy_min_runs:
            continue
        total = sum(len(r) for r in t.runs.values())
        # the share of all runs that do it: the confirmed share of the checked candidates, scaled to every candidate
        est = len(confirmed) / max(1, len(checked)) * len(cands)
        share = stats.share(est, total)
        lab, run = confirmed[0]
        buy, sell = "a joker from the joker pack", words.word(t.game, loop["sell"])
        out.append(finding(
            t, "economy_loop",
            f"Coins from nothing: buying {buy} ({loop['cost']:g} coins each) and selling it to the {sell} "
            f"({loop['price']:g} coins) gains {loop['profit']:+g} coins a loop; {len(confirmed)} of {len(checked)} "
            f"replayed candidate runs did it.",
            loop["profit"], [loop["profit"], loop["profit"]], "coins",
            {"metric": "coins gained per loop (sale price minus purchase price, from the price tables)",
             "comparison": f"{sell} pays {loop['price']:g} coins for a joker that costs {loop['cost']:g}",
             "where": loop["where"], "runs": total, "candidate_runs": len(cands), "checked_runs": len(checked),
             "confirmed_runs": len(confirmed), "share_of_runs": share["value"],
             "share_of_runs_ci95": list(np.asarray(share["ci95"], dtype=float))},
            replay_command(t, t.seats.get(lab) or [lab], run), subject=f"{loop['buy']}->{loop['sell']}"))
    return out
