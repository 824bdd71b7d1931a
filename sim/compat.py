"""What a game that is not ported to the declarations yet still offers outside them (the Würfel Dungeon).

The engine asks ``Game.supports(name)``; a ported game declares ``capabilities``. Until the dungeon declares
``capabilities = frozenset({"combos", ...})``, its extras are named here, and so are the options it declares only
as defaults (for the command line, which reads options without importing the games). Delete this module when
every game declares its own.
"""

from __future__ import annotations

from sim.games.options import Option

LEGACY: dict[str, frozenset[str]] = {"dungeon": frozenset({"combos"})}
# options of a game that declares only their defaults (``options = {...}``) and has no ``options.py`` yet: what the
# command line offers without importing it (the contract suite checks they match the game's defaults)
LEGACY_OPTIONS: dict[str, tuple[Option, ...]] = {
    "dungeon": (Option("difficulty", "leicht", str, "Würfel Dungeon: leicht | normal | schwer"),),
}
LEGACY_OPTION_HELP: dict[str, str] = {o.name: o.help for opts in LEGACY_OPTIONS.values() for o in opts}


def legacy_capabilities(game: str) -> frozenset[str]:
    return LEGACY.get(game, frozenset())
