"""The studio's one door into the engine: load, play, compare, chart, sweep, calibrate and save.

Every call the studio makes into ``sim`` goes through this module, so switching the studio to the
Python API (``sim.api``) is a change here only. Functions take plain values (game name, config path,
``--set`` lines, options) and raise ``DicesimError`` with the CLI's one-line message on bad input.

Batches run through ``sim.api.play`` on ``StudioBackend`` (the engine's backend interface: it yields parts
as they finish) in small chunks, so a progress bar can follow them and a cancel takes effect within a chunk;
each run draws only from its own seed streams, so the numbers are the ones ``dicesim play`` prints for the
same config, policy, N and seed.
"""

from __future__ import annotations

import io
import json
import math
import multiprocessing
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim import api
from sim import games as registry
from sim.core import limits
from sim.core.backends import Job, chunk_table
from sim.core.batch import run_batch
from sim.core.config import CONFIG_DIR, DicesimError, Strict, config_hash, parse_override, set_path, validate
from sim.core.jsonable import numbers
from sim.core.stats import paired_difference
from sim.experiments import calibrate as calibration
from sim.experiments.sweep import run_sweep, sweep_from_dict
from sim.games.base import Game, winner_values
from sim.games.options import named_seats, policy_readers, unread_by
from sim.report import words
from sim.report.mpl import plt
from sim.report.outputs import write_outputs
from sim.report.sweep import heatmap, line_chart

STEP = 2048  # runs per chunk file of a studio sweep
DRAWING = threading.Lock()  # matplotlib's pyplot is not thread-safe: pages running at once draw in turn
CALL_S = 0.15  # seconds one kernel call may hold the interpreter: the page and the progress bar stay live
MIN_STEP, MAX_STEP = 64, 65_536


class Cancelled(Exception):
    """The user stopped a job."""


class StudioBackend:
    """Chunks in this process, split into kernel calls of about ``CALL_S`` each; reports runs done and
    honours a cancel between calls.

    Most kernels do not release the interpreter lock, so the web server waits while one runs; sizing the
    calls by the measured speed keeps that wait short for slow policies and the per-call cost small for
    fast ones. Every run draws only from its own streams, so the split never changes a number.
    """
    def __init__(self, on_runs: Callable[[int], None], cancel: threading.Event, step: int = 256):
        self.on_runs, self.cancel, self.step = on_runs, cancel, step

    def run(self, game: Game, jobs: list[Job]) -> Iterator[tuple[Job, dict[str, np.ndarray]]]:
        prepared = None
        for job in jobs:
            if prepared != (id(job.cfg), tuple(job.policies)):
                game.prepare(job.cfg, job.policies, job.options)
                prepared = (id(job.cfg), tuple(job.policies))
            s, end = job.start, job.start + job.count
            while s < end:
                if self.cancel.is_set():
                    raise Cancelled()
                k = min(self.step, end - s)
                t0 = time.perf_counter()
                sub = job.part(s, k)
                part = chunk_table(game, sub)
                dt = time.perf_counter() - t0
                self.on_runs(k)
                yield sub, part
                s += k
                if k == self.step:  # grow at most 4x a call (the first call may include compiling)
                    ideal = k * CALL_S / dt if dt > 0 else MAX_STEP
                    self.step = int(min(max(ideal, MIN_STEP), 4 * k, MAX_STEP))


# --- games, configs, options -------------------------------------------------------------------


def games() -> list[str]:
    return registry.available()


def get_game(name: str) -> Game:
    return registry.get_game(name)


def config_files(game: str, out_root: Path | None = None) -> list[str]:
    """The game's shipped configs (``configs/<game>/*.toml``), default first, then the ones under ``out_root``
    (:func:`saved_configs`)."""
    files = sorted((CONFIG_DIR / game).glob("*.toml"), key=lambda p: (p.name != "default.toml", p.name))
    return [str(p) for p in files] + (saved_configs(game, out_root) if out_root is not None else [])


SAVED_MAX = 50  # the newest TOML files read under --out for the picker (~3 ms each): a full folder costs no more


def saved_configs(game: str, out_root: Path) -> list[str]:
    """TOML files under the studio's ``--out`` that load as this game's rules, newest first: a population fitted by
    ``dicesim fit`` (its ``[skill]`` levels), a config saved from the page. Files that do not load (another game's,
    broken ones) are left out; hidden folders are not looked in."""
    root = Path(out_root)
    if not root.is_dir():
        return []
    found = [p for p in root.rglob("*.toml") if p.is_file()
             and not any(part.startswith(".") for part in p.relative_to(root).parts)]
    found.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    g, out = get_game(game), []
    for p in found[:SAVED_MAX]:
        try:
            g.load(str(p), [])
        except DicesimError:
            continue
        out.append(str(p))
    return out


