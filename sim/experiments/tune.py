"""Tuning: values of several config fields that make several targets hit their values at once.

A tune file (``configs/tune/*.toml``) names the game, N, the seed, the fields with their bounds and
the targets::

    game = "kniffel"
    n = 4000
    seed = 1
    max_evals = 40                     # most evaluations to play (default 40)
    [fields]                           # dotted config fields and their bounds [low, high]
    "bonus.threshold" = [40, 80]
    "bonus.value" = [0, 120]
    [[target]]
    name = "greedy earns the upper bonus in 30 % of games"
    policy = "greedy"
    metric = "upper_bonus_rate"
    value = 0.3
    tol = 0.02                         # optional: default 0.25 x the 95 % half-width at the start
    # optional: options = {difficulty = "normal"}, set = {"skill.level" = 3} (fixed for this target)

Optional: ``config`` (base file), ``set`` (fixed overrides for every target), ``[start]`` (start
values; default the base config's, clamped into the bounds), ``chunk``, ``method``.

Every evaluation plays, per group of targets that share options and fixed overrides, one sweep point
(``sim.experiments.sweep``: atomic chunk parts, resumable, ``scheduler`` for Dask) over runs 0..n-1 with the same
seed: common random numbers make the objective a fixed function of the field values, so the
optimizer compares settings, not noise. The objective is the sum of squared target errors in units
of their tolerances; scipy's bounded Nelder-Mead (or Powell) searches the fields scaled to [0, 1]
(integer fields rounded, onto their grid where the rules accept only multiples of a step such as Dadox's points
unit for an exact target, float fields to 1e-4 of their range). The search stops when every target
is within its tolerance, when the optimizer converges, or after ``max_evals`` evaluations; the
chosen values are the best evaluation's.

Resume: each finished evaluation is recorded in ``history/``. The optimizer is deterministic, so a
resumed run replays the recorded evaluations (checking each is the one it asks for) and goes on: the
history equals an uninterrupted run's. An evaluation cut short resumes from its sweep's parts. Raising
``max_evals`` and resuming continues a search that ran out of evaluations.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.core import atomic
from sim.core.backends import make_backend
from sim.core.config import CONFIG_DIR, DicesimError, config_hash, read_toml, rule_notes, set_path
from sim.experiments.sweep import run_sweep, sweep_from_dict, toml_literal, write_parquet_atomic, write_text_atomic
from sim.experiments.sweep_store import state
from sim.experiments.tune_file import FLOAT_RESOLUTION, Tune, jsonable, load_tune, tune_from_dict
from sim.report.outputs import code_version
from sim.report.tune import build_tune_report
from sim.report.words import metric_label, policy_name, value_text

__all__ = ["Tune", "TuneResult", "load_tune", "run_tune", "tune_from_dict"]

TUNE_JSON = "tune.json"
RESULT_JSON = "result.json"
DEFAULT_TOL_SHARE = 0.25
SIMPLEX_STEP = 0.25  # first simplex edge, as a share of each field's range
OUTPUTS = (TUNE_JSON, RESULT_JSON, "history.csv", "history.parquet", "tuned.toml", "tune_history.png", "report.html")


# --- evaluations ------------------------------------------------------------------------------


@dataclass
class Evaluation:
    """One evaluation: the field values and each target's estimate with its 95 % interval."""
    index: int
    values: dict[str, Any]
    estimates: list[dict[str, Any]]  # per target: {"value", "ci95"}


class _Stop(Exception):
    """Ends the optimizer's loop from inside the objective (target reached, budget spent)."""
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def history_path(out: Path, k: int) -> Path:
    return out / "history" / f"e{k:04d}.json"


