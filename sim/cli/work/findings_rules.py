"""The config check of ``dicesim findings``: the ``[findings]`` thresholds taken out of ``--config`` and ``--set``
and validated, the rest validated by the game's config model imported alone (no kernel, no pandas)."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any

from sim.core.config import CONFIG_DIR, ConfigError, parse_override, read_toml, set_path, validate
from sim.report.findings.config import FindingsConfig, check_names, split


def checked(game: str, model: str | None, config: Path | None, sets: list[str] | None
            ) -> tuple[dict[str, Any] | None, list[str], FindingsConfig]:
    """(the game's part of the file, the game's overrides, the thresholds); refuses what the game's model
    (``module:name``, as its options module declares it) or the thresholds' model refuses."""
    data, rest, thresholds = split(config, sets)
    check_names(thresholds, game)  # the games and policies they name: before the report plays
    if model is not None:
        module, name = model.split(":")
        raw = dict(data) if data is not None else read_toml(CONFIG_DIR / game / "default.toml")
        for item in rest:
            keys, value = parse_override(item)
            set_path(raw, keys, value, getattr(import_module(module), name))
        validate(getattr(import_module(module), name), raw)
    return data, rest, thresholds


def thresholds(sets: list[str] | None, config: Path | None = None) -> FindingsConfig:
    """The thresholds of ``dicesim balance --config F --set findings.NAME=VALUE`` (the file's ``[findings]``
    section, the ``--set``s over it): validated as ``dicesim findings`` does; a rule table in the file or any other
    ``--set`` refused (balance plays every game under its own default config, a rule field names one game)."""
    data, rest, found = split(config, sets)
    check_names(found, None)
    if data:
        first = next(iter(data))
        said = f"[{first}]" if isinstance(data[first], dict) else f"the key {first}"  # name = …: a key, no section
        raise ConfigError(f"--config {config}: dicesim balance reads only a [findings] section, the file also has "
                          f"{said} (a game's rules: dicesim findings GAME --config …)"[:200])
    if rest:
        raise ConfigError(f"--set {rest[0]}: dicesim balance takes findings thresholds only (--set "
                          "findings.NAME=VALUE); to change a game's rules use dicesim findings GAME --set …")
    return found
