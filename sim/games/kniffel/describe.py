"""Kniffel's rule tables for ``describe``: its boxes and how many states the solver fills. Plain numpy (no
kernel): ``dicesim describe kniffel`` computes them with the rules as Python (``sim.cli.work.tables``)."""

from __future__ import annotations

from typing import Any

from sim.core.config import config_hash
from sim.games.kniffel import rules as R
from sim.games.kniffel.columns import table_columns as table_columns
from sim.games.kniffel.config import KniffelConfig, freeze
from sim.games.kniffel.states import state_levels

CONFIG = KniffelConfig  # the rules these tables read (sim.cli.work.tables loads them without the game)


def describe(cfg: KniffelConfig, options: dict[str, Any]) -> dict[str, Any]:
    """The boxes (name, label, section) and the solver's reachable state count under these rules."""
    rp = freeze(cfg)
    return {
        "game": "kniffel",
        "config_hash": config_hash(cfg),
        "config": cfg.model_dump(mode="json"),
        "categories": [
            {"box": n, "label": lab, "section": "upper" if i < 6 else "lower"}
            for i, (n, lab) in enumerate(zip(R.CATEGORIES, R.CATEGORY_LABELS, strict=True))
        ],
        "solver_states": int(sum(len(x) for x in state_levels(rp))),
    }
