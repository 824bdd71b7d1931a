"""What the Würfel Dungeon kernel is given: the frozen arrays and per-thread profile cache of a (config,
difficulty), memoised per process, the multiset tables ``TM``, and the table columns of a config."""

from __future__ import annotations

from typing import Any

import numba

from policies.dungeon import tm_tuple
from sim.config import DicesimError, config_hash
from sim.games.dungeon import config as C
from sim.games.dungeon.config import DIFFICULTIES, DungeonConfig, freeze
from sim.games.dungeon.table import columns
from sim.games.dungeon.tables import new_cache

TM = tm_tuple()


def check_difficulty(options: dict[str, Any]) -> str:
    d = options.get("difficulty", "leicht")
    if d not in DIFFICULTIES:
        raise DicesimError(f"--difficulty must be one of {', '.join(DIFFICULTIES)}, got {d!r}")
    return d


_FROZEN: dict[tuple[str, str], tuple[C.Frozen, tuple]] = {}


def frozen(cfg: DungeonConfig, difficulty: str) -> tuple[C.Frozen, tuple]:
    """Frozen arrays and the per-thread profile-table cache (``tables.new_cache``) for (config, difficulty),
    memoised: the cache lives as long as the process, so tables are built once per thread and profile."""
    key = (config_hash(cfg), difficulty)
    if key not in _FROZEN:
        fz = freeze(cfg, difficulty)
        _FROZEN[key] = (fz, new_cache(max(1, numba.config.NUMBA_NUM_THREADS)))
    return _FROZEN[key]


def table_columns(cfg: DungeonConfig) -> list[str]:
    """The per-run table columns of this config (upgrade and market columns depend on it)."""
    markets = [r for r in sorted(set(cfg.market.after_rooms)) if r < cfg.rooms.count]
    return columns(cfg.rooms.count, list(cfg.upgrades), markets)
