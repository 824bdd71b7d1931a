"""matplotlib's pyplot on the Agg backend, loaded when the first chart is drawn, not when a module is imported.

matplotlib costs about a second of start-up; the chart modules are imported by every game adapter, so commands
that draw nothing (``describe``, ``combos``, ``play --no-report``, ``replay``) would pay it. ``plt`` stands in for
``matplotlib.pyplot`` and ``ticker`` for ``matplotlib.ticker``: the first attribute read imports it
(``matplotlib.use("Agg")`` first: no display needed).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class _OnFirstUse:
    """A matplotlib module imported on its first attribute read (the Agg backend chosen before pyplot loads)."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        if self._module is None:
            import matplotlib  # heavy library (~1 s): only once a chart is drawn

            matplotlib.use("Agg")
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attr)


plt: Any = _OnFirstUse("matplotlib.pyplot")
ticker: Any = _OnFirstUse("matplotlib.ticker")  # axis formatters (% and pp ticks), as lazily
colors: Any = _OnFirstUse("matplotlib.colors")  # a colour scale's norm (a square-root heatmap), as lazily
