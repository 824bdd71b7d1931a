"""HTML pieces shared by every dicesim page: self-contained (charts embedded as data URIs), answers first.

A page must survive being mailed or attached to a ticket, so images are embedded, never linked, and the
layout prints (folded tables open for printing, figures kept whole). Numbers are formatted the same way
everywhere: rates as percentages with their 95 % interval, paired rate differences in percentage points.
"""

from __future__ import annotations

import base64
import html
import io
import math
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

STYLE = """body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#222}
h1{margin-bottom:0.2em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:0.6em 0;font-size:0.9em}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:right;vertical-align:top}
td{white-space:nowrap}
th:first-child{text-align:left}small,.muted{color:#666}code{background:#f4f4f4;padding:1px 4px}
figure{margin:1em 0;break-inside:avoid}figure img{max-width:100%;border:1px solid #eee}
figcaption{font-size:0.95em;margin:0.2em 0 0.6em}
details{margin:0.4em 0}summary{cursor:pointer;font-weight:600}
.answer{font-size:1.15em;margin:0.4em 0}.missing{color:#a33}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:1em}
.card{border:1px solid #ccc;border-radius:6px;padding:0.8em 1em;break-inside:avoid}
.card h2{margin:0 0 0.3em;border:0}.card img{width:100%;border:1px solid #eee}
.card table{font-size:0.82em}.card td{white-space:normal}
@media print{body{margin:0;max-width:none}.cards{display:block}.card{margin-bottom:1em}a{color:#222}
summary{list-style:none}table{font-size:0.72em}td{white-space:normal}pre{white-space:pre-wrap}}"""

# closed <details> would print closed: open them all for printing
PRINT_SCRIPT = ("<script>window.addEventListener('beforeprint',()=>document.querySelectorAll('details')"
                ".forEach(d=>d.open=true))</script>")

_RATE = re.compile(r"(^|_)rate(_|$)|^survival_|^death_room_|_advantage$|_share(_|$)")


def is_rate(name: str) -> bool:
    """Whether a metric is a share (shown as a percentage): by the project's naming convention."""
    return bool(_RATE.search(name))


def num(v: Any) -> str:
    """A plain number: thousands separated, four significant digits otherwise."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    v = float(v)
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if v.is_integer():
        return f"{v:g}"
    return f"{v:.4g}"


def _pct(v: float, points: bool = False) -> str:
    return f"{v * 100:+.1f}" if points else f"{v * 100:.1f}"


def value_text(name: str, value: Any, ci: Iterable[Any] | None = None, diff: bool = False) -> str:
    """``50.1 % [49.4, 50.8]`` for rates (``+3.2 pp`` for their differences), ``254.6 [254.2, 255.0]`` else."""
    lo_hi = [float(x) for x in ci] if ci is not None else []
    has_ci = len(lo_hi) == 2 and not any(math.isnan(x) for x in lo_hi)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if is_rate(name):
        unit = " pp" if diff else " %"
        txt = _pct(float(value), diff) + unit
        if has_ci:
            txt += f" [{_pct(lo_hi[0], diff)}, {_pct(lo_hi[1], diff)}]"
        return txt
    txt = (f"{float(value):+.4g}" if diff else num(value))
    if has_ci:
        txt += f" [{num(lo_hi[0])}, {num(lo_hi[1])}]"
    return txt


def esc(x: Any) -> str:
    return html.escape(str(x))


# --- images --------------------------------------------------------------------------------------


def data_uri(path: str | Path, max_width: int | None = None) -> str:
    """A PNG as a ``data:`` URI; with ``max_width`` scaled down first (thumbnails stay small)."""
    raw = Path(path).read_bytes()
    if max_width:
        from PIL import Image  # heavy library (Pillow): only to shrink a chart

        with Image.open(io.BytesIO(raw)) as im:
            if im.width > max_width:
                im = im.convert("RGB")
                im.thumbnail((max_width, max_width * im.height // im.width + 1))
                buf = io.BytesIO()
                im.save(buf, format="PNG", optimize=True)
                raw = buf.getvalue()
    return "data:image/png;base64," + base64.b64encode(raw).decode("ascii")


def figure(path: str | Path, caption: str, alt: str | None = None) -> str:
    """An embedded chart with its one-sentence caption (a missing file says so instead of a broken image)."""
    path = Path(path)
    if not path.is_file():
        return f"<p class='missing'>Chart {esc(path.name)} was not written.</p>"
    if path.suffix.lower() != ".png":  # an extra analysis that is a table or document: beside the page
        return f"<p>{esc(caption)} <a href='{esc(path.name)}'>{esc(path.name)}</a></p>"
    return (f"<figure><img src='{data_uri(path)}' alt='{esc(alt or caption)}'>"
            f"<figcaption>{esc(caption)}</figcaption></figure>")


def caption_of(name: str, notes: dict[str, str]) -> str:
    """The game's sentence for a chart file, else its file name in words."""
    return notes.get(name) or Path(name).stem.replace("_", " ").capitalize() + "."


