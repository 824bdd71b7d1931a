"""What a log's columns are and which games are fitted how: light (no numpy, pandas or game), so that the command
line reads a log's header and refuses a log without the columns its game needs before the game loads (issue 30).

``LogColumn`` declares one column; each game's columns are in ``sim.players.<game>_columns``; ``missing`` holds the
words of a missing-column refusal, which the full check (``sim.players.logs.columns``) and the header check
(``header_refusal``) both say.
"""

from __future__ import annotations

import csv
from collections.abc import Collection
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

from sim.core.errors import DicesimError
from sim.core.limits import MAX_LOG_ROWS

BY_DECISIONS = ("kniffel", "dadox")  # fitted by the likelihood of each decision (exact action values)
BY_OUTCOMES = ("dungeon", "dungeon24")  # fitted by their outcomes (no action values)
FITTED = (*BY_DECISIONS, *BY_OUTCOMES)
SUFFIXES = (".parquet", ".csv")
FIT_FILES = ("players.csv", "population.toml", "fit.json", "fit.html")  # what a fit writes in its folder
MIN_CSV_ROW = 8  # bytes a CSV log row takes at least (its required columns, commas and newline): a smaller file is
# under the row limit without counting its lines


class LogError(DicesimError):
    """A log that cannot be fitted: a missing column, an impossible state, an illegal choice, an unplayed player."""


@dataclass(frozen=True)
class LogColumn:
    """One column of a log: ``kind`` is ``int`` (whole numbers in ``[lo, hi]``), ``str`` or ``float`` (in ``[lo, hi]``
    where given)."""

    name: str
    kind: str
    doc: str
    lo: int | float | None = None
    hi: int | float | None = None
    required: bool = True


def level_column(note: str = "") -> LogColumn:
    """The outcome tables' ``level`` column: the skill level 0..1 the simulator played at (a level of 5 was taken)."""
    return LogColumn("level", "float", f"the level the simulator played at (simulated logs only{note})", 0, 1,
                     required=False)


def outcomes_path(log: Path) -> Path:
    """Where the simulator writes a log's outcome table: ``decisions.parquet`` -> ``decisions.outcomes.parquet``."""
    return log.with_name(f"{log.stem}.outcomes{log.suffix}")


def outcome_table(log: Path, outcomes: Path | None) -> Path | None:
    """The outcome table a fit of ``log`` reads: ``--outcomes``, else the one the simulator writes beside the log when
    it is there."""
    return outcomes if outcomes is not None or not outcomes_path(log).is_file() else outcomes_path(log)


def missing(names: Collection[str], spec: tuple[LogColumn, ...], where: str) -> LogError | None:
    """The refusal of a table whose columns ``names`` lack a required one of ``spec``, else None."""
    gone = [c.name for c in spec if c.required and c.name not in names]
    if not gone:
        return None
    return LogError(f"{where}: missing column{'s' if len(gone) > 1 else ''} {', '.join(gone)} (a log has "
                    f"{', '.join(c.name for c in spec if c.required)})")


def header(path: Path, force: bool) -> list[str] | None:
    """A log table's column names when its full read would get as far as its columns (a file, readable, within
    the row limit or ``force``), else None: the full read then says what is wrong."""
    try:
        if not path.is_file():
            return None
        if path.suffix.lower() == ".csv":
            if not force and path.stat().st_size >= MAX_LOG_ROWS * MIN_CSV_ROW:
                return None  # maybe over the row limit: the full read counts
            with open(path, newline="", encoding="utf-8-sig") as fh:  # pandas drops a byte-order mark too
                first = next(csv.reader(fh), None)
            return first or None  # none, or a blank first line (pandas reads the next): the full read decides
        if path.suffix.lower() == ".parquet":
            import pyarrow.parquet as pq  # pyarrow (~0.1 s): the schema and row count, not the table

            meta = pq.ParquetFile(path)
            if not force and meta.metadata.num_rows > MAX_LOG_ROWS:
                return None
            return list(meta.schema_arrow.names)
    except (OSError, ValueError, UnicodeError, csv.Error):  # unreadable: the full read says so in its words
        return None
    return None


def header_refusal(game: str, log: Path, outcomes: Path | None, force: bool) -> LogError | None:
    """``dicesim fit``'s refusal of a log without the columns its game needs, told from the headers alone (the same
    words as the full check, which would come to it first: both tables readable). ``LOG`` is a decision log, except
    for a game fitted by outcomes without an outcome table beside it: then it is that table. None where it cannot
    tell or the columns are there."""
    if game not in FITTED:
        return None
    outcomes = outcome_table(log, outcomes)
    names = header(log, force)
    if names is None or (outcomes is not None and header(outcomes, force) is None):
        return None
    cols = import_module(f"sim.players.{game}_columns")
    return missing(names, cols.OUTCOME_COLUMNS if game in BY_OUTCOMES and outcomes is None else cols.DECISION_COLUMNS,
                   str(log))