def load(game: str, config: str | None, sets: list[str]) -> Strict:
    """The validated config: the file, then the ``--set`` lines; bad input raises the CLI's ConfigError.

    The lines apply to the file's validated model rather than its text, so a field the file leaves at
    its default (absent from the TOML, which the CLI's ``--set`` refuses) can be edited too; a saved
    studio TOML holds every field, so the same lines work there with ``--config``.
    """
    base = get_game(game).load(config or None, [])
    if not sets:
        return base
    data = base.model_dump(mode="json")
    for item in sets:
        keys, value = parse_override(item)
        set_path(data, keys, value)
    return validate(type(base), data)


def play_options(game: str) -> list[str]:
    """The options a run reads, the run card's inputs: not those of another command (Dadox's and the one-die game's
    ``objective`` is ``dicesim solve``'s; offered on the card, every run was refused)."""
    g = get_game(game)
    return [name for name in g.options if (spec := g.option_spec(name)) is None or spec.plays]


def options_for(game: str, raw: dict[str, Any]) -> dict[str, Any]:
    """Game options from the form's texts (typed like the game's defaults), checked by the game."""
    g = get_game(game)
    labels = {o.name: o.label or o.name.replace("_", " ") for o in g.option_specs}
    opts: dict[str, Any] = {}
    runs = set(play_options(game))
    for k, v in raw.items():
        if v is None or str(v).strip() == "" or k not in runs:
            continue
        default = g.options.get(k)
        if isinstance(default, int) and not isinstance(default, bool):
            try:
                opts[k] = int(str(v).strip())
            except ValueError:  # in the words of the field it was typed in, as the studio labels it
                raise DicesimError(f"{labels.get(k, k)} must be a whole number, got {_typed(str(v))}") from None
        else:
            opts[k] = str(v).strip()
    try:
        return {k: v for k, v in g.check_options(opts).items() if k in runs}  # a solve's default is no run's option
    except DicesimError as e:  # the game says ``--players``; the studio's field is labelled ``players``
        said = str(e)
        for o in g.option_specs:
            said = said.replace(o.flag, labels[o.name])
        raise DicesimError(said) from None


MAX_N = 1_000_000  # the studio keeps two per-run tables in memory (now and before) for the paired comparison


def policy_choices(game: str) -> dict[str, str]:
    """The studio's policy picker: each policy's code name (what a run plays) -> its display name (what it shows:
    ``Optimal turn``, ``Exact exchange``); a name typed in (a comma list, ``vorschlag@paschmeister``) is its own."""
    return {p: words.policy_name(game, p) for p in get_game(game).policies}


def opening_policy(game: str) -> str:
    """The policy a game opens on: its first report policy, unless that is ``random`` (a rule edit would change
    nothing a designer reads); then its strongest report policy that reads no solved table and is no exact search
    (``greedy`` for Kniffel, ``heuristic`` for Dungeon24): the rules edit shows at once."""
    g = get_game(game)
    first = g.report_policies[0]
    if first != "random":
        return first
    plain = [p for p in g.report_policies if p != "random" and p not in g.solved_policies
             and not p.startswith(("exact", "optimal"))]
    return plain[-1] if plain else first


def unused_edits(game: str, sets: list[str], options: dict[str, Any], policy: str = "") -> list[dict[str, Any]]:
    """Edits this run never reads: a path through a choice of an option (``difficulty.normal.hp``) that no option
    holds now (``difficulty: leicht``), or one only a policy no seat plays reads (Dadox's ``policies.greedy_bank_at``
    under threshold). Each: the path, the choice, the option to switch (``policy`` for the policy picker) and a sentence
    saying so."""
    g = get_game(game)
    out = []
    seats = named_seats(policy, options)
    for line in sets:
        path = line.split("=", 1)[0].strip()
        if seats and (readers := policy_readers(game, path, seats)) is not None:
            shown = words.policy_name(game, readers[0])
            playing = ", ".join(dict.fromkeys(words.policy_name(game, s) for s in seats))
            out.append({"path": path, "choice": readers[0], "option": "policy", "shown": shown,
                        "text": f"{path} is read only by {' and '.join(words.policy_name(game, r) for r in readers)}, "
                                f"and this run plays {playing}: its differences will be 0. Switch the policy to "
                                f"{shown} to see it."})
        elif (unread := unread_by(path, g.option_specs, options)) is not None:
            opt, part = unread
            now = opt.setting(options.get(opt.name))
            shown = (opt.words or {}).get(part, part.capitalize())
            out.append({"path": path, "choice": part, "option": opt.name, "shown": shown,
                        "text": f"{path} is not used by this run ({now}): its differences will be 0. Switch "
                                f"{opt.label or opt.name} to {shown} to see it."})
    return out