# --- documents -----------------------------------------------------------------------------------


def document(title: str, body: Iterable[str]) -> str:
    return "\n".join([
        f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(title)}</title>",
        f"<meta name='viewport' content='width=device-width, initial-scale=1'><style>{STYLE}</style></head><body>",
        *body, PRINT_SCRIPT, "</body></html>",
    ])


def facts_line(facts: dict[str, Any]) -> str:
    return "<p class='muted'>" + " · ".join(f"<b>{esc(k)}</b> {esc(v)}" for k, v in facts.items()) + "</p>"


def assumed_html(assumed: list[str], brief: int = 6) -> str:
    """Name the assumed values used: a few inline, the rest folded."""
    if not assumed:
        return "<p class='muted'>Assumed values used: none (every number is the rules page's).</p>"
    shown = ", ".join(f"<code>{esc(a)}</code>" for a in assumed[:brief])
    more = ""
    if len(assumed) > brief:
        rest = ", ".join(f"<code>{esc(a)}</code>" for a in assumed[brief:])
        more = f"<details><summary>{len(assumed) - brief} more</summary><p>{rest}</p></details>"
    return (f"<p><b>{len(assumed)} assumed values used</b> (not fixed by the rules page; change them in the config): "
            f"{shown}{' …' if more else ''}</p>{more}")


# --- metric tables -------------------------------------------------------------------------------

_NUMBERED = re.compile(r"^(?P<col>[a-z_]+?)_(?P<row>\d+)(?:_(?P<post>[a-z0-9_]+))?$")


def group_of(name: str, groups: Iterable[tuple[str, str]]) -> tuple[str, str, str] | None:
    """(group title, row, column) of a metric: the game's patterns first, then ``<stem>_<number>[_<suffix>]``
    (e.g. ``death_room_3`` -> per room, row 3), else ``None``."""
    for title, pattern in groups:
        m = re.match(pattern, name)
        if m:
            d = m.groupdict()
            return title, d["row"], d.get("col") or "value"
    m = _NUMBERED.match(name)
    if m:
        col, post = m["col"], m["post"]
        return f"per {col.rsplit('_', 1)[-1]}", m["row"], f"{col} {post}" if post else col
    return None


def _cell(name: str, r: Any) -> str:
    ci = None if pd.isna(r.ci95_low) else (r.ci95_low, r.ci95_high)
    return f"<td title='{esc(name)}'>{esc(value_text(name, r.value, ci))}</td>"


def _row_key(row: str) -> tuple:
    return (0, int(row), "") if row.isdigit() else (1, 0, row)


def grouped_metrics_html(metrics: pd.DataFrame, groups: Iterable[tuple[str, str]] = (),
                         skip: Iterable[str] = ()) -> str:
    """The full metric table, folded: ungrouped metrics (one row each, a column per label), then one ``<details>``
    per group (rows x columns per label). Nothing is dropped: every metric appears once."""
    labels = list(dict.fromkeys(metrics["label"]))
    idx = {(r.label, r.metric): r for r in metrics.itertuples()}
    groups = list(groups)
    plain: list[str] = []
    grouped: dict[str, dict[str, dict[str, str]]] = {}  # title -> col -> row -> metric
    skip = set(skip)
    for name in dict.fromkeys(metrics["metric"]):
        if name in skip:
            continue
        g = group_of(name, groups)
        if g is None:
            plain.append(name)
        else:
            grouped.setdefault(g[0], {}).setdefault(g[2], {})[g[1]] = name
    parts = []
    head = "".join(f"<th>{esc(lab)}</th>" for lab in labels)
    if plain:
        rows = "".join(
            f"<tr><th>{esc(n)}</th>"
            + "".join(_cell(n, idx[(lab, n)]) if (lab, n) in idx else "<td></td>" for lab in labels) + "</tr>"
            for n in plain)
        parts.append(f"<details><summary>Summary metrics ({len(plain)})</summary>"
                     f"<table><tr><th>metric</th>{head}</tr>{rows}</table></details>")
    for title, cols in grouped.items():
        rows_ = sorted({r for c in cols.values() for r in c}, key=_row_key)
        count = sum(len(c) for c in cols.values())
        tables = []
        if len(cols) == 1:  # one value per row: a column per label
            col, names = next(iter(cols.items()))
            body = "".join(
                f"<tr><th>{esc(r)}</th>" + "".join(
                    _cell(names[r], idx[(lab, names[r])]) if r in names and (lab, names[r]) in idx else "<td></td>"
                    for lab in labels) + "</tr>" for r in rows_)
            tables.append(f"<table><tr><th>{esc(col)}</th>{head}</tr>{body}</table>")
        else:
            chead = "".join(f"<th>{esc(c)}</th>" for c in cols)
            for lab in labels:
                body = "".join(
                    f"<tr><th>{esc(r)}</th>" + "".join(
                        _cell(names[r], idx[(lab, names[r])]) if r in names and (lab, names[r]) in idx
                        else "<td></td>" for names in cols.values()) + "</tr>" for r in rows_)
                cap = f"<p><b>{esc(lab)}</b></p>" if len(labels) > 1 else ""
                tables.append(f"{cap}<table><tr><th></th>{chead}</tr>{body}</table>")
        parts.append(f"<details><summary>{esc(title.capitalize())} ({count} metrics)</summary>{''.join(tables)}"
                     "</details>")
    return "\n".join(parts)


