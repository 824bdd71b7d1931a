"""The config check of ``sim.cli.catalog.accept``: a game's config model imported alone (no kernel, no pandas)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

from sim.core.config import DicesimError, Strict, load_config, numeric_field, search_bounds, sets_a_value
from sim.core.tomlfile import read_toml, shown_path
from sim.games import declared
from sim.games.options import metric_refusal


def config_model(model: str) -> type[Strict]:
    """The config model named ``module:name``."""
    module, name = model.split(":")
    return getattr(import_module(module), name)


def checked(model: str, game: str, config: Path | None, sets: list[str] | None) -> Strict:
    """``--config`` and ``--set`` validated by the config model ``module:name``, as ``Game.load`` validates them; a
    config file that sets no value (empty, comments, empty sections) is said once on stderr: it plays the default
    rules, which a designer who saved nothing into it would otherwise take for their own."""
    cfg = load_config(config_model(model), game, config, sets or [])
    if config is not None and not sets_a_value(read_toml(config)):
        print(f"note: {shown_path(config)} sets no value: {declared(game, 'TITLE') or game}'s default rules are played"
              f"{' with the --set edits' if sets else ''}", file=sys.stderr)
    return cfg


def field_checked(model: str, game: str, config: Path | None, sets: list[str] | None, field: str,
                  lo: float | None = None, hi: float | None = None) -> None:
    """``calibrate --field --lo --hi``: a numeric field of the config model ``module:name`` and bounds it takes
    (``numeric_field``'s and ``search_bounds``' refusals, as the calibration says them)."""
    cls = config_model(model)

    def load(extra: list[str]) -> Strict:
        return load_config(cls, game, config, [*(sets or []), *extra])

    search_bounds(numeric_field(load([]), field, load), field, lo, hi, load)


def variants_checked(model: str, game: str, config: Path | None, sets: list[str] | None, policies: list[str],
                     check: Callable[[Any, str], None]) -> None:
    """A game's policy variants (the dungeon's ``vorschlag@wetzstein``) checked against its config by the game's
    light ``check_variant(cfg, policy)``."""
    cfg = checked(model, game, config, sets)
    for p in policies:
        check(cfg, p)


def metric_checked(model: str, game: str, config: Path | None, sets: list[str] | None, metric: str, seats: list[str],
                   options: dict[str, Any]) -> None:
    """``Game.check_metric`` on the config model ``module:name`` alone (its ``metric_names`` for these seats)."""
    refuse_metric(game, metric, checked(model, game, config, sets), options, seats)


def refuse_metric(game: str, metric: str, cfg: Strict, options: dict[str, Any], seats: list[str]) -> None:
    """``Game.check_metric`` on a config alone: its model's ``metric_names`` for these seats (none declared: no
    refusal, as the game)."""
    names = cfg.metric_names(options, seats) if hasattr(cfg, "metric_names") else None
    refusal = None if names is None else metric_refusal(game, metric, names, seats)
    if refusal:
        raise DicesimError(refusal)