def check_n(n: Any, field: str = "N runs") -> int:
    """N as the CLI reads it (``5000``, ``5_000``, ``5e3``), at most ``MAX_N`` (more belongs to ``dicesim play``,
    which streams to disk); a bad one refused in the words of the field it was typed in (``N runs must be a whole
    number from 1 to 1,000,000, got 0``), not of a command-line flag the page does not have."""
    text = str(n).strip()
    try:
        value = limits.check_n(limits.parse_count(text.replace(",", "")))
    except DicesimError:
        raise DicesimError(f"{field} must be a whole number from 1 to {MAX_N:,}, got {_typed(text)}") from None
    if value > MAX_N:
        raise DicesimError(f"{field} must be a whole number from 1 to {MAX_N:,} (the studio keeps every run for the "
                           f"paired comparison; dicesim play streams more to disk), got {value:,}")
    return value


def check_seed(seed: Any) -> int:
    """A seed as the CLI checks it, a whole number 0 .. 2^64 - 1; refused in the field's words."""
    text = str(seed).strip().replace("_", "")
    try:
        return limits.check_seed(int(text))
    except (ValueError, DicesimError):
        raise DicesimError(f"seed must be a whole number from 0 to 2^64 - 1, got {_typed(text)}") from None


def _typed(text: str, width: int = 40) -> str:
    """What was typed, as typed (no quotes), cut to one short line; an empty field says so ("got" ended the line)."""
    if not text.strip():
        return "nothing (the field is empty)"
    return text if len(text) <= width else text[: width - 1] + "…"


# --- warming up --------------------------------------------------------------------------------

_WARM: set[tuple[str, str, str, str]] = set()
_WARMING: dict[tuple[str, str, str, str], threading.Lock] = {}
_WARMING_GUARD = threading.Lock()


def _warm_child(game: str, config: str | None, sets: list[str], policy: str, options: dict[str, Any]) -> None:

    g = get_game(game)
    opts = g.check_options(options)
    run_batch(g, load(game, config, sets), g.seat_policies(policy, opts), 1, 0, opts, progress=False)


def warm(game: str, config: str | None, sets: list[str], policy: str, options: dict[str, Any],
         cancel: threading.Event) -> None:
    """Play one run in a helper process first, once per (game, policy, options) in this server, and once per
    rules for a policy that reads solved tables (``Game.solved_policies``).

    Compiling a numba kernel, or an exact solver's solve of edited rules, holds the interpreter lock for
    as long as it takes (minutes on a cold cache), which would freeze the page; the helper leaves both in
    the disk caches, from which this process then loads them in moments. A rules edit changes no kernel,
    so for the other policies the next click plays at once (a helper costs a process start and a kernel
    load, 5-20 s on a small machine). A helper that fails is ignored: the run itself reports the error
    with the CLI's message.
    """
    g = get_game(game)
    rules = ""
    try:
        seated = g.seat_policies(policy, g.check_options(options))
        if any(p in g.solved_policies for p in seated):
            rules = config_hash(load(game, config, sets))
    except DicesimError:
        pass
    key = (game, policy, json.dumps(options, sort_keys=True, default=str), rules)
    with _WARMING_GUARD:
        lock = _WARMING.setdefault(key, threading.Lock())
    while not lock.acquire(timeout=0.2):  # another page warms the same kernels: wait for its helper
        if cancel.is_set():
            raise Cancelled()
    try:
        if key in _WARM:
            return
        proc = multiprocessing.get_context("spawn").Process(target=_warm_child,
                                                            args=(game, config, sets, policy, options), daemon=True)
        proc.start()
        while proc.is_alive():
            proc.join(0.2)
            if cancel.is_set():
                proc.terminate()
                proc.join(5)
                raise Cancelled()
        _WARM.add(key)
    finally:
        lock.release()


def preload(game: str) -> None:
    """The page's opening choice (``opening_policy`` on the game's default config and options) warmed and
    its kernels loaded into this server, in the background at start, so the first Run plays at once, and matplotlib
    readied meanwhile (:func:`ready_to_draw`), so its charts follow at once. Any error is left for that Run to
    report."""
    config = (config_files(game) or [None])[0]
    drawing = threading.Thread(target=ready_to_draw, daemon=True)  # while the helper process loads the kernels
    drawing.start()
    try:
        opts = options_for(game, {})
        warm(game, config, [], opening_policy(game), opts, threading.Event())
        play(game, config, [], opening_policy(game), opts, 1, 0, lambda n: None, threading.Event())
    except Exception:  # noqa: BLE001 - a background courtesy: the Run shows the error with the CLI's message
        return


