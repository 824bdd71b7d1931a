"""The Python API: one-line calls that mirror the CLI and return pandas (``import sim; sim.play(...)``).

``play``, ``compare``, ``sweep``, ``calibrate`` and ``solve`` each return a result with ``.table`` (per-run
rows, or the analysis' own rows), ``.metrics`` (tidy: label, metric, value, ci95_low, ci95_high), ``.summary``
(exactly the dict ``dicesim … --json`` prints: the CLI's ``play`` and ``compare`` call these functions) and
``.plot()`` (the charts, shown inline in a notebook). Game options (``players``, ``difficulty``, ``opponent``, …)
are keyword arguments; ``set`` takes ``["bonus.value=40"]`` or ``{"bonus.value": 40}``.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import functools
import inspect
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.core import atomic
from sim.core.config import DicesimError, Strict, config_hash, revalidated
from sim.core.errors import COMMAND_LINE
from sim.core.jsonable import finite
from sim.core.limits import check_field_unset, check_whole_players, short
from sim.core.names import game_name, policy_label, policy_text
from sim.games import declared
from sim.games.options import (
    check_opponent,
    check_policy_list,
    check_solve_sets,
    for_play,
    named_seats,
    refuse_unread_sets,
    unread_option,
)

SetArg = list[str] | dict[str, Any] | None
Answered = Callable[[dict[str, Any]], None] | None  # told the summary before the outputs are written


def _sets(value: SetArg) -> list[str]:
    """``--set`` overrides from a list of ``path=value`` strings or a ``{path: value}`` dict."""
    if value is None:
        return []
    if isinstance(value, dict):
        from sim.experiments.sweep import toml_literal

        for k in value:  # {"bonus.value=99 #": 0} played bonus.value=99: the key is one field's path, nothing more
            if not isinstance(k, str) or any(c in k for c in "=#\n"):
                raise DicesimError(f"set's key {short(k)} is no field path (a dotted name such as bonus.value, "
                                   "without '=' or '#')")
        return [f"{k}={toml_literal(v)}" for k, v in value.items()]
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise DicesimError(f"set must be 'path=value', a list of them or a dict {{path: value}}, got {value!r}"[:200])
    return list(value)


def _path(value: Any, what: str) -> None:
    """A file or folder argument is a path (``str`` or ``Path``) or None: anything else is refused in words before
    any work, not a TypeError from deep inside."""
    if value is not None and not isinstance(value, str | os.PathLike):
        raise DicesimError(f"{what} must be a path (a str or pathlib.Path), got {value!r}"[:200])
    if value is not None and not os.fspath(value).strip():  # '' is not the current folder, nor ' ' a name (the
        raise DicesimError(f"{what} is empty: give a path, or leave it out")  # command line refuses both too)


def _flags(**flags: Any) -> None:
    """On/off arguments are True or False: ``force='no'`` would be true and play past the limit."""
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise DicesimError(f"{name} must be True or False, got {value!r}"[:200])


def _answered(answered: Answered) -> None:
    """``answered`` is a function of the summary (or None): refused before the runs, not when they are done."""
    if answered is not None and not callable(answered):
        raise DicesimError(f"answered must be a function of the summary (or None), got {answered!r}"[:200])


def _backend(backend: Any, scheduler: str | None) -> Any:
    """The backend given (anything with ``run(game, jobs)``, ``sim.core.backends``), else this process or Dask."""
    from sim.core.backends import make_backend

    if backend is None:
        return make_backend(scheduler)  # an unreachable scheduler is refused before any folder is made
    if not callable(getattr(backend, "run", None)):
        raise DicesimError(f"backend must be a sim.core.backends backend (with run(game, jobs)), got {backend!r}"[:200])
    return backend


def _setup(game: str, config: str | Path | Strict | None, set_: SetArg, options: dict[str, Any], plays: bool = False):
    """(game, config, options): ``config`` a TOML path (default: the game's default) with ``set`` overrides, or an
    already validated config object (the studio's edited rules) used as it is. ``plays``: runs are played, so an
    option of another command only (``objective``: ``solve``'s) is refused, as the command line does."""
    from sim.games import get_game

    g = get_game(game_name(game))
    if plays:
        for_play(g.name, options)
    if not isinstance(config, Strict):
        _path(config, "config")
    elif not isinstance(config, g.Config):  # another game's rules: a pydantic AttributeError deep inside the game
        raise DicesimError(f"config is a {type(config).__name__}, not {g.title}'s rules ({g.Config.__name__})")
    opts = g.check_options({k: v for k, v in options.items() if v is not None})
    if isinstance(config, Strict):
        if _sets(set_):
            raise DicesimError("set= applies to a config file, not to a config object: change the object")
        return g, revalidated(config), opts
    return g, g.load(config, _sets(set_)), opts


def _check_job(n: int, seed: int, chunk: int | None, force: bool) -> None:
    """The job's numbers within ``sim.core.limits`` (before any config is read or kernel loaded), named as a notebook
    passes them (``n must be …``, not the command line's ``--n``)."""
    from sim.core import limits

    limits.check_n(n, force, "n", "force=True")
    limits.check_seed(seed, "seed")
    limits.check_chunk(chunk, "chunk")


def _refuse_unread(g, cfg: Strict, set_: SetArg, opts: dict[str, Any], policy: str) -> None:
    """A ``set=`` field this run never reads (a difficulty not played, a field only a policy no seat plays reads, an
    ability of no side's people): refused as the command line refuses ``--set`` (it played the same numbers)."""
    sets = _sets(set_)
    if sets:
        count = declared(g.name, "seat_count")
        refuse_unread_sets(g.name, opts, named_seats(policy, opts), sets, cfg, count(opts) if count else None)


def _seats_text(policy: Any) -> str:
    """``policy_text`` and, as the command line, no empty name between commas (``"greedy,"`` played one seat)."""
    text = policy_text(policy)
    check_policy_list(text)
    return text


_FLAG = re.compile(r"(?<![\w/.-])--([a-z][a-z0-9-]*)")  # a flag in the words, not inside a path (/tmp/--x.toml)
_QUOTED = re.compile(r"('(?:[^'\\]|\\.)*')")  # a value as repr() quotes it ('--force'): the caller's own text


def _keyword(m: re.Match) -> str:
    return "force=True" if m.group(1) == "force" else m.group(1).replace("-", "_")


@contextlib.contextmanager
def _api_words():
    """The game's and the engine's checks name the command line's flags (``--players must be 1..8``); a notebook
    passes keyword arguments, so a refusal here names those (``players must be 1..8``, ``opponent_people``)."""
    if COMMAND_LINE.get():  # the command line's own call: its words are right
        yield
        return
    try:
        yield
    except DicesimError as e:
        said = "".join(part if i % 2 else _FLAG.sub(_keyword, part)  # a quoted value is the caller's own text
                       for i, part in enumerate(_QUOTED.split(str(e))))
        if said == str(e):
            raise
        try:
            err = type(e)(said)
        except Exception:  # a subclass with another constructor: the message matters, not the subclass
            err = DicesimError(said)
        raise err from None


def _api(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A public call: numpy's numbers among its arguments count as Python's (``n=np.int64(100)``, a value read from a
    DataFrame, ``set={"goal.target": np.int64(50)}``: a notebook makes them all the time), and its refusals name the
    keyword arguments (``_api_words``)."""

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        with _api_words():
            _no_such_argument(fn, kwargs)
            try:
                return fn(*_python(args), **_python(kwargs))
            except OSError as e:  # a name the file system will not look up (over 255 bytes): said, as the CLI says it
                if e.errno not in (errno.ENAMETOOLONG, errno.ELOOP) or e.filename is None:
                    raise
                raise DicesimError(atomic.path_error(e)) from None

    return call


def _no_such_argument(fn: Callable[..., Any], kwargs: dict[str, Any]) -> None:
    """A keyword that is neither one of ``fn``'s arguments nor any game's option (``sim.calibrate(chunk=10)``: chunk
    is ``play``'s) is named as such, not as "an option that does not apply to the game"."""
    params = inspect.signature(fn).parameters
    extra = [k for k in kwargs if k not in params]
    if not extra or not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return  # every keyword is an argument, or Python refuses it itself
    from sim.games import GAMES, declared_options

    options = {o.name for g in GAMES for o in declared_options(g) or ()}
    for k in extra:
        if k not in options:
            takes = [n for n, p in params.items() if p.kind is p.POSITIONAL_OR_KEYWORD or p.kind is p.KEYWORD_ONLY]
            raise DicesimError(f"sim.{fn.__name__}() has no argument {k!r}"[:120]
                               + f" (it takes {', '.join(takes)} and the game's options)")


def _python(value: Any) -> Any:
    """``value`` with numpy scalars and arrays, also inside dicts, lists and tuples, as Python numbers and lists."""
    if isinstance(value, np.generic | np.ndarray):
        return value.tolist()
    if isinstance(value, dict):
        return {k: _python(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_python(v) for v in value)
    return value


def _show(paths: list[Path]) -> None:
    """Display PNGs inline when running under IPython (a notebook); silently nothing elsewhere."""
    try:
        from IPython import get_ipython
        from IPython.display import Image, display
    except ImportError:
        return
    if get_ipython() is not None:
        for p in paths:
            display(Image(filename=str(p)))


def _after_run() -> None:
    """A notebook has no command that ends: once the Würfel Dungeon ran on its quick kernels, start the compile of
    its optimised ones (``sim.jit.tier``; once, in the background)."""
    tier = sys.modules.get("sim.jit.tier")
    if tier is not None:
        tier.after_command()


def _temporary(prefix: str) -> Path:
    """A temporary folder for what a call writes without ``out``, removed when Python exits (they stayed in /tmp for
    good: 130 folders, 193 MB on one machine)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def _chart_dir(out: str | Path | None) -> Path:
    from sim.core.atomic import make_folder

    dest = Path(out) if out is not None else _temporary("dicesim-charts-")
    return make_folder(dest, "the chart folder")


def _writing_to(out: str | Path | None) -> contextlib.AbstractContextManager:
    """The output folder created and locked for the whole command (a second writer is refused before anything is
    played), or nothing without ``out``; a sweep's folder is refused (its report.html would be this run's)."""
    from sim.core.atomic import check_kind, output_folder

    if out is not None:
        check_kind(out, "manifest.json")
    return output_folder(out) if out is not None else contextlib.nullcontext()


@dataclass
class Result:
    """Tables per label (policy or match) and the summary of one ``play`` or ``compare``."""

    game: str
    tables: dict[str, pd.DataFrame]
    summary: dict[str, Any]
    options: dict[str, Any]
    config: Strict | None = None
    report: Path | None = None
    seconds: float = 0.0  # playing time, unrounded (the summary rounds it)

    @property
    def table(self) -> pd.DataFrame:
        """The per-run table (several labels: stacked, with a ``label`` column first)."""
        if len(self.tables) == 1:
            return next(iter(self.tables.values()))
        return pd.concat([t.assign(label=lab) for lab, t in self.tables.items()], ignore_index=True)[
            ["label", *next(iter(self.tables.values())).columns]]

    def metrics_by_label(self) -> dict[str, dict[str, dict[str, Any]]]:
        if "metrics" in self.summary:
            return {self.summary["policy"]: self.summary["metrics"]}
        return {lab: r["metrics"] for lab, r in self.summary["policies"].items()}

    @property
    def metrics(self) -> pd.DataFrame:
        from sim.report.outputs import tidy_metrics

        return tidy_metrics(self.metrics_by_label())

    @property
    def paired(self) -> pd.DataFrame:
        """Paired differences (same runs): comparison, value, ci95_low, ci95_high."""
        rows = [{"comparison": k, "value": v["value"], "ci95_low": v["ci95"][0], "ci95_high": v["ci95"][1]}
                for k, v in (self.summary.get("paired") or {}).items()]
        return pd.DataFrame(rows, columns=["comparison", "value", "ci95_low", "ci95_high"])

    def plot(self, out: str | Path | None = None) -> list[Path]:
        """The game's charts of these tables (PNG files in ``out``, or a temporary folder removed when Python exits),
        shown in a notebook."""
        _path(out, "out")  # '' drew into the current folder, where play(out='') refuses
        from sim.games import get_game

        g = get_game(self.game)
        cfg = self.config if self.config is not None else g.load()
        paths = [Path(p) for p in g.charts(self.tables, _chart_dir(out), self.options, cfg)]
        _show(paths)
        return paths

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game} {list(self.tables)} n={self.summary.get('n')}>"


@_api
def play(game: str, policy: str, n: int = 10_000, seed: int = 1, config: str | Path | Strict | None = None,
         set: SetArg = None, out: str | Path | None = None, chunk: int | None = None, scheduler: str | None = None,
         progress: bool = False, backend: Any = None, force: bool = False, answered: Answered = None,
         **options: Any) -> Result:
    """Play ``n`` runs of ``policy`` (``"a,b"``: one per seat); with ``out``, write tables, charts and report.html.
    ``backend``: where chunks run (``sim.core.backends``; default this process, or Dask with ``scheduler``).
    ``force``: play more runs than ``sim.core.limits.MAX_RUNS``. ``answered``: called with the summary once the
    numbers are known, before the outputs are written (the command line prints its answer there: a designer reads
    it while the charts are drawn)."""
    from sim.core.batch import run_batch

    _flags(progress=progress, force=force)
    _answered(answered)
    _check_job(n, seed, chunk, force)
    _path(out, "out")
    policy = _seats_text(policy)  # ["greedy", "random"] or "Greedy, Random": "greedy,random", as the CLI reads it
    check_opponent(policy, policy_label(options.get("opponent")))  # beside a list of seats: refused as on the CLI
    g, cfg, opts = _setup(game, config, set, options, plays=True)
    seats = g.seat_policies(policy, opts)
    _refuse_unread(g, cfg, set, opts, policy)
    if (skill := getattr(cfg, "skill", None)) is not None:  # a --set skill.games_per_player as --games-per-player
        check_whole_players(n, skill.games_per_player)
    backend = _backend(backend, scheduler)
    with _writing_to(out):
        batch = run_batch(g, cfg, seats, n, seed, opts, chunk=chunk or g.chunk, backend=backend, progress=progress)
        return _played(g, cfg, opts, policy, n, seed, batch, out, answered)


def _opponent(opts: dict[str, Any]) -> str | None:
    """The policy an ``opponent`` option seats beside the played one, for the answer's words."""
    rival = opts.get("opponent")
    return rival if isinstance(rival, str) and rival else None


def _played(g, cfg: Strict, opts: dict[str, Any], policy: str, n: int, seed: int, batch, out,
            answered: Answered = None) -> Result:
    from sim.report.outputs import write_outputs
    from sim.report.pages import play_verdicts

    metrics = g.metrics(batch.table, opts, cfg)
    seats = g.seat_policies(policy, opts)
    summary: dict[str, Any] = {
        "game": g.name, "policy": policy, "n": n, "seed": seed, "config_hash": config_hash(cfg),
        "seconds": round(batch.seconds, 4), "runs_per_second": round(batch.runs_per_second, 1), "options": opts,
        "assumed": list(getattr(cfg, "assumed", []) or []), "metrics": metrics,
        "verdicts": play_verdicts(g.name, policy, metrics, g.headline,  # the answer first, in words
                                  g.played_as(cfg, seats), _opponent(opts), seats),
    }
    if answered is not None:
        answered(finite(summary))
    report = None
    if out is not None:
        report = write_outputs(Path(out), {**summary, "config": cfg.model_dump(mode="json")}, {policy: batch.table},
                               {policy: metrics})
        summary["out"] = str(out)
        summary["report"] = str(report)
    _after_run()
    return Result(g.name, {policy: batch.table}, finite(summary), opts, cfg, report, batch.seconds)


@_api
def compare(game: str, policies: str | list[str], n: int = 10_000, seed: int = 1,
            config: str | Path | Strict | None = None, set: SetArg = None, out: str | Path | None = None,
            chunk: int | None = None, scheduler: str | None = None, progress: bool = False, backend: Any = None,
            force: bool = False, answered: Answered = None, **options: Any) -> Result:
    """Play several policies on the same seeds; ``.summary["paired"]`` / ``.paired``: differences per run with
    95 % intervals for every headline metric (rates included). With ``out``, write the outputs; ``answered`` as
    :func:`play`'s."""
    from sim.core import experiment

    _flags(progress=progress, force=force)
    _answered(answered)
    _check_job(n, seed, chunk, force)
    _path(out, "out")
    g, cfg, opts = _setup(game, config, set, options, plays=True)
    if isinstance(policies, str) or (isinstance(policies, list | tuple) and all(isinstance(p, str) for p in policies)):
        _refuse_unread(g, cfg, set, opts, policy_text(policies))  # a field any compared policy reads is read
    backend = _backend(backend, scheduler)
    with _writing_to(out):
        exp = experiment.compare(g, cfg, policies, n, seed, opts, chunk=chunk, backend=backend, progress=progress)
        return _compared(g, cfg, opts, n, seed, exp, out, answered)


def _compared(g, cfg: Strict, opts: dict[str, Any], n: int, seed: int, exp, out, answered: Answered = None) -> Result:
    from sim.report.outputs import tidy_metrics, write_outputs
    from sim.report.pages import verdicts

    tables, results = exp.tables, {k: a.summary() for k, a in exp.arms.items()}
    summary: dict[str, Any] = {
        "game": g.name, "policies": results, "n": n, "seed": seed, "config_hash": config_hash(cfg), "options": opts,
        "assumed": list(getattr(cfg, "assumed", []) or []), "paired": exp.paired,
    }
    # the answers first, in words (``--json`` too): who beats whom, how fair the seats are
    summary["verdicts"] = verdicts(tidy_metrics({k: v["metrics"] for k, v in results.items()}), exp.paired,
                                   g.headline, g.name, opts)
    if answered is not None:
        answered(finite(summary))
    report = None
    if out is not None:
        report = write_outputs(Path(out), {**summary, "config": cfg.model_dump(mode="json")}, tables,
                               {k: v["metrics"] for k, v in results.items()})
        summary["out"] = str(out)
        summary["report"] = str(report)
    _after_run()
    return Result(g.name, tables, finite(summary), opts, cfg, report, sum(a.seconds for a in exp.arms.values()))


@dataclass
class SweepOutcome:
    """A finished sweep: ``.table`` one row per (grid point, policy) with every metric and its interval."""

    table: pd.DataFrame
    summary: dict[str, Any]
    out: Path
    report: Path | None = None

    @property
    def metrics(self) -> pd.DataFrame:
        """Tidy: the point's label and swept fields, policy, metric, value, ci95_low, ci95_high."""
        from sim.experiments.sweep import metric_names

        keys = [c for c in self.table.columns if c in ("label", "policy", *self.summary.get("fields", []))]
        rows = []
        for r in self.table.to_dict("records"):
            for m in metric_names(self.table):
                rows.append({**{k: r[k] for k in keys}, "metric": m, "value": r[m], "ci95_low": r[f"{m}_ci95_low"],
                             "ci95_high": r[f"{m}_ci95_high"]})
        return pd.DataFrame(rows)

    def plot(self, out: str | Path | None = None) -> list[Path]:
        """The sweep report's charts (metric vs field with 95 % bands, heatmaps, tornado), shown in a notebook;
        ``out``: a folder to copy them into (as ``Result.plot`` draws into one)."""
        _path(out, "out")
        if self.report is None:
            from sim.report.sweep import build_sweep_report

            self.report = build_sweep_report(self.out)
        paths = sorted(self.out.glob("sweep_*.png"))
        if out is not None:
            from sim.core import atomic

            folder = _chart_dir(out)
            paths = [atomic.copy_file(p, folder / p.name) for p in paths]
        _show(paths)
        return paths


@_api
def sweep(spec: str | Path | dict[str, Any], out: str | Path | None = None, resume: bool = False,
          overwrite: bool = False, scheduler: str | None = None, progress: bool = False,
          report: bool = True, force: bool = False) -> SweepOutcome:
    """Run a sweep file (or the same content as a dict) into ``out`` (default: a temporary folder, removed when Python
    exits); ``force``: more points or runs than ``sim.core.limits`` allows."""
    from sim.experiments.sweep import load_sweep, run_sweep, sweep_from_dict
    from sim.experiments.sweep_spec import from_python

    if not isinstance(spec, dict | str | os.PathLike):
        raise DicesimError(f"spec must be a sweep file or its content as a dict, got {spec!r}"[:200])
    if not isinstance(spec, dict) and not str(spec).strip():  # Path("") is ".": "sweep file . is a folder"
        raise DicesimError(f"spec is named {str(spec)!r} (empty): give a sweep file's name")
    _flags(resume=resume, overwrite=overwrite, progress=progress, report=report, force=force)
    if resume and overwrite:  # as the command line: which of the two wins would be a guess
        raise DicesimError("resume and overwrite exclude each other: resume keeps the folder's points, overwrite "
                           "replaces them")
    _path(out, "out")
    # a Python spec as a file reads (``from_python``): tuples as lists, numpy numbers as numbers (a tuple of policies
    # was refused where ``sim.play`` takes one)
    s = sweep_from_dict(from_python(spec), source="sweep", force=force) if isinstance(spec, dict) else \
        load_sweep(spec, force)
    dest = Path(out) if out is not None else _temporary("dicesim-sweep-")
    r = run_sweep(s, dest, resume=resume, overwrite=overwrite, scheduler=scheduler, progress=progress, report=report)
    summary = {
        "sweep": str(spec) if not isinstance(spec, dict) else "dict", "game": s.game.name, "points": len(s.points),
        "policies": [p for p, _ in s.plan], "n": s.spec.n, "seed": s.spec.seed, "rows": len(r.table),
        "chunks_run": r.chunks_run, "chunks_skipped": r.chunks_skipped, "seconds": round(r.seconds, 3),
        "fingerprint": r.fingerprint, "out": str(dest), "fields": list(s.fields), **r.files,
    }
    return SweepOutcome(r.table, summary, dest, r.report)


@dataclass
class CalibrationOutcome:
    """A calibration: ``.table`` every evaluation (field value, metric, interval), ``.summary`` the CLI's JSON."""

    summary: dict[str, Any]
    table: pd.DataFrame = field(default_factory=pd.DataFrame)

    @property
    def value(self) -> float:
        return self.summary["value"]

    @property
    def metrics(self) -> pd.DataFrame:
        e = self.summary["estimate"]
        return pd.DataFrame([{"label": f"{self.summary['field']}={self.summary['value']}",
                              "metric": self.summary["metric"], "value": e["value"], "ci95_low": e["ci95"][0],
                              "ci95_high": e["ci95"][1]}])

    @_api  # its refusals name ``out``, not the command line's ``--out``
    def write(self, out: str | Path) -> Path:
        """``calibration.json``, ``evaluations.csv``, ``calibration.png`` and a one-file ``report.html`` in ``out``."""
        if out is None:
            raise DicesimError("out is missing: give the folder to write the calibration into")
        _path(out, "out")  # '' wrote into the current folder; 123 gave a bare TypeError
        from sim.core import atomic
        from sim.games import get_game
        from sim.report.analysis import calibration_page
        from sim.report.outputs import json_default

        out = Path(out)
        atomic.check_kind(out, "calibration.json")  # a sweep's or a play's report.html would become this one
        with atomic.output_folder(out), atomic.transaction(out):
            atomic.write_json(out / "calibration.json", self.summary, indent=2, default=json_default)
            atomic.write_csv(self.table, out / "evaluations.csv")
            chart = self.plot(out, show=False)[0]
            title = f"dicesim calibrate · {get_game(self.summary['game']).title} · {self.summary['field']}"
            return atomic.write_text(out / "report.html", calibration_page(self.summary, chart, title))

    def plot(self, out: str | Path | None = None, show: bool = True) -> list[Path]:
        """The metric at every evaluated field value with its 95 % interval, the target and the answer."""
        _path(out, "out")
        _flags(show=show)
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from sim.games import get_game
        from sim.report import words

        s, t = self.summary, self.table.sort_values("x")
        game = s["game"]  # every name in the game's words, a rate in % (it read win_rate, difficulty.leicht.hp, 0.4)
        field = words.config_label(game, get_game(game).Config, s["field"])
        metric, scale = words.metric_name(game, s["metric"]), 100.0 if words.is_rate(s["metric"]) else 1.0
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.errorbar(t["x"], t["value"] * scale, yerr=[(t["value"] - t["ci95_low"]) * scale,
                                                      (t["ci95_high"] - t["value"]) * scale], fmt="o-", capsize=3,
                    label=f"{metric} ({words.policy_name(game, s['policy'])}, same seeds)")
        ax.axhline(s["target"] * scale, color="grey", ls=":",
                   label=f"target {words.value_text(s['metric'], s['target'])}")
        ax.axvline(s["value"], color="C3", lw=1, label=f"answer {s['value']:.4g}")
        ax.set_xlabel(field)
        if isinstance(s["value"], int):  # a whole-number field: whole ticks (it read 52.5, 55.0, 57.5)
            ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.set_ylabel(metric + (" (%)" if scale == 100.0 else ""))
        ax.set_title(f"Calibration of {field}")
        ax.legend(fontsize=8)
        fig.tight_layout()
        from sim.core.atomic import save_figure

        path = _chart_dir(out) / "calibration.png"
        try:
            save_figure(fig, path, dpi=100)
        finally:
            plt.close(fig)
        if show:
            _show([path])
        return [path]


def _target_pair(target: Any) -> tuple[str, float]:
    """``("win_rate", 0.5)``: a metric name and a number, or refused in words."""
    try:
        metric, value = target
        if isinstance(metric, str) and not isinstance(value, bool | str):
            return metric, float(value)
    except (TypeError, ValueError):
        pass
    raise DicesimError(f"target must be 'metric=value' or (metric, number), got {target!r}"[:200])


@_api
def calibrate(game: str, field: str, target: str | tuple[str, float], policy: str, n: int = 20_000, seed: int = 1,
              config: str | Path | None = None, set: SetArg = None, lo: float | None = None, hi: float | None = None,
              tol: float | None = None, max_evals: int = 30, scheduler: str | None = None, log: bool = False,
              force: bool = False, **options: Any) -> CalibrationOutcome:
    """The value of ``field`` where ``target`` (``"win_rate=0.5"`` or ``("win_rate", 0.5)``) is met for ``policy``."""
    from sim.experiments.calibrate import calibrate as run_calibration
    from sim.experiments.calibrate import parse_target
    from sim.games import get_game

    _flags(log=log, force=force)
    if not isinstance(field, str) or not field:
        raise DicesimError(f"field must be a config field's dotted name such as 'bonus.value', got {field!r}"[:200])
    metric, value = parse_target(target) if isinstance(target, str) else _target_pair(target)
    _path(config, "config")
    check_field_unset(field, _sets(set))  # its words name field= and set= (_api_words)
    c = run_calibration(get_game(game_name(game)), field, metric, value, _seats_text(policy), n=n, seed=seed,
                        config=config, sets=_sets(set),
                        options={k: v for k, v in options.items() if v is not None}, lo=lo, hi=hi, tol=tol,
                        max_evals=max_evals, backend=_backend(None, scheduler), log=log, force=force)
    d = c.to_dict()
    table = pd.DataFrame([{"x": e["x"], "value": e["value"], "ci95_low": e["ci95"][0], "ci95_high": e["ci95"][1]}
                          for e in d["evaluations"]], columns=["x", "value", "ci95_low", "ci95_high"])
    return CalibrationOutcome(finite(d), table)


@dataclass
class Solution:
    """An exact solution: ``.summary`` the CLI's ``solve --json`` dict, ``.table`` its scalar fields as one row."""

    summary: dict[str, Any]

    @property
    def value(self) -> float:
        return self.summary["value"]

    @property
    def table(self) -> pd.DataFrame:
        return pd.DataFrame([{k: v for k, v in self.summary.items() if not isinstance(v, dict | list)}])

    @property
    def metrics(self) -> pd.DataFrame:
        ci = (self.summary.get("win_rate") or {}).get("ci95") or [float("nan"), float("nan")]
        return pd.DataFrame([{"label": self.summary["game"], "metric": "value", "value": self.summary["value"],
                              "ci95_low": ci[0], "ci95_high": ci[1]}])

    def plot(self) -> list[Path]:
        """An exact solution is a number: nothing to chart."""
        return []


@_api
def solve(game: str, config: str | Path | None = None, set: SetArg = None, no_cache: bool = False,
          **options: Any) -> Solution:
    """Build (or load the cached) exact solution: ``.value`` is the expected value of the start state."""
    _flags(no_cache=no_cache)
    g, cfg, opts = _setup(game, config, set, options)
    if said := unread_option(g.name, "solve", options):  # an option the solve never reads: same answer, refused
        raise DicesimError(said)
    check_solve_sets(g.name, {k: v for k, v in options.items() if v is not None}, _sets(set), cfg)  # a set= the
    # solve never reads (skill, another objective's solver fields): the same answer, refused as on the CLI
    return Solution(g.solve(cfg, {**opts, "no_cache": True} if no_cache else opts))  # as the CLI: only when asked


__all__ = ["play", "compare", "sweep", "calibrate", "solve", "Result", "SweepOutcome", "CalibrationOutcome",
           "Solution"]