class Evaluator:
    """Field values -> target estimates, played as sweep points on the same seeds; recorded and replayed."""
    def __init__(self, tune: Tune, out: Path, backend: Any, log: bool):
        self.tune, self.out, self.backend, self.log = tune, out, backend, log
        self.history: list[Evaluation] = []
        self.by_key: dict[str, Evaluation] = {}
        self.played = 0
        self.reused = 0

    def __call__(self, values: dict[str, Any]) -> Evaluation:
        key = json.dumps(values, sort_keys=True)
        if key in self.by_key:
            return self.by_key[key]
        k = len(self.history)
        rec = history_path(self.out, k)
        data = recorded(rec)
        if data is not None:
            if data["values"] != jsonable(values):
                raise DicesimError(f"{self.out}: recorded evaluation {k} was at {data['values']}, the search now asks "
                                   f"for {values}; use a new --out or --overwrite")
            ev = Evaluation(k, data["values"], data["estimates"])
            self.reused += 1
        else:
            ev = Evaluation(k, dict(values), self._play(k, values))
            write_text_atomic(json.dumps(asdict(ev)), rec)
            self.played += 1
        self.history.append(ev)
        self.by_key[key] = ev
        if self.log:
            shown = ", ".join(f"{n}={v:g}" for n, v in values.items())
            game = self.tune.game.name  # each target's metric in the pages' units beside what it aims at
            whose = len({t.label for t in self.tune.targets}) > 1  # a policy's name where targets differ in it
            ests = " · ".join(f"{policy_name(game, t.label) + ': ' if whose else ''}{metric_label(game, t.metric)} "
                              f"{value_text(t.metric, e['value'], game=game)} (target "
                              f"{value_text(t.metric, t.value, game=game)})"
                              for t, e in zip(self.tune.targets, ev.estimates, strict=True))
            print(f"  eval {k:3d}: {shown}  ->  {ests}", file=sys.stderr)
        return ev

    def _play(self, k: int, values: dict[str, Any]) -> list[dict[str, Any]]:
        tune = self.tune
        estimates: list[dict[str, Any] | None] = [None] * len(tune.targets)
        for g in tune.groups:
            data = {
                "game": tune.game.name, "policies": g.policies, "n": tune.spec.n, "seed": tune.spec.seed,
                "chunk": tune.chunk, "options": g.options, "keep_runs": False,
                "variants": [{"name": f"evaluation {k}", "set": {**g.sets, **values}}],
            }
            if tune.base_config:
                data["config"] = tune.base_config
            sweep = sweep_from_dict(data, f"{tune.source} evaluation {k}", force=True)  # the tune checked its size
            r = run_sweep(sweep, self.out / "evals" / f"e{k:04d}" / f"g{g.index}", resume=True,
                          backend=self.backend, progress=False, report=False)
            for t in tune.targets:
                if t.group != g.index:
                    continue
                row = r.table[r.table["policy"] == t.label].iloc[0]
                v = float(row[t.metric])
                lo, hi = float(row[f"{t.metric}_ci95_low"]), float(row[f"{t.metric}_ci95_high"])
                estimates[t.index] = {"value": v, "ci95": [lo, hi] if math.isfinite(lo) else [v, v]}
        return [e for e in estimates if e is not None]


# --- the search -------------------------------------------------------------------------------


@dataclass
class TuneResult:
    """A finished tune: the chosen values, each target there, the history and where the files went."""
    out: Path
    values: dict[str, Any]
    targets: list[dict[str, Any]]
    best: int
    converged: bool
    stop: str
    history: pd.DataFrame
    evals_played: int
    evals_reused: int
    seconds: float
    fingerprint: str
    files: dict[str, str] = field(default_factory=dict)


def tolerances(tune: Tune, first: Evaluation) -> list[tuple[float, str]]:
    """Each target's tolerance and how it was set: given, or a share of the first estimate's 95 % half-width."""
    out = []
    for t, e in zip(tune.targets, first.estimates, strict=True):
        if t.tol is not None:
            out.append((t.tol, "given"))
            continue
        half = (e["ci95"][1] - e["ci95"][0]) / 2
        if not half > 0:
            raise DicesimError(f"target {t.index + 1} ({t.name}): {t.metric} has no interval at the start; give tol")
        out.append((DEFAULT_TOL_SHARE * half, f"{DEFAULT_TOL_SHARE:g} x the 95 % half-width at the start"))
    return out


def recorded(rec: Path) -> dict[str, Any] | None:
    """A finished evaluation's record, or None: absent, or damaged (a crash, a full disk, a hand edit), which is
    removed with one warning line and played again (the search asks for the same values: the same numbers)."""
    if not rec.is_file():
        return None
    try:
        data = json.loads(rec.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("values"), dict) and isinstance(data.get("estimates"), list) \
                and all(isinstance(e, dict) and isinstance(e.get("value"), int | float) for e in data["estimates"]):
            return data
    except (OSError, ValueError, UnicodeDecodeError):
        pass
    print(f"warning: {rec} is damaged; removed it and playing that evaluation again", file=sys.stderr)
    rec.unlink(missing_ok=True)
    return None


