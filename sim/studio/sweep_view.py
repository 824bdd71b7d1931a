"""The Sweep tab: one or two config fields over a range, every point on the same seeds.

The sweep starts from the edited config (saved as a whole TOML file, so every field is set) and runs
through ``sim.experiments.sweep`` in the background; its progress is the chunk files the resumable sweep has
written. The result is a line chart with 95 % bands per field and, for two fields, the heatmap.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from nicegui import ui

from sim.core import limits
from sim.core.config import DicesimError
from sim.report import words
from sim.studio import engine, saving
from sim.studio.host import StudioHost
from sim.studio.jobs import MANAGER, Job
from sim.studio.results_view import chart_images, fmt
from sim.studio.widgets import tid


def grid_values(lo: float, hi: float, steps: int, integer: bool) -> list[Any]:
    """``steps`` evenly spaced values from lo to hi (whole numbers for int fields, no repeats)."""
    if not 1 <= steps <= limits.MAX_POINTS:  # a billion steps built a list of a billion values before any check
        raise DicesimError(f"steps must be 1 .. {limits.MAX_POINTS:,} (a sweep's points), got {steps:,}")
    xs = [lo + (hi - lo) * i / (steps - 1) for i in range(steps)] if steps > 1 else [lo]
    if integer:
        return list(dict.fromkeys(int(round(x)) for x in xs))
    return list(dict.fromkeys(float(f"{x:.6g}") for x in xs))


class SweepPanel:
    """The sweep controls, its job and its charts, for one studio tab."""

    def __init__(self, studio: StudioHost) -> None:
        self.studio = studio
        self.sweep_job: Job | None = None
        self.fewer: list[str] = []  # what the grid holds other than asked (a whole-number field's fewer points)

    def refresh(self, fields: list[str], metrics: dict[str, str]) -> None:
        """New choices after the game, the config or the last result changed."""
        self.sw_f1.set_options(fields, value=self.sw_f1.value if self.sw_f1.value in fields else None)
        self.sw_f2.set_options(["—", *fields], value=self.sw_f2.value if self.sw_f2.value in fields else "—")
        if metrics:
            self.sw_metric.set_options(metrics, value=self.sw_metric.value if self.sw_metric.value in metrics
                                       else next(iter(metrics)))

    def _range_inputs(self, prefix: str) -> tuple[ui.element, ui.element, ui.element]:
        lo = tid(ui.input("from").classes("w-24"), f"{prefix}-from")
        hi = tid(ui.input("to").classes("w-24"), f"{prefix}-to")
        steps = tid(ui.input("steps", value="5").classes("w-16"), f"{prefix}-steps")
        return lo, hi, steps

    def _prefill(self, path: str | None, lo: ui.element, hi: ui.element) -> None:
        if not path or path not in self.studio.form.specs:
            return
        try:
            v = float(self.studio.form.values[path])
        except (TypeError, ValueError):
            return
        s = self.studio.form.specs[path]
        a, b = v * 0.8, v * 1.2
        if s.lo is not None:
            a = max(a, s.lo)
        if s.hi is not None:
            b = min(b, s.hi)
        if s.kind == "int":
            a, b = math.floor(a), math.ceil(b)
        lo.value, hi.value = f"{a:.4g}", f"{b:.4g}"

    def build(self) -> None:
        ui.label("Sweep one or two fields over a range on the same seeds (every point plays runs 0..N-1), "
                 "from the edited config.").classes("text-grey-8")
        with ui.row().classes("items-start gap-2"):
            self.sw_f1 = tid(ui.select([], label="field", with_input=True).classes("w-72"), "sweep-field")
            self.sw_lo, self.sw_hi, self.sw_steps = self._range_inputs("sweep")
        self.sw_f1.on_value_change(lambda e: self._prefill(e.value, self.sw_lo, self.sw_hi))
        with ui.row().classes("items-start gap-2"):
            self.sw_f2 = tid(ui.select(["—"], label="second field (heatmap)", value="—", with_input=True)
                              .classes("w-72"), "sweep-field2")
            self.sw_lo2, self.sw_hi2, self.sw_steps2 = self._range_inputs("sweep2")
            self.sw_steps2.value = "3"
        self.sw_f2.on_value_change(lambda e: self._prefill(e.value, self.sw_lo2, self.sw_hi2))
        with ui.row().classes("items-start gap-2"):
            self.sw_metric = tid(ui.select({"win_rate": "wins (win_rate)"}, label="metric", value="win_rate",
                                            with_input=True, new_value_mode="add-unique", key_generator=str.strip)
                          .classes("w-64"), "sweep-metric")
            self.sw_n = tid(ui.input("N per point", value="2000").classes("w-28"), "sweep-n")
            self.sw_btn = tid(ui.button("Sweep", icon="show_chart", on_click=self.start), "sweep-run")
        self.sw_progress = ui.linear_progress(0, show_value=False).props("instant-feedback")
        self.sw_status = tid(ui.label("").classes("text-caption"), "sweep-status")
        self.sw_box = tid(ui.column().classes("w-full"), "sweep-results")
        self.studio.refresh_field_choices()

    def _grid_axis(self, sel: ui.element, lo: ui.element, hi: ui.element, steps: ui.element) -> list[Any]:
        path = sel.value
        spec = self.studio.form.specs.get(path)
        if spec is None:
            raise DicesimError(f"choose a numeric config field, got {path!r}")
        try:
            a, b, k = float(str(lo.value)), float(str(hi.value)), int(str(steps.value))
        except ValueError:
            raise DicesimError(f"{path}: from and to must be numbers and steps a whole number of at least 1, got "
                               f"{lo.value!r}, {hi.value!r} and {steps.value!r}") from None
        if not (math.isfinite(a) and math.isfinite(b)):  # NaN or inf: the grid's int() failed in the server's log
            raise DicesimError(f"{path}: from and to must be finite numbers, got {lo.value!r} and {hi.value!r}")
        values = grid_values(a, b, k, spec.kind == "int")
        if len(values) < k:  # a whole-number field: 1,000 steps from 20 to 40 are its 21 whole numbers
            self.fewer.append(f"{path} takes whole numbers: {len(values)} of them from {fmt(values[0])} to "
                              f"{fmt(values[-1])}, not {k:,} steps")
        return values

    def start(self) -> None:
        if self.sweep_job is not None and not self.sweep_job.finished:
            return
        got = self.studio.collect()
        if got is None:
            self.sw_status.text = self.studio.status.text
            return
        opts, _, seed, sets = got
        self.fewer = []
        try:
            n = engine.check_n(self.sw_n.value, "N per point")
            grid = {self.sw_f1.value: self._grid_axis(self.sw_f1, self.sw_lo, self.sw_hi, self.sw_steps)}
            if self.sw_f2.value and self.sw_f2.value != "—":
                if self.sw_f2.value == self.sw_f1.value:
                    raise DicesimError("the second field must differ from the first")
                grid[self.sw_f2.value] = self._grid_axis(self.sw_f2, self.sw_lo2, self.sw_hi2, self.sw_steps2)
            cfg = engine.load(self.studio.game, self.studio.config, sets)
        except DicesimError as e:
            self.sw_status.text = f"error: {e}"
            return
        game, policy, metric = self.studio.game, str(self.studio.policy_sel.value), str(self.sw_metric.value or "")
        base = {f: min(vals, key=lambda x, f=f: abs(float(x) - float(self.studio.form.values[f]))) for f, vals in
                grid.items()}
        self.studio.runs += 1
        where = self.studio.files / f"sweep-{self.studio.runs}"
        base_toml = saving.save_config(where / "base.toml", cfg, self.studio.config, sets)
        total = engine.sweep_tasks(grid, n)

        def work(job: Job) -> tuple[Any, list[Path]]:
            engine.warm(game, str(base_toml), [], policy, opts, job.cancel)
            table = engine.sweep(game, base_toml, policy, opts, n, seed, grid, where / "out")
            if metric not in table.columns:
                raise DicesimError(f"unknown metric {metric!r} (choose from the Results tab's metrics)")
            return table, engine.sweep_charts(table, list(grid), metric, base, where / "charts")

        job = Job("sweep", total=total, probe=lambda: engine.sweep_done(where / "out"))
        self.sweep_job = self.studio.queue.submit(job, work)
        self.sw_status.text = "; ".join([f"sweep of {math.prod(len(v) for v in grid.values())} points queued",
                                         *self.fewer])
        self.sw_btn.disable()

    def poll(self) -> None:
        job = self.sweep_job
        if job is None:
            return
        self.sw_progress.value = job.progress
        if not job.finished:
            self.sw_status.text = {"running": f"sweep: {job.progress:.0%}", "waiting": f"sweep {MANAGER.waiting_text()}"
                                   }.get(job.status, "sweep queued after this page's other job")
            return
        self.sweep_job = None
        self.sw_btn.enable()
        if job.status != "done":
            self.sw_status.text = job.error or job.status
            return
        table, paths = job.result
        metric, game = str(self.sw_metric.value), self.studio.game
        self.sw_status.text = "; ".join([f"sweep done: {len(table)} points, {words.metric_label(game, metric)} "
                                         "with 95 % intervals", *self.fewer])
        self.sw_box.clear()
        with self.sw_box:
            chart_images(paths, self.studio.url)
            fields = [c for c in table.columns if c in self.studio.form.specs]
            with ui.grid(columns=len(fields) + 1).classes("gap-x-6 gap-y-0"):
                for f in fields:
                    ui.label(f).classes("text-bold font-mono")
                ui.label(words.metric_label(game, metric)).classes("text-bold")
                for row in table.to_dict("records"):
                    for f in fields:
                        ui.label(fmt(row[f]))
                    ci = [row[f"{metric}_ci95_low"], row[f"{metric}_ci95_high"]]  # in the metric's unit: 43.2 %
                    tid(ui.label(words.value_text(metric, row[metric], ci, game=game)), "sweep-value")
