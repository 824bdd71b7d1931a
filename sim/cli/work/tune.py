"""The work of ``tune`` (its arguments: ``sim.cli.tune``)."""

from __future__ import annotations

import sys
from pathlib import Path

from sim.cli.common import emit
from sim.experiments.tune import load_tune, result_json, run_tune
from sim.report import words
from sim.report.outputs import json_default
from sim.report.tune import aim, stop_words, verdict


def tune(tune_file: Path, out: Path | None, resume: bool, overwrite: bool, scheduler: str | None, as_json: bool,
         no_report: bool, force: bool) -> None:
    t = load_tune(tune_file, force=force)
    dest = out or Path("reports") / "tune" / tune_file.stem
    r = run_tune(t, dest, resume=resume, overwrite=overwrite, scheduler=scheduler, log=not as_json,
                 report=not no_report)
    summary = result_json(t, r)
    game = t.game.name
    lines = [f"tune {t.name}: {t.game.title}, n={t.spec.n} per evaluation, seed {t.spec.seed} (same runs every time) "
             f"· {len(r.history)} evaluations ({r.evals_played} played, {r.evals_reused} from the history) "
             f"· {stop_words(r.stop, t.spec.max_evals)} · {r.seconds:.1f} s",
             verdict(r.targets, game),
             f"chosen (evaluation {r.best}):"]
    lines += [f"  {words.without_hint(words.config_label(game, t.game.Config, name))} ({name}) = {value:g}"
              for name, value in r.values.items()]
    lines += [f"  note: {note}" for note in summary["notes"]]
    lines.append("targets [95 %]:")
    for x in r.targets:
        m = x["metric"]
        lines.append(f"  {'met   ' if x['within'] else 'missed'} {x['name']}: {words.metric_label(game, m)} "
                     f"{words.value_text(m, x['value'], x['ci95'], game=game)}, target {aim(x, game)}")
    lines.append(f"tuned config: {r.files['config']}")
    lines.append(f"history: {r.files['history_csv']}")
    if "report" in r.files:
        lines.append(f"report: {r.files['report']}")
    emit(summary, as_json, "\n".join(lines), json_default)
    sys.stdout.flush()
    if not r.converged:
        sys.exit(1)
