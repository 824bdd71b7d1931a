"""A tune's one-page report: ``report.html`` with its history chart beside it (no server needed).

Built only from a finished tune folder (``tune.json``, ``result.json``, ``history.csv``), never by
re-running: the chosen values, each target's achieved value with its 95 % interval against the
target and its tolerance, and the evaluation history as a chart and a table.
"""

from __future__ import annotations

import html
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.core import atomic
from sim.experiments.sweep_store import state
from sim.games import get_game
from sim.report import charts, words
from sim.report.mpl import plt
from sim.report.outputs import STYLE


def _fmt(v: Any) -> str:
    if isinstance(v, bool | np.bool_):
        return "yes" if v else "no"
    if isinstance(v, float | np.floating):
        return "" if math.isnan(v) else f"{v:.5g}"
    return html.escape(str(v))


def _field(game: str, path: str) -> str:
    """A tuned config field in words (its title, else ``section › name``)."""
    return words.config_label(game, get_game(game).Config, path)


def history_chart(history: pd.DataFrame, result: dict[str, Any], path: Path) -> Path:
    """One panel per target (estimate per evaluation with its 95 % band, target and tolerance), one per field
    (its value per evaluation within the bounds), and the loss; the chosen evaluation is marked. Names in words,
    shares on % axes."""
    targets, fields, game = result["targets"], result["fields"], result["game"]
    n = len(targets) + len(fields) + 1
    cols = min(n, 3)
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.4 * rows), squeeze=False)
    flat = list(axes.flat)
    x = history["evaluation"].to_numpy()
    best = result["best_evaluation"]
    for i, (ax, t) in enumerate(zip(flat, targets, strict=False)):
        p = f"t{i + 1}_{t['metric']}"
        y = history[p].to_numpy(dtype=float)
        ax.axhspan(t["target"] - t["tol"], t["target"] + t["tol"], color="tab:green", alpha=0.15, label="tolerance")
        ax.axhline(t["target"], color="tab:green", lw=1)
        ax.fill_between(x, history[f"{p}_ci95_low"], history[f"{p}_ci95_high"], alpha=0.2, lw=0, label="95 %")
        ax.plot(x, y, marker="o", ms=3, label=words.metric_label(game, t["metric"]))
        ax.plot([best], [y[best]], marker="*", ms=12, color="tab:red", ls="none", label="chosen")
        ax.set_title(t["name"], fontsize=9)
        ax.set_xlabel("evaluation")
        unit = "%" if words.is_rate(t["metric"]) else words.unit_of(t["metric"], game)
        ax.set_ylabel(words.with_unit(words.metric_label(game, t["metric"]), unit))
        charts.in_units(ax.yaxis, unit)
        ax.grid(alpha=0.3)
    flat[0].legend(fontsize=7)
    for ax, f in zip(flat[len(targets):], fields, strict=False):
        y = history[f["name"]].to_numpy(dtype=float)
        ax.axhline(f["low"], color="grey", lw=0.8, ls="--")
        ax.axhline(f["high"], color="grey", lw=0.8, ls="--")
        ax.plot(x, y, marker="o", ms=3)
        ax.plot([best], [y[best]], marker="*", ms=12, color="tab:red", ls="none")
        ax.set_title(f"{_field(game, f['name'])} (bounds dashed)", fontsize=9)
        ax.set_xlabel("evaluation")
        ax.grid(alpha=0.3)
    ax = flat[len(targets) + len(fields)]
    loss = history["loss"].to_numpy(dtype=float)
    ax.semilogy(x, np.maximum(loss, 1e-6), marker="o", ms=3)
    ax.plot([best], [max(loss[best], 1e-6)], marker="*", ms=12, color="tab:red", ls="none")
    ax.set_title("loss: sum of (error / tolerance)² (within: every |error| <= tolerance)", fontsize=9)
    ax.set_xlabel("evaluation")
    ax.grid(alpha=0.3)
    for ax in flat[n:]:
        ax.set_visible(False)
    fig.suptitle(f"tune history · {result['name']} · same seeds every evaluation", fontsize=10)
    fig.tight_layout()
    atomic.save_figure(fig, path, dpi=100)
    plt.close(fig)
    return path