def ready_to_draw() -> None:
    """matplotlib loaded and one figure drawn (its fonts, the Agg canvas, the PNG writer), so the first Run's charts
    cost what a repeat's do (matplotlib's import and first figure: ~0.3 s of CPU, ~1 s on a busy machine)."""
    with DRAWING:
        fig = plt.figure(figsize=(2, 1))
        try:
            fig.text(0.5, 0.5, "0 %", ha="center")
            fig.savefig(io.BytesIO(), format="png", dpi=50)
        finally:
            plt.close(fig)


# --- playing -----------------------------------------------------------------------------------


@dataclass
class PlayResult:
    """One finished batch with everything needed to show, compare and save it."""
    game: str
    policy: str
    n: int
    seed: int
    options: dict[str, Any]
    config: str | None
    sets: list[str]
    cfg: Strict
    table: pd.DataFrame
    metrics: dict[str, dict[str, Any]]
    seconds: float
    label: str = ""
    charts: list[Path] = field(default_factory=list)

    @property
    def config_hash(self) -> str:
        return config_hash(self.cfg)

    def summary(self) -> dict[str, Any]:
        """The JSON summary of ``dicesim play`` (plus the ``--set`` lines the studio used)."""
        return {
            "game": self.game, "policy": self.policy, "n": self.n, "seed": self.seed,
            "config_hash": self.config_hash, "seconds": round(self.seconds, 4),
            "runs_per_second": round(self.n / self.seconds, 1) if self.seconds > 0 else None,
            "options": self.options, "assumed": list(getattr(self.cfg, "assumed", []) or []),
            "config_file": self.config, "set": self.sets, "metrics": self.metrics,
        }


def play(game: str, config: str | None, sets: list[str], policy: str, options: dict[str, Any], n: int, seed: int,
         on_runs: Callable[[int], None], cancel: threading.Event) -> PlayResult:
    """Play runs 0..n-1 as ``dicesim play`` does (same table and metrics), reporting progress."""
    g = get_game(game)
    runs = set(play_options(game))
    opts = {k: v for k, v in g.check_options(options).items() if k in runs}  # a solve's default is no run's option
    cfg = load(game, config, sets)
    r = api.play(game, policy, n=n, seed=seed, config=cfg, backend=StudioBackend(on_runs, cancel), **opts)
    return PlayResult(g.name, policy, n, seed, opts, config, list(sets), cfg, r.tables[policy],
                      numbers(r.summary["metrics"]), r.seconds)  # undefined as NaN, as the page shows it ("–")


def paired(cur: PlayResult, prev: PlayResult | None) -> bool:
    """Whether two results played the same runs (same game, N, seed, policy and options)."""
    return prev is not None and (cur.game, cur.n, cur.seed, cur.policy, cur.options) == (
        prev.game, prev.n, prev.seed, prev.policy, prev.options)


def _per_run(game: str, table: pd.DataFrame, name: str, cfg: Any = None) -> np.ndarray | None:
    """The per-run quantity a mean or rate metric averages: the game's declared ``per_run`` value, else a
    column the name gives away (``mean_X`` averages X, ``X_rate`` the share of runs with X non-zero)."""
    g = get_game(game)
    won = winner_values(table, name)  # a seat's share of the games, the draws: from each game's winner
    if won is not None:
        return won
    if name in g.per_run:
        values = g.run_values(table, cfg)
        if name in values.columns:
            return values[name].to_numpy()
    if name in g.per_run_means:  # a mean of a column its name does not give (``mean_final_lp``: ``lp``)
        col = pd.Series(np.asarray(g.per_run_means[name](table), dtype=float), index=table.index)
    elif name.startswith("mean_") and name[5:] in table.columns:
        col = table[name[5:]]
    elif name.endswith("_rate") and name[:-5] in table.columns:
        col = table[name[:-5]] != 0
    else:
        return None
    if not (pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col)):
        return None
    values = col.astype(float)
    if "run" in table.columns and table["run"].duplicated().any():  # several rows (seats) per run
        return values.groupby(table["run"]).mean().to_numpy()
    return values.to_numpy()


