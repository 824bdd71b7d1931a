"""What the Würfel Dungeon kernel is given: the frozen arrays and per-thread profile cache of a (config,
difficulty), memoised per process, and the multiset tables ``TM``. (The table's columns: ``table_schema``.)"""

from __future__ import annotations

from typing import Any

import numba

from policies.dungeon.bots import tm_tuple
from sim.core.config import DicesimError, config_hash
from sim.games.dungeon.config import DIFFICULTIES, DungeonConfig
from sim.games.dungeon.freeze import Frozen, freeze
from sim.games.dungeon.tables import new_cache

TM = tm_tuple()


def check_difficulty(options: dict[str, Any]) -> str:
    d = options.get("difficulty", "leicht")
    if d not in DIFFICULTIES:
        raise DicesimError(f"--difficulty must be one of {', '.join(DIFFICULTIES)}, got {d!r}")
    return d


_FROZEN: dict[tuple[str, str], tuple[Frozen, tuple]] = {}


def frozen(cfg: DungeonConfig, difficulty: str) -> tuple[Frozen, tuple]:
    """Frozen arrays and the per-thread profile-table cache (``tables.new_cache``) for (config, difficulty),
    memoised: the cache lives as long as the process, so tables are built once per thread and profile."""
    key = (config_hash(cfg), difficulty)
    if key not in _FROZEN:
        fz = freeze(cfg, difficulty)
        _FROZEN[key] = (fz, new_cache(max(1, numba.config.NUMBA_NUM_THREADS)))
    return _FROZEN[key]

