"""Configs: TOML files validated by per-game pydantic models, ``--set`` overrides, a stable hash.

Every rule number lives in ``configs/<game>/*.toml``. ``load_config`` reads a file (or the game's
default), applies ``path=value`` overrides, validates the result against the game's model (unknown
keys and wrong types are errors that name the field) and returns the validated model. Kernels get
the model frozen into numpy arrays by the game's own ``freeze``.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import math
import re
import tomllib
import types
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from annotated_types import Le, Lt
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic.fields import FieldInfo

from sim.core.errors import DicesimError as DicesimError  # re-exported: every part raises it from here
from sim.core.errors import one_line
from sim.core.limits import allowed_words, hidden_char, odd_name
from sim.core.names import game_name, policy_label
from sim.core.tomlfile import CONFIG_DIR as CONFIG_DIR  # re-exported: the default configs' folder
from sim.core.tomlfile import MAX_CONFIG_BYTES as MAX_CONFIG_BYTES  # re-exported: the file reading, light on its own
from sim.core.tomlfile import MAX_DEPTH, ConfigError, _depth, _short, read_toml
from sim.core.tomlfile import ROOT as ROOT  # paths written as ``configs/...`` (sweep files) resolve against this
from sim.core.tomlfile import parse_toml as parse_toml
from sim.core.tomlfile import shown_path as shown_path

M = TypeVar("M", bound=BaseModel)


MAX_MAGNITUDE = 1e15  # every number in a config: exact as a float and as an int64 in the kernels


def _numbers(value: Any, at: str = ""):
    """(where, number) for every int and float in a plain value (lists and tables walked; models are checked by
    their own fields)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield at, value
    elif isinstance(value, list | tuple):
        for i, x in enumerate(value):
            yield from _numbers(x, f"{at}[{i}]")
    elif isinstance(value, dict):
        for k, x in value.items():
            yield from _numbers(x, f"{at}.{k}")


class Strict(BaseModel):
    """Base for config sections: unknown keys are errors, values are checked strictly; no number anywhere (list
    entries and free-form tables included) may be NaN or infinite, or larger than ``MAX_MAGNITUDE``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    @field_validator("*", mode="before")
    @classmethod
    def _any_case(cls, v: Any, info: ValidationInfo) -> Any:
        """A rule's word in any case (``joker.mode=FREE``), as policy and option names are: the model's spelling."""
        words = _field_words(cls, info.field_name)
        if not words:
            return v
        if isinstance(v, list):
            return [_spelled(x, words) for x in v]
        return _spelled(v, words)

    @field_validator("*", mode="after")
    @classmethod
    def _in_range(cls, v: Any, info: ValidationInfo) -> Any:
        if _bounded(cls.model_fields[info.field_name]):  # its own range says what is allowed (seeds: below 2^64)
            return v
        for at, x in _numbers(v):
            where = f"{at.lstrip('.')} = " if at else ""
            if not math.isfinite(x):
                raise ValueError(f"{where}{x!r}: numbers must be finite")
            if abs(x) > MAX_MAGNITUDE:
                raise ValueError(f"{where}{_short(x)}: numbers must lie within ±1e15")
        return v


@functools.cache
def _field_words(model: type[BaseModel], name: str) -> tuple[str, ...]:
    """``_words`` of a model's field, worked out once (every field of every config load asks)."""
    return _words(model.model_fields[name].annotation)


def _words(annotation: Any) -> tuple[str, ...]:
    """The words a field takes: a ``Literal`` of strings, in a list or an optional too (none for any other field)."""
    origin = get_origin(annotation)
    if origin is Literal:
        return tuple(a for a in get_args(annotation) if isinstance(a, str))
    if origin in (list, Union, types.UnionType):
        return tuple(w for a in get_args(annotation) for w in _words(a))
    return ()


