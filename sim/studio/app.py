"""The studio page: pick a game, config, policy, options, N and seed; edit fields; run, sweep, calibrate, fit, save.

One ``Studio`` per browser tab holds that tab's form, its last two results and its own job queue
(``sim.studio.jobs``: the server runs at most ``--max-jobs`` jobs at once); the page polls its jobs, so
it stays live while numba plays. Saves go only under ``--out`` and the page names them relative to it.
Every engine call goes through ``sim.studio.engine``; the Sweep, Calibrate and Fit tabs live in
``sweep_view``, ``calibrate_view`` and ``fit_view``; who may open the page at all is ``sim.studio.access``.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import uuid
from pathlib import Path
from typing import Any

from nicegui import app, ui

from sim.core.config import CONFIG_DIR, ROOT, DicesimError
from sim.core.limits import short
from sim.report import words
from sim.studio import engine, saving
from sim.studio.access import LoopbackOnly, TokenGate
from sim.studio.bodylimit import BodyLimit
from sim.studio.calibrate_view import CalibratePanel
from sim.studio.fit_view import FitPanel
from sim.studio.fitting import UPLOAD_MAX_MB
from sim.studio.form_view import ConfigForm
from sim.studio.jobs import MANAGER, Job
from sim.studio.results_view import chart_images, headline_table, verdict
from sim.studio.saving import OUT, inside, shown
from sim.studio.sweep_view import SweepPanel
from sim.studio.uploadguard import UploadGuard
from sim.studio.widgets import error_to, tid

FILES_ROUTE = "/studio-files"
POLL_S = 0.25
FIX = "fix the marked inputs first"
PREPARING = "loading the game's kernels in a helper process (the first run of a policy; minutes if they must compile)"


def _rel(path: str | Path) -> str:
    """A shipped config as the page names it (``configs/<game>/<file>``), never the server's absolute path."""
    p = Path(path).resolve()
    for base in (CONFIG_DIR.resolve().parent, ROOT.resolve()):
        if p.is_relative_to(base):
            return p.relative_to(base).as_posix()
    return p.name


def metric_choices(game: str, metrics: list[str]) -> dict[str, str]:
    """The Sweep and Calibrate tabs' metric picker: each metric in words, its code name beside it for typing
    (``wins (win_rate)``), the game's headline metrics first (the first is the default)."""
    headline = [m for m in engine.get_game(game).headline if m in metrics]
    return {m: f"{words.metric_label(game, m)} ({m})" for m in dict.fromkeys([*headline, *metrics])}


def _option_choices(game: str, name: str) -> dict[str, str] | None:
    """Choices of a game option, each in the game's words: read from the config model (``difficulty`` -> the
    fields of its table: Leicht, Normal, Schwer), else the option's declared choices (Dungeon24's peoples), else the
    game's policies for an ``opponent``; None for a free value (a card order)."""
    g = engine.get_game(game)
    info = g.Config.model_fields.get(name)
    sub = getattr(info, "annotation", None) if info else None
    fields = getattr(sub, "model_fields", None)
    spec = g.option_spec(name)
    if fields:
        return {c: words.word(game, c) for c in fields}
    if spec is not None and spec.choices:
        return {c: (spec.words or {}).get(c) or words.word(game, c) for c in spec.choices}
    return engine.policy_choices(game) if name == "opponent" else None


