"""What a game that is not ported to the declarations yet still offers outside them (the Würfel Dungeon).

The engine asks ``Game.supports(name)``; a ported game declares ``capabilities``. Until the dungeon declares
``capabilities = frozenset({"combos", ...})``, its extras are named here, and the help texts of options it declares
only as defaults. Delete this module when every game declares its own.
"""

from __future__ import annotations

LEGACY: dict[str, frozenset[str]] = {"dungeon": frozenset({"combos"})}
# help texts of options a game declares only as defaults (``options = {...}``): flag name -> help
LEGACY_OPTION_HELP: dict[str, str] = {"difficulty": "Würfel Dungeon: leicht | normal | schwer"}


def legacy_capabilities(game: str) -> frozenset[str]:
    return LEGACY.get(game, frozenset())