def _spelled(v: Any, words: tuple[str, ...]) -> Any:
    """``v`` as the one word it matches in any case (``FREE`` is ``free``); anything else left for the check to say."""
    if not isinstance(v, str) or v in words:
        return v
    same = [w for w in words if w.casefold() == v.casefold()]
    return same[0] if len(same) == 1 else v


def rule_notes(cfg: Strict) -> list[str]:
    """``GameConfig.notes`` of a game's rules (none for a config that is not a game's)."""
    return cfg.notes() if isinstance(cfg, GameConfig) else []


def _bounded(field: FieldInfo) -> bool:
    return any(isinstance(m, Le | Lt) for m in field.metadata)


def _non_zero_sum(v: list[float]) -> list[float]:
    if v and sum(v) <= 0:
        raise ValueError("the weights must not all be 0")
    return v


def _plain_text(v: str) -> str:
    """A title or a name a page and a terminal show: no control character (a NUL went raw into report.html and made it
    binary to grep), direction mark or other invisible one; a line break or a tab only in free text (``Prose``)."""
    odd = hidden_char(v, "\n\t")
    if odd is not None:
        raise ValueError(f"holds a control character (U+{ord(odd):04X}: a tab, a direction mark or another invisible "
                         "one)")
    return v


def _one_line(v: str) -> str:
    if "\n" in v or "\t" in v:  # a chart's legend drew a tab as a missing glyph, with four warnings
        raise ValueError("holds a line break or a tab: a name is one line of text")
    return _plain_text(v)


Prose = Annotated[str, AfterValidator(_plain_text)]  # a description: lines, no hidden characters
Name = Annotated[str, AfterValidator(_one_line)]  # a title or a name: one line, no hidden characters


def _whole(v: Any) -> Any:
    """A whole number written as TOML reads ``2e4`` or ``20000.0`` (a float), as the command line's ``--n 2e4`` is."""
    return int(v) if isinstance(v, float) and v.is_integer() and abs(v) <= 2**63 else v


Whole = Annotated[int, BeforeValidator(_whole)]  # a count in a file: 20000, 2e4, 20_000
NonNegative = Annotated[float, Field(ge=0)]
Weights = Annotated[list[NonNegative], AfterValidator(_non_zero_sum)]
"""Draw weights: each >= 0, not all 0 (a length, where the rules fix one, on the field)."""
Prices = list[NonNegative]
Seed = Annotated[int, Field(ge=0, lt=2**64)]
"""A master seed: 0 .. 2^64 - 1 (``sim.core.limits``)."""
GameName = Annotated[str, AfterValidator(game_name)]
"""A game in a file as on the command line: any case (``Kniffel`` is ``kniffel``)."""
PolicyLabel = Annotated[str, AfterValidator(policy_label)]
"""A policy (or a comma list of seats) in a file as on the command line: any case, spaces around commas."""


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

    @field_validator("name")
    @classmethod
    def _this_game(cls, v: str) -> str:
        game = cls.model_fields["name"].default
        if isinstance(game, str) and v != game:
            raise ValueError(f"a {game} config must be named {game!r}")
        return v

    def metric_names(self, options: dict[str, Any], seats: list[str]) -> list[str] | None:
        """Every metric a batch of these rules reports for these options and seat policies, in the game's order
        (``Game.metrics``' keys, exactly: ``tests/test_metric_names.py`` compares them with real batches), so that
        calibrate, tune, check and sweep refuse an unknown metric before any run. None: the game declares none."""
        return None

    def notes(self) -> list[str]:
        """What these rules do against the seed's design though the rules allow it (a level easier than the one below
        it), one sentence each: said beside a calibrated or tuned value, which may have moved a field there."""
        return []

    @field_validator("assumed")
    @classmethod
    def known_paths(cls, v: list[str]) -> list[str]:
        for path in v:
            node: Any = cls
            for key in path.split("."):
                node = _field_type(node, key)
                if node is None:
                    raise ValueError(f"assumed names an unknown field: {path}")
        twice = next((p for i, p in enumerate(v) if p in v[:i]), None)
        if twice is not None:  # listed twice on every page that lists the assumed values
            raise ValueError(f"assumed names {twice} twice")
        return v