def _prepare_out(out: Path, tune: Tune, resume: bool, overwrite: bool) -> None:
    meta = out / TUNE_JSON
    atomic.check_kind(out, TUNE_JSON)  # another command's report.html would become the tune's
    if meta.is_file():
        if resume:  # read only to continue: --overwrite starts over from a damaged one too
            if state(meta).get("fingerprint") != tune.fingerprint():
                raise DicesimError(f"the tune file changed since {out} was started; --resume only continues the same "
                                   "tune: use a new --out or --overwrite")
            return
        if not overwrite:
            raise DicesimError(f"{out} already holds a tune: rerun with --resume to continue it or --overwrite to "
                               "start over")
        for sub in ("evals", "history"):
            shutil.rmtree(out / sub, ignore_errors=True)
        for name in OUTPUTS:
            (out / name).unlink(missing_ok=True)
    (out / "history").mkdir(parents=True, exist_ok=True)
    info = {"fingerprint": tune.fingerprint(), "source": tune.source, "name": tune.name,
            "spec": tune.spec.model_dump(mode="json"), "canonical": tune.canonical(), "code_version": code_version(),
            "started": time.strftime("%Y-%m-%dT%H:%M:%S")}
    write_text_atomic(json.dumps(info, indent=2), meta)


def run_tune(tune: Tune, out: str | Path, resume: bool = False, overwrite: bool = False,
             scheduler: str | None = None, log: bool = False, report: bool = True) -> TuneResult:
    """Search the fields (see the module doc), then write the history, the tuned config and the report."""
    out = Path(out)
    t0 = time.perf_counter()
    backend = make_backend(scheduler)  # one for the whole search; a scheduler that does not answer: before the folder
    try:
        with atomic.output_folder(out):
            return _run_locked(tune, out, t0, resume, overwrite, backend, log, report)
    finally:
        backend.close()


def _run_locked(tune: Tune, out: Path, t0: float, resume: bool, overwrite: bool, backend: Any, log: bool,
                report: bool) -> TuneResult:
    from scipy.optimize import minimize  # heavy library (scipy, ~0.3 s): only the Powell search needs it

    _prepare_out(out, tune, resume, overwrite)
    for stale in (out / "history").glob(".*.tmp"):
        stale.unlink(missing_ok=True)
    ev = Evaluator(tune, out, backend, log)

    def values_at(u: np.ndarray) -> dict[str, Any]:
        return {f.name: f.value(x) for f, x in zip(tune.fields, u, strict=True)}

    u0 = np.array([f.unit(f.start) for f in tune.fields])
    first = ev(values_at(u0))
    try:
        tols = tolerances(tune, first)
    except DicesimError:
        if not resume:  # a fresh tune that cannot go on leaves no folder that --resume or a rerun would trip over
            for sub in ("evals", "history"):
                shutil.rmtree(out / sub, ignore_errors=True)
            (out / TUNE_JSON).unlink(missing_ok=True)
        raise

    def errors(e: Evaluation) -> list[float]:
        return [(est["value"] - t.value) / tol for t, est, (tol, _) in zip(tune.targets, e.estimates, tols,
                                                                          strict=True)]

    def objective(u: np.ndarray) -> float:
        n_before = len(ev.history)
        if n_before >= tune.spec.max_evals and json.dumps(values_at(u), sort_keys=True) not in ev.by_key:
            raise _Stop("max evaluations")
        e = ev(values_at(u))
        errs = errors(e)
        if all(abs(x) <= 1 for x in errs):
            raise _Stop("every target within its tolerance")
        return float(sum(x * x for x in errs))

    d = len(tune.fields)
    try:
        objective(u0)
        if tune.spec.method == "nelder-mead":
            simplex = [u0] + [u0 + np.eye(d)[i] * (SIMPLEX_STEP if u0[i] + SIMPLEX_STEP <= 1 else -SIMPLEX_STEP)
                              for i in range(d)]
            res = minimize(objective, u0, method="Nelder-Mead", bounds=[(0.0, 1.0)] * d,
                     options={"initial_simplex": np.array(simplex), "xatol": FLOAT_RESOLUTION, "fatol": 1e-3,
                              "maxfev": 100 * tune.spec.max_evals, "maxiter": 100 * tune.spec.max_evals})
        else:
            res = minimize(objective, u0, method="Powell", bounds=[(0.0, 1.0)] * d,
                     options={"direc": np.eye(d) * SIMPLEX_STEP, "xtol": FLOAT_RESOLUTION, "ftol": 1e-3,
                              "maxfev": 100 * tune.spec.max_evals})
        stop = "optimizer converged" if res.success else f"optimizer stopped: {res.message}"
    except _Stop as s:
        stop = s.reason

    losses = [sum(x * x for x in errors(e)) for e in ev.history]
    best = int(np.argmin(losses))
    chosen = ev.history[best]
    targets = []
    for t, est, (tol, how) in zip(tune.targets, chosen.estimates, tols, strict=True):
        targets.append({"name": t.name, "policy": t.label, "metric": t.metric, "options": jsonable(t.options),
                        "set": jsonable(t.sets), "target": t.value, "tol": tol, "tol_how": how,
                        "value": est["value"], "ci95": est["ci95"], "within": abs(est["value"] - t.value) <= tol})
    converged = all(t["within"] for t in targets)
    history = history_table(tune, ev.history, tols, losses)
    files = write_outputs(out, tune, chosen, history)
    result = TuneResult(out, dict(chosen.values), targets, best, converged, stop, history, ev.played, ev.reused,
                        time.perf_counter() - t0, tune.fingerprint(), files)
    summary = result_json(tune, result)
    write_text_atomic(json.dumps(summary, indent=2), out / RESULT_JSON)
    files["result"] = str(out / RESULT_JSON)
    if report:

        files["report"] = str(build_tune_report(out))
    return result


