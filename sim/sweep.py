"""Sweeps: play one game over a grid of config values (or named variants) and tabulate every metric.

A sweep file (``configs/sweeps/*.toml``) names the game, the policies, N per point, the seed and
either a ``[grid]`` over any config fields (dotted paths, every combination is a point) or a list
of ``[[variants]]`` (a name, ``set = {field = value}`` and optionally their own base ``config``)::

    game = "kniffel"
    policies = ["greedy", "optimal"]
    n = 20000
    seed = 1
    [grid]
    "bonus.value" = [25, 35, 45]
    "bonus.threshold" = [60, 63]
    [options]            # optional game options (e.g. players = 2)

Every point plays the same runs 0..n-1 with the same seed (paired), so differences between points
are the rules' doing, not noise. Every point's config is validated before any work starts.

Execution is resumable: the work is the tasks (point, policy, chunk); each finished chunk's per-run
table is written atomically to ``<out>/parts/`` and each finished (point, policy) its metric row to
``<out>/rows/``. ``sweep.json`` holds the sweep's fingerprint; ``resume=True`` skips finished work
and refuses a sweep file whose results would differ. The final table ``sweep.parquet``/``sweep.csv``
has one row per (point, policy): the swept values, every metric with its 95 % interval, the config
hash, seed, N and code version. Chunks run in this process (the game's kernel uses every core) or
as tasks on a Dask cluster (``scheduler``); the tables are identical either way.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from pydantic import Field, ValidationError

from sim.config import ROOT, ConfigError, DicesimError, Strict, config_hash, read_toml
from sim.games.base import Game

SWEEP_JSON = "sweep.json"
FORMAT = 1


# --- the sweep file ---------------------------------------------------------------------------


class Variant(Strict):
    """One named variant: overrides on top of the base config (or its own ``config``)."""

    name: str = Field(min_length=1)
    set: dict[str, Any] = {}
    config: str | None = None


class SweepFile(Strict):
    """The TOML sweep file as written by a designer."""

    game: str
    policies: list[str] = Field(min_length=1)
    n: int = Field(gt=0, description="runs per grid point and policy")
    seed: int = Field(1, ge=0)
    chunk: int | None = Field(None, gt=0, description="runs per task (default: the game's chunk)")
    config: str | None = Field(None, description="base config file (default: configs/GAME/default.toml)")
    grid: dict[str, Any] | None = None
    variants: list[Variant] | None = None
    options: dict[str, Any] = {}
    keep_runs: bool = Field(True, description="keep the per-run tables (parts/) after a point finishes")
    metrics: list[str] = Field([], description="metrics charted in report.html (default: the game's first three)")
    title: str | None = None
    description: str | None = None


@dataclass(frozen=True)
class Point:
    """One grid point (or variant): its overrides and validated config."""

    index: int
    label: str
    values: dict[str, Any]  # swept field -> value (grid sweeps)
    variant: str | None  # variant name (variant sweeps)
    sets: dict[str, Any]  # every override applied on top of the base config
    config_path: str | None
    cfg: Strict
    config_hash: str


@dataclass(frozen=True)
class Task:
    """One unit of work: runs ``start .. start + count - 1`` of one (point, policy)."""

    point: int
    slot: int  # index into the sweep's plan (policy label, seats)
    chunk: int
    start: int
    count: int


@dataclass
class Sweep:
    """A validated sweep: game, options, policy plan and every point's config."""

    spec: SweepFile
    source: str
    game: Game
    options: dict[str, Any]
    plan: list[tuple[str, list[str]]]
    points: list[Point]
    fields: list[str]
    base_config: str | None
    base_values: dict[str, Any]
    chunk: int

    @property
    def name(self) -> str:
        return self.spec.title or Path(self.source).stem

    def spans(self) -> list[tuple[int, int]]:
        return [(s, min(self.chunk, self.spec.n - s)) for s in range(0, self.spec.n, self.chunk)]

    def tasks(self) -> list[Task]:
        spans = self.spans()
        return [
            Task(p.index, slot, c, s, k)
            for p in self.points
            for slot in range(len(self.plan))
            for c, (s, k) in enumerate(spans)
        ]

    def canonical(self) -> dict[str, Any]:
        """Everything that decides the numbers (not titles or chart choices), JSON-ready."""
        return {
            "format": FORMAT,
            "game": self.game.name,
            "plan": [[label, seats] for label, seats in self.plan],
            "n": self.spec.n,
            "seed": self.spec.seed,
            "chunk": self.chunk,
            "options": _jsonable(self.options),
            "points": [
                {"label": p.label, "values": _jsonable(p.values), "sets": _jsonable(p.sets),
                 "config_hash": p.config_hash}
                for p in self.points
            ],
        }

    def fingerprint(self) -> str:
        blob = json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _jsonable(o: Any) -> Any:
    return json.loads(json.dumps(o, default=lambda x: x.item() if hasattr(x, "item") else str(x)))


