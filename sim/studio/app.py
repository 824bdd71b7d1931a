"""The studio page: pick a game, config, policy, options, N and seed; edit fields; run, sweep, calibrate, save.

One ``Studio`` per browser tab holds that tab's form, its last two results and its current job; the
work itself runs on the shared ``RunManager`` thread (``sim.studio.jobs``) and the page polls it, so
the page stays live while numba plays. Every engine call goes through ``sim.studio.engine``.
"""

from __future__ import annotations

import math
import uuid
from pathlib import Path
from typing import Any

from nicegui import ui

from sim.config import ROOT, DicesimError
from sim.studio import engine, saving
from sim.studio.form_view import ConfigForm
from sim.studio.jobs import MANAGER, Job
from sim.studio.results_view import chart_images, fmt, fmt_ci, headline_table

FILES_ROUTE = "/studio-files"
POLL_S = 0.25


def _rel(path: str | Path) -> str:
    p = Path(path)
    try:
        return str(p.resolve().relative_to(ROOT))
    except ValueError:
        return str(p)


def _option_choices(game: str, name: str) -> list[str] | None:
    """Choices of a game option read from the config model: ``difficulty`` -> the fields of its table."""
    model = engine.get_game(game).Config
    info = model.model_fields.get(name)
    sub = getattr(info, "annotation", None) if info else None
    fields = getattr(sub, "model_fields", None)
    return list(fields) if fields else None


def grid_values(lo: float, hi: float, steps: int, integer: bool) -> list[Any]:
    """``steps`` evenly spaced values from lo to hi (whole numbers for int fields, no repeats)."""
    if steps < 1:
        raise DicesimError(f"steps must be at least 1, got {steps}")
    xs = [lo + (hi - lo) * i / (steps - 1) for i in range(steps)] if steps > 1 else [lo]
    if integer:
        return list(dict.fromkeys(int(round(x)) for x in xs))
    return list(dict.fromkeys(float(f"{x:.6g}") for x in xs))


def _error_to(widget: ui.element, msg: str) -> None:
    """The CLI's one-line message under an input ('' clears it; editing the input clears it too)."""
    widget.error = msg or None


def _tid(el: ui.element, test_id: str) -> ui.element:
    el.props["data-testid"] = test_id
    return el


