"""Decision logs on disk: parquet or CSV, read column by column with every refusal naming its row.

A log is two tables (``docs/logs.md``): the decisions, one row per decision with the state before it and the choice
made, and the outcomes, one row per game played (score, winner). A game declares its columns as ``LogColumn``s; this
module reads a file into checked numpy columns and writes the simulator's own logs atomically. Rows are counted from
1 in the order of the file (a CSV's row N is its line N + 1, after the header).
"""

from __future__ import annotations

import datetime
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.core import atomic
from sim.core.errors import unreadable
from sim.core.limits import MAX_LOG_ROWS, hidden_char, short
from sim.players.schema import MIN_CSV_ROW as MIN_CSV_ROW
from sim.players.schema import SUFFIXES as SUFFIXES
from sim.players.schema import LogColumn as LogColumn
from sim.players.schema import LogError, missing
from sim.players.schema import outcomes_path as outcomes_path


def check_suffix(path: Path, flag: str = "LOG") -> None:
    if path.suffix.lower() not in SUFFIXES:
        raise LogError(f"{flag} {path}: a log is a .parquet or .csv file")


def write_table(df: pd.DataFrame, path: Path) -> Path:
    """One log table, atomically, as its suffix says."""
    check_suffix(path, "--log")
    atomic.make_folder(path.parent, "--log's folder")
    return atomic.write_csv(df, path) if path.suffix.lower() == ".csv" else atomic.write_parquet(df, path)




def count_rows(path: Path) -> int:
    """A table's rows without reading it: a parquet file's metadata, a CSV's lines after its header."""
    if path.suffix.lower() == ".csv":
        with open(path, "rb") as fh:
            return max(sum(block.count(b"\n") for block in iter(lambda: fh.read(1 << 24), b"")) - 1, 0)
    import pyarrow.parquet as pq  # pyarrow (heavy): pandas' parquet engine, here only for the row count

    return int(pq.ParquetFile(path).metadata.num_rows)


def read_table(path: Path, what: str, keep: frozenset[str] | None = None, force: bool = False) -> pd.DataFrame:
    """A log table as plain columns (CSV cells as text; the columns are converted and checked by ``columns``).

    Only the columns in ``keep`` are read (telemetry often has many more); a table over ``MAX_LOG_ROWS`` rows is
    refused before it is read, unless ``force``: memory grows with the rows, and a sample of the players fits the
    same level with an interval wider by √(rows / sample) only."""
    check_suffix(path, what)
    if not path.is_file():
        why = "a folder, not a file" if path.is_dir() else "not a plain file (a pipe or a device)" if path.exists() \
            else "no such file"
        raise LogError(f"{what} {path}: {why}")
    try:
        small = path.suffix.lower() == ".csv" and path.stat().st_size < MAX_LOG_ROWS * MIN_CSV_ROW  # too few lines
        if not force and not small and (rows := count_rows(path)) > MAX_LOG_ROWS:
            raise LogError(f"{what} {path}: {rows:,} rows, over the {MAX_LOG_ROWS:,} a fit reads without --force "
                           "(or fit a sample of its players)")
        if path.suffix.lower() == ".csv":
            head = pd.read_csv(path, dtype=str, nrows=0).columns  # pandas renames a repeated name "d1.1" in silence
            twice = sorted({c.rsplit(".", 1)[0] for c in head if "." in c and c.rsplit(".", 1)[0] in head
                            and c.rsplit(".", 1)[1].isdigit()})
            if twice:
                raise LogError(f"{what} {path}: the column {twice[0]} is named twice in its header (which is meant?)")
            with warnings.catch_warnings():  # a first row longer than the header: pandas drops the rest, and says so
                warnings.simplefilter("error", pd.errors.ParserWarning)
                table = pd.read_csv(path, dtype=str, keep_default_na=False, index_col=False)  # every field counted:
            return table if keep is None else table[[c for c in table.columns if c in keep]]  # usecols dropped extras
        if keep is None:
            return pd.read_parquet(path)
        import pyarrow.parquet as pq  # pyarrow (heavy): the parquet file's column names, to read only those kept

        return pd.read_parquet(path, columns=[c for c in pq.ParquetFile(path).schema_arrow.names if c in keep])
    except pd.errors.ParserWarning:
        said = f"{what} {path}: its first row has more fields than its header has names (a comma too many?)"
        raise LogError(said) from None
    except (OSError, ValueError, pd.errors.ParserError) as e:  # pyarrow's ArrowInvalid is a ValueError
        raise LogError(f"{what} {path}: not a readable {path.suffix.lstrip('.')} table ({unreadable(e)})") from e