class Studio:
    """One browser tab of the studio."""
    def __init__(self, files: Path, out_root: Path) -> None:
        self.files = files / uuid.uuid4().hex
        self.out_root = Path(out_root).resolve()
        self.queue = MANAGER.session()
        self.armed: dict[str, str] = {}  # save kind -> the path a second press replaces
        self.game = opening_game()
        self.config: str | None = engine.config_files(self.game)[0]
        self.current: engine.PlayResult | None = None
        self.previous: engine.PlayResult | None = None
        self.runs = 0
        self.job: Job | None = None
        self.sweep: SweepPanel | None = None
        self.calibrate: CalibratePanel | None = None
        self.fit: FitPanel | None = None

    def _label(self, path: str) -> str:
        """A config as the page names it: ``configs/<game>/<file>``, or its path in the output folder."""
        p = Path(path).resolve()
        if p.is_relative_to(self.out_root):
            return f"{p.relative_to(self.out_root).as_posix()} (in --out)"
        return _rel(p)

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
            with ui.column().classes("w-[28rem] shrink-0 gap-2"):
                self.run_card = ui.card().classes("w-full")
                self.build_run_card()
                with ui.card().classes("w-full"):
                    with ui.row().classes("w-full items-center justify-between"):
                        ui.label("Config fields").classes("text-subtitle1 text-bold")
                        ui.button("reset edits", on_click=lambda: self.form.reset()).props("flat dense size=sm")
                    self.sets_label = tid(ui.label("").classes("font-mono text-caption text-grey-8 break-all"),
                                           "set-lines")
                    self.form_box = ui.column().classes("w-full gap-1")
                    self.build_form()
            with ui.column().classes("grow min-w-0"):
                with ui.tabs().classes("w-full") as tabs:
                    t_res = ui.tab("Results")
                    t_sweep = ui.tab("Sweep")
                    t_cal = ui.tab("Calibrate")
                    t_fit = ui.tab("Fit")
                    t_save = ui.tab("Save")
                with ui.tab_panels(tabs, value=t_res).classes("w-full"):
                    with ui.tab_panel(t_res):
                        self.results_box = tid(ui.column().classes("w-full"), "results")
                        with self.results_box:
                            ui.label("Run to see the headline numbers and charts; the next run is compared "
                                     "with this one on the same seeds.").classes("text-grey-7")
                    with ui.tab_panel(t_sweep):
                        self.sweep = SweepPanel(self)
                        self.sweep.build()
                    with ui.tab_panel(t_cal):
                        self.calibrate = CalibratePanel(self)
                        self.calibrate.build()
                    with ui.tab_panel(t_fit):
                        self.fit = FitPanel(self)
                        self.fit.build()
                    with ui.tab_panel(t_save):
                        self.build_save()
        ui.timer(POLL_S, self.poll)

    def build_run_card(self) -> None:
        g = engine.get_game(self.game)
        self.run_card.clear()
        with self.run_card:
            with ui.row().classes("w-full gap-2 no-wrap"):
                titles = {name: engine.get_game(name).title for name in engine.games()}  # "Würfel Dungeon"
                self.game_sel = tid(ui.select(titles, label="game", value=self.game,
                                               on_change=lambda e: self.change_game(e.value)).classes("w-40"), "game")
                files = {f: self._label(f) for f in engine.config_files(self.game, self.out_root)}
                self.config_sel = tid(ui.select(files, label="config file", value=self.config,
                                                 on_change=lambda e: self.change_config(e.value)).classes("grow"),
                                       "config")
            with ui.row().classes("w-full gap-2"):  # wraps: every option's label is shown whole
                self.policy_sel = tid(ui.select(engine.policy_choices(self.game), label="policy",  # display names
                                                 value=engine.opening_policy(self.game), new_value_mode="add-unique",
                                                 key_generator=lambda typed: typed.strip().lower(),
                                                 with_input=True).classes("grow min-w-[10rem]"), "policy")
                self.policy_sel.on_value_change(lambda _: self.recheck())
                self.option_inputs: dict[str, ui.element] = {}
                for name in engine.play_options(self.game):
                    default = g.options[name]
                    choices = _option_choices(self.game, name)
                    spec = g.option_spec(name)
                    said = (spec.label if spec and spec.label else name.replace("_", " "))  # whole, never cut
                    if choices and isinstance(default, str) and default in choices:  # in words (Leicht)
                        w: ui.element = ui.select(choices, label=said, value=default)
                    else:
                        w = ui.input(said, value="" if default is None else str(default))
                    self.option_inputs[name] = tid(w.classes("min-w-[7rem] grow"), f"option-{name}")
                    w.on_value_change(lambda _: self.recheck())
            with ui.row().classes("w-full gap-2 items-start"):
                self.n_input = tid(ui.input("N runs", value="10000").classes("w-48"), "n")
                self.seed_input = tid(ui.input("seed", value="1").classes("w-32"), "seed")
                self.run_btn = tid(ui.button("Run", icon="play_arrow", on_click=self.start_play), "run")
                self.stop_btn = tid(ui.button("Stop", icon="stop", on_click=self.stop).props("flat"), "stop")
                self.stop_btn.set_visibility(False)
            for w in (self.n_input, self.seed_input):
                w.on_value_change(lambda _: self.recheck())
            self.progress = tid(ui.linear_progress(0, show_value=False).props("instant-feedback"), "progress")
            self.status = tid(ui.label("").classes("text-caption"), "status")
            with ui.row().classes("w-full items-center gap-2 no-wrap") as self.unused_row:
                self.unused_label = tid(ui.label("").classes("text-caption text-orange-9"), "unused-hint")
                self.switch_btn = tid(ui.button("switch", on_click=self.switch_option).props("flat dense size=sm"),
                                      "switch-option")
            self.unused_row.set_visibility(False)
            self.unused: list[dict[str, Any]] = []

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
        self.recheck()

    def recheck(self) -> None:
        """After any change: say which edits the current options never read, and drop a "fix the marked inputs"
        message once nothing is marked any more (a stale message reads as if the fix had not worked)."""
        if not hasattr(self, "unused_row") or not hasattr(self, "form"):
            return  # the page is still being built
        try:
            opts = engine.options_for(self.game, {k: w.value for k, w in self.option_inputs.items()})
        except DicesimError:
            opts = None
        self.unused = engine.unused_edits(self.game, self.form.sets(), opts, str(self.policy_sel.value or "")) \
            if opts is not None else []
        if self.unused:
            first = self.unused[0]
            more = f" (and {len(self.unused) - 1} more such edits)" if len(self.unused) > 1 else ""
            self.unused_label.text = first["text"] + more
            self.switch_btn.text = f"switch to {first['shown']}"
        self.unused_row.set_visibility(bool(self.unused))
        if self.status.text == FIX and self.collect(quiet=True) is not None:
            self.status.text = ""

    def switch_option(self) -> None:
        """Set the option the first unused edit needs (``difficulty`` to ``normal``)."""
        if self.unused:
            first = self.unused[0]
            picker = self.policy_sel if first["option"] == "policy" else self.option_inputs[first["option"]]
            picker.value = first["choice"]
            self.recheck()

    def change_game(self, game: str) -> None:
        running = [j for j in (self.job, self.sweep and self.sweep.sweep_job, self.calibrate and self.calibrate.cal_job,
                               self.fit and self.fit.fit_job) if j is not None and not j.finished]
        self.stop()  # another game's runs: stopped, never shown under this game's form (Stop had vanished)
        self.job = None  # its numbers are the game before's: the page lets go of it (it ends at its next chunk)
        self.game = game
        self.config = engine.config_files(game)[0] if engine.config_files(game) else None
        self.current = self.previous = None
        self.build_run_card()
        self.build_form()
        self.refresh_field_choices()
        if self.fit is not None:
            self.fit.refresh()
        if running:
            self.status.text = "the game changed: the running job of the game before was stopped"

    def use_config(self, path: str) -> None:
        """Pick ``path`` (a TOML file under --out, as a fitted population.toml) in the config picker, listed anew."""
        files = {f: self._label(f) for f in engine.config_files(self.game, self.out_root)}
        self.config_sel.set_options(files, value=path if path in files else self.config)

    def change_config(self, config: str) -> None:
        self.config = config
        self.build_form()
        self.refresh_field_choices()

    # --- playing ------------------------------------------------------------------------------

    def collect(self, quiet: bool = False) -> tuple[dict[str, Any], int, int, list[str]] | None:
        """Options, N, seed and ``--set`` lines, each bad one marked with the CLI's message (``quiet``: the status
        line left as it is)."""
        status = self.status.text
        ok = True
        raw = {name: w.value for name, w in self.option_inputs.items()}
        for name, w in self.option_inputs.items():  # one at a time, so a message lands on its input
            try:
                engine.options_for(self.game, {name: raw[name]})
                error_to(w, "")
            except DicesimError as e:
                error_to(w, f"error: {e}")
                ok = False
        opts: dict[str, Any] = {}
        n = seed = 0
        for w, check in ((self.n_input, engine.check_n), (self.seed_input, engine.check_seed)):
            try:
                value = check(w.value)
                error_to(w, "")
                if w is self.n_input:
                    n = value
                else:
                    seed = value
            except DicesimError as e:
                error_to(w, f"error: {e}")
                ok = False
        if self.form.errors:
            ok = False
        sets = self.form.sets()
        if ok:
            try:
                opts = engine.options_for(self.game, raw)
            except DicesimError as e:
                self.status.text = status if quiet else f"error: {e}"
                return None
            try:
                engine.get_game(self.game).seat_policies(str(self.policy_sel.value or ""), opts)
                error_to(self.policy_sel, "")
            except DicesimError as e:
                error_to(self.policy_sel, f"error: {e}")
                self.status.text = status if quiet else FIX
                return None
            try:
                engine.load(self.game, self.config, sets)
            except DicesimError as e:
                msg = f"error: {e}"
                hit = [p for p in self.form.specs if p in str(e) and any(s.startswith(p + "=") for s in sets)]
                if hit:
                    self.form.show_error(hit[0], msg)
                self.status.text = status if quiet else msg
                return None
        if not ok:
            self.status.text = FIX
        if quiet:
            self.status.text = status
        return (opts, n, seed, sets) if ok else None

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
            job.status = "preparing"
            engine.warm(game, config, sets, policy, opts, job.cancel)
            job.status = "running"
            res = engine.play(game, config, sets, policy, opts, n, seed, job.advance, job.cancel)
            res.label = label
            job.partial = res  # the page shows the numbers now; the charts follow
            job.status = "charting"
            res.charts = engine.charts(res, prev, out)
            return res

        self.job = self.queue.submit(Job("play", total=n), work)
        self.run_btn.disable()
        self.stop_btn.set_visibility(True)
        self.status.text = f"{label}: queued"

    def stop(self) -> None:
        for job in (self.job, self.sweep and self.sweep.sweep_job, self.calibrate and self.calibrate.cal_job,
                    self.fit and self.fit.fit_job):
            if job is not None and not job.finished:
                job.cancel.set()

    def poll(self) -> None:
        job = self.job
        if job is not None:
            self.progress.value = job.progress
            mine = job.partial is not None and job.partial.game == self.game  # a guard: never another game's
            if mine and job.partial is not self.current and job.status in ("charting", "done"):
                self.previous, self.current = self.current, job.partial  # the numbers first, the charts follow
                if self.previous is not None and self.previous.game != self.current.game:
                    self.previous = None
                r = self.current
                self.status.text = (f"{r.label}: {r.n:,} runs in {r.seconds:.1f} s "
                                    f"({r.n / max(r.seconds, 1e-9):,.0f} runs/s)")
                self.show_results()
                self.refresh_field_choices()
            if not job.finished:
                if job.status != "charting":
                    what = {"queued": "queued after this page's other job", "waiting": MANAGER.waiting_text(),
                            "preparing": PREPARING}.get(job.status, f"{int(job.done):,} / {int(job.total):,} runs")
                    self.status.text = f"run {self.runs}: {what}"
            else:
                self.job = None
                self.run_btn.enable()
                self.stop_btn.set_visibility(False)
                if job.status == "done" and mine:
                    self.show_charts(self.current.charts)
                else:
                    self.status.text = job.error or job.status
                    if mine:
                        self.show_charts([], f"no charts: {job.error or job.status}")
        for panel in (self.sweep, self.calibrate, self.fit):
            if panel is not None:
                panel.poll()

    def show_results(self) -> None:
        cur, prev = self.current, self.previous
        assert cur is not None
        self.results_box.clear()
        with self.results_box:
            g = engine.get_game(cur.game)
            facts = [g.title, words.policy_name(cur.game, cur.policy), f"N {cur.n:,}", f"seed {cur.seed}",
                     *g.setting(cur.options), f"config {cur.config_hash}"]
            ui.label(" · ".join(facts)).classes("text-subtitle1")
            if cur.sets:
                ui.label(saving.set_args(cur.sets)).classes("font-mono text-caption text-grey-8 break-all")
            assumed = list(getattr(cur.cfg, "assumed", []) or [])
            if assumed:
                said = "; ".join(f"{words.config_label(cur.game, g.Config, a)} ({a})" for a in assumed[:4])
                if len(assumed) > 4:
                    said += f" and {len(assumed) - 4} more (the config file's assumed list)"
                tid(ui.label("assumed values used (not fixed by the rules page): " + said).classes(
                    "text-caption text-orange-9"), "assumed")
            if prev is not None and not engine.paired(cur, prev):
                ui.label("The previous run used another N, seed, policy or options: differences are not paired "
                         "and carry no interval.").classes("text-warning")
            names = engine.headline(cur.game, cur.metrics)
            tid(ui.label(verdict(cur, prev, names)).classes("text-subtitle1 text-bold"), "verdict")
            headline_table(cur, prev, names)
            every = ui.expansion(f"all {len(cur.metrics)} metrics").classes("w-full").props("dense")

            def fill_every(e: Any, box: ui.expansion = every) -> None:
                if e.value and not box.default_slot.children:
                    with box:
                        headline_table(cur, prev, list(cur.metrics), ids=False)

            every.on_value_change(fill_every)
            self.charts_box = ui.column().classes("w-full")  # filled when the charts are drawn
        self.show_charts(cur.charts, "drawing charts …")

    def show_charts(self, paths: list[Path], note: str = "") -> None:
        """The charts under the numbers (a note while they are drawn, or why there are none)."""
        self.charts_box.clear()
        with self.charts_box:
            if paths:
                chart_images(paths, self.url)
            elif note:
                ui.label(note).classes("text-caption text-grey-7")

    # --- the sweep and calibrate tabs (sweep_view, calibrate_view) ---------------------------------

    def refresh_field_choices(self) -> None:
        """Field and metric choices of the Sweep and Calibrate tabs for the current form and result."""
        fields = self.form.numeric_fields() if hasattr(self, "form") else []
        # before a run of this game: its headline metrics (a Kniffel tab offered only the dungeons' "wins")
        shown = list(self.current.metrics) if self.current and self.current.game == self.game else []
        metrics = metric_choices(self.game, shown or list(engine.get_game(self.game).headline))
        for panel in (self.sweep, self.calibrate):
            if panel is not None:
                panel.refresh(fields, metrics)

    # --- save ---------------------------------------------------------------------------------

    def build_save(self) -> None:
        ui.label("Save the edited config as TOML (loads with --config; its --set lines beside it) and the last "
                 "run as the usual output folder (tables, charts, manifest.json, report.html).").classes(
            "text-grey-8")
        ui.label(f"Everything is saved inside {OUT}; paths are relative to it.").classes("text-caption text-grey-7")
        with ui.row().classes("w-full items-start gap-2"):
            self.toml_path = tid(ui.input("TOML file", value="studio.toml").classes("grow"), "save-toml-path")
            self.toml_btn = tid(ui.button("Save config", icon="save", on_click=self.save_config), "save-toml")
        with ui.row().classes("w-full items-start gap-2"):
            self.out_path = tid(ui.input("results folder", value="last-run").classes("grow"), "save-out-path")
            self.out_btn = tid(ui.button("Save results", icon="folder", on_click=self.save_results), "save-out")
        self.toml_path.on_value_change(lambda: self.disarm("toml"))
        self.out_path.on_value_change(lambda: self.disarm("out"))
        self.save_status = tid(ui.label("").classes("font-mono text-caption break-all"), "save-status")
        self.save_link = ui.row()

    def disarm(self, kind: str) -> None:
        """The typed path changed: a pending "press again to replace" no longer holds, nor its message."""
        self.armed.pop(kind, None)
        widget, button, label = ((self.toml_path, self.toml_btn, "Save config") if kind == "toml" else
                                 (self.out_path, self.out_btn, "Save results"))
        error_to(widget, "")
        button.text = label

    def _beside(self, target: Path) -> str:
        """The ``--set`` lines' file of the TOML ``target``, as the page shows it (not resolved: it may be a link)."""
        return Path(shown(self.out_root, target)).with_name(saving.set_file(target).name).as_posix()

    def _target(self, kind: str) -> Path | None:
        """Where a save goes, or None with the refusal shown under its field (outside --out, or over files
        that exist and the user has not yet pressed the button a second time to replace)."""
        widget, button = (self.toml_path, self.toml_btn) if kind == "toml" else (self.out_path, self.out_btn)
        typed = str(widget.value or "")
        try:
            target = inside(self.out_root, typed, "file" if kind == "toml" else "folder")
            if kind == "toml":
                if target.suffix != ".toml":
                    raise DicesimError(f"a config file ends in .toml, got {shown(self.out_root, target)!r}")
                if target.is_dir():
                    raise DicesimError(f"{shown(self.out_root, target)} is a folder")
                beside = saving.set_file(target)  # its --set lines: checked too, so a save is both files or neither
                if beside.is_symlink() or (beside.exists() and not beside.is_file()):
                    kind_of = "a folder" if beside.is_dir() and not beside.is_symlink() else "not a plain file"
                    raise DicesimError(f"{self._beside(target)} (where the --set lines go) is {kind_of}: "
                                       "type another name")
                there = [p for p in (target, beside) if p.exists()]
            else:
                if target.is_file():
                    raise DicesimError(f"{shown(self.out_root, target)} is a file, not a folder")
                there = [target] if target.is_dir() and any(target.iterdir()) else []
        except (DicesimError, OSError) as e:  # OSError: a name the file system cannot hold (too long) and the like
            said = e if isinstance(e, DicesimError) else f"{short(typed)}: {(e.strerror or str(e)).lower()}"
            error_to(widget, f"error: {said}")
            self.save_status.text = "not saved"
            return None
        rel = shown(self.out_root, target)
        if there and self.armed.get(kind) != rel:
            names = " and ".join(rel if p == target else self._beside(target) for p in there)
            verb = "exists" if len(there) == 1 else "exist"
            what = "its files" if kind == "out" else "it" if len(there) == 1 else "them"
            error_to(widget, f"{names} {verb} already: press Replace to overwrite {what}, or type another name")
            self.armed[kind] = rel
            button.text = "Replace"
            self.save_status.text = "not saved"
            return None
        self.disarm(kind)
        return target

    def save_config(self) -> None:
        sets = self.form.sets()
        try:
            cfg = engine.load(self.game, self.config, sets)
        except DicesimError as e:
            self.save_status.text = f"error: {e}"
            return
        path = self._target("toml")
        if path is None:
            return
        try:
            saving.save_config(path, cfg, self._label(self.config) if self.config else None, sets)
        except saving.SaveError as e:  # it names the file that failed; nothing of the save is left on disk
            failed = shown(self.out_root, path) if e.path == path else self._beside(path)
            error_to(self.toml_path, f"error: cannot write {failed}: {e.why}")
            self.save_status.text = "not saved"
            return
        self.save_status.text = (f"saved {shown(self.out_root, path)} and {saving.set_file(path).name}; "
                                 f"the same edits as: {saving.set_args(sets) or '(none)'}")

    def save_results(self) -> None:
        res = self.current
        if res is None:
            self.save_status.text = "error: no run to save yet"
            return
        out = self._target("out")
        if out is None:
            return
        rel = shown(self.out_root, out)

        def work(job: Job) -> Path:
            return engine.write_output(out, res)

        job = self.queue.submit(Job("save"), work)
        self.save_status.text = f"writing {rel} …"

        def check() -> None:
            if not job.finished:
                if job.status == "waiting":
                    self.save_status.text = f"writing {rel}: {MANAGER.waiting_text()}"
                return
            timer.cancel()
            if job.status != "done":
                self.save_status.text = job.error or job.status
                return
            self.save_status.text = f"saved {res.label}: {rel}/{Path(job.result).name}"
            route = f"/studio-saved/{uuid.uuid4().hex}"  # serve this run's folder (only it) so its report opens here
            app.add_static_files(route, out)
            self.save_link.clear()
            with self.save_link:
                tid(ui.link("open report.html", f"{route}/report.html", new_tab=True), "save-report")

        timer = ui.timer(POLL_S, check)

    def close(self) -> None:
        """The tab is gone: stop its jobs."""
        self.queue.close()


