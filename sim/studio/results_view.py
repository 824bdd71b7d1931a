"""What a finished run shows: headline numbers beside the previous run, their difference, the charts.

Names and numbers read as on the report pages (``sim.report.words``, one formatter): ``wins 11.8 % [11.2, 12.4]``,
a difference of rates ``−14.9 pp``, the code name of each metric small beside its words. The difference is "now
minus before". When both runs played the same seeds (same N, seed, policy
and options) it carries the 95 % interval of the mean per-run difference: the change the edit made,
not noise. Each number's exact value sits in a ``data-value`` attribute for scripts and tests.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nicegui import ui

from sim.report import words
from sim.report.pages import says_of_a_policy
from sim.studio import engine


def fmt(v: Any) -> str:
    """A metric value as the report pages write it."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return str(v)
    try:
        x = float(v)
    except (TypeError, ValueError):
        return str(v)
    if math.isnan(x):
        return "–"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.4g}"


def fmt_ci(ci: Any) -> str:
    return f"[{fmt(ci[0])}, {fmt(ci[1])}]" if ci else ""


def shown(name: str, m: dict[str, Any] | None, diff: bool = False, game: str | None = None,
          like: Any = None) -> tuple[str, str]:
    """(value, interval) of a metric as the report pages write it: ``11.8 %`` and ``[11.2, 12.4]``, a difference of
    rates ``−14.9 pp``; a value that is no number as it is."""
    if m is None:
        return "", ""
    v = m.get("value")
    if isinstance(v, bool) or not isinstance(v, int | float):
        return fmt(v), ""
    text = words.value_text(name, v, m.get("ci95"), diff=diff, game=game, like=like)
    value, _, ci = text.partition(" [")
    return value, f"[{ci}" if ci else ""


def _cell(text: str, test_id: str | None = None, value: Any = None, classes: str = "") -> None:
    lab = ui.label(text).classes(classes)
    if test_id:
        lab.props["data-testid"] = test_id
    if value is not None:
        lab.props["data-value"] = repr(float(value)) if isinstance(value, int | float) else str(value)


def headline_table(cur: engine.PlayResult, prev: engine.PlayResult | None, names: list[str],
                   ids: bool = True) -> None:
    """Metric | now [95 %] | before [95 %] | difference [95 %] as a grid of labels (test ids once per page): each
    metric in words (its code name small beside), rates in %, their differences in pp."""
    same = engine.paired(cur, prev)
    cols = 4 if prev is not None else 2
    headline = getattr(engine.get_game(cur.game), "headline", {})

    def tid(kind: str, name: str) -> str | None:
        return f"{kind}-{name}" if ids else None

    with ui.element("div").classes("w-full overflow-x-auto"):  # long names scroll inside, not the page
        grid = ui.grid(columns=" ".join(["max-content"] * cols)).classes("gap-x-4 gap-y-2 items-start")
    if ids:
        grid.props["data-testid"] = "headline"
    with grid:
        heads = ["metric", cur.label or "now"]
        if prev is not None:
            heads += [prev.label or "before", "difference" + (" (paired, 95 %)" if same else " (not paired)")]
        for h in heads:
            ui.label(h).classes("text-bold text-grey-8")
        for name in names:
            m = cur.metrics[name]
            with ui.column().classes("gap-0"):  # its code name under it: four columns fit a laptop's half screen
                _cell(words.heading(cur.game, name, headline), tid("name", name))
                _cell(name, classes="font-mono text-caption text-grey-6 leading-none")
            value, ci = shown(name, m, game=cur.game)
            with ui.column().classes("gap-0"):  # the interval under the number
                _cell(value, tid("metric", name), m["value"], "text-bold")
                _cell(ci, classes="text-caption text-grey-7 leading-none")
            if prev is None:
                continue
            pm = prev.metrics.get(name)
            value, ci = shown(name, pm, game=cur.game)
            with ui.column().classes("gap-0"):
                _cell(value, tid("previous", name), pm["value"] if pm else None)
                _cell(ci, classes="text-caption text-grey-7 leading-none")
            d = engine.difference(cur, prev, name)
            with ui.column().classes("gap-0"):
                if d is None:
                    _cell("")
                    continue
                sig = d["ci95"] is not None and (d["ci95"][0] > 0 or d["ci95"][1] < 0)
                colour = "text-indigo-9 text-bold" if sig else "text-grey-8"  # beyond noise, whichever way
                value, ci = shown(name, d, diff=True, game=cur.game, like=m.get("ci95"))
                _cell(value, tid("diff", name), d["value"], colour)
                # a mean over the runs that reached a point (final LP of the survivors) pairs no run with a run
                _cell(ci or ("(no paired interval)" if same else ""), classes="text-caption text-grey-7 leading-none")


def verdict(cur: engine.PlayResult, prev: engine.PlayResult | None, names: list[str]) -> str:
    """The answer first, one sentence: the first headline metric now and, after a second run, what the edit did
    (``Vorschlag wins 61.4 % [59.2, 63.5]: +9.8 pp [+8.0, +11.5] against run 1 on the same seeds, beyond noise``)."""
    if not names:
        return ""
    name = names[0]
    headline = getattr(engine.get_game(cur.game), "headline", {})
    m = cur.metrics[name]
    phrase = words.metric_name(cur.game, name, headline)
    text = (f"{words.policy_name(cur.game, cur.policy)}{'' if says_of_a_policy(phrase) else ':'} {phrase} "
            f"{words.value_text(name, m['value'], m.get('ci95'), game=cur.game)}")  # as the command line says it
    d = engine.difference(cur, prev, name) if prev is not None else None
    if d is None:
        return text + "."
    change = words.value_text(name, d["value"], d["ci95"], diff=True, game=cur.game)
    if d["ci95"] is None:  # on the same seeds a metric may still pair no run with a run (a mean over survivors)
        why = "on the same seeds, but no paired interval for this metric" if engine.paired(cur, prev) else \
            "not the same seeds: no interval"
        return f"{text}: {change} against {prev.label or 'before'} ({why})."
    sure = d["ci95"][0] > 0 or d["ci95"][1] < 0
    return (f"{text}: {change} against {prev.label or 'before'} on the same seeds, "
            + ("beyond noise." if sure else "within noise (the interval includes 0)."))


def _wide(path: Path) -> bool:
    """Whether a PNG is over twice as wide as high (its header's size): such a chart spans both columns, or its
    labels would be too small to read (the per-upgrade bars)."""
    try:
        head = Path(path).read_bytes()[:24]
        width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    except OSError:
        return False
    return head[:8] == b"\x89PNG\r\n\x1a\n" and height > 0 and width > 2 * height


def chart_images(paths: list[Path], url: Callable[[Path], str]) -> None:
    """The game's PNG charts, two per row; a wide chart has a row of its own."""
    with ui.grid(columns=2).classes("w-full gap-2"):
        for p in paths:
            img = ui.image(url(p)).classes("w-full border" + (" col-span-2" if _wide(p) else "")).props(
                "fit=contain")
            img.props["data-testid"] = f"chart-{p.stem}"
            img.props["alt"] = p.stem
