"""Dungeon24 runs: the frozen config, seat options and the batch kernel call shared by ``simulate`` and the
designer analyses (``sim.games.dungeon24.analysis``), plus the per-run table declaration."""

from __future__ import annotations

import numpy as np

from policies.dungeon24.bots import POLICIES
from sim.core.config import DicesimError, config_hash
from sim.core.limits import kernel_seed
from sim.games.dungeon24 import play
from sim.games.dungeon24 import rules as R
from sim.games.dungeon24.columns import COLUMNS
from sim.games.dungeon24.config import PEOPLES, Dungeon24Config, freeze

# the per-run table: ``run`` then the kernel's row (``play.write_row``) in its column order
assert tuple(c.name for c in COLUMNS[1:]) == play.COLUMNS, "the kernel's row layout changed: update COLUMNS"

_frozen: dict[str, tuple[np.record, np.ndarray, np.ndarray]] = {}
_searched: dict[tuple, tuple[int, ...]] = {}


def frozen(cfg: Dungeon24Config) -> tuple[np.record, np.ndarray, np.ndarray]:
    """``freeze(cfg)``, memoised by the config hash."""
    key = config_hash(cfg)
    if key not in _frozen:
        _frozen[key] = freeze(cfg)
    return _frozen[key]


def people_of(name: str) -> int:
    if name not in PEOPLES:
        raise DicesimError(f"unknown people {name!r} for dungeon24 (choose from {', '.join(PEOPLES)})")
    return PEOPLES.index(name)


def run_games(cfg: Dungeon24Config, pols: list[str], people: list[int], seed: int, start: int, count: int,
              perms: list[tuple[int, ...] | None] | None = None, abilities: list[bool] | None = None,
              player_seat: int = 0) -> np.ndarray:
    """The raw int64 table ``[count, len(play.COLUMNS)]`` for seats ``pols``/``people``.

    ``perms[s]``: a fixed pyramid for seat ``s`` (None: its policy arranges); ``abilities[s]``
    False plays seat ``s`` without its people ability (for the ability lift). ``player_seat``: the seat of the
    player whose level is ``skill.level`` (the other seat plays at ``skill.opponents``): analyses that swap the
    seats to cancel the first-attacker advantage pass 1 for the swapped games, so the skill follows the player.
    """
    rp, cards, ability = frozen(cfg)
    rules = rp.base
    if player_seat == 1:
        rules = rules.copy()
        rules["skill_level_ppm"], rules["skill_opponents_ppm"] = rp.skill_opponents_ppm, rp.skill_level_ppm
    pol_ids = np.array([POLICIES[p] for p in pols], np.int64)
    ppl = np.array(people, np.int64)
    abil = ability[ppl].copy()
    for s, on in enumerate(abilities or [True, True]):
        if not on:
            abil[s] = R.AB_NONE
    pf = np.full((2, R.N_BASIC), -1, np.int64)
    for s, perm in enumerate(perms or [None, None]):
        if perm is not None:
            pf[s] = perm
    return play.play_batch(kernel_seed(seed), start, count, pol_ids, ppl, abil, pf, rules, cards)


