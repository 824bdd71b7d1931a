"""Saving the studio's edits: the whole config as TOML that ``--config`` loads, and the ``--set`` lines.

The TOML is written from the validated model (so it loads back to the same config hash); a header
names the file it started from and the ``--set`` lines that turn that file into this one.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import tomli_w

from sim.core.config import Strict


def _drop_none(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _drop_none(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [_drop_none(x) for x in v]
    return v


def config_toml(cfg: Strict, source: str | None, sets: list[str]) -> str:
    """The config as TOML with a header saying where it came from."""
    head = [f"# written by dicesim studio from {source or 'the default config'}"]
    if sets:
        head.append("# the same as: " + set_args(sets))
    return "\n".join(head) + "\n" + tomli_w.dumps(_drop_none(cfg.model_dump(mode="json")))


def set_args(sets: list[str]) -> str:
    """The ``--set`` arguments of a command line, shell-quoted."""
    return " ".join(f"--set {shlex.quote(s)}" for s in sets)


def save_config(path: Path, cfg: Strict, source: str | None, sets: list[str]) -> Path:
    """Write the TOML to ``path`` and the ``--set`` lines beside it (``<name>.set.txt``, one per line)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(config_toml(cfg, source, sets), encoding="utf-8")
    path.with_suffix(".set.txt").write_text("".join(f"{s}\n" for s in sets), encoding="utf-8")
    return path
