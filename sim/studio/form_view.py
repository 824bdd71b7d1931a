"""The config form on the page: one input per ``FieldSpec``, grouped by table, built when opened.

A config such as Würfel Dungeon's has hundreds of numbers, so each top-level table is a collapsed
expansion whose inputs are created the first time it opens, and a filter finds fields by path. Every
edit is checked at once as its ``--set`` line against the loaded config; a bad value shows the CLI's
one-line ``error:`` message under the field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nicegui import ui

from sim.core.config import DicesimError
from sim.studio import engine
from sim.studio.form import FieldSpec, changed, field_specs, set_line

MAX_MATCHES = 40


class ConfigForm:
    """Inputs for every config field of one (game, config file), and the edits as ``--set`` lines."""

    def __init__(self, game: str, config: str | None, on_edit: Callable[[], None]) -> None:
        self.game, self.config, self.on_edit = game, config, on_edit
        cfg = engine.load(game, config, [])
        self.specs: dict[str, FieldSpec] = {s.path: s for s in field_specs(type(cfg), cfg.model_dump(mode="json"))}
        self.values: dict[str, Any] = {p: (s.value if s.kind == "bool" else s.display()) for p, s in
                                       self.specs.items()}
        self.errors: dict[str, str] = {}
        self.widgets: dict[str, list[ui.element]] = {}

    # --- the edits ----------------------------------------------------------------------------

    def sets(self) -> list[str]:
        """The ``--set`` lines of every changed field, in the model's order."""
        return [set_line(s, self.values[p]) for p, s in self.specs.items() if changed(s, self.values[p])]

    def numeric_fields(self) -> list[str]:
        return [p for p, s in self.specs.items() if s.numeric]

    def check(self, path: str, value: Any) -> str | None:
        """The CLI's message for this value of the field on the loaded config (None when it is fine)."""
        spec = self.specs[path]
        if not changed(spec, value):
            return None
        try:
            engine.load(self.game, self.config, [set_line(spec, value)])
        except DicesimError as e:
            return f"error: {e}"
        return None

    def set_value(self, path: str, value: Any, source: ui.element | None = None) -> None:
        self.values[path] = value
        msg = self.check(path, value)
        if msg:
            self.errors[path] = msg
        else:
            self.errors.pop(path, None)
        for w in self.widgets.get(path, []):
            if w is not source and getattr(w, "value", None) != value:
                w.value = value  # its own validation shows the message
        self.on_edit()

    def show_error(self, path: str, msg: str) -> None:
        """Attach a message (e.g. from a run of all edits together) to a field's inputs."""
        self.errors[path] = msg
        for w in self.widgets.get(path, []):
            _show_error(w, msg)

    def reset(self) -> None:
        for p, s in self.specs.items():
            self.set_value(p, s.value if s.kind == "bool" else s.display())


    # --- building the inputs ----------------------------------------------------------------------

    def build(self) -> None:
        """The filter and one collapsed expansion per top-level table."""
        flt = ui.input("find a field", placeholder="e.g. difficulty.leicht or hp").props("dense clearable outlined")
        flt.classes("w-full")
        flt.props["data-testid"] = "field-filter"
        matches = ui.column().classes("w-full gap-1")
        flt.on_value_change(lambda e: self._matches(matches, e.value or ""))
        sections: dict[str, list[FieldSpec]] = {}
        for s in self.specs.values():
            sections.setdefault(s.section, []).append(s)
        with ui.column().classes("w-full gap-0"):
            for name, specs in sections.items():
                self._lazy_expansion(name, _caption(specs, sum(s.assumed for s in specs)), specs, name)

    def _lazy_expansion(self, title: str, caption: str, specs: list[FieldSpec], here: str) -> None:
        """An expansion for the table ``here``; its inputs are created when it first opens."""
        exp = ui.expansion(title, caption=caption).classes("w-full").props("dense")
        exp.props["data-testid"] = f"section-{here}"
        if "." in here:
            exp.props["header-class"] = "text-grey-8"
        built = {"done": False}

        def fill(e: Any = None) -> None:
            if built["done"] or not exp.value:
                return
            built["done"] = True
            with exp:
                self._fill(specs, here)

        exp.on_value_change(fill)

    def _fill(self, specs: list[FieldSpec], here: str) -> None:
        """Inputs for the fields of table ``here``, then one expansion per sub-table."""
        direct = [s for s in specs if s.group == here]
        subs: dict[str, list[FieldSpec]] = {}
        for s in specs:
            if s.group != here:
                key = s.path[len(here) + 1:].split(".", 1)[0]
                subs.setdefault(f"{here}.{key}", []).append(s)
        if direct:
            with ui.column().classes("w-full gap-1 pl-2"):
                for s in direct:
                    self.field_input(s)
        for sub, members in subs.items():
            n_assumed = sum(s.assumed for s in members)
            self._lazy_expansion(sub.rsplit(".", 1)[-1], _caption(members, n_assumed), members, sub)

    def _matches(self, box: ui.column, text: str) -> None:
        box.clear()
        words = text.lower().split()
        if not words:
            return
        hits = [s for s in self.specs.values() if all(w in s.path.lower() for w in words)]
        with box:
            ui.label(f"{len(hits)} matching field{'s' if len(hits) != 1 else ''}"
                     + (f" (first {MAX_MATCHES} shown)" if len(hits) > MAX_MATCHES else "")).classes(
                "text-caption text-grey-7")
            for s in hits[:MAX_MATCHES]:
                self.field_input(s, full_path=True)

    def field_input(self, s: FieldSpec, full_path: bool = False) -> ui.element:
        """The input of one field: its kind's widget with bounds, description and seed/assumed label."""
        label = s.path if full_path else s.label
        hint = " · ".join(x for x in (s.bounds_text(), s.description, "" if s.assumed else "seed") if x)
        with ui.row().classes("w-full items-center no-wrap gap-2"):
            if s.kind == "bool":
                w: ui.element = ui.checkbox(label, value=bool(self.values[s.path]))
                ui.label(hint).classes("text-caption text-grey-7")
            elif s.kind == "choice":
                w = ui.select(list(s.choices), label=label, value=self.values[s.path],
                              validation=lambda v, p=s.path: self.check(p, v)).props("dense outlined")
                w.classes("grow").props["hint"] = hint
            else:
                w = ui.input(label, value=self.values[s.path],
                             validation=lambda v, p=s.path: self.check(p, v)).props("dense outlined")
                w.classes("grow").props["hint"] = hint
                if s.kind in ("list", "text"):
                    w.classes("font-mono")
            if s.assumed:
                ui.badge("assumed", color="orange-3", text_color="black").props("outline").tooltip(
                    "not fixed by the game's rules page")
        w.props["data-testid"] = f"field-{s.path}"
        w.on_value_change(lambda e, p=s.path, src=w: self.set_value(p, e.value, src))
        self.widgets.setdefault(s.path, []).append(w)
        if s.path in self.errors:
            _show_error(w, self.errors[s.path])
        return w


def _caption(specs: list[FieldSpec], n_assumed: int) -> str:
    return f"{len(specs)} field{'s' if len(specs) != 1 else ''}" + (f" · {n_assumed} assumed" if n_assumed else "")


def _show_error(w: ui.element, msg: str | None) -> None:
    """A message under an input (Quasar's error slot); checkboxes have none."""
    if hasattr(w, "error"):
        w.error = msg or None