def toml_literal(v: Any) -> str:
    """A Python value (as read from TOML) written back as a TOML value for ``--set``-style overrides."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        if isinstance(v, float) and not math.isfinite(v):
            return ("nan" if math.isnan(v) else ("inf" if v > 0 else "-inf"))
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_literal(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_literal(x)}" for k, x in v.items()) + "}"
    raise ConfigError(f"cannot use {v!r} as a config value")


def flatten(d: dict[str, Any], prefix: str = "", leaf=lambda v: not isinstance(v, dict)) -> dict[str, Any]:
    """``{"a": {"b": 1}, "c.d": 2}`` -> ``{"a.b": 1, "c.d": 2}`` (TOML's dotted and quoted keys alike)."""
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if leaf(v) or not v:
            out[key] = v
        else:
            out.update(flatten(v, key, leaf))
    return out


def _resolve(path: str | None, base_dir: Path | None) -> str | None:
    """A config path as written in a sweep file: relative to the working folder, the sweep file or the repo."""
    if path is None:
        return None
    p = Path(path)
    if p.is_absolute() or p.is_file():
        return str(p)
    for d in (base_dir, ROOT):
        if d is not None and (d / p).is_file():
            return str(d / p)
    return str(p)  # load reports it as not found


def spec_error(source: str, err: ValidationError, kind: str = "sweep file") -> DicesimError:
    """One line naming the first invalid field of a designer's file (sweep, tune) and what is wrong with it."""
    e = err.errors()[0]
    loc = ".".join(str(x) for x in e["loc"]) or "(top level)"
    if e["type"] == "extra_forbidden":
        return ConfigError(f"{source}: unknown {kind} field: {loc}")
    if e["type"] == "missing":
        return ConfigError(f"{source}: missing {kind} field: {loc}")
    return ConfigError(f"{source}: invalid value for {loc}: {e.get('input')!r} ({e['msg']})")


def point_config(game: Game, config_path: str | None, sets: dict[str, Any]) -> Strict:
    """The game's config with ``sets`` applied (through ``game.load``, so games keep their loading rules)."""
    return game.load(config_path, [f"{k}={toml_literal(v)}" for k, v in sets.items()])


def load_sweep(path: str | Path) -> Sweep:
    """Read and validate a sweep file; every point's config is built and checked before any work."""
    path = Path(path)
    return sweep_from_dict(read_toml(path), str(path), path.resolve().parent)


def sweep_from_dict(data: dict[str, Any], source: str = "sweep", base_dir: Path | None = None) -> Sweep:
    """Validate a sweep given as a dict (the parsed TOML); errors name the file part and the field."""
    from sim.games import get_game

    try:
        spec = SweepFile.model_validate(data)
    except ValidationError as err:
        raise spec_error(source, err) from None
    try:
        game = get_game(spec.game)
    except DicesimError as e:
        raise ConfigError(f"{source}: game: {e}") from None
    try:
        options = game.check_options(dict(spec.options))
    except DicesimError as e:
        raise ConfigError(f"{source}: [options]: {e}") from None
    labels = [p.strip() for p in spec.policies]
    if len(set(labels)) != len(labels):
        raise ConfigError(f"{source}: policies: {labels} names a policy twice")
    try:
        for p in labels:
            game.seat_policies(p, options)
        plan = [(label, list(seats)) for label, seats in game.compare_plan(labels, options)]
    except DicesimError as e:
        raise ConfigError(f"{source}: policies: {e}") from None
    base = _resolve(spec.config, base_dir)
    try:
        base_cfg = point_config(game, base, {})
    except DicesimError as e:
        raise ConfigError(f"{source}: config: {e}") from None

    if spec.grid is not None and spec.variants is not None:
        raise ConfigError(f"{source}: give either [grid] or [[variants]], not both")
    points: list[Point] = []
    fields: list[str] = []
    base_values: dict[str, Any] = {}
    if spec.variants is not None:
        if not spec.variants:
            raise ConfigError(f"{source}: [[variants]] is empty (no points to play)")
        names = [v.name for v in spec.variants]
        dup = sorted({x for x in names if names.count(x) > 1})
        if dup:
            raise ConfigError(f"{source}: variants: the name {dup[0]!r} is used twice")
        for i, v in enumerate(spec.variants):
            sets = flatten(v.set)
            cpath = _resolve(v.config, base_dir) if v.config else base
            try:
                cfg = point_config(game, cpath, sets)
            except DicesimError as e:
                raise ConfigError(f"{source}: variant {v.name!r}: {e}") from None
            points.append(Point(i, v.name, {}, v.name, sets, cpath, cfg, config_hash(cfg)))
    elif spec.grid is not None:
        grid = flatten(spec.grid, leaf=lambda v: not isinstance(v, dict))
        if not grid:
            raise ConfigError(f"{source}: [grid] is empty (name at least one field and its values)")
        for key, values in grid.items():
            if not isinstance(values, list):
                raise ConfigError(f"{source}: [grid] {key} must be a list of values, got {values!r}")
            if not values:
                raise ConfigError(f"{source}: [grid] {key} has no values")
            seen = [toml_literal(v) for v in values]
            if len(set(seen)) != len(seen):
                raise ConfigError(f"{source}: [grid] {key} lists a value twice: {values!r}")
            for v in values:  # one field at a time first, so the error names the field and the value
                try:
                    point_config(game, base, {key: v})
                except DicesimError as e:
                    raise ConfigError(f"{source}: [grid] {key} = {v!r}: {e}") from None
            base_values[key] = _field_value(base_cfg, key)
        fields = list(grid)
        for i, combo in enumerate(itertools.product(*grid.values())):
            values = dict(zip(fields, combo, strict=True))
            label = ", ".join(f"{k}={v}" for k, v in values.items())
            try:
                cfg = point_config(game, base, values)
            except DicesimError as e:
                raise ConfigError(f"{source}: [grid] point {label}: {e}") from None
            points.append(Point(i, label, values, None, values, base, cfg, config_hash(cfg)))
    else:
        raise ConfigError(f"{source}: needs a [grid] over config fields or a list of [[variants]]")
    chunk = spec.chunk or game.chunk
    return Sweep(spec, source, game, options, plan, points, fields, base, base_values, chunk)


def _field_value(cfg: Strict, dotted: str) -> Any:
    node: Any = cfg.model_dump(mode="python")
    for k in dotted.split("."):
        node = node.get(k) if isinstance(node, dict) else None
    return node


# --- files ------------------------------------------------------------------------------------


def _fsync_replace(tmp: Path, path: Path) -> None:
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _tmp(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_parquet_atomic(df: pd.DataFrame, path: Path) -> None:
    tmp = _tmp(path)
    df.to_parquet(tmp, index=False)
    _fsync_replace(tmp, path)


def write_part_atomic(df: pd.DataFrame, path: Path) -> None:
    """A finished chunk as an Arrow IPC file (fast to write and read back; the final table is parquet)."""
    tmp = _tmp(path)
    df.to_feather(tmp, compression="lz4")
    _fsync_replace(tmp, path)


def write_text_atomic(text: str, path: Path) -> None:
    tmp = _tmp(path)
    tmp.write_text(text, encoding="utf-8")
    _fsync_replace(tmp, path)


def part_path(out: Path, t: Task) -> Path:
    return out / "parts" / f"p{t.point:04d}-s{t.slot:02d}-c{t.chunk:05d}.arrow"


def row_path(out: Path, point: int, slot: int) -> Path:
    return out / "rows" / f"p{point:04d}-s{slot:02d}.json"


def runs_table(out: Path, sweep: Sweep, point: int, slot: int) -> pd.DataFrame | None:
    """The per-run table of one (point, policy) from its parts (None when they were not kept)."""
    return read_runs(out, point, slot, sweep.spec.n, sweep.chunk)


def read_runs(out: str | Path, point: int, slot: int, n: int, chunk: int) -> pd.DataFrame | None:
    """Concatenate the parts of one (point, policy slot) of a sweep of ``n`` runs in chunks of ``chunk``."""
    paths = [part_path(Path(out), Task(point, slot, c, 0, 0)) for c in range(-(-n // chunk))]
    if not all(p.is_file() for p in paths):
        return None
    return pd.concat([pd.read_feather(p) for p in paths], ignore_index=True)


# --- running ----------------------------------------------------------------------------------


@dataclass
class SweepResult:
    """A finished sweep: the tidy table and where everything went."""

    out: Path
    table: pd.DataFrame
    seconds: float
    chunks_run: int
    chunks_skipped: int
    fingerprint: str
    report: Path | None = None
    files: dict[str, str] = field(default_factory=dict)


def _prepare_out(out: Path, sweep: Sweep, resume: bool, overwrite: bool) -> dict[str, Any]:
    """Create/validate the output folder; returns the sweep.json content in force."""
    from sim.report import code_version

    meta_path = out / SWEEP_JSON
    if meta_path.is_file():
        old = json.loads(meta_path.read_text())
        if resume:
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
            return old
        if not overwrite:
            raise DicesimError(
                f"{out} already holds a sweep: rerun with --resume to continue it or --overwrite to start over"
            )
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


def _what_changed(old: dict[str, Any], sweep: Sweep) -> str:
    new = sweep.canonical()
    diff = [k for k in new if old.get(k) != new[k]]
    if not diff:
        return "format"
    k = diff[0]
    if k == "points":
        return f"grid/variants: {len(old.get('points', []))} -> {len(new['points'])} points or other values/configs"
    return f"{k}: {json.dumps(old.get(k))} -> {json.dumps(new[k])}"


def _progress(enabled: bool):
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description:>7}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(file=sys.stderr),
        disable=not enabled,
        transient=True,
    )


def _part_frame(game: Game, parts: dict[str, np.ndarray], t: Task) -> pd.DataFrame:
    df = pd.DataFrame(dict(parts))
    if "run" not in df.columns:  # one row per run unless the game says otherwise (as in sim.batch)
        df.insert(0, "run", np.arange(t.start, t.start + t.count))
    return df


def _finish_row(out: Path, sweep: Sweep, point: int, slot: int) -> None:
    """Metrics of one finished (point, policy) from its parts on disk, written atomically."""
    table = runs_table(out, sweep, point, slot)
    if table is None:
        raise DicesimError(f"parts of point {point} policy {sweep.plan[slot][0]} are missing in {out}/parts")
    cfg = next(p.cfg for p in sweep.points if p.index == point)  # the point's own rules, also on --resume
    metrics = sweep.game.metrics(table, sweep.options, cfg)
    clean = {
        name: {"value": _num(m.get("value")), **({"ci95": [_num(x) for x in m["ci95"][:2]]} if m.get("ci95") else {})}
        for name, m in metrics.items()
    }
    write_text_atomic(json.dumps({"point": point, "slot": slot, "metrics": clean}), row_path(out, point, slot))
    if not sweep.spec.keep_runs:
        for c in range(len(sweep.spans())):
            part_path(out, Task(point, slot, c, 0, 0)).unlink(missing_ok=True)


def _num(v: Any) -> float:
    if v is None:
        return math.nan
    return float(v.item() if hasattr(v, "item") else v)


def run_sweep(
    sweep: Sweep,
    out: str | Path,
    resume: bool = False,
    overwrite: bool = False,
    scheduler: str | None = None,
    progress: bool = True,
    report: bool = True,
) -> SweepResult:
    """Play every pending (point, policy, chunk), then write the tidy table (and report.html)."""
    out = Path(out)
    t0 = time.perf_counter()
    meta = _prepare_out(out, sweep, resume, overwrite)
    for stale in (out / "parts").glob(".*.tmp"):  # half-written files of a killed run
        stale.unlink(missing_ok=True)
    for stale in (out / "rows").glob(".*.tmp"):
        stale.unlink(missing_ok=True)

    groups = [(p.index, slot) for p in sweep.points for slot in range(len(sweep.plan))]
    done_rows = {g for g in groups if row_path(out, *g).is_file()}
    pending: dict[tuple[int, int], list[Task]] = {}
    skipped = 0
    for t in sweep.tasks():
        g = (t.point, t.slot)
        if g in done_rows or part_path(out, t).is_file():
            skipped += 1
            continue
        pending.setdefault(g, []).append(t)
    # groups whose chunks are all on disk but whose row was not written yet
    unfinished = [g for g in groups if g not in done_rows and g not in pending]
    for g in unfinished:
        _finish_row(out, sweep, *g)
    n_run = sum(len(v) for v in pending.values())

    with _progress(progress and n_run > 0) as bar:
        t_points = bar.add_task("points", total=len(groups), completed=len(groups) - len(pending))
        t_chunks = bar.add_task("chunks", total=n_run)
        if scheduler:
            _run_dask(sweep, out, pending, scheduler, bar, t_points, t_chunks)
        else:
            _run_local(sweep, out, pending, bar, t_points, t_chunks)

    table = assemble(out, sweep, meta)
    files = {"parquet": str(out / "sweep.parquet"), "csv": str(out / "sweep.csv")}
    write_parquet_atomic(table, out / "sweep.parquet")
    tmp = _tmp(out / "sweep.csv")
    table.to_csv(tmp, index=False)
    _fsync_replace(tmp, out / "sweep.csv")
    result = SweepResult(out, table, time.perf_counter() - t0, n_run, skipped, sweep.fingerprint(), files=files)
    if report:
        from sim.sweep_report import build_sweep_report

        result.report = build_sweep_report(out)
        files["report"] = str(result.report)
    return result


def _run_local(sweep: Sweep, out: Path, pending, bar, t_points, t_chunks) -> None:
    for (point, slot), tasks in pending.items():
        p = sweep.points[point]
        seats = sweep.plan[slot][1]
        sweep.game.prepare(p.cfg, seats, sweep.options)
        for t in tasks:
            parts = sweep.game.simulate(p.cfg, seats, sweep.spec.seed, t.start, t.count, sweep.options)
            write_part_atomic(_part_frame(sweep.game, parts, t), part_path(out, t))
            bar.advance(t_chunks)
        _finish_row(out, sweep, point, slot)
        bar.advance(t_points)


def _run_dask(sweep: Sweep, out: Path, pending, scheduler: str, bar, t_points, t_chunks) -> None:
    from distributed import as_completed

    from sim.backends import DaskBackend, simulate_chunk

    client = DaskBackend(scheduler).client
    try:
        left = {g: len(ts) for g, ts in pending.items()}
        futures = {}
        for (point, slot), tasks in pending.items():
            p = sweep.points[point]
            seats = sweep.plan[slot][1]
            for t in tasks:
                f = client.submit(simulate_chunk, sweep.game.name, p.cfg, seats, sweep.spec.seed, t.start, t.count,
                                  sweep.options, pure=False)
                futures[f] = t
        for fut, parts in as_completed(list(futures), with_results=True):
            t = futures.pop(fut)
            write_part_atomic(_part_frame(sweep.game, parts, t), part_path(out, t))
            bar.advance(t_chunks)
            g = (t.point, t.slot)
            left[g] -= 1
            if left[g] == 0:
                _finish_row(out, sweep, *g)
                bar.advance(t_points)
            fut.release()
    finally:
        client.close()


# --- the tidy table ---------------------------------------------------------------------------


def assemble(out: Path, sweep: Sweep, meta: dict[str, Any]) -> pd.DataFrame:
    """One row per (point, policy) in sweep order from the row files."""
    rows = []
    metric_names: list[str] = []
    for p in sweep.points:
        for slot, (label, seats) in enumerate(sweep.plan):
            data = json.loads(row_path(out, p.index, slot).read_text())
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
    return pd.read_parquet(out / "sweep.parquet"), json.loads((out / SWEEP_JSON).read_text())