def redactor(*places: tuple[Path, str]) -> Any:
    """A function that writes the server's folders in a message as the page names them."""
    pairs = sorted(((str(Path(p).resolve()), name) for p, name in places), key=lambda x: -len(x[0]))

    def redact(text: str) -> str:
        for path, name in pairs:
            text = text.replace(path + "/", name + "/" if name else "").replace(path, name or ".")
        return text

    return redact


def opening_game() -> str:
    """The game a new page shows: Würfel Dungeon where it is built."""
    return "dungeon" if "dungeon" in engine.games() else engine.games()[0]


def serve(host: str = "127.0.0.1", port: int = 8765, out_root: Path = Path("reports/studio"),
          token: str | None = None, max_jobs: int | None = None) -> None:
    """Start the studio's web server (blocks until stopped); with a token, every request must carry it."""
    files = Path(tempfile.mkdtemp(prefix="dicesim-studio-"))
    app.add_static_files(FILES_ROUTE, files)
    if max_jobs:
        MANAGER.max_jobs = max_jobs
    MANAGER.redact = redactor((files, "(studio work folder)"), (Path(out_root), "(--out)"), (ROOT, ""))
    app.add_middleware(UploadGuard)  # a POST to the upload route without a file: 400, not a traceback
    app.add_middleware(BodyLimit, most=(UPLOAD_MAX_MB + 1) * 2**20)  # a log and its form's headers
    if token:  # added last, so it runs first: a request without the token is refused before anything else
        app.add_middleware(TokenGate, token=token, cookie=f"dicesim-studio-{port}")
    else:  # on loopback: only requests naming loopback, from loopback pages (no DNS rebinding, no foreign page)
        app.add_middleware(LoopbackOnly)

    @ui.page("/")
    def index() -> None:
        studio = Studio(files, Path(out_root))
        studio.build()
        ui.context.client.on_delete(studio.close)

    app.on_startup(lambda: threading.Thread(target=engine.preload, args=(opening_game(),), daemon=True).start())
    app.on_shutdown(MANAGER.shutdown)
    app.on_shutdown(lambda: shutil.rmtree(files, ignore_errors=True))
    ui.run(host=host, port=port, reload=False, show=False, title="dicesim studio",
           show_welcome_message=False, uvicorn_logging_level="warning")
