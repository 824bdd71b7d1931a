"""JSON for numpy values, without importing pandas or the report: the commands that print a JSON answer
(``describe``, ``combos``) use it before any table library is loaded."""

from __future__ import annotations

import json
import math
from typing import Any


def json_default(o: Any) -> Any:
    """JSON for numpy scalars and arrays (and anything else as its string)."""
    if getattr(o, "ndim", 0) > 0 and hasattr(o, "tolist"):  # an array (``item`` takes only one of size 1)
        return o.tolist()
    if hasattr(o, "item"):
        return o.item()
    return str(o)


def finite(obj: Any) -> Any:
    """``obj`` with every NaN or infinite float as ``null``: ``NaN`` is not JSON, and strict parsers (a browser's
    ``JSON.parse``, jq) refuse the whole object over one undefined interval."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    return obj


def strict_json(obj: Any, default: Any = json_default, **kw: Any) -> str:
    """``obj`` as JSON every parser reads: numpy values by ``default``, NaN and infinities as ``null``."""
    plain = json.loads(json.dumps(obj, default=default))
    return json.dumps(finite(plain), allow_nan=False, **kw)


NUMBER_KEYS = ("value", "ci95")  # a measured number and its interval: ``null`` written for NaN reads back as NaN


def _nan_for_null(obj: dict[str, Any]) -> dict[str, Any]:
    for key in NUMBER_KEYS:
        v = obj.get(key)
        if key in obj and v is None:
            obj[key] = math.nan
        elif isinstance(v, list) and key == "ci95":
            obj[key] = [math.nan if x is None else x for x in v]
    return obj


def numbers(obj: Any) -> Any:
    """``obj`` (a summary from ``finite``) with its measured numbers' ``null`` as NaN again, as ``read_numbers``."""
    if isinstance(obj, dict):
        return _nan_for_null({k: numbers(v) for k, v in obj.items()})
    if isinstance(obj, list):
        return [numbers(v) for v in obj]
    return obj


def read_numbers(text: str) -> Any:
    """JSON written by ``strict_json``, its measured numbers as the tables had them: a metric's ``value`` or
    ``ci95`` written as ``null`` (undefined: one run has no interval) reads back as NaN, which every reader of a
    metric knows; any other ``null`` stays None."""
    return json.loads(text, object_hook=_nan_for_null)
