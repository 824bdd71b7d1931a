"""The designer command ``tune`` (registered on ``sim.cli.app``): several fields, several targets.

    dicesim tune configs/tune/kniffel-bonus.toml [--out DIR] [--resume] [--scheduler tcp://host:8786]

Exit 0 when every target is within its tolerance, 1 when the search stopped short of that (the best
evaluation is still written), 2 on bad input. The work is ``sim.cli.work.tune``.
"""

from __future__ import annotations

from pathlib import Path

import typer

from sim.cli.common import ForceOpt, JsonOpt, SchedulerOpt, app, check_out, path_argument, work
from sim.core.errors import DicesimError
from sim.core.tomlfile import read_toml


@app.command()
def tune(
    tune_file: Path = path_argument("tune file", "tune file, e.g. configs/tune/kniffel-bonus.toml"),
    out: Path | None = typer.Option(None, "--out", help="output folder (default reports/tune/NAME)"),
    resume: bool = typer.Option(False, "--resume", help="continue an interrupted tune in --out; finished work is kept"),
    overwrite: bool = typer.Option(False, "--overwrite", help="discard a previous tune in --out and start over"),
    scheduler: str | None = SchedulerOpt,
    as_json: bool = JsonOpt,
    no_report: bool = typer.Option(False, "--no-report", help="only the tables and tuned.toml, no report.html"),
    force: bool = ForceOpt,
) -> None:
    """Tune several config fields so that several targets hit their values (scipy search on paired seeds)."""
    if resume and overwrite:
        raise DicesimError("--resume and --overwrite exclude each other")
    check_out(out, kind="tune.json")
    data = read_toml(tune_file, "tune file")  # a missing or broken file: refused before pandas and the games load
    work("files").tune_checked(data, tune_file, force)  # and what the config model can refuse, in the same words
    work("tune").tune(tune_file, out, resume, overwrite, scheduler, as_json, no_report, force)
