"""The Fit tab: a player population fitted from a play log, in the page (``dicesim fit``; ``sim.studio.fitting``).

Pick a decision log found under ``--out`` or upload one into ``--out/logs/``; Fit runs in the background on the
run card's rules (its edits included) and writes ``fits/<log name>/`` there. The answer comes verdict first, with
the fit's charts and page; "Play this population" puts its population.toml into the run card's config picker.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from nicegui import app, events, run, ui

from sim.core.config import DicesimError
from sim.studio import engine, fitting
from sim.studio.host import StudioHost
from sim.studio.jobs import MANAGER, Job
from sim.studio.saving import shown
from sim.studio.widgets import error_to, tid


class FitPanel:
    """The fit controls, its job and its answer, for one studio tab."""

    def __init__(self, studio: StudioHost) -> None:
        self.studio = studio
        self.fit_job: Job | None = None
        self.population: Path | None = None

    def build(self) -> None:
        ui.label("Fit the skill level of logged players (a decision log: docs/logs.md, or `dicesim play … --log`) "
                 "on the rules of the run card, then play that population.").classes("text-grey-8")
        self.note = tid(ui.label("").classes("text-caption text-orange-9"), "fit-note")
        with ui.row().classes("w-full items-start gap-2"):
            self.fit_log = tid(ui.select({}, label="this game's decision logs (in --out)", with_input=True)
                               .classes("grow"), "fit-log")
            self.fit_btn = tid(ui.button("Fit", icon="groups", on_click=self.start), "fit-run")
        self.fit_log.on_value_change(lambda _: error_to(self.fit_log, ""))
        self.upload = tid(ui.upload(label=f"or upload a log into logs/ (.parquet or .csv, at most "
                                          f"{fitting.UPLOAD_MAX_MB} MB)", auto_upload=True, on_upload=self.uploaded,
                                    max_file_size=fitting.UPLOAD_MAX_MB * 2**20, on_rejected=self.rejected)
                          .props('accept=".parquet,.csv" flat bordered').classes("w-[32rem] max-w-full"), "fit-upload")
        self.fit_status = tid(ui.label("").classes("text-caption"), "fit-status")
        self.fit_box = tid(ui.column().classes("w-full"), "fit-results")
        self.refresh()

    def refresh(self, chosen: Path | None = None) -> None:
        """The logs under --out anew (after an upload, a fit, another game); whether this game has logs at all."""
        game = self.studio.game
        ok = fitting.fittable(game)
        self.note.text = "" if ok else f"{engine.get_game(game).title} has no decision log yet: nothing to fit"
        logs = {str(p): shown(self.studio.out_root, p) for p in fitting.saved_logs(self.studio.out_root, game)}
        value = str(chosen) if chosen is not None else self.fit_log.value
        self.fit_log.set_options(logs, value=value if value in logs else next(iter(logs), None))
        self.fit_btn.set_enabled(ok)

    async def uploaded(self, e: events.UploadEventArguments) -> None:
        """An uploaded log kept under logs/ (refused in one line under the picker: name, type, size, existing, what
        uploads this studio has taken, and a file that is no game's readable log: nothing of it is kept)."""
        self.upload.reset()  # the uploader forgets the file: the same one may be sent again (and is then refused)
        try:
            size = e.file.size()
            target = fitting.upload_target(self.studio.out_root, e.file.name, size)
            fitting.QUOTA.take(size)
            try:
                tmp = fitting.staging(target)
                try:
                    await e.file.save(tmp)  # streamed to disk, checked, then moved into place: whole or not at all
                    games = await run.io_bound(fitting.check_upload, tmp, target.name)  # off the page's loop: a
                    if not games:  # 200 MB CSV is read through; None: the studio is stopping
                        raise DicesimError("the upload was not checked (the studio is stopping): not kept")
                    fitting.keep(tmp, target)
                finally:
                    tmp.unlink(missing_ok=True)
            except BaseException:
                fitting.QUOTA.give_back(size)
                raise
        except (DicesimError, OSError) as err:
            msg = err if isinstance(err, DicesimError) else f"cannot keep the upload: {err.strerror or err}"
            error_to(self.fit_log, f"error: {msg}")
            self.fit_status.text = "not uploaded"
            return
        self.refresh(chosen=target)
        self.fit_status.text = f"uploaded {shown(self.studio.out_root, target)}"
        if self.studio.game not in games:  # another game's log: true to say, check_upload found its game
            title = engine.get_game(self.studio.game).title
            error_to(self.fit_log, f"error: {shown(self.studio.out_root, target)} is not a {title} log (docs/logs.md "
                                   "has its columns): it is kept, and listed under its own game")

    def rejected(self) -> None:
        """The browser refused to send a file over the size limit."""
        self.upload.reset()
        error_to(self.fit_log, f"error: a log uploaded here is at most {fitting.UPLOAD_MAX_MB} MB")
        self.fit_status.text = "not uploaded"

    def start(self) -> None:
        if self.fit_job is not None and not self.fit_job.finished:
            return
        game = self.studio.game
        got = self.studio.collect()
        if got is None:
            self.fit_status.text = self.studio.status.text
            return
        _, _, seed, sets = got
        log = Path(str(self.fit_log.value)) if self.fit_log.value else None
        if log is None:
            error_to(self.fit_log, "error: choose a decision log (or upload one)")
            return
        try:
            cfg = engine.load(game, self.studio.config, sets)
        except DicesimError as err:
            self.fit_status.text = f"error: {err}"
            return
        out_root = self.studio.out_root

        def work(job: Job) -> dict[str, Any]:
            return fitting.fit(game, cfg, log, out_root, seed)

        self.fit_job = self.studio.queue.submit(Job("fit"), work)
        self.fit_status.text = f"fitting {shown(out_root, log)} …"
        self.fit_btn.disable()

    def poll(self) -> None:
        job = self.fit_job
        if job is None:
            return
        if not job.finished:
            if job.status == "waiting":
                self.fit_status.text = f"fit: {MANAGER.waiting_text()}"
            return
        self.fit_job = None
        self.fit_btn.enable()
        if job.status != "done":
            error_to(self.fit_log, job.error or job.status)
            self.fit_status.text = "not fitted"
            return
        self.show(job.result)

    def show(self, s: dict[str, Any]) -> None:
        """The answer, verdict first; the charts and fit.html served from the fit's folder (only it)."""
        game, root = self.studio.game, self.studio.out_root
        folder = Path(s["population"]).parent
        self.population = Path(s["population"])
        self.fit_status.text = f"fitted: {shown(root, folder)}"
        self.refresh()
        route = f"/studio-fits/{uuid.uuid4().hex}"
        app.add_static_files(route, folder)
        self.fit_box.clear()
        with self.fit_box:
            level = tid(ui.label(fitting.verdict(game, s)).classes("text-subtitle1 text-bold"), "fit-verdict")
            level.props["data-value"] = str(s["level"]["value"])
            ui.label(fitting.facts(s)).classes("text-caption text-grey-8")
            for line in fitting.regret_lines(s) + fitting.fit_lines(s):
                ui.label(line)
            with ui.row().classes("items-center gap-2"):
                tid(ui.button("Play this population", icon="play_arrow", on_click=self.play), "fit-play")
                tid(ui.link("open fit.html", f"{route}/fit.html", new_tab=True), "fit-page")
            with ui.grid(columns=2).classes("w-full gap-2"):
                for png in sorted(folder.glob("*.png")):
                    tid(ui.image(f"{route}/{png.name}").classes("w-full border").props("fit=contain"),
                        f"fit-chart-{png.stem}")

    def play(self) -> None:
        """The fitted population.toml as the run card's config and the policy its levels apply to: the next Run
        plays these players."""
        if self.population is not None:
            self.studio.use_config(str(self.population))
            self.studio.policy_sel.value = fitting.POLICY[self.studio.game]
