"""The config check of ``sim.cli.catalog.accept``: a game's config model imported alone (no kernel, no pandas)."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from sim.core.config import Strict, load_config, numeric_field


def checked(model: str, game: str, config: Path | None, sets: list[str] | None) -> Strict:
    """``--config`` and ``--set`` validated by the config model ``module:name``, as ``Game.load`` validates them."""
    module, name = model.split(":")
    return load_config(getattr(import_module(module), name), game, config, sets or [])



def field_checked(model: str, game: str, config: Path | None, sets: list[str] | None, field: str) -> None:
    """``calibrate --field``: a numeric field of the config model ``module:name`` (``numeric_field``'s refusals)."""
    module, name = model.split(":")
    cls = getattr(import_module(module), name)
    base = load_config(cls, game, config, sets or [])
    numeric_field(base, field, lambda extra: load_config(cls, game, config, [*(sets or []), *extra]))


def variants_checked(model: str, game: str, config: Path | None, sets: list[str] | None, policies: list[str],
                     check: object) -> None:
    """A game's policy variants (the dungeon's ``vorschlag@wetzstein``) checked against its config by the game's
    light ``check_variant(cfg, policy)``."""
    module, name = model.split(":")
    cfg = load_config(getattr(import_module(module), name), game, config, sets or [])
    for p in policies:
        check(cfg, p)  # type: ignore[operator]
