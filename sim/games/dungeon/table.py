"""The per-run table row the Würfel Dungeon kernel writes: its columns and where each group starts.

A row is fixed columns (``FIXED``, indices ``O_*``), then LP and coins after each room won, turns per room, combos
per kind, path choices per kind, coins spent at each market and five columns per upgrade (``UP_COLS``). The
kernel keeps the group starts in its run state (``state.RUN_DTYPE``: ``b_lp`` … ``b_up``).
"""

from __future__ import annotations

from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R

FIXED = (
    "win", "rooms_cleared", "death_room", "score", "coins", "lp", "max_lp", "seconds", "turns", "fights", "rolls",
    "damage_dealt", "damage_taken", "healed", "adjusts", "last_chances", "challenges", "coins_earned",
    "coins_stolen", "altars", "truhen", "rewards", "upgrades_gained", "jokers_gained", "jokers_used", "jokers_set",
    "jokers_reroll", "jokers_heal", "jokers_sold", "dice_bonuses", "hero_uses", "crits", "poison_damage",
    "market_spent", "market_buys", "illegal_requests",
)
(O_WIN, O_ROOMS, O_DEATH, O_SCORE, O_COINS, O_LP, O_MAXLP, O_SECONDS, O_TURNS, O_FIGHTS, O_ROLLS, O_DEALT,
 O_TAKEN, O_HEALED, O_ADJUSTS, O_LC, O_CHALLENGES, O_EARNED, O_STOLEN, O_ALTARS, O_TRUHEN, O_REWARDS, O_UPGRADES,
 O_JK_GAINED, O_JK_USED, O_JK_SET, O_JK_REROLL, O_JK_HEAL, O_JK_SOLD, O_DICE_BONUS, O_HERO, O_CRITS, O_POISON,
 O_MK_SPENT, O_MK_BUYS, O_ILLEGAL) = range(36)
N_FIXED = 36
PATH_KINDS = ("kampf", "elite", "rastplatz", "geheimnis")
UP_COLS = ("offered", "picked", "bought", "first_offer", "took_first")
UC_OFFERED, UC_PICKED, UC_BOUGHT, UC_FIRST, UC_TOOK_FIRST = range(5)
N_UC = 5


def columns(n_rooms: int, upgrades: tuple[str, ...] | list[str] = (), markets: tuple[int, ...] | list[int] = ()
            ) -> list[str]:
    """Per-run table columns: fixed, LP and coins after each room won (NaN where not reached), turns
    per room, combos played per kind, path choices per kind, coins spent at each market (by room), and per
    upgrade: reward offers, reward picks, market buys, the room of its first offer (0: never) and whether
    it was taken at that first offer."""
    return (
        list(FIXED)
        + [f"lp_room_{r}" for r in range(1, n_rooms + 1)]
        + [f"coins_room_{r}" for r in range(1, n_rooms + 1)]
        + [f"turns_room_{r}" for r in range(1, n_rooms + 1)]
        + [f"combos_{k}" for k in R.KINDS]
        + [f"path_{p}" for p in PATH_KINDS]
        + [f"market_spent_{r}" for r in markets]
        + [f"{c}_{u}" for u in upgrades for c in UP_COLS]
    )


def n_columns(fz) -> int:
    """Width of a table row for these frozen arrays."""
    n_rooms = int(fz.rp[0].rooms_count)
    return N_FIXED + 3 * n_rooms + R.N_KIND + 4 + int(fz.rooms[:, C.RM_MARKET].sum()) + N_UC * int(fz.rp[0].n_up)
