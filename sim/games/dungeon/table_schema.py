"""The Würfel Dungeon's per-run table as the engine declares it (``sim.core.schema.Column``): the kernel's row
(``table.columns``, in its order) between ``run`` and the two labels ``policy`` and ``difficulty``.

The names and their order come from the row layout (``table``); this module adds what the layout does not say:
each column's dtype and meaning. The order is the golden hashes' order, so it never changes here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.schema import STR, Column, pack
from sim.games.dungeon.config import DungeonConfig
from sim.games.dungeon.table import PATH_KINDS, columns

FLOAT_COLS = ("seconds",)  # fixed columns that are not counts
FLOAT_PREFIXES = ("lp_room_", "coins_room_")  # NaN where the run did not win that room
FIXED_DOCS = {
    "win": "the run cleared every room",
    "rooms_cleared": "rooms won",
    "death_room": "room the run died in (0: it won)",
    "score": "final score (rooms, LP, time and win by the score rules)",
    "coins": "coins at the end",
    "lp": "LP at the end (0 after a loss)",
    "max_lp": "maximum LP at the end",
    "seconds": "estimated playing time in seconds",
    "turns": "player turns over all fights",
    "fights": "fights entered",
    "rolls": "rolls (first rolls, rerolls, last chances and joker rerolls)",
    "damage_dealt": "damage dealt to enemies",
    "damage_taken": "damage taken from enemies",
    "healed": "LP healed",
    "adjusts": "dice adjusted (Justieren)",
    "last_chances": "last chances bought",
    "challenges": "room challenges met",
    "coins_earned": "coins earned (fights, challenges, secrets)",
    "coins_stolen": "coins stolen by enemies",
    "altars": "Opferaltar offers accepted",
    "truhen": "Verfluchte Truhe offers accepted",
    "rewards": "reward offers after a room",
    "upgrades_gained": "upgrades gained (rewards and market)",
    "jokers_gained": "jokers gained",
    "jokers_used": "jokers used (set, reroll and heal)",
    "jokers_set": "set-die jokers used",
    "jokers_reroll": "extra-roll jokers used",
    "jokers_heal": "heal jokers used",
    "jokers_sold": "jokers sold to the Joker-Händler",
    "dice_bonuses": "dice bonuses gained",
    "hero_uses": "hero ability uses",
    "crits": "critical attack combos",
    "poison_damage": "poison damage dealt to enemies",
    "market_spent": "coins spent at the Tagesmarkt",
    "market_buys": "items bought at the Tagesmarkt",
    "illegal_requests": "requests of the policy the rules forbid, refused by the simulator (0 for every shipped bot)",
}
GROUP_DOCS = {
    "lp_room_": "LP after winning room {k} (NaN: not won)",
    "coins_room_": "coins after winning room {k} (NaN: not won)",
    "turns_room_": "turns fought in room {k}",
    "combos_": "{k} combos played",
    "path_": "path cards {k} chosen",
    "market_spent_": "coins spent at the market after room {k}",
    "offered_": "reward offers of {k}",
    "picked_": "reward picks of {k}",
    "bought_": "market buys of {k}",
    "first_offer_": "room of the first offer of {k} (0: never offered)",
    "took_first_": "{k} taken at its first offer",
}


def column_names(cfg: DungeonConfig) -> list[str]:
    """The kernel's row of this config (upgrade and market columns depend on it), in its order."""
    markets = sorted(cfg.market.after_rooms)
    return columns(cfg.rooms.count, list(cfg.upgrades), markets)


def _dtype(name: str) -> str:
    if name == "win":
        return "bool"
    return "float64" if name in FLOAT_COLS or name.startswith(FLOAT_PREFIXES) else "int64"


def _doc(name: str) -> str:
    if name in FIXED_DOCS:
        return FIXED_DOCS[name]
    for prefix, doc in GROUP_DOCS.items():
        if name.startswith(prefix) and (prefix != "path_" or name[len(prefix):] in PATH_KINDS):
            return doc.format(k=name[len(prefix):])
    return ""  # a column the row layout gained without a doc here: the contract suite names it


def table_columns(cfg: DungeonConfig, options: dict[str, Any] | None = None) -> tuple[Column, ...]:
    """``run``, the kernel's row, ``policy`` and ``difficulty``: the batch table of this config."""
    return (
        Column("run", "int64", "run index"),
        *(Column(n, _dtype(n), _doc(n)) for n in column_names(cfg)),
        Column("policy", STR, "the policy (with a forced start loadout: policy@upgrade+…)"),
        Column("difficulty", STR, "leicht | normal | schwer"),
    )


def run_record(cfg: DungeonConfig, run: int, row: np.ndarray, policy: str, difficulty: str) -> dict[str, Any]:
    """One kernel row as the batch table has it (``pack``: the same names and casts), as plain Python values; the
    cells the run never reached (NaN: rooms not won) are left out, so the record is JSON and compares equal."""
    cols = table_columns(cfg)
    width = len(cols) - 3
    packed = pack(cols, [np.array([run]), np.asarray(row)[None, :width], np.array([policy], dtype=object),
                         np.array([difficulty], dtype=object)])
    out = {}
    for name, values in packed.items():
        v = values[0].item() if isinstance(values[0], np.generic) else values[0]
        if not (isinstance(v, float) and np.isnan(v)):
            out[name] = v
    return out
