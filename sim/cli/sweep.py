"""The designer commands ``sweep``, ``calibrate`` and ``check`` (registered on ``sim.cli.app``).

    dicesim sweep configs/sweeps/kniffel-bonus.toml [--out DIR] [--resume] [--scheduler tcp://host:8786]
    dicesim calibrate kniffel --target upper_bonus_rate=0.3 --field bonus.threshold --policy greedy
    dicesim check configs/targets/kniffel.toml [--strict]     # exit 1 when a band fails
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from sim.cli.common import (
    GAME_NAMES,
    ConfigOpt,
    ForceOpt,
    JsonOpt,
    SchedulerOpt,
    SeedOpt,
    SetOpt,
    _emit,
    _jsonable,
    app,
    count_option,
    with_game_options,
)
from sim.core.config import DicesimError


@app.command()
def sweep(
    sweep_file: Path = typer.Argument(..., help="sweep file, e.g. configs/sweeps/kniffel-bonus.toml"),
    out: Path | None = typer.Option(None, "--out", help="output folder (default reports/sweeps/NAME)"),
    resume: bool = typer.Option(False, "--resume", help="continue a killed sweep in --out; finished work is kept"),
    overwrite: bool = typer.Option(False, "--overwrite", help="discard a previous sweep in --out and start over"),
    scheduler: str | None = SchedulerOpt,
    as_json: bool = JsonOpt,
    no_report: bool = typer.Option(False, "--no-report", help="only the tables, no charts or report.html"),
    force: bool = ForceOpt,
) -> None:
    """Play a grid of config values (paired seeds) and write one row per grid point and policy."""
    from sim.experiments.sweep_spec import load_sweep  # checked before pandas and the runner are imported

    if resume and overwrite:
        raise DicesimError("--resume and --overwrite exclude each other")
    s = load_sweep(sweep_file, force=force)
    from sim.experiments.sweep import metric_names, run_sweep

    dest = out or Path("reports") / "sweeps" / sweep_file.stem
    r = run_sweep(s, dest, resume=resume, overwrite=overwrite, scheduler=scheduler, progress=not as_json,
                  report=not no_report)
    summary = {
        "sweep": str(sweep_file), "game": s.game.name, "points": len(s.points), "policies": [p for p, _ in s.plan],
        "n": s.spec.n, "seed": s.spec.seed, "rows": len(r.table), "chunks_run": r.chunks_run,
        "chunks_skipped": r.chunks_skipped, "seconds": round(r.seconds, 3), "fingerprint": r.fingerprint,
        "out": str(dest), **r.files,
    }
    names = metric_names(r.table)
    first = s.spec.metrics[0] if s.spec.metrics and s.spec.metrics[0] in names else (names[0] if names else None)
    lines = [f"sweep {s.name}: {len(s.points)} points x {len(s.plan)} policies, n={s.spec.n} each, seed {s.spec.seed} "
             f"(same for every point) · ran {r.chunks_run} chunks, {r.chunks_skipped} already done · {r.seconds:.1f} s"]
    if first:
        lines.append(f"{first} [95 %]:")
        for row in r.table.to_dict("records"):
            lines.append(f"  {row['label']:40s} {row['policy']:12s} {row[first]:.4g}  "
                         f"[{row[f'{first}_ci95_low']:.4g}, {row[f'{first}_ci95_high']:.4g}]")
    lines.append(f"table: {r.files['csv']} (+ .parquet)")
    if r.report:
        lines.append(f"report: {r.report}")
    _emit(summary, as_json, "\n".join(lines))


@app.command()
@with_game_options
def calibrate(
    game: str = typer.Argument(..., help=GAME_NAMES),
    target: str = typer.Option(..., "--target", help="metric=value, e.g. win_rate=0.5"),
    field: str = typer.Option(..., "--field", help="the config field to tune, e.g. difficulty.normal.hp"),
    policy: str = typer.Option(..., "--policy", help="policy whose metric is tuned"),
    n: int = count_option(20_000, "--n", help="runs per evaluation (all on the same seeds)"),
    seed: int = SeedOpt,
    lo: float | None = typer.Option(None, "--lo", help="lower end of the search bracket"),
    hi: float | None = typer.Option(None, "--hi", help="upper end of the search bracket"),
    tol: float | None = typer.Option(None, "--tol", help="tolerance on the metric (default 0.1 x its 95 % half-width)"),
    max_evals: int = typer.Option(30, "--max-evals", help="most evaluations (batches) to play"),
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    as_json: bool = JsonOpt,
    scheduler: str | None = SchedulerOpt,
    out: Path | None = typer.Option(None, "--out", help="folder for calibration.json, .csv, .png and report.html"),
    force: bool = ForceOpt,
    game_opts: dict[str, Any] | None = None,
) -> None:
    """Find the value of one config field that makes a metric hit a target (bracketing search, paired seeds)."""
    from types import SimpleNamespace

    from sim.experiments.calibrate import check_calibration, parse_target

    metric, value = parse_target(target)
    check_calibration(n, seed, value, lo, hi, tol, max_evals, force)
    from sim import api
    from sim.games import get_game

    g = get_game(game)
    r = api.calibrate(game, field, (metric, value), policy, n=n, seed=seed, config=config, set=set_ or [], lo=lo,
                      hi=hi, tol=tol, max_evals=max_evals, scheduler=scheduler, log=not as_json, force=force,
                      **(game_opts or {}))
    d = r.summary
    if out is not None:
        d["report"] = str(r.write(out))
    c = SimpleNamespace(**d)
    est = c.estimate
    human = "\n".join([
        f"{g.title} · {c.policy}: {field} = {c.value:g} gives {metric} {est['value']:.5g} "
        f"[{est['ci95'][0]:.5g}, {est['ci95'][1]:.5g}] (target {value:g})",
        f"  tolerance: {c.tolerance} · {c.stop} after {len(c.evaluations)} evaluations · bracket "
        f"[{c.bracket[0]:g}, {c.bracket[1]:g}]",
        f"  {field} 95 % interval (approx., via the local slope): [{c.field_ci95[0]:.4g}, {c.field_ci95[1]:.4g}]",
        f"  n={n} per evaluation, seed {seed} (same runs at every value) · config hash {c.config_hash}",
    ])
    _emit(d, as_json, human)
    if not c.converged:
        sys.exit(1)


@app.command()
def check(
    targets_file: Path = typer.Argument(..., help="targets file, e.g. configs/targets/kniffel.toml"),
    strict: bool = typer.Option(False, "--strict", help="also fail bands whose 95 % interval crosses an edge"),
    n: int | None = count_option(None, "--n", help="override N for every target"),
    out: Path | None = typer.Option(None, "--out", help="also write the verdicts as CSV here (and a page as .html)"),
    as_json: bool = JsonOpt,
    scheduler: str | None = SchedulerOpt,
    force: bool = ForceOpt,
) -> None:
    """Check balance target bands; exit 1 (with a table of the failing bands) when any fails."""
    from sim.core import limits

    if n is not None:
        limits.check_n(n, force)
    if out is not None and out.is_dir():
        raise DicesimError(f"--out {out} is a folder; --out names the CSV file to write (and its .html page)")
    from sim.core.backends import make_backend
    from sim.experiments.targets import check_targets, load_targets, verdicts_json, verdicts_table

    bands = load_targets(targets_file)
    limits.check_runs(sum(n or b.n for b in bands), force, "the targets' runs")
    verdicts = check_targets(bands, strict=strict, n=n, backend=make_backend(scheduler), progress=not as_json)
    failing = [v for v in verdicts if v.failing]
    if out:
        import pandas as pd

        from sim.core import atomic
        from sim.report.analysis import check_page

        if out.is_dir():
            raise atomic.OutputError(f"--out {out} is a folder; check writes a CSV file (e.g. --out {out}/check.csv)")
        with atomic.output_folder(out.parent), atomic.transaction(out.parent):
            atomic.write_csv(pd.DataFrame(verdicts_json(verdicts)), out)
            atomic.write_text(out.with_suffix(".html"), check_page(verdicts_json(verdicts), str(targets_file), strict))
    summary = {"targets": str(targets_file), "strict": strict, "passed": len(verdicts) - len(failing),
               "failed": len(failing), "verdicts": verdicts_json(verdicts)}
    lines = [verdicts_table(verdicts), "",
             f"{len(verdicts) - len(failing)} of {len(verdicts)} bands hold{' (strict)' if strict else ''}"]
    if failing:
        lines += [f"{len(failing)} failing:", verdicts_table(failing)]
    if as_json:
        sys.stdout.write(json.dumps(summary, default=_jsonable) + "\n")
    else:
        print("\n".join(lines))
    sys.stdout.flush()
    if failing:
        sys.exit(1)
