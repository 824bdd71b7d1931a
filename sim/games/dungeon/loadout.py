"""The loadout syntax of a policy name: ``vorschlag@paschmeister+wetzstein`` plays ``vorschlag`` with these
upgrades added to the start loadout (paired-seed comparisons of one upgrade)."""

from __future__ import annotations

from sim.core.config import DicesimError
from sim.games.dungeon.config import DungeonConfig


def with_loadout(cfg: DungeonConfig, policy: str) -> tuple[DungeonConfig, str]:
    """``"vorschlag@paschmeister+wetzstein"``: the policy ``vorschlag`` with these upgrades added to the start
    loadout (so ``compare --policies vorschlag,vorschlag@paschmeister`` measures one upgrade on paired seeds)."""
    if "@" not in policy:
        return cfg, policy
    name, extra = policy.split("@", 1)
    ups = [u.strip() for u in extra.split("+") if u.strip()]
    for u in ups:
        if u not in cfg.upgrades:
            raise DicesimError(f"unknown upgrade {u!r} in policy {policy!r} (choose from {', '.join(cfg.upgrades)})")
    data = cfg.model_dump()
    data["loadout"]["upgrades"] = list(cfg.loadout.upgrades) + ups
    return DungeonConfig.model_validate(data), name
