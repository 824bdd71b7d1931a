"""The Calibrate tab: the value of one config field that makes a metric hit a target.

``dicesim calibrate`` (a bracketing search on the same seeds) on the edited config, in the
background; the answer comes with its interval, every evaluation and a button that puts the value
into the form.
"""

from __future__ import annotations

from typing import Any

from nicegui import ui

from sim.core.config import DicesimError
from sim.core.limits import target_value
from sim.report.words import field_interval_text, metric_name, metric_text, value_text
from sim.studio import engine, saving
from sim.studio.host import StudioHost
from sim.studio.jobs import MANAGER, Job
from sim.studio.widgets import tid


class CalibratePanel:
    """The calibration controls, its job and its answer, for one studio tab."""

    def __init__(self, studio: StudioHost) -> None:
        self.studio = studio
        self.cal_job: Job | None = None

    def refresh(self, fields: list[str], metrics: dict[str, str]) -> None:
        """New choices after the game, the config or the last result changed."""
        self.cal_field.set_options(fields, value=self.cal_field.value if self.cal_field.value in fields else None)
        if metrics:
            self.cal_metric.set_options(metrics, value=self.cal_metric.value if self.cal_metric.value in metrics
                                        else next(iter(metrics)))

    def build(self) -> None:
        ui.label("Find the value of one field that makes a metric hit a target (bracketing search on the same "
                 "seeds), from the edited config.").classes("text-grey-8")
        with ui.row().classes("items-start gap-2"):
            self.cal_field = tid(ui.select([], label="field", with_input=True).classes("w-72"), "cal-field")
            self.cal_metric = tid(ui.select({"win_rate": "wins (win_rate)"}, label="metric", value="win_rate",
                                             with_input=True, new_value_mode="add-unique", key_generator=str.strip)
                          .classes("w-64"), "cal-metric")
        with ui.row().classes("items-start gap-2"):
            self.cal_target = tid(ui.input("target", value="0.5").classes("w-24"), "cal-target")
            self.cal_n = tid(ui.input("N per evaluation", value="5000").classes("w-32"), "cal-n")
            self.cal_btn = tid(ui.button("Calibrate", icon="tune", on_click=self.start), "cal-run")
        self.cal_progress = ui.linear_progress(0, show_value=False).props("instant-feedback")
        self.cal_status = tid(ui.label("").classes("text-caption"), "cal-status")
        self.cal_box = tid(ui.column().classes("w-full"), "cal-results")
        self.studio.refresh_field_choices()

    def start(self) -> None:
        if self.cal_job is not None and not self.cal_job.finished:
            return
        got = self.studio.collect()
        if got is None:
            self.cal_status.text = self.studio.status.text
            return
        opts, _, seed, sets = got
        try:
            n = engine.check_n(self.cal_n.value, "N per evaluation")
            target = target_value(str(self.cal_metric.value or ""), str(self.cal_target.value))
            if not self.cal_field.value:
                raise DicesimError("choose the config field to tune")
        except DicesimError as e:
            self.cal_status.text = f"error: {e}"
            return
        game, policy = self.studio.game, str(self.studio.policy_sel.value)
        fld, metric = str(self.cal_field.value), str(self.cal_metric.value)
        self.studio.runs += 1
        # the edited config as a whole file (every field present), so calibrate can set any field on it
        base = saving.save_config(self.studio.files / f"calibrate-{self.studio.runs}" / "base.toml",
                                  engine.load(game, self.studio.config, sets), self.studio.config, sets)

        def work(job: Job) -> dict[str, Any]:
            engine.warm(game, str(base), [], policy, opts, job.cancel)
            return engine.calibrate(game, str(base), [], fld, metric, target, policy, opts, n, seed, job.advance,
                                    job.cancel)

        self.cal_job = self.studio.queue.submit(Job("calibrate", total=n), work)
        self.cal_status.text = "calibration queued"
        self.cal_btn.disable()

    def poll(self) -> None:
        job = self.cal_job
        if job is None:
            return
        if not job.finished:
            evals = int(job.done // job.total)
            self.cal_progress.value = (job.done % job.total) / job.total
            self.cal_status.text = {"running": f"calibrating: evaluation {evals + 1} ({int(job.done):,} runs played)",
                                    "waiting": f"calibration {MANAGER.waiting_text()}"}.get(
                job.status, "calibration queued after this page's other job")
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
            game = self.studio.game
            gives = metric_text(game, c["metric"], est["value"], est["ci95"], headline=engine.get_game(game).headline)
            target = value_text(c["metric"], c["target"], game=game)
            interval = field_interval_text(c["field"], c["field_ci95"], len(c["evaluations"]),
                                           whole=isinstance(c["value"], int))
            # "= 237: the first player wins 52.0 %" ("gives the first seat wins" read ill, in the generic words)
            tid(ui.label(f"{c['field']} = {c['value']:g}: {gives} (target {target})")
                .classes("text-subtitle1"), "cal-answer")
            ui.label(f"tolerance: {c['tolerance']} · bracket "
                     f"[{c['bracket'][0]:g}, {c['bracket'][1]:g}] · "
                     f"{interval} · "
                     f"N {c['n']:,} per evaluation, seed {c['seed']}").classes("text-caption text-grey-8")
            for note in c.get("notes", []):
                tid(ui.label(f"Note: {note}").classes("text-body2 text-orange-10"), "cal-note")
            ui.button(f"use {c['field']} = {c['value']:g}",
                      on_click=lambda: self.studio.form.set_value(c["field"], str(c["value"]))).props("outline")
            with ui.grid(columns=2).classes("gap-x-6 gap-y-0"):
                ui.label(c["field"]).classes("text-bold font-mono")
                ui.label(metric_name(game, c["metric"])).classes("text-bold")
                for e in c["evaluations"]:
                    ui.label(f"{e['x']:g}")
                    ui.label(value_text(c["metric"], e["value"], e["ci95"], game=game))
