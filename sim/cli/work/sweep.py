"""The work of ``sweep``, ``calibrate`` and ``check`` (their arguments: ``sim.cli.sweep``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pandas as pd

from sim import api
from sim.cli.common import emit
from sim.core import atomic, limits
from sim.core.backends import make_backend
from sim.core.errors import Unreached
from sim.experiments.calibrate import check_calibration, parse_target
from sim.experiments.sensitivity import base_point, comparable
from sim.experiments.sweep import Sweep, load_sweep, metric_names, run_sweep
from sim.experiments.sweep_store import load_result
from sim.experiments.targets import check_targets, load_targets, verdicts_json, verdicts_table
from sim.games import get_game
from sim.report import words
from sim.report.analysis import check_page
from sim.report.outputs import json_default
from sim.report.sweep import field_words, paired_change, said_value, sweep_answers


def sweep(sweep_file: Path, dest: Path, resume: bool, overwrite: bool, scheduler: str | None, as_json: bool,
          no_report: bool, force: bool, checked: Sweep | None = None) -> None:
    """``checked``: the sweep as ``sim.cli.work.files.sweep_checked`` read it before the game loaded."""
    s = checked.on(get_game(checked.game.name)) if checked is not None else load_sweep(sweep_file, force=force)
    r = run_sweep(s, dest, resume=resume, overwrite=overwrite, scheduler=scheduler, progress=not as_json,
                  report=not no_report)
    summary = {
        "sweep": str(sweep_file), "game": s.game.name, "points": len(s.points), "policies": [p for p, _ in s.plan],
        "n": s.spec.n, "seed": s.spec.seed, "rows": len(r.table), "chunks_run": r.chunks_run,
        "chunks_skipped": r.chunks_skipped, "seconds": round(r.seconds, 3), "fingerprint": r.fingerprint,
        "out": str(dest), **r.files,
    }
    names = metric_names(r.table)
    unknown = [m for m in s.spec.metrics if m not in names]
    if unknown:  # charted are the game's first metrics instead: say so rather than drop the names in silence
        print(f"warning: {s.source}: metrics: {s.game.name} reports no {limits.short(unknown[0])}"
              f"{f' (and {len(unknown) - 1} more)' if len(unknown) > 1 else ''}; the report charts its first metrics",
              file=sys.stderr)
    first = s.spec.metrics[0] if s.spec.metrics and s.spec.metrics[0] in names else (names[0] if names else None)
    points = words.plural(len(s.points), "points")
    plans = f"{len(s.plan)} polic{'ies' if len(s.plan) != 1 else 'y'}"
    ran = f"ran {words.plural(r.chunks_run, 'chunks')}, {r.chunks_skipped:,} already done"
    lines = [f"sweep {s.name}: {points} x {plans}, n={s.spec.n} each, seed {s.spec.seed} "
             f"(same for every point) · {ran} · {r.seconds:.1f} s"]
    if first and s.fields:  # the answer first: how the first metric moves along each field
        table, meta = load_result(dest)
        fields = list(s.fields)
        lines += sweep_answers(table, fields, first, base_point(table, fields, meta.get("base_values")), s.game.name,
                               paired_change(dest, meta, first))
    if first:  # every metric the file names (the first three), else the game's first
        shown = [m for m in s.spec.metrics if m in names][:3] or [first]
        lines += sweep_rows(s, r.table, shown)
    lines.append(f"table: {r.files['csv']} (+ .parquet)")
    if r.report:
        lines.append(f"report: {r.report}")
    emit(summary, as_json, "\n".join(lines), json_default)


def calibrate(game: str, target: str, field: str, policy: str, n: int, seed: int, lo: float | None, hi: float | None,
              tol: float | None, max_evals: int, config: Path | None, sets: list[str] | None, as_json: bool,
              scheduler: str | None, out: Path | None, force: bool, game_opts: dict[str, Any]) -> None:
    metric, value = parse_target(target)
    check_calibration(n, seed, value, lo, hi, tol, max_evals, force)
    g = get_game(game)
    try:
        r = api.calibrate(game, field, (metric, value), policy, n=n, seed=seed, config=config, set=sets or [], lo=lo,
                          hi=hi, tol=tol, max_evals=max_evals, scheduler=scheduler, log=not as_json, force=force,
                          **game_opts)
    except Unreached as e:  # --json promises one object on stdout: the search's answer is that it found none
        if as_json:
            emit({"game": game, "field": field, "policy": policy, "metric": metric, "target": value,
                  "converged": False, "error": str(e)}, True, "", json_default)
        raise
    d = r.summary
    if out is not None:
        d["report"] = str(r.write(out))
    c = SimpleNamespace(**d)
    est = c.estimate
    human = "\n".join([
        f"{' · '.join([g.title, *c.setting])} · {words.policy_name(g.name, c.policy)}: {_named(g.name, field)} = "
        f"{words.field_value_text(c.value, c.field_ci95)}"
        f"{f' (the config has {c.start:g})' if c.start is not None and c.start != c.value else ''}: "
        f"{words.metric_text(g.name, metric, est['value'], est['ci95'], headline=g.headline)} "
        f"(target {words.value_text(metric, value)})",
        f"  tolerance: {c.tolerance} · {_stopped(c.stop, len(c.evaluations))} · bracket "
        f"[{c.bracket[0]:.4g}, {c.bracket[1]:.4g}]",  # the digits of the interval line below, not 0.986652
        f"  {words.field_interval_text(field, c.field_ci95, len(c.evaluations), whole=isinstance(c.value, int))}",
        f"  n={n} per evaluation, seed {seed} (same runs at every value) · config hash {c.config_hash}",
        *(f"  note: {note}" for note in c.notes),
    ])
    emit(d, as_json, human, json_default)
    if not c.converged:
        sys.exit(1)


def _stopped(stop: str, evaluations: int) -> str:
    """Why the search stopped, in words: "max evaluations after 6 evaluations" said the limit twice."""
    if stop == "max evaluations":
        return f"stopped after all {words.plural(evaluations, 'evaluations')} allowed (--max-evals)"
    return f"{stop} after {words.plural(evaluations, 'evaluations')}"


def check(targets_file: Path, strict: bool, n: int | None, out: Path | None, as_json: bool, scheduler: str | None,
          force: bool) -> None:
    bands = load_targets(targets_file)
    limits.check_runs(sum(n or b.n for b in bands), force, "the targets' runs")
    verdicts = check_targets(bands, strict=strict, n=n, backend=make_backend(scheduler), progress=not as_json)
    failing = [v for v in verdicts if v.failing]
    if out:
        if out.is_dir():
            raise atomic.OutputError(f"--out {out} is a folder; check writes a CSV file (e.g. --out {out}/check.csv)")
        if out.suffix.lower() != ".csv":  # the page goes to out.with_suffix(".html"): never the table's own name
            raise atomic.OutputError(f"--out {out}: names the CSV table, e.g. --out {out.with_suffix('.csv')}")
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
        sys.stdout.write(json.dumps(summary, default=json_default) + "\n")
    else:
        print("\n".join(lines))
    sys.stdout.flush()
    if failing:
        sys.exit(1)


def sweep_rows(s: Any, table: Any, metrics: list[str]) -> list[str]:
    """The sweep's table as a person reads it: a column per swept field, headed in words (``Normal: enemy LP
    factor``) with its values in words (``Leicht``), or the variant's name; then the policy and each metric in its
    unit. Columns as wide as their widest cell (a value with more digits no longer shifts the row)."""
    g = s.game.name
    table = comparable(table, list(s.fields))  # lists and tables as the TOML that writes them, not Python's repr
    heads = [field_words(g, f) for f in s.fields] or ["variant"]
    cells = [[str(said_value(g, row[f])) for f in s.fields] or [str(row["label"])] for row in table.to_dict("records")]
    def interval(m: str) -> str:  # "[95 %]" only over a column whose values have one (not a quantile's)
        return " [95 %]" if table[[f"{m}_ci95_low", f"{m}_ci95_high"]].notna().all(axis=1).any() else ""

    heads += ["policy", *(f"{words.metric_label(g, m, s.game.headline)}{interval(m)}" for m in metrics)]
    for row, cell in zip(table.to_dict("records"), cells, strict=True):
        cell.append(words.policy_name(g, row["policy"]))
        cell += [words.value_text(m, row[m], (row[f"{m}_ci95_low"], row[f"{m}_ci95_high"])) for m in metrics]
    width = [max(len(x) for x in col) for col in zip(heads, *cells, strict=True)]
    return ["  " + "  ".join(x.ljust(w) for x, w in zip(line, width, strict=True)).rstrip()
            for line in (heads, *cells)]


def _named(game: str, field: str) -> str:
    """A field in words with its code after it (``Normal: enemy LP factor (difficulty.normal.hp)``): the page says
    the words, a ``--set`` line the code."""
    said = field_words(game, field)
    return field if said == field else f"{words.without_hint(said)} ({field})"
