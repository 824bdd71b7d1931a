"""Per-run tables declared once: a game lists its columns as ``Column(name, dtype, doc)`` and the engine packs
and checks every chunk against that declaration.

Why: the names of a game's table used to live in several places (a name list beside the kernel, an unpack loop
in ``simulate``, dtype special cases), kept in step by hand. Now a game's ``play_chunk`` returns its kernel's
output as *blocks* in declared order (a 1-D array is one column, a 2-D array as many columns as it is wide) and
``pack`` names and casts them; a miscount is an error at once, not a silently shifted column.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

CATEGORY = "category"
STR = "str"


@dataclass(frozen=True)
class Column:
    """One per-run column: its name, numpy dtype name (or ``"category"`` / ``"str"`` for labels) and meaning."""

    name: str
    dtype: str
    doc: str = ""


def columns_of(names: Sequence[str], dtype: str, doc: str = "") -> tuple[Column, ...]:
    """Several columns of one dtype (``doc`` may use ``{name}``)."""
    return tuple(Column(n, dtype, doc.format(name=n)) for n in names)


def _is_categorical(values: Any) -> bool:
    """Without importing pandas (``dicesim solve`` never loads it): a pandas Categorical or a categorical Series."""
    return type(values).__name__ == "Categorical" or str(getattr(values, "dtype", "")) == CATEGORY


def _cast(values: Any, col: Column) -> np.ndarray | pd.Categorical:
    if col.dtype == CATEGORY:
        import pandas as pd  # heavy library (~0.4 s): `dicesim solve` and the refused-input path never need it

        return values if isinstance(values, pd.Categorical) else pd.Categorical(values)
    if col.dtype in (STR, "object"):  # labels; a DataFrame makes them its string dtype
        return np.asarray(values, dtype=object)
    arr = np.asarray(values)
    return arr if arr.dtype == np.dtype(col.dtype) else arr.astype(col.dtype)


def pack(columns: Sequence[Column], blocks: Sequence[Any]) -> dict[str, Any]:
    """Name the kernel's output by the declared order: each 1-D block is one column, each 2-D block
    ``[rows, k]`` the next ``k`` columns. Every column gets its declared dtype; all have the same length."""
    out: dict[str, Any] = {}
    i = 0
    for block in blocks:
        if _is_categorical(block) or np.ndim(block) == 1:
            parts = [block]
        elif np.ndim(block) == 2:
            parts = [block[:, j] for j in range(np.shape(block)[1])]
        else:
            raise ValueError(f"a table block must be 1-D or 2-D, got shape {np.shape(block)}")
        for values in parts:
            if i >= len(columns):
                raise ValueError(f"the kernel returned more than the {len(columns)} declared columns")
            out[columns[i].name] = _cast(values, columns[i])
            i += 1
    if i != len(columns):
        raise ValueError(f"the kernel returned {i} columns, {len(columns)} are declared (next: {columns[i].name})")
    check_lengths(out)
    return out


def check_lengths(part: dict[str, Any]) -> int:
    lengths = {len(v) for v in part.values()}
    if len(lengths) > 1:
        raise ValueError(f"columns of unequal length: {sorted(lengths)}")
    return lengths.pop() if lengths else 0


def validate(columns: Sequence[Column], part: dict[str, Any]) -> dict[str, Any]:
    """Check a chunk returned as a dict against the declaration: the same names in the same order, the declared
    dtypes, equal lengths. Returns the part (columns cast where the kernel gave another integer width)."""
    names = [c.name for c in columns]
    if list(part) != names:
        missing = [n for n in names if n not in part]
        extra = [n for n in part if n not in names]
        raise ValueError(f"table columns differ from the declaration: missing {missing}, undeclared {extra}"
                         if missing or extra else "table columns are not in the declared order")
    check_lengths(part)
    return {c.name: _cast(part[c.name], c) for c in columns}


def stored_problem(columns: Sequence[Column], frame: pd.DataFrame) -> str | None:
    """Why a stored per-run table cannot be this declaration's (``dicesim report`` reads tables back from a folder
    anyone may have edited): no rows, a declared column missing, or a number column holding text or gaps."""
    if len(frame) == 0:
        return "it has no rows"
    missing = [c.name for c in columns if c.name not in frame.columns]
    if missing:
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        return f"it lacks the column{'s' if len(missing) > 1 else ''} {', '.join(missing[:3])}{more}"
    for c in columns:
        if c.dtype in (STR, "object", CATEGORY):
            continue
        kind = frame[c.name].dtype.kind
        if kind not in "iufb":
            return f"its column {c.name} holds text, not numbers"
        if kind == "f" and np.dtype(c.dtype).kind in "iub" and frame[c.name].isna().any():
            return f"its column {c.name} has empty cells"
    if "seat" in frame.columns and frame["seat"].dtype.kind in "iuf":  # seats count from 0 (the seat metrics' names)
        seats = sorted({float(x) for x in frame["seat"].unique()})
        if seats != [float(k) for k in range(len(seats))]:
            shown = ", ".join(f"{x:g}" for x in seats[:4])
            return f"its seats are numbered {shown}, not 0, 1, … as a play numbers them"
    return None


def dtype_name(values: Any) -> str:
    if _is_categorical(values):
        return CATEGORY
    return str(np.asarray(values).dtype) if not hasattr(values, "dtype") else str(values.dtype)


def describe_columns(columns: Sequence[Column]) -> list[dict[str, str]]:
    """JSON-ready list of the columns (``describe``, docs)."""
    return [{"name": c.name, "dtype": c.dtype, "doc": c.doc} for c in columns]
