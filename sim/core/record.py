"""A game's rule numbers as one numpy record, generated from its config model (the one declaration).

A kernel reads rule numbers by name from a record (``rp.path_elite_attack``), not by hand-numbered index
(``rp[RP_ELITE_ATT]``): ``RuleRecord`` walks the pydantic model and makes a field of every scalar leaf
(``int``, ``float``, ``bool``, a ``Literal`` choice as its index) under the config path with dots as underscores
(``path.elite_attack`` -> ``path_elite_attack``), in the model's own order, then adds the *derived* numbers a
game declares next to its freeze (a value computed from several fields, like a count of upgrades). A new field
in the model therefore reaches the kernel's record, its dtype and its freeze with no other edit.

A record of a one-element structured array is passed to numba by pointer: reading ``rp.x`` costs what
``rp[i]`` did, and the record carries no reference count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cached_property
from typing import Any, Literal, get_args, get_origin

import numpy as np
from pydantic import BaseModel

Derived = Callable[..., float | int | bool]
"""A derived number: ``f(cfg, **context)`` (context: what freeze knows besides the config, e.g. the difficulty)."""


def _scalar(annotation: Any) -> str | None:
    """The kind of a scalar leaf annotation: "float", "int", "bool", "literal", else None (lists, dicts, str)."""
    if annotation is bool:
        return "bool"
    if annotation is int:
        return "int"
    if annotation is float:
        return "float"
    if get_origin(annotation) is Literal:
        return "literal"
    return None  # pydantic has already moved ``Annotated`` ranges into the field's metadata


def _is_section(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def leaves(model: type[BaseModel], skip: Iterable[str] = ()) -> list[tuple[str, tuple[str, ...], str, Any]]:
    """(record name, config path, kind, annotation) of every scalar leaf of ``model``, sections walked in their
    declared order; a path in ``skip`` (a leaf or a whole section, dotted) is left out."""
    skipped = set(skip)
    out: list[tuple[str, tuple[str, ...], str, Any]] = []

    def walk(node: type[BaseModel], at: tuple[str, ...]) -> None:
        for key, field in node.model_fields.items():
            path = (*at, key)
            if ".".join(path) in skipped:
                continue
            ann = field.annotation
            if _is_section(ann):
                walk(ann, path)
                continue
            kind = _scalar(ann)
            if kind is not None:
                out.append(("_".join(path), path, kind, ann))

    walk(model, ())
    return out


class RuleRecord:
    """The record layout of a game's rule numbers and the freeze that fills it.

    ``dtype`` is one numpy dtype for every field (the kernels' arithmetic stays what it was: Würfel Dungeon
    reads float64, Kniffel int64) or None for each field's own (int64 for ints and bools, float64 for floats).
    """

    def __init__(self, model: type[BaseModel], *, skip: Iterable[str] = (), derived: Mapping[str, Derived] | None
                 = None, dtype: type | np.dtype | None = None) -> None:
        self.model = model
        self.skip = tuple(skip)
        self.derived = dict(derived or {})
        self.uniform = None if dtype is None else np.dtype(dtype)
        names = [n for n, *_ in self.leaves] + list(self.derived)
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"record fields named twice: {', '.join(twice)} (rename the derived number)")

    def like(self, model: type[BaseModel]) -> RuleRecord:
        """The same layout (skip, derived numbers, dtype) for another model, e.g. a subclass with a new field: what
        the record of that model would be had the game declared it."""
        return RuleRecord(model, skip=self.skip, derived=self.derived, dtype=self.uniform)

    @cached_property
    def leaves(self) -> list[tuple[str, tuple[str, ...], str, Any]]:
        return leaves(self.model, self.skip)

    def _field_dtype(self, kind: str) -> np.dtype:
        if self.uniform is not None:
            return self.uniform
        return np.dtype(np.float64 if kind == "float" else np.int64)

    @cached_property
    def dtype(self) -> np.dtype:
        fields = [(n, self._field_dtype(kind)) for n, _, kind, _ in self.leaves]
        fields += [(n, self.uniform or np.dtype(np.float64)) for n in self.derived]
        return np.dtype(fields)

    @property
    def names(self) -> tuple[str, ...]:
        return self.dtype.names or ()

    def freeze(self, cfg: BaseModel, **context: Any) -> np.ndarray:
        """``cfg`` as a one-element structured array of ``dtype`` (the kernel reads ``rec[0].path_elite_attack``)."""
        rec = np.zeros(1, self.dtype)
        for name, path, kind, ann in self.leaves:
            value: Any = cfg
            for key in path:
                value = getattr(value, key)
            rec[name] = get_args(ann).index(value) if kind == "literal" else value
        for name, f in self.derived.items():
            rec[name] = f(cfg, **context)
        return rec

    def choice(self, path: str, value: str) -> int:
        """The code of ``value`` in the ``Literal`` field at dotted ``path`` (what the record holds for it)."""
        for _, p, kind, ann in self.leaves:
            if ".".join(p) == path and kind == "literal":
                return get_args(ann).index(value)
        raise KeyError(f"{path} is not a choice field of {self.model.__name__}")
