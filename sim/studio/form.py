"""The config form, generated from a game's pydantic config model (never from a hand-written field list).

``field_specs(model, data)`` walks the model beside a loaded config and yields one ``FieldSpec`` per
editable leaf: its dotted path (the ``--set`` path), the input kind, the model's bounds and choices, its
description and whether the config lists it as *assumed*. Tables keyed by name (``dict[str, Model]``,
e.g. Würfel Dungeon's enemies) take their keys from the loaded config, so a new field in a model, or a
new enemy in a TOML file, appears in the studio without touching it.

An edit travels as the text a designer would type after ``--set path=``: ``set_line`` builds that line,
so the studio validates and plays exactly what the CLI would.
"""

from __future__ import annotations

import json
import math
import types
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

SKIPPED = ("name", "assumed")  # identity and bookkeeping, not rule numbers


@dataclass(frozen=True)
class FieldSpec:
    """One input of the form."""

    path: str  # dotted, as in ``--set path=value``
    kind: str  # int | float | bool | choice | text | list
    value: Any  # the loaded config's value
    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False  # gt rather than ge
    hi_open: bool = False
    choices: tuple[str, ...] = ()
    description: str = ""
    assumed: bool = False

    @property
    def section(self) -> str:
        return self.path.split(".", 1)[0]

    @property
    def group(self) -> str:
        """The path without its last key: the sub-table the input sits in."""
        return self.path.rsplit(".", 1)[0] if "." in self.path else ""

    @property
    def label(self) -> str:
        return self.path.rsplit(".", 1)[-1]

    @property
    def numeric(self) -> bool:
        return self.kind in ("int", "float")

    def bounds_text(self) -> str:
        """``0 < x ≤ 100`` from the model's ge/gt/le/lt ('' when unbounded)."""
        if self.lo is None and self.hi is None:
            return ""
        left = "" if self.lo is None else f"{self.lo:g} {'<' if self.lo_open else '≤'} "
        right = "" if self.hi is None else f" {'<' if self.hi_open else '≤'} {self.hi:g}"
        return f"{left}x{right}"

    def display(self, value: Any | None = None) -> str:
        """The value as the text of its input (TOML for lists and tables, plain for the rest)."""
        v = self.value if value is None else value
        if v is None:  # an optional field left unset: an empty input
            return ""
        if self.kind in ("list", "text") and not isinstance(v, str):
            return toml_value(v)
        if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
            return repr(v)
        return str(v)


def toml_value(v: Any) -> str:
    """A JSON-ready value as a TOML value (inline tables and arrays for nested data)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{toml_key(str(k))} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"no TOML form for {v!r}")


def toml_key(k: str) -> str:
    """A bare TOML key where allowed, else a quoted one."""
    return k if k and all(c.isalnum() and c.isascii() or c in "_-" for c in k) else json.dumps(k, ensure_ascii=False)


def _strip_optional(ann: Any) -> Any:
    if get_origin(ann) in (Union, types.UnionType):
        args = [a for a in get_args(ann) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return ann


def _is_model(ann: Any) -> bool:
    return isinstance(ann, type) and issubclass(ann, BaseModel)


def _bounds(info: FieldInfo) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for m in info.metadata:
        for attr, key, is_open in (("ge", "lo", False), ("gt", "lo", True), ("le", "hi", False), ("lt", "hi", True)):
            v = getattr(m, attr, None)
            if v is not None:
                out[key] = float(v)
                out[f"{key}_open"] = is_open
    return out


def _leaf(path: str, ann: Any, info: FieldInfo | None, value: Any, assumed: bool) -> FieldSpec:
    extra = _bounds(info) if info is not None else {}
    desc = (info.description or "") if info is not None else ""
    if get_origin(ann) is Literal:
        return FieldSpec(path, "choice", value, choices=tuple(str(a) for a in get_args(ann)), description=desc,
                         assumed=assumed)
    if ann is bool:
        return FieldSpec(path, "bool", value, description=desc, assumed=assumed)
    if ann is int:
        return FieldSpec(path, "int", value, description=desc, assumed=assumed, **extra)
    if ann is float:
        return FieldSpec(path, "float", value, description=desc, assumed=assumed, **extra)
    if get_origin(ann) in (list, tuple):
        lengths = [f"{getattr(m, 'min_length', None)}..{getattr(m, 'max_length', None)}" for m in
                   (info.metadata if info is not None else []) if getattr(m, "min_length", None) is not None]
        hint = f"{desc} (TOML array{', ' + lengths[0].replace('None', '') + ' items' if lengths else ''})".strip()
        return FieldSpec(path, "list", value, description=hint, assumed=assumed)
    return FieldSpec(path, "text", value, description=desc, assumed=assumed)


def is_assumed(path: str, assumed: list[str]) -> bool:
    """A path is assumed when it, or a table above it, is listed in the config's ``assumed``."""
    keys = path.split(".")
    return any(".".join(keys[:i]) in assumed for i in range(1, len(keys) + 1))


def field_specs(model: type[BaseModel], data: dict[str, Any], assumed: list[str] | None = None,
                prefix: str = "") -> list[FieldSpec]:
    """Every editable leaf of ``model`` with the values of ``data`` (a loaded config's ``model_dump``)."""
    assumed = list(data.get("assumed", []) if assumed is None else assumed)
    out: list[FieldSpec] = []
    for key, info in model.model_fields.items():
        if (not prefix and key in SKIPPED) or key not in data:  # not in the dump: [skill]'s population at defaults
            continue
        path = f"{prefix}.{key}" if prefix else key
        ann = _strip_optional(info.annotation)
        value = data.get(key)
        if _is_model(ann) and isinstance(value, dict):
            out.extend(field_specs(ann, value, assumed, path))
        elif get_origin(ann) is dict and isinstance(value, dict):
            inner = _strip_optional(get_args(ann)[1])
            for k, v in value.items():
                sub = f"{path}.{k}"
                if _is_model(inner) and isinstance(v, dict):
                    out.extend(field_specs(inner, v, assumed, sub))
                else:
                    out.append(_leaf(sub, inner, None, v, is_assumed(sub, assumed)))
        else:
            out.append(_leaf(path, ann, info, value, is_assumed(path, assumed)))
    return out


def set_line(spec: FieldSpec, text: Any) -> str:
    """The ``--set`` line for an input's content, as the CLI would read it.

    Numbers, lists and tables go through as typed (the CLI reads them as TOML, so a typo gets the CLI's
    message); strings and choices are quoted so that a word such as ``true`` stays a string.
    """
    if spec.kind == "bool":
        return f"{spec.path}={'true' if text in (True, 'true') else 'false'}"
    raw = "" if text is None else str(text).strip()
    if spec.kind == "choice" or (spec.kind == "text" and isinstance(spec.value, str)):
        return f"{spec.path}={json.dumps(raw, ensure_ascii=False)}"
    return f"{spec.path}={raw}"


def changed(spec: FieldSpec, text: Any) -> bool:
    """Whether an input's content differs from the loaded value (so it becomes a ``--set`` line)."""
    if spec.kind == "bool":
        return bool(text) != bool(spec.value)
    return str(text).strip() != spec.display()
