"""The game registry: name -> ``Game`` object (each package's ``game.GAME``)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from sim.core.errors import DicesimError
from sim.core.limits import odd_name

if TYPE_CHECKING:
    from sim.games.base import Game
    from sim.games.options import Option

GAMES = {
    "kniffel": "sim.games.kniffel.game",
    "dungeon": "sim.games.dungeon.game",
    "dadox": "sim.games.dadox.game",
    "dungeon24": "sim.games.dungeon24.game",
    "pig": "sim.games.pig.game",
}


def available() -> list[str]:
    """Games whose package is present."""
    out = []
    for name, mod in GAMES.items():
        try:
            import_module(mod)
        except ModuleNotFoundError:
            continue
        out.append(name)
    return out


def get_game(name: str) -> Game:
    if not isinstance(name, str):  # a notebook's dict or list: a TypeError of the registry's dict otherwise
        raise DicesimError(f"game must be a game's name such as 'kniffel', got {name!r}"[:200])
    if name not in GAMES:  # a look-alike letter (a Cyrillic і) said, as a config field's is
        raise DicesimError(f"unknown game {name!r}{odd_name(name)} (choose from {', '.join(GAMES)})")
    try:
        return import_module(GAMES[name]).GAME
    except ModuleNotFoundError as e:
        if e.name and e.name.startswith("sim.games"):
            raise DicesimError(f"game {name!r} is not built yet") from None
        raise


def declared_options(name: str) -> tuple[Option, ...] | None:
    """A game's options without importing the game (the command line lists them at every start): its package's
    ``options.OPTIONS``, else the game's own ``option_specs`` (importing it). ``None`` when the game's package is
    absent."""
    package = GAMES[name].rsplit(".", 1)[0]
    try:
        return import_module(f"{package}.options").OPTIONS
    except ModuleNotFoundError as e:
        if e.name != f"{package}.options":
            raise
    try:
        return get_game(name).option_specs
    except DicesimError:
        return None


def declared_policies(name: str) -> tuple[str, ...]:
    """A game's policy names without importing the game (``--help`` lists them): its package's
    ``options.POLICY_NAMES``, else the game's own ``policies`` (importing it); empty when the package is absent."""
    package = GAMES[name].rsplit(".", 1)[0]
    try:
        return tuple(import_module(f"{package}.options").POLICY_NAMES)
    except (ModuleNotFoundError, AttributeError) as e:
        if isinstance(e, ModuleNotFoundError) and e.name != f"{package}.options":
            raise
    try:
        return tuple(get_game(name).policies)
    except DicesimError:
        return ()


def declared(name: str, attr: str) -> Any:
    """An attribute of a game's light ``options`` module (a check the command line runs without the game, as
    ``check_cup``), or None when the package or the attribute is absent."""
    if name not in GAMES:
        return None
    package = GAMES[name].rsplit(".", 1)[0]
    try:
        return getattr(import_module(f"{package}.options"), attr, None)
    except ModuleNotFoundError as e:
        if e.name != f"{package}.options":
            raise
        return None