def difference(cur: PlayResult, prev: PlayResult, name: str) -> dict[str, Any] | None:
    """``name`` now minus before; on paired runs with the interval of the mean per-run difference.

    The per-run pairing is used only when its mean reproduces the metrics' own difference, so a
    metric whose per-run quantity is not recognised gets the plain difference without an interval.
    """
    a, b = cur.metrics.get(name), prev.metrics.get(name)
    if a is None or b is None:
        return None
    try:
        plain = float(a["value"]) - float(b["value"])
    except (TypeError, ValueError):
        return None
    if paired(cur, prev) and a.get("ci95"):
        x, y = _per_run(cur.game, cur.table, name, cur.cfg), _per_run(prev.game, prev.table, name, prev.cfg)
        if x is not None and y is not None and len(x) == len(y):

            d = paired_difference(x, y)
            if math.isclose(float(d["value"]), plain, rel_tol=1e-9, abs_tol=1e-9):
                return {"value": plain, "ci95": [float(c) for c in d["ci95"]], "paired": True}
    return {"value": plain, "ci95": None, "paired": False}


def headline(game: str, metrics: dict[str, dict[str, Any]], k: int = 10) -> list[str]:
    """The metrics shown first: the game's declared headline, then others with an interval, in the game's order."""
    declared = [name for name in getattr(get_game(game), "headline", {}) if name in metrics]
    with_ci = [name for name, m in metrics.items() if m.get("ci95") and name not in declared]
    return (declared + with_ci or list(metrics))[:max(k, len(declared))]


def charts(cur: PlayResult, prev: PlayResult | None, out_dir: Path) -> list[Path]:
    """The game page's charts, the previous run overlaid as a second label."""
    g = get_game(cur.game)
    tables = {cur.label or "now": cur.table}
    if prev is not None and prev.game == cur.game:
        tables = {prev.label or "before": prev.table, **tables}
    out_dir.mkdir(parents=True, exist_ok=True)
    with DRAWING:
        return [Path(p) for p in g.charts(tables, out_dir, cur.options, cur.cfg)]


# --- saving ------------------------------------------------------------------------------------


def write_output(out: Path, res: PlayResult) -> Path:
    """The usual output folder of ``dicesim play`` (tables, charts, manifest, report.html)."""
    summary = {**res.summary(), "config": res.cfg.model_dump(mode="json")}
    with DRAWING:  # the report draws the charts again
        return write_outputs(Path(out), summary, {res.policy: res.table}, {res.policy: res.metrics})


# --- sweeps and calibration --------------------------------------------------------------------


def sweep(game: str, base_config: Path, policy: str, options: dict[str, Any], n: int, seed: int,
          grid: dict[str, list[Any]], out: Path) -> pd.DataFrame:
    """A grid sweep on paired seeds over ``grid`` with the edited config as its base; the tidy table."""
    s = sweep_from_dict({"game": game, "policies": [policy], "n": n, "seed": seed, "chunk": STEP,
                         "config": str(base_config), "grid": grid, "options": options}, "studio sweep")
    return run_sweep(s, out, overwrite=True, progress=False, report=False).table


def sweep_tasks(grid: dict[str, list[Any]], n: int) -> int:
    """How many chunk files a sweep writes (``parts/``), for its progress bar."""
    points = math.prod(len(v) for v in grid.values())
    return points * math.ceil(n / STEP)


def sweep_done(out: Path) -> int:
    """Chunk files a running sweep has finished (written atomically; half-written ones start with a dot)."""
    return sum(1 for _ in (Path(out) / "parts").glob("p*")) if (Path(out) / "parts").is_dir() else 0


def sweep_charts(table: pd.DataFrame, fields: list[str], metric: str, base: dict[str, Any], out: Path) -> list[Path]:
    """A line chart with 95 % bands per swept field and, for two fields, the heatmap."""
    out.mkdir(parents=True, exist_ok=True)
    with DRAWING:
        paths = [line_chart(table, f, [metric], base, out / f"sweep_{i}.png") for i, f in enumerate(fields)]
        if len(fields) == 2:
            paths.append(heatmap(table, fields[0], fields[1], metric, base, out / "sweep_heatmap.png"))
    return paths


def calibrate(game: str, config: str | None, sets: list[str], fld: str, metric: str, target: float, policy: str,
              options: dict[str, Any], n: int, seed: int, on_runs: Callable[[int], None],
              cancel: threading.Event) -> dict[str, Any]:
    """``dicesim calibrate`` on the edited config: the field value that hits the target (paired seeds)."""
    c = calibration.calibrate(get_game(game), fld, metric, target, policy, n=n, seed=seed, config=config or None,
                              sets=sets, options=options, backend=StudioBackend(on_runs, cancel), log=False)
    return c.to_dict()