def history_table(tune: Tune, history: list[Evaluation], tols: list[tuple[float, str]],
                  losses: list[float]) -> pd.DataFrame:
    """One row per evaluation: the field values, each target's estimate, interval and error, the loss."""
    rows = []
    for e, loss in zip(history, losses, strict=True):
        row: dict[str, Any] = {"evaluation": e.index, **e.values}
        within = True
        for t, est, (tol, _) in zip(tune.targets, e.estimates, tols, strict=True):
            p = f"t{t.index + 1}_{t.metric}"
            row[p] = est["value"]
            row[f"{p}_ci95_low"], row[f"{p}_ci95_high"] = est["ci95"]
            row[f"{p}_error"] = est["value"] - t.value
            within = within and abs(est["value"] - t.value) <= tol
        row["loss"] = loss
        row["within"] = within
        rows.append(row)
    return pd.DataFrame(rows)


def config_toml(data: dict[str, Any]) -> str:
    """A config (nested dict, as read from TOML) written as TOML: scalars first, then one table per section."""
    def key(k: str) -> str:
        return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k, ensure_ascii=False)

    def section(d: dict[str, Any], path: list[str]) -> list[str]:
        lines = [f"{key(k)} = {toml_literal(v)}" for k, v in d.items() if not isinstance(v, dict)]
        for k, v in d.items():
            if isinstance(v, dict):
                sub = [*path, key(k)]
                lines += ["", f"[{'.'.join(sub)}]", *section(v, sub)]
        return lines

    return "\n".join(section(data, [])) + "\n"


def write_outputs(out: Path, tune: Tune, chosen: Evaluation, history: pd.DataFrame) -> dict[str, str]:
    """history.csv/.parquet and tuned.toml (the base config with the tuned values, checked by loading it back)."""
    write_parquet_atomic(history, out / "history.parquet")
    write_text_atomic(history.to_csv(index=False), out / "history.csv")

    data = read_toml(tune.base_config or CONFIG_DIR / tune.game.name / "default.toml")
    for name, v in {**tune.sets, **chosen.values}.items():
        set_path(data, name.split("."), v, tune.game.Config)
    head = [f"# {tune.game.name} config tuned by `dicesim tune {tune.source}` (evaluation {chosen.index}):"]
    head += [f"#   {n} = {toml_literal(v)}" for n, v in chosen.values.items()]
    head += [f"# base: {tune.base_config or f'configs/{tune.game.name}/default.toml'}", ""]
    path = out / "tuned.toml"
    write_text_atomic("\n".join(head) + config_toml(data), path)
    if config_hash(tune.game.load(path)) != config_hash(tune.config_for(chosen.values)):
        raise DicesimError(f"{path} does not load back as the tuned config")
    return {"history_csv": str(out / "history.csv"), "history_parquet": str(out / "history.parquet"),
            "config": str(path)}


def result_json(tune: Tune, r: TuneResult) -> dict[str, Any]:
    """The JSON summary of a finished tune (``result.json`` and ``dicesim tune --json``)."""
    return {
        "tune": tune.source, "name": tune.name, "game": tune.game.name, "n": tune.spec.n, "seed": tune.spec.seed,
        "method": tune.spec.method, "fields": [asdict(f) for f in tune.fields], "values": jsonable(r.values),
        "targets": r.targets, "converged": r.converged, "stop": r.stop, "best_evaluation": r.best,
        "evaluations": len(r.history), "evals_played": r.evals_played, "evals_reused": r.evals_reused,
        "config_hash": config_hash(tune.config_for(r.values)), "notes": rule_notes(tune.config_for(r.values)),
        "fingerprint": r.fingerprint,
        "seconds": round(r.seconds, 3), "out": str(r.out), **r.files,
    }
