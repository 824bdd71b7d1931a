"""Dungeon24's per-run table: one row per game (``runs`` checks it against the kernel's row layout)."""

from __future__ import annotations

from sim.core.schema import Column

_SEAT_DOCS = {
    "lp": ("int32", "life points left"), "wins": ("int16", "duels won"),
    "ability_uses": ("int16", "people ability fired"), "boss_lost": ("int16", "1 if the boss fell"),
    "charges": ("int16", "ability charges gained"), "focus": ("int16", "focus rerolls"),
    "deploys": ("int16", "cards deployed"), "counters": ("int16", "early boss counters"),
    "people": ("int16", "people index (gruenlinge, untote, dunkelelfen)"),
}
# the per-run table: ``run`` then the kernel's row (``play.write_row``) in its column order
COLUMNS = (
    Column("run", "int64", "run index"),
    Column("winner", "int16", "winning seat, -1 a draw"),
    Column("first_attacker", "int16", "seat that attacked first (roll-off)"),
    Column("turns", "int32", "turns played (both players)"),
    Column("end", "int16", "how the game ended (rules.END_NAMES)"),
    *(Column(f"{stem}{s}", dtype, f"seat {s}: {doc}") for stem, (dtype, doc) in _SEAT_DOCS.items() for s in (0, 1)),
)
