"""One-file pages for ``calibrate`` and ``check``: the answer first, then the evidence (same look as every page)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.experiments.targets import verdict_words
from sim.games import get_game
from sim.report import pages, words


def calibration_page(summary: dict[str, Any], chart: Path | None, title: str) -> str:
    """The chosen field value and the metric there with its interval, the search chart, every evaluation."""
    s, est = summary, summary["estimate"]
    g = get_game(s["game"])
    metric, policy = words.metric_name(s["game"], s["metric"]), words.policy_name(s["game"], s["policy"])
    field = words.config_label(s["game"], g.Config, s["field"])
    start = s.get("start")
    had = f" (the config has {start:g})" if isinstance(start, int | float) and start != s["value"] else ""
    answer = _capital(f"{field} = {words.field_value_text(s['value'], s['field_ci95'])}{had} gives {metric} "
                      f"{pages.value_text(s['metric'], est['value'], est['ci95'])} for {policy} "
                      f"(target {pages.value_text(s['metric'], s['target'])}).")
    status = "converged" if s["converged"] else "did NOT converge"
    interval = words.field_interval_text(field, s["field_ci95"], len(s["evaluations"]),
                                         whole=isinstance(s["value"], int))
    setting = dict(x.split(": ", 1) for x in s.get("setting", []) if ": " in x)  # "difficulty: Normal"
    body = [
        f"<h1>{pages.esc(title)}</h1>",
        pages.facts_line({"game": g.title, **setting, "policy": policy, "field": s["field"],
                          "n per evaluation": s["n"], "seed": s["seed"], "rules fingerprint": s["config_hash"]}),
        "<h2>Answer</h2>", f"<p class='answer'>{pages.esc(answer)}</p>",
        f"<p>The search {status} ({pages.esc(s['stop'])}) after {len(s['evaluations'])} evaluations on the same "
        f"seeds; tolerance: {pages.esc(s['tolerance'])}. "
        f"{pages.esc(_capital(interval))}.</p>",
        *(f"<p class='note'>Note: {pages.esc(note)}.</p>" for note in s.get("notes", [])),
    ]
    if chart is not None:
        body += ["<h2>Chart</h2>", pages.figure(chart, f"{metric} at every evaluated value of {field} "
                                                       "(95 % intervals), the target and the answer.")]
    rows = "".join(
        f"<tr><td>{pages.num(e['x'])}</td><td>{pages.esc(pages.value_text(s['metric'], e['value'], e['ci95']))}"
        "</td></tr>" for e in sorted(s["evaluations"], key=lambda e: e["x"]))
    body.append(f"<h2>Evaluations</h2><table><tr><th>{pages.esc(field)}</th><th>{pages.esc(metric)} "
                f"[95 %]</th></tr>{rows}</table>")
    return pages.document(title, body)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def check_page(verdicts: list[dict[str, Any]], source: str, strict: bool) -> str:
    """How many bands hold, the failing ones first, then every band with its estimate and interval."""
    failing = [v for v in verdicts if v["failing"]]
    title = f"dicesim check · {Path(source).name}"
    answer = (f"{len(verdicts) - len(failing)} of {len(verdicts)} bands hold{' (strict)' if strict else ''}"
              + (f"; {len(failing)} failing." if failing else "."))

    def table(vs: list[dict[str, Any]]) -> str:
        head = "".join(f"<th>{h}</th>" for h in ("target", "status", "game", "policy", "setting", "metric", "band",
                                                  "estimate [95 %]", "n"))
        rows = []
        for v in vs:
            w = verdict_words(v)
            rows.append(f"<tr><th>{pages.esc(v['name'])}</th><td class='{'missing' if v['failing'] else ''}'>"
                        f"{pages.esc(v['status'])}</td><td>{pages.esc(w['game'])}</td><td>{pages.esc(w['policy'])}</td>"
                        f"<td>{pages.esc(w['setting'])}</td>"
                        f"<td title='{pages.esc(v['metric'])}'>{pages.esc(w['metric'])}</td><td>{pages.esc(w['band'])}"
                        f"</td><td>{pages.esc(w['estimate'])}</td><td>{v['n']:,}</td></tr>")
        return f"<table><tr>{head}</tr>{''.join(rows)}</table>"

    body = [f"<h1>{pages.esc(title)}</h1>", "<h2>Answer</h2>", f"<p class='answer'>{pages.esc(answer)}</p>"]
    if failing:
        body += ["<h2>Failing bands</h2>", table(failing)]
    body += ["<h2>Every band</h2><p>A band holds when its estimate is inside; <i>pass (unsure)</i>: inside, but the "
             "95 % interval crosses an edge (<code>--strict</code> fails those too: <i>fail (strict: unsure)</i>).</p>",
             table(verdicts)]
    return pages.document(title, body)
