"""The dashboard's "Findings" section: every finding of every game grouped by kind, each kind with the sentence
that says what it means, and the replay line to watch one run where it happens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.core.jsonable import read_numbers
from sim.report import words
from sim.report.findings.config import thresholds_sentence
from sim.report.pages import esc

FILE = "findings.json"  # a game folder's findings, beside its report.html

KIND_WORDS = {
    "seat_advantage": "Seat advantage", "dominant_option": "Dominant option", "trap_option": "Trap option",
    "economy_loop": "Economy loop", "unused_content": "Unused content", "degenerate_strategy": "Degenerate strategy",
    "difficulty_cliff": "Difficulty cliff", "runaway_stacking": "Runaway stacking",
}

# what each kind means, one sentence for the report (the detectors run in this order: ``runner.DETECTORS``)
MEANINGS = {
    "seat_advantage": "A seat wins more (or less) than its fair share, beyond the interval and the threshold: the "
                      "turn order decides part of the game.",
    "dominant_option": "One upgrade, people or other choice (or a few of them) pays far more than every alternative: "
                       "players will take it every time and the others become filler.",
    "trap_option": "A choice (or a few) that costs wins, far below every alternative: a player who takes it is "
                   "punished for trusting the game.",
    "economy_loop": "A sequence of purchases and sales that turns coins into more coins: the prices let a run print "
                    "money.",
    "unused_content": "Content a strong policy almost never chooses when it is offered: it may as well not exist.",
    "degenerate_strategy": "A simple policy beats the game's own suggestion or a smarter bot: the game rewards "
                           "not thinking.",
    "difficulty_cliff": "A room or difficulty step whose death rate jumps far above its neighbours': a wall "
                        "instead of a slope.",
    "runaway_stacking": "An upgrade whose later copies pay (nearly) as much as the first: taken again and again it "
                        "grows until the win rate runs out of room.",
}


STYLE = (".findings{border:1px solid #d9c27a;background:#fffdf4;border-radius:6px;padding:0.2em 1em 0.6em;"
         "margin-bottom:1.2em}.findings h2{margin-top:0.4em}"
         ".findings h3{margin:0.8em 0 0.1em;font-size:1.05em}.findings .meaning{margin:0 0 0.3em;"
         "font-style:italic}.findings li.finding{margin:0.35em 0}.findings code.replay{font-size:0.82em}"
         ".findings .kind-none li{margin:0.2em 0}.findings summary{cursor:pointer;color:#555}")


# the tables some detectors read, named for a reader (the evidence's ``metric`` keeps the table's code name)
TABLE_WORDS = {"ability_lift": "each people's ability lift", "matchup": "the people matchup table",
               "altars": "Opferaltar visits taken", "jokers_sold": "jokers sold to the Joker-Händler",
               "truhen": "Verfluchte Truhen opened"}


def evidence_metric(game: str, metric: str) -> str:
    """The evidence's metric as a reader says it: a code name (``first_attacker_win_rate``) in the game's words
    (``the first attacker wins``); a phrase the detector wrote stays as it is."""
    if not metric or " " in metric:
        return metric
    return TABLE_WORDS.get(metric) or words.metric_label(game, metric)


def _one(f: dict[str, Any]) -> str:
    ev = f.get("evidence") or {}
    runs = ev.get("runs")
    metric = str(ev.get("metric", ""))
    said = evidence_metric(f["game"], metric) + (f"; {ev['comparison']}" if ev.get("comparison") else "") + (
        f"; {runs:,} runs" if isinstance(runs, int) else "")
    replay = f"<br><code class='replay'>{esc(f['replay'])}</code>" if f.get("replay") else ""
    return (f"<li class='finding' data-kind='{esc(f['kind'])}' data-game='{esc(f['game'])}'>"
            f"<strong>{esc(f.get('game_title') or f['game'])}:</strong> {esc(f['title'])}"
            f"<br><small class='muted' title='{esc(metric)}'>Evidence: {esc(said)}</small>{replay}</li>")


def _size(f: dict[str, Any]) -> float:
    """How large a finding is, to show the largest of a kind first: its value in percentage points for shares and
    their differences (stored as fractions), else as it stands (points, coins)."""
    value = f.get("value")
    if not isinstance(value, int | float) or value != value:
        return 0.0
    return abs(value) * (100 if f.get("unit") in ("pp", "%") else 1)


def findings_section(found: list[dict[str, Any]], meanings: dict[str, str], games: list[str], shown: int = 3,
                     thresholds: dict[str, Any] | None = None) -> str:
    """``<section id="findings">``: each kind that was found with its meaning and its findings, the largest first
    (the first ``shown`` open, the rest folded), then the kinds not found, each with its meaning."""
    parts = ["<section id='findings' class='findings'><style>" + STYLE + "</style><h2>Findings</h2>",
             f"<p class='muted'>{len(found)} found by the detectors in the tables of {esc(', '.join(games))}: each "
             "with its measured value and 95 % interval, its evidence and a replay line that shows a run where it "
             f"happens. {esc(thresholds_sentence(thresholds or {}))}</p>"]
    none = []
    for kind, meaning in meanings.items():
        mine = sorted((f for f in found if f.get("kind") == kind), key=_size, reverse=True)  # the largest open
        if not mine:
            none.append(f"<li class='kind none' id='kind-{esc(kind)}'><strong>{esc(KIND_WORDS.get(kind, kind))}"
                        f"</strong>: none found. <span class='meaning muted'>{esc(meaning)}</span></li>")
            continue
        items = "".join(_one(f) for f in mine[:shown])
        if len(mine) > shown:
            items += (f"<li class='more'><details><summary>{len(mine) - shown} more</summary><ul>"
                      + "".join(_one(f) for f in mine[shown:]) + "</ul></details></li>")
        parts.append(f"<div class='kind' id='kind-{esc(kind)}'><h3>{esc(KIND_WORDS.get(kind, kind))} "
                     f"({len(mine)})</h3><p class='meaning'>{esc(meaning)}</p><ul>{items}</ul></div>")
    if none:
        parts.append("<div class='kind-none'><h3>Not found</h3><ul>" + "".join(none) + "</ul></div>")
    parts.append("</section>")
    return "".join(parts)


def folder_section(out: Path, game_title: str) -> str:
    """The findings of the game folder ``out`` (its ``findings.json``, written by ``dicesim findings`` or the balance
    report) as the page's section; empty where there are none to read."""
    path = Path(out) / FILE
    try:
        found = read_numbers(path.read_text(encoding="utf-8")).get("findings") if path.is_file() else None
    except (OSError, ValueError, AttributeError):
        return ""
    if not isinstance(found, list):
        return ""
    return findings_section([f for f in found if isinstance(f, dict) and f.get("kind")], MEANINGS, [game_title])
