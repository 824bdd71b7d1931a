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
    # "options.difficulty" = ["leicht", "normal"]   # a game option can be an axis too
    [options]            # optional game options (e.g. players = 2)

Every point plays the same runs 0..n-1 with the same seed (paired), so differences between points
are the rules' doing, not noise. Every point's config is validated (a grid value once, as the config holds it:
``"expert"`` is ``1.0``), and the game prepares every point (``check_points``: a solver's limits), before any point
plays or any file is written.

Execution is resumable: the work is the tasks (point, policy, chunk); each finished chunk's per-run
table is written atomically to ``<out>/parts/`` and each finished (point, policy) its metric row to
``<out>/rows/``. ``sweep.json`` holds the sweep's fingerprint; ``resume=True`` skips finished work
and refuses a sweep file whose results would differ. The final table ``sweep.parquet``/``sweep.csv``
has one row per (point, policy): the swept values, every metric with its 95 % interval, the config
hash, seed, N and code version. Chunks run in this process (the game's kernel uses every core) or
as tasks on a Dask cluster (``scheduler``); the tables are identical either way.

The module holds the run loop; the file format is ``sim.experiments.sweep_spec`` and the output folder
``sim.experiments.sweep_store`` (both re-exported here, so ``from sim.experiments.sweep import …`` keeps working).
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from sim.core import atomic
from sim.core.backends import Job, make_backend
from sim.core.config import ConfigError, DicesimError
from sim.core.jsonable import strict_json
from sim.experiments.sensitivity import comparable
from sim.experiments.sweep_spec import (  # noqa: F401  (re-exported: the sweep file API)
    FORMAT,
    SWEEP_JSON,
    Point,
    Sweep,
    SweepFile,
    Task,
    Variant,
    _jsonable,
    _resolve,
    check_started,
    flatten,
    load_sweep,
    point_config,
    spec_error,
    sweep_from_dict,
    toml_literal,
)
from sim.experiments.sweep_store import (  # noqa: F401  (re-exported: the output folder API)
    assemble,
    load_result,
    metric_names,
    part_path,
    part_tag,
    prepare_out,
    read_runs,
    row_path,
    runs_table,
    write_parquet_atomic,
    write_part_atomic,
    write_text_atomic,
)
from sim.report.sweep import build_sweep_report


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


def _progress(enabled: bool):

    return Progress(
        TextColumn("{task.description:>7}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(file=sys.stderr),
        disable=not enabled or not sys.stderr.isatty(),  # a log or a pipe: no bar, and not the empty line it left
        transient=True,
    )


def _finish_row(out: Path, sweep: Sweep, point: int, slot: int) -> None:
    """Metrics of one finished (point, policy) from its parts on disk, written atomically."""
    table = runs_table(out, sweep, point, slot)
    if table is None:
        raise DicesimError(f"parts of point {point} policy {sweep.plan[slot][0]} are missing in {out}/parts")
    cfg = next(p.cfg for p in sweep.points if p.index == point)  # the point's own rules, also on --resume
    metrics = sweep.game.metrics(table, sweep.options_of(point), cfg)
    clean = {
        name: {"value": _num(m.get("value")), **({"ci95": [_num(x) for x in m["ci95"][:2]]} if m.get("ci95") else {})}
        for name, m in metrics.items()
    }
    write_text_atomic(strict_json({"point": point, "slot": slot, "metrics": clean}), row_path(out, point, slot))
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
    backend: Any = None,
) -> SweepResult:
    """Play every pending (point, policy, chunk) on ``backend`` (default: this process, or Dask with
    ``scheduler``), then write the tidy table (and report.html)."""
    out = Path(out)
    t0 = time.perf_counter()
    own = backend is None
    backend = make_backend(scheduler) if own else backend  # a scheduler that does not answer: before the folder
    try:
        check_started(out, resume, overwrite)  # cheap refusals first: a folder holding a sweep, a play's folder
        check_points(sweep, out if resume else None)
        with atomic.output_folder(out):
            return _run_locked(sweep, out, t0, resume, overwrite, progress, report, backend)
    finally:
        if own:
            backend.close()


def check_points(sweep: Sweep, resumed: Path | None = None) -> None:
    """What the play of each (point, policy) runs before its first chunk (``Game.prepare``: a solver's limits, its
    solved tables, memoised for the play), for every point before the first one plays: a point the game refuses
    (an optimal-win goal beyond ``solver.max_win_goal``) is refused naming its values, before any file is written,
    not after the points before it played. ``resumed``: the folder of a resumed sweep, whose finished rows are
    not checked again."""
    for p in sweep.points:
        for slot in range(len(sweep.plan)):
            if resumed is not None and row_path(resumed, p.index, slot).is_file():
                continue
            try:
                sweep.game.prepare(p.cfg, sweep.seats_of(p.index, slot), sweep.options_of(p.index))
            except DicesimError as e:
                where = f"variant {p.label!r}" if p.variant is not None else f"[grid] point {p.label}"
                raise ConfigError(f"{sweep.source}: {where}: {e}") from None


def _run_locked(sweep: Sweep, out: Path, t0: float, resume: bool, overwrite: bool, progress: bool, report: bool,
                backend: Any) -> SweepResult:
    meta = prepare_out(out, sweep, resume, overwrite)
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
        _play(sweep, out, pending, backend, bar, t_points, t_chunks)

    table = assemble(out, sweep, meta)
    files = {"parquet": str(out / "sweep.parquet"), "csv": str(out / "sweep.csv")}
    write_parquet_atomic(table, out / "sweep.parquet")
    atomic.write_csv(comparable(table, list(sweep.fields)), out / "sweep.csv")  # a table's value as TOML writes it
    result = SweepResult(out, table, time.perf_counter() - t0, n_run, skipped, sweep.fingerprint(), files=files)
    if report:
        result.report = build_sweep_report(out)
        files["report"] = str(result.report)
    return result


def _play(sweep: Sweep, out: Path, pending: dict[tuple[int, int], list[Task]], backend: Any, bar, t_points,
          t_chunks) -> None:
    """Every pending chunk through the backend; a (point, policy) gets its metric row when its last part is
    written, whatever order the parts come back in."""
    left = {g: len(ts) for g, ts in pending.items()}
    fingerprint = sweep.fingerprint()  # each part carries it (``part_tag``): once, not per part
    jobs = [Job(sweep.points[point].cfg, sweep.seats_of(point, slot), sweep.spec.seed, t.start, t.count,
                sweep.options_of(point), t)
            for (point, slot), tasks in pending.items() for t in tasks]
    for job, part in backend.run(sweep.game, jobs):
        t: Task = job.tag
        write_part_atomic(pd.DataFrame(part), part_path(out, t), part_tag(fingerprint, t))
        bar.advance(t_chunks)
        g = (t.point, t.slot)
        left[g] -= 1
        if left[g] == 0:
            _finish_row(out, sweep, *g)
            bar.advance(t_points)
