"""``describe`` and ``combos`` computed without the game: its rule tables in plain Python, no numba, no kernels.

A game whose light ``options`` module declares ``PLAIN_DESCRIBE`` (the options its tables read;
``sim.cli.catalog.plain_options``) computes them in its package's ``describe`` module: ``CONFIG`` (the config
model), ``describe(cfg, options)``, ``table_columns(cfg, options)`` and, with combos, ``cup_json(cfg)``; the game's
own ``describe`` and ``cup`` are those functions. Here they run inside :func:`sim.jit.plain.plain_rules`, so a first
question under new rules answers in about a third of a second instead of a second (issue 30);
``tests/test_plain_tables.py`` checks the answers equal the compiled rules' and that no numba module is imported.
A game that also declares ``DESCRIBE_COMPILED`` (Dadox: its optimal turn is a solve) runs its describe module on
the compiled rules, outside the block: numba loads, but not the game, its play kernels, policies or pandas.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

from sim.cli import answers
from sim.cli.common import emit
from sim.cli.work.describe_text import describe_text
from sim.core.config import DicesimError, Strict, config_hash, load_config, value_at
from sim.core.jsonable import json_default
from sim.core.schema import describe_columns
from sim.games import GAMES, declared
from sim.jit.plain import plain_rules


def _module(game: str) -> ModuleType:
    return import_module(GAMES[game].rsplit(".", 1)[0] + ".describe")


def _config(mod: ModuleType, game: str, rules: Path | Strict | None, sets: list[str] | None) -> Strict:
    return rules if isinstance(rules, Strict) else load_config(mod.CONFIG, game, rules, sets or [])


CONFIG_KEYS = ("game", "config_hash", "config", "assumed")  # a describe's echo of its config; the rest is derived


def describe(game: str, rules: Path | Strict | None, sets: list[str] | None, options: dict[str, Any]) -> dict:
    """``Game.describe`` with the batch table's columns, as ``sim.cli.work.single.describe`` gives them. A game that
    declares ``DESCRIBE_READS`` (the config sections and fields its derived tables read: Dadox's optimal turn reads
    its scoring, turn and bust rules, not its goal) has them kept under those alone: rules that differ elsewhere (a
    new goal, other policy settings) answer from the kept tables without numba."""
    reads = declared(game, "DESCRIBE_READS")
    if reads:
        cfg = rules if isinstance(rules, Strict) else load_config(_model(game), game, rules, sets or [])
        k = answers.key_of("describe-tables", game, sorted(options.items()), _subset(cfg, reads))
        derived = answers.stored_data(k)
        if derived is None:  # as it is kept (JSON), so the first answer reads as every later one
            fresh = {x: v for x, v in _computed(game, cfg, None, options).items() if x not in CONFIG_KEYS}
            derived = json.loads(json.dumps(fresh, default=json_default))
            answers.save_data(k, derived)
        return {**_echo(game, cfg), **derived}
    return _computed(game, rules, sets, options)


def _computed(game: str, rules: Path | Strict | None, sets: list[str] | None, options: dict[str, Any]) -> dict:
    with nullcontext() if declared(game, "DESCRIBE_COMPILED") else plain_rules():
        mod = _module(game)
        cfg = _config(mod, game, rules, sets)
        d = mod.describe(cfg, options)
        if "columns" not in d and hasattr(mod, "table_columns"):
            d["columns"] = describe_columns(mod.table_columns(cfg, options))
        return d


def _model(game: str) -> type[Strict]:
    """The game's config model by its light declaration (``CONFIG = "module:Class"``), without its describe module."""
    module, _, name = declared(game, "CONFIG").partition(":")
    return getattr(import_module(module), name)


def _subset(cfg: Strict, reads: tuple[str, ...]) -> dict[str, Any]:
    """The values of the config paths ``reads`` (sections or fields), as JSON."""
    dumped = cfg.model_dump(mode="json")
    return {path: value_at(dumped, path) for path in reads}


def _echo(game: str, cfg: Strict) -> dict[str, Any]:
    """A describe's echo of the config it answers for (``CONFIG_KEYS``), in the order the games give it."""
    return {"game": game, "config_hash": config_hash(cfg), "config": cfg.model_dump(mode="json"),
            "assumed": list(cfg.assumed)}


def cup(game: str, rules: Path | Strict | None, sets: list[str] | None) -> dict[str, dict]:
    """``Game.cup``: every cup under these rules."""
    with plain_rules():
        mod = _module(game)
        if not hasattr(mod, "cup_json"):
            raise DicesimError(f"{game} has no combos")  # Game.supports' words
        return mod.cup_json(_config(mod, game, rules, sets))


def show(d: dict[str, Any], as_json: bool) -> None:
    """A describe answer as the command prints it: one JSON object with ``--json``, else its tables as text
    (``describe_text``)."""
    if as_json:
        emit(d, True, "", json_default)
    else:
        emit(d, False, describe_text(json.loads(json.dumps(d, default=json_default)), _model(str(d["game"]))))
