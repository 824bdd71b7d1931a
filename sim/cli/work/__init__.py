"""What each command does once its arguments are accepted: one module per command group (``play``, ``single``,
``extras``, ``sweep``, ``tune``, ``cache``, ``studio``), imported through ``sim.cli.common.work`` only then.

These modules import what the work needs (the games and their numba kernels, pandas, matplotlib) at their top; the
command groups' modules one level up stay light. :func:`setup` is the games' side of a command: the game imported,
its options and config checked by the game itself (again: ``sim.cli.catalog`` checked what its declarations tell).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.core.config import Strict
from sim.games import get_game
from sim.games.base import Game


def setup(game: str, rules: Path | Strict | None, sets: list[str] | None,
          opts: dict[str, Any]) -> tuple[Game, Strict, dict[str, Any]]:
    """(game, config, checked options) of a command's arguments; ``rules``: a config file, or the config that
    ``catalog.accept`` validated already (then ``sets`` is None)."""
    g = get_game(game)
    options = g.check_options(opts)
    return g, rules if isinstance(rules, Strict) else g.load(rules, sets or []), options