def value_at(tree: dict[str, Any] | None, path: str) -> Any:
    """The value at a dotted path of a dumped config (``bonus.value``), else None."""
    node: Any = tree
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def toml_literal(v: Any) -> str:
    """A Python value (as read from TOML) written back as a TOML value for ``--set``-style overrides (names in their
    own letters: ``"Grünlinge"``, not ``"Gr\\u00fcnlinge"``)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        if isinstance(v, float) and not math.isfinite(v):
            return ("nan" if math.isnan(v) else ("inf" if v > 0 else "-inf"))
        if isinstance(v, float) and 1e-15 <= abs(v) < 1e-4:  # written out, as a person reads it: 0.00001, not 1e-05
            return format(Decimal(repr(v)), "f")  # the same shortest digits: read back, the same float
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_literal(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_literal(x)}" for k, x in v.items()) + "}"
    raise ConfigError(f"cannot use {v!r} as a config value")


def whole_numbers(v: Any) -> Any:
    """``v`` with every whole float as an int (``40.0`` -> ``40``, in lists and tables too), as a person writes it: a
    float field (an enemy's LP) holds ``40.0`` and takes ``40`` back."""
    if isinstance(v, float) and math.isfinite(v) and v.is_integer() and abs(v) < 1e15:
        return int(v)
    if isinstance(v, list | tuple):
        return [whole_numbers(x) for x in v]
    if isinstance(v, dict):
        return {k: whole_numbers(x) for k, x in v.items()}
    return v


def changed_fields(base: Any, now: Any, at: str = "") -> list[str]:
    """``path=value`` overrides that turn the dumped config ``base`` into ``now`` (as ``--set`` takes them; whole
    numbers without ``.0``)."""
    if isinstance(base, dict) and isinstance(now, dict) and (set(base) <= set(now) or set(now) <= set(base)):
        # a field a dump leaves out at its default (skill.games_per_player) is one field changed, not its table
        return [s for k in now if k in base for s in changed_fields(base[k], now[k], f"{at}{k}.")] + [
            f"{at}{k}={toml_literal(whole_numbers(now[k]))}" for k in now if k not in base] + [
            f"{at}{k} at its default" for k in base if k not in now]
    return [] if base == now else [f"{at.rstrip('.')}={toml_literal(whole_numbers(now))}"]


def rules_said(base: dict[str, Any], now: dict[str, Any], most: int = 4) -> str:
    """Which rules a run played, for a heading: ``the default rules``, or the fields changed from them
    (``bonus.value=40, joker.mode="free"``, the first ``most`` and how many more), so two outputs of different
    rules never read alike. ``assumed`` (a list of notes, not a rule) does not count."""
    changed = changed_fields({k: v for k, v in base.items() if k != "assumed"},
                             {k: v for k, v in now.items() if k != "assumed"})
    if not changed:
        return "the default rules"
    more = f" and {len(changed) - most} more" if len(changed) > most else ""
    # a long value (a fitted population's skill groups) cut: the heading tells outputs apart, the config holds it
    shown = [c if len(c) <= SAID_MAX else c[: SAID_MAX - 1] + "…" for c in changed[:most]]
    return "changed: " + ", ".join(shown) + more


SAID_MAX = 60  # characters of one changed field in a heading


QUANTILES = ("p10", "p25", "p50", "p75", "p90")  # ``sim.core.stats.quantiles``' names of its default quantiles


def seat_rates(seats: list[str]) -> list[str]:
    """``win_rate_seat_k`` for each seat of a seated game (counted from 0, as the table's ``seat`` column)."""
    return [f"win_rate_seat_{s}" for s in range(len(seats))]


def policy_rates(seats: list[str]) -> list[str]:
    """``win_rate_<policy>`` for each distinct seat policy, in name order (as ``DataFrame.groupby`` gives them)."""
    return [f"win_rate_{p}" for p in sorted(set(seats))]


def policy_shares(seats: list[str]) -> list[str]:
    """``game_share_<policy>`` for each distinct seat policy of a mixed table (``sim.core.stats.game_shares``)."""
    return [f"game_share_{p}" for p in sorted(set(seats))] if len(set(seats)) > 1 else []


def parse_override(item: str) -> tuple[list[str], Any]:
    """``'a.b=3'`` -> (['a', 'b'], 3); the value is read as a TOML value (bare words as strings)."""
    if "=" not in item:
        raise ConfigError(f"--set expects path=value, got {item!r}")
    path, raw = (x.strip() for x in item.split("=", 1))
    if not path or not all(path.split(".")):
        raise ConfigError(f"--set has an empty field name in {item!r}")
    if any(c in item for c in "\n\r\x00"):  # TOML would read the first line and the rest as more keys, unsaid
        raise ConfigError(f"--set {item.splitlines()[0][:40] if item.strip() else '?'}…: holds a line break or NUL "
                          "character; give one path=value per --set")
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw  # a bare word such as forced
    except ValueError:  # an integer of thousands of digits (Python's int conversion limit)
        raise ConfigError(f"--set {path}: the number has too many digits") from None
    except RecursionError:
        value = None
    if isinstance(value, float) and math.isinf(value) and "inf" not in raw.lower():  # 1e400 reads as inf
        raise ConfigError(f"--set {path}: {raw[:40]} is too large for a number")
    if isinstance(value, float) and value == 0 and any(c in "123456789" for c in raw.lower().split("e")[0]):
        raise ConfigError(f"--set {path}: {raw[:40]} is too small for a number (it would read as 0)")
    if value is None or _depth(value) > MAX_DEPTH:
        raise ConfigError(f"--set {path}: the value nests deeper than {MAX_DEPTH} levels")
    return _keys(path), value


def _keys(path: str) -> list[str]:
    """A field path's keys: split at its dots, or with quotes as a TOML dotted key reads it (``"goal".target``,
    ``rooms.bosses."5"``)."""
    if '"' not in path and "'" not in path:
        return path.split(".")
    try:
        node: Any = tomllib.loads(f"{path} = 0")
    except tomllib.TOMLDecodeError:
        raise ConfigError(f"--set {path[:40]}: not a field path (write it as a.b, or \"a\".b)") from None
    keys = []
    while isinstance(node, dict) and len(node) == 1:
        (k, node), = node.items()
        keys.append(k)
    if node != 0 or not keys:
        raise ConfigError(f"--set {path[:40]}: not a field path (write it as a.b, or \"a\".b)")
    return keys


def set_path(data: dict[str, Any], keys: list[str], value: Any, model: type[BaseModel] | None = None) -> None:
    """Set ``data[k0][k1]... = value``; the path must exist in ``data`` or, given ``model``, be a field the model
    declares (a section a user file leaves out, e.g. ``[skill]``, takes its defaults): no silently new keys. An
    entry of a name-keyed table (``talents.scharfe_klingen``) must be one the file has; its fields are its model's
    (``talents.scharfe_klingen.shield_flat`` where the file leaves that field at its default). A table set into a
    section (``joker={when_zero=true}``) sets the fields it names and keeps the others, as a sweep's ``set`` does; a
    mapping (``rooms.bosses={5="wuerfelfresser"}``) or a name-keyed table is the table given."""
    node, root_model = data, model
    for i, k in enumerate(keys):
        if isinstance(model, _Entries) and k not in node:  # a new entry of a name-keyed table: not by --set
            raise ConfigError(f"unknown config field: {'.'.join(keys[: i + 1])} (no {k!r} in {'.'.join(keys[:i])}"
                              f"{_did_you_mean(k, node, None)})")
        parent = model
        model = _field_model(model, k)
        last = i == len(keys) - 1
        if k not in node and model is not None:  # declared by the model but absent from the file
            node[k] = value if last else {}
        if last:
            if k not in node:
                raise ConfigError(f"unknown config field: {'.'.join(keys)}"
                                  f"{odd_name(k) or _did_you_mean(k, node, parent, True)}")
            section = isinstance(model, type) and issubclass(model, BaseModel)  # not a mapping (rooms.bosses)
            if section and isinstance(value, dict) and isinstance(node[k], dict):  # a table into it: fields merged
                if not value:  # (replacing the section put every field it leaves out back to the model's default)
                    raise ConfigError(f"{'.'.join(keys)} = {{}} sets no field: give one, e.g. {'.'.join(keys)}.NAME="
                                      "VALUE")
                for sub, v in value.items():
                    set_path(data, [*keys, sub], v, root_model)
                return
            node[k] = value
        elif k in node and not isinstance(node[k], dict):  # bonus.value.deep: bonus.value holds a value
            raise ConfigError(f"unknown config field: {'.'.join(keys)} ({'.'.join(keys[: i + 1])} is a value, "
                              "not a section)")
        elif not isinstance(node.get(k), dict):
            raise ConfigError(f"unknown config field: {'.'.join(keys[: i + 1])}"
                              f"{odd_name(k) or _did_you_mean(k, node, parent, True)}")
        else:
            node = node[k]


def _did_you_mean(key: str, node: dict[str, Any], model: Any, bracket: bool = False) -> str:
    """`` (did you mean value?)`` for a mistyped key: the closest of the keys the file has there and the fields its
    model declares (difflib's ratio, as Python's own NameError hints); empty where none is close."""
    names = set(node) if isinstance(node, dict) else set()
    if isinstance(model, type) and issubclass(model, BaseModel):
        names |= set(model.model_fields)
    lower = {str(n).lower(): str(n) for n in sorted(names, key=str)}  # "HP" is a typo of "hp" too
    close = difflib.get_close_matches(key.lower(), list(lower), n=1, cutoff=0.75)
    if not close:  # nothing close: what there is, where it is few enough to read in one line
        shown = sorted(str(n) for n in names if n != "assumed")
        return f" (known: {', '.join(shown)})" if bracket and 0 < len(shown) <= SHOWN_NAMES else ""
    return f" (did you mean {lower[close[0]]}?)" if bracket else f"; did you mean {lower[close[0]]}?"


SHOWN_NAMES = 14  # the names an unknown field's error lists beside it, at most


class _Entries:
    """A name-keyed table's field (``talents: dict[str, Talent]``): each key is an entry of ``model``."""

    def __init__(self, model: type[BaseModel]):
        self.model = model


def _field_model(model: Any, key: str) -> Any:
    """``model``'s field ``key``: its model class when the field is a section, ``_Entries`` when it is a table of
    named sections, ``True`` for a plain field, ``None`` when the model does not declare it (or no model is known);
    under ``_Entries`` every key is an entry of its model."""
    if isinstance(model, _Entries):
        return model.model
    if not (isinstance(model, type) and issubclass(model, BaseModel)) or key not in model.model_fields:
        return None
    ann = model.model_fields[key].annotation
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return ann
    args = get_args(ann)
    if get_origin(ann) is dict and len(args) == 2 and isinstance(args[1], type) and issubclass(args[1], BaseModel):
        return _Entries(args[1])
    return True


def describe_validation_error(err: ValidationError, kind: str = "config", model: Any = None) -> str:
    """One short line (cut as every error line is, ``sim.core.errors.one_line``) naming the first bad field, its
    value and what is allowed.
    A check across fields (a model validator) names its fields itself: its message alone, never the whole input.
    ``model``: the model validated, whose fields an unknown one's hint names (as ``--set``'s does)."""
    e = err.errors()[0]
    loc = e["loc"]
    field = "".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in loc).lstrip(".") or "(top level)"
    if kind != "config" and len(loc) > 2 and isinstance(loc[1], int) and all(isinstance(x, str) for x in loc[::2]):
        field = f"{'.'.join(map(str, loc[2:]))} of {loc[0]} {loc[1] + 1}"  # a file's [[target]]: counted as its own
        # messages count them ("target 2 (its name): …"), from 1 and in the file's order
    if e["type"] == "extra_forbidden":
        return one_line(f"unknown {kind} field: {field}{odd_name(str(loc[-1])) if loc else ''}"
                    f"{_hint(model, loc) if loc and not odd_name(str(loc[-1])) else ''}")
    if e["type"] == "missing":
        return one_line(f"missing {kind} field: {field}")
    msg = e["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
    msg = re.sub(r"\b0\.0{4,}\d+", lambda m: f"{float(m.group()):g}", msg)  # pydantic's 0.000000000000001: 1e-15
    value = e.get("input")
    if not loc and e["type"] in ("value_error", "assertion_error"):
        return one_line(msg)
    if isinstance(value, dict | BaseModel) and not e["type"].endswith("_type"):  # a section's own check: its message
        # alone, not the section; a table where a number belongs (``--set bonus.value={a=1}``) is shown below
        return one_line(f"invalid {field}: {msg}")
    allowed = allowed_words(e)
    return one_line(f"invalid value for {field}: {_short(value)} ({f'must be {allowed}' if allowed else msg})")


def _hint(model: Any, loc: tuple) -> str:
    """A file's unknown field as ``--set`` hints it: the close name, or the names there (``known: …``)."""
    for k in loc[:-1]:
        model = _field_model(model, str(k)) if not isinstance(k, int) else model
        if isinstance(model, _Entries):
            return ""  # a name-keyed table: any name is an entry
    return _did_you_mean(str(loc[-1]), {}, model, True) if isinstance(model, type) else ""


def validate(model: type[M], data: dict[str, Any]) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise ConfigError(describe_validation_error(err, model=model)) from None


def revalidated(cfg: M) -> M:
    """A config object checked again, as a file is: pydantic's ``model_copy(update=...)`` makes one without
    validation (``dice.sides=1`` played every game as a draw), so the Python API checks what it is handed."""
    try:
        return type(cfg).model_validate(cfg.model_dump())
    except ValidationError as err:
        raise ConfigError(f"config: {describe_validation_error(err)}") from None


def sets_a_value(data: dict[str, Any]) -> bool:
    """Whether a parsed config file sets any value (empty, only comments or only empty sections: none)."""
    return any(not isinstance(v, dict) or sets_a_value(v) for v in data.values())


def load_config(model: type[M], game: str, path: str | Path | None = None, overrides: list[str] | None = None) -> M:
    """Load ``path`` (default ``configs/<game>/default.toml``), apply overrides, validate. A file that sets no
    value is the default config (its hash and assumed values too): it read 'missing config field: combos' for a game
    whose rules have no defaults of their own, and another hash than the default for the others."""
    data = read_toml(path or CONFIG_DIR / game / "default.toml")
    if path is not None and not sets_a_value(data):
        data = read_toml(CONFIG_DIR / game / "default.toml")
    seen: list[list[str]] = []
    for item in overrides or []:
        keys, value = parse_override(item)
        set_once(keys, seen)
        set_path(data, keys, value, model)
    try:
        return model.model_validate(data)
    except ValidationError as err:
        said = describe_validation_error(err, model=model)
        if path is not None and _in_file(err, seen):  # which file says it, where a designer keeps several
            said = f"{path}: {said}"
        raise ConfigError(said) from None


def _in_file(err: ValidationError, seen: list[list[str]]) -> bool:
    """Whether the first error is the file's own: a field no override set (nor a section around it or inside it);
    an error across fields only where nothing was overridden."""
    loc = [str(x) for x in err.errors()[0]["loc"]]
    if not loc:
        return not seen
    return not any(keys[: len(loc)] == loc[: len(keys)] for keys in seen)


def set_once(keys: list[str], seen: list[list[str]]) -> None:
    """Refuse an override of a field an earlier one set already (itself, or a section holding it, or a field
    inside it): the later one would silently win."""
    for old in seen:
        n = min(len(old), len(keys))
        if old[:n] == keys[:n]:
            a, b = ".".join(old), ".".join(keys)
            raise ConfigError(f"--set {b} is given twice" if a == b else f"--set {a} and --set {b} overlap: set "
                              "each field once")
    seen.append(keys)


def config_hash(cfg: BaseModel) -> str:
    """Stable short hash of a validated config (its canonical JSON)."""
    blob = json.dumps(cfg.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def sections_hash(cfg: BaseModel, sections: tuple[str, ...]) -> str:
    """Stable short hash of some top-level sections of a config: the key of a solved table, which depends on the
    rules a solver reads and not on the bots' parameters."""
    dump = cfg.model_dump(mode="json")
    blob = json.dumps({k: dump[k] for k in sections}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def field_value(cfg: Strict, dotted: str) -> Any:
    """The value of the config field at ``dotted`` (``difficulty.normal.hp``), None when there is none. Read from
    the model, not its dump: a dump leaves out what it need not say (``skill.games_per_player`` at 1), and that field
    was "unknown" to tune and "0" to calibrate."""
    node: Any = cfg
    for k in dotted.split("."):
        if isinstance(node, BaseModel):
            node = getattr(node, k) if k in type(node).model_fields else None
        elif isinstance(node, dict):
            node = node.get(k)
        else:
            return None
    return node.model_dump(mode="python") if isinstance(node, BaseModel) else node


def odd_field(dotted: str) -> str:
    """Why a dotted field name that reads like a known one is unknown (``limits.odd_name`` of its first odd part: a
    space at an end, a letter of another alphabet), empty when none is odd; a file's ``"bonus.value " = …`` read as
    ``unknown config field: bonus.value``, the space unseen."""
    return next((said for k in dotted.split(".") if (said := odd_name(k))), "")


def numeric_field(cfg: Strict, dotted: str, load: Any) -> int | float:
    """The value of a numeric field a search sets (``calibrate --field``); ``load(extra_sets)`` loads the config with
    more ``--set`` lines, so a wrong path is refused in the config's own words."""
    current = field_value(cfg, dotted)
    if current is None:
        if not odd_field(dotted):
            load([f"{dotted}=0"])  # raises "unknown config field: …" for a wrong path
        raise ConfigError(f"unknown config field: {dotted}{odd_field(dotted)}")
    if isinstance(current, bool) or not isinstance(current, int | float):
        raise ConfigError(f"--field {dotted} is not numeric (its value is {current!r})")
    return current


def field_setting(dotted: str, x: float, integer: bool) -> str:
    """The ``--set`` line a search writes for value ``x`` of a numeric field (whole numbers for an int field)."""
    return f"{dotted}={int(round(x)) if integer else float(x)!r}"


def search_bounds(current: int | float, dotted: str, lo: float | None, hi: float | None, load: Any) -> None:
    """``calibrate --lo/--hi``: values the field takes (whole numbers for an int field, accepted by the config:
    ``load(extra_sets)`` refuses in its own words) and ``lo`` below ``hi``; refused before any work."""
    integer = isinstance(current, int)
    for name, x in (("--lo", lo), ("--hi", hi)):
        if x is not None:
            if integer and float(x) != round(x):
                raise ConfigError(f"{name} must be a whole number for {dotted}, got {x}")
            try:
                load([field_setting(dotted, x, integer)])
            except ConfigError as e:  # said as the flag typed it ("--hi 1e+300: …", not a 60-digit field value)
                allowed = re.search(r"\((must be [^()]*)\)$", str(e))
                typed = str(int(x)) if float(x).is_integer() and abs(x) < 1e15 else repr(float(x))
                raise ConfigError(f"{name} {typed}: {dotted} {allowed[1]}" if allowed else str(e)) from None
    if lo is not None and hi is not None and not lo < hi:
        raise ConfigError(f"--lo must be below --hi, got {lo} and {hi}")
