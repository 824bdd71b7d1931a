"""The loadout syntax of a policy name: ``vorschlag@paschmeister+wetzstein`` plays ``vorschlag`` with these
upgrades added to the start loadout (paired-seed comparisons of one upgrade)."""

from __future__ import annotations

from sim.games.dungeon.config import DungeonConfig
from sim.games.dungeon.options import check_variant


def with_loadout(cfg: DungeonConfig, policy: str) -> tuple[DungeonConfig, str]:
    """``"vorschlag@paschmeister+wetzstein"``: the policy ``vorschlag`` with these upgrades added to the start
    loadout (so ``compare --policies vorschlag,vorschlag@paschmeister`` measures one upgrade on paired seeds)."""
    if "@" not in policy:
        return cfg, policy
    check_variant(cfg, policy)
    name, extra = policy.split("@", 1)
    ups = [u.strip() for u in extra.split("+") if u.strip()]
    data = cfg.model_dump()
    data["loadout"]["upgrades"] = list(cfg.loadout.upgrades) + ups
    return DungeonConfig.model_validate(data), name
