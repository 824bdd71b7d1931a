"""The dashboard's "Findings" section: every finding of every game grouped by kind, each kind with the sentence
that says what it means, and the replay line to watch one run where it happens."""

from __future__ import annotations

from typing import Any

from sim.report.pages import esc

KIND_WORDS = {
    "seat_advantage": "Seat advantage", "dominant_option": "Dominant option", "trap_option": "Trap option",
    "economy_loop": "Economy loop", "unused_content": "Unused content", "degenerate_strategy": "Degenerate strategy",
    "difficulty_cliff": "Difficulty cliff", "runaway_stacking": "Runaway stacking",
}


def _one(f: dict[str, Any]) -> str:
    ev = f.get("evidence") or {}
    runs = ev.get("runs")
    said = f"{ev.get('metric', '')}" + (f"; {ev['comparison']}" if ev.get("comparison") else "") + (
        f"; {runs:,} runs" if isinstance(runs, int) else "")
    replay = f"<br><code class='replay'>{esc(f['replay'])}</code>" if f.get("replay") else ""
    return (f"<li class='finding' data-kind='{esc(f['kind'])}' data-game='{esc(f['game'])}'>"
            f"<strong>{esc(f.get('game_title') or f['game'])}:</strong> {esc(f['title'])}"
            f"<br><small class='muted'>Evidence: {esc(said)}</small>{replay}</li>")


def findings_section(found: list[dict[str, Any]], meanings: dict[str, str], games: list[str]) -> str:
    """``<section id="findings">``: per kind its meaning and its findings (or that none was found)."""
    parts = ["<section id='findings' class='findings'><h2>Findings</h2>",
             f"<p class='muted'>What the detectors found in the tables of {esc(', '.join(games))}, by kind: each "
             "finding with its measured value and 95 % interval, its evidence and a replay line to watch a run where "
             "it happens. Thresholds: the <code>[findings]</code> section of a config.</p>"]
    for kind, meaning in meanings.items():
        mine = [f for f in found if f.get("kind") == kind]
        head = f"{KIND_WORDS.get(kind, kind)} ({len(mine)})"
        items = "".join(_one(f) for f in mine) if mine else "<li class='muted'>None found.</li>"
        parts.append(f"<div class='kind' id='kind-{esc(kind)}'><h3>{esc(head)}</h3>"
                     f"<p class='meaning'>{esc(meaning)}</p><ul>{items}</ul></div>")
    parts.append("</section>")
    return "".join(parts)
