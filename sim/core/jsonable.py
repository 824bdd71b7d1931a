"""JSON for numpy values, without importing pandas or the report: the commands that print a JSON answer
(``describe``, ``combos``) use it before any table library is loaded."""

from __future__ import annotations

from typing import Any


def json_default(o: Any) -> Any:
    """JSON for numpy scalars and arrays (and anything else as its string)."""
    if getattr(o, "ndim", 0) > 0 and hasattr(o, "tolist"):  # an array (``item`` takes only one of size 1)
        return o.tolist()
    if hasattr(o, "item"):
        return o.item()
    return str(o)
