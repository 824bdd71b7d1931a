"""A sweep's output folder: atomic writes of parts (per-run tables of chunks) and rows (metrics of a finished
point and policy), reading them back, ``sweep.json`` (fingerprint, resume checks) and the tidy table."""

from __future__ import annotations

import json
import math
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd

from sim.core import atomic
from sim.core.config import DicesimError
from sim.core.jsonable import read_numbers
from sim.experiments.sweep_spec import SWEEP_JSON, Sweep, Task, _jsonable, check_started
from sim.report.outputs import code_version


def write_parquet_atomic(df: pd.DataFrame, path: Path) -> None:
    atomic.write_parquet(df, path)


PART_TAG = b"dicesim_part"  # a part's identity in its Arrow schema: the sweep's fingerprint, point, slot, chunk


def part_tag(fingerprint: str, t: Task) -> str:
    """A part's identity: its sweep's fingerprint (``Sweep.fingerprint``, computed once), point, slot and chunk."""
    return f"{fingerprint}/{t.point}/{t.slot}/{t.chunk}"


def write_part_atomic(df: pd.DataFrame, path: Path, tag: str) -> None:
    """A finished chunk as an Arrow IPC file (fast to write and read back; the final table is parquet), carrying
    ``tag`` (``part_tag``): a part copied over another's place is known on resume, not read as that point's runs."""
    import pyarrow as pa
    import pyarrow.feather as feather

    table = pa.Table.from_pandas(df, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), PART_TAG: tag.encode()})
    with atomic.writing(path) as tmp:
        feather.write_feather(table, tmp, compression="lz4")


def write_text_atomic(text: str, path: Path) -> None:
    atomic.write_text(path, text)


def part_path(out: Path, t: Task) -> Path:
    return out / "parts" / f"p{t.point:04d}-s{t.slot:02d}-c{t.chunk:05d}.arrow"


def row_path(out: Path, point: int, slot: int) -> Path:
    return out / "rows" / f"p{point:04d}-s{slot:02d}.json"


def runs_table(out: Path, sweep: Sweep, point: int, slot: int) -> pd.DataFrame | None:
    """The per-run table of one (point, policy) from its parts (None when they were not kept)."""
    return read_runs(out, point, slot, sweep.spec.n, sweep.chunk)


