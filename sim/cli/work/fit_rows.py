"""``dicesim fit``'s outcome rows checked before the game loads (issue 32's refusals within the latency goal): a game
fitted by its outcomes reads its outcome table and checks every row against the rules with numpy, pandas and the
config model alone (``sim.players.<game>_rows``); the game's kernels, numba and scipy load only for a table that
passes. The fit then reads and checks the table again, as every caller of ``fit_log`` has it checked."""

from __future__ import annotations

from pathlib import Path

from sim.cli.catalog import known
from sim.cli.work.rules import checked
from sim.core.config import Strict
from sim.players import dungeon24_rows, dungeon_rows
from sim.players.dungeon24_columns import OUTCOME_COLUMNS as DUNGEON24_COLUMNS
from sim.players.dungeon_columns import OUTCOME_COLUMNS as DUNGEON_COLUMNS
from sim.players.logs import read_table
from sim.players.schema import outcome_table

CHECKS = {"dungeon": (DUNGEON_COLUMNS, dungeon_rows.check_outcomes),
          "dungeon24": (DUNGEON24_COLUMNS, dungeon24_rows.check_outcomes)}


def checked_rows(game: str, log: Path, outcomes: Path | None, rules: Path | Strict | None,
                 sets: list[str] | None, force: bool) -> Path | Strict | None:
    """The config a fit of ``game`` plays (``rules`` as validated, or built here from ``--config``/``--set`` by its
    model), once the outcome table's rows are checked: ``--outcomes`` or the table beside ``log``, else ``log`` itself
    (the outcome table alone). A game without such a check gets ``rules`` back as it came."""
    e = known(game)
    if game not in CHECKS or e is None:
        return rules
    cfg = rules if isinstance(rules, Strict) else checked(e.config, game, rules, sets)
    table = outcome_table(log, outcomes)
    spec, check = CHECKS[game]
    path, flag = (log, "LOG") if table is None else (table, "--outcomes")
    check(cfg, read_table(path, flag, frozenset(c.name for c in spec), force), str(path))
    return cfg
