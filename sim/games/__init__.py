"""The game registry: name -> ``Game`` object (each package's ``game.GAME``)."""

from __future__ import annotations

from importlib import import_module

from sim.config import DicesimError
from sim.games.base import Game

GAMES = {
    "kniffel": "sim.games.kniffel.game",
    "dungeon": "sim.games.dungeon.game",
    "dadox": "sim.games.dadox.game",
    "dungeon24": "sim.games.dungeon24.game",
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
    if name not in GAMES:
        raise DicesimError(f"unknown game {name!r} (choose from {', '.join(GAMES)})")
    try:
        return import_module(GAMES[name]).GAME
    except ModuleNotFoundError as e:
        if e.name and e.name.startswith("sim.games"):
            raise DicesimError(f"game {name!r} is not built yet") from None
        raise