WHOLE = 2**53  # the largest whole numbers a log's number columns take (read as float64: exact up to here)


def columns(df: pd.DataFrame, spec: tuple[LogColumn, ...], where: str) -> dict[str, np.ndarray]:
    """The declared columns of ``df`` as checked numpy arrays (int64, float64 or str); the first bad cell of the
    first bad column is refused with its row."""
    refusal = missing(df.columns, spec, where)
    if refusal is not None:
        raise refusal
    if len(df) == 0:
        raise LogError(f"{where}: no rows")
    out: dict[str, np.ndarray] = {}
    for c in spec:
        if c.name not in df.columns:
            continue
        raw = df[c.name]
        if c.kind == "str":  # text, or numbers used as ids (written as text: 7 and 7.0 are "7")
            vals = [v if isinstance(v, str) else _text(v) for v in raw.astype(object).to_numpy()]
            bad = np.flatnonzero([not v.strip() for v in vals])
            if len(bad):
                raise LogError(f"{where} row {bad[0] + 1}: {c.name} is empty")
            hidden = next((i for i, v in enumerate(vals) if hidden_char(v)), None)
            if hidden is not None:  # a NUL or a direction mark in a player id: shown on pages and in fitted files
                raise LogError(f"{where} row {hidden + 1}: {c.name} = {ascii(vals[hidden][:40])} holds a control or "
                               "invisible character")
            out[c.name] = np.array([v.strip() for v in vals], dtype=object)
            continue
        packed = next((i for i, v in enumerate(raw.astype(object).to_numpy()) if isinstance(v, bytes | bytearray)),
                      None)
        if packed is not None:  # a parquet column of bytes: b"3" was read as 3, b"x" as missing
            raise LogError(f"{where} row {packed + 1}: {c.name} = {shown(raw.iloc[packed])} is bytes, not a number")
        num = pd.to_numeric(raw.astype(object).where(raw.astype(str).str.strip() != "", None), errors="coerce")
        arr = num.to_numpy(np.float64, na_value=np.nan)
        bad = np.flatnonzero(~np.isfinite(arr))
        if len(bad):
            raise LogError(f"{where} row {bad[0] + 1}: {c.name} = {shown(raw.iloc[bad[0]])} is not a number")
        if c.kind == "int":
            bad = np.flatnonzero(arr != np.round(arr))
            if len(bad):
                raise LogError(f"{where} row {bad[0] + 1}: {c.name} = {shown(raw.iloc[bad[0]])} is not a whole number")
            bad = np.flatnonzero(np.abs(arr) > WHOLE)  # past a float's whole numbers (int64 would overflow)
            if len(bad):
                big = arr[bad[0]] > 0  # "-1e+300 is too large" was said of a negative value
                raise LogError(f"{where} row {bad[0] + 1}: {c.name} = {_text(raw.iloc[bad[0]])} is too "
                               f"{'large (at most 2^53)' if big else 'small (at least -2^53)'}")
            lo = -np.inf if c.lo is None else c.lo
            hi = np.inf if c.hi is None else c.hi
            bad = np.flatnonzero((arr < lo) | (arr > hi))
            if len(bad):
                allowed = (f"{c.lo}..{c.hi}" if c.lo is not None and c.hi is not None else
                           f"a whole number {c.lo} or more" if c.lo is not None else f"a whole number {c.hi} or less")
                raise LogError(f"{where} row {bad[0] + 1}: {c.name} = {int(arr[bad[0]])} is outside {allowed}"
                               if c.hi is not None and c.lo is not None else
                               f"{where} row {bad[0] + 1}: {c.name} = {int(arr[bad[0]])}: must be {allowed}")
            out[c.name] = arr.astype(np.int64)
        else:
            lo, hi = -np.inf if c.lo is None else c.lo, np.inf if c.hi is None else c.hi
            bad = np.flatnonzero((arr < lo) | (arr > hi))
            if len(bad):  # a level of 5 in an outcome table was taken
                raise LogError(f"{where} row {bad[0] + 1}: {c.name} = {arr[bad[0]]:g} is outside {c.lo:g}..{c.hi:g}")
            out[c.name] = arr
    return out


