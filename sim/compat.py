"""What a game that is not ported to the declarations yet still offers outside them (the Würfel Dungeon).

The engine asks ``Game.supports(name)``; a ported game declares ``capabilities``. Until the dungeon declares
``capabilities = frozenset({"combos", "replay_row"})`` (and ``combos``/``replay_row`` with the base signatures),
its extras are named here. Delete this module when every game declares its own.
"""

from __future__ import annotations

from typing import Any

LEGACY: dict[str, frozenset[str]] = {"dungeon": frozenset({"combos"})}
# help texts of options a game declares only as defaults (``options = {...}``): flag name -> help
LEGACY_OPTION_HELP: dict[str, str] = {"difficulty": "Würfel Dungeon: leicht | normal | schwer"}


def legacy_capabilities(game: str) -> frozenset[str]:
    return LEGACY.get(game, frozenset())


def combos(game: str, dice: list[int], cfg: Any) -> dict[str, Any]:
    """The dungeon's combo finder through its module function (``sim.games.dungeon.game.combos_json``)."""
    from sim.games.dungeon.game import combos_json

    return combos_json(dice, cfg)