# --- answers ---------------------------------------------------------------------------------------


def headline_rows(metrics: pd.DataFrame, headline: dict[str, str]) -> tuple[list[str], list[str]]:
    """(declared headline metrics present, those missing from every label)."""
    have = set(metrics["metric"])
    return [m for m in headline if m in have], [m for m in headline if m not in have]


def answer_sentence(metrics: pd.DataFrame, headline: dict[str, str], limit: int = 8) -> str:
    """``vorschlag wins 50.1 % [49.4, 50.8] · greedy wins …`` for the first declared headline metric present."""
    present, _ = headline_rows(metrics, headline)
    if not present:
        return ""
    name = present[0]
    words = headline[name]
    rows = metrics[metrics["metric"] == name]
    bits = []
    for r in rows.head(limit).itertuples():
        who = f"{r.label}:" if " " in str(r.label) else str(r.label)  # a match ("a vs b") reads as a heading
        ci = None if pd.isna(r.ci95_low) else (r.ci95_low, r.ci95_high)
        bits.append(f"{who} {words} {value_text(name, r.value, ci)}")
    return " · ".join(bits)


def headline_table(metrics: pd.DataFrame, headline: dict[str, str]) -> str:
    """Rows: labels; columns: the headline metrics with intervals; a missing declared metric is named."""
    present, missing = headline_rows(metrics, headline)
    out = []
    if present:
        idx = {(r.label, r.metric): r for r in metrics.itertuples()}
        head = "".join(f"<th>{esc(headline[m])}<br><small>{esc(m)}</small></th>" for m in present)
        body = "".join(
            f"<tr><th>{esc(lab)}</th>"
            + "".join(_cell(m, idx[(lab, m)]) if (lab, m) in idx else "<td>—</td>" for m in present) + "</tr>"
            for lab in dict.fromkeys(metrics["label"]))
        out.append(f"<table><tr><th></th>{head}</tr>{body}</table>")
    if missing:
        out.append("<p class='missing'>Not reported by this run (the game declares it as a headline metric, the "
                   "batch has no such metric): " + ", ".join(f"<code>{esc(m)}</code>" for m in missing) + "</p>")
    return "\n".join(out)


def paired_html(paired: dict[str, dict[str, Any]]) -> str:
    """Paired differences (same runs on both sides) with their 95 % intervals; rates in percentage points."""
    if not paired:
        return ""
    rows = []
    seen = set()
    for key, v in paired.items():
        metric, pair = key.split(":", 1) if ":" in key else (key, "")
        same = (pair, v["value"], tuple(v.get("ci95") or ()))
        if same in seen:  # e.g. ``score:`` and ``mean_score:`` of the same runs: one row is enough
            continue
        seen.add(same)
        ci = v.get("ci95")
        sure = ""
        if ci and not any(math.isnan(float(x)) for x in ci):
            sure = "yes" if float(ci[0]) > 0 or float(ci[1]) < 0 else "no"
        rows.append(f"<tr><th>{esc(key)}</th><td>{esc(value_text(metric, v['value'], ci, diff=True))}</td>"
                    f"<td>{sure}</td></tr>")
    return ("<table><tr><th>comparison (same seeds)</th><th>difference [95 %]</th><th>interval excludes 0</th></tr>"
            + "".join(rows) + "</table>")
