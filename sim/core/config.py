"""Configs: TOML files validated by per-game pydantic models, ``--set`` overrides, a stable hash.

Every rule number lives in ``configs/<game>/*.toml``. ``load_config`` reads a file (or the game's
default), applies ``path=value`` overrides, validates the result against the game's model (unknown
keys and wrong types are errors that name the field) and returns the validated model. Kernels get
the model frozen into numpy arrays by the game's own ``freeze``.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any, TypeVar, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator


def _config_dir() -> Path:
    """The default configs: package data of an installed ``sim`` (``sim/configs``), else the checkout's ``configs/``."""
    shipped = Path(str(files("sim").joinpath("configs")))
    return shipped if shipped.is_dir() else Path(__file__).resolve().parent.parent.parent / "configs"


CONFIG_DIR = _config_dir()
ROOT = CONFIG_DIR.parent  # paths written as ``configs/...`` (sweep files) resolve against this

M = TypeVar("M", bound=BaseModel)


class DicesimError(Exception):
    """A user error: reported as one ``error:`` line with exit code 2."""


class ConfigError(DicesimError):
    """A config file, override or value that cannot be used."""


class Strict(BaseModel):
    """Base for config sections: unknown keys are errors, values are checked strictly."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _field_type(node: Any, key: str) -> Any:
    """The type below ``key`` of a config section type (a model's field, or any key of a ``dict[str, X]``)."""
    fields = getattr(node, "model_fields", None)
    if fields is not None:
        return fields[key].annotation if key in fields else None
    if get_origin(node) is dict:
        return get_args(node)[1]
    return None


class GameConfig(Strict):
    """Base of every game's config: the game's name and ``assumed``, the dotted paths of the values the seed
    does not fix (a report lists them; each must name a real field or table entry)."""

    name: str
    assumed: list[str] = Field(default_factory=list, description="dotted paths of values the seed does not fix")

    @field_validator("assumed")
    @classmethod
    def known_paths(cls, v: list[str]) -> list[str]:
        for path in v:
            node: Any = cls
            for key in path.split("."):
                node = _field_type(node, key)
                if node is None:
                    raise ValueError(f"assumed names an unknown field: {path}")
        return v


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file; a missing or broken file is a ConfigError naming it."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"config file not found: {p}")
    try:
        return tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"broken TOML in {p}: {e}") from None


def parse_override(item: str) -> tuple[list[str], Any]:
    """``'a.b=3'`` -> (['a', 'b'], 3); the value is read as a TOML value (bare words as strings)."""
    if "=" not in item:
        raise ConfigError(f"--set expects path=value, got {item!r}")
    path, raw = (x.strip() for x in item.split("=", 1))
    if not path or not all(path.split(".")):
        raise ConfigError(f"--set has an empty field name in {item!r}")
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw  # a bare word such as forced
    return path.split("."), value


def set_path(data: dict[str, Any], keys: list[str], value: Any, model: type[BaseModel] | None = None) -> None:
    """Set ``data[k0][k1]... = value``; the path must exist in ``data`` or, given ``model``, be a field the model
    declares (a section a user file leaves out, e.g. ``[skill]``, takes its defaults): no silently new keys."""
    node = data
    for i, k in enumerate(keys):
        model = _field_model(model, k)
        last = i == len(keys) - 1
        if k not in node and model is not None:  # declared by the model but absent from the file
            node[k] = value if last else {}
        if last:
            if k not in node:
                raise ConfigError(f"unknown config field: {'.'.join(keys)}")
            node[k] = value
        elif not isinstance(node.get(k), dict):
            raise ConfigError(f"unknown config field: {'.'.join(keys[: i + 1])}")
        else:
            node = node[k]


def _field_model(model: Any, key: str) -> Any:
    """``model``'s field ``key``: its model class when the field is a section, ``True`` for a plain field,
    ``None`` when the model does not declare it (or no model is known)."""
    if not (isinstance(model, type) and issubclass(model, BaseModel)) or key not in model.model_fields:
        return None
    ann = model.model_fields[key].annotation
    return ann if isinstance(ann, type) and issubclass(ann, BaseModel) else True


def describe_validation_error(err: ValidationError) -> str:
    """One line naming the first bad field, its value and what is allowed."""
    e = err.errors()[0]
    field = ".".join(str(x) for x in e["loc"]) or "(top level)"
    if e["type"] == "extra_forbidden":
        return f"unknown config field: {field}"
    if e["type"] == "missing":
        return f"missing config field: {field}"
    return f"invalid value for {field}: {e.get('input')!r} ({e['msg']})"


def validate(model: type[M], data: dict[str, Any]) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise ConfigError(describe_validation_error(err)) from None


def load_config(model: type[M], game: str, path: str | Path | None = None, overrides: list[str] | None = None) -> M:
    """Load ``path`` (default ``configs/<game>/default.toml``), apply overrides, validate."""
    data = read_toml(path or CONFIG_DIR / game / "default.toml")
    for item in overrides or []:
        keys, value = parse_override(item)
        set_path(data, keys, value, model)
    return validate(model, data)


def config_hash(cfg: BaseModel) -> str:
    """Stable short hash of a validated config (its canonical JSON)."""
    blob = json.dumps(cfg.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
