"""The config check of ``sim.cli.catalog.accept``: a game's config model imported alone (no kernel, no pandas)."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from sim.core.config import Strict, load_config


def checked(model: str, game: str, config: Path | None, sets: list[str] | None) -> Strict:
    """``--config`` and ``--set`` validated by the config model ``module:name``, as ``Game.load`` validates them."""
    module, name = model.split(":")
    return load_config(getattr(import_module(module), name), game, config, sets or [])