def read_runs(out: str | Path, point: int, slot: int, n: int, chunk: int) -> pd.DataFrame | None:
    """Concatenate the parts of one (point, policy slot) of a sweep of ``n`` runs in chunks of ``chunk`` (None when
    one is missing or cannot be read)."""
    paths = [part_path(Path(out), Task(point, slot, c, 0, 0)) for c in range(-(-n // chunk))]
    if not all(p.is_file() for p in paths):
        return None
    try:
        return pd.concat([pd.read_feather(p) for p in paths], ignore_index=True)
    except Exception:  # noqa: BLE001 - a damaged part (arrow's own errors): read as missing, played again
        return None


def state(path: Path, doing: str = "--resume cannot continue from it") -> dict[str, Any]:
    """A sweep's or tune's own JSON state file (``sweep.json``, ``tune.json``), or one error line naming it when it
    is damaged: ``--overwrite`` starts over without reading it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        why = None if isinstance(data, dict) else "is damaged (not a record)"
    except (OSError, ValueError, UnicodeDecodeError) as e:
        why = "cannot be read" if isinstance(e, OSError) else "is damaged (not JSON)"
    if why:
        raise DicesimError(f"{path} {why}: {doing}; start over with --overwrite")
    return data


def row_ok(out: Path, point: int, slot: int) -> bool:
    """Whether the row file of (point, slot) is whole: its point, its slot and a metric record each with a value."""
    try:
        data = read_numbers(row_path(out, point, slot).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return False
    if not isinstance(data, dict):
        return False
    metrics = data.get("metrics")
    return (data.get("point") == point and data.get("slot") == slot and isinstance(metrics, dict)
            and all(isinstance(m, dict) and "value" in m for m in metrics.values()))


def part_ok(path: Path, tag: str) -> bool:
    """Whether a part file reads as an Arrow table (its footer and schema; the rows are read when used) of this place
    (its ``tag``; a part written before parts carried one is taken as it is)."""
    import pyarrow.feather as feather

    try:
        meta = feather.read_table(path, memory_map=True).schema.metadata or {}
    except Exception:  # noqa: BLE001 - arrow raises its own kinds for a file that is no table
        return False
    return PART_TAG not in meta or meta[PART_TAG] == tag.encode()


def heal(out: Path, sweep: Sweep) -> None:
    """Remove the row and part files of a resumed sweep that cannot be read (a crash, a full disk, a hand edit) or
    are another place's (a part copied over another point's), with one warning line: their points are computed or
    played again instead of failing with a traceback or reading another point's runs."""
    damaged = [row_path(out, p.index, s) for p in sweep.points for s in range(len(sweep.plan))
               if row_path(out, p.index, s).is_file() and not row_ok(out, p.index, s)]
    fingerprint = sweep.fingerprint()
    parts = [(part_path(out, t), part_tag(fingerprint, t), t) for t in sweep.tasks()]
    bad_parts = [(p, t) for p, tag, t in parts if p.is_file() and not part_ok(p, tag)]
    damaged += [p for p, _ in bad_parts]
    for path in damaged:
        path.unlink(missing_ok=True)
    for _, t in bad_parts:  # its point is played again (its row goes too), or its kept runs would be lost for good
        row_path(out, t.point, t.slot).unlink(missing_ok=True)
    if damaged:
        files = f"{len(damaged)} damaged or misplaced file{'s' if len(damaged) > 1 else ''}"
        print(f"warning: {files} of the sweep in {out} (first {damaged[0].relative_to(out)}) removed; computed or "
              "played again", file=sys.stderr)


def prepare_out(out: Path, sweep: Sweep, resume: bool, overwrite: bool) -> dict[str, Any]:
    """Create/validate the output folder; returns the sweep.json content in force."""
    meta_path = out / SWEEP_JSON
    check_started(out, resume, overwrite)  # a sweep continued or started over, never mixed; no play's folder
    if meta_path.is_file() and resume:
        old = state(meta_path)
        if old.get("fingerprint") != sweep.fingerprint():
            what = _what_changed(old.get("canonical", {}), sweep)
            raise DicesimError(
                f"the sweep file changed since {out} was started ({what}); "
                "--resume only continues the same sweep: use a new --out or --overwrite"
            )
        now = code_version()
        if old.get("code_version") != now:
            print(f"warning: code version changed since the sweep started ({old.get('code_version')} -> {now})",
                  file=sys.stderr)
        # titles and chart choices may change on resume; the numbers may not (checked above)
        old.update({"source": sweep.source, "name": sweep.name, "spec": sweep.spec.model_dump(mode="json")})
        write_text_atomic(json.dumps(old, indent=2), meta_path)
        (out / "parts").mkdir(parents=True, exist_ok=True)
        (out / "rows").mkdir(parents=True, exist_ok=True)
        heal(out, sweep)
        return old
    if meta_path.is_file():  # started over: nothing of the old sweep is read, a damaged one included
        for sub in ("parts", "rows", "overlays"):
            shutil.rmtree(out / sub, ignore_errors=True)
        for f in (SWEEP_JSON, "sweep.parquet", "sweep.csv", "report.html", "sensitivity.csv"):
            (out / f).unlink(missing_ok=True)
        for f in out.glob("sweep_*.png"):
            f.unlink()
    (out / "parts").mkdir(parents=True, exist_ok=True)
    (out / "rows").mkdir(parents=True, exist_ok=True)
    meta = {
        "fingerprint": sweep.fingerprint(),
        "source": sweep.source,
        "name": sweep.name,
        "spec": sweep.spec.model_dump(mode="json"),
        "canonical": sweep.canonical(),
        "fields": sweep.fields,
        "base_values": _jsonable(sweep.base_values),
        "base_config": sweep.base_config,
        "code_version": code_version(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    write_text_atomic(json.dumps(meta, indent=2), meta_path)
    return meta


def _what_changed(old: Any, sweep: Sweep) -> str:
    new = sweep.canonical()
    old = old if isinstance(old, dict) else {}  # a damaged record: every part differs
    diff = [k for k in new if old.get(k) != new[k]]
    if not diff:
        return "format"
    k = diff[0]
    if k == "points":
        return f"grid/variants: {len(old.get('points', []))} -> {len(new['points'])} points or other values/configs"
    return f"{k}: {json.dumps(old.get(k))} -> {json.dumps(new[k])}"


def assemble(out: Path, sweep: Sweep, meta: dict[str, Any]) -> pd.DataFrame:
    """One row per (point, policy) in sweep order from the row files."""
    rows = []
    metric_names: list[str] = []
    for p in sweep.points:
        for slot, (label, _) in enumerate(sweep.plan):
            seats = sweep.seats_of(p.index, slot)
            data = read_numbers(row_path(out, p.index, slot).read_text())  # an undefined value kept as null: NaN
            row: dict[str, Any] = {"point": p.index, "label": p.label}
            if p.variant is not None:
                row["variant"] = p.variant
                row["set"] = json.dumps(_jsonable(p.sets), sort_keys=True)
            row.update(p.values)
            row["policy"] = label
            row["seats"] = ",".join(seats)
            for name, m in data["metrics"].items():
                if name not in metric_names:
                    metric_names.append(name)
                lo, hi = m.get("ci95", [math.nan, math.nan])
                row[name] = m["value"]
                row[f"{name}_ci95_low"] = lo
                row[f"{name}_ci95_high"] = hi
            row.update({"config_hash": p.config_hash, "game": sweep.game.name, "n": sweep.spec.n,
                        "seed": sweep.spec.seed, "code_version": meta.get("code_version", "")})
            rows.append(row)
    table = pd.DataFrame(rows)
    head = [c for c in table.columns if c not in _metric_cols(metric_names)]
    lead = head[: head.index("seats") + 1]
    tail = head[head.index("seats") + 1:]
    return table[lead + _metric_cols(metric_names) + tail]


def _metric_cols(names: list[str]) -> list[str]:
    return [c for n in names for c in (n, f"{n}_ci95_low", f"{n}_ci95_high")]


def metric_names(table: pd.DataFrame) -> list[str]:
    """The metric names of a sweep table (columns that carry ``_ci95_low``/``_ci95_high`` partners)."""
    return [c for c in table.columns if f"{c}_ci95_low" in table.columns and f"{c}_ci95_high" in table.columns]


def load_result(out: str | Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    """A finished sweep's table and its sweep.json."""
    out = Path(out)
    if not (out / SWEEP_JSON).is_file() or not (out / "sweep.parquet").is_file():
        raise DicesimError(f"{out} holds no finished sweep (sweep.json and sweep.parquet)")
    return pd.read_parquet(out / "sweep.parquet"), state(out / SWEEP_JSON, "no report can be made from it")