def _text(v: object) -> str:
    """A cell that is not text as text: an integral number without its ``.0``; a missing cell as empty."""
    if v is None or (isinstance(v, float) and not np.isfinite(v)) or v is pd.NA:
        return ""
    if isinstance(v, float | np.floating) and float(v).is_integer():
        return str(int(v))
    return str(v)


def shown(value: Any) -> str:
    """A logged value as the person wrote it: a numpy scalar reads ``nan``/``7``, not ``np.float64(nan)``; a date or
    time as the text it shows (a parquet column of dates read "Timestamp('1970-01-01 …"), bytes as their text; cut
    to 40 characters (``short``), so that what is wrong with it still fits the error line after it."""
    if isinstance(value, pd.Timestamp | pd.Timedelta | datetime.date | datetime.timedelta):
        return short(str(value))
    if isinstance(value, bytes | bytearray):
        return short(bytes(value).decode("utf-8", "replace"))
    return short(value.item() if hasattr(value, "item") else value)


def refuse(where: str, row: int, text: str) -> LogError:
    """``LOG row N: text`` (``row`` counted from 0 here, from 1 in the message)."""
    return LogError(f"{where} row {row + 1}: {text}")


def outcome_columns(out_df: pd.DataFrame, spec: tuple[LogColumn, ...], out_where: str, players: np.ndarray,
                    games: np.ndarray, where: str) -> dict[str, np.ndarray]:
    """The outcome table's columns (``columns``), checked against the decisions (``players``, ``games``: each
    decision's, from the log ``where``): refused at the first outcome row whose player has no decision, then at the
    first decision whose (player, game) has no outcome row (neither can be fitted). Every game shares this check."""
    oc = columns(out_df, spec, out_where)
    each_game_once(oc, out_where)
    known = set(players.tolist())
    for i, p in enumerate(oc["player"]):
        if p not in known:
            raise refuse(out_where, i, f"player {shown(p)} has no decisions in {where}")
    opairs = set(zip(oc["player"].tolist(), oc["game"].tolist(), strict=True))
    for d, key in enumerate(zip(players.tolist(), games.tolist(), strict=True)):
        if key not in opairs:
            raise refuse(where, d, f"player {shown(key[0])} game {key[1]} has no row in {out_where}")
    return oc


def one_setting(col: dict[str, np.ndarray], name: str, allowed: tuple[str, ...] | list[str], default: str,
                where: str, what: str, meant: Callable[[str], str | None] | None = None) -> str:
    """The value of a column that names how every game was played (a difficulty, a matchup): one of ``allowed`` and
    the same in every row (the fit simulates one setting); ``default`` when the log has no such column. ``meant``: the
    choice a cell names in another spelling (``Option.meant``: the command line's ``Leicht`` for ``leicht``), so a log
    takes what the flag takes."""
    vals = col.get(name)
    if vals is None:
        return default
    if meant is not None:
        vals = np.array([m if (m := meant(v)) is not None else v for v in vals], dtype=object)
    bad = np.flatnonzero(~np.isin(vals, list(allowed)))
    if len(bad):
        raise refuse(where, bad[0], f"{name} {shown(col[name][bad[0]])} is not one of {', '.join(allowed)}")
    bad = np.flatnonzero(vals != vals[0])
    if len(bad):
        raise refuse(where, bad[0], f"{name} {vals[bad[0]]} after {vals[0]}: fit one {what} at a time")
    return str(vals[0])


def each_game_once(col: dict[str, np.ndarray], where: str) -> None:
    """An outcome table names each (player, game) once."""
    dup = np.flatnonzero(pd.MultiIndex.from_arrays([col["player"], col["game"]]).duplicated())
    if len(dup):
        raise refuse(where, dup[0], f"player {shown(col['player'][dup[0]])} game {col['game'][dup[0]]} is logged twice")
