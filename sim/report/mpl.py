"""matplotlib's pyplot on the Agg backend, loaded when the first chart is drawn, not when a module is imported.

matplotlib costs about a second of start-up; the chart modules are imported by every game adapter, so commands
that draw nothing (``describe``, ``combos``, ``play --no-report``, ``replay``) would pay it. ``plt`` stands in for
``matplotlib.pyplot``: the first attribute read imports it (``matplotlib.use("Agg")`` first: no display needed).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any


class _Pyplot:
    """``matplotlib.pyplot`` on first use."""

    _module: ModuleType | None = None

    def __getattr__(self, name: str) -> Any:
        if _Pyplot._module is None:
            import matplotlib  # heavy library (~1 s): only once a chart is drawn

            matplotlib.use("Agg")
            import matplotlib.pyplot

            _Pyplot._module = matplotlib.pyplot
        return getattr(_Pyplot._module, name)


plt: Any = _Pyplot()
