"""The project's numba setup runs when numba is imported, not when ``sim`` is: ``import sim`` stays light.

The project's kernels need their own cache (``sim.jit.jitcache``) from the first function numba decorates in a
project module. :func:`when_numba_loads` (called by ``sim/__init__.py``) imports ``jitcache``, which installs itself,
at once when numba is already imported, else right after numba's own ``__init__`` has run: a one-shot finder at the
front of ``sys.meta_path`` finds numba's module spec as Python would and wraps that spec's loader's ``exec_module``
(the standard import protocol; nothing of numba is touched). A command that refuses its input before it needs numba
(``dicesim play kniffel --policy nope``) never imports numba at all. Nothing is written into ``os.environ``.
"""

from __future__ import annotations

import importlib.util
import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType


def _install() -> None:
    from sim.jit import jitcache  # noqa: F401  (imports numba.core, so only once numba is there; installs itself)


class _AfterNumba(MetaPathFinder):
    """Finds nothing itself: on the import of ``numba`` it removes itself and hands back numba's own spec, its loader
    set to run :func:`_install` after the module has executed."""

    def find_spec(self, fullname: str, path=None, target=None) -> ModuleSpec | None:
        if fullname != "numba":
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run = spec.loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            _install()

        spec.loader.exec_module = exec_module  # this spec's own loader object, made for this one import
        return spec


def when_numba_loads() -> None:
    """Install the project's kernel cache now if numba is imported, else as soon as it is (once)."""
    if "numba" in sys.modules:
        _install()
    elif not any(isinstance(f, _AfterNumba) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterNumba())
