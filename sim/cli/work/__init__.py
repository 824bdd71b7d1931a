"""What each command does once its arguments are accepted: one module per command group (``play``, ``single``,
``extras``, ``sweep``, ``tune``, ``cache``, ``studio``), imported through ``sim.cli.common.work`` only then.

These modules import what the work needs (the games and their numba kernels, pandas, matplotlib) at their top; the
command groups' modules one level up stay light. :func:`setup` is the games' side of a command: the game imported,
its options and config checked by the game itself, and its catalog entry stored for the next command
(``sim.cli.catalog``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.cli import catalog
from sim.core.config import Strict
from sim.games import declared_options, get_game
from sim.games.base import Game


def learn(game: str) -> Game:
    """The game object (imported now), its catalog entry stored for the commands that follow."""
    g = get_game(game)
    if catalog.entry(game) is None:
        kind = type(g)
        catalog.remember(game, catalog.Entry(
            policies=tuple(g.policies) if kind.check_policy is Game.check_policy else None,
            config=f"{g.Config.__module__}:{g.Config.__qualname__}" if kind.load is Game.load else None,
            capabilities=tuple(sorted(g.capabilities)),
            declared_options=tuple(g.option_specs) == tuple(declared_options(game) or ()),
            policy_variant=g.policy_variant,
            options_checked_alone=kind.check_options is Game.check_options))
    return g


def setup(game: str, rules: Path | Strict | None, sets: list[str] | None,
          opts: dict[str, Any]) -> tuple[Game, Strict, dict[str, Any]]:
    """(game, config, checked options) of a command's arguments; ``rules``: a config file, or the config that
    ``catalog.accept`` validated already (then ``sets`` is None)."""
    g = learn(game)
    options = g.check_options(opts)
    return g, rules if isinstance(rules, Strict) else g.load(rules, sets or []), options
