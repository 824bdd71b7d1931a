"""Outputs: per-run tables (parquet, CSV), metric tables, charts, report.html and a manifest.

An output folder holds everything needed to rebuild its report without re-running anything:
``manifest.json`` (game, config, options, seed, n, which table belongs to which policy label),
``runs-<label>.parquet`` (+ ``.csv`` for moderate N), ``metrics.csv``/``metrics.parquet`` (tidy:
label, metric, value, ci95_low, ci95_high), the game's PNG charts and ``report.html``.
"""

from __future__ import annotations

import html
import json
import math
import subprocess
from pathlib import Path
from typing import Any

import pandas as pd

from sim.games import get_game

CSV_MAX_ROWS = 200_000
ROOT = Path(__file__).resolve().parent.parent


def code_version() -> str:
    """``git describe`` of the checkout, or the package version."""
    try:
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True, timeout=5
        )
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    from importlib.metadata import version

    return version("dicesim")


def tidy_metrics(metrics_by_label: dict[str, dict[str, dict[str, Any]]]) -> pd.DataFrame:
    rows = []
    for label, metrics in metrics_by_label.items():
        for name, m in metrics.items():
            lo, hi = (m.get("ci95") or [math.nan, math.nan])[:2]
            rows.append({"label": label, "metric": name, "value": m["value"], "ci95_low": lo, "ci95_high": hi})
    return pd.DataFrame(rows)


def safe_label(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in label)


def write_tables(out: Path, tables: dict[str, pd.DataFrame], csv: bool | None = None) -> dict[str, str]:
    files = {}
    for label, t in tables.items():
        name = f"runs-{safe_label(label)}"
        t.to_parquet(out / f"{name}.parquet", index=False)
        if csv or (csv is None and len(t) <= CSV_MAX_ROWS):
            t.to_csv(out / f"{name}.csv", index=False)
        files[label] = f"{name}.parquet"
    return files


def write_outputs(
    out: Path, summary: dict[str, Any], tables: dict[str, pd.DataFrame], metrics_by_label, csv: bool | None = None
) -> Path:
    """Write tables, metrics, charts, manifest and report.html into ``out``; returns the report path."""
    out.mkdir(parents=True, exist_ok=True)
    files = write_tables(out, tables, csv)
    tm = tidy_metrics(metrics_by_label)
    tm.to_csv(out / "metrics.csv", index=False)
    tm.to_parquet(out / "metrics.parquet", index=False)
    manifest = {**summary, "tables": files, "code_version": code_version()}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, default=json_default))
    return build_report(out)


def json_default(o: Any) -> Any:
    """JSON for numpy scalars and arrays (and anything else as its string)."""
    if hasattr(o, "item"):
        return o.item()
    if hasattr(o, "tolist"):
        return o.tolist()
    return str(o)


def load_manifest(out: Path) -> dict[str, Any]:
    path = Path(out) / "manifest.json"
    if not path.is_file():
        from sim.config import DicesimError

        raise DicesimError(f"no manifest.json in {out} (not an output folder of dicesim play/compare)")
    return json.loads(path.read_text())


def build_report(out: Path) -> Path:
    """(Re)build charts and report.html of an output folder from its stored tables."""
    out = Path(out)
    manifest = load_manifest(out)
    game = get_game(manifest["game"])
    tables = {label: pd.read_parquet(out / f) for label, f in manifest["tables"].items()}
    options = manifest.get("options", {})
    if "config" in manifest:
        game.use_config(game.Config.model_validate(manifest["config"]))
    charts = game.charts(tables, out, options)
    metrics = pd.read_csv(out / "metrics.csv")
    page = render_html(manifest, metrics, [Path(c).name for c in charts])
    path = out / "report.html"
    path.write_text(page, encoding="utf-8")
    return path


def _fmt(v: float) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if abs(v) >= 1000 or float(v).is_integer():
        return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:g}"
    return f"{v:.4g}"


def metrics_html(metrics: pd.DataFrame) -> str:
    labels = list(dict.fromkeys(metrics["label"]))
    names = list(dict.fromkeys(metrics["metric"]))
    idx = {(r.label, r.metric): r for r in metrics.itertuples()}
    head = "".join(f"<th>{html.escape(str(lab))}</th>" for lab in labels)
    rows = []
    for name in names:
        cells = []
        for lab in labels:
            r = idx.get((lab, name))
            if r is None:
                cells.append("<td></td>")
                continue
            ci = "" if pd.isna(r.ci95_low) else f" <small>[{_fmt(r.ci95_low)}, {_fmt(r.ci95_high)}]</small>"
            cells.append(f"<td>{_fmt(r.value)}{ci}</td>")
        rows.append(f"<tr><th>{html.escape(name)}</th>{''.join(cells)}</tr>")
    return f"<table><tr><th>metric</th>{head}</tr>{''.join(rows)}</table>"


STYLE = """body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:0.9em}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
th:first-child{text-align:left}img{max-width:100%;margin:0.5em 0;border:1px solid #eee}small{color:#777}
code{background:#f4f4f4;padding:1px 4px}"""


def render_html(manifest: dict[str, Any], metrics: pd.DataFrame, charts: list[str]) -> str:
    title = f"dicesim · {manifest['game']} · {manifest.get('title', '')}".strip(" ·")
    facts = {
        k: manifest.get(k)
        for k in ("game", "n", "seed", "config_hash", "options", "seconds", "runs_per_second", "code_version")
        if manifest.get(k) is not None
    }
    assumed = manifest.get("assumed") or []
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
        f"<style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1>",
        "<p>" + " · ".join(f"<b>{html.escape(k)}</b> {html.escape(str(v))}" for k, v in facts.items()) + "</p>",
    ]
    if assumed:
        parts.append(
            "<p><b>Assumed values used</b> (not fixed by the game's rules page; replace them in the config): "
            + ", ".join(f"<code>{html.escape(a)}</code>" for a in assumed)
            + "</p>"
        )
    parts.append("<h2>Metrics</h2><p>95 % intervals in brackets (Wilson for rates, normal for means).</p>")
    parts.append(metrics_html(metrics))
    if charts:
        parts.append("<h2>Charts</h2>")
        parts.extend(f"<p><img src='{html.escape(c)}' alt='{html.escape(c)}'></p>" for c in charts)
    for title_, name in manifest.get("extras") or []:
        t, src = html.escape(title_), html.escape(name)
        parts.append(f"<h2>{t}</h2><p><img src='{src}' alt='{t}'></p>")
    if manifest.get("paired"):
        parts.append(
            "<h2>Paired differences (same seeds)</h2><table><tr><th>comparison</th><th>mean difference</th></tr>"
        )
        for k, v in manifest["paired"].items():
            parts.append(
                f"<tr><th>{html.escape(k)}</th><td>{_fmt(v['value'])} "
                f"<small>[{_fmt(v['ci95'][0])}, {_fmt(v['ci95'][1])}]</small></td></tr>"
            )
        parts.append("</table>")
    parts.append("<h2>Config</h2><pre>" + html.escape(json.dumps(manifest.get("config", {}), indent=2)) + "</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)


def index_html(entries: list[tuple[str, str, str]], title: str = "dicesim balance report") -> str:
    """A top page linking game reports: (name, relative link, one-line summary)."""
    items = "".join(
        f"<li><a href='{html.escape(link)}'>{html.escape(name)}</a> — {html.escape(text)}</li>"
        for name, link, text in entries
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title><style>{STYLE}</style></head>"
        f"<body><h1>{title}</h1><ul>{items}</ul></body></html>"
    )