class Studio:
    """One browser tab of the studio."""

    def __init__(self, files: Path, out_root: Path) -> None:
        self.files = files / uuid.uuid4().hex[:12]
        self.out_root = out_root
        self.game = engine.games()[0] if "dungeon" not in engine.games() else "dungeon"
        self.config: str | None = engine.config_files(self.game)[0]
        self.current: engine.PlayResult | None = None
        self.previous: engine.PlayResult | None = None
        self.runs = 0
        self.job: Job | None = None
        self.sweep_job: Job | None = None
        self.cal_job: Job | None = None

    def url(self, p: Path) -> str:
        return f"{FILES_ROUTE}/{Path(p).relative_to(self.files.parent).as_posix()}"

    # --- layout -------------------------------------------------------------------------------

    def build(self) -> None:
        ui.page_title("dicesim studio")
        with ui.header().classes("items-center bg-indigo-9 q-py-sm"):
            ui.icon("casino", size="sm")
            ui.label("dicesim studio").classes("text-h6")
            ui.label("change a number, see the balance move").classes("text-caption text-indigo-2")
        with ui.row().classes("w-full no-wrap items-start gap-4"):
            with ui.column().classes("w-[34rem] shrink-0 gap-2"):
                self.run_card = ui.card().classes("w-full")
                self.build_run_card()
                with ui.card().classes("w-full"):
                    with ui.row().classes("w-full items-center justify-between"):
                        ui.label("Config fields").classes("text-subtitle1 text-bold")
                        ui.button("reset edits", on_click=lambda: self.form.reset()).props("flat dense size=sm")
                    self.sets_label = _tid(ui.label("").classes("font-mono text-caption text-grey-8 break-all"),
                                           "set-lines")
                    self.form_box = ui.column().classes("w-full gap-1")
                    self.build_form()
            with ui.column().classes("grow min-w-0"):
                with ui.tabs().classes("w-full") as tabs:
                    t_res = ui.tab("Results")
                    t_sweep = ui.tab("Sweep")
                    t_cal = ui.tab("Calibrate")
                    t_save = ui.tab("Save")
                with ui.tab_panels(tabs, value=t_res).classes("w-full"):
                    with ui.tab_panel(t_res):
                        self.results_box = _tid(ui.column().classes("w-full"), "results")
                        with self.results_box:
                            ui.label("Run to see the headline numbers and charts; the next run is compared "
                                     "with this one on the same seeds.").classes("text-grey-7")
                    with ui.tab_panel(t_sweep):
                        self.build_sweep()
                    with ui.tab_panel(t_cal):
                        self.build_calibrate()
                    with ui.tab_panel(t_save):
                        self.build_save()
        ui.timer(POLL_S, self.poll)

    def build_run_card(self) -> None:
        g = engine.get_game(self.game)
        self.run_card.clear()
        with self.run_card:
            with ui.row().classes("w-full gap-2 no-wrap"):
                self.game_sel = _tid(ui.select(engine.games(), label="game", value=self.game,
                                               on_change=lambda e: self.change_game(e.value)).classes("w-32"), "game")
                files = {f: _rel(f) for f in engine.config_files(self.game)}
                self.config_sel = _tid(ui.select(files, label="config file", value=self.config,
                                                 on_change=lambda e: self.change_config(e.value)).classes("grow"),
                                       "config")
            with ui.row().classes("w-full gap-2 no-wrap"):
                self.policy_sel = _tid(ui.select(list(g.policies), label="policy", value=g.report_policies[0],
                                                 new_value_mode="add-unique", with_input=True).classes("grow"),
                                       "policy")
                self.option_inputs: dict[str, ui.element] = {}
                for name, default in g.options.items():
                    choices = _option_choices(self.game, name)
                    if choices and isinstance(default, str):
                        w: ui.element = ui.select(choices, label=name, value=default)
                    else:
                        w = ui.input(name, value="" if default is None else str(default))
                    self.option_inputs[name] = _tid(w.classes("w-28"), f"option-{name}")
            with ui.row().classes("w-full gap-2 items-start"):
                self.n_input = _tid(ui.input("N runs", value="10000").classes("w-48"), "n")
                self.seed_input = _tid(ui.input("seed", value="1").classes("w-32"), "seed")
                self.run_btn = _tid(ui.button("Run", icon="play_arrow", on_click=self.start_play), "run")
                self.stop_btn = _tid(ui.button("Stop", icon="stop", on_click=self.stop).props("flat"), "stop")
                self.stop_btn.set_visibility(False)
            self.progress = _tid(ui.linear_progress(0, show_value=False).props("instant-feedback"), "progress")
            self.status = _tid(ui.label("").classes("text-caption"), "status")

    def build_form(self) -> None:
        self.form_box.clear()
        try:
            self.form = ConfigForm(self.game, self.config, self.on_edit)
        except DicesimError as e:
            with self.form_box:
                ui.label(f"error: {e}").classes("text-negative")
            return
        with self.form_box:
            self.form.build()
        self.on_edit()

    def on_edit(self) -> None:
        sets = self.form.sets()
        self.sets_label.text = saving.set_args(sets) if sets else "no edits: the config file as it is"

    def change_game(self, game: str) -> None:
        self.game = game
        self.config = engine.config_files(game)[0] if engine.config_files(game) else None
        self.current = self.previous = None
        self.build_run_card()
        self.build_form()
        self.refresh_field_choices()

    def change_config(self, config: str) -> None:
        self.config = config
        self.build_form()
        self.refresh_field_choices()

    # --- playing ------------------------------------------------------------------------------

    def collect(self) -> tuple[dict[str, Any], int, int, list[str]] | None:
        """Options, N, seed and ``--set`` lines, each bad one marked with the CLI's message."""
        ok = True
        raw = {name: w.value for name, w in self.option_inputs.items()}
        for name, w in self.option_inputs.items():  # one at a time, so a message lands on its input
            try:
                engine.options_for(self.game, {name: raw[name]})
                _error_to(w, "")
            except DicesimError as e:
                _error_to(w, f"error: {e}")
                ok = False
        opts: dict[str, Any] = {}
        n = seed = 0
        for w, check in ((self.n_input, engine.check_n), (self.seed_input, engine.check_seed)):
            try:
                value = check(w.value)
                _error_to(w, "")
                if w is self.n_input:
                    n = value
                else:
                    seed = value
            except DicesimError as e:
                _error_to(w, f"error: {e}")
                ok = False
        if self.form.errors:
            ok = False
        sets = self.form.sets()
        if ok:
            try:
                opts = engine.options_for(self.game, raw)
            except DicesimError as e:
                self.status.text = f"error: {e}"
                return None
            try:
                engine.get_game(self.game).seat_policies(str(self.policy_sel.value or ""), opts)
                _error_to(self.policy_sel, "")
            except DicesimError as e:
                _error_to(self.policy_sel, f"error: {e}")
                self.status.text = "fix the marked inputs first"
                return None
            try:
                engine.load(self.game, self.config, sets)
            except DicesimError as e:
                msg = f"error: {e}"
                hit = [p for p in self.form.specs if p in str(e) and any(s.startswith(p + "=") for s in sets)]
                if hit:
                    self.form.show_error(hit[0], msg)
                self.status.text = msg
                return None
        if not ok:
            self.status.text = "fix the marked inputs first"
            return None
        return opts, n, seed, sets

    def start_play(self) -> None:
        if self.job is not None and not self.job.finished:
            return
        got = self.collect()
        if got is None:
            return
        opts, n, seed, sets = got
        game, config, policy, prev = self.game, self.config, str(self.policy_sel.value or ""), self.current
        self.runs += 1
        label = f"run {self.runs}"
        out = self.files / f"run-{self.runs}"

        def work(job: Job) -> engine.PlayResult:
            res = engine.play(game, config, sets, policy, opts, n, seed, job.advance, job.cancel)
            res.label = label
            job.status = "charting"
            res.charts = engine.charts(res, prev, out)
            return res

        self.job = MANAGER.submit(Job("play", total=n), work)
        self.run_btn.disable()
        self.stop_btn.set_visibility(True)
        self.status.text = f"{label}: queued"

    def stop(self) -> None:
        for job in (self.job, self.sweep_job, self.cal_job):
            if job is not None and not job.finished:
                job.cancel.set()

    def poll(self) -> None:
        job = self.job
        if job is not None:
            self.progress.value = job.progress
            if job.status in ("running", "queued", "charting"):
                what = "drawing charts" if job.status == "charting" else (
                    f"{int(job.done):,} / {int(job.total):,} runs" if job.status == "running" else "queued")
                self.status.text = f"run {self.runs}: {what}"
            else:
                self.job = None
                self.run_btn.enable()
                self.stop_btn.set_visibility(False)
                if job.status == "done":
                    self.previous, self.current = self.current, job.result
                    if self.previous is not None and self.previous.game != self.current.game:
                        self.previous = None
                    r = self.current
                    self.status.text = (f"{r.label}: {r.n:,} runs in {r.seconds:.1f} s "
                                        f"({r.n / max(r.seconds, 1e-9):,.0f} runs/s)")
                    self.show_results()
                    self.refresh_field_choices()
                else:
                    self.status.text = job.error or job.status
        self.poll_sweep()
        self.poll_calibrate()

    def show_results(self) -> None:
        cur, prev = self.current, self.previous
        assert cur is not None
        self.results_box.clear()
        with self.results_box:
            facts = [engine.get_game(cur.game).title, cur.policy, f"N {cur.n:,}", f"seed {cur.seed}",
                     *(f"{k} {v}" for k, v in cur.options.items()), f"config {cur.config_hash}"]
            ui.label(" · ".join(facts)).classes("text-subtitle1")
            if cur.sets:
                ui.label(saving.set_args(cur.sets)).classes("font-mono text-caption text-grey-8 break-all")
            if prev is not None and not engine.paired(cur, prev):
                ui.label("The previous run used another N, seed, policy or options: differences are not paired "
                         "and carry no interval.").classes("text-warning")
            headline_table(cur, prev, engine.headline(cur.metrics))
            every = ui.expansion(f"all {len(cur.metrics)} metrics").classes("w-full").props("dense")

            def fill_every(e: Any, box: ui.expansion = every) -> None:
                if e.value and not box.default_slot.children:
                    with box:
                        headline_table(cur, prev, list(cur.metrics), ids=False)

            every.on_value_change(fill_every)
            chart_images(cur.charts, self.url)

    # --- sweep --------------------------------------------------------------------------------

    def refresh_field_choices(self) -> None:
        fields = self.form.numeric_fields() if hasattr(self, "form") else []
        metrics = list(self.current.metrics) if self.current else []
        for sel in (getattr(self, "sw_f1", None), getattr(self, "cal_field", None)):
            if sel is not None:
                sel.set_options(fields, value=sel.value if sel.value in fields else None)
        if getattr(self, "sw_f2", None) is not None:
            self.sw_f2.set_options(["—", *fields], value=self.sw_f2.value if self.sw_f2.value in fields else "—")
        for sel in (getattr(self, "sw_metric", None), getattr(self, "cal_metric", None)):
            if sel is not None and metrics:
                sel.set_options(metrics, value=sel.value if sel.value in metrics else metrics[0])

    def _range_inputs(self, prefix: str) -> tuple[ui.element, ui.element, ui.element]:
        lo = _tid(ui.input("from").classes("w-24"), f"{prefix}-from")
        hi = _tid(ui.input("to").classes("w-24"), f"{prefix}-to")
        steps = _tid(ui.input("steps", value="5").classes("w-16"), f"{prefix}-steps")
        return lo, hi, steps

    def _prefill(self, path: str | None, lo: ui.element, hi: ui.element) -> None:
        if not path or path not in self.form.specs:
            return
        try:
            v = float(self.form.values[path])
        except (TypeError, ValueError):
            return
        s = self.form.specs[path]
        a, b = v * 0.8, v * 1.2
        if s.lo is not None:
            a = max(a, s.lo)
        if s.hi is not None:
            b = min(b, s.hi)
        if s.kind == "int":
            a, b = math.floor(a), math.ceil(b)
        lo.value, hi.value = f"{a:.4g}", f"{b:.4g}"

    def build_sweep(self) -> None:
        ui.label("Sweep one or two fields over a range on the same seeds (every point plays runs 0..N-1), "
                 "from the edited config.").classes("text-grey-8")
        with ui.row().classes("items-start gap-2"):
            self.sw_f1 = _tid(ui.select([], label="field", with_input=True).classes("w-72"), "sweep-field")
            self.sw_lo, self.sw_hi, self.sw_steps = self._range_inputs("sweep")
        self.sw_f1.on_value_change(lambda e: self._prefill(e.value, self.sw_lo, self.sw_hi))
        with ui.row().classes("items-start gap-2"):
            self.sw_f2 = _tid(ui.select(["—"], label="second field (heatmap)", value="—", with_input=True)
                              .classes("w-72"), "sweep-field2")
            self.sw_lo2, self.sw_hi2, self.sw_steps2 = self._range_inputs("sweep2")
            self.sw_steps2.value = "3"
        self.sw_f2.on_value_change(lambda e: self._prefill(e.value, self.sw_lo2, self.sw_hi2))
        with ui.row().classes("items-start gap-2"):
            self.sw_metric = _tid(ui.select(["win_rate"], label="metric", value="win_rate", with_input=True,
                                            new_value_mode="add-unique").classes("w-56"), "sweep-metric")
            self.sw_n = _tid(ui.input("N per point", value="2000").classes("w-28"), "sweep-n")
            self.sw_btn = _tid(ui.button("Sweep", icon="show_chart", on_click=self.start_sweep), "sweep-run")
        self.sw_progress = ui.linear_progress(0, show_value=False).props("instant-feedback")
        self.sw_status = _tid(ui.label("").classes("text-caption"), "sweep-status")
        self.sw_box = _tid(ui.column().classes("w-full"), "sweep-results")
        self.refresh_field_choices()

    def _grid_axis(self, sel: ui.element, lo: ui.element, hi: ui.element, steps: ui.element) -> list[Any]:
        path = sel.value
        spec = self.form.specs.get(path)
        if spec is None:
            raise DicesimError(f"choose a numeric config field, got {path!r}")
        try:
            a, b, k = float(str(lo.value)), float(str(hi.value)), int(str(steps.value))
        except ValueError:
            raise DicesimError(f"{path}: from, to and steps must be numbers") from None
        return grid_values(a, b, k, spec.kind == "int")

    def start_sweep(self) -> None:
        if self.sweep_job is not None and not self.sweep_job.finished:
            return
        got = self.collect()
        if got is None:
            self.sw_status.text = self.status.text
            return
        opts, _, seed, sets = got
        try:
            n = engine.check_n(self.sw_n.value)
            grid = {self.sw_f1.value: self._grid_axis(self.sw_f1, self.sw_lo, self.sw_hi, self.sw_steps)}
            if self.sw_f2.value and self.sw_f2.value != "—":
                if self.sw_f2.value == self.sw_f1.value:
                    raise DicesimError("the second field must differ from the first")
                grid[self.sw_f2.value] = self._grid_axis(self.sw_f2, self.sw_lo2, self.sw_hi2, self.sw_steps2)
            cfg = engine.load(self.game, self.config, sets)
        except DicesimError as e:
            self.sw_status.text = f"error: {e}"
            return
        game, policy, metric = self.game, str(self.policy_sel.value), str(self.sw_metric.value or "")
        base = {f: min(vals, key=lambda x, f=f: abs(float(x) - float(self.form.values[f]))) for f, vals in
                grid.items()}
        self.runs += 1
        where = self.files / f"sweep-{self.runs}"
        base_toml = saving.save_config(where / "base.toml", cfg, self.config, sets)
        total = engine.sweep_tasks(grid, n)

        def work(job: Job) -> tuple[Any, list[Path]]:
            table = engine.sweep(game, base_toml, policy, opts, n, seed, grid, where / "out")
            if metric not in table.columns:
                raise DicesimError(f"unknown metric {metric!r} (choose from the Results tab's metrics)")
            return table, engine.sweep_charts(table, list(grid), metric, base, where / "charts")

        self.sweep_job = MANAGER.submit(Job("sweep", total=total, probe=lambda: engine.sweep_done(where / "out")),
                                        work)
        self.sw_status.text = f"sweep of {math.prod(len(v) for v in grid.values())} points queued"
        self.sw_btn.disable()

    def poll_sweep(self) -> None:
        job = self.sweep_job
        if job is None:
            return
        self.sw_progress.value = job.progress
        if not job.finished:
            self.sw_status.text = f"sweep: {job.progress:.0%}" if job.status == "running" else "sweep queued"
            return
        self.sweep_job = None
        self.sw_btn.enable()
        if job.status != "done":
            self.sw_status.text = job.error or job.status
            return
        table, paths = job.result
        metric = str(self.sw_metric.value)
        self.sw_status.text = f"sweep done: {len(table)} points, {metric} with 95 % intervals"
        self.sw_box.clear()
        with self.sw_box:
            chart_images(paths, self.url)
            fields = [c for c in table.columns if c in self.form.specs]
            with ui.grid(columns=len(fields) + 1).classes("gap-x-6 gap-y-0"):
                for f in fields:
                    ui.label(f).classes("text-bold font-mono")
                ui.label(metric).classes("text-bold")
                for row in table.to_dict("records"):
                    for f in fields:
                        ui.label(fmt(row[f]))
                    ui.label(f"{fmt(row[metric])} {fmt_ci([row[f'{metric}_ci95_low'], row[f'{metric}_ci95_high']])}")

    # --- calibrate ----------------------------------------------------------------------------

    def build_calibrate(self) -> None:
        ui.label("Find the value of one field that makes a metric hit a target (bracketing search on the same "
                 "seeds), from the edited config.").classes("text-grey-8")
        with ui.row().classes("items-start gap-2"):
            self.cal_field = _tid(ui.select([], label="field", with_input=True).classes("w-72"), "cal-field")
            self.cal_metric = _tid(ui.select(["win_rate"], label="metric", value="win_rate", with_input=True,
                                             new_value_mode="add-unique").classes("w-56"), "cal-metric")
        with ui.row().classes("items-start gap-2"):
            self.cal_target = _tid(ui.input("target", value="0.5").classes("w-24"), "cal-target")
            self.cal_n = _tid(ui.input("N per evaluation", value="5000").classes("w-32"), "cal-n")
            self.cal_btn = _tid(ui.button("Calibrate", icon="tune", on_click=self.start_calibrate), "cal-run")
        self.cal_progress = ui.linear_progress(0, show_value=False).props("instant-feedback")
        self.cal_status = _tid(ui.label("").classes("text-caption"), "cal-status")
        self.cal_box = _tid(ui.column().classes("w-full"), "cal-results")
        self.refresh_field_choices()

    def start_calibrate(self) -> None:
        if self.cal_job is not None and not self.cal_job.finished:
            return
        got = self.collect()
        if got is None:
            self.cal_status.text = self.status.text
            return
        opts, _, seed, sets = got
        try:
            n = engine.check_n(self.cal_n.value)
            try:
                target = float(str(self.cal_target.value))
            except ValueError:
                raise DicesimError(f"--target value must be a number, got {self.cal_target.value!r}") from None
            if not self.cal_field.value:
                raise DicesimError("choose the config field to tune")
        except DicesimError as e:
            self.cal_status.text = f"error: {e}"
            return
        game, policy = self.game, str(self.policy_sel.value)
        fld, metric = str(self.cal_field.value), str(self.cal_metric.value)
        self.runs += 1
        # the edited config as a whole file (every field present), so calibrate can set any field on it
        base = saving.save_config(self.files / f"calibrate-{self.runs}" / "base.toml",
                                  engine.load(game, self.config, sets), self.config, sets)

        def work(job: Job) -> dict[str, Any]:
            return engine.calibrate(game, str(base), [], fld, metric, target, policy, opts, n, seed, job.advance,
                                    job.cancel)

        self.cal_job = MANAGER.submit(Job("calibrate", total=n), work)
        self.cal_status.text = "calibration queued"
        self.cal_btn.disable()

    def poll_calibrate(self) -> None:
        job = self.cal_job
        if job is None:
            return
        if not job.finished:
            evals = int(job.done // job.total)
            self.cal_progress.value = (job.done % job.total) / job.total
            self.cal_status.text = (f"calibrating: evaluation {evals + 1} ({int(job.done):,} runs played)"
                                    if job.status == "running" else "calibration queued")
            return
        self.cal_job = None
        self.cal_btn.enable()
        self.cal_progress.value = 1.0 if job.status == "done" else 0.0
        if job.status != "done":
            self.cal_status.text = job.error or job.status
            return
        c = job.result
        est = c["estimate"]
        self.cal_status.text = f"calibration {'converged' if c['converged'] else 'did not converge'}: {c['stop']}"
        self.cal_box.clear()
        with self.cal_box:
            _tid(ui.label(f"{c['field']} = {c['value']:g} gives {c['metric']} {fmt(est['value'])} "
                          f"{fmt_ci(est['ci95'])} (target {c['target']:g})").classes("text-subtitle1"), "cal-answer")
            ui.label(f"tolerance {c['tolerance']} · bracket [{c['bracket'][0]:g}, {c['bracket'][1]:g}] · "
                     f"{c['field']} 95 % interval ≈ {fmt_ci(c['field_ci95'])} · N {c['n']:,} per evaluation, "
                     f"seed {c['seed']}").classes("text-caption text-grey-8")
            ui.button(f"use {c['field']} = {c['value']:g}",
                      on_click=lambda: self.form.set_value(c["field"], str(c["value"]))).props("outline")
            with ui.grid(columns=2).classes("gap-x-6 gap-y-0"):
                ui.label(c["field"]).classes("text-bold font-mono")
                ui.label(c["metric"]).classes("text-bold")
                for e in c["evaluations"]:
                    ui.label(f"{e['x']:g}")
                    ui.label(f"{fmt(e['value'])} {fmt_ci(e['ci95'])}")

    # --- save ---------------------------------------------------------------------------------

    def build_save(self) -> None:
        ui.label("Save the edited config as TOML (loads with --config; its --set lines beside it) and the last "
                 "run as the usual output folder (tables, charts, manifest.json, report.html).").classes(
            "text-grey-8")
        with ui.row().classes("w-full items-start gap-2"):
            self.toml_path = _tid(ui.input("TOML file", value=str(self.out_root / "studio.toml")).classes("grow"),
                                  "save-toml-path")
            _tid(ui.button("Save config", icon="save", on_click=self.save_config), "save-toml")
        with ui.row().classes("w-full items-start gap-2"):
            self.out_path = _tid(ui.input("output folder", value=str(self.out_root / "last-run")).classes("grow"),
                                 "save-out-path")
            _tid(ui.button("Save results", icon="folder", on_click=self.save_results), "save-out")
        self.save_status = _tid(ui.label("").classes("font-mono text-caption break-all"), "save-status")

    def save_config(self) -> None:
        sets = self.form.sets()
        try:
            cfg = engine.load(self.game, self.config, sets)
            path = saving.save_config(Path(str(self.toml_path.value)), cfg, self.config, sets)
        except (DicesimError, OSError) as e:
            self.save_status.text = f"error: {e}"
            return
        self.save_status.text = (f"saved {path} and {path.with_suffix('.set.txt').name}; "
                                 f"the same edits as: {saving.set_args(sets) or '(none)'}")

    def save_results(self) -> None:
        res = self.current
        if res is None:
            self.save_status.text = "error: no run to save yet"
            return
        out = Path(str(self.out_path.value))

        def work(job: Job) -> Path:
            return engine.write_output(out, res)

        job = MANAGER.submit(Job("save"), work)
        self.save_status.text = f"writing {out} …"

        def check() -> None:
            if not job.finished:
                return
            timer.cancel()
            self.save_status.text = (f"saved {res.label}: {job.result}" if job.status == "done"
                                     else job.error or job.status)

        timer = ui.timer(POLL_S, check)


def serve(host: str = "127.0.0.1", port: int = 8765, out_root: Path = Path("reports/studio")) -> None:
    """Start the studio's web server (blocks until stopped)."""
    import tempfile

    from nicegui import app

    files = Path(tempfile.mkdtemp(prefix="dicesim-studio-"))
    app.add_static_files(FILES_ROUTE, files)

    @ui.page("/")
    def index() -> None:
        Studio(files, Path(out_root)).build()

    app.on_shutdown(MANAGER.shutdown)
    ui.run(host=host, port=port, reload=False, show=False, title="dicesim studio",
           show_welcome_message=False, uvicorn_logging_level="warning")
