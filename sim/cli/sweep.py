"""The designer commands ``sweep``, ``calibrate`` and ``check`` (registered on ``sim.cli.app``): their arguments and
the checks that need no game; the work is ``sim.cli.work.sweep``.

    dicesim sweep configs/sweeps/kniffel-bonus.toml [--out DIR] [--resume] [--scheduler tcp://host:8786]
    dicesim calibrate kniffel --target upper_bonus_rate=0.3 --field bonus.threshold --policy greedy
    dicesim check configs/targets/kniffel.toml [--strict]     # exit 1 when a band fails
"""

from __future__ import annotations

import glob
from pathlib import Path
from typing import Any

import typer

from sim.cli.catalog import accept, check_field, check_metric, check_read
from sim.cli.common import (
    GAME_NAMES,
    ConfigOpt,
    ForceOpt,
    JsonOpt,
    SchedulerOpt,
    SeedOpt,
    SetOpt,
    app,
    check_out,
    count_option,
    path_argument,
    policies_help,
    with_game_options,
    work,
)
from sim.core import atomic
from sim.core.errors import DicesimError
from sim.core.limits import check_calibration, check_field_unset, check_n, check_runs, parse_target
from sim.core.names import game_name
from sim.core.tomlfile import read_toml


@app.command()
def sweep(
    sweep_file: Path = path_argument("sweep file", "sweep file, e.g. configs/sweeps/kniffel-bonus.toml"),
    out: Path | None = typer.Option(None, "--out", help="output folder (default reports/sweeps/NAME)"),
    resume: bool = typer.Option(False, "--resume", help="continue a killed sweep in --out; finished work is kept"),
    overwrite: bool = typer.Option(False, "--overwrite", help="discard a previous sweep in --out and start over"),
    scheduler: str | None = SchedulerOpt,
    as_json: bool = JsonOpt,
    no_report: bool = typer.Option(False, "--no-report", help="only the tables, no charts or report.html"),
    force: bool = ForceOpt,
) -> None:
    """Play a grid of config values (paired seeds) and write one row per grid point and policy."""
    if resume and overwrite:
        raise DicesimError("--resume and --overwrite exclude each other")
    check_out(out, kind="sweep.json")
    data = read_toml(sweep_file, "sweep file")  # a missing or broken file: refused before pandas and the games load
    checked = work("files").sweep_checked(data, sweep_file, force)  # and what the config model can refuse
    dest = out or Path("reports") / "sweeps" / sweep_file.stem
    work("files").check_started(dest, resume, overwrite)  # a folder holding a sweep: before the games load
    work("sweep").sweep(sweep_file, dest, resume, overwrite, scheduler, as_json, no_report, force, checked)


@app.command()
@with_game_options
def calibrate(
    game: str = typer.Argument(..., callback=game_name, help=GAME_NAMES),
    target: str = typer.Option(..., "--target", help="metric=value, e.g. win_rate=0.5"),
    field: str = typer.Option(..., "--field", help="the config field to tune, e.g. difficulty.normal.hp"),
    policy: str = typer.Option(..., "--policy", help=policies_help("policy whose metric is tuned")),
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
    check_calibration(n, seed, parse_target(target)[1], lo, hi, tol, max_evals, force)
    check_out(out, kind="calibration.json")
    if not field.strip():
        raise DicesimError("--field is empty: give a config field's dotted name, e.g. difficulty.normal.hp")
    check_field_unset(field, set_)
    accept(game, game_opts, policy, config, set_, seated=True)  # refused here; played from the file and overrides
    check_field(game, config, set_, field, lo, hi)
    check_metric(game, config, set_, policy, game_opts or {}, parse_target(target)[0])
    check_read(game, field, game_opts or {}, policy)
    work("sweep").calibrate(game, target, field, policy, n, seed, lo, hi, tol, max_evals, config, set_, as_json,
                            scheduler, out, force, game_opts or {})


@app.command()
def check(
    targets_file: Path = path_argument("targets file", "targets file, e.g. configs/targets/kniffel.toml"),
    strict: bool = typer.Option(False, "--strict", help="also fail bands whose 95 % interval crosses an edge"),
    n: int | None = count_option(None, "--n", help="override N for every target"),
    out: Path | None = typer.Option(None, "--out", help="also write the verdicts as CSV here (and a page as .html)"),
    as_json: bool = JsonOpt,
    scheduler: str | None = SchedulerOpt,
    force: bool = ForceOpt,
) -> None:
    """Check balance target bands; exit 1 (with a table of the failing bands) when any fails."""
    if n is not None:
        check_n(n, force)
    if out is not None and out.is_dir():
        raise DicesimError(f"--out {out} is a folder; --out names the CSV file to write (and its .html page)")
    if out is not None and out.suffix.lower() != ".csv":  # v.txt got CSV text; v.html would be replaced by the page
        raise DicesimError(f"--out {out}: names the CSV table (its page is written beside it as .html), "
                           f"e.g. --out {out.with_suffix('.csv')}")
    if out is not None:
        check_out(out.parent, f"--out {out}: its folder")
        atomic.check_own_files(out.parent, [out, out.with_suffix(".html")], f"--out {out}")
        twin = next((p.name for p in out.parent.glob(f"{glob.escape(out.stem)}.*")
                     if p.suffix.lower() == ".csv" and p.name != out.name), None)
        page = out.with_suffix(".html")
        if out.exists() and not atomic.page_titled(page, "dicesim check"):  # a table check wrote has its page
            raise DicesimError(f"--out {out}: {out.name} there is not a table dicesim check wrote (it would be "
                               "replaced): give another name or folder")
        if twin:  # v.CSV and v.csv would share one page, v.html
            raise DicesimError(f"--out {out}: {twin} there has the same page ({out.with_suffix('.html').name}): "
                               "give another name")
    targets = read_toml(targets_file, "targets file").get("target")
    work("files").targets_checked(targets_file)  # what the config model can refuse, in the full check's words
    if n is not None and isinstance(targets, list):  # every target plays --n: the limit before the games load
        check_runs(n * len(targets), force, "the targets' runs")
    work("sweep").check(targets_file, strict, n, out, as_json, scheduler, force)
