"""The designer command ``tune`` (registered on ``sim.cli.app``): several fields, several targets.

    dicesim tune configs/tune/kniffel-bonus.toml [--out DIR] [--resume] [--scheduler tcp://host:8786]

Exit 0 when every target is within its tolerance, 1 when the search stopped short of that (the best
evaluation is still written), 2 on bad input.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from sim.cli.common import ForceOpt, JsonOpt, SchedulerOpt, _emit, app


@app.command()
def tune(
    tune_file: Path = typer.Argument(..., help="tune file, e.g. configs/tune/kniffel-bonus.toml"),
    out: Path | None = typer.Option(None, "--out", help="output folder (default reports/tune/NAME)"),
    resume: bool = typer.Option(False, "--resume", help="continue an interrupted tune in --out; finished work is kept"),
    overwrite: bool = typer.Option(False, "--overwrite", help="discard a previous tune in --out and start over"),
    scheduler: str | None = SchedulerOpt,
    as_json: bool = JsonOpt,
    no_report: bool = typer.Option(False, "--no-report", help="only the tables and tuned.toml, no report.html"),
    force: bool = ForceOpt,
) -> None:
    """Tune several config fields so that several targets hit their values (scipy search on paired seeds)."""
    from sim.core.config import DicesimError
    from sim.experiments.tune_file import load_tune  # checked before pandas and the search are imported

    if resume and overwrite:
        raise DicesimError("--resume and --overwrite exclude each other")
    t = load_tune(tune_file, force=force)
    from sim.experiments.tune import result_json, run_tune
    dest = out or Path("reports") / "tune" / tune_file.stem
    r = run_tune(t, dest, resume=resume, overwrite=overwrite, scheduler=scheduler, log=not as_json,
                 report=not no_report)
    summary = result_json(t, r)
    lines = [f"tune {t.name}: {t.game.title}, n={t.spec.n} per evaluation, seed {t.spec.seed} (same runs every time) "
             f"· {len(r.history)} evaluations ({r.evals_played} played, {r.evals_reused} from the history) "
             f"· {r.stop} · {r.seconds:.1f} s",
             f"chosen (evaluation {r.best}):"]
    lines += [f"  {name} = {value:g}" for name, value in r.values.items()]
    lines.append("targets [95 %]:")
    for x in r.targets:
        mark = "ok " if x["within"] else "OFF"
        lines.append(f"  {mark} {x['name']}: {x['metric']} {x['value']:.4g} [{x['ci95'][0]:.4g}, {x['ci95'][1]:.4g}]"
                     f"  target {x['target']:g} ± {x['tol']:.3g}")
    lines.append(f"tuned config: {r.files['config']}")
    lines.append(f"history: {r.files['history_csv']}")
    if "report" in r.files:
        lines.append(f"report: {r.files['report']}")
    _emit(summary, as_json, "\n".join(lines))
    sys.stdout.flush()
    if not r.converged:
        sys.exit(1)