def _target_row(game: str, t: dict[str, Any]) -> list[str]:
    """A target's row in words and units: ``Vorschlag``, ``wins``, ``40.0 %``, ``± 0.2 pp``, ``39.8 % [38.1, 41.6]``
    (the code names as tooltips)."""
    m = t["metric"]
    said = words.value_text(m, t["value"], t["ci95"], game=game)
    value, _, ci = said.partition(" [")
    options = ", ".join(f"{k.replace('_', ' ')}: {words.word(game, v)}" for k, v in (t["options"] or {}).items())
    return [html.escape(t["name"]), f"<span title='{html.escape(t['policy'])}'>"
            f"{html.escape(words.policy_name(game, t['policy']))}</span>", html.escape(options or "—"),
            f"<span title='{html.escape(m)}'>{html.escape(words.metric_label(game, m))}</span>",
            html.escape(words.value_text(m, t["target"], game=game)),
            f"± {html.escape(words.value_text(m, t['tol'], diff=True, game=game).lstrip('+'))} ({t['tol_how']})",
            f"{html.escape(value)}{f' <small>[{html.escape(ci)}</small>' if ci else ''}", _fmt(t["within"])]


def _table(head: list[str], rows: list[list[Any]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def stop_words(stop: str, max_evals: int) -> str:
    """Why the search ended, as a person says it ("max evaluations" read as a setting's name)."""
    return f"stopped at its limit of {max_evals} evaluations (max_evals)" if stop == "max evaluations" else stop


def aim(x: dict, game: str) -> str:
    """A target's value and tolerance in the metric's unit: ``28.0 % ± 1 pp``, ``215 points ± 0.5 points``."""
    m = x["metric"]
    tol = f"{x['tol'] * 100:.3g} pp" if words.is_rate(m) else words.value_text(m, x["tol"], game=game)
    return f"{words.value_text(m, x['target'], game=game)} ± {tol}"


def verdict(targets: list[dict], game: str) -> str:
    """The answer first: every target met, or which are missed and by how much (``OFF`` beside each read as code)."""
    missed = [x for x in targets if not x["within"]]
    if not missed:
        return f"All {len(targets)} targets met." if len(targets) > 1 else "The target is met."
    said = "; ".join(f"{x['name']} ({words.metric_label(game, x['metric'])} "
                     f"{words.value_text(x['metric'], x['value'], game=game)} against {aim(x, game)})"
                     for x in missed)
    return f"{len(missed)} of {len(targets)} targets missed: {said}." if len(targets) > 1 else \
        f"The target is missed: {said}."


def build_tune_report(out: str | Path) -> Path:
    """Write ``tune_history.png`` and ``report.html`` of a finished tune folder."""
    out = Path(out)
    meta, result = (state(out / f, "no report can be made from it") for f in ("tune.json", "result.json"))
    history = pd.read_csv(out / "history.csv")
    chart = history_chart(history, result, out / "tune_history.png")
    spec = meta.get("spec", {})
    title = f"dicesim tune · {result['name']}"
    game = result["game"]
    facts = {"game": get_game(game).title, "n per evaluation": result["n"],
             "seed (same every evaluation)": result["seed"],
             "method": f"scipy {result['method']}", "evaluations": result["evaluations"],
             "stop": stop_words(result["stop"], spec.get("max_evals", result["evaluations"])),
             "code version": meta.get("code_version"), "fingerprint": result["fingerprint"]}
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
        f"<style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1>",
        f"<p class='answer'>{html.escape(verdict(result['targets'], game))}"
        f"{'' if result['converged'] else ' The best evaluation is shown.'}</p>",
    ]
    if spec.get("description"):
        parts.append(f"<p>{html.escape(spec['description'])}</p>")
    parts.append("<p>" + " · ".join(f"<b>{html.escape(k)}</b> {html.escape(str(v))}" for k, v in facts.items())
                 + "</p>")
    parts.append("<p>Tuned config, ready to use with <code>--config</code>: "
                 "<a href='tuned.toml'>tuned.toml</a> · history: <a href='history.csv'>history.csv</a></p>")
    parts.append("<h2>Chosen values</h2>" + _table(
        ["field", "value", "bounds", "start"],
        [[f"{html.escape(_field(game, f['name']))} <code>{html.escape(f['name'])}</code>",
          _fmt(result["values"][f["name"]]),
          f"[{_fmt(f['low'])}, {_fmt(f['high'])}]", _fmt(f["start"])] for f in result["fields"]]))
    parts += [f"<p class='note'>Note: {html.escape(note)}.</p>" for note in result.get("notes", [])]
    parts.append("<h2>Targets</h2><p>Achieved at the chosen values, with the 95 % interval of the estimate.</p>"
                 + _table(["target", "policy", "options", "metric", "target value", "tolerance", "achieved [95 %]",
                           "within"],
                          [_target_row(game, t) for t in result["targets"]]))
    parts.append(f"<h2>History</h2><p><img src='{chart.name}' alt='tune history'></p>")
    cols = [c for c in history.columns if not c.endswith(("_ci95_low", "_ci95_high"))]
    parts.append(_table(cols, [[_fmt(r[c]) for c in cols] for r in history.to_dict("records")]))
    parts.append("</body></html>")
    return atomic.write_text(out / "report.html", "\n".join(parts))
